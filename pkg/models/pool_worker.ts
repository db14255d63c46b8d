// A pool worker's side (pkg/models/pool.ts): it loads one model on the CPU in its own wasm instance, then runs the batches
// it is sent. The runtime's worker entry (pool_worker_node.ts, pool_worker_web.ts, pool_worker_deno.ts) starts the
// wasm (`ready`) and hands over its port.
import { CrossEncoderEngine, EmbedderEngine } from "../wasm/rerankit.js";
import type { PoolPort, WorkerModel } from "./pool.js";

export function serve(port: Pick<PoolPort, "post" | "onMessage">, ready: Promise<unknown>): void {
  let core: CrossEncoderEngine | EmbedderEngine | undefined;
  port.onMessage(async (message: { id: number; op: "load"; model: WorkerModel } | { id: number; op: "run"; batch: unknown }) => {
    try {
      await ready;
      if (message.op === "load") {
        const { kind, files, limits, pooling } = message.model;
        core = kind === "crossEncoder"
          ? await CrossEncoderEngine.load(files, limits, "cpu", undefined)
          : await EmbedderEngine.load(files, limits, "cpu", pooling, undefined);
        port.post({ id: message.id, ok: true });
      } else {
        if (core === undefined) throw new Error("no model loaded in this worker");
        const value = core.runBatch(message.batch);
        port.post({ id: message.id, ok: true, value }, [value.buffer]);
      }
    } catch (e) {
      // a trap leaves this instance corrupt: the pool retires the worker (fatal)
      const fatal = e instanceof WebAssembly.RuntimeError || !(e instanceof Error && "code" in e);
      const code = e instanceof Error && "code" in e ? String((e as { code: unknown }).code) : "INTERNAL";
      port.post({ id: message.id, ok: false, fatal, error: { message: e instanceof Error ? e.message : String(e), code } });
    }
  });
}
