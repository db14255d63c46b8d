// The WebGPU engine behind `Embedder.load({device: "webgpu" | "auto"})`: the same WGSL kernels and device rules as
// the cross-encoder's (pkg/webgpu_cross_encoder.ts) — a parity probe of mean-pooled vectors against the CPU path on
// first use, the CPU as fallback with a warning — ending in mean pooling instead of a classifier.
import * as wasm from "./wasm/rerankit.js";
import { browserAdapterLabel, runtimeHasWebGpu, type DeviceOption, type WebGpuInfo } from "./webgpu_cross_encoder.js";
import { invalidArgument } from "./errors.js";

/** The WebGPU bi-encoder core: calls are queued, so concurrent `embed`s on one model run one after another. */
export class WebGpuEmbedderCore {
  #core: wasm.WebGpuEmbedderCore;
  #queue: Promise<unknown> = Promise.resolve();
  #adapterLabel: string | undefined;

  private constructor(core: wasm.WebGpuEmbedderCore, adapterLabel: string | undefined) {
    this.#core = core;
    this.#adapterLabel = adapterLabel;
  }

  /** The WebGPU core for `device`, or `null` when the CPU core should be used instead (as for cross-encoders). */
  static async load(
    files: { model: Uint8Array; tokenizer: Uint8Array; config: Uint8Array | undefined },
    limits: { maxLength?: number; maxQueryTokens?: number },
    device: DeviceOption,
    onWarning: ((message: string) => void) | undefined,
  ): Promise<WebGpuEmbedderCore | null> {
    if (onWarning !== undefined && typeof onWarning !== "function") invalidArgument("onWarning", "expected a function (message) => void");
    if (device === "cpu") return null;
    if (!runtimeHasWebGpu()) {
      if (device === "webgpu") onWarning?.("WebGPU unavailable, using the CPU: this runtime has no navigator.gpu (WebGPU runs in browsers and dedicated workers)");
      return null;
    }
    const warn = onWarning === undefined ? undefined : (m: string) => onWarning(m);
    const core = await wasm.WebGpuEmbedderCore.load(files.model, files.tokenizer, files.config ?? null, limits, device, warn);
    return new WebGpuEmbedderCore(core, core.device === "webgpu" ? await browserAdapterLabel() : undefined);
  }

  /** `"webgpu"` while the WGSL kernels run the model, `"cpu"` after any fallback. */
  get device(): "webgpu" | "cpu" {
    return this.#core.device as "webgpu" | "cpu";
  }

  get info(): WebGpuInfo {
    const wgpuName = this.#core.adapter ?? undefined;
    const adapter = wgpuName === undefined ? undefined : (this.#adapterLabel ?? wgpuName);
    return { adapter, probe: this.#core.probe ?? undefined, warnings: this.#core.warnings };
  }

  get dimension(): number {
    return this.#core.dimension;
  }

  embed(texts: readonly string[], normalize: boolean, batchSize: number): Promise<Float32Array> {
    const call = () => this.#core.embed(texts, normalize, batchSize) as Promise<Float32Array>;
    const next = this.#queue.then(call, call);
    this.#queue = next.catch(() => undefined);
    return next;
  }

  free(): void {
    this.#core.free();
  }
}
