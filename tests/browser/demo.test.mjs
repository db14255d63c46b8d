// The demo (www/) in headless Chromium, checked against the same package in Node: builds the demo
// (scripts/build-demo.sh), serves it with `vite preview` (models from RERANKIT_MODELS under /models/), reranks the
// first SciFact sample query on the CPU and on WebGPU, reranks the whole sample and evaluates it, and compares
// the page's order, scores (1e-4) and metrics with the Node entry's. Screenshots go to test-results/demo/.
// Chromium is Debian's (scripts/install-chromium.sh), never a download.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { homedir, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import * as rr from "rerankit";
import { startHub } from "../node/hub_server.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const models = process.env.RERANKIT_MODELS ?? path.join(homedir(), ".cache", "rerankit", "models");
const MODEL = path.join(models, "ce-probe", "model.onnx");
const TOKENIZER = path.join(models, "ce-probe", "tokenizer.json");
const CHROMIUM = process.env.RERANKIT_CHROMIUM ?? "/usr/bin/chromium";
const SHOTS = path.join(root, "test-results", "demo");
const SAMPLE = JSON.parse(readFileSync(path.join(root, "www", "src", "sample.json"), "utf8")).queries;
const MEASURES = ["ndcg_cut_10", "map", "recip_rank", "P_1", "P_5", "recall_5"]; // www/src/main.ts's
const SCORE_TOLERANCE = 1e-4;
// A guard against hangs, not a speed check: on a software WebGPU adapter (SwiftShader) a rerank of two abstracts
// takes minutes on a loaded 2-core machine.
const LONG = 1_800_000;
// WebGPU reranks the first sample query's first documents only: SwiftShader ran 5 abstracts in 557 s here.
const WEBGPU_DOCUMENTS = 2;

let preview;
let url;
let context;
let page;
let profile;
let nodeRuns; // Promise: key (qid, or `qid/n` for the first n documents) → [{index, score}] from the Node entry
const logs = [];

/**
 * Reranks every sample query, and the first one's first WEBGPU_DOCUMENTS documents, in Node (the package's node
 * entry, same model file) in a worker thread, so that it runs while Chromium works.
 */
function rerankSampleInNode() {
  const inputs = SAMPLE.map((q) => ({ key: q.qid, query: q.query, documents: q.documents.map((d) => d.text) }));
  inputs.push({ ...inputs[0], key: `${SAMPLE[0].qid}/${WEBGPU_DOCUMENTS}`, documents: inputs[0].documents.slice(0, WEBGPU_DOCUMENTS) });
  return new Promise((resolve, reject) => {
    const w = new Worker(new URL("./demo-reference.mjs", import.meta.url), { workerData: { model: MODEL, tokenizer: TOKENIZER, inputs } });
    w.once("message", resolve);
    w.once("error", reject);
    w.once("exit", (c) => c !== 0 && reject(new Error(`the Node reference worker exited with ${c}`)));
  });
}

function freePort() {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function waitForHttp(target, child, log) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(target)).ok) return;
    } catch {}
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`vite preview did not come up:\n${log()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const text = (id) => page.textContent(`[data-testid=${id}]`);

/** Waits until the page is idle (with a model: `ready`; without: `no model`, or `error`); asserts `ready`. */
async function untilReady() {
  await page.waitForFunction(() => {
    const s = document.querySelector("[data-testid=status]")?.textContent;
    return s === "ready" || s === "no model" || s === "error";
  }, null, { timeout: LONG, polling: 250 });
  const status = await text("status");
  const message = await text("message");
  assert.equal(status, "ready", `page status ${status}: ${message}\n${logs.join("\n")}`);
  return message;
}

async function results() {
  return page.$$eval("[data-testid=results] > *", (items) => items.map((li) => ({ index: Number(li.dataset.index), score: Number(li.dataset.score) })));
}

function assertSameRanking(actual, expected, what) {
  assert.equal(actual.length, expected.length, `${what}: number of results`);
  assert.equal(actual[0].index, expected[0].index, `${what}: top result`);
  assert.deepEqual(actual.map((r) => r.index), expected.map((r) => r.index), `${what}: order`);
  actual.forEach((r, i) => assert.ok(Math.abs(r.score - expected[i].score) <= SCORE_TOLERANCE,
    `${what}: score of result ${i} ${r.score} vs Node ${expected[i].score}`));
}

/**
 * Reranks the first sample query in the page with the device now loaded — all its documents, or the first `n`
 * lines of them — and checks it against Node; returns the device the page reports.
 */
async function rerankFirstSample(shot, n = SAMPLE[0].documents.length) {
  const q = SAMPLE[0];
  await page.selectOption("[data-testid=sample]", q.qid);
  assert.equal(await page.inputValue("[data-testid=query]"), q.query);
  assert.equal(await page.inputValue("[data-testid=documents]"), q.documents.map((d) => d.text).join("\n"));
  const whole = n === q.documents.length;
  if (!whole) await page.fill("[data-testid=documents]", q.documents.slice(0, n).map((d) => d.text).join("\n"));
  await page.click("[data-testid=rerank]");
  assert.equal(await untilReady(), "", "no error message after the rerank");
  const ranked = await results();
  assertSameRanking(ranked, (await nodeRuns)[whole ? q.qid : `${q.qid}/${n}`], shot);
  assert.match(await text("timings"), /^tokenize \d+(\.\d+)? m?s · infer \d+(\.\d+)? m?s · total \d+(\.\d+)? m?s/);
  // The adaptive weight shown is the package's: BM25 scores before (edited documents: the input order n − i).
  const before = whole ? q.documents.map((d) => d.bm25) : q.documents.slice(0, n).map((_, i) => n - i);
  const afterScores = new Array(before.length);
  for (const r of ranked) afterScores[r.index] = r.score;
  const { weight } = rr.adaptiveWeight(before, afterScores);
  assert.ok(Math.abs(Number(await page.getAttribute("[data-testid=adaptive]", "data-weight")) - weight) < 1e-12, "adaptive weight");
  await page.screenshot({ path: path.join(SHOTS, `${shot}.png`), fullPage: true });
  return (await text("device")).trim();
}

before(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: scripts/install-chromium.sh installs Debian's chromium`);
  if (!existsSync(MODEL)) throw new Error(`no model at ${MODEL}: run \`npm run fixtures\``);
  nodeRuns = rerankSampleInNode();
  nodeRuns.catch(() => {}); // awaited by the tests; avoid an unhandled rejection before then
  execFileSync("bash", [path.join(root, "scripts", "build-demo.sh")], { cwd: root, stdio: "inherit" });
  const port = await freePort();
  let log = "";
  preview = spawn(path.join(root, "node_modules", ".bin", "vite"), ["preview", "--config", "www/vite.config.mjs", "--host", "127.0.0.1", "--port", String(port), "--strictPort"],
    { cwd: root, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, RERANKIT_MODELS: models } });
  preview.stdout.on("data", (d) => (log += d));
  preview.stderr.on("data", (d) => (log += d));
  url = `http://127.0.0.1:${port}/`;
  await waitForHttp(url, preview, () => log);
  mkdirSync(SHOTS, { recursive: true });
  const { chromium } = await import("playwright-core");
  profile = mkdtempSync(path.join(tmpdir(), "rerankit-demo-chromium-"));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: ["--headless=new", "--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-sync",
      "--no-first-run", "--disable-quic", "--enable-unsafe-webgpu"],
  });
  page = await context.newPage();
  page.on("console", (m) => logs.push(`console.${m.type()}: ${m.text()}`));
  page.on("pageerror", (e) => logs.push(`pageerror: ${e}`));
});

after(async () => {
  await context?.close();
  preview?.kill("SIGTERM");
  if (profile) rmSync(profile, { recursive: true, force: true });
});

test("the page loads the local model on the CPU and reranks the sample as Node does", { timeout: LONG }, async () => {
  await page.goto(`${url}?device=cpu`);
  await untilReady();
  assert.match(await page.inputValue("[data-testid=model-url]"), /^\.\/models\/ce-probe\/model\.onnx\?v=\w+-\w+$/, "default: the local model beside the page");
  assert.equal(await page.getAttribute("[data-testid=progress]", "data-from-cache"), "0", "a fresh profile downloads");
  assert.equal(await page.getAttribute("[data-testid=progress]", "value"), "1", "progress bar full after loading");
  const bytes = statSync(MODEL).size + statSync(TOKENIZER).size;
  assert.equal(Number(await page.getAttribute("[data-testid=progress]", "data-bytes")), bytes, "progress counted every byte of both files");
  assert.ok(Number(await page.getAttribute("[data-testid=progress]", "data-events")) > 2, "progress reported while downloading");
  assert.equal((await text("device")).trim(), "cpu");
  const device = await rerankFirstSample("cpu");
  assert.equal(device, "cpu");
});

test(`WebGPU: the page reranks (the first ${WEBGPU_DOCUMENTS} sample documents) on it, or reports the CPU it fell back to`, { timeout: LONG }, async () => {
  await page.selectOption("[data-testid=device-choice]", "webgpu");
  await page.click("[data-testid=load]");
  await untilReady();
  assert.equal(await page.getAttribute("[data-testid=progress]", "data-from-cache"), "2", "the second load reads both files from the Cache API");
  const loadedOn = (await text("device")).trim();
  const device = await rerankFirstSample("webgpu", WEBGPU_DOCUMENTS);
  const note = (await text("device-note")).trim();
  // What the browser offers, seen from a worker like the one that runs the model.
  const adapter = await page.evaluate(async () => {
    const w = new Worker(URL.createObjectURL(new Blob([
      "navigator.gpu ? navigator.gpu.requestAdapter().then((a) => postMessage(a ? 'adapter' : 'no adapter'), (e) => postMessage('error ' + e)) : postMessage('no navigator.gpu')",
    ], { type: "text/javascript" })));
    return new Promise((resolve) => (w.onmessage = (e) => resolve(e.data)));
  });
  assert.ok(device === "webgpu" || device === "cpu", `device reads ${device}`);
  if (device === "webgpu") {
    assert.equal(adapter, "adapter", "the page says webgpu, so the browser must offer an adapter");
  } else {
    // A fallback must be said, with its reason, not passed off as WebGPU.
    assert.match(note, /webgpu|WebGPU|GPU|adapter|probe/, `fallback to ${device} without a reason (device-note: "${note}")`);
  }
  console.log(`WebGPU requested: loaded on ${loadedOn}, reranked on ${device}; browser worker: ${adapter}; note: ${note || "(none)"}`);
});

test("the evaluation view: the reranked sample's metrics equal evaluate() in Node", { timeout: LONG }, async () => {
  // Back to the CPU (a software WebGPU adapter is far slower than tract); the files come from the page's memory.
  await page.selectOption("[data-testid=device-choice]", "cpu");
  await page.click("[data-testid=load]");
  await untilReady();
  assert.equal((await text("device")).trim(), "cpu");
  await page.click("[data-testid=eval-sample]");
  assert.equal(await untilReady(), "", "no error message after the evaluation");
  const node = await nodeRuns;
  const qrels = Object.fromEntries(SAMPLE.map((q) => [q.qid, q.qrels]));
  const beforeRun = Object.fromEntries(SAMPLE.map((q) => [q.qid, Object.fromEntries(q.documents.map((d) => [d.docid, d.bm25]))]));
  const afterRun = Object.fromEntries(SAMPLE.map((q) => [q.qid, Object.fromEntries(node[q.qid].map((r) => [q.documents[r.index].docid, r.score]))]));
  const expected = { before: rr.evaluate(qrels, beforeRun, MEASURES), after: rr.evaluate(qrels, afterRun, MEASURES) };

  const cells = await page.$$eval("[data-testid=metrics] td[data-measure]", (tds) => tds.map((td) => ({ run: td.dataset.run, measure: td.dataset.measure, value: td.dataset.value })));
  assert.equal(cells.length, 2 * MEASURES.length, "a before and an after column for every measure");
  for (const c of cells) {
    const want = expected[c.run].aggregate[c.measure];
    assert.ok(Math.abs(Number(c.value) - want) < 1e-12, `${c.run} ${c.measure}: page ${c.value}, Node ${want}`);
  }
  const bars = await page.$$eval("[data-testid=chart] rect[data-qid]", (rs) => rs.map((r) => ({ run: r.dataset.run, qid: r.dataset.qid, value: Number(r.dataset.value) })));
  assert.equal(bars.length, 2 * SAMPLE.length, "one nDCG@10 bar per query and run");
  for (const b of bars) {
    const want = expected[b.run].perQuery[b.qid].ndcg_cut_10;
    assert.ok(Math.abs(b.value - want) < 1e-12, `chart ${b.run} ${b.qid}: page ${b.value}, Node ${want}`);
  }
  await page.screenshot({ path: path.join(SHOTS, "evaluate.png"), fullPage: true });
  console.log(`nDCG@10 before ${expected.before.aggregate.ndcg_cut_10}, after ${expected.after.aggregate.ndcg_cut_10}; screenshots in ${path.relative(root, SHOTS)}/`);
});

test("bad input and cancel: the page names the field and the error code, and says when no model is loaded", { timeout: LONG }, async () => {
  await page.fill("[data-testid=eval-run]", "127 Q0 21598000 1 high bm25\n");
  await page.click("[data-testid=evaluate]");
  await untilReady();
  assert.match(await text("message"), /^evaluation failed: PARSE: run line 1: score .high. is not a number/);

  await page.fill("[data-testid=query]", " ");
  await page.click("[data-testid=rerank]");
  assert.match(await text("message"), /^query: empty/);

  // Cancel a download in flight (ce-parity-1 is not in this profile's cache yet).
  await page.selectOption("[data-testid=local-model]", { label: "ce-parity-1/model.onnx" });
  await page.click("[data-testid=load]");
  await page.click("[data-testid=cancel]");
  await page.waitForFunction(() => document.querySelector("[data-testid=status]")?.textContent === "no model", null, { timeout: LONG });
  assert.match(await text("message"), /^loading failed: (ABORTED|AbortError): /);
  assert.ok(await page.isHidden("[data-testid=cancel]"), "no cancel button once idle");

  await page.fill("[data-testid=model-url]", "./models/ce-probe/no-such-model.onnx");
  await page.click("[data-testid=load]");
  await page.waitForFunction(() => document.querySelector("[data-testid=status]")?.textContent === "no model", null, { timeout: LONG });
  assert.match(await text("message"), /^loading failed: MODEL_LOAD: model: fetching .*no-such-model\.onnx gave HTTP 404/);
  assert.equal((await text("device")).trim(), "none");
  assert.ok(await page.isDisabled("[data-testid=rerank]"), "no rerank without a model");
  await page.screenshot({ path: path.join(SHOTS, "bad-input.png"), fullPage: true });
});

test("a Hub preset loads by id (fromPretrained) from a Hub mirror given with ?hub=, and reranks as Node does", { timeout: LONG }, async () => {
  const hub = await startHub();
  try {
    const id = "rerankit-test/tiny-bert-reranker";
    await page.goto(`${url}?autoload=0&hub=${encodeURIComponent(hub.url)}&hubModel=${encodeURIComponent(id)}`);
    await page.waitForFunction(() => document.querySelector("[data-testid=status]")?.textContent === "no model", null, { timeout: LONG });
    const labels = await page.$$eval("[data-testid=local-model] option", (os) => os.map((o) => o.textContent));
    assert.ok(labels.some((l) => l.startsWith("hf:Xenova/ms-marco-MiniLM-L-6-v2")) && labels.some((l) => l.startsWith("hf:Xenova/bge-reranker-base")), labels.join(" | "));
    await page.selectOption("[data-testid=local-model]", { label: `hf:${id} — from ?hubModel` });
    await page.selectOption("[data-testid=device-choice]", "cpu");
    await page.click("[data-testid=load]");
    await untilReady();
    assert.match(await page.textContent("#model-info"), /window 128 tokens/);
    const q = SAMPLE[0];
    await page.selectOption("[data-testid=sample]", q.qid);
    await page.click("[data-testid=rerank]");
    assert.equal(await untilReady(), "", "no error message after the rerank");
    const ranker = await rr.CrossEncoder.fromPretrained(id, { remoteHost: hub.url, cache: false });
    const expected = await ranker.rerank(q.query, q.documents.map((d) => d.text), { topK: null });
    ranker.free();
    assertSameRanking(await results(), expected, "hub preset");
    assert.ok(hub.requests.some((r) => r.url.includes("onnx/model_quantized.onnx")), "the CPU default dtype (q8) was fetched");
  } finally {
    await hub.close();
  }
});
