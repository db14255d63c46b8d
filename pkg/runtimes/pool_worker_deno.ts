// A pool worker in Deno (a module Web Worker): the wasm is read next to this module, as in deno.ts. The message
// listener is registered before that read ends (deno.ts awaits it at top level): Deno, like browsers, delivers a
// message that arrives while a worker's module is still awaiting to whatever listener exists then, so a listener
// added after the await could miss the pool's first message, and the pool would wait for its answer forever.
import { serve } from "../models/pool_worker.js";

serve({ post: (m, transfer) => self.postMessage(m, { transfer: transfer ?? [] }), onMessage: (h) => self.addEventListener("message", (e) => h((e as MessageEvent).data)) }, import("./deno.js"));
