// An abort scope: a signal of our own that follows the caller's, and that we can also fire ourselves — when one
// request of a call fails (its siblings are pointless) or when a fallback's primary runs out of time. Built by
// hand because `AbortSignal.any` is missing from Node 20.0–20.2 and older browsers; only `AbortController`,
// `AbortSignal` and `setTimeout` are used, which every runtime has.

/** A controller that aborts with the caller's `signal`; `dispose` detaches it (call it when the work ends). */
export class AbortScope {
  readonly #controller = new AbortController();
  readonly #parent: AbortSignal | undefined;
  readonly #follow = () => this.#controller.abort(this.#parent?.reason);

  constructor(parent: AbortSignal | undefined) {
    this.#parent = parent;
    if (parent?.aborted) this.#follow();
    else parent?.addEventListener("abort", this.#follow, { once: true });
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  abort(reason: unknown): void {
    this.#controller.abort(reason);
  }

  dispose(): void {
    // optional: a signal-like object the caller made may lack it
    this.#parent?.removeEventListener?.("abort", this.#follow);
  }
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it fires (the timer is cleared). */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener?.("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
