// A Vite page that reranks in the browser. The model files are fetched by URL: `?model=…&tokenizer=…`
// (default: files served next to the page under /models/).
import * as rr from "rerankit";
import { DOCUMENTS, QUERY, scenario } from "../../tests/runtimes/scenario.mjs";

const params = new URLSearchParams(location.search);
const model = {
  model: new URL(params.get("model") ?? "/models/ce-probe/model_int8.onnx", location.href).href,
  tokenizer: new URL(params.get("tokenizer") ?? "/models/ce-probe/tokenizer.json", location.href).href,
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
  window.__rerankit = { runtime: navigator.userAgent, ...result };
} catch (e) {
  status.textContent = `error: ${e.message}`;
  window.__rerankit = { error: String(e && e.stack || e) };
}
