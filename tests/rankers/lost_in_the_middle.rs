//! LostInTheMiddleRanker against docs/parity.md §4.

use rerankit::document::ContentType;
use rerankit::rankers::lost_in_the_middle::{lost_in_the_middle_order, python_word_count};
use rerankit::rankers::{Batch, LostInTheMiddleRanker};
use rerankit::{Document, ErrorCode};
use serde_json::json;

fn docs(n: usize, words_each: usize) -> Vec<Document> {
    (1..=n)
        .map(|i| {
            let text = if words_each == 0 { i.to_string() } else { vec![format!("w{i}"); words_each].join(" ") };
            let mut d = Document::new(text);
            d.id = i.to_string();
            d.score = Some(1.0 / i as f64);
            d
        })
        .collect()
}

fn ids(ranker: &LostInTheMiddleRanker, input: Vec<Document>) -> Vec<String> {
    let Batch::One(list) = ranker.run(Batch::One(input)).unwrap().documents else { panic!("shape") };
    list.into_iter().map(|d| d.id).collect()
}

fn plain() -> LostInTheMiddleRanker {
    LostInTheMiddleRanker::new(None, false, None).unwrap()
}

#[test]
fn golden_nine() {
    assert_eq!(ids(&plain(), docs(9, 0)), ["1", "3", "5", "7", "9", "8", "6", "4", "2"]);
}

#[test]
fn golden_ten() {
    assert_eq!(ids(&plain(), docs(10, 0)), ["1", "3", "5", "7", "9", "10", "8", "6", "4", "2"]);
}

#[test]
fn golden_word_count_threshold() {
    let r = LostInTheMiddleRanker::new(Some(45), false, None).unwrap();
    assert_eq!(ids(&r, docs(9, 10)), ["1", "3", "5", "4", "2"]);
}

#[test]
fn order_permutation() {
    assert_eq!(lost_in_the_middle_order(0), Vec::<usize>::new());
    assert_eq!(lost_in_the_middle_order(1), [0]);
    assert_eq!(lost_in_the_middle_order(2), [0, 1]);
    assert_eq!(lost_in_the_middle_order(5), [0, 2, 4, 3, 1]);
}

#[test]
fn first_document_alone_reaching_the_threshold() {
    let r = LostInTheMiddleRanker::new(Some(10), false, None).unwrap();
    assert_eq!(ids(&r, docs(5, 10)), ["1"]);
    let r = LostInTheMiddleRanker::new(Some(3), true, None).unwrap();
    let Batch::One(out) = r.run(Batch::One(docs(5, 10))).unwrap().documents else { panic!() };
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].text(), Some("w1 w1 w1"));
}

#[test]
fn threshold_reached_exactly_includes_that_document() {
    let r = LostInTheMiddleRanker::new(Some(40), false, None).unwrap();
    assert_eq!(ids(&r, docs(9, 10)), ["1", "3", "4", "2"]);
}

#[test]
fn truncate_document_cuts_the_last_document_to_the_threshold() {
    let r = LostInTheMiddleRanker::new(Some(45), true, None).unwrap();
    let Batch::One(out) = r.run(Batch::One(docs(9, 10))).unwrap().documents else { panic!() };
    let total: usize = out.iter().map(|d| python_word_count(d.text().unwrap())).sum();
    assert_eq!(total, 45);
    let fifth = out.iter().find(|d| d.id == "5").unwrap();
    assert_eq!(fifth.text(), Some("w5 w5 w5 w5 w5"));
    // The others are untouched.
    assert_eq!(python_word_count(out[0].text().unwrap()), 10);
}

#[test]
fn top_k_cuts_before_reordering() {
    let r = LostInTheMiddleRanker::new(None, false, Some(5)).unwrap();
    assert_eq!(ids(&r, docs(9, 0)), ["1", "3", "5", "4", "2"]);
}

#[test]
fn scores_are_kept() {
    let Batch::One(out) = plain().run(Batch::One(docs(3, 0))).unwrap().documents else { panic!() };
    let scores: Vec<_> = out.iter().map(|d| d.score.unwrap()).collect();
    assert_eq!(scores, [1.0, 1.0 / 3.0, 0.5]);
}

#[test]
fn words_split_like_python() {
    assert_eq!(python_word_count("  a\tb\nc\u{a0}d\u{1f}e  "), 5);
    assert_eq!(python_word_count(""), 0);
}

#[test]
fn empty_and_single() {
    assert!(ids(&plain(), vec![]).is_empty());
    assert_eq!(ids(&plain(), docs(1, 0)), ["1"]);
}

#[test]
fn non_text_documents_are_an_error() {
    let mut input = docs(3, 0);
    input[2].content_type = ContentType::Table;
    input[2].content = json!([["col"], ["x"]]);
    let err = plain().run(Batch::One(input)).unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidArgument);
    assert!(err.message.starts_with("documents[2].content_type:"), "{}", err.message);
    assert!(err.message.contains("\"table\""), "{}", err.message);
}

#[test]
fn bad_parameters() {
    assert!(LostInTheMiddleRanker::new(Some(0), false, None).unwrap_err().message.starts_with("wordCountThreshold:"));
    // Haystack's `documents[:top_k] if top_k else documents`: 0 keeps all (lost_in_the_middle_haystack_tests.rs)
    assert_eq!(ids(&LostInTheMiddleRanker::new(None, false, Some(0)).unwrap(), docs(9, 0)), ids(&plain(), docs(9, 0)));
}

#[test]
fn list_of_lists() {
    let out = plain().run(Batch::Many(vec![docs(5, 0), vec![], docs(2, 0)])).unwrap().documents;
    let Batch::Many(lists) = out else { panic!("shape") };
    let ids: Vec<Vec<&str>> = lists.iter().map(|l| l.iter().map(|d| d.id.as_str()).collect()).collect();
    assert_eq!(ids, vec![vec!["1", "3", "5", "4", "2"], vec![], vec!["1", "2"]]);
}
