// Rank fusion over ranx-shaped runs, and the adaptive reranker weight with the score combination it weighs.
// Semantics: ranx 0.3.21's fusion (src/rankers/fusion/, one module per method, formulas in their docs) and docs/parity.md §6.
import * as wasm from "../wasm/rerankit.js";
import { checkListLength, invalidArgument } from "../errors.js";

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
  return wasm.fuseRuns(runs, options);
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
  return wasm.adaptiveWeight(before, after, options);
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

