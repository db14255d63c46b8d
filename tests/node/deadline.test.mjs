// An answer inside a deadline (issue #42 part 4): `maxDocuments` scores the first documents of the caller's list,
// `deadlineMs` stops a rerank between batches, and either way every document comes back — the scored ones ranked
// first, the rest after them in the caller's order, each saying whether it was scored. The clock is injected (no
// timing in any assertion): it advances a fixed step per batch, through onProgress.
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CrossEncoder, RerankitError } from "rerankit";

const hub = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../fixtures/hub/rerankit-test/tiny-bert-reranker");
// int8: each row runs alone and unpadded, so a document's score does not depend on its batch
const files = { model: path.join(hub, "onnx/model_quantized.onnx"), tokenizer: path.join(hub, "tokenizer.json"), config: path.join(hub, "config.json") };
const words = "retrieval ranking passage query document evidence model score batch token window chunk".split(" ");
const documents = Array.from({ length: 12 }, (_, i) => Array.from({ length: 4 + ((i * 5) % 17) }, (_, j) => words[(i + j * 7) % words.length]).join(" "));
const invalid = (field) => (e) => e instanceof RerankitError && e.code === "INVALID_ARGUMENT" && e.message.startsWith(field);

/** The contract: the scored results are exactly `scoredIds` ranked as a plain rerank of them ranks them, then the
 *  rest in input order, unscored with NaN scores. */
async function assertPartial(model, results, scoredIds, topK = null) {
  const scored = results.filter((r) => r.scored);
  const rest = results.filter((r) => !r.scored);
  assert.ok(results.every((r) => typeof r.scored === "boolean"));
  assert.deepEqual(results.slice(0, scored.length), scored, "scored results come first");
  assert.deepEqual(new Set(scored.map((r) => r.index)), new Set(scoredIds));
  const alone = await model.rerank("ranking query", scoredIds.map((i) => documents[i]), { topK: null });
  assert.deepEqual(scored.map((r) => [r.index, r.score]), alone.map((r) => [scoredIds[r.index], r.score]));
  const unscored = documents.map((_, i) => i).filter((i) => !scoredIds.includes(i));
  assert.deepEqual(rest.map((r) => r.index), unscored.slice(0, topK === null ? undefined : Math.max(0, topK - scored.length)));
  assert.ok(rest.every((r) => Number.isNaN(r.score)));
}

test("maxDocuments: the first n documents are scored and ranked, the others follow unscored in order", async () => {
  for (const workers of [0, 2]) {
    const model = await CrossEncoder.load({ ...files, workers });
    try {
      const out = await model.rerank("ranking query", documents, { topK: null, maxDocuments: 5, batchSize: 2 });
      assert.equal(out.length, documents.length);
      await assertPartial(model, out, [0, 1, 2, 3, 4]);
      // topK counts the unscored ones too
      const top = await model.rerank("ranking query", documents, { topK: 7, maxDocuments: 5 });
      assert.equal(top.length, 7);
      await assertPartial(model, top, [0, 1, 2, 3, 4], 7);
      // more than there are: all scored, as a plain rerank, each saying so
      const all = await model.rerank("ranking query", documents, { topK: null, maxDocuments: 100 });
      assert.deepEqual(all.map(({ index, score }) => ({ index, score })), await model.rerank("ranking query", documents, { topK: null }));
      assert.ok(all.every((r) => r.scored === true));
    } finally {
      model.free();
    }
  }
});

test("deadlineMs with an injected clock: no batch starts past the deadline or when the longest batch would end past it", async () => {
  const model = await CrossEncoder.load(files);
  try {
    for (const [deadlineMs, batchesRun] of [[0, 0], [99, 1], [100, 1], [250, 2], [1000, 6]]) {
      let now = 0;
      const clock = () => now;
      // every batch takes 100 ms on this clock (the step is taken when the batch reports its progress)
      const out = await model.rerank("ranking query", documents, { topK: null, batchSize: 2, deadlineMs, clock, onProgress: () => (now += 100) });
      assert.equal(out.length, documents.length, `deadline ${deadlineMs}`);
      // batches follow the caller's order under a deadline: batch k holds documents 2k and 2k+1
      await assertPartial(model, out, Array.from({ length: 2 * batchesRun }, (_, i) => i));
    }
    // a budget that was spent before the call started scoring (here: by the clock itself) scores nothing
    let t = 0;
    const late = await model.rerank("ranking query", documents, { deadlineMs: 50, clock: () => (t += 60), topK: null });
    assert.ok(late.every((r) => r.scored === false) && late.map((r) => r.index).join() === documents.map((_, i) => i).join());
  } finally {
    model.free();
  }
});

test("deadlineMs in a pool: the scored documents are a head of the caller's list, scored as inline scores them", async () => {
  const model = await CrossEncoder.load({ ...files, workers: 2 });
  try {
    let now = 0;
    const out = await model.rerank("ranking query", documents, { topK: null, batchSize: 2, deadlineMs: 350, clock: () => now, onProgress: () => (now += 100) });
    const scored = out.filter((r) => r.scored).map((r) => r.index).sort((a, b) => a - b);
    assert.ok(scored.length >= 2 && scored.length < documents.length, `${scored.length} scored`);
    assert.deepEqual(scored, scored.map((_, i) => i), "a head of the list");
    await assertPartial(model, out, scored);
  } finally {
    model.free();
  }
});

test("bad maxDocuments, deadlineMs and clock values are INVALID_ARGUMENT naming the option; the model keeps working", async () => {
  const model = await CrossEncoder.load(files);
  try {
    for (const deadlineMs of [-1, Number.NaN, Infinity, "10", {}]) {
      await assert.rejects(model.rerank("q", documents, { deadlineMs }), invalid("deadlineMs"), String(deadlineMs));
    }
    for (const maxDocuments of [-1, 1.5, "3"]) {
      await assert.rejects(model.rerank("q", documents, { maxDocuments }), invalid("maxDocuments"), String(maxDocuments));
    }
    await assert.rejects(model.rerank("q", documents, { deadlineMs: 10, clock: 5 }), invalid("clock"));
    // only rerank has a deadline: score refuses the key as an unknown option
    await assert.rejects(model.score([["q", "d"]], { clock: () => 0 }), (e) => e instanceof RerankitError && e.code === "INVALID_ARGUMENT" && /clock/.test(e.message));
    const plain = await model.rerank("q", documents);
    assert.ok(plain.every((r) => !("scored" in r)), "no scored flag without maxDocuments or deadlineMs");
  } finally {
    model.free();
  }
});
