// int8 cross-encoders through the package: as accurate as onnxruntime's int8. With e = |int8 logit − onnxruntime
// fp32 logit| over a model's reference pairs, rerankit's RMS(e) and max(e) must each be ≤ 2 × onnxruntime int8's,
// and padded batches must give exactly the single-pair logits. Why this and not "within 0.05 of onnxruntime's
// int8 logits" (which no two engines meet on dynamically quantised models, onnxruntime against itself included):
// see tests/inference/int8.rs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CrossEncoder } from "rerankit";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const models = process.env.RERANKIT_MODELS || path.join(os.homedir(), ".cache/rerankit/models");

/** max and RMS of |a − b|. */
function distance(a, b) {
  const d = a.map((x, i) => Math.abs(x - b[i]));
  return { max: Math.max(...d), rms: Math.sqrt(d.reduce((s, x) => s + x * x, 0) / d.length) };
}

for (const name of ["ce-parity-1", "ce-parity-2", "ce-probe"]) {
  test(`${name} int8: as accurate as onnxruntime int8 against fp32, batches = single pairs`, async (t) => {
    const dir = path.join(models, name);
    if (!existsSync(path.join(dir, "model_int8.onnx"))) throw new Error(`${dir}/model_int8.onnx missing: run \`npm run fixtures\``);
    const ref = JSON.parse(readFileSync(path.join(root, "tests/fixtures/models/reference", `${name}.json`), "utf8"));
    const ce = await CrossEncoder.load({ model: path.join(dir, "model_int8.onnx"), tokenizer: path.join(dir, "tokenizer.json"), config: path.join(dir, "config.json") });
    const pairs = ref.pairs.map((p) => [p.query, p.passage]);
    const ortInt8 = ref.pairs.flatMap((p) => p.logits_int8);
    const ortFp32 = ref.pairs.flatMap((p) => p.logits_fp32);
    const single = [];
    for (const p of pairs) single.push(...(await ce.score([p], { batchSize: 1 })));
    const batched = Array.from(await ce.score(pairs, { batchSize: 8 }));
    ce.free();
    const ours = distance(single, ortFp32);
    const ort = distance(ortInt8, ortFp32);
    t.diagnostic(`vs onnxruntime fp32: rerankit max ${ours.max.toFixed(4)} rms ${ours.rms.toFixed(4)}, onnxruntime int8 max ${ort.max.toFixed(4)} rms ${ort.rms.toFixed(4)}; vs onnxruntime int8: max ${distance(single, ortInt8).max.toFixed(4)}`);
    assert.deepEqual(batched, single, "padded batches of 8 differ from single pairs");
    assert.ok(ours.rms <= 2 * ort.rms, `RMS error vs fp32 ${ours.rms} > 2 × onnxruntime int8's ${ort.rms}`);
    assert.ok(ours.max <= 2 * ort.max, `max error vs fp32 ${ours.max} > 2 × onnxruntime int8's ${ort.max}`);
  });
}
