// The API fuzzer (tests/fuzz/api.mjs) with a fixed seed and a small budget: every exported function and method
// gets hostile arguments; any wasm trap, exception of another type than RerankitError, hang or failed health
// check fails the test. `npm run fuzz -- --seconds N` runs it longer (and the parser fuzzers too).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import path from "node:path";

const script = path.join(path.dirname(fileURLToPath(import.meta.url)), "../fuzz/api.mjs");

test("hostile arguments to every export: only RerankitErrors, no trap, hang or broken object", () => {
  const inputs = process.env.RERANKIT_FUZZ_INPUTS ?? "60";
  const run = spawnSync(process.execPath, [script, "--seed", "1", "--inputs", inputs], { encoding: "utf8", maxBuffer: 64 << 20 });
  console.log(run.stdout.split("\n").filter((l) => l.startsWith("  ") || l.startsWith("[fuzz]")).slice(0, 80).join("\n"));
  assert.equal(run.status, 0, `the fuzzer found failures:\n${run.stdout.slice(-6000)}\n${run.stderr.slice(-3000)}`);
});

test("evaluate from TREC text and from objects agree on random valid collections", () => {
  const differential = path.join(path.dirname(script), "differential.mjs");
  const run = spawnSync(process.execPath, [differential, "--seed", "1", "--inputs", process.env.RERANKIT_FUZZ_INPUTS ?? "300"], { encoding: "utf8" });
  console.log(run.stdout.trim());
  assert.equal(run.status, 0, `${run.stdout.slice(-4000)}\n${run.stderr.slice(-2000)}`);
});

test("the `rerankit eval` CLI prints what trec_eval computes on random valid collections", () => {
  const differential = path.join(path.dirname(script), "trec_eval_differential.mjs");
  const run = spawnSync(process.execPath, [differential, "--seed", "1", "--inputs", process.env.RERANKIT_FUZZ_INPUTS ?? "300"], { encoding: "utf8" });
  console.log(run.stdout.trim());
  assert.equal(run.status, 0, `${run.stdout.slice(-4000)}\n${run.stderr.slice(-4000)}`);
});
