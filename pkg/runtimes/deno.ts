// Deno: read the wasm next to this module (needs --allow-read for the package folder).
import { initSync } from "../wasm/rerankit.js";
import { finishInit } from "./wasm_instance.js";
import { modelWasmUrl, runtimeSimd } from "./wasm_simd.js";
import { setThreadSupport, webPort } from "../models/pool.js";

declare const Deno: { readFile(path: URL): Promise<Uint8Array> };

finishInit(initSync({ module: await Deno.readFile(modelWasmUrl()) }), runtimeSimd);

// model pools (pkg/models/pool.ts) run in module Web Workers, with this thread's permissions
setThreadSupport({
  spawn: () => webPort(new Worker(new URL("./pool_worker_deno.js", import.meta.url), { type: "module" })),
  cores: () => navigator.hardwareConcurrency || 1,
});

export * from "../index.js";
