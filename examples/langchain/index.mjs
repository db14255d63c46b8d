#!/usr/bin/env node
// rerankit/langchain: a local cross-encoder as the compressor of LangChain's ContextualCompressionRetriever.
// A keyword retriever finds candidates, the cross-encoder reorders them and keeps the best three, each with its
// metadata and `metadata.relevanceScore`.
//
//   node examples/langchain/index.mjs
//
// Needs @langchain/core and @langchain/classic (rerankit's dev dependencies; in your project:
// `npm install rerankit @langchain/core @langchain/classic`) and a cross-encoder folder (model.onnx +
// tokenizer.json): the test models from `npm run fixtures`, or set RERANKIT_MODELS / RERANKIT_MODEL.
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { ContextualCompressionRetriever } from "@langchain/classic/retrievers/contextual_compression";
import { Document } from "@langchain/core/documents";
import { BaseRetriever } from "@langchain/core/retrievers";
import { CrossEncoder } from "rerankit";
import { RerankCompressor } from "rerankit/langchain";

const models = process.env.RERANKIT_MODELS ?? path.join(homedir(), ".cache", "rerankit", "models");
const dir = path.join(models, process.env.RERANKIT_MODEL ?? "ce-probe");
if (!existsSync(path.join(dir, "model.onnx"))) {
  console.error(`No model at ${dir}: run \`npm run fixtures\`, or set RERANKIT_MODELS / RERANKIT_MODEL to a folder with model.onnx and tokenizer.json.`);
  process.exit(1);
}

/** A first-stage retriever: the documents sharing the most words with the query (what a vector store would be). */
class KeywordRetriever extends BaseRetriever {
  lc_namespace = ["examples", "rerankit"];
  constructor(documents, k) {
    super();
    this.documents = documents;
    this.k = k;
  }
  async _getRelevantDocuments(query) {
    const words = new Set(query.toLowerCase().match(/\w+/g));
    const overlap = (d) => d.pageContent.toLowerCase().match(/\w+/g).filter((w) => words.has(w)).length;
    return [...this.documents].sort((a, b) => overlap(b) - overlap(a)).slice(0, this.k);
  }
}

const documents = [
  "Bananas are rich in potassium and are a popular snack among athletes.",
  "In a meta-analysis of randomised trials, vitamin D supplementation alone did not reduce hip or total fractures in older adults.",
  "Daily vitamin D with calcium reduced the incidence of hip fractures among elderly women living in nursing homes.",
  "The risk of vitamin D toxicity rises with doses above 4,000 IU per day.",
  "Fractures of the wrist are common in children who fall while playing.",
  "Sunlight exposure is the main source of vitamin D for most people.",
].map((pageContent, i) => new Document({ pageContent, metadata: { source: `study-${i + 1}.txt` } }));

const crossEncoder = await CrossEncoder.load({ model: path.join(dir, "model.onnx"), tokenizer: path.join(dir, "tokenizer.json") });
const retriever = new ContextualCompressionRetriever({
  baseCompressor: new RerankCompressor(crossEncoder, { topK: 3 }),
  baseRetriever: new KeywordRetriever(documents, 5),
});

const query = "Does vitamin D supplementation reduce the risk of fractures?";
console.log(`query: ${query}\n`);
for (const doc of await retriever.invoke(query)) {
  console.log(`${doc.metadata.relevanceScore.toFixed(4)}  [${doc.metadata.source}] ${doc.pageContent}`);
}
crossEncoder.free();
