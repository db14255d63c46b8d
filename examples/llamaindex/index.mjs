#!/usr/bin/env node
// rerankit/llamaindex: a local cross-encoder as the node postprocessor of a LlamaIndex.TS RetrieverQueryEngine.
// A keyword retriever finds candidate nodes, the cross-encoder reorders them and keeps the best three (each node
// its own object, `score` the cross-encoder's); the response synthesizer then answers from them. The LLM here is
// LlamaIndex's MockLLM so that the example runs offline: put your own (`Settings.llm`, an OpenAI model…) instead.
//
//   node examples/llamaindex/index.mjs
//
// Needs @llamaindex/core (rerankit's dev dependency; in your project `npm install rerankit llamaindex`, which
// brings it) and a cross-encoder folder (model.onnx + tokenizer.json): the test models from `npm run fixtures`,
// or set RERANKIT_MODELS / RERANKIT_MODEL.
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { MockLLM } from "@llamaindex/core/llms/mock";
import { RetrieverQueryEngine } from "@llamaindex/core/query-engine";
import { getResponseSynthesizer } from "@llamaindex/core/response-synthesizers";
import { BaseRetriever } from "@llamaindex/core/retriever";
import { TextNode } from "@llamaindex/core/schema";
import { CrossEncoder } from "rerankit";
import { RerankPostprocessor } from "rerankit/llamaindex";

const models = process.env.RERANKIT_MODELS ?? path.join(homedir(), ".cache", "rerankit", "models");
const dir = path.join(models, process.env.RERANKIT_MODEL ?? "ce-probe");
if (!existsSync(path.join(dir, "model.onnx"))) {
  console.error(`No model at ${dir}: run \`npm run fixtures\`, or set RERANKIT_MODELS / RERANKIT_MODEL to a folder with model.onnx and tokenizer.json.`);
  process.exit(1);
}

/** A first-stage retriever: the nodes sharing the most words with the query (what a vector index would be). */
class KeywordRetriever extends BaseRetriever {
  constructor(nodes, k) {
    super();
    this.nodes = nodes;
    this.k = k;
  }
  async _retrieve({ query }) {
    const words = new Set(String(query).toLowerCase().match(/\w+/g));
    const overlap = (n) => n.text.toLowerCase().match(/\w+/g).filter((w) => words.has(w)).length;
    return this.nodes.map((node) => ({ node, score: overlap(node) })).sort((a, b) => b.score - a.score).slice(0, this.k);
  }
}

const nodes = [
  "Bananas are rich in potassium and are a popular snack among athletes.",
  "In a meta-analysis of randomised trials, vitamin D supplementation alone did not reduce hip or total fractures in older adults.",
  "Daily vitamin D with calcium reduced the incidence of hip fractures among elderly women living in nursing homes.",
  "The risk of vitamin D toxicity rises with doses above 4,000 IU per day.",
  "Fractures of the wrist are common in children who fall while playing.",
  "Sunlight exposure is the main source of vitamin D for most people.",
].map((text, i) => new TextNode({ text, id_: `study-${i + 1}`, metadata: { file_name: `study-${i + 1}.txt` } }));

const crossEncoder = await CrossEncoder.load({ model: path.join(dir, "model.onnx"), tokenizer: path.join(dir, "tokenizer.json") });
const engine = new RetrieverQueryEngine(
  new KeywordRetriever(nodes, 5),
  getResponseSynthesizer("compact", { llm: new MockLLM() }),
  [new RerankPostprocessor(crossEncoder, { topK: 3 })],
);

const query = "Does vitamin D supplementation reduce the risk of fractures?";
const response = await engine.query({ query });
console.log(`query: ${query}\nanswer (MockLLM): ${response.message.content}\n\nsources, reranked:`);
for (const { node, score } of response.sourceNodes) console.log(`${score.toFixed(4)}  [${node.metadata.file_name}] ${node.text}`);
crossEncoder.free();
