// What the integration suites (langchain, llamaindex, ai_sdk .test.mjs) share: the tiny random-weight BERT
// cross-encoder that lives in git (tests/fixtures/hub/, 95 KB: no download, milliseconds per call), a query and
// passages. Sixteen passages: more than a CrossEncoder's default topK (10), so that a default is visible.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CrossEncoder } from "rerankit";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const tiny = path.join(root, "tests/fixtures/hub/rerankit-test/tiny-bert-reranker");

export function loadTinyCrossEncoder() {
  return CrossEncoder.load({ model: path.join(tiny, "onnx/model.onnx"), tokenizer: path.join(tiny, "tokenizer.json") });
}

export const QUERY = "vitamin d fractures in elderly women";
export const PASSAGES = [
  "Bananas are rich in potassium.",
  "Vitamin D with calcium reduced hip fractures in elderly women.",
  "Fractures heal slowly in the elderly.",
  "Women in the trial took vitamin D daily.",
  "A study of sleep and memory.",
  "Vitamin D deficiency is common in winter.",
  "Elderly women and men were followed for ten years.",
  "Calcium intake and bone density.",
  "The history of the printing press.",
  "Hip fractures in elderly women: a cohort study.",
  "Vitamin C and the common cold.",
  "Exercise prevents falls in the elderly.",
  "D-Day landings in Normandy.",
  "Fractures of the wrist in children.",
  "Women's health and vitamin supplements.",
  "Sunlight and vitamin D synthesis in the skin.",
];

/** A Ranker that answers with fixed scores and records each call: what an integration passes to its ranker. */
export function recordingRanker(scores) {
  const calls = [];
  const rank = (query, documents, options = {}) => {
    calls.push({ query, documents: [...documents], options });
    const ranked = documents.map((_, index) => ({ index, score: scores[index] })).sort((a, b) => b.score - a.score);
    return ranked.slice(0, options.topK ?? ranked.length);
  };
  return { calls, rerank: async (...args) => rank(...args), rerankBatch: async () => { throw new Error("not used by the integrations"); } };
}
