// The reranking workload of bench/rerank.mjs and bench/rerank_chromium.mjs: SciFact queries with their BM25 top 100
// (tests/fixtures/collection), and onnxruntime's inputs made from rerankit's own tokens.
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import path from "node:path";
import { fileURLToPath } from "node:url";

const coll = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../tests/fixtures/collection");

/** The first `nQueries` queries (by id): `[{query, docs}]`, docs in BM25 order. */
export function rerankWorkload(nQueries) {
  const docs = new Map();
  for (const l of gunzipSync(readFileSync(path.join(coll, "corpus.jsonl.gz"))).toString("utf8").split("\n")) {
    if (!l) continue;
    const d = JSON.parse(l);
    docs.set(d._id, `${d.title} ${d.text}`);
  }
  const queries = new Map();
  for (const l of readFileSync(path.join(coll, "queries.jsonl"), "utf8").split("\n")) {
    if (!l) continue;
    const q = JSON.parse(l);
    queries.set(q._id, q.text);
  }
  const run = new Map();
  for (const l of readFileSync(path.join(coll, "runs/bm25.trec"), "utf8").split("\n")) {
    const f = l.trim().split(/\s+/);
    if (f.length < 6) continue;
    if (!run.has(f[0])) run.set(f[0], []);
    run.get(f[0]).push(f[2]);
  }
  const qids = [...run.keys()].sort((a, b) => Number(a) - Number(b)).slice(0, nQueries);
  return qids.map((q) => ({ query: queries.get(q), docs: run.get(q).map((d) => docs.get(d)) }));
}

/**
 * rerankit's encoded pairs (`encodePair`) as onnxruntime's int64 inputs: length-sorted batches of `batch` rows (a
 * number, or each batch's in turn), each padded to its longest row — what rerankit's own batching does.
 */
export function paddedBatches(pairs, batch) {
  const order = pairs.map((_, i) => i).sort((a, b) => pairs[b].inputIds.length - pairs[a].inputIds.length);
  const out = [];
  for (let s = 0, k = 0; s < order.length; k++) {
    // `batch`: rows per batch, or each batch's rows in turn (the batches rerankit ran)
    const n = typeof batch === "number" ? batch : batch[k];
    const rows = order.slice(s, (s += n));
    const len = Math.max(...rows.map((i) => pairs[i].inputIds.length));
    const ids = new BigInt64Array(rows.length * len), mask = new BigInt64Array(rows.length * len), types = new BigInt64Array(rows.length * len);
    rows.forEach((i, r) => pairs[i].inputIds.forEach((id, t) => {
      ids[r * len + t] = BigInt(id);
      mask[r * len + t] = 1n;
      types[r * len + t] = BigInt(pairs[i].tokenTypeIds[t]);
    }));
    out.push({ rows: rows.length, len, ids, mask, types });
  }
  return out;
}
