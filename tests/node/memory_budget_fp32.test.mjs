// `memoryBudgetMiB` at issue #42's goal for fp32: ce-probe (86.7 MiB) within the model × 1.5 + 64 MiB. Its own file:
// the load must be the first in a fresh instance (an earlier model's holes and steps would move where it ends).
import { test } from "node:test";
import assert from "node:assert/strict";
import os from "node:os";
import path from "node:path";
import { CrossEncoder, wasmMemoryBytes } from "rerankit";
import { longDocuments } from "./small_cross_encoder.mjs";

const MiB = 2 ** 20;
test("memoryBudgetMiB: the fp32 ce-probe (86.7 MiB) in the issue's goal, model × 1.5 + 64 MiB = 194, loads and reranks 512-token windows within it", async () => {
  // the load's peak (the decoded graph beside the weights made from it) leaves ~184 MiB: this needs the memory to
  // grow by what the load asks for, not by an eighth of it (bindings/wasm/src/allocator.rs)
  const dir = path.join(process.env.RERANKIT_MODELS || path.join(os.homedir(), ".cache/rerankit/models"), "ce-probe");
  const budget = 194;
  const model = await CrossEncoder.load({ model: path.join(dir, "model.onnx"), tokenizer: path.join(dir, "tokenizer.json"), memoryBudgetMiB: budget });
  const out = await model.rerank("ranking query", longDocuments(4, 7), { topK: null, maxChunksPerDoc: 1 });
  assert.equal(out.length, 4);
  assert.ok(wasmMemoryBytes() <= budget * MiB, `wasm memory ${wasmMemoryBytes() / MiB} MiB > budget ${budget} MiB`);
  model.free();
});
