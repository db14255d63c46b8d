// The last line of defence (pkg/runtimes/wasm_instance.ts): a Rust panic in wasm is a trap (`RuntimeError: unreachable`) that
// leaves the instance corrupt. Every known panic path is prevented before tract runs (tests/node/hub_models.test.mjs
// provokes them: RoBERTa past its window, onnxruntime's fused Attention; below, a pair with no tokens); this test
// provokes the two deliberate panics left, `__panicForTest` in a plain call and `__panicInTaskForTest` inside an
// async task, and checks the guard: RerankitError INTERNAL, a fresh instance, models made before released
// (INTERNAL when used, free() quiet), pending calls rejected, and a new model working.
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CrossEncoder, RerankitError, wasmRestarts, evaluate } from "rerankit";
import { readFileSync } from "node:fs";
import { __panicForTest, __panicInTaskForTest } from "../../pkg/dist/wasm/rerankit.js";
import { guarded } from "../../pkg/dist/runtimes/wasm_instance.js";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../fixtures/hub/rerankit-test/tiny-bert-reranker");
const files = { model: path.join(repo, "onnx/model.onnx"), tokenizer: path.join(repo, "tokenizer.json"), config: path.join(repo, "config.json") };

test("a trap becomes INTERNAL, the instance restarts, old models are released and new ones work", async () => {
  const old = await CrossEncoder.load(files);
  const before = Array.from(await old.score([["q", "a document"]]));
  const restarts = wasmRestarts();
  assert.throws(() => guarded("test", () => __panicForTest()), (e) => e instanceof RerankitError && e.code === "INTERNAL" && /restarted/.test(e.message));
  assert.equal(wasmRestarts(), restarts + 1);
  await assert.rejects(async () => old.score([["q", "a document"]]), (e) => e instanceof RerankitError && e.code === "INTERNAL" && /released/.test(e.message));
  old.free();
  const fresh = await CrossEncoder.load(files);
  assert.deepEqual(Array.from(await fresh.score([["q", "a document"]])), before);
  fresh.free();
  // the rest of the package works on the fresh instance (errors still RerankitError)
  const ev = evaluate("q1 0 d1 1\n", "q1 Q0 d1 1 1.0 r\n", ["map"]);
  assert.ok(ev);
  assert.throws(() => evaluate("q1 0 d1 1\n", "garbage", ["map"]), (e) => e instanceof RerankitError);
});

test("a trap inside an async task (polled from the microtask queue) rejects every pending call with INTERNAL", async () => {
  const model = await CrossEncoder.load(files);
  const restarts = wasmRestarts();
  // a model call queued behind the trap: its future dies with the instance, so it must be rejected, not hang
  const trapped = guarded("test", () => __panicInTaskForTest());
  const queued = model.score([["q", "a document"]]);
  await assert.rejects(trapped, (e) => e instanceof RerankitError && e.code === "INTERNAL" && /^test: internal error/.test(e.message));
  await assert.rejects(queued, (e) => e instanceof RerankitError && e.code === "INTERNAL");
  assert.equal(wasmRestarts(), restarts + 1);
  model.free();
  const fresh = await CrossEncoder.load(files);
  assert.equal((await fresh.score([["q", "a document"]])).length, 1);
  fresh.free();
});

test("a pair that encodes to no tokens is INVALID_ARGUMENT, not a trap (a tokenizer without its post-processor)", async () => {
  const tokenizer = JSON.parse(readFileSync(files.tokenizer, "utf8"));
  const model = await CrossEncoder.load({ ...files, tokenizer: new TextEncoder().encode(JSON.stringify({ ...tokenizer, post_processor: null })) });
  const restarts = wasmRestarts();
  await assert.rejects(model.score([["q", "a document"], ["\u200b", "\u200b"]]), (e) => e instanceof RerankitError && e.code === "INVALID_ARGUMENT" && /^pairs\[1\]: .*no tokens/.test(e.message));
  await assert.rejects(model.rerank("\u200b", ["\ufeff"]), (e) => e instanceof RerankitError && e.code === "INVALID_ARGUMENT" && /documents\[0\]/.test(e.message));
  assert.equal(wasmRestarts(), restarts);
  assert.equal((await model.score([["q", "a document"]])).length, 1);
  model.free();
});
