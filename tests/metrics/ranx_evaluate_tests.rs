//! ranx's own `tests/unit/ranx/meta/evaluate_test.py` and `metrics/*_test.py` (ranx 0.3.21's repository)
//! translated: their inputs and asserted values kept, in the ranx dialect. ranx's tests hand `evaluate` numba arrays `[[doc id, value], …]`
//! in ranking order with every score 1, so the run is ranked as given (`ties: "input"`); a query's list that names
//! a document twice (`test_reciprocal_rank_parallel`) keeps the first, as ranx's hit lists count it once.

use rerankit::metrics::inputs::columns::{Columns, DocIdTable};
use rerankit::metrics::{evaluate, Dialect, DuplicatePolicy, EvaluateOptions, Evaluation, Qrels, Run, TiePolicy};

/// `np.allclose`'s default tolerance: |a − b| ≤ 1e-8 + 1e-5·|b|.
fn allclose(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-8 + 1e-5 * b.abs()
}

/// ranx's `[[[id, grade], …], …]` qrels and `[[[id, score], …], …]` run, one list per query, into TREC text.
fn text(queries: &[&[(u32, i64)]], run: bool) -> String {
    let mut out = String::new();
    for (q, docs) in queries.iter().enumerate() {
        for (rank, (id, value)) in docs.iter().enumerate() {
            out.push_str(&match run {
                true => format!("q{q} Q0 d{id} {} {value} r\n", rank + 1),
                false => format!("q{q} 0 d{id} {value}\n"),
            });
        }
    }
    out
}

/// ranx's `evaluate(y_true, y_pred, name)`: the mean over the queries.
fn ranx_evaluate(y_true: &[&[(u32, i64)]], y_pred: &[&[(u32, i64)]], name: &str) -> f64 {
    let qrels = Qrels::parse(&text(y_true, false)).unwrap();
    let run = Run::parse(&text(y_pred, true), DuplicatePolicy::KeepFirst).unwrap();
    let options = EvaluateOptions { dialect: Some(Dialect::Ranx), ties: Some(TiePolicy::Input), ..Default::default() };
    let (requests, eval) = options.resolve(&[name.to_string()]).unwrap();
    evaluate(&qrels, &run, &requests, &eval).unwrap().aggregate[0].as_f64()
}

fn ones(ids: &[u32]) -> Vec<(u32, i64)> {
    ids.iter().map(|&id| (id, 1)).collect()
}

#[test]
fn hits_and_hit_rate() {
    assert_eq!(ranx_evaluate(&[&ones(&[1, 4, 5, 6])], &[&ones(&[1, 2, 3, 4, 5, 7])], "hits@5"), 3.0);
    let (t1, t2) = (ones(&[1, 4, 5, 6]), ones(&[1, 4, 6]));
    let (p1, p2) = (ones(&[1, 2, 3, 4, 5, 7]), ones(&[1, 2, 4, 3, 5, 7]));
    assert_eq!(ranx_evaluate(&[&t1, &t2], &[&p1, &p2], "hits@5"), 2.5);
    assert_eq!(ranx_evaluate(&[&ones(&[1, 2, 4])], &[&ones(&[1, 2, 4, 3, 5, 7])], "hit_rate@5"), 1.0);
    // ranx's first query lists doc 6 twice in its qrels; TREC qrels take a document once
    let (t1, t2) = (ones(&[9, 6, 8]), ones(&[1, 2, 4]));
    let (p1, p2) = (ones(&[1, 2, 3, 4, 5, 7]), ones(&[1, 2, 4, 3, 5, 7]));
    assert_eq!(ranx_evaluate(&[&t1, &t2], &[&p1, &p2], "hit_rate@5"), 0.5);
}

#[test]
fn precision_average_precision_recall() {
    assert_eq!(ranx_evaluate(&[&ones(&[1, 4, 5, 6])], &[&ones(&[1, 2, 3, 4, 5, 7])], "precision@5"), 3.0 / 5.0);
    let trues = [ones(&[1, 2, 3]), ones(&[4, 5, 6, 7]), ones(&[8, 9])];
    let pred = ones(&[4, 5, 6, 2, 1, 7, 3]);
    let y_true: Vec<&[(u32, i64)]> = trues.iter().map(Vec::as_slice).collect();
    let y_pred = [pred.as_slice(); 3];
    for name in ["precision@5", "map@7"] {
        let each: f64 = (0..3).map(|i| ranx_evaluate(&[y_true[i]], &[y_pred[i]], name)).sum::<f64>() / 3.0;
        assert!(allclose(ranx_evaluate(&y_true, &y_pred, name), each), "{name}");
    }
    assert!(allclose(ranx_evaluate(&[&ones(&[1, 4, 5, 6])], &[&ones(&[1, 2, 3, 4, 5, 7])], "map@6"), 0.525));
    let (t1, t2) = (ones(&[1, 2, 3]), ones(&[1, 2]));
    let p = ones(&[2, 4, 3, 1, 5, 6, 7]);
    assert!(allclose(ranx_evaluate(&[&t1], &[&p], "recall@2"), 1.0 / 3.0));
    assert!(allclose(ranx_evaluate(&[&t1, &t2], &[&p, &p], "recall@2"), (1.0 / 3.0 + 1.0 / 2.0) / 2.0));
    assert!(allclose(ranx_evaluate(&[&t1], &[&p], "r-precision"), 2.0 / 3.0));
    assert!(allclose(ranx_evaluate(&[&t1, &t2], &[&p, &p], "r-precision"), (2.0 / 3.0 + 1.0 / 2.0) / 2.0));
}

#[test]
fn reciprocal_rank() {
    assert!(allclose(ranx_evaluate(&[&ones(&[3])], &[&ones(&[2, 3, 1, 4, 5])], "mrr@5"), 0.5));
    assert!(allclose(ranx_evaluate(&[&ones(&[3])], &[&ones(&[2, 1, 4, 5])], "mrr@5"), 0.0));
    let (t1, t2, t3) = (ones(&[3]), ones(&[1]), ones(&[3]));
    let (p1, p2, p3) = (ones(&[2, 3, 1, 4, 5]), ones(&[1, 2, 3, 4, 5]), ones(&[1, 1, 1, 4, 5]));
    assert!(allclose(ranx_evaluate(&[&t1, &t2, &t3], &[&p1, &p2, &p3], "mrr@5"), 0.5));
}

/// `test_dcg_jarvelin`, `test_ndcg_jarvelin`, `test_dcg_burges`, `test_ndcg_burges`: grades 5, 4, 3, 2.
#[test]
fn dcg_and_ndcg_both_formulations() {
    let y_true: &[(u32, i64)] = &[(2, 5), (4, 4), (5, 3), (10, 2)];
    let preds = [ones(&[1, 2, 3, 4, 5]), ones(&[10, 5, 2, 4, 3]), ones(&[1, 3, 6, 7, 8])];
    let log2 = |x: f64| x.log2();
    let jarvelin = [5.0 / log2(3.0) + 4.0 / log2(5.0) + 3.0 / log2(6.0), 2.0 / log2(2.0) + 3.0 / log2(3.0) + 5.0 / log2(4.0) + 4.0 / log2(5.0), 0.0];
    let burges = [
        31.0 / log2(3.0) + 15.0 / log2(5.0) + 7.0 / log2(6.0),
        3.0 / log2(2.0) + 7.0 / log2(3.0) + 31.0 / log2(4.0) + 15.0 / log2(5.0),
        0.0,
    ];
    let idcg_jarvelin = 5.0 / log2(2.0) + 4.0 / log2(3.0) + 3.0 / log2(4.0) + 2.0 / log2(5.0);
    let idcg_burges = 31.0 / log2(2.0) + 15.0 / log2(3.0) + 7.0 / log2(4.0) + 3.0 / log2(5.0);
    for (i, pred) in preds.iter().enumerate() {
        assert!(allclose(ranx_evaluate(&[y_true], &[pred], "dcg@10"), jarvelin[i]), "dcg@10 {i}");
        assert!(allclose(ranx_evaluate(&[y_true], &[pred], "ndcg@10"), jarvelin[i] / idcg_jarvelin), "ndcg@10 {i}");
        assert!(allclose(ranx_evaluate(&[y_true], &[pred], "dcg_burges@10"), burges[i]), "dcg_burges@10 {i}");
        assert!(allclose(ranx_evaluate(&[y_true], &[pred], "ndcg_burges@10"), burges[i] / idcg_burges), "ndcg_burges@10 {i}");
    }
}

/// `test_with_Qrels_and_Run_control`, `test_python_dict`, `test_python_dict_2`: the same run given in another
/// order evaluates the same (ranked by score, ties by rerankit's rule).
#[test]
fn input_order_does_not_matter() {
    let qrels = Qrels::parse("q_1 0 doc_12 5\nq_1 0 doc_25 3\nq_2 0 doc_11 6\nq_2 0 doc_2 1\n").unwrap();
    let docs = [["doc_12", "doc_23", "doc_25", "doc_36", "doc_32", "doc_35"], ["doc_12", "doc_11", "doc_25", "doc_36", "doc_2", "doc_35"]];
    let scores = [0.9, 0.8, 0.7, 0.6, 0.5, 0.4];
    let mut forward = String::new();
    let mut backward = String::new();
    for (q, docs) in docs.iter().enumerate() {
        for (i, doc) in docs.iter().enumerate() {
            forward.push_str(&format!("q_{} Q0 {doc} {} {} r\n", q + 1, i + 1, scores[i]));
        }
        for (i, doc) in docs.iter().enumerate().rev() {
            backward.push_str(&format!("q_{} Q0 {doc} {} {} r\n", q + 1, i + 1, scores[i]));
        }
    }
    let options = EvaluateOptions { dialect: Some(Dialect::Ranx), ..Default::default() };
    let (requests, eval) = options.resolve(&["ndcg@5".to_string()]).unwrap();
    let x = evaluate(&qrels, &Run::parse(&forward, DuplicatePolicy::Error).unwrap(), &requests, &eval).unwrap();
    let y = evaluate(&qrels, &Run::parse(&backward, DuplicatePolicy::Error).unwrap(), &requests, &eval).unwrap();
    assert_eq!(x.aggregate, y.aggregate);
}

/// ranx's `tests/unit/ranx/metrics/rank_biased_precision_test.py` through the names ranx's `evaluate` reads for
/// it (`rbp.5`, `rbp.8`, `rbp.95`, and `rbp@95`), its values asserted to 4 decimals as there.
#[test]
fn rank_biased_precision_test() {
    let qrels: String = ["d1", "d2", "d6", "d11", "d17"].iter().map(|d| format!("q1 0 {d} 1\n")).collect();
    let run: String = (1..=20).map(|i| format!("q1 Q0 d{i} {i} {} r\n", 21 - i)).collect();
    let (qrels, run) = (Qrels::parse(&qrels).unwrap(), Run::parse(&run, DuplicatePolicy::Error).unwrap());
    let options = EvaluateOptions { dialect: Some(Dialect::Ranx), ..Default::default() };
    for (name, expected) in [("rbp.5", 0.7661), ("rbp.8", 0.4526), ("rbp.95", 0.1881), ("rbp@95", 0.1881)] {
        let (requests, eval) = options.resolve(&[name.to_string()]).unwrap();
        let value = evaluate(&qrels, &run, &requests, &eval).unwrap().aggregate[0].as_f64();
        assert_eq!((value * 1e4).round() / 1e4, expected, "{name}: {value}");
    }
}

/// A ranx dict `{qid: {docno: score}}` as a run, a query with no documents kept (columns keep an empty block, as
/// the JavaScript `{qid: {}}` does; TREC text cannot say it).
fn dict_run(queries: &[(&str, &[(&str, f64)])]) -> Run {
    let query_ids: Vec<&str> = queries.iter().map(|(q, _)| *q).collect();
    let mut offsets = vec![0u32];
    let mut doc_ids = Vec::new();
    let mut values = Vec::new();
    for (_, docs) in queries {
        doc_ids.extend(docs.iter().map(|(d, _)| *d));
        values.extend(docs.iter().map(|(_, s)| *s));
        offsets.push(values.len() as u32);
    }
    let doc_ids = DocIdTable::new(&doc_ids).unwrap();
    let columns = Columns { query_ids: &query_ids, offsets: &offsets, doc_ids, docs: None, values: &values };
    Run::from_columns("run", columns, DuplicatePolicy::Error).unwrap()
}

/// A ranx dict `{qid: {docno: grade}}` as qrels.
fn dict_qrels(queries: &[(&str, &[(&str, i64)])]) -> Qrels {
    Qrels::parse(&queries.iter().flat_map(|(q, docs)| docs.iter().map(move |(d, g)| format!("{q} 0 {d} {g}\n"))).collect::<String>())
        .unwrap()
}

/// Per query (qid order) and mean of `names` in the ranx dialect.
fn ranx_per_query(qrels: &Qrels, run: &Run, names: &[&str]) -> Evaluation {
    let options = EvaluateOptions { dialect: Some(Dialect::Ranx), ..Default::default() };
    let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
    let (requests, eval) = options.resolve(&names).unwrap();
    evaluate(qrels, run, &requests, &eval).unwrap()
}

/// `metrics/bpref_test.py` and `metrics/f1_test.py`: four queries, judged non-relevant and unjudged documents.
const BPREF_QRELS: &[(&str, &[(&str, i64)])] = &[
    ("q1", &[("d2", 1), ("d5", 1), ("d1", 0), ("d4", 0)]),
    ("q2", &[("d2", 1), ("d5", 1), ("d1", 0), ("d6", 0)]),
    ("q3", &[("d2", 1), ("d5", 1), ("d7", 1), ("d1", 0), ("d6", 0), ("d8", 0)]),
    ("q4", &[("d2", 1), ("d4", 1), ("d6", 1), ("d9", 1), ("d1", 0), ("d3", 0), ("d7", 0), ("d8", 0)]),
];

/// The first three queries of both tests' runs (their fourth differs).
const BPREF_RUN_HEAD: [(&str, &[(&str, f64)]); 3] = [
    ("q1", &[("d1", 10.0), ("d2", 9.0), ("d3", 8.0), ("d4", 7.0)]),
    ("q2", &[("d1", 10.0), ("d2", 9.0), ("d3", 8.0), ("d4", 7.0), ("d5", 6.0), ("d6", 5.0)]),
    ("q3", &[("d1", 10.0), ("d2", 9.0), ("d3", 8.0), ("d4", 7.0), ("d5", 6.0), ("d6", 5.0), ("d7", 4.0), ("d8", 3.0)]),
];

/// `metrics/bpref_test.py::test_bpref`, through ranx's name `bpref`.
#[test]
fn bpref_test() {
    let q4: &[(&str, f64)] = &[("d1", 10.0), ("d2", 9.0), ("d3", 8.0), ("d4", 7.0), ("d6", 5.0), ("d7", 4.0), ("d8", 3.0)];
    let run = dict_run(&[BPREF_RUN_HEAD[0], BPREF_RUN_HEAD[1], BPREF_RUN_HEAD[2], ("q4", q4)]);
    let e = ranx_per_query(&dict_qrels(BPREF_QRELS), &run, &["bpref"]);
    let expected = [
        1.0 / 2.0 * (1.0 - (1.0 / 2.0)),
        1.0 / 2.0 * ((1.0 - (1.0 / 2.0)) + (1.0 - (1.0 / 2.0))),
        1.0 / 3.0 * ((1.0 - (1.0 / 3.0)) + (1.0 - (1.0 / 3.0)) + (1.0 - (2.0 / 3.0))),
        1.0 / 4.0 * ((1.0 - (1.0 / 4.0)) + (1.0 - (2.0 / 4.0)) + (1.0 - (2.0 / 4.0))),
    ];
    assert_eq!(e.per_query.len(), 4);
    for (q, expected) in e.per_query.iter().zip(expected) {
        // math.isclose: relative 1e-9
        assert!((q.values[0].as_f64() - expected).abs() <= 1e-9 * expected.abs(), "{}: {:?}", q.qid, q.values);
    }
}

/// `metrics/f1_test.py::test_f1`: f1 = 2PR / (P + R) of ranx's precision and recall over the whole run; 0 for the
/// query that retrieves nothing relevant.
#[test]
fn f1_test() {
    let q4: &[(&str, f64)] = &[("d1", 10.0), ("d12", 9.0), ("d3", 8.0), ("d14", 7.0), ("d16", 5.0), ("d7", 4.0), ("d8", 3.0)];
    let run = dict_run(&[BPREF_RUN_HEAD[0], BPREF_RUN_HEAD[1], BPREF_RUN_HEAD[2], ("q4", q4)]);
    let e = ranx_per_query(&dict_qrels(BPREF_QRELS), &run, &["precision", "recall", "f1"]);
    assert_eq!(e.per_query.len(), 4);
    for q in &e.per_query[..3] {
        let [p, r, f1] = [0, 1, 2].map(|j| q.values[j].as_f64());
        let expected = 2.0 * ((p * r) / (p + r));
        assert!((f1 - expected).abs() <= 1e-9 * expected.abs(), "{}: f1 {f1}, 2PR/(P+R) {expected}", q.qid);
    }
    assert_eq!(e.per_query[3].values[2].as_f64(), 0.0);
}

/// `metrics/zero_division_error_test.py`: a query whose run is empty (`"q_3": {}`) scores 0, so precision, recall
/// and f1 average 0.75 over the four queries.
#[test]
fn zero_division_error_test() {
    let qrels = dict_qrels(&[("q_1", &[("doc_a", 1)]), ("q_2", &[("doc_b", 1)]), ("q_3", &[("doc_c", 1)]), ("q_4", &[("doc_d", 1)])]);
    let run = dict_run(&[("q_1", &[("doc_a", 1.0)]), ("q_2", &[("doc_b", 1.0)]), ("q_3", &[]), ("q_4", &[("doc_d", 1.0)])]);
    let e = ranx_per_query(&qrels, &run, &["precision", "recall", "f1"]);
    assert_eq!(e.per_query.len(), 4);
    for (j, name) in ["precision", "recall", "f1"].iter().enumerate() {
        assert_eq!(e.aggregate[j].as_f64(), 0.75, "{name}");
    }
}
