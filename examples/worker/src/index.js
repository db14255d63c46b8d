// A Cloudflare Worker that reranks with rerankit — the request and response shapes of Cohere's rerank API (so
// Cohere's own SDK works with `environment` set to this Worker: it posts to /v1/rerank) and Workers AI rerankers:
//   POST /          {query, documents: string[] | {text}[], top_n?, return_documents?, deadline_ms?}
//                   → {id, results: [{index, relevance_score, document?}], meta}
//   POST /evaluate  {qrels, run, measures}                            → {aggregate, perQuery}
//   GET  /stats     {version, simd, wasm_memory_bytes, model_loads}: the module's SIMD level, its linear memory
//                   (which never shrinks: the isolate's peak) and how many times this isolate loaded the local model
//
// Who ranks is the RERANKER variable (README.md in this folder):
//   "local" (default)  a cross-encoder in the Worker itself (rerankit's wasm)
//   "workers-ai"       Workers AI through the AI binding (`[ai] binding = "AI"`; AI_MODEL, default
//                      @cf/baai/bge-reranker-base)
//   "fallback"         Workers AI first; the local model when the binding fails or takes longer than
//                      FALLBACK_TIMEOUT_MS (default 2000). The local model is loaded only when first needed.
// Each answer says who ranked in the `x-reranker` header ("local" | "workers-ai"), and why the fallback ranked in
// `x-rerankit-fallback` (TIMEOUT, or the error code: REMOTE…).
//
// A local rerank stops scoring at DEADLINE_MS (default 20000, inside the Workers Paid plan's 30 s of CPU): documents
// it had no time for come back after the scored ones, in the caller's order, with `"scored": false` — an answer
// instead of a Worker killed at its CPU limit.
//
// The model is fetched once per isolate from MODEL_URL / TOKENIZER_URL — or, with MODEL_ID set, by its Hugging Face
// Hub id (`CrossEncoder.fromPretrained`; optional HF_HOST for a mirror, DTYPE, REVISION). rerankit keeps the files in the Cache API
// (cache "rerankit-models", keyed by URL), so a new isolate in the same colo does not download them again.
// The weights are never bundled into the Worker: its script stays small and the model can change without a deploy.
import { CrossEncoder, RerankitError, WorkersAiRanker, evaluate, version, wasmMemoryBytes, wasmSimd, withFallback } from "rerankit";

const MODES = ["local", "workers-ai", "fallback"];

let rankerPromise = null;
let modelLoads = 0;

/** The isolate's one model: loaded by the first request that needs it and shared by every later one (a load per
 *  request would cost seconds of CPU each and hold one more copy of the model in the isolate's 128 MB). */
function localModel(env) {
  if (rankerPromise) return rankerPromise;
  modelLoads += 1;
  rankerPromise = (env.MODEL_ID
    ? CrossEncoder.fromPretrained(env.MODEL_ID, { remoteHost: env.HF_HOST || undefined, dtype: env.DTYPE || undefined, revision: env.REVISION || undefined, memoryBudgetMiB: memoryBudget(env) })
    // workers: "auto" starts a pool where the runtime has threads; a Worker has none, so the model runs inline
    : CrossEncoder.load({ model: env.MODEL_URL, tokenizer: env.TOKENIZER_URL, workers: "auto", memoryBudgetMiB: memoryBudget(env) })
  ).catch((e) => {
    rankerPromise = null;
    throw e;
  });
  return rankerPromise;
}

/** The wasm memory the model's calls may reach: below the isolate's 128 MB, with room for the JavaScript heap. A
 *  model too large for it is refused at load (INVALID_ARGUMENT, naming memoryBudgetMiB) instead of killing the
 *  isolate mid-request. */
function memoryBudget(env) {
  return Number(env.MEMORY_BUDGET_MIB ?? 100);
}

/** The local model as a ranker that loads on its first call: in "fallback" mode, an isolate whose Workers AI
 *  calls all succeed never downloads it. */
function lazyLocal(env) {
  return {
    rerank: async (query, documents, options) => (await localModel(env)).rerank(query, documents, options),
    rerankBatch: async (queries, documents, options) => (await localModel(env)).rerankBatch(queries, documents, options),
  };
}

function workersAi(env) {
  // the Worker's configuration, not the caller's request, is at fault: a 500
  if (!env.AI) throw new Error('RERANKER: "workers-ai" and "fallback" need the AI binding (wrangler.toml: [ai] binding = "AI")');
  return new WorkersAiRanker({ ai: env.AI, model: env.AI_MODEL || undefined });
}

/** This request's ranker, its options, and a record of who answered. */
async function rankerFor(env) {
  const mode = env.RERANKER || "local";
  if (!MODES.includes(mode)) throw new Error(`RERANKER: expected one of ${MODES.join(", ")}, got ${JSON.stringify(mode)}`);
  // One pair per model call: the deadline is checked between batches, so a small batch stops close to it (on one
  // thread it costs no throughput). memoryBudgetMiB bounds the memory whatever the batch.
  const local = { batchSize: Number(env.BATCH_SIZE ?? 1), deadlineMs: Number(env.DEADLINE_MS ?? 20000) };
  const answer = { reranker: mode === "local" ? "local" : "workers-ai", fallback: null };
  if (mode === "local") return { ranker: await localModel(env), options: local, answer };
  if (mode === "workers-ai") return { ranker: workersAi(env), options: {}, answer };
  const ranker = withFallback(workersAi(env), lazyLocal(env), {
    timeoutMs: Number(env.FALLBACK_TIMEOUT_MS ?? 2000),
    fallbackOptions: local,
    onWarning: (message, warning) => {
      console.warn(message);
      answer.reranker = "local";
      answer.fallback = warning.code;
    },
  });
  return { ranker, options: {}, answer };
}

const COHERE_META = { api_version: { version: "1" } };

/** One result as Cohere's API gives it: with `return_documents`, the document — `{text}` for a string, else the
 *  object as sent; `scored: false` for one a deadline left unscored (its `relevance_score` is then null). */
function cohereResult(r, given, returnDocuments) {
  const result = { index: r.index, relevance_score: r.scored === false ? null : r.score };
  if (returnDocuments === true) result.document = typeof given[r.index] === "string" ? { text: given[r.index] } : given[r.index];
  if (r.scored !== undefined) result.scored = r.scored;
  return result;
}

function json(body, status = 200, headers = {}) {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
}

export default {
  async fetch(request, env) {
    const { pathname } = new URL(request.url);
    if (request.method === "GET" && pathname === "/stats") return json({ version: version(), simd: wasmSimd(), wasm_memory_bytes: wasmMemoryBytes(), model_loads: modelLoads });
    if (request.method !== "POST") return json({ error: "POST a JSON body" }, 405);
    try {
      const body = await request.json();
      if (pathname === "/evaluate") return json(evaluate(body.qrels, body.run, body.measures));
      const given = body.documents ?? [];
      const documents = given.map((d) => (typeof d === "string" ? d : d?.text));
      const { ranker, options, answer } = await rankerFor(env);
      // a caller may ask for less time than DEADLINE_MS (`deadline_ms`), never more
      const deadline = body.deadline_ms === undefined || options.deadlineMs === undefined ? {} : { deadlineMs: Math.min(options.deadlineMs, body.deadline_ms) };
      const results = await ranker.rerank(body.query, documents, { ...options, ...deadline, topK: body.top_n ?? null });
      const headers = { "x-reranker": answer.reranker, ...(answer.fallback ? { "x-rerankit-fallback": answer.fallback } : {}) };
      return json({ id: crypto.randomUUID(), results: results.map((r) => cohereResult(r, given, body.return_documents)), meta: COHERE_META }, 200, headers);
    } catch (e) {
      // The caller's mistakes are 400s; a hosted reranker that fails is a bad gateway; a model that cannot be
      // fetched or loaded is the Worker's problem.
      if (e instanceof RerankitError) return json({ error: e.message, code: e.code }, e.code === "INVALID_ARGUMENT" ? 400 : e.code === "REMOTE" ? 502 : 500);
      if (e instanceof SyntaxError) return json({ error: `body: ${e.message}`, code: "INVALID_ARGUMENT" }, 400);
      throw e;
    }
  },
};
