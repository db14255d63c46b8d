// The public TypeScript option types against the Rust option structs they are read into (src/options.rs): every
// key a public type declares is a field of the Rust struct, or a key the wrapper itself consumes (I/O, callbacks,
// object identity) and strips before the call; every Rust field is declared. (The public types extend the ones
// rendered from the Rust structs, pkg/rust_types.ts; this checks what they add and leave out.) The published .d.ts files are read
// with the TypeScript compiler (inherited members included), the Rust names come from the wasm module.
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { CrossEncoder, LostInTheMiddleRanker, RecentnessRanker, DiversityRanker, fuse, evaluate, compareRuns, adaptiveWeight, combineScores, EvaluationResult } from "rerankit";
import { __optionFields } from "../../pkg/dist/wasm/rerankit.js";

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../pkg/dist");

const RUST_FIELDS = __optionFields();

// [declaration file, TypeScript interface, Rust struct, keys the wrapper consumes or another struct reads, Rust
// fields the type leaves out]
const PAIRS = [
  ["models/cross_encoder.d.ts", "RerankOptions", "RerankOptions", ["returnDocuments", "signal", "onProgress", "clock"], []],
  ["models/cross_encoder.d.ts", "ModelLoadOptions", "ModelLoadOptions", ["model", "tokenizer", "config", "externalData", "device", "workers", "onWarning", "onProgress", "signal", "cache"], []],
  ["models/cross_encoder.d.ts", "ScoreOptions", "ScoreOptions", ["signal", "onProgress"], []],
  ["models/cross_encoder.d.ts", "EmbedOptions", "EmbedOptions", ["signal", "onProgress"], []],
  ["rankers/haystack_rankers.d.ts", "RecentnessRankerOptions", "RecentnessRankerOptions", ["onWarning"], []],
  ["rankers/haystack_rankers.d.ts", "LostInTheMiddleRankerOptions", "LostInTheMiddleRankerOptions", [], []],
  ["rankers/haystack_rankers.d.ts", "DiversityRankerOptions", "DiversityRankerOptions", ["embedder"], []],
  ["rankers/fusion.d.ts", "FuseOptions", "FuseOptions", [], []],
  ["rankers/fusion.d.ts", "AdaptiveWeightOptions", "AdaptiveWeightOptions", [], []],
  ["rankers/fusion.d.ts", "CombineScoresOptions", "CombineScoresOptions", [], []],
  ["metrics/evaluate.d.ts", "EvaluateOptions", "EvaluateOptions", [], []],
  ["metrics/evaluate.d.ts", "RunParseOptions", "RunParseOptions", [], []],
  // compareRuns(qrels, runA, runB): evaluate's options and the permutation test's (its two tests are fixed)
  ["metrics/comparison.d.ts", "CompareOptions", "EvaluateOptions", ["nPermutations", "randomSeed"], []],
  ["metrics/comparison.d.ts", "CompareRunsOptions", "CompareOptions", [...RUST_FIELDS.EvaluateOptions, "names"], []],
  ["metrics/comparison.d.ts", "ReportOptions", "ReportOptions", [], []],
  ["metrics/comparison.d.ts", "OptimizeFusionOptions", "OptimizeFusionOptions", [], []],
  ["document.d.ts", "MultiLabelOptions", "MultiLabelOptions", [], []],
  ["metrics/haystack_eval.d.ts", "HaystackMetricsOptions", "HaystackMetricsOptions", ["onWarning"], []],
  ["metrics/haystack_eval.d.ts", "WrongExamplesOptions", "WrongExamplesOptions", ["onWarning"], []],
  ["metrics/haystack_eval.d.ts", "ContextMatchingOptions", "ContextMatchingOptions", [], []],
  ["metrics/haystack_eval.d.ts", "EvaluationBuildOptions", "EvaluationBuildOptions", [], []],
  ["metrics/haystack_eval.d.ts", "SquadOptions", "SquadOptions", [], []],
];

function declaredKeys() {
  const files = [...new Set(PAIRS.map(([file]) => path.join(dist, file)))];
  const program = ts.createProgram(files, { strict: true, skipLibCheck: true, types: [] });
  const checker = program.getTypeChecker();
  const keys = new Map();
  for (const file of files) {
    const source = program.getSourceFile(file);
    assert.ok(source, `${file} is built`);
    ts.forEachChild(source, (node) => {
      if (!ts.isInterfaceDeclaration(node)) return;
      const type = checker.getDeclaredTypeOfSymbol(checker.getSymbolAtLocation(node.name));
      keys.set(`${path.relative(dist, file)}:${node.name.text}`, checker.getPropertiesOfType(type).map((p) => p.name));
    });
  }
  return keys;
}

test("every TypeScript option type declares exactly the Rust fields plus the keys its wrapper consumes", () => {
  const rust = RUST_FIELDS;
  const ts = declaredKeys();
  for (const [file, iface, struct, wrapper, omitted] of PAIRS) {
    const declared = ts.get(`${file}:${iface}`);
    assert.ok(declared, `${iface} is declared in ${file}`);
    assert.ok(rust[struct], `${struct} is a Rust option struct`);
    const expected = [...rust[struct].filter((f) => !omitted.includes(f)), ...wrapper].sort();
    assert.deepEqual([...declared].sort(), expected, `${iface} (${file}) against ${struct}`);
  }
});

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../fixtures/hub/rerankit-test/tiny-bert-reranker");

async function rejects(promise, pattern) {
  await assert.rejects(promise, (err) => err.name === "RerankitError" && err.code === "INVALID_ARGUMENT" && pattern.test(err.message));
}
function throws(fn, pattern) {
  assert.throws(fn, (err) => err.name === "RerankitError" && err.code === "INVALID_ARGUMENT" && pattern.test(err.message));
}

test("a misspelt option is INVALID_ARGUMENT naming it and the closest valid name, on every API", async () => {
  const ce = await CrossEncoder.load({ model: path.join(repo, "onnx/model.onnx"), tokenizer: path.join(repo, "tokenizer.json") });
  await rejects(ce.rerank("q", ["a", "b"], { topk: 5 }), /^topk: unknown option "topk": did you mean "topK"\?/);
  await rejects(ce.rerankBatch(["q"], [["a"], ["b"]], { batchsize: 2 }), /did you mean "batchSize"\?/);
  await rejects(CrossEncoder.load({ model: path.join(repo, "onnx/model.onnx"), tokenizer: path.join(repo, "tokenizer.json"), maxLenght: 64 }), /did you mean "maxLength"\?/);
  // the wrapper's own keys still work, and the model too after the errors
  const ranked = await ce.rerank("q", ["a", "b"], { topK: 1, returnDocuments: true });
  assert.equal(ranked.length, 1);
  assert.ok(["a", "b"].includes(ranked[0].document));
  ce.free();

  throws(() => new RecentnessRanker({ dateMetaField: "date", rankingmode: "score" }), /did you mean "rankingMode"\?/);
  throws(() => new LostInTheMiddleRanker({ topk: 3 }), /did you mean "topK"\?/);
  throws(() => new DiversityRanker({ stratgy: "mmr" }), /did you mean "strategy"\?/);
  throws(() => fuse([{ q: { a: 1 } }], { methd: "rrf" }), /did you mean "method"\?/);
  throws(() => adaptiveWeight([1, 2], [2, 1], { minweight: 0.1 }), /did you mean "minWeight"\?/);
  throws(() => combineScores([1, 2], [2, 1], { retrieverWeigth: 1 }), /did you mean "retrieverWeight"\?/);
  throws(() => evaluate({ q: { a: 1 } }, { q: { a: 1 } }, "map", { maxResult: 3 }), /did you mean "maxResults"\?/);
  throws(() => compareRuns({ q: { a: 1 } }, { q: { a: 1 } }, { q: { a: 1 } }, "map", { nPermutation: 10 }), /did you mean "nPermutations"\?/);
  throws(() => EvaluationResult.fromJSON({}).calculateMetrics({ evalmode: "isolated" }), /did you mean "evalMode"\?/);
  // values of the right name but the wrong kind name the field too
  throws(() => new LostInTheMiddleRanker({ topK: 1.5 }), /^topK: expected an integer/);
  throws(() => fuse([{ q: { a: 1 } }], { method: "rrf", k: "60" }), /^k: expected a number/);
});
