#!/usr/bin/env node
// What one rerank call costs at the JS/wasm seam: `node bench/seam_crossings.mjs [--package DIR]... [--rounds 3]
// [--model-file model_int8.onnx] [--workers 0]`
//
// For each package (a built checkout's pkg/dist; default this one's), in a fresh process per round, rounds
// alternating between packages: the calls across the boundary during one `CrossEncoder.rerank` of 50 documents
// (JS → wasm: calls of the instance's exported functions; wasm → JS: calls of its imports, the glue's callbacks),
// the rerank's wall time and the wasm memory after it (linear memory never shrinks, so it is the call's peak).
// The counts come from wrapping `WebAssembly.Instance` before the package is imported, so any version of the
// glue is measured the same way. The 50 documents are bench/runtimes.mjs's (BM25's top 50 for the first query of
// runs/bm25.trec); the model is ce-probe from RERANKIT_MODELS (npm run fixtures).
import { execFileSync } from "node:child_process";
import { homedir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { fiftyDocuments } from "./fifty_documents.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const values = (name) => args.flatMap((a, i) => (a === `--${name}` ? [args[i + 1]] : []));
const arg = (name, fallback) => values(name)[0] ?? fallback;

if (process.env.SEAM_CROSSINGS_CHILD) {
  await child(JSON.parse(process.env.SEAM_CROSSINGS_CHILD));
} else {
  parent();
}

function parent() {
  const packages = values("package").length > 0 ? values("package").map((p) => path.resolve(p)) : [path.join(root, "pkg/dist")];
  const rounds = Number(arg("rounds", "3"));
  const config = {
    modelDir: path.join(process.env.RERANKIT_MODELS ?? path.join(homedir(), ".cache", "rerankit", "models"), "ce-probe"),
    modelFile: arg("model-file", "model_int8.onnx"),
    workers: Number(arg("workers", "0")),
  };
  const results = new Map(packages.map((p) => [p, []]));
  for (let round = 0; round < rounds; round++) {
    for (const pkg of round % 2 === 0 ? packages : [...packages].reverse()) {
      const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url)], {
        env: { ...process.env, SEAM_CROSSINGS_CHILD: JSON.stringify({ ...config, pkg }) },
        encoding: "utf8",
        maxBuffer: 1 << 26,
      });
      results.get(pkg).push(JSON.parse(out.trim().split("\n").at(-1)));
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(`one rerank of 50 documents, ${config.modelFile}, workers ${config.workers}, ${rounds} rounds (median; counts are the same every round)`);
  for (const [pkg, runs] of results) {
    const r = runs[0];
    console.log(`\n${path.relative(process.cwd(), pkg) || "."}:`);
    console.log(`  JS → wasm calls ${r.exportCalls}, wasm → JS calls ${r.importCalls}`);
    console.log(`  rerank ${median(runs.map((x) => x.ms)).toFixed(0)} ms (${runs.map((x) => x.ms.toFixed(0)).join(", ")}); wasm memory after ${median(runs.map((x) => x.memoryMiB)).toFixed(1)} MiB`);
    console.log(`  exports called: ${r.topExports.map(([n, c]) => `${n} ×${c}`).join(", ")}`);
    console.log(`  imports called: ${r.topImports.map(([n, c]) => `${n} ×${c}`).join(", ")}`);
  }
}

async function child({ pkg, modelDir, modelFile, workers }) {
  const exportCalls = new Map();
  const importCalls = new Map();
  let counting = false;
  let memory;
  const count = (map, name) => {
    if (counting) map.set(name, (map.get(name) ?? 0) + 1);
  };
  const Original = WebAssembly.Instance;
  WebAssembly.Instance = function Instance(module, imports) {
    const wrappedImports = {};
    for (const [ns, fns] of Object.entries(imports ?? {})) {
      wrappedImports[ns] = {};
      for (const [name, f] of Object.entries(fns)) {
        wrappedImports[ns][name] = typeof f === "function" ? function (...a) { count(importCalls, name.replace(/_[0-9a-f]{16}$/, "")); return f.apply(this, a); } : f;
      }
    }
    const instance = new Original(module, wrappedImports);
    memory = instance.exports.memory;
    const exports = {};
    for (const [name, e] of Object.entries(instance.exports)) {
      exports[name] = typeof e === "function" ? (...a) => { count(exportCalls, name); return e(...a); } : e;
    }
    return { exports };
  };
  const { CrossEncoder } = await import(pathToFileURL(path.join(pkg, "runtimes/node.js")).href).catch(() => import(pathToFileURL(path.join(pkg, "node.js")).href));
  const ce = await CrossEncoder.load({
    model: path.join(modelDir, modelFile),
    tokenizer: path.join(modelDir, "tokenizer.json"),
    config: path.join(modelDir, "config.json"),
    workers,
  });
  const { query, documents } = fiftyDocuments();
  counting = true;
  const start = performance.now();
  await ce.rerank(query, documents, { topK: null });
  const ms = performance.now() - start;
  counting = false;
  const memoryBytes = memory.buffer.byteLength;
  const total = (m) => [...m.values()].reduce((a, b) => a + b, 0);
  const top = (m) => [...m].sort((a, b) => b[1] - a[1]).slice(0, 8);
  console.log(JSON.stringify({ exportCalls: total(exportCalls), importCalls: total(importCalls), ms, memoryMiB: memoryBytes / 2 ** 20, topExports: top(exportCalls), topImports: top(importCalls) }));
  ce.free();
}
