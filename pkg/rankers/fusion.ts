// Rank fusion over ranx-shaped runs, and the adaptive reranker weight with the score combination it weighs.
// Semantics: ranx 0.3.21's fusion (src/rankers/fusion/, one module per method, formulas in their docs) and docs/parity.md §6.
import * as wasm from "../wasm/rerankit.js";
import type * as rust from "../rust_types.js";
import { checkListLength, invalidArgument } from "../errors.js";

/** A run in ranx's shape: `{queryId: {docId: score}}`. */
export type FusionRun = Record<string, Record<string, number>>;

export type { FusionMethodName, FusionNorm, PositionError } from "../rust_types.js";

/** Options of `fuse` (ranx's `fuse(runs, norm, method, params)`, the params beside the method under ranx's names). */
export interface FuseOptions extends Partial<rust.FuseOptions> {}

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
export interface AdaptiveWeightOptions extends Partial<rust.AdaptiveWeightOptions> {}

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
export interface CombineScoresOptions extends Partial<rust.CombineScoresOptions> {}

/** The blog's combined score `(s × retrieverWeight + r × rerankerWeight) / 2` for each document. */
export function combineScores(retrieverScores: ArrayLike<number>, rerankerScores: ArrayLike<number>, options: CombineScoresOptions = {}): number[] {
  const s = scores("retrieverScores", retrieverScores);
  const r = scores("rerankerScores", rerankerScores);
  return Array.from(wasm.combineScores(s, r, options));
}

