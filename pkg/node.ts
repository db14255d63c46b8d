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
    const worker = new Worker(new URL("./pool_worker_node.js", import.meta.url), { execArgv: workerExecArgv(process.execArgv) });
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

/**
 * The caller's Node options a pool worker starts with: all but those about the main program — its code (`-e`,
 * `-p`), how to read it (`--input-type`), or running it as tests, a watch, a REPL or a syntax check. A worker
 * inherits them by default, and `node --input-type=module` (a script on stdin or in `-e`) then makes every worker
 * fail to start. Engine flags (`--experimental-wasm-relaxed-simd`, memory limits…) stay: a worker must load the
 * same wasm module as its caller to give the same answers bit for bit.
 */
function workerExecArgv(execArgv: readonly string[]): string[] {
  const withValue = new Set(["-e", "--eval", "-p", "--print", "--input-type", "--test-name-pattern", "--test-reporter", "--test-reporter-destination", "--watch-path"]);
  const alone = /^(-i|--interactive|-c|--check|--test|--watch|--watch-preserve-output|--test-only)$/;
  const out: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const arg = execArgv[i];
    const name = arg.split("=", 1)[0];
    if (withValue.has(name) || name.startsWith("--test-") || name.startsWith("--watch-")) {
      if (!arg.includes("=") && withValue.has(name)) i++;
      continue;
    }
    if (alone.test(arg)) continue;
    out.push(arg);
  }
  return out;
}

export * from "./index.js";
