// Browsers and bundlers: the wasm is fetched by URL and compiled with instantiateStreaming.
import init from "../wasm/rerankit.js";
import { finishInit } from "./wasm_instance.js";
import { modelWasmUrl, runtimeSimd } from "./wasm_simd.js";
import { setThreadSupport, webPort } from "../models/pool.js";

finishInit(await init({ module_or_path: modelWasmUrl() }), runtimeSimd);

// model pools (pkg/models/pool.ts) run in module Web Workers (a bundler sees this `new Worker(new URL(…))` and ships
// the worker script); a worker can start workers of its own where the browser allows it
if (typeof Worker === "function") {
  setThreadSupport({
    spawn: () => webPort(new Worker(new URL("./pool_worker_web.js", import.meta.url), { type: "module" })),
    cores: () => navigator.hardwareConcurrency || 1,
  });
}

export * from "../index.js";
