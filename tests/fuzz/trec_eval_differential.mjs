#!/usr/bin/env node
// Differential fuzzing of the `rerankit eval` CLI against trec_eval itself: random valid collections
// (./collections.mjs), written as TREC files and evaluated by the CLI with `-q -m all_trec` (and a few
// parameterised measures, -l 2 and -c), must print the numbers trec_eval computes for every query and for the
// "all" line. The oracle is pytrec_eval-terrier (trec_eval 9.0.8 compiled in; trec_eval_oracle.py), run by the
// Python of the fixtures venv, so the CLI runs with --trec-eval-9-rounding (docs/parity.md: 9.x and 10.0 round
// recall levels differently). trec_eval's source cannot be fetched on these machines; its compiled code can.
// Each CLI call evaluates a batch of collections at once (queries prefixed c<i>), which trec_eval evaluates
// query by query just the same. Exits 1 on the first difference.
//
//   node tests/fuzz/trec_eval_differential.mjs [--seed N] [--inputs N] [--batch N] [--python PATH]
import fc from "fast-check";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { collection, trecTexts, cliArg } from "./collections.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const cli = path.join(here, "../../pkg/dist/cli/main.js");
const models = process.env.RERANKIT_MODELS || path.join(os.homedir(), ".cache/rerankit/models");
const python = cliArg("python", path.join(path.dirname(models), "venv/bin/python"));
const seed = Number(cliArg("seed", 1));
const inputs = Number(cliArg("inputs", 300));
const batch = Number(cliArg("batch", 50));

// the variants of trec_eval's command line, and what the oracle is told for each
const VARIANTS = [
  { args: ["-m", "all_trec"], measures: ["all_trec"], level: 1, complete: false },
  { args: ["-m", "all_trec", "-l", "2"], measures: ["all_trec"], level: 2, complete: false },
  { args: ["-m", "all_trec", "-c"], measures: ["all_trec"], level: 1, complete: true },
  {
    args: ["-m", "P.1,3", "-m", "ndcg_cut.3,7", "-m", "success.1,2,4", "-m", "recall.2,8", "-m", "map_cut.4"],
    measures: ["P.1,3", "ndcg_cut.3,7", "success.1,2,4", "recall.2,8", "map_cut.4"],
    level: 1,
    complete: false,
  },
];
// what trec_eval prints as text, not as a number
const TEXT_MEASURES = new Set(["runid", "relstring"]);

function fail(message, dir) {
  console.error(`[trec_eval differential] ${message}\n  the batch's files: ${dir}`);
  process.exit(1);
}

/** The CLI's -q output as {qid: {measure: text}}, "all" included. */
function parseOutput(text) {
  const rows = {};
  for (const line of text.split("\n")) {
    if (!line) continue;
    const [measure, qid, value] = line.split("\t");
    (rows[qid] ??= {})[measure.trim()] = value;
  }
  return rows;
}

/** Whether the CLI printed what trec_eval prints: counts as integers ("%ld"), the rest as "%.4f". */
const samePrinted = (ours, theirs) => ours !== undefined && (ours.includes(".") ? ours.trim() === theirs : Number(ours) === Number(theirs));

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "rerankit-trec-eval-diff-"));
// pytrec_eval-terrier 0.5.11 crashes (SIGSEGV, in bpref) on a query whose judgements are all negative, so such a
// query gets its first judgement as grade 0 here; negative grades beside others stay
const withoutAllNegative = (queries) =>
  queries.map((q) => (q.judged.length && q.judged.every(([, g]) => g < 0) ? { ...q, judged: q.judged.map(([d, g], i) => [d, i ? g : 0]) } : q));
const samples = fc.sample(collection, { seed, numRuns: inputs }).map(withoutAllNegative);
let compared = 0, queriesCompared = 0;
for (let start = 0; start < samples.length; start += batch) {
  const parts = samples.slice(start, start + batch).map((queries, i) => trecTexts(queries, `c${start + i}`));
  const qrels = parts.map((p) => p.qrels).join("");
  const run = parts.map((p) => p.run).join("");
  const qrelsObj = Object.assign({}, ...parts.map((p) => p.qrelsObj));
  const runObj = Object.assign({}, ...parts.map((p) => p.runObj));
  const dir = path.join(tmp, `batch${start}`);
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, "qrels"), qrels);
  fs.writeFileSync(path.join(dir, "run"), run);
  for (const variant of VARIANTS) {
    const args = [cli, "eval", "-q", "--trec-eval-9-rounding", ...variant.args, "qrels", "run"];
    const ours = spawnSync(process.execPath, args, { cwd: dir, encoding: "utf8", maxBuffer: 1 << 28 });
    const job = { qrels: qrelsObj, run: runObj, measures: variant.measures, relevance_level: variant.level, complete: variant.complete };
    const oracle = spawnSync(python, [path.join(here, "trec_eval_oracle.py")], { input: JSON.stringify(job), encoding: "utf8", maxBuffer: 1 << 28 });
    if (oracle.status !== 0) fs.writeFileSync(path.join(dir, "oracle-job.json"), JSON.stringify(job));
    if (oracle.status !== 0) fail(`the oracle failed (${python}, ${oracle.status ?? oracle.signal}):\n${oracle.stderr}${oracle.error ?? ""}`, dir);
    const expected = JSON.parse(oracle.stdout);
    const command = `rerankit eval -q --trec-eval-9-rounding ${variant.args.join(" ")} qrels run`;
    if (Object.keys(expected.per_query).length === 0) {
      // trec_eval has no query to evaluate: the CLI must refuse the run too, not print numbers
      if (ours.status === 0) fail(`${command}: trec_eval evaluates no query, the CLI printed:\n${ours.stdout.slice(0, 2000)}`, dir);
      continue;
    }
    if (ours.status !== 0) fail(`${command} failed:\n${ours.stderr}`, dir);
    const printed = parseOutput(ours.stdout);
    const rows = { ...expected.per_query, all: expected.all };
    for (const [qid, row] of Object.entries(rows)) {
      for (const [measure, value] of Object.entries(row)) {
        if (TEXT_MEASURES.has(measure)) continue;
        if (!samePrinted(printed[qid]?.[measure], value)) {
          fail(`${command}: ${measure} for ${qid}: trec_eval ${value}, the CLI printed ${printed[qid]?.[measure] ?? "nothing"}`, dir);
        }
      }
    }
    // and nothing more: the CLI prints no query trec_eval does not evaluate
    const extra = Object.keys(printed).filter((qid) => !(qid in rows));
    if (extra.length) fail(`${command}: the CLI printed queries trec_eval does not evaluate: ${extra.slice(0, 5).join(", ")}`, dir);
    queriesCompared += Object.keys(expected.per_query).length;
    compared += 1;
  }
}
fs.rmSync(tmp, { recursive: true, force: true });
console.log(
  `[trec_eval differential] the CLI vs trec_eval 9.0.8 (pytrec_eval-terrier), seed ${seed}: ${samples.length} collections in ` +
    `${Math.ceil(samples.length / batch)} batches × ${VARIANTS.length} command lines, ${queriesCompared} query evaluations compared, 0 differences`,
);
