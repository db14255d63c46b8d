// The WebGPU engine behind `Embedder.load({device: "webgpu" | "auto"})`: the same WGSL kernels and device rules as
// the cross-encoder's (pkg/webgpu_cross_encoder.ts) — a parity probe of mean-pooled vectors against the CPU path on
// first use, the CPU as fallback with a warning — ending in mean pooling instead of a classifier.
import * as wasm from "./wasm/rerankit.js";
import { QueuedWebGpuCore, type ModelBytes, type Placement } from "./webgpu_cross_encoder.js";

/** The WebGPU bi-encoder core. */
export class WebGpuEmbedderCore extends QueuedWebGpuCore<wasm.WebGpuEmbedderCore> {
  /** The WebGPU core for `device`, or `null` when the CPU core should be used instead (as for cross-encoders). */
  static async load(
    files: ModelBytes,
    limits: object,
    placement: Placement,
    onWarning: ((message: string) => void) | undefined,
  ): Promise<WebGpuEmbedderCore | null> {
    const core = await QueuedWebGpuCore.loadCore(wasm.WebGpuEmbedderCore.load, files, limits, placement, onWarning);
    return core && new WebGpuEmbedderCore(core, await QueuedWebGpuCore.label(core));
  }

  get dimension(): number {
    return this.core.dimension;
  }

  sasScores(pairs: [string, string][], batchSize: number): Promise<Float64Array> {
    return this.serial(async () => this.core.sasScores(pairs, batchSize));
  }

  embed(texts: readonly string[], normalize: boolean, batchSize: number): Promise<Float32Array> {
    return this.serial(() => this.core.embed(texts, normalize, batchSize) as Promise<Float32Array>);
  }
}
