// A pool worker in Node (worker_threads): the wasm is compiled from the file next to this module, as in node.ts.
import { parentPort } from "node:worker_threads";
import "./node.js";
import { serve } from "../models/pool_worker.js";

serve({ post: (m, transfer) => parentPort!.postMessage(m, transfer as any), onMessage: (h) => parentPort!.on("message", h) }, Promise.resolve());
