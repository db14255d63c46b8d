import * as wasm from "./wasm/rerankit.js";
import { RerankitError } from "./errors.js";

let ready = false;
let restarts = 0;

/** Called by each runtime entry once the wasm module is instantiated. */
export function finishInit(_exports?: unknown): void {
  if (ready) return;
  wasm.registerErrorClass(RerankitError);
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
  return ready ? (wasm.wasmMemory() as WebAssembly.Memory).buffer.byteLength : 0;
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
    restarts += 1;
    (wasm as unknown as { __wbg_reset_state(): void }).__wbg_reset_state();
    wasm.registerErrorClass(RerankitError);
    const err = new RerankitError(
      `${what}: internal error in the WebAssembly core (${e.message}); rerankit restarted its WebAssembly instance, ` +
        "so models and other objects made before must be loaded again",
      "INTERNAL",
    );
    Object.defineProperty(err, "cause", { value: e, enumerable: false, writable: true, configurable: true });
    return err;
  }
  if (e instanceof Error && e.message.includes(STALE)) {
    return new RerankitError(`${what}: this object was released when rerankit restarted its WebAssembly instance after an internal error; load or create it again`, "INTERNAL");
  }
  return e;
}

/** Runs a call into wasm, turning a trap into `INTERNAL` (see {@link translate}). */
export function guarded<T>(what: string, call: () => T): T {
  try {
    const out = call();
    if (out instanceof Promise) return out.catch((e) => Promise.reject(translate(e, what))) as T;
    return out;
  } catch (e) {
    throw translate(e, what);
  }
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
