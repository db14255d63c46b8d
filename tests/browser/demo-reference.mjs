// Worker thread for tests/browser/demo.test.mjs: reranks each input with the package's Node entry (the same model
// file the page loads), so that the reference is computed while Chromium works. workerData: {model, tokenizer,
// inputs: [{key, query, documents}]}; posts {key: [{index, score}]}.
import { parentPort, workerData } from "node:worker_threads";
import * as rr from "rerankit";

const { model, tokenizer, inputs } = workerData;
const ce = await rr.CrossEncoder.load({ model, tokenizer, device: "cpu" });
const out = {};
for (const { key, query, documents } of inputs) {
  const ranked = await ce.rerank(query, documents, { topK: null });
  out[key] = ranked.map((r) => ({ index: r.index, score: r.score }));
}
parentPort.postMessage(out);
