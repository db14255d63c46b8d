// The worker pool and call control (pkg/models/pool.ts): `workers` spreads a call's batches over worker_threads with
// results identical to the caller's thread; `signal` stops a call between batches (ABORTED) and `onProgress`
// reports each batch; with workers the caller's event loop keeps turning during a rerank.
import { test } from "node:test";
import assert from "node:assert/strict";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CrossEncoder, Embedder, RerankitError } from "rerankit";

const hub = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../fixtures/hub/rerankit-test");
const tiny = (repo) => ({ model: path.join(hub, repo, "onnx/model.onnx"), tokenizer: path.join(hub, repo, "tokenizer.json"), config: path.join(hub, repo, "config.json") });
const models = process.env.RERANKIT_MODELS || path.join(os.homedir(), ".cache/rerankit/models");
const probe = { model: path.join(models, "ce-probe/model.onnx"), tokenizer: path.join(models, "ce-probe/tokenizer.json"), config: path.join(models, "ce-probe/config.json") };

const words = "retrieval ranking passage query document evidence model score batch token window chunk".split(" ");
const documents = Array.from({ length: 60 }, (_, i) => Array.from({ length: 5 + ((i * 7) % 40) }, (_, j) => words[(i + j * 3) % words.length]).join(" "));
const aborted = (e) => e instanceof RerankitError && e.code === "ABORTED";

test("workers: 2 gives the caller's-thread results bit for bit (rerank, rerankBatch, score, embed)", async () => {
  const inline = await CrossEncoder.load(tiny("tiny-bert-reranker"));
  const pooled = await CrossEncoder.load({ ...tiny("tiny-bert-reranker"), workers: 2 });
  try {
    const options = { topK: null, batchSize: 4 };
    assert.deepEqual(await pooled.rerank("ranking query", documents, options), await inline.rerank("ranking query", documents, options));
    const lists = [documents.slice(0, 20), documents.slice(20)];
    assert.deepEqual(await pooled.rerankBatch(["query", "passage"], lists, options), await inline.rerankBatch(["query", "passage"], lists, options));
    const pairs = documents.map((d, i) => [words[i % words.length], d]);
    assert.deepEqual(Array.from(await pooled.score(pairs, { batchSize: 3 })), Array.from(await inline.score(pairs, { batchSize: 3 })));
  } finally {
    inline.free();
    pooled.free();
  }
  const e1 = await Embedder.load(tiny("tiny-bert-embedder"));
  const e2 = await Embedder.load({ ...tiny("tiny-bert-embedder"), workers: 2 });
  try {
    const a = await e1.embed(documents, { normalize: true, batchSize: 8 });
    const b = await e2.embed(documents, { normalize: true, batchSize: 8 });
    assert.deepEqual(b.map((v) => Array.from(v)), a.map((v) => Array.from(v)));
  } finally {
    e1.free();
    e2.free();
  }
});

test("onProgress reports every batch, and a signal stops the call between batches with ABORTED", async () => {
  for (const workers of [0, 2]) {
    const model = await CrossEncoder.load({ ...tiny("tiny-bert-reranker"), workers });
    try {
      const seen = [];
      // one chunk per document, so that progress counts documents (chunks count one each)
      await model.rerank("query", documents, { batchSize: 8, maxChunksPerDoc: 1, onProgress: (p) => seen.push(p) });
      assert.equal(seen.length, Math.ceil(documents.length / 8), `workers ${workers}`);
      assert.ok(seen.every((p, i) => p.total === documents.length && (i === 0 || p.done > seen[i - 1].done)));
      assert.equal(seen.at(-1).done, documents.length);

      const controller = new AbortController();
      let batches = 0;
      const stopped = model.rerank("query", documents, { batchSize: 4, signal: controller.signal, onProgress: () => ++batches === 2 && controller.abort() });
      await assert.rejects(stopped, aborted);
      assert.ok(batches < Math.ceil(documents.length / 4), `workers ${workers}: ${batches} batches ran after the abort`);
      await assert.rejects(model.score([["q", "d"]], { signal: AbortSignal.abort() }), aborted);
      // the model keeps working after an abort
      assert.equal((await model.rerank("query", documents.slice(0, 3))).length, 3);
    } finally {
      model.free();
    }
  }
});

test("bad workers, signal and onProgress values are INVALID_ARGUMENT", async () => {
  for (const workers of [-1, 1.5, 17, "all", {}]) {
    await assert.rejects(CrossEncoder.load({ ...tiny("tiny-bert-reranker"), workers }), (e) => e instanceof RerankitError && e.code === "INVALID_ARGUMENT" && /^workers/.test(e.message), String(workers));
  }
  const model = await CrossEncoder.load(tiny("tiny-bert-reranker"));
  try {
    await assert.rejects(model.rerank("q", ["d"], { signal: {} }), (e) => e.code === "INVALID_ARGUMENT" && /^signal/.test(e.message));
    await assert.rejects(model.score([["q", "d"]], { onProgress: 1 }), (e) => e.code === "INVALID_ARGUMENT" && /^onProgress/.test(e.message));
    await assert.rejects(model.rerank("q", ["d"], { on_progress: () => {} }), (e) => e.code === "INVALID_ARGUMENT" && /on_progress/.test(e.message));
  } finally {
    model.free();
  }
});

test("with workers the caller's event loop keeps turning through a 100-document rerank", async () => {
  const docs = Array.from({ length: 100 }, (_, i) => documents[i % documents.length].repeat(3));
  for (const workers of [0, 2]) {
    const model = await CrossEncoder.load({ ...probe, workers });
    try {
      let ticks = 0, last = performance.now(), longest = 0;
      const timer = setInterval(() => {
        const now = performance.now();
        longest = Math.max(longest, now - last);
        last = now;
        ticks++;
      }, 5);
      const started = performance.now();
      const ranked = await model.rerank("which passage ranks the query", docs, { topK: 5 });
      const took = performance.now() - started;
      clearInterval(timer);
      assert.equal(ranked.length, 5);
      console.log(`[pool] ce-probe, 100 documents, workers ${workers}: ${took.toFixed(0)} ms, ${ticks} event-loop ticks, longest gap ${longest.toFixed(0)} ms`);
      // ticks arrive during the rerank (inline: between batches; workers: all along)
      assert.ok(ticks >= 2, `workers ${workers}: the event loop turned ${ticks} times`);
    } finally {
      model.free();
    }
  }
});

test("hostile workers values are INVALID_ARGUMENT, and load(undefined) is too (no TypeError, no giant string)", async () => {
  const sparse = [];
  sparse.length = 2 ** 32 - 1;
  for (const workers of [sparse, Object.create(null), { [Symbol.toPrimitive]: () => { throw new Error("no"); } }, "x".repeat(1e6)]) {
    await assert.rejects(CrossEncoder.load({ ...tiny("tiny-bert-reranker"), workers }), (e) => e instanceof RerankitError && e.code === "INVALID_ARGUMENT" && /^workers/.test(e.message) && e.message.length < 200);
  }
  await assert.rejects(CrossEncoder.load(undefined), (e) => e instanceof RerankitError && e.code === "INVALID_ARGUMENT");
});
