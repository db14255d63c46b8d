// Pipeline evaluation in the style of Haystack 1.x's `EvaluationResult` (farm-haystack 1.26): rows per node
// (Haystack's columns and order), `calculateMetrics` with document/answer scopes and simulated top-k,
// `wrongExamples`, CSV exactly as `EvaluationResult.save` writes it, and the official SQuAD v1.1 / v2.0
// exact-match and F1 (`squadEvaluate`, `normalizeAnswer`). The Rust docs in src/eval/haystack/ carry the rules.
import * as wasm from "../wasm/rerankit.js";
import type * as rust from "../rust_types.js";
import { RerankitError, describeValue, invalidArgument, optionsObject } from "../errors.js";
import { OwnedWasm, notMadeByRerankit } from "../runtimes/wasm_instance.js";
import type { DocumentDict, LabelDict, Span } from "../document.js";

export type { DocumentScope, AnswerScope, EvalMode } from "../rust_types.js";

/** Options of `calculateMetrics` (Haystack's defaults: no simulation, `document_id_or_answer`, `any`, `integrated`). */
export interface HaystackMetricsOptions extends Partial<rust.HaystackMetricsOptions> {
  /**
   * Receives each warning Haystack's `calculate_metrics` logs, with its text: a non-answer `documentScope` with a
   * non-default `answerScope` (once per node), a node without an `eval_mode` column. Default: `console.warn`.
   */
  onWarning?: (message: string) => void;
}

/** Options of `wrongExamples` (Haystack's defaults: n 3, recall_single_hit / f1, thresholds 0.5). */
export interface WrongExamplesOptions extends Partial<rust.WrongExamplesOptions> {
  /**
   * Receives each warning Haystack's `wrong_examples` logs, with its text: a non-answer `documentScope` with a
   * non-default `answerScope` (on a node with document rows), a node without an `eval_mode` column. Default:
   * `console.warn`.
   */
  onWarning?: (message: string) => void;
}

/** `options` without `onWarning`, and where its warnings go (`console.warn` by default). */
function warningHook<T extends { onWarning?: (message: string) => void }>(options: T, method: string): [Omit<T, "onWarning">, (message: string) => void] {
  // anything but an object is left to the wasm side, which names what it expected
  if (options === null || typeof options !== "object" || Array.isArray(options)) return [options as Omit<T, "onWarning">, () => {}];
  const { onWarning, ...rest } = options;
  if (onWarning !== undefined && typeof onWarning !== "function") invalidArgument("onWarning", `expected a function (message) => void, got ${describeValue(onWarning)}`);
  return [rest, onWarning ?? ((m) => console.warn(`[rerankit] EvaluationResult.${method}: ${m}`))];
}

/** One row of a node's table: Haystack's columns (`query`, `gold_answers`, `*_match`, `rank`, `type`, …). */
export type EvalRow = Record<string, unknown>;

/** Metrics of one node (`recall_multi_hit`, `map`, … for documents; `exact_match`, `f1`, … for answers). NaN is `null`. */
export type NodeMetrics = Record<string, number | null>;

/** `{node: metrics}` in node order. */
export type PipelineMetrics = Record<string, NodeMetrics>;

/** One entry of `wrongExamples`: the query, its metrics, and its document or answer rows. */
export interface WrongExample {
  /** The id of the query's `MultiLabel`. */
  multilabel_id: string;
  /** The query. */
  query: string;
  /** The retrieval filters of the query's labels. */
  filters: unknown;
  /** The query's metrics for this node. */
  metrics: Record<string, number | null>;
  /** The node's document rows for the query (retrievers). */
  documents?: EvalRow[];
  /** The node's answer rows for the query (readers, generators). */
  answers?: EvalRow[];
  /** The labels' answers. */
  gold_answers?: unknown;
  /** The labels' document ids. */
  gold_document_ids?: unknown;
  [column: string]: unknown;
}

/** A predicted answer (Haystack `Answer.to_dict()`; `document_ids` may be absent, or given as `document_id`). */
export interface PredictedAnswerDict {
  /** The answer text. */
  answer: string;
  /** `"extractive"`, `"generative"` or `"other"`. */
  type?: string;
  /** The reader's or generator's score. */
  score?: number | null;
  /** The text around the answer. */
  context?: string | null;
  /** Where the answer is in its document. */
  offsets_in_document?: Span[] | null;
  /** Where the answer is in `context`. */
  offsets_in_context?: Span[] | null;
  /** The ids of the documents the answer comes from. */
  document_ids?: string[] | null;
  /** The id of the document the answer comes from (older form of `document_ids`). */
  document_id?: string | null;
  /** Metadata. */
  meta?: Record<string, unknown>;
}

/** Per query: a list aligned with `queries`, or an object keyed by query text (missing queries: no predictions). */
export type PerQuery<T> = Array<T[] | null> | Record<string, T[] | null>;

/** What one node returned (Haystack's node output keys). */
export interface NodePredictions {
  /** Answers in the pipeline (integrated mode). */
  answers?: PerQuery<PredictedAnswerDict>;
  /** Answers when the node was fed the gold documents (isolated mode). */
  answers_isolated?: PerQuery<PredictedAnswerDict>;
  /** Documents in the pipeline (integrated mode). */
  documents?: PerQuery<DocumentDict>;
  /** Documents when the node was fed the gold input (isolated mode). */
  documents_isolated?: PerQuery<DocumentDict>;
}

/** The evaluation input: queries, their labels (one non-empty list per query), and each node's predictions. */
export interface EvaluationInput {
  /** The queries, in order. */
  queries: string[];
  /** Each query's labels (one non-empty list per query). */
  labels: LabelDict[][];
  /** Each node's predictions, by node name, in pipeline order. */
  nodes: Record<string, NodePredictions>;
}

/** Haystack's context matching (`context_matching_min_length`, `…_boost_split_overlaps`, `…_threshold`). */
export interface ContextMatchingOptions extends Partial<rust.ContextMatchingOptions> {}

/** Options of {@link EvaluationResult.build} (`Pipeline.eval`'s `context_matching_*` and `custom_document_id_field`). */
export interface EvaluationBuildOptions extends Partial<rust.EvaluationBuildOptions> {}

/** CSV files: `{"Retriever.csv": text}` or `[[name, text], ...]` (the node name is the file stem). */
export type CsvFiles = Record<string, string> | Array<[string, string]>;

/**
 * Haystack's `EvaluationResult`: one table of rows per node, in node order. Build it from predictions
 * (`build`), from saved CSVs (`fromCsv`, as `EvaluationResult.load` reads them) or from rows (`fromJSON` /
 * `fromNodeResults`). Holds wasm memory: `free()` it when done with many results (it is also reclaimed by GC).
 */
export class EvaluationResult {
  readonly #wasm: OwnedWasm<wasm.HaystackEvaluation>;

  private constructor(handle: wasm.HaystackEvaluation) {
    this.#wasm = new OwnedWasm(handle, "EvaluationResult");
  }

  /** @internal The wasm object (`FREED` after free()). */
  get handle(): wasm.HaystackEvaluation {
    if (!(#wasm in this)) throw notMadeByRerankit("EvaluationResult");
    return this.#wasm.get();
  }

  /**
   * Builds each node's rows from the queries, labels and each node's predictions (Haystack's `_build_eval_dataframe`).
   * `customDocumentIdField` is `Pipeline.eval`'s `custom_document_id_field`: documents match labels by that meta field
   * (a file name, a URL) instead of their id, in the `document_id` scopes.
   */
  static build(input: EvaluationInput, options: EvaluationBuildOptions = {}): EvaluationResult {
    if (input === null || typeof input !== "object") invalidArgument("input", "expected {queries, labels, nodes}");
    return new EvaluationResult(wasm.HaystackEvaluation.fromPredictions(input, options));
  }

  /** From saved CSV files (`EvaluationResult.load`); Haystack's backward-compatible column renames apply. */
  static fromCsv(files: CsvFiles): EvaluationResult {
    let pairs: Array<[string, string]>;
    if (Array.isArray(files)) pairs = files;
    else if (files !== null && typeof files === "object") pairs = Object.entries(files);
    else invalidArgument("files", "expected {file name: CSV text} or [[file name, CSV text], ...]");
    return new EvaluationResult(wasm.HaystackEvaluation.fromCsvFiles(pairs));
  }

  /** From `{node: rows}` (what `toJSON` returns, or `EvaluationResult.node_results` as records). */
  static fromNodeResults(nodeResults: Record<string, EvalRow[]>): EvaluationResult {
    return new EvaluationResult(wasm.HaystackEvaluation.fromJson(nodeResults));
  }

  /** From `toJSON()`'s value or its JSON text. */
  static fromJSON(value: Record<string, EvalRow[]> | string): EvaluationResult {
    // JSON text is parsed here: JS reads floats exactly (serde_json's default parser may be 1 ulp off).
    let parsed: unknown = value;
    if (typeof value === "string") {
      try {
        parsed = JSON.parse(value);
      } catch (err) {
        throw new RerankitError(`evaluation result: ${(err as Error).message}`, "PARSE");
      }
    }
    return new EvaluationResult(wasm.HaystackEvaluation.fromJson(parsed));
  }

  /** The node names, in order. */
  get nodeNames(): string[] {
    return this.handle.nodeNames();
  }

  /** One node's rows. */
  nodeResults(node: string): EvalRow[] {
    return this.handle.nodeRows(node);
  }

  /**
   * Haystack's `append(key, value)`: adds `rows` (row objects, as {@link EvaluationResult.nodeResults} gives them)
   * after node `node`'s rows, or makes the node; columns missing on either side are filled as pandas' `concat`
   * fills them. No rows change nothing.
   */
  append(node: string, rows: EvalRow[]): void {
    this.handle.appendRows(node, rows);
  }

  /** `calculate_metrics(...)`: `{node: {metric: value}}`; what Haystack would log goes to `options.onWarning`. */
  calculateMetrics(options: HaystackMetricsOptions = {}): PipelineMetrics {
    const [rest, onWarning] = warningHook(options, "calculateMetrics");
    const { metrics, warnings } = this.handle.calculateMetrics(rest);
    for (const w of warnings) onWarning(w);
    return metrics;
  }

  /**
   * `wrong_examples(node, ...)`: the worst queries (metric ≤ threshold) with their rows; what Haystack would log goes
   * to `options.onWarning`.
   */
  wrongExamples(node: string, options: WrongExamplesOptions = {}): WrongExample[] {
    const [rest, onWarning] = warningHook(options, "wrongExamples");
    const { examples, warnings } = this.handle.wrongExamples(node, rest);
    for (const w of warnings) onWarning(w);
    return examples;
  }

  /**
   * Haystack's semantic answer similarity: adds `sas`, `gold_answers_sas` and the three scoped SAS columns to every
   * answer row (then `calculateMetrics` reports `sas`, and `wrongExamples` can rank by it). The similarity of an
   * answer and a gold answer comes from a one-logit `CrossEncoder` (sigmoid of the logit, as sentence-transformers'
   * `CrossEncoder.predict`), an `Embedder` (cosine of the embeddings; load it with the `maxLength` the model was
   * trained with, e.g. 256 for all-MiniLM-L6-v2), or your own function of the `[answer, gold]` pairs.
   */
  async addSas(model: SasModel, options: SasOptions = {}): Promise<this> {
    options = optionsObject(options, ["contextMatchingThreshold", "batchSize"]);
    const threshold = options.contextMatchingThreshold ?? 65;
    const batchSize = options.batchSize ?? 32;
    if (typeof threshold !== "number" || !Number.isFinite(threshold)) invalidArgument("contextMatchingThreshold", "expected a finite number");
    if (!Number.isInteger(batchSize) || batchSize < 1) invalidArgument("batchSize", "expected an integer ≥ 1");
    const score = typeof model === "function" ? model
      : model !== null && typeof model === "object" && typeof (model as SasScorer).sasScores === "function"
        ? (pairs: [string, string][]) => (model as SasScorer).sasScores(pairs, batchSize)
        : invalidArgument("model", "expected a CrossEncoder, an Embedder or a function of [answer, gold] pairs");
    for (const node of this.nodeNames) {
      const pairs = this.handle.sasPairs(node);
      const scores = await score(pairs);
      if (scores === null || typeof scores !== "object" || typeof (scores as ArrayLike<number>).length !== "number") {
        invalidArgument("model", "the scoring function must return one number per pair");
      }
      if (scores.length !== pairs.length) invalidArgument("model", `returned ${scores.length} scores for ${pairs.length} pairs`);
      this.handle.applySasScores(node, Float64Array.from(scores), threshold);
    }
    return this;
  }

  /** One node's CSV, as `EvaluationResult.save` writes `{node}.csv`. */
  toCsv(node: string): string {
    return this.handle.toCsv(node);
  }

  /** Every node's CSV: `{"{node}.csv": text}` (what `save(out_dir)` writes). */
  toCsvFiles(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const n of this.nodeNames) out[`${n}.csv`] = this.handle.toCsv(n);
    return out;
  }

  /** `{node: rows}`, so that `JSON.stringify(result)` works. */
  toJSON(): Record<string, EvalRow[]> {
    return this.handle.toJson();
  }

  /** Releases the wasm memory now (garbage collection also reclaims it); a second call does nothing. */
  free(): void {
    if (#wasm in this) this.#wasm.free();
  }
}

/** A SQuAD dataset file (`{"version", "data": [{"paragraphs": [{"context", "qas": [...]}]}]}`), parsed or as text. */
export type SquadDataset = Record<string, unknown> | string;

/** Predictions `{question id: answer text}` (v2.0: `""` means no answer), parsed or as text. */
export type SquadPredictions = Record<string, string> | string;

/** What `evaluate-v1.1.py` prints. */
export interface SquadV1Result {
  /** Exact match, in percent. */
  exact_match: number;
  /** Token F1, in percent. */
  f1: number;
}

/** What `evaluate-v2.0.py` prints (`HasAns_*` / `NoAns_*` only when the dataset has such questions). */
export interface SquadV2Result {
  /** Exact match, in percent. */
  exact: number;
  /** Token F1, in percent. */
  f1: number;
  /** Questions evaluated. */
  total: number;
  /** Exact match on the answerable questions. */
  HasAns_exact?: number;
  /** F1 on the answerable questions. */
  HasAns_f1?: number;
  /** Answerable questions. */
  HasAns_total?: number;
  /** Exact match on the unanswerable questions. */
  NoAns_exact?: number;
  /** F1 on the unanswerable questions. */
  NoAns_f1?: number;
  /** Unanswerable questions. */
  NoAns_total?: number;
  [key: string]: number | undefined;
}

/** Which official script runs: `"1.1"` or `"2.0"`; absent: the dataset's `version`, else 2.0 when a question has `is_impossible`. */
export interface SquadOptions extends Partial<rust.SquadOptions> {}

/** The official script's outcome. */
export interface SquadEvaluation {
  /** The script that ran. */
  version: "1.1" | "2.0";
  /** The printed object, keys in the script's order. */
  result: SquadV1Result | SquadV2Result;
  /** The script's stdout exactly, without the final newline (v1.1 on one line, v2.0 indented by 2). */
  printed: string;
  /** What the script wrote to stderr (unanswered questions), one line each. */
  messages: string[];
}

/**
 * Runs the official `evaluate-v1.1.py` or `evaluate-v2.0.py` on a dataset and predictions. The version is
 * `options.version`, else the dataset's `version` field, else 2.0 when a question has `is_impossible`.
 * Malformed files throw a `RerankitError` with code `PARSE`.
 */
export function squadEvaluate(dataset: SquadDataset, predictions: SquadPredictions, options: SquadOptions = {}): SquadEvaluation {
  const out = wasm.squadEvaluate(dataset, predictions, options);
  return { version: out.version, result: out.output, printed: out.printed, messages: out.messages };
}

/** The official SQuAD `normalize_answer`: lower case, no punctuation, no articles, single spaces. */
export function normalizeAnswer(text: string): string {
  return wasm.squadNormalizeAnswer(text);
}

/** Exact match (0/1) and token F1 of one prediction against one gold answer (v2.0's `compute_exact` / `compute_f1`). */
export function squadScores(gold: string, prediction: string): {
  /** 1 when the normalised texts are equal, else 0. */
  exact: number;
  /** Token F1 of the normalised texts. */
  f1: number;
} {
  const [exact, f1] = wasm.squadScores(gold, prediction);
  return { exact: exact!, f1: f1! };
}

/** A model that scores SAS pairs itself: rerankit's `CrossEncoder` (one logit) and `Embedder`, on any device. */
export interface SasScorer {
  /** Semantic similarity of each `[answer, gold]` pair, `batchSize` pairs per model call. */
  sasScores(pairs: [string, string][], batchSize: number): ArrayLike<number> | Promise<ArrayLike<number>>;
}

/** Scores SAS pairs: a one-logit cross-encoder, a bi-encoder, or a function of `[answer, gold]` pairs. */
export type SasModel = SasScorer | ((pairs: [string, string][]) => ArrayLike<number> | Promise<ArrayLike<number>>);

/** Options of `EvaluationResult.addSas`. */
export interface SasOptions {
  /** Gold contexts at or above this similarity count for the context scopes (default 65, as the rows were built). */
  contextMatchingThreshold?: number;
  /** Pairs per model call (default 32). */
  batchSize?: number;
}
