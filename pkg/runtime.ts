import * as wasm from "./wasm/rerankit.js";
import { RerankitError } from "./errors.js";

let ready = false;

/** Called by each runtime entry once the wasm module is instantiated. */
export function finishInit(): void {
  if (ready) return;
  wasm.registerErrorClass(RerankitError);
  ready = true;
}

/** The version of the wasm core. */
export function version(): string {
  return wasm.version();
}
