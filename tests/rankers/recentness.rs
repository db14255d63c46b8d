//! RecentnessRanker against docs/parity.md §3.

use rerankit::rankers::{Batch, RankingMode, RecentnessRanker};
use rerankit::{Document, ErrorCode};
use serde_json::{json, Value};

fn doc(id: &str, score: Option<f64>, date: Value) -> Document {
    let mut d = Document::new(format!("content of {id}"));
    d.id = id.to_string();
    d.score = score;
    if !date.is_null() {
        d.meta.insert("date".into(), date);
    }
    d
}

/// docs/parity.md §3's four documents.
fn golden_docs() -> Vec<Document> {
    vec![
        doc("d1", Some(0.9), json!("2021-05-01")),
        doc("d2", Some(0.8), json!("2023-01-15")),
        doc("d3", Some(0.4), json!("2019-12-31")),
        doc("d4", Some(0.3), json!("2024-02-29T10:00:00Z")),
    ]
}

fn ranked(mode: RankingMode, weight: f64, docs: Vec<Document>) -> Vec<(String, f64)> {
    let ranker = RecentnessRanker::new("date", weight, None, mode).unwrap();
    let out = ranker.run(Batch::One(docs)).unwrap();
    let Batch::One(list) = out.documents else { panic!("shape") };
    list.into_iter().map(|d| (d.id, d.score.unwrap())).collect()
}

fn assert_golden(got: &[(String, f64)], want: &[(&str, f64)]) {
    assert_eq!(got.len(), want.len(), "{got:?}");
    for ((gid, gs), (wid, ws)) in got.iter().zip(want) {
        assert_eq!(gid, wid, "{got:?}");
        assert!((gs - ws).abs() <= 1e-15, "{gid}: {gs} vs {ws}");
    }
}

#[test]
fn golden_rrf_half() {
    assert_golden(
        &ranked(RankingMode::ReciprocalRankFusion, 0.5, golden_docs()),
        &[("d1", 0.016133229247983348), ("d2", 0.016129032258064516), ("d4", 0.016009221311475412), ("d3", 0.015749007936507936)],
    );
}

#[test]
fn golden_rrf_zero() {
    assert_golden(
        &ranked(RankingMode::ReciprocalRankFusion, 0.0, golden_docs()),
        &[("d1", 0.01639344262295082), ("d2", 0.016129032258064516), ("d3", 0.015873015873015872), ("d4", 0.015625)],
    );
}

#[test]
fn golden_rrf_one() {
    assert_golden(
        &ranked(RankingMode::ReciprocalRankFusion, 1.0, golden_docs()),
        &[("d4", 0.01639344262295082), ("d2", 0.016129032258064516), ("d1", 0.015873015873015872), ("d3", 0.015625)],
    );
}

#[test]
fn golden_score_half() {
    assert_golden(&ranked(RankingMode::Score, 0.5, golden_docs()), &[("d2", 0.775), ("d1", 0.7), ("d4", 0.65), ("d3", 0.325)]);
}

#[test]
fn golden_score_one() {
    assert_golden(&ranked(RankingMode::Score, 1.0, golden_docs()), &[("d4", 1.0), ("d2", 0.75), ("d1", 0.5), ("d3", 0.25)]);
}

#[test]
fn golden_scores_are_bit_exact() {
    // Haystack adds 1/(61+i)·(1−w) then 1/(61+j)·w; the same order gives the same bits.
    let got = ranked(RankingMode::ReciprocalRankFusion, 0.5, golden_docs());
    assert_eq!(got[0].1, 0.016133229247983348);
    assert_eq!(got[2].1, 0.016009221311475412);
}

#[test]
fn top_k_cuts_after_ranking() {
    let ranker = RecentnessRanker::new("date", 1.0, Some(2), RankingMode::ReciprocalRankFusion).unwrap();
    let Batch::One(list) = ranker.run(Batch::One(golden_docs())).unwrap().documents else { panic!() };
    let ids: Vec<_> = list.iter().map(|d| d.id.as_str()).collect();
    assert_eq!(ids, ["d4", "d2"]);
}

#[test]
fn date_forms_mix_and_sort_newest_first() {
    let docs = vec![
        doc("rfc2822", None, json!("Wed, 02 Jun 2021 06:31:39 GMT")),
        doc("space", None, json!("2023-05-01 10:00")),
        doc("slash", None, json!("2021/05/01")),
        doc("epoch", None, json!(1_700_000_000)),   // 2023-11-14
        doc("digits", None, json!("1600000000")),  // 2020-09-13
        doc("zoned", None, json!("2024-01-01T01:00:00+02:00")), // 2023-12-31T23:00Z
    ];
    let got = ranked(RankingMode::ReciprocalRankFusion, 1.0, docs);
    let ids: Vec<_> = got.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(ids, ["zoned", "epoch", "space", "rfc2822", "slash", "digits"]);
}

#[test]
fn equal_dates_keep_input_order() {
    let docs = vec![doc("a", None, json!("2020-01-01")), doc("b", None, json!("2020-01-01T00:00:00Z")), doc("c", None, json!("2021-01-01"))];
    let got = ranked(RankingMode::ReciprocalRankFusion, 1.0, docs);
    let ids: Vec<_> = got.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(ids, ["c", "a", "b"]);
}

#[test]
fn equal_scores_keep_input_order() {
    // Weight 0.5 with dates reversed to input order: every document gets the same RRF score.
    let docs = vec![doc("a", None, json!("2020-01-01")), doc("b", None, json!("2021-01-01")), doc("c", None, json!("2022-01-01"))];
    let got = ranked(RankingMode::ReciprocalRankFusion, 0.5, docs);
    let ids: Vec<_> = got.iter().map(|(id, _)| id.as_str()).collect();
    // a: 1/61+1/63, b: 1/62+1/62, c: 1/63+1/61 → a and c tie exactly and keep their order.
    assert_eq!(ids, ["a", "c", "b"]);
}

#[test]
fn missing_date_is_an_error_naming_the_ids() {
    let docs = vec![doc("d1", None, json!("2021-01-01")), doc("nodate", None, Value::Null), doc("nodate2", None, Value::Null)];
    let ranker = RecentnessRanker::new("date", 0.5, None, RankingMode::ReciprocalRankFusion).unwrap();
    let err = ranker.run(Batch::One(docs)).unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidArgument);
    assert!(err.message.starts_with("documents[1].meta.date:"), "{}", err.message);
    assert!(err.message.contains("nodate, nodate2"), "{}", err.message);
}

#[test]
fn null_date_counts_as_missing() {
    let mut d = doc("n", None, json!("2020-01-01"));
    d.meta.insert("date".into(), Value::Null);
    let ranker = RecentnessRanker::new("date", 0.5, None, RankingMode::ReciprocalRankFusion).unwrap();
    let err = ranker.run(Batch::One(vec![d])).unwrap_err();
    assert!(err.message.contains("documents[0].meta.date"), "{}", err.message);
}

#[test]
fn unparsable_date_returns_the_list_unchanged_with_a_warning() {
    let docs = vec![
        doc("a", Some(0.1), json!("2020-01-01")),
        doc("b", Some(0.2), json!("sometime soon")),
        doc("c", Some(0.3), json!("2022-01-01")),
    ];
    let ranker = RecentnessRanker::new("date", 1.0, Some(1), RankingMode::ReciprocalRankFusion).unwrap();
    let out = ranker.run(Batch::One(docs.clone())).unwrap();
    assert_eq!(out.documents, Batch::One(docs), "order, scores and length untouched");
    assert_eq!(out.warnings.len(), 1);
    assert!(out.warnings[0].contains("documents[1].meta.date = \"sometime soon\""), "{}", out.warnings[0]);
}

#[test]
fn a_non_date_value_is_an_error() {
    let docs = vec![doc("a", None, json!(true))];
    let ranker = RecentnessRanker::new("date", 1.0, None, RankingMode::ReciprocalRankFusion).unwrap();
    let err = ranker.run(Batch::One(docs)).unwrap_err();
    assert!(err.message.starts_with("documents[0].meta.date: a boolean"), "{}", err.message);
}

#[test]
fn score_mode_counts_out_of_range_and_missing_scores_as_zero_with_warnings() {
    let docs = vec![
        doc("big", Some(7.5), json!("2020-01-01")),
        doc("none", None, json!("2019-01-01")),
        doc("ok", Some(0.5), json!("2018-01-01")),
    ];
    let ranker = RecentnessRanker::new("date", 0.5, None, RankingMode::Score).unwrap();
    let out = ranker.run(Batch::One(docs)).unwrap();
    let Batch::One(list) = out.documents else { panic!() };
    let got: Vec<_> = list.iter().map(|d| (d.id.as_str(), d.score.unwrap())).collect();
    // big: 0 + 0.5·3/3 = 0.5; none: 0 + 0.5·2/3; ok: 0.25 + 0.5·1/3
    assert_eq!(got[0], ("big", 0.5));
    assert_eq!(got[1].0, "ok");
    assert!((got[1].1 - (0.25 + 0.5 / 3.0)).abs() < 1e-15);
    assert_eq!(got[2].0, "none");
    assert_eq!(out.warnings.len(), 2);
    assert!(out.warnings[0].starts_with("documents[0].score: 7.5"), "{:?}", out.warnings);
    assert!(out.warnings[1].starts_with("documents[1].score:"), "{:?}", out.warnings);
}

#[test]
fn score_mode_rejects_nan() {
    let docs = vec![doc("a", Some(f64::NAN), json!("2020-01-01"))];
    let ranker = RecentnessRanker::new("date", 0.5, None, RankingMode::Score).unwrap();
    let err = ranker.run(Batch::One(docs)).unwrap_err();
    assert!(err.message.starts_with("documents[0].score: NaN"), "{}", err.message);
}

#[test]
fn rrf_mode_ignores_scores_even_nan() {
    let docs = vec![doc("a", Some(f64::NAN), json!("2020-01-01"))];
    let ranker = RecentnessRanker::new("date", 0.5, None, RankingMode::ReciprocalRankFusion).unwrap();
    assert!(ranker.run(Batch::One(docs)).is_ok());
}

#[test]
fn weight_outside_unit_interval_is_an_error() {
    for w in [-0.1, 1.01, f64::NAN, f64::INFINITY] {
        let err = RecentnessRanker::new("date", w, None, RankingMode::Score).unwrap_err();
        assert_eq!(err.code, ErrorCode::InvalidArgument);
        assert!(err.message.starts_with("weight:"), "{}", err.message);
    }
    assert!(RankingMode::parse("ranking_mode", "linear").unwrap_err().message.starts_with("ranking_mode:"));
    assert_eq!(RankingMode::parse("ranking_mode", "score").unwrap(), RankingMode::Score);
}

#[test]
fn empty_list_gives_empty_result() {
    let ranker = RecentnessRanker::new("date", 0.5, None, RankingMode::ReciprocalRankFusion).unwrap();
    assert_eq!(ranker.run(Batch::One(vec![])).unwrap().documents, Batch::One(vec![]));
    assert_eq!(ranker.run(Batch::Many(vec![])).unwrap().documents, Batch::Many(vec![]));
}

#[test]
fn list_of_lists_ranks_each_list_independently() {
    let ranker = RecentnessRanker::new("date", 0.5, None, RankingMode::ReciprocalRankFusion).unwrap();
    let second = vec![doc("x", None, json!("2001-01-01")), doc("y", None, json!("2002-01-01"))];
    let out = ranker.run(Batch::Many(vec![golden_docs(), vec![], second.clone()])).unwrap();
    let Batch::Many(lists) = out.documents else { panic!("shape") };
    assert_eq!(lists.len(), 3);
    let first: Vec<_> = lists[0].iter().map(|d| d.id.as_str()).collect();
    assert_eq!(first, ["d1", "d2", "d4", "d3"]);
    assert!((lists[0][0].score.unwrap() - 0.016133229247983348).abs() <= 1e-15);
    assert!(lists[1].is_empty());
    // x: 1/61·0.5 + 1/62·0.5, y: 1/62·0.5 + 1/61·0.5: a tie, input order kept.
    let third: Vec<_> = lists[2].iter().map(|d| d.id.as_str()).collect();
    assert_eq!(third, ["x", "y"]);

    // Errors name the list.
    let bad = vec![doc("m", None, Value::Null)];
    let err = ranker.run(Batch::Many(vec![second, bad])).unwrap_err();
    assert!(err.message.starts_with("documents[1][0].meta.date:"), "{}", err.message);
}
