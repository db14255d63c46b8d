// Rankers that need no model: RecentnessRanker, LostInTheMiddleRanker, DiversityRanker (on embeddings), rank
// fusion over ranx-shaped runs, and the adaptive reranker weight. Semantics: docs/parity.md §3–§6 (Haystack 1.x/2.x,
// ranx, the adaptive-weight blog); the Rust docs in src/rankers/ carry the formulas.
//
// Every `run` takes a list of documents or a list of lists (each list ranked on its own) and answers in the same
// shape. Returned documents are shallow copies of the given ones with the new `score` (inputs are not mutated).
import * as wasm from "./wasm/rerankit.js";
import { Document, type DocumentDict, type DocumentInit } from "./document.js";
import { MAX_LIST_LENGTH, RerankitError, checkListLength, invalidArgument } from "./errors.js";

/** A `Document`, or the options to build one (`{content, meta, score, …}`). */
export type DocumentLike = Document | DocumentInit;

interface Ranking {
  index: number;
  score: number;
}

/** Splits `documents` into lists and says whether it was a list of lists. */
export function asLists(documents: unknown, field = "documents"): { lists: Document[][]; nested: boolean } {
  if (!Array.isArray(documents)) invalidArgument(field, "expected an array of documents (or of arrays of documents)");
  checkListLength(documents, field);
  documents.forEach((d, l) => Array.isArray(d) && checkListLength(d, `${field}[${l}]`));
  const arrays = documents.filter((d) => Array.isArray(d)).length;
  if (arrays > 0 && arrays !== documents.length) {
    invalidArgument(field, "mixes documents and lists of documents: give one list, or a list of lists");
  }
  const nested = arrays > 0;
  const raw = (nested ? documents : [documents]) as unknown[][];
  // Array.from visits the holes of a sparse array (map would keep them as holes, to fail later as undefined)
  const lists = raw.map((list, l) => Array.from(list, (d, j) => toDocument(d, nested ? `${field}[${l}][${j}]` : `${field}[${j}]`)));
  return { lists, nested };
}

function toDocument(value: unknown, path: string): Document {
  if (value instanceof Document) return value;
  if (value === null || typeof value !== "object") invalidArgument(path, "expected a Document or {content, …}");
  try {
    return new Document(value as DocumentInit);
  } catch (err) {
    if (err instanceof RerankitError) throw new RerankitError(`${path}.${err.message}`, err.code);
    throw err;
  }
}

/** A copy of `doc` (same prototype, same fields) with `changes` applied. */
export function copyOf(doc: Document, changes: Partial<Pick<Document, "score" | "content" | "embedding">>): Document {
  return Object.assign(Object.create(Object.getPrototypeOf(doc)) as Document, doc, changes);
}

function dicts(list: Document[], withEmbedding: boolean): DocumentDict[] {
  return list.map((d) => (withEmbedding ? d.standardDict() : { ...d.standardDict(), embedding: null }));
}

function reshape<T>(lists: T[][], nested: boolean): T[] | T[][] {
  return nested ? lists : lists[0] ?? [];
}

// ------------------------------------------------------------------------------------------ RecentnessRanker

/** How `RecentnessRanker` combines relevance and age: by rank (RRF) or by score. */
export type RankingMode = "reciprocal_rank_fusion" | "score";

/** Options of `RecentnessRanker`. */
export interface RecentnessRankerOptions {
  /** The meta key that holds each document's date (ISO 8601, RFC 2822, `2021/05/01`, epoch seconds, …). */
  dateMetaField: string;
  /** In [0, 1]: 0 ignores age, 0.5 (default) weighs relevance and age equally, 1 sorts by age alone. */
  weight?: number;
  /** How many documents to return per list; `null` (default) returns all. */
  topK?: number | null;
  /** `"reciprocal_rank_fusion"` (default) or `"score"` (needs retriever scores in [0, 1]). */
  rankingMode?: RankingMode;
  /** Receives each warning of `run` (unparsable dates, scores outside [0, 1]). Default: `console.warn`. */
  onWarning?: (message: string) => void;
}

/**
 * Haystack's RecentnessRanker: newer documents rank higher. RRF mode scores `(1−w)/(61+i) + w/(61+j)` (i: input
 * position, j: position by date, newest first); score mode `s·(1−w) + w·(n−j)/n`. Every document's score becomes
 * the combined score. A missing date throws (naming the document ids); an unparsable date returns the list
 * unchanged with a warning.
 */
export class RecentnessRanker {
  /** The options, frozen. */
  readonly options: Readonly<Omit<RecentnessRankerOptions, "onWarning">>;
  #onWarning: (message: string) => void;

  constructor(options: RecentnessRankerOptions) {
    if (options === null || typeof options !== "object") invalidArgument("options", "expected {dateMetaField, weight, topK, rankingMode}");
    const { onWarning, ...rest } = options;
    this.options = Object.freeze({ ...rest });
    this.#onWarning = onWarning ?? ((m) => console.warn(`[rerankit] RecentnessRanker: ${m}`));
    wasm.recentnessRank([], false, this.options); // validates the options now
  }

  /** Ranks a list (or each list of a list of lists); warnings go to `onWarning`. */
  run(documents: DocumentLike[]): Document[];
  run(documents: DocumentLike[][]): Document[][];
  run(documents: DocumentLike[] | DocumentLike[][]): Document[] | Document[][] {
    const { documents: out, warnings } = this.runWithWarnings(documents as DocumentLike[]);
    for (const w of warnings) this.#onWarning(w);
    return out;
  }

  /** As `run`, returning the warnings instead of reporting them. */
  runWithWarnings(documents: DocumentLike[]): {
    /** The ranked documents. */
    documents: Document[];
    /** What `run` would pass to `onWarning` (unparsable dates, scores outside [0, 1]). */
    warnings: string[];
  };
  runWithWarnings(documents: DocumentLike[][]): {
    /** Each list ranked. */
    documents: Document[][];
    /** What `run` would pass to `onWarning` (unparsable dates, scores outside [0, 1]). */
    warnings: string[];
  };
  runWithWarnings(documents: DocumentLike[] | DocumentLike[][]): { documents: Document[] | Document[][]; warnings: string[] } {
    const { lists, nested } = asLists(documents);
    const res = wasm.recentnessRank(lists.map((l) => dicts(l, false)), nested, this.options) as {
      lists: (Ranking[] | null)[];
      warnings: string[];
    };
    const ranked = lists.map((list, l) => {
      const ranking = res.lists[l];
      return ranking === null ? list.slice() : ranking.map((r) => copyOf(list[r.index], { score: r.score }));
    });
    return { documents: reshape(ranked, nested), warnings: res.warnings };
  }
}

// ------------------------------------------------------------------------------------------ LostInTheMiddleRanker

/** Options of `LostInTheMiddleRanker`. */
export interface LostInTheMiddleRankerOptions {
  /** Keep documents until their total word count reaches this (the document that reaches it is kept). */
  wordCountThreshold?: number | null;
  /** Cut the last kept document so the total equals `wordCountThreshold` exactly (Haystack 1.x). */
  truncateDocument?: boolean;
  /** Keep only the first `topK` input documents before reordering; `null` (default) keeps all. */
  topK?: number | null;
}

/**
 * Haystack's LostInTheMiddleRanker: the most relevant documents (input order) go to both ends, the least relevant
 * to the middle: 1..9 → 1 3 5 7 9 8 6 4 2. Text documents only. Scores are kept.
 */
export class LostInTheMiddleRanker {
  /** The options, frozen. */
  readonly options: Readonly<LostInTheMiddleRankerOptions>;

  constructor(options: LostInTheMiddleRankerOptions = {}) {
    if (options === null || typeof options !== "object") invalidArgument("options", "expected {wordCountThreshold, truncateDocument, topK}");
    this.options = Object.freeze({ ...options });
    wasm.lostInTheMiddleRank([], false, this.options);
  }

  /** Reorders a list (or each list of a list of lists): the best documents at the start and the end. */
  run(documents: DocumentLike[]): Document[];
  run(documents: DocumentLike[][]): Document[][];
  run(documents: DocumentLike[] | DocumentLike[][]): Document[] | Document[][] {
    const { lists, nested } = asLists(documents);
    const res = wasm.lostInTheMiddleRank(lists.map((l) => dicts(l, false)), nested, this.options) as {
      lists: { order: number[]; truncated: { index: number; content: string } | null }[];
    };
    const ranked = lists.map((list, l) => {
      const { order, truncated } = res.lists[l];
      return order.map((i) => (truncated && truncated.index === i ? copyOf(list[i], { content: truncated.content }) : list[i]));
    });
    return reshape(ranked, nested);
  }
}

// ------------------------------------------------------------------------------------------ DiversityRanker

/** Anything with `embed(texts)`, such as rerankit's `Embedder`. */
export interface TextEmbedder {
  /** One embedding per text, in order. */
  embed(texts: readonly string[]): Promise<ArrayLike<number>[]> | ArrayLike<number>[];
}

/**
 * The query of a DiversityRanker: its embedding (`number[]` / `Float32Array`, or `{queryEmbedding}`), or its text
 * (`"…"` or `{query}`), which needs an `embedder`.
 */
export type DiversityQuery = string | ArrayLike<number> | {
  /** The query's text (needs an `embedder`). */
  query?: string;
  /** The query's embedding. */
  queryEmbedding?: ArrayLike<number> | null;
};

/** Options of `DiversityRanker`. */
export interface DiversityRankerOptions {
  /** Embeds query texts and documents that have no `embedding`. Without it, embeddings must be given. */
  embedder?: TextEmbedder | null;
  /** `"dot_product"` (default) or `"cosine"` (vectors L2-normalised first). */
  similarity?: "dot_product" | "cosine";
  /** `"greedy"` (default: least mean similarity to the picked documents) or `"mmr"`. */
  strategy?: "greedy" | "mmr";
  /** MMR trade-off in [0, 1] (1 = relevance only). Default 0.5. */
  lambda?: number;
  /** How many documents to pick per list; `null` (default) orders all of them. */
  topK?: number | null;
}

function isNumberArray(x: unknown): x is ArrayLike<number> {
  if (ArrayBuffer.isView(x)) return true;
  return Array.isArray(x) && x.length > 0 && x.length <= MAX_LIST_LENGTH && x.every((v) => typeof v === "number");
}

/**
 * Haystack's DiversityRanker on embeddings: first the document most similar to the query, then each time the one
 * least similar (on average) to those already picked — or, with `strategy: "mmr"`, maximal marginal relevance.
 * Each returned document's **score is its similarity to the query** (the measure chosen by `similarity`); the
 * order is the diversity order, so scores need not descend.
 *
 * `run(query, documents)` answers synchronously when no embedding has to be computed (query embedding given and
 * every document has one); with an `embedder` it returns a Promise. `await` works in both cases.
 */
export class DiversityRanker {
  /** The options, frozen. */
  readonly options: Readonly<Omit<DiversityRankerOptions, "embedder">>;
  /** The embedder that embeds documents and text queries, or null. */
  readonly embedder: TextEmbedder | null;

  constructor(options: DiversityRankerOptions = {}) {
    if (options === null || typeof options !== "object") invalidArgument("options", "expected {similarity, strategy, lambda, topK}");
    const { embedder, ...rest } = options;
    if (embedder != null && typeof embedder.embed !== "function") invalidArgument("embedder", "expected an object with embed(texts)");
    this.embedder = embedder ?? null;
    this.options = Object.freeze({ ...rest });
    wasm.diversityRank([], [], false, this.options);
  }

  /**
   * Ranks one list with one query, each list of a list of lists with the same query, or list i with query i
   * (give an array of queries with a list of lists).
   */
  run(query: DiversityQuery | DiversityQuery[], documents: DocumentLike[]): Document[] | Promise<Document[]>;
  run(query: DiversityQuery | DiversityQuery[], documents: DocumentLike[][]): Document[][] | Promise<Document[][]>;
  run(query: DiversityQuery | DiversityQuery[], documents: DocumentLike[] | DocumentLike[][]): Document[] | Document[][] | Promise<Document[] | Document[][]> {
    const { lists, nested } = asLists(documents);
    const queries = this.#pairQueries(query, lists.length, nested);
    const missingQuery = queries.some((q) => q.embedding === null);
    const missingDocs = lists.some((l) => l.some((d) => d.embedding === null));
    if (!missingQuery && !missingDocs) {
      return this.#rank(queries.map((q) => q.embedding!), lists, nested);
    }
    const embedder = this.embedder;
    if (embedder === null) {
      if (missingQuery) invalidArgument("query", "give {queryEmbedding} (or an embedder in the options to embed the query text)");
      const l = lists.findIndex((list) => list.some((d) => d.embedding === null));
      const j = lists[l].findIndex((d) => d.embedding === null);
      invalidArgument(`${nested ? `documents[${l}][${j}]` : `documents[${j}]`}.embedding`,
        `document ${lists[l][j].id} has no embedding; give every document one, or an embedder in the options`);
    }
    return (async () => {
      const texts: string[] = [];
      for (const q of queries) if (q.embedding === null) texts.push(q.text!);
      for (const list of lists) for (const d of list) if (d.embedding === null) texts.push(d.text);
      const vectors = await embedder.embed(texts);
      if (!Array.isArray(vectors) || vectors.length !== texts.length) {
        throw new RerankitError(`embedder: returned ${Array.isArray(vectors) ? vectors.length : "no"} vectors for ${texts.length} texts`, "INVALID_ARGUMENT");
      }
      let k = 0;
      const queryEmbeddings = queries.map((q) => q.embedding ?? Float32Array.from(vectors[k++]));
      const embedded = lists.map((list) => list.map((d) => (d.embedding === null ? copyOf(d, { embedding: Float32Array.from(vectors[k++]) }) : d)));
      return this.#rank(queryEmbeddings, embedded, nested);
    })();
  }

  /** Ranks on precomputed embeddings only (synchronous). */
  rank(queryEmbedding: ArrayLike<number> | ArrayLike<number>[], documents: DocumentLike[]): Document[];
  rank(queryEmbedding: ArrayLike<number> | ArrayLike<number>[], documents: DocumentLike[][]): Document[][];
  rank(queryEmbedding: ArrayLike<number> | ArrayLike<number>[], documents: DocumentLike[] | DocumentLike[][]): Document[] | Document[][] {
    const { lists, nested } = asLists(documents);
    const query = isNumberArray(queryEmbedding) ? { queryEmbedding }
      : Array.isArray(queryEmbedding) ? (checkListLength(queryEmbedding, "queryEmbedding"), queryEmbedding.map((e) => ({ queryEmbedding: e })))
        : invalidArgument("queryEmbedding", "expected an array of numbers, or one such array per list");
    const queries = this.#pairQueries(query, lists.length, nested);
    if (queries.some((q) => q.embedding === null)) invalidArgument("queryEmbedding", "expected an array of numbers");
    return this.#rank(queries.map((q) => q.embedding!), lists, nested);
  }

  #rank(queryEmbeddings: ArrayLike<number>[], lists: Document[][], nested: boolean): Document[] | Document[][] {
    const res = wasm.diversityRank(queryEmbeddings.map((e) => Array.from(e)), lists.map((l) => dicts(l, true)), nested, this.options) as {
      lists: Ranking[][];
    };
    return reshape(lists.map((list, l) => res.lists[l].map((r) => copyOf(list[r.index], { score: r.score }))), nested);
  }

  /** One `{embedding | text}` per list, following Haystack's pairing of queries and lists. */
  #pairQueries(query: unknown, listCount: number, nested: boolean): { embedding: ArrayLike<number> | null; text: string | null }[] {
    const one = (q: unknown, field: string): { embedding: ArrayLike<number> | null; text: string | null } => {
      if (typeof q === "string") return { embedding: null, text: q };
      if (isNumberArray(q)) return { embedding: q, text: null };
      if (q !== null && typeof q === "object" && !Array.isArray(q)) {
        const { query: text, queryEmbedding } = q as { query?: unknown; queryEmbedding?: unknown };
        if (queryEmbedding != null) {
          if (!isNumberArray(queryEmbedding)) invalidArgument(`${field}.queryEmbedding`, "expected an array of numbers");
          return { embedding: queryEmbedding, text: typeof text === "string" ? text : null };
        }
        if (typeof text === "string") return { embedding: null, text };
      }
      return invalidArgument(field, "expected a query string, a query embedding, or {query, queryEmbedding}");
    };
    const many = Array.isArray(query) && !isNumberArray(query);
    if (!many) return Array.from({ length: listCount }, () => one(query, "query"));
    const qs = query as unknown[];
    if (!nested || qs.length !== listCount) {
      invalidArgument("query", `${qs.length} queries for ${nested ? `${listCount} lists` : "a single list"}: give one query, or one list of documents per query`);
    }
    return qs.map((q, i) => one(q, `query[${i}]`));
  }
}

// ------------------------------------------------------------------------------------------ fusion

/** A run in ranx's shape: `{queryId: {docId: score}}`. */
export type FusionRun = Record<string, Record<string, number>>;

/** A fusion method by ranx's name (`sum`, `mnz`… also spelt `combsum`, `combmnz`…). */
export type FusionMethodName =
  | "rrf" | "wsum" | "mixed" | "wmnz"
  | "sum" | "combsum" | "mnz" | "combmnz" | "max" | "combmax" | "min" | "combmin" | "anz" | "combanz" | "med" | "combmed" | "gmnz" | "combgmnz"
  | "isr" | "log_isr" | "logn_isr" | "rbc" | "bordafuse" | "w_bordafuse" | "condorcet" | "w_condorcet"
  | "probfuse" | "bayesfuse" | "mapfuse" | "posfuse" | "segfuse" | "slidefuse";

/** A normalisation by ranx's name; `"none"` or `null` for none. */
export type FusionNorm = "min-max" | "min_max" | "min-max-inverted" | "min_max_inverted" | "max" | "sum" | "zmuv" | "z-score" | "rank" | "borda" | "none";

/** Options of `fuse` (ranx's `fuse(runs, norm, method, params)`, the params beside the method under ranx's names). */
export interface FuseOptions {
  /**
   * `"rrf"` (default); `"wsum"`, `"mixed"`, `"wmnz"` (weights); `"sum"`, `"mnz"`, `"max"`, `"min"`, `"anz"`, `"med"`,
   * `"gmnz"` (gamma) over the normalised scores; `"isr"`, `"log_isr"`, `"logn_isr"` (sigma), `"rbc"` (phi),
   * `"bordafuse"`, `"w_bordafuse"` (weights), `"condorcet"`, `"w_condorcet"` (weights) over the positions; the trained
   * `"probfuse"`, `"posfuse"`, `"segfuse"` (probs), `"slidefuse"` (probs, w), `"bayesfuse"` (logOdds), `"mapfuse"`
   * (mapScores), whose params `optimizeFusion` trains.
   */
  method?: FusionMethodName;
  /** RRF's k (default 60). */
  k?: number;
  /** One weight per run (`wsum`, `mixed`, `wmnz`, `w_bordafuse`, `w_condorcet`). */
  weights?: number[];
  /** `rbc`'s persistence φ. */
  phi?: number;
  /** `gmnz`'s exponent γ. */
  gamma?: number;
  /** `logn_isr`'s σ in [0, 1] (default 0.01). */
  sigma?: number;
  /** `slidefuse`'s window half-width. */
  w?: number;
  /** Trained probabilities, one array per run (`probfuse`, `posfuse`, `segfuse`, `slidefuse`). */
  probs?: number[][];
  /** `bayesfuse`'s trained log-odds, one array per run. */
  logOdds?: number[][];
  /** `mapfuse`'s trained MAP, one per run. */
  mapScores?: number[];
  /** Normalisation per run and query before fusing: `"min-max"` (default, as ranx), `"min-max-inverted"`, `"max"`, `"sum"`, `"zmuv"` / `"z-score"`, `"rank"`, `"borda"`, or `null` / `"none"`. The position-based methods see it only through the order it gives. */
  norm?: FusionNorm | null;
}

/**
 * Fuses ranx-shaped runs as ranx's `fuse` does, with any of ranx's methods and normalisations: normalise each run
 * per query, then combine (RRF: Σ 1/(k + rank), rank 1-based by score descending). An unknown method or
 * normalisation is INVALID_ARGUMENT naming the nearest valid names. The fused run lists every retrieved document per query by fused score
 * descending, ties by doc id ascending; queries are the union of the runs' queries.
 */
export function fuse(runs: FusionRun[], options: FuseOptions = {}): FusionRun {
  if (options === null || typeof options !== "object") invalidArgument("options", "expected {method, k, weights, norm}");
  return wasm.fuseRuns(runs, options) as FusionRun;
}

// ------------------------------------------------------------------------------------------ adaptive weight

export function scores(field: string, xs: unknown): Float64Array {
  if (xs !== null && typeof xs === "object" && typeof (xs as { length?: unknown }).length === "number") checkListLength(xs as { length: number }, field);
  // a BigInt64Array / BigUint64Array holds BigInts, which Float64Array.from refuses with a TypeError
  if (xs instanceof BigInt64Array || xs instanceof BigUint64Array) invalidArgument(field, "expected numbers, got a BigInt typed array (convert it with Float64Array.from(xs, Number))");
  if (ArrayBuffer.isView(xs) && !(xs instanceof DataView)) return Float64Array.from(xs as unknown as ArrayLike<number>);
  if (!Array.isArray(xs)) invalidArgument(field, "expected an array of numbers");
  xs.forEach((x, i) => {
    if (typeof x !== "number") invalidArgument(`${field}[${i}]`, `expected a number, got ${typeof x}`);
  });
  return Float64Array.from(xs as number[]);
}

/** Options of `adaptiveWeight`. */
export interface AdaptiveWeightOptions {
  /** `"rmse"` (default) or `"mae"` over the rank changes. */
  error?: "rmse" | "mae";
  /** The floor of the weight (default 0). */
  minWeight?: number;
}

/**
 * The adaptive reranker weight (seed 002): the RMSE or MAE between each document's rank before and after
 * reranking (ranks by score descending), floored by `minWeight`: `weight = max(error, minWeight)`.
 */
export function adaptiveWeight(beforeScores: ArrayLike<number>, afterScores: ArrayLike<number>, options: AdaptiveWeightOptions = {}): {
  /** `max(error, minWeight)`. */
  weight: number;
  /** The RMSE or MAE between the ranks before and after. */
  error: number;
} {
  const before = scores("beforeScores", beforeScores);
  const after = scores("afterScores", afterScores);
  return wasm.adaptiveWeight(before, after, options) as { weight: number; error: number };
}

/** Options of `combineScores`. */
export interface CombineScoresOptions {
  /** Default 1. */
  retrieverWeight?: number;
  /** Default 1; the adaptive weight is a natural choice. */
  rerankerWeight?: number;
}

/** The blog's combined score `(s × retrieverWeight + r × rerankerWeight) / 2` for each document. */
export function combineScores(retrieverScores: ArrayLike<number>, rerankerScores: ArrayLike<number>, options: CombineScoresOptions = {}): number[] {
  const s = scores("retrieverScores", retrieverScores);
  const r = scores("rerankerScores", rerankerScores);
  return Array.from(wasm.combineScores(s, r, options));
}

