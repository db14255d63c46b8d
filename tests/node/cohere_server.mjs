// A local stand-in for Cohere's rerank API (`POST /v1/rerank`) and for text-embeddings-inference's `POST /rerank`,
// on 127.0.0.1 at a random port, for tests/node/hosted_rankers.test.mjs: no internet, every answer scripted.
//
// Each request is recorded (`requests`: path, headers, parsed body). Answers come from `script` (a queue; empty: a
// normal answer): "ok", {status, message, headers} (an error with Cohere's body `{"message": …}`), {delayMs}
// (a slow normal answer), {raw, status} (a body as given). A wrong `Authorization` is a 401 — and Cohere-like
// error bodies here echo the bearer token they were given, so that a test can prove rerankit never repeats it.
import { createServer } from "node:http";

/** The mock's relevance score of `text` for `query`: shared query words, plus a small length term for order. */
export function mockScore(query, text) {
  const words = (s) => new Set(s.toLowerCase().match(/\w+/g) ?? []);
  const q = words(query);
  const t = words(text);
  let shared = 0;
  for (const w of q) if (t.has(w)) shared++;
  return shared / Math.max(1, q.size) + (text.length % 97) / 97_000;
}

/** `[{index, score}]` of `texts` for `query` as the mock ranks them: score descending, ties by index. */
export function mockRanking(query, texts) {
  return texts.map((t, index) => ({ index, score: mockScore(query, t) })).sort((a, b) => b.score - a.score || a.index - b.index);
}

export async function startCohereMock({ apiKey }) {
  const requests = [];
  const script = [];
  const sockets = new Set();
  const server = createServer(async (req, res) => {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    let body;
    try {
      body = JSON.parse(raw);
    } catch {
      body = raw;
    }
    requests.push({ path: req.url, method: req.method, headers: req.headers, body });
    const send = (status, value, headers = {}) => {
      if (res.destroyed) return;
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(typeof value === "string" ? value : JSON.stringify(value));
    };
    const auth = req.headers.authorization ?? "";
    if (req.url === "/v1/rerank" && auth !== `Bearer ${apiKey}`) {
      return send(401, { message: `invalid api token: ${auth.replace(/^Bearer /, "")}` });
    }
    const step = script.shift() ?? "ok";
    if (step !== "ok" && step.delayMs) await new Promise((r) => setTimeout(r, step.delayMs));
    if (step !== "ok" && step.raw !== undefined) return send(step.status ?? 200, step.raw, step.headers);
    if (step !== "ok" && step.status) return send(step.status, { message: step.message ?? `error ${step.status}` }, step.headers);
    if (req.url === "/rerank") {
      // text-embeddings-inference: {query, texts} → [{index, score}], every text, its own limit of 32
      if (body.texts.length > 32) return send(413, { error: `batch size ${body.texts.length} > maximum allowed batch size 32`, error_type: "Validation" });
      return send(200, mockRanking(body.query, body.texts));
    }
    if (req.url !== "/v1/rerank") return send(404, { message: "not found" });
    if (!Array.isArray(body.documents) || body.documents.length > 1000) {
      return send(400, { message: `invalid request: list of documents must not be longer than 1000 (got ${body.documents?.length}); token ${apiKey}` });
    }
    if (typeof body.query !== "string" || typeof body.model !== "string") return send(400, { message: "invalid request: query and model are required" });
    const texts = body.documents.map((d) => (typeof d === "string" ? d : d.text));
    const ranked = mockRanking(body.query, texts);
    const results = (body.top_n === undefined ? ranked : ranked.slice(0, body.top_n)).map((r) => ({ index: r.index, relevance_score: r.score }));
    send(200, { id: "mock", results, meta: { api_version: { version: "1" }, billed_units: { search_units: 1 } } });
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    requests,
    script,
    reset() {
      requests.length = 0;
      script.length = 0;
    },
    close() {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}
