// Measures the caller defines (pkg/metrics/defined_measures.ts), translated from ir_measures 0.4.3's own
// tests/test_runtime.py: its inputs and asserted values kept (test_define_byquery, test_define); then what
// rerankit adds: the named measures' queries and ranking, cutoffs, and errors that name the measure.
import { test } from "node:test";
import assert from "node:assert/strict";
import { evaluate, define, defineByQuery, DefinedMeasure, RerankitError } from "rerankit";

const QRELS = `
0 0 D0 0
0 0 D1 1
0 0 D2 1
0 0 D3 2
0 0 D4 0
1 0 D0 1
1 0 D3 0
1 0 D5 2
`;
const RUN = `
0 0 D0 1 0.8 run
0 0 D2 2 0.7 run
0 0 D1 3 0.3 run
0 0 D3 4 0.4 run
0 0 D4 5 0.1 run
1 0 D1 1 0.8 run
1 0 D3 2 0.7 run
1 0 D4 3 0.3 run
1 0 D2 4 0.4 run
`;

// ir_measures' my_p / my_s: the run merged with the query's qrels (left join on doc_id)
const relevant = (qrels, doc) => (qrels.find((j) => j.docId === doc.docId)?.relevance ?? 0) > 0;
function my_p(qrels, run) {
  return run.filter((d) => relevant(qrels, d)).length / run.length;
}
function my_s(qrels, run) {
  return run.some((d) => relevant(qrels, d)) ? 1 : 0;
}
function* byQuery(run) {
  const ids = [...new Set(run.map((d) => d.queryId))];
  for (const qid of ids) yield [qid, run.filter((d) => d.queryId === qid)];
}

const CASES = [
  // [measure, cutoff, value of query 0, value of query 1, calc_aggregate]
  ["MyP", 1, 0, 0, 0.0],
  ["MyP", 2, 0.5, 0, 0.25],
  ["MyP", 3, 0.6666666666666666, 0, 0.3333333333333333],
  ["MyS", 2, 1, 0, 0.5],
];

function check(measures) {
  for (const [name, k, v0, v1, aggregate] of CASES) {
    const measure = measures[name].at(k);
    const got = evaluate(QRELS, RUN, [measure], { dialect: "ir_measures" });
    assert.deepEqual(Object.keys(got.perQuery), ["0", "1"], `${name}@${k}`);
    assert.equal(got.perQuery["0"][`${name}@${k}`], v0, `${name}@${k} query 0`);
    assert.equal(got.perQuery["1"][`${name}@${k}`], v1, `${name}@${k} query 1`);
    assert.equal(got.aggregate[`${name}@${k}`], aggregate, `${name}@${k} aggregate`);
  }
}

test("test_define_byquery: ir_measures' values for a per-query precision and success", () => {
  check({ MyP: defineByQuery(my_p, { name: "MyP" }), MyS: defineByQuery(my_s, { name: "MyS" }) });
});

test("test_define: the same values from functions over every query at once", () => {
  const perQuery = (f) => (qrels, run) => [...byQuery(run)].map(([qid, docs]) => [qid, f(qrels.filter((j) => j.queryId === qid), docs)]);
  check({ MyP: define(perQuery(my_p), { name: "MyP" }), MyS: define(perQuery(my_s), { name: "MyS" }) });
  // ir_measures' "check empty lists": an empty run scores every query 0, empty qrels give no queries
  const empty = evaluate(QRELS, {}, [define(perQuery(my_s), { name: "MyS" }).at(2)], { dialect: "ir_measures" });
  assert.deepEqual(empty.perQuery, { 0: { "MyS@2": 0 }, 1: { "MyS@2": 0 } });
  assert.deepEqual(evaluate({}, RUN, [define(perQuery(my_s), { name: "MyS" }).at(2)], { dialect: "ir_measures" }).perQuery, {});
});

test("a defined measure sees the named measures' queries and ranking, and its values follow theirs", () => {
  const seen = [];
  const probe = defineByQuery(function probe(qrels, run) {
    seen.push({ qrels: qrels.map((j) => `${j.queryId}:${j.docId}=${j.relevance}`), run: run.map((d) => d.docId) });
    return run.length;
  });
  const qrels = { a: { d1: 1, d2: 0 }, b: { d3: 2 } };
  const run = { a: { d2: 0.5, d1: 0.5, d9: 0.9 }, c: { d4: 1 } };
  const got = evaluate(qrels, run, ["P_2", probe, probe.at(2)]);
  // trec_eval's queries (in both) and ranking (score, then docno descending)
  assert.deepEqual(seen[0], { qrels: ["a:d1=1", "a:d2=0"], run: ["d9", "d2", "d1"] });
  assert.deepEqual(seen[1].run, ["d9", "d2"]);
  assert.deepEqual(got.perQuery, { a: { P_2: 0, probe: 3, "probe@2": 2 } });
  assert.deepEqual(got.aggregate, { P_2: 0, probe: 3, "probe@2": 2 });
  // the run's own order and every qrels query, as the options say
  seen.length = 0;
  const input = evaluate(qrels, run, [probe], { ties: "input", complete: true, returnStd: true });
  assert.deepEqual(seen.map((s) => s.run), [["d2", "d1", "d9"], []]);
  assert.deepEqual(input.perQuery, { a: { probe: 3 }, b: { probe: 0 } });
  assert.deepEqual(input.std, { probe: 1.5 });
});

test("defined measures: errors name the measure, and the package keeps working", () => {
  const before = evaluate(QRELS, RUN, "P_5");
  const bad = (f, code = "INVALID_ARGUMENT") => (e) => e instanceof RerankitError && e.code === code && f.test(e.message);
  assert.throws(() => defineByQuery("p"), bad(/impl/));
  assert.throws(() => defineByQuery(() => 1), bad(/options\.name/));
  assert.throws(() => defineByQuery(() => 1, { name: "a@b" }), bad(/cutoff/));
  assert.throws(() => defineByQuery(() => 1, { name: "a", suportCutoff: true }), bad(/suportCutoff/));
  assert.throws(() => defineByQuery(() => 1, { name: "a", supportCutoff: false }).at(5), bad(/supportCutoff/));
  assert.throws(() => defineByQuery(() => 1, { name: "a" }).at(0), bad(/cutoff/));
  assert.throws(() => evaluate(QRELS, RUN, [defineByQuery(() => "x", { name: "text" })]), bad(/measure "text".*query 0.*number/));
  assert.throws(() => evaluate(QRELS, RUN, [define(() => [["0", 1], ["0", 2]], { name: "twice" })]), bad(/query 0 given twice/));
  assert.throws(() => evaluate(QRELS, RUN, [define(() => [["9", 1]], { name: "other" })]), bad(/query 9 is not among/));
  assert.throws(() => evaluate(QRELS, RUN, [define(() => 5, { name: "scalar" })]), bad(/iterable/));
  assert.throws(() => evaluate(QRELS, RUN, ["P_5", defineByQuery(() => 1, { name: "P_5" })]), bad(/"P_5" is given twice/));
  const thrown = new Error("mine");
  assert.throws(() => evaluate(QRELS, RUN, [defineByQuery(() => { throw thrown; }, { name: "throws" })]), (e) => e === thrown);
  // a query define() leaves out scores 0; empty trec_eval qrels are refused as for named measures
  const partial = evaluate(QRELS, RUN, [define(() => [["1", 0.5]], { name: "partial" })]);
  assert.deepEqual(partial.perQuery, { 0: { partial: 0 }, 1: { partial: 0.5 } });
  assert.throws(() => evaluate({}, RUN, [defineByQuery(() => 1, { name: "x" })]), bad(/qrels/));
  assert.ok(defineByQuery(() => 1, { name: "x" }) instanceof DefinedMeasure);
  assert.equal(String(defineByQuery(() => 1, { name: "x" }).at(3)), "x@3");
  // a sparse measures list of length 2³² − 1 (the API fuzzer's) is refused by its length before any element is
  // looked at: looking for defined measures in it walked every index, a minute's hang
  // (the proxy stops a walk at its 100th key, so that a regression fails here instead of hanging)
  let looked = 0;
  const look = () => {
    if (++looked >= 100) throw new Error("the measures list was walked index by index");
  };
  const sparse = new Proxy(Object.assign([], { length: 2 ** 32 - 1 }), {
    has: (target, key) => (look(), key in target),
    get: (target, key) => (key !== "length" && look(), target[key]),
  });
  assert.throws(() => evaluate(QRELS, RUN, sparse), bad(/measures: has 4294967295 elements/));
  assert.deepEqual(evaluate(QRELS, RUN, "P_5"), before);
});
