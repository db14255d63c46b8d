// WebGPU through the package in headless Chromium: CrossEncoder.load({device: "webgpu"}) vs {device: "cpu"} on the
// reference pairs (tests/fixtures/models/reference, padded batches of 8): logits within 1e-3, same rerank order,
// `ranker.device === "webgpu"` and a passed parity probe; the same for the Embedder; and the no-adapter fallback.
//
//   node --test tests/browser/webgpu.test.mjs      (needs pkg/dist built, `npm run fixtures`, /usr/bin/chromium)
//   RERANKIT_WEBGPU_FULL=1 node --test tests/browser/webgpu.test.mjs    the real test models, all 30 pairs
//
// Without a GPU, Chromium's adapter is SwiftShader, which runs the kernels on the CPU hundreds of times slower
// than a GPU. So by default the test takes the small random-weight models of `npm run fixtures`
// (scripts/fixtures/random_bert.py SMALL_SHAPES: the real models' graph with 2 layers, hidden 96 in three heads of
// 32) and the 9 hand-written reference pairs (5–65 tokens: unicode, CJK, one-character, whitespace…; one padded
// batch of 8 and one of 1) through the tokenizer they share with the real models: what the test proves is that the package's WGSL
// kernels, probe and device rules work in a browser, not anything that depends on the model's size.
// RERANKIT_WEBGPU_FULL=1 (for machines with a GPU) takes ce-parity-1, ce-probe and all-MiniLM-L6-v2 with all 30
// pairs, up to 512 tokens, and also reports the distance to onnxruntime's logits.
//
// The Hub exports (tests/fixtures/hub: each family's TorchScript export, fp16 and O2 files, hidden 16) run as
// tests/webgpu/hub_exports.rs runs them on lavapipe: on WebGPU within 1e-3 of the CPU where the weight mapper knows
// the graph, else on the CPU with a warning naming the part.
//
// Chromium offers WebGPU without a GPU through SwiftShader (its software Vulkan) once `--enable-unsafe-webgpu` is
// given (Linux); `--disable-gpu-sandbox` lets its GPU process start in containers. Without an adapter the test
// does not pass as if WebGPU ran: the parity test is reported SKIPPED with the reason. The fallback test starts
// Chromium without `--enable-unsafe-webgpu` (navigator.gpu present, no adapter) and checks that "webgpu" and
// "auto" then warn, report device "cpu" and score exactly as the CPU path.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { BASE_ARGS, WEBGPU_ARGS, root, withPage } from "./webgpu_page.mjs";

const TOL = 1e-3;
const FULL = process.env.RERANKIT_WEBGPU_FULL === "1";
// [model, the reference file whose pairs it scores]
const CROSS_ENCODERS = FULL ? [["ce-parity-1", "ce-parity-1"], ["ce-probe", "ce-probe"]] : [["small-ce-1", "ce-parity-1"], ["small-ce-2", "ce-parity-2"]];
const EMBEDDER = FULL ? "all-MiniLM-L6-v2" : "small-embedder";
const reference = (name) => JSON.parse(readFileSync(path.join(root, "tests/fixtures/models/reference", `${name}.json`), "utf8"));

/** In the page: `name` loaded on `device` "webgpu" and "cpu", reference pairs scored and a list reranked on both. */
function parityInPage({ name, pairs, batchSize }) {
  const files = (f) => ({ model: `/models/${name}/${f}`, tokenizer: `/models/${name}/tokenizer.json`, config: `/models/${name}/config.json` });
  return (async () => {
    const { CrossEncoder } = window.rerankit;
    const warnings = [];
    let t = performance.now();
    const gpu = await CrossEncoder.load({ ...files("model.onnx"), device: "webgpu", onWarning: (m) => warnings.push(m) });
    const gpuLoadMs = performance.now() - t;
    const cpu = await CrossEncoder.load({ ...files("model.onnx"), device: "cpu" });
    t = performance.now();
    const gpuLogits = Array.from(await gpu.score(pairs, { batchSize }));
    const gpuMs = performance.now() - t;
    t = performance.now();
    const cpuLogits = Array.from(await cpu.score(pairs, { batchSize }));
    const cpuMs = performance.now() - t;
    const docs = pairs.slice(0, 6).map((p) => p[1]);
    const gpuRanked = await gpu.rerank(pairs[0][0], docs, { topK: null, batchSize });
    const cpuRanked = await cpu.rerank(pairs[0][0], docs, { topK: null, batchSize });
    // SAS (EvaluationResult.addSas) takes any loaded model: a WebGPU one scores on its CPU twin
    const sasPairs = pairs.slice(0, 4).map(([q, d]) => [q, d.slice(0, 80)]);
    const numLabels = cpu.numLabels;
    const gpuSas = numLabels === 1 ? Array.from(await gpu.sasScores(sasPairs)) : null;
    const cpuSas = numLabels === 1 ? Array.from(await cpu.sasScores(sasPairs)) : null;
    const out = { device: gpu.device, webgpu: gpu.webgpu, warnings, gpuLogits, cpuLogits, gpuRanked, cpuRanked, gpuSas, cpuSas, gpuLoadMs, gpuMs, cpuMs };
    gpu.free();
    cpu.free();
    return out;
  })();
}

const maxDiff = (a, b) => a.reduce((m, x, i) => Math.max(m, Math.abs(x - b[i])), 0);

test(`WebGPU in headless Chromium: logits within 1e-3 of the CPU path on the reference pairs (${CROSS_ENCODERS.map(([m]) => m).join(", ")})`, async (t) => {
  await withPage(WEBGPU_ARGS, async (page, logs) => {
    const adapter = await page.evaluate(() => window.adapterInfo());
    if (!adapter) {
      const msg = "NO WEBGPU ADAPTER in this Chromium (navigator.gpu.requestAdapter() gave none): WebGPU parity NOT tested here — only the CPU fallback (next test)";
      console.error(`\n!!! ${msg}\n`);
      t.skip(msg);
      return;
    }
    t.diagnostic(`adapter: ${JSON.stringify(adapter)}`);
    console.log(`[webgpu] Chromium adapter: ${JSON.stringify(adapter)}${adapter.isFallbackAdapter ? " (software fallback adapter: no GPU)" : ""}`);
    for (const [name, source] of CROSS_ENCODERS) {
      const ref = reference(source);
      const picked = FULL ? ref.pairs : ref.pairs.filter((p) => p.source.startsWith("hand:"));
      const pairs = picked.map((p) => [p.query, p.passage]);
      const r = await page.evaluate(parityInPage, { name, pairs, batchSize: 8 });
      assert.equal(r.device, "webgpu", `${name}: fell back to the CPU: ${JSON.stringify(r.warnings)}\n${logs.join("\n")}`);
      assert.deepEqual(r.warnings, []);
      assert.ok(r.webgpu?.probe?.passed, `${name}: probe ${JSON.stringify(r.webgpu?.probe)}`);
      const d = maxDiff(r.gpuLogits, r.cpuLogits);
      // onnxruntime's logits are of the real models only
      const vsOrt = FULL ? `max |webgpu − onnxruntime| = ${maxDiff(r.gpuLogits, picked.flatMap((p) => p.logits_fp32)).toExponential(2)}; ` : "";
      const line = `${name}: ${pairs.length} reference pairs (batches of 8) on ${r.webgpu.adapter}: max |webgpu − cpu| = ${d.toExponential(2)}, ` +
        `${vsOrt}probe max diff ${r.webgpu.probe.maxAbsDiff.toExponential(2)}; ` +
        `webgpu ${(r.gpuMs / 1000).toFixed(1)} s (load ${(r.gpuLoadMs / 1000).toFixed(1)} s), cpu ${(r.cpuMs / 1000).toFixed(1)} s`;
      console.log(`[webgpu] ${line}`);
      t.diagnostic(line);
      assert.equal(r.gpuLogits.length, picked.length * ref.num_labels);
      // the adapter is named as the browser names it (wgpu alone leaves the name empty in browsers)
      const named = [adapter.vendor, adapter.architecture].filter(Boolean);
      assert.ok(named.length === 0 || named.some((x) => r.webgpu.adapter.includes(x)), `${name}: adapter "${r.webgpu.adapter}" vs ${JSON.stringify(adapter)}`);
      assert.ok(d <= TOL, `${name}: max |webgpu − cpu| = ${d} > ${TOL}`);
      assert.deepEqual(r.gpuRanked.map((x) => x.index), r.cpuRanked.map((x) => x.index), `${name}: rerank order`);
      r.gpuRanked.forEach((x, i) => assert.ok(Math.abs(x.score - r.cpuRanked[i].score) <= TOL, `${name}: rerank score ${i}`));
      if (r.cpuSas !== null) {
        assert.equal(r.gpuSas.length, 4);
        assert.deepEqual(r.gpuSas, r.cpuSas, `${name}: SAS of the WebGPU model`);
      }
    }
  });
});

test(`WebGPU embedder in headless Chromium: vectors within 1e-3 of the CPU path (${EMBEDDER}), normalised and raw`, async (t) => {
  await withPage(WEBGPU_ARGS, async (page, logs) => {
    if (!(await page.evaluate(() => window.adapterInfo()))) {
      t.skip("NO WEBGPU ADAPTER in this Chromium: the WebGPU embedder is NOT tested here");
      return;
    }
    // the hand-written reference passages: 1–60 tokens, unicode and CJK among them
    const texts = reference("ce-parity-1").pairs.filter((p) => p.source.startsWith("hand:")).map((p) => p.passage);
    const r = await page.evaluate(async ({ texts, name }) => {
      const { Embedder } = window.rerankit;
      const files = { model: `/models/${name}/model.onnx`, tokenizer: `/models/${name}/tokenizer.json`, config: `/models/${name}/config.json` };
      const warnings = [];
      const gpu = await Embedder.load({ ...files, device: "webgpu", onWarning: (m) => warnings.push(m) });
      const cpu = await Embedder.load({ ...files, device: "cpu" });
      const out = { device: null, webgpu: null, warnings, dimension: gpu.dimension, cpuDevice: cpu.device };
      for (const normalize of [true, false]) {
        out[normalize ? "normalized" : "raw"] = {
          gpu: (await gpu.embed(texts, { normalize, batchSize: 8 })).map((v) => Array.from(v)),
          cpu: (await cpu.embed(texts, { normalize, batchSize: 8 })).map((v) => Array.from(v)),
        };
      }
      out.device = gpu.device;
      out.webgpu = gpu.webgpu;
      gpu.free();
      cpu.free();
      return out;
    }, { texts, name: EMBEDDER });
    assert.equal(r.device, "webgpu", `fell back to the CPU: ${JSON.stringify(r.warnings)}\n${logs.join("\n")}`);
    assert.equal(r.cpuDevice, "cpu");
    assert.deepEqual(r.warnings, []);
    assert.ok(r.webgpu?.probe?.passed, `probe ${JSON.stringify(r.webgpu?.probe)}`);
    assert.equal(r.dimension, FULL ? 384 : 96);
    for (const kind of ["normalized", "raw"]) {
      assert.equal(r[kind].gpu.length, texts.length);
      const d = maxDiff(r[kind].gpu.flat(), r[kind].cpu.flat());
      console.log(`[webgpu] embedder ${kind}: ${texts.length} texts on ${r.webgpu.adapter}: max |webgpu − cpu| = ${d.toExponential(2)}; probe ${r.webgpu.probe.maxAbsDiff.toExponential(2)}`);
      assert.ok(d <= TOL, `${kind}: max |webgpu − cpu| = ${d}`);
    }
  });
});

test("WebGPU honours deadlineMs (injected clock), maxDocuments and an AbortSignal between batches, as the CPU path does", async (t) => {
  await withPage(WEBGPU_ARGS, async (page) => {
    if (!(await page.evaluate(() => window.adapterInfo()))) {
      t.skip("NO WEBGPU ADAPTER in this Chromium: the WebGPU deadline is NOT tested here");
      return;
    }
    const docs = reference("ce-parity-1").pairs.filter((p) => p.source.startsWith("hand:")).slice(0, 6).map((p) => p.passage);
    const r = await page.evaluate(async (docs) => {
      const { CrossEncoder, RerankitError } = window.rerankit;
      const files = { model: "/models/small-ce-1/model.onnx", tokenizer: "/models/small-ce-1/tokenizer.json", config: "/models/small-ce-1/config.json" };
      const gpu = await CrossEncoder.load({ ...files, device: "webgpu" });
      const cpu = await CrossEncoder.load({ ...files, device: "cpu" });
      const query = "what is the capital of france";
      const all = await cpu.rerank(query, docs, { topK: null, batchSize: 2 });
      // every batch takes 100 ms on this clock (the step is taken when the batch reports its progress): batches of
      // 2 in the caller's order start at 0 and 100; the third would end at 300, past 250
      let now = 0;
      const progress = [];
      const timed = await gpu.rerank(query, docs, { topK: null, batchSize: 2, deadlineMs: 250, clock: () => now, onProgress: (p) => (progress.push(p.done), (now += 100)) });
      const capped = await gpu.rerank(query, docs, { topK: null, batchSize: 2, maxDocuments: 3 });
      const controller = new AbortController();
      let aborted = null;
      try {
        await gpu.rerank(query, docs, { topK: null, batchSize: 2, signal: controller.signal, onProgress: () => controller.abort() });
      } catch (e) {
        aborted = e instanceof RerankitError ? e.code : String(e);
      }
      const after = await gpu.rerank(query, docs, { topK: null, batchSize: 2 });
      const out = { device: gpu.device, all, timed, capped, progress, aborted, after };
      gpu.free();
      cpu.free();
      return out;
    }, docs);
    assert.equal(r.device, "webgpu");
    assert.deepEqual(r.progress, [2, 4], "two batches ran before the deadline");
    const cpuScore = new Map(r.all.map((x) => [x.index, x.score]));
    for (const [out, scored] of [[r.timed, [0, 1, 2, 3]], [r.capped, [0, 1, 2]]]) {
      assert.equal(out.length, docs.length, "every document comes back");
      const head = out.slice(0, scored.length);
      assert.deepEqual(head.map((x) => x.index).sort(), scored, "the scored ones are the head of the caller's list");
      head.forEach((x, i) => {
        assert.equal(x.scored, true);
        assert.ok(Math.abs(x.score - cpuScore.get(x.index)) <= TOL, `score of ${x.index} on WebGPU vs the CPU`);
        if (i > 0) assert.ok(head[i - 1].score >= x.score, "the scored ones ranked best first");
      });
      assert.deepEqual(out.slice(scored.length).map((x) => [x.index, x.scored]), docs.map((_, i) => [i, false]).slice(scored.length), "the rest after them, in the caller's order");
    }
    assert.equal(r.aborted, "ABORTED", "an AbortSignal stops a WebGPU call between batches");
    assert.deepEqual(r.after.map((x) => x.index), r.all.map((x) => x.index), "and the model keeps working");
  });
});

test("WebGPU in headless Chromium without an adapter: \"webgpu\" and \"auto\" warn, run on the CPU, score as the CPU path", async () => {
  await withPage(BASE_ARGS, async (page) => {
    const pairs = reference("ce-parity-1").pairs.slice(0, 6).map((p) => [p.query, p.passage]);
    const r = await page.evaluate(async (pairs) => {
      const { CrossEncoder } = window.rerankit;
      const files = { model: "/models/small-ce-1/model.onnx", tokenizer: "/models/small-ce-1/tokenizer.json", config: "/models/small-ce-1/config.json" };
      const out = { hasGpuProperty: !!navigator.gpu, adapter: await window.adapterInfo() };
      const cpu = await CrossEncoder.load({ ...files, device: "cpu" });
      out.cpu = { device: cpu.device, webgpu: cpu.webgpu ?? null, scores: Array.from(await cpu.score(pairs)) };
      cpu.free();
      for (const device of ["webgpu", "auto"]) {
        const warnings = [];
        const ce = await CrossEncoder.load({ ...files, device, onWarning: (m) => warnings.push(m) });
        out[device] = { device: ce.device, warnings, info: ce.webgpu ?? null, scores: Array.from(await ce.score(pairs)) };
        ce.free();
      }
      return out;
    }, pairs);
    assert.equal(r.adapter, null, "this launch must expose no adapter");
    assert.equal(r.cpu.device, "cpu");
    assert.equal(r.cpu.webgpu, null);
    for (const device of ["webgpu", "auto"]) {
      const x = r[device];
      assert.equal(x.device, "cpu", device);
      assert.equal(x.warnings.length, 1, `${device}: ${JSON.stringify(x.warnings)}`);
      assert.match(x.warnings[0], /WebGPU unavailable, using the CPU: .*no WebGPU adapter/);
      assert.deepEqual(x.info.warnings, x.warnings);
      assert.equal(x.info.adapter, undefined);
      assert.deepEqual(x.scores, r.cpu.scores, `${device}: CPU fallback scores`);
      console.log(`[webgpu] no adapter, device "${device}" → cpu, warning: ${x.warnings[0]}`);
    }
  });
});

test("WebGPU in headless Chromium on the Hub exports (tests/fixtures/hub): BERT, DistilBERT, ELECTRA and XLM-R run on it; the rest fall back naming the part", async (t) => {
  await withPage(WEBGPU_ARGS, async (page, logs) => {
    if (!(await page.evaluate(() => window.adapterInfo()))) {
      t.skip("NO WEBGPU ADAPTER in this Chromium: the Hub exports on WebGPU are NOT tested here");
      return;
    }
    const hub = path.join(root, "tests/fixtures/hub");
    const refs = readdirSync(path.join(hub, "references")).map((f) => JSON.parse(readFileSync(path.join(hub, "references", f), "utf8")))
      .filter((r) => r.output === "logits");
    // every family's TorchScript export, two fp16 files, and two fallbacks (fused attention, rotary positions);
    // the other forms map identically (tests/webgpu/hub_exports.rs runs them all on lavapipe)
    const extra = { "rerankit-test/tiny-bert-reranker": ["model_fp16", "model_O2"], "rerankit-test/tiny-xlm-roberta-reranker": ["model_fp16"] };
    for (const ref of refs) {
      for (const form of ["model", ...(extra[ref.repo] ?? [])]) {
        const r = await page.evaluate(async ({ repo, file, pairs }) => {
          const { CrossEncoder } = window.rerankit;
          const files = { model: `/hub/${repo}/${file}`, tokenizer: `/hub/${repo}/tokenizer.json`, config: `/hub/${repo}/config.json` };
          const warnings = [];
          const gpu = await CrossEncoder.load({ ...files, device: "webgpu", onWarning: (m) => warnings.push(m) });
          const cpu = await CrossEncoder.load({ ...files, device: "cpu" });
          const out = { gpu: Array.from(await gpu.score(pairs, { batchSize: 4 })), cpu: Array.from(await cpu.score(pairs, { batchSize: 4 })), device: gpu.device, warnings };
          gpu.free();
          cpu.free();
          return out;
        }, { repo: ref.repo, file: ref.forms[form].file, pairs: ref.pairs.slice(0, 4) });
        const mapped = ref.model_type !== "modernbert" && form !== "model_O2";
        const line = `${ref.repo} ${form}: ${r.device}${r.device === "webgpu" ? ` max |webgpu − cpu| ${maxDiff(r.gpu, r.cpu).toExponential(1)}` : ` (${r.warnings.join(" | ")})`}`;
        t.diagnostic(line);
        if (mapped) assert.equal(r.device, "webgpu", `${line}\n${logs.join("\n")}`);
        if (r.device === "webgpu") assert.ok(maxDiff(r.gpu, r.cpu) <= TOL, line);
        else {
          assert.ok(r.warnings.some((w) => /webgpu: /.test(w)), `${line}: the fallback names no part`);
          assert.deepEqual(r.gpu, r.cpu, `${line}: the fallback must answer as the CPU`);
        }
      }
    }
  });
});
