// The `rerankit/pipeline-eval` entry (pipeline_eval.ts over its own wasm, built into pkg/dist/pipeline_eval/) for the
// same runtime as workerd.ts:
// Cloudflare Workers (workerd): Workers forbid compiling wasm from bytes, so the bundler (wrangler) imports the
// .wasm as an already compiled WebAssembly.Module.
// @ts-ignore -- resolved by the Workers bundler to a WebAssembly.Module
import wasmModule from "../wasm/rerankit_bg.wasm";
import { initSync } from "../wasm/rerankit.js";
import { finishInit } from "./wasm_instance.js";

finishInit(initSync({ module: wasmModule as WebAssembly.Module }));

export * from "../pipeline_eval.js";
