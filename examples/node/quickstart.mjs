#!/usr/bin/env node
// `npm start` (until the demo page lands): rerank sample documents with a cross-encoder from RERANKIT_MODELS,
// then evaluate the reranked run against its judgements with trec_eval's measures.
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { CrossEncoder, Document, evaluate } from "rerankit";

const models = process.env.RERANKIT_MODELS ?? path.join(homedir(), ".cache", "rerankit", "models");
const modelName = process.env.RERANKIT_MODEL ?? "ce-probe";
const dir = path.join(models, modelName);

const query = "Does vitamin D supplementation reduce the risk of fractures?";
const documents = [
  new Document({ content: "Bananas are rich in potassium and are a popular snack among athletes.", meta: { id: "d1" } }),
  new Document({ content: "In a meta-analysis of randomised trials, vitamin D supplementation alone did not reduce hip or total fractures in older adults.", meta: { id: "d2" } }),
  new Document({ content: "Daily vitamin D with calcium reduced the incidence of hip fractures among elderly women living in nursing homes.", meta: { id: "d3" } }),
  new Document({ content: "The study measured blood pressure in adolescents who drank coffee.", meta: { id: "d4" } }),
];
const qrels = { q1: { d2: 2, d3: 1 } };

if (!existsSync(path.join(dir, "model.onnx"))) {
  console.error(`No model at ${dir}.\nRun \`npm run fixtures\` to install the test models into ${models}` +
    ` (or set RERANKIT_MODELS / RERANKIT_MODEL to a folder holding model.onnx and tokenizer.json).`);
  process.exit(1);
}

const t0 = performance.now();
const ranker = await CrossEncoder.load({ model: path.join(dir, "model.onnx"), tokenizer: path.join(dir, "tokenizer.json") });
const loaded = performance.now();
const results = await ranker.rerank(query, documents, { topK: null });
const ranked = performance.now();

console.log(`model ${modelName} loaded in ${(loaded - t0).toFixed(0)} ms on ${ranker.device}; reranked ${documents.length} documents in ${(ranked - loaded).toFixed(0)} ms\n`);
console.log(`query: ${query}\n`);
for (const [rank, r] of results.entries()) {
  console.log(`${String(rank + 1).padStart(2)}. ${r.score.toFixed(4)}  [${documents[r.index].meta.id}] ${documents[r.index].content}`);
}

const before = { q1: Object.fromEntries(documents.map((d, i) => [d.meta.id, documents.length - i])) };
const after = { q1: Object.fromEntries(results.map((r) => [documents[r.index].meta.id, r.score])) };
const measures = ["ndcg_cut_10", "recip_rank", "P_2"];
const b = evaluate(qrels, before, measures).aggregate;
const a = evaluate(qrels, after, measures).aggregate;
console.log("\nmeasure        input order   reranked");
for (const m of measures) console.log(`${m.padEnd(14)} ${b[m].toFixed(4).padStart(11)} ${a[m].toFixed(4).padStart(10)}`);
