// Chaining rankers with every stage's ranking and timing, the retrieve → cross-encode → fuse → lost-in-the-middle
// chain in one call, and reranking with the adaptive reranker weight (seed 002).
import { Document } from "../document.js";
import { checkListLength, invalidArgument, optionsObject } from "../errors.js";
import { checkedRanking } from "./ranker.js";
import { asLists, copyOf, LostInTheMiddleRanker, type DocumentLike, type LostInTheMiddleRankerOptions } from "./haystack_rankers.js";
import { adaptiveWeight, combineScores, fuse, scores, type AdaptiveWeightOptions } from "./fusion.js";

/** A step of a `Pipeline`: a ranker with `run(documents)`, or a function of the documents (may be async). */
export type PipelineStep =
  | {
    /** The documents reordered (and rescored, or cut) by this step. */
    run(documents: Document[]): Document[] | Promise<Document[]>;
  }
  | ((documents: Document[]) => Document[] | Promise<Document[]>);

/**
 * Runs steps one after the other, each on the previous one's documents:
 * `new Pipeline([new RecentnessRanker({dateMetaField: "date"}), new LostInTheMiddleRanker()]).run(docs)`.
 * A step that needs a query is a function: `(docs) => diversity.run(query, docs)`.
 */
export class Pipeline {
  /** The steps, in order. */
  readonly steps: readonly PipelineStep[];
  /** Stage names: the step's class name, `step <i>` for functions, or the name given in `{name, step}`. */
  readonly names: readonly string[];

  constructor(steps: (PipelineStep | NamedStep)[]) {
    if (!Array.isArray(steps)) invalidArgument("steps", "expected an array of rankers or functions");
    checkListLength(steps, "steps");
    const names: string[] = [];
    const plain = steps.map((entry, i) => {
      const named = isNamedStep(entry);
      const s = named ? entry.step : entry;
      if (typeof s !== "function" && (s === null || typeof s !== "object" || typeof (s as { run?: unknown }).run !== "function")) {
        invalidArgument(named ? `steps[${i}].step` : `steps[${i}]`, "expected a ranker with run(documents) or a function");
      }
      if (named && (typeof entry.name !== "string" || entry.name === "")) invalidArgument(`steps[${i}].name`, "expected a non-empty string");
      names.push(named ? entry.name : typeof s === "function" ? `step ${i}` : (s as object).constructor?.name ?? `step ${i}`);
      return s;
    });
    this.steps = Object.freeze(plain);
    this.names = Object.freeze(names);
  }

  /** The last step's documents. */
  async run(documents: DocumentLike[]): Promise<Document[]> {
    return (await this.runStages(documents)).documents;
  }

  /** Every step's documents and wall time (stage 0, `input`, is the documents as given). */
  async runStages(documents: DocumentLike[]): Promise<PipelineResult> {
    const t0 = performance.now();
    let docs = asLists(documents).lists[0];
    const stages: PipelineStage[] = [{ name: "input", documents: docs, milliseconds: 0 }];
    for (const [i, step] of this.steps.entries()) {
      const t = performance.now();
      docs = await (typeof step === "function" ? step(docs) : step.run(docs));
      if (!Array.isArray(docs)) invalidArgument(`steps[${i}]`, "returned something other than a list of documents");
      stages.push({ name: this.names[i], documents: docs, milliseconds: performance.now() - t });
    }
    return { documents: docs, stages, milliseconds: performance.now() - t0 };
  }
}

/** A step with the name its stage carries in `runStages`' result. */
export interface NamedStep {
  /** The stage's name. */
  name: string;
  /** The step. */
  step: PipelineStep;
}

function isNamedStep(x: unknown): x is NamedStep {
  return x !== null && typeof x === "object" && "step" in x && "name" in x && typeof (x as { run?: unknown }).run !== "function";
}

/** One stage's ranking: its documents in order (scores as that stage left them) and the time it took. */
export interface PipelineStage {
  /** The stage's name. */
  name: string;
  /** The stage's documents, in its order. */
  documents: Document[];
  /** The stage's wall time. */
  milliseconds: number;
}

/** What `Pipeline.runStages` returns: the final documents and every stage's ranking. */
export interface PipelineResult {
  /** The last stage's documents. */
  documents: Document[];
  /** Every stage's ranking and time, in order. */
  stages: PipelineStage[];
  /** Wall time of the whole run. */
  milliseconds: number;
}

// ------------------------------------------------------------------------------------------ rerank pipeline

/**
 * What `rerankPipeline` calls: the `rerank` of any {@link Ranker} (the local `CrossEncoder`, `CohereRanker`,
 * `WorkersAiRanker`, `HttpRanker`, `withFallback(...)`), or of anything that reranks like it: `[{index, score}]`,
 * best first.
 */
export interface PairReranker {
  /** The documents ranked for `query`, best first. */
  rerank(query: string, documents: readonly Document[], options?: Record<string, unknown>): Promise<readonly {
    /** Index of the document in `documents`. */
    index: number;
    /** The reranker's score. */
    score: number;
  }[]>;
}

/** Options of `rerankPipeline`: the reranker, the fusion and the cut. */
export interface RerankPipelineOptions {
  /** The reranker: `await CrossEncoder.load(...)`, a hosted ranker, `withFallback(hosted, local)`… (or give it as `ranker`). */
  crossEncoder?: PairReranker;
  /** The same as `crossEncoder`, by the name that fits a hosted ranker; give one of the two. */
  ranker?: PairReranker;
  /** Options passed to the reranker's `rerank` (the local model's batchSize, scaleScore…; every document is scored). */
  rerank?: Record<string, unknown>;
  /**
   * How the reranker's ranking meets the retriever's: `"adaptive"` (default; seed 002: combined score
   * `(s × retrieverWeight + r × w) / 2` with `w` the adaptive weight), `"rrf"` (reciprocal rank fusion of the two
   * rankings, `Σ 1/(k + rank)`, ties by input order) or `"none"` (the cross-encoder's ranking).
   */
  fusion?: "adaptive" | "rrf" | "none";
  /** Adaptive weight options: error `"rmse" | "mae"`, `minWeight`, `retrieverWeight`. */
  adaptive?: AdaptiveWeightOptions & {
    /** The retriever score's weight in the combined score (default 1). */
    retrieverWeight?: number;
  };
  /** RRF's k (default 60). */
  rrfK?: number;
  /** Keep this many best documents after fusion; `null` (default) keeps all. */
  topK?: number | null;
  /** Reorder the kept documents for long-context prompts (`true` or the ranker's options). Default off. */
  lostInTheMiddle?: boolean | LostInTheMiddleRankerOptions;
}

/**
 * What `rerankPipeline` returns. Stages: `retriever`, `cross-encoder`, `fusion`, then `lost-in-the-middle` when
 * asked.
 */
export interface RerankPipelineResult extends PipelineResult {
  /** The adaptive reranker weight and the rank error it came from (`fusion: "adaptive"` only). */
  adaptiveWeight?: {
    /** The reranker's weight: `max(error, minWeight)`. */
    weight: number;
    /** The rank error between the retriever's and the reranker's rankings. */
    error: number;
  };
}

/**
 * Retriever results → cross-encoder → fusion with the retriever → (lost-in-the-middle), with every stage's
 * ranking and time. `documents` are the retriever's results with their scores (any order; stage `retriever` is
 * them sorted by score, descending, ties in input order). Stage `cross-encoder` carries the reranker's scores,
 * stage `fusion` the fused scores (combined score, or RRF score).
 */
export async function rerankPipeline(query: string, documents: DocumentLike[], options: RerankPipelineOptions): Promise<RerankPipelineResult> {
  const t0 = performance.now();
  if (typeof query !== "string") invalidArgument("query", "expected a string");
  options = optionsObject(options, ["crossEncoder", "ranker", "rerank", "fusion", "adaptive", "rrfK", "topK", "lostInTheMiddle"]);
  const { fusion = "adaptive", rrfK = 60, topK = null, lostInTheMiddle = false } = options;
  if (options.crossEncoder !== undefined && options.ranker !== undefined) invalidArgument("ranker", "give the reranker as crossEncoder or as ranker, not both");
  const field = options.ranker !== undefined ? "ranker" : "crossEncoder";
  const crossEncoder = options.ranker ?? options.crossEncoder;
  if (crossEncoder === null || typeof crossEncoder !== "object" || typeof crossEncoder.rerank !== "function") {
    invalidArgument(field, "expected a Ranker (a CrossEncoder, a hosted ranker: an object with rerank(query, documents, options))");
  }
  if (!["adaptive", "rrf", "none"].includes(fusion)) invalidArgument("fusion", `expected "adaptive", "rrf" or "none", got ${JSON.stringify(fusion)}`);
  if (topK !== null && (!Number.isInteger(topK) || topK < 1)) invalidArgument("topK", "expected an integer ≥ 1 (or null)");
  if (typeof rrfK !== "number" || !Number.isFinite(rrfK) || rrfK < 0) invalidArgument("rrfK", "expected a finite number ≥ 0");
  const rerankOptions = options.rerank ?? {};
  if (rerankOptions === null || typeof rerankOptions !== "object") invalidArgument("rerank", "expected an options object");
  if ((rerankOptions as { scoreThreshold?: unknown }).scoreThreshold != null) {
    invalidArgument("rerank.scoreThreshold", "every document needs a reranker score for fusion; filter the result instead");
  }

  const docs = asLists(documents).lists[0];
  const retrieverScores = docs.map((d, i) => {
    if (typeof d.score !== "number" || !Number.isFinite(d.score)) invalidArgument(`documents[${i}].score`, "the retriever's score (a finite number) is required");
    return d.score;
  });
  const stages: PipelineStage[] = [];
  const byScore = (xs: ArrayLike<number>) => Array.from(xs, (_, i) => i).sort((a, b) => xs[b] - xs[a] || a - b);

  let t = performance.now();
  stages.push({ name: "retriever", documents: byScore(retrieverScores).map((i) => docs[i]), milliseconds: performance.now() - t });

  t = performance.now();
  const ranked = checkedRanking(await crossEncoder.rerank(query, docs, { ...rerankOptions, topK: null, returnDocuments: false }), docs.length, field);
  const rerankerScores = new Float64Array(docs.length).fill(Number.NaN);
  for (const r of ranked) rerankerScores[r.index] = r.score;
  const unscored = rerankerScores.findIndex((x) => Number.isNaN(x));
  if (unscored >= 0) invalidArgument(`documents[${unscored}]`, "the cross-encoder returned no score for this document");
  stages.push({ name: "cross-encoder", documents: ranked.map((r) => copyOf(docs[r.index], { score: r.score })), milliseconds: performance.now() - t });

  let result = stages[stages.length - 1].documents;
  let weightInfo: { weight: number; error: number } | undefined;
  if (fusion !== "none") {
    t = performance.now();
    let fused: number[];
    if (fusion === "adaptive") {
      const { error, minWeight } = options.adaptive ?? {};
      weightInfo = adaptiveWeight(retrieverScores, rerankerScores, { error, minWeight });
      fused = combineScores(retrieverScores, rerankerScores, { retrieverWeight: options.adaptive?.retrieverWeight ?? 1, rerankerWeight: weightInfo.weight });
    } else {
      // Keys sort like the input order, so fuse's tie rule (doc id ascending) keeps ties in input order.
      const key = (i: number) => String(i).padStart(12, "0");
      const run = (xs: ArrayLike<number>) => ({ q: Object.fromEntries(Array.from(xs, (x, i) => [key(i), x])) });
      const rrf = fuse([run(retrieverScores), run(rerankerScores)], { method: "rrf", k: rrfK }).q ?? {};
      fused = docs.map((_, i) => rrf[key(i)]);
    }
    result = byScore(fused).map((i) => copyOf(docs[i], { score: fused[i] }));
    if (topK !== null) result = result.slice(0, topK);
    stages.push({ name: "fusion", documents: result, milliseconds: performance.now() - t });
  } else if (topK !== null) {
    result = result.slice(0, topK);
    stages[stages.length - 1] = { ...stages[stages.length - 1], documents: result };
  }

  if (lostInTheMiddle) {
    t = performance.now();
    const ranker = new LostInTheMiddleRanker(lostInTheMiddle === true ? {} : lostInTheMiddle);
    result = ranker.run(result);
    stages.push({ name: "lost-in-the-middle", documents: result, milliseconds: performance.now() - t });
  }
  return { documents: result, stages, milliseconds: performance.now() - t0, ...(weightInfo ? { adaptiveWeight: weightInfo } : {}) };
}

/** Options of `adaptiveRerank`. */
export interface AdaptiveRerankOptions extends AdaptiveWeightOptions {
  /** Weight of the retriever score (default 1). */
  retrieverWeight?: number;
  /** Keep this many best documents; `null` (default) keeps all. */
  topK?: number | null;
}

/** What `adaptiveRerank` returns. */
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
  options = optionsObject(options, ["error", "minWeight", "retrieverWeight", "topK"]);
  const docs = asLists(documents).lists[0];
  const retriever = docs.map((d, i) => {
    if (typeof d.score !== "number") invalidArgument(`documents[${i}].score`, "the retriever score is required");
    return d.score;
  });
  const reranker = scores("rerankerScores", rerankerScores);
  const { weight, error } = adaptiveWeight(retriever, reranker, { error: options.error, minWeight: options.minWeight });
  const combined = combineScores(retriever, reranker, { retrieverWeight: options.retrieverWeight ?? 1, rerankerWeight: weight });
  const topK = options.topK ?? null;
  if (topK !== null && (!Number.isInteger(topK) || topK < 1)) invalidArgument("topK", "expected an integer ≥ 1 (or null)");
  const order = combined.map((_, i) => i).sort((a, b) => combined[b] - combined[a] || a - b);
  const ranked = order.slice(0, topK ?? order.length).map((i) => copyOf(docs[i], { score: combined[i] }));
  return { documents: ranked, weight, error };
}
