// Haystack-style pipeline evaluation and the SQuAD scripts through `rerankit/pipeline-eval`, imported by name as
// users do. Expected values come from farm-haystack 1.26.4.post0 (tests/fixtures/haystack) and from the
// official evaluate-v1.1.py / evaluate-v2.0.py (tests/fixtures/squad), made by scripts/fixtures/haystack/.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync, mkdtempSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { gunzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import { tmpdir } from "node:os";
import path from "node:path";
import { EvaluationResult, squadEvaluate, normalizeAnswer, squadScores, RerankitError } from "rerankit/pipeline-eval";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const hx = (rel) => path.join(repo, "tests/fixtures/haystack", rel);
const sq = (rel) => path.join(repo, "tests/fixtures/squad", rel);
const json = (p) => JSON.parse(readFileSync(p, "utf8"));
const cli = path.join(repo, "pkg/dist/cli/main.js");

const csvFiles = () => ({
  "Reader.csv": readFileSync(hx("node_results/Reader.csv"), "utf8"),
  "Retriever.csv": readFileSync(hx("node_results/Retriever.csv"), "utf8"),
});

/** Deep equality with numbers to 1e-9 (relative); booleans equal 0/1 as in pandas. */
function same(actual, expected, where) {
  if (typeof expected === "number" || typeof actual === "number") {
    const a = typeof actual === "boolean" ? Number(actual) : actual;
    const e = typeof expected === "boolean" ? Number(expected) : expected;
    assert.equal(typeof a, "number", `${where}: ${JSON.stringify(actual)} is not a number`);
    assert.ok(Math.abs(a - e) <= 1e-9 * (1 + Math.abs(e)), `${where}: ${a} vs ${e}`);
  } else if (Array.isArray(expected)) {
    assert.ok(Array.isArray(actual), `${where}: expected an array`);
    assert.equal(actual.length, expected.length, `${where}: length`);
    expected.forEach((e, i) => same(actual[i], e, `${where}[${i}]`));
  } else if (expected && typeof expected === "object") {
    assert.ok(actual && typeof actual === "object", `${where}: expected an object`);
    assert.deepEqual(Object.keys(actual), Object.keys(expected), `${where}: keys`);
    for (const [k, v] of Object.entries(expected)) same(actual[k], v, `${where}.${k}`);
  } else {
    assert.equal(actual, expected, where);
  }
}

const camel = (c) => ({
  simulatedTopKReader: c.simulated_top_k_reader,
  simulatedTopKRetriever: c.simulated_top_k_retriever,
  documentScope: c.document_scope,
  answerScope: c.answer_scope,
  evalMode: c.eval_mode,
});

test("calculateMetrics equals farm-haystack on its saved rows (every scope, top-k and mode of the grid)", () => {
  const r = EvaluationResult.fromCsv(csvFiles());
  try {
    assert.deepEqual(r.nodeNames, ["Reader", "Retriever"]);
    const grid = json(hx("metrics.json")).filter((c) => !c.document_ids_none_as_empty);
    assert.ok(grid.length >= 100, `${grid.length} cases`);
    const scopes = new Set();
    for (const c of grid) {
      const warnings = [];
      const got = r.calculateMetrics({ ...camel(c), onWarning: (m) => warnings.push(m) });
      for (const [node, want] of Object.entries(c.metrics)) same(got[node], want, `${JSON.stringify(camel(c))} ${node}`);
      // what Haystack logged: the scope warning, once per node
      assert.deepEqual(warnings, c.warnings, `${JSON.stringify(camel(c))} warnings`);
      scopes.add(`${c.document_scope}/${c.answer_scope}`);
    }
    assert.ok(scopes.size >= 6, `${scopes.size} scope combinations`);
  } finally {
    r.free();
  }
});

const wrongNames = {
  n: "n", simulated_top_k_reader: "simulatedTopKReader", simulated_top_k_retriever: "simulatedTopKRetriever",
  document_scope: "documentScope", answer_scope: "answerScope", eval_mode: "evalMode", document_metric: "documentMetric",
  answer_metric: "answerMetric", document_metric_threshold: "documentMetricThreshold", answer_metric_threshold: "answerMetricThreshold",
};
const wrongCases = () => json(hx("wrong_examples.json")).map((c) => {
  const { node, ...args } = c.args;
  return { c, node, options: Object.fromEntries(Object.entries(args).map(([k, v]) => [wrongNames[k], v])) };
});
// Haystack's in-memory rows (node_results.json.gz keeps None apart from "", which its CSV cannot): every case
// exactly — which queries, their order (ties in numpy's quicksort order), each row's columns, null vs "".
// Cases flagged document_ids_none_as_empty ran on Haystack's copy with [] for its own None document_ids
// (Haystack raises TypeError there; rerankit reads None as []).
test("wrongExamples equals farm-haystack on every case", () => {
  const rows = JSON.parse(gunzipSync(readFileSync(hx("node_results.json.gz"))).toString("utf8"));
  const r = EvaluationResult.fromNodeResults(rows);
  try {
    const cases = wrongCases();
    assert.ok(cases.length >= 14, `${cases.length} cases`);
    for (const { c, node, options } of cases) same(r.wrongExamples(node, options), c.result, JSON.stringify(c.args));
  } finally {
    r.free();
  }
});

test("wrongExamples on rows loaded from Haystack's CSVs: the same queries and rows", () => {
  // A CSV writes None and "" alike, so text cells Haystack holds as None come back as "" here.
  const r = EvaluationResult.fromCsv(csvFiles());
  const blank = (v) => JSON.parse(JSON.stringify(v, (k, x) => (x === null && (k === "context" || k === "answer") ? "" : x)));
  try {
    for (const { c, node, options } of wrongCases()) same(blank(r.wrongExamples(node, options)), blank(c.result), JSON.stringify(c.args));
  } finally {
    r.free();
  }
});

test("CSV: load then save gives Haystack's bytes; JSON round trip", () => {
  const files = csvFiles();
  const r = EvaluationResult.fromCsv(files);
  for (const [name, text] of Object.entries(files)) assert.equal(r.toCsv(name.replace(/\.csv$/, "")), text, name);
  assert.deepEqual(r.toCsvFiles(), files);
  const asJson = r.toJSON();
  assert.equal(asJson.Reader.length, r.nodeResults("Reader").length);
  const back = EvaluationResult.fromJSON(JSON.stringify(asJson));
  assert.deepEqual(back.toJSON(), asJson);
  const again = EvaluationResult.fromNodeResults(asJson);
  same(again.calculateMetrics({ documentScope: "document_id" }), r.calculateMetrics({ documentScope: "document_id" }), "fromNodeResults");
  r.free();
  back.free();
  again.free();
});

test("build from predictions: rows equal the start of Haystack's CSVs byte for byte; save, load, save; metrics computed", () => {
  // the first 12 queries (context similarity over every row takes a minute)
  const full = json(hx("eval_input.json"));
  const k = 12;
  const cut = (v) => (Array.isArray(v) ? v.slice(0, k) : Object.fromEntries(Object.entries(v).filter(([q]) => full.queries.slice(0, k).includes(q))));
  const input = {
    queries: full.queries.slice(0, k),
    labels: full.labels.slice(0, k),
    nodes: Object.fromEntries(Object.entries(full.nodes).map(([n, out]) => [n, Object.fromEntries(Object.entries(out).map(([f, v]) => [f, cut(v)]))])),
  };
  const r = EvaluationResult.build(input);
  assert.deepEqual([...r.nodeNames].sort(), ["Reader", "Retriever"]);
  for (const [name, text] of Object.entries(r.toCsvFiles())) {
    const back = EvaluationResult.fromCsv({ [name]: text });
    assert.equal(back.toCsv(name.replace(/\.csv$/, "")), text, name);
    back.free();
  }
  // Haystack builds rows query by query, so rows of the first k queries are the first rows of its own CSVs
  for (const [name, text] of Object.entries(csvFiles())) {
    const node = name.replace(/\.csv$/, "");
    const ours = r.toCsv(node);
    const rows = r.nodeResults(node).length;
    assert.ok(rows > k, `${name}: ${rows} rows`);
    assert.ok(text.startsWith(ours), `${name}: rerankit's rows are not the start of Haystack's CSV`);
    // (`index`, the row number, is the last column in Pipeline.eval's column order)
    const theirs = EvaluationResult.fromCsv({ [name]: text });
    assert.equal(theirs.nodeResults(node)[rows].index, rows, `${name}: Haystack's next row is row ${rows}`);
    theirs.free();
  }
  const m = r.calculateMetrics();
  assert.equal(typeof m.Retriever.recall_single_hit, "number");
  assert.equal(typeof m.Reader.f1, "number");
  r.free();
});

const squadCases = ["v1.1-perturbed", "v1.1-missing", "v2.0-perturbed", "v2.0-first-words"];
const datasetOf = (name) => sq(name.startsWith("v1.1") ? "dev-v1.1.json.gz" : "dev-v2.0.json.gz");

test("append adds a node's rows after its own, or a new node; no rows change nothing (Haystack's EvaluationResult.append)", () => {
  const r = EvaluationResult.fromCsv(csvFiles());
  const [node] = r.nodeNames;
  const rows = r.nodeResults(node);
  r.append(node, rows.slice(0, 2));
  assert.deepEqual(r.nodeResults(node), [...rows, ...rows.slice(0, 2)]);
  r.append("Extra", rows.slice(0, 1));
  assert.deepEqual(r.nodeNames.at(-1), "Extra");
  assert.deepEqual(r.nodeResults("Extra"), rows.slice(0, 1));
  const before = r.toJSON();
  r.append("Extra", []);
  assert.deepEqual(r.toJSON(), before);
  assert.throws(() => r.append("Extra", "rows"), (e) => e instanceof RerankitError && e.code === "INVALID_ARGUMENT");
});

test("squadEvaluate equals the official scripts' output", () => {
  for (const name of squadCases) {
    const expected = json(sq(`expected/${name}.json`));
    const dataset = JSON.parse(gunzipSync(readFileSync(datasetOf(name))).toString("utf8"));
    const predictions = json(sq(`predictions/${name}.json`));
    const out = squadEvaluate(dataset, predictions);
    assert.equal(out.version, name.slice(1, 4));
    same(out.result, expected.result, name);
    assert.equal(out.printed + "\n", expected.stdout_json, `${name}: printed`);
    assert.equal(out.messages.length, expected.stderr_lines, `${name}: stderr lines`);
  }
  assert.equal(normalizeAnswer("The  Cat, a dog!"), "cat dog");
  assert.deepEqual(squadScores("the cat", "a cat sat"), { exact: 0, f1: 0.6666666666666666 });
});

test("rerankit qa-eval prints the official scripts' JSON", () => {
  for (const name of squadCases) {
    const expected = json(sq(`expected/${name}.json`));
    const p = spawnSync(process.execPath, [cli, "qa-eval", datasetOf(name), sq(`predictions/${name}.json`)], { encoding: "utf8" });
    assert.equal(p.status, 0, p.stderr);
    same(JSON.parse(p.stdout), expected.result, `${name} (parsed)`);
    assert.equal(p.stdout, expected.stdout_json, `${name}: stdout`);
  }
});

test("rerankit qa-eval: bad files exit 1 with a clear error", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "rerankit-qa-"));
  const bad = path.join(dir, "bad.json");
  writeFileSync(bad, "{not json");
  const notSquad = path.join(dir, "not_squad.json");
  writeFileSync(notSquad, JSON.stringify({ version: "1.1", articles: [] }));
  const preds = sq("predictions/v1.1-perturbed.json");
  for (const [args, pattern] of [
    [[bad, preds], /dataset.*\[PARSE\]/],
    [[notSquad, preds], /data.*\[PARSE\]/],
    [[sq("dev-v1.1.json.gz"), bad], /predictions.*\[PARSE\]/],
    [[path.join(dir, "missing.json"), preds], /missing\.json/],
  ]) {
    const p = spawnSync(process.execPath, [cli, "qa-eval", ...args], { encoding: "utf8" });
    assert.equal(p.status, 1, `${args.join(" ")}: ${p.stderr}`);
    assert.match(p.stderr, pattern);
    assert.equal(p.stdout, "");
  }
});

test("bad input throws RerankitError with a stable code", () => {
  const expectCode = (fn, code, pattern) => {
    assert.throws(fn, (err) => err instanceof RerankitError && err.code === code && (!pattern || pattern.test(err.message)), `expected ${code}`);
  };
  const r = EvaluationResult.fromCsv(csvFiles());
  expectCode(() => r.calculateMetrics({ documentScope: "nope" }), "INVALID_ARGUMENT", /documentScope/);
  expectCode(() => r.calculateMetrics({ simulatedTopKReader: "3" }), "INVALID_ARGUMENT", /simulatedTopKReader/);
  expectCode(() => r.calculateMetrics({ topK: 3 }), "INVALID_ARGUMENT", /topK/);
  expectCode(() => r.calculateMetrics({ simulatedTopKReader: NaN }), "INVALID_ARGUMENT", /simulatedTopKReader/);
  expectCode(() => r.wrongExamples("Ranker"), "INVALID_ARGUMENT", /Ranker/);
  expectCode(() => r.toCsv("Ranker"), "INVALID_ARGUMENT", /Ranker/);
  r.free();
  expectCode(() => EvaluationResult.fromCsv({ "Reader.csv": '"a","b"\n"unterminated' }), "PARSE");
  expectCode(() => EvaluationResult.build({ queries: ["q"], labels: [] , nodes: {} }), "INVALID_ARGUMENT", /labels/);
  expectCode(() => EvaluationResult.build({ queries: [1], labels: [[]], nodes: {} }), "INVALID_ARGUMENT", /queries\[0\]/);
  expectCode(() => squadEvaluate("{", {}), "PARSE", /dataset/);
  expectCode(() => squadEvaluate({ version: "1.1", data: [] }, ["x"]), "PARSE", /predictions/);
  expectCode(() => squadEvaluate({ version: "1.1", data: [] }, {}, { version: "3.0" }), "INVALID_ARGUMENT", /version/);
  expectCode(() => normalizeAnswer(3), "INVALID_ARGUMENT");
  // predictions for a query that has no labels (keyed by query text)
  const label = { query: "q", document: { content: "the cat sat", id: "d1" }, is_correct_answer: true, is_correct_document: true,
    origin: "gold-label", answer: { answer: "cat", offsets_in_document: [{ start: 4, end: 7 }], document_ids: ["d1"] } };
  expectCode(() => EvaluationResult.build({ queries: ["q"], labels: [[label]], nodes: { Reader: { answers: { "other query": [] } } } }),
    "INVALID_ARGUMENT", /nodes\.Reader\.answers.*unknown query "other query"/);
  expectCode(() => EvaluationResult.build({ queries: ["q"], labels: [[label]], nodes: { Reader: { answers: [[], []] } } }),
    "INVALID_ARGUMENT", /nodes\.Reader\.answers: 2 prediction lists for 1 queries/);
  expectCode(() => EvaluationResult.build({ queries: ["q"], labels: [[]], nodes: {} }), "INVALID_ARGUMENT", /labels\[0\].*at least one label/);
  expectCode(() => EvaluationResult.fromCsv({ "Reader.csv": '"index","gold_answers"\n0,"[\'unclosed"\n' }), "PARSE", /Reader\.csv row 1 column gold_answers/);
});

test("labels without answers: document-only labels build rows with no gold answers (documented behaviour)", () => {
  // Haystack 1.26 raises ValueError (max() of an empty sequence) on answer rows whose labels carry no
  // answer; rerankit scores them 0.0 and keeps the documents' id matching.
  const label = { query: "q", document: { content: "the cat sat", id: "d1" }, is_correct_answer: true, is_correct_document: true, origin: "gold-label" };
  const r = EvaluationResult.build({
    queries: ["q"], labels: [[label]],
    nodes: {
      Retriever: { documents: [[{ content: "the cat sat", id: "d1" }, { content: "a dog", id: "d2" }]] },
      Reader: { answers: [[{ answer: "cat", context: "the cat sat", offsets_in_document: [{ start: 4, end: 7 }], document_ids: ["d1"], score: 0.9 }]] },
    },
  });
  try {
    const [answer] = r.nodeResults("Reader");
    assert.deepEqual(answer.gold_answers, []);
    assert.equal(answer.exact_match, 0);
    assert.equal(answer.f1, 0);
    const docs = r.nodeResults("Retriever");
    assert.deepEqual(docs.map((d) => d.gold_id_match), [1, 0]);
    const m = r.calculateMetrics({ documentScope: "document_id" });
    assert.equal(m.Retriever.recall_single_hit, 1);
    assert.equal(m.Reader.f1, 0);
  } finally {
    r.free();
  }
});

test("customDocumentIdField (Pipeline.eval's custom_document_id_field): farm-haystack's test_file_search_eval_document_scope", () => {
  // eval_tests.json: the predictions of the real TfidfRetriever run (make_haystack_eval_tests.py); eval_batch's
  // case builds the rows in one frame, as EvaluationResult.build does
  const c = json(hx("eval_tests.json")).cases.find((x) => x.test === "file_search_eval_batch");
  const r = EvaluationResult.build(c.input, { contextMatching: c.context_matching, customDocumentIdField: "name" });
  try {
    const rows = r.nodeResults("Retriever");
    same(rows, c.node_results.Retriever.map((row) => Object.fromEntries(Object.keys(rows[0]).map((k) => [k, row[k]]))), "rows");
    assert.deepEqual(rows[0].gold_custom_document_ids, ["filename1"]);
    // the values test_file_search_eval_document_scope asserts
    const m = r.calculateMetrics({ documentScope: "document_id" }).Retriever;
    assert.equal(m.mrr, 0.6);
    assert.equal(m.recall_single_hit, 1);
    assert.equal(m.precision, 0.2);
    assert.ok(Math.abs(m.ndcg - 0.6934) <= 0.6934e-4);
    for (const e of c.metrics) {
      const warnings = [];
      const options = { ...camel({ ...e, simulated_top_k_reader: -1, simulated_top_k_retriever: -1 }), onWarning: (m) => warnings.push(m) };
      same(r.calculateMetrics(options), e.metrics, JSON.stringify(e));
      assert.deepEqual(warnings, e.warnings, `${JSON.stringify(e)} warnings`);
    }
  } finally {
    r.free();
  }
  // without the field, documents match by id: no custom id columns
  const byId = EvaluationResult.build(c.input, { contextMatching: c.context_matching, customDocumentIdField: null });
  assert.ok(!("gold_custom_document_ids" in byId.nodeResults("Retriever")[0]));
  byId.free();
  const bad = (options, pattern) => assert.throws(() => EvaluationResult.build(c.input, options),
    (err) => err instanceof RerankitError && err.code === "INVALID_ARGUMENT" && pattern.test(err.message));
  bad({ customDocumentIdField: 3 }, /^customDocumentIdField:/);
  bad({ customDocumentIdField: "url" }, /^customDocumentIdField: "url" is not in the meta/);
  bad({ customDocumentIdFeild: "name" }, /^customDocumentIdFeild: unknown option/);
});

test("farm-haystack's test_extractive_qa_eval_answer_document_scope_combinations: the scope warning through onWarning", () => {
  // the pipeline's Retriever as farm-haystack ran it (its FARMReader and SAS model are model output and add a node
  // that logs the same warning); pytest's caplog.text accumulates over the test, so does `caplog` here
  // test_eval_batch.py's run: eval_batch builds one frame, as EvaluationResult.build does (eval's index restarts per query)
  const c = json(hx("eval_tests.json")).cases.find((x) => x.file === "test_eval_batch.py" && x.test === "test_extractive_qa_eval_answer_document_scope_combinations");
  const r = EvaluationResult.build(c.input, { contextMatching: c.context_matching });
  const warning = "You specified a non-answer document_scope together with a non-default answer_scope";
  let caplog = "";
  const onWarning = (m) => { caplog += `${m}\n`; };
  const expectCode = (fn, code, pattern) => {
    assert.throws(fn, (err) => err instanceof RerankitError && err.code === code && pattern.test(err.message), `expected ${code}`);
  };
  try {
    // valid values for non default answer_scopes
    r.calculateMetrics({ documentScope: "document_id_or_answer", answerScope: "context", onWarning });
    r.calculateMetrics({ documentScope: "answer", answerScope: "context", onWarning });
    assert.ok(!caplog.includes(warning));
    for (const documentScope of ["document_id", "context", "document_id_and_context", "document_id_or_context"]) {
      r.calculateMetrics({ documentScope, answerScope: "context", onWarning });
      assert.ok(caplog.includes(warning), documentScope);
    }
    // wrongExamples warns on a node with document rows, as Haystack's
    for (const e of c.extra.wrong_examples) {
      const warnings = [];
      const { node, ...args } = e.args;
      const options = Object.fromEntries(Object.entries(args).map(([k, v]) => [wrongNames[k], v]));
      same(r.wrongExamples(node, { ...options, onWarning: (m) => warnings.push(m) }), e.result, JSON.stringify(e.args));
      assert.deepEqual(warnings, e.warnings, JSON.stringify(e.args));
    }
    // by default a warning goes to console.warn
    const warned = [];
    const original = console.warn;
    console.warn = (...a) => warned.push(a.join(" "));
    try {
      r.calculateMetrics({ documentScope: "context", answerScope: "context" });
    } finally {
      console.warn = original;
    }
    assert.equal(warned.length, 1);
    assert.ok(warned[0].includes(warning), warned[0]);
    expectCode(() => r.calculateMetrics({ onWarning: "log" }), "INVALID_ARGUMENT", /^onWarning:/);
    expectCode(() => r.wrongExamples("Retriever", { onWarning: 1 }), "INVALID_ARGUMENT", /^onWarning:/);
  } finally {
    r.free();
  }
});
