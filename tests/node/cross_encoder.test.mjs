// CrossEncoder / Embedder through the built package (wasm, one thread), against onnxruntime's reference outputs
// (tests/fixtures/models/reference). Models come from $RERANKIT_MODELS (default ~/.cache/rerankit/models).
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CrossEncoder, Document, Embedder, RerankitError } from "rerankit";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const models = process.env.RERANKIT_MODELS || path.join(os.homedir(), ".cache/rerankit/models");

function modelFiles(name, file = "model.onnx") {
  const dir = path.join(models, name);
  if (!existsSync(path.join(dir, file))) {
    throw new Error(`test model ${dir}/${file} is missing: run \`npm run fixtures\` (builds the test models into $RERANKIT_MODELS)`);
  }
  return { model: path.join(dir, file), tokenizer: path.join(dir, "tokenizer.json"), config: path.join(dir, "config.json") };
}
const reference = (name) => JSON.parse(readFileSync(path.join(root, "tests/fixtures/models/reference", `${name}.json`), "utf8"));
const maxDiff = (a, b) => a.reduce((m, x, i) => Math.max(m, Math.abs(x - b[i])), 0);

for (const [name, variant, file, tol] of [
  ["ce-parity-1", "fp32", "model.onnx", 1e-4],
  ["ce-parity-2", "fp32", "model.onnx", 1e-4],
  ["ce-probe", "fp32", "model.onnx", 1e-4],
  // int8 models: tests/node/cross_encoder_int8.test.mjs (as accurate as onnxruntime int8; see tests/inference/int8.rs).
]) {
  test(`${name} ${variant}: token ids exact, logits within ${tol} of onnxruntime (single and padded batches)`, async () => {
    const ref = reference(name);
    const ce = await CrossEncoder.load({ ...modelFiles(name, file), device: "cpu" });
    assert.equal(ce.device, "cpu");
    assert.equal(ce.numLabels, ref.num_labels);
    const pairs = ref.pairs.map((p) => [p.query, p.passage]);
    for (const p of ref.pairs) {
      const enc = ce.encodePair(p.query, p.passage);
      assert.deepEqual(enc.inputIds, p.input_ids, `input_ids of pair ${p.id} (${p.source})`);
      assert.deepEqual(enc.tokenTypeIds, p.token_type_ids);
    }
    const expected = ref.pairs.flatMap((p) => p[`logits_${variant}`]);
    const single = [];
    for (const p of pairs) single.push(...(await ce.score([p], { batchSize: 1 })));
    assert.ok(maxDiff(single, expected) <= tol, `single: ${maxDiff(single, expected)}`);
    const batched = await ce.score(pairs, { batchSize: 8 });
    assert.ok(batched instanceof Float32Array);
    assert.ok(maxDiff(Array.from(batched), expected) <= tol, `batched: ${maxDiff(Array.from(batched), expected)}`);
    ce.free();
  });
}

test("rerank: sigmoid scores, topK, documents, meta fields, predict_batch shapes", async () => {
  const ce = await CrossEncoder.load(modelFiles("ce-parity-1"));
  const ref = reference("ce-parity-1");
  const q = ref.pairs[0].query;
  // The API's semantics, not the model's numbers (the parity tests above score every reference pair): the 12
  // shortest reference passages, which cost a tenth of all 30 in wasm.
  const docs = ref.pairs.map((p) => p.passage).sort((a, b) => a.length - b.length).slice(0, 12);
  const ranked = await ce.rerank(q, docs);
  assert.equal(ranked.length, 10);
  assert.ok(ranked.every((r, i) => r.score > 0 && r.score < 1 && (i === 0 || ranked[i - 1].score >= r.score)));
  const raw = await ce.rerank(q, docs, { topK: null, scaleScore: false });
  assert.equal(raw.length, docs.length);
  const logits = await ce.score(docs.map((d) => [q, d]));
  for (const r of raw) assert.ok(Math.abs(r.score - logits[r.index]) < 1e-5);
  const withDocs = await ce.rerank(q, docs.map((d) => new Document({ content: d })), { returnDocuments: true, topK: 3 });
  assert.equal(withDocs.length, 3);
  assert.ok(withDocs[0].document instanceof Document);
  const meta = await ce.rerank(q, [{ content: "body", meta: { title: "T" } }], { embedMetaFields: ["title"], scaleScore: false });
  const direct = await ce.score([[q, "T\nbody"]]);
  assert.ok(Math.abs(meta[0].score - direct[0]) < 1e-5);
  const thr = await ce.rerank(q, docs, { topK: null, scoreThreshold: ranked[2].score });
  assert.equal(thr.length, 3);
  const nested = await ce.rerankBatch(["q1", "q2"], [["a", "b"], ["c"]], { topK: null });
  assert.equal(nested.length, 2);
  assert.equal(nested[1].length, 1);
  const one = await ce.rerankBatch("q", [["a", "b"], ["c"]]);
  assert.equal(one.length, 2);
  await assert.rejects(ce.rerankBatch(["a", "b", "c"], [["a"], ["b"]]), (e) => e instanceof RerankitError && e.code === "INVALID_ARGUMENT");
});

test("errors arrive as RerankitError with codes", async () => {
  const files = modelFiles("ce-parity-1");
  await assert.rejects(CrossEncoder.load({ ...files, model: new Uint8Array([1, 2, 3, 4]) }), (e) => e instanceof RerankitError && e.code === "MODEL_LOAD");
  const enc = modelFiles("all-MiniLM-L6-v2");
  await assert.rejects(CrossEncoder.load(enc), (e) => e.code === "MODEL_LOAD" && /logits/.test(e.message));
  await assert.rejects(CrossEncoder.load({ ...files, tokenizer: new TextEncoder().encode("{}") }), (e) => e.code === "TOKENIZER");
  await assert.rejects(CrossEncoder.load({ ...files, model: path.join(models, "does-not-exist.onnx") }), (e) => e.code === "MODEL_LOAD");
  // Node has no WebGPU: "webgpu" warns once and runs on the CPU, "auto" picks the CPU silently; a bad name is refused.
  const warnings = [];
  const onGpu = await CrossEncoder.load({ ...files, device: "webgpu", onWarning: (m) => warnings.push(m) });
  assert.equal(onGpu.device, "cpu");
  assert.equal(warnings.length, 1);
  onGpu.free();
  const auto = await CrossEncoder.load({ ...files, device: "auto", onWarning: (m) => warnings.push(m) });
  assert.equal(auto.device, "cpu");
  assert.equal(warnings.length, 1);
  auto.free();
  await assert.rejects(CrossEncoder.load({ ...files, device: "gpu" }), (e) => e.code === "INVALID_ARGUMENT" && /^device/.test(e.message));
  // the Embedder follows the same device rules, and scores SAS pairs whatever its device
  const embWarnings = [];
  const embGpu = await Embedder.load({ ...enc, device: "webgpu", onWarning: (m) => embWarnings.push(m) });
  assert.equal(embGpu.device, "cpu");
  assert.equal(embGpu.webgpu, undefined);
  assert.equal(embWarnings.length, 1);
  assert.match(embWarnings[0], /WebGPU unavailable, using the CPU/);
  assert.equal((await embGpu.embed(["a text"]))[0].length, 384);
  const [same, other] = await embGpu.sasScores([["a text", "a text"], ["a text", "bananas are yellow"]]);
  assert.ok(Math.abs(same - 1) < 1e-6 && other < same, `SAS cosines ${same}, ${other}`);
  embGpu.free();
  await assert.rejects(Embedder.load({ ...enc, device: "gpu" }), (e) => e.code === "INVALID_ARGUMENT" && /^device/.test(e.message));
  const ce = await CrossEncoder.load(files);
  await assert.rejects(ce.rerank("", ["x"]), (e) => e.code === "INVALID_ARGUMENT");
  await assert.rejects(ce.rerank("q", [42]), (e) => e.code === "INVALID_ARGUMENT");
  await assert.rejects(ce.rerank("q", [{ content: [["a"]] }]), (e) => e.code === "INVALID_ARGUMENT");
  await assert.rejects(ce.rerank("q", ["x"], { calibrationFactor: NaN }), (e) => e.code === "INVALID_ARGUMENT");
  await assert.rejects(ce.rerank("q", ["x"], { topK: 0 }), (e) => e.code === "INVALID_ARGUMENT");
});

test("NaN logits: score returns them raw, rerank refuses them (MODEL_LOAD naming the document)", async () => {
  const files = modelFiles("ce-parity-1");
  const model = new Uint8Array(readFileSync(files.model));
  // The TensorProto `name: "classifier.bias"` (field 8) is followed by its 4 `raw_data` bytes (field 9, tag 0x4a).
  const needle = new Uint8Array([0x42, 0x0f, ...new TextEncoder().encode("classifier.bias"), 0x4a, 0x04]);
  const at = Buffer.from(model).indexOf(Buffer.from(needle));
  assert.ok(at > 0, "classifier.bias stored as 4 raw bytes");
  new DataView(model.buffer, model.byteOffset).setFloat32(at + needle.length, NaN, true);
  const ce = await CrossEncoder.load({ ...files, model });
  const [logit] = await ce.score([["q", "a document"]]);
  assert.ok(Number.isNaN(logit));
  await assert.rejects(ce.rerank("q", ["a document", "another"]), (e) => e instanceof RerankitError && e.code === "MODEL_LOAD" && /NaN logits for documents\[0\]/.test(e.message));
  ce.free();
});

test("a long document: chunked by default, plain truncation with maxChunksPerDoc 1", async () => {
  const ce = await CrossEncoder.load(modelFiles("ce-parity-1"));
  const long = "lorem ipsum dolor sit amet ".repeat(400_000); // ~10.8 MB
  const [r] = await ce.rerank("lorem", [long], { scaleScore: false });
  const [t] = await ce.rerank("lorem", [long], { scaleScore: false, maxChunksPerDoc: 1 });
  assert.ok(r.score >= t.score);
});

test("load from URL with progress and AbortSignal; from bytes", async () => {
  const files = modelFiles("ce-parity-1");
  const server = createServer((req, res) => {
    const f = req.url === "/model.onnx" ? files.model : files.tokenizer;
    const body = readFileSync(f);
    res.writeHead(200, { "content-length": body.length });
    res.end(body);
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const base = `http://127.0.0.1:${server.address().port}`;
  try {
    const events = [];
    const ce = await CrossEncoder.load({ model: `${base}/model.onnx`, tokenizer: new URL(`${base}/tokenizer.json`), onProgress: (p) => events.push(p) });
    const last = events.filter((e) => e.file === "model").pop();
    assert.equal(last.loaded, last.total);
    assert.ok(last.total > 1_000_000);
    assert.equal(ce.numLabels, 1);
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(CrossEncoder.load({ model: `${base}/model.onnx`, tokenizer: `${base}/tokenizer.json`, signal: controller.signal }), (e) => e instanceof RerankitError && e.code === "ABORTED");
    const bytes = await CrossEncoder.load({ model: readFileSync(files.model), tokenizer: new Uint8Array(readFileSync(files.tokenizer)).buffer });
    assert.equal(bytes.numLabels, 1);
  } finally {
    server.close();
  }
});

test("Embedder: mean pooling (and L2) within 1e-4 of onnxruntime", async () => {
  const ref = reference("all-MiniLM-L6-v2");
  const emb = await Embedder.load({ ...modelFiles("all-MiniLM-L6-v2"), maxLength: ref.tokenization.max_length });
  const texts = ref.texts.map((t) => t.text);
  const mean = await emb.embed(texts);
  const norm = await emb.embed(texts, { normalize: true });
  assert.equal(mean.length, texts.length);
  assert.ok(mean[0] instanceof Float32Array && mean[0].length === 384);
  for (let i = 0; i < texts.length; i++) {
    assert.ok(maxDiff(Array.from(mean[i]), ref.texts[i].mean_fp32) <= 1e-4, `mean ${i}`);
    assert.ok(maxDiff(Array.from(norm[i]), ref.texts[i].normalized_fp32) <= 1e-4, `normalized ${i}`);
  }
});
