// Random valid test collections for the differential fuzzers: per query, judged documents with grades −1…3 and
// retrieved documents with scores (ties likely, docnos like d3 and d30 so that trec_eval's tie order by docno
// matters), queries missing on either side, no duplicate documents.
import fc from "fast-check";

export const collection = fc
  .array(
    fc.record({
      judged: fc.uniqueArray(fc.tuple(fc.integer({ min: 0, max: 30 }), fc.integer({ min: -1, max: 3 })), { selector: ([d]) => d, maxLength: 12 }),
      retrieved: fc.uniqueArray(fc.tuple(fc.integer({ min: 0, max: 30 }), fc.integer({ min: -20, max: 20 })), { selector: ([d]) => d, maxLength: 15 }),
    }),
    { minLength: 1, maxLength: 6 },
  )
  .filter((qs) => qs.some((q) => q.judged.length > 0));

/**
 * The collection as TREC text and as ranx-shaped objects; `prefix` names its queries (`${prefix}q0`, …) so that
 * several collections can share one file.
 */
export function trecTexts(queries, prefix = "") {
  let qrels = "", run = "";
  const qrelsObj = {}, runObj = {};
  queries.forEach((q, i) => {
    const qid = `${prefix}q${i}`;
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

/** `--name value` from the command line. */
export const cliArg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? fallback : process.argv[i + 1];
};
