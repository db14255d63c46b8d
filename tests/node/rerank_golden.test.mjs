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

// The answers were recorded with the SIMD128 module, the one Node 20 loads (npm test's runtime); fp32 bits differ
// in the relaxed-SIMD module, which has no recording yet, so under Node ≥ 22 these cases are skipped, saying why.
const answers = golden[wasmSimd()]?.answers;
for (const [name, run] of Object.entries(cases())) {
  test(`golden: ${name} (${wasmSimd()} module)`, { skip: answers === undefined && `${file} holds no answers from the ${wasmSimd()} module` }, async () => {
    assert.ok(answers[name] !== undefined, `${file} has no answer for ${name}`);
    assert.deepEqual(await run(), answers[name]);
  });
}
