// ir_measures names through `rerankit/eval` (TypeScript → wasm binding → src/metrics): the values ir_measures'
// own providers give on the SciFact runs and the synthetic intent-aware collection
// (tests/fixtures/collection/ir_measures, made by tests/fixtures/gen/make_ir_measures.py), keys as typed,
// compareRuns with the same names, and bad names, parameters and intent qrels as typed errors.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { evaluate, compareRuns, parseQrels, RerankitError } from "rerankit/eval";
import { assertThrowsCode } from "../common/rerankit_error.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const collection = path.join(root, "tests", "fixtures", "collection");
const read = (file) => readFileSync(path.join(collection, file), "utf8");
const reference = (name) => JSON.parse(read(`ir_measures/${name}.json`));

const throwsCode = (fn, code, message) => assertThrowsCode(RerankitError, fn, code, message);

/** gdeval prints 5 decimals; every other provider's values are compared to 1e-9. */
function close(actual, expected, provider, what) {
  const tolerance = provider === "gdeval" ? 5e-6 + 1e-12 : 1e-9;
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what}: rerankit ${actual}, ir_measures ${expected}`);
}

/** Every measure of a fixture, per query and mean, with ir_measures' averaging (every qrels query: complete). */
function matches(fixture, qrels, run, options = {}) {
  const expected = reference(fixture).measures;
  const names = Object.keys(expected);
  const result = evaluate(qrels, run, names, { complete: true, ...options });
  assert.deepEqual(Object.keys(result.aggregate), names, "results keyed by the names as typed");
  let compared = 0;
  for (const name of names) {
    const { provider, mean, per_query: perQuery } = expected[name];
    assert.deepEqual(Object.keys(result.perQuery).sort(), Object.keys(perQuery).sort());
    for (const [qid, value] of Object.entries(perQuery)) {
      close(result.perQuery[qid][name], value, provider, `${fixture} ${qid} ${name}`);
      compared++;
    }
    close(result.aggregate[name], mean, provider, `${fixture} mean ${name}`);
  }
  return compared;
}

// `second` and `ce_probe` have no tied scores, so every provider's tie order agrees with rerankit's.
test("evaluate() gives ir_measures' values on the SciFact runs (graded and binary qrels)", () => {
  const graded = read("ir_measures/qrels.graded.trec");
  const binary = read("qrels.test.trec");
  let compared = 0;
  compared += matches("graded.second", graded, read("runs/second.trec"));
  compared += matches("graded.ce_probe", parseQrels(graded), read("runs/ce_probe.trec"));
  compared += matches("binary.second", binary, read("runs/second.trec"));
  assert.ok(compared > 30000, `${compared} values compared`);
});

test("alpha_nDCG and ERR_IA read the intent-aware qrels given as options.intents", () => {
  const intents = read("ir_measures/intents/intents.trec");
  const qrels = read("ir_measures/intents/qrels.trec");
  const run = read("ir_measures/intents/run.trec");
  assert.equal(matches("intents.run", qrels, run, { intents }), 25 * 40);
  matches("intents.run", qrels, run, { intents: new TextEncoder().encode(intents) });
  // compareRuns reads them too: the run against itself reversed
  const reversed = run.split("\n").filter(Boolean).map((line) => {
    const [qid, q0, doc, rank, score, tag] = line.split(" ");
    return [qid, q0, doc, rank, String(-Number(score)), tag].join(" ");
  }).join("\n");
  const comparison = compareRuns(qrels, run, reversed, ["alpha_nDCG@10", "nNRBP"], { intents, complete: true, nPermutations: 10 });
  const expected = reference("intents.run").measures;
  close(comparison["alpha_nDCG@10"].meanA, expected["alpha_nDCG@10"].mean, "pyndeval", "compareRuns alpha_nDCG@10");
  close(comparison["nNRBP"].meanA, expected["nNRBP"].mean, "pyndeval", "compareRuns nNRBP");
  const alone = evaluate(qrels, reversed, ["alpha_nDCG@10"], { intents, complete: true }).aggregate["alpha_nDCG@10"];
  assert.equal(comparison["alpha_nDCG@10"].meanB, alone);
  assert.notEqual(alone, comparison["alpha_nDCG@10"].meanA);
  throwsCode(() => evaluate(qrels, run, ["alpha_nDCG@10"]), "INVALID_ARGUMENT", /alpha_nDCG@10.*intent-aware qrels/);
  throwsCode(() => evaluate(qrels, run, ["ERR_IA@5"], { intents: "1 a d1\n" }), "PARSE", /options\.intents: intent qrels line 1/);
  throwsCode(() => evaluate(qrels, run, ["ERR_IA@5"], { intents: new Uint8Array([0xff]) }), "INVALID_ARGUMENT", /options\.intents/);
});

test("compareRuns takes ir_measures names", () => {
  const qrels = read("ir_measures/qrels.graded.trec");
  const names = ["P(rel=2)@10", "ERR@10", "RBP(p=0.5,rel=2)", "Judged@10", "nDCG(gains={0:0,1:1,2:3,3:7,4:15})@10"];
  const comparison = compareRuns(qrels, read("runs/second.trec"), read("runs/ce_probe.trec"), names, { complete: true, nPermutations: 10 });
  assert.deepEqual(Object.keys(comparison), names);
  const a = reference("graded.second").measures;
  const b = reference("graded.ce_probe").measures;
  for (const name of names) {
    close(comparison[name].meanA, a[name].mean, a[name].provider, `meanA ${name}`);
    close(comparison[name].meanB, b[name].mean, b[name].provider, `meanB ${name}`);
  }
});

test("ir_measures names keep the older names' meanings and refuse what ir_measures refuses", () => {
  const qrels = "q1 0 d1 2\nq1 0 d2 1\nq1 0 d3 0\n";
  const run = "q1 Q0 d1 1 0.9 r\nq1 Q0 d2 2 0.8 r\nq1 Q0 dx 3 0.7 r\n";
  const r = evaluate(qrels, run, ["P@2", "P(rel=2)@2", "P_2", "Judged@2", "Judged", "RBP(p=0.5,rel=2)", "ERR@1"]);
  assert.equal(r.aggregate["P@2"], 1);
  assert.equal(r.aggregate["P_2"], 1);
  assert.equal(r.aggregate["P(rel=2)@2"], 0.5);
  assert.equal(r.aggregate["Judged@2"], 1);
  assert.equal(r.aggregate["Judged"], 2 / 3);
  assert.equal(r.aggregate["ERR@1"], 3 / 16);
  // cwl_eval normalises RBP's weights over 1000 ranks
  assert.ok(Math.abs(r.aggregate["RBP(p=0.5,rel=2)"] - 0.5) < 1e-12);
  // the global relevance level applies to names without rel=, not to those with it
  const level2 = evaluate(qrels, run, ["P@2", "P(rel=1)@2"], { relevanceLevel: 2 });
  assert.equal(level2.aggregate["P@2"], 0.5);
  assert.equal(level2.aggregate["P(rel=1)@2"], 1);
  for (const [name, message] of [
    ["P(rel=2)", /P\(rel=2\).*needs a cutoff/],
    ["P(rel=2.5)@10", /must be an integer/],
    ["SDCG(min_rel=1)@20", /SDCG.*needs max_rel/],
    ["alpha_nDCG@21", /depth 20/],
    ["RBP(p=2.0)", /\(0, 1\)/],
    ["SetF(beta=2)", /must be a float/],
    ["nDCG(rel=2)@10", /no parameter .rel./],
    ["nDGC@10", /did you mean "nDCG"/],
    ["P(colour=1)@5", /no parameter 'colour'/],
    ["ERR", /ERR needs a cutoff/],
  ]) {
    throwsCode(() => evaluate(qrels, run, [name]), "INVALID_ARGUMENT", message);
  }
  throwsCode(() => evaluate("q1 0 d1 7\n", run, ["ERR@10"]), "INVALID_ARGUMENT", /ERR@10.*grade 7/);
});

test("rerankit eval --intents FILE: the intent-aware measures from the command line, as ir_measures computes them", async () => {
  const { execFileSync } = await import("node:child_process");
  const cli = path.join(root, "pkg/dist/cli/main.js");
  const dir = path.join(collection, "ir_measures", "intents");
  const names = ["alpha_nDCG@10", "ERR_IA@20"];
  const args = ["eval", "--intents", path.join(dir, "intents.trec"), ...names.flatMap((n) => ["-m", n]), path.join(dir, "qrels.trec"), path.join(dir, "run.trec")];
  const out = execFileSync(process.execPath, [cli, ...args], { encoding: "utf8" });
  const expected = reference("intents.run").measures;
  const lines = out.trim().split("\n").map((l) => l.split("\t").map((f) => f.trim()));
  assert.equal(lines.length, names.length, out);
  // trec_eval's format prints 4 decimals (the "all" line averages the run's queries; here every qrels query is in the run)
  names.forEach((name, i) => assert.ok(Math.abs(Number(lines[i][2]) - expected[name].mean) <= 5e-5 + 1e-9, `${name}: ${lines[i][2]} vs ${expected[name].mean}`));
  // without --intents the same measures are a typed error, not numbers
  const failed = (() => { try { execFileSync(process.execPath, [cli, "eval", ...args.slice(3)], { encoding: "utf8", stdio: "pipe" }); return null; } catch (e) { return e; } })();
  assert.ok(failed && failed.status !== 0 && /intent/.test(String(failed.stderr)), "no --intents: an error naming the intents");
});
