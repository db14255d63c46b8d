// The two evaluation entries, each over its own wasm module built from the crate without the models
// (bindings/wasm/Cargo.toml): `rerankit/eval` (metrics, fusion, comparison, model-free rankers) and
// `rerankit/pipeline-eval` (Haystack's EvaluationResult and SQuAD, graphrag-eval's agent evaluation). Each must give
// the same answers as `rerankit`, hold no model code (no tract, tokenizers or wgpu in its wasm, no model wrapper in
// its JavaScript), and never read another module; together with the models they are all of `rerankit`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import path from "node:path";
import * as evalApi from "rerankit/eval";
import * as pipelineApi from "rerankit/pipeline-eval";
import * as full from "rerankit";

const require = createRequire(import.meta.url);
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
// an entry is pkg/dist/<tree>/runtimes/<name>_node.js; the module's own folder is pkg/dist/<tree>
const entries = [
  { name: "rerankit/eval", api: evalApi, wasmFile: /pkg\/dist\/eval\/wasm\/rerankit_bg\.wasm$/ },
  { name: "rerankit/pipeline-eval", api: pipelineApi, wasmFile: /pkg\/dist\/pipeline_eval\/wasm\/rerankit_bg\.wasm$/ },
].map((e) => ({ ...e, dir: path.resolve(path.dirname(require.resolve(e.name)), "..") }));

const QRELS = "q1 0 d1 1\nq1 0 d2 0\nq1 0 d3 2\nq2 0 d1 1\n";
const RUN = "q1 Q0 d3 1 0.9 r\nq1 Q0 d1 2 0.8 r\nq1 Q0 d2 3 0.1 r\nq2 Q0 d2 1 0.5 r\nq2 Q0 d1 2 0.4 r\n";

test("rerankit/eval answers as rerankit does", () => {
  const measures = ["map", "ndcg@10", "P_1", "recip_rank"];
  assert.deepEqual(evalApi.evaluate(QRELS, RUN, measures), full.evaluate(QRELS, RUN, measures));
  const docs = [{ content: "a", meta: { date: "2021-01-01" }, score: 0.9 }, { content: "b", meta: { date: "2023-01-01" }, score: 0.5 }];
  const ranker = (api) => new api.RecentnessRanker({ dateMetaField: "date" }).run(docs).map((d) => [d.id, d.score]);
  assert.deepEqual(ranker(evalApi), ranker(full));
  assert.deepEqual(evalApi.fuse([{ q: { a: 1, b: 2 } }, { q: { b: 1 } }]), full.fuse([{ q: { a: 1, b: 2 } }, { q: { b: 1 } }]));
  // its errors are the same RerankitError class users import from it
  assert.throws(() => evalApi.evaluate(QRELS, RUN, "map", { relevanceLevl: 1 }), (e) => e instanceof evalApi.RerankitError && e.code === "INVALID_ARGUMENT");
});

test("rerankit/pipeline-eval answers as rerankit does", () => {
  const rows = gunzipSync(readFileSync(path.join(repo, "tests/fixtures/haystack/node_results.json.gz"))).toString("utf8");
  const metrics = (api) => api.EvaluationResult.fromJSON(rows).calculateMetrics({ documentScope: "document_id_or_answer" });
  assert.deepEqual(metrics(pipelineApi), metrics(full));
  const cases = JSON.parse(readFileSync(path.join(repo, "tests/fixtures/graphrag_eval/cases.json"), "utf8"));
  const c = cases.evaluation.find((e) => e.config === null);
  const text = (rel) => readFileSync(path.join(repo, "tests/fixtures/graphrag_eval", rel), "utf8");
  const agent = (api) => api.aggregateAgent(api.evaluateAgent(text(c.reference), text(c.responses)));
  assert.deepEqual(agent(pipelineApi), agent(full));
  assert.deepEqual(pipelineApi.squadScores("The Eiffel tower", "eiffel Tower!"), full.squadScores("The Eiffel tower", "eiffel Tower!"));
  assert.throws(() => pipelineApi.evaluateAgent("not: [a, reference", "{}"), (e) => e instanceof pipelineApi.RerankitError && e.code === "PARSE" && /^reference/.test(e.message));
});

test("both entries: documents and the instance's facts, the same as rerankit's", () => {
  for (const { name, api } of entries) {
    assert.equal(new api.Document({ content: "hello world" }).id, "ab97467d60eb63b1533f6046eb7f610e", name);
    assert.equal(api.version(), full.version(), name);
    assert.equal(api.wasmSimd(), "simd128", name);
  }
});

test("the entries split rerankit: each export of it is in one of them (the shared document API in both) or is a model's", () => {
  const evalNames = new Set(Object.keys(evalApi));
  const pipelineNames = new Set(Object.keys(pipelineApi));
  const shared = ["Document", "Label", "MultiLabel", "RerankitError", "version", "wasmMemoryBytes", "wasmRestarts", "wasmSimd"];
  assert.deepEqual([...evalNames].filter((n) => pipelineNames.has(n)).sort(), shared.sort());
  const models = ["CrossEncoder", "DEFAULT_CACHE_NAME", "Embedder", "int8Kernel"];
  assert.deepEqual(Object.keys(full).filter((n) => !evalNames.has(n) && !pipelineNames.has(n)).sort(), models.sort());
  for (const n of [...evalNames, ...pipelineNames]) assert.ok(n in full, `rerankit exports ${n} too`);
  for (const n of ["EvaluationResult", "evaluateAgent", "squadEvaluate"]) assert.equal(n in evalApi, false, n);
  for (const n of ["evaluate", "fuse", "compareRuns", "RecentnessRanker"]) assert.equal(n in pipelineApi, false, n);
});

test("no model code: no model export, no model JavaScript, no model functions in either wasm", async () => {
  for (const { name, api, dir } of entries) {
    for (const model of ["CrossEncoder", "Embedder"]) assert.equal(model in api, false, `${name}: ${model}`);
    const js = readdirSync(dir, { recursive: true }).filter((f) => f.endsWith(".js"));
    assert.deepEqual(js.filter((f) => f.startsWith(`models${path.sep}`)), [], `${name}: nothing of pkg/models/`);
    const exports = WebAssembly.Module.exports(await WebAssembly.compile(readFileSync(path.join(dir, "wasm/rerankit_bg.wasm")))).map((e) => e.name);
    const models = exports.filter((e) => /crossencoderengine|embedderengine|modelwork|webgpu|placedevice|externaldatalocations/i.test(e));
    assert.deepEqual(models, [], name);
    // each half holds its own bindings and not the other's
    const metrics = exports.some((e) => /^metricsevaluate/i.test(e));
    const agent = exports.some((e) => /^agentevaluate/i.test(e));
    assert.deepEqual([metrics, agent], name === "rerankit/eval" ? [true, false] : [false, true], `${name}: metrics, agent evaluation`);
  }
});

test("importing an evaluation entry reads only its own wasm", () => {
  for (const { name, wasmFile } of entries) {
    // a fresh process that records every file the package reads
    const script = `
      import fs from "node:fs";
      import { syncBuiltinESMExports } from "node:module";
      const read = fs.readFileSync;
      const seen = [];
      fs.readFileSync = (p, ...rest) => { seen.push(String(p)); return read(p, ...rest); };
      syncBuiltinESMExports();
      const api = await import(${JSON.stringify(name)});
      new api.Document({ content: "x" });
      console.log(JSON.stringify(seen.filter((p) => p.endsWith(".wasm"))));`;
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: repo, encoding: "utf8" });
    const wasm = JSON.parse(out.trim().split("\n").pop());
    assert.equal(wasm.length, 1, out);
    assert.match(wasm[0], wasmFile, name);
  }
});
