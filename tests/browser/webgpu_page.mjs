// The page both tests/browser/webgpu.test.mjs and bench/webgpu.mjs drive: headless Chromium on a page served from
// 127.0.0.1 (a secure context, as WebGPU requires) that imports the built package (pkg/dist/runtimes/browser.js) as
// `window.rerankit`; model files are served from $RERANKIT_MODELS under /models/, the Hub exports of
// tests/fixtures/hub under /hub/, and onnxruntime-web (bench/node_modules, for bench/rerank_chromium.mjs) under /ort/.
//
// Chromium offers WebGPU without a GPU through SwiftShader (its software Vulkan, a "fallback adapter") once
// `--enable-unsafe-webgpu` is given on Linux; `--disable-gpu-sandbox` lets its GPU process start in containers.
// Without `--enable-unsafe-webgpu`, navigator.gpu exists but requestAdapter() gives none (the fallback case).
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const models = process.env.RERANKIT_MODELS || path.join(os.homedir(), ".cache/rerankit/models");
const CHROMIUM = process.env.RERANKIT_CHROMIUM ?? "/usr/bin/chromium";
export const BASE_ARGS = ["--headless=new", "--no-sandbox", "--disable-background-networking", "--disable-component-update",
  "--disable-sync", "--no-first-run", "--disable-quic", "--disable-gpu-sandbox"];
export const WEBGPU_ARGS = [...BASE_ARGS, "--enable-unsafe-webgpu"];

const types = { ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".json": "application/json", ".html": "text/html" };
const page_html = `<!doctype html><meta charset="utf-8"><title>rerankit webgpu</title>
<script type="module">
  import * as rerankit from "/pkg/dist/runtimes/browser.js";
  window.rerankit = rerankit;
  window.adapterInfo = async () => {
    if (!navigator.gpu) return null;
    const a = await navigator.gpu.requestAdapter();
    if (!a) return null;
    const i = a.info ?? {};
    return { vendor: i.vendor, architecture: i.architecture, device: i.device, description: i.description, isFallbackAdapter: a.isFallbackAdapter ?? i.isFallbackAdapter ?? null };
  };
  window.ready = true;
</script>`;

/** Serves the page, pkg/dist and the model files on 127.0.0.1 (a secure context, as WebGPU requires). */
function serve() {
  const server = createServer((req, res) => {
    const url = new URL(req.url, "http://x");
    let file = null;
    if (url.pathname === "/") {
      res.setHeader("content-type", "text/html");
      return res.end(page_html);
    }
    if (url.pathname.startsWith("/pkg/dist/")) file = path.join(root, url.pathname);
    if (url.pathname.startsWith("/models/")) file = path.join(models, url.pathname.slice("/models/".length));
    const hub = path.join(root, "tests", "fixtures", "hub");
    if (url.pathname.startsWith("/hub/")) file = path.join(hub, decodeURIComponent(url.pathname.slice("/hub/".length)));
    const ort = path.join(root, "bench", "node_modules", "onnxruntime-web", "dist");
    if (url.pathname.startsWith("/ort/")) file = path.join(ort, url.pathname.slice("/ort/".length));
    const base = file && [path.join(root, "pkg", "dist"), models, hub + path.sep, ort + path.sep].some((d) => file.startsWith(d)) ? file : null;
    if (!base || !existsSync(base) || !statSync(base).isFile()) {
      res.statusCode = 404;
      return res.end("not found");
    }
    res.setHeader("content-type", types[path.extname(base)] ?? "application/octet-stream");
    res.end(readFileSync(base));
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

/** Runs `fn(page, logs)` in a fresh headless Chromium started with `args`, the package loaded as window.rerankit. */
export async function withPage(args, fn) {
  for (const need of [CHROMIUM, path.join(root, "pkg/dist/runtimes/browser.js"), path.join(models, "ce-probe/model.onnx")]) {
    if (!existsSync(need)) throw new Error(`${need} is missing (scripts/install-chromium.sh, node scripts/build.mjs --dev, npm run fixtures)`);
  }
  const server = await serve();
  const { chromium } = await import("playwright-core");
  const profile = mkdtempSync(path.join(os.tmpdir(), "rerankit-webgpu-"));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args });
  const logs = [];
  try {
    const page = await context.newPage();
    page.on("console", (m) => logs.push(`[console.${m.type()}] ${m.text()}`));
    page.on("pageerror", (e) => logs.push(`[pageerror] ${e}`));
    await page.goto(`http://127.0.0.1:${server.address().port}/`);
    await page.waitForFunction(() => window.ready === true, null, { timeout: 120_000 });
    return await fn(page, logs);
  } catch (e) {
    e.message += `\n--- browser log ---\n${logs.join("\n")}`;
    throw e;
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
    server.close();
  }
}

