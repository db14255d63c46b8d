// Worker thread for tests/browser/demo.test.mjs: reranks every sample query with the package's Node entry (the
// same model file the page loads), so that the reference is computed while Chromium works.
import { parentPort, workerData } from "node:worker_threads";
import * as rr from "rerankit";

const { model, tokenizer, sample } = workerData;
const ce = await rr.CrossEncoder.load({ model, tokenizer, device: "cpu" });
const out = {};
for (const q of sample) {
  const ranked = await ce.rerank(q.query, q.documents.map((d) => d.text), { topK: null });
  out[q.qid] = ranked.map((r) => ({ index: r.index, score: r.score }));
}
parentPort.postMessage(out);
