/// <reference lib="webworker" />
// The reranker worker: holds the package (one wasm instance) and the loaded CrossEncoder, answers the page's
// requests (protocol.ts). Only the public API of `rerankit` is used.
import type { CrossEncoder, RerankitError } from "rerankit";
import type { EvaluateReply, EvaluateRequest, LoadReply, LoadRequest, Message, RerankReply, RerankRequest, Request } from "./protocol.js";

type Package = typeof import("rerankit");
const scope = self as unknown as DedicatedWorkerGlobalScope;
const post = (m: Message) => scope.postMessage(m);

let rr: Package;
let ranker: CrossEncoder | null = null;
/** Why the model is not on the device asked for: the load's fallback, then every `onWarning` (probe, GPU error…). */
let notes: string[] = [];

/** Aborts the download in flight (the "Cancel" button); parsing the model, once started, runs to its end. */
let loading: AbortController | null = null;

async function load(id: number, req: LoadRequest): Promise<LoadReply> {
  ranker?.free();
  ranker = null;
  notes = [];
  loading = new AbortController();
  const options = {
    signal: loading.signal,
    model: req.model,
    tokenizer: req.tokenizer,
    // Files are kept in the package's default Cache API cache: a reload, or a switch of device, downloads nothing.
    // The demo's server versions its model URLs (?v=size-mtime), so a rebuilt model is fetched afresh.
    onProgress: (p: { file: string; loaded: number; total: number | null; fromCache: boolean }) => post({ id, progress: p }),
    // The WebGPU path reports its CPU fallbacks here (no adapter, unsupported graph, failed probe, GPU error),
    // at load or later, at the first rerank.
    onWarning: (message: string) => notes.push(message),
  };
  const t0 = performance.now();
  // `hf:<id>`: a Hub model by id (config.json, tokenizer.json, onnx/model_quantized.onnx on the CPU…)
  const hubId = req.model.startsWith("hf:") ? req.model.slice(3) : null;
  const open = (device: typeof req.device) => hubId
    ? rr.CrossEncoder.fromPretrained(hubId, { ...options, device, remoteHost: req.remoteHost })
    : rr.CrossEncoder.load({ ...options, device });
  try {
    ranker = await open(req.device);
  } catch (e) {
    // A package build without the asked device: say so and run on the CPU rather than not at all.
    if (req.device === "cpu" || (e as RerankitError).code !== "UNSUPPORTED") throw e;
    notes.push(`${req.device} unavailable (${(e as Error).message}); running on the CPU`);
    ranker = await open("cpu");
  }
  loading = null;
  const loadMs = performance.now() - t0;
  return { ...where(ranker), numLabels: ranker.numLabels, maxLength: ranker.maxLength, loadMs };
}

/** The device the model runs on now, the fallback notes, and on WebGPU the adapter and the parity probe. */
function where(r: CrossEncoder): Pick<LoadReply, "device" | "note" | "gpu"> {
  const info = r.webgpu;
  const gpu = info ? { adapter: info.adapter ?? null, probe: info.probe ? { maxAbsDiff: info.probe.maxAbsDiff, passed: info.probe.passed } : null } : null;
  return { device: String(r.device), note: notes.length > 0 ? [...new Set(notes)].join("; ") : null, gpu };
}

async function rerank(req: RerankRequest): Promise<RerankReply> {
  if (!ranker) throw Object.assign(new Error("no model loaded: load one first"), { code: "INVALID_ARGUMENT" });
  const t0 = performance.now();
  // Tokenisation is timed as a pass of its own (the rerank call tokenises again inside wasm, then infers):
  // the package reports no split, and a pass through the same tokenizer costs the same.
  let tokenizeMs: number | null = null;
  const encode = (ranker as Partial<CrossEncoder>).encodePair;
  if (typeof encode === "function") {
    for (const d of req.documents) encode.call(ranker, req.query, d);
    tokenizeMs = performance.now() - t0;
  }
  const t1 = performance.now();
  const results = await ranker.rerank(req.query, req.documents, { topK: null });
  const rerankMs = performance.now() - t1;
  const n = req.documents.length;
  const before = req.before ?? req.documents.map((_, i) => n - i);
  const after = new Array<number>(n).fill(Number.NEGATIVE_INFINITY);
  for (const r of results) after[r.index] = r.score;
  const adaptive = rr.adaptiveWeight(before, after);
  const totalMs = performance.now() - t0;
  return {
    results: results.map((r) => ({ index: r.index, score: r.score })),
    ...where(ranker),
    adaptive,
    timings: { tokenizeMs, rerankMs, inferMs: rerankMs - (tokenizeMs ?? 0), totalMs },
  };
}

function evaluate(req: EvaluateRequest): EvaluateReply {
  const qrels = rr.parseQrels(req.qrels);
  const aggregate: EvaluateReply["aggregate"] = {};
  const perQuery: EvaluateReply["perQuery"] = {};
  try {
    for (const [name, text] of Object.entries(req.runs)) {
      const e = rr.evaluate(qrels, text, req.measures);
      aggregate[name] = e.aggregate;
      perQuery[name] = e.perQuery;
    }
  } finally {
    qrels.free();
  }
  return { aggregate, perQuery };
}

async function handle(id: number, req: Request) {
  try {
    const reply = req.type === "load" ? await load(id, req) : req.type === "rerank" ? await rerank(req) : evaluate(req as EvaluateRequest);
    post({ id, ok: true, reply });
  } catch (e) {
    const err = e as { code?: string; message?: string };
    post({ id, ok: false, error: { code: err?.code ?? "INTERNAL", message: err?.message ?? String(e) } });
  }
}

// Requests run one at a time, in order: the wasm calls are synchronous and share one model.
let queue: Promise<void> = Promise.resolve();
scope.onmessage = (event: MessageEvent<{ id: number; request: Request }>) => {
  const { id, request } = event.data;
  // A cancel must not wait behind the load it cancels.
  if (request.type === "cancel") return loading?.abort();
  queue = queue.then(() => handle(id, request));
};

try {
  rr = await import("rerankit");
  post({ ready: true });
} catch (e) {
  post({ fatal: `the rerankit package did not load: ${(e as Error).message ?? e}` });
}
