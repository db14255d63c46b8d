// The `rerankit/pipeline-eval` entry (pipeline_eval.ts over its own wasm, built into pkg/dist/pipeline_eval/) for the
// same runtime as node.ts:
// Node ≥ 20: compile the wasm from the file next to this module, synchronously, at import time.
import { readFileSync } from "node:fs";
import { initSync } from "../wasm/rerankit.js";
import { finishInit } from "./wasm_instance.js";

finishInit(initSync({ module: readFileSync(new URL("../wasm/rerankit_bg.wasm", import.meta.url)) }));

export * from "../pipeline_eval.js";
