// `npm run test:runtimes`: the package's public entry points in Deno, Cloudflare's workerd (through wrangler) and
// headless Chromium (a Vite build), each running tests/runtimes/scenario.mjs; every result must equal the Node
// entry's. A plain module page (tests/runtimes/plain) checks the package without a bundler, worker pool included. Models come from RERANKIT_MODELS (npm run fixtures); Chromium is Debian's, never a download.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, execFileSync } from "node:child_process";
import { createServer } from "node:http";
import { createReadStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as rr from "rerankit";
import { DOCUMENTS, QUERY, QRELS, RUN, MEASURES, MODEL, MODEL_FILE, PRETRAINED_ID, PRETRAINED_PAIRS, SQUAD_GOLD, SQUAD_PREDICTION, pretrained, scenario } from "./scenario.mjs";
import { startHub } from "../node/hub_server.mjs";
import { launchChromium } from "../common/chromium.mjs";
import { fakeRanking } from "./workerd/fake_ai.mjs";
import { snapshotExample } from "./workerd/example_snapshot.mjs";
import { serveWorker } from "./workerd/served_worker.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const bin = (name) => path.join(root, "node_modules", ".bin", name);
const models = process.env.RERANKIT_MODELS ?? path.join(homedir(), ".cache", "rerankit", "models");
const modelDir = path.join(models, MODEL);

let expected;
/** The Hub-shaped server (tests/node/hub_server.mjs) and Node's logits of the model loaded from it by id. */
let hub;
let expectedPretrained;
/** Requests per path served, to tell downloads from Cache API hits. */
const modelHits = new Map();
let server;
let serverUrl;
const children = [];

/** Serves the models under /models/ and a folder of static files at /. */
function startServer(staticDir) {
  const types = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".json": "application/json" };
  return new Promise((resolve) => {
    const srv = createServer((req, res) => {
      const url = new URL(req.url, "http://x");
      const rel = decodeURIComponent(url.pathname);
      modelHits.set(rel, (modelHits.get(rel) ?? 0) + 1);
      // /pkg/ is the package's dist folder and /runtimes/ this folder, for the plain-module page (no bundler)
      const roots = [["/models/", models], ["/pkg/", path.join(root, "pkg", "dist")], ["/runtimes/", path.join(root, "tests", "runtimes")]];
      const [prefix, base] = roots.find(([p]) => rel.startsWith(p)) ?? ["/", staticDir()];
      const file = path.join(base, rel === "/" ? "index.html" : rel.slice(prefix.length));
      if (!file.startsWith(base)) return res.writeHead(403).end();
      if (!existsSync(file) || !statSync(file).isFile()) return res.writeHead(404).end();
      res.writeHead(200, { "content-type": types[path.extname(file)] ?? "application/octet-stream", "content-length": statSync(file).size });
      createReadStream(file).pipe(res);
    });
    srv.listen(0, "127.0.0.1", () => resolve(srv));
  });
}

function linkPackage(exampleDir) {
  const nm = path.join(exampleDir, "node_modules");
  mkdirSync(nm, { recursive: true });
  const link = path.join(nm, "rerankit");
  if (!existsSync(link)) symlinkSync(path.relative(nm, root), link, "dir");
}

function compare(actual, runtime) {
  assert.ok(!actual.error, `${runtime}: ${actual.error}`);
  assert.deepEqual(actual.ids, expected.ids, `${runtime}: document ids`);
  for (const [m, v] of Object.entries(expected.aggregate)) {
    assert.ok(Math.abs(actual.aggregate[m] - v) < 1e-12, `${runtime}: ${m} ${actual.aggregate[m]} != ${v}`);
  }
  assert.deepEqual(actual.rerank.map((r) => r.index), expected.rerank.map((r) => r.index), `${runtime}: rerank order`);
  actual.rerank.forEach((r, i) => assert.ok(Math.abs(r.score - expected.rerank[i].score) < 1e-5, `${runtime}: score ${i}`));
  assert.equal(actual.errorCode, "INVALID_ARGUMENT", `${runtime}: bad input gives RerankitError INVALID_ARGUMENT`);
  // (workerd runs examples/worker, not the scenario: there `workers: "auto"` must simply run inline)
  if (runtime !== "workerd") assert.equal(actual.poolSame, true, `${runtime}: workers: 2 ranks as the caller's thread does`);
  // Deno's, Chromium's and workerd's V8 have relaxed SIMD, so they get a fused multiply-add module (its scores are
  // held to the same 1e-5 as Node's SIMD128 ones above); workerd's is the Workers module, without WebGPU
  if (runtime !== "node") assert.equal(actual.simd, "relaxed-simd", `${runtime}: the relaxed-SIMD module`);
}

// A child that never ends fails its test after this long instead of holding the suite (a Deno child sat idle for 14
// minutes once and 5 once more: its pool worker had missed its first message, pkg/runtimes/pool_worker_deno.ts);
// not a speed threshold: the children take seconds.
const CHILD_LIMIT_MS = 5 * 60_000;

function run(cmd, args, opts = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"], timeout: CHILD_LIMIT_MS, killSignal: "SIGKILL", ...opts });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve(out) : reject(new Error(`${cmd} exited ${code}\n${err}\n${out}`))));
  });
}

before(async () => {
  if (!existsSync(path.join(modelDir, MODEL_FILE))) throw new Error(`no model in ${modelDir}: run \`npm run fixtures\``);
  expected = await scenario(rr, { model: path.join(modelDir, MODEL_FILE), tokenizer: path.join(modelDir, "tokenizer.json") });
  server = await startServer(() => path.join(root, "examples", "vite", "dist"));
  hub = await startHub();
  expectedPretrained = await pretrained(rr, hub.url);
  serverUrl = `http://127.0.0.1:${server.address().port}`;
});

after(() => {
  // Process groups: wrangler's workerd is a grandchild.
  for (const c of children) if (c.exitCode === null) try { process.kill(-c.pid, "SIGKILL"); } catch {}
  server?.close();
  hub?.close();
});

/** `fromPretrained` by id in `runtime` gave Node's logits. */
function comparePretrained(logits, runtime) {
  assert.equal(logits?.length, expectedPretrained.length, `${runtime}: fromPretrained logits`);
  logits.forEach((x, i) => assert.ok(Math.abs(x - expectedPretrained[i]) < 1e-5, `${runtime}: fromPretrained logit ${i}`));
}

test("Deno runs rerank and evaluate through the package's deno entry", async () => {
  const denoDir = mkdtempSync(path.join(tmpdir(), "rerankit-deno-"));
  const out = await run(bin("deno"), ["run", "--allow-read", "--allow-env", "--allow-net=127.0.0.1,localhost", "--no-remote", "--no-npm",
    "--config", "tests/runtimes/deno/deno.json", "tests/runtimes/deno/main.ts", modelDir, hub.url],
    { env: { ...process.env, DENO_DIR: denoDir, DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" } });
  const result = JSON.parse(out.trim().split("\n").pop());
  compare(result, "deno");
  assert.deepEqual(result.evalOnly, expected.aggregate, "deno: rerankit/eval evaluates as rerankit does");
  assert.deepEqual(result.pipelineOnly, rr.squadScores(SQUAD_GOLD, SQUAD_PREDICTION), "deno: rerankit/pipeline-eval scores as rerankit does");
  comparePretrained(result.pretrained, "deno");
  console.log(`runtime passed: ${result.runtime} (model load ${result.loadMs} ms; fromPretrained by id)`);
  rmSync(denoDir, { recursive: true, force: true });
});

// A Worker's size limit after compression (script and wasm together): 3 MB on the Workers free plan (10 MB on the
// paid plan); wrangler prints the size it would upload.
const FREE_PLAN_GZIP_BYTES = 3_000_000;

test("examples/worker passes `wrangler deploy --dry-run` with one wasm module, the Workers one, inside the free plan's size limit", async () => {
  const dir = snapshotExample();
  try {
    const out = await run(process.execPath, [path.join(root, "node_modules", "wrangler", "bin", "wrangler.js"), "deploy", "--dry-run", "--outdir", "bundle"],
      { cwd: dir, env: { ...process.env, CI: "true", NO_COLOR: "1", WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" } });
    const upload = out.match(/Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/);
    assert.ok(upload, `no upload size in wrangler's output:\n${out}`);
    const gzipBytes = Number(upload[2]) * 1024;
    const wasm = readdirSync(path.join(dir, "bundle")).filter((f) => f.endsWith(".wasm"));
    assert.equal(wasm.length, 1, `one wasm module in the bundle: ${wasm}`);
    const workers = readFileSync(path.join(root, "pkg", "dist", "workers", "wasm", "rerankit_bg.wasm"));
    assert.ok(readFileSync(path.join(dir, "bundle", wasm[0])).equals(workers), "the bundled module is the Workers one (pkg/dist/workers/wasm)");
    assert.ok(gzipBytes <= FREE_PLAN_GZIP_BYTES, `the Worker is ${(gzipBytes / 1e6).toFixed(2)} MB gzip, over the free plan's 3 MB`);
    console.log(`runtime passed: wrangler deploy --dry-run: ${upload[1]} KiB, ${upload[2]} KiB gzip (${(gzipBytes / 1e6).toFixed(2)} MB; ` +
      "the free plan takes 3 MB)");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Starts examples/worker in workerd (tests/runtimes/workerd/serve.mjs; `env`: its RERANKIT_WORKER_* settings);
 *  resolves to {url, stop, log}. */
function startWorker(persist, args = [`${serverUrl}/models/${MODEL}/${MODEL_FILE}`, `${serverUrl}/models/${MODEL}/tokenizer.json`], env = {}) {
  // the test model loads to 184 MiB of wasm memory, over the example's default budget of 100 (a Worker's 128 MB)
  return serveWorker(args, { RERANKIT_WORKERD_PERSIST: persist, RERANKIT_WORKER_MEMORY_BUDGET_MIB: "512", ...env }, (child) => children.push(child));
}

test("a Cloudflare Worker in workerd reranks (Cohere response shape) and evaluates; a new isolate loads the model from the Cache API", async () => {
  const persist = mkdtempSync(path.join(tmpdir(), "rerankit-workerd-persist-"));
  const modelPath = `/models/${MODEL}/${MODEL_FILE}`;
  try {
    // RERANKER "local" (the default), with a fake env.AI present that must never be called
    const first = await startWorker(persist, undefined, { RERANKIT_WORKER_FAKE_AI: "1" });
    const post = (url, p, body) => fetch(url + p, { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } });
    const evaluation = await (await post(first.url, "/evaluate", { qrels: QRELS, run: RUN, measures: MEASURES })).json();
    const t0 = Date.now();
    const reranked = await (await post(first.url, "/", { query: QUERY, documents: DOCUMENTS })).json();
    const firstMs = Date.now() - t0;
    assert.ok(Array.isArray(reranked.results), `worker answered ${JSON.stringify(reranked)}\n${first.log()}`);
    assert.equal(modelHits.get(modelPath), 1, "the worker downloaded the model once");
    const top2 = await (await post(first.url, "/", { query: QUERY, documents: DOCUMENTS.map((text) => ({ text })), top_n: 2 })).json();
    assert.deepEqual(top2.results, reranked.results.slice(0, 2), "top_n and {text} documents");
    const bad = await post(first.url, "/", { query: "", documents: ["x"] });
    assert.equal(bad.status, 400);
    assert.equal((await bad.json()).code, "INVALID_ARGUMENT");
    const stats = await (await fetch(first.url + "/stats")).json();
    assert.equal((await post(first.url, "/", { query: QUERY, documents: DOCUMENTS })).headers.get("x-reranker"), "local");
    assert.deepEqual((await (await fetch(first.url + "/__fake-ai")).json()).calls, [], "local mode never calls Workers AI");
    compare({ ids: expected.ids, aggregate: evaluation.aggregate, errorCode: "INVALID_ARGUMENT", simd: stats.simd,
      rerank: reranked.results.map((r) => ({ index: r.index, score: r.relevance_score })) }, "workerd");

    // Cohere's own SDK, pointed at the Worker (it posts to /v1/rerank), as a new user would try it
    const { CohereClient } = await import("cohere-ai");
    const cohere = new CohereClient({ token: "not-needed", environment: first.url });
    const viaSdk = await cohere.rerank({ query: QUERY, documents: DOCUMENTS, topN: 3, returnDocuments: true });
    assert.deepEqual(viaSdk.results.map((r) => [r.index, r.relevanceScore]), reranked.results.slice(0, 3).map((r) => [r.index, r.relevance_score]), "cohere-ai reranks through the Worker");
    assert.deepEqual(viaSdk.results.map((r) => r.document), viaSdk.results.map((r) => ({ text: DOCUMENTS[r.index] })), "returnDocuments: each result carries its document");
    const withoutDocs = await cohere.rerank({ query: QUERY, documents: DOCUMENTS.map((text) => ({ text })), topN: 1 });
    assert.equal(withoutDocs.results[0].document, undefined, "no documents unless asked for");
    // a budget already spent: the first document is scored, the rest come back unscored in the caller's order
    const late = await (await post(first.url, "/", { query: QUERY, documents: DOCUMENTS, deadline_ms: 0 })).json();
    assert.ok(late.results.some((r) => r.scored === false), `deadline_ms: 0 leaves documents unscored: ${JSON.stringify(late.results)}`);
    // One model per isolate: every request reuses it. (examples/worker once started a new load on every request
    // and dropped it: seconds of CPU and a model's copy in wasm memory per request.)
    assert.equal((await (await fetch(first.url + "/stats")).json()).model_loads, 1, "the isolate loaded its model once");
    await first.stop();

    // A second worker (a new isolate) with the same Cache API storage: no second download, same answer.
    const second = await startWorker(persist);
    const again = await (await post(second.url, "/", { query: QUERY, documents: DOCUMENTS })).json();
    await second.stop();
    assert.deepEqual(again.results, reranked.results, "the cached model reranks the same");
    assert.equal(modelHits.get(modelPath), 1, "the second isolate took the model from the Cache API");
    console.log(`runtime passed: workerd (${stats.version}; first rerank incl. model download + load ${firstMs} ms; ` +
      `wasm memory ${(stats.wasm_memory_bytes / 2 ** 20).toFixed(1)} MiB; second isolate loaded the model from the Cache API)`);
  } finally {
    rmSync(persist, { recursive: true, force: true });
  }
});

test("the Worker's hosted modes with a fake env.AI: workers-ai, and fallback to the local model on error and on timeout", async () => {
  const persist = mkdtempSync(path.join(tmpdir(), "rerankit-workerd-persist-"));
  const modelPath = `/models/${MODEL}/${MODEL_FILE}`;
  const post = (url, p, body) => fetch(url + p, { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } });
  const body = { query: QUERY, documents: DOCUMENTS.map((text) => ({ text })), top_n: 3 };
  const fromAi = fakeRanking(QUERY, DOCUMENTS, 3).map((r) => ({ index: r.id, relevance_score: r.score }));
  /** The local model's top 3 as Node ranks them (scores to 1e-5). */
  const isLocal = (results, label) => {
    assert.deepEqual(results.map((r) => r.index), expected.rerank.slice(0, 3).map((r) => r.index), `${label}: the local model's order`);
    results.forEach((r, i) => assert.ok(Math.abs(r.relevance_score - expected.rerank[i].score) < 1e-5, `${label}: score ${i}`));
  };
  assert.notDeepEqual(fromAi.map((r) => r.index), expected.rerank.slice(0, 3).map((r) => r.index), "the fake's ranking is told apart from the model's");
  const stops = [];
  try {
    // RERANKER "workers-ai": the binding ranks; its failure is a 502 REMOTE; no model is ever downloaded
    const downloads = modelHits.get(modelPath) ?? 0;
    const hosted = await startWorker(persist, undefined, { RERANKIT_WORKER_FAKE_AI: "1", RERANKIT_WORKER_RERANKER: "workers-ai" });
    stops.push(hosted.stop);
    let r = await post(hosted.url, "/", body);
    let answer = await r.json();
    assert.equal(r.status, 200, `${JSON.stringify(answer)}\n${hosted.log()}`);
    assert.equal(r.headers.get("x-reranker"), "workers-ai");
    assert.deepEqual(answer.results, fromAi);
    const record = await (await fetch(hosted.url + "/__fake-ai")).json();
    assert.deepEqual(record.calls, [{ model: "@cf/baai/bge-reranker-base", input: { query: QUERY, contexts: DOCUMENTS.map((text) => ({ text })), top_k: 3 } }]);
    await post(hosted.url, "/__fake-ai", { mode: "error" });
    r = await post(hosted.url, "/", body);
    answer = await r.json();
    assert.equal(r.status, 502);
    assert.equal(answer.code, "REMOTE");
    assert.match(answer.error, /^workers-ai: @cf\/baai\/bge-reranker-base failed: 3040: Capacity temporarily exceeded/);
    assert.equal(modelHits.get(modelPath) ?? 0, downloads, "workers-ai mode downloads no model");
    await hosted.stop();

    // RERANKER "fallback": Workers AI while it answers (no model download), the local model on error and on timeout
    const fallback = await startWorker(persist, undefined, { RERANKIT_WORKER_FAKE_AI: "1", RERANKIT_WORKER_RERANKER: "fallback", RERANKIT_WORKER_FALLBACK_TIMEOUT_MS: "1000" });
    stops.push(fallback.stop);
    r = await post(fallback.url, "/", body);
    answer = await r.json();
    assert.equal(r.status, 200, `${JSON.stringify(answer)}\n${fallback.log()}`);
    assert.equal(r.headers.get("x-reranker"), "workers-ai");
    assert.equal(r.headers.get("x-rerankit-fallback"), null);
    assert.deepEqual(answer.results, fromAi);
    assert.equal(modelHits.get(modelPath) ?? 0, downloads, "the model is not loaded while Workers AI answers");
    await post(fallback.url, "/__fake-ai", { mode: "error" });
    r = await post(fallback.url, "/", body);
    answer = await r.json();
    assert.equal(r.status, 200, `${JSON.stringify(answer)}\n${fallback.log()}`);
    assert.equal(r.headers.get("x-reranker"), "local");
    assert.equal(r.headers.get("x-rerankit-fallback"), "REMOTE");
    isLocal(answer.results, "fallback on error");
    assert.equal(modelHits.get(modelPath), downloads + 1, "the first fallback loaded the model");
    await post(fallback.url, "/__fake-ai", { mode: "slow", delayMs: 8000 });
    const t0 = Date.now();
    r = await post(fallback.url, "/", body);
    const ms = Date.now() - t0;
    answer = await r.json();
    assert.equal(r.headers.get("x-reranker"), "local");
    assert.equal(r.headers.get("x-rerankit-fallback"), "TIMEOUT");
    assert.ok(ms >= 1000 && ms < 6000, `fell back after FALLBACK_TIMEOUT_MS (1000), not the binding's 8 s: ${ms} ms`);
    isLocal(answer.results, "fallback on timeout");
    assert.equal((await (await fetch(fallback.url + "/__fake-ai")).json()).calls.length, 1, "Workers AI was asked first");
    await fallback.stop();
    console.log(`runtime passed: workerd, examples/worker with a fake env.AI: workers-ai; fallback on REMOTE and on TIMEOUT (${ms} ms)`);
  } finally {
    for (const stop of stops) await stop();
    rmSync(persist, { recursive: true, force: true });
  }
});

test("a Cloudflare Worker loads a model by Hub id (MODEL_ID) from the Hub-shaped server", async () => {
  const persist = mkdtempSync(path.join(tmpdir(), "rerankit-workerd-persist-"));
  try {
    const worker = await startWorker(persist, ["--id", PRETRAINED_ID, hub.url]);
    const body = { query: PRETRAINED_PAIRS[0][0], documents: PRETRAINED_PAIRS.map((p) => p[1]) };
    const r = await (await fetch(worker.url + "/", { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } })).json();
    await worker.stop();
    assert.ok(Array.isArray(r.results), `worker answered ${JSON.stringify(r)}\n${worker.log()}`);
    // the worker ranks by sigmoid(logit): the first pair's logit must match Node's fromPretrained
    const first = r.results.find((x) => x.index === 0).relevance_score;
    assert.ok(Math.abs(first - 1 / (1 + Math.exp(-expectedPretrained[0]))) < 1e-5, `workerd: ${first}`);
    console.log("runtime passed: workerd fromPretrained by id");
  } finally {
    rmSync(persist, { recursive: true, force: true });
  }
});

test("a Vite build runs rerank and evaluate in headless Chromium", async (t) => {
  const exampleDir = path.join(root, "examples", "vite");
  linkPackage(exampleDir);
  execFileSync(bin("vite"), ["build", "--config", path.join(exampleDir, "vite.config.js"), "--logLevel", "warn"], { cwd: exampleDir, stdio: "inherit" });
  await withChromium(async (page, logs) => {
    const modelPath = `/models/${MODEL}/${MODEL_FILE}`;
    const hitsBefore = modelHits.get(modelPath) ?? 0;
    await page.goto(`${serverUrl}/index.html?hub=${encodeURIComponent(hub.url)}`);
    await page.waitForFunction(() => window.__rerankit, null, { timeout: 120_000 });
    const result = await page.evaluate(() => window.__rerankit);
    assert.ok(!result.error, `${result.error}\n${logs.join("\n")}`);
    compare(result, "chromium");
    comparePretrained(result.pretrained, "chromium");
    assert.equal(modelHits.get(modelPath) - hitsBefore, 1, "one download for two loads");
    assert.deepEqual(result.secondLoad.map((p) => [p.file, p.fromCache]).sort(), [["model", true], ["tokenizer", true]], "second load from the Cache API");
    assert.deepEqual(result.cacheKeys.sort(), [`${serverUrl}${modelPath}`, `${serverUrl}/models/${MODEL}/tokenizer.json`]);
    const shots = path.join(root, "bench", "out");
    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: path.join(shots, "runtime-chromium.png") });
    console.log(`runtime passed: ${result.runtime.match(/Chrome\/[\d.]+/)?.[0] ?? "chromium"} (model load ${result.loadMs} ms; second load from the Cache API)`);
  });
});

test("a plain <script type=module> page imports the package by URL and runs a worker pool in Chromium", async () => {
  await withChromium(async (page, logs) => {
    await page.goto(`${serverUrl}/runtimes/plain/index.html`);
    await page.waitForFunction(() => window.__plain, null, { timeout: 120_000 });
    const result = await page.evaluate(() => window.__plain);
    assert.ok(!result.error, `${result.error}\n${logs.join("\n")}`);
    assert.equal(result.same, true, "workers: 2 ranks as the page's thread does");
    assert.equal(result.ranked, DOCUMENTS.length);
    assert.deepEqual(result.progress.at(-1), { done: DOCUMENTS.length, total: DOCUMENTS.length });
    assert.equal(result.abortCode, "ABORTED");
    console.log("runtime passed: a plain module page (no bundler) with a pool of 2 Web Workers");
  });
});

/** A fresh headless Chromium and one page, its console collected in `logs`. */
async function withChromium(use) {
  const browser = await launchChromium();
  try {
    const page = await browser.context.newPage();
    const logs = [];
    page.on("console", (m) => logs.push(m.text()));
    page.on("pageerror", (e) => logs.push(String(e)));
    await use(page, logs);
  } finally {
    await browser.close();
  }
}
