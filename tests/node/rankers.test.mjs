// The model-free rankers through the built package, imported by name exactly as users do (docs/parity.md §3–§6).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  Document, RerankitError, RecentnessRanker, LostInTheMiddleRanker, DiversityRanker, Pipeline,
  fuse, optimizeFusion, adaptiveWeight, combineScores, adaptiveRerank,
} from "rerankit";

const close = (a, b, tol = 1e-15) => assert.ok(Math.abs(a - b) <= tol, `${a} vs ${b}`);
const throwsCode = (fn, code, message) =>
  assert.throws(fn, (err) => {
    assert.ok(err instanceof RerankitError, `expected RerankitError, got ${err}`);
    assert.equal(err.code, code);
    assert.match(err.message, message);
    return true;
  });

const goldenDocs = () => [
  new Document({ content: "one", id: "d1", score: 0.9, meta: { date: "2021-05-01" } }),
  new Document({ content: "two", id: "d2", score: 0.8, meta: { date: "2023-01-15" } }),
  new Document({ content: "three", id: "d3", score: 0.4, meta: { date: "2019-12-31" } }),
  new Document({ content: "four", id: "d4", score: 0.3, meta: { date: "2024-02-29T10:00:00Z" } }),
];

test("RecentnessRanker: docs/parity.md §3 goldens", () => {
  const cases = [
    ["reciprocal_rank_fusion", 0.5, [["d1", 0.016133229247983348], ["d2", 0.016129032258064516], ["d4", 0.016009221311475412], ["d3", 0.015749007936507936]]],
    ["reciprocal_rank_fusion", 0.0, [["d1", 0.01639344262295082], ["d2", 0.016129032258064516], ["d3", 0.015873015873015872], ["d4", 0.015625]]],
    ["reciprocal_rank_fusion", 1.0, [["d4", 0.01639344262295082], ["d2", 0.016129032258064516], ["d1", 0.015873015873015872], ["d3", 0.015625]]],
    ["score", 0.5, [["d2", 0.775], ["d1", 0.7], ["d4", 0.65], ["d3", 0.325]]],
    ["score", 1.0, [["d4", 1.0], ["d2", 0.75], ["d1", 0.5], ["d3", 0.25]]],
  ];
  for (const [rankingMode, weight, want] of cases) {
    const input = goldenDocs();
    const out = new RecentnessRanker({ dateMetaField: "date", weight, rankingMode }).run(input);
    assert.deepEqual(out.map((d) => d.id), want.map(([id]) => id), `${rankingMode} ${weight}`);
    out.forEach((d, i) => close(d.score, want[i][1]));
    assert.ok(out[0] instanceof Document);
    assert.equal(input[0].score, 0.9, "inputs are not mutated");
  }
});

test("RecentnessRanker: topK, lists of lists, plain objects, Date values", () => {
  const ranker = new RecentnessRanker({ dateMetaField: "date", weight: 1, topK: 2 });
  assert.deepEqual(ranker.run(goldenDocs()).map((d) => d.id), ["d4", "d2"]);
  const lists = ranker.run([goldenDocs(), [], [{ content: "x", id: "x", meta: { date: new Date("2020-01-01") } }, { content: "y", id: "y", meta: { date: 1700000000 } }]]);
  assert.equal(lists.length, 3);
  assert.deepEqual(lists.map((l) => l.map((d) => d.id)), [["d4", "d2"], [], ["y", "x"]]);
  assert.deepEqual(ranker.run([]), []);
});

test("RecentnessRanker: unparsable dates keep the list and warn; missing dates throw naming ids", () => {
  const warnings = [];
  const ranker = new RecentnessRanker({ dateMetaField: "date", weight: 1, topK: 1, onWarning: (m) => warnings.push(m) });
  const docs = goldenDocs();
  docs[1].meta = { date: "not a date" };
  const out = ranker.run(docs);
  assert.deepEqual(out.map((d) => d.id), ["d1", "d2", "d3", "d4"]);
  assert.equal(out[0].score, 0.9);
  assert.equal(warnings.length, 1);
  assert.match(warnings[0], /documents\[1\]\.meta\.date = "not a date"/);
  const { warnings: returned } = ranker.runWithWarnings(docs);
  assert.equal(returned.length, 1);

  const missing = goldenDocs();
  missing[2].meta = {};
  throwsCode(() => ranker.run(missing), "INVALID_ARGUMENT", /^documents\[2\]\.meta\.date: .*d3/);
  throwsCode(() => ranker.run([goldenDocs(), missing]), "INVALID_ARGUMENT", /^documents\[1\]\[2\]\.meta\.date/);
});

test("RecentnessRanker: score mode warns on scores outside [0, 1]", () => {
  const warnings = [];
  const docs = goldenDocs();
  docs[0].score = 3;
  new RecentnessRanker({ dateMetaField: "date", rankingMode: "score", onWarning: (m) => warnings.push(m) }).run(docs);
  assert.equal(warnings.length, 1);
  assert.match(warnings[0], /^documents\[0\]\.score: 3/);
});

test("RecentnessRanker: bad options", () => {
  throwsCode(() => new RecentnessRanker({ dateMetaField: "date", weight: 1.5 }), "INVALID_ARGUMENT", /^weight/);
  throwsCode(() => new RecentnessRanker({ dateMetaField: "date", rankingMode: "linear" }), "INVALID_ARGUMENT", /^rankingMode/);
  throwsCode(() => new RecentnessRanker({ weight: 0.5 }), "INVALID_ARGUMENT", /^dateMetaField/);
  throwsCode(() => new RecentnessRanker({ dateMetaField: "date", topK: 1.5 }), "INVALID_ARGUMENT", /^topK/);
  throwsCode(() => new RecentnessRanker({ dateMetaField: "date" }).run("nope"), "INVALID_ARGUMENT", /^documents/);
  throwsCode(() => new RecentnessRanker({ dateMetaField: "date" }).run([goldenDocs(), goldenDocs()[0]]), "INVALID_ARGUMENT", /mixes/);
});

const numbered = (n, words = 1) =>
  Array.from({ length: n }, (_, i) => new Document({ content: Array(words).fill(`w${i + 1}`).join(" "), id: String(i + 1), score: 1 / (i + 1) }));

test("LostInTheMiddleRanker: docs/parity.md §4 goldens", () => {
  const ids = (docs) => docs.map((d) => d.id).join(" ");
  assert.equal(ids(new LostInTheMiddleRanker().run(numbered(9))), "1 3 5 7 9 8 6 4 2");
  assert.equal(ids(new LostInTheMiddleRanker().run(numbered(10))), "1 3 5 7 9 10 8 6 4 2");
  assert.equal(ids(new LostInTheMiddleRanker({ wordCountThreshold: 45 }).run(numbered(9, 10))), "1 3 5 4 2");
  assert.equal(ids(new LostInTheMiddleRanker({ topK: 5 }).run(numbered(9))), "1 3 5 4 2");
  const cut = new LostInTheMiddleRanker({ wordCountThreshold: 45, truncateDocument: true }).run(numbered(9, 10));
  assert.equal(cut.find((d) => d.id === "5").content, "w5 w5 w5 w5 w5");
  assert.deepEqual(new LostInTheMiddleRanker().run([numbered(3), numbered(2)]).map(ids), ["1 3 2", "1 2"]);
  assert.equal(cut[0].score, 1, "scores kept");
});

test("LostInTheMiddleRanker: non-text documents and bad options", () => {
  const docs = [...numbered(2), new Document({ content: [["a"], ["1"]], contentType: "table", id: "t" })];
  throwsCode(() => new LostInTheMiddleRanker().run(docs), "INVALID_ARGUMENT", /^documents\[2\]\.content_type/);
  throwsCode(() => new LostInTheMiddleRanker({ wordCountThreshold: 0 }), "INVALID_ARGUMENT", /^wordCountThreshold/);
});

test("topK as Haystack 1.26 slices it (docs/parity.md §3–§5): negative drops from the end; 0 keeps all, or none for DiversityRanker", () => {
  const ids = (docs) => docs.map((d) => d.id).join(" ");
  assert.equal(ids(new LostInTheMiddleRanker({ topK: -2 }).run(numbered(9))), "1 3 5 7 6 4 2");
  assert.equal(ids(new LostInTheMiddleRanker({ topK: 0 }).run(numbered(9))), "1 3 5 7 9 8 6 4 2");
  assert.deepEqual(new LostInTheMiddleRanker({ topK: -9 }).run(numbered(9)), []);
  assert.equal(ids(new RecentnessRanker({ dateMetaField: "date", topK: -1 }).run(goldenDocs())), "d1 d2 d4");
  assert.equal(new RecentnessRanker({ dateMetaField: "date", topK: 0 }).run(goldenDocs()).length, 4);
  const docs = [[0.9, 0.1], [0.1, 0.9], [0.6, 0.6]].map((e, i) => new Document({ content: `doc ${i}`, id: `d${i}`, embedding: e }));
  assert.equal(new DiversityRanker({ topK: -1 }).rank([1, 0], docs).length, 2);
  assert.deepEqual(new DiversityRanker({ topK: 0 }).rank([1, 0], docs), []);
  assert.deepEqual(new DiversityRanker({ topK: -5 }).rank([1, 0], docs), []);
  for (const topK of [1.5, Number.NaN, Infinity, "2"]) {
    throwsCode(() => new LostInTheMiddleRanker({ topK }), "INVALID_ARGUMENT", /^topK/);
    throwsCode(() => new DiversityRanker({ topK }), "INVALID_ARGUMENT", /^topK/);
  }
  // Haystack's predict: "No documents to choose from"
  throwsCode(() => new DiversityRanker().rank([1, 0], []), "INVALID_ARGUMENT", /^documents: is empty/);
});

test("DiversityRanker: greedy and MMR on embeddings; score = similarity to the query", async () => {
  const vecs = [[0.9, 0.1], [0.8, 0.3], [0.1, 0.9], [0.85, 0.12]];
  const docs = vecs.map((e, i) => new Document({ content: `doc ${i}`, id: `d${i}`, embedding: e }));
  const greedy = new DiversityRanker({ similarity: "dot_product" }).run({ queryEmbedding: [1, 0] }, docs);
  assert.deepEqual(greedy.map((d) => d.id), ["d0", "d2", "d3", "d1"]);
  close(greedy[0].score, 0.9, 1e-7);
  const mmr = new DiversityRanker({ similarity: "dot_product", strategy: "mmr", lambda: 0.5, topK: 2 }).run([1, 0], docs);
  assert.deepEqual(mmr.map((d) => d.id), ["d0", "d3"]);
  const nested = await new DiversityRanker({ strategy: "mmr", lambda: 0 }).run([{ queryEmbedding: [1, 0] }, { queryEmbedding: [0, 1] }], [docs, docs]);
  assert.deepEqual(nested.map((l) => l[0].id), ["d0", "d2"]);
  const cosine = new DiversityRanker({ similarity: "cosine" }).rank(new Float32Array([0, 2]), docs);
  assert.equal(cosine[0].id, "d2");
  close(cosine[0].score, 0.9 / Math.hypot(0.1, 0.9), 1e-6);
});

test("DiversityRanker: an embedder fills in missing embeddings", async () => {
  const table = { alpha: [1, 0], beta: [0, 1], "alpha too": [0.9, 0.1], q: [1, 0] };
  const embedder = { embed: async (texts) => texts.map((t) => Float32Array.from(table[t])) };
  const docs = ["alpha", "beta", "alpha too"].map((c) => new Document({ content: c }));
  const out = await new DiversityRanker({ embedder, similarity: "cosine" }).run("q", docs);
  assert.deepEqual(out.map((d) => d.content), ["alpha", "beta", "alpha too"]);
  assert.ok(out[0].embedding instanceof Float32Array);
});

test("DiversityRanker: bad input", () => {
  const docs = [new Document({ content: "a", id: "a", embedding: [1, 0] }), new Document({ content: "b", id: "b" })];
  throwsCode(() => new DiversityRanker().run([1, 0], docs), "INVALID_ARGUMENT", /^documents\[1\]\.embedding/);
  throwsCode(() => new DiversityRanker().run("text query", docs.slice(0, 1)), "INVALID_ARGUMENT", /^query/);
  throwsCode(() => new DiversityRanker().rank([1, 0, 0], docs.slice(0, 1)), "INVALID_ARGUMENT", /^documents\[0\]\.embedding: has 2 dimensions/);
  throwsCode(() => new DiversityRanker({ strategy: "mmr", lambda: 2 }), "INVALID_ARGUMENT", /^lambda/);
  throwsCode(() => new DiversityRanker({ similarity: "l2" }), "INVALID_ARGUMENT", /^similarity/);
  throwsCode(() => new DiversityRanker({ similarity: "cosine" }).rank([0, 0], docs.slice(0, 1)), "INVALID_ARGUMENT", /^queryEmbedding: is a zero vector/);
});

test("fuse: ranx definitions, tie policy", () => {
  const runs = [{ q1: { c: 1, a: 3, b: 2 } }, { q1: { b: 0.9, c: 0.5, d: 0.1 } }];
  const rrf = fuse(runs, { method: "rrf" });
  assert.deepEqual(Object.keys(rrf.q1), ["b", "c", "a", "d"]);
  close(rrf.q1.b, 1 / 62 + 1 / 61);
  assert.deepEqual(fuse(runs), rrf, "rrf is the default");
  const mnz = fuse(runs, { method: "combmnz", norm: "min-max" });
  assert.deepEqual(mnz.q1, { b: 3, a: 1, c: 1, d: 0 });
  assert.deepEqual(Object.keys(mnz.q1), ["b", "a", "c", "d"]);
  assert.deepEqual(fuse(runs, { method: "combsum" }).q1, { b: 1.5, a: 1, c: 0.5, d: 0 });
  assert.deepEqual(Object.keys(fuse(runs, { method: "combmax" }).q1), ["a", "b", "c", "d"]);
  const wsum = fuse(runs, { method: "wsum", weights: [0.7, 0.3] });
  close(wsum.q1.b, 0.65, 1e-12);
  close(fuse(runs, { method: "combsum", norm: "zmuv" }).q1.a, 1 / Math.sqrt(2 / 3), 1e-12);
  assert.deepEqual(fuse(runs, { method: "combsum", norm: null }).q1, { a: 3, b: 2.9, c: 1.5, d: 0.1 });
});

test("fuse: bad input", () => {
  throwsCode(() => fuse([]), "INVALID_ARGUMENT", /^runs/);
  throwsCode(() => fuse([{ q1: { a: "x" } }]), "INVALID_ARGUMENT", /^runs\[0\]\.q1\.a/);
  throwsCode(() => fuse([{ q1: { a: NaN } }]), "INVALID_ARGUMENT", /^runs\[0\]\.q1\.a/);
  throwsCode(() => fuse([{ q1: { a: 1 } }], { method: "wsum" }), "INVALID_ARGUMENT", /^weights/);
  throwsCode(() => fuse([{ q1: { a: 1 } }], { method: "wsum", weights: [1, 2] }), "INVALID_ARGUMENT", /^weights/);
  throwsCode(() => fuse([{ q1: { a: 1 } }], { method: "borda" }), "INVALID_ARGUMENT", /^method/);
  // ranx's borda normalisation is one of fuse's norms now; a misspelt one names the nearest
  assert.deepEqual(Object.keys(fuse([{ q1: { a: 1 } }], { method: "combsum", norm: "borda" }).q1), ["a"]);
  throwsCode(() => fuse([{ q1: { a: 1 } }], { method: "combsum", norm: "bordda" }), "INVALID_ARGUMENT", /^norm: .*"borda"/);
});

const RETRIEVED = [0.9782995053726794, 0.9504939500760989, 0.8765814146070106, 0.8623934128019434, 0.842523354483268,
  0.7736853461402741, 0.7713904667955406, 0.6740331628686816, 0.6378117863548827, 0.5634670917387724];
const RERANKED = [0.8958727100108653, 0.9704265468563152, 0.8037856351531634, 0.4605732745735953, 0.9991750843646917,
  0.7299899568668072, 0.6836966943663378, 0.6294383998509153, 0.5605524792499585, 0.41810846856511075];

test("adaptiveWeight and combineScores: the blog's numbers (docs/parity.md §6)", () => {
  const rmse = adaptiveWeight(RETRIEVED, RERANKED);
  close(rmse.error, 2.23606797749979, 1e-12);
  close(rmse.weight, 2.23606797749979, 1e-12);
  const mae = adaptiveWeight(RETRIEVED, RERANKED, { error: "mae", minWeight: 2 });
  close(mae.error, 1.6, 1e-12);
  assert.equal(mae.weight, 2);
  const avg = combineScores(RETRIEVED, RERANKED);
  assert.deepEqual(avg.slice(0, 3), [0.9370861076917724, 0.960460248466207, 0.840183524880087]);
  assert.equal(combineScores(RETRIEVED, RERANKED, { retrieverWeight: 1.2, rerankerWeight: 1.5 })[0], 1.2588842357317565);
  throwsCode(() => adaptiveWeight([1, 2], [1]), "INVALID_ARGUMENT", /^afterScores/);
  throwsCode(() => adaptiveWeight([1, "2"], [1, 2]), "INVALID_ARGUMENT", /^beforeScores\[1\]/);
  throwsCode(() => combineScores([1], [NaN]), "INVALID_ARGUMENT", /^rerankerScores\[0\]/);
  throwsCode(() => adaptiveWeight([1], [1], { error: "mse" }), "INVALID_ARGUMENT", /^error/);
});

test("adaptiveRerank returns the weight with the re-sorted documents; Pipeline chains rankers", async () => {
  const docs = RETRIEVED.map((s, i) => new Document({ content: `doc ${i}`, id: `d${i}`, score: s }));
  const res = adaptiveRerank(docs, RERANKED, { topK: 3 });
  close(res.weight, 2.23606797749979, 1e-12);
  assert.equal(res.documents.length, 3);
  assert.deepEqual(res.documents.map((d) => d.id), ["d1", "d4", "d0"]);
  close(res.documents[1].score, (RETRIEVED[4] + RERANKED[4] * res.weight) / 2, 1e-15);

  const pipeline = new Pipeline([new RecentnessRanker({ dateMetaField: "date", weight: 1 }), new LostInTheMiddleRanker(), (d) => d.slice(0, 3)]);
  const out = await pipeline.run(goldenDocs());
  assert.deepEqual(out.map((d) => d.id), ["d4", "d1", "d3"]);
});

// Issue #15 item 7 through the package: the same stages and pinned numbers as tests/rankers/pipeline_value.rs
// (SciFact test split; BM25 top-100 → ce-probe's onnxruntime logits on the BM25 top d → RRF / adaptive weight).
const PIPELINE_DEPTH = 100;
const PIPELINE_PINNED = [
  ["bm25", [0.676188310640964, 0.6413068783068784, 0.8013333333333332]],
  ["ce-probe", [0.10468334142414246, 0.08301058201058199, 0.20233333333333337]],
  ["rrf", [0.41754601271290837, 0.35244179894179906, 0.6607777777777778]],
  ["adaptive", [0.1563139744472448, 0.11994708994708995, 0.3017777777777778]],
  ["adaptive-minmax", [0.12343652677895861, 0.0928174603174603, 0.25233333333333335]],
];
const PIPELINE_MEAN_WEIGHT = [40.32440332537339, 40.32440332537339];
test("measured value on the SciFact fixtures: BM25 → ce-probe → RRF and adaptive weight", async () => {
  const { readFileSync } = await import("node:fs");
  const { evaluate } = await import("rerankit");
  const dir = new URL("../fixtures/collection/", import.meta.url);
  const read = (rel) => readFileSync(new URL(rel, dir), "utf8");
  const trecRun = (rel) => {
    const out = new Map();
    for (const line of read(rel).split("\n")) {
      if (!line.trim()) continue;
      const [q, , d, , s] = line.split(/\s+/);
      if (!out.has(q)) out.set(q, []);
      out.get(q).push([d, Number(s)]);
    }
    return out;
  };
  // trec_eval's order: score descending, ties by doc id descending (byte order = JS order for ASCII ids).
  const trecOrder = (r) => r.slice().sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? 1 : a[0] > b[0] ? -1 : 0));
  const bm25 = new Map([...trecRun("runs/bm25.trec")].map(([q, r]) => [q, trecOrder(r)]));
  const ceFile = trecRun("runs/ce_probe.trec");
  const qids = [...bm25.keys()].sort((a, b) => Number(a) - Number(b));
  const depth = Math.min(...qids.map((q) => ceFile.get(q).length));
  assert.equal(depth, PIPELINE_DEPTH);
  const ceScore = new Map(qids.map((q) => [q, new Map(ceFile.get(q))]));
  const candidates = new Map(qids.map((q) => [q, bm25.get(q).slice(0, depth).map(([d, s]) => [d, s, ceScore.get(q).get(d)])]));
  const ceStage = new Map(qids.map((q) => [q, trecOrder(candidates.get(q).map(([d, , s]) => [d, s]))]));
  const asObject = (stage) => Object.fromEntries([...stage].map(([q, r]) => [q, Object.fromEntries(r)]));
  // fuse's order: score descending, ties by doc id ascending (rerankit's documented fusion tie rule).
  const fuseOrder = (o) => Object.entries(o).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const rrfObj = fuse([asObject(bm25), asObject(ceStage)], { method: "rrf", k: 60 });
  const rrf = new Map(qids.map((q) => [q, fuseOrder(rrfObj[q])]));
  const minMax = (q, scores) => {
    const one = fuse([{ [q]: Object.fromEntries(scores) }], { method: "combsum", norm: "min-max" })[q];
    return scores.map(([d]) => one[d]);
  };
  const weights = [0, 0];
  const adaptiveStage = (normalise, slot) =>
    new Map(qids.map((q) => {
      const c = candidates.get(q);
      let before = c.map(([, s]) => s);
      let after = c.map(([, , s]) => s);
      if (normalise) {
        before = minMax(q, c.map(([d, s]) => [d, s]));
        after = minMax(q, c.map(([d, , s]) => [d, s]));
      }
      const docs = c.map(([d], i) => new Document({ content: d, id: d, score: before[i] }));
      const res = adaptiveRerank(docs, after, { error: "rmse", minWeight: 0 });
      weights[slot] += res.weight / qids.length;
      return [q, res.documents.map((doc) => [doc.id, doc.score])];
    }));
  const stages = [["bm25", bm25], ["ce-probe", ceStage], ["rrf", rrf], ["adaptive", adaptiveStage(false, 0)], ["adaptive-minmax", adaptiveStage(true, 1)]];
  const qrels = read("qrels.test.trec");
  stages.forEach(([name, stage], i) => {
    const text = qids.flatMap((q) => stage.get(q).map(([d, s], r) => `${q} Q0 ${d} ${r + 1} ${s} ${name}`)).join("\n");
    const e = evaluate(qrels, text, ["ndcg@10", "mrr@10", "recall@10"], { ties: "input" });
    assert.equal(Object.keys(e.perQuery).length, 300);
    const [pinnedName, want] = PIPELINE_PINNED[i];
    assert.equal(name, pinnedName);
    ["ndcg@10", "mrr@10", "recall@10"].forEach((m, j) => close(e.aggregate[m], want[j], 1e-6));
  });
  weights.forEach((w, i) => close(w, PIPELINE_MEAN_WEIGHT[i], 1e-6));
});

test("a sparse document list is INVALID_ARGUMENT at its first hole, in every ranker (not a TypeError later)", async () => {
  const sparse = [, , ];
  const embedder = { embed: async (texts) => texts.map(() => new Float32Array([1, 0])) };
  throwsCode(() => new LostInTheMiddleRanker().run(sparse), "INVALID_ARGUMENT", /^documents\[0\]/);
  throwsCode(() => new RecentnessRanker({ dateMetaField: "date" }).run(sparse), "INVALID_ARGUMENT", /^documents\[0\]/);
  throwsCode(() => new DiversityRanker({ embedder }).run("cat", sparse), "INVALID_ARGUMENT", /^documents\[0\]/);
  throwsCode(() => new DiversityRanker({ embedder }).run("cat", [[new Document({ content: "a" }), , ]]), "INVALID_ARGUMENT", /^documents\[0\]\[1\]/);
});

// tests/fixtures/ranx_fusion: ranx 0.3.21's own fused scores (tests/fixtures/gen/make_ranx_fusion.py), here through
// the package's `fuse` and `optimizeFusion`, so that every method name, parameter and normalisation crosses the seam.
test("fuse: every ranx method and normalisation through the package equals ranx; probfuse trains through optimizeFusion", () => {
  const fixture = JSON.parse(readFileSync(new URL("../fixtures/ranx_fusion/ranx_fusion.json", import.meta.url), "utf8"));
  const runs = ["bm25", "second", "ce_probe"].map((name) => fixture.runs[name]);
  const trained = new Map(fixture.optimize_fusion.map((c) => [`${c.method} ${c.norm}`, c.best_params]));
  let checked = 0;
  for (const c of fixture.fuse) {
    // bayesfuse's trained log-odds come as one value per band in the fixture (the Rust suite expands them)
    if (c.trained && trained.get(`${c.method} ${c.norm}`)?.logOddsBands) continue;
    const params = c.trained ? { ...trained.get(`${c.method} ${c.norm}`), ...c.params } : c.params;
    const fused = fuse(runs, { method: c.method, norm: c.norm, ...params });
    for (const [q, docs] of Object.entries(fixture.docs)) {
      assert.equal(Object.keys(fused[q]).length, docs.length, `${c.method} ${c.norm} ${q}`);
      docs.forEach((d, i) => {
        const [ours, theirs] = [fused[q][d], c.scores[q][i]];
        assert.ok(ours === theirs || Math.abs(ours - theirs) <= 1e-9 * Math.max(Math.abs(ours), Math.abs(theirs)), `${c.method} ${c.norm} ${q} ${d}: ${ours} vs ranx ${theirs}`);
      });
    }
    checked++;
  }
  assert.ok(checked >= 100, `${checked} fusions checked`);
  const probfuse = fixture.optimize_fusion.find((c) => c.method === "probfuse");
  const found = optimizeFusion(fixture.qrels, runs, { method: "probfuse", norm: probfuse.norm, metric: probfuse.metric });
  assert.deepEqual(Object.keys(found.params).sort(), Object.keys(probfuse.best_params).sort());
  throwsCode(() => fuse(runs, { method: "combmnx" }), "INVALID_ARGUMENT", /^method: .*"combmnz"/);
  throwsCode(() => fuse(runs, { method: "rbc", phy: 0.5 }), "INVALID_ARGUMENT", /phi/);
});
