// compareRuns over N runs and optimizeFusion against ranx 0.3.21 on the SciFact fixture runs (expected outputs in
// tests/fixtures/collection/compare, made by tests/fixtures/gen/make_ranx_compare.py): every pair's p-value under
// Fisher's test (equal), Student's t-test and Tukey's HSD, the four report tables byte for byte, the best fusion
// parameters; the `rerankit compare` command; bad input. Through `rerankit/eval` (the same code as `rerankit`).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { compareRuns, optimizeFusion, fuse, parseQrels, RerankitError } from "rerankit/eval";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const collection = path.join(root, "tests", "fixtures", "collection");
const cli = path.join(root, "pkg", "dist", "cli", "main.js");
const fixture = JSON.parse(readFileSync(path.join(collection, "compare", "ranx_compare.json"), "utf8"));
const optimizeFixture = JSON.parse(readFileSync(path.join(collection, "compare", "ranx_optimize.json"), "utf8"));
const qrelsText = readFileSync(path.join(collection, "qrels.test.trec"), "utf8");
const names = Object.keys(fixture.runs);
const runFiles = names.map((n) => path.join(collection, fixture.runs[n]));
const runTexts = runFiles.map((f) => readFileSync(f, "utf8"));
const TOLERANCE = { fisher: 0, student: 1e-12, tukey: 1e-11 };

/** `{qid: {docno: score}}` of a TREC run. */
function nested(text) {
  const out = {};
  for (const line of text.split("\n")) {
    if (!line) continue;
    const [q, , d, , s] = line.split(/\s+/);
    (out[q] ??= {})[d] = Number(s);
  }
  return out;
}

test("compareRuns over 4 runs equals ranx's compare: p-values, significance, means, win/tie/loss, the four tables", () => {
  const qrels = parseQrels(qrelsText);
  let pairs = 0;
  for (const c of fixture.compare) {
    const result = compareRuns(qrels, runTexts, fixture.metrics, {
      names, statTest: c.stat_test, maxP: c.max_p, randomSeed: c.random_seed, nPermutations: c.n_permutations,
    });
    assert.deepEqual(result.runNames, names);
    assert.equal(result.qids.length, 300);
    for (const m of fixture.metrics) {
      const measure = result.measures[m];
      for (const a of names) {
        assert.ok(Math.abs(measure.means[a] - c.report[a].scores[m]) <= 1e-12, `${a} ${m} mean`);
        for (const b of names) {
          if (a === b) continue;
          const p = c.report[a].comparisons[b][m];
          assert.ok(Math.abs(measure.pValues[a][b] - p) <= TOLERANCE[c.stat_test], `${c.stat_test} ${a} vs ${b} ${m}: ${measure.pValues[a][b]} vs ranx ${p}`);
          assert.equal(measure.significant[a][b], p <= c.max_p);
          assert.deepEqual(measure.winTieLoss[a][b], c.report[a].win_tie_loss[b][m]);
          pairs++;
        }
      }
    }
    assert.equal(result.report(), c.table);
    assert.equal(result.report("latex"), c.latex);
    assert.equal(result.report("markdown"), c.markdown);
    assert.equal(result.report("html"), c.html);
    result.free();
  }
  assert.equal(pairs, 6 * 3 * 12);
  qrels.free();
});

test("compareRuns: names from TREC tags or run_i, ranx-shaped runs, the two-run form still answers", () => {
  const qrels = { q1: { a: 1, b: 1 }, q2: { c: 1 }, q3: { a: 1 } };
  const good = { q1: { a: 3, b: 2, c: 1 }, q2: { c: 2, a: 1 }, q3: { a: 1, b: 0.5 } };
  const bad = { q1: { c: 3, a: 1 }, q2: { a: 2 }, q3: { b: 1 } };
  const r = compareRuns(qrels, [good, bad], "P@1", { statTest: "fisher", nPermutations: 100 });
  assert.deepEqual(r.runNames, ["run_1", "run_2"]);
  assert.equal(r.measures["P@1"].means.run_1, 1);
  assert.equal(r.measures["P@1"].winTieLoss.run_1.run_2.W, 3);
  assert.match(r.report("markdown"), /\*\*1\.000\*\*/);
  const tagged = compareRuns(qrelsText, runTexts.slice(0, 2), "ndcg@10");
  assert.deepEqual(tagged.runNames.length, 2);
  assert.notEqual(tagged.runNames[0], "run_1"); // the TREC tag column
  const two = compareRuns(qrelsText, runTexts[0], runTexts[1], ["ndcg@10"], { nPermutations: 1000, randomSeed: 42 });
  const f = fixture.compare.find((c) => c.stat_test === "fisher" && c.random_seed === 42);
  assert.equal(two["ndcg@10"].permutation.pValue, f.report.bm25.comparisons.second["ndcg@10"]);
});

test("compareRuns and report refuse bad input with a RerankitError naming the field", () => {
  const bad = (f, field) => assert.throws(f, (e) => e instanceof RerankitError && e.code === "INVALID_ARGUMENT" && e.message.includes(field), field);
  const runs = runTexts.slice(0, 2);
  bad(() => compareRuns(qrelsText, runs, "map", { statTest: "wilcoxon" }), "statTest");
  bad(() => compareRuns(qrelsText, runs, "map", { maxP: 0 }), "maxP");
  bad(() => compareRuns(qrelsText, runs, "map", { maxP: Number.NaN }), "maxP");
  bad(() => compareRuns(qrelsText, runs, "map", { randomSeed: 2 ** 32 }), "randomSeed");
  bad(() => compareRuns(qrelsText, runs, "map", { randomSeed: -1 }), "randomSeed");
  bad(() => compareRuns(qrelsText, runs, "map", { nPermutations: 0 }), "nPermutations");
  bad(() => compareRuns(qrelsText, runs, "map", { names: ["a"] }), "names");
  bad(() => compareRuns(qrelsText, runs, "map", { names: ["a", "a"] }), "names[1]");
  bad(() => compareRuns(qrelsText, [runs[0]], "map"), "runs");
  bad(() => compareRuns(qrelsText, runs, "no_such_measure"), "no_such_measure");
  bad(() => compareRuns(qrelsText, runs, "map", { statTst: "fisher" }), "statTst");
  // a sparse array of 2^32 − 1 runs (found by the API fuzzer: it hung, walking the holes)
  bad(() => compareRuns(qrelsText, new Array(2 ** 32 - 1), "map"), "runs: has 4294967295 elements");
  // two runs given apart get both tests: the N-run options choosing one are refused; the permutation's are taken
  bad(() => compareRuns(qrelsText, runs[0], runs[1], "map", { statTest: "fisher" }), "statTest");
  bad(() => compareRuns(qrelsText, runs[0], runs[1], "map", { nPermutation: 10 }), 'did you mean "nPermutations"');
  const pair = compareRuns(qrelsText, runs[0], runs[1], "map", { nPermutations: 200, randomSeed: 3, complete: true });
  assert.equal(pair.map.permutation.nPermutations, 200);
  assert.equal(pair.map.permutation.randomSeed, 3);
  const r = compareRuns(qrelsText, runs, "map");
  bad(() => r.report("pdf"), "format");
  bad(() => r.report(5), "format");
  bad(() => r.report("text", { digits: 99 }), "digits");
  bad(() => r.report("text", { percentages: true, digits: 1 }), "digits");
});

test("optimizeFusion equals ranx's optimize_fusion: same grid, same best params", () => {
  const qrels = parseQrels(qrelsText);
  const runs = Object.fromEntries(["bm25", "second", "ce_probe"].map((n) => [n, nested(readFileSync(path.join(collection, "runs", `${n}.trec`), "utf8"))]));
  for (const c of optimizeFixture.optimize_fusion) {
    const options = { method: c.method, metric: c.metric, step: c.kwargs.step, minK: c.kwargs.min_k, maxK: c.kwargs.max_k };
    const result = optimizeFusion(qrels, c.runs.map((n) => runs[n]), options);
    assert.equal(result.trials.length, c.grid.length);
    assert.deepEqual(result.params, c.best_params, `${c.method} ${c.metric}`);
    if (c.method !== "rrf") {
      result.trials.forEach((t, i) => assert.ok(Math.abs(t.score - c.grid[i].score) <= 1e-12, `${c.grid[i].config}`));
    }
  }
  // the best weights plug into fuse
  const best = optimizeFusion(qrels, [runs.bm25, runs.ce_probe], { metric: "ndcg@10" });
  assert.equal(Object.keys(fuse([runs.bm25, runs.ce_probe], { method: "wsum", weights: best.params.weights })).length, 300);
  const bad = (options, field) => assert.throws(() => optimizeFusion(qrels, [runs.bm25, runs.second], options), (e) => e instanceof RerankitError && e.message.includes(field), field);
  bad({ method: "bordafuse" }, "method");
  bad({ step: 0 }, "step");
  bad({ grid: [[0.5]] }, "grid[0]");
  bad({ metric: "nope" }, "nope");
  bad({ stp: 0.1 }, "stp");
  bad({ method: "rrf", minK: 0, maxK: 2 ** 32 - 1, step: 1 }, "grid");
  qrels.free();
});

test("rerankit compare prints ranx's report for TREC files", (t) => {
  const fisher = fixture.compare.find((c) => c.stat_test === "fisher" && c.max_p === 0.01);
  const args = ["compare", ...fixture.metrics.flatMap((m) => ["-m", m]), "--test", "fisher", "--names", names.join(","), path.join(collection, "qrels.test.trec"), ...runFiles];
  const out = spawnSync(process.execPath, [cli, ...args], { encoding: "utf8" });
  assert.equal(out.status, 0, out.stderr);
  assert.equal(out.stdout, fisher.table + "\n");
  const latex = spawnSync(process.execPath, [cli, ...args, "--format", "latex"], { encoding: "utf8" });
  assert.equal(latex.stdout, fisher.latex + "\n");
  const bad = spawnSync(process.execPath, [cli, "compare", "--test", "wilcoxon", path.join(collection, "qrels.test.trec"), ...runFiles], { encoding: "utf8" });
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /statTest.*\[INVALID_ARGUMENT\]/);
  const usage = spawnSync(process.execPath, [cli, "compare", path.join(collection, "qrels.test.trec")], { encoding: "utf8" });
  assert.equal(usage.status, 2);
  assert.match(usage.stderr, /at least two runs/);
});
