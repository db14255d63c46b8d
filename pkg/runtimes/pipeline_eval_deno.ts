// The `rerankit/pipeline-eval` entry (pipeline_eval.ts over its own wasm, built into pkg/dist/pipeline_eval/) for the
// same runtime as deno.ts:
// Deno: read the wasm next to this module (needs --allow-read for the package folder).
import { initSync } from "../wasm/rerankit.js";
import { finishInit } from "./wasm_instance.js";

declare const Deno: { readFile(path: URL): Promise<Uint8Array> };

finishInit(initSync({ module: await Deno.readFile(new URL("../wasm/rerankit_bg.wasm", import.meta.url)) }));

export * from "../pipeline_eval.js";
