import * as wasm from "../wasm/rerankit.js";

/**
 * The int8 matrix kernel of quantised models (`model_quantized.onnx`, `model_int8.onnx`): `"relaxed-dot"` where
 * the runtime has relaxed SIMD and its integer dot product is exact on this CPU (x86 with AVX-VNNI, ARM with the
 * dot-product extension; Chromium, Deno, Workers, Node ≥ 22), else `"i16-dot"`. Both give the same logits.
 */
export type Int8Kernel = "relaxed-dot" | "i16-dot";

/** Which {@link Int8Kernel} the loaded model module runs. */
export function int8Kernel(): Int8Kernel {
  return wasm.int8Kernel() as Int8Kernel;
}
