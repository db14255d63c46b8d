import * as wasm from "./wasm/rerankit.js";
import { RerankitError } from "./errors.js";

let ready = false;
let memory: WebAssembly.Memory | undefined;

/** Called by each runtime entry once the wasm module is instantiated, with the module's exports. */
export function finishInit(exports?: { memory?: WebAssembly.Memory }): void {
  if (ready) return;
  memory = exports?.memory;
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
  return memory?.buffer.byteLength ?? 0;
}
