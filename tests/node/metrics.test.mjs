// Retrieval metrics through the built package, imported by name as users do: the trec_eval conformance files
// through `rerankit eval`, and evaluate / parseQrels / parseRun / compareRuns on every input shape.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { evaluate, parseQrels, parseRun, compareRuns, ParsedQrels, RerankitError } from "rerankit";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const shared = process.env.RERANKIT_SHARED ? path.resolve(process.env.RERANKIT_SHARED) : path.resolve(root, "../shared");
const trecDir = path.join(shared, "data", "trec_eval");
const cli = path.join(root, "pkg", "dist", "cli", "main.js");

const throwsCode = (fn, code, message) =>
  assert.throws(fn, (err) => {
    assert.ok(err instanceof RerankitError, `expected RerankitError, got ${err}`);
    assert.equal(err.code, code);
    if (message) assert.match(err.message, message);
    return true;
  });

// ------------------------------------------------------------------------------ trec_eval conformance (CLI)

const cases = [
  ["out.test", ["qrels.test", "results.test"]],
  ["out.test", ["qrels.test.with-comments", "results.test"]],
  ["out.comment.test", ["qrels.comment.test", "results.comment.test"]],
  ["out.test.a", ["-m", "all_trec", "qrels.test", "results.test"]],
  ["out.test.aq", ["-m", "all_trec", "-q", "qrels.test", "results.test"]],
  ["out.test.aqc", ["-m", "all_trec", "-q", "-c", "qrels.test", "results.trunc"]],
  ["out.test.aqcM", ["-m", "all_trec", "-q", "-c", "-M100", "qrels.test", "results.trunc"]],
  ["out.test.aql", ["-m", "all_trec", "-mrelstring.20", "-q", "-l2", "qrels.rel_level", "results.test"]],
  ["out.test.meas_params", ["-q", "-miprec_at_recall..10,.20,.25,.75,.50", "-m", "P.5,7,3", "-m", "recall.20,2000",
    "-m", "Rprec_mult.5.0,0.2,0.35", "-mutility.2,-1,0,0", "-m", "11pt_avg..25,.5,.75", "-mndcg.1=3,2=9,4=4.5",
    "-mndcg_cut.10,20,23.4", "-msuccess.2,5,20", "qrels.test", "results.test"]],
];

for (const [expected, args] of cases) {
  test(`rerankit eval ${args.join(" ")} prints ${expected} byte for byte`, { skip: !existsSync(trecDir) && "shared data absent" }, () => {
    const out = execFileSync(process.execPath, [cli, "eval", ...args], { cwd: trecDir, encoding: "utf8", maxBuffer: 1 << 26 });
    assert.equal(out, readFileSync(path.join(trecDir, expected), "utf8"));
  });
}

test("rerankit eval reads the run from standard input and reports errors with codes", { skip: !existsSync(trecDir) && "shared data absent" }, () => {
  const run = readFileSync(path.join(trecDir, "results.test"));
  const out = execFileSync(process.execPath, [cli, "eval", "qrels.test", "-"], { cwd: trecDir, input: run, encoding: "utf8" });
  assert.equal(out, readFileSync(path.join(trecDir, "out.test"), "utf8"));
  const bad = spawnSync(process.execPath, [cli, "eval", "-m", "no_such_measure", "qrels.test", "results.test"], { cwd: trecDir, encoding: "utf8" });
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /unknown measure 'no_such_measure'.*INVALID_ARGUMENT/);
  const missing = spawnSync(process.execPath, [cli, "eval", "qrels.test", "nope.txt"], { cwd: trecDir, encoding: "utf8" });
  assert.equal(missing.status, 2);
});

// ------------------------------------------------------------------------------------------ evaluate()

const QRELS = "q1 0 d1 1\nq1 0 d2 0\nq1 0 d3 2\nq2 0 d9 1\n";
const RUN = "q1 Q0 d1 1 0.5 tag\nq1 Q0 d2 2 0.9 tag\nq1 Q0 d4 3 0.1 tag\nq2 Q0 d9 1 1.0 tag\n";
const qrelsObject = { q1: { d1: 1, d2: 0, d3: 2 }, q2: { d9: 1 } };
const runObject = { q1: { d1: 0.5, d2: 0.9, d4: 0.1 }, q2: { d9: 1.0 } };

test("evaluate: text, bytes, objects, Maps and parsed handles agree", () => {
  const measures = ["map", "ndcg@10", "P_1", "recip_rank", "num_rel_ret"];
  const fromText = evaluate(QRELS, RUN, measures);
  assert.deepEqual(Object.keys(fromText.aggregate), measures);
  assert.deepEqual(Object.keys(fromText.perQuery), ["q1", "q2"]);
  assert.equal(fromText.runName, "tag");
  assert.equal(fromText.aggregate.num_rel_ret, 2);
  assert.equal(fromText.perQuery.q1.recip_rank, 0.5);
  const enc = new TextEncoder();
  const asMaps = new Map(Object.entries(runObject).map(([q, d]) => [q, new Map(Object.entries(d))]));
  const qrels = parseQrels(QRELS);
  assert.ok(qrels instanceof ParsedQrels);
  assert.equal(qrels.numQueries, 2);
  assert.equal(qrels.size, 4);
  const run = parseRun(RUN);
  for (const [q, r] of [[enc.encode(QRELS), enc.encode(RUN)], [qrelsObject, runObject], [qrelsObject, asMaps], [qrels, run], [qrels, runObject]]) {
    const e = evaluate(q, r, measures);
    assert.deepEqual(e.aggregate, fromText.aggregate);
    assert.deepEqual(e.perQuery, fromText.perQuery);
  }
  qrels.free();
  run.free();
});

test("evaluate: trec_eval names with parameters expand, ranx names keep their key", () => {
  const e = evaluate(QRELS, RUN, ["P.1,2", "mrr@1", "map@1", "official"]);
  assert.ok("P_1" in e.aggregate && "P_2" in e.aggregate && "mrr@1" in e.aggregate && "map@1" in e.aggregate);
  assert.equal(e.aggregate.runid, "tag");
  assert.equal(e.aggregate.num_q, 2);
  assert.equal(e.aggregate["mrr@1"], 0.5);
  const rel = evaluate(QRELS, RUN, "relstring");
  assert.equal(rel.perQuery.q1.relstring, "01-");
});

test("evaluate: options (relevance level, complete, max results, ties, profiles)", () => {
  assert.equal(evaluate(QRELS, RUN, "num_rel", { relevanceLevel: 2 }).aggregate.num_rel, 1);
  assert.equal(evaluate(QRELS, "q1 Q0 d1 1 1 t\n", "num_q", { complete: true }).aggregate.num_q, 2);
  assert.equal(evaluate(QRELS, RUN, "num_ret", { maxResults: 1 }).aggregate.num_ret, 2);
  const tie = "q1 Q0 d1 1 1.0 t\nq1 Q0 d2 2 1.0 t\n";
  assert.equal(evaluate(QRELS, tie, "recip_rank").aggregate.recip_rank, 0.5);
  assert.equal(evaluate(QRELS, tie, "recip_rank", { ties: "input" }).aggregate.recip_rank, 1);
  const hay = evaluate(QRELS, RUN, undefined, { profile: "haystack" });
  assert.deepEqual(Object.keys(hay.aggregate), ["recall_multi_hit", "recall_single_hit", "precision", "map", "mrr", "ndcg"]);
  const graph = evaluate({ q: { d1: 1, d3: 1, d5: 1, d6: 1 } }, { q: { d1: 5, d4: 4, d3: 3, d5: 2, d7: 1 } }, undefined, { profile: "graphrag@5" });
  assert.equal(graph.aggregate["recall@5"], 0.75);
  assert.ok(Math.abs(graph.aggregate.average_precision - (1 + 2 / 3 + 3 / 4) / 4) < 1e-15);
});

test("evaluate: bad input throws RerankitError with a code and the place", () => {
  throwsCode(() => evaluate(QRELS, RUN, ["ndcg@0"]), "INVALID_ARGUMENT", /ndcg@0/);
  throwsCode(() => evaluate(QRELS, RUN, ["no_such"]), "INVALID_ARGUMENT", /unknown measure/);
  throwsCode(() => evaluate(QRELS, RUN, []), "INVALID_ARGUMENT", /no measure/);
  throwsCode(() => evaluate(QRELS, "q1 Q0 d1 1 0.5 t\nq1 Q0 d2 2 NaN t\n", "map"), "PARSE", /run line 2.*not finite/);
  throwsCode(() => evaluate("q1 0 d1\n", RUN, "map"), "PARSE", /qrels line 1/);
  throwsCode(() => evaluate(QRELS, "q1 Q0 d1 1 0.5 t\nq1 Q0 d1 2 0.4 t\n", "map"), "PARSE", /listed twice/);
  assert.equal(evaluate(QRELS, "q1 Q0 d1 1 0.5 t\nq1 Q0 d1 2 0.4 t\n", "num_ret", { keepFirstDuplicate: true }).aggregate.num_ret, 1);
  throwsCode(() => evaluate(qrelsObject, { q1: { d1: NaN } }, "map"), "INVALID_ARGUMENT", /run\["q1"\]\["d1"\]/);
  throwsCode(() => evaluate(qrelsObject, { q1: { d1: "high" } }, "map"), "INVALID_ARGUMENT", /run\["q1"\]\["d1"\]/);
  throwsCode(() => evaluate({ q1: { d1: 1.5 } }, runObject, "map"), "INVALID_ARGUMENT", /qrels\["q1"\]\["d1"\].*integer/);
  throwsCode(() => evaluate(QRELS, RUN, "map", { relevance: 2 }), "INVALID_ARGUMENT", /^options\.relevance: unknown option "relevance": did you mean "relevanceLevel"\?/);
  throwsCode(() => evaluate(QRELS, RUN, "map", { nPermutations: 10 }), "INVALID_ARGUMENT", /^options\.nPermutations: unknown option/);
  throwsCode(() => evaluate(QRELS, RUN, "map", { ties: "random" }), "INVALID_ARGUMENT", /options.ties/);
  throwsCode(() => evaluate(42, RUN, "map"), "INVALID_ARGUMENT", /qrels/);
  const empty = evaluate(QRELS, "", "map");
  assert.deepEqual(empty.perQuery, {});
  assert.equal(empty.aggregate.map, 0);
});

// ---------------------------------------------------------------------------------------- compareRuns()

test("compareRuns: means, per-query deltas, t-test and seeded permutation test", () => {
  const qrels = {};
  const a = {};
  const b = {};
  for (let i = 0; i < 30; i++) {
    qrels[`q${i}`] = { rel: 1, other: 0 };
    a[`q${i}`] = { rel: i % 3 === 0 ? 2 : 0.5, other: 1 };
    b[`q${i}`] = { rel: 2, other: 1 };
  }
  const c = compareRuns(qrels, a, b, ["recip_rank", "P@1"], { randomSeed: 7, nPermutations: 500 });
  assert.deepEqual(Object.keys(c), ["recip_rank", "P@1"]);
  const rr = c.recip_rank;
  assert.equal(rr.meanB, 1);
  assert.ok(Math.abs(rr.meanA - (10 + 20 * 0.5) / 30) < 1e-12);
  assert.ok(Math.abs(rr.delta - (rr.meanB - rr.meanA)) < 1e-15);
  assert.equal(rr.perQuery.q1.delta, 0.5);
  assert.ok(rr.tTest.pValue < 1e-6 && rr.tTest.statistic > 0);
  assert.equal(rr.permutation.nPermutations, 500);
  assert.equal(rr.permutation.randomSeed, 7);
  assert.ok(rr.permutation.pValue < 0.01);
  const again = compareRuns(qrels, a, b, ["recip_rank"], { randomSeed: 7, nPermutations: 500 });
  assert.equal(again.recip_rank.permutation.pValue, rr.permutation.pValue);
  const same = compareRuns(qrels, a, a, "map");
  assert.equal(same.map.tTest.pValue, 1);
  assert.equal(same.map.permutation.pValue, 1);
});

test("CLI: empty qrels, Latin-1 text and a byte-order mark are reported by name, line and byte", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "rerankit-cli-"));
  writeFileSync(path.join(dir, "empty"), "");
  writeFileSync(path.join(dir, "latin1"), Buffer.from("q1 0 d1 1\nq1 0 d\xe9 1\n", "latin1"));
  writeFileSync(path.join(dir, "qrels"), "\ufeffq1 0 d1 1\n");
  writeFileSync(path.join(dir, "run"), "q1 Q0 d1 1 1.0 r\n");
  const run = (...args) => spawnSync(process.execPath, [cli, "eval", ...args], { cwd: dir, encoding: "utf8" });
  const empty = run("empty", "run");
  assert.notEqual(empty.status, 0);
  assert.match(empty.stderr, /qrels: no queries/);
  const latin = run("latin1", "run");
  assert.notEqual(latin.status, 0);
  assert.match(latin.stderr, /qrels line 2: byte 7 is not UTF-8/);
  assert.match(run("-m", "map", "qrels", "run").stdout, /^map\s+\tall\t1\.0000$/m);
});

test("CLI: a reader that closes the pipe early (`| head`) ends the CLI quietly, without a stack trace", () => {
  // 2,000 queries print far more than a pipe holds, so the CLI is still writing when head exits
  const dir = mkdtempSync(path.join(os.tmpdir(), "rerankit-cli-"));
  const qids = Array.from({ length: 2000 }, (_, i) => `q${i}`);
  writeFileSync(path.join(dir, "qrels"), qids.map((q) => `${q} 0 d1 1\n`).join(""));
  writeFileSync(path.join(dir, "run"), qids.map((q) => `${q} Q0 d1 1 1.0 r\n`).join(""));
  const out = spawnSync("bash", ["-o", "pipefail", "-c", `"${process.execPath}" "${cli}" eval -q -m all_trec qrels run | head -2`], {
    cwd: dir,
    encoding: "utf8",
  });
  assert.equal(out.stdout.split("\n").filter(Boolean).length, 2);
  assert.doesNotMatch(out.stderr, /EPIPE|Error/);
  assert.equal(out.status, 0);
});

test("evaluate: a Map of documents with ids that are not strings is INVALID_ARGUMENT (no TypeError from a BigInt)", () => {
  const qrels = { q1: { d1: 1 } };
  for (const key of [1n, 7, Symbol("d")]) {
    const run = { q1: new Map([[key, 0.5]]) };
    assert.throws(() => evaluate(qrels, run, ["map"]), (e) => e instanceof RerankitError && e.code === "INVALID_ARGUMENT" && /run\["q1"\]: document ids must be strings/.test(e.message), String(key));
  }
});

// ------------------------------------------------------------------------------ issue #41

const judgedDir = path.join(root, "tests", "fixtures", "judged_only");

test("CLI -J on qrels with negative grades prints what trec_eval 10.0 prints (tests/fixtures/judged_only)", () => {
  for (const [expected, args] of [["out.aq", ["-m", "all_trec", "-q"]], ["out.aqJ", ["-m", "all_trec", "-q", "-J"]],
    ["out.aqJM5", ["-m", "all_trec", "-q", "-J", "-M5"]], ["out.aqJl2", ["-m", "all_trec", "-q", "-J", "-l2"]]]) {
    const out = execFileSync(process.execPath, [cli, "eval", ...args, "qrels.trec", "run.trec"], { cwd: judgedDir, encoding: "utf8" });
    assert.equal(out, readFileSync(path.join(judgedDir, expected), "utf8"), expected);
  }
});

test("evaluate judgedOnly and judged_only=True drop negatively graded documents (pytrec_eval, ir_measures)", () => {
  const qrels = readFileSync(path.join(judgedDir, "qrels.trec"), "utf8");
  const run = readFileSync(path.join(judgedDir, "run.trec"), "utf8");
  const pytrec = JSON.parse(readFileSync(path.join(judgedDir, "pytrec_eval.json"), "utf8"));
  const names = Object.keys(pytrec.q1);
  const ours = evaluate(qrels, run, names, { judgedOnly: true });
  for (const [qid, values] of Object.entries(pytrec)) {
    for (const name of names) assert.ok(Math.abs(ours.perQuery[qid][name] - values[name]) <= 1e-12, `${qid} ${name}`);
  }
  const irm = JSON.parse(readFileSync(path.join(judgedDir, "ir_measures.json"), "utf8"));
  const byName = evaluate(qrels, run, Object.keys(irm.aggregate));
  for (const [name, mean] of Object.entries(irm.aggregate)) assert.ok(Math.abs(byName.aggregate[name] - mean) <= 1e-12, name);
});

test("dialect: a ranx user's recall is ranx's; trec_eval's stays the default (tests/fixtures/collection/dialects)", () => {
  const dir = path.join(root, "tests", "fixtures", "collection", "dialects");
  const qrels = readFileSync(path.join(dir, "qrels.trec"), "utf8");
  const run = readFileSync(path.join(dir, "run.trec"), "utf8");
  const values = JSON.parse(readFileSync(path.join(dir, "values.json"), "utf8"));
  const ranx = evaluate(qrels, run, ["recall", "hits", "hit_rate", "rbp.95"], { dialect: "ranx" });
  assert.ok(Math.abs(ranx.aggregate.recall - values.ranx.recall.mean.recall) <= 1e-12);
  assert.ok(Math.abs(ranx.aggregate["rbp.95"] - values.ranx["rbp.95"].mean["rbp.95"]) <= 1e-12);
  const trec = evaluate(qrels, run, "recall");
  assert.deepEqual(Object.keys(trec.aggregate), ["recall_5", "recall_10", "recall_15", "recall_20", "recall_30", "recall_100", "recall_200", "recall_500", "recall_1000"]);
  throwsCode(() => evaluate(qrels, run, "P", { dialect: "ir_measures" }), "INVALID_ARGUMENT", /P needs a cutoff/);
  throwsCode(() => evaluate(qrels, run, "rbp", { dialect: "ranx" }), "INVALID_ARGUMENT", /rbp\.95/);
  throwsCode(() => evaluate(qrels, run, "map", { dialect: "ranks" }), "INVALID_ARGUMENT", /options\.dialect/);
  // compareRuns with an array of runs is ranx's compare: ranx's names by default
  const compared = compareRuns(qrels, [run, run], "recall", { names: ["a", "b"] });
  assert.deepEqual(Object.keys(compared.measures), ["recall"]);
  assert.ok(Math.abs(compared.measures.recall.means.a - values.ranx.recall.mean.recall) <= 1e-12);
});

test("empty inputs: ranx refuses them, ir_measures answers with an empty result, trec_eval keeps its rules", () => {
  const qrels = { q1: { d1: 1, d2: 0 } };
  const run = { q1: { d1: 0.5, d3: 0.25 } };
  throwsCode(() => evaluate({}, run, "ndcg@10", { dialect: "ranx" }), "INVALID_ARGUMENT", /^qrels: /);
  throwsCode(() => evaluate(qrels, {}, "ndcg@10", { dialect: "ranx" }), "INVALID_ARGUMENT", /^run: /);
  const none = evaluate({}, run, ["nDCG@10", "NumQ"], { dialect: "ir_measures" });
  assert.deepEqual(none.perQuery, {});
  assert.deepEqual(none.aggregate, { NumQ: 0 });
  const zeros = evaluate(qrels, {}, ["nDCG@10", "AP"], { dialect: "ir_measures" });
  assert.deepEqual(zeros.perQuery, { q1: { "nDCG@10": 0, AP: 0 } });
  throwsCode(() => evaluate({}, run, "map"), "INVALID_ARGUMENT", /^qrels: /);
});
