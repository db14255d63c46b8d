// Cloudflare Workers (workerd): Workers forbid compiling wasm from bytes, so the bundler (wrangler) imports the
// .wasm as an already compiled WebAssembly.Module. Only the SIMD128 module is imported: a bundler would ship every
// module imported here, and two would double a Worker's size (docs/runtimes.md).
// @ts-ignore -- resolved by the Workers bundler to a WebAssembly.Module
import wasmModule from "./wasm/rerankit_bg.wasm";
import { initSync } from "./wasm/rerankit.js";
import { finishInit } from "./runtime.js";

finishInit(initSync({ module: wasmModule as WebAssembly.Module }));

export * from "./index.js";
