#!/usr/bin/env node
// Differential fuzzing of `evaluate`: random valid qrels and runs (./collections.mjs) evaluated from TREC text and
// from ranx-shaped objects must give the same numbers, for every trec_eval measure and the ranx-style names.
// Exits 1 on the first difference. trec_eval_differential.mjs compares the CLI with trec_eval itself.
//
//   node tests/fuzz/differential.mjs [--seed N] [--inputs N | --seconds N]
import fc from "fast-check";
import { evaluate } from "rerankit";
import { collection, trecTexts, cliArg } from "./collections.mjs";

const seed = Number(cliArg("seed", 1));
const seconds = Number(cliArg("seconds", 0)) || Infinity;
const inputs = cliArg("seconds") ? Infinity : Number(cliArg("inputs", 200));
const MEASURES = ["all_trec", "ndcg_cut.5,10", "P.1,5", "success.1,3", "nDCG@10", "R@100", "MRR@10", "MAP@100"];

const started = Date.now();
let n = 0, compared = 0;
outer: while (n < inputs && Date.now() - started < seconds * 1000) {
  for (const queries of fc.sample(collection, { seed: seed + n, numRuns: 50 })) {
    if (n >= inputs) break outer;
    n += 1;
    const { qrels, run, qrelsObj, runObj } = trecTexts(queries);
    let fromText, fromObjects;
    try {
      fromText = evaluate(qrels, run, MEASURES);
    } catch (e) {
      // a run sharing no query with the qrels is fine to refuse, but both forms must refuse it alike
      try {
        evaluate(qrelsObj, runObj, MEASURES);
      } catch (e2) {
        if (e2.code === e.code) continue;
      }
      console.error(`[differential] input ${n}: text refused (${e.message}) but objects did not\nqrels:\n${qrels}\nrun:\n${run}`);
      process.exit(1);
    }
    fromObjects = evaluate(qrelsObj, runObj, MEASURES);
    // runid is the run's name: the text's tag column, which objects do not have
    for (const e of [fromText, fromObjects]) {
      delete e.aggregate.runid;
      for (const row of Object.values(e.perQuery)) delete row.runid;
    }
    const a = JSON.stringify({ aggregate: fromText.aggregate, perQuery: fromText.perQuery });
    const b = JSON.stringify({ aggregate: fromObjects.aggregate, perQuery: fromObjects.perQuery });
    if (a !== b) {
      const diff = Object.keys(fromText.aggregate).filter((k) => !Object.is(fromText.aggregate[k], fromObjects.aggregate[k]));
      console.error(`[differential] input ${n}: text and objects differ on ${diff.join(", ") || "per-query values"}\nqrels:\n${qrels}\nrun:\n${run}`);
      process.exit(1);
    }
    compared += 1;
  }
}
console.log(`[differential] evaluate from text vs from objects, seed ${seed}: ${n} collections, ${compared} evaluated, ${n - compared} refused alike, 0 differences`);
