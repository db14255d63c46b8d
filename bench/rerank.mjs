#!/usr/bin/env node
// Reranking throughput: pairs/s reranking each SciFact query's BM25 top-100 with ce-probe (fp32 and int8).
//
//   node bench/rerank.mjs [--queries N] [--batch B] [--max-length L] [--workers N] [--full]
//                         [--skip native,ort-node,ort-web,pool] [--pkg DIR] [--ab R] [--out FILE]
//
// --out FILE: also write the summary as JSON (e.g. bench/out/rerank.json).
// --ab R: instead, one thread each, rerankit-wasm and onnxruntime-web in one process, alternating R rounds of the
// whole workload per model (both loaded throughout). On a shared machine a change of load then hits both engines
// alike: read the ratio of the medians (per-round ratios are printed too).
// --pkg DIR: the package build to measure (default pkg/dist).
// The package loads its relaxed-SIMD module where the runtime has relaxed SIMD (docs/inference.md, "Two modules"):
// on Node 20 only with `node --experimental-wasm-relaxed-simd bench/rerank.mjs …` (node's own flags are passed on
// to the child processes); without the flag it measures the SIMD128 module. The summary names the one measured.
//
// Engines, all one thread, same ONNX file, same tokens (rerankit's own, only_second at 512), same batch size
// (length-sorted batches padded to their longest row):
//   rerankit-native  the Rust crate (cargo test --profile native-test --test inference bench:: -- --ignored:
//                    release optimisation without LTO, the profile the native tests already built)
//   rerankit-wasm    the npm package in Node (import "rerankit"; build it first with `npm run build`)
//   ort-node         onnxruntime-node, CPU EP, intraOpNumThreads 1
//   ort-web          onnxruntime-web, wasm backend, numThreads 1
// and on every core (N = --workers, default the machine's hardware threads):
//   rerankit-wasm×N  the package with `workers: N` (a pool of worker_threads, one model copy each)
//   ort-web×N        onnxruntime-web with numThreads N (its threaded build: what an isolated page gets)
// Each engine's "first" is the time to the first query's ranking (its 100 pairs), from the start of the run.
// --max-length: the token window (rerankit truncates only_second to it; onnxruntime gets the same tokens).
// Also: the wasm size and the peak RSS of a Node process that loads ce-probe and reranks 100 documents, inline
// and with the pool.
// Needs `npm run fixtures` (models) and `npm install --prefix bench --ignore-scripts` (the onnxruntime baselines;
// onnxruntime-node's install script only fetches CUDA libraries, which a CPU bench does not need).
import { execFileSync } from "node:child_process";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import path from "node:path";
import os from "node:os";
import { paddedBatches, rerankWorkload } from "./rerank_workload.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const full = args.includes("--full");
const nQueries = full ? 300 : Number(opt("--queries", "5"));
const batch = Number(opt("--batch", "16"));
const maxLength = Number(opt("--max-length", "512"));
const nWorkers = Number(opt("--workers", String(os.availableParallelism())));
const skip = new Set(String(opt("--skip", "")).split(",").filter(Boolean));
// The package by path: bench/ has its own package.json, so a self-reference by name does not resolve here.
const pkgDist = path.resolve(root, opt("--pkg", "pkg/dist"));
const loadRerankit = () => import(pathToFileURL(path.join(pkgDist, "runtimes", "node.js")).href);
const modelsDir = process.env.RERANKIT_MODELS || path.join(os.homedir(), ".cache/rerankit/models");
const ceDir = path.join(modelsDir, "ce-probe");

const collection = () => rerankWorkload(nQueries);

// --- child mode: peak memory of one process reranking 100 docs with the wasm package ----------------------
const ceFiles = (file) => ({ model: path.join(ceDir, file), tokenizer: path.join(ceDir, "tokenizer.json"), config: path.join(ceDir, "config.json"), maxLength });
if (args[0] === "--child-memory") {
  const { CrossEncoder, wasmMemoryBytes } = await loadRerankit();
  const [file, workers] = [args[1], Number(args[2])];
  const [{ query, docs }] = collection();
  // reading the collection has its own peak: the model's share is what RSS grows by from here
  globalThis.gc?.();
  const before = process.memoryUsage().rss;
  const ce = await CrossEncoder.load({ ...ceFiles(file), workers });
  await ce.rerank(query, docs.slice(0, 100), { topK: null, batchSize: batch, maxChunksPerDoc: 1 });
  const modelMiB = (process.memoryUsage().rss - before) / 1048576;
  // wasm linear memory never shrinks: after the rerank it is the peak of load + rerank (this thread's instance;
  // the workers' are in the process's RSS)
  console.log(JSON.stringify({ maxRSS_MiB: process.resourceUsage().maxRSS / 1024, wasm_MiB: wasmMemoryBytes() / 1048576, model_MiB: modelMiB }));
  process.exit(0);
}

// --- child mode: onnxruntime-web with N threads (its thread count is fixed for the process) ----------------
if (args[0] === "--child-ort-web") {
  const [threadCount, file] = [Number(args[1]), args[2]];
  const { CrossEncoder } = await loadRerankit();
  const ce = await CrossEncoder.load(ceFiles(file));
  const pairs = collection().map((w) => w.docs.map((d) => ce.encodePair(w.query, d)));
  ce.free();
  const ort = await import(createRequire(path.join(root, "bench", "package.json")).resolve("onnxruntime-web"));
  ort.env.wasm.numThreads = threadCount;
  ort.env.wasm.simd = true;
  console.log(JSON.stringify(await ortRun(ort.default ?? ort, file, { executionProviders: ["wasm"] }, pairs)));
  process.exit(0);
}

const work = collection();
const nPairs = work.reduce((s, w) => s + w.docs.length, 0);
console.log(`[bench] ce-probe, ${work.length} queries × BM25 top-100 = ${nPairs} pairs, batch ${batch}, window ${maxLength} tokens; one thread, then ${nWorkers}`);
const results = [];
const record = (engine, model, loadMs, seconds, firstMs) => {
  const r = { engine, model, load_ms: Number(loadMs.toFixed(1)), seconds: Number(seconds.toFixed(3)), pairs_per_s: Number((nPairs / seconds).toFixed(2)), first_ms: firstMs === undefined ? null : Number(firstMs.toFixed(0)) };
  results.push(r);
  console.log(`[bench] ${engine.padEnd(16)} ${model.padEnd(16)} load ${r.load_ms.toFixed(0).padStart(6)} ms  ${r.pairs_per_s.toFixed(1).padStart(7)} pairs/s` +
    (r.first_ms === null ? "" : `  first ${String(r.first_ms).padStart(6)} ms`));
};

// rerankit in wasm (the npm package's Node entry).
const { CrossEncoder, wasmSimd } = await loadRerankit();

if (opt("--ab")) {
  const rounds = Number(opt("--ab"));
  const ortWeb = await import(createRequire(path.join(root, "bench", "package.json")).resolve("onnxruntime-web"));
  const ort = ortWeb.default ?? ortWeb;
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.simd = true;
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  const ab = [];
  console.log(`[bench] --ab ${rounds}: rerankit-wasm (${wasmSimd()}) and ort-web, one thread each, alternating`);
  for (const file of ["model.onnx", "model_int8.onnx"]) {
    const ce = await CrossEncoder.load(ceFiles(file));
    const session = await ort.InferenceSession.create(path.join(ceDir, file), { executionProviders: ["wasm"] });
    // onnxruntime runs the batches rerankit runs (batchSize is a cap: long fp32 windows run fewer rows;
    // docs/inference.md), recorded in an untimed first pass
    const ran = [];
    for (const w of work) {
      const sizes = [];
      let done = 0;
      await ce.rerank(w.query, w.docs, { topK: null, batchSize: batch, maxChunksPerDoc: 1, onProgress: (p) => (sizes.push(p.done - done), (done = p.done)) });
      ran.push(sizes);
    }
    const prepared = work.map((w, i) => paddedBatches(w.docs.map((d) => ce.encodePair(w.query, d)), ran[i]));
    console.log(`[bench] ${file}: rerankit's batches of the first query: ${ran[0].join(" ")} rows`);
    const rate = { rerankit: [], ort: [] };
    for (let r = 0; r < rounds; r++) {
      let t0 = performance.now();
      for (const w of work) await ce.rerank(w.query, w.docs, { topK: null, batchSize: batch, maxChunksPerDoc: 1 });
      rate.rerankit.push(nPairs / ((performance.now() - t0) / 1000));
      t0 = performance.now();
      for (const bs of prepared) await runOrtBatches(ort, session, bs);
      rate.ort.push(nPairs / ((performance.now() - t0) / 1000));
      console.log(`[bench] ${file.padEnd(16)} round ${r + 1}: rerankit ${rate.rerankit[r].toFixed(2)}, ort-web ${rate.ort[r].toFixed(2)} pairs/s (${(rate.rerankit[r] / rate.ort[r]).toFixed(2)}×)`);
    }
    const row = { model: file, rerankit_median: Number(median(rate.rerankit).toFixed(2)), ort_web_median: Number(median(rate.ort).toFixed(2)), ratio_of_medians: Number((median(rate.rerankit) / median(rate.ort)).toFixed(2)), rerankit: rate.rerankit.map((x) => Number(x.toFixed(2))), ort_web: rate.ort.map((x) => Number(x.toFixed(2))) };
    console.log(`[bench] ${file.padEnd(16)} medians: rerankit ${row.rerankit_median}, ort-web ${row.ort_web_median} pairs/s → ${row.ratio_of_medians}×`);
    ab.push(row);
    ce.free();
    await session.release();
  }
  const summary = { date: new Date().toISOString(), loadavg: os.loadavg().map((x) => Number(x.toFixed(2))), node: process.version, wasm_simd: wasmSimd(), max_length: maxLength, batch, pairs: nPairs, rounds, ab };
  console.log(JSON.stringify(summary));
  if (opt("--out")) writeFileSync(path.resolve(opt("--out")), JSON.stringify(summary, null, 1) + "\n");
  process.exit(0);
}
const tokens = new Map(); // file → [[{ids, types}]] per query, from rerankit's tokenizer, reused by onnxruntime
for (const file of ["model.onnx", "model_int8.onnx"]) {
  for (const workers of skip.has("pool") ? [0] : [0, nWorkers]) {
    let t0 = performance.now();
    const ce = await CrossEncoder.load({ ...ceFiles(file), workers });
    const loadMs = performance.now() - t0;
    t0 = performance.now();
    let firstMs;
    for (const w of work) {
      await ce.rerank(w.query, w.docs, { topK: null, batchSize: batch, maxChunksPerDoc: 1 });
      firstMs ??= performance.now() - t0;
    }
    record(workers ? `rerankit-wasm×${workers}` : "rerankit-wasm", file, loadMs, (performance.now() - t0) / 1000, firstMs);
    if (!tokens.has("pairs")) tokens.set("pairs", work.map((w) => w.docs.map((d) => ce.encodePair(w.query, d))));
    ce.free();
  }
}

// rerankit native (release).
if (!skip.has("native")) {
  const out = execFileSync("cargo", ["test", "--profile", "native-test", "--test", "inference", "bench::", "--", "--ignored", "--nocapture"], {
    cwd: root, env: { ...process.env, RERANKIT_BENCH_QUERIES: String(nQueries), RERANKIT_BENCH_BATCH: String(batch), RERANKIT_BENCH_MAX_LENGTH: String(maxLength) }, stdio: ["ignore", "pipe", "inherit"],
  }).toString();
  for (const line of out.split("\n").filter((l) => l.startsWith("BENCH "))) {
    const r = JSON.parse(line.slice(6));
    record("rerankit-native", r.model, r.load_ms, r.seconds);
  }
}

// onnxruntime baselines on the same tokens and batches.
function batches(pairs) {
  return paddedBatches(pairs, batch);
}
/** One query's prepared batches through an onnxruntime session. */
async function runOrtBatches(ort, session, bs) {
  for (const b of bs) {
    const shape = [b.rows, b.len];
    await session.run({ input_ids: new ort.Tensor("int64", b.ids, shape), attention_mask: new ort.Tensor("int64", b.mask, shape), token_type_ids: new ort.Tensor("int64", b.types, shape) });
  }
}
const require = createRequire(path.join(root, "bench", "package.json"));
/** One onnxruntime session over every query's batches: {loadMs, seconds, firstMs}. */
async function ortRun(ort, file, sessionOptions, pairs) {
  const t0 = performance.now();
  const session = await ort.InferenceSession.create(path.join(ceDir, file), sessionOptions);
  const loadMs = performance.now() - t0;
  const prepared = pairs.map(batches); // tensor building is outside the timed region for every engine but rerankit's own
  const t1 = performance.now();
  let firstMs;
  for (const bs of prepared) {
    await runOrtBatches(ort, session, bs);
    firstMs ??= performance.now() - t1;
  }
  return { loadMs, seconds: (performance.now() - t1) / 1000, firstMs };
}
async function ortBench(engine, ort, file, sessionOptions) {
  const r = await ortRun(ort, file, sessionOptions, tokens.get("pairs"));
  record(engine, file, r.loadMs, r.seconds, r.firstMs);
}
for (const [engine, pkg, opts] of [
  ["ort-node", "onnxruntime-node", { intraOpNumThreads: 1, interOpNumThreads: 1, executionProviders: ["cpu"] }],
  ["ort-web", "onnxruntime-web", { executionProviders: ["wasm"] }],
]) {
  if (skip.has(engine)) continue;
  let ort;
  try {
    ort = await import(require.resolve(pkg));
  } catch (e) {
    console.log(`[bench] ${engine}: not installed (npm install --prefix bench): ${e.message}`);
    continue;
  }
  if (engine === "ort-web") {
    ort.env.wasm.numThreads = 1;
    ort.env.wasm.simd = true;
  }
  for (const file of ["model.onnx", "model_int8.onnx"]) await ortBench(engine, ort.default ?? ort, file, opts);
}

// onnxruntime-web on every core, in its own process (numThreads is fixed once its wasm starts).
if (!skip.has("ort-web") && !skip.has("pool") && nWorkers > 1) {
  for (const file of ["model.onnx", "model_int8.onnx"]) {
    try {
      const out = execFileSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), "--child-ort-web", String(nWorkers), file, "--queries", String(nQueries),
        "--batch", String(batch), "--max-length", String(maxLength), "--pkg", pkgDist], { stdio: ["ignore", "pipe", "inherit"] }).toString();
      const r = JSON.parse(out.trim().split("\n").pop());
      record(`ort-web×${nWorkers}`, file, r.loadMs, r.seconds, r.firstMs);
    } catch (e) {
      console.log(`[bench] ort-web×${nWorkers}: ${e.message.split("\n")[0]}`);
    }
  }
}

// Ratios against rerankit-wasm for each model file.
console.log("\n[bench] pairs/s ratios (engine / rerankit-wasm):");
for (const file of ["model.onnx", "model_int8.onnx"]) {
  const base = results.find((r) => r.engine === "rerankit-wasm" && r.model === file);
  for (const r of results.filter((x) => x.model === file)) console.log(`  ${file.padEnd(16)} ${r.engine.padEnd(16)} ${(r.pairs_per_s / base.pairs_per_s).toFixed(2)}×`);
}

// Size and memory.
const wasmPath = path.join(pkgDist, wasmSimd() === "relaxed-simd" ? "wasm/rerankit_relaxed_bg.wasm" : "wasm/rerankit_bg.wasm");
const size = statSync(wasmPath).size;
const gzipSize = gzipSync(readFileSync(wasmPath), { level: 9 }).length;
console.log(`\n[bench] wasm (${wasmSimd()}): ${(size / 1048576).toFixed(2)} MiB raw, ${(gzipSize / 1048576).toFixed(2)} MiB gzip -9 (${wasmPath})`);
const memory = {};
for (const file of ["model.onnx", "model_int8.onnx"]) {
  for (const workers of skip.has("pool") ? [0] : [0, nWorkers]) {
    const out = execFileSync(process.execPath, [...process.execArgv, "--expose-gc", fileURLToPath(import.meta.url), "--child-memory", file, String(workers), "--queries", "1", "--batch", String(batch),
      "--max-length", String(maxLength), "--pkg", pkgDist]).toString();
    const m = JSON.parse(out.trim().split("\n").pop());
    console.log(`[bench] Node loading ce-probe ${file} (workers ${workers}) and reranking 100 docs (batch ${batch}): RSS grew ${m.model_MiB.toFixed(0)} MiB ` +
      `(this thread's wasm memory ${m.wasm_MiB.toFixed(0)} MiB), process peak RSS ${m.maxRSS_MiB.toFixed(0)} MiB`);
    memory[`${file}${workers ? ` workers ${workers}` : ""}`] = { model_MiB: Number(m.model_MiB.toFixed(1)), wasm_MiB: Number(m.wasm_MiB.toFixed(1)), max_rss_MiB: Number(m.maxRSS_MiB.toFixed(1)) };
  }
}
const summary = { date: new Date().toISOString(), loadavg: os.loadavg().map((x) => Number(x.toFixed(2))), cpus: os.cpus().length, node: process.version, pkg: path.relative(root, pkgDist), wasm_simd: wasmSimd(), queries: work.length, pairs: nPairs, batch, max_length: maxLength, workers: nWorkers, results, wasm_bytes: size, wasm_gzip_bytes: gzipSize, memory };
console.log(JSON.stringify(summary));
if (opt("--out")) writeFileSync(path.resolve(opt("--out")), JSON.stringify(summary, null, 1) + "\n");
