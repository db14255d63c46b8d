// The fuzzer's targets (tests/fuzz/api.mjs): every exported function and class method of `rerankit`, each with
// a valid argument list (the fuzzer makes one or two of them hostile) and, for methods, the object it runs on
// and a health check (the same object must still answer a valid call after an error).
import { readFileSync } from "node:fs";
import util from "node:util";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const fixture = (rel) => path.join(repo, "tests/fixtures", rel);
const hub = (name, file) => fixture(`hub/rerankit-test/${name}/${file}`);

const QRELS = "q1 0 d1 1\nq1 0 d2 0\nq1 0 d3 2\nq2 0 d4 1\n";
const RUN = "q1 Q0 d1 1 2.5 r\nq1 Q0 d3 2 1.5 r\nq1 Q0 d2 3 0.5 r\nq2 Q0 d4 1 1 r\nq2 Q0 d5 2 0.5 r\n";
const docs = () => [
  { content: "the cat sat", score: 0.9, meta: { date: "2021-05-01", source: "a" }, embedding: [1, 0, 0] },
  { content: "a dog ran", score: 0.5, meta: { date: "2023-01-01T10:00:00Z", source: "b" }, embedding: [0, 1, 0] },
  { content: "birds fly", score: 0.1, meta: { date: "May 1, 2020", source: "c" }, embedding: [0.5, 0.5, 0] },
];

function haystackInput() {
  const full = JSON.parse(readFileSync(fixture("haystack/eval_input.json"), "utf8"));
  const n = 2;
  const nodes = {
    Retriever: { documents: full.nodes.Retriever.documents.slice(0, n).map((d) => d.slice(0, 3)) },
    Reader: Object.fromEntries(Object.entries(full.nodes.Reader).map(([k, v]) => [k, v.slice(0, n).map((a) => a.slice(0, 3))])),
  };
  return { queries: full.queries.slice(0, n), labels: full.labels.slice(0, n).map((l) => l.slice(0, 2)), nodes };
}

const agentCase = (name) => readFileSync(fixture(`graphrag_eval/cases/${name}`), "utf8");
const squad = () => ({
  dataset: { version: "1.1", data: [{ title: "t", paragraphs: [{ context: "The cat sat.", qas: [{ id: "1", question: "Who sat?", answers: [{ text: "The cat", answer_start: 0 }] }] }] }] },
  predictions: { 1: "the cat" },
});

/** A plain object the target may spread (a hostile string or array goes to the API untouched). */
const plain = (o) => o !== null && typeof o === "object" && Object.getPrototypeOf(o) === Object.prototype && !util.types.isProxy(o);

export async function load(R) {
  const ceFiles = { model: hub("tiny-bert-reranker", "onnx/model.onnx"), tokenizer: hub("tiny-bert-reranker", "tokenizer.json"), config: hub("tiny-bert-reranker", "config.json") };
  const embFiles = { model: hub("tiny-bert-embedder", "onnx/model.onnx"), tokenizer: hub("tiny-bert-embedder", "tokenizer.json"), config: hub("tiny-bert-embedder", "config.json") };
  const models = { ce: await R.CrossEncoder.load(ceFiles), emb: await R.Embedder.load(embFiles) };
  const reload = async () => {
    for (const m of Object.values(models)) try { m.free(); } catch { /* released by a restart */ }
    models.ce = await R.CrossEncoder.load(ceFiles);
    models.emb = await R.Embedder.load(embFiles);
  };
  const ceHealth = async () => {
    const r = await models.ce.rerank("cat", ["the cat sat", "a dog"]);
    if (r.length !== 2) throw new Error("rerank after the error returned " + r.length + " results");
  };
  const embHealth = async () => {
    const e = await models.emb.embed(["a text"]);
    if (e.length !== 1) throw new Error("embed after the error returned " + e.length);
  };
  const parsedQrels = () => R.parseQrels(QRELS);
  const parsedRun = () => R.parseRun(RUN);
  const agentRef = agentCase("upstream_steps_1.reference.json");
  const agentResp = agentCase("upstream_steps_1.responses.json");
  const input = haystackInput();
  const built = R.EvaluationResult.build(input);
  const csv = built.toCsvFiles();

  // hosted rankers, offline: a fetch that answers like Cohere's API and a fake Workers AI binding
  const cohereFetch = async (url, init) => {
    const body = JSON.parse(init.body);
    const results = body.documents.map((_, index) => ({ index, relevance_score: 1 / (1 + index) })).slice(0, body.top_n ?? body.documents.length);
    return new Response(JSON.stringify({ results }), { status: 200, headers: { "content-type": "application/json" } });
  };
  const fakeAi = { run: async (model, input) => ({ response: input.contexts.map((_, id) => ({ id, score: 1 / (1 + id) })).slice(0, input.top_k) }) };
  const cohere = () => new R.CohereRanker({ apiKey: "key", model: "rerank-v3.5", fetch: cohereFetch, embedMetaFields: ["x"], maxRetries: 0 });
  const failing = { rerank: async () => { throw new R.RerankitError("primary: HTTP 503", "REMOTE"); }, rerankBatch: async () => { throw new Error("down"); } };
  const hostedHealth = async () => {
    const r = await cohere().rerank("cat", ["the cat sat", "a dog"]);
    if (r.length !== 2) throw new Error("CohereRanker after the error returned " + r.length + " results");
  };

  const targets = [
    // documents
    { name: "new Document", args: () => [{ content: "text", meta: { a: 1 }, score: 0.5, embedding: [1, 2] }], call: (a) => new R.Document(a) },
    { name: "Document.fromDict", args: () => [{ content: "t", meta: {}, id_hash_keys: ["content"] }, { content: "text" }, ["content"]], call: (a, b, c) => R.Document.fromDict(a, b, c) },
    { name: "Document.fromStandardDict", args: () => [{ content: "t", content_type: "text", meta: {}, id_hash_keys: ["content"], score: null, embedding: null, id: "x" }], call: (a) => R.Document.fromStandardDict(a) },
    { name: "Document#toDict", args: () => [{ content: "text" }, { embedding: [1, 2, 3] }], call: (fieldMap, change) => { const d = new R.Document({ content: "x" }); Object.assign(d, change); return d.toDict(fieldMap); } },
    { name: "Document#toJSON", args: () => [{ embedding: [1, 2], meta: { a: [1] } }], call: (change) => { const d = new R.Document({ content: "x" }); Object.assign(d, change); return JSON.stringify(d); } },
    { name: "Label.fromDict", args: () => [{ query: "q", document: { content: "d" }, is_correct_answer: true, is_correct_document: true, origin: "gold-label", answer: { answer: "d" } }], call: (a) => R.Label.fromDict(a) },
    { name: "new MultiLabel", args: () => [[{ query: "q", document: { content: "d" }, is_correct_answer: true, is_correct_document: true, origin: "gold-label" }], { dropNegativeLabels: true }], call: (a, b) => new R.MultiLabel(a, b) },
    // metrics
    { name: "evaluate (text)", args: () => [QRELS, RUN, ["map", "ndcg_cut.10", "P_5"], { maxResults: 100 }], call: (a, b, c, d) => R.evaluate(a, b, c, d) },
    { name: "evaluate (objects)", args: () => [{ q1: { d1: 1, d2: 0 }, q2: { d4: 1 } }, { q1: { d1: 2.5, d2: 0.5 }, q2: { d4: 1 } }, ["nDCG@10", "R@100", "MRR"], { judgedOnly: false }], call: (a, b, c, d) => R.evaluate(a, b, c, d) },
    { name: "parseQrels", args: () => [QRELS], call: (a) => R.parseQrels(a).free() },
    { name: "parseRun", args: () => [RUN, { keepFirstDuplicate: true }], call: (a, b) => R.parseRun(a, b).free() },
    { name: "evaluate (parsed)", args: () => [["map"], { maxResults: 10 }], call: (m, o) => { const q = parsedQrels(), r = parsedRun(); try { return R.evaluate(q, r, m, o); } finally { q.free(); r.free(); } } },
    { name: "defineByQuery + evaluate", args: () => [(qrels, run) => run.length, { name: "len" }, 3, { ties: "input" }], call: (f, o, k, e) => R.evaluate(QRELS, RUN, ["P_5", R.defineByQuery(f, o).at(k)], e) },
    { name: "define + evaluate", args: () => [(qrels, run) => run.map((d) => [d.queryId, d.score]).filter((p, i, all) => all.findIndex((x) => x[0] === p[0]) === i), { name: "top", supportCutoff: true }], call: (f, o) => R.evaluate(QRELS, RUN, [R.define(f, o)]) },
    { name: "compareRuns", args: () => [QRELS, RUN, RUN.replace("2.5", "0.1"), ["map", "P_5"], { nPermutations: 100, randomSeed: 7 }], call: (a, b, c, d, e) => R.compareRuns(a, b, c, d, e) },
    { name: "compareRuns (N runs) + report", args: () => [QRELS, [RUN, RUN.replace("2.5", "0.1"), RUN], ["map", "P_5"], { statTest: "fisher", nPermutations: 50, randomSeed: 7, maxP: 0.05 }, "latex", { digits: 4 }], call: (a, b, c, d, f, g) => { const r = R.compareRuns(a, b, c, d); try { return r.report(f, g); } finally { r.free(); } } },
    { name: "optimizeFusion", args: () => [{ q1: { d1: 1 }, q2: { d4: 1 } }, [{ q1: { d1: 2.5, d2: 0.5 }, q2: { d4: 1 } }, { q1: { d2: 3 }, q2: { d4: 0.2, d1: 0.1 } }], { method: "wsum", metric: "ndcg@10", step: 0.25 }], call: (a, b, c) => R.optimizeFusion(a, b, c) },
    { name: "trecEvalReport", args: () => [["-m", "map", "-q"], new TextEncoder().encode(QRELS), new TextEncoder().encode(RUN)], call: (a, b, c) => R.trecEvalReport?.(a, b, c) },
    // rankers
    { name: "new RecentnessRanker + run", args: () => [{ dateMetaField: "date", weight: 0.5, topK: 2, rankingMode: "reciprocal_rank_fusion" }, docs()], call: (o, d) => new R.RecentnessRanker(plain(o) ? { ...o, onWarning: () => {} } : o).run(d) },
    { name: "new LostInTheMiddleRanker + run", args: () => [{ wordCountThreshold: 10, topK: 3 }, docs()], call: (o, d) => new R.LostInTheMiddleRanker(o).run(d) },
    { name: "DiversityRanker#rank", args: () => [{ topK: 2, similarity: "cosine" }, [1, 0, 0], docs()], call: (o, q, d) => new R.DiversityRanker(o).rank(q, d) },
    { name: "DiversityRanker#run (embedder)", args: () => [{ topK: 2 }, "cat", docs()], call: (o, q, d) => new R.DiversityRanker(plain(o) ? { ...o, embedder: models.emb } : o).run(q, d) },
    { name: "fuse", args: () => [[{ q1: { d1: 1, d2: 0.5 } }, { q1: { d2: 2, d3: 1 }, q2: { d1: 1 } }], { method: "rrf", k: 60 }], call: (a, b) => R.fuse(a, b) },
    { name: "fuse (weighted)", args: () => [[{ q1: { d1: 1, d2: 0.5 } }, { q1: { d2: 2, d3: 1 } }], { method: "wsum", norm: "min-max", weights: [1, 2] }], call: (a, b) => R.fuse(a, b) },
    { name: "adaptiveWeight", args: () => [[0.9, 0.5, 0.1], [0.2, 0.8, 0.4], { error: "mse" }], call: (a, b, c) => R.adaptiveWeight(a, b, c) },
    { name: "combineScores", args: () => [[0.9, 0.5, 0.1], [0.2, 0.8, 0.4], { weight: 0.5 }], call: (a, b, c) => R.combineScores(a, b, c) },
    { name: "adaptiveRerank", args: () => [docs(), [0.2, 0.8, 0.4], { topK: 2 }], call: (a, b, c) => R.adaptiveRerank(a, b, c) },
    { name: "new CohereRanker", args: () => [{ apiKey: "key", model: "rerank-v3.5", topK: 2, maxChunksPerDoc: 3, embedMetaFields: ["x"], baseUrl: "http://127.0.0.1:9", maxRetries: 1, retryDelayMs: 1 }], call: (o) => new R.CohereRanker(o) },
    { name: "CohereRanker#rerank", args: () => ["cat", ["the cat sat", { content: "a dog", meta: { x: [1, "a"] } }], { topK: 1, returnDocuments: true, signal: new AbortController().signal }], call: (q, d, o) => cohere().rerank(q, d, o), health: hostedHealth },
    { name: "CohereRanker#rerankBatch", args: () => [["cat", "dog"], [["the cat sat", "a dog"], [{ content: "a dog ran", meta: { x: 2 } }]], { topK: 1 }], call: (q, d, o) => cohere().rerankBatch(q, d, o), health: hostedHealth },
    { name: "new HttpRanker + rerank", args: () => [{ baseUrl: "http://127.0.0.1:9", api: null, model: "m", topK: 2, headers: { "x-key": "value" }, maxDocumentsPerRequest: 1 }, "cat", ["the cat sat", "a dog"]], call: (o, q, d) => new R.HttpRanker(plain(o) && o.api === null ? { ...o, api: R.rerankApis.cohere, fetch: cohereFetch } : o).rerank(q, d) },
    { name: "new WorkersAiRanker + rerank", args: () => [{ ai: null, model: "@cf/baai/bge-reranker-base", topK: 2 }, "cat", ["the cat sat", "a dog"], { topK: 1 }], call: (o, q, d, c) => new R.WorkersAiRanker(plain(o) && o.ai === null ? { ...o, ai: fakeAi } : o).rerank(q, d, c) },
    { name: "withFallback + rerank", args: () => [{ timeoutMs: 1000, onWarning: null, fallbackOptions: { batchSize: 2 } }, "cat", ["the cat sat", "a dog"], { topK: 1 }], call: (o, q, d, c) => R.withFallback(failing, models.ce, plain(o) && o.onWarning === null ? { ...o, onWarning: () => {} } : o).rerank(q, d, c), health: ceHealth },
    { name: "rerankPipeline", args: () => ["cat", docs(), { topK: 2, crossEncoder: null }], call: (q, d, o) => R.rerankPipeline(q, d, plain(o) && o.crossEncoder === null ? { ...o, crossEncoder: models.ce } : o) },
    { name: "Pipeline#run", args: () => [docs(), 2], call: (d, k) => new R.Pipeline([new R.LostInTheMiddleRanker({ topK: k })]).run(d) },
    { name: "new Pipeline", args: () => [[{ name: "litm", step: null }, (docs) => docs]], call: (steps) => new R.Pipeline(Array.isArray(steps) && steps.length < 10 ? steps.map((s) => (s && typeof s === "object" && s.step === null ? { ...s, step: new R.LostInTheMiddleRanker({}) } : s)) : steps) },
    // Haystack evaluation
    { name: "EvaluationResult.build", args: () => [structuredClone(input), { contextMatching: { threshold: 65 } }], call: (a, b) => R.EvaluationResult.build(a, b).free() },
    { name: "EvaluationResult.fromCsv", args: () => [{ ...csv }], call: (a) => R.EvaluationResult.fromCsv(a).free() },
    { name: "EvaluationResult.fromJSON", args: () => [built.toJSON()], call: (a) => R.EvaluationResult.fromJSON(a).free() },
    { name: "EvaluationResult#nodeResults", args: () => ["Retriever"], call: (n) => built.nodeResults(n), health: () => built.calculateMetrics() },
    { name: "EvaluationResult#calculateMetrics", args: () => [{ simulatedTopKRetriever: 2, docRelevanceCol: "gold_id_match", evalMode: "integrated" }], call: (o) => built.calculateMetrics(o), health: () => built.calculateMetrics() },
    { name: "EvaluationResult#wrongExamples", args: () => ["Retriever", { n: 2, documentMetric: "recall_single_hit" }], call: (n, o) => built.wrongExamples(n, o), health: () => built.wrongExamples("Retriever") },
    { name: "EvaluationResult#toCsv", args: () => ["Reader"], call: (n) => built.toCsv(n), health: () => built.toCsv("Reader") },
    { name: "EvaluationResult#addSas", args: () => [null, { batchSize: 8 }], call: async (m, o) => { const r = R.EvaluationResult.build(input); try { await r.addSas(m === null ? models.emb : m, o); } finally { r.free(); } } },
    { name: "squadEvaluate", args: () => [squad().dataset, squad().predictions, { version: "1.1" }], call: (a, b, c) => R.squadEvaluate(a, b, c) },
    { name: "normalizeAnswer", args: () => ["The Cat!"], call: (a) => R.normalizeAnswer(a) },
    { name: "squadScores", args: () => ["the cat", "a cat"], call: (a, b) => R.squadScores(a, b) },
    // agent evaluation
    { name: "evaluateAgent", args: () => [agentRef, agentResp], call: (a, b, c) => R.evaluateAgent(a, b, c) },
    { name: "evaluateAgent (judge)", args: () => [agentRef, agentResp, { config: null }], call: (a, b, c) => R.evaluateAgent(a, b, plain(c) ? { ...c, config: c.config ?? undefined, judge: async () => ({ text: "1" }) } : c) },
    { name: "agentJudgePrompts", args: () => [agentRef, agentResp], call: (a, b, c) => R.agentJudgePrompts(a, b, c) },
    { name: "aggregateAgent", args: () => [R.evaluateAgent(agentRef, agentResp), {}], call: (a, b) => R.aggregateAgent(a, b) },
    { name: "agentToYaml", args: () => [{ a: [1, "x"], b: null }], call: (a) => R.agentToYaml(a) },
    // models
    { name: "CrossEncoder.load", args: () => [{ ...ceFiles, maxLength: 64, device: "cpu", workers: 0 }], call: async (o) => (await R.CrossEncoder.load(o)).free() },
    { name: "CrossEncoder#rerank", args: () => ["cat", ["the cat sat", { content: "a dog", meta: { x: 1 } }], { topK: 1, batchSize: 2, signal: new AbortController().signal, onProgress: () => {} }], call: (q, d, o) => models.ce.rerank(q, d, o), health: ceHealth },
    { name: "CrossEncoder#rerankBatch", args: () => [["cat", "dog"], [["the cat sat", "a dog"], ["a dog ran"]], { topK: 1 }], call: (q, d, o) => models.ce.rerankBatch(q, d, o), health: ceHealth },
    { name: "CrossEncoder#score", args: () => [[["q", "a document"], ["\u200b", "\ufeff"]], { batchSize: 2, onProgress: () => {} }], call: (p, o) => models.ce.score(p, o), health: ceHealth },
    { name: "CrossEncoder#sasScores", args: () => [[["a", "b"]], 8], call: (p, b) => models.ce.sasScores(p, b), health: ceHealth },
    { name: "CrossEncoder#encodePair", args: () => ["q", "doc"], call: (q, d) => models.ce.encodePair(q, d), health: ceHealth },
    { name: "Embedder.load", args: () => [{ ...embFiles, pooling: "mean", maxLength: 64, workers: 0 }], call: async (o) => (await R.Embedder.load(o)).free() },
    { name: "Embedder#embed", args: () => [["a text", "another"], { normalize: true, batchSize: 2, signal: new AbortController().signal }], call: (t, o) => models.emb.embed(t, o), health: embHealth },
    { name: "Embedder#sasScores", args: () => [[["a", "b"]], 8], call: (p, b) => models.emb.sasScores(p, b), health: embHealth },
  ].map((t) => ({ ...t, reset: reload }));

  /** The package (and the target's object) still work: null, or what broke. */
  async function healthy(t) {
    try {
      const e = R.evaluate(QRELS, RUN, ["map"]);
      if (!(e.aggregate.map > 0)) return "evaluate after the error gave " + JSON.stringify(e);
      await t.health?.();
      return null;
    } catch (e) {
      return `${e?.constructor?.name}: ${String(e?.message ?? e).slice(0, 300)}`;
    }
  }
  return { targets, healthy };
}
