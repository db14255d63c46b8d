// What the memoryBudgetMiB suites (memory_budget, memory_budget_pool .test.mjs) share: small-ce-1, a random-weight
// BERT (96 hidden, 384 intermediate, 512 positions, 12 MiB) from `npm run fixtures`, and documents that fill its
// 512-token window.
import os from "node:os";
import path from "node:path";
import { existsSync } from "node:fs";

const dir = path.join(process.env.RERANKIT_MODELS || path.join(os.homedir(), ".cache/rerankit/models"), "small-ce-1");
if (!existsSync(path.join(dir, "model.onnx"))) throw new Error(`test model ${dir}/model.onnx is missing: run \`npm run fixtures\``);

/** small-ce-1's files, as `CrossEncoder.load` options. */
export const SMALL_CE = { model: path.join(dir, "model.onnx"), tokenizer: path.join(dir, "tokenizer.json"), config: path.join(dir, "config.json") };

const words = "retrieval ranking passage query document evidence model score batch token window chunk".split(" ");

/** `count` documents of 600 words (past the 512-token window), each its own sequence: `step` spaces the words. */
export function longDocuments(count, step) {
  return Array.from({ length: count }, (_, i) => Array.from({ length: 600 }, (_, j) => words[(i + j * step) % words.length]).join(" "));
}
