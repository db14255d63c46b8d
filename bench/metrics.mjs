#!/usr/bin/env node
// Retrieval-metrics throughput: a synthetic collection (default 10,000 queries × 1,000 retrieved documents,
// graded qrels with 50 judged documents per query), 8 measures (map, ndcg_cut_10, P_10, recall_100, recip_rank,
// ndcg, bpref, success_10), timed in one run for:
//   rerankit-native  the Rust crate, release build (src/bin/rerankit-eval.rs --timings)
//   rerankit-wasm    the npm package in Node (import "rerankit"; build it first with `npm run build`)
//   pytrec_eval      pytrec-eval-terrier (trec_eval's C code behind Python)
//   ranx             ranx (numba; compiled on a warm-up call first)
// each from in-memory objects ({qid: {docno: value}}: evaluation only) and end to end from the TREC files
// (read + parse + evaluate). Prints the times, the ratios and whether the goals hold (wasm ≥ 10× pytrec_eval
// and ≥ 3× ranx end to end; native ≥ 20× pytrec_eval), and checks the four agree on the means.
//
//   node bench/metrics.mjs [--queries N] [--docs N] [--skip native,wasm,python]
//
// The Python baselines live in a venv beside the models cache (~/.cache/rerankit/venv-bench), created here
// with pip on first use. Expect the full size to take long: ranx's in-memory path converts the dicts to numba
// typed dicts (about 100 s per million entries on the 2-core development machine), and the wasm figures include
// V8's tier-up of the module on the first call (best of 3 is reported). `--queries 1000` gives a quick run.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import path from "node:path";
import os from "node:os";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);

// The in-memory objects of 10M entries need more than Node's default heap: re-run with a larger one.
const v8 = await import("node:v8");
if (v8.getHeapStatistics().heap_size_limit < 8 * 2 ** 30 && !process.env.RERANKIT_BENCH_CHILD) {
  const r = spawnSync(process.execPath, ["--max-old-space-size=12288", fileURLToPath(import.meta.url), ...args], {
    stdio: "inherit", env: { ...process.env, RERANKIT_BENCH_CHILD: "1" },
  });
  process.exit(r.status ?? 1);
}
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const nQueries = Number(opt("--queries", "10000"));
const nDocs = Number(opt("--docs", "1000"));
const skip = new Set(String(opt("--skip", "")).split(",").filter(Boolean));
const MEASURES = ["map", "ndcg_cut_10", "P_10", "recall_100", "recip_rank", "ndcg", "bpref", "success_10"];
const RANX_NAMES = { map: "map", ndcg_cut_10: "ndcg@10", P_10: "precision@10", recall_100: "recall@100", recip_rank: "mrr", ndcg: "ndcg", bpref: "bpref", success_10: "hit_rate@10" };

// ------------------------------------------------------------------------------------------------ data

/** Mulberry32: a small seeded generator, so that every run benchmarks the same files. */
function rng(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function makeData(dir) {
  const qrelsPath = path.join(dir, "qrels.txt");
  const runPath = path.join(dir, "run.txt");
  if (existsSync(qrelsPath) && existsSync(runPath)) return { qrelsPath, runPath };
  mkdirSync(dir, { recursive: true });
  const random = rng(13);
  const qrels = [];
  const run = [];
  for (let q = 0; q < nQueries; q++) {
    const qid = `q${q}`;
    const docs = new Set();
    while (docs.size < nDocs + 20) docs.add(`d${Math.floor(random() * 5_000_000)}`);
    const list = [...docs];
    // 30 judged among the retrieved (more of them near the top), 20 judged but not retrieved; grades 0–3.
    const judged = new Set();
    while (judged.size < Math.min(30, nDocs)) judged.add(Math.floor(random() ** 2 * nDocs));
    for (const i of judged) qrels.push(`${qid} 0 ${list[i]} ${Math.floor(random() * 4)}\n`);
    for (let i = nDocs; i < nDocs + 20; i++) qrels.push(`${qid} 0 ${list[i]} ${1 + Math.floor(random() * 3)}\n`);
    const scores = list.slice(0, nDocs).map((_, i) => 100 - i * (100 / nDocs) + random() * 5);
    for (let i = 0; i < nDocs; i++) run.push(`${qid} Q0 ${list[i]} ${i + 1} ${scores[i].toFixed(6)} bench\n`);
    if (run.length > 1_000_000) {
      writeFileSync(runPath, run.join(""), { flag: "a" });
      run.length = 0;
    }
  }
  writeFileSync(runPath, run.join(""), { flag: "a" });
  writeFileSync(qrelsPath, qrels.join(""));
  return { qrelsPath, runPath };
}

function nested(text, value) {
  const out = {};
  for (const line of text.split("\n")) {
    if (!line) continue;
    const f = line.split(/\s+/);
    const v = value(f);
    (out[f[0]] ??= {})[f[2]] = v;
  }
  return out;
}

// ----------------------------------------------------------------------------------------------- engines

function native(data) {
  const target = path.join(root, "target", "metrics");
  execFileSync("cargo", ["build", "--release", "--no-default-features", "--bin", "rerankit-eval"], {
    cwd: root, stdio: "inherit", env: { ...process.env, CARGO_TARGET_DIR: target },
  });
  const bin = path.join(target, "release", "rerankit-eval");
  const measureArgs = MEASURES.flatMap((m) => ["-m", m]);
  const best = { end_to_end_ms: Infinity, in_memory_ms: Infinity };
  let report = "";
  for (let i = 0; i < 3; i++) {
    const r = spawnSync(bin, ["--timings", ...measureArgs, data.qrelsPath, data.runPath], { encoding: "utf8", maxBuffer: 1 << 26 });
    if (r.status !== 0) throw new Error(`rerankit-eval failed: ${r.stderr}`);
    const t = JSON.parse(r.stderr.trim().split("\n").pop());
    best.end_to_end_ms = Math.min(best.end_to_end_ms, t.end_to_end_ms);
    best.in_memory_ms = Math.min(best.in_memory_ms, t.in_memory_ms);
    report = r.stdout;
  }
  const means = {};
  for (const line of report.split("\n")) {
    const [name, qid, value] = line.split("\t");
    if (qid === "all") means[name.trim()] = Number(value);
  }
  return { end_to_end_s: best.end_to_end_ms / 1000, in_memory_s: best.in_memory_ms / 1000, means, note: "best of 3; means to 4 decimals" };
}

async function wasm(data) {
  // The built package's Node entry (bench/ is its own package, so "rerankit" does not resolve from here).
  const { evaluate } = await import(pathToFileURL(path.join(root, "pkg", "dist", "node.js")).href);
  const qrelsText = readFileSync(data.qrelsPath, "utf8");
  const runText = readFileSync(data.runPath, "utf8");
  const qrels = nested(qrelsText, (f) => Number(f[3]));
  const run = nested(runText, (f) => Number(f[4]));
  let inMemory = Infinity;
  let endToEnd = Infinity;
  let result;
  for (let i = 0; i < 3; i++) {
    let t = performance.now();
    result = evaluate(qrels, run, MEASURES);
    inMemory = Math.min(inMemory, performance.now() - t);
    t = performance.now();
    const e = evaluate(readFileSync(data.qrelsPath), readFileSync(data.runPath), MEASURES);
    endToEnd = Math.min(endToEnd, performance.now() - t);
    for (const m of MEASURES) if (Math.abs(e.aggregate[m] - result.aggregate[m]) > 1e-12) throw new Error(`wasm text/object mismatch on ${m}`);
  }
  return { end_to_end_s: endToEnd / 1000, in_memory_s: inMemory / 1000, means: result.aggregate, note: "best of 3" };
}

function python(data) {
  const venv = process.env.RERANKIT_BENCH_VENV || path.join(os.homedir(), ".cache", "rerankit", "venv-bench");
  const py = path.join(venv, "bin", "python");
  if (!existsSync(py)) {
    console.log(`[bench] creating ${venv} (pytrec-eval-terrier, ranx)`);
    execFileSync("python3", ["-m", "venv", venv], { stdio: "inherit" });
    execFileSync(py, ["-m", "pip", "install", "--quiet", "pytrec-eval-terrier==0.5.11", "ranx==0.3.21"], { stdio: "inherit" });
  }
  const out = execFileSync(py, [path.join(root, "bench", "metrics_python.py"), data.qrelsPath, data.runPath], { encoding: "utf8", maxBuffer: 1 << 26 });
  return JSON.parse(out.trim().split("\n").pop());
}

// ------------------------------------------------------------------------------------------------ main

const dir = path.join(root, "bench", "out", `metrics-${nQueries}x${nDocs}`);
console.log(`[bench] data: ${nQueries} queries × ${nDocs} documents (${dir})`);
const data = makeData(dir);
const results = {};
if (!skip.has("native")) results["rerankit-native"] = native(data);
if (!skip.has("wasm")) results["rerankit-wasm"] = await wasm(data);
if (!skip.has("python")) {
  const py = python(data);
  results.pytrec_eval = py.pytrec_eval;
  results.ranx = {
    ...py.ranx,
    means: Object.fromEntries(MEASURES.map((m) => [m, py.ranx.means[RANX_NAMES[m]]])),
  };
  console.log(`[bench] versions: ${JSON.stringify(py.versions)}`);
  results.pytrec_eval.means = Object.fromEntries(MEASURES.map((m) => [m, py.pytrec_eval.means[m]]));
}

console.log(`\n${"engine".padEnd(18)}${"in memory (s)".padStart(15)}${"end to end (s)".padStart(16)}`);
for (const [name, r] of Object.entries(results)) {
  console.log(`${name.padEnd(18)}${r.in_memory_s.toFixed(3).padStart(15)}${r.end_to_end_s.toFixed(3).padStart(16)}`);
}
const ratio = (a, b, key) => (results[a] && results[b] ? results[b][key] / results[a][key] : NaN);
console.log("\nspeed-ups (how many times faster):");
for (const [a, b, goal] of [
  ["rerankit-wasm", "pytrec_eval", 10], ["rerankit-wasm", "ranx", 3], ["rerankit-native", "pytrec_eval", 20], ["rerankit-native", "ranx", null],
]) {
  const e2e = ratio(a, b, "end_to_end_s");
  const mem = ratio(a, b, "in_memory_s");
  const verdict = goal === null || Number.isNaN(e2e) ? "" : e2e >= goal ? `  goal ≥ ${goal}× end to end: met` : `  goal ≥ ${goal}× end to end: NOT met`;
  console.log(`  ${a} vs ${b}: end to end ${e2e.toFixed(1)}×, in memory ${mem.toFixed(1)}×${verdict}`);
}
console.log("\nmeans (rerankit vs pytrec_eval vs ranx; ranx breaks ties its own way):");
for (const m of MEASURES) {
  const row = Object.entries(results).map(([n, r]) => `${n}=${r.means?.[m]?.toFixed?.(6) ?? "?"}`).join("  ");
  console.log(`  ${m.padEnd(12)} ${row}`);
}
writeFileSync(path.join(dir, "results.json"), JSON.stringify(results, null, 2));
