#!/usr/bin/env node
// The runtime budgets of issue 9, measured: `node bench/runtimes.mjs [--model-file model_int8.onnx] [--runs 1] [--only node,deno,workerd,chromium,onnxruntime-web] [--memory-budget MiB]`
//
// - wasm size, raw and gzip (pkg/dist/wasm/rerankit_bg.wasm, as published);
// - cold start per runtime — Node, Deno, workerd (a real Worker, examples/worker), headless Chromium: instantiate
//   (importing the package entry compiles and instantiates the wasm) + model load (read or fetch, parse,
//   optimise) + the first rerank of 50 documents;
// - memory in the Worker reranking 50 documents: the wasm linear memory (it never shrinks, so after the rerank it
//   is the peak) and workerd's peak resident set (VmHWM: the whole runtime, an upper bound);
// - beside them, onnxruntime-web in Node on the same pairs: its wasm memory and the process's peak RSS
//   (`npm install --prefix bench --ignore-scripts` first).
//
// The 50 documents are BM25's top 50 for the first query of runs/bm25.trec (title + " " + abstract, as the
// fixtures score them). Models from RERANKIT_MODELS (npm run fixtures), ce-probe. Each runtime runs in a fresh
// process `--runs` times; the median is printed. Writes bench/out/runtimes.json. `--memory-budget` loads the model
// with that `memoryBudgetMiB` in Node, Chromium and workerd (the Worker's MEMORY_BUDGET_MIB; lifted to 4096 without it, as its
// default of 100 refuses an fp32 model).
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { createReadStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { homedir, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { launchChromium } from "../tests/common/chromium.mjs";
import { serveWorker } from "../tests/runtimes/workerd/served_worker.mjs";
import { fiftyDocuments } from "./fifty_documents.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const MODEL_FILE = arg("model-file", "model_int8.onnx");
const RUNS = Number(arg("runs", "1"));
const BUDGET = arg("memory-budget", undefined);
const budgetOption = BUDGET === undefined ? {} : { memoryBudgetMiB: Number(BUDGET) };
const models = process.env.RERANKIT_MODELS ?? path.join(homedir(), ".cache", "rerankit", "models");
const modelDir = path.join(models, "ce-probe");
const bin = (name) => path.join(root, "node_modules", ".bin", name);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const MiB = (b) => (b / 2 ** 20).toFixed(1);

// --- the 50 documents ---------------------------------------------------------------------------------------
const input = fiftyDocuments();
const work = mkdtempSync(path.join(tmpdir(), "rerankit-bench-runtimes-"));
const inputFile = path.join(work, "input.json");
writeFileSync(inputFile, JSON.stringify(input));

// --- a local server: models, the unbundled browser entry, the shared harness -------------------------------
const types = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".json": "application/json" };
const server = createServer((req, res) => {
  const rel = decodeURIComponent(new URL(req.url, "http://x").pathname);
  if (rel === "/") return res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>bench</title>");
  const file = rel.startsWith("/models/") ? path.join(models, rel.slice(8))
    : rel.startsWith("/pkg/dist/") || rel === "/tests/runtimes/scenario.mjs" ? path.join(root, rel) : null;
  if (!file || !existsSync(file) || !statSync(file).isFile()) return res.writeHead(404).end();
  res.writeHead(200, { "content-type": types[path.extname(file)] ?? "application/octet-stream", "content-length": statSync(file).size });
  createReadStream(file).pipe(res);
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const base = `http://127.0.0.1:${server.address().port}`;
const modelUrl = `${base}/models/ce-probe/${MODEL_FILE}`;
const tokenizerUrl = `${base}/models/ce-probe/tokenizer.json`;

function run(cmd, args, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("close", (code) => (code === 0 ? resolve(JSON.parse(out.trim().split("\n").pop())) : reject(new Error(`${cmd} exited ${code}\n${err.slice(-4000)}\n${out.slice(-2000)}`))));
  });
}

// --- Node ---------------------------------------------------------------------------------------------------
async function node() {
  const code = `
    import { readFileSync } from "node:fs";
    import { coldStart } from "./tests/runtimes/scenario.mjs";
    const { query, documents } = JSON.parse(readFileSync(${JSON.stringify(inputFile)}, "utf8"));
    const r = await coldStart(() => import("rerankit"), { model: ${JSON.stringify(path.join(modelDir, MODEL_FILE))}, tokenizer: ${JSON.stringify(path.join(modelDir, "tokenizer.json"))}, ...${JSON.stringify(budgetOption)} }, query, documents);
    console.log(JSON.stringify({ runtime: "node " + process.version, ...r, peakRssBytes: process.resourceUsage().maxRSS * 1024 }));`;
  return run(process.execPath, ["--input-type=module", "-e", code]);
}

// --- onnxruntime-web, the engine rerankit users would otherwise take (bench/package.json) ---------------------
// The same 50 pairs with rerankit's tokens (written to a file by a first process, so that the onnxruntime process
// holds no rerankit), one unpadded pair per run on one thread — how rerankit runs int8 rows, and onnxruntime's
// least memory. Its wasm memory is read from the WebAssembly.Memory its module imports or exports.
async function onnxruntimeWeb() {
  const tokensFile = path.join(work, "tokens.json");
  await run(process.execPath, ["--input-type=module", "-e", `
    import { readFileSync, writeFileSync } from "node:fs";
    const { CrossEncoder } = await import("rerankit");
    const { query, documents } = JSON.parse(readFileSync(${JSON.stringify(inputFile)}, "utf8"));
    const ce = await CrossEncoder.load({ model: ${JSON.stringify(path.join(modelDir, MODEL_FILE))}, tokenizer: ${JSON.stringify(path.join(modelDir, "tokenizer.json"))} });
    writeFileSync(${JSON.stringify(tokensFile)}, JSON.stringify(documents.map((d) => ce.encodePair(query, d))));
    console.log("{}");`]);
  const code = `
    import { readFileSync } from "node:fs";
    import { createRequire } from "node:module";
    const memories = new Set();
    const grab = (o) => Object.values(o ?? {}).forEach((v) => v instanceof WebAssembly.Memory ? memories.add(v) : v && typeof v === "object" && Object.values(v).forEach((w) => w instanceof WebAssembly.Memory && memories.add(w)));
    for (const name of ["instantiate", "instantiateStreaming"]) {
      const f = WebAssembly[name];
      WebAssembly[name] = async function (source, imports) {
        grab(imports);
        const r = await f.call(this, source, imports);
        grab((r.instance ?? r).exports);
        return r;
      };
    }
    const t0 = performance.now();
    const ort = await import(createRequire(${JSON.stringify(path.join(root, "bench", "package.json"))}).resolve("onnxruntime-web"));
    ort.env.wasm.numThreads = 1;
    ort.env.wasm.simd = true;
    const t1 = performance.now();
    const session = await ort.InferenceSession.create(${JSON.stringify(path.join(modelDir, MODEL_FILE))}, { executionProviders: ["wasm"] });
    const t2 = performance.now();
    const scores = [];
    for (const pair of JSON.parse(readFileSync(${JSON.stringify(tokensFile)}, "utf8"))) {
      const t = (xs) => new ort.Tensor("int64", BigInt64Array.from(xs, BigInt), [1, xs.length]);
      const out = await session.run({ input_ids: t(pair.inputIds), attention_mask: t(pair.inputIds.map(() => 1)), token_type_ids: t(pair.tokenTypeIds) });
      scores.push(Object.values(out)[0].data[0]);
    }
    const t3 = performance.now();
    const top3 = scores.map((s, i) => [s, i]).sort((a, b) => b[0] - a[0] || a[1] - b[1]).slice(0, 3).map(([, i]) => i);
    console.log(JSON.stringify({ runtime: "onnxruntime-web " + ort.env.versions.web, instantiateMs: t1 - t0, loadMs: t2 - t1, rerankMs: t3 - t2,
      wasmMemoryBytes: Math.max(...[...memories].map((m) => m.buffer.byteLength)), peakRssBytes: process.resourceUsage().maxRSS * 1024, top3 }));`;
  return run(process.execPath, ["--input-type=module", "-e", code]);
}

// --- Deno ---------------------------------------------------------------------------------------------------
async function deno() {
  const denoDir = mkdtempSync(path.join(work, "deno-"));
  return run(bin("deno"), ["run", "--allow-read", "--allow-env", "--no-remote", "--no-npm", "--config", "tests/runtimes/deno/deno.json",
    "tests/runtimes/deno/cold_start.ts", path.join(modelDir, MODEL_FILE), path.join(modelDir, "tokenizer.json"), inputFile],
    { DENO_DIR: denoDir, DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" });
}

// --- Chromium -----------------------------------------------------------------------------------------------
async function chromium() {
  const browser = await launchChromium();
  try {
    const page = await browser.context.newPage();
    await page.goto(`${base}/`);
    return await page.evaluate(async ({ input, modelUrl, tokenizerUrl, budgetOption }) => {
      const { coldStart } = await import("/tests/runtimes/scenario.mjs");
      const r = await coldStart(() => import("/pkg/dist/runtimes/browser.js"), { model: modelUrl, tokenizer: tokenizerUrl, ...budgetOption }, input.query, input.documents);
      return { runtime: navigator.userAgent.match(/Chrome\/[\d.]+/)?.[0] ?? "chromium", ...r };
    }, { input, modelUrl, tokenizerUrl, budgetOption });
  } finally {
    await browser.close();
  }
}

// --- workerd ------------------------------------------------------------------------------------------------
/** Resident-set peak (VmHWM) of the workerd process under `pid`. */
function workerdPeak(pid) {
  const kids = (p) => {
    try {
      return readFileSync(`/proc/${p}/task/${p}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
    } catch {
      return [];
    }
  };
  const queue = [pid];
  while (queue.length) {
    const p = queue.shift();
    let cmd = "";
    try {
      cmd = readFileSync(`/proc/${p}/cmdline`, "utf8");
    } catch {}
    if (cmd.includes("workerd") && cmd.includes("serve")) {
      const status = readFileSync(`/proc/${p}/status`, "utf8");
      return Number(status.match(/VmHWM:\s+(\d+) kB/)[1]) * 1024;
    }
    queue.push(...kids(p));
  }
  return null;
}

async function workerd() {
  const persist = mkdtempSync(path.join(work, "workerd-"));
  const t0 = performance.now();
  const worker = await serveWorker([modelUrl, tokenizerUrl], { RERANKIT_WORKERD_PERSIST: persist,
    // every document scored, as in the other runtimes (the example stops at 20 s of its own by default)
    RERANKIT_WORKER_DEADLINE_MS: "3600000", RERANKIT_WORKER_MEMORY_BUDGET_MIB: BUDGET ?? "4096" });
  const { url, child } = worker;
  try {
    const readyMs = performance.now() - t0;
    const rssReady = workerdPeak(child.pid);
    const stats0 = await (await fetch(`${url}/stats`)).json();
    const post = async () => {
      const t = performance.now();
      const r = await fetch(url, { method: "POST", body: JSON.stringify(input), headers: { "content-type": "application/json" } });
      const body = await r.json();
      if (!r.ok) throw new Error(`worker: ${JSON.stringify(body)}`);
      return { ms: performance.now() - t, body };
    };
    const first = await post();
    const second = await post();
    const stats = await (await fetch(`${url}/stats`)).json();
    return {
      runtime: `workerd (wrangler ${JSON.parse(readFileSync(path.join(root, "node_modules", "wrangler", "package.json"), "utf8")).version})`,
      // startWorker → ready: esbuild bundling + workerd start. workerd compiles and instantiates the Worker on its
      // first request, which loadMs holds (bench/workerd_startup.mjs measures that start apart).
      instantiateMs: readyMs,
      // First request: the Worker's start + fetch the model from 127.0.0.1 + load + rerank; the second request is
      // the rerank alone.
      loadMs: first.ms - second.ms,
      rerankMs: second.ms,
      wasmMemoryBytesIdle: stats0.wasm_memory_bytes,
      wasmMemoryBytes: stats.wasm_memory_bytes,
      peakRssBytesReady: rssReady,
      peakRssBytes: workerdPeak(child.pid),
      top3: first.body.results.slice(0, 3).map((r) => r.index),
    };
  } finally {
    await worker.stop();
  }
}

// --- run ----------------------------------------------------------------------------------------------------
const wasmFile = path.join(root, "pkg", "dist", "wasm", "rerankit_bg.wasm");
const wasmBytes = readFileSync(wasmFile);
const report = {
  model: `ce-probe/${MODEL_FILE}`,
  modelBytes: statSync(path.join(modelDir, MODEL_FILE)).size,
  documents: 50,
  query: input.query,
  wasm: { raw: wasmBytes.byteLength, gzip: gzipSync(wasmBytes, { level: 9 }).byteLength },
  runtimes: {},
};
console.log(`wasm ${MiB(report.wasm.raw)} MiB raw, ${MiB(report.wasm.gzip)} MiB gzip; model ${report.model} ${MiB(report.modelBytes)} MiB; ${RUNS} runs each, medians`);
try {
  const only = arg("only", "node,deno,workerd,chromium,onnxruntime-web").split(",");
  for (const [name, fn] of Object.entries({ node, deno, workerd, chromium, "onnxruntime-web": onnxruntimeWeb }).filter(([n]) => only.includes(n))) {
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await fn());
    const tops = new Set(runs.map((r) => r.top3.join(",")));
    if (tops.size !== 1) throw new Error(`${name}: different rankings across runs of the same runtime`);
    const m = (k) => (runs[0][k] === undefined || runs[0][k] === null ? null : median(runs.map((r) => r[k])));
    const row = { runtime: runs[0].runtime, instantiateMs: m("instantiateMs"), loadMs: m("loadMs"), rerankMs: m("rerankMs"),
      wasmMemoryBytes: m("wasmMemoryBytes"), peakRssBytes: m("peakRssBytes"), peakRssBytesReady: m("peakRssBytesReady"), top3: runs[0].top3, runs };
    report.runtimes[name] = row;
    console.log(`${name.padEnd(15)} ${row.runtime.padEnd(26)} instantiate ${row.instantiateMs.toFixed(0).padStart(6)} ms  load ${row.loadMs.toFixed(0).padStart(6)} ms` +
      `  rerank 50 ${row.rerankMs.toFixed(0).padStart(6)} ms  wasm memory ${MiB(row.wasmMemoryBytes)} MiB` +
      (row.peakRssBytes ? `  peak RSS ${MiB(row.peakRssBytes)} MiB` : "") + (row.peakRssBytesReady ? ` (${MiB(row.peakRssBytesReady)} MiB before the model)` : ""));
  }
  // The Worker reranks in batches of 1, the others in rerankit's default 16; int8 graphs run one unpadded row per
  // call either way, so every runtime should agree on the top 3 (a difference is printed).
  const tops = new Set(Object.values(report.runtimes).map((r) => r.top3.join(",")));
  if (tops.size !== 1) console.log(`note: top 3 per runtime: ${Object.entries(report.runtimes).map(([n, r]) => `${n} ${r.top3.join(",")}`).join("; ")}`);
  mkdirSync(path.join(root, "bench", "out"), { recursive: true });
  writeFileSync(path.join(root, "bench", "out", "runtimes.json"), JSON.stringify(report, null, 2) + "\n");
  console.log("written bench/out/runtimes.json");
} finally {
  server.close();
  rmSync(work, { recursive: true, force: true });
}
