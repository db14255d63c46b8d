//! Inputs and bad input: parsing errors name the line, nothing panics, names in both styles.

use rerankit::metrics::formats::ranx_json::{qrels_from_json, run_from_json};
use rerankit::metrics::trec_cli::{run_trec_eval, TrecEvalArgs};
use rerankit::metrics::{
    evaluate, evaluate_text, parse_measures, DuplicatePolicy, EvalOptions, Metric, QueryScope, Qrels, RankingOptions, Run,
    TiePolicy, Value,
};
use rerankit::ErrorCode;

const QRELS: &str = "q1 0 d1 1\nq1 0 d2 0\nq1 0 d3 2\nq2 0 d9 1\n";
const RUN: &str = "q1 Q0 d1 1 0.5 r\nq1 Q0 d2 2 0.9 r\nq1 Q0 d4 3 0.1 r\nq2 Q0 d9 1 1.0 r\n";

fn number(v: &Value) -> f64 {
    match v {
        Value::Number(x) => *x,
        Value::Text(t) => panic!("expected a number, got {t:?}"),
    }
}

fn aggregate(qrels: &str, run: &str, measure: &str) -> f64 {
    let e = evaluate_text(qrels, run, &[measure], &EvalOptions::default()).unwrap();
    number(&e.aggregate[0])
}

#[test]
fn empty_run_evaluates_no_query() {
    let e = evaluate_text(QRELS, "", &["map"], &EvalOptions::default()).unwrap();
    assert!(e.per_query.is_empty());
    assert_eq!(number(&e.aggregate[0]), 0.0);
    let args = TrecEvalArgs::parse(&["q", "r"]).unwrap();
    let err = run_trec_eval(&args, QRELS, "", None).unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidArgument);
}

#[test]
fn empty_run_with_complete_scores_every_qrels_query_zero() {
    let options = EvalOptions { scope: QueryScope::AllQrels, ..Default::default() };
    let e = evaluate_text(QRELS, "", &["map", "P@5", "num_ret", "num_q"], &options).unwrap();
    assert_eq!(e.per_query.len(), 2);
    assert_eq!(e.aggregate.iter().map(number).collect::<Vec<_>>(), vec![0.0, 0.0, 0.0, 2.0]);
}

#[test]
fn nan_and_infinite_scores_are_errors() {
    for bad in ["nan", "NaN", "inf", "-inf", "abc"] {
        let err = Run::parse(&format!("q1 Q0 d1 1 0.5 r\nq1 Q0 d2 2 {bad} r\n"), DuplicatePolicy::Error).unwrap_err();
        assert_eq!(err.code, ErrorCode::Parse, "{bad}");
        assert!(err.message.contains("run line 2"), "{}", err.message);
    }
    let err = Run::from_triples([("q1", "d1", f64::NAN)], DuplicatePolicy::Error).unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidArgument);
    assert!(err.message.contains("q1") && err.message.contains("d1"), "{}", err.message);
}

#[test]
fn malformed_lines_name_the_line() {
    let err = Qrels::parse("q1 0 d1 1\n# comment\nq1 0 d2\n").unwrap_err();
    assert_eq!(err.code, ErrorCode::Parse);
    assert!(err.message.starts_with("qrels line 3"), "{}", err.message);
    let err = Qrels::parse("q1 0 d1 high\n").unwrap_err();
    assert!(err.message.contains("line 1") && err.message.contains("high"), "{}", err.message);
    let err = Run::parse("q1 Q0 d1 1 0.5\n", DuplicatePolicy::Error).unwrap_err();
    assert!(err.message.starts_with("run line 1") && err.message.contains("found 5"), "{}", err.message);
}

#[test]
fn comments_and_blank_lines_are_skipped() {
    let qrels = Qrels::parse("# header\n\nq1 0 d1 1\n   # indented comment\r\nq1 0 d2 0\r\n").unwrap();
    assert_eq!(qrels.len(), 2);
}

#[test]
fn duplicate_document_in_run_is_an_error_unless_keep_first() {
    let text = "q1 Q0 d1 1 0.5 r\nq1 Q0 d2 2 0.4 r\nq1 Q0 d1 3 0.9 r\n";
    let err = Run::parse(text, DuplicatePolicy::Error).unwrap_err();
    assert_eq!(err.code, ErrorCode::Parse);
    assert!(err.message.contains("run line 3") && err.message.contains("line 1"), "{}", err.message);
    // the lines named are the text's, past a byte-order mark, comments, blank lines and other queries' lines
    let text = "\u{feff}# a run\nq1 Q0 d1 1 0.5 r\n\nq2 Q0 d1 1 0.5 r\nq1 Q0 d2 2 0.4 r\n  # note\nq1 Q0 d1 3 0.9 r\n";
    let err = Run::parse(text, DuplicatePolicy::Error).unwrap_err();
    assert!(err.message.starts_with("run line 7:") && err.message.contains("(first at line 2)"), "{}", err.message);
    let run = Run::parse(text, DuplicatePolicy::KeepFirst).unwrap();
    let entries = &run.queries()[0].entries;
    assert_eq!(entries.len(), 2);
    let d1 = entries.iter().find(|e| run.docno(e) == "d1").unwrap();
    assert_eq!(d1.score, 0.5);
}

#[test]
fn duplicate_judgement_is_an_error() {
    let err = Qrels::parse("q1 0 d1 1\nq1 0 d1 0\n").unwrap_err();
    assert!(err.message.contains("qrels line 2"), "{}", err.message);
}

#[test]
fn negative_grades_are_judged_as_unjudged_in_pool() {
    // d2 has grade -1: not relevant, not judged non-relevant (bpref skips it), '.' in relstring.
    let qrels = "q1 0 d1 1\nq1 0 d2 -1\nq1 0 d3 0\n";
    let run = "q1 Q0 d2 1 0.9 r\nq1 Q0 d3 2 0.8 r\nq1 Q0 d1 3 0.7 r\n";
    let e = evaluate_text(qrels, run, &["relstring", "num_rel", "num_nonrel_judged_ret", "bpref", "P_1"], &EvalOptions::default())
        .unwrap();
    assert_eq!(e.per_query[0].values[0], Value::Text(".01".into()));
    assert_eq!(number(&e.per_query[0].values[1]), 1.0);
    assert_eq!(number(&e.per_query[0].values[2]), 1.0);
    // One judged non-relevant (d3) above d1: bpref = 1 - min(1,1)/min(1,1) = 0.
    assert_eq!(number(&e.per_query[0].values[3]), 0.0);
    assert_eq!(number(&e.per_query[0].values[4]), 0.0);
}

#[test]
fn unknown_measures_and_zero_cutoffs_are_invalid_arguments() {
    for bad in ["foo", "ndcg@0", "P@0", "P_0", "P.0", "ndcg_cut.0", "recall@", "mrr@x", "P.5,5", "map.3", "ndcg.1", ""] {
        let err = parse_measures(&[bad]).unwrap_err();
        assert_eq!(err.code, ErrorCode::InvalidArgument, "{bad}: {}", err.message);
    }
}

#[test]
fn measure_names_in_both_styles() {
    let cases: &[(&str, Metric)] = &[
        ("ndcg_cut_10", Metric::NdcgCut(10)),
        ("ndcg@10", Metric::NdcgCut(10)),
        ("nDCG@10", Metric::NdcgCut(10)),
        ("P_5", Metric::P(5)),
        ("P@5", Metric::P(5)),
        ("precision@5", Metric::P(5)),
        ("recall_100", Metric::Recall(100)),
        ("recall@100", Metric::Recall(100)),
        ("R@100", Metric::Recall(100)),
        ("map@100", Metric::MapCut(100)),
        ("map_cut_100", Metric::MapCut(100)),
        ("mrr@10", Metric::RecipRankCut(10)),
        ("mrr", Metric::RecipRank),
        ("recip_rank", Metric::RecipRank),
        ("success_10", Metric::Success(10)),
        ("hit_rate@10", Metric::Success(10)),
        ("hits@10", Metric::Hits(10)),
        ("iprec_at_recall_0.10", Metric::IprecAtRecall(0.1)),
        ("Rprec_mult_0.20", Metric::RprecMult(0.2)),
        ("ndcg_burges@5", Metric::NdcgBurgesCut(5)),
    ];
    for (name, metric) in cases {
        assert_eq!(&Metric::parse(name).unwrap(), metric, "{name}");
    }
    assert_eq!(Metric::parse_all("P.5,10").unwrap(), vec![Metric::P(5), Metric::P(10)]);
    assert_eq!(Metric::parse_all("ndcg_cut.10,20,23.4").unwrap(), vec![Metric::NdcgCut(10), Metric::NdcgCut(20), Metric::NdcgCut(23)]);
    assert_eq!(Metric::parse("ndcg.1=3,2=9").unwrap().name(), "ndcg_1=3,2=9");
    assert_eq!(Metric::parse_all("official").unwrap().len(), 2 + 3 + 5 + 11 + 9);
    let requests = parse_measures(&["ndcg@10", "P.5,10"]).unwrap();
    let keys: Vec<&str> = requests.iter().map(|r| r.key.as_str()).collect();
    assert_eq!(keys, ["ndcg@10", "P_5", "P_10"]);
}

#[test]
fn ranx_definitions_where_they_differ() {
    // q1 ranking: d2 (0), d1 (1), d4 (-); R = 2 (d1, d3).
    assert_eq!(aggregate("q1 0 d1 1\nq1 0 d2 0\nq1 0 d3 2\n", "q1 Q0 d1 1 0.5 r\nq1 Q0 d2 2 0.9 r\nq1 Q0 d4 3 0.1 r\n", "mrr@1"), 0.0);
    assert_eq!(aggregate("q1 0 d1 1\nq1 0 d2 0\nq1 0 d3 2\n", "q1 Q0 d1 1 0.5 r\nq1 Q0 d2 2 0.9 r\nq1 Q0 d4 3 0.1 r\n", "mrr"), 0.5);
    // map@1 (map_cut_1) = 0, map = (1/2)/2.
    assert_eq!(aggregate("q1 0 d1 1\nq1 0 d3 2\n", "q1 Q0 d1 1 0.5 r\nq1 Q0 d2 2 0.9 r\n", "map@1"), 0.0);
    assert_eq!(aggregate("q1 0 d1 1\nq1 0 d3 2\n", "q1 Q0 d1 1 0.5 r\nq1 Q0 d2 2 0.9 r\n", "map"), 0.25);
    // ndcg_burges: gain 2^g - 1; run d3 (g2), d1 (g1) is ideal.
    assert!((aggregate("q1 0 d1 1\nq1 0 d3 2\n", "q1 Q0 d3 1 0.9 r\nq1 Q0 d1 2 0.5 r\n", "ndcg_burges") - 1.0).abs() < 1e-12);
    let reversed = aggregate("q1 0 d1 1\nq1 0 d3 2\n", "q1 Q0 d3 1 0.1 r\nq1 Q0 d1 2 0.5 r\n", "ndcg_burges");
    let expected = (1.0 + 3.0 / 3f64.log2()) / (3.0 + 1.0 / 3f64.log2());
    assert!((reversed - expected).abs() < 1e-12);
}

#[test]
fn qrels_query_without_relevant_documents_is_evaluated_with_zeros() {
    let e = evaluate_text("q1 0 d1 0\nq1 0 d2 0\n", "q1 Q0 d1 1 0.5 r\n", &["map", "ndcg", "recall@10", "num_q", "bpref", "Rndcg", "ndcg_rel", "G", "iprec_at_recall", "11pt_avg", "set_F", "infAP"], &EvalOptions::default()).unwrap();
    assert_eq!(e.per_query.len(), 1);
    for (request, value) in e.measures.iter().zip(&e.aggregate) {
        let expected = if request.key == "num_q" { 1.0 } else { 0.0 };
        assert_eq!(number(value), expected, "{}", request.key);
    }
}

#[test]
fn ties_break_by_docno_descending_or_input_order() {
    let qrels = "q1 0 a 1\n";
    let run = "q1 Q0 a 1 1.0 r\nq1 Q0 b 2 1.0 r\n";
    // trec_eval: equal scores, docno descending → b before a.
    assert_eq!(aggregate(qrels, run, "recip_rank"), 0.5);
    let options = EvalOptions { ranking: RankingOptions { ties: TiePolicy::Input, ..Default::default() }, ..Default::default() };
    let e = evaluate_text(qrels, run, &["recip_rank"], &options).unwrap();
    assert_eq!(number(&e.aggregate[0]), 1.0);
}

#[test]
fn scores_a_few_ulps_apart_rank_by_score_and_equal_scores_by_docno() {
    // the sort packs each entry's index into the low bits of its score's key: scores that agree on the high bits
    // must still come out by full score, then docno descending
    let x = 0.5f64;
    let up = |v: f64| f64::from_bits(v.to_bits() + 1);
    let qrels = "q 0 a 1\nq 0 b 2\nq 0 c 3\nq 0 d 0\nq 0 e 4\n";
    let scores = [("a", x), ("b", up(x)), ("c", x), ("d", up(up(x))), ("e", -x)];
    let run: String = scores.iter().enumerate().map(|(i, (d, s))| format!("q Q0 {d} {} {s:e} r\n", i + 1)).collect();
    let e = evaluate_text(qrels, &run, &["relstring"], &EvalOptions::default()).unwrap();
    assert_eq!(e.per_query[0].values[0], Value::Text("02314".into()));
}

#[test]
fn relevance_level_and_max_results() {
    let options = EvalOptions { ranking: RankingOptions { relevance_level: 2, ..Default::default() }, ..Default::default() };
    let e = evaluate_text(QRELS, RUN, &["num_rel", "num_rel_ret"], &options).unwrap();
    assert_eq!(e.per_query[0].values.iter().map(number).collect::<Vec<_>>(), vec![1.0, 0.0]);
    let options = EvalOptions { ranking: RankingOptions { max_results: Some(1), ..Default::default() }, ..Default::default() };
    let e = evaluate_text(QRELS, RUN, &["num_ret"], &options).unwrap();
    assert_eq!(number(&e.aggregate[0]), 2.0);
}

#[test]
fn ranx_shaped_json_inputs() {
    let qrels = qrels_from_json(&serde_json::json!({"q1": {"d1": 1, "d3": 2}, "q2": {"d9": 1}})).unwrap();
    let run = run_from_json(&serde_json::json!({"q1": {"d1": 0.5, "d2": 0.9}, "q2": {"d9": 1.0}})).unwrap();
    let e = evaluate(&qrels, &run, &parse_measures(&["P@1", "recall@2"]).unwrap(), &EvalOptions::default()).unwrap();
    assert_eq!(e.aggregate.iter().map(number).collect::<Vec<_>>(), vec![0.5, 0.75]);
    let err = qrels_from_json(&serde_json::json!({"q1": {"d1": "high"}})).unwrap_err();
    assert!(err.message.contains("qrels[\"q1\"][\"d1\"]"), "{}", err.message);
    let err = run_from_json(&serde_json::json!({"q1": [1, 2]})).unwrap_err();
    assert!(err.message.contains("run[\"q1\"]"), "{}", err.message);
}

#[test]
fn no_panic_on_odd_input() {
    let odd_runs = ["", "\n\n", "#only comment\n", "q Q0 d 1 -0 r\n", "q Q0 d 1 1e308 r\nq Q0 e 2 -1e308 r\n"];
    let odd_qrels = ["", "q 0 d 0\n", "q 0 d -5\n", "q 0 d 99999999\n", "q 0 e 3\nq 0 d 1\n"];
    let all = parse_measures(&["all_trec", "ndcg_burges", "mrr@3", "hits@2", "f1@2", "graphrag_recall@2", "graphrag_ap", "haystack", "ndcg.0=1,1=-2,x=3"]).unwrap();
    for qrels_text in odd_qrels {
        for run_text in odd_runs {
            let qrels = Qrels::parse(qrels_text).unwrap();
            let run = Run::parse(run_text, DuplicatePolicy::Error).unwrap();
            let (qrels_t, run_t) = (qrels_text, run_text);
            for scope in [QueryScope::Judged, QueryScope::AllQrels, QueryScope::AllRun] {
                for max_results in [None, Some(0), Some(1)] {
                    let options = EvalOptions { scope, ranking: RankingOptions { max_results, ..Default::default() }, ..Default::default() };
                    if qrels_t.is_empty() {
                        // empty qrels judge nothing: refused (as trec_eval refuses them), never zeros
                        let err = evaluate(&qrels, &run, &all, &options).unwrap_err();
                        assert_eq!(err.code, rerankit::ErrorCode::InvalidArgument);
                        assert!(err.message.starts_with("qrels:"), "{}", err.message);
                        continue;
                    }
                    let e = evaluate(&qrels, &run, &all, &options).unwrap();
                    for (i, value) in e.per_query.iter().flat_map(|q| q.values.iter().enumerate()).chain(e.aggregate.iter().enumerate()) {
                        // with nothing retrieved (-M 0) trec_eval 10.0's interpolated precision is 0/0: it prints -nan
                        let key = &e.measures[i].key;
                        let zero_over_zero = max_results == Some(0) && (key.starts_with("iprec_at_recall") || key == "11pt_avg");
                        if let Value::Number(x) = value {
                            assert!(!x.is_nan() || zero_over_zero, "NaN for {key} with {scope:?} {max_results:?} {qrels_t:?} {run_t:?}");
                        }
                    }
                }
            }
        }
    }
}

/// A UTF-8 byte-order mark before the first line is stripped (docs/parity.md §7), so the first qid is `q1`, not
/// `\u{feff}q1` (which judged the first query as unjudged: map 0.5 instead of 1).
#[test]
fn byte_order_mark_is_stripped() {
    let qrels = Qrels::parse("\u{feff}q1 0 d1 1\nq2 0 d2 1\n").unwrap();
    let run = Run::parse("\u{feff}q1 Q0 d1 1 1 r\nq2 Q0 d2 1 1 r\n", DuplicatePolicy::Error).unwrap();
    let e = evaluate(&qrels, &run, &parse_measures(&["map"]).unwrap(), &EvalOptions::default()).unwrap();
    assert_eq!(e.per_query.iter().map(|q| q.qid.as_str()).collect::<Vec<_>>(), ["q1", "q2"]);
    assert_eq!(e.aggregate[0], Value::Number(1.0));
}
