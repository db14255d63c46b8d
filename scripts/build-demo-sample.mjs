#!/usr/bin/env node
// Writes www/src/sample.json, the SciFact sample bundled into the demo: a few test queries with BM25's top-N
// documents (text = title + " " + text, BEIR's convention), their BM25 scores and the queries' qrels, all read
// from tests/fixtures/collection (queries.jsonl, qrels/test.tsv, runs/bm25.trec, corpus.jsonl.gz).
//
// Selection (deterministic, so the file regenerates byte for byte): test queries in the run's order whose
// relevant document sits in BM25's top N but not at rank 1 (so that reranking can move it), keeping the
// documents short enough that a CPU rerank in the page stays quick (≤ MAX_CHARS characters over the N texts).
// `--check` exits 1 when the committed file differs from what the fixtures give.
import { readFileSync, writeFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const collection = path.join(root, "tests", "fixtures", "collection");
const out = path.join(root, "www", "src", "sample.json");
const QUERIES = 3;
const TOP_N = 5;
const MAX_CHARS = 7000;

const queries = new Map(readFileSync(path.join(collection, "queries.jsonl"), "utf8").trim().split("\n")
  .map((l) => JSON.parse(l)).map((q) => [q._id, q.text]));

/** qid → {docid: grade} from the BEIR TSV (header line skipped). */
const qrels = {};
for (const line of readFileSync(path.join(collection, "qrels", "test.tsv"), "utf8").trim().split("\n").slice(1)) {
  const [qid, docid, grade] = line.split("\t");
  (qrels[qid] ??= {})[docid] = Number(grade);
}

/** qid → [{docid, score}] in the run's rank order; scores kept as the file writes them. */
const bm25 = new Map();
for (const line of readFileSync(path.join(collection, "runs", "bm25.trec"), "utf8").trim().split("\n")) {
  const [qid, , docid, , score] = line.split(/\s+/);
  if (!bm25.has(qid)) bm25.set(qid, []);
  bm25.get(qid).push({ docid, score: Number(score) });
}

const corpus = new Map();
for (const line of gunzipSync(readFileSync(path.join(collection, "corpus.jsonl.gz"))).toString("utf8").trim().split("\n")) {
  const d = JSON.parse(line);
  // One document per line in the page: a line break inside a text would split it (none in SciFact today).
  corpus.set(d._id, `${d.title} ${d.text}`.replace(/[\r\n]+/g, " "));
}

const picked = [];
for (const [qid, ranked] of bm25) {
  if (picked.length === QUERIES) break;
  const top = ranked.slice(0, TOP_N);
  const relevantRanks = top.map((d, i) => (qrels[qid]?.[d.docid] > 0 ? i : -1)).filter((i) => i >= 0);
  if (relevantRanks.length === 0 || relevantRanks.includes(0)) continue;
  const texts = top.map((d) => corpus.get(d.docid));
  if (texts.reduce((n, t) => n + t.length, 0) > MAX_CHARS) continue;
  picked.push({
    qid,
    query: queries.get(qid),
    documents: top.map((d, i) => ({ docid: d.docid, text: texts[i], bm25: d.score })),
    qrels: qrels[qid],
  });
}

const sample = {
  source: "SciFact test split (BEIR form, tests/fixtures/collection): BM25 (bm25s, runs/bm25.trec) top documents",
  generator: "node scripts/build-demo-sample.mjs",
  topN: TOP_N,
  queries: picked,
};
const text = JSON.stringify(sample, null, 1) + "\n";
if (process.argv.includes("--check")) {
  let committed = "";
  try { committed = readFileSync(out, "utf8"); } catch {}
  if (committed !== text) {
    console.error(`${path.relative(root, out)} differs from the fixtures: run node scripts/build-demo-sample.mjs`);
    process.exit(1);
  }
} else {
  writeFileSync(out, text);
  console.log(`${path.relative(root, out)}: ${picked.length} queries × ${TOP_N} documents (${text.length} bytes)`);
}
