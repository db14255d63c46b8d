// Comparing N runs like ranx's `compare` (Fisher's randomisation test with ranx's seeded draws, Student's paired
// t-test, Tukey's HSD), its report tables (text, Markdown, LaTeX, HTML), and ranx's `optimize_fusion`. The
// statistics and the tables are computed in the Rust core (src/metrics/comparison/, src/metrics/formats/ranx_report.rs,
// src/rankers/fusion/optimize.rs); see docs/eval.md "Comparing runs like ranx".
import * as wasm from "../wasm/rerankit.js";
import type * as rust from "../rust_types.js";
import type { StatTest } from "../rust_types.js";
import { checkListLength, invalidArgument } from "../errors.js";
import { OwnedWasm, notMadeByRerankit } from "../runtimes/wasm_instance.js";
import { ParsedRun, qrelsHandle, runHandle, wasmOptions, type EvaluateOptions, type QrelsInput, type RunInput } from "./evaluate.js";
import type { FusionNorm, FusionRun } from "../rankers/fusion.js";

/** The table format of `RunComparison.report`: ranx's print, markdown, LaTeX (ranx's `to_latex`) or HTML. */
export type ReportFormat = "text" | "markdown" | "latex" | "html";

/** Options of `compareRuns` over several runs (ranx's `compare`), beside `evaluate`'s. */
export interface CompareRunsOptions extends EvaluateOptions, Partial<rust.CompareOptions> {
  /** Run names, one per run (default: each TREC run's tag when they are all set and distinct, else run_1, run_2…). */
  names?: string[];
}

export type { StatTest, OptimizableFusionMethod } from "../rust_types.js";

/** How `RunComparison.report` prints the means. */
export interface ReportOptions extends Partial<rust.ReportOptions> {}

/** One measure over all runs. Keys are run names. */
export interface ComparedMeasure {
  /** Mean per run (numpy's mean of the per-query values, as ranx). */
  means: Record<string, number>;
  /** p-value of each pair (symmetric; a run has no entry for itself). */
  pValues: Record<string, Record<string, number>>;
  /** p ≤ maxP. */
  significant: Record<string, Record<string, boolean>>;
  /** Queries where run a scored above (W), equal to (T) and below (L) run b. */
  winTieLoss: Record<string, Record<string, {
    /** Queries where run a scored above run b. */
    W: number;
    /** Queries where the two runs scored the same. */
    T: number;
    /** Queries where run a scored below run b. */
    L: number;
  }>>;
  /** Per-query values of each run, in the order of `qids`. */
  perQuery: Record<string, Float64Array>;
}

/** Runs compared on several measures (ranx's `Report`); `report(format)` prints ranx's tables. */
export class RunComparison {
  /** The runs' names, in the order given. */
  readonly runNames: string[];
  /** The queries compared (union of the runs' evaluated queries, byte order; missing ones score 0). */
  readonly qids: string[];
  /** The test that gave the p-values. */
  readonly statTest: StatTest;
  /** The significance level. */
  readonly maxP: number;
  /** Fisher's permutations. */
  readonly nPermutations: number;
  /** Fisher's seed. */
  readonly randomSeed: number;
  /** Measure → results. */
  readonly measures: Record<string, ComparedMeasure>;
  readonly #wasm: OwnedWasm<wasm.MetricsComparison>;

  /** @internal */
  constructor(handle: wasm.MetricsComparison) {
    this.#wasm = new OwnedWasm(handle, "RunComparison");
    const raw = handle.data();
    this.runNames = raw.runNames;
    this.qids = raw.qids;
    this.statTest = raw.statTest;
    this.maxP = raw.maxP;
    this.nPermutations = raw.nPermutations;
    this.randomSeed = raw.randomSeed;
    const k = raw.runNames.length;
    this.measures = {};
    for (const m of raw.measures) {
      const out: ComparedMeasure = { means: {}, pValues: {}, significant: {}, winTieLoss: {}, perQuery: {} };
      raw.runNames.forEach((a, i) => {
        out.means[a] = m.means[i];
        out.perQuery[a] = Float64Array.from(m.values[i]);
        out.pValues[a] = {};
        out.significant[a] = {};
        out.winTieLoss[a] = {};
        raw.runNames.forEach((b, j) => {
          if (i === j) return;
          const p = m.pValues[i * k + j] ?? Number.NaN;
          out.pValues[a][b] = p;
          out.significant[a][b] = p <= raw.maxP;
          const [W, T, L] = m.winTieLoss[i * k + j];
          out.winTieLoss[a][b] = { W, T, L };
        });
      });
      this.measures[m.key] = out;
    }
  }

  /**
   * ranx's report table: runs as rows (lettered a, b, …), measures as columns, each mean followed by the letters
   * of the runs it beats significantly. "text" is ranx's `print(report)`, "latex" its `to_latex()`; "markdown"
   * and "html" put the same content (best mean in bold) in tabulate's GitHub and HTML layouts.
   */
  report(format: ReportFormat = "text", options: ReportOptions = {}): string {
    if (typeof format !== "string") invalidArgument("format", `expected "text", "markdown", "latex" or "html", got ${typeof format}`);
    if (!(#wasm in this)) throw notMadeByRerankit("RunComparison");
    return this.#wasm.get().report(format, options);
  }

  /** Releases the wasm memory now (otherwise the garbage collector does, eventually); a second call does nothing. */
  free(): void {
    if (#wasm in this) this.#wasm.free();
  }
}

/** compareRuns(qrels, [runs…], measures, options). */
function compareMany(qrels: QrelsInput, runs: RunInput[], measures?: string | string[], options: CompareRunsOptions = {}): RunComparison {
  if (options === null || typeof options !== "object") invalidArgument("options", "expected an object");
  checkListLength(runs, "runs");
  const { names, keepFirstDuplicate, ...rest } = options;
  const wasmOptionsOfCall = wasmOptions(rest);
  // this is ranx's compare: its measure names mean what ranx computes unless the caller names another dialect
  if (wasmOptionsOfCall.dialect === undefined) wasmOptionsOfCall.dialect = "ranx";
  if (names !== undefined && (!Array.isArray(names) || names.length !== runs.length || names.some((n) => typeof n !== "string"))) {
    invalidArgument("options.names", `expected ${runs.length} strings, one per run`);
  }
  const [q, ownQ] = qrelsHandle(qrels);
  const owned: ParsedRun[] = [];
  const list = new wasm.MetricsRunList();
  try {
    const parsed = runs.map((run, i) => {
      const [r, own] = runHandle(run, `runs[${i}]`, keepFirstDuplicate === true);
      if (own) owned.push(r);
      return r;
    });
    const tags = parsed.map((r) => r.name);
    const tagged = tags.every((t) => t !== "") && new Set(tags).size === tags.length;
    const runNames = names ?? (tagged ? tags : parsed.map((_, i) => `run_${i + 1}`));
    parsed.forEach((r, i) => list.push(r.handle, runNames[i]));
    return new RunComparison(wasm.metricsCompareMany(q.handle, list, measures ?? null, wasmOptionsOfCall));
  } finally {
    list.free();
    if (ownQ) q.free();
    for (const r of owned) r.free();
  }
}

/** Options of `compareRuns` for two runs, beside `evaluate`'s. */
export interface CompareOptions extends EvaluateOptions, Partial<Pick<rust.CompareOptions, "nPermutations" | "randomSeed">> {}

/** Two runs compared on one measure. */
export interface MeasureComparison {
  /** Run a's mean. */
  meanA: number;
  /** Run b's mean. */
  meanB: number;
  /** meanB − meanA. */
  delta: number;
  /** Query id → values and difference (b − a); a query evaluated for one run only counts 0 for the other. */
  perQuery: Record<string, { a: number; b: number; delta: number }>;
  /** Paired Student's t-test, two-sided. */
  tTest: { statistic: number; pValue: number };
  /** Fisher's randomisation test as ranx draws it: fraction of permutations with |mean difference| ≥ the observed one. */
  permutation: { pValue: number; nPermutations: number; randomSeed: number };
}

/**
 * Compares N runs like ranx's `compare`: `compareRuns(qrels, [run1, run2, …], measures, {statTest, maxP, …})`
 * gives each pair's p-value under one test and ranx's report tables.
 */
export function compareRuns(qrels: QrelsInput, runs: RunInput[], measures?: string | string[], options?: CompareRunsOptions): RunComparison;
/** Compares run B with run A on each measure: means, per-query deltas, paired t-test, Fisher's test (ranx's draws). */
export function compareRuns(qrels: QrelsInput, runA: RunInput, runB: RunInput, measures?: string | string[], options?: CompareOptions): Record<string, MeasureComparison>;
export function compareRuns(
  qrels: QrelsInput,
  runA: RunInput | RunInput[],
  runB?: RunInput | string | string[],
  measures?: string | string[] | CompareRunsOptions,
  options: CompareOptions = {},
): Record<string, MeasureComparison> | RunComparison {
  if (Array.isArray(runA)) return compareMany(qrels, runA, runB as string | string[] | undefined, measures as CompareRunsOptions | undefined);
  const keepFirst = options?.keepFirstDuplicate === true;
  const [q, ownQ] = qrelsHandle(qrels);
  const owned: ParsedRun[] = [];
  try {
    const [a, ownA] = runHandle(runA, "runA", keepFirst);
    if (ownA) owned.push(a);
    const [b, ownB] = runHandle(runB as RunInput, "runB", keepFirst);
    if (ownB) owned.push(b);
    const raw = wasm.metricsCompare(q.handle, a.handle, b.handle, (measures as string | string[] | undefined) ?? null, wasmOptions(options));
    const out: Record<string, MeasureComparison> = {};
    for (const c of raw) {
      const perQuery: MeasureComparison["perQuery"] = {};
      c.qids.forEach((qid, i) => {
        perQuery[qid] = { a: c.a[i], b: c.b[i], delta: c.b[i] - c.a[i] };
      });
      out[c.key] = { meanA: c.meanA, meanB: c.meanB, delta: c.meanB - c.meanA, perQuery, tTest: c.tTest, permutation: c.permutation };
    }
    return out;
  } finally {
    if (ownQ) q.free();
    for (const r of owned) r.free();
  }
}

/** Options of `optimizeFusion` (ranx's `optimize_fusion` keyword arguments, in camelCase). */
export interface OptimizeFusionOptions extends Partial<rust.OptimizeFusionOptions> {}

/**
 * A fusion configuration, as `fuse` takes it beside the method (`fuse(runs, {method, norm, ...params})`); a probfuse
 * trial is `{nSegments}`.
 */
export type FusionParams =
  | {
      /** One weight per run. */
      weights: number[];
    }
  | {
      /** rrf's k. */
      k: number;
    }
  | {
      /** gmnz's γ. */
      gamma: number;
    }
  | {
      /** logn_isr's σ. */
      sigma: number;
    }
  | {
      /** rbc's φ. */
      phi: number;
    }
  | {
      /** A probfuse trial's number of segments. */
      nSegments: number;
    }
  | {
      /** Trained probabilities, one array per run (probfuse, posfuse, segfuse; slidefuse with w). */
      probs: number[][];
      /** slidefuse's window half-width. */
      w?: number;
    }
  | {
      /** A slidefuse trial's window half-width. */
      w: number;
    }
  | {
      /** bayesfuse's trained log-odds, one array per run. */
      logOdds: number[][];
    }
  | {
      /** mapfuse's trained MAP, one per run. */
      mapScores: number[];
    };

/** What `optimizeFusion` found. */
export interface FusionOptimization {
  /** The best configuration (ranx's rule: the last of equal best scores in grid order). */
  params: FusionParams;
  /** The best configuration's mean `metric`; null for the methods that are only trained. */
  score: number | null;
  /** Every configuration tried, in grid order, with its score (ranx's optimisation report). */
  trials: {
    /** The configuration tried. */
    params: FusionParams;
    /** Its mean `metric` over the queries. */
    score: number;
  }[];
}

/**
 * ranx's `optimize_fusion`: the parameters that maximise `metric` on `qrels` by ranx's grid search (weights in
 * steps of 0.1 whose sum is exactly 1; k = 10, 20, …, 100; γ, σ, φ = 0.01 … 1.0; 1 … 100 segments or w), or the
 * training of the supervised methods (probfuse, slidefuse, bayesfuse, mapfuse, posfuse, segfuse). Pass the result's
 * params to `fuse` beside the method.
 */
export function optimizeFusion(qrels: QrelsInput, runs: FusionRun[], options: OptimizeFusionOptions = {}): FusionOptimization {
  if (!Array.isArray(runs)) invalidArgument("runs", "expected an array of runs {queryId: {docId: score}}");
  if (options === null || typeof options !== "object") invalidArgument("options", "expected an object");
  const [q, ownQ] = qrelsHandle(qrels);
  try {
    return wasm.fusionOptimize(q.handle, runs, options);
  } finally {
    if (ownQ) q.free();
  }
}
