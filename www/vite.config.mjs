// The demo's Vite config. `rerankit` resolves to this checkout's browser entry (pkg/dist/runtimes/browser.js, built by
// scripts/build.mjs), and both the dev and the preview server serve the local model cache under /models/ —
// the weights are read from RERANKIT_MODELS (default ~/.cache/rerankit/models), never copied into the build.
import { createReadStream, existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { defineConfig } from "vite";

const www = import.meta.dirname;
const root = path.resolve(www, "..");
const models = path.resolve(process.env.RERANKIT_MODELS ?? path.join(homedir(), ".cache", "rerankit", "models"));
const SERVED = new Set([".onnx", ".json"]);

/** A cross-encoder's config names a sequence-classification head; a folder without config.json may be one too. */
function isCrossEncoder(dir) {
  const config = path.join(dir, "config.json");
  if (!existsSync(config)) return true;
  try {
    return (JSON.parse(readFileSync(config, "utf8")).architectures ?? []).some((a) => a.endsWith("ForSequenceClassification"));
  } catch {
    return false;
  }
}

/**
 * A file's URL under /models/, versioned by size and mtime: the page keeps downloads in the Cache API (keyed by
 * URL), so a regenerated model must get a new URL to be fetched again.
 */
function versioned(name, file) {
  const st = statSync(path.join(models, name, file));
  return `./models/${name}/${file}?v=${st.size.toString(36)}-${Math.floor(st.mtimeMs).toString(36)}`;
}

/**
 * `[{name, models: [{file, url}], tokenizer: url}]`: every cache folder with a tokenizer.json, an ONNX graph and a
 * cross-encoder head (bi-encoders such as all-MiniLM-L6-v2 have no relevance logit to rerank with).
 */
function modelIndex() {
  if (!existsSync(models)) return [];
  return readdirSync(models, { withFileTypes: true })
    .filter((d) => d.isDirectory() && !d.name.startsWith("_") && existsSync(path.join(models, d.name, "tokenizer.json")))
    .filter((d) => isCrossEncoder(path.join(models, d.name)))
    .map((d) => ({
      name: d.name,
      models: readdirSync(path.join(models, d.name)).filter((f) => f.endsWith(".onnx")).sort().map((file) => ({ file, url: versioned(d.name, file) })),
      tokenizer: versioned(d.name, "tokenizer.json"),
    }))
    .filter((m) => m.models.length > 0)
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** Connect middleware for `/models/index.json` and `/models/<name>/<file>` (.onnx and .json only). */
function serveModels(req, res, next) {
  const url = new URL(req.url ?? "/", "http://demo");
  if (!url.pathname.startsWith("/models/")) return next();
  if (url.pathname === "/models/index.json") {
    res.setHeader("content-type", "application/json");
    res.setHeader("cache-control", "no-store");
    return res.end(JSON.stringify({ models: modelIndex() }));
  }
  const file = path.resolve(models, decodeURIComponent(url.pathname.slice("/models/".length)));
  const inside = file.startsWith(models + path.sep);
  if (!inside || !SERVED.has(path.extname(file)) || !existsSync(file) || !statSync(file).isFile()) {
    res.statusCode = 404;
    return res.end(`not found: ${url.pathname}`);
  }
  // A content-length lets the page's progress bar show a fraction.
  res.setHeader("content-type", file.endsWith(".json") ? "application/json" : "application/octet-stream");
  res.setHeader("content-length", String(statSync(file).size));
  createReadStream(file).pipe(res);
}

const modelFiles = {
  name: "rerankit-model-files",
  configureServer(server) {
    server.middlewares.use(serveModels);
  },
  configurePreviewServer(server) {
    server.middlewares.use(serveModels);
  },
};

export default defineConfig({
  root: www,
  plugins: [modelFiles],
  resolve: { alias: [{ find: /^rerankit$/, replacement: path.join(root, "pkg", "dist", "runtimes", "browser.js") }] },
  // The package entry awaits the wasm at top level: ES2022 output, ES-module worker.
  build: { target: "es2022", outDir: "dist", emptyOutDir: true, chunkSizeWarningLimit: 30_000 },
  worker: { format: "es" },
  optimizeDeps: { exclude: ["rerankit"] },
  server: { host: "127.0.0.1", fs: { allow: [root] } },
  preview: { host: "127.0.0.1" },
});
