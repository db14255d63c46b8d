#!/usr/bin/env node
// rerankit/ai-sdk: the Vercel AI SDK's `rerank()` with a local cross-encoder as its reranking model, in place of
// a Cohere or Bedrock model: same call, same result shape (`ranking`, `rerankedDocuments`), no API key.
//
//   node examples/ai-sdk/index.mjs
//
// Needs `ai` (rerankit's dev dependency; in your project `npm install rerankit ai`) and a cross-encoder folder
// (model.onnx + tokenizer.json): the test models from `npm run fixtures`, or set RERANKIT_MODELS / RERANKIT_MODEL.
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { rerank } from "ai";
import { CrossEncoder } from "rerankit";
import { rerankit } from "rerankit/ai-sdk";

const models = process.env.RERANKIT_MODELS ?? path.join(homedir(), ".cache", "rerankit", "models");
const dir = path.join(models, process.env.RERANKIT_MODEL ?? "ce-probe");
if (!existsSync(path.join(dir, "model.onnx"))) {
  console.error(`No model at ${dir}: run \`npm run fixtures\`, or set RERANKIT_MODELS / RERANKIT_MODEL to a folder with model.onnx and tokenizer.json.`);
  process.exit(1);
}

const crossEncoder = await CrossEncoder.load({ model: path.join(dir, "model.onnx"), tokenizer: path.join(dir, "tokenizer.json") });
const query = "Does vitamin D supplementation reduce the risk of fractures?";
const { ranking, response } = await rerank({
  model: rerankit.reranking(crossEncoder, { modelId: path.basename(dir) }),
  query,
  documents: [
    "Bananas are rich in potassium and are a popular snack among athletes.",
    "In a meta-analysis of randomised trials, vitamin D supplementation alone did not reduce hip or total fractures in older adults.",
    "Daily vitamin D with calcium reduced the incidence of hip fractures among elderly women living in nursing homes.",
    "The risk of vitamin D toxicity rises with doses above 4,000 IU per day.",
    "Sunlight exposure is the main source of vitamin D for most people.",
  ],
  topN: 3,
  abortSignal: AbortSignal.timeout(30_000),
});

console.log(`query: ${query}\nmodel: ${response.modelId}\n`);
for (const { originalIndex, score, document } of ranking) console.log(`${score.toFixed(4)}  [${originalIndex}] ${document}`);
crossEncoder.free();
