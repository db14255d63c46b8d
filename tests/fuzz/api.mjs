#!/usr/bin/env node
// Fuzzing the public API the way a careless or hostile caller would: every exported function and class method
// gets its valid arguments with one or two of them replaced by a generated hostile value (fast-check's
// `anything`, numbers past 2³², NaN, strings that tokenise to nothing, throwing Proxies and getters, cycles,
// 10k-deep nesting, `{length: 1e9}`, strings as options, unknown option keys…). Each call is classified:
//   ok · RerankitError(code) · own (the caller's own exception from its Proxy or getter, passed through) — fine;  trap (a wasm RuntimeError, or a restart of the instance) · another
//   exception type · hang (no answer within the bound) · failed health check (after an error the same object
//   and the package must still work) — failures.
// The campaign runs in a worker thread, so that a hang in a synchronous wasm call is seen (and the worker ended)
// by this thread's watchdog. Exits 1 on any failure, printing the first cases of each.
//
//   node tests/fuzz/api.mjs [--seed N] [--inputs N | --seconds N] [--only name,name] [--json FILE]
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";
import { fileURLToPath } from "node:url";
import { writeFileSync } from "node:fs";

const HANG_MS = 60_000; // orders of magnitude past any call on these inputs

if (isMainThread) {
  const arg = (name, fallback) => {
    const i = process.argv.indexOf(`--${name}`);
    return i < 0 ? fallback : process.argv[i + 1];
  };
  const options = {
    seed: Number(arg("seed", 1)),
    inputs: arg("seconds") ? Infinity : Number(arg("inputs", 200)),
    seconds: Number(arg("seconds", 0)) || Infinity,
    only: arg("only", "") ? arg("only").split(",") : null,
  };
  const report = await campaign(options);
  const json = arg("json");
  if (json) writeFileSync(json, JSON.stringify(report, null, 2));
  process.exit(report.failed ? 1 : 0);
} else {
  await runTargets(workerData);
}

/** Runs the targets in a worker, restarting past a hang, and prints the table. */
async function campaign(options) {
  const rows = new Map();
  const failures = [];
  let skip = new Set();
  for (;;) {
    const worker = new Worker(fileURLToPath(import.meta.url), { workerData: { ...options, skip: [...skip] }, resourceLimits: { maxOldGenerationSizeMb: 4096 } });
    let current = null;
    let lastStart = Date.now();
    const done = new Promise((resolve) => {
      worker.on("message", (m) => {
        if (m.type === "start") {
          current = m;
          lastStart = Date.now();
        } else if (m.type === "row") {
          rows.set(m.row.target, m.row);
          // progress on stderr as each target ends (a long campaign's finished targets are known if it is stopped)
          const { target, inputs, ok, errors, own, trap, other, hang, health, seconds } = m.row;
          process.stderr.write(`[fuzz] ${target}: ${inputs} inputs in ${seconds} s (ok ${ok}, RerankitError ${errors}, own ${own}, trap ${trap}, other ${other}, hang ${hang}, health ${health})\n`);
        }
        else if (m.type === "failure") failures.push(m.failure);
      });
      worker.on("error", (e) => {
        failures.push({ target: current?.target ?? "?", kind: "crash", detail: String(e?.stack ?? e), input: current?.input });
        resolve("crash");
      });
      worker.on("exit", () => resolve("exit"));
    });
    const watchdog = setInterval(() => {
      if (current && Date.now() - lastStart > HANG_MS) {
        failures.push({ target: current.target, kind: "hang", detail: `no answer in ${HANG_MS / 1000} s`, input: current.input });
        const row = rows.get(current.target) ?? { target: current.target, inputs: 0, ok: 0, errors: 0, own: 0, trap: 0, other: 0, hang: 0, health: 0 };
        row.hang += 1;
        rows.set(current.target, row);
        current = null; // counted once; the worker is ended and the campaign goes on without this target
        worker.terminate();
      }
    }, 1000);
    const how = await done;
    clearInterval(watchdog);
    if (how === "exit" && !failures.some((f) => f.kind === "hang" && !skip.has(f.target))) break;
    // after a hang or a crash, go on with the remaining targets
    for (const f of failures) if (f.kind === "hang" || f.kind === "crash") skip.add(f.target);
    for (const row of rows.values()) skip.add(row.target);
  }
  const list = [...rows.values()];
  console.log(`\n[fuzz] the public API, seed ${options.seed}: outcomes per target`);
  const cols = ["inputs", "ok", "errors", "own", "trap", "other", "hang", "health"];
  const widths = [7, 6, 13, 5, 5, 6, 5, 7];
  const line = (name, r) => `  ${name.padEnd(40)}${cols.map((c, i) => String(r[c]).padStart(widths[i])).join("")}`;
  console.log(line("target", { inputs: "inputs", ok: "ok", errors: "RerankitError", own: "own", trap: "trap", other: "other", hang: "hang", health: "health" }));
  for (const r of list) console.log(line(r.target, r));
  console.log(line("all", Object.fromEntries(cols.map((c) => [c, list.reduce((s, r) => s + r[c], 0)]))));
  const shown = new Map();
  for (const f of failures) {
    const key = `${f.target}/${f.kind}`;
    shown.set(key, (shown.get(key) ?? 0) + 1);
    if (shown.get(key) <= 3) console.log(`\n[fuzz] ${f.kind} in ${f.target}: ${f.detail}\n  input: ${f.input}`);
  }
  return { seed: options.seed, rows: list, failures, failed: failures.length > 0 };
}

async function runTargets({ seed, inputs, seconds, only, skip }) {
  const fc = (await import("fast-check")).default;
  const R = await import("rerankit");
  const { targets, healthy } = await import("./targets.mjs").then((m) => m.load(R));
  const { hostileArgs, describe, HostileError } = await import("./hostile.mjs");
  const chosen = targets.filter((t) => (!only || only.includes(t.name)) && !skip.includes(t.name));
  for (const t of chosen) {
    const row = { target: t.name, inputs: 0, ok: 0, errors: 0, own: 0, trap: 0, other: 0, hang: 0, health: 0 };
    const started = Date.now();
    const generator = hostileArgs(fc, t.args());
    // one stream per target, from the campaign's seed and the target's name
    const streamSeed = [...t.name].reduce((h, c) => (Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0), seed >>> 0);
    let batch = [];
    let n = 0;
    const fail = (kind, detail, input) => parentPort.postMessage({ type: "failure", failure: { target: t.name, kind, detail, input } });
    while (row.inputs < inputs && Date.now() - started < seconds * 1000) {
      if (n >= batch.length) {
        batch = fc.sample(generator, { seed: streamSeed + row.inputs, numRuns: 100 });
        n = 0;
      }
      const args = batch[n++];
      const input = describe(args);
      parentPort.postMessage({ type: "start", target: t.name, input });
      // a fatal V8 error (heap or table size) ends the whole process before any message gets out: this file
      // names the input that did it
      if (process.env.RERANKIT_FUZZ_TRACE) writeFileSync(process.env.RERANKIT_FUZZ_TRACE, `${t.name}\t${row.inputs}\t${input}\n`);
      const restarts = R.wasmRestarts();
      let outcome;
      try {
        await t.call(...args);
        outcome = "ok";
      } catch (e) {
        if (e instanceof WebAssembly.RuntimeError || R.wasmRestarts() !== restarts) outcome = ["trap", String(e?.message ?? e)];
        else if (e instanceof R.RerankitError && e.code !== "INTERNAL") outcome = "error";
        else if (e instanceof HostileError) outcome = "own"; // the caller's own exception, passed through
        else outcome = ["other", `${e?.constructor?.name ?? typeof e}: ${String(e?.message ?? e).slice(0, 300)}`];
      }
      if (outcome === "ok" && R.wasmRestarts() !== restarts) outcome = ["trap", "the instance restarted during a call that returned"];
      row.inputs += 1;
      if (outcome === "ok") row.ok += 1;
      else if (outcome === "error") row.errors += 1;
      else if (outcome === "own") row.own += 1;
      else {
        row[outcome[0]] += 1;
        fail(outcome[0], outcome[1], input);
      }
      if (outcome !== "ok") {
        const problem = await healthy(t);
        if (problem) {
          row.health += 1;
          fail("health", problem, input);
          await t.reset?.();
        }
      }
    }
    row.seconds = Math.round((Date.now() - started) / 1000);
    parentPort.postMessage({ type: "row", row });
  }
  await (await import("./targets.mjs")).dispose?.();
}
