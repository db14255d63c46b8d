#!/usr/bin/env node
// Start-up of each wasm module, as a Cloudflare Worker pays it (its limit for script start-up is 1 s) and any
// runtime pays it at import: `node bench/startup.mjs [--runs 7]`.
//
// For `rerankit` (pkg/dist/wasm), `rerankit/eval` (pkg/dist/eval/wasm) and `rerankit/pipeline-eval`
// (pkg/dist/pipeline_eval/wasm), each in a fresh Node process (V8, the
// engine of workerd and Chromium): the module's size (raw, gzip), `WebAssembly.compile` of its bytes (Workers
// compile at deploy, browsers and Node at load), instantiating the compiled module through the package's glue
// (`initSync({module})`, what the workerd entry does), and the whole import of the package's Node entry (read +
// compile + instantiate + the TypeScript wrapper). Medians over `--runs` processes; writes bench/out/startup.json.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const i = process.argv.indexOf("--runs");
const RUNS = i > 0 ? Number(process.argv[i + 1]) : 7;
const MODULES = [
  { name: "rerankit", dir: "pkg/dist", entry: "pkg/dist/runtimes/node.js" },
  { name: "rerankit/eval", dir: "pkg/dist/eval", entry: "pkg/dist/eval/runtimes/eval_node.js" },
  { name: "rerankit/pipeline-eval", dir: "pkg/dist/pipeline_eval", entry: "pkg/dist/pipeline_eval/runtimes/pipeline_eval_node.js" },
];

function once(mod) {
  const glue = path.join(root, mod.dir, "wasm", "rerankit.js");
  const wasm = path.join(root, mod.dir, "wasm", "rerankit_bg.wasm");
  const script = `
    import { readFileSync } from "node:fs";
    import { pathToFileURL } from "node:url";
    const bytes = readFileSync(${JSON.stringify(wasm)});
    let t = performance.now();
    const module = await WebAssembly.compile(bytes);
    const compileMs = performance.now() - t;
    const glue = await import(pathToFileURL(${JSON.stringify(glue)}).href);
    t = performance.now();
    glue.initSync({ module });
    const instantiateMs = performance.now() - t;
    console.log(JSON.stringify({ compileMs, instantiateMs }));`;
  const low = JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" }).trim());
  const importScript = `
    import { pathToFileURL } from "node:url";
    const t = performance.now();
    await import(pathToFileURL(${JSON.stringify(path.join(root, mod.entry))}).href);
    console.log(JSON.stringify({ importMs: performance.now() - t }));`;
  const high = JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", importScript], { encoding: "utf8" }).trim());
  return { ...low, ...high };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const results = [];
for (const mod of MODULES) {
  const bytes = readFileSync(path.join(root, mod.dir, "wasm", "rerankit_bg.wasm"));
  const runs = Array.from({ length: RUNS }, () => once(mod));
  const r = {
    module: mod.name,
    rawBytes: bytes.length,
    gzipBytes: gzipSync(bytes, { level: 9 }).length,
    compileMs: median(runs.map((x) => x.compileMs)),
    instantiateMs: median(runs.map((x) => x.instantiateMs)),
    importMs: median(runs.map((x) => x.importMs)),
  };
  results.push(r);
}
const report = JSON.parse(readFileSync(path.join(root, "pkg", "dist", "build-report.json"), "utf8"));
const mib = (n) => (n / 1048576).toFixed(2);
console.log(`start-up, median of ${RUNS} fresh processes (node ${process.version}; wasm ${report.optimized ? "optimised by wasm-opt" : "NOT optimised (a --dev build)"})`);
console.log("| module | wasm raw MiB | gzip MiB | WebAssembly.compile ms | instantiate ms | import of the entry ms |");
console.log("|---|---|---|---|---|---|");
for (const r of results) {
  console.log(`| ${r.module} | ${mib(r.rawBytes)} | ${mib(r.gzipBytes)} | ${r.compileMs.toFixed(1)} | ${r.instantiateMs.toFixed(1)} | ${r.importMs.toFixed(1)} |`);
}
const [whole, ...evaluation] = results;
for (const ev of evaluation) {
  console.log(`${ev.module} vs rerankit: ${(whole.gzipBytes / ev.gzipBytes).toFixed(1)}× less to download (gzip), ` +
    `${(whole.compileMs / ev.compileMs).toFixed(1)}× faster compile, ${(whole.importMs / ev.importMs).toFixed(1)}× faster import`);
}
mkdirSync(path.join(root, "bench", "out"), { recursive: true });
writeFileSync(path.join(root, "bench", "out", "startup.json"), JSON.stringify({ node: process.version, optimized: report.optimized, runs: RUNS, results }, null, 2) + "\n");
