// Two rankers as one: the primary (typically hosted: Workers AI, Cohere) answers unless it fails or runs out of
// time, and then the fallback (typically the local model) does, with the reason told to `onWarning`. The caller's
// signal reaches both; the timeout reaches only the primary, which is aborted so that it stops spending (its
// late answer, if any, is dropped). An `INVALID_ARGUMENT` from the primary is the caller's mistake, which the
// fallback would refuse too: it is thrown, not hidden behind a fallback.
import { describeValue, invalidArgument, optionsObject, RerankitError, type ErrorCode } from "../../errors.js";
import { CallControl } from "../../call_control.js";
import type { RankOptions, Ranker, RerankDocument, RerankResult } from "../ranker.js";
import { AbortScope } from "./abort_scope.js";
import {integerOption } from "./hosted_ranker.js";

/** Why the fallback ranked: `TIMEOUT`, or the primary's error code (`REMOTE`…; `ERROR` for a non-rerankit error). */
export interface FallbackWarning {
  /** Why the fallback ranked. */
  code: "TIMEOUT" | ErrorCode | "ERROR";
  /** The primary's error (absent on a timeout). */
  error?: unknown;
  /** How long the primary had been running. */
  milliseconds: number;
}

/** Options of `withFallback`. */
export interface FallbackOptions {
  /** The primary's time budget per call in ms; past it, the fallback ranks. Default: none (only errors fall back). */
  timeoutMs?: number;
  /** Hears each fall back, with its reason. Default: `console.warn`. */
  onWarning?: (message: string, warning: FallbackWarning) => void;
  /** Options only the primary takes, added to each call's (`{topK, returnDocuments, signal}`). */
  primaryOptions?: Record<string, unknown>;
  /** Options only the fallback takes (the local model's `batchSize`, `maxChunksPerDoc`…). */
  fallbackOptions?: Record<string, unknown>;
}

/** `primary`, or `fallback` when it fails or is too slow; see {@link withFallback}. */
export class FallbackRanker implements Ranker {
  /** The ranker asked first. */
  readonly primary: Ranker<any>;
  /** The ranker that answers when the primary fails or runs past `timeoutMs`. */
  readonly fallback: Ranker<any>;
  /** The primary's time budget per call (undefined: none). */
  readonly timeoutMs: number | undefined;
  readonly #onWarning: (message: string, warning: FallbackWarning) => void;
  readonly #primaryOptions: Record<string, unknown>;
  readonly #fallbackOptions: Record<string, unknown>;

  constructor(primary: Ranker<any>, fallback: Ranker<any>, options?: FallbackOptions) {
    checkRanker(primary, "primary");
    checkRanker(fallback, "fallback");
    const o = optionsObject(options, ["timeoutMs", "onWarning", "primaryOptions", "fallbackOptions"]);
    this.primary = primary;
    this.fallback = fallback;
    this.timeoutMs = o.timeoutMs === undefined ? undefined : integerOption(o.timeoutMs, "timeoutMs", 1);
    if (o.onWarning !== undefined && typeof o.onWarning !== "function") invalidArgument("onWarning", `expected a function (message, warning) => void, got ${describeValue(o.onWarning)}`);
    this.#onWarning = o.onWarning ?? ((m) => console.warn(`[rerankit] ${m}`));
    this.#primaryOptions = sideOptions(o.primaryOptions, "primaryOptions");
    this.#fallbackOptions = sideOptions(o.fallbackOptions, "fallbackOptions");
  }

  rerank<D extends RerankDocument>(query: string, documents: readonly D[], options?: RankOptions): Promise<RerankResult<D>[]> {
    return this.#run((ranker, o) => ranker.rerank(query, documents, o), options);
  }

  /** As the primary's `rerankBatch`, falling back the same way as `rerank`. */
  rerankBatch<D extends RerankDocument>(queries: string | readonly string[], documents: readonly D[] | readonly (readonly D[])[], options?: RankOptions): Promise<RerankResult<D>[] | RerankResult<D>[][]> {
    return this.#run((ranker, o) => ranker.rerankBatch(queries, documents, o), options);
  }

  async #run<T>(call: (ranker: Ranker<any>, options: Record<string, unknown>) => Promise<T>, options: RankOptions | undefined): Promise<T> {
    const o = optionsObject(options, ["topK", "returnDocuments", "signal"]);
    const control = new CallControl("withFallback", o.signal, undefined);
    control.check();
    const common = Object.fromEntries(Object.entries(o).filter(([k, v]) => k !== "signal" && v !== undefined));
    const scope = new AbortScope(o.signal);
    const started = performance.now();
    const timedOut = Symbol("timeout");
    let timer: ReturnType<typeof setTimeout> | undefined;
    let warning: FallbackWarning;
    let message: string;
    const primaryCall = Promise.resolve().then(() => call(this.primary, { ...this.#primaryOptions, ...common, signal: scope.signal }));
    // once the call has moved on (timeout, caller's abort), the primary's late answer or error is nobody's
    primaryCall.catch(() => undefined);
    try {
      if (this.timeoutMs === undefined) return await control.race(primaryCall);
      const timeout = new Promise<typeof timedOut>((resolve) => (timer = setTimeout(() => resolve(timedOut), this.timeoutMs)));
      const first = await control.race(Promise.race([primaryCall, timeout]));
      if (first !== timedOut) return first as T;
      // stop the primary's requests
      scope.abort(new RerankitError(`the primary ranker took longer than ${this.timeoutMs} ms`, "ABORTED"));
      warning = { code: "TIMEOUT", milliseconds: performance.now() - started };
      message = `withFallback: ${nameOf(this.primary)} took longer than ${this.timeoutMs} ms; ${nameOf(this.fallback)} ranks instead`;
    } catch (e) {
      control.check();
      if (e instanceof RerankitError && e.code === "INVALID_ARGUMENT") throw e;
      const code = e instanceof RerankitError ? e.code : "ERROR";
      warning = { code, error: e, milliseconds: performance.now() - started };
      message = `withFallback: ${nameOf(this.primary)} failed (${code}: ${e instanceof Error ? e.message : String(e)}); ${nameOf(this.fallback)} ranks instead`;
    } finally {
      clearTimeout(timer);
      scope.dispose();
    }
    try {
      this.#onWarning(message, warning);
    } catch {
      // a failing listener must not cost the caller the fallback's answer
    }
    return call(this.fallback, { ...this.#fallbackOptions, ...common, ...(o.signal === undefined ? {} : { signal: o.signal }) });
  }
}

/**
 * `primary` answers; when it throws (anything but `INVALID_ARGUMENT`, or `ABORTED` by the caller) or takes longer
 * than `timeoutMs`, `fallback` answers and `onWarning(message, {code, error, milliseconds})` says why:
 * `withFallback(new WorkersAiRanker({ai: env.AI}), await CrossEncoder.load(...), {timeoutMs: 2000})`.
 */
export function withFallback(primary: Ranker<any>, fallback: Ranker<any>, options?: FallbackOptions): FallbackRanker {
  return new FallbackRanker(primary, fallback, options);
}

/** Refuses anything that is not a {@link Ranker} (`INVALID_ARGUMENT` naming `field`): withFallback's pair, the integrations' ranker. */
export function checkRanker(ranker: unknown, field: string): void {
  const r = ranker as { rerank?: unknown; rerankBatch?: unknown } | null;
  if (r === null || typeof r !== "object" || typeof r.rerank !== "function" || typeof r.rerankBatch !== "function") {
    invalidArgument(field, `expected a Ranker (rerank and rerankBatch: a CrossEncoder, CohereRanker, WorkersAiRanker, HttpRanker…), got ${describeValue(ranker)}`);
  }
}

function sideOptions(value: unknown, field: string): Record<string, unknown> {
  if (value === undefined) return {};
  if (value === null || typeof value !== "object" || Array.isArray(value)) invalidArgument(field, `expected an options object, got ${describeValue(value)}`);
  if ("signal" in value) invalidArgument(`${field}.signal`, "give the signal with each call: it reaches both rankers");
  return { ...(value as Record<string, unknown>) };
}

/** A ranker's name in warnings: a hosted ranker's service, else its class. */
function nameOf(ranker: Ranker<any>): string {
  const service = (ranker as { service?: unknown }).service;
  return typeof service === "string" ? service : ranker.constructor?.name ?? "ranker";
}
