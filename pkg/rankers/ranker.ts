// The one interface every reranker in rerankit implements: the local `CrossEncoder` (a model in wasm), the hosted
// rankers (pkg/rankers/hosted/: Cohere, Workers AI, any Cohere-compatible HTTP endpoint) and `withFallback`'s pair of them.
// `rerankPipeline` and `withFallback` take any object that implements it, so a hosted ranker and a local model are
// interchangeable. The shapes are the local model's (pkg/models/cross_encoder.ts), which came first: results are indices
// into the caller's list, best first, with the caller's own objects attached on request, never copies.
//
// This module holds the contract only and imports no model code: `rerankit/eval` (built without the models) reaches
// it through pipeline.ts and the hosted rankers.
import type { Document } from "../document.js";
import { invalidArgument } from "../errors.js";

/** What a ranker reads: plain text, a `Document`, or `{content, meta}` (text content). */
export type RerankDocument = string | Document | {
  /** The text ranked. */
  content: string;
  /** Metadata (a ranker may embed some fields in the text it sends). */
  meta?: Record<string, unknown>;
};

/** One ranked document. */
export interface RerankResult<D = RerankDocument> {
  /** Index of the document in the input list. */
  index: number;
  /** The ranker's score (higher ranks first). */
  score: number;
  /** The caller's own object (with `returnDocuments: true`), unchanged: meta embedded for ranking is not in it. */
  document?: D;
  /**
   * Whether the model scored this document: present only when the call had `maxDocuments` or `deadlineMs`. An
   * unscored document has score NaN and comes after the scored ones, in the caller's order.
   */
  scored?: boolean;
}

/** The options every ranker takes on each call; each ranker adds its own (the local model's batch size…). */
export interface RankOptions {
  /** Keep this many best documents; `null` keeps all. Default: the ranker's (10 for the local model). */
  topK?: number | null;
  /** Include the input document in each result. Default false. */
  returnDocuments?: boolean;
  /** Stops the call: it rejects with a RerankitError `ABORTED`, the signal's reason as `cause`. */
  signal?: AbortSignal;
}

/**
 * A reranker: `rerank` orders one list for one query; `rerankBatch` is Haystack's `predict_batch` with its three
 * shapes — (a) one query + a list → a list; (b) one query + a list of lists → each list ranked on its own; (c) n
 * queries + n lists → list i ranked for query i. Any other shape is `INVALID_ARGUMENT`.
 */
export interface Ranker<O extends RankOptions = RankOptions> {
  /** Documents ranked for `query`: `[{index, score, document?}]`, best first. */
  rerank<D extends RerankDocument>(query: string, documents: readonly D[], options?: O): Promise<RerankResult<D>[]>;
  /**
   * Haystack's `predict_batch` shapes: one query and a list, one query and a list of lists (each ranked on its
   * own), or n queries and n lists.
   */
  rerankBatch<D extends RerankDocument>(
    queries: string | readonly string[],
    documents: readonly D[] | readonly (readonly D[])[],
    options?: O,
  ): Promise<RerankResult<D>[] | RerankResult<D>[][]>;
}

/**
 * A ranker's answer as its callers (pipelines, integrations) read it, checked first: any object can be passed as a
 * ranker, and one that answers `null`, a non-list or an index outside the list must get `INVALID_ARGUMENT` naming
 * it (`field`), not a TypeError deep inside the caller. Each result needs an integer `index` below `length`, at most
 * once, and a numeric `score`.
 */
export function checkedRanking<R extends { index: number; score: number }>(answer: unknown, length: number, field: string): R[] {
  if (!Array.isArray(answer)) invalidArgument(field, `rerank answered ${answer === null ? "null" : typeof answer}, expected a list of {index, score}`);
  const seen = new Set<number>();
  for (let i = 0; i < answer.length; i++) {
    const r = answer[i] as { index?: unknown; score?: unknown } | null;
    if (r === null || typeof r !== "object") invalidArgument(`${field}: rerank answer[${i}]`, "expected {index, score}");
    const { index, score } = r;
    if (typeof index !== "number" || !Number.isInteger(index) || index < 0 || index >= length) {
      invalidArgument(`${field}: rerank answer[${i}].index`, `expected an integer 0…${length - 1} (an index into the documents)`);
    }
    if (seen.has(index)) invalidArgument(`${field}: rerank answer[${i}].index`, `document ${index} is ranked twice`);
    seen.add(index);
    if (typeof score !== "number") invalidArgument(`${field}: rerank answer[${i}].score`, "expected a number");
  }
  return answer as R[];
}
