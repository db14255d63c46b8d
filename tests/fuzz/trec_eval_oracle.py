"""trec_eval as the oracle of tests/fuzz/trec_eval_differential.mjs, through pytrec_eval-terrier (trec_eval 9.0.8
compiled in). Reads {"qrels", "run", "measures", "relevance_level", "complete"} as JSON on stdin and prints
{"per_query": {qid: {measure: printed}}, "all": {measure: printed}}: the -q lines and the "all" line that
trec_eval would print, aggregated as trec_eval aggregates (all_line below),
each value printed as trec_eval prints it (C's "%.4f"; Python's % formats doubles the same way). Measures that
trec_eval prints only on the "all" line (num_q, gm_map, gm_bpref) are left out of the per-query rows.
"complete" is trec_eval's -c: qrels queries the run lacks are evaluated as empty rankings."""
import json
import math
import sys

import pytrec_eval

job = json.load(sys.stdin)
evaluator = pytrec_eval.RelevanceEvaluator(job["qrels"], set(job["measures"]), relevance_level=job["relevance_level"])
per_query = evaluator.evaluate(job["run"])
if job["complete"]:
    # pytrec_eval crashes (SIGSEGV) evaluating an empty ranking for all_trec at once, but not measure by measure
    added = {q: {} for q in job["qrels"] if q not in job["run"]}
    families = pytrec_eval.supported_measures if "all_trec" in job["measures"] else job["measures"]
    for family in sorted(families):
        one = pytrec_eval.RelevanceEvaluator(job["qrels"], {family}, relevance_level=job["relevance_level"])
        for q, row in one.evaluate(added).items():
            # iprec_at_recall of an empty ranking is 0/0 there; trec_eval's -c prints 0.0000 for a query the run
            # lacks (shared/data/trec_eval/out.test.aqc, query 302)
            per_query.setdefault(q, {}).update({m: 0.0 if v != v else v for m, v in row.items()})
    wanted = {m for q, row in per_query.items() if q in job["run"] for m in row}
    per_query = {q: {m: v for m, v in row.items() if m in wanted} for q, row in per_query.items()}


def all_line(measure, rows):
    """trec_eval's "all" value (trec_eval.c, te_acc_meas_s and te_calc_avg_meas_*): per-query values added one
    after the other in qid byte order (get_qrels.c sorts with strcmp), so the last bits, and a rounding at a
    tie such as 0.03125, are trec_eval's; pytrec_eval's own compute_aggregated_measure sums pairwise (numpy)."""
    total = 0.0
    for q in sorted(rows, key=lambda q: q.encode()):
        total += rows[q][measure]
    if measure == "num_rel" and job["complete"]:
        # m_num_rel.c: under -c, every judgement with grade > 0 in the qrels, whatever the relevance level
        return float(sum(1 for judged in job["qrels"].values() for g in judged.values() if g > 0))
    if measure.startswith("num_"):
        return total
    if measure.startswith("gm_"):  # per-query values are already log(max(v, 0.00001))
        return math.exp(total / len(rows))
    return total / len(rows)


measures = sorted({m for row in per_query.values() for m in row})
aggregate = {m: all_line(m, per_query) for m in measures if m != "runid"}
SUMMARY_ONLY = {"num_q", "gm_map", "gm_bpref"}
printed = {q: {m: "%.4f" % v for m, v in row.items() if m not in SUMMARY_ONLY} for q, row in per_query.items()}
json.dump({"per_query": printed, "all": {m: "%.4f" % v for m, v in aggregate.items()}}, sys.stdout)
