// The wasm GEMM kernels' edges (src/inference/wasm_gemm): a 2-layer BERT cross-encoder with odd sizes (hidden 30,
// two heads of 15, FFN 62), so that every product has a partial tile in N and a k that is not a multiple of 4,
// which the real test models (multiples of 8) never give. tests/fixtures/gen/make_odd_shape_model.py builds it
// with seeded random weights, quantises it as the fixtures do and scores ce-parity-1's 30 reference pairs: fp32
// with onnxruntime, int8 with onnx's NumPy reference evaluator (exact integer arithmetic on every CPU; onnxruntime's
// AVX2 int8 kernel saturates 16-bit sums, so its int8 logits depend on the machine) on the file rewritten in
// standard ONNX ops to quantise activations per row, as rerankit does (src/inference/row_quantization). Then the
// package must agree: fp32 within 1e-4, int8 within 1e-3 of that exact int8 reference, batches = single pairs.
// Two layers leave little room for the rounding-flip cascade that keeps the 6-layer models' int8 apart
// (tests/inference/int8.rs), so here the package's int8 is expected to equal the exact arithmetic up to float
// rounding (int8 itself is 4.4e-3 from fp32); a kernel that mishandled a ragged tile or a k tail would be off by
// far more. The file's own per-tensor int8 is printed beside it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CrossEncoder } from "rerankit";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const models = process.env.RERANKIT_MODELS || path.join(os.homedir(), ".cache/rerankit/models");
const python = path.join(path.dirname(models), "venv", "bin", "python");
const tokenizer = path.join(models, "ce-parity-1", "tokenizer.json");

/** max and RMS of |a − b|. */
function distance(a, b) {
  const d = a.map((x, i) => Math.abs(x - b[i]));
  return { max: Math.max(...d), rms: Math.sqrt(d.reduce((s, x) => s + x * x, 0) / d.length) };
}

const dir = mkdtempSync(path.join(os.tmpdir(), "rerankit-odd-shape-"));
test.after(() => rmSync(dir, { recursive: true, force: true }));

test("odd-shape model: built and scored by the reference tools (fixtures venv)", () => {
  for (const f of [python, tokenizer]) if (!existsSync(f)) throw new Error(`${f} missing: run \`npm run fixtures\``);
  execFileSync(python, [path.join(root, "tests/fixtures/gen/make_odd_shape_model.py"), dir,
    path.join(root, "tests/fixtures/models/reference/ce-parity-1.json")], { stdio: "inherit" });
});

async function scores(file, pairs) {
  const ce = await CrossEncoder.load({ model: path.join(dir, file), tokenizer, config: path.join(dir, "config.json") });
  try {
    const single = [];
    for (const p of pairs) single.push(...(await ce.score([p], { batchSize: 1 })));
    return { single, batched: Array.from(await ce.score(pairs, { batchSize: 8 })) };
  } finally {
    ce.free();
  }
}

test("odd-shape model fp32: logits within 1e-4 of onnxruntime, single and padded batches", async () => {
  const ref = JSON.parse(readFileSync(path.join(dir, "reference.json"), "utf8"));
  const pairs = ref.pairs.map((p) => [p.query, p.passage]);
  const expected = ref.pairs.flatMap((p) => p.logits_fp32);
  const { single, batched } = await scores("model.onnx", pairs);
  assert.ok(distance(single, expected).max <= 1e-4, `single: ${distance(single, expected).max}`);
  assert.ok(distance(batched, expected).max <= 1e-4, `batched: ${distance(batched, expected).max}`);
});

test("odd-shape model int8: logits within 1e-3 of the exact per-row int8 reference, batches = single pairs", async (t) => {
  const ref = JSON.parse(readFileSync(path.join(dir, "reference.json"), "utf8"));
  const pairs = ref.pairs.map((p) => [p.query, p.passage]);
  const ortFp32 = ref.pairs.flatMap((p) => p.logits_fp32);
  const exactInt8 = ref.pairs.flatMap((p) => p.logits_int8_rows);
  const perTensor = ref.pairs.flatMap((p) => p.logits_int8);
  const { single, batched } = await scores("model_int8.onnx", pairs);
  const vsInt8 = distance(single, exactInt8).max;
  t.diagnostic(`max |Δlogit| vs the exact per-row int8 reference ${vsInt8.toExponential(2)}; vs onnxruntime fp32: ` +
    `per-row int8 ${distance(exactInt8, ortFp32).max.toExponential(2)}, the file's per-tensor int8 ${distance(perTensor, ortFp32).max.toExponential(2)}, the package ${distance(single, ortFp32).max.toExponential(2)}`);
  assert.deepEqual(batched, single, "padded batches of 8 differ from single pairs");
  assert.ok(vsInt8 <= 1e-3, `int8 logits differ from the exact int8 reference by ${vsInt8}`);
});
