// Chaining rankers, and reranking with the adaptive reranker weight (seed 002) in one call.
import { Document } from "./document.js";
import { invalidArgument } from "./errors.js";
import { adaptiveWeight, asLists, combineScores, copyOf, scores, type AdaptiveWeightOptions, type DocumentLike } from "./rankers.js";

/** A step of a `Pipeline`: a ranker with `run(documents)`, or a function of the documents (may be async). */
export type PipelineStep =
  | { run(documents: Document[]): Document[] | Promise<Document[]> }
  | ((documents: Document[]) => Document[] | Promise<Document[]>);

/**
 * Runs steps one after the other, each on the previous one's documents:
 * `new Pipeline([new RecentnessRanker({dateMetaField: "date"}), new LostInTheMiddleRanker()]).run(docs)`.
 * A step that needs a query is a function: `(docs) => diversity.run(query, docs)`.
 */
export class Pipeline {
  readonly steps: readonly PipelineStep[];

  constructor(steps: PipelineStep[]) {
    if (!Array.isArray(steps)) invalidArgument("steps", "expected an array of rankers or functions");
    steps.forEach((s, i) => {
      if (typeof s !== "function" && (s === null || typeof s !== "object" || typeof (s as { run?: unknown }).run !== "function")) {
        invalidArgument(`steps[${i}]`, "expected a ranker with run(documents) or a function");
      }
    });
    this.steps = Object.freeze(steps.slice());
  }

  async run(documents: DocumentLike[]): Promise<Document[]> {
    let docs = asLists(documents).lists[0];
    for (const step of this.steps) {
      docs = await (typeof step === "function" ? step(docs) : step.run(docs));
    }
    return docs;
  }
}

export interface AdaptiveRerankOptions extends AdaptiveWeightOptions {
  /** Weight of the retriever score (default 1). */
  retrieverWeight?: number;
  /** Keep this many best documents; `null` (default) keeps all. */
  topK?: number | null;
}

export interface AdaptiveRerankResult {
  /** Documents by combined score, descending (stable); each `score` is the combined score. */
  documents: Document[];
  /** The adaptive reranker weight used: `max(error, minWeight)`. */
  weight: number;
  /** The RMSE or MAE of the rank changes. */
  error: number;
}

/**
 * Seed 002 in one call: the documents' own `score`s are the retriever scores, `rerankerScores[i]` the reranker's
 * score of document i. The reranker weight is the adaptive weight; the combined score is
 * `(s × retrieverWeight + r × weight) / 2`. Returns the documents re-sorted, with the weight and the error.
 */
export function adaptiveRerank(documents: DocumentLike[], rerankerScores: ArrayLike<number>, options: AdaptiveRerankOptions = {}): AdaptiveRerankResult {
  const docs = asLists(documents).lists[0];
  const retriever = docs.map((d, i) => {
    if (typeof d.score !== "number") invalidArgument(`documents[${i}].score`, "the retriever score is required");
    return d.score;
  });
  const reranker = scores("rerankerScores", rerankerScores);
  const { weight, error } = adaptiveWeight(retriever, reranker, options);
  const combined = combineScores(retriever, reranker, { retrieverWeight: options.retrieverWeight ?? 1, rerankerWeight: weight });
  const topK = options.topK ?? null;
  if (topK !== null && (!Number.isInteger(topK) || topK < 1)) invalidArgument("topK", "expected an integer ≥ 1 (or null)");
  const order = combined.map((_, i) => i).sort((a, b) => combined[b] - combined[a] || a - b);
  const ranked = order.slice(0, topK ?? order.length).map((i) => copyOf(docs[i], { score: combined[i] }));
  return { documents: ranked, weight, error };
}
