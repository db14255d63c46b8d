// rerankit/ai-sdk (issue #29) through the Vercel AI SDK's own `rerank()` (package `ai`), on the tiny
// cross-encoder in git: its ranking must be what CrossEncoder.rerank gives for the same query and documents —
// order and scores — with topN as topK, the caller's AbortSignal reaching the model, and object documents ranked
// as their JSON text with the AI SDK's compatibility warning.
import { test } from "node:test";
import assert from "node:assert/strict";
import { rerank } from "ai";
import { RerankitError } from "rerankit";
import { RerankitRerankingModel, rerankit } from "rerankit/ai-sdk";
import { PASSAGES, QUERY, loadTinyCrossEncoder, recordingRanker } from "./tiny_cross_encoder.mjs";

const warnings = [];
globalThis.AI_SDK_LOG_WARNINGS = (logged) => warnings.push(...logged.warnings);

test("rerank({model: rerankit.reranking(crossEncoder), query, documents, topN}): CrossEncoder.rerank's order and scores", async () => {
  const ce = await loadTinyCrossEncoder();
  const result = await rerank({ model: rerankit.reranking(ce), query: QUERY, documents: PASSAGES, topN: 3 });
  const expected = await ce.rerank(QUERY, PASSAGES, { topK: 3 });
  assert.deepEqual(result.ranking, expected.map((r) => ({ originalIndex: r.index, score: r.score, document: PASSAGES[r.index] })));
  assert.deepEqual(result.rerankedDocuments, expected.map((r) => PASSAGES[r.index]));
  assert.equal(result.response.modelId, "CrossEncoder");

  // no topN: every document ranked (the AI SDK's meaning), not the CrossEncoder's default 10
  const all = await rerank({ model: rerankit.reranking(ce, { modelId: "tiny-bert" }), query: QUERY, documents: PASSAGES });
  assert.deepEqual(all.ranking.map((r) => [r.originalIndex, r.score]), (await ce.rerank(QUERY, PASSAGES, { topK: null })).map((r) => [r.index, r.score]));
  assert.equal(all.response.modelId, "tiny-bert");
  assert.deepEqual(warnings, []);

  // object documents: ranked as their JSON text, with the warning the AI SDK's own providers give
  const objects = PASSAGES.slice(0, 5).map((text, i) => ({ id: i, text }));
  const ranked = await rerank({ model: rerankit.reranking(ce), query: QUERY, documents: objects, topN: 2 });
  const asJson = await ce.rerank(QUERY, objects.map((o) => JSON.stringify(o)), { topK: 2 });
  assert.deepEqual(ranked.ranking.map((r) => [r.document, r.score]), asJson.map((r) => [objects[r.index], r.score]));
  assert.deepEqual(warnings, [{ type: "compatibility", feature: "object documents", details: "Object documents are ranked as their JSON text." }]);

  // the caller's signal stops the model's call: the AI SDK rethrows rerankit's ABORTED as it is (no retries)
  await assert.rejects(
    rerank({ model: rerankit.reranking(ce), query: QUERY, documents: PASSAGES, abortSignal: AbortSignal.abort(new Error("stop")) }),
    (e) => e instanceof RerankitError && e.code === "ABORTED",
  );
  ce.free();
});

test("the model: any Ranker; what doRerank passes (texts, topN as topK, the caller's signal)", async () => {
  const ranker = recordingRanker([0.1, 0.9, 0.5]);
  const controller = new AbortController();
  const result = await rerank({ model: rerankit.reranking(ranker), query: "q", documents: ["a", "b", "c"], topN: 2, abortSignal: controller.signal, maxRetries: 0 });
  assert.deepEqual(ranker.calls[0], { query: "q", documents: ["a", "b", "c"], options: { topK: 2, signal: controller.signal } });
  assert.deepEqual(result.ranking, [{ originalIndex: 1, score: 0.9, document: "b" }, { originalIndex: 2, score: 0.5, document: "c" }]);
  const model = new RerankitRerankingModel(ranker);
  assert.equal(model.specificationVersion, "v3");
  assert.equal(model.provider, "rerankit");
  assert.equal(model.modelId, "Object", "a plain object's class");
  const direct = await model.doRerank({ documents: { type: "text", values: ["a", "b"] }, query: "q" });
  assert.deepEqual(direct, { ranking: [{ index: 1, relevanceScore: 0.9 }, { index: 0, relevanceScore: 0.1 }], warnings: [], response: { modelId: "Object" } });
  assert.deepEqual(ranker.calls[1].options, { topK: null, signal: undefined });
});

test("the model: bad input is INVALID_ARGUMENT naming the field", async () => {
  const ranker = recordingRanker([1]);
  const invalid = (pattern) => (e) => e instanceof RerankitError && e.code === "INVALID_ARGUMENT" && pattern.test(e.message);
  assert.throws(() => rerankit.reranking(null), invalid(/^ranker: expected a Ranker/));
  assert.throws(() => rerankit.reranking(ranker, { model: "x" }), invalid(/^model: unknown option "model" \(valid: modelId\)/));
  assert.throws(() => rerankit.reranking(ranker, { modelId: "" }), invalid(/^modelId: expected a non-empty string/));
  const model = rerankit.reranking(ranker);
  await assert.rejects(model.doRerank({ documents: { type: "text", values: ["a"] }, query: "q", topN: 0 }), invalid(/^topN: expected an integer ≥ 1, got 0/));
  await assert.rejects(model.doRerank({ documents: { type: "json", values: ["a"] }, query: "q" }), invalid(/^documents\.type: expected "text" or "object", got "json"/));
  await assert.rejects(model.doRerank({ documents: { type: "text", values: "a" }, query: "q" }), invalid(/^documents\.values: expected an array/));
  assert.equal(ranker.calls.length, 0);
});
