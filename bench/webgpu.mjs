#!/usr/bin/env node
// WebGPU vs CPU wasm reranking throughput through the package in headless Chromium: pairs/s for reranks of
// 100 SciFact documents (title + abstract, truncated to --max-length tokens, one chunk per document) with one
// query, `CrossEncoder.load({device: "webgpu"})` against `{device: "cpu"}` on the same page.
//
//   node bench/webgpu.mjs [--model ce-parity-1] [--docs 100] [--max-length 256] [--reranks 2] [--batch 16]
//
// The parity probe (first use) and one warm-up rerank run before timing. Chromium gets `--enable-unsafe-webgpu`:
// without a GPU its adapter is SwiftShader (software Vulkan on the CPU), so the WebGPU figure is then a software
// rasteriser's, not a GPU's — the output says which adapter ran. Writes bench/out/webgpu.json. Needs the package
// built (node scripts/build.mjs --dev), `npm run fixtures` and /usr/bin/chromium.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import path from "node:path";
import { WEBGPU_ARGS, root, withPage } from "../tests/browser/webgpu_page.mjs";

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const model = opt("--model", "ce-parity-1");
const nDocs = Number(opt("--docs", "100"));
const maxLength = Number(opt("--max-length", "256"));
const reranks = Number(opt("--reranks", "2"));
const batchSize = Number(opt("--batch", "16"));

const coll = path.join(root, "tests/fixtures/collection");
const corpus = gunzipSync(readFileSync(path.join(coll, "corpus.jsonl.gz"))).toString("utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
const query = JSON.parse(readFileSync(path.join(coll, "queries.jsonl"), "utf8").split("\n")[0]).text;
const docs = corpus.slice(0, nDocs).map((d) => `${d.title} ${d.text}`);

const result = await withPage(WEBGPU_ARGS, (page) =>
  page.evaluate(async ({ model, query, docs, maxLength, reranks, batchSize }) => {
    const { CrossEncoder } = window.rerankit;
    const files = { model: `/models/${model}/model.onnx`, tokenizer: `/models/${model}/tokenizer.json`, config: `/models/${model}/config.json` };
    const opts = { topK: null, batchSize, maxChunksPerDoc: 1 };
    const out = { adapter: await window.adapterInfo(), userAgent: navigator.userAgent, engines: {} };
    for (const device of ["webgpu", "cpu"]) {
      const warnings = [];
      let t = performance.now();
      const ce = await CrossEncoder.load({ ...files, device, maxLength, onWarning: (m) => warnings.push(m) });
      const loadMs = performance.now() - t;
      t = performance.now();
      await ce.rerank(query, docs.slice(0, 4), opts); // probe + pipelines + buffers
      const warmMs = performance.now() - t;
      const tokens = docs.reduce((n, d) => n + ce.encodePair(query, d).inputIds.length, 0);
      const times = [];
      let ranked;
      for (let r = 0; r < reranks; r++) {
        t = performance.now();
        ranked = await ce.rerank(query, docs, opts);
        times.push(performance.now() - t);
      }
      const best = Math.min(...times);
      out.engines[device] = {
        ran_on: ce.device, adapter: ce.webgpu?.adapter ?? null, probe: ce.webgpu?.probe ?? null, warnings,
        load_ms: Math.round(loadMs), warmup_ms: Math.round(warmMs), rerank_ms: times.map(Math.round),
        pairs_per_s: Number((docs.length / (best / 1000)).toFixed(2)), mean_tokens: Math.round(tokens / docs.length),
        top3: ranked.slice(0, 3).map((x) => x.index),
      };
      ce.free();
    }
    return out;
  }, { model, query, docs, maxLength, reranks, batchSize }),
);

const g = result.engines.webgpu;
const c = result.engines.cpu;
const report = {
  what: `pairs/s reranking ${nDocs} SciFact documents (max ${maxLength} tokens, batch ${batchSize}, best of ${reranks}) in headless Chromium, ${model}`,
  adapter: result.adapter,
  software_adapter: result.adapter?.isFallbackAdapter ?? null,
  chromium: result.userAgent.match(/Chrome\/[\d.]+/)?.[0] ?? result.userAgent,
  webgpu: g,
  cpu_wasm: c,
  webgpu_over_cpu: Number((g.pairs_per_s / c.pairs_per_s).toFixed(3)),
  measured_at: new Date().toISOString(),
};
mkdirSync(path.join(root, "bench/out"), { recursive: true });
writeFileSync(path.join(root, "bench/out/webgpu.json"), JSON.stringify(report, null, 2) + "\n");
console.log(JSON.stringify(report, null, 2));
if (g.ran_on !== "webgpu") console.error(`\n!!! WebGPU did not run (device "${g.ran_on}"): ${g.warnings.join(" | ")}`);
else if (report.software_adapter) console.error(`\n!!! The WebGPU adapter is a software fallback (${result.adapter.architecture}): no GPU; these figures are a CPU rasteriser's.`);
