// `memoryBudgetMiB` with a worker pool (a fresh process, as tests/node/memory_budget.test.mjs's first test): the
// workers load the model with the caller's budget in their own instances, the caller sizes the batches by its
// budget, and the answer is the inline one (to 1e-6: batches of other sizes pad rows differently).
import { test } from "node:test";
import assert from "node:assert/strict";
import { CrossEncoder, wasmMemoryBytes } from "rerankit";
import { SMALL_CE as files, longDocuments } from "./small_cross_encoder.mjs";

const MiB = 2 ** 20;
const long = longDocuments(12, 5);

async function rerank(load, call = {}) {
  const model = await CrossEncoder.load({ ...files, ...load });
  const batches = [];
  let done = 0;
  try {
    const out = await model.rerank("ranking query", long, { topK: null, maxChunksPerDoc: 1, onProgress: (p) => (batches.push(p.done - done), (done = p.done)), ...call });
    return { out, batches };
  } finally {
    model.free();
  }
}

test("memoryBudgetMiB with workers: batches sized by the budget, the caller's memory within it, the inline answer", async () => {
  // first in a fresh process: the caller's load leaves ~38 MiB, each worker's instance the same
  const pooled = await rerank({ memoryBudgetMiB: 48, workers: 2 });
  assert.ok(wasmMemoryBytes() <= 48 * MiB, `wasm memory ${wasmMemoryBytes() / MiB} MiB > 48 MiB`);
  assert.ok(pooled.batches.length > 1 && pooled.batches.every((n) => n < 12), `batches ${pooled.batches}`);
  const inline = await rerank({}, { batchSize: 1 });
  assert.deepEqual(pooled.out.map((r) => r.index), inline.out.map((r) => r.index));
  pooled.out.forEach((r, i) => assert.ok(Math.abs(r.score - inline.out[i].score) <= 1e-6, `${r.score} vs ${inline.out[i].score}`));
});
