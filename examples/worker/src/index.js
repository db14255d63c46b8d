// A Cloudflare Worker that reranks with rerankit — the request and response shapes of Cohere's rerank API and
// Workers AI rerankers:
//   POST /          {query, documents: string[] | {text}[], top_n?}  → {results: [{index, relevance_score}]}
//   POST /evaluate  {qrels, run, measures}                            → {aggregate, perQuery}
// The model is fetched once per isolate from MODEL_URL / TOKENIZER_URL and kept in the Cache API.
import { CrossEncoder, RerankitError, evaluate } from "rerankit";

let rankerPromise = null;

/** The Cache API as rerankit's model cache: weights are downloaded once per colo, not once per isolate. */
const modelCache = {
  async get(url) {
    const hit = await caches.default.match(url);
    return hit ? new Uint8Array(await hit.arrayBuffer()) : undefined;
  },
  async put(url, bytes) {
    await caches.default.put(url, new Response(bytes, { headers: { "cache-control": "public, max-age=604800" } }));
  },
};

function ranker(env) {
  rankerPromise ??= CrossEncoder.load({ model: env.MODEL_URL, tokenizer: env.TOKENIZER_URL, cache: modelCache }).catch((e) => {
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
    if (request.method !== "POST") return json({ error: "POST a JSON body" }, 405);
    try {
      const body = await request.json();
      const { pathname } = new URL(request.url);
      if (pathname === "/evaluate") return json(evaluate(body.qrels, body.run, body.measures));
      const documents = (body.documents ?? []).map((d) => (typeof d === "string" ? d : d?.text));
      const results = await (await ranker(env)).rerank(body.query, documents, { topK: body.top_n ?? null });
      return json({ results: results.map((r) => ({ index: r.index, relevance_score: r.score })) });
    } catch (e) {
      if (e instanceof RerankitError) return json({ error: e.message, code: e.code }, 400);
      if (e instanceof SyntaxError) return json({ error: `body: ${e.message}`, code: "INVALID_ARGUMENT" }, 400);
      throw e;
    }
  },
};
