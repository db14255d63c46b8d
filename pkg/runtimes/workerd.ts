// Cloudflare Workers (workerd): Workers forbid compiling wasm from bytes, so the bundler (wrangler) imports the
// .wasm as an already compiled WebAssembly.Module. This file is compiled into the package's Workers tree
// (pkg/tsconfig.workers.json → pkg/dist/workers), whose wasm folder holds the Workers module: relaxed SIMD (Workers
// run the WebAssembly features Chrome has, Cloudflare's documentation; Chrome has had relaxed SIMD since 114),
// without tract and wgpu, its CPU plan the BERT engine — inside the free plan's 3 MB (docs/runtimes.md).
// @ts-ignore -- resolved by the Workers bundler to a WebAssembly.Module
import wasmModule from "../wasm/rerankit_bg.wasm";
import { initSync } from "../wasm/rerankit.js";
import { finishInit } from "./wasm_instance.js";

finishInit(initSync({ module: wasmModule as WebAssembly.Module }), "relaxed-simd");

export * from "../index.js";
