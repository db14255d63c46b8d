// rerankit/langchain (issue #29) in LangChain.js's own pipeline: a ContextualCompressionRetriever (from
// @langchain/classic, where LangChain 1.x keeps it) over an in-memory retriever, with RerankCompressor as its
// compressor, on the tiny cross-encoder in git. What it returns must be what CrossEncoder.rerank gives for the
// same query and passages — order and scores — with each Document's metadata and id kept.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ContextualCompressionRetriever } from "@langchain/classic/retrievers/contextual_compression";
import { Document } from "@langchain/core/documents";
import { BaseRetriever } from "@langchain/core/retrievers";
import { RerankitError } from "rerankit";
import { RerankCompressor } from "rerankit/langchain";
import { PASSAGES, QUERY, loadTinyCrossEncoder, recordingRanker } from "./tiny_cross_encoder.mjs";

/** The simplest LangChain retriever: the same documents, in the same order, for every query. */
class FixedRetriever extends BaseRetriever {
  lc_namespace = ["rerankit", "tests"];
  constructor(documents) {
    super();
    this.documents = documents;
  }
  async _getRelevantDocuments() {
    return this.documents;
  }
}

const documents = () => PASSAGES.map((pageContent, i) => new Document({ pageContent, metadata: { source: `doc-${i}.txt`, page: i }, id: `d${i}` }));

test("ContextualCompressionRetriever + RerankCompressor: CrossEncoder.rerank's order and scores, metadata and ids kept, topK", async () => {
  const ce = await loadTinyCrossEncoder();
  const docs = documents();
  const before = JSON.stringify(docs);
  const retriever = new ContextualCompressionRetriever({ baseCompressor: new RerankCompressor(ce, { topK: 3 }), baseRetriever: new FixedRetriever(docs) });
  const got = await retriever.invoke(QUERY);
  const expected = await ce.rerank(QUERY, PASSAGES, { topK: 3 });
  assert.equal(got.length, 3);
  assert.deepEqual(got.map((d) => [d.pageContent, d.metadata.relevanceScore]), expected.map((r) => [PASSAGES[r.index], r.score]));
  for (const [i, d] of got.entries()) {
    const source = docs[expected[i].index];
    assert.deepEqual(d.metadata, { ...source.metadata, relevanceScore: expected[i].score });
    assert.equal(d.id, source.id);
    assert.ok(d instanceof Document);
  }
  assert.equal(JSON.stringify(docs), before, "the retriever's own documents are not changed");

  // the ranker's default (10 for a CrossEncoder) without topK; every document with topK null
  const byDefault = await new ContextualCompressionRetriever({ baseCompressor: new RerankCompressor(ce), baseRetriever: new FixedRetriever(docs) }).invoke(QUERY);
  assert.deepEqual(byDefault.map((d) => d.metadata.relevanceScore), (await ce.rerank(QUERY, PASSAGES)).map((r) => r.score));
  assert.equal(byDefault.length, 10);
  const all = await new RerankCompressor(ce, { topK: null }).compressDocuments(docs, QUERY);
  assert.deepEqual(all.map((d) => d.metadata.page), (await ce.rerank(QUERY, PASSAGES, { topK: null })).map((r) => r.index));
  assert.deepEqual(await new RerankCompressor(ce).compressDocuments([], QUERY), []);
  ce.free();
});

test("RerankCompressor: any Ranker; what it passes (texts, query, topK only when given)", async () => {
  const ranker = recordingRanker([0.1, 0.9, 0.5]);
  const docs = documents().slice(0, 3);
  const got = await new RerankCompressor(ranker, { topK: 2 }).compressDocuments(docs, "q");
  assert.deepEqual(ranker.calls[0], { query: "q", documents: PASSAGES.slice(0, 3), options: { topK: 2 } });
  assert.deepEqual(got.map((d) => [d.id, d.metadata.relevanceScore]), [["d1", 0.9], ["d2", 0.5]]);
  await new RerankCompressor(ranker).compressDocuments(docs, "q");
  assert.deepEqual(ranker.calls[1].options, {}, "no topK: the ranker's own default");
  const bare = await new RerankCompressor(ranker).compressDocuments([new Document({ pageContent: "x" })], "q");
  assert.deepEqual(bare[0].metadata, { relevanceScore: 0.1 });
});

test("RerankCompressor: bad input is INVALID_ARGUMENT naming the field", async () => {
  const ranker = recordingRanker([1]);
  const invalid = (pattern) => (e) => e instanceof RerankitError && e.code === "INVALID_ARGUMENT" && pattern.test(e.message);
  assert.throws(() => new RerankCompressor({}), invalid(/^ranker: expected a Ranker/));
  assert.throws(() => new RerankCompressor(undefined), invalid(/^ranker:/));
  assert.throws(() => new RerankCompressor(ranker, { topk: 3 }), invalid(/^topk: unknown option "topk" \(valid: topK\)/));
  assert.throws(() => new RerankCompressor(ranker, { topK: 0 }), invalid(/^topK: expected an integer ≥ 1, got 0/));
  assert.throws(() => new RerankCompressor(ranker, "3"), invalid(/^options:/));
  await assert.rejects(new RerankCompressor(ranker).compressDocuments([{ pageContent: 1 }], "q"), invalid(/^documents\[0\]\.pageContent: expected a string, got 1/));
  await assert.rejects(new RerankCompressor(ranker).compressDocuments("abc", "q"), invalid(/^documents: expected an array/));
  assert.equal(ranker.calls.length, 0);
});
