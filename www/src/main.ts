// The demo page: model loading with progress, device choice, reranking (scores, rank movement, adaptive weight,
// timings) and evaluation (metrics table + per-query chart). The package runs in worker.ts; this file is UI.
// Test hooks (data-testid): query, documents, rerank, results (children with data-score / data-index),
// device, status ("ready" when a model is loaded and idle).
import sample from "./sample.json";
import { perQueryChart, RUN_COLOURS } from "./chart.js";
import type { DeviceChoice, EvaluateReply, GpuInfo, LoadReply, Message, RerankReply, Request } from "./protocol.js";

/** The measures of the evaluation view; the chart plots the first. */
const MEASURES = ["ndcg_cut_10", "map", "recip_rank", "P_1", "P_5", "recall_5"];
const DEFAULT_MODEL = "ce-probe/model.onnx";
/** Hub presets (loaded by id with `CrossEncoder.fromPretrained`): English MiniLM, multilingual XLM-R. `?hub=URL`
 *  points them at a mirror; `?hubModel=ID` (repeatable) adds ids. */
const PAGE = new URLSearchParams(location.search);
const HUB_PRESETS = [
  ["Xenova/ms-marco-MiniLM-L-6-v2", "English MiniLM cross-encoder"],
  ["Xenova/bge-reranker-base", "multilingual XLM-R cross-encoder"],
  ...PAGE.getAll("hubModel").map((id) => [id, "from ?hubModel"]),
];

interface SampleQuery {
  qid: string;
  query: string;
  documents: { docid: string; text: string; bm25: number }[];
  qrels: Record<string, number>;
}
const SAMPLE = sample.queries as unknown as SampleQuery[];

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const ui = {
  status: $<HTMLElement>("status"),
  device: $<HTMLElement>("device"),
  deviceNote: $<HTMLElement>("device-note"),
  localModel: $<HTMLSelectElement>("local-model"),
  deviceChoice: $<HTMLSelectElement>("device-choice"),
  load: $<HTMLButtonElement>("load"),
  cancel: $<HTMLButtonElement>("cancel"),
  modelUrl: $<HTMLInputElement>("model-url"),
  tokenizerUrl: $<HTMLInputElement>("tokenizer-url"),
  progress: $<HTMLProgressElement>("progress"),
  progressText: $<HTMLElement>("progress-text"),
  modelInfo: $<HTMLElement>("model-info"),
  sample: $<HTMLSelectElement>("sample"),
  query: $<HTMLInputElement>("query"),
  documents: $<HTMLTextAreaElement>("documents"),
  rerank: $<HTMLButtonElement>("rerank"),
  timings: $<HTMLElement>("timings"),
  adaptive: $<HTMLElement>("adaptive"),
  results: $<HTMLOListElement>("results"),
  evalSample: $<HTMLButtonElement>("eval-sample"),
  evaluate: $<HTMLButtonElement>("evaluate"),
  qrels: $<HTMLTextAreaElement>("eval-qrels"),
  runBefore: $<HTMLTextAreaElement>("eval-run"),
  runAfter: $<HTMLTextAreaElement>("eval-run-after"),
  metrics: $<HTMLTableElement>("metrics"),
  chart: $<HTMLElement>("chart"),
};
const message = document.createElement("p");
message.dataset.testid = "message";
message.className = "message";
document.querySelector("header")!.append(message);

// ------------------------------------------------------------------------------------------ worker calls

const worker = new Worker(new URL("./worker.ts", import.meta.url), { type: "module" });
let nextId = 1;
type Progress = { file: string; loaded: number; total: number | null; fromCache: boolean };
const pending = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void; onProgress?: (p: Progress) => void }>();
let workerReady: () => void;
const ready = new Promise<void>((r) => (workerReady = r));

worker.onmessage = (event: MessageEvent<Message>) => {
  const m = event.data;
  if ("ready" in m) return workerReady();
  if ("fatal" in m) return fail(m.fatal, true);
  const call = pending.get(m.id);
  if (!call) return;
  if ("progress" in m) return call.onProgress?.(m.progress);
  pending.delete(m.id);
  if (m.ok) call.resolve(m.reply);
  else call.reject(Object.assign(new Error(m.error.message), { code: m.error.code }));
};
worker.onerror = (e) => fail(`worker: ${e.message}`, true);

function call<T>(request: Request, onProgress?: (p: Progress) => void): Promise<T> {
  const id = nextId++;
  return new Promise<T>((resolve, reject) => {
    pending.set(id, { resolve, reject, onProgress });
    worker.postMessage({ id, request });
  });
}

// ------------------------------------------------------------------------------------------ state

let loaded: LoadReply | null = null;
let busy = false;

function setBusy(state: string | null) {
  busy = state !== null;
  ui.status.textContent = state ?? (loaded ? "ready" : "no model");
  for (const b of [ui.load, ui.rerank, ui.evalSample, ui.evaluate]) b.disabled = busy;
  ui.rerank.disabled ||= !loaded;
  ui.evalSample.disabled ||= !loaded;
}

function fail(text: string, fatal = false) {
  message.textContent = text;
  if (fatal) {
    ui.status.textContent = "error";
    for (const b of [ui.load, ui.rerank, ui.evalSample, ui.evaluate]) b.disabled = true;
  }
}

/** `CODE: message` for a RerankitError (its stable code, and the message naming the field at fault). */
const describe = (e: unknown) => {
  const err = e as { code?: string; message?: string };
  const kind = err?.code ?? (e as Error)?.name;
  return kind ? `${kind}: ${err.message}` : String(err?.message ?? e);
};
const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
const ms = (n: number) => (n >= 1000 ? `${(n / 1000).toFixed(2)} s` : `${n.toFixed(0)} ms`);

// ------------------------------------------------------------------------------------------ model

async function loadModel() {
  const model = ui.modelUrl.value.trim();
  const tokenizer = ui.tokenizerUrl.value.trim();
  const hubId = model.startsWith("hf:");
  if (!model || (!tokenizer && !hubId)) return fail("give an ONNX URL and a tokenizer.json URL, or hf:<Hub id> (or run `npm run fixtures` for local models)");
  const device = ui.deviceChoice.value as DeviceChoice;
  message.textContent = "";
  loaded = null;
  ui.device.textContent = "none";
  ui.deviceNote.textContent = "";
  ui.modelInfo.textContent = "";
  setBusy("loading model");
  ui.cancel.hidden = false;
  const progress = new Map<string, { loaded: number; total: number | null; fromCache: boolean }>();
  ui.progress.value = 0;
  ui.progress.dataset.bytes = "0";
  ui.progress.dataset.events = "0";
  ui.progress.dataset.fromCache = "0";
  try {
    const request = hubId
      ? { type: "load" as const, model, tokenizer: "", device, remoteHost: PAGE.get("hub") ?? undefined }
      : { type: "load" as const, model: new URL(model, location.href).href, tokenizer: new URL(tokenizer, location.href).href, device };
    loaded = await call<LoadReply>(request, (p) => {
      progress.set(p.file, { loaded: p.loaded, total: p.total, fromCache: p.fromCache });
      const files = [...progress.values()];
      const done = files.reduce((n, f) => n + f.loaded, 0);
      ui.progress.dataset.bytes = String(done);
      ui.progress.dataset.events = String(Number(ui.progress.dataset.events ?? 0) + 1);
      const total = files.every((f) => f.total !== null) ? files.reduce((n, f) => n + (f.total ?? 0), 0) : null;
      if (total) ui.progress.value = done / total;
      else ui.progress.removeAttribute("value");
      const complete = total !== null && done >= total;
      const cached = files.filter((f) => f.fromCache).length;
      const origin = cached === 0 ? "downloaded" : cached === files.length ? "from the browser cache" : "partly from the browser cache";
      ui.progressText.textContent = complete ? `${mb(done)} ${origin} · optimising the model…` : `${mb(done)}${total ? ` of ${mb(total)}` : ""}`;
      ui.progress.dataset.fromCache = String(cached);
    });
    ui.progress.value = 1;
    ui.progressText.textContent = `loaded in ${ms(loaded.loadMs)}${ui.progress.dataset.fromCache !== "0" ? " (files from the browser cache)" : ""}`;
    showDevice(loaded);
    ui.modelInfo.textContent = `${model.split("?")[0].split("/").slice(-2).join("/")} · ${loaded.numLabels} logit${loaded.numLabels === 1 ? "" : "s"} · window ${loaded.maxLength} tokens`;
  } catch (e) {
    ui.progressText.textContent = "";
    fail(`loading failed: ${describe(e)}`);
  } finally {
    ui.cancel.hidden = true;
    setBusy(null);
  }
}

async function fillModelChoices() {
  let index: { models: { name: string; models: { file: string; url: string }[]; tokenizer: string }[] } = { models: [] };
  try {
    const r = await fetch("./models/index.json");
    if (r.ok) index = await r.json();
  } catch {
    // Served without the demo's model middleware: only URLs work.
  }
  for (const m of index.models) {
    for (const { file, url } of m.models) {
      const o = new Option(`${m.name}/${file}`, JSON.stringify({ model: url, tokenizer: m.tokenizer }));
      ui.localModel.append(o);
    }
  }
  const hub = document.createElement("optgroup");
  hub.label = "Hugging Face Hub (by id)";
  for (const [id, what] of HUB_PRESETS) hub.append(new Option(`hf:${id} — ${what}`, JSON.stringify({ model: `hf:${id}`, tokenizer: "" })));
  ui.localModel.append(hub);
  ui.localModel.append(new Option("— URLs below —", ""));
  const preferred = [...ui.localModel.options].find((o) => o.text === DEFAULT_MODEL) ?? ui.localModel.options[0];
  preferred.selected = true;
  applyLocalModel();
}

function applyLocalModel() {
  if (!ui.localModel.value) return;
  const { model, tokenizer } = JSON.parse(ui.localModel.value);
  ui.modelUrl.value = model;
  ui.tokenizerUrl.value = tokenizer;
}

// ------------------------------------------------------------------------------------------ rerank

function selectedSample(): SampleQuery | undefined {
  return SAMPLE.find((q) => q.qid === ui.sample.value);
}

function applySample() {
  const q = selectedSample();
  if (!q) return;
  ui.query.value = q.query;
  ui.documents.value = q.documents.map((d) => d.text).join("\n");
}

/** Documents = the textarea's non-empty lines; `line` is each one's 0-based line number (its data-index). */
function inputDocuments(): { line: number; text: string }[] {
  return ui.documents.value.split("\n").map((text, line) => ({ line, text: text.trim() })).filter((d) => d.text.length > 0);
}

async function rerank() {
  if (busy) return;
  const docs = inputDocuments();
  const query = ui.query.value.trim();
  if (!query) return fail("query: empty — type a query or pick a sample");
  if (docs.length === 0) return fail("documents: empty — one document per line");
  const s = selectedSample();
  // The sample's input order comes with BM25 scores; typed documents are ranked by their line order.
  const isSample = s && s.query === query && s.documents.length === docs.length && s.documents.every((d, i) => d.text === docs[i].text);
  message.textContent = "";
  setBusy("reranking");
  try {
    const reply = await call<RerankReply>({ type: "rerank", query, documents: docs.map((d) => d.text), before: isSample ? s.documents.map((d) => d.bm25) : undefined });
    showResults(reply, docs, isSample ? "BM25" : "input order");
  } catch (e) {
    fail(`rerank failed: ${describe(e)}`);
  } finally {
    setBusy(null);
  }
}

/** `device` = where the model runs now (`ranker.device`); the note says why it is not the device chosen. */
function showDevice(r: { device: string; note: string | null; gpu: GpuInfo | null }) {
  ui.device.textContent = r.device;
  const parts: string[] = [];
  if (ui.deviceChoice.value === "auto") parts.push(`auto chose ${r.device}`);
  if (r.device === "webgpu" && r.gpu?.adapter) parts.push(`adapter ${r.gpu.adapter}`);
  if (r.gpu?.probe) parts.push(`CPU parity probe ${r.gpu.probe.passed ? "passed" : "failed"}, max |Δlogit| ${r.gpu.probe.maxAbsDiff.toExponential(1)}`);
  if (r.note) parts.push(r.note);
  ui.deviceNote.textContent = parts.length > 0 ? `(${parts.join("; ")})` : "";
}

function showResults(reply: RerankReply, docs: { line: number; text: string }[], beforeName: string) {
  showDevice(reply);
  const t = reply.timings;
  ui.timings.textContent = `tokenize ${t.tokenizeMs === null ? "n/a" : ms(t.tokenizeMs)} · infer ${ms(t.inferMs)} · total ${ms(t.totalMs)} (${reply.results.length} documents on ${reply.device})`;
  ui.timings.title = "tokenize: a separate encodePair pass over every pair; infer: the rerank call minus that; total: all the work for this click";
  ui.adaptive.textContent = `adaptive weight ${reply.adaptive.weight.toFixed(4)} (RMSE of the rank changes vs ${beforeName}: ${reply.adaptive.error.toFixed(4)})`;
  ui.adaptive.dataset.weight = String(reply.adaptive.weight);
  const scores = reply.results.map((r) => r.score);
  const lo = Math.min(0, ...scores);
  const hi = Math.max(1, ...scores);
  ui.results.replaceChildren(
    ...reply.results.map((r, rank) => {
      const doc = docs[r.index];
      const moved = r.index - rank;
      const li = document.createElement("li");
      li.dataset.index = String(doc.line);
      li.dataset.score = String(r.score);
      li.dataset.rank = String(rank);
      const move = document.createElement("span");
      move.className = `move ${moved > 0 ? "up" : moved < 0 ? "down" : "same"}`;
      move.textContent = moved > 0 ? `▲${moved}` : moved < 0 ? `▼${-moved}` : "＝";
      move.title = `input position ${r.index + 1} → ${rank + 1}`;
      const bar = document.createElement("span");
      bar.className = "bar";
      const fill = document.createElement("span");
      fill.style.width = `${(100 * (r.score - lo)) / (hi - lo)}%`;
      bar.append(fill);
      const score = document.createElement("code");
      score.textContent = r.score.toFixed(4);
      const text = document.createElement("span");
      text.className = "text";
      text.textContent = doc.text;
      text.title = doc.text;
      li.append(move, bar, score, text);
      return li;
    }),
  );
}

// ------------------------------------------------------------------------------------------ evaluate

const trecRun = (rows: { qid: string; docid: string; score: number }[][], tag: string) =>
  rows.flatMap((list) => list.map((d, rank) => `${d.qid} Q0 ${d.docid} ${rank + 1} ${d.score} ${tag}`)).join("\n") + "\n";

async function rerankSampleAndEvaluate() {
  if (busy) return;
  message.textContent = "";
  setBusy("reranking the sample");
  try {
    const qrels = SAMPLE.flatMap((q) => Object.entries(q.qrels).map(([docid, grade]) => `${q.qid} 0 ${docid} ${grade}`)).join("\n") + "\n";
    const before = SAMPLE.map((q) => q.documents.map((d) => ({ qid: q.qid, docid: d.docid, score: d.bm25 })));
    const after = [];
    for (const [i, q] of SAMPLE.entries()) {
      ui.status.textContent = `reranking the sample (${i + 1}/${SAMPLE.length})`;
      const reply = await call<RerankReply>({ type: "rerank", query: q.query, documents: q.documents.map((d) => d.text), before: q.documents.map((d) => d.bm25) });
      showDevice(reply);
      after.push(reply.results.map((r) => ({ qid: q.qid, docid: q.documents[r.index].docid, score: r.score })));
    }
    ui.qrels.value = qrels;
    ui.runBefore.value = trecRun(before, "bm25");
    ui.runAfter.value = trecRun(after, `rerankit-${ui.device.textContent}`);
    await evaluateRuns();
  } catch (e) {
    fail(`evaluation failed: ${describe(e)}`);
  } finally {
    setBusy(null);
  }
}

async function evaluateRuns() {
  const runs: Record<string, string> = { before: ui.runBefore.value };
  if (ui.runAfter.value.trim()) runs.after = ui.runAfter.value;
  const wasBusy = busy;
  if (!wasBusy) setBusy("evaluating");
  try {
    const reply = await call<EvaluateReply>({ type: "evaluate", qrels: ui.qrels.value, runs, measures: MEASURES });
    showEvaluation(reply);
  } catch (e) {
    if (wasBusy) throw e;
    fail(`evaluation failed: ${describe(e)}`);
  } finally {
    if (!wasBusy) setBusy(null);
  }
}

function showEvaluation(reply: EvaluateReply) {
  const runs = Object.keys(reply.aggregate);
  const head = document.createElement("tr");
  head.append(...["measure", ...runs, ...(runs.length === 2 ? ["Δ"] : [])].map((h, i) => {
    const th = document.createElement("th");
    th.textContent = h;
    if (i > 0 && i <= runs.length) th.style.color = RUN_COLOURS[(i - 1) % RUN_COLOURS.length];
    return th;
  }));
  const rows = MEASURES.map((m) => {
    const tr = document.createElement("tr");
    const name = document.createElement("th");
    name.textContent = m;
    tr.append(name);
    for (const run of runs) {
      const td = document.createElement("td");
      const v = reply.aggregate[run][m];
      td.dataset.run = run;
      td.dataset.measure = m;
      td.dataset.value = String(v);
      td.textContent = typeof v === "number" ? v.toFixed(4) : String(v);
      tr.append(td);
    }
    if (runs.length === 2) {
      const [a, b] = runs.map((r) => reply.aggregate[r][m]);
      const td = document.createElement("td");
      if (typeof a === "number" && typeof b === "number") {
        td.textContent = `${b - a >= 0 ? "+" : ""}${(b - a).toFixed(4)}`;
        td.className = b > a ? "up" : b < a ? "down" : "";
      }
      tr.append(td);
    }
    return tr;
  });
  ui.metrics.replaceChildren(head, ...rows);
  const measure = MEASURES[0];
  const values: Record<string, Record<string, number>> = {};
  for (const run of runs) {
    values[run] = {};
    for (const [qid, byMeasure] of Object.entries(reply.perQuery[run])) {
      if (typeof byMeasure[measure] === "number") values[run][qid] = byMeasure[measure] as number;
    }
  }
  ui.chart.replaceChildren(perQueryChart(values, measure));
}

// ------------------------------------------------------------------------------------------ wiring

for (const q of SAMPLE) ui.sample.append(new Option(`${q.qid}: ${q.query}`, q.qid));
ui.sample.onchange = applySample;
ui.localModel.onchange = applyLocalModel;
ui.load.onclick = loadModel;
ui.cancel.onclick = () => worker.postMessage({ id: 0, request: { type: "cancel" } });
ui.rerank.onclick = rerank;
ui.evalSample.onclick = rerankSampleAndEvaluate;
ui.evaluate.onclick = () => void (busy ? undefined : evaluateRuns());

const params = new URLSearchParams(location.search);
const deviceParam = params.get("device");
if (deviceParam === "auto" || deviceParam === "webgpu" || deviceParam === "cpu") ui.deviceChoice.value = deviceParam;
setBusy("starting");
await fillModelChoices();
if (params.get("model")) ui.modelUrl.value = params.get("model")!;
if (params.get("tokenizer")) ui.tokenizerUrl.value = params.get("tokenizer")!;
ui.sample.value = SAMPLE[0]?.qid ?? "";
applySample();
await ready;
// Straight from "starting" to "loading model": the status never reads "no model" while a load is coming.
if (ui.modelUrl.value && ui.tokenizerUrl.value && params.get("autoload") !== "0") await loadModel();
else setBusy(null);
