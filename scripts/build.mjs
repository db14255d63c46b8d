#!/usr/bin/env node
// Builds the npm package: Rust (bindings/wasm, the cdylib over the core crate) → wasm32 (release, +simd128) →
// wasm-bindgen (--target web) → wasm-opt (native Binaryen: -O3's passes without inlining and remove-unused-brs, scripts/wasm_opt.py) → TypeScript (pkg/**/*.ts →
// pkg/dist). The wasm modules: the whole crate for `rerankit` (pkg/wasm → pkg/dist/wasm), twice — SIMD128
// (`rerankit_bg.wasm`) and with the `relaxed-simd` feature (`rerankit_relaxed_bg.wasm`, the f32 kernel's fused
// multiply-add; pkg/runtimes/wasm_simd.ts picks one at load) over one wasm-bindgen glue, which this script checks the two
// builds share —, the Workers module: relaxed SIMD without tract and wgpu, whose CPU plan is the BERT engine (pkg/wasm_workers →
// pkg/dist/workers/wasm, with its own glue and the package compiled again by pkg/tsconfig.workers.json into
// pkg/dist/workers, the workerd entry's tree) — and the crate without the models, twice, for the two
// halves of the evaluation API (bindings/wasm/Cargo.toml): `rerankit/eval` (feature `eval`: pkg/wasm_eval →
// pkg/dist/eval/wasm, with pkg/eval.ts compiled by pkg/tsconfig.eval.json into pkg/dist/eval) and
// `rerankit/pipeline-eval` (feature `pipeline-eval`: pkg/wasm_pipeline_eval → pkg/dist/pipeline_eval/wasm,
// pkg/pipeline_eval.ts by pkg/tsconfig.pipeline_eval.json). `--dev` skips wasm-opt; `--ts-only` recompiles only the
// TypeScript against the wasm already in pkg/wasm* (for changes that touch no Rust). Prints each module's size and
// the time.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import path from "node:path";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dev = process.argv.includes("--dev") || process.env.RERANKIT_BUILD === "dev";
const tsOnly = process.argv.includes("--ts-only");
const started = performance.now();
const steps = [];

// js-sys's async executor (futures/queue.rs) polls every future from one queueMicrotask callback. A trap there (a
// Rust panic) would be an uncaught exception: the caller's promise would never settle, and Node would exit. The
// callback is wrapped so that pkg/runtimes/wasm_instance.ts hears of it (it restarts the instance and rejects pending calls).
function guardTaskQueue(glue, { required }) {
  const text = readFileSync(glue, "utf8");
  const call = /(__wbg_queueMicrotask_[0-9a-f]+: function\(arg0\) \{\n\s*)queueMicrotask\(arg0\);/g;
  const found = text.match(call)?.length ?? 0;
  if (found === 0 && !required) return;
  if (found !== 1) throw new Error(`${glue}: expected one queueMicrotask(arg0) import to guard, found ${found} (has wasm-bindgen's glue changed?)`);
  writeFileSync(glue, text.replace(call, "$1queueMicrotask(() => { try { arg0(); } catch (e) { taskTrap(e); } });") + `
let taskTrap = (e) => { throw e; };
/** pkg/runtimes/wasm_instance.ts: where an exception escaping an async task (a future polled from the microtask queue) goes. */
export function __onTaskTrap(handler) { taskTrap = handler; }
`);
}

function step(name, fn) {
  const t0 = performance.now();
  fn();
  const s = (performance.now() - t0) / 1000;
  steps.push([name, s]);
  console.log(`[build] ${name}: ${s.toFixed(1)} s`);
}

function run(cmd, args, opts = {}) {
  execFileSync(cmd, args, { cwd: root, stdio: "inherit", ...opts });
}

const targetDir = process.env.CARGO_TARGET_DIR ? path.resolve(root, process.env.CARGO_TARGET_DIR) : path.join(root, "target");
// The wasm builds get a target dir of their own: cargo holds a target dir's lock while it builds and while it runs
// tests, so a wasm build sharing it with `npm test`'s native track would wait for every native suite to end.
const wasmTargetDir = path.join(targetDir, "wasm-build");
const wasmEnv = { env: { ...process.env, CARGO_TARGET_DIR: wasmTargetDir } };
// the bindings crate (bindings/wasm) is the cdylib; the core crate is plain Rust
const rawWasm = path.join(wasmTargetDir, "wasm32-unknown-unknown", "release", "rerankit_wasm.wasm");
const rawEvalWasm = path.join(wasmTargetDir, "wasm32-unknown-unknown", "eval-wasm", "rerankit_wasm.wasm");
const wasmOut = path.join(root, "pkg", "wasm");
const dist = path.join(root, "pkg", "dist");

const bgWasm = path.join(wasmOut, "rerankit_bg.wasm");
const relaxedBgWasm = path.join(wasmOut, "rerankit_relaxed_bg.wasm");
const workersWasmOut = path.join(root, "pkg", "wasm_workers");
const workersBgWasm = path.join(workersWasmOut, "rerankit_bg.wasm");
const workersDist = path.join(dist, "workers");
const evalWasmOut = path.join(root, "pkg", "wasm_eval");
const evalBgWasm = path.join(evalWasmOut, "rerankit_bg.wasm");
const evalDist = path.join(dist, "eval");
const pipelineEvalWasmOut = path.join(root, "pkg", "wasm_pipeline_eval");
const pipelineEvalBgWasm = path.join(pipelineEvalWasmOut, "rerankit_bg.wasm");
const pipelineEvalDist = path.join(dist, "pipeline_eval");
const previousReport = path.join(dist, "build-report.json");
if (tsOnly) {
  if (![bgWasm, relaxedBgWasm, workersBgWasm, evalBgWasm, pipelineEvalBgWasm].every(existsSync)) throw new Error("--ts-only needs the wasm builds in pkg/wasm, pkg/wasm_workers, pkg/wasm_eval and pkg/wasm_pipeline_eval: run `node scripts/build.mjs --dev` once");
} else {
  step("cargo build (wasm32, release, +simd128)", () =>
    run("cargo", ["build", "-p", "rerankit-wasm", "--lib", "--target", "wasm32-unknown-unknown", "--release"], wasmEnv));

  step("wasm-bindgen", () => {
    rmSync(wasmOut, { recursive: true, force: true });
    run("wasm-bindgen", ["--target", "web", "--experimental-reset-state-function", "--out-dir", wasmOut, "--out-name", "rerankit", rawWasm]);
  });
  // The same crate with the `relaxed-simd` feature: only rerankit and its bindings recompile (every dependency is
  // shared with the build above). Its cdylib lands on the same path, so the SIMD128 one is bound first.
  step("cargo build (wasm32, release, +simd128, feature relaxed-simd)", () =>
    run("cargo", ["build", "-p", "rerankit-wasm", "--lib", "--target", "wasm32-unknown-unknown", "--release", "--features", "relaxed-simd"], wasmEnv));
  step("wasm-bindgen (relaxed SIMD)", () => {
    const relaxedOut = path.join(wasmTargetDir, "relaxed-simd-bindgen");
    rmSync(relaxedOut, { recursive: true, force: true });
    run("wasm-bindgen", ["--target", "web", "--experimental-reset-state-function", "--out-dir", relaxedOut, "--out-name", "rerankit", rawWasm]);
    // One glue serves both modules only if they import and export the same things: wasm-bindgen's output may
    // differ only in comments (closure shim indices).
    const code = (file) => readFileSync(file, "utf8").split("\n").filter((l) => !/^\s*\/\//.test(l)).join("\n");
    for (const file of ["rerankit.js", "rerankit.d.ts", "rerankit_bg.wasm.d.ts"]) {
      if (code(path.join(relaxedOut, file)) !== code(path.join(wasmOut, file))) {
        throw new Error(`the relaxed-SIMD build's ${file} differs from the SIMD128 build's (beyond comments): the package's one glue cannot load both modules`);
      }
    }
    cpSync(path.join(relaxedOut, "rerankit_bg.wasm"), relaxedBgWasm);
    guardTaskQueue(path.join(wasmOut, "rerankit.js"), { required: true });
  });
  // Cloudflare Workers: relaxed SIMD (workerd has it), neither tract nor wgpu (docs/runtimes.md): the free plan's
  // 3 MB. Its exports match the others', but without wgpu its imports differ, hence a glue of its own.
  step("cargo build (wasm32, release, +simd128, Workers: feature relaxed-simd, no tract or webgpu)", () =>
    run("cargo", ["build", "-p", "rerankit-wasm", "--lib", "--target", "wasm32-unknown-unknown", "--release", "--no-default-features", "--features", "relaxed-simd,eval,pipeline-eval"], wasmEnv));
  step("wasm-bindgen (Workers)", () => {
    rmSync(workersWasmOut, { recursive: true, force: true });
    run("wasm-bindgen", ["--target", "web", "--experimental-reset-state-function", "--out-dir", workersWasmOut, "--out-name", "rerankit", rawWasm]);
    guardTaskQueue(path.join(workersWasmOut, "rerankit.js"), { required: false });
  });
  // The evaluation modules are built for size (Cargo.toml's eval-wasm profile: opt-level "s", one codegen unit, fat
  // LTO). Both land on one path, so each is bound before the next is built.
  for (const [feature, out] of [["eval", evalWasmOut], ["pipeline-eval", pipelineEvalWasmOut]]) {
    step(`cargo build (wasm32, eval-wasm profile, +simd128, feature ${feature} alone)`, () =>
      run("cargo", ["build", "-p", "rerankit-wasm", "--lib", "--target", "wasm32-unknown-unknown", "--profile", "eval-wasm", "--no-default-features", "--features", feature], wasmEnv));
    step(`wasm-bindgen (${feature})`, () => {
      rmSync(out, { recursive: true, force: true });
      run("wasm-bindgen", ["--target", "web", "--experimental-reset-state-function", "--out-dir", out, "--out-name", "rerankit", rawEvalWasm]);
      guardTaskQueue(path.join(out, "rerankit.js"), { required: false });
    });
  }
}

const keptReport = tsOnly && existsSync(previousReport) ? readFileSync(previousReport, "utf8") : null;
if (tsOnly) {
  console.log("[build] cargo, wasm-bindgen and wasm-opt skipped (--ts-only)");
} else if (dev) {
  console.log("[build] wasm-opt skipped (--dev)");
} else {
  // native Binaryen (scripts/setup.sh installs it); npm's binaryen is compiled to JS and takes over 10 minutes
  const python = path.join(process.env.HOME ?? "", ".cache", "rerankit", "binaryen", "bin", "python");
  if (!existsSync(python)) throw new Error(`no native Binaryen at ${python}: run \`bash scripts/setup.sh rust\``);
  for (const [name, file, features] of [["", bgWasm, []], [" (relaxed SIMD)", relaxedBgWasm, ["--relaxed-simd"]], [" (Workers)", workersBgWasm, ["--relaxed-simd"]], [" (eval)", evalBgWasm, []], [" (pipeline-eval)", pipelineEvalBgWasm, []]]) {
    step(`wasm-opt${name}`, () => run(python, [path.join(root, "scripts", "wasm_opt.py"), file, file, ...features]));
  }
}

step("tsc (pkg/**/*.ts → pkg/dist)", () => {
  rmSync(dist, { recursive: true, force: true });
  run(path.join(root, "node_modules", ".bin", "tsc"), ["-p", path.join(root, "pkg", "tsconfig.json")]);
  cpSync(wasmOut, path.join(dist, "wasm"), { recursive: true });
  const cli = path.join(dist, "cli", "main.js");
  if (existsSync(cli)) execFileSync("chmod", ["+x", cli]);
});

step("tsc (the workerd entry's tree → pkg/dist/workers)", () => {
  run(path.join(root, "node_modules", ".bin", "tsc"), ["-p", path.join(root, "pkg", "tsconfig.workers.json")]);
  cpSync(workersWasmOut, path.join(workersDist, "wasm"), { recursive: true });
});

for (const [entry, tsconfig, wasmDir, out] of [
  ["rerankit/eval", "tsconfig.eval.json", evalWasmOut, evalDist],
  ["rerankit/pipeline-eval", "tsconfig.pipeline_eval.json", pipelineEvalWasmOut, pipelineEvalDist],
]) {
  step(`tsc (${entry} → pkg/dist/${path.basename(out)})`, () => {
    run(path.join(root, "node_modules", ".bin", "tsc"), ["-p", path.join(root, "pkg", tsconfig)]);
    cpSync(wasmDir, path.join(out, "wasm"), { recursive: true });
    // the point of the evaluation entries: nothing of the models may be reachable from them
    if (existsSync(path.join(out, "models"))) throw new Error(`pkg/dist/${path.basename(out)} imports model code (pkg/models/): ${entry} must not`);
  });
}

// Every tree's JavaScript is type-checked against the whole module's glue (pkg/wasm), so tsc cannot see a call
// into a function that a smaller module (Workers, eval, pipeline-eval) lacks: it would be `undefined` at run time.
// So the calls (`wasm.name`; `wasm.name?.()` is one that expects it may be absent) of every file an entry of a smaller tree reaches are checked against that tree's glue.
for (const [tree, tsconfig] of [[workersDist, "tsconfig.workers.json"], [evalDist, "tsconfig.eval.json"], [pipelineEvalDist, "tsconfig.pipeline_eval.json"]]) {
  const glue = readFileSync(path.join(tree, "wasm", "rerankit.js"), "utf8");
  const exported = new Set([...glue.matchAll(/^export (?:async )?(?:function|class|const|let) ([\w$]+)/gm)].map((m) => m[1]));
  for (const m of glue.matchAll(/^export \{([^}]*)\}/gm)) for (const name of m[1].split(",")) exported.add(name.trim().split(/\s+as\s+/).pop());
  const entries = JSON.parse(readFileSync(path.join(root, "pkg", tsconfig), "utf8")).include.map((f) => path.join(tree, f.replace(/\.ts$/, ".js")));
  const reached = new Set(entries);
  for (const file of reached) {
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(/(?:from|import)\s*\(?\s*"(\.[^"]+\.js)"/g)) {
      const target = path.resolve(path.dirname(file), m[1]);
      if (!target.startsWith(path.join(tree, "wasm") + path.sep)) reached.add(target);
    }
    if (!/import \* as wasm from "[^"]*\/wasm\/rerankit\.js"/.test(text)) continue;
    const missing = [...new Set([...text.matchAll(/(?<![.#\w$])wasm\.([\w$]+)(?![\w$]|\?\.)/g)].map((m) => m[1]))].filter((n) => !exported.has(n));
    if (missing.length) throw new Error(`${path.relative(root, file)} calls ${missing.join(", ")}, which its wasm module (${path.relative(root, tree)}/wasm) does not export`);
  }
}

const bytes = readFileSync(bgWasm);
const gz = gzipSync(bytes, { level: 9 }).length;
const relaxedBytes = readFileSync(relaxedBgWasm);
const relaxedGz = gzipSync(relaxedBytes, { level: 9 }).length;
const workersBytes = readFileSync(workersBgWasm);
const workersGz = gzipSync(workersBytes, { level: 9 }).length;
const evalBytes = readFileSync(evalBgWasm);
const evalGz = gzipSync(evalBytes, { level: 9 }).length;
const pipelineEvalBytes = readFileSync(pipelineEvalBgWasm);
const pipelineEvalGz = gzipSync(pipelineEvalBytes, { level: 9 }).length;
const total = (performance.now() - started) / 1000;
const report = {
  wasm_bytes: bytes.length,
  wasm_gzip_bytes: gz,
  relaxed_wasm_bytes: relaxedBytes.length,
  relaxed_wasm_gzip_bytes: relaxedGz,
  workers_wasm_bytes: workersBytes.length,
  workers_wasm_gzip_bytes: workersGz,
  eval_wasm_bytes: evalBytes.length,
  eval_wasm_gzip_bytes: evalGz,
  pipeline_eval_wasm_bytes: pipelineEvalBytes.length,
  pipeline_eval_wasm_gzip_bytes: pipelineEvalGz,
  optimized: !dev,
  seconds: Number(total.toFixed(1)),
  steps: Object.fromEntries(steps.map(([n, s]) => [n, Number(s.toFixed(1))])),
};
mkdirSync(dist, { recursive: true });
// A TypeScript-only rebuild keeps the report of the build that made the wasm.
writeFileSync(previousReport, keptReport ?? JSON.stringify(report, null, 2) + "\n");
const mib = (n) => (n / 1048576).toFixed(2) + " MiB";
const state = dev ? " (not optimised)" : "";
console.log(`[build] wasm (rerankit): ${mib(bytes.length)} raw, ${mib(gz)} gzip${state}; relaxed SIMD ${mib(relaxedBytes.length)} raw, ${mib(relaxedGz)} gzip`);
console.log(`[build] wasm (rerankit, Workers): ${mib(workersBytes.length)} raw, ${mib(workersGz)} gzip${state}`);
console.log(`[build] wasm (rerankit/eval): ${mib(evalBytes.length)} raw, ${mib(evalGz)} gzip${state}`);
console.log(`[build] wasm (rerankit/pipeline-eval): ${mib(pipelineEvalBytes.length)} raw, ${mib(pipelineEvalGz)} gzip${state}; total ${total.toFixed(1)} s`);
