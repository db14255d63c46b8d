// Which of the package's two model modules this runtime loads. scripts/build.mjs builds the crate twice:
// `rerankit_bg.wasm` (SIMD128, runs everywhere) and `rerankit_relaxed_bg.wasm`, whose f32 matrix kernel uses relaxed
// SIMD's fused multiply-add (`f32x4.relaxed_madd`: fp32 models run about 1.4× faster; docs/inference.md, "Two
// modules"). A module that uses relaxed SIMD does not even compile where the runtime lacks it (Safari; Node 20
// without --experimental-wasm-relaxed-simd), so the choice is made before loading, by validating the smallest
// module that uses the one instruction. Both modules share one wasm-bindgen glue (the build checks they are the same).

/** The SIMD level of the loaded model module: `"relaxed-simd"` where the runtime has relaxed SIMD, else `"simd128"`. */
export type WasmSimd = "relaxed-simd" | "simd128";

const constant = [0xfd, 0x0c, ...new Array<number>(16).fill(0)]; // v128.const 0
// (func (drop (f32x4.relaxed_madd (v128.const 0) (v128.const 0) (v128.const 0))))
const body = [0x00, ...constant, ...constant, ...constant, 0xfd, 0x85, 0x02, 0x1a, 0x0b];
const probe = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version 1
  0x01, 0x04, 0x01, 0x60, 0x00, 0x00, // type section: () -> ()
  0x03, 0x02, 0x01, 0x00, // function section: one function of type 0
  0x0a, body.length + 2, 0x01, body.length, ...body, // code section
]);

/** What this runtime can run (the entries load the matching module; workerd.ts always bundles the relaxed-SIMD one). */
export const runtimeSimd: WasmSimd = WebAssembly.validate(probe) ? "relaxed-simd" : "simd128";

/**
 * The URL of the model module this runtime runs. This file sits beside the entries in pkg/dist, and each module is
 * named by a literal `new URL(…, import.meta.url)` so that bundlers see and ship both files.
 */
export function modelWasmUrl(): URL {
  return runtimeSimd === "relaxed-simd" ? new URL("../wasm/rerankit_relaxed_bg.wasm", import.meta.url) : new URL("../wasm/rerankit_bg.wasm", import.meta.url);
}
