#!/usr/bin/env node
// Retrieval-metrics throughput: a synthetic collection (default 10,000 queries × 1,000 retrieved documents,
// graded qrels with 50 judged documents per query), 8 measures (map, ndcg_cut_10, P_10, recall_100, recip_rank,
// ndcg, bpref, success_10), timed in one run for:
//   rerankit-native  the Rust crate, release build (src/bin/rerankit-eval.rs; `--timings` splits its time)
//   trec_eval        trec_eval's own C program, 9.0.8 (the code pytrec_eval wraps), built here with -O3
//   rerankit-wasm    the npm package in Node (import "rerankit"; build it first with `npm run build`)
//   pytrec_eval      pytrec-eval-terrier (trec_eval's C code behind Python)
//   ranx             ranx (numba; compiled on a warm-up call first)
// each from in-memory objects ({qid: {docno: value}}: evaluation only; rerankit also from columns, its
// ColumnarQrels / ColumnarRun, as the row rerankit-wasm-cols, and from columns naming one DocIdTable built before,
// as the row rerankit-wasm-table) and end to end from the TREC files
// (read + parse + evaluate; for the two command-line programs, the whole process). Prints the times, where
// rerankit's end-to-end time goes, the ratios against the goals (wasm ≥ 10× pytrec_eval and ≥ 3× ranx end to
// end; native within 1.5× of trec_eval's time), and checks that the engines agree on the means (exit 1 if not).
//
//   node bench/metrics.mjs [--queries N] [--docs N] [--skip native,trec_eval,wasm,wasm-memory,wasm-columnar,wasm-table,python]
//
// trec_eval is fetched once (a pinned tarball, checked by sha256) and built with `make` into
// ~/.cache/rerankit/trec_eval (RERANKIT_TREC_EVAL_DIR); where its host is unreachable, the error says where to
// put a copy. The Python baselines live in a venv (RERANKIT_BENCH_VENV, else ~/.cache/rerankit/venv-bench,
// created here with pip on first use). Expect the full size to take long: ranx's in-memory path converts the
// dicts to numba typed dicts (about 30 s per million entries on the 2-core development machine), and the wasm
// figures include V8's tier-up of the module on the first call (best of 3 is reported). `--queries 1000` gives a
// quick run.
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
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

/**
 * `{qid: {docno: value}}` from TREC text, walking the lines in place: splitting the whole text first keeps 10M
 * line strings alive while the objects grow, and at 10,000 × 1,000 V8 then spends minutes in full collections.
 */
function nested(text, valueField) {
  const out = {};
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    if (end > start) {
      const f = text.slice(start, end).split(/\s+/);
      (out[f[0]] ??= {})[f[2]] = Number(f[valueField]);
    }
    start = end + 1;
  }
  return out;
}

/**
 * Query-major columns (rerankit's ColumnarQrels / ColumnarRun) from TREC text: query ids, row offsets, each
 * document id once in a table with a Uint32Array of per-row indices, and the values as `ValueArray` — what a caller
 * holding its data in arrays hands over. Walks the lines in place, as `nested` does. `shared`: a table
 * `{docIds, index}` to add the ids to (several inputs indexing one table), else one of their own.
 */
function columnarFromText(text, valueField, valueKey, ValueArray, shared = { docIds: [], index: new Map() }) {
  let lines = 0;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) lines++;
  if (text.length > 0 && !text.endsWith("\n")) lines++;
  const queryIds = [];
  const offsets = [];
  const { docIds, index: table } = shared;
  const docs = new Uint32Array(lines);
  const values = new ValueArray(lines);
  let row = 0;
  let start = 0;
  let previous;
  while (start < text.length) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    if (end > start) {
      const f = text.slice(start, end).split(/\s+/);
      if (f[0] !== previous) {
        queryIds.push(f[0]);
        offsets.push(row);
        previous = f[0];
      }
      let d = table.get(f[2]);
      if (d === undefined) {
        d = docIds.push(f[2]) - 1;
        table.set(f[2], d);
      }
      docs[row] = d;
      values[row++] = Number(f[valueField]);
    }
    start = end + 1;
  }
  offsets.push(row);
  return { queryIds, offsets: Uint32Array.from(offsets), docIds, docs: docs.subarray(0, row), [valueKey]: values.subarray(0, row) };
}

// ----------------------------------------------------------------------------------------------- engines

function native(data) {
  const target = path.join(root, "target", "metrics");
  execFileSync("cargo", ["build", "--release", "--no-default-features", "--bin", "rerankit-eval"], {
    cwd: root, stdio: "inherit", env: { ...process.env, CARGO_TARGET_DIR: target },
  });
  const bin = path.join(target, "release", "rerankit-eval");
  const measureArgs = MEASURES.flatMap((m) => ["-m", m]);
  // End to end as trec_eval's row is timed: the whole process, so that the two compare like for like.
  const { seconds, stdout } = timeProcess(bin, [...measureArgs, data.qrelsPath, data.runPath]);
  // `--timings` splits the time (read, parse, evaluate) and adds the in-memory path; best of 3 of each.
  const split = {};
  for (let i = 0; i < 3; i++) {
    const r = spawnSync(bin, ["--timings", ...measureArgs, data.qrelsPath, data.runPath], { encoding: "utf8", maxBuffer: 1 << 26 });
    if (r.status !== 0) throw new Error(`rerankit-eval failed: ${r.stderr}`);
    const t = JSON.parse(r.stderr.trim().split("\n").pop());
    for (const key of ["read_ms", "parse_ms", "evaluate_ms", "end_to_end_ms", "in_memory_ms"]) split[key] = Math.min(split[key] ?? Infinity, t[key]);
  }
  return { end_to_end_s: seconds, in_memory_s: split.in_memory_ms / 1000, means: trecEvalMeans(stdout), split, note: "process wall time, best of 3; means to 4 decimals" };
}

async function wasm(data) {
  // The built package's Node entry (bench/ is its own package, so "rerankit" does not resolve from here).
  const { evaluate, parseQrels, parseRun, docIdTable } = await import(pathToFileURL(path.join(root, "pkg", "dist", "runtimes", "node.js")).href);
  // Each row is timed with only its own inputs alive: V8 marks every live object in a full collection, so the
  // 10M-entry objects of the nested row would slow every other row's collections (evaluate builds the per-query
  // result objects) by hundreds of milliseconds.
  // The first call is timed apart too: it grows the module's memory (and V8 tiers the code up), which a caller
  // evaluating once pays; later calls reuse the memory.
  let endToEnd = Infinity;
  let firstEndToEnd;
  let result;
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    result = evaluate(readFileSync(data.qrelsPath), readFileSync(data.runPath), MEASURES);
    endToEnd = Math.min(endToEnd, performance.now() - t);
    firstEndToEnd ??= performance.now() - t;
  }
  // Where the end-to-end time goes: the same steps one at a time (the parse steps include copying the bytes into
  // the module's memory; evaluate includes shaping the result into JS objects). Best of 3 of each.
  const split = {};
  for (let i = 0; i < 3; i++) {
    const step = (key, f) => {
      const t = performance.now();
      const value = f();
      split[key] = Math.min(split[key] ?? Infinity, performance.now() - t);
      return value;
    };
    const [qrelsBytes, runBytes] = step("read_ms", () => [readFileSync(data.qrelsPath), readFileSync(data.runPath)]);
    const parsedQrels = step("parse_qrels_ms", () => parseQrels(qrelsBytes));
    const parsedRun = step("parse_run_ms", () => parseRun(runBytes));
    step("evaluate_ms", () => evaluate(parsedQrels, parsedRun, MEASURES));
    parsedQrels.free();
    parsedRun.free();
  }
  // Columns are built from the files before the clock starts, as the objects are: evaluate(columns) then copies
  // the typed arrays and the joined ids into wasm, builds the qrels and run, and evaluates.
  let inMemoryColumnar = NaN;
  let firstColumnar = NaN;
  if (!skip.has("wasm-columnar")) {
    const qrels = columnarFromText(readFileSync(data.qrelsPath, "utf8"), 3, "grades", Int32Array);
    const run = columnarFromText(readFileSync(data.runPath, "utf8"), 4, "scores", Float64Array);
    inMemoryColumnar = Infinity;
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      const c = evaluate(qrels, run, MEASURES);
      inMemoryColumnar = Math.min(inMemoryColumnar, performance.now() - t);
      if (i === 0) firstColumnar = performance.now() - t;
      for (const m of MEASURES) if (!Object.is(result.aggregate[m], c.aggregate[m])) throw new Error(`wasm text/columns mismatch on ${m}`);
    }
  }
  // The same columns naming one DocIdTable of both inputs' ids, built before the clock as the columns are (its
  // build is timed apart, once): evaluate then copies only the typed arrays and the query ids, and judges by index.
  let inMemoryTable = NaN;
  let firstTable = NaN;
  let tableBuild = NaN;
  if (!skip.has("wasm-table") && typeof docIdTable === "function") {
    const shared = { docIds: [], index: new Map() };
    const qrels = columnarFromText(readFileSync(data.qrelsPath, "utf8"), 3, "grades", Int32Array, shared);
    const run = columnarFromText(readFileSync(data.runPath, "utf8"), 4, "scores", Float64Array, shared);
    shared.index.clear();
    let t = performance.now();
    const table = docIdTable(shared.docIds);
    tableBuild = performance.now() - t;
    qrels.docIds = table;
    run.docIds = table;
    shared.docIds.length = 0;
    inMemoryTable = Infinity;
    for (let i = 0; i < 3; i++) {
      t = performance.now();
      const c = evaluate(qrels, run, MEASURES);
      inMemoryTable = Math.min(inMemoryTable, performance.now() - t);
      if (i === 0) firstTable = performance.now() - t;
      for (const m of MEASURES) if (!Object.is(result.aggregate[m], c.aggregate[m])) throw new Error(`wasm text/table mismatch on ${m}`);
    }
    table.free();
  }
  // `--skip wasm-memory` leaves out the object path: at 10,000 × 1,000 building the 10M-entry objects keeps V8 in
  // full collections for many minutes before rerankit is even called.
  let inMemory = NaN;
  if (!skip.has("wasm-memory")) {
    const qrels = nested(readFileSync(data.qrelsPath, "utf8"), 3);
    const run = nested(readFileSync(data.runPath, "utf8"), 4);
    inMemory = Infinity;
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      const o = evaluate(qrels, run, MEASURES);
      inMemory = Math.min(inMemory, performance.now() - t);
      for (const m of MEASURES) if (Math.abs(result.aggregate[m] - o.aggregate[m]) > 1e-12) throw new Error(`wasm text/object mismatch on ${m}`);
    }
  }
  const first = { end_to_end_s: firstEndToEnd / 1000, in_memory_columnar_s: firstColumnar / 1000, in_memory_table_s: firstTable / 1000 };
  return { end_to_end_s: endToEnd / 1000, in_memory_s: inMemory / 1000, in_memory_columnar_s: inMemoryColumnar / 1000, in_memory_table_s: inMemoryTable / 1000, table_build_s: tableBuild / 1000, first, means: result.aggregate, split, note: "best of 3" };
}

// trec_eval's own C program, pinned to the release pytrec-eval-terrier compiles in (its setup.py fetches this same
// tarball; no package registry carries the C sources). Built once into the cache with the Makefile's own -O3 line
// (the Makefile's default CFLAGS has no optimisation; pytrec_eval compiles the same files with -O3).
const TREC_EVAL = {
  version: "9.0.8",
  url: "https://github.com/usnistgov/trec_eval/archive/v9.0.8.tar.gz",
  sha256: "c3994a73103ec842e12df693749584a45814c35c36dcc15f38984bd463566ba1",
  cflags: "-g -I. -O3 -Wall -DVERSIONID=\\\"9.0.8\\\"",
};

async function trecEvalBinary() {
  const cache = process.env.RERANKIT_TREC_EVAL_DIR || path.join(os.homedir(), ".cache", "rerankit", "trec_eval");
  const srcDir = path.join(cache, `trec_eval-${TREC_EVAL.version}`);
  const bin = path.join(srcDir, "trec_eval");
  if (existsSync(bin)) return bin;
  mkdirSync(cache, { recursive: true });
  const tarball = path.join(cache, `trec_eval-v${TREC_EVAL.version}.tar.gz`);
  if (!existsSync(tarball)) {
    console.log(`[bench] fetching ${TREC_EVAL.url}`);
    try {
      const response = await fetch(TREC_EVAL.url);
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      writeFileSync(tarball, Buffer.from(await response.arrayBuffer()));
    } catch (e) {
      // Where that host is unreachable, any copy with the same bytes will do: GitHub's archive is
      // `git archive --format=tar --prefix=trec_eval-9.0.8/ v9.0.8 | gzip -n` of the tag, so a clone can make it.
      throw new Error(`cannot fetch ${TREC_EVAL.url} (${e.message}): put that tarball (sha256 ${TREC_EVAL.sha256}) at ${tarball}, or --skip trec_eval`);
    }
  }
  const sha256 = createHash("sha256").update(readFileSync(tarball)).digest("hex");
  if (sha256 !== TREC_EVAL.sha256) throw new Error(`${tarball}: sha256 ${sha256}, expected ${TREC_EVAL.sha256}`);
  execFileSync("tar", ["xzf", tarball, "-C", cache], { stdio: "inherit" });
  console.log(`[bench] building trec_eval ${TREC_EVAL.version} in ${srcDir}`);
  execFileSync("make", [`CFLAGS=${TREC_EVAL.cflags}`], { cwd: srcDir, stdio: ["ignore", "ignore", "inherit"] });
  return bin;
}

/** Seconds of wall time for the whole process (start, read, parse, evaluate, print), best of 3, and its stdout. */
function timeProcess(bin, argv) {
  let best = Infinity;
  let stdout = "";
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    const r = spawnSync(bin, argv, { encoding: "utf8", maxBuffer: 1 << 26 });
    const s = (performance.now() - t) / 1000;
    if (r.status !== 0) throw new Error(`${path.basename(bin)} failed: ${r.stderr}`);
    best = Math.min(best, s);
    stdout = r.stdout;
  }
  return { seconds: best, stdout };
}

/** The `all` lines of trec_eval's report (rerankit-eval prints the same), as {measure: mean}. */
function trecEvalMeans(report) {
  const means = {};
  for (const line of report.split("\n")) {
    const [name, qid, value] = line.split("\t");
    if (qid === "all") means[name.trim()] = Number(value);
  }
  return means;
}

async function trecEval(data) {
  const bin = await trecEvalBinary();
  // trec_eval names parameterised measures "ndcg_cut.10" on the command line and "ndcg_cut_10" in its report.
  const measureArgs = MEASURES.flatMap((m) => ["-m", m.replace(/_(\d+)$/, ".$1")]);
  const { seconds, stdout } = timeProcess(bin, [...measureArgs, data.qrelsPath, data.runPath]);
  return { end_to_end_s: seconds, in_memory_s: NaN, means: trecEvalMeans(stdout), note: `trec_eval ${TREC_EVAL.version} (-O3), process wall time, best of 3; means to 4 decimals` };
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
console.log(`[bench] data: ${nQueries} queries × ${nDocs} documents (${dir}); load average ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`);
const data = makeData(dir);
const results = {};
// Each row is printed as it comes, so that a run stopped part-way still says what it measured.
const done = (name) => console.log(`[bench] ${name}: ${JSON.stringify(results[name])}`);
if (!skip.has("native")) {
  results["rerankit-native"] = native(data);
  done("rerankit-native");
}
if (!skip.has("trec_eval")) {
  results.trec_eval = await trecEval(data);
  done("trec_eval");
}
if (!skip.has("python")) {
  const py = python(data);
  results.pytrec_eval = py.pytrec_eval;
  results.ranx = {
    ...py.ranx,
    means: Object.fromEntries(MEASURES.map((m) => [m, py.ranx.means[RANX_NAMES[m]]])),
  };
  console.log(`[bench] versions: ${JSON.stringify(py.versions)}`);
  results.pytrec_eval.means = Object.fromEntries(MEASURES.map((m) => [m, py.pytrec_eval.means[m]]));
  done("pytrec_eval");
  done("ranx");
}
if (!skip.has("wasm")) {
  const w = await wasm(data);
  const { in_memory_columnar_s, in_memory_table_s, table_build_s, ...row } = w;
  results["rerankit-wasm"] = row;
  done("rerankit-wasm");
  if (!skip.has("wasm-columnar")) {
    // the in-memory time from columns (ColumnarQrels / ColumnarRun): a row of its own, beside the objects' row
    results["rerankit-wasm-cols"] = { in_memory_s: in_memory_columnar_s, end_to_end_s: NaN, means: w.means, note: "evaluate(columns), best of 3; means equal the text path's bit for bit" };
    done("rerankit-wasm-cols");
  }
  if (Number.isFinite(in_memory_table_s)) {
    // from columns naming one DocIdTable (built once before the clock; its build time is shown in the row)
    results["rerankit-wasm-table"] = { in_memory_s: in_memory_table_s, end_to_end_s: NaN, table_build_s, means: w.means, note: "evaluate(columns on a DocIdTable), best of 3; the table built once before, table_build_s; means equal the text path's bit for bit" };
    done("rerankit-wasm-table");
  }
}
const seconds = (s) => (Number.isFinite(s) ? s.toFixed(3) : "—");

console.log(`\n${"engine".padEnd(18)}${"in memory (s)".padStart(15)}${"end to end (s)".padStart(16)}`);
for (const [name, r] of Object.entries(results)) {
  console.log(`${name.padEnd(18)}${seconds(r.in_memory_s).padStart(15)}${seconds(r.end_to_end_s).padStart(16)}`);
}
for (const name of ["rerankit-native", "rerankit-wasm"]) {
  if (results[name]) console.log(`${name} end to end, split (ms, best of 3 each): ${JSON.stringify(results[name].split, (_, v) => (typeof v === "number" ? Math.round(v) : v))}`);
}
if (results["rerankit-wasm"]?.first) {
  const { end_to_end_s, in_memory_columnar_s, in_memory_table_s } = results["rerankit-wasm"].first;
  console.log(`rerankit-wasm first calls (s; the memory grows then): end to end ${seconds(end_to_end_s)}, from columns ${seconds(in_memory_columnar_s)}, from columns on a DocIdTable ${seconds(in_memory_table_s)}`);
}
const ratio = (a, b, key) => (results[a] && results[b] ? results[b][key] / results[a][key] : NaN);
console.log("\nspeed-ups (how many times faster):");
for (const [a, b, goal] of [
  ["rerankit-wasm", "pytrec_eval", 10], ["rerankit-wasm", "ranx", 3], ["rerankit-native", "trec_eval", 1 / 1.5],
  ["rerankit-native", "pytrec_eval", null], ["rerankit-native", "ranx", null],
]) {
  const e2e = ratio(a, b, "end_to_end_s");
  const mem = ratio(a, b, "in_memory_s");
  const goalText = goal === null ? "" : goal >= 1 ? `≥ ${goal}×` : `no more than ${(1 / goal).toFixed(1)}× the time`;
  const verdict = goal === null || Number.isNaN(e2e) ? "" : `  goal ${goalText} end to end: ${e2e >= goal ? "met" : "NOT met"}`;
  console.log(`  ${a} vs ${b}: end to end ${e2e.toFixed(2)}×, in memory ${mem.toFixed(1)}×${verdict}`);
}
for (const [row, what] of [["rerankit-wasm-cols", "from columns"], ["rerankit-wasm-table", "from columns on a DocIdTable"]]) {
  if (!results[row]) continue;
  for (const [b, goal] of [["pytrec_eval", 5], ["ranx", null]]) {
    const mem = ratio(row, b, "in_memory_s");
    if (Number.isNaN(mem)) continue;
    console.log(`  rerankit-wasm ${what} vs ${b}: in memory ${mem.toFixed(2)}×${goal === null ? "" : `  goal ≥ ${goal}× in memory: ${mem >= goal ? "met" : "NOT met"}`}`);
  }
}

// Agreement on the means, against pytrec_eval's full-precision means: trec_eval and rerankit-eval print 4 decimals,
// the wasm package returns full doubles; ranx breaks score ties its own way, so it is shown, not checked.
const reference = results.pytrec_eval ?? results["rerankit-wasm"];
// wasm is held to 1e-6, not to its usual 1e-9: pytrec_eval is trec_eval 9.0.8, which stores scores as 32-bit floats
// (trec_eval 10.0 and rerankit keep doubles), so two scores closer than a float's precision tie there and not in
// rerankit; at 10,000 synthetic queries that moves a few means by ~2e-8 (docs/parity.md §7).
const tolerance = { "rerankit-native": 5e-5 + 1e-12, trec_eval: 5e-5 + 1e-12, "rerankit-wasm": 1e-6 };
let disagreements = 0;
const referenceName = results.pytrec_eval ? "pytrec_eval" : reference ? "rerankit-wasm" : "nothing: run pytrec_eval or wasm to check";
console.log(`\nmeans (max |difference| from ${referenceName}; tolerance: 4 printed decimals, 1e-6 for wasm; ranx not checked):`);
for (const m of MEASURES) {
  const row = Object.entries(results).map(([n, r]) => `${n}=${r.means?.[m]?.toFixed?.(6) ?? "?"}`).join("  ");
  console.log(`  ${m.padEnd(12)} ${row}`);
}
for (const [name, r] of Object.entries(results)) {
  if (!reference || r === reference) continue;
  const diff = Math.max(...MEASURES.map((m) => Math.abs((r.means?.[m] ?? NaN) - reference.means[m])));
  const ok = !(name in tolerance) || diff <= tolerance[name];
  if (!ok) disagreements++;
  r.max_mean_difference = diff;
  console.log(`  ${name.padEnd(16)} ${diff.toExponential(2)}${name in tolerance ? (ok ? "  agrees" : "  DISAGREES") : ""}`);
}
writeFileSync(path.join(dir, "results.json"), JSON.stringify({ queries: nQueries, docs: nDocs, load: os.loadavg(), results }, null, 2));
if (disagreements) process.exit(1);
