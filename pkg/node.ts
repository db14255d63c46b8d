// Node ≥ 20: compile the wasm from the file next to this module, synchronously, at import time.
import { readFileSync } from "node:fs";
import { initSync } from "./wasm/rerankit.js";
import { finishInit } from "./runtime.js";
import { modelWasmUrl, runtimeSimd } from "./wasm_simd.js";
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { setThreadSupport } from "./pool.js";

finishInit(initSync({ module: readFileSync(modelWasmUrl()) }), runtimeSimd);

// model pools (pkg/pool.ts) run in worker_threads
setThreadSupport({
  spawn() {
    const worker = new Worker(new URL("./pool_worker_node.js", import.meta.url));
    return {
      post: (m, transfer) => worker.postMessage(m, transfer as any),
      onMessage: (h) => worker.on("message", h),
      onError: (h) => worker.on("error", h),
      hold: (busy) => (busy ? worker.ref() : worker.unref()),
      terminate: () => void worker.terminate(),
    };
  },
  cores: () => availableParallelism(),
});

export * from "./index.js";
