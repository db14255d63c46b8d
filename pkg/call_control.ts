// A call's control, whatever runs it (a model's batches, a hosted ranker's requests): its AbortSignal, its progress
// reports and its time budget, checked between steps of work that cannot be stopped halfway.
import { RerankitError, invalidArgument } from "./errors.js";

/** `{done, total}` after each batch: model inputs (pairs, texts, or a rerank's document chunks). */
export type ProgressHandler = (progress: { done: number; total: number }) => void;

/** A call's `signal`, `onProgress` and time budget, checked and reported between batches. */
export class CallControl {
  #signal: AbortSignal | undefined;
  #onProgress: ProgressHandler | undefined;
  #what: string;
  #done = 0;
  #clock: () => number;
  readonly #started: number;
  #deadlineMs: number | undefined;
  #longestBatch = 0;

  constructor(what: string, signal: unknown, onProgress: unknown, clock?: unknown) {
    if (clock !== undefined && typeof clock !== "function") invalidArgument("clock", "expected a function () => milliseconds");
    this.#clock = clock === undefined ? () => performance.now() : () => Number((clock as () => unknown)());
    this.#started = this.#clock();
    if (signal !== undefined && !(typeof signal === "object" && signal !== null && typeof (signal as AbortSignal).aborted === "boolean" && typeof (signal as AbortSignal).addEventListener === "function")) {
      invalidArgument("signal", "expected an AbortSignal");
    }
    if (onProgress !== undefined && typeof onProgress !== "function") invalidArgument("onProgress", "expected a function ({done, total}) => void");
    this.#what = what;
    this.#signal = signal as AbortSignal | undefined;
    this.#onProgress = onProgress as ProgressHandler | undefined;
  }

  /** Throws `ABORTED` once the signal has fired. */
  check(): void {
    if (this.#signal?.aborted) throw this.#aborted();
  }

  #aborted(): RerankitError {
    const reason = this.#signal?.reason;
    const err = new RerankitError(`${this.#what}: aborted${reason instanceof Error ? ` (${reason.message})` : ""}`, "ABORTED");
    Object.defineProperty(err, "cause", { value: reason, enumerable: false, writable: true, configurable: true });
    return err;
  }

  /** `promise`, or `ABORTED` as soon as the signal fires (the work behind it is left to finish unheard). */
  race<T>(promise: Promise<T>): Promise<T> {
    const signal = this.#signal;
    if (!signal) return promise;
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(this.#aborted());
      if (signal.aborted) return onAbort();
      signal.addEventListener("abort", onAbort, { once: true });
      promise.then(
        (v) => (signal.removeEventListener("abort", onAbort), resolve(v)),
        (e) => (signal.removeEventListener("abort", onAbort), reject(e)),
      );
    });
  }

  /** Reports a batch of `rows` model inputs done, of `total`. */
  done(rows: number, total: number): void {
    this.#done += rows;
    this.#onProgress?.({ done: this.#done, total });
  }

  /** The call's budget in milliseconds from its start (`deadlineMs`, already checked by Rust), if any. */
  setDeadline(deadlineMs: number | null | undefined): void {
    this.#deadlineMs = deadlineMs ?? undefined;
  }

  /** The clock's reading now (milliseconds). */
  now(): number {
    return this.#clock();
  }

  /**
   * Whether another batch may start: always without a deadline; with one, not once the time is up, nor when the
   * longest batch so far would end past it (a batch cannot be stopped halfway, and an edge function that runs past
   * its CPU limit answers nothing).
   */
  mayStartBatch(): boolean {
    if (this.#deadlineMs === undefined) return true;
    const elapsed = this.#clock() - this.#started;
    return elapsed < this.#deadlineMs && elapsed + this.#longestBatch <= this.#deadlineMs;
  }

  /** Records how long a batch took: `startedAt` is the clock's reading when it started. */
  timed(startedAt: number): void {
    this.#longestBatch = Math.max(this.#longestBatch, this.#clock() - startedAt);
  }
}
