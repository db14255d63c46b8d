#!/usr/bin/env node
// Reranking throughput in headless Chromium, one thread each, rerankit against onnxruntime-web in the same page:
// what a browser (and, with the same V8, a Worker) gets. Chromium has relaxed SIMD, so rerankit runs its
// relaxed-SIMD module there, and int8 products its dot-product kernel where the CPU makes that exact
// (`int8Kernel()`); onnxruntime-web runs its SIMD build (it ships no relaxed-SIMD one), without threads (a page
// that is not cross-origin isolated gets none).
//
//   node bench/rerank_chromium.mjs [--queries N] [--batch B] [--max-length L] [--ab R] [--workers] [--out FILE]
//
// `--workers` adds a third engine to each round: the package's Workers module (pkg/dist/workers: relaxed SIMD, the
// BERT engine instead of tract), loaded in the same page as workerd loads it (a compiled module handed to its glue).
//
// The workload is bench/rerank.mjs's (SciFact queries × BM25's top 100, ce-probe fp32 and int8, the same rerankit
// tokens for both engines, length-sorted batches of B padded to their longest row). R rounds alternate the two
// engines over the whole workload per model; read the ratio of the medians.
// Needs `npm install --prefix bench --ignore-scripts`, a build in pkg/dist and `npm run fixtures`.
import { writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { BASE_ARGS, models, root, withPage } from "../tests/browser/webgpu_page.mjs";
import { paddedBatches, rerankWorkload } from "./rerank_workload.mjs";

const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const nQueries = Number(opt("--queries", "1"));
const batch = Number(opt("--batch", "16"));
const maxLength = Number(opt("--max-length", "256"));
const rounds = Number(opt("--ab", "3"));
const withWorkers = args.includes("--workers");
const work = rerankWorkload(nQueries);
const nPairs = work.reduce((s, w) => s + w.docs.length, 0);
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

// onnxruntime's inputs from rerankit's tokens (the Node entry tokenises as the page's does)
const { CrossEncoder } = await import(pathToFileURL(path.join(root, "pkg/dist/runtimes/node.js")).href);
const dir = path.join(models, "ce-probe");
const tokenizerCe = await CrossEncoder.load({ model: path.join(dir, "model.onnx"), tokenizer: path.join(dir, "tokenizer.json"), config: path.join(dir, "config.json"), maxLength });
const feeds = work.map((w) => paddedBatches(w.docs.map((d) => tokenizerCe.encodePair(w.query, d)), batch).map((b) => ({ ...b, ids: [...b.ids].map(Number), mask: [...b.mask].map(Number), types: [...b.types].map(Number) })));
tokenizerCe.free();

console.log(`[bench] Chromium: ce-probe, ${work.length} queries × BM25 top-100 = ${nPairs} pairs, batch ${batch}, window ${maxLength} tokens, ${rounds} alternating rounds`);
const rows = await withPage(BASE_ARGS, async (page) => {
  await page.evaluate(async () => {
    window.ort = await import("/ort/ort.wasm.min.mjs");
    window.ort.env.wasm.wasmPaths = "/ort/";
    window.ort.env.wasm.numThreads = 1;
  });
  if (withWorkers) {
    await page.evaluate(async () => {
      const tree = "/pkg/dist/workers/";
      const glue = await import(tree + "wasm/rerankit.js");
      const { finishInit } = await import(tree + "runtimes/wasm_instance.js");
      const module = await WebAssembly.compile(await (await fetch(tree + "wasm/rerankit_bg.wasm")).arrayBuffer());
      finishInit(glue.initSync({ module }), "relaxed-simd");
      window.rerankitWorkers = await import(tree + "index.js");
    });
  }
  const out = [];
  for (const file of ["model.onnx", "model_int8.onnx"]) {
    const row = await page.evaluate(async ({ file, work, feeds, rounds, batch, maxLength }) => {
      const { CrossEncoder, wasmSimd, int8Kernel } = window.rerankit;
      const ort = window.ort;
      const base = "/models/ce-probe/";
      const files = { model: base + file, tokenizer: base + "tokenizer.json", config: base + "config.json", maxLength };
      const ce = await CrossEncoder.load(files);
      const workersCe = window.rerankitWorkers ? await window.rerankitWorkers.CrossEncoder.load(files) : null;
      const session = await ort.InferenceSession.create(new Uint8Array(await (await fetch(base + file)).arrayBuffer()), { executionProviders: ["wasm"] });
      const tensors = feeds.map((bs) => bs.map((b) => {
        const t = (v) => new ort.Tensor("int64", BigInt64Array.from(v, BigInt), [b.rows, b.len]);
        return { input_ids: t(b.ids), attention_mask: t(b.mask), token_type_ids: t(b.types) };
      }));
      const pairs = work.reduce((s, w) => s + w.docs.length, 0);
      const rate = { rerankit: [], ort: [], ...(workersCe ? { workers: [] } : {}) };
      for (let r = 0; r < rounds; r++) {
        let t0 = performance.now();
        for (const w of work) await ce.rerank(w.query, w.docs, { topK: null, batchSize: batch, maxChunksPerDoc: 1 });
        rate.rerankit.push(pairs / ((performance.now() - t0) / 1000));
        if (workersCe) {
          t0 = performance.now();
          for (const w of work) await workersCe.rerank(w.query, w.docs, { topK: null, batchSize: batch, maxChunksPerDoc: 1 });
          rate.workers.push(pairs / ((performance.now() - t0) / 1000));
        }
        t0 = performance.now();
        for (const q of tensors) for (const f of q) await session.run(f);
        rate.ort.push(pairs / ((performance.now() - t0) / 1000));
      }
      ce.free();
      workersCe?.free();
      await session.release();
      return { model: file, simd: wasmSimd(), int8_kernel: int8Kernel(), workers_int8_kernel: window.rerankitWorkers?.int8Kernel(), rate };
    }, { file, work, feeds, rounds, batch, maxLength });
    row.rate.rerankit.forEach((x, r) => console.log(`[bench] ${file.padEnd(16)} round ${r + 1}: rerankit ${x.toFixed(2)}, ort-web ${row.rate.ort[r].toFixed(2)} pairs/s (${(x / row.rate.ort[r]).toFixed(2)}×)`));
    const ratio = median(row.rate.rerankit) / median(row.rate.ort);
    console.log(`[bench] ${file.padEnd(16)} medians: rerankit ${median(row.rate.rerankit).toFixed(2)} (${row.simd}, int8 ${row.int8_kernel}), ort-web ${median(row.rate.ort).toFixed(2)} pairs/s → ${ratio.toFixed(2)}×`);
    const workers = row.rate.workers && median(row.rate.workers) / median(row.rate.ort);
    if (workers) {
      row.rate.workers.forEach((x, r) => console.log(`[bench] ${file.padEnd(16)} round ${r + 1}: rerankit Workers module ${x.toFixed(2)} pairs/s (${(x / row.rate.ort[r]).toFixed(2)}× ort-web)`));
      console.log(`[bench] ${file.padEnd(16)} medians: rerankit Workers module ${median(row.rate.workers).toFixed(2)} (int8 ${row.workers_int8_kernel}) → ${workers.toFixed(2)}× ort-web`);
    }
    out.push({ ...row, ratio_of_medians: Number(ratio.toFixed(2)), ...(workers ? { workers_ratio_of_medians: Number(workers.toFixed(2)) } : {}) });
  }
  return out;
});
const summary = { date: new Date().toISOString(), loadavg: os.loadavg().map((x) => Number(x.toFixed(2))), cpu: os.cpus()[0]?.model, runtime: "chromium", max_length: maxLength, batch, pairs: nPairs, rounds, ab: rows };
console.log(JSON.stringify(summary));
if (opt("--out")) writeFileSync(path.resolve(opt("--out")), JSON.stringify(summary, null, 1) + "\n");
