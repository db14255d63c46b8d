//! farm-haystack v1.26.4's `test/nodes/test_lost_in_the_middle.py`, one Rust test per Python test function (same
//! name, same inputs, same assertions), then the values farm-haystack itself gave around them
//! (`tests/fixtures/haystack/rankers.json`). Haystack's `run` / `predict` / `run_batch` are rerankit's `run` on one
//! list or a list of lists; Haystack's per-call `top_k` is rerankit's `topK` option (both are read by the same
//! `documents[:top_k] if top_k else documents`, and the fixture shows them equal).

use super::haystack_fixture::{contents, rankers_fixture, strings, text_documents, top_k};
use rerankit::document::ContentType;
use rerankit::options::from_json;
use rerankit::rankers::lost_in_the_middle::LostInTheMiddleRankerOptions;
use rerankit::rankers::{Batch, LostInTheMiddleRanker};
use rerankit::{Document, ErrorCode, Result};
use serde_json::{json, Value};

fn ranker(word_count_threshold: Option<usize>, top_k: Option<i64>) -> LostInTheMiddleRanker {
    LostInTheMiddleRanker::new(word_count_threshold, false, top_k).unwrap()
}

fn predict(ranker: &LostInTheMiddleRanker, documents: Vec<Document>) -> Result<Vec<Document>> {
    match ranker.run(Batch::One(documents))?.documents {
        Batch::One(list) => Ok(list),
        Batch::Many(_) => panic!("one list in, one list out"),
    }
}

fn order(ranker: &LostInTheMiddleRanker, documents: Vec<Document>) -> Vec<String> {
    contents(&predict(ranker, documents).unwrap())
}

/// `[Document(str(i)) for i in range(1, n + 1)]`
fn numbered(n: usize) -> Vec<Document> {
    text_documents(&(1..=n).map(|i| i.to_string()).collect::<Vec<_>>())
}

fn split(s: &str) -> Vec<String> {
    s.split_whitespace().map(str::to_string).collect()
}

#[test]
fn test_lost_in_the_middle_order_odd() {
    let result = order(&ranker(None, None), numbered(9));
    assert!(!result.is_empty());
    assert_eq!(result, split("1 3 5 7 9 8 6 4 2"));
}

#[test]
fn test_batch_lost_in_the_middle_order() {
    let docs = vec![text_documents(&["1", "2", "3", "4"]), text_documents(&["5", "6"]), text_documents(&["7", "8", "9"])];
    let Batch::Many(result) = ranker(None, None).run(Batch::Many(docs)).unwrap().documents else { panic!("shape") };
    let joined: Vec<String> = result.iter().map(|l| contents(l).join(" ")).collect();
    assert_eq!(joined, ["1 3 4 2", "5 6", "7 9 8"]);
}

#[test]
fn test_lost_in_the_middle_order_even() {
    assert_eq!(order(&ranker(None, None), numbered(10)), split("1 3 5 7 9 10 8 6 4 2"));
}

#[test]
fn test_lost_in_the_middle_order_two_docs() {
    assert_eq!(order(&ranker(None, None), numbered(2)), ["1", "2"]);
}

#[test]
fn test_lost_in_the_middle_init() {
    assert_eq!(LostInTheMiddleRankerOptions::default().word_count_threshold, None);
    let o: LostInTheMiddleRankerOptions = from_json("", json!({"wordCountThreshold": 10})).unwrap();
    assert_eq!(o.word_count_threshold, Some(10));
    assert!(LostInTheMiddleRanker::try_from(o).is_ok());
}

#[test]
fn test_lost_in_the_middle_init_invalid_word_count_threshold() {
    // Haystack: ValueError "Invalid value for word_count_threshold" for 0 and -5
    let err = LostInTheMiddleRanker::new(Some(0), false, None).unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidArgument);
    assert!(err.message.starts_with("wordCountThreshold: must be at least 1"), "{}", err.message);
    let err = from_json::<LostInTheMiddleRankerOptions>("", json!({"wordCountThreshold": -5})).unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidArgument);
    assert!(err.message.starts_with("wordCountThreshold: expected a non-negative integer"), "{}", err.message);
}

/// `[Document("word" + str(i)) for i in range(1, 10)]`
fn words() -> Vec<Document> {
    text_documents(&(1..10).map(|i| format!("word{i}")).collect::<Vec<_>>())
}

#[test]
fn test_lost_in_the_middle_with_word_count_threshold() {
    assert_eq!(order(&ranker(Some(6), None), words()), split("word1 word3 word5 word6 word4 word2"));
    assert_eq!(order(&ranker(Some(9), None), words()), split("word1 word3 word5 word7 word9 word8 word6 word4 word2"));
}

#[test]
fn test_word_count_threshold_greater_than_total_number_of_words_returns_all_documents() {
    let ordered = order(&ranker(Some(100), None), words());
    assert_eq!(ordered.len(), 9);
    assert_eq!(ordered, split("word1 word3 word5 word7 word9 word8 word6 word4 word2"));
}

#[test]
fn test_empty_documents_returns_empty_list() {
    assert_eq!(predict(&ranker(None, None), vec![]).unwrap(), vec![]);
}

#[test]
fn test_list_of_one_document_returns_same_document() {
    let doc = Document::new("test");
    assert_eq!(predict(&ranker(None, None), vec![doc.clone()]).unwrap(), vec![doc]);
}

fn image(content: &str) -> Document {
    let mut doc = Document::new(content);
    doc.content_type = ContentType::Image;
    doc
}

#[test]
fn test_non_textual_documents() {
    let docs = vec![Document::new("This is a textual document."), image("This is a non-textual document.")];
    let err = predict(&ranker(None, None), docs).unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidArgument);
    assert!(err.message.starts_with("documents[1].content_type: LostInTheMiddleRanker reorders text documents only"), "{}", err.message);
}

#[test]
fn test_lost_in_the_middle_order_with_postive_top_k() {
    for k in [1, 2, 3, 4, 5, 6, 7, 8, 12, 20] {
        let result = predict(&ranker(None, Some(k)), numbered(9)).unwrap();
        if (k as usize) < 9 {
            assert_eq!(result.len(), k as usize);
            assert_eq!(result, predict(&ranker(None, None), numbered(k as usize)).unwrap(), "top_k {k}");
        } else {
            assert_eq!(result.len(), 9);
            assert_eq!(result, predict(&ranker(None, None), numbered(9)).unwrap(), "top_k {k}");
        }
    }
}

#[test]
fn test_lost_in_the_middle_order_with_negative_top_k() {
    for k in [-20i64, -10, -5, -1] {
        let result = predict(&ranker(None, Some(k)), numbered(9)).unwrap();
        if k < -9 {
            assert!(result.is_empty(), "top_k {k}");
        } else {
            assert_eq!(result, predict(&ranker(None, Some(9 + k)), numbered(9)).unwrap(), "top_k {k}");
        }
    }
}

// --- values farm-haystack 1.26.4 gave (rankers.json, "lost_in_the_middle") ---

fn haystack() -> &'static Value {
    &rankers_fixture()["lost_in_the_middle"]
}

#[test]
fn haystack_top_k_of_every_sign() {
    for case in haystack()["top_k"].as_array().unwrap() {
        let (n, k) = (case["n"].as_u64().unwrap() as usize, top_k(&case["top_k"]));
        let want = strings(&case["init"]["result"]);
        assert_eq!(strings(&case["predict"]["result"]), want, "Haystack's init and per-call top_k agree");
        assert_eq!(order(&ranker(None, k), numbered(n)), want, "n {n}, top_k {k:?}");
    }
}

#[test]
fn haystack_word_count_thresholds() {
    for case in haystack()["threshold"].as_array().unwrap() {
        let threshold = case["threshold"].as_i64().unwrap();
        match (usize::try_from(threshold), case["documents"].get("result")) {
            (Ok(t), Some(want)) => assert_eq!(order(&ranker(Some(t), None), words()), strings(want), "threshold {t}"),
            (Ok(t), None) => assert!(LostInTheMiddleRanker::new(Some(t), false, None).is_err(), "threshold {t}"),
            (Err(_), _) => {
                assert_eq!(case["documents"]["error"], "ValueError");
                assert!(from_json::<LostInTheMiddleRankerOptions>("", json!({"wordCountThreshold": threshold})).is_err());
            }
        }
    }
}

#[test]
fn haystack_batches_and_content_types() {
    let cases = &haystack()["cases"];
    let batch = || vec![text_documents(&["1", "2", "3", "4"]), text_documents(&["5", "6"]), text_documents(&["7", "8", "9"])];
    for (name, k) in [("run_batch", None), ("run_batch_top_k_2", Some(2)), ("run_batch_top_k_minus_1", Some(-1))] {
        let Batch::Many(lists) = ranker(None, k).run(Batch::Many(batch())).unwrap().documents else { panic!("shape") };
        let want: Vec<Vec<String>> = cases[name]["result"].as_array().unwrap().iter().map(strings).collect();
        assert_eq!(lists.iter().map(|l| contents(l)).collect::<Vec<_>>(), want, "{name}");
    }
    assert_eq!(order(&ranker(None, None), numbered(2)), strings(&cases["two_documents"]["result"]));
    assert_eq!(order(&ranker(None, None), vec![]), strings(&cases["empty"]["result"]));
    assert_eq!(order(&ranker(None, None), text_documents(&["test"])), strings(&cases["one_text"]["result"]));

    // Haystack returns fewer than two documents before looking at their type, and checks only the kept ones.
    let text = || Document::new("This is a textual document.");
    let img = || image("This is a non-textual document.");
    assert_eq!(contents(&predict(&ranker(None, None), vec![img()]).unwrap()), strings(&cases["one_image"]["result"]));
    assert_eq!(cases["text_then_image"]["error"], "ValueError");
    assert!(predict(&ranker(None, None), vec![text(), img()]).is_err());
    for (name, k, docs) in [
        ("text_then_image_top_k_1", 1, vec![text(), img()]),
        ("text_text_image_top_k_2", 2, vec![text(), text(), img()]),
        ("text_text_image_top_k_minus_1", -1, vec![text(), text(), img()]),
    ] {
        assert_eq!(order(&ranker(None, Some(k)), docs), strings(&cases[name]["result"]), "{name}");
    }
}

#[test]
fn top_k_reads_as_an_integer_of_either_sign() {
    let o: LostInTheMiddleRankerOptions = from_json("", json!({"topK": -2})).unwrap();
    assert_eq!(order(&LostInTheMiddleRanker::try_from(o).unwrap(), numbered(9)), split("1 3 5 7 6 4 2"));
    for bad in [json!(1.5), json!("2"), json!(true), json!(1e300)] {
        let err = from_json::<LostInTheMiddleRankerOptions>("", json!({ "topK": bad })).unwrap_err();
        assert_eq!(err.code, ErrorCode::InvalidArgument);
        assert!(err.message.starts_with("topK: expected an integer"), "{}", err.message);
    }
}
