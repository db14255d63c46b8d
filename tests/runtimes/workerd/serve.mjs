// Runs examples/worker in workerd through wrangler's Node API (`unstable_startWorker`, what `wrangler dev` runs):
// the same bundling (the .wasm imported as a compiled WebAssembly.Module) and the same workerd binary, but with
// the DevTools inspector off — `wrangler dev` always attaches one, and it relays every 4 KB of a fetched model as
// a Network event, which exhausts workerd's file descriptors on a 20–90 MB download.
//
//   node tests/runtimes/workerd/serve.mjs MODEL_URL TOKENIZER_URL      (also: bench/runtimes.mjs)
//   node tests/runtimes/workerd/serve.mjs --id MODEL_ID HUB_URL          (fromPretrained, fp32, from that host)
// With RERANKIT_WORKER_RERANKER set, the worker's RERANKER variable (local | workers-ai | fallback; also
// RERANKIT_WORKER_FALLBACK_TIMEOUT_MS); with RERANKIT_WORKER_FAKE_AI=1, the example runs behind fake_ai_entry.js,
// which gives it a fake `env.AI` (Workers AI bindings always run remotely: no test could reach a real one); with
// RERANKIT_WORKER_EMPTY=1, a Worker that imports nothing (empty_entry.js: bench/workerd_startup.mjs's baseline).
// Prints one JSON line `{"url": "http://127.0.0.1:PORT/", "pid": …}` when the worker is ready, serves until
// SIGTERM/SIGINT or stdin closes, then disposes of workerd. Only 127.0.0.1 is used: no login, no telemetry, no
// Request.cf download (CLOUDFLARE_CF_FETCH_ENABLED=false).
import path from "node:path";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { root, snapshotExample } from "./example_snapshot.mjs";

process.env.CLOUDFLARE_CF_FETCH_ENABLED = "false";
process.env.WRANGLER_SEND_METRICS = "false";
const { unstable_startWorker } = await import("wrangler");

const byId = process.argv[2] === "--id";
const [modelUrl, tokenizerUrl] = process.argv.slice(byId ? 3 : 2);
if (!modelUrl || !tokenizerUrl) {
  console.error("usage: serve.mjs MODEL_URL TOKENIZER_URL | serve.mjs --id MODEL_ID HUB_URL");
  process.exit(2);
}
const exampleDir = snapshotExample();
process.on("exit", () => rmSync(exampleDir, { recursive: true, force: true }));
if (process.env.RERANKIT_WORKER_FAKE_AI) {
  for (const f of ["fake_ai.mjs", "fake_ai_entry.js"]) cpSync(path.join(root, "tests", "runtimes", "workerd", f), path.join(exampleDir, "src", f));
  const toml = path.join(exampleDir, "wrangler.toml");
  writeFileSync(toml, readFileSync(toml, "utf8").replace(/^main = .*$/m, 'main = "src/fake_ai_entry.js"'));
}
if (process.env.RERANKIT_WORKER_EMPTY) {
  cpSync(path.join(root, "tests", "runtimes", "workerd", "empty_entry.js"), path.join(exampleDir, "src", "empty_entry.js"));
  const toml = path.join(exampleDir, "wrangler.toml");
  writeFileSync(toml, readFileSync(toml, "utf8").replace(/^main = .*$/m, 'main = "src/empty_entry.js"'));
}
// Where workerd keeps the Cache API's entries: RERANKIT_WORKERD_PERSIST lets a second worker find the first's
// (the test proves a new isolate does not download the model again); by default a fresh folder, removed at exit.
const keep = process.env.RERANKIT_WORKERD_PERSIST;
const persist = keep ?? mkdtempSync(path.join(tmpdir(), "rerankit-workerd-"));

const text = (value) => ({ type: "plain_text", value });
const reranker = process.env.RERANKIT_WORKER_RERANKER
  ? { RERANKER: text(process.env.RERANKIT_WORKER_RERANKER), FALLBACK_TIMEOUT_MS: text(process.env.RERANKIT_WORKER_FALLBACK_TIMEOUT_MS ?? "2000") }
  : {};
// RERANKIT_WORKER_DEADLINE_MS: the worker's DEADLINE_MS (bench/runtimes.mjs lifts it, to time and measure every document)
if (process.env.RERANKIT_WORKER_DEADLINE_MS) reranker.DEADLINE_MS = text(process.env.RERANKIT_WORKER_DEADLINE_MS);
// RERANKIT_WORKER_MEMORY_BUDGET_MIB: the worker's MEMORY_BUDGET_MIB (bench/runtimes.mjs --memory-budget)
if (process.env.RERANKIT_WORKER_MEMORY_BUDGET_MIB) reranker.MEMORY_BUDGET_MIB = text(process.env.RERANKIT_WORKER_MEMORY_BUDGET_MIB);
const worker = await unstable_startWorker({
  config: path.join(exampleDir, "wrangler.toml"),
  sendMetrics: false,
  bindings: {
    ...(byId
      ? { MODEL_ID: text(modelUrl), HF_HOST: text(tokenizerUrl), DTYPE: text("fp32") }
      : { MODEL_URL: text(modelUrl), TOKENIZER_URL: text(tokenizerUrl) }),
    ...reranker,
  },
  dev: {
    remote: false,
    inspector: false,
    watch: false,
    liveReload: false,
    persist,
    logLevel: "warn",
    server: { hostname: "127.0.0.1", port: 0 },
  },
});
await worker.ready;
const url = await worker.url;

let closing = false;
async function close() {
  if (closing) return;
  closing = true;
  await worker.dispose().catch(() => {});
  if (!keep) rmSync(persist, { recursive: true, force: true });
  process.exit(0);
}
process.on("SIGTERM", close);
process.on("SIGINT", close);
process.stdin.on("end", close);
process.stdin.resume();
console.log(JSON.stringify({ url: url.href, pid: process.pid }));
