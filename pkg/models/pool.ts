// Where a CPU model's batches run: inline on the caller's thread (one batch per event-loop turn), or spread over a
// pool of workers, each with its own wasm instance and copy of the model. This file owns the `workers` option:
// its values, its default, how many threads "auto" means, and the fallback where a runtime has no threads.
//
// A call is cut into batches in Rust (bindings/wasm/src/model_work.rs): exactly the batches one thread would run,
// so a row's output is bit-identical whichever worker ran its batch. Inline, the batches never leave wasm: this
// file only says when to run the next. Between batches the call reports progress and stops when its AbortSignal
// fires.
import { RerankitError, invalidArgument } from "../errors.js";
import type { CallControl } from "../call_control.js";
import type * as wasm from "../wasm/rerankit.js";
import type { ModelWork } from "../wasm/rerankit.js";

/** `workers` of `CrossEncoder.load`/`Embedder.load`: a count, `"auto"`, or 0 (inline; the default). */
export type WorkersOption = number | "auto";

/** At most this many workers: each holds a copy of the model (docs/benchmarks.md, "Memory and the worker pool"). */
export const MAX_WORKERS = 16;

/** What each runtime entry (node.ts, browser.ts, deno.ts) says about its threads; workerd says nothing. */
export interface ThreadSupport {
  /** A new worker running pool_worker_<runtime>.js, as a port. */
  spawn(): PoolPort;
  /** Hardware threads (`os.availableParallelism()`, `navigator.hardwareConcurrency`). */
  cores(): number;
}

/** The one way main and worker talk, over Node's worker_threads or Web Workers alike. */
export interface PoolPort {
  post(message: unknown, transfer?: Transferable[]): void;
  onMessage(handler: (message: any) => void): void;
  onError(handler: (error: unknown) => void): void;
  /** Whether a call is waiting on this worker: Node keeps the process alive only then (an idle pool must not). */
  hold?(busy: boolean): void;
  terminate(): void;
}

/** A module Web Worker (browsers, Deno) as a port. */
export function webPort(worker: Worker): PoolPort {
  return {
    post: (m, transfer) => worker.postMessage(m, transfer ?? []),
    onMessage: (h) => worker.addEventListener("message", (e) => h(e.data)),
    onError: (h) => worker.addEventListener("error", (e) => (e.preventDefault(), h(e.message))),
    terminate: () => worker.terminate(),
  };
}

let threads: ThreadSupport | undefined;

/** Called by a runtime entry whose runtime can start workers. */
export function setThreadSupport(support: ThreadSupport): void {
  threads = support;
}

/**
 * How many workers `option` asks for here: 0 means inline. `"auto"` is one per hardware thread, at most
 * {@link MAX_WORKERS}. A runtime without threads (Cloudflare Workers) runs inline, with a warning when workers
 * were asked for.
 */
export function workerCount(option: unknown, onWarning?: (message: string) => void): number {
  if (option === undefined || option === null || option === 0) return 0;
  if (option !== "auto" && !(Number.isInteger(option) && (option as number) >= 0 && (option as number) <= MAX_WORKERS)) {
    // (only a number or a short string is printed: String() of a hostile object can throw or build gigabytes)
    const got = typeof option === "number" ? String(option) : typeof option === "string" ? JSON.stringify(option.slice(0, 40)) : typeof option;
    invalidArgument("workers", `expected an integer 0…${MAX_WORKERS} or "auto", got ${got}`);
  }
  if (threads === undefined) {
    onWarning?.("workers: this runtime cannot start workers; the model runs on the caller's thread");
    return 0;
  }
  return option === "auto" ? Math.max(1, Math.min(MAX_WORKERS, threads.cores())) : (option as number);
}

/** A batch as `ModelWork.batch(i)` gives it and `runBatch` takes it (declared in Rust: bindings/wasm/src/model_work.rs). */
export type WorkBatch = wasm.WorkBatch;

/** The model that made a {@link ModelWork}: it runs one of its batches inside wasm and keeps the output there. */
export interface WorkRunner {
  /** Runs batch `i` of `work`; the batch's rows. */
  runWorkBatch(work: ModelWork, i: number): number;
}

/** What a model load sends each worker. */
export interface WorkerModel {
  kind: "crossEncoder" | "embedder";
  files: { model: Uint8Array; tokenizer: Uint8Array; config: Uint8Array | undefined; external?: { location: string; bytes: Uint8Array }[] };
  limits: object;
  pooling?: unknown;
}

type Reply = { id: number; ok: true; value?: Float32Array } | { id: number; ok: false; error: { message: string; code: string }; fatal?: boolean };

/** One worker: its port and its calls waiting for a reply. */
class PoolWorker {
  #port: PoolPort;
  #next = 0;
  #waiting = new Map<number, { resolve(v: Float32Array | undefined): void; reject(e: unknown): void }>();
  dead: unknown = undefined;

  constructor(port: PoolPort) {
    this.#port = port;
    port.onMessage((reply: Reply) => {
      const call = this.#waiting.get(reply.id);
      if (!call) return;
      this.#waiting.delete(reply.id);
      if (this.#waiting.size === 0) this.#port.hold?.(false);
      if (reply.ok) call.resolve(reply.value);
      else {
        const err = new RerankitError(reply.error.message, reply.error.code as RerankitError["code"]);
        if (reply.fatal) this.#die(err);
        call.reject(err);
      }
    });
    port.hold?.(false);
    port.onError((e) => this.#die(new RerankitError(`a pool worker failed: ${e instanceof Error ? e.message : String(e)}`, "INTERNAL")));
  }

  #die(err: unknown): void {
    if (this.dead !== undefined) return;
    this.dead = err;
    for (const call of this.#waiting.values()) call.reject(err);
    this.#waiting.clear();
    this.#port.terminate();
  }

  call(message: object, transfer: Transferable[] = []): Promise<Float32Array | undefined> {
    if (this.dead !== undefined) return Promise.reject(this.dead);
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      if (this.#waiting.size === 0) this.#port.hold?.(true);
      this.#waiting.set(id, { resolve, reject });
      this.#port.post({ ...message, id }, transfer);
    });
  }

  terminate(): void {
    this.#die(new RerankitError("the model was freed", "INVALID_ARGUMENT"));
  }
}

/** n workers holding one model. */
export class WorkerPool {
  #workers: PoolWorker[];

  private constructor(workers: PoolWorker[]) {
    this.#workers = workers;
  }

  /** Starts `n` workers and loads `model` in each (they load in parallel). */
  static async start(n: number, model: WorkerModel): Promise<WorkerPool> {
    if (threads === undefined) throw new RerankitError("workers: this runtime cannot start workers", "UNSUPPORTED");
    const workers = Array.from({ length: n }, () => new PoolWorker(threads!.spawn()));
    try {
      await Promise.all(workers.map((w) => w.call({ op: "load", model })));
    } catch (e) {
      for (const w of workers) w.terminate();
      throw e;
    }
    return new WorkerPool(workers);
  }

  get size(): number {
    return this.#workers.length;
  }

  /** Runs `work`'s batches, each worker taking the next batch when it is free (longest batches go first). */
  run(work: ModelWork, control: CallControl): Promise<void> {
    const [batches, rows] = [work.batchCount, work.rowCount];
    let next = 0;
    const live = this.#workers.filter((w) => w.dead === undefined);
    if (live.length === 0) return Promise.reject(new RerankitError("every pool worker has failed; load the model again", "INTERNAL"));
    // once one lane fails the call is over and its work freed: the others must not touch it when their worker answers
    let failed = false;
    const lane = async (worker: PoolWorker) => {
      while (next < batches && !failed) {
        control.check();
        if (!control.mayStartBatch()) return;
        const i = next++;
        const startedAt = control.now();
        const batch = work.batch(i);
        const batchRows = batch.inputIds.length / batch.len;
        const output = await control.race(worker.call({ op: "run", batch }, [batch.inputIds.buffer, batch.attentionMask.buffer, batch.tokenTypeIds.buffer]));
        if (failed) return;
        work.setOutput(i, output!);
        control.done(batchRows, rows);
        control.timed(startedAt);
      }
    };
    const lanes = live.map((worker) => lane(worker).catch((e: unknown) => {
      failed = true;
      throw e;
    }));
    return Promise.all(lanes).then(() => undefined);
  }

  terminate(): void {
    for (const w of this.#workers) w.terminate();
  }
}

/** One turn of the event loop, so that a page stays responsive between two inline batches. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Runs `work`'s batches one after another on the model's device (WebGPU; the CPU where it fell back), awaiting
 * each (`run` is the wasm model's `runDeviceBatch`): between two batches the call stops at its deadline or on its
 * AbortSignal, and reports progress, as inline.
 */
export async function runOnDevice(work: ModelWork, run: (work: ModelWork, i: number) => Promise<Float32Array>, control: CallControl): Promise<void> {
  const [batches, rows] = [work.batchCount, work.rowCount];
  for (let i = 0; i < batches; i++) {
    control.check();
    if (!control.mayStartBatch()) return;
    const startedAt = control.now();
    const output = await control.race(run(work, i));
    control.done(work.setOutput(i, output), rows);
    control.timed(startedAt);
  }
}

/** Runs `work`'s batches one per event-loop turn on this thread, inside wasm (`model` made `work`). */
export async function runInline(work: ModelWork, model: WorkRunner, control: CallControl): Promise<void> {
  const [batches, rows] = [work.batchCount, work.rowCount];
  for (let i = 0; i < batches; i++) {
    control.check();
    if (!control.mayStartBatch()) return;
    const startedAt = control.now();
    control.done(model.runWorkBatch(work, i), rows);
    control.timed(startedAt);
    if (i + 1 < batches) await nextTurn();
  }
}
