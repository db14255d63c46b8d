// Messages between the page (main.ts) and the reranker worker (worker.ts). The model runs in a worker so that
// downloading, optimising and reranking never freeze the page (the wasm calls are synchronous).

export type DeviceChoice = "auto" | "webgpu" | "cpu";

export interface LoadRequest {
  type: "load";
  /** ONNX URL, or `hf:<Hub id>` to load by id (`CrossEncoder.fromPretrained`; `tokenizer` is then unused). */
  model: string;
  tokenizer: string;
  device: DeviceChoice;
  /** For Hub ids: the host (default the Hugging Face Hub; a mirror with the page's `?hub=`). */
  remoteHost?: string;
}

export interface RerankRequest {
  type: "rerank";
  query: string;
  documents: string[];
  /** The input order's scores (e.g. BM25), index-aligned with `documents`; default: n − i (the input rank). */
  before?: number[];
}

export interface EvaluateRequest {
  type: "evaluate";
  /** TREC qrels text. */
  qrels: string;
  /** Run name → TREC run text. */
  runs: Record<string, string>;
  measures: string[];
}

/** Aborts the model download in flight; answered by the load's own rejection (ABORTED). */
export interface CancelRequest {
  type: "cancel";
}

export type Request = LoadRequest | RerankRequest | EvaluateRequest | CancelRequest;

/** On WebGPU (`ranker.webgpu`): the adapter, and after the first rerank the CPU parity probe's verdict. */
export interface GpuInfo {
  adapter: string | null;
  probe: { maxAbsDiff: number; passed: boolean } | null;
}

export interface LoadReply {
  /** The device the loaded model runs on (`ranker.device`). */
  device: string;
  /** Why the device differs from the choice (fallback warnings), if it does. */
  note: string | null;
  gpu: GpuInfo | null;
  numLabels: number;
  maxLength: number;
  /** Download + parse + optimise, ms. */
  loadMs: number;
}

export interface RerankReply {
  results: { index: number; score: number }[];
  device: string;
  note: string | null;
  gpu: GpuInfo | null;
  adaptive: { weight: number; error: number };
  timings: {
    /** Tokenising every (query, document) pair with `encodePair`, a separate pass measured on its own. */
    tokenizeMs: number | null;
    /** The `rerank` call: tokenisation, batching and inference inside wasm. */
    rerankMs: number;
    /** `rerankMs − tokenizeMs`: the model's share of the call. */
    inferMs: number;
    /** Everything the worker did for this request (tokenize pass + rerank + adaptive weight). */
    totalMs: number;
  };
}

export interface EvaluateReply {
  /** Run name → measure → value. */
  aggregate: Record<string, Record<string, number | string>>;
  /** Run name → qid → measure → value. */
  perQuery: Record<string, Record<string, Record<string, number | string>>>;
}

/** Worker → page. */
export type Message =
  | { id: number; ok: true; reply: LoadReply | RerankReply | EvaluateReply }
  | { id: number; ok: false; error: { code: string; message: string } }
  | { id: number; progress: { file: string; loaded: number; total: number | null; fromCache: boolean } }
  | { ready: true }
  | { fatal: string };
