// The 50 documents the model benches rerank (bench/runtimes.mjs, bench/seam_crossings.mjs): BM25's top 50 for the
// first query of runs/bm25.trec, each title + " " + abstract, as the fixtures score them.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const col = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "tests", "fixtures", "collection");

/** `{query, documents}`: the query's text and the 50 documents' texts in BM25's order. */
export function fiftyDocuments() {
  const bm25 = readFileSync(path.join(col, "runs", "bm25.trec"), "utf8").split("\n").filter(Boolean).map((l) => l.split(/\s+/));
  const firstQuery = readFileSync(path.join(col, "queries.jsonl"), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l)).find((q) => q._id === bm25[0][0]);
  const top50 = bm25.filter((f) => f[0] === firstQuery._id).slice(0, 50).map((f) => f[2]);
  const wanted = new Set(top50);
  const corpus = new Map();
  for (const line of execFileSync("gzip", ["-dc", path.join(col, "corpus.jsonl.gz")], { maxBuffer: 1 << 30 }).toString().split("\n")) {
    if (!line) continue;
    const d = JSON.parse(line);
    if (wanted.has(d._id)) corpus.set(d._id, `${d.title} ${d.text}`);
  }
  const input = { query: firstQuery.text, documents: top50.map((id) => corpus.get(id)) };
  if (input.documents.length !== 50 || input.documents.some((d) => !d)) throw new Error("could not assemble 50 documents from the collection");
  return input;
}
