"""Baselines for bench/metrics.mjs: pytrec_eval (trec_eval's C code) and ranx (numba), same files, same measures.

    python bench/metrics_python.py QRELS RUN

Prints one JSON line: for each tool, seconds end to end from files (parse + evaluate) and from in-memory dicts
(evaluate only, the dicts built beforehand and not timed), plus the mean of each measure for cross-checking.
"""
import json
import sys
import time

qrels_path, run_path = sys.argv[1], sys.argv[2]

PYTREC_MEASURES = {"map", "ndcg_cut.10", "P.10", "recall.100", "recip_rank", "ndcg", "bpref", "success.10"}
PYTREC_KEYS = ["map", "ndcg_cut_10", "P_10", "recall_100", "recip_rank", "ndcg", "bpref", "success_10"]
RANX_MEASURES = ["map", "ndcg@10", "precision@10", "recall@100", "mrr", "ndcg", "bpref", "hit_rate@10"]


def read_dicts():
    qrels, run = {}, {}
    with open(qrels_path) as f:
        for line in f:
            q, _, d, g = line.split()
            qrels.setdefault(q, {})[d] = int(g)
    with open(run_path) as f:
        for line in f:
            q, _, d, _, s, _ = line.split()
            run.setdefault(q, {})[d] = float(s)
    return qrels, run


out = {}

import pytrec_eval  # noqa: E402

t = time.perf_counter()
with open(qrels_path) as f:
    qrels = pytrec_eval.parse_qrel(f)
with open(run_path) as f:
    run = pytrec_eval.parse_run(f)
result = pytrec_eval.RelevanceEvaluator(qrels, PYTREC_MEASURES).evaluate(run)
end_to_end = time.perf_counter() - t
means = {k: sum(r[k] for r in result.values()) / len(result) for k in PYTREC_KEYS}
del qrels, run, result

qrels, run = read_dicts()
t = time.perf_counter()
result = pytrec_eval.RelevanceEvaluator(qrels, PYTREC_MEASURES).evaluate(run)
in_memory = time.perf_counter() - t
out["pytrec_eval"] = {"end_to_end_s": end_to_end, "in_memory_s": in_memory, "means": means}
del result

import ranx  # noqa: E402

# numba compiles on first use: warm it on a tiny input so that the timings are steady-state.
ranx.evaluate(ranx.Qrels({"q": {"a": 1}}), ranx.Run({"q": {"a": 1.0, "b": 0.5}}), RANX_MEASURES)

t = time.perf_counter()
rq = ranx.Qrels(qrels)
rr = ranx.Run(run)
scores = ranx.evaluate(rq, rr, RANX_MEASURES)
in_memory = time.perf_counter() - t
del rq, rr, qrels, run

t = time.perf_counter()
rq = ranx.Qrels.from_file(qrels_path, kind="trec")
rr = ranx.Run.from_file(run_path, kind="trec")
scores = ranx.evaluate(rq, rr, RANX_MEASURES)
end_to_end = time.perf_counter() - t
out["ranx"] = {"end_to_end_s": end_to_end, "in_memory_s": in_memory, "means": {k: float(v) for k, v in scores.items()}}
out["versions"] = {"pytrec_eval": getattr(pytrec_eval, "__version__", "?"), "ranx": getattr(ranx, "__version__", "?")}
print(json.dumps(out))
