// `CrossEncoder.fromPretrained` / `Embedder.fromPretrained` against a local server that serves tests/fixtures/hub
// as the Hugging Face Hub does (tests/node/hub_server.mjs: /{org}/{name}/resolve/{revision}/{path}, 302 to a CDN
// host for ONNX files, ETags, 404s with the Hub's error header, a slow revision).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CrossEncoder, Embedder } from "rerankit";
import { startHub } from "./hub_server.mjs";

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../fixtures/hub");
const reference = (name) => JSON.parse(readFileSync(path.join(fixtures, "references", `${name}.json`), "utf8"));
const maxDiff = (a, b) => a.reduce((m, x, i) => Math.max(m, Math.abs(x - b[i])), 0);
const ID = "rerankit-test/tiny-bert-reranker";

let hub;
before(async () => { hub = await startHub(); });
after(() => hub.close());

const remote = (extra = {}) => ({ remoteHost: hub.url, cache: false, ...extra });

test("fromPretrained by id: fp32 matches onnxruntime; files come from the Hub layout (ONNX via the CDN redirect)", async () => {
  const ref = reference("tiny-bert-reranker");
  hub.requests.length = 0;
  const files = [];
  const ce = await CrossEncoder.fromPretrained(ID, remote({ dtype: "fp32", onProgress: (p) => files.push(p.file) }));
  assert.equal(ce.numLabels, 1);
  assert.equal(ce.maxLength, 128);
  assert.ok(maxDiff(Array.from(await ce.score(ref.pairs)), ref.outputs.model.flat()) <= 1e-4);
  ce.free();
  assert.ok(files.includes("onnx/model.onnx") && files.includes("tokenizer.json") && files.includes("config.json"), files.join());
  assert.ok(hub.requests.some((r) => r.host === "cdn" && r.url.includes("onnx/model.onnx")), "the graph came through the CDN redirect");
});

test("default dtype on the CPU is q8 (model_quantized.onnx); a repo without it falls back to fp32 with a warning", async () => {
  const ref = reference("tiny-bert-reranker");
  const files = [];
  const ce = await CrossEncoder.fromPretrained(ID, remote({ onProgress: (p) => files.push(p.file) }));
  assert.ok(files.includes("onnx/model_quantized.onnx"), files.join());
  const q8 = Array.from(await ce.score(ref.pairs));
  assert.ok(maxDiff(q8, ref.outputs.model.flat()) <= 2 * maxDiff(ref.outputs.model_quantized.flat(), ref.outputs.model.flat()));
  ce.free();
  const warnings = [];
  const fallback = await CrossEncoder.fromPretrained(ID, remote({ revision: "no-quant", onWarning: (m) => warnings.push(m) }));
  assert.match(warnings.join("\n"), /model_quantized\.onnx.*fp32/);
  fallback.free();
});

test("every dtype resolves to its file; a missing dtype names the ones the repo has", async () => {
  const ref = reference("tiny-bert-reranker");
  for (const [dtype, form] of [["fp16", "model_fp16"], ["int8", "model_int8"], ["uint8", "model_uint8"], ["q4", "model_q4"]]) {
    const ce = await CrossEncoder.fromPretrained(ID, remote({ dtype }));
    const d = maxDiff(Array.from(await ce.score(ref.pairs)), ref.outputs.model.flat());
    assert.ok(d <= Math.max(2 * maxDiff(ref.outputs[form].flat(), ref.outputs.model.flat()), 1e-5), `${dtype}: ${d}`);
    ce.free();
  }
  await assert.rejects(CrossEncoder.fromPretrained("rerankit-test/tiny-bert-classifier", remote({ dtype: "q4" })),
    (e) => e.code === "MODEL_LOAD" && /model_q4\.onnx/.test(e.message) && /fp32 \(onnx\/model\.onnx\)/.test(e.message) && /q8 \(onnx\/model_quantized\.onnx\)/.test(e.message));
  await assert.rejects(CrossEncoder.fromPretrained(ID, remote({ dtype: "fp8" })), (e) => e.code === "INVALID_ARGUMENT" && /dtype/.test(e.message));
});

test("external data (dynamo export, weights in model_external.onnx.data) is fetched beside the graph", async () => {
  const ref = reference("tiny-bert-reranker");
  hub.requests.length = 0;
  const ce = await CrossEncoder.fromPretrained(ID, remote({ dtype: "fp32", modelFileName: "model_external" }));
  assert.ok(maxDiff(Array.from(await ce.score(ref.pairs)), ref.outputs.model.flat()) <= 1e-4);
  ce.free();
  assert.ok(hub.requests.some((r) => r.url.includes("model_external.onnx.data")));
});

test("Hub errors: unknown repo, unknown revision, bad id", async () => {
  await assert.rejects(CrossEncoder.fromPretrained("rerankit-test/nope", remote()), (e) => e.code === "MODEL_LOAD" && /RepoNotFound/.test(e.message));
  await assert.rejects(CrossEncoder.fromPretrained(ID, remote({ revision: "v9" })), (e) => e.code === "MODEL_LOAD" && /RevisionNotFound/.test(e.message));
  await assert.rejects(CrossEncoder.fromPretrained("../etc/passwd", remote()), (e) => e.code === "INVALID_ARGUMENT" && /modelId/.test(e.message));
});

test("a slow download is cancelled by the signal (ABORTED)", async () => {
  const controller = new AbortController();
  const loading = CrossEncoder.fromPretrained(ID, remote({ revision: "slow", dtype: "fp32",
    onProgress: (p) => { if (p.loaded > 0) controller.abort(new Error("user cancelled")); } , signal: controller.signal }));
  await assert.rejects(loading, (e) => e.code === "ABORTED");
});

test("offline: allowRemoteModels false reads localModelPath only, and says so when a file is not there", async () => {
  const ref = reference("tiny-distilbert-reranker");
  const ce = await CrossEncoder.fromPretrained("rerankit-test/tiny-distilbert-reranker", { localModelPath: fixtures, allowRemoteModels: false, dtype: "fp32" });
  assert.ok(maxDiff(Array.from(await ce.score(ref.pairs)), ref.outputs.model.flat()) <= 1e-4);
  ce.free();
  assert.ok(!hub.requests.some((r) => r.url.includes("tiny-distilbert-reranker")), "nothing was fetched");
  await assert.rejects(CrossEncoder.fromPretrained("rerankit-test/absent", { localModelPath: fixtures, allowRemoteModels: false }),
    (e) => e.code === "MODEL_LOAD" && /allowRemoteModels/.test(e.message));
});

test("a cache store serves the second load without the network (ETag kept with the Cache API)", async () => {
  const store = new Map();
  const cache = { get: async (u) => store.get(u), put: async (u, b) => { store.set(u, b); } };
  await (await CrossEncoder.fromPretrained(ID, { remoteHost: hub.url, cache, dtype: "fp32" })).free();
  hub.requests.length = 0;
  const events = [];
  const ce = await CrossEncoder.fromPretrained(ID, { remoteHost: hub.url, cache, dtype: "fp32", onProgress: (p) => events.push(p) });
  ce.free();
  assert.equal(hub.requests.length, 0, hub.requests.map((r) => r.url).join());
  assert.ok(events.length > 0 && events.every((e) => e.fromCache));
});

test("Embedder.fromPretrained reads sentence-transformers' pooling (modules.json, 1_Pooling) and matches onnxruntime", async () => {
  const ref = reference("tiny-bert-embedder");
  const e = await Embedder.fromPretrained("rerankit-test/tiny-bert-embedder", remote({ dtype: "fp32" }));
  assert.equal(e.normalize, false);
  const got = (await e.embed(ref.texts)).flatMap((v) => Array.from(v));
  assert.ok(maxDiff(got, ref.outputs.model.flat()) <= 1e-4);
  const cls = await Embedder.fromPretrained("rerankit-test/tiny-bert-embedder", remote({ dtype: "fp32", pooling: "cls", normalize: true }));
  const v = (await cls.embed(["a text"]))[0];
  assert.ok(Math.abs(Math.hypot(...v) - 1) < 1e-5);
  assert.notDeepEqual(Array.from(v), Array.from((await e.embed(["a text"], { normalize: true }))[0]));
  e.free();
  cls.free();
  await assert.rejects(Embedder.fromPretrained("rerankit-test/tiny-bert-embedder", remote({ pooling: "max" })), (err) => err.code === "INVALID_ARGUMENT" && /pooling/.test(err.message));
});
