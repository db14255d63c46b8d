// Retrieval metrics with trec_eval 10.0 semantics (docs/parity.md §7), the Haystack 1.x and graphrag-eval profiles
// (§8, seed 004), and run comparison with significance tests. The formulas live in src/metrics/ (one Rust
// function per measure, the formula in its doc comment).
//
// Inputs: TREC text (string or bytes: `qid iter docno grade` / `qid Q0 docno rank score tag`), ranx-shaped
// objects `{qid: {docno: value}}`, `Map`s of either, query-major columns (ColumnarQrels / ColumnarRun, declared
// in bindings/wasm/src/metrics.rs), or handles from parseQrels / parseRun (parse once, evaluate many times).
// Text is parsed inside wasm in one call; objects are flattened here into columns and cross the boundary once;
// columnar input crosses as its typed arrays, the query ids joined and the document ids as one UTF-8 buffer, or
// not at all when they are a DocIdTable already in wasm (doc_id_table.ts).
import * as wasm from "../wasm/rerankit.js";
import type * as rust from "../rust_types.js";
import type { ColumnarQrels, ColumnarRun } from "../wasm/rerankit.js";
import { checkListLength, invalidArgument } from "../errors.js";
import { OwnedWasm, notMadeByRerankit } from "../runtimes/wasm_instance.js";
import { DefinedMeasure } from "./defined_measures.js";
import { DocIdTable, idColumn, joinedIdBytes } from "./doc_id_table.js";

/** Parsed relevance judgements (reusable across evaluate calls). */
export class ParsedQrels {
  readonly #wasm: OwnedWasm<wasm.MetricsQrels>;
  /** @internal */
  constructor(handle: wasm.MetricsQrels) {
    this.#wasm = new OwnedWasm(handle, "ParsedQrels");
  }
  /** @internal The wasm object (`FREED` after free()). */
  get handle(): wasm.MetricsQrels {
    if (!(#wasm in this)) throw notMadeByRerankit("ParsedQrels");
    return this.#wasm.get();
  }
  /** Number of queries with judgements. */
  get numQueries(): number {
    return this.handle.numQueries;
  }
  /** Number of judgements. */
  get size(): number {
    return this.handle.size;
  }
  /** Releases the wasm memory now (otherwise the garbage collector does, eventually); a second call does nothing. */
  free(): void {
    if (#wasm in this) this.#wasm.free();
  }
}

/** A parsed run (reusable across evaluate calls). */
export class ParsedRun {
  readonly #wasm: OwnedWasm<wasm.MetricsRun>;
  /** @internal */
  constructor(handle: wasm.MetricsRun) {
    this.#wasm = new OwnedWasm(handle, "ParsedRun");
  }
  /** @internal The wasm object (`FREED` after free()). */
  get handle(): wasm.MetricsRun {
    if (!(#wasm in this)) throw notMadeByRerankit("ParsedRun");
    return this.#wasm.get();
  }
  /** Number of queries in the run. */
  get numQueries(): number {
    return this.handle.numQueries;
  }
  /** Number of run lines. */
  get size(): number {
    return this.handle.size;
  }
  /** The tag column of the run's last line (trec_eval's `runid`). */
  get name(): string {
    return this.handle.name;
  }
  /** Releases the wasm memory now (otherwise the garbage collector does, eventually); a second call does nothing. */
  free(): void {
    if (#wasm in this) this.#wasm.free();
  }
}

/** `{qid: {docno: value}}` as objects or Maps. */
export type NestedScores =
  | Record<string, Record<string, number>>
  | Map<string, Map<string, number> | Record<string, number>>;

export type { ColumnarQrels, ColumnarRun } from "../wasm/rerankit.js";

/** Qrels: TREC text, its bytes, a ranx-shaped `{qid: {docno: grade}}`, columns, or parseQrels' result. */
export type QrelsInput = string | Uint8Array | NestedScores | ColumnarQrels | ParsedQrels;
/** A run: TREC text, its bytes, a ranx-shaped `{qid: {docno: score}}`, columns, or parseRun's result. */
export type RunInput = string | Uint8Array | NestedScores | ColumnarRun | ParsedRun;

export type { QueryScope, TiePolicy, Dialect, RecallRounding } from "../rust_types.js";

/** Options of `parseRun` and `runFromColumns`. */
export interface RunParseOptions extends Partial<rust.RunParseOptions> {}

/** Options of `evaluate` (trec_eval's command-line options by name). */
export interface EvaluateOptions extends Partial<Omit<rust.EvaluateOptions, "intents">> {
  /**
   * Intent-aware (diversity) qrels, `qid subtopic docno grade` per line (TREC Web track / ndeval format), as text
   * or UTF-8 bytes, for ndeval's measures (`alpha_nDCG@k`, `ERR_IA@k`, `nERR_IA@k`, `P_IA@k`, `StRecall@k`,
   * `AP_IA`, `NRBP`, `nNRBP`); the ordinary qrels still decide which queries are evaluated.
   */
  intents?: string | Uint8Array | null;
}

/** A measure's value: a number, or text for trec_eval's text measures (`runid`, `relstring`). */
export type MetricValue = number | string;

/** What `evaluate` returns. */
export interface Evaluation {
  /** Measure → aggregate (mean over queries; sums for counts; trec_eval's rules). */
  aggregate: Record<string, MetricValue>;
  /** Query id → measure → value, queries in trec_eval's order. */
  perQuery: Record<string, Record<string, MetricValue>>;
  /** The run's name (TREC tag column), "" for objects. */
  runName: string;
  /** With `options.returnStd`: measure → standard deviation of its per-query values (ranx's `return_std`). */
  std?: Record<string, number>;
}

/** Parses TREC qrels text (`qid iter docno grade`; `#` comment lines skipped). Errors name the line. */
export function parseQrels(text: string | Uint8Array): ParsedQrels {
  return new ParsedQrels(wasm.metricsParseQrels(bytes(text, "qrels")));
}

/** Parses a TREC run (`qid Q0 docno rank score tag`). A duplicate document is an error unless keepFirstDuplicate. */
export function parseRun(text: string | Uint8Array, options: RunParseOptions = {}): ParsedRun {
  return new ParsedRun(wasm.metricsParseRun(bytes(text, "run"), options));
}

/**
 * Qrels from query-major columns ({@link ColumnarQrels}), kept for many evaluate calls as parseQrels' result is.
 * Bad columns are `INVALID_ARGUMENT` naming the field (`qrels.offsets[3]: …`).
 */
export function qrelsFromColumns(columns: ColumnarQrels): ParsedQrels {
  return new ParsedQrels(columnarQrels(columns, "qrels"));
}

/**
 * A run from query-major columns ({@link ColumnarRun}), kept for many evaluate calls as parseRun's result is. A
 * document twice in one query is an error unless keepFirstDuplicate.
 */
export function runFromColumns(columns: ColumnarRun, options: RunParseOptions = {}): ParsedRun {
  return new ParsedRun(columnarRun(columns, "run", options?.keepFirstDuplicate === true));
}

/**
 * Whether `input` is meant as columns: its `queryIds` is an array or its `offsets` a typed array, neither of which
 * `{qid: {docno: value}}` can hold (a query's documents are an object), so no nested input is read as columns.
 */
function isColumnar(input: object): boolean {
  if (input instanceof Map) return false;
  const record = input as Record<string, unknown>;
  return Array.isArray(record.queryIds) || ArrayBuffer.isView(record.offsets);
}

/** `ids` (a column of strings) joined by U+0000, the form the wasm call splits. */
function joinedIds(ids: unknown, field: string): [string, number] {
  const column = idColumn(ids, field);
  return [column.join("\0"), column.length];
}

function columnarQrels(columns: ColumnarQrels, field: string): wasm.MetricsQrels {
  if (columns === null || typeof columns !== "object") invalidArgument(field, "expected columns {queryIds, offsets, docIds, docs, grades}");
  const [queryIds, numQueries] = joinedIds(columns.queryIds, `${field}.queryIds`);
  if (columns.docIds instanceof DocIdTable) return wasm.metricsQrelsFromTableColumnar(field, columns, queryIds, numQueries, columns.docIds.handle);
  const [docIds, numDocs] = joinedIdBytes(columns.docIds, `${field}.docIds`);
  return wasm.metricsQrelsFromColumnar(field, columns, queryIds, numQueries, docIds, numDocs);
}

function columnarRun(columns: ColumnarRun, field: string, keepFirst: boolean): wasm.MetricsRun {
  if (columns === null || typeof columns !== "object") invalidArgument(field, "expected columns {queryIds, offsets, docIds, docs, scores}");
  const [queryIds, numQueries] = joinedIds(columns.queryIds, `${field}.queryIds`);
  if (columns.docIds instanceof DocIdTable) return wasm.metricsRunFromTableColumnar(field, columns, queryIds, numQueries, columns.docIds.handle, keepFirst);
  const [docIds, numDocs] = joinedIdBytes(columns.docIds, `${field}.docIds`);
  return wasm.metricsRunFromColumnar(field, columns, queryIds, numQueries, docIds, numDocs, keepFirst);
}

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

function utf8(data: Uint8Array, field: string): string {
  try {
    return decoder.decode(data);
  } catch {
    return invalidArgument(field, "is not UTF-8 text");
  }
}

function bytes(text: unknown, field: string): Uint8Array {
  if (typeof text === "string") return encoder.encode(text);
  if (text instanceof Uint8Array) return text;
  return invalidArgument(field, "expected TREC text (a string or a Uint8Array)");
}

interface Columns {
  qids: string;
  counts: Uint32Array;
  docnos: string;
  values: Float64Array;
}

/** Flattens `{qid: {docno: value}}` (objects or Maps) into columns, checking every value is a number. */
function columns(input: object, field: string): Columns {
  const queries: [string, string[], unknown[]][] = [];
  let total = 0;
  const entries: Iterable<[string, unknown]> = input instanceof Map ? input.entries() : Object.entries(input);
  for (const [qid, docs] of entries) {
    if (typeof qid !== "string") invalidArgument(field, `query ids must be strings, got ${typeof qid}`);
    if (docs === null || typeof docs !== "object" || Array.isArray(docs)) {
      invalidArgument(`${field}[${JSON.stringify(qid)}]`, "expected {docno: number} (an object or a Map)");
    }
    let docnos: string[];
    let values: unknown[];
    if (docs instanceof Map) {
      docnos = Array.from(docs.keys());
      values = Array.from(docs.values());
      const bad = docnos.find((d) => typeof d !== "string");
      if (bad !== undefined) invalidArgument(`${field}[${JSON.stringify(qid)}]`, `document ids must be strings, got ${typeof bad}`);
    } else {
      docnos = Object.keys(docs);
      values = Object.values(docs);
    }
    total += docnos.length;
    queries.push([qid, docnos, values]);
  }
  const counts = new Uint32Array(queries.length);
  const values = new Float64Array(total);
  const docnoParts: string[] = [];
  let at = 0;
  queries.forEach(([qid, docnos, vals], q) => {
    counts[q] = docnos.length;
    for (let i = 0; i < vals.length; i++) {
      const v = vals[i];
      if (typeof v !== "number") {
        invalidArgument(`${field}[${JSON.stringify(qid)}][${JSON.stringify(docnos[i])}]`, `expected a number, got ${v === null ? "null" : typeof v}`);
      }
      values[at++] = v;
    }
    if (docnos.length > 0) docnoParts.push(docnos.join("\0"));
  });
  return { qids: queries.map(([qid]) => qid).join("\0"), counts, docnos: docnoParts.join("\0"), values };
}

/** @internal Qrels input → a handle, and whether this call owns it (and must free it). */
export function qrelsHandle(input: QrelsInput): [ParsedQrels, boolean] {
  if (input instanceof ParsedQrels) return [input, false];
  if (typeof input === "string" || input instanceof Uint8Array) return [parseQrels(input), true];
  if (input !== null && typeof input === "object") {
    if (isColumnar(input)) return [new ParsedQrels(columnarQrels(input as ColumnarQrels, "qrels")), true];
    const c = columns(input, "qrels");
    return [new ParsedQrels(wasm.metricsQrelsFromColumns(c.qids, c.counts, c.docnos, c.values)), true];
  }
  return invalidArgument("qrels", "expected TREC text, {qid: {docno: grade}}, a Map, columns, or parseQrels()");
}

/** @internal Run input → a handle, and whether this call owns it. */
export function runHandle(input: RunInput, field: string, keepFirst: boolean): [ParsedRun, boolean] {
  if (input instanceof ParsedRun) return [input, false];
  if (typeof input === "string" || input instanceof Uint8Array) {
    return [new ParsedRun(wasm.metricsParseRun(bytes(input, field), { keepFirstDuplicate: keepFirst })), true];
  }
  if (input !== null && typeof input === "object") {
    if (isColumnar(input)) return [new ParsedRun(columnarRun(input as ColumnarRun, field, keepFirst)), true];
    const c = columns(input, field);
    return [new ParsedRun(wasm.metricsRunFromColumns(c.qids, c.counts, c.docnos, c.values, keepFirst)), true];
  }
  return invalidArgument(field, "expected TREC text, {qid: {docno: score}}, a Map, columns, or parseRun()");
}

/**
 * Evaluates a run against qrels. `measures`: trec_eval names (`map`, `P_10`, `P.5,10`, `ndcg_cut_10`,
 * `official`, `all_trec`, `ndcg.1=3,2=9`), ranx names (`ndcg@10`, `mrr@10`, `recall@100`, `map@100`) or
 * ir_measures names (`P(rel=2)@10`, `RBP(p=0.8)`, `ERR@10`, `Judged@10`, `alpha_nDCG@20` with
 * `options.intents`); optional with `options.profile`. Results are keyed by the names as given (`P.5,10`
 * gives `P_5` and `P_10`). Measures of your own ({@link defineByQuery}, {@link define}) go in the same list; their
 * values follow the named ones'.
 */
export function evaluate(qrels: QrelsInput, run: RunInput, measures?: MeasureList, options: EvaluateOptions = {}): Evaluation {
  const [q, ownQ] = qrelsHandle(qrels);
  let ownR = false;
  let r: ParsedRun | undefined;
  try {
    [r, ownR] = runHandle(run, "run", options?.keepFirstDuplicate === true);
    const settings = wasmOptions(options);
    const list = measures === undefined || measures === null ? [] : Array.isArray(measures) ? measures : [measures];
    // before filtering: a sparse array of length 2³² − 1 would be walked index by index for a minute
    checkListLength(list, "measures");
    const defined = list.filter((m): m is DefinedMeasure => m instanceof DefinedMeasure);
    if (defined.length === 0) return shape(wasm.metricsEvaluate(q.handle, r.handle, measures ?? null, settings));
    const names = list.filter((m) => !(m instanceof DefinedMeasure));
    const named = names.length > 0 || settings.profile !== undefined
      ? shape(wasm.metricsEvaluate(q.handle, r.handle, names.length > 0 ? names : null, settings))
      : { aggregate: {}, perQuery: {}, runName: r.name };
    return withDefined(named, defined, wasm.metricsQueryInputs(q.handle, r.handle, settings), q.numQueries === 0, settings.returnStd === true);
  } finally {
    if (ownQ) q.free();
    if (ownR && r) r.free();
  }
}

/** @internal `evaluate`'s options as the wasm call takes them (compareRuns shares them). */
export function wasmOptions(options: object | null | undefined): Record<string, unknown> {
  if (options === null || options === undefined) return {};
  if (typeof options !== "object") invalidArgument("options", "expected an object");
  const { keepFirstDuplicate: _ignored, ...rest } = options as Record<string, unknown>;
  if (rest.intents instanceof Uint8Array) rest.intents = utf8(rest.intents, "options.intents");
  return rest;
}

/** Measures for {@link evaluate}: names, {@link DefinedMeasure}s of your own, or a list of both. */
export type MeasureList = string | DefinedMeasure | (string | DefinedMeasure)[];

/** `evaluation` with the defined measures' values added after the named ones, over the same queries. */
function withDefined(evaluation: Evaluation, defined: DefinedMeasure[], inputs: wasm.QueryInputColumns, emptyQrels: boolean, returnStd: boolean): Evaluation {
  const keys = new Set([...Object.keys(evaluation.aggregate), ...Object.keys(Object.values(evaluation.perQuery)[0] ?? {})]);
  for (const measure of defined) {
    if (keys.has(measure.key)) invalidArgument("measures", `"${measure.key}" is given twice`);
    keys.add(measure.key);
    const values = measure.valuesFor(inputs);
    inputs.qids.forEach((qid, i) => {
      (evaluation.perQuery[qid] ??= {})[measure.key] = values[i];
    });
    // empty qrels, which only the ir_measures dialect answers: the named measures' means are NaN, left out
    if (emptyQrels) continue;
    const [mean, std] = wasm.metricsMeanAndStd(values);
    evaluation.aggregate[measure.key] = mean;
    if (returnStd) (evaluation.std ??= {})[measure.key] = std;
  }
  return evaluation;
}

function shape(raw: wasm.EvaluationColumns): Evaluation {
  const m = raw.keys.length;
  const aggregate: Record<string, MetricValue> = {};
  raw.keys.forEach((key, j) => {
    if (!Number.isNaN(raw.aggregate[j])) aggregate[key] = raw.aggregate[j];
  });
  const rows: Record<string, MetricValue>[] = raw.qids.map((_, q) => {
    const row: Record<string, MetricValue> = {};
    for (let j = 0; j < m; j++) row[raw.keys[j]] = raw.values[q * m + j];
    return row;
  });
  for (const [q, j, text] of raw.texts) {
    if (q < 0) aggregate[raw.keys[j]] = text;
    else rows[q][raw.keys[j]] = text;
  }
  const perQuery: Record<string, Record<string, MetricValue>> = {};
  raw.qids.forEach((qid, q) => {
    perQuery[qid] = rows[q];
  });
  const evaluation: Evaluation = { aggregate, perQuery, runName: raw.runName };
  if (raw.std !== undefined) {
    const std: Record<string, number> = {};
    raw.keys.forEach((key, j) => {
      if (!Number.isNaN(raw.std![j])) std[key] = raw.std![j];
    });
    evaluation.std = std;
  }
  return evaluation;
}

/** @internal The `rerankit eval` command: the qrels and run operands of a trec_eval command line. */
export function trecEvalOperands(args: string[]): [string, string, string?] {
  return wasm.metricsTrecEvalFiles(args);
}

/** @internal trec_eval's report for a command line and the two files' contents. */
export function trecEvalReport(args: string[], qrels: Uint8Array, run: Uint8Array, intents?: Uint8Array): string {
  return wasm.metricsTrecEval(args, qrels, run, intents);
}
