/**
 * The whole API: cross-encoders and embedders (CPU or WebGPU), and everything `rerankit/eval` and
 * `rerankit/pipeline-eval` export.
 * @module rerankit
 */
// The public API, shared by every runtime entry (node.ts, browser.ts, deno.ts, workerd.ts): the evaluation API
// (eval.ts), the pipeline evaluation (pipeline_eval.ts) and the models.
export * from "./eval.js";
export * from "./pipeline_eval.js";
export { CrossEncoder, Embedder, type Device, type EncodedPair, type Dtype, type EmbedOptions, type EmbedderLoadOptions, type HubOptions, type PretrainedOptions, type LoadProgress, type ModelLoadOptions, type ModelSource, type RerankOptions, type ScoreOptions, type SourceCache } from "./models/cross_encoder.js";
export { type DeviceOption, type ProbeReport, type WebGpuInfo } from "./models/engine.js";
export { DEFAULT_CACHE_NAME, type ModelCacheStore, type CacheApiCache } from "./models/model_source.js";
export type { WorkersOption } from "./models/pool.js";
export { int8Kernel, type Int8Kernel } from "./models/int8_kernel.js";
export type { ProgressHandler } from "./call_control.js";
