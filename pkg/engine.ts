// The engine inside every model: a wasm model core (`CrossEncoderCore`, `EmbedderCore`: bindings/wasm/src/models.rs)
// runs on the CPU (tract) or on WebGPU (rerankit's WGSL kernels, parity-checked against the CPU path on first use,
// with the CPU as fallback). This file owns what the TypeScript side does about devices: it looks at the runtime
// (`navigator.gpu`), asks Rust where a model starts (`placeDevice`: the names, the default "cpu" and the fallbacks
// decided before loading are src/inference/device.rs's), queues calls on a model (a WebGPU call borrows the wasm
// model while it awaits the GPU) and names the adapter as the browser does. Once loaded, every fallback (no
// adapter, unsupported graph such as int8, failed probe, GPU error) calls `onWarning` and `device` becomes "cpu";
// a model never returns an answer the CPU path would not.
import * as wasm from "./wasm/rerankit.js";
import { invalidArgument } from "./errors.js";

/** Where a model may run (`ModelLoadOptions.device`). */
export type DeviceOption = "cpu" | "webgpu" | "auto";

/** The parity probe's verdict (first use on WebGPU): largest |GPU − CPU| over the probe batch's logits. */
export interface ProbeReport {
  maxAbsDiff: number;
  passed: boolean;
  values: number;
}

/** What a WebGPU-capable model reports (`CrossEncoder.webgpu`). */
export interface WebGpuInfo {
  /**
   * The adapter in use while on WebGPU: the browser's `GPUAdapterInfo` (`"google swiftshader (WebGPU, software
   * fallback adapter)"`, `"nvidia ampere (WebGPU)"`…), or wgpu's description where the runtime gives none.
   */
  adapter: string | undefined;
  /** After the first rerank/score. */
  probe: ProbeReport | undefined;
  /** Every fallback warning so far. */
  warnings: string[];
}

type Ranked = { index: number; score: number };

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

/** Where a load starts: the device asked for, whether to try WebGPU, and the warning owed when a wanted GPU is not
 *  tried. The rules (names, default "cpu", fallbacks) are Rust's, in src/inference/device.rs. */
export interface Placement {
  device: DeviceOption;
  tryGpu: boolean;
  warning: string | null;
}

/** The placement of a model asked to run on `device` (an embedder passes its pooling); reports the warning. */
export function placeDevice(device: unknown, onWarning: unknown, pooling?: unknown): Placement {
  if (onWarning !== undefined && typeof onWarning !== "function") invalidArgument("onWarning", "expected a function (message) => void");
  const placement = wasm.placeDevice(device ?? null, runtimeHasWebGpu(), pooling) as Placement;
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
interface WasmModelCore {
  readonly device: string;
  readonly adapter: string | undefined;
  readonly probe: ProbeReport | undefined;
  readonly warnings: string[];
  free(): void;
}

/** A wasm model core behind a call queue: concurrent calls on one model run one after another. */
class Engine<C extends WasmModelCore> {
  protected readonly core: C;
  #queue: Promise<unknown> = Promise.resolve();
  #adapterLabel: string | undefined;
  #triedGpu: boolean;

  protected constructor(core: C, placement: Placement, adapterLabel: string | undefined) {
    this.core = core;
    this.#triedGpu = placement.tryGpu;
    this.#adapterLabel = adapterLabel;
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
    return this.core.device as "webgpu" | "cpu";
  }

  /** Adapter, probe and warnings when WebGPU was tried (device "webgpu"/"auto" in a WebGPU runtime). */
  get info(): WebGpuInfo | undefined {
    if (!this.#triedGpu) return undefined;
    const wgpuName = this.core.adapter ?? undefined;
    const adapter = wgpuName === undefined ? undefined : (this.#adapterLabel ?? wgpuName);
    return { adapter, probe: this.core.probe ?? undefined, warnings: this.core.warnings };
  }

  free(): void {
    this.core.free();
  }

  /** Runs `call` after every earlier call on this model has settled. */
  protected serial<T>(call: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(call, call);
    this.#queue = next.catch(() => undefined);
    return next;
  }
}

/** A cross-encoder's engine. */
export class CrossEncoderEngine extends Engine<wasm.CrossEncoderCore> {
  static async load(files: ModelBytes, limits: object, placement: Placement, onWarning: ((message: string) => void) | undefined): Promise<CrossEncoderEngine> {
    const device = placement.tryGpu ? placement.device : "cpu";
    const core = await wasm.CrossEncoderCore.load(files, limits, device, Engine.warn(onWarning));
    return new CrossEncoderEngine(core, placement, await Engine.label(core));
  }

  get numLabels(): number {
    return this.core.numLabels;
  }

  get maxLength(): number {
    return this.core.maxLength;
  }

  score(pairs: unknown, options: unknown): Promise<Float32Array> {
    return this.serial(() => this.core.score(pairs, options));
  }

  rerank(queries: unknown, lists: readonly unknown[], nested: boolean, options: object): Promise<Ranked[][]> {
    return this.serial(() => this.core.rerank(queries, lists, nested, options));
  }

  sasScores(pairs: unknown, batchSize: unknown): Promise<Float64Array> {
    return this.serial(async () => this.core.sasScores(pairs, batchSize));
  }

  encodePair(query: unknown, document: unknown): { inputIds: number[]; tokenTypeIds: number[] } {
    return this.core.encodePair(query, document);
  }
}

/** A bi-encoder's engine. */
export class EmbedderEngine extends Engine<wasm.EmbedderCore> {
  static async load(files: ModelBytes, limits: object, placement: Placement, pooling: unknown, onWarning: ((message: string) => void) | undefined): Promise<EmbedderEngine> {
    const device = placement.tryGpu ? placement.device : "cpu";
    const core = await wasm.EmbedderCore.load(files, limits, device, pooling, Engine.warn(onWarning));
    return new EmbedderEngine(core, placement, await Engine.label(core));
  }

  get dimension(): number {
    return this.core.dimension;
  }

  sasScores(pairs: unknown, batchSize: unknown): Promise<Float64Array> {
    return this.serial(async () => this.core.sasScores(pairs, batchSize));
  }

  embed(texts: unknown, options: unknown, defaultNormalize: boolean): Promise<Float32Array> {
    return this.serial(() => this.core.embed(texts, options, defaultNormalize) as Promise<Float32Array>);
  }
}
