#!/usr/bin/env node
// What rerankit adds to a Worker's start-up in workerd: `node bench/workerd_startup.mjs [--rounds 5]`
//
// examples/worker (which imports the package's workerd entry: the relaxed-SIMD model module, compiled and
// instantiated when the Worker starts) against a Worker that imports nothing (tests/runtimes/workerd/empty_entry.js),
// both served the same way (tests/runtimes/workerd/serve.mjs: wrangler's bundling and its workerd binary, no
// inspector). Each round starts each Worker in a fresh process — the order alternating — and times wrangler's
// "ready" → the first answer to `GET /stats` (a route that loads no model): workerd loads a Worker on its first
// request. The difference of the medians is rerankit's share: compiling and instantiating its wasm module, and its
// top-level code (bundling happens before "ready", and is not counted). Workers' own
// start-up limit (1 s) counts the Worker's top-level code; a Worker cannot time itself (its clock stands still
// while it runs), hence the measurement from outside.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { serveWorker } from "../tests/runtimes/workerd/served_worker.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const i = process.argv.indexOf("--rounds");
const ROUNDS = i > 0 ? Number(process.argv[i + 1]) : 5;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function startOnce(empty) {
  const t0 = performance.now();
  // the model URLs are never fetched: GET /stats loads nothing
  const worker = await serveWorker(["http://127.0.0.1:9/model.onnx", "http://127.0.0.1:9/tokenizer.json"], empty ? { RERANKIT_WORKER_EMPTY: "1" } : {});
  try {
    const readyMs = performance.now() - t0;
    const response = await fetch(`${worker.url}/stats`);
    const stats = await response.json();
    if (!response.ok) throw new Error(`GET /stats: ${JSON.stringify(stats)}`);
    return { readyMs, answerMs: performance.now() - t0, simd: stats.simd };
  } finally {
    await worker.stop();
  }
}

const runs = { empty: [], rerankit: [] };
for (let round = 0; round < ROUNDS; round++) {
  for (const empty of round % 2 === 0 ? [true, false] : [false, true]) runs[empty ? "empty" : "rerankit"].push(await startOnce(empty));
}
const wrangler = JSON.parse(readFileSync(path.join(root, "node_modules", "wrangler", "package.json"), "utf8")).version;
console.log(`workerd start-up (wrangler ${wrangler}), ${ROUNDS} rounds alternating, spawn → first answer of GET /stats, medians:`);
// workerd loads a Worker on its first request: ready → first answer holds the Worker's start, and leaves out
// workerd's own start, whose noise (seconds on a loaded machine) would swamp a difference of totals
const afterReady = (r) => r.map((x) => x.answerMs - x.readyMs);
for (const [name, r] of Object.entries(runs)) {
  console.log(`  ${name.padEnd(9)} ready → first answer ${median(afterReady(r)).toFixed(0)} ms (rounds ${afterReady(r).map((x) => x.toFixed(0)).join(", ")}); spawn → first answer ${median(r.map((x) => x.answerMs)).toFixed(0)} ms${r[0].simd ? `; module ${r[0].simd}` : ""}`);
}
console.log(`  rerankit's share (ready → first answer): ${(median(afterReady(runs.rerankit)) - median(afterReady(runs.empty))).toFixed(0)} ms`);
