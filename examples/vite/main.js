// A Vite page that reranks in the browser. The model files are fetched by URL: `?model=…&tokenizer=…`
// (default: files served next to the page under /models/).
import * as rr from "rerankit";
import { DOCUMENTS, MODEL, MODEL_FILE, QUERY, pretrained, scenario } from "../../tests/runtimes/scenario.mjs";

const params = new URLSearchParams(location.search);
const model = {
  model: new URL(params.get("model") ?? `/models/${MODEL}/${MODEL_FILE}`, location.href).href,
  tokenizer: new URL(params.get("tokenizer") ?? `/models/${MODEL}/tokenizer.json`, location.href).href,
};
const status = document.getElementById("status");
try {
  const result = await scenario(rr, model);
  status.textContent = `reranked in the browser (model loaded in ${result.loadMs} ms): ${QUERY}`;
  for (const r of result.rerank) {
    const li = document.createElement("li");
    li.textContent = `${r.score.toFixed(4)} — ${DOCUMENTS[r.index]}`;
    document.getElementById("results").append(li);
  }
  // A second load, as after a page reload: rerankit finds the files in the Cache API ("rerankit-models").
  const progress = [];
  (await rr.CrossEncoder.load({ ...model, onProgress: (p) => progress.push(p) })).free();
  const cached = await (await caches.open(rr.DEFAULT_CACHE_NAME)).keys();
  // `?hub=URL`: also load a model by Hub id from that host (tests/runtimes: a local Hub-shaped server)
  const hub = params.get("hub");
  window.__rerankit = { runtime: navigator.userAgent, ...result, secondLoad: progress, cacheKeys: cached.map((r) => r.url),
    pretrained: hub ? await pretrained(rr, hub) : undefined };
} catch (e) {
  status.textContent = `error: ${e.message}`;
  window.__rerankit = { error: String(e && e.stack || e) };
}
