// The package's two model modules (scripts/build.mjs, pkg/runtimes/wasm_simd.ts): SIMD128 and relaxed SIMD (the f32 kernel's
// fused multiply-add). Node 20 has relaxed SIMD only behind --experimental-wasm-relaxed-simd, so one Node runs both:
// a child process without the flag must load the SIMD128 module, one with it the relaxed module, and each must
// score the fp32 reference pairs within 1e-4 of onnxruntime — in one thread and in a pool of 2 workers (whose
// workers choose their module themselves). Chromium and Deno load the relaxed module (tests/runtimes).
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const models = process.env.RERANKIT_MODELS || path.join(os.homedir(), ".cache/rerankit/models");
const wasmDir = path.join(root, "pkg/dist/wasm");

// child: load the package, report the module it chose and the logits of each fp32 reference model's pairs
if (process.argv[2] === "--child") {
  const { CrossEncoder, wasmSimd } = await import("rerankit");
  const out = { simd: wasmSimd(), logits: {} };
  for (const name of ["ce-parity-1"]) {
    const dir = path.join(models, name);
    const ref = JSON.parse(readFileSync(path.join(root, "tests/fixtures/models/reference", `${name}.json`), "utf8"));
    // 10 of the 30 reference pairs: every product of the model runs through the f32 kernel on each of them
    const pairs = ref.pairs.slice(0, 10).map((p) => [p.query, p.passage]);
    const files = { model: path.join(dir, "model.onnx"), tokenizer: path.join(dir, "tokenizer.json"), config: path.join(dir, "config.json") };
    for (const workers of [0, 2]) {
      const ce = await CrossEncoder.load({ ...files, device: "cpu", workers });
      out.logits[`${name}/${workers}`] = Array.from(await ce.score(pairs, { batchSize: 8 }));
      await ce.free();
    }
  }
  console.log(JSON.stringify(out));
  process.exit(0);
}

const run = (flags) => JSON.parse(execFileSync(process.execPath, [...flags, fileURLToPath(import.meta.url), "--child"], { cwd: root, encoding: "utf8" }));
const maxDiff = (a, b) => a.reduce((m, x, i) => Math.max(m, Math.abs(x - b[i])), 0);

test("the relaxed-SIMD module uses relaxed SIMD and the SIMD128 module does not", () => {
  const relaxedHere = WebAssembly.validate(readFileSync(path.join(wasmDir, "rerankit_relaxed_bg.wasm")));
  assert.equal(WebAssembly.validate(readFileSync(path.join(wasmDir, "rerankit_bg.wasm"))), true);
  // this test process runs without the flag: on Node 20 the relaxed module must not even validate here
  if (Number(process.versions.node.split(".")[0]) < 22) assert.equal(relaxedHere, false, "rerankit_relaxed_bg.wasm validates without relaxed SIMD");
});

test("each runtime loads the module it can run, and both score within 1e-4 of onnxruntime (inline and pooled)", () => {
  const plain = run([]);
  const relaxed = run(["--experimental-wasm-relaxed-simd"]);
  if (Number(process.versions.node.split(".")[0]) < 22) assert.equal(plain.simd, "simd128");
  assert.equal(relaxed.simd, "relaxed-simd");
  for (const [key, logits] of Object.entries(relaxed.logits)) {
    const name = key.split("/")[0];
    const expected = JSON.parse(readFileSync(path.join(root, "tests/fixtures/models/reference", `${name}.json`), "utf8")).pairs.slice(0, 10).flatMap((p) => p.logits_fp32);
    assert.ok(maxDiff(logits, expected) <= 1e-4, `${key} relaxed: ${maxDiff(logits, expected)} from onnxruntime`);
    assert.ok(maxDiff(plain.logits[key], expected) <= 1e-4, `${key} SIMD128: ${maxDiff(plain.logits[key], expected)} from onnxruntime`);
    // a pool gives the same numbers as one thread on either module
    assert.deepEqual(logits, relaxed.logits[`${name}/0`]);
    assert.deepEqual(plain.logits[key], plain.logits[`${name}/0`]);
  }
});
