// Semantic answer similarity through the package: `EvaluationResult.addSas` with the fixtures' bi-encoder
// (all-MiniLM-L6-v2) and cross-encoder (ce-parity-1) against Haystack 1.26's own SAS code
// (scripts/fixtures/haystack/make_haystack_sas.py; onnxruntime runs the same ONNX files there, see
// tests/fixtures/haystack/README.md). SAS values within 1e-4 (float32 kernels), everything else exact.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import os from "node:os";
import path from "node:path";
import { CrossEncoder, Embedder, EvaluationResult, RerankitError } from "rerankit";
import * as pipelineEval from "rerankit/pipeline-eval";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const hx = (rel) => path.join(repo, "tests/fixtures/haystack", rel);
const models = process.env.RERANKIT_MODELS || path.join(os.homedir(), ".cache/rerankit/models");
const files = (name) => {
  const dir = path.join(models, name);
  if (!existsSync(path.join(dir, "model.onnx"))) throw new Error(`${dir}/model.onnx is missing: run \`npm run fixtures\``);
  return { model: path.join(dir, "model.onnx"), tokenizer: path.join(dir, "tokenizer.json"), device: "cpu" };
};
const haystackRows = (api = { EvaluationResult }) => api.EvaluationResult.fromJSON(gunzipSync(readFileSync(hx("node_results.json.gz"))).toString("utf8"));
const TOL = 1e-4;

function same(actual, expected, where) {
  if (typeof expected === "number" || typeof expected === "boolean") {
    const a = typeof actual === "boolean" ? Number(actual) : actual;
    const e = typeof expected === "boolean" ? Number(expected) : expected;
    assert.ok(typeof a === "number" && Math.abs(a - e) <= TOL, `${where}: ${actual} != ${expected}`);
  } else if (Array.isArray(expected)) {
    assert.ok(Array.isArray(actual) && actual.length === expected.length, `${where}: length`);
    expected.forEach((v, i) => same(actual[i], v, `${where}[${i}]`));
  } else if (expected !== null && typeof expected === "object") {
    for (const [k, v] of Object.entries(expected)) same(actual[k], v, `${where}.${k}`);
  } else {
    assert.equal(actual ?? "", expected ?? "", where); // a CSV writes None and "" alike
  }
}

async function check(modelName, result) {
  // rows: compare through CSV, as Haystack's side went
  const ours = EvaluationResult.fromCsv({ "Reader.csv": result.toCsv("Reader") }).nodeResults("Reader");
  const theirs = EvaluationResult.fromCsv({ "Reader.csv": readFileSync(hx(`sas/${modelName}/Reader.csv`), "utf8") }).nodeResults("Reader");
  assert.deepEqual(Object.keys(ours[0]), Object.keys(theirs[0]), "columns");
  assert.equal(ours.length, theirs.length);
  const sasCols = ["sas", "gold_answers_sas", "sas_context_scope", "sas_document_id_scope", "sas_document_id_and_context_scope"];
  ours.forEach((row, i) => sasCols.forEach((c) => same(row[c], theirs[i][c], `${modelName} row ${i}.${c}`)));
  for (const c of JSON.parse(readFileSync(hx(`sas/${modelName}/metrics.json`), "utf8"))) {
    const got = result.calculateMetrics({ simulatedTopKReader: c.simulated_top_k_reader, answerScope: c.answer_scope, evalMode: c.eval_mode });
    same(got.Reader, c.metrics.Reader, `${modelName} metrics ${c.answer_scope}/${c.eval_mode}/${c.simulated_top_k_reader}`);
  }
  for (const c of JSON.parse(readFileSync(hx(`sas/${modelName}/wrong_examples.json`), "utf8"))) {
    const a = c.args;
    const got = result.wrongExamples("Reader", {
      answerMetric: "sas", n: a.n ?? 3, answerMetricThreshold: a.answer_metric_threshold ?? 0.5,
      simulatedTopKReader: a.simulated_top_k_reader ?? -1, answerScope: a.answer_scope ?? "any", evalMode: a.eval_mode ?? "integrated",
    });
    assert.deepEqual(got.map((e) => e.multilabel_id), c.result.map((e) => e.multilabel_id), `${modelName} wrong_examples ${JSON.stringify(a)}`);
    same(got.map((e) => e.metrics), c.result.map((e) => e.metrics), `${modelName} wrong_examples metrics`);
  }
}

test("addSas with a bi-encoder (cosine) equals Haystack's SAS", async () => {
  // sentence-transformers' max_seq_length for all-MiniLM-L6-v2 (sentence_bert_config.json)
  const emb = await Embedder.load({ ...files("all-MiniLM-L6-v2"), maxLength: 256 });
  const r = await haystackRows().addSas(emb);
  await check("all-MiniLM-L6-v2", r);
});

test("addSas with a one-logit cross-encoder (sigmoid) equals Haystack's SAS", async () => {
  const ce = await CrossEncoder.load(files("ce-parity-1"));
  const r = await haystackRows().addSas(ce, { batchSize: 16 });
  await check("ce-parity-1", r);
  // rerankit/pipeline-eval has no models: its EvaluationResult takes the model of rerankit (another wasm module)
  const apart = await haystackRows(pipelineEval).addSas(ce, { batchSize: 16 });
  assert.deepEqual(apart.nodeResults("Reader"), r.nodeResults("Reader"));
});

test("addSas with a function of the pairs; bad scorers are errors naming the field", async () => {
  let seen = 0;
  const r = await haystackRows().addSas(async (pairs) => {
    seen += pairs.length;
    for (const p of pairs) assert.ok(Array.isArray(p) && p.length === 2 && typeof p[0] === "string" && typeof p[1] === "string");
    return pairs.map(([a, g]) => (a === g ? 1 : 0.25));
  });
  assert.ok(seen > 0);
  const rows = r.nodeResults("Reader").filter((row) => row.type === "answer");
  for (const row of rows) {
    assert.equal(row.sas, row.gold_answers.some((g) => g === row.answer) ? 1 : 0.25);
    assert.equal(row.gold_answers_sas.length, row.gold_answers.length);
  }
  const code = (c, field) => (e) => e instanceof RerankitError && e.code === c && e.message.startsWith(field);
  await assert.rejects(haystackRows().addSas((pairs) => pairs.slice(1).map(() => 0.5)), code("INVALID_ARGUMENT", "model"));
  await assert.rejects(haystackRows().addSas((pairs) => pairs.map(() => NaN)), code("INVALID_ARGUMENT", "scores[0]"));
  await assert.rejects(haystackRows().addSas("all-MiniLM-L6-v2"), code("INVALID_ARGUMENT", "model"));
  await assert.rejects(haystackRows().addSas(() => [], { batchSize: 0 }), code("INVALID_ARGUMENT", "batchSize"));
  const ce2 = await CrossEncoder.load(files("ce-parity-2"));
  await assert.rejects(haystackRows().addSas(ce2), (e) => e instanceof RerankitError && e.code === "UNSUPPORTED");
});
