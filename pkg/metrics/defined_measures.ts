// Measures the caller defines, in the spirit of ir_measures' `define` and `define_byquery` (ir_measures 0.4.3,
// providers/runtime_provider.py): a JavaScript function over one query's judgements and ranking (or over all
// queries at once), evaluated by `evaluate` beside the named measures. It sees exactly what the named measures
// see: the same queries, each ranking under the call's tie policy, `maxResults` and `judgedOnly` (the Rust side
// gives them: src/metrics/evaluation/query_inputs.rs). A cutoff (`measure.at(k)`) keeps each query's first k
// documents, as ir_measures' `groupby('query_id').head(k)`; the aggregate is the mean over the evaluated queries,
// ir_measures' default aggregator. docs/eval.md, "Measures of your own", says where it differs from ir_measures.
import type * as wasm from "../wasm/rerankit.js";
import { describeValue, invalidArgument, optionsObject } from "../errors.js";

/** One judgement, as a defined measure receives it (ir_measures' qrels row). */
export interface Judgement {
  /** The query. */
  queryId: string;
  /** The judged document. */
  docId: string;
  /** Its grade (negative: in the pool but unjudged, as in TREC qrels). */
  relevance: number;
}

/** One retrieved document, as a defined measure receives it (ir_measures' run row), in rank order. */
export interface RankedDocument {
  /** The query. */
  queryId: string;
  /** The retrieved document. */
  docId: string;
  /** Its score in the run. */
  score: number;
}

/** A measure of one query: its judgements (document-id order) and its ranking (rank 1 first, cut at the cutoff). */
export type QueryMeasureFunction = (qrels: Judgement[], run: RankedDocument[]) => number;

/** A measure of every query at once: all judgements and rankings, giving `[queryId, value]` pairs. */
export type MeasureFunction = (qrels: Judgement[], run: RankedDocument[]) => Iterable<readonly [string, number]>;

/** Options of {@link define} and {@link defineByQuery}. */
export interface DefineOptions {
  /** The measure's name in results (default: the function's name). */
  name?: string;
  /** Whether `measure.at(k)` is allowed (default true, as ir_measures). */
  supportCutoff?: boolean;
}

/** A measure defined by a function of yours: pass it (or `measure.at(k)`) to `evaluate` among the measure names. */
export class DefinedMeasure {
  /** The name it is reported under, without the cutoff. */
  readonly name: string;
  /** The cutoff (`at(k)`), or null for the whole ranking. */
  readonly cutoff: number | null;
  readonly #supportCutoff: boolean;
  readonly #values: (queries: QueryInputs[]) => Float64Array;

  /** @internal Use {@link define} or {@link defineByQuery}. */
  constructor(name: string, supportCutoff: boolean, cutoff: number | null, values: (queries: QueryInputs[]) => Float64Array) {
    this.name = name;
    this.cutoff = cutoff;
    this.#supportCutoff = supportCutoff;
    this.#values = values;
  }

  /** The same measure over each query's first `cutoff` documents (ir_measures' `Measure@k`). */
  at(cutoff: number): DefinedMeasure {
    if (!this.#supportCutoff) invalidArgument("cutoff", `measure "${this.name}" was defined with supportCutoff: false`);
    if (!Number.isInteger(cutoff) || cutoff < 1) invalidArgument("cutoff", `expected an integer ≥ 1, got ${describeValue(cutoff)}`);
    return new DefinedMeasure(this.name, true, cutoff, this.#values);
  }

  /** The key of its results: `name`, or `name@k`. */
  get key(): string {
    return this.cutoff === null ? this.name : `${this.name}@${this.cutoff}`;
  }

  /** @internal One value per query of `inputs`, in their order. */
  valuesFor(inputs: wasm.QueryInputColumns): Float64Array {
    const queries = inputs.qids.map((queryId, q): QueryInputs => {
      const judged: Judgement[] = [];
      for (let i = inputs.judgedOffsets[q]; i < inputs.judgedOffsets[q + 1]; i++) {
        judged.push({ queryId, docId: inputs.judgedDocIds[i], relevance: inputs.relevance[i] });
      }
      const ranked: RankedDocument[] = [];
      const end = this.cutoff === null ? inputs.rankedOffsets[q + 1] : Math.min(inputs.rankedOffsets[q + 1], inputs.rankedOffsets[q] + this.cutoff);
      for (let i = inputs.rankedOffsets[q]; i < end; i++) ranked.push({ queryId, docId: inputs.rankedDocIds[i], score: inputs.scores[i] });
      return { queryId, judged, ranked };
    });
    return this.#values(queries);
  }

  /** The key. */
  toString(): string {
    return this.key;
  }
}

/** One evaluated query's judgements and ranking (cut at the measure's cutoff). */
interface QueryInputs {
  queryId: string;
  judged: Judgement[];
  ranked: RankedDocument[];
}

function nameOf(impl: unknown, options: unknown, what: string): { name: string; supportCutoff: boolean } {
  if (typeof impl !== "function") invalidArgument("impl", `expected a function (qrels, run) => ${what}`);
  const { name = (impl as { name: string }).name, supportCutoff = true } = optionsObject(options as DefineOptions | null, ["name", "supportCutoff"]);
  if (typeof name !== "string" || name === "") invalidArgument("options.name", `give the measure a name (the function has none), got ${describeValue(name)}`);
  if (name.includes("@")) invalidArgument("options.name", `"${name}": '@' is the cutoff's (use measure.at(k))`);
  if (typeof supportCutoff !== "boolean") invalidArgument("options.supportCutoff", "expected a boolean");
  return { name, supportCutoff };
}

function checkedValue(value: unknown, name: string, qid: string): number {
  if (typeof value !== "number") invalidArgument(`measure "${name}"`, `query ${qid}: expected a number, got ${describeValue(value)}`);
  return value;
}

/**
 * A measure from a function called once per evaluated query with that query's judgements and ranking
 * (ir_measures' `define_byquery`). The function's name names the measure unless `options.name` does.
 */
export function defineByQuery(impl: QueryMeasureFunction, options: DefineOptions = {}): DefinedMeasure {
  const { name, supportCutoff } = nameOf(impl, options, "number");
  return new DefinedMeasure(name, supportCutoff, null, (queries) =>
    Float64Array.from(queries, (q) => checkedValue(impl(q.judged, q.ranked), name, q.queryId)));
}

/**
 * A measure from a function called once with every evaluated query's judgements and rankings, giving
 * `[queryId, value]` pairs (ir_measures' `define`). A query it gives no value scores 0 (ir_measures' default);
 * a query it names twice, or one the call does not evaluate, is an error.
 */
export function define(impl: MeasureFunction, options: DefineOptions = {}): DefinedMeasure {
  const { name, supportCutoff } = nameOf(impl, options, "[queryId, value] pairs");
  return new DefinedMeasure(name, supportCutoff, null, (queries) => {
    const index = new Map(queries.map((query, q) => [query.queryId, q]));
    const values = new Float64Array(queries.length);
    const given = new Set<string>();
    const pairs = impl(queries.flatMap((q) => q.judged), queries.flatMap((q) => q.ranked));
    if (pairs === null || typeof pairs !== "object" || typeof (pairs as Iterable<unknown>)[Symbol.iterator] !== "function") {
      invalidArgument(`measure "${name}"`, "expected the function to give an iterable of [queryId, value] pairs");
    }
    for (const pair of pairs) {
      if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== "string") invalidArgument(`measure "${name}"`, "expected [queryId, value] pairs");
      const [qid, value] = pair;
      const q = index.get(qid);
      if (q === undefined) invalidArgument(`measure "${name}"`, `query ${qid} is not among the evaluated queries`);
      if (given.has(qid)) invalidArgument(`measure "${name}"`, `query ${qid} given twice`);
      given.add(qid);
      values[q] = checkedValue(value, name, qid);
    }
    return values;
  });
}
