// Node ≥ 20: compile the wasm from the file next to this module, synchronously, at import time.
import { readFileSync } from "node:fs";
import { initSync } from "../wasm/rerankit.js";
import { finishInit } from "./wasm_instance.js";
import { modelWasmUrl, runtimeSimd } from "./wasm_simd.js";
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { setThreadSupport } from "../models/pool.js";

finishInit(initSync({ module: readFileSync(modelWasmUrl()) }), runtimeSimd);

// model pools (pkg/models/pool.ts) run in worker_threads
setThreadSupport({
  spawn() {
    // Started from a one-line script that imports the worker module, not from the file: a worker inherits the
    // caller's Node options, and those of `node --input-type=module` (a script on stdin or in -e) forbid a file as
    // the worker's program, while a string is what they are for. The options themselves must be inherited, not
    // rewritten (a worker refuses V8 flags in an explicit execArgv): --experimental-wasm-relaxed-simd makes each
    // worker load the caller's wasm module, and so give its answers bit for bit.
    const script = `import(${JSON.stringify(new URL("./pool_worker_node.js", import.meta.url).href)});`;
    const worker = new Worker(script, { eval: true });
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

export * from "../index.js";
