// int8 cross-encoders in Chromium, whose V8 has relaxed SIMD: the package loads its relaxed-SIMD module there, whose
// int8 products run on relaxed SIMD's integer dot product where that is exact on the CPU (x86 with AVX-VNNI, ARM
// with the dot product: src/inference/row_quantization/quad_tile.rs). Held to tests/node/cross_encoder_int8's
// criterion on all 30 reference pairs of each model (int8 as close to onnxruntime's fp32 logits as onnxruntime's
// own int8, ×2; padded batches equal to single pairs). On a CPU whose flags name AVX-VNNI the dot-product kernel
// must be the one that ran (`int8Kernel()`).
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { BASE_ARGS, models, root, withPage } from "./webgpu_page.mjs";

const vnni = existsSync("/proc/cpuinfo") && /\bavx_vnni\b/.test(readFileSync("/proc/cpuinfo", "utf8"));

function distance(a, b) {
  const d = a.map((x, i) => Math.abs(x - b[i]));
  return { max: Math.max(...d), rms: Math.sqrt(d.reduce((s, x) => s + x * x, 0) / d.length) };
}

test("int8 in Chromium's relaxed-SIMD module: as accurate as onnxruntime int8, batches = single pairs", { timeout: 1_200_000 }, async (t) => {
  await withPage(BASE_ARGS, async (page) => {
    for (const name of ["ce-parity-1", "ce-parity-2", "ce-probe"]) {
      if (!existsSync(path.join(models, name, "model_int8.onnx"))) throw new Error(`${name}/model_int8.onnx missing: run \`npm run fixtures\``);
      const ref = JSON.parse(readFileSync(path.join(root, "tests/fixtures/models/reference", `${name}.json`), "utf8"));
      const pairs = ref.pairs.map((p) => [p.query, p.passage]);
      const r = await page.evaluate(async ({ name, pairs }) => {
        const { CrossEncoder, wasmSimd, int8Kernel } = window.rerankit;
        const files = { model: `/models/${name}/model_int8.onnx`, tokenizer: `/models/${name}/tokenizer.json`, config: `/models/${name}/config.json` };
        const ce = await CrossEncoder.load(files);
        const single = [];
        for (const p of pairs) single.push(...(await ce.score([p], { batchSize: 1 })));
        const batched = Array.from(await ce.score(pairs, { batchSize: 8 }));
        ce.free();
        return { simd: wasmSimd(), kernel: int8Kernel(), single, batched };
      }, { name, pairs });
      const ours = distance(r.single, ref.pairs.flatMap((p) => p.logits_fp32));
      const ort = distance(ref.pairs.flatMap((p) => p.logits_int8), ref.pairs.flatMap((p) => p.logits_fp32));
      t.diagnostic(`${name} (${r.simd}, ${r.kernel}): rerankit max ${ours.max.toFixed(4)} rms ${ours.rms.toFixed(4)}, onnxruntime int8 max ${ort.max.toFixed(4)} rms ${ort.rms.toFixed(4)}`);
      assert.equal(r.simd, "relaxed-simd", "Chromium loads the relaxed-SIMD module");
      if (vnni) assert.equal(r.kernel, "relaxed-dot", "this CPU has AVX-VNNI: the int8 products run on the dot-product kernel");
      assert.deepEqual(r.batched, r.single, `${name}: padded batches of 8 differ from single pairs`);
      assert.ok(ours.rms <= 2 * ort.rms, `${name}: RMS error vs fp32 ${ours.rms} > 2 × onnxruntime int8's ${ort.rms}`);
      assert.ok(ours.max <= 2 * ort.max, `${name}: max error vs fp32 ${ours.max} > 2 × onnxruntime int8's ${ort.max}`);
    }
  });
});
