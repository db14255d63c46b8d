// The `rerankit/pipeline-eval` entry (pipeline_eval.ts over its own wasm, built into pkg/dist/pipeline_eval/) for the
// same runtime as browser.ts:
// Browsers and bundlers: the wasm is fetched by URL and compiled with instantiateStreaming.
import init from "../wasm/rerankit.js";
import { finishInit } from "./wasm_instance.js";

finishInit(await init({ module_or_path: new URL("../wasm/rerankit_bg.wasm", import.meta.url) }));

export * from "../pipeline_eval.js";
