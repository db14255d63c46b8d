// Measure spellings through `rerankit/eval` against the tools' own answers (tests/fixtures/collection/measure_names,
// made by tests/fixtures/gen/make_measure_names.py on the dialects fixture's qrels and run): ranx's dcg/dcg_burges/rbp
// names with `returnStd` (ranx's `return_std`), trec_eval's and pytrec_eval's comma lists, ir_measures' parameters.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { evaluate, RerankitError } from "rerankit/eval";
import { assertThrowsCode } from "../common/rerankit_error.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const collection = path.join(root, "tests", "fixtures", "collection");
const qrels = readFileSync(path.join(collection, "dialects", "qrels.trec"), "utf8");
const run = readFileSync(path.join(collection, "dialects", "run.trec"), "utf8");
const values = JSON.parse(readFileSync(path.join(collection, "measure_names", "values.json"), "utf8"));
const throwsCode = (fn, code, message) => assertThrowsCode(RerankitError, fn, code, message);
const close = (a, b, tolerance, what) => assert.ok(Math.abs(a - b) <= tolerance, `${what}: rerankit ${a}, tool ${b}`);

// ranx's evaluate leaves bpref at a level 0 for the queries after one without relevant documents in its numba work
// chunk; rerankit gives ranx's per-query bpref (tests/metrics/measure_names.rs compares it with ranx's _bpref)
const RANX_PARALLEL_LOOP_ZEROS = ["bpref-l2"];

test("ranx's names and returnStd: per query, mean and standard deviation as ranx.evaluate(..., return_std=True)", () => {
  const names = Object.keys(values.ranx_all).filter((name) => !RANX_PARALLEL_LOOP_ZEROS.includes(name));
  const result = evaluate(qrels, run, names, { dialect: "ranx", returnStd: true });
  for (const name of names) {
    close(result.aggregate[name], values.ranx_all[name].mean, 1e-12, `${name} mean`);
    close(result.std[name], values.ranx_all[name].std, 1e-12, `${name} std`);
    for (const [qid, value] of Object.entries(values.ranx[name].per_query)) close(result.perQuery[qid][name], value, 1e-12, `${name} ${qid}`);
  }
  assert.ok(names.includes("dcg@10") && names.includes("dcg_burges") && names.includes("rbp@95") && names.includes("ndcg@10-l2") && names.includes("rbp.95-l2"));
  assert.equal(evaluate(qrels, run, ["dcg@10"], { dialect: "ranx" }).std, undefined, "std only when asked");
  for (const [name, expected] of Object.entries(values.ranx)) {
    if (expected.error) throwsCode(() => evaluate(qrels, run, [name], { dialect: "ranx" }), "INVALID_ARGUMENT", new RegExp(name.replace(/[.@]/g, "\\$&")));
  }
});

test("pytrec_eval's underscore lists are trec_eval's dotted ones; set_F's parameter list is one measure", () => {
  const underscore = evaluate(qrels, run, ["P_5,10", "ndcg_cut_5,10", "set_F.1.0,0.5,2.4"]);
  const dotted = evaluate(qrels, run, ["P.5,10", "ndcg_cut.5,10", "set_F.1.0"]);
  assert.deepEqual(Object.keys(underscore.aggregate), ["P_5", "P_10", "ndcg_cut_5", "ndcg_cut_10", "set_F.1.0,0.5,2.4"]);
  for (const key of ["P_5", "P_10", "ndcg_cut_5", "ndcg_cut_10"]) assert.equal(underscore.aggregate[key], dotted.aggregate[key]);
  assert.equal(underscore.aggregate["set_F.1.0,0.5,2.4"], dotted.aggregate["set_F.1.0"]);
});

test("ir_measures' parameters: its values where it computes them, a RerankitError where it refuses them", () => {
  let computed = 0;
  let refused = 0;
  // ir_measures hands nDCG(dcg='exp-log2') to its ranx provider, which fails under the fixture's pandas 3 (string
  // query-id dtype); under pandas 2 it gives ranx's ndcg_burges (tests/metrics/measure_names.rs)
  close(evaluate(qrels, run, ["nDCG(dcg='exp-log2')"], { dialect: "ir_measures" }).aggregate["nDCG(dcg='exp-log2')"], values.ranx.ndcg_burges.mean, 1e-12, "nDCG(dcg='exp-log2')");
  for (const [name, expected] of Object.entries(values.ir_measures)) {
    if (name === "nDCG(dcg='exp-log2')") continue;
    if (expected.error) {
      throwsCode(() => evaluate(qrels, run, [name], { dialect: "ir_measures" }), "INVALID_ARGUMENT");
      refused++;
      continue;
    }
    const result = evaluate(qrels, run, [name], { dialect: "ir_measures" });
    close(result.aggregate[name], expected.mean, expected.provider === "gdeval" ? 5e-6 : 1e-9, name);
    computed++;
  }
  assert.ok(computed > 150 && refused > 100, `${computed} computed, ${refused} refused`);
  throwsCode(() => evaluate(qrels, run, ["nDCG(cutof=10)"]), "INVALID_ARGUMENT", /did you mean "cutoff"/);
});
