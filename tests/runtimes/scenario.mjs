// The same checks in every runtime: ids, evaluate and rerank through the package's public entry point.
// Runtime harnesses (Deno, workerd, Chromium) run `scenario` and return its JSON; tests/runtimes/runtimes.test.mjs
// compares each with the result of the Node entry.

/** The model every runtime loads (from RERANKIT_MODELS): the int8 export, as a Worker would ship it. */
export const MODEL = "ce-probe";
export const MODEL_FILE = "model.onnx";

export const QUERY = "Does vitamin D supplementation reduce the risk of fractures?";
export const DOCUMENTS = [
  "Bananas are rich in potassium and are a popular snack among athletes.",
  "In a meta-analysis of randomised trials, vitamin D supplementation alone did not reduce hip or total fractures in older adults.",
  "Daily vitamin D with calcium reduced the incidence of hip fractures among elderly women living in nursing homes.",
  "The study measured blood pressure in adolescents who drank coffee.",
  "Vitamin D receptor polymorphisms were associated with bone mineral density in postmenopausal women.",
];
export const QRELS = { q1: { d2: 2, d3: 1, d5: 1 }, q2: { a: 1 } };
export const RUN = { q1: { d1: 0.9, d2: 0.8, d3: 0.3, d4: 0.2, d5: 0.1 }, q2: { b: 2.0, a: 1.0 } };
export const MEASURES = ["ndcg_cut_10", "map", "recip_rank", "P_5", "recall_100"];
// SQuAD's exact match and F1 of one answer (rerankit/pipeline-eval in Deno)
export const SQUAD_GOLD = "The Eiffel Tower";
export const SQUAD_PREDICTION = "eiffel tower in Paris";

/**
 * @param rr the imported package (`import * as rr from "rerankit"`)
 * @param model `{model, tokenizer}`: whatever `CrossEncoder.load` accepts in this runtime (path, URL or bytes)
 */
export async function scenario(rr, model) {
  const ids = DOCUMENTS.map((content) => new rr.Document({ content }).id);
  const evaluation = rr.evaluate(QRELS, RUN, MEASURES);
  const t0 = Date.now();
  const ranker = await rr.CrossEncoder.load(model);
  const loadMs = Date.now() - t0;
  const reranked = await ranker.rerank(QUERY, DOCUMENTS, { topK: null });
  let errorCode = null;
  try {
    new rr.Document({ content: 42 });
  } catch (e) {
    errorCode = e instanceof rr.RerankitError ? e.code : `not a RerankitError: ${e}`;
  }
  // the worker pool (pkg/models/pool.ts): two workers rank as the caller's thread does, bit for bit (batches of 2: three
  // batches, both workers busy)
  const pooled = await rr.CrossEncoder.load({ ...model, workers: 2 });
  const small = { topK: null, batchSize: 2 };
  const poolSame = JSON.stringify(await pooled.rerank(QUERY, DOCUMENTS, small)) === JSON.stringify(await ranker.rerank(QUERY, DOCUMENTS, small));
  pooled.free();
  return {
    ids,
    aggregate: evaluation.aggregate,
    rerank: reranked.map((r) => ({ index: r.index, score: r.score })),
    errorCode,
    loadMs,
    poolSame,
    // which of the two model modules the runtime loaded (pkg/runtimes/wasm_simd.ts)
    simd: rr.wasmSimd(),
  };
}

/** A repo of tests/fixtures/hub, loaded by id from the local Hub-shaped server (tests/node/hub_server.mjs). */
export const PRETRAINED_ID = "rerankit-test/tiny-bert-reranker";
export const PRETRAINED_PAIRS = [["what is the capital of france", "Paris is the capital of France."], ["emoji 🙂", "日本語 and français"]];

/** `CrossEncoder.fromPretrained` by id from the Hub at `remoteHost`: the fp32 logits of PRETRAINED_PAIRS. */
export async function pretrained(rr, remoteHost) {
  const ranker = await rr.CrossEncoder.fromPretrained(PRETRAINED_ID, { remoteHost, dtype: "fp32", cache: false });
  const logits = Array.from(await ranker.score(PRETRAINED_PAIRS));
  ranker.free();
  return logits;
}

/**
 * Cold start in one runtime (bench/runtimes.mjs): instantiate (import the package entry: compile + instantiate the
 * wasm), model load (read/fetch + parse + optimise), then one rerank of `documents`. Times in ms.
 * @param importPackage `() => import("rerankit")` as this runtime resolves it
 */
export async function coldStart(importPackage, model, query, documents) {
  const t0 = performance.now();
  const rr = await importPackage();
  const t1 = performance.now();
  const ranker = await rr.CrossEncoder.load(model);
  const t2 = performance.now();
  const results = await ranker.rerank(query, documents, { topK: null });
  const t3 = performance.now();
  return {
    instantiateMs: t1 - t0,
    loadMs: t2 - t1,
    rerankMs: t3 - t2,
    wasmMemoryBytes: rr.wasmMemoryBytes(),
    top3: results.slice(0, 3).map((r) => r.index),
  };
}
