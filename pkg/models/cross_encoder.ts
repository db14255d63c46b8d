// Cross-encoder reranking and bi-encoder embeddings on the CPU (tract compiled to wasm, one thread).
// Semantics: docs/parity.md §2 (Haystack's SentenceTransformersRanker) plus Cohere-style chunking of long documents.
import * as wasm from "../wasm/rerankit.js";
import type * as rust from "../rust_types.js";
import type { EncodedPair } from "../wasm/rerankit.js";
import { MAX_LIST_LENGTH, invalidArgument } from "../errors.js";
import { loadBytes, type LoadProgress, type ModelSource, type SourceCache } from "./model_source.js";
import { HubRepo, poolingOf, resolveGraph, type Dtype, type HubOptions } from "./hub.js";
import { freeQuietly, guarded, wasmRestarts } from "../runtimes/wasm_instance.js";
import type { Ranker, RerankDocument, RerankResult } from "../rankers/ranker.js";
import { CrossEncoderEngine, EmbedderEngine, placeDevice, runtimeHasWebGpu, type WebGpuInfo } from "./engine.js";
import { CallControl, type ProgressHandler } from "../call_control.js";
import { workerCount, type WorkersOption } from "./pool.js";

/** Where a model runs: `"webgpu"` (our WGSL kernels, parity-checked) or `"cpu"` (tract in wasm). */
export type Device = "cpu" | "webgpu";

/** Options of `CrossEncoder.load`: the model's files and how it runs. */
export interface ModelLoadOptions extends Partial<rust.ModelLoadOptions> {
  /** The ONNX graph: URL, bytes, or (Node/Deno) a file path. */
  model: ModelSource;
  /** `tokenizer.json`. */
  tokenizer: ModelSource;
  /** `config.json` (optional: window and label count are read from the graph when absent). */
  config?: ModelSource;
  /**
   * The external-data files of a graph that keeps its weights outside the `.onnx` file (`model.onnx_data`…):
   * one source (for a single file), `{location: source}`, or a resolver `(location) => source`. Default: found
   * beside `model` when that is a path or URL; a model given as bytes needs them given.
   */
  externalData?: ModelSource | Record<string, ModelSource> | ((location: string) => ModelSource | Promise<ModelSource>);
  /**
   * `"cpu"` (default), `"webgpu"` or `"auto"` (WebGPU when the runtime has it, else the CPU silently); see
   * pkg/models/engine.ts (the rules: src/inference/device.rs).
   */
  device?: Device | "auto";
  /** Hears every fall back from WebGPU to the CPU (no adapter, unsupported graph, failed parity probe). */
  onWarning?: (message: string) => void;
  /**
   * Run the model in this many workers (Web Workers, `worker_threads`, Deno Workers), each with its own copy,
   * and spread each call's batches across them: the caller's thread stays free and every core works. `"auto"`
   * is one per hardware thread (at most 16). Default 0: the model runs on the caller's thread, one batch per
   * event-loop turn. Results are identical either way. CPU only; a runtime without threads (Cloudflare
   * Workers) runs inline. See pkg/models/pool.ts.
   */
  workers?: WorkersOption;
  /** Called as each file downloads: `{file, loaded, total}`. */
  onProgress?: (progress: LoadProgress) => void;
  /** Stops the downloads: the load rejects with a RerankitError `ABORTED`. */
  signal?: AbortSignal;
  /** Where fetched files may be cached (hook for the Cache API). */
  cache?: SourceCache;
}

/** Options of `CrossEncoder.rerank` and `rerankBatch`. */
export interface RerankOptions extends Partial<rust.RerankOptions> {
  /** Include the input document in each result. Default false. */
  returnDocuments?: boolean;
  /** Stops the call between batches: it rejects with a RerankitError `ABORTED`. */
  signal?: AbortSignal;
  /** `{done, total}` after each batch, counted in model inputs (a long document's chunks count one each). */
  onProgress?: ProgressHandler;
  /** The clock `deadlineMs` is measured on, in milliseconds. Default `performance.now`; give your own to test. */
  clock?: () => number;
}

/** Options of `fromPretrained`: where the repo's files are ({@link HubOptions}) and everything `load` takes. */
export type PretrainedOptions = HubOptions & Omit<ModelLoadOptions, "model" | "tokenizer" | "config" | "externalData">;

/** Options of `Embedder.load` / `Embedder.fromPretrained`. */
export interface EmbedderLoadOptions extends ModelLoadOptions {
  /**
   * How token vectors become one vector: `"mean"` (default), `"cls"` (bge, gte) or `"lastToken"`.
   * `fromPretrained` reads it from sentence-transformers' `modules.json` / `1_Pooling/config.json`.
   */
  pooling?: "mean" | "cls" | "lastToken";
  /** The default of `embed`'s `normalize` (fromPretrained: true when `modules.json` has a Normalize module). */
  normalize?: boolean;
}

const EXTERNAL_MARKER = new TextEncoder().encode("\x0a\x08location");

/** Whether the protobuf may name external data (the key `location` of an `external_data` entry): a byte scan
 *  that spares decoding every large model twice. */
function mayNameExternalData(model: Uint8Array): boolean {
  const m = EXTERNAL_MARKER;
  outer: for (let i = model.indexOf(m[0]); i >= 0 && i + m.length <= model.length; i = model.indexOf(m[0], i + 1)) {
    for (let j = 1; j < m.length; j++) if (model[i + j] !== m[j]) continue outer;
    return true;
  }
  return false;
}

/** Where `location` lies beside `model` (a path or URL), or undefined for bytes. */
function beside(model: ModelSource, location: string): ModelSource | undefined {
  if (model instanceof URL) return new URL(location, model);
  if (typeof model !== "string") return undefined;
  if (/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//.test(model)) return new URL(location, model).href;
  const cut = Math.max(model.lastIndexOf("/"), model.lastIndexOf("\\"));
  return cut < 0 ? location : model.slice(0, cut + 1) + location;
}

async function externalFiles(model: ModelSource, bytes: Uint8Array, given: ModelLoadOptions["externalData"], io: object): Promise<{ location: string; bytes: Uint8Array }[] | undefined> {
  if ((given === undefined || typeof given === "function") && !mayNameExternalData(bytes)) return undefined;
  const locations = guarded("model", () => wasm.externalDataLocations(bytes));
  if (locations.length === 0) return undefined;
  const sourceOf = (location: string): ModelSource | Promise<ModelSource> | undefined => {
    if (given === undefined) return beside(model, location);
    if (typeof given === "function") return given(location);
    if (typeof given === "string" || given instanceof URL || given instanceof Uint8Array || given instanceof ArrayBuffer) {
      if (locations.length > 1) invalidArgument("externalData", `the model names ${locations.length} external files (${locations.join(", ")}): give {location: source}`);
      return given;
    }
    if (given === null || typeof given !== "object") invalidArgument("externalData", "expected a source or {location: source}");
    const base = location.split(/[\\/]/).pop()!;
    return (given as Record<string, ModelSource>)[location] ?? (given as Record<string, ModelSource>)[base];
  };
  return Promise.all(locations.map(async (location) => {
    const source = await sourceOf(location);
    if (source === undefined) invalidArgument("externalData", `the model keeps weights in ${JSON.stringify(location)}: give it (a path, URL or bytes)`);
    return { location, bytes: await loadBytes(source, location, "MODEL_LOAD", io) };
  }));
}

async function loadFiles(options: ModelLoadOptions) {
  if (options === null || typeof options !== "object") invalidArgument("options", "expected {model, tokenizer, …}");
  // the keys this wrapper consumes (files, I/O, device); the rest are the model's options, read by Rust
  const { model: _m, tokenizer: _t, config: _c, externalData: _e, device: _d, workers: _n, onWarning: _w, onProgress: _p, signal: _s, cache: _k, ...limits } = options;
  if (options.model === undefined) invalidArgument("model", "required (URL, bytes or file path)");
  if (options.tokenizer === undefined) invalidArgument("tokenizer", "required (URL, bytes or file path)");
  const io = { onProgress: options.onProgress, signal: options.signal, cache: options.cache };
  const [model, tokenizer, config] = await Promise.all([
    loadBytes(options.model, "model", "MODEL_LOAD", io),
    loadBytes(options.tokenizer, "tokenizer", "TOKENIZER", io),
    options.config === undefined ? undefined : loadBytes(options.config, "config", "MODEL_LOAD", io),
  ]);
  const external = await externalFiles(options.model, model, options.externalData, io);
  options.signal?.throwIfAborted();
  return { model, tokenizer, config, external, limits };
}

/** The files of Hub repo `modelId` (see pkg/models/hub.ts) as `load` options. */
async function pretrainedFiles(modelId: string, options: PretrainedOptions): Promise<{ repo: HubRepo; load: ModelLoadOptions }> {
  if (options === null || typeof options !== "object") invalidArgument("options", "expected an object");
  const io = { onProgress: options.onProgress, signal: options.signal, cache: options.cache };
  const repo = new HubRepo(modelId, options, io);
  // the graph's default dtype follows where the model will start (warnings are `load`'s to give)
  const gpu = wasm.placeDevice(options.device ?? null, runtimeHasWebGpu(), undefined).tryGpu;
  const [graph, tokenizer, config] = await Promise.all([
    resolveGraph(repo, options.dtype as Dtype | undefined, gpu ? "fp32" : "q8", options.onWarning),
    repo.fetch("tokenizer.json"),
    repo.fetchOptional("config.json"),
  ]);
  // external-data files lie beside the graph in the repo; `load` asks for the ones the graph names
  const folder = graph.path.slice(0, graph.path.lastIndexOf("/") + 1);
  const externalData = (location: string) => repo.fetch(folder + location);
  // the Hub's keys are spent here; the rest go to `load`
  const { dtype: _dt, revision: _r, remoteHost: _h, remotePathTemplate: _pt, localModelPath: _l, allowRemoteModels: _a, subfolder: _s, modelFileName: _f, ...rest } = options;
  return { repo, load: { ...rest, model: graph.bytes, tokenizer, config, externalData } };
}

/**
 * A call's options split in two: what Rust reads (the rest) and what this wrapper consumes — `signal` and
 * `onProgress` (a {@link CallControl}) and `consumed` keys. Anything but a plain object goes to Rust untouched,
 * which refuses it (spreading a long string would build an object per character).
 */
function callOptions(what: string, options: unknown, consumed: string[]): [unknown, CallControl] {
  if (options === null || typeof options !== "object" || Array.isArray(options)) return [options, new CallControl(what, undefined, undefined)];
  const { signal, onProgress, ...rest } = options as { signal?: unknown; onProgress?: unknown };
  const clock = consumed.includes("clock") ? (rest as { clock?: unknown }).clock : undefined;
  for (const key of consumed) delete (rest as Record<string, unknown>)[key];
  return [rest, new CallControl(what, signal, onProgress, clock)];
}

/** A cross-encoder reranker: load once, rerank many times. The local {@link Ranker}. */
export class CrossEncoder implements Ranker<RerankOptions> {
  #core: CrossEncoderEngine;
  /** The wasm instance the core lives in (pkg/runtimes/wasm_instance.ts restarts it after a trap). */
  #generation = wasmRestarts();

  private constructor(core: CrossEncoderEngine) {
    this.#core = core;
  }

  /** Fetches/reads the files, then parses and optimises the model once (`device` picks CPU or WebGPU). */
  static async load(options: ModelLoadOptions): Promise<CrossEncoder> {
    const placement = guarded("device", () => placeDevice(options?.device, options?.onWarning));
    const workers = workerCount(options?.workers, options?.onWarning);
    const { model, tokenizer, config, external, limits } = await loadFiles(options);
    return new CrossEncoder(await guarded("model", () => CrossEncoderEngine.load({ model, tokenizer, config, external }, limits, placement, options.onWarning, workers)));
  }

  /**
   * Loads a Hub model by id (`"Xenova/ms-marco-MiniLM-L-6-v2"`, `"BAAI/bge-reranker-base"`…): `config.json`,
   * `tokenizer.json` and `onnx/model{_quantized,_fp16,…}.onnx` by `dtype`, from `localModelPath`, the Hub or a
   * mirror (pkg/models/hub.ts), then as {@link CrossEncoder.load}.
   */
  static async fromPretrained(modelId: string, options: PretrainedOptions = {}): Promise<CrossEncoder> {
    const { load } = await pretrainedFiles(modelId, options);
    return CrossEncoder.load(load);
  }

  /** Where the next batch runs: `"webgpu"`, or `"cpu"` (asked for, or after a fallback). */
  get device(): Device {
    return this.#core.device;
  }

  /** Adapter, parity probe and warnings when loaded with `device` "webgpu"/"auto" in a WebGPU runtime. */
  get webgpu(): WebGpuInfo | undefined {
    return this.#core.info;
  }

  /** Logits per pair: 1 for relevance models, ≥ 2 for classifiers (scored by the last). */
  get numLabels(): number {
    return this.#core.numLabels;
  }

  /** The token window pairs are truncated or chunked to. */
  get maxLength(): number {
    return this.#core.maxLength;
  }

  /** Documents ranked for `query`: `[{index, score, document?}]`, best first. */
  async rerank<D extends RerankDocument>(query: string, documents: readonly D[], options: RerankOptions = {}): Promise<RerankResult<D>[]> {
    const [ranked] = await this.#rank(query, [documents], false, options);
    return this.#attach(ranked, documents, options);
  }

  /**
   * Haystack's `predict_batch`: (a) one query + a list → a list; (b) one query + lists → each list ranked on
   * its own; (c) n queries + n lists → list i ranked for query i. All pairs share batches.
   */
  async rerankBatch<D extends RerankDocument>(queries: string | readonly string[], documents: readonly D[] | readonly (readonly D[])[], options: RerankOptions = {}): Promise<RerankResult<D>[] | RerankResult<D>[][]> {
    // a list of lists answers with a list per list (the shape is all TypeScript decides; the rules are in Rust)
    // (a list longer than Rust reads goes to Rust as one list, which refuses it, without iterating it here)
    const nested = Array.isArray(documents) && documents.length > 0 && documents.length <= MAX_LIST_LENGTH && documents.every((d) => Array.isArray(d));
    const lists = (nested ? documents : [documents]) as readonly (readonly D[])[];
    const ranked = await this.#rank(queries, lists, nested, options);
    const out = ranked.map((r, i) => this.#attach(r, lists[i], options));
    return nested ? out : out[0];
  }

  /** Raw logits of each `[query, document]` pair (only_second truncation): `pairs.length × numLabels` values. */
  async score(pairs: readonly (readonly [string, string])[], options: ScoreOptions = {}): Promise<Float32Array> {
    const [wasmOptions, control] = callOptions("score", options, []);
    return guarded("score", () => this.#core.score(pairs, wasmOptions, control));
  }

  /**
   * Haystack's semantic answer similarity of `[prediction, gold answer]` pairs: the sigmoid of a one-logit
   * model's logit, on the CPU path whichever device the model runs on (what `EvaluationResult.addSas` calls).
   */
  async sasScores(pairs: [string, string][], batchSize = 32): Promise<Float64Array> {
    return guarded("sasScores", () => this.#core.sasScores(pairs, batchSize));
  }

  /** Token ids of a pair as the model sees it (for debugging and parity tests). */
  encodePair(query: string, document: string): EncodedPair {
    return guarded("encodePair", () => this.#core.encodePair(query, document));
  }

  /** Releases the wasm memory held by the model. */
  free(): void {
    freeQuietly(this.#core, this.#generation);
  }

  async #rank(queries: unknown, lists: readonly unknown[], nested: boolean, options: RerankOptions): Promise<{ index: number; score: number }[][]> {
    // returnDocuments is the wrapper's: it attaches the caller's own objects to the results. Anything but a plain
    // object goes to Rust untouched, which refuses it (spreading a long string would build an object per character).
    const [wasmOptions, control] = callOptions("rerank", options, ["returnDocuments", "clock"]);
    return guarded("rerank", () => this.#core.rerank(queries, lists, nested, wasmOptions, control));
  }

  #attach<D>(ranked: { index: number; score: number }[], documents: readonly D[], options: RerankOptions): RerankResult<D>[] {
    if (!options?.returnDocuments) return ranked;
    return ranked.map((r) => ({ ...r, document: documents[r.index] }));
  }
}

/** Options of `CrossEncoder.score`. */
export interface ScoreOptions extends Partial<rust.ScoreOptions> {
  /** Stops the call between batches: it rejects with a RerankitError `ABORTED`. */
  signal?: AbortSignal;
  /** `{done, total}` pairs after each batch. */
  onProgress?: ProgressHandler;
}

/** Options of `Embedder.embed`. */
export interface EmbedOptions extends Partial<rust.EmbedOptions> {
  /** Stops the call between batches: it rejects with a RerankitError `ABORTED`. */
  signal?: AbortSignal;
  /** `{done, total}` texts after each batch. */
  onProgress?: ProgressHandler;
}

/** A bi-encoder: pooled sentence embeddings. */
export class Embedder {
  #core: EmbedderEngine;
  #normalize: boolean;
  #generation = wasmRestarts();

  private constructor(core: EmbedderEngine, normalize: boolean) {
    this.#core = core;
    this.#normalize = normalize;
  }

  /** Fetches/reads the files, then parses and optimises the model once (`device` picks CPU or WebGPU). */
  static async load(options: EmbedderLoadOptions): Promise<Embedder> {
    if (options === null || typeof options !== "object") invalidArgument("options", "expected {model, tokenizer, …}");
    const { pooling: _pooling, normalize: _normalize, ...modelOptions } = options;
    const pooling = options.pooling ?? "mean";
    if (options.normalize !== undefined && typeof options.normalize !== "boolean") invalidArgument("normalize", "expected a boolean");
    const placement = guarded("device", () => placeDevice(options.device, options.onWarning, pooling));
    const { model, tokenizer, config, external, limits } = await loadFiles(modelOptions);
    const workers = workerCount(options.workers, options.onWarning);
    const core = await guarded("model", () => EmbedderEngine.load({ model, tokenizer, config, external }, limits, placement, pooling, options.onWarning, workers));
    return new Embedder(core, options.normalize ?? false);
  }

  /**
   * Loads a Hub embedder by id (`"Xenova/bge-small-en-v1.5"`…) as {@link CrossEncoder.fromPretrained} does, with
   * its pooling and normalisation from sentence-transformers' `modules.json` (overridden by `pooling`/`normalize`).
   */
  static async fromPretrained(modelId: string, options: PretrainedOptions & { pooling?: EmbedderLoadOptions["pooling"]; normalize?: boolean } = {}): Promise<Embedder> {
    const { repo, load } = await pretrainedFiles(modelId, options);
    const st = await poolingOf(repo);
    return Embedder.load({ ...load, pooling: options.pooling ?? st?.pooling, normalize: options.normalize ?? st?.normalize });
  }

  /** The default of `embed`'s `normalize`. */
  get normalize(): boolean {
    return this.#normalize;
  }

  /** Where the next batch runs: `"webgpu"`, or `"cpu"` (asked for, or after a fallback). */
  get device(): Device {
    return this.#core.device;
  }

  /** Adapter, parity probe and warnings when loaded with `device` "webgpu"/"auto" in a WebGPU runtime. */
  get webgpu(): WebGpuInfo | undefined {
    return this.#core.info;
  }

  /** Length of each embedding. */
  get dimension(): number {
    return this.#core.dimension;
  }

  /** Haystack's semantic answer similarity of `[prediction, gold answer]` pairs: the cosine of their embeddings. */
  async sasScores(pairs: [string, string][], batchSize = 32): Promise<Float64Array> {
    return guarded("sasScores", () => this.#core.sasScores(pairs, batchSize));
  }

  /** One vector per text (mean pooling over the attention mask, optionally L2-normalised). */
  async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    const [wasmOptions, control] = callOptions("embed", options, []);
    const flat = await guarded("embed", () => this.#core.embed(texts, wasmOptions, this.#normalize, control));
    const h = this.dimension;
    return texts.map((_, i) => flat.slice(i * h, (i + 1) * h));
  }

  /** Releases the wasm memory held by the model. */
  free(): void {
    freeQuietly(this.#core, this.#generation);
  }
}

export type { Dtype, HubOptions, RerankDocument, RerankResult };
// The token ids of a pair, declared in Rust (bindings/wasm/src/models.rs) with the other types the seam carries.
export type { EncodedPair } from "../wasm/rerankit.js";
export type { LoadProgress, ModelSource, SourceCache };
