// A Worker that imports nothing: bench/workerd_startup.mjs's baseline (what workerd and wrangler's bundling cost
// without rerankit), served by serve.mjs with RERANKIT_WORKER_EMPTY=1.
export default {
  fetch: () => Response.json({}),
};
