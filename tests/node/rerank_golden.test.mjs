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

// The answers are kept per wasm module, since fp32 bits differ between them: the SIMD128 module's (what Node 20 and
// npm test load) were recorded at 0451ca8, before the model path was redesigned; the relaxed-SIMD module's (Node ≥
// 22, Chromium, Deno) at 6df9084, after it, on x86-64 with FMA — `f32x4.relaxed_madd` may round differently on a
// CPU without FMA. A module with no recording skips the cases, saying why.
const answers = golden[wasmSimd()]?.answers;
for (const [name, run] of Object.entries(cases())) {
  test(`golden: ${name} (${wasmSimd()} module)`, { skip: answers === undefined && `${file} holds no answers from the ${wasmSimd()} module` }, async () => {
    assert.ok(answers[name] !== undefined, `${file} has no answer for ${name}`);
    assert.deepEqual(await run(), answers[name]);
  });
}
