#!/usr/bin/env node
// Differential fuzzing of `evaluate`: random valid qrels and runs (ties, negative and graded judgements, queries
// missing on either side, duplicate-free) evaluated from TREC text and from ranx-shaped objects must give the
// same numbers, for every trec_eval measure and the ranx-style names. Exits 1 on the first difference.
//
//   node tests/fuzz/differential.mjs [--seed N] [--inputs N | --seconds N]
import fc from "fast-check";
import { evaluate } from "rerankit";

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? fallback : process.argv[i + 1];
};
const seed = Number(arg("seed", 1));
const seconds = Number(arg("seconds", 0)) || Infinity;
const inputs = arg("seconds") ? Infinity : Number(arg("inputs", 200));
const MEASURES = ["all_trec", "ndcg_cut.5,10", "P.1,5", "success.1,3", "nDCG@10", "R@100", "MRR@10", "MAP@100"];

/** A collection: per query, judged documents with grades −1…3 and retrieved documents with scores (ties likely). */
const collection = fc
  .array(
    fc.record({
      judged: fc.uniqueArray(fc.tuple(fc.integer({ min: 0, max: 30 }), fc.integer({ min: -1, max: 3 })), { selector: ([d]) => d, maxLength: 12 }),
      retrieved: fc.uniqueArray(fc.tuple(fc.integer({ min: 0, max: 30 }), fc.integer({ min: -20, max: 20 })), { selector: ([d]) => d, maxLength: 15 }),
    }),
    { minLength: 1, maxLength: 6 },
  )
  .filter((qs) => qs.some((q) => q.judged.length > 0));

function texts(queries) {
  let qrels = "", run = "";
  const qrelsObj = {}, runObj = {};
  queries.forEach((q, i) => {
    const qid = `q${i}`;
    for (const [d, g] of q.judged) {
      qrels += `${qid} 0 d${d} ${g}\n`;
      (qrelsObj[qid] ??= {})[`d${d}`] = g;
    }
    q.retrieved.forEach(([d, s], rank) => {
      run += `${qid} Q0 d${d} ${rank + 1} ${s / 4} tag\n`;
      (runObj[qid] ??= {})[`d${d}`] = s / 4;
    });
  });
  return { qrels, run, qrelsObj, runObj };
}

const started = Date.now();
let n = 0, compared = 0;
outer: while (n < inputs && Date.now() - started < seconds * 1000) {
  for (const queries of fc.sample(collection, { seed: seed + n, numRuns: 50 })) {
    if (n >= inputs) break outer;
    n += 1;
    const { qrels, run, qrelsObj, runObj } = texts(queries);
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
