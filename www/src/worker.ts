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
let deviceNote: string | null = null;

/** Downloaded files kept for this page's life, so that a reload on another device fetches nothing again. */
const files = new Map<string, Uint8Array>();
const memoryCache = {
  async get(url: string) {
    return files.get(url);
  },
  async put(url: string, bytes: Uint8Array) {
    files.set(url, bytes);
  },
};

async function load(id: number, req: LoadRequest): Promise<LoadReply> {
  ranker?.free();
  ranker = null;
  for (const url of files.keys()) if (url !== req.model && url !== req.tokenizer) files.delete(url);
  const warnings: string[] = [];
  const options = {
    model: req.model,
    tokenizer: req.tokenizer,
    cache: memoryCache,
    onProgress: (p: { file: string; loaded: number; total: number | null }) => post({ id, progress: p }),
    // The WebGPU path reports its CPU fallbacks here (probe mismatch, unsupported graph, no adapter).
    onWarning: (message: string) => warnings.push(message),
  };
  const t0 = performance.now();
  let note: string | null = null;
  try {
    ranker = await rr.CrossEncoder.load({ ...options, device: req.device as "cpu" });
  } catch (e) {
    // A build or browser without the asked device: say so and run on the CPU rather than not at all.
    if (req.device === "cpu" || (e as RerankitError).code !== "UNSUPPORTED") throw e;
    note = `${req.device} unavailable (${(e as Error).message}); running on the CPU`;
    ranker = await rr.CrossEncoder.load({ ...options, device: "cpu" });
  }
  const loadMs = performance.now() - t0;
  if (warnings.length > 0) note = [note, ...warnings].filter(Boolean).join("; ");
  deviceNote = note;
  return { device: String(ranker.device), note, numLabels: ranker.numLabels, maxLength: ranker.maxLength, loadMs };
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
    device: String(ranker.device),
    note: deviceNote,
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
    const reply = req.type === "load" ? await load(id, req) : req.type === "rerank" ? await rerank(req) : evaluate(req);
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
  queue = queue.then(() => handle(id, request));
};

try {
  rr = await import("rerankit");
  post({ ready: true });
} catch (e) {
  post({ fatal: `the rerankit package did not load: ${(e as Error).message ?? e}` });
}
