//! The `haystack` and `graphrag` profiles against their tools' definitions.

use rerankit::metrics::{evaluate, profile, DuplicatePolicy, Qrels, RankingOptions, Run, Value};

fn values(qrels: &str, run: &str, profile_name: &str) -> Vec<(String, f64)> {
    let profile = profile(profile_name).unwrap();
    let qrels = Qrels::parse(qrels).unwrap();
    let run = Run::parse(run, DuplicatePolicy::Error).unwrap();
    let e = evaluate(&qrels, &run, &profile.measures, &profile.options).unwrap();
    e.measures
        .iter()
        .zip(&e.aggregate)
        .map(|(m, v)| (m.key.clone(), if let Value::Number(x) = v { *x } else { f64::NAN }))
        .collect()
}

/// Qrels listing `relevant` in order for query q, and a run listing `retrieved` in order (scores all equal,
/// so only the input order ranks them).
fn lists(relevant: &[u32], retrieved: &[u32]) -> (String, String) {
    let qrels: String = relevant.iter().map(|d| format!("q 0 d{d} 1\n")).collect();
    let run: String = retrieved.iter().enumerate().map(|(i, d)| format!("q Q0 d{d} {} 1.0 x\n", i + 1)).collect();
    (qrels, run)
}

#[test]
fn graphrag_eval_own_tests() {
    // graphrag-eval tests/steps/test_retrieval_evaluation_using_context_ids.py
    let (qrels, run) = lists(&[1, 3, 5, 7, 9], &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    let v = values(&qrels, &run, "graphrag@5");
    assert_eq!(v[0].0, "recall@5");
    assert!((v[0].1 - 0.6).abs() < 1e-12);
    let (qrels, run) = lists(&[1, 2, 5, 8], &[1, 3, 2, 4, 5, 6, 7, 8]);
    let v = values(&qrels, &run, "graphrag");
    assert_eq!(v[1].0, "average_precision");
    assert!((v[1].1 - 0.6916666666666667).abs() < 1e-12);
}

#[test]
fn graphrag_recall_cuts_the_reference_list_too() {
    // relevant [1, 3, 5, 6], retrieved [1, 4, 3, 5, 7], k = 2: first two relevant {1, 3}, top two {1, 4} → 1/2.
    let (qrels, run) = lists(&[1, 3, 5, 6], &[1, 4, 3, 5, 7]);
    assert!((values(&qrels, &run, "graphrag@2")[0].1 - 0.5).abs() < 1e-12);
    // k = 5: all four relevant, 3 found → 0.75 (the README's example).
    assert!((values(&qrels, &run, "graphrag@5")[0].1 - 0.75).abs() < 1e-12);
}

#[test]
fn haystack_document_metrics() {
    // Retrieved d1 (rel), d2, d3 (rel); gold = d1, d3, d4 → R = 3.
    let qrels = "q 0 d1 1\nq 0 d3 1\nq 0 d4 1\n";
    let run = "q Q0 d1 1 0.9 x\nq Q0 d2 2 0.8 x\nq Q0 d3 3 0.7 x\n";
    let v = values(qrels, run, "haystack");
    let get = |k: &str| v.iter().find(|(key, _)| key == k).unwrap().1;
    assert!((get("recall_multi_hit") - 2.0 / 3.0).abs() < 1e-12);
    assert_eq!(get("recall_single_hit"), 1.0);
    assert!((get("precision") - 2.0 / 3.0).abs() < 1e-12);
    assert!((get("map") - (1.0 + 2.0 / 3.0) / 3.0).abs() < 1e-12);
    assert_eq!(get("mrr"), 1.0);
    let idcg = 1.0 + 1.0 / 3f64.log2() + 1.0 / 4f64.log2();
    assert!((get("ndcg") - (1.0 + 1.0 / 4f64.log2()) / idcg).abs() < 1e-12);
}

#[test]
fn haystack_query_without_gold_documents_has_recall_one() {
    // Query p has no judgements: Haystack evaluates it with num_relevants = 0.
    let qrels = "q 0 d1 1\n";
    let run = "q Q0 d1 1 0.9 x\np Q0 d7 1 0.9 x\n";
    let v = values(qrels, run, "haystack");
    let get = |k: &str| v.iter().find(|(key, _)| key == k).unwrap().1;
    assert_eq!(get("recall_multi_hit"), 1.0);
    assert_eq!(get("recall_single_hit"), 1.0);
    assert_eq!(get("precision"), 0.5);
    assert_eq!(get("mrr"), 0.5);
    assert_eq!(get("ndcg"), 0.5);
}

#[test]
fn haystack_simulated_top_k_is_max_results() {
    let qrels = "q 0 d1 1\nq 0 d3 1\n";
    let run = "q Q0 d1 1 0.9 x\nq Q0 d2 2 0.8 x\nq Q0 d3 3 0.7 x\n";
    let mut profile = profile("haystack").unwrap();
    profile.options.ranking = RankingOptions { max_results: Some(1), ..profile.options.ranking };
    let e = evaluate(&Qrels::parse(qrels).unwrap(), &Run::parse(run, DuplicatePolicy::Error).unwrap(), &profile.measures, &profile.options)
        .unwrap();
    // ndcg's ideal still sums over both relevant documents.
    let ndcg = e.aggregate_of("ndcg").unwrap();
    assert_eq!(*ndcg, Value::Number(1.0 / (1.0 + 1.0 / 3f64.log2())));
    assert_eq!(*e.aggregate_of("precision").unwrap(), Value::Number(1.0));
}

#[test]
fn unknown_profile_is_an_invalid_argument() {
    assert!(profile("ranx2").is_err());
    assert!(profile("graphrag@0").is_err());
}
