// A Cloudflare Worker that reranks with rerankit — the request and response shapes of Cohere's rerank API and
// Workers AI rerankers:
//   POST /          {query, documents: string[] | {text}[], top_n?}  → {results: [{index, relevance_score}]}
//   POST /evaluate  {qrels, run, measures}                            → {aggregate, perQuery}
//   GET  /stats     {version, wasm_memory_bytes}: the wasm linear memory (never shrinks: the isolate's peak)
// The model is fetched once per isolate from MODEL_URL / TOKENIZER_URL — or, with MODEL_ID set, by its Hugging Face
// Hub id (`CrossEncoder.fromPretrained`; optional HF_HOST for a mirror, DTYPE, REVISION). rerankit keeps the files in the Cache API
// (cache "rerankit-models", keyed by URL), so a new isolate in the same colo does not download them again.
// The weights are never bundled into the Worker: its script stays small and the model can change without a deploy.
import { CrossEncoder, RerankitError, evaluate, version, wasmMemoryBytes } from "rerankit";

let rankerPromise = null;

function ranker(env) {
  const loading = env.MODEL_ID
    ? CrossEncoder.fromPretrained(env.MODEL_ID, { remoteHost: env.HF_HOST || undefined, dtype: env.DTYPE || undefined, revision: env.REVISION || undefined })
    // workers: "auto" starts a pool where the runtime has threads; a Worker has none, so the model runs inline
    : CrossEncoder.load({ model: env.MODEL_URL, tokenizer: env.TOKENIZER_URL, workers: "auto" });
  rankerPromise ??= loading.catch((e) => {
    rankerPromise = null;
    throw e;
  });
  return rankerPromise;
}

function json(body, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

export default {
  async fetch(request, env) {
    const { pathname } = new URL(request.url);
    if (request.method === "GET" && pathname === "/stats") return json({ version: version(), wasm_memory_bytes: wasmMemoryBytes() });
    if (request.method !== "POST") return json({ error: "POST a JSON body" }, 405);
    try {
      const body = await request.json();
      if (pathname === "/evaluate") return json(evaluate(body.qrels, body.run, body.measures));
      const documents = (body.documents ?? []).map((d) => (typeof d === "string" ? d : d?.text));
      // One pair per model call keeps the activations (batch × heads × tokens² for attention) inside a Worker's 128 MB;
      // on one thread they cost no throughput.
      const batchSize = Number(env.BATCH_SIZE ?? 1);
      const results = await (await ranker(env)).rerank(body.query, documents, { topK: body.top_n ?? null, batchSize });
      return json({ results: results.map((r) => ({ index: r.index, relevance_score: r.score })) });
    } catch (e) {
      // The caller's mistakes are 400s; a model that cannot be fetched or loaded is the Worker's problem.
      if (e instanceof RerankitError) return json({ error: e.message, code: e.code }, e.code === "INVALID_ARGUMENT" ? 400 : 500);
      if (e instanceof SyntaxError) return json({ error: `body: ${e.message}`, code: "INVALID_ARGUMENT" }, 400);
      throw e;
    }
  },
};
