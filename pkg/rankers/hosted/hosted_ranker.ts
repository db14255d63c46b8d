// What every hosted ranker shares, whatever the service: the `Ranker` calls and their options, Haystack's three
// `predict_batch` shapes (with the local model's rules and messages: src/inference/cross_encoder.rs), the document
// text sent (meta fields embedded), lists cut to the service's per-request limit and the pieces merged back, and
// the results as the local model gives them (indices into the caller's list, best first, the caller's objects).
// A subclass only says how one request of at most `maxDocumentsPerRequest` texts is scored.
import { checkListLength, describeValue, invalidArgument, optionsObject, RerankitError } from "../../errors.js";
import { CallControl } from "../../call_control.js";
import * as wasm from "../../wasm/rerankit.js";
import type { RankOptions, Ranker, RerankDocument, RerankResult } from "../ranker.js";
import { AbortScope } from "./abort_scope.js";
import { documentText } from "./document_text.js";

/** A score for `index` (into the texts of the request that produced it). */
export interface Scored {
  index: number;
  score: number;
}

/** One request to a service: a query and at most `maxDocumentsPerRequest` texts. */
export interface ScoreRequest {
  query: string;
  texts: string[];
  /** How many best results the call needs from this request (`null`: all of them). */
  topN: number | null;
  /** Fires when the caller aborts, or when a sibling request of the same call has failed. */
  signal: AbortSignal;
}

/** Options every hosted ranker takes when it is made. */
export interface HostedRankerOptions {
  /** Results per list when a call gives no `topK`; `null` keeps all. Default 10 (Haystack's). */
  topK?: number | null;
  /** Meta fields whose values precede the content (joined with "\n") in the text sent; results carry the caller's documents, without them. */
  embedMetaFields?: string[];
  /** Most documents per request: a longer list is sent in pieces whose results are merged and re-sorted. */
  maxDocumentsPerRequest?: number;
  /** Requests of one call in flight at once (pieces of a long list, lists of `rerankBatch`). Default 4. */
  concurrency?: number;
}

/** The keys of {@link HostedRankerOptions}, for each ranker's list of valid options. */
export const HOSTED_RANKER_KEYS = ["topK", "embedMetaFields", "maxDocumentsPerRequest", "concurrency"] as const;

const CALL_KEYS = ["topK", "returnDocuments", "signal"];

/** `value` as an integer ≥ `min`; `INVALID_ARGUMENT` naming `field` otherwise (NaN, fractions, strings…). */
export function integerOption(value: unknown, field: string, min: number): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min) invalidArgument(field, `expected an integer ≥ ${min}, got ${describeValue(value)}`);
  return value;
}

/** `value` as a non-empty string; `INVALID_ARGUMENT` naming `field` otherwise. */
export function stringOption(value: unknown, field: string): string {
  if (typeof value !== "string" || value.length === 0) invalidArgument(field, `expected a non-empty string, got ${describeValue(value)}`);
  return value;
}

/** `value` as a `topK`: an integer ≥ 1, or `null` (keep all); `INVALID_ARGUMENT` naming `field` otherwise. */
export function topKOption(value: unknown, field: string): number | null {
  return value === null ? null : integerOption(value, field, 1);
}

/** A reranker behind a service; subclasses implement {@link HostedRanker.scoreRequest}. */
export abstract class HostedRanker implements Ranker {
  /** Results per list when a call gives no `topK`. */
  readonly topK: number | null;
  /** Meta fields whose values precede the content in the text sent. */
  readonly embedMetaFields: readonly string[];
  /** Most documents per request; longer lists are sent in pieces. */
  readonly maxDocumentsPerRequest: number;
  /** Requests of one call in flight at once. */
  readonly concurrency: number;
  /** The service's name in errors (`cohere`, `workers-ai`, a host). */
  abstract readonly service: string;

  protected constructor(options: HostedRankerOptions, defaults: { maxDocumentsPerRequest: number }) {
    this.topK = options.topK === undefined ? 10 : topKOption(options.topK, "topK");
    const fields = options.embedMetaFields ?? [];
    if (!Array.isArray(fields)) invalidArgument("embedMetaFields", `expected an array of meta field names, got ${describeValue(fields)}`);
    fields.forEach((f, i) => stringOption(f, `embedMetaFields[${i}]`));
    this.embedMetaFields = Object.freeze([...fields]);
    this.maxDocumentsPerRequest = integerOption(options.maxDocumentsPerRequest ?? defaults.maxDocumentsPerRequest, "maxDocumentsPerRequest", 1);
    this.concurrency = integerOption(options.concurrency ?? 4, "concurrency", 1);
  }

  /** Scores one request's texts: `index` into `request.texts`, any order, at least `topN` of them. */
  protected abstract scoreRequest(request: ScoreRequest): Promise<Scored[]>;

  async rerank<D extends RerankDocument>(query: string, documents: readonly D[], options?: RankOptions): Promise<RerankResult<D>[]> {
    const call = this.#callOptions(options);
    const q = queryText(query, "query");
    const texts = this.#texts(documents, "documents");
    const [ranked] = await this.#rankGroups([{ query: q, texts }], call);
    return attach(ranked, documents, call.returnDocuments);
  }

  /**
   * Haystack's `predict_batch` shapes: one query and a list, one query and a list of lists (each ranked on its
   * own), or n queries and n lists.
   */
  async rerankBatch<D extends RerankDocument>(
    queries: string | readonly string[],
    documents: readonly D[] | readonly (readonly D[])[],
    options?: RankOptions,
  ): Promise<RerankResult<D>[] | RerankResult<D>[][]> {
    const call = this.#callOptions(options);
    const qs = queryList(queries);
    if (!Array.isArray(documents)) invalidArgument("documents", "expected an array of documents (or of arrays of documents)");
    checkListLength(documents, "documents");
    const nested = documents.length > 0 && Array.from(documents).every((d) => Array.isArray(d));
    // the local rankers' pairing rule, from the one place it is written (src/rankers/batch.rs)
    const queryOf = wasm.queryForEachList(qs.length, nested ? documents.length : undefined);
    if (!nested) {
      const [ranked] = await this.#rankGroups([{ query: qs[queryOf[0]], texts: this.#texts(documents as readonly D[], "documents") }], call);
      return attach(ranked, documents as readonly D[], call.returnDocuments);
    }
    const lists = documents as readonly (readonly D[])[];
    const groups = lists.map((list, i) => ({ query: qs[queryOf[i]], texts: this.#texts(list, `documents[${i}]`) }));
    const ranked = await this.#rankGroups(groups, call);
    return ranked.map((r, i) => attach(r, lists[i], call.returnDocuments));
  }

  #callOptions(options: RankOptions | undefined): { topK: number | null; returnDocuments: boolean; control: CallControl; signal: AbortSignal | undefined } {
    const o = optionsObject(options, CALL_KEYS);
    const topK = o.topK === undefined ? this.topK : topKOption(o.topK, "topK");
    if (o.returnDocuments !== undefined && typeof o.returnDocuments !== "boolean") invalidArgument("returnDocuments", `expected a boolean, got ${describeValue(o.returnDocuments)}`);
    const control = new CallControl(this.service, o.signal, undefined);
    return { topK, returnDocuments: o.returnDocuments ?? false, control, signal: o.signal };
  }

  #texts(documents: readonly RerankDocument[], field: string): string[] {
    if (!Array.isArray(documents)) invalidArgument(field, "expected an array of documents");
    checkListLength(documents, field);
    // Array.from visits the holes of a sparse array, which then fail as undefined documents
    return Array.from(documents, (d, i) => documentText(d, `${field}[${i}]`, this.embedMetaFields));
  }

  /** Every group's ranking: its texts cut into requests, all requests of the call sharing `concurrency` slots. */
  async #rankGroups(groups: { query: string; texts: string[] }[], call: { topK: number | null; control: CallControl; signal: AbortSignal | undefined }): Promise<Scored[][]> {
    call.control.check();
    const per = this.maxDocumentsPerRequest;
    const jobs: { group: number; offset: number; texts: string[] }[] = [];
    groups.forEach((g, group) => {
      for (let offset = 0; offset < g.texts.length; offset += per) jobs.push({ group, offset, texts: g.texts.slice(offset, offset + per) });
    });
    const merged: Scored[][] = groups.map(() => []);
    const scope = new AbortScope(call.signal);
    let next = 0;
    const lane = async () => {
      while (next < jobs.length) {
        const job = jobs[next++];
        const topN = call.topK === null ? null : Math.min(call.topK, job.texts.length);
        const scored = await this.scoreRequest({ query: groups[job.group].query, texts: job.texts, topN, signal: scope.signal });
        merged[job.group].push(...this.#checked(scored, job.texts.length, topN).map((s) => ({ index: s.index + job.offset, score: s.score })));
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(this.concurrency, jobs.length) }, () => lane().catch((e) => {
        // one failed request fails the call: its siblings stop, and the first error is the one reported
        scope.abort(e);
        throw e;
      })));
    } catch (e) {
      call.control.check();
      throw e;
    } finally {
      scope.dispose();
    }
    // scores from separate requests are comparable: each is the pair's own relevance, not normalised over a list
    return merged.map((scored) => {
      scored.sort((a, b) => b.score - a.score || a.index - b.index);
      return call.topK === null ? scored : scored.slice(0, call.topK);
    });
  }

  /** A service's scores, refused unless each is a finite number for a distinct index of the request. */
  #checked(scored: unknown, count: number, topN: number | null): Scored[] {
    const bad = (problem: string): never => {
      throw new RerankitError(`${this.service}: unexpected response: ${problem}`, "REMOTE");
    };
    if (!Array.isArray(scored)) bad("expected a list of results");
    const seen = new Set<number>();
    for (const s of scored as unknown[]) {
      const { index, score } = (s ?? {}) as { index?: unknown; score?: unknown };
      if (typeof index !== "number" || !Number.isInteger(index) || index < 0 || index >= count) bad(`result index ${describeValue(index)} is not one of the ${count} documents sent`);
      if (seen.has(index as number)) bad(`document ${index} is scored twice`);
      if (typeof score !== "number" || !Number.isFinite(score)) bad(`document ${index} has score ${describeValue(score)}, not a finite number`);
      seen.add(index as number);
    }
    if (seen.size < (topN ?? count)) bad(`${seen.size} results for ${count} documents (${topN ?? count} needed)`);
    return scored as Scored[];
  }
}

function queryList(queries: unknown): string[] {
  if (typeof queries === "string") return [queryText(queries, "queries")];
  if (!Array.isArray(queries)) invalidArgument("queries", `expected a string or an array of strings, got ${describeValue(queries)}`);
  checkListLength(queries, "queries");
  return Array.from(queries, (q, i) => queryText(q, `queries[${i}]`));
}

function queryText(query: unknown, field: string): string {
  if (typeof query !== "string") invalidArgument(field, `expected a string, got ${describeValue(query)}`);
  if (query.trim().length === 0) invalidArgument(field, "must be a non-empty string");
  return query;
}

function attach<D>(ranked: Scored[], documents: readonly D[], returnDocuments: boolean): RerankResult<D>[] {
  return returnDocuments ? ranked.map((r) => ({ index: r.index, score: r.score, document: documents[r.index] })) : ranked.map((r) => ({ index: r.index, score: r.score }));
}
