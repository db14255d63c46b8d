// The model path's answers stay bit for bit what tests/fixtures/golden/rerank.json recorded (made by
// tests/fixtures/gen/make_rerank_golden.mjs before the path was redesigned): every model form, rerank with chunks,
// rerankBatch, score and embed, inline and in a pool.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { wasmSimd } from "rerankit";
import { cases } from "./rerank_golden_cases.mjs";

const file = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../fixtures/golden/rerank.json");
const golden = JSON.parse(readFileSync(file, "utf8"));

// The answers are kept per wasm module, since fp32 bits differ between them. Only the SIMD128 module's are recorded
// (at 0451ca8, before the model path was redesigned): what Node 20 and npm test load, and the same bits on every
// CPU. The relaxed-SIMD module's `f32x4.relaxed_madd` rounds as the CPU fuses it, so its bits are no fixed
// reference; under Node ≥ 22 these cases are skipped, saying why.
const answers = golden[wasmSimd()]?.answers;
for (const [name, run] of Object.entries(cases())) {
  test(`golden: ${name} (${wasmSimd()} module)`, { skip: answers === undefined && `${file} holds no answers from the ${wasmSimd()} module` }, async () => {
    assert.ok(answers[name] !== undefined, `${file} has no answer for ${name}`);
    assert.deepEqual(await run(), answers[name]);
  });
}
