// Haystack's rankers that need no model: RecentnessRanker, LostInTheMiddleRanker, DiversityRanker (on embeddings).
// Semantics: docs/parity.md §3–§5 (Haystack 1.x/2.x); the Rust docs in src/rankers/ carry the rules.
//
// Every `run` takes a list of documents or a list of lists (each list ranked on its own) and answers in the same
// shape. Returned documents are shallow copies of the given ones with the new `score` (inputs are not mutated).
import * as wasm from "../wasm/rerankit.js";
import type * as rust from "../rust_types.js";
import { Document, type DocumentDict, type DocumentInit } from "../document.js";
import { MAX_LIST_LENGTH, RerankitError, checkListLength, invalidArgument } from "../errors.js";

/** A `Document`, or the options to build one (`{content, meta, score, …}`). */
export type DocumentLike = Document | DocumentInit;

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

export type { RankingMode, Similarity, StrategyName } from "../rust_types.js";

/** Options of `RecentnessRanker`. */
export interface RecentnessRankerOptions extends Partial<Omit<rust.RecentnessRankerOptions, "dateMetaField">>, Pick<rust.RecentnessRankerOptions, "dateMetaField"> {
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
    const res = wasm.recentnessRank(lists.map((l) => dicts(l, false)), nested, this.options);
    const ranked = lists.map((list, l) => {
      const ranking = res.lists[l];
      return ranking === null ? list.slice() : ranking.map((r) => copyOf(list[r.index], { score: r.score }));
    });
    return { documents: reshape(ranked, nested), warnings: res.warnings };
  }
}

// ------------------------------------------------------------------------------------------ LostInTheMiddleRanker

/** Options of `LostInTheMiddleRanker`. */
export interface LostInTheMiddleRankerOptions extends Partial<rust.LostInTheMiddleRankerOptions> {}

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
    const res = wasm.lostInTheMiddleRank(lists.map((l) => dicts(l, false)), nested, this.options);
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
export interface DiversityRankerOptions extends Partial<rust.DiversityRankerOptions> {
  /** Embeds query texts and documents that have no `embedding`. Without it, embeddings must be given. */
  embedder?: TextEmbedder | null;
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
    const res = wasm.diversityRank(queryEmbeddings.map((e) => Array.from(e)), lists.map((l) => dicts(l, true)), nested, this.options);
    return reshape(lists.map((list, l) => res.lists[l].map((r) => copyOf(list[r.index], { score: r.score }))), nested);
  }

  /** One `{embedding | text}` per list, following Haystack's pairing of queries and lists. */
  #pairQueries(query: unknown, listCount: number, nested: boolean): { embedding: ArrayLike<number> | null; text: string | null }[] {
    const one = (q: unknown, field: string): { embedding: ArrayLike<number> | null; text: string | null } => {
      // Haystack raises on an empty query before embedding it
      if (q === "") invalidArgument(field, "is empty: DiversityRanker needs a query to rank for");
      if (typeof q === "string") return { embedding: null, text: q };
      if (isNumberArray(q)) return { embedding: q, text: null };
      if (q !== null && typeof q === "object" && !Array.isArray(q)) {
        const { query: text, queryEmbedding } = q as { query?: unknown; queryEmbedding?: unknown };
        if (queryEmbedding != null) {
          if (!isNumberArray(queryEmbedding)) invalidArgument(`${field}.queryEmbedding`, "expected an array of numbers");
          return { embedding: queryEmbedding, text: typeof text === "string" ? text : null };
        }
        if (text === "") invalidArgument(`${field}.query`, "is empty: DiversityRanker needs a query to rank for");
        if (typeof text === "string") return { embedding: null, text };
      }
      return invalidArgument(field, "expected a query string, a query embedding, or {query, queryEmbedding}");
    };
    const many = Array.isArray(query) && !isNumberArray(query);
    if (!many) return Array.from({ length: listCount }, () => one(query, "query"));
    const qs = query as unknown[];
    // a list of one query is one query (Haystack's `len(queries) == 1`), used for every list
    if (qs.length === 1) return Array.from({ length: listCount }, () => one(qs[0], "query[0]"));
    if (!nested || qs.length !== listCount) {
      invalidArgument("query", `${qs.length} queries for ${nested ? `${listCount} lists` : "a single list"}: give one query, or one list of documents per query`);
    }
    return qs.map((q, i) => one(q, `query[${i}]`));
  }
}
