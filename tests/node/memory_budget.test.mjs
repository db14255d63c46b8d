// `memoryBudgetMiB` (issue #42 part 2): a model loaded with a budget runs each batch with as many rows as fit
// beside what is held, so the instance's wasm memory stays within the budget; a budget that cannot hold the model
// and one full-window row is refused at load, naming the option. The rule: src/inference/memory_budget.rs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { CrossEncoder, RerankitError, wasmMemoryBytes } from "rerankit";
import { SMALL_CE as files, longDocuments } from "./small_cross_encoder.mjs";

const MiB = 2 ** 20;
// 16 documents that fill the 512-token window, and 8 short ones
const long = longDocuments(16, 7);
const short = long.slice(0, 8).map((d) => d.split(" ").slice(0, 20).join(" "));
/** The rerank of every long and short document, one chunk each, and the rows each batch ran. */
async function rerankAll(model) {
  const batches = [];
  let done = 0;
  const out = await model.rerank("ranking query", [...long, ...short], {
    topK: null,
    maxChunksPerDoc: 1,
    onProgress: (p) => (batches.push(p.done - done), (done = p.done)),
  });
  return { out, batches };
}

/** `out` ranks as one row per batch does, to float rounding. */
async function assertRanksAsSingleRows(model, out) {
  const reference = await model.rerank("ranking query", [...long, ...short], { topK: null, batchSize: 1, maxChunksPerDoc: 1 });
  assert.deepEqual(out.map((r) => r.index), reference.map((r) => r.index));
  out.forEach((r, i) => assert.ok(Math.abs(r.score - reference[i].score) <= 1e-6, `${r.score} vs ${reference[i].score}`));
}

const tooSmall = (e) => e instanceof RerankitError && e.code === "INVALID_ARGUMENT" && e.message.startsWith("memoryBudgetMiB: too small");

test("memoryBudgetMiB: batches shrink to fit, the wasm memory stays within the budget, the scores are the unbudgeted ones", async () => {
  // first in a fresh process: the load leaves ~38 MiB (12 MiB of weights, their first copies freed once packed),
  // so 48 MiB leaves ~9 MiB for a batch, where 16 full-window rows need ~29
  const budget = 48;
  const model = await CrossEncoder.load({ ...files, memoryBudgetMiB: budget });
  const { out, batches } = await rerankAll(model);
  assert.ok(wasmMemoryBytes() <= budget * MiB, `wasm memory ${wasmMemoryBytes() / MiB} MiB > budget ${budget} MiB`);
  // the full-window rows run a few at a time (batches take the longest rows first)
  assert.ok(batches.length > 2 && batches.every((n) => n < 16), `batches ${batches}`);
  model.free();

  const unbudgeted = await CrossEncoder.load(files);
  await assertRanksAsSingleRows(unbudgeted, out);
  unbudgeted.free();
});

test("memoryBudgetMiB: a budget that cannot hold the model and one full-window row is refused at load, and the package keeps working", async () => {
  const model = await CrossEncoder.load({ ...files, memoryBudgetMiB: 4096 });
  const loaded = Math.ceil(wasmMemoryBytes() / MiB);
  model.free();
  // the loaded model fits, a 512-token row does not
  await assert.rejects(CrossEncoder.load({ ...files, memoryBudgetMiB: loaded + 1 }), tooSmall);
  // the load itself does not fit
  await assert.rejects(CrossEncoder.load({ ...files, memoryBudgetMiB: 1 }), tooSmall);
  // a shorter window needs less: 64-token rows fit
  const short64 = await CrossEncoder.load({ ...files, memoryBudgetMiB: loaded + 2, maxLength: 64 });
  assert.equal((await short64.rerank("ranking query", short, { topK: 3 })).length, 3);
  short64.free();
});

test("memoryBudgetMiB: a value that is not a positive finite number of MiB is refused, naming the option", async () => {
  for (const bad of [0, -5, Number.NaN, Number.POSITIVE_INFINITY, "64", true]) {
    await assert.rejects(
      CrossEncoder.load({ ...files, memoryBudgetMiB: bad }),
      (e) => e instanceof RerankitError && e.code === "INVALID_ARGUMENT" && /^(options\.)?memoryBudgetMiB: /.test(e.message),
      String(bad),
    );
  }
});

test("without a budget, full-window rows run fewer than batchSize per batch (activations within 16 MiB), with the scores of single rows", async () => {
  // small-ce-1 (hidden 96, feed-forward 384): a 512-token row's feed-forward block costs 1.7 MiB, so 16 MiB holds 9
  // such rows (src/inference/memory_budget.rs); the batches take the longest rows first, each padded to its first
  const model = await CrossEncoder.load(files);
  const { out, batches } = await rerankAll(model);
  assert.deepEqual(batches, [9, 9, 6]);
  await assertRanksAsSingleRows(model, out);
  model.free();
});
