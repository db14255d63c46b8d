// A pool worker in Deno (a module Web Worker): the wasm is read next to this module, as in deno.ts.
import "./deno.js";
import { serve } from "../models/pool_worker.js";

serve({ post: (m, transfer) => self.postMessage(m, { transfer: transfer ?? [] }), onMessage: (h) => self.addEventListener("message", (e) => h((e as MessageEvent).data)) }, Promise.resolve());
