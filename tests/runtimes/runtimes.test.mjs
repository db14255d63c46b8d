// `npm run test:runtimes`: the package's public entry points in Deno, Cloudflare's workerd (through wrangler) and
// headless Chromium (a Vite build), each running tests/runtimes/scenario.mjs; every result must equal the Node
// entry's. Models come from RERANKIT_MODELS (npm run fixtures); Chromium is Debian's, never a download.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, execFileSync } from "node:child_process";
import { createServer } from "node:http";
import { createReadStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as rr from "rerankit";
import { DOCUMENTS, QUERY, QRELS, RUN, MEASURES, MODEL, MODEL_FILE, scenario } from "./scenario.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const bin = (name) => path.join(root, "node_modules", ".bin", name);
const models = process.env.RERANKIT_MODELS ?? path.join(homedir(), ".cache", "rerankit", "models");
const modelDir = path.join(models, MODEL);
const CHROMIUM = process.env.RERANKIT_CHROMIUM ?? "/usr/bin/chromium";

let expected;
/** Requests per path served, to tell downloads from Cache API hits. */
const modelHits = new Map();
let server;
let serverUrl;
const children = [];

/** Serves the models under /models/ and a folder of static files at /. */
function startServer(staticDir) {
  const types = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm", ".json": "application/json" };
  return new Promise((resolve) => {
    const srv = createServer((req, res) => {
      const url = new URL(req.url, "http://x");
      const rel = decodeURIComponent(url.pathname);
      modelHits.set(rel, (modelHits.get(rel) ?? 0) + 1);
      const file = rel.startsWith("/models/") ? path.join(models, rel.slice(8)) : path.join(staticDir(), rel === "/" ? "index.html" : rel);
      if (!file.startsWith(models) && !file.startsWith(staticDir())) return res.writeHead(403).end();
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
}

function run(cmd, args, opts = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"], ...opts });
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
  serverUrl = `http://127.0.0.1:${server.address().port}`;
});

after(() => {
  // Process groups: wrangler's workerd is a grandchild.
  for (const c of children) if (c.exitCode === null) try { process.kill(-c.pid, "SIGKILL"); } catch {}
  server?.close();
});

test("Deno runs rerank and evaluate through the package's deno entry", async () => {
  const denoDir = mkdtempSync(path.join(tmpdir(), "rerankit-deno-"));
  const out = await run(bin("deno"), ["run", "--allow-read", "--allow-env", "--no-remote", "--no-npm",
    "--config", "tests/runtimes/deno/deno.json", "tests/runtimes/deno/main.ts", modelDir],
    { env: { ...process.env, DENO_DIR: denoDir, DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" } });
  const result = JSON.parse(out.trim().split("\n").pop());
  compare(result, "deno");
  console.log(`runtime passed: ${result.runtime} (model load ${result.loadMs} ms)`);
  rmSync(denoDir, { recursive: true, force: true });
});

/** Starts examples/worker in workerd (tests/runtimes/workerd/serve.mjs); resolves to {url, stop}. */
async function startWorker(persist) {
  const child = spawn(process.execPath, [path.join(root, "tests", "runtimes", "workerd", "serve.mjs"),
    `${serverUrl}/models/${MODEL}/${MODEL_FILE}`, `${serverUrl}/models/${MODEL}/tokenizer.json`],
    { cwd: root, detached: true, stdio: ["pipe", "pipe", "pipe"],
      env: { ...process.env, CI: "true", NO_COLOR: "1", RERANKIT_WORKERD_PERSIST: persist } });
  children.push(child);
  let log = "";
  const keep = (d) => (log = (log + d).slice(-20_000));
  child.stderr.on("data", keep);
  const url = await new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const line = out.split("\n").find((l) => l.startsWith("{"));
      if (line) resolve(JSON.parse(line).url);
    });
    child.on("close", (code) => reject(new Error(`the worker exited (${code}) before it was ready:\n${log}\n${out}`)));
  });
  const stop = () => new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.on("close", resolve);
    process.kill(-child.pid, "SIGTERM");
  });
  return { url: url.replace(/\/$/, ""), stop, log: () => log };
}

test("a Cloudflare Worker in workerd reranks (Cohere response shape) and evaluates; a new isolate loads the model from the Cache API", async () => {
  const persist = mkdtempSync(path.join(tmpdir(), "rerankit-workerd-persist-"));
  const modelPath = `/models/${MODEL}/${MODEL_FILE}`;
  try {
    const first = await startWorker(persist);
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
    compare({ ids: expected.ids, aggregate: evaluation.aggregate, errorCode: "INVALID_ARGUMENT",
      rerank: reranked.results.map((r) => ({ index: r.index, score: r.relevance_score })) }, "workerd");
    await first.stop();

    // A second worker (a new isolate) with the same Cache API storage: no second download, same answer.
    const second = await startWorker(persist);
    const again = await (await post(second.url, "/", { query: QUERY, documents: DOCUMENTS })).json();
    await second.stop();
    assert.deepEqual(again, reranked, "the cached model reranks the same");
    assert.equal(modelHits.get(modelPath), 1, "the second isolate took the model from the Cache API");
    console.log(`runtime passed: workerd (${stats.version}; first rerank incl. model download + load ${firstMs} ms; ` +
      `wasm memory ${(stats.wasm_memory_bytes / 2 ** 20).toFixed(1)} MiB; second isolate loaded the model from the Cache API)`);
  } finally {
    rmSync(persist, { recursive: true, force: true });
  }
});

test("a Vite build runs rerank and evaluate in headless Chromium", async (t) => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: scripts/install-chromium.sh installs Debian's chromium`);
  const exampleDir = path.join(root, "examples", "vite");
  linkPackage(exampleDir);
  execFileSync(bin("vite"), ["build", "--config", path.join(exampleDir, "vite.config.js"), "--logLevel", "warn"], { cwd: exampleDir, stdio: "inherit" });
  const { chromium } = await import("playwright-core");
  const profile = mkdtempSync(path.join(tmpdir(), "rerankit-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ["--headless=new", "--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"],
  });
  try {
    const page = await context.newPage();
    const logs = [];
    page.on("console", (m) => logs.push(m.text()));
    page.on("pageerror", (e) => logs.push(String(e)));
    const modelPath = `/models/${MODEL}/${MODEL_FILE}`;
    const hitsBefore = modelHits.get(modelPath) ?? 0;
    await page.goto(`${serverUrl}/index.html`);
    await page.waitForFunction(() => window.__rerankit, null, { timeout: 120_000 });
    const result = await page.evaluate(() => window.__rerankit);
    assert.ok(!result.error, `${result.error}\n${logs.join("\n")}`);
    compare(result, "chromium");
    assert.equal(modelHits.get(modelPath) - hitsBefore, 1, "one download for two loads");
    assert.deepEqual(result.secondLoad.map((p) => [p.file, p.fromCache]).sort(), [["model", true], ["tokenizer", true]], "second load from the Cache API");
    assert.deepEqual(result.cacheKeys.sort(), [`${serverUrl}${modelPath}`, `${serverUrl}/models/${MODEL}/tokenizer.json`]);
    const shots = path.join(root, "bench", "out");
    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: path.join(shots, "runtime-chromium.png") });
    console.log(`runtime passed: ${result.runtime.match(/Chrome\/[\d.]+/)?.[0] ?? "chromium"} (model load ${result.loadMs} ms; second load from the Cache API)`);
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
});
