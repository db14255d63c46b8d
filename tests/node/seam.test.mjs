// The seam's contract for hostile use (issue #40): objects used after free() or freed twice, a custom ranker that
// breaks the Ranker contract, documents JSON cannot write, and a Node process whose own options name its main
// program. Each gets a RerankitError with a stable code naming the field (never a plain Error or TypeError), and
// the package keeps working after it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CrossEncoder, Document, Embedder, RerankitError, rerankPipeline } from "rerankit";
import { rerankit as aiSdk } from "rerankit/ai-sdk";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const hub = path.join(root, "tests/fixtures/hub/rerankit-test");
const tiny = (repo) => ({ model: path.join(hub, repo, "onnx/model.onnx"), tokenizer: path.join(hub, repo, "tokenizer.json"), config: path.join(hub, repo, "config.json") });
const code = (c, pattern) => (e) => e instanceof RerankitError && e.code === c && (pattern === undefined || pattern.test(e.message));

test("a model used after free() says FREED; a second free() does nothing; a fresh model still works", async () => {
  for (const workers of [0, 2]) {
    const model = await CrossEncoder.load({ ...tiny("tiny-bert-reranker"), workers });
    const before = await model.rerank("query", ["a", "b c"]);
    model.free();
    model.free();
    await assert.rejects(model.rerank("query", ["a"]), code("FREED", /freed/));
    await assert.rejects(model.score([["q", "d"]]), code("FREED"));
    assert.throws(() => model.encodePair("q", "d"), code("FREED"));
    assert.throws(() => model.numLabels, code("FREED"));
    const again = await CrossEncoder.load(tiny("tiny-bert-reranker"));
    assert.deepEqual(await again.rerank("query", ["a", "b c"]), before);
    again.free();
  }
  const embedder = await Embedder.load(tiny("tiny-bert-embedder"));
  embedder.free();
  embedder.free();
  await assert.rejects(embedder.embed(["x"]), code("FREED"));
});

test("free() while a call waits in the model's queue: that call says FREED", async () => {
  const model = await CrossEncoder.load(tiny("tiny-bert-reranker"));
  const docs = Array.from({ length: 40 }, (_, i) => `document ${i} ${"word ".repeat(i % 9)}`);
  const first = model.rerank("query", docs, { batchSize: 2 });
  const second = model.rerank("query", docs);
  model.free();
  await assert.rejects(first, code("FREED"));
  await assert.rejects(second, code("FREED"));
});

test("rerankPipeline and the integrations refuse a custom ranker's malformed answer, naming the ranker", async () => {
  const docs = () => ["alpha", "beta", "gamma"].map((content, i) => new Document({ content, id: `d${i}`, score: 3 - i }));
  const answers = [
    [null, /answered null/],
    ["ranked", /answered string/],
    [{ 0: { index: 0, score: 1 } }, /answered object/],
    [[null], /answer\[0\]: expected \{index, score\}/],
    [[{ index: 3, score: 1 }], /answer\[0\]\.index/],
    [[{ index: -1, score: 1 }], /answer\[0\]\.index/],
    [[{ index: 0.5, score: 1 }], /answer\[0\]\.index/],
    [[{ index: "0", score: 1 }], /answer\[0\]\.index/],
    [[{ index: 0, score: 1 }, { index: 0, score: 2 }], /ranked twice/],
    [[{ index: 0, score: "high" }], /answer\[0\]\.score/],
  ];
  for (const [answer, pattern] of answers) {
    const ranker = { rerank: async () => answer, rerankBatch: async () => [answer] };
    await assert.rejects(rerankPipeline("q", docs(), { ranker }), code("INVALID_ARGUMENT", new RegExp(`^ranker: .*${pattern.source}`)), JSON.stringify(answer));
    const model = aiSdk.reranking(ranker);
    await assert.rejects(model.doRerank({ documents: { type: "text", values: ["a", "b", "c"] }, query: "q" }), code("INVALID_ARGUMENT", /^ranker: /));
  }
  // and a well-behaved one still works
  const good = { rerank: async (_q, d) => d.map((_, index) => ({ index, score: -index })), rerankBatch: async () => [] };
  const out = await rerankPipeline("q", docs(), { ranker: good, fusion: "none" });
  assert.deepEqual(out.documents.map((d) => d.id), ["d0", "d1", "d2"]);
});

test("AI SDK object documents that JSON cannot write are INVALID_ARGUMENT naming the document", async () => {
  const cyclic = { a: 1 };
  cyclic.self = cyclic;
  let deep = {};
  for (let i = 0; i < 200000; i++) deep = { d: deep };
  const ranker = { rerank: async (_q, d) => d.map((_, index) => ({ index, score: 0 })), rerankBatch: async () => [] };
  const model = aiSdk.reranking(ranker);
  for (const [value, pattern] of [[{ n: 1n }, /BigInt/], [cyclic, /circular/i], [deep, /JSON/], [() => 1, /function/]]) {
    await assert.rejects(model.doRerank({ documents: { type: "object", values: [{ ok: 1 }, value] }, query: "q" }), code("INVALID_ARGUMENT", new RegExp(`^documents\\.values\\[1\\]: .*${pattern.source}`, "i")));
  }
  const fine = await model.doRerank({ documents: { type: "object", values: [{ ok: 1 }] }, query: "q" });
  assert.equal(fine.ranking.length, 1);
});

test("pool workers start whatever options name the caller's main program (--input-type=module, -e, stdin)", () => {
  const script = `
    import { CrossEncoder } from "rerankit";
    const files = ${JSON.stringify(tiny("tiny-bert-reranker"))};
    const docs = ["alpha beta", "gamma", "delta epsilon zeta", "eta", "theta iota"];
    const inline = await CrossEncoder.load(files);
    const pooled = await CrossEncoder.load({ ...files, workers: 2 });
    const a = await inline.rerank("beta", docs, { batchSize: 2 });
    const b = await pooled.rerank("beta", docs, { batchSize: 2 });
    if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error("pool and inline differ");
    inline.free(); pooled.free();
    console.log("pool ok");`;
  for (const args of [["--input-type=module", "-e", script], ["--input-type=module"]]) {
    const run = spawnSync(process.execPath, args, { cwd: root, input: args.includes("-e") ? "" : script, encoding: "utf8", timeout: 120000 });
    assert.equal(run.status, 0, `node ${args[0]}: ${run.stderr.slice(-2000)}`);
    assert.match(run.stdout, /pool ok/);
  }
});

test("parsed runs, qrels, comparisons and evaluation results: FREED after free(), INVALID_ARGUMENT when forged", async () => {
  const { parseQrels, parseRun, evaluate, compareRuns, EvaluationResult, ParsedRun, ParsedQrels } = await import("rerankit");
  const qrelsText = "q1 0 d1 1\nq1 0 d2 0\n";
  const runText = "q1 Q0 d1 1 2.0 a\nq1 Q0 d2 2 1.0 a\n";
  const qrels = parseQrels(qrelsText);
  const run = parseRun(runText);
  const expected = evaluate(qrels, run, ["map"]);
  run.free();
  run.free();
  assert.throws(() => evaluate(qrels, run, ["map"]), code("FREED", /^ParsedRun: /));
  assert.throws(() => run.size, code("FREED"));
  qrels.free();
  assert.throws(() => evaluate(qrels, runText, ["map"]), code("FREED", /^ParsedQrels: /));
  for (const [Class, name] of [[ParsedRun, "ParsedRun"], [ParsedQrels, "ParsedQrels"]]) {
    const forged = Object.create(Class.prototype);
    assert.throws(() => forged.size, code("INVALID_ARGUMENT", new RegExp(`expected a ${name} that rerankit made`)));
    assert.throws(() => (name === "ParsedRun" ? evaluate(qrelsText, forged, ["map"]) : evaluate(forged, runText, ["map"])), code("INVALID_ARGUMENT"));
    assert.doesNotThrow(() => forged.free());
  }
  const comparison = compareRuns(qrelsText, [runText, runText.replaceAll(" a\n", " b\n")], ["map"]);
  comparison.free();
  comparison.free();
  assert.throws(() => comparison.report(), code("FREED", /^RunComparison: /));
  assert.throws(() => Object.create(Object.getPrototypeOf(comparison)).report(), code("INVALID_ARGUMENT"));
  const result = EvaluationResult.fromJSON({ Retriever: [] });
  result.free();
  result.free();
  assert.throws(() => result.nodeNames, code("FREED", /^EvaluationResult: /));
  // and the module still answers
  assert.deepEqual(evaluate(qrelsText, runText, ["map"]), expected);
});

test("BigInt typed arrays of scores are INVALID_ARGUMENT naming the scores (not a TypeError)", async () => {
  const { adaptiveRerank, adaptiveWeight, combineScores } = await import("rerankit");
  const big = new BigInt64Array([1n, 2n]);
  const docs = [new Document({ content: "a", score: 1 }), new Document({ content: "b", score: 2 })];
  assert.throws(() => adaptiveRerank(docs, big), code("INVALID_ARGUMENT", /^rerankerScores: .*BigInt/));
  assert.throws(() => combineScores(new BigUint64Array([1n, 2n]), [1, 2]), code("INVALID_ARGUMENT", /^retrieverScores: /));
  assert.throws(() => adaptiveWeight([1, 2], big), code("INVALID_ARGUMENT", /^afterScores: /));
  assert.deepEqual(combineScores(new Float64Array([1, 2]), [1, 2]).length, 2);
});
