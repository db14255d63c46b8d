// The WebGPU engine behind `CrossEncoder.load({device: "webgpu" | "auto"})`: rerankit's own WGSL kernels (Rust,
// wgpu over the browser's WebGPU), checked on first use against the CPU path (parity probe, max |Δlogit| ≤ 1e-3),
// with the CPU (tract in wasm) as fallback. The device names, the default ("cpu") and the fallbacks decided before
// loading are Rust's (src/inference/device.rs, through `placeDevice`); this file looks at the runtime
// (`navigator.gpu`), queues calls and names the adapter. Once loaded, every fallback (no adapter, unsupported
// graph such as int8, failed probe, GPU error) calls `onWarning` and `ranker.device` becomes "cpu"; a model never
// returns an answer the CPU path would not.
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

/** What a WebGPU-capable ranker reports (`CrossEncoder.webgpu`). */
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

/** The methods `CrossEncoder` calls on its core; the CPU core answers at once, this one through promises. */
export interface RankerCore {
  readonly numLabels: number;
  readonly maxLength: number;
  score(queries: string[], documents: string[], batchSize: number): Float32Array | Promise<Float32Array>;
  rerank(queries: unknown, lists: readonly unknown[], nested: boolean, options: object): Ranked[][] | Promise<Ranked[][]>;
  encodePair(query: string, document: string): { inputIds: number[]; tokenTypeIds: number[] };
  sasScores(pairs: [string, string][], batchSize: number): Float64Array | Promise<Float64Array>;
  free(): void;
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

/** Where a load starts: the device asked for, whether to try WebGPU, and the warning owed when a wanted GPU is not
 *  tried. The rules (names, default "cpu", fallbacks) are Rust's, in src/inference/device.rs. */
export interface Placement {
  device: DeviceOption;
  tryGpu: boolean;
  warning: string | null;
}

/** The placement of a model asked to run on `device` (an embedder passes its pooling); reports the warning. */
export function placeDevice(device: unknown, onWarning: unknown, pooling?: string): Placement {
  if (onWarning !== undefined && typeof onWarning !== "function") invalidArgument("onWarning", "expected a function (message) => void");
  const placement = wasm.placeDevice(device ?? null, runtimeHasWebGpu(), pooling) as Placement;
  if (placement.warning !== null) (onWarning as ((message: string) => void) | undefined)?.(placement.warning);
  return placement;
}

/** What both WebGPU cores of the wasm module (cross-encoder, embedder) report. */
interface WasmWebGpuCore {
  readonly device: string;
  readonly adapter: string | undefined;
  readonly probe: ProbeReport | undefined;
  readonly warnings: string[];
  free(): void;
}

/** The model files every loader takes. */
export interface ModelBytes {
  model: Uint8Array;
  tokenizer: Uint8Array;
  config: Uint8Array | undefined;
  external?: { location: string; bytes: Uint8Array }[];
}

/** The signature both wasm WebGPU cores' `load` share. */
type WasmLoad<C> = (model: Uint8Array, tokenizer: Uint8Array, config: Uint8Array | null, options: unknown, external: unknown, device: string, onWarning?: ((message: string) => void) | null) => Promise<C>;

/** A wasm WebGPU core behind a call queue: concurrent calls on one model run one after another. */
export class QueuedWebGpuCore<C extends WasmWebGpuCore> {
  protected readonly core: C;
  #queue: Promise<unknown> = Promise.resolve();
  #adapterLabel: string | undefined;

  protected constructor(core: C, adapterLabel: string | undefined) {
    this.core = core;
    this.#adapterLabel = adapterLabel;
  }

  /** The wasm core `load` makes for `placement`, or `null` when the CPU core should be used instead. */
  protected static async loadCore<W extends WasmWebGpuCore>(load: WasmLoad<W>, files: ModelBytes, limits: object, placement: Placement, onWarning: ((message: string) => void) | undefined): Promise<W | null> {
    if (!placement.tryGpu) return null;
    const warn = onWarning === undefined ? undefined : (m: string) => onWarning(m);
    return load(files.model, files.tokenizer, files.config ?? null, limits, files.external, placement.device, warn);
  }

  /** The browser's name for the adapter, when the model landed on WebGPU. */
  protected static async label(core: WasmWebGpuCore): Promise<string | undefined> {
    return core.device === "webgpu" ? await browserAdapterLabel() : undefined;
  }

  /** `"webgpu"` while the WGSL kernels run the model, `"cpu"` after any fallback. */
  get device(): "webgpu" | "cpu" {
    return this.core.device as "webgpu" | "cpu";
  }

  get info(): WebGpuInfo {
    const wgpuName = this.core.adapter ?? undefined;
    const adapter = wgpuName === undefined ? undefined : (this.#adapterLabel ?? wgpuName);
    return { adapter, probe: this.core.probe ?? undefined, warnings: this.core.warnings };
  }

  free(): void {
    this.core.free();
  }

  /** Runs `call` after every earlier call on this model has settled (the wasm model is borrowed while a GPU call is awaited). */
  protected serial<T>(call: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(call, call);
    this.#queue = next.catch(() => undefined);
    return next;
  }
}

/** The WebGPU cross-encoder core. */
export class WebGpuCore extends QueuedWebGpuCore<wasm.WebGpuCrossEncoderCore> implements RankerCore {
  /**
   * The WebGPU core for `device`, or `null` when the CPU core should be used instead (`device` "cpu", or a
   * runtime without WebGPU — with a warning when "webgpu" was asked for).
   */
  static async load(
    files: ModelBytes,
    limits: object,
    placement: Placement,
    onWarning: ((message: string) => void) | undefined,
  ): Promise<WebGpuCore | null> {
    const core = await QueuedWebGpuCore.loadCore(wasm.WebGpuCrossEncoderCore.load, files, limits, placement, onWarning);
    return core && new WebGpuCore(core, await QueuedWebGpuCore.label(core));
  }

  get numLabels(): number {
    return this.core.numLabels;
  }

  get maxLength(): number {
    return this.core.maxLength;
  }

  score(queries: string[], documents: string[], batchSize: number): Promise<Float32Array> {
    return this.serial(() => this.core.score(queries, documents, batchSize));
  }

  rerank(queries: unknown, lists: readonly unknown[], nested: boolean, options: object): Promise<Ranked[][]> {
    return this.serial(() => this.core.rerank(queries, lists, nested, options));
  }

  sasScores(pairs: [string, string][], batchSize: number): Promise<Float64Array> {
    return this.serial(async () => this.core.sasScores(pairs, batchSize));
  }

  encodePair(query: string, document: string): { inputIds: number[]; tokenTypeIds: number[] } {
    return this.core.encodePair(query, document);
  }
}
