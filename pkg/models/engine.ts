// The engine inside every model: the wasm engine of its kind (`CrossEncoderEngine`, `EmbedderEngine`: bindings/wasm/src/models.rs)
// runs on the CPU (tract) or on WebGPU (rerankit's WGSL kernels, parity-checked against the CPU path on first use,
// with the CPU as fallback). This file owns what the TypeScript side does about devices: it looks at the runtime
// (`navigator.gpu`), asks Rust where a model starts (`placeDevice`: the names, the default "cpu" and the fallbacks
// decided before loading are src/inference/device.rs's), queues calls on a model (a WebGPU call borrows the wasm
// model while it awaits the GPU) and names the adapter as the browser does. Once loaded, every fallback (no
// adapter, unsupported graph such as int8, failed probe, GPU error) calls `onWarning` and `device` becomes "cpu";
// a model never returns an answer the CPU path would not.
import * as wasm from "../wasm/rerankit.js";
import type { CallControl } from "../call_control.js";
import { WorkerPool, runInline, runOnDevice, type WorkRunner, type WorkerModel } from "./pool.js";
import { RerankitError, invalidArgument } from "../errors.js";

/** Where a model may run (`ModelLoadOptions.device`). */
export type DeviceOption = "cpu" | "webgpu" | "auto";

// The parity probe's verdict, declared in Rust (bindings/wasm/src/models.rs) with the other types the seam carries.
export type { ProbeReport } from "../wasm/rerankit.js";

/** What a WebGPU-capable model reports (`CrossEncoder.webgpu`). */
export interface WebGpuInfo {
  /**
   * The adapter in use while on WebGPU: the browser's `GPUAdapterInfo` (`"google swiftshader (WebGPU, software
   * fallback adapter)"`, `"nvidia ampere (WebGPU)"`…), or wgpu's description where the runtime gives none.
   */
  adapter: string | undefined;
  /** After the first rerank/score. */
  probe: wasm.ProbeReport | undefined;
  /** Every fallback warning so far. */
  warnings: string[];
}


/** Whether this runtime exposes WebGPU at all (a browser window or dedicated worker with `navigator.gpu`). */
export function runtimeHasWebGpu(): boolean {
  const g = globalThis as { navigator?: { gpu?: unknown }; window?: unknown; WorkerGlobalScope?: unknown };
  // wgpu reaches the adapter through `window.navigator` or a worker's `navigator`; Deno has `navigator.gpu`
  // but neither global, so it stays on the CPU.
  return g.navigator?.gpu !== undefined && (g.window !== undefined || g.WorkerGlobalScope !== undefined);
}

/**
 * The browser's own description of its default adapter — wgpu copies only `GPUAdapterInfo.description` into its
 * adapter name, and browsers usually leave that empty. `undefined` when the browser says nothing.
 */
export async function browserAdapterLabel(): Promise<string | undefined> {
  type Info = { vendor?: string; architecture?: string; device?: string; description?: string; isFallbackAdapter?: boolean };
  type Adapter = { info?: Info; isFallbackAdapter?: boolean };
  const gpu = (globalThis as { navigator?: { gpu?: { requestAdapter(): Promise<Adapter | null> } } }).navigator?.gpu;
  try {
    const a = await gpu?.requestAdapter();
    const i = a?.info;
    if (!a || !i) return undefined;
    const name = [i.vendor, i.architecture, i.device, i.description].filter((x) => typeof x === "string" && x.length > 0).join(" ");
    if (name.length === 0) return undefined;
    const software = a.isFallbackAdapter ?? i.isFallbackAdapter ?? false;
    return `${name} (WebGPU${software ? ", software fallback adapter" : ""})`;
  } catch {
    return undefined;
  }
}

/** Where a load starts (declared in Rust: bindings/wasm/src/inference.rs; the rules are src/inference/device.rs's). */
export type Placement = wasm.Placement;

/** The placement of a model asked to run on `device` (an embedder passes its pooling); reports the warning. */
export function placeDevice(device: unknown, onWarning: unknown, pooling?: unknown): Placement {
  if (onWarning !== undefined && typeof onWarning !== "function") invalidArgument("onWarning", "expected a function (message) => void");
  const placement = wasm.placeDevice(device ?? null, runtimeHasWebGpu(), pooling);
  if (placement.warning !== null) (onWarning as ((message: string) => void) | undefined)?.(placement.warning);
  return placement;
}

/** The model files every loader takes. */
export interface ModelBytes {
  model: Uint8Array;
  tokenizer: Uint8Array;
  config: Uint8Array | undefined;
  external?: { location: string; bytes: Uint8Array }[];
}

/** What both wasm model cores report about their engine. */
interface WasmModelCore extends WorkRunner {
  readonly device: "webgpu" | "cpu";
  readonly adapter: string | undefined;
  readonly probe: wasm.ProbeReport | undefined;
  readonly warnings: string[];
  /** Runs one batch of a call on the model's device (the cross-encoder's; an embedder on WebGPU runs whole). */
  runDeviceBatch?(work: wasm.ModelWork, i: number): Promise<Float32Array>;
  free(): void;
}

/** A wasm model core behind a call queue: concurrent calls on one model run one after another. */
class Engine<C extends WasmModelCore> {
  #core: C | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  #adapterLabel: string | undefined;
  #triedGpu: boolean;

  protected readonly pool: WorkerPool | undefined;

  protected constructor(core: C, placement: Placement, adapterLabel: string | undefined, pool: WorkerPool | undefined) {
    this.#core = core;
    this.pool = pool;
    this.#triedGpu = placement.tryGpu;
    this.#adapterLabel = adapterLabel;
  }

  /** The wasm model; `FREED` once `free()` was called (wasm-bindgen would only say "null pointer passed to rust"). */
  protected get core(): C {
    if (this.#core === undefined) throw new RerankitError("model: this model was freed (free() was called); load it again", "FREED");
    return this.#core;
  }

  /** The browser's name for the adapter, when the model landed on WebGPU. */
  protected static async label(core: WasmModelCore): Promise<string | undefined> {
    return core.device === "webgpu" ? await browserAdapterLabel() : undefined;
  }

  /** The warning callback as the wasm core takes it. */
  protected static warn(onWarning: ((message: string) => void) | undefined): ((message: string) => void) | undefined {
    return onWarning === undefined ? undefined : (m: string) => onWarning(m);
  }

  /** `"webgpu"` while the WGSL kernels run the model, `"cpu"` when asked for or after any fallback. */
  get device(): "webgpu" | "cpu" {
    return this.core.device;
  }

  /** Adapter, probe and warnings when WebGPU was tried (device "webgpu"/"auto" in a WebGPU runtime). */
  get info(): WebGpuInfo | undefined {
    if (!this.#triedGpu) return undefined;
    const wgpuName = this.core.adapter ?? undefined;
    const adapter = wgpuName === undefined ? undefined : (this.#adapterLabel ?? wgpuName);
    return { adapter, probe: this.core.probe ?? undefined, warnings: this.core.warnings };
  }

  /** Releases the model and its workers; a second call does nothing. */
  free(): void {
    const core = this.#core;
    if (core === undefined) return;
    this.#core = undefined;
    this.pool?.terminate();
    core.free();
  }

  /**
   * `work`'s batches: on WebGPU batch by batch, on the CPU in the pool's workers when the model has one, else
   * inline (one batch per event-loop turn); then its answer. The work object is freed on every path.
   */
  protected async runWork<T>(work: wasm.ModelWork, control: CallControl, finish: (work: wasm.ModelWork) => T): Promise<T> {
    const core = this.core;
    const onDevice = core.device === "cpu" ? undefined : core.runDeviceBatch?.bind(core);
    try {
      if (onDevice) await runOnDevice(work, onDevice, control);
      else if (this.pool) await this.pool.run(work, control);
      else await runInline(work, core, control);
      return finish(work);
    } finally {
      work.free();
    }
  }

  /** A call on the WebGPU engine: it runs whole, so `signal` is checked before and `onProgress` told after. */
  protected async whole<T>(control: CallControl, total: number, call: () => Promise<T>): Promise<T> {
    control.check();
    const out = await control.race(call());
    control.done(total, total);
    return out;
  }

  /** Starts the pool when the model runs on the CPU and workers were asked for. */
  protected static async pool(core: WasmModelCore, model: WorkerModel, workers: number, onWarning: ((message: string) => void) | undefined): Promise<WorkerPool | undefined> {
    if (workers === 0) return undefined;
    if (core.device !== "cpu") {
      onWarning?.("workers: the model runs on WebGPU, where workers do not help; it runs without them");
      return undefined;
    }
    return WorkerPool.start(workers, model);
  }

  /** Runs `call` after every earlier call on this model has settled. */
  protected serial<T>(call: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(call, call);
    this.#queue = next.catch(() => undefined);
    return next;
  }
}

/** A cross-encoder's engine. */
export class CrossEncoderEngine extends Engine<wasm.CrossEncoderEngine> {
  static async load(files: ModelBytes, limits: object, placement: Placement, onWarning: ((message: string) => void) | undefined, workers = 0): Promise<CrossEncoderEngine> {
    const device = placement.tryGpu ? placement.device : "cpu";
    const core = await wasm.CrossEncoderEngine.load(files, limits, device, Engine.warn(onWarning));
    try {
      const pool = await Engine.pool(core, { kind: "crossEncoder", files, limits }, workers, onWarning);
      return new CrossEncoderEngine(core, placement, await Engine.label(core), pool);
    } catch (e) {
      core.free();
      throw e;
    }
  }

  get numLabels(): number {
    return this.core.numLabels;
  }

  get maxLength(): number {
    return this.core.maxLength;
  }

  score(pairs: unknown, options: unknown, control: CallControl): Promise<Float32Array> {
    return this.serial(async () => {
      control.check();
      return this.runWork(this.core.scoreWork(pairs, options), control, (w) => w.finishValues());
    });
  }

  rerank(queries: unknown, lists: readonly unknown[], nested: boolean, options: unknown, control: CallControl): Promise<wasm.Ranked[][]> {
    return this.serial(async () => {
      control.check();
      const work = this.core.rerankWork(queries, lists, nested, options);
      // read after Rust has checked the options (a finite number ≥ 0, or absent)
      control.setDeadline(typeof options === "object" && options !== null ? (options as { deadlineMs?: number | null }).deadlineMs : undefined);
      return this.runWork(work, control, (w) => w.finishRanking());
    });
  }

  sasScores(pairs: unknown, batchSize: unknown): Promise<Float64Array> {
    return this.serial(async () => this.core.sasScores(pairs, batchSize));
  }

  encodePair(query: unknown, document: unknown): wasm.EncodedPair {
    return this.core.encodePair(query, document);
  }
}

/** A bi-encoder's engine. */
export class EmbedderEngine extends Engine<wasm.EmbedderEngine> {
  static async load(files: ModelBytes, limits: object, placement: Placement, pooling: unknown, onWarning: ((message: string) => void) | undefined, workers = 0): Promise<EmbedderEngine> {
    const device = placement.tryGpu ? placement.device : "cpu";
    const core = await wasm.EmbedderEngine.load(files, limits, device, pooling, Engine.warn(onWarning));
    try {
      const pool = await Engine.pool(core, { kind: "embedder", files, limits, pooling }, workers, onWarning);
      return new EmbedderEngine(core, placement, await Engine.label(core), pool);
    } catch (e) {
      core.free();
      throw e;
    }
  }

  get dimension(): number {
    return this.core.dimension;
  }

  sasScores(pairs: unknown, batchSize: unknown): Promise<Float64Array> {
    return this.serial(async () => this.core.sasScores(pairs, batchSize));
  }

  embed(texts: unknown, options: unknown, defaultNormalize: boolean, control: CallControl): Promise<Float32Array> {
    return this.serial(async () => {
      control.check();
      if (this.core.device !== "cpu") return this.whole(control, lengthOf(texts), () => this.core.embed(texts, options, defaultNormalize));
      return this.runWork(this.core.embedWork(texts, options, defaultNormalize), control, (w) => w.finishValues());
    });
  }
}

/** The length of what should be a list (progress totals are counted before Rust has checked the arguments). */
const lengthOf = (list: unknown): number => (Array.isArray(list) ? list.length : 0);

