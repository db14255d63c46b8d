import * as wasm from "../wasm/rerankit.js";
import { RerankitError } from "../errors.js";
import type { WasmSimd } from "./wasm_simd.js";

let ready = false;
let restarts = 0;
let simd: WasmSimd = "simd128";

/** Called by each runtime entry once the wasm module is instantiated, with the module's SIMD level. */
export function finishInit(_exports?: unknown, loaded: WasmSimd = "simd128"): void {
  if (ready) return;
  simd = loaded;
  wasm.registerErrorClass(RerankitError);
  // only the models' module runs async tasks (scripts/build.mjs guards its executor)
  wasm.__onTaskTrap?.(onTaskTrap);
  ready = true;
}

/** The version of the wasm core. */
export function version(): string {
  return wasm.version();
}

/**
 * Bytes of wasm linear memory the module holds. Linear memory grows and never shrinks, so this is also the peak
 * since start — what counts against a Worker's 128 MB isolate limit besides the (small) JS heap.
 */
export function wasmMemoryBytes(): number {
  return ready ? wasm.wasmMemory().buffer.byteLength : 0;
}

/**
 * Which build of the wasm module this runtime loaded: `"relaxed-simd"` (fused multiply-add in the f32 matrix
 * kernel; Chromium, Deno, Node ≥ 22, Cloudflare Workers) or `"simd128"` (everywhere else, and always in `rerankit/eval` and `rerankit/pipeline-eval`).
 * fp32 scores from the two differ in their last bits (both stay within 1e-4 of onnxruntime).
 */
export function wasmSimd(): WasmSimd {
  return simd;
}

/** How many times rerankit restarted its WebAssembly instance after an internal error (a trap). */
export function wasmRestarts(): number {
  return restarts;
}

const STALE = "Invalid stale object from previous Wasm instance";

/**
 * The last line of defence against a Rust panic in wasm, which is a trap (`RuntimeError: unreachable`) that leaves
 * the instance's stack and borrow flags corrupt. The instance is replaced by a fresh one (wasm-bindgen's
 * `__wbg_reset_state`, built with `--experimental-reset-state-function`) and the caller gets an `INTERNAL`
 * RerankitError; objects made before the restart (models, runs…) are released and say so when used.
 */
function translate(e: unknown, what: string): unknown {
  if (e instanceof WebAssembly.RuntimeError) {
    restart();
    return internalError(what, e);
  }
  // wasm-bindgen's own checks on an object handed to a call: one already freed, or not one of its classes
  if (e instanceof Error && e.message === "null pointer passed to rust") {
    return new RerankitError(`${what}: an object it was given (or called on) was freed (free() was called); make it again`, "FREED");
  }
  if (e instanceof Error && e.message.startsWith("expected instance of ")) {
    const cls = e.message.slice("expected instance of ".length);
    return new RerankitError(`${what}: expected a ${cls} that rerankit made (not a copy or a forgery of one)`, "INVALID_ARGUMENT");
  }
  if (e instanceof Error && e.message.includes(STALE)) {
    return new RerankitError(`${what}: this object was released when rerankit restarted its WebAssembly instance after an internal error; load or create it again`, "INTERNAL");
  }
  return e;
}

/** A fresh instance (wasm-bindgen's `__wbg_reset_state`, built with `--experimental-reset-state-function`). */
function restart(): void {
  restarts += 1;
  wasm.__wbg_reset_state();
  wasm.registerErrorClass(RerankitError);
}

function internalError(what: string, cause: unknown): RerankitError {
  const detail = cause instanceof Error ? cause.message : String(cause);
  const err = new RerankitError(
    `${what}: internal error in the WebAssembly core (${detail}); rerankit restarted its WebAssembly instance, ` +
      "so models and other objects made before must be loaded again",
    "INTERNAL",
  );
  Object.defineProperty(err, "cause", { value: cause, enumerable: false, writable: true, configurable: true });
  return err;
}

/** The async calls into wasm that have not settled: a trap inside one's task ends them all (see below). */
const pending = new Set<{ what: string; reject(e: unknown): void }>();

/**
 * A trap inside an async call happens in a task that the wasm executor polls from the microtask queue, not under
 * the caller's `await` (scripts/build.mjs wraps that queue and sends what escapes it here). Every future of the old
 * instance dies with it, so every pending call is rejected, each with `INTERNAL` naming its own call.
 */
function onTaskTrap(e: unknown): void {
  restart();
  const calls = [...pending];
  pending.clear();
  for (const call of calls) call.reject(internalError(call.what, e));
}

/** Runs a call into wasm, turning a trap into `INTERNAL` (see {@link translate}, {@link onTaskTrap}). */
export function guarded<T>(what: string, call: () => T): T {
  let out: T;
  try {
    out = call();
  } catch (e) {
    throw translate(e, what);
  }
  if (!(out instanceof Promise)) return out;
  return new Promise((resolve, reject) => {
    const entry = { what, reject };
    pending.add(entry);
    out.then(
      (value) => {
        pending.delete(entry);
        resolve(value);
      },
      (e) => {
        pending.delete(entry);
        reject(translate(e, what));
      },
    );
  }) as T;
}

/**
 * Frees a wasm object made when {@link wasmRestarts} was `generation`; after a restart its memory went with the old
 * instance, so there is nothing to free (and its pointer must not reach the new instance: wasm-bindgen's `free`
 * does not check which instance an object belongs to).
 */
export function freeQuietly(object: { free(): void }, generation: number): void {
  if (generation !== restarts) return;
  try {
    object.free();
  } catch (e) {
    if (!(e instanceof Error && e.message.includes(STALE))) throw e;
  }
}

/**
 * The wasm object inside one of the public classes (a parsed run, a comparison, an evaluation result): after
 * `free()` it says `FREED` (wasm-bindgen itself would only say "null pointer passed to rust"), and a second `free()`
 * does nothing. The owner checks it is itself real (`#owned in this`) before asking, so that an object that only
 * pretends to be one (`Object.create(ParsedRun.prototype)`) is `INVALID_ARGUMENT`, not a TypeError.
 */
export class OwnedWasm<H extends { free(): void }> {
  #handle: H | undefined;
  readonly #owner: string;

  constructor(handle: H, owner: string) {
    this.#handle = handle;
    this.#owner = owner;
  }

  /** The wasm object; `FREED` after `free()`. */
  get(): H {
    if (this.#handle === undefined) throw new RerankitError(`${this.#owner}: this object was freed (free() was called); make it again`, "FREED");
    return this.#handle;
  }

  free(): void {
    const handle = this.#handle;
    this.#handle = undefined;
    handle?.free();
  }
}

/** The error for a method called on an object that only looks like an instance of `owner` (no wasm object inside). */
export function notMadeByRerankit(owner: string): RerankitError {
  return new RerankitError(`expected a ${owner} that rerankit made (not a copy or a forgery of one)`, "INVALID_ARGUMENT");
}
