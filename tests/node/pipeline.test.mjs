// The rerank pipeline (issue #15 item 6) through the built package: retriever results → ce-probe (a real test
// cross-encoder from `npm run fixtures`) → fusion with the retriever → lost-in-the-middle, with every stage.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  CrossEncoder, Document, LostInTheMiddleRanker, Pipeline, RerankitError, adaptiveWeight, combineScores, rerankPipeline,
} from "rerankit";

const models = process.env.RERANKIT_MODELS || path.join(os.homedir(), ".cache/rerankit/models");
const probe = path.join(models, "ce-probe");
if (!existsSync(path.join(probe, "model.onnx"))) throw new Error(`${probe}/model.onnx is missing: run \`npm run fixtures\``);

const QUERY = "Vitamin D deficiency is associated with a higher risk of tuberculosis.";
const TEXTS = [
  "Tuberculosis incidence and vitamin D status were studied in a cohort of 1,200 adults; low serum 25-hydroxyvitamin D predicted active disease.",
  "The crystal structure of a bacterial ribosome reveals how antibiotics bind.",
  "Vitamin D supplementation in infants: a randomised trial of bone mineral density.",
  "Macrophages activated by vitamin D produce cathelicidin, which kills Mycobacterium tuberculosis in vitro.",
  "Air pollution and asthma exacerbations in urban children.",
  "A meta-analysis of tuberculosis treatment outcomes under directly observed therapy.",
];
const RETRIEVER = [12.5, 11.0, 10.25, 9.5, 9.5, 7.0]; // BM25-like scores, with a tie
const docs = () => TEXTS.map((content, i) => new Document({ content, id: `d${i}`, score: RETRIEVER[i] }));
const ranksOf = (order) => Object.fromEntries(order.map((id, r) => [id, r + 1]));

const ce = await CrossEncoder.load({ model: path.join(probe, "model.onnx"), tokenizer: path.join(probe, "tokenizer.json"), device: "cpu" });
const reranked = await ce.rerank(QUERY, TEXTS, { topK: null });

test("rerankPipeline (adaptive): stages, the weight and the combined scores", async () => {
  const res = await rerankPipeline(QUERY, docs(), { crossEncoder: ce, lostInTheMiddle: true });
  assert.deepEqual(res.stages.map((s) => s.name), ["retriever", "cross-encoder", "fusion", "lost-in-the-middle"]);
  for (const s of res.stages) assert.ok(s.milliseconds >= 0 && Number.isFinite(s.milliseconds), s.name);
  assert.ok(res.milliseconds >= res.stages[1].milliseconds);
  // retriever: by score, the tie (d3, d4) in input order
  assert.deepEqual(res.stages[0].documents.map((d) => d.id), ["d0", "d1", "d2", "d3", "d4", "d5"]);
  // cross-encoder: the same order and scores as CrossEncoder.rerank
  assert.deepEqual(res.stages[1].documents.map((d) => d.id), reranked.map((r) => `d${r.index}`));
  res.stages[1].documents.forEach((d, i) => assert.equal(d.score, reranked[i].score));
  // fusion: seed 002's combined score with the adaptive weight
  const ceScores = TEXTS.map((_, i) => reranked.find((r) => r.index === i).score);
  const w = adaptiveWeight(RETRIEVER, ceScores);
  assert.deepEqual(res.adaptiveWeight, w);
  const combined = combineScores(RETRIEVER, ceScores, { rerankerWeight: w.weight });
  const fused = res.stages[2].documents;
  assert.equal(fused.length, 6);
  for (let i = 1; i < fused.length; i++) assert.ok(fused[i - 1].score >= fused[i].score);
  for (const d of fused) assert.equal(d.score, combined[Number(d.id.slice(1))]);
  // lost-in-the-middle over the fused ranking, and the result is the last stage
  assert.deepEqual(res.stages[3].documents.map((d) => d.id), new LostInTheMiddleRanker().run(fused).map((d) => d.id));
  assert.equal(res.documents, res.stages[3].documents);
  // the inputs are not modified
  assert.deepEqual(docs().map((d) => d.score), RETRIEVER);
});

test("rerankPipeline (rrf): Σ 1/(k + rank) of the two rankings, ties in input order; topK", async () => {
  const res = await rerankPipeline(QUERY, docs(), { crossEncoder: ce, fusion: "rrf", rrfK: 60, topK: 4 });
  assert.deepEqual(res.stages.map((s) => s.name), ["retriever", "cross-encoder", "fusion"]);
  assert.equal(res.adaptiveWeight, undefined);
  const before = ranksOf(res.stages[0].documents.map((d) => d.id));
  const after = ranksOf(reranked.map((r) => `d${r.index}`));
  const want = TEXTS.map((_, i) => 1 / (60 + before[`d${i}`]) + 1 / (60 + after[`d${i}`]));
  const order = want.map((_, i) => i).sort((a, b) => want[b] - want[a] || a - b).slice(0, 4);
  assert.deepEqual(res.documents.map((d) => d.id), order.map((i) => `d${i}`));
  res.documents.forEach((d) => assert.ok(Math.abs(d.score - want[Number(d.id.slice(1))]) < 1e-15));
});

test("rerankPipeline (none) is the cross-encoder's ranking; Pipeline.runStages names and times each step", async () => {
  const res = await rerankPipeline(QUERY, docs(), { crossEncoder: ce, fusion: "none", topK: 2 });
  assert.deepEqual(res.documents.map((d) => d.id), reranked.slice(0, 2).map((r) => `d${r.index}`));

  const p = new Pipeline([new LostInTheMiddleRanker(), { name: "first three", step: (d) => d.slice(0, 3) }]);
  const staged = await p.runStages(docs());
  assert.deepEqual(staged.stages.map((s) => s.name), ["input", "LostInTheMiddleRanker", "first three"]);
  assert.deepEqual(staged.stages[1].documents.map((d) => d.id), ["d0", "d2", "d4", "d5", "d3", "d1"]);
  assert.deepEqual(staged.documents.map((d) => d.id), ["d0", "d2", "d4"]);
  assert.deepEqual((await p.run(docs())).map((d) => d.id), ["d0", "d2", "d4"]);
});

test("rerankPipeline: bad input names the field", async () => {
  const rejects = (promise, field) => assert.rejects(promise, (e) => e instanceof RerankitError && e.code === "INVALID_ARGUMENT" && e.message.startsWith(field));
  const noScore = docs();
  noScore[2] = new Document({ content: "no score", id: "x" });
  await rejects(rerankPipeline(QUERY, noScore, { crossEncoder: ce }), "documents[2].score");
  await rejects(rerankPipeline(QUERY, docs(), { crossEncoder: ce, fusion: "max" }), "fusion");
  await rejects(rerankPipeline(QUERY, docs(), { crossEncoder: {} }), "crossEncoder");
  await rejects(rerankPipeline(QUERY, docs(), { crossEncoder: ce, topK: 0 }), "topK");
  await rejects(rerankPipeline(QUERY, docs(), { crossEncoder: ce, rerank: { scoreThreshold: 0.5 } }), "rerank.scoreThreshold");
  await rejects(rerankPipeline(42, docs(), { crossEncoder: ce }), "query");
  assert.throws(() => new Pipeline([{ name: "", step: (d) => d }]), (e) => e.code === "INVALID_ARGUMENT" && e.message.startsWith("steps[0].name"));
});
