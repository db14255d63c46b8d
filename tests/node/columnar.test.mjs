// Columnar qrels and runs (ColumnarQrels / ColumnarRun: query ids, row offsets, a document-id table — an array of
// ids, or a DocIdTable kept in wasm and shared — and typed arrays) through the built package: the same collection
// as TREC text, as nested objects and as columns gives the same bits for every measure in every dialect; scores
// keep their bits; bad columns are RerankitErrors naming the field, after which the module keeps working.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as full from "rerankit";
import * as evalApi from "rerankit/eval";

const { evaluate, compareRuns, qrelsFromColumns, runFromColumns, docIdTable, DocIdTable, RerankitError } = full;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const fixture = (folder, name) => readFileSync(path.join(root, "tests/fixtures", folder, name), "utf8");

/** [qid, docno, value] rows of a TREC file (`column`: the grade's or the score's). */
function rows(text, column) {
  return text.split("\n").filter((l) => l.trim()).map((l) => {
    const f = l.trim().split(/\s+/);
    return [f[0], f[2], Number(f[column])];
  });
}

/** Columns from rows; `table`: document ids once in a table with per-row indices, else one id per row. */
function columnar(rs, valueKey, ValueArray, table = true) {
  const queryIds = [];
  const offsets = [0];
  const docIds = [];
  const docs = new Uint32Array(rs.length);
  const index = new Map();
  const values = new ValueArray(rs.length);
  rs.forEach(([qid, docno, value], i) => {
    if (i === 0 || rs[i - 1][0] !== qid) {
      if (i > 0) offsets.push(i);
      queryIds.push(qid);
    }
    if (table) {
      if (!index.has(docno)) index.set(docno, docIds.push(docno) - 1);
      docs[i] = index.get(docno);
    } else {
      docIds.push(docno);
    }
    values[i] = value;
  });
  offsets.push(rs.length);
  const out = { queryIds, offsets: Uint32Array.from(offsets), docIds, [valueKey]: values };
  if (table) out.docs = docs;
  return out;
}

/**
 * Qrels and run columns from rows naming one table of both inputs' ids, made with `api.docIdTable`: each id once, in
 * an order unlike byte order (neighbours swapped), so that ranking cannot take index order for docno order.
 */
function sharingTable(api, q, r) {
  const ids = [...new Set([...q, ...r].map(([, docno]) => docno))].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  for (let i = 0; i + 1 < ids.length; i += 2) [ids[i], ids[i + 1]] = [ids[i + 1], ids[i]];
  const table = api.docIdTable(ids);
  const index = new Map(ids.map((id, i) => [id, i]));
  const onTable = (rs, valueKey, ValueArray) => {
    const c = columnar(rs, valueKey, ValueArray);
    return { ...c, docIds: table, docs: Uint32Array.from(c.docs, (d) => index.get(c.docIds[d])) };
  };
  return [table, onTable(q, "grades", Int32Array), onTable(r, "scores", Float64Array)];
}

function nested(rs) {
  const out = {};
  for (const [qid, docno, value] of rs) (out[qid] ??= {})[docno] = value;
  return out;
}

const MEASURES = {
  trec_eval: ["all_trec", "ndcg_cut.5,10", "P.5,10", "recall", "rbp.p=0.8"],
  ranx: ["map@100", "ndcg@10", "mrr@10", "recall@100", "precision@5", "hit_rate@10", "ndcg_burges@10", "rbp.95", "bpref", "recall"],
  ir_measures: ["P@10", "nDCG@10", "AP", "RR", "R@100", "Judged@10", "ERR@10", "Compat(p=0.8)", "RBP(p=0.8)", "infAP", "P(rel=2)@5"],
};

function sameThreeWays(api, qrelsText, runText) {
  const q = rows(qrelsText, 3);
  const r = rows(runText, 4);
  const inputs = [
    ["nested", nested(q), nested(r)],
    ["columns with a table", columnar(q, "grades", Int32Array), columnar(r, "scores", Float64Array)],
    ["columns, one id per row", columnar(q, "grades", Int32Array, false), columnar(r, "scores", Float64Array, false)],
    ["columns sharing a DocIdTable", ...sharingTable(api, q, r).slice(1)],
  ];
  for (const [dialect, measures] of Object.entries(MEASURES)) {
    for (const options of [{ dialect }, { dialect, relevanceLevel: 2, maxResults: 7 }, { dialect, judgedOnly: true }, { dialect, scope: "qrels" }, { dialect, returnStd: true }]) {
      const text = api.evaluate(qrelsText, runText, measures, options);
      assert.ok(Object.keys(text.perQuery).length > 0);
      // runid is the run file's tag column; a run in memory has none
      for (const values of [text.aggregate, ...Object.values(text.perQuery)]) if ("runid" in values) values.runid = "";
      for (const [name, qrels, run] of inputs) {
        const ours = api.evaluate(qrels, run, measures, options);
        // deepStrictEqual compares numbers with Object.is: the same bits (0 and -0 differ, NaN equals NaN)
        assert.deepStrictEqual(ours.perQuery, text.perQuery, `${name}, ${JSON.stringify(options)}: per query`);
        assert.deepStrictEqual(ours.aggregate, text.aggregate, `${name}, ${JSON.stringify(options)}: aggregate`);
        assert.deepStrictEqual(ours.std, text.std);
      }
    }
  }
}

test("text, nested objects and columns give the same bits in every dialect (rerankit and rerankit/eval)", () => {
  for (const api of [full, evalApi]) {
    sameThreeWays(api, fixture("collection/dialects", "qrels.trec"), fixture("collection/dialects", "run.trec"));
    sameThreeWays(api, fixture("judged_only", "qrels.trec"), fixture("judged_only", "run.trec"));
  }
});

test("per-query values match the text path for all_trec, runid aside", () => {
  const qrelsText = fixture("judged_only", "qrels.trec");
  const runText = fixture("judged_only", "run.trec");
  const text = evaluate(qrelsText, runText, ["all_trec"]);
  const ours = evaluate(columnar(rows(qrelsText, 3), "grades", Int32Array), columnar(rows(runText, 4), "scores", Float64Array), ["all_trec"]);
  for (const [qid, values] of Object.entries(text.perQuery)) {
    for (const [key, value] of Object.entries(values)) {
      if (key !== "runid") assert.ok(Object.is(ours.perQuery[qid][key], value), `${qid} ${key}`);
    }
  }
});

test("document ids beyond ASCII cross as the same UTF-8 as from text (ties ordered by their bytes)", () => {
  // the wrapper writes ASCII ids byte by byte and falls back to encoding the whole table at the first other
  // character: here the table starts with ASCII ids and turns to accents, CJK and a surrogate pair part-way
  const suffixes = ["", "", "-é", "-文書", "-😀", ""];
  const renamed = new Map();
  const rename = (text) => text.split("\n").map((line) => {
    const f = line.trim().split(/\s+/);
    if (f.length < 4) return line;
    if (!renamed.has(f[2])) renamed.set(f[2], f[2] + suffixes[renamed.size % suffixes.length]);
    f[2] = renamed.get(f[2]);
    return f.join(" ");
  }).join("\n");
  const runText = rename(fixture("judged_only", "run.trec"));
  const qrelsText = rename(fixture("judged_only", "qrels.trec"));
  assert.ok([...renamed.values()].some((id) => /[^\x00-\x7f]/.test(id)) && /^[\x00-\x7f]*$/.test([...renamed.values()][0]));
  for (const api of [full, evalApi]) {
    const text = api.evaluate(qrelsText, runText, ["all_trec"]);
    for (const values of [text.aggregate, ...Object.values(text.perQuery)]) values.runid = "";
    const ours = api.evaluate(columnar(rows(qrelsText, 3), "grades", Int32Array), columnar(rows(runText, 4), "scores", Float64Array), ["all_trec"]);
    assert.deepStrictEqual(ours.perQuery, text.perQuery);
    assert.deepStrictEqual(ours.aggregate, text.aggregate);
    const [table, qrels, run] = sharingTable(api, rows(qrelsText, 3), rows(runText, 4));
    const onTable = api.evaluate(qrels, run, ["all_trec"]);
    assert.deepStrictEqual(onTable.perQuery, text.perQuery);
    assert.deepStrictEqual(onTable.aggregate, text.aggregate);
    table.free();
  }
});

test("scores keep their bits: one ulp apart ranks apart; a Float32Array is widened exactly", () => {
  const qrels = { queryIds: ["q"], offsets: Uint32Array.of(0, 1), docIds: ["b"], grades: Int32Array.of(1) };
  const x = 0.1;
  const above = x + 2 ** -56; // the next double after 0.1
  assert.notEqual(above, x);
  // b scores one ulp above a: b first. Were the scores rounded to a float, they would tie and "b" > "a" would still
  // rank b first, so check the other way round too: a one ulp above b ranks a first.
  const run = (sa, sb) => ({ queryIds: ["q"], offsets: Uint32Array.of(0, 2), docIds: ["a", "b"], docs: Uint32Array.of(0, 1), scores: Float64Array.of(sa, sb) });
  assert.equal(evaluate(qrels, run(x, above), "P_1").aggregate.P_1, 1);
  assert.equal(evaluate(qrels, run(above, x), "P_1").aggregate.P_1, 0);
  const f32 = Float32Array.of(0.1, 0.30000001192092896, -0, 3.4028234663852886e38, 1e-45);
  const widened = new Float64Array(f32);
  const measures = ["map", "ndcg", "P_2", "recip_rank"];
  const columns = (scores) => ({ queryIds: ["q"], offsets: Uint32Array.of(0, 5), docIds: ["a", "b", "c", "d", "e"], scores });
  const q5 = { queryIds: ["q"], offsets: Uint32Array.of(0, 2), docIds: ["c", "e"], grades: Int32Array.of(1, 2) };
  assert.deepStrictEqual(evaluate(q5, columns(f32), measures), evaluate(q5, columns(widened), measures));
  assert.deepStrictEqual(evaluate(q5, columns(f32), measures), evaluate(q5, { q: Object.fromEntries(["a", "b", "c", "d", "e"].map((d, i) => [d, widened[i]])) }, measures));
});

test("qrelsFromColumns / runFromColumns are handles for many calls, and compareRuns takes columns", () => {
  const qrelsText = fixture("judged_only", "qrels.trec");
  const runText = fixture("judged_only", "run.trec");
  const qc = columnar(rows(qrelsText, 3), "grades", Int32Array);
  const rc = columnar(rows(runText, 4), "scores", Float64Array);
  const qrels = qrelsFromColumns(qc);
  const run = runFromColumns(rc);
  assert.equal(qrels.size, rows(qrelsText, 3).length);
  assert.equal(run.size, rows(runText, 4).length);
  assert.equal(run.numQueries, rc.queryIds.length);
  assert.deepStrictEqual(evaluate(qrels, run, ["map", "P_5"]), evaluate(qc, rc, ["map", "P_5"]));
  assert.deepStrictEqual(evaluate(qrels, run, "ndcg"), evaluate(qc, rc, "ndcg"));
  const other = { ...rc, scores: rc.scores.map((s, i) => (i % 3 === 0 ? -s : s)) };
  const viaColumns = compareRuns(qc, [rc, other], ["map"], { randomSeed: 1 });
  const viaText = compareRuns(qrelsText, [runText, runFromColumns(other)], ["map"], { randomSeed: 1 });
  assert.deepStrictEqual(viaColumns.measures.map.means, viaText.measures.map.means);
  qrels.free();
  run.free();
});

test("keepFirstDuplicate keeps the first row, as for text", () => {
  const qrels = "q 0 a 1\n";
  const columns = { queryIds: ["q"], offsets: Uint32Array.of(0, 3), docIds: ["b", "a"], docs: Uint32Array.of(0, 1, 1), scores: Float64Array.of(0.5, 0.1, 0.9) };
  const text = "q Q0 b 1 0.5 r\nq Q0 a 2 0.1 r\nq Q0 a 3 0.9 r\n";
  assert.throws(() => evaluate(qrels, columns, "P_1"), (e) => e instanceof RerankitError && e.code === "INVALID_ARGUMENT" && /^run: document 'a' is listed twice for query 'q'/.test(e.message));
  assert.deepStrictEqual(evaluate(qrels, columns, ["P_1", "map"], { keepFirstDuplicate: true }).aggregate, evaluate(qrels, text, ["P_1", "map"], { keepFirstDuplicate: true }).aggregate);
});

test("bad columns are INVALID_ARGUMENT naming the field, and the module keeps working", () => {
  const qrels = { queryIds: ["q1"], offsets: Uint32Array.of(0, 1), docIds: ["a"], grades: Int32Array.of(1) };
  const good = () => ({ queryIds: ["q1", "q2"], offsets: Uint32Array.of(0, 2, 3), docIds: ["a", "b", "c"], docs: Uint32Array.of(0, 1, 2), scores: Float64Array.of(1, 0.5, 0.2) });
  const expected = evaluate("q1 0 a 1\n", "q1 Q0 a 1 1 r\nq1 Q0 b 2 0.5 r\nq2 Q0 c 1 0.2 r\n", ["map", "P_5"]);
  const cases = [
    [{ offsets: [0, 2, 3] }, /^run\.queryIds|^run\.offsets: expected a Uint32Array, got an array/],
    [{ offsets: Int32Array.of(0, 2, 3) }, /^run\.offsets: expected a Uint32Array, got an Int32Array/],
    [{ offsets: Uint32Array.of(0, 3) }, /^run\.offsets: has 2 offsets for 2 queries/],
    [{ offsets: Uint32Array.of(1, 2, 3) }, /^run\.offsets\[0\]: is 1/],
    [{ offsets: Uint32Array.of(0, 3, 2) }, /^run\.offsets\[2\]: is 2, below the offset before it/],
    [{ offsets: Uint32Array.of(0, 1, 2) }, /^run\.offsets\[2\]: is 2, but run\.scores has 3 rows/],
    [{ docs: [0, 1, 2] }, /^run\.docs: expected a Uint32Array \(or nothing\), got an array/],
    [{ docs: Uint32Array.of(0, 1) }, /^run\.docs: has 2 rows, run\.scores 3/],
    [{ docs: Uint32Array.of(0, 7, 2) }, /^run\.docs\[1\]: is 7, outside run\.docIds \(length 3\)/],
    [{ docs: undefined, docIds: ["a", "b"] }, /^run\.docIds: has 2 ids for 3 rows/],
    [{ scores: [1, 0.5, 0.2] }, /^run\.scores: expected a Float64Array or a Float32Array, got an array/],
    [{ scores: undefined }, /^run\.scores: expected a Float64Array or a Float32Array, got undefined/],
    [{ scores: Float64Array.of(1, NaN, 0.2) }, /^run\.scores\[1\]: score NaN is not finite/],
    [{ scores: Float32Array.of(1, 0.5, Infinity) }, /^run\.scores\[2\]: score inf is not finite/],
    [{ queryIds: "q1" }, /^run\.offsets|^run\.queryIds: expected an array of strings, got string/],
    [{ queryIds: ["q1", 2] }, /^run\.queryIds\[1\]: expected a string, got number/],
    [{ queryIds: ["q1", ""] }, /^run\.queryIds\[1\]: is empty/],
    [{ docIds: ["a", null, "c"] }, /^run\.docIds\[1\]: expected a string, got null/],
    [{ docIds: ["a", "", "c"] }, /^run\.docIds\[1\]: is empty/],
    [{ docIds: ["a", "b\0x", "c"] }, /^run\.docIds: ids must not contain U\+0000/],
    [{ docs: Uint32Array.of(0, 0, 2) }, /^run: document 'a' is listed twice for query 'q1'/],
    [{ docIds: ["a", "a", "c"] }, /^run: document 'a' is listed twice for query 'q1'/],
  ];
  for (const [change, message] of cases) {
    const run = { ...good(), ...change };
    for (const call of [() => evaluate(qrels, run, ["map"]), () => runFromColumns(run), () => compareRuns(qrels, [run, good()], ["map"])]) {
      assert.throws(call, (e) => {
        assert.ok(e instanceof RerankitError, `${JSON.stringify(Object.keys(change))}: ${e}`);
        assert.equal(e.code, "INVALID_ARGUMENT");
        assert.match(e.message.replaceAll("runs[0]", "run"), message);
        return true;
      });
    }
    assert.deepStrictEqual(evaluate(qrels, good(), ["map", "P_5"]).aggregate, expected.aggregate);
  }
  const qrelsCases = [
    [{ grades: Float64Array.of(1) }, /^qrels\.grades: expected an Int32Array, got a Float64Array/],
    [{ grades: Int32Array.of(1, 2) }, /^qrels\.offsets\[1\]: is 1, but qrels\.grades has 2 rows/],
    [{ docIds: ["a", "a"], offsets: Uint32Array.of(0, 2), grades: Int32Array.of(1, 0) }, /^qrels: document 'a' is judged twice for query 'q1'/],
    [{ queryIds: [""] }, /^qrels\.queryIds\[0\]: is empty/],
  ];
  for (const [change, message] of qrelsCases) {
    assert.throws(() => evaluate({ ...qrels, ...change }, good(), ["map"]), (e) => e instanceof RerankitError && e.code === "INVALID_ARGUMENT" && message.test(e.message));
    assert.throws(() => qrelsFromColumns({ ...qrels, ...change }), (e) => e instanceof RerankitError && message.test(e.message));
  }
  for (const bad of [null, 7, "x"]) {
    assert.throws(() => runFromColumns(bad), (e) => e instanceof RerankitError && e.code === "INVALID_ARGUMENT");
    assert.throws(() => qrelsFromColumns(bad), (e) => e instanceof RerankitError && e.code === "INVALID_ARGUMENT");
  }
  // a getter that throws is the field's error too
  const hostile = { ...good(), get scores() { throw new Error("boom"); } };
  assert.throws(() => evaluate(qrels, hostile, "map"), (e) => e instanceof RerankitError && /^run\.scores: reading it threw/.test(e.message));
  assert.deepStrictEqual(evaluate(qrels, good(), ["map", "P_5"]).aggregate, expected.aggregate);
});

test("a DocIdTable is built once for many calls, shared by qrels and runs, and outlived by what was built from it", () => {
  const q = rows(fixture("judged_only", "qrels.trec"), 3);
  const r = rows(fixture("judged_only", "run.trec"), 4);
  const [table, qc, rc] = sharingTable(full, q, r);
  assert.ok(table instanceof DocIdTable);
  assert.equal(table.size, new Set([...q, ...r].map(([, docno]) => docno)).size);
  const expected = evaluate(nested(q), nested(r), ["map", "ndcg_cut_10", "P_5"]);
  // the same table for every call, directly and through handles; a second run on it; compareRuns
  for (let i = 0; i < 3; i++) assert.deepStrictEqual(evaluate(qc, rc, ["map", "ndcg_cut_10", "P_5"]), expected);
  const qrels = qrelsFromColumns(qc);
  const run = runFromColumns(rc);
  assert.deepStrictEqual(evaluate(qrels, run, ["map", "ndcg_cut_10", "P_5"]), expected);
  const other = { ...rc, scores: rc.scores.map((s, i) => (i % 3 === 0 ? -s : s)) };
  const viaTable = compareRuns(qc, [rc, other], ["map"], { randomSeed: 1 });
  const viaObjects = compareRuns(nested(q), [nested(r), { ...columnar(r, "scores", Float64Array), scores: other.scores }], ["map"], { randomSeed: 1 });
  assert.deepStrictEqual(viaTable.measures.map.means, viaObjects.measures.map.means);
  // the run on the table against qrels of their own ids (no shared table): the same values
  assert.deepStrictEqual(evaluate(columnar(q, "grades", Int32Array), rc, ["map", "ndcg_cut_10", "P_5"]), expected);
  // freed: the table is FREED for new columns; the handles built from it keep their share
  table.free();
  table.free();
  assert.throws(() => evaluate(qc, rc, "map"), (e) => e instanceof RerankitError && e.code === "FREED" && /^DocIdTable/.test(e.message));
  assert.throws(() => table.size, (e) => e instanceof RerankitError && e.code === "FREED");
  assert.deepStrictEqual(evaluate(qrels, run, ["map", "ndcg_cut_10", "P_5"]), expected);
  qrels.free();
  run.free();
});

test("a bad DocIdTable, or bad columns on one, is INVALID_ARGUMENT naming the field", () => {
  const invalid = (call, message) => assert.throws(call, (e) => {
    assert.ok(e instanceof RerankitError, String(e));
    assert.equal(e.code, "INVALID_ARGUMENT");
    assert.match(e.message, message);
    return true;
  });
  invalid(() => docIdTable(["a", "b", "a"]), /^docIds\[2\]: repeats docIds\[0\] \("a"\): a shared table lists each id once/);
  invalid(() => docIdTable(["a", ""]), /^docIds\[1\]: is empty/);
  invalid(() => docIdTable(["a", "b\0c"]), /^docIds: ids must not contain U\+0000/);
  invalid(() => docIdTable("a"), /^docIds: expected an array of strings, got string/);
  invalid(() => docIdTable(["a", 1]), /^docIds\[1\]: expected a string, got number/);
  invalid(() => docIdTable(null), /^docIds: expected an array of strings, got null/);
  assert.equal(docIdTable([]).size, 0);
  const table = docIdTable(["a", "b", "c"]);
  const qrels = { queryIds: ["q1"], offsets: Uint32Array.of(0, 1), docIds: table, docs: Uint32Array.of(0), grades: Int32Array.of(1) };
  const good = () => ({ queryIds: ["q1", "q2"], offsets: Uint32Array.of(0, 2, 3), docIds: table, docs: Uint32Array.of(0, 1, 2), scores: Float64Array.of(1, 0.5, 0.2) });
  const expected = evaluate("q1 0 a 1\n", "q1 Q0 a 1 1 r\nq1 Q0 b 2 0.5 r\nq2 Q0 c 1 0.2 r\n", ["map", "P_5"]).aggregate;
  assert.deepStrictEqual(evaluate(qrels, good(), ["map", "P_5"]).aggregate, expected);
  for (const [change, message] of [
    [{ docs: Uint32Array.of(0, 7, 2) }, /^run\.docs\[1\]: is 7, outside run\.docIds \(length 3\)/],
    [{ docs: Uint32Array.of(0, 0, 2) }, /^run: document 'a' is listed twice for query 'q1'/],
    [{ docs: undefined, offsets: Uint32Array.of(0, 1, 2), scores: Float64Array.of(1, 0.5) }, /^run\.docIds: has 3 ids for 2 rows/],
    [{ scores: Float64Array.of(1, NaN, 0.2) }, /^run\.scores\[1\]: score NaN is not finite/],
    [{ docIds: Object.create(DocIdTable.prototype) }, /^expected a DocIdTable that rerankit made/],
    [{ docIds: { size: 3 } }, /^run\.docIds: expected an array of strings, got object/],
  ]) {
    invalid(() => evaluate(qrels, { ...good(), ...change }, ["map"]), message);
    invalid(() => runFromColumns({ ...good(), ...change }), message);
  }
  invalid(() => evaluate({ ...qrels, docs: Uint32Array.of(3) }, good(), "map"), /^qrels\.docs\[0\]: is 3, outside qrels\.docIds \(length 3\)/);
  invalid(() => evaluate({ ...qrels, offsets: Uint32Array.of(0, 2), docs: Uint32Array.of(1, 1), grades: Int32Array.of(1, 0) }, good(), "map"), /^qrels: document 'b' is judged twice for query 'q1'/);
  // a table of the other module (rerankit/eval's own wasm) is not this one's
  const foreign = evalApi.docIdTable(["a", "b", "c"]);
  invalid(() => evaluate(qrels, { ...good(), docIds: foreign }, "map"), /^run\.docIds: expected an array of strings, got object/);
  foreign.free();
  assert.deepStrictEqual(evaluate(qrels, good(), ["map", "P_5"]).aggregate, expected);
  table.free();
});

test("nested input whose query ids look like column names stays nested", () => {
  const nestedRun = { offsets: { a: 1 }, queryIds: { b: 0.5 } };
  const e = evaluate({ offsets: { a: 1 } }, nestedRun, ["num_ret", "P_1"]);
  assert.deepStrictEqual(e.perQuery, { offsets: { num_ret: 1, P_1: 1 } });
});
