// rerankit/llamaindex (issue #29) in LlamaIndex.TS's own pipeline: a RetrieverQueryEngine (@llamaindex/core) with
// an in-memory retriever, RerankPostprocessor as its node postprocessor and LlamaIndex's MockLLM as the response
// synthesizer's LLM, on the tiny cross-encoder in git. The source nodes of `engine.query()` must be what
// CrossEncoder.rerank gives for the same query and texts — order and scores — each node the retriever's own object.
import { test } from "node:test";
import assert from "node:assert/strict";
import { MockLLM } from "@llamaindex/core/llms/mock";
import { RetrieverQueryEngine } from "@llamaindex/core/query-engine";
import { getResponseSynthesizer } from "@llamaindex/core/response-synthesizers";
import { BaseRetriever } from "@llamaindex/core/retriever";
import { MetadataMode, TextNode } from "@llamaindex/core/schema";
import { RerankitError } from "rerankit";
import { RerankPostprocessor } from "rerankit/llamaindex";
import { PASSAGES, QUERY, loadTinyCrossEncoder, recordingRanker } from "./tiny_cross_encoder.mjs";

/** The simplest LlamaIndex retriever: the same nodes for every query, with made-up retriever scores (descending). */
class FixedRetriever extends BaseRetriever {
  constructor(nodes) {
    super();
    this.nodes = nodes;
  }
  async _retrieve() {
    return this.nodes.map((node, i) => ({ node, score: 1 - i / 100 }));
  }
}

const nodes = () => PASSAGES.map((text, i) => new TextNode({ text, id_: `n${i}`, metadata: { file_name: `doc-${i}.txt`, page: i } }));
const engine = (nodeList, postprocessor) =>
  new RetrieverQueryEngine(new FixedRetriever(nodeList), getResponseSynthesizer("compact", { llm: new MockLLM() }), [postprocessor]);

test("RetrieverQueryEngine + RerankPostprocessor: CrossEncoder.rerank's order and scores on the response's source nodes, topK", async () => {
  const ce = await loadTinyCrossEncoder();
  const list = nodes();
  const response = await engine(list, new RerankPostprocessor(ce, { topK: 3 })).query({ query: QUERY });
  assert.equal(typeof response.message.content, "string", "the synthesizer answered (MockLLM)");
  const expected = await ce.rerank(QUERY, PASSAGES, { topK: 3 });
  assert.deepEqual(response.sourceNodes.map((n) => [n.node.id_, n.score]), expected.map((r) => [`n${r.index}`, r.score]));
  for (const [i, n] of response.sourceNodes.entries()) {
    assert.equal(n.node, list[expected[i].index], "the retriever's own node object");
    assert.deepEqual(n.node.metadata, { file_name: `doc-${expected[i].index}.txt`, page: expected[i].index });
  }

  // the engine's retrieve() runs the postprocessors too; a query given as message content parts reads the same
  const retrieved = await engine(list, new RerankPostprocessor(ce, { topK: null })).retrieve({ query: [{ type: "text", text: QUERY }] });
  const all = await ce.rerank(QUERY, PASSAGES, { topK: null });
  assert.deepEqual(retrieved.map((n) => [n.node.id_, n.score]), all.map((r) => [`n${r.index}`, r.score]));
  const byDefault = await engine(list, new RerankPostprocessor(ce)).retrieve(QUERY);
  assert.equal(byDefault.length, 10, "the CrossEncoder's default topK");

  // metadataMode: the text the ranker reads is LlamaIndex's own rendering of the node with its metadata
  const withMeta = await new RerankPostprocessor(ce, { topK: null, metadataMode: MetadataMode.ALL }).postprocessNodes(list.map((node) => ({ node })), QUERY);
  const metaTexts = list.map((n) => n.getContent(MetadataMode.ALL));
  assert.ok(metaTexts[0].includes("doc-0.txt") && metaTexts[0].includes(PASSAGES[0]));
  assert.deepEqual(withMeta.map((n) => [n.node.id_, n.score]), (await ce.rerank(QUERY, metaTexts, { topK: null })).map((r) => [`n${r.index}`, r.score]));
  assert.notDeepEqual(withMeta.map((n) => n.score), retrieved.map((n) => n.score));
  ce.free();
});

test("RerankPostprocessor: any Ranker; what it passes (texts, query, topK only when given)", async () => {
  const ranker = recordingRanker([0.1, 0.9, 0.5]);
  const list = nodes().slice(0, 3).map((node) => ({ node, score: 7 }));
  const got = await new RerankPostprocessor(ranker, { topK: 2 }).postprocessNodes(list, "q");
  assert.deepEqual(ranker.calls[0], { query: "q", documents: PASSAGES.slice(0, 3), options: { topK: 2 } });
  assert.deepEqual(got.map((n) => [n.node.id_, n.score]), [["n1", 0.9], ["n2", 0.5]]);
  assert.deepEqual(list.map((n) => n.score), [7, 7, 7], "the input's NodeWithScore objects are not changed");
  await new RerankPostprocessor(ranker).postprocessNodes(list, "q");
  assert.deepEqual(ranker.calls[1].options, {}, "no topK: the ranker's own default");
});

test("RerankPostprocessor: bad input is INVALID_ARGUMENT naming the field", async () => {
  const ranker = recordingRanker([1]);
  const invalid = (pattern) => (e) => e instanceof RerankitError && e.code === "INVALID_ARGUMENT" && pattern.test(e.message);
  const one = [{ node: new TextNode({ text: "x" }) }];
  assert.throws(() => new RerankPostprocessor({ rerank: "no" }), invalid(/^ranker: expected a Ranker/));
  assert.throws(() => new RerankPostprocessor(ranker, { top_k: 3 }), invalid(/^top_k: unknown option "top_k" \(valid: topK, metadataMode\)/));
  assert.throws(() => new RerankPostprocessor(ranker, { topK: 1.5 }), invalid(/^topK: expected an integer ≥ 1, got 1\.5/));
  assert.throws(() => new RerankPostprocessor(ranker, { metadataMode: "all" }), invalid(/^metadataMode: expected one of LlamaIndex's MetadataMode values \(ALL, EMBED, LLM, NONE\), got "all"/));
  await assert.rejects(new RerankPostprocessor(ranker).postprocessNodes(one), invalid(/^query: a reranking postprocessor needs the query/));
  await assert.rejects(new RerankPostprocessor(ranker).postprocessNodes([{ node: { text: "x" } }], "q"), invalid(/^nodes\[0\]\.node: expected a LlamaIndex node/));
  await assert.rejects(new RerankPostprocessor(ranker).postprocessNodes({ length: 1 }, "q"), invalid(/^nodes: expected an array/));
  assert.equal(ranker.calls.length, 0);
});
