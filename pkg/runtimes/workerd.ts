// Cloudflare Workers (workerd): Workers forbid compiling wasm from bytes, so the bundler (wrangler) imports the
// .wasm as an already compiled WebAssembly.Module. The relaxed-SIMD module: Workers run the WebAssembly features
// Chrome has (Cloudflare's documentation), and Chrome has had relaxed SIMD since 114. One module only: a bundler
// ships every module imported here, and two would double a Worker's size (docs/runtimes.md).
// @ts-ignore -- resolved by the Workers bundler to a WebAssembly.Module
import wasmModule from "../wasm/rerankit_relaxed_bg.wasm";
import { initSync } from "../wasm/rerankit.js";
import { finishInit } from "./wasm_instance.js";

finishInit(initSync({ module: wasmModule as WebAssembly.Module }), "relaxed-simd");

export * from "../index.js";
