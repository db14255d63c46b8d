// `rerankit/eval`: the evaluation API over its own wasm module, built from the crate without its `cpu` and
// `webgpu` features. It must give the same answers as `rerankit`, hold no model code (no tract, tokenizers or
// wgpu in its wasm, no model wrapper in its JavaScript), and never read the model module.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import * as evalApi from "rerankit/eval";
import * as full from "rerankit";

const require = createRequire(import.meta.url);
// the entry is pkg/dist/eval/runtimes/eval_node.js; the module's own folder is pkg/dist/eval
const evalDir = path.resolve(path.dirname(require.resolve("rerankit/eval")), "..");

const QRELS = "q1 0 d1 1\nq1 0 d2 0\nq1 0 d3 2\nq2 0 d1 1\n";
const RUN = "q1 Q0 d3 1 0.9 r\nq1 Q0 d1 2 0.8 r\nq1 Q0 d2 3 0.1 r\nq2 Q0 d2 1 0.5 r\nq2 Q0 d1 2 0.4 r\n";

test("the evaluation API answers as rerankit does", () => {
  const measures = ["map", "ndcg@10", "P_1", "recip_rank"];
  assert.deepEqual(evalApi.evaluate(QRELS, RUN, measures), full.evaluate(QRELS, RUN, measures));
  const docs = [{ content: "a", meta: { date: "2021-01-01" }, score: 0.9 }, { content: "b", meta: { date: "2023-01-01" }, score: 0.5 }];
  const ranker = (api) => new api.RecentnessRanker({ dateMetaField: "date" }).run(docs).map((d) => [d.id, d.score]);
  assert.deepEqual(ranker(evalApi), ranker(full));
  assert.equal(new evalApi.Document({ content: "hello world" }).id, "ab97467d60eb63b1533f6046eb7f610e");
  assert.deepEqual(evalApi.fuse([{ q: { a: 1, b: 2 } }, { q: { b: 1 } }]), full.fuse([{ q: { a: 1, b: 2 } }, { q: { b: 1 } }]));
  assert.equal(evalApi.version(), full.version());
  // its errors are the same RerankitError class users import from it
  assert.throws(() => evalApi.evaluate(QRELS, RUN, "map", { relevanceLevl: 1 }), (e) => e instanceof evalApi.RerankitError && e.code === "INVALID_ARGUMENT");
});

test("no model code: no model export, no model JavaScript, no model functions in its wasm", async () => {
  for (const name of ["CrossEncoder", "Embedder"]) assert.equal(name in evalApi, false, name);
  const js = readdirSync(evalDir, { recursive: true }).filter((f) => f.endsWith(".js"));
  assert.ok(js.includes(path.join("metrics", "evaluate.js")), "the evaluation API is there");
  assert.deepEqual(js.filter((f) => f.startsWith(`models${path.sep}`)), [], "nothing of pkg/models/");
  const exports = WebAssembly.Module.exports(await WebAssembly.compile(readFileSync(path.join(evalDir, "wasm/rerankit_bg.wasm")))).map((e) => e.name);
  assert.ok(exports.some((e) => e.startsWith("metricsevaluate") || e === "metricsEvaluate"), "the metrics are in it");
  const models = exports.filter((e) => /crossencoderengine|embedderengine|modelwork|webgpu|placedevice|externaldatalocations/i.test(e));
  assert.deepEqual(models, []);
});

test("importing rerankit/eval reads only its own wasm", () => {
  // a fresh process that records every file the package reads
  const script = `
    import fs from "node:fs";
    import { syncBuiltinESMExports } from "node:module";
    const read = fs.readFileSync;
    const seen = [];
    fs.readFileSync = (p, ...rest) => { seen.push(String(p)); return read(p, ...rest); };
    syncBuiltinESMExports();
    const { evaluate } = await import("rerankit/eval");
    evaluate("q 0 d 1\\n", "q Q0 d 1 1 r\\n", "map");
    console.log(JSON.stringify(seen.filter((p) => p.endsWith(".wasm"))));`;
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: path.resolve(evalDir, "../../.."), encoding: "utf8" });
  const wasm = JSON.parse(out.trim().split("\n").pop());
  assert.equal(wasm.length, 1, out);
  assert.match(wasm[0], /pkg\/dist\/eval\/wasm\/rerankit_bg\.wasm$/);
});
