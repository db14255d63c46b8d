//! The measured value of rerankit's rankers on the fixtures' collection (issue #15 item 7): SciFact's 300 test
//! queries, BM25 top-100 → the *test* cross-encoder ce-probe → fused with BM25, every stage evaluated with
//! rerankit's own `evaluate` (nDCG@10, MRR@10 as ranx's `mrr@10`, R@10 as trec_eval's `recall_10`).
//!
//! Inputs are the committed reference runs (tests/fixtures/collection/runs): `bm25.trec` (bm25s) and
//! `ce_probe.trec` (onnxruntime's ce-probe logits; tests/inference/collection.rs shows rerankit's own
//! ce-probe scores equal them within 1e-4). ce-probe scores the BM25 top `d` of every query (`d` = the depth the
//! run has for all queries, read from the file: 100). Stages:
//!
//! 1. `bm25`: the BM25 top-100, score descending (ties by doc id descending, trec_eval's order).
//! 2. `ce-probe`: the BM25 top `d` ordered by ce-probe logit (same tie order).
//! 3. `rrf`: rerankit's `fuse([bm25 top-100, ce-probe top-d], rrf, k = 60)`: Σ 1/(60 + rank) over the runs that
//!    hold the document; ties by doc id ascending (rerankit's documented fusion tie rule).
//! 4. `adaptive`: seed 002 on the BM25 top `d`: w = max(RMSE of the ranks before/after, 0); combined score
//!    `(s_bm25 × 1 + s_ce × w) / 2`, descending, ties in BM25 order. The raw scores are combined as the seed does
//!    (BM25 scores here are 0–57, ce-probe logits −5.4–3.5; the mean w is 40.3, so the reranker leads).
//! 5. `adaptive-minmax`: the same after min-max normalising both score lists per query to [0, 1] (ranx's
//!    `min-max`), so that neither scale dominates before the weight is applied (min-max keeps the order, so
//!    the weight is the same).
//!
//! ce-probe is a linear probe on an encoder never trained for relevance: over the whole top 100 it orders
//! documents little better than chance (nDCG@10 0.105 against BM25's 0.676), and the fusions recover part of
//! the loss. These pinned numbers test rerankit's stages, not the model.
//!
//! The stages are deterministic, so their numbers are pinned at 1e-6: a change to fusion, the adaptive weight or
//! the metrics that moves them fails here. Regenerating `ce_probe.trec` at another depth changes them; the
//! test then says the depth it found. BM25's numbers are also checked against pytrec_eval and ranx, and the
//! ce-probe stage per query against pytrec_eval's evaluation of `ce_probe.trec` wherever that file has depth d.
//! docs/benchmarks.md's "Rankers on SciFact" table is this test's output (`--nocapture`).

use std::collections::HashMap;
use std::path::PathBuf;

use rerankit::metrics::{
    evaluate, parse_measures, DuplicatePolicy, EvalOptions, Evaluation, Qrels, RankingOptions, TiePolicy, Value,
};
use rerankit::rankers::adaptive_weight::combine_with_adaptive_weight;
use rerankit::rankers::fusion::{fuse, FusionMethod, Normalization, Run as FusionRun};
use rerankit::rankers::PositionError;

const MEASURES: [&str; 3] = ["ndcg@10", "mrr@10", "recall@10"];

/// The depth ce-probe scored for every query in the committed `ce_probe.trec`, and the pinned
/// (nDCG@10, MRR@10, R@10) of each stage for it.
const DEPTH: usize = 100;
const PINNED: [(&str, [f64; 3]); 5] = [
    ("bm25", [0.676188310640964, 0.6413068783068784, 0.8013333333333332]),
    ("ce-probe", [0.10468334142414246, 0.08301058201058199, 0.20233333333333337]),
    ("rrf", [0.41754601271290837, 0.35244179894179906, 0.6607777777777778]),
    ("adaptive", [0.1563139744472448, 0.11994708994708995, 0.3017777777777778]),
    ("adaptive-minmax", [0.12343652677895861, 0.0928174603174603, 0.25233333333333335]),
];
/// Mean over queries of the adaptive weight (the RMSE of the rank changes; the same for both adaptive stages).
const PINNED_MEAN_WEIGHT: f64 = 40.32440332537339;

type Ranking = Vec<(String, f64)>;

fn collection() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/collection")
}

fn read(rel: &str) -> String {
    let p = collection().join(rel);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e} (committed fixture)", p.display()))
}

/// `qid → [(docid, score)]` in file order; qids in numeric order.
fn trec_run(rel: &str) -> Vec<(String, Ranking)> {
    let mut out: Vec<(String, Ranking)> = Vec::new();
    for line in read(rel).lines().filter(|l| !l.trim().is_empty()) {
        let f: Vec<&str> = line.split_whitespace().collect();
        let score: f64 = f[4].parse().unwrap_or_else(|_| panic!("{rel}: bad score in {line:?}"));
        match out.last_mut() {
            Some((q, r)) if q == f[0] => r.push((f[2].to_string(), score)),
            _ => out.push((f[0].to_string(), vec![(f[2].to_string(), score)])),
        }
    }
    out.sort_by_key(|(q, _)| q.parse::<u64>().unwrap());
    out
}

/// trec_eval's order: score descending, ties by doc id descending.
fn trec_order(r: &mut Ranking) {
    r.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| b.0.cmp(&a.0)));
}

/// Evaluates rankings in the given order (TiePolicy::Input: the stage's own order, scores unused).
fn evaluate_order(qrels: &Qrels, stage: &[(String, Ranking)]) -> Evaluation {
    let mut text = String::new();
    for (q, r) in stage {
        for (i, (d, s)) in r.iter().enumerate() {
            text.push_str(&format!("{q} Q0 {d} {} {s} stage\n", i + 1));
        }
    }
    let run = rerankit::metrics::Run::parse(&text, DuplicatePolicy::Error).unwrap();
    let options = EvalOptions { ranking: RankingOptions { ties: TiePolicy::Input, ..Default::default() }, ..Default::default() };
    evaluate(qrels, &run, &parse_measures(&MEASURES).unwrap(), &options).unwrap()
}

fn means(e: &Evaluation) -> [f64; 3] {
    assert_eq!(e.per_query.len(), 300, "every test query is evaluated");
    let v: Vec<f64> = e.aggregate.iter().map(|v| if let Value::Number(x) = v { *x } else { f64::NAN }).collect();
    [v[0], v[1], v[2]]
}

fn reference_number(rel: &str, pointer: &str) -> f64 {
    let v: serde_json::Value = serde_json::from_str(&read(rel)).unwrap();
    v.pointer(pointer).and_then(|x| x.as_f64()).unwrap_or_else(|| panic!("{rel}: no {pointer}"))
}

/// Seed 002 over one query's candidates (in BM25 order): combined scores, descending, stable.
fn adaptive(candidates: &[(String, f64, f64)], min_max: bool) -> (Ranking, f64) {
    let mut before: Vec<f64> = candidates.iter().map(|c| c.1).collect();
    let mut after: Vec<f64> = candidates.iter().map(|c| c.2).collect();
    if min_max {
        before = Normalization::MinMax.apply(&before);
        after = Normalization::MinMax.apply(&after);
    }
    let c = combine_with_adaptive_weight(&before, &after, PositionError::Rmse, 0.0, 1.0).unwrap();
    let mut order: Vec<usize> = (0..candidates.len()).collect();
    order.sort_by(|&a, &b| c.scores[b].total_cmp(&c.scores[a]));
    (order.into_iter().map(|i| (candidates[i].0.clone(), c.scores[i])).collect(), c.weight)
}

#[test]
fn rerank_and_fuse_on_the_scifact_test_split() {
    let qrels = Qrels::parse(&read("qrels.test.trec")).unwrap();
    let mut bm25 = trec_run("runs/bm25.trec");
    let ce_file = trec_run("runs/ce_probe.trec");
    assert_eq!(bm25.len(), 300);
    assert_eq!(ce_file.len(), 300);
    bm25.iter_mut().for_each(|(_, r)| trec_order(r));
    let ce: HashMap<&str, HashMap<&str, f64>> =
        ce_file.iter().map(|(q, r)| (q.as_str(), r.iter().map(|(d, s)| (d.as_str(), *s)).collect())).collect();

    // ce-probe scored a prefix of every query's BM25 ranking; the depth common to all queries is d.
    for (q, r) in &bm25 {
        let n = ce[q.as_str()].len();
        assert!(r[..n].iter().all(|(d, _)| ce[q.as_str()].contains_key(d.as_str())), "query {q}: ce-probe scored docs outside the BM25 top {n}");
    }
    let depth = bm25.iter().map(|(q, _)| ce[q.as_str()].len()).min().unwrap();
    assert_eq!(depth, DEPTH, "ce_probe.trec now scores the BM25 top {depth} of every query: update DEPTH and the pinned numbers (and the table in docs/benchmarks.md)");

    let candidates: Vec<(String, Vec<(String, f64, f64)>)> = bm25
        .iter()
        .map(|(q, r)| (q.clone(), r[..depth].iter().map(|(d, s)| (d.clone(), *s, ce[q.as_str()][d.as_str()])).collect()))
        .collect();
    let ce_stage: Vec<(String, Ranking)> = candidates
        .iter()
        .map(|(q, c)| {
            let mut r: Ranking = c.iter().map(|(d, _, s)| (d.clone(), *s)).collect();
            trec_order(&mut r);
            (q.clone(), r)
        })
        .collect();
    let rrf = fuse(
        &[FusionRun::new(bm25.clone()), FusionRun::new(ce_stage.clone())],
        &FusionMethod::ReciprocalRank { k: 60.0 },
        Normalization::None,
    )
    .unwrap()
    .queries;
    let mut weights = [0.0f64; 2];
    let mut adaptive_stages: [Vec<(String, Ranking)>; 2] = [Vec::new(), Vec::new()];
    for (i, min_max) in [false, true].into_iter().enumerate() {
        for (q, c) in &candidates {
            let (r, w) = adaptive(c, min_max);
            weights[i] += w / candidates.len() as f64;
            adaptive_stages[i].push((q.clone(), r));
        }
    }
    let [adaptive_raw, adaptive_min_max] = adaptive_stages;
    let stages: [(&str, &[(String, Ranking)]); 5] = [
        ("bm25", &bm25),
        ("ce-probe", &ce_stage),
        ("rrf", &rrf),
        ("adaptive", &adaptive_raw),
        ("adaptive-minmax", &adaptive_min_max),
    ];

    println!("SciFact test split, 300 queries; ce-probe scores the BM25 top {depth}");
    println!("| stage | nDCG@10 | MRR@10 | R@10 |\n|---|---|---|---|");
    let mut got = Vec::new();
    let mut ce_per_query = Vec::new();
    for (name, stage) in stages {
        let e = evaluate_order(&qrels, stage);
        let m = means(&e);
        println!("| {name} | {:.6} | {:.6} | {:.6} |", m[0], m[1], m[2]);
        got.push((name, m));
        if name == "ce-probe" {
            ce_per_query = e.per_query;
        }
    }
    println!("mean adaptive weight: raw {:.6}, min-max {:.6}", weights[0], weights[1]);

    // BM25's numbers come from the reference tools too.
    let bm25_m = got[0].1;
    let te = "eval/bm25.trec_eval.json";
    for (ours, theirs, what) in [
        (bm25_m[0], reference_number(te, "/all/ndcg_cut_10"), "nDCG@10 vs pytrec_eval"),
        (bm25_m[1], reference_number("eval/bm25.ranx.json", "/mean/mrr@10"), "MRR@10 vs ranx"),
        (bm25_m[2], reference_number(te, "/all/recall_10"), "R@10 vs pytrec_eval"),
    ] {
        assert!((ours - theirs).abs() <= 1e-9, "bm25 {what}: {ours} vs {theirs}");
    }

    // Per query, the ce-probe stage is pytrec_eval's evaluation of ce_probe.trec where the file has depth d.
    let te: serde_json::Value = serde_json::from_str(&read("eval/ce_probe.trec_eval.json")).unwrap();
    let mut compared = 0;
    for q in &ce_per_query {
        if ce[q.qid.as_str()].len() != depth {
            continue;
        }
        for (j, key) in [(0, "ndcg_cut_10"), (2, "recall_10")] {
            let Value::Number(ours) = q.values[j] else { panic!("{}: {key} is not a number", q.qid) };
            let theirs = te["per_query"][&q.qid][key].as_f64().unwrap();
            assert!((ours - theirs).abs() <= 1e-9, "ce-probe query {} {key}: {ours} vs pytrec_eval {theirs}", q.qid);
        }
        compared += 1;
    }
    assert!(compared >= 288, "only {compared} queries compared with pytrec_eval");

    let mut wrong = Vec::new();
    for ((name, m), (pinned_name, want)) in got.iter().zip(PINNED) {
        assert_eq!(*name, pinned_name);
        for ((g, w), measure) in m.iter().zip(want).zip(MEASURES) {
            if (g - w).abs() > 1e-6 {
                wrong.push(format!("{name} {measure}: {g} (pinned {w})"));
            }
        }
    }
    for (g, what) in weights.iter().zip(["raw", "min-max"]) {
        if (g - PINNED_MEAN_WEIGHT).abs() > 1e-6 {
            wrong.push(format!("mean adaptive weight {what}: {g} (pinned {PINNED_MEAN_WEIGHT})"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
