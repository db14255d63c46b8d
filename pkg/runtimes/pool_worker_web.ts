// A pool worker in browsers (a Web Worker): the wasm is fetched by URL, as in browser.ts, but without top-level
// await, so that a bundler may emit the worker in any format (Vite's default for workers is a classic script).
import init from "../wasm/rerankit.js";
import { finishInit } from "./wasm_instance.js";
import { modelWasmUrl, runtimeSimd } from "./wasm_simd.js";
import { serve } from "../models/pool_worker.js";

const ready = init({ module_or_path: modelWasmUrl() }).then((exports) => finishInit(exports, runtimeSimd));
serve({ post: (m, transfer) => self.postMessage(m, { transfer: transfer ?? [] }), onMessage: (h) => self.addEventListener("message", (e) => h((e as MessageEvent).data)) }, ready);
