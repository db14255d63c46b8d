//! farm-haystack v1.26.4's `test/nodes/test_ranker.py`, one Rust test per Python test function that needs no real
//! model (same name, inputs and assertions), then the values farm-haystack itself gave around them
//! (`tests/fixtures/haystack/rankers.json`, "sentence_transformers" and "recentness").
//!
//! - `SentenceTransformersRanker`: Haystack's unit tests mock the model's logits; rerankit ranks logits with
//!   [`rank`] (the cross-encoder's sort, sigmoid and `top_k`), pairs queries with lists with
//!   [`pair_queries_with_lists`] (what `CrossEncoder::predict_batch` calls) and builds the model's text with
//!   [`model_text`], so each test runs those on the mocked values.
//! - `RecentnessRanker`: `recency_tests_inputs`, through `predict`, `predict_batch` on a list and on a list of lists.
//!
//! The tests that need a real model or Cohere's API, and `test_ranker_get_batches` / `test_init_called_with`, are
//! listed with their reason in docs/parity.md §9.

use super::haystack_fixture::{rankers_fixture, top_k};
use rerankit::inference::cross_encoder::{model_text, rank};
use rerankit::inference::RerankOptions;
use rerankit::options::from_json;
use rerankit::rankers::recentness::RecentnessRankerOptions;
use rerankit::rankers::{pair_queries_with_lists, Batch, QueryBatch, QueryListPairs, RankingMode, RecentnessRanker};
use rerankit::{Document, ErrorCode};
use serde_json::{json, Map, Value};

// ------------------------------------------------------------------------------- SentenceTransformersRanker

/// `mock_transformer_model`'s logits (`num_labels = 1`), one per document of the `docs` fixture.
const MOCK_LOGITS: [f32; 5] = [-9.7414, -11.1572, -11.1708, -11.1515, 5.2571];
const QUERY: &str = "What is the most important building in King's Landing that has a religious background?";

/// The `docs` fixture: ids "1".."5", `meta.name` "0", none, "1", "2", `{}` (contents shortened: the mocked model
/// never reads them).
fn docs() -> Vec<Document> {
    [(Some("0"), "Aaron Aaron"), (None, "Democratic Republic of the Congo"), (Some("1"), "Schopenhauer"), (Some("2"), "The Dothraki vocabulary"), (None, "The title of the episode")]
        .iter()
        .enumerate()
        .map(|(i, (name, content))| {
            let mut d = Document::new(*content);
            d.id = (i + 1).to_string();
            if let Some(name) = name {
                d.meta.insert("name".into(), json!(name));
            }
            d
        })
        .collect()
}

/// `predict` with the mocked model: the documents' keys are the mocked logits; the first result's index.
fn top_document(options: &RerankOptions) -> usize {
    rank(&MOCK_LOGITS, true, options)[0].index
}

/// `_preprocess_batch_queries_and_docs`: (number_of_docs, all_queries, all_docs, single_list_of_docs).
fn preprocess(pairs: QueryListPairs<&str, Document>) -> (Vec<usize>, Vec<String>, Vec<String>, bool) {
    let mut numbers = Vec::new();
    let mut queries = Vec::new();
    let mut texts = Vec::new();
    for (_, query, list) in &pairs.pairs {
        numbers.push(list.len());
        for doc in list {
            queries.push(query.to_string());
            texts.push(doc.text().unwrap().to_string());
        }
    }
    (numbers, queries, texts, !pairs.nested)
}

fn dummy(contents: &[&str]) -> Vec<Document> {
    contents.iter().map(|c| Document::new(*c)).collect()
}

#[test]
fn test_ranker_preprocess_batch_queries_and_docs_raises() {
    let err = pair_queries_with_lists("queries", QueryBatch::Many(vec!["query 1", "query 2"]), "documents", Batch::One(dummy(&["dummy doc 1"])))
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidArgument);
    assert!(err.message.starts_with("queries: 2 queries for a single list"), "{}", err.message);
}

#[test]
fn test_ranker_preprocess_batch_queries_and_docs_single_query_single_doc_list() {
    let docs1 = dummy(&["dummy doc 1", "dummy doc 2"]);
    let pairs = pair_queries_with_lists("queries", QueryBatch::Many(vec!["query 1"]), "documents", Batch::One(docs1)).unwrap();
    let (num_of_docs, all_queries, all_docs, single_list_of_docs) = preprocess(pairs);
    assert!(single_list_of_docs);
    assert_eq!(num_of_docs, [2]);
    assert_eq!(all_queries.len(), 2);
    assert_eq!(all_docs.len(), 2);
}

#[test]
fn test_ranker_preprocess_batch_queries_and_docs_multiple_queries_multiple_doc_lists() {
    let lists = vec![dummy(&["dummy doc 1", "dummy doc 2"]), dummy(&["dummy doc 3"])];
    let pairs = pair_queries_with_lists("queries", QueryBatch::Many(vec!["query 1", "query 2"]), "documents", Batch::Many(lists)).unwrap();
    let (num_of_docs, all_queries, all_docs, single_list_of_docs) = preprocess(pairs);
    assert!(!single_list_of_docs);
    assert_eq!(num_of_docs, [2, 1]);
    assert_eq!(all_queries.len(), 3);
    assert_eq!(all_docs.len(), 3);
}

fn meta(value: Value) -> Map<String, Value> {
    value.as_object().unwrap().clone()
}

fn fields(names: &[&str]) -> Vec<String> {
    names.iter().map(|s| s.to_string()).collect()
}

#[test]
fn test_add_meta_fields_to_docs() {
    let docs = [
        ("dummy doc 1", json!({"str_field": "test1", "empty_str_field": "", "numeric_field": 2.0, "list_field": ["item0.1", "item0.2"], "empty_list_field": []})),
        ("dummy doc 2", json!({"str_field": "test2", "empty_str_field": "", "numeric_field": 5.0, "list_field": ["item1.1", "item1.2"], "empty_list_field": []})),
    ];
    let embed = fields(&["str_field", "empty_str_field", "numeric_field", "list_field", "empty_list_field"]);
    let with_meta: Vec<String> = docs.iter().map(|(content, m)| model_text(content, &meta(m.clone()), &embed)).collect();
    assert!(with_meta[0].starts_with("test1\n2.0\nitem0.1\nitem0.2\ndummy doc 1"), "{:?}", with_meta[0]);
    assert!(with_meta[1].starts_with("test2\n5.0\nitem1.1\nitem1.2\ndummy doc 2"), "{:?}", with_meta[1]);
}

#[test]
fn test_add_meta_fields_to_docs_none() {
    assert_eq!(model_text("dummy doc 1", &meta(json!({"none_field": null})), &fields(&["none_field"])), "dummy doc 1");
}

#[test]
fn test_add_meta_fields_to_docs_non_existent() {
    assert_eq!(model_text("dummy doc 1", &meta(json!({"test_field": "A string"})), &fields(&["wrong_field"])), "dummy doc 1");
}

#[test]
fn test_add_meta_fields_to_docs_empty_list() {
    assert_eq!(model_text("dummy doc 1", &meta(json!({"test_field": "A string"})), &[]), "dummy doc 1");
}

#[test]
fn test_ranker() {
    let docs = docs();
    assert_eq!(docs[top_document(&RerankOptions::default())].id, docs[4].id);
}

#[test]
fn test_ranker_run() {
    // Haystack's `run` is `predict` behind a timer
    let docs = docs();
    assert_eq!(docs[top_document(&RerankOptions::default())].id, "5");
}

#[test]
fn test_ranker_batch_single_query_single_doc_list() {
    let pairs = pair_queries_with_lists("queries", QueryBatch::Many(vec![QUERY]), "documents", Batch::One(docs())).unwrap();
    assert!(!pairs.nested);
    let (_, _, list) = &pairs.pairs[0];
    assert_eq!(list[top_document(&RerankOptions::default())].id, docs()[4].id);
}

#[test]
fn test_ranker_batch_single_query_multiple_doc_lists() {
    // batch_size=5: the mocked model answers each list's five pairs with the same five logits
    let options = RerankOptions { batch_size: 5, ..Default::default() };
    let pairs = pair_queries_with_lists("queries", QueryBatch::Many(vec![QUERY]), "documents", Batch::Many(vec![docs(), docs()])).unwrap();
    assert!(pairs.nested);
    assert_eq!(pairs.pairs.len(), 2);
    for (_, query, list) in &pairs.pairs {
        assert_eq!(*query, QUERY);
        assert_eq!(list[top_document(&options)].id, docs()[4].id);
    }
}

#[test]
fn test_ranker_with_embed_meta_fields() {
    let options = RerankOptions { embed_meta_fields: fields(&["name"]), ..Default::default() };
    let texts: Vec<String> = docs().iter().map(|d| model_text(d.text().unwrap(), &d.meta, &options.embed_meta_fields)).collect();
    assert_eq!(texts[0], "0\nAaron Aaron");
    assert_eq!(texts[4], "The title of the episode");
    assert_eq!(docs()[top_document(&options)].id, docs()[4].id);
}

#[test]
fn test_predict_batch_returns_correct_number_of_docs() {
    // the real model's scores do not matter to the count: any five keys, top_k=4
    let options = RerankOptions { top_k: Some(4), batch_size: 2, ..Default::default() };
    assert_eq!(rank(&[0.1, 0.5, -0.2, 0.3, 0.0], true, &options).len(), 4);
}

// --- values farm-haystack 1.26.4 gave (rankers.json, "sentence_transformers") ---

#[test]
fn haystack_meta_fields() {
    for case in rankers_fixture()["sentence_transformers"]["meta_fields"].as_array().unwrap() {
        let names: Vec<String> = case["fields"].as_array().unwrap().iter().map(|f| f.as_str().unwrap().to_string()).collect();
        let got = model_text("dummy doc", case["meta"].as_object().unwrap(), &names);
        assert_eq!(got, case["content"].as_str().unwrap(), "meta {} fields {names:?}", case["meta"]);
    }
}

#[test]
fn haystack_batch_shapes() {
    let shapes = &rankers_fixture()["sentence_transformers"]["batch_shapes"];
    let d = |xs: &[&str]| dummy(xs);
    let cases: Vec<(&str, Vec<&str>, Batch<Document>)> = vec![
        ("two_queries_one_list", vec!["query 1", "query 2"], Batch::One(d(&["dummy doc 1"]))),
        ("one_query_one_list", vec!["query 1"], Batch::One(d(&["dummy doc 1", "dummy doc 2"]))),
        ("two_queries_two_lists", vec!["query 1", "query 2"], Batch::Many(vec![d(&["dummy doc 1", "dummy doc 2"]), d(&["dummy doc 3"])])),
        ("one_query_two_lists", vec!["query 1"], Batch::Many(vec![d(&["dummy doc 1", "dummy doc 2"]), d(&["dummy doc 3"])])),
        ("three_queries_two_lists", vec!["a", "b", "c"], Batch::Many(vec![d(&["dummy doc 1", "dummy doc 2"]), d(&["dummy doc 3"])])),
        ("no_queries_no_documents", vec![], Batch::Many(vec![])),
        ("no_queries_two_lists", vec![], Batch::Many(vec![d(&["dummy doc 1"]), d(&["dummy doc 3"])])),
    ];
    for (name, queries, lists) in cases {
        let got = pair_queries_with_lists("queries", QueryBatch::Many(queries), "documents", lists);
        match shapes[name].get("result") {
            None => assert_eq!(got.unwrap_err().code, ErrorCode::InvalidArgument, "{name}"),
            Some(want) => {
                let (numbers, queries, texts, single) = preprocess(got.unwrap());
                assert_eq!(json!(numbers), want["number_of_docs"], "{name}");
                assert_eq!(json!(queries), want["all_queries"], "{name}");
                assert_eq!(json!(texts), want["all_docs"], "{name}");
                // Haystack calls a batch without lists "not a single list"; rerankit answers it with no lists too
                assert_eq!(json!(single), want["single_list_of_docs"], "{name}");
            }
        }
    }
}

// ----------------------------------------------------------------------------------------- RecentnessRanker

/// The seven `recency_tests_inputs` as `rankers.json` records them (with farm-haystack's answers).
fn recency_cases() -> &'static [Value] {
    rankers_fixture()["recentness"]["cases"].as_array().unwrap()
}

fn recency_docs(key: &str) -> Vec<Document> {
    rankers_fixture()["recentness"]["docs"][key]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let mut doc = Document::new("abc");
            doc.id = d["id"].as_str().unwrap().to_string();
            doc.meta = d["meta"].as_object().unwrap().clone();
            doc.score = d["score"].as_f64();
            doc
        })
        .collect()
}

/// The ranker of a case, or the error its options give (Haystack raises the wrong ranking mode from `predict`).
fn recency_ranker(case: &Value) -> Result<RecentnessRanker, rerankit::Error> {
    let options = json!({"dateMetaField": "date", "weight": case["weight"], "rankingMode": case["ranking_mode"], "topK": case["top_k"]});
    RecentnessRanker::try_from(from_json::<RecentnessRankerOptions>("", options)?)
}

/// Checks rerankit's answer against Haystack's for one list: the order, the scores bit for bit (or untouched when
/// Haystack left them `None`), and one warning per Haystack warning, naming the document.
fn check_list(name: &str, got: &[Document], want: &Value, warnings: &[String], want_warnings: &[Value]) {
    let want = want.as_array().unwrap();
    let ids: Vec<&str> = got.iter().map(|d| d.id.as_str()).collect();
    let want_ids: Vec<&str> = want.iter().map(|p| p[0].as_str().unwrap()).collect();
    assert_eq!(ids, want_ids, "{name}");
    for (doc, pair) in got.iter().zip(want) {
        match pair[1].as_f64() {
            Some(score) => assert_eq!(doc.score.map(f64::to_bits), Some(score.to_bits()), "{name}: document {}", doc.id),
            None => assert_eq!(doc.score, None, "{name}: document {}", doc.id),
        }
    }
    assert_eq!(warnings.len(), want_warnings.len(), "{name}: {warnings:?}");
    for (warning, haystack) in warnings.iter().zip(want_warnings) {
        let haystack = haystack.as_str().unwrap();
        if haystack.starts_with("The score was not provided") {
            assert!(warning.contains("document 1 has no score"), "{name}: {warning}");
        } else {
            assert!(haystack.contains("1.3 for document 1") && warning.contains("1.3 of document 1 is outside [0, 1]"), "{name}: {warning}");
        }
    }
}

/// The error a case must give: the missing date names the document's id; the unknown ranking mode the option.
fn check_error(name: &str, haystack: &Value, err: &rerankit::Error) {
    assert_eq!(err.code, ErrorCode::InvalidArgument, "{name}");
    let message = haystack["message"].as_str().unwrap();
    if message.contains("<date_meta_field>") {
        assert!(message.contains("document(s) 1 do not contain") && err.message.contains("document(s) 1 ("), "{name}: {}", err.message);
    } else {
        assert!(message.contains("'blablabla'") && err.message.starts_with("rankingMode: expected"), "{name}: {}", err.message);
    }
}

/// Runs every case through `how` (predict, a batch of one list, a batch of two copies of the list).
fn recentness_cases(how: &str) {
    for case in recency_cases() {
        let name = format!("{} ({how})", case["id"].as_str().unwrap());
        let haystack = &case[how];
        let docs = recency_docs(case["docs"].as_str().unwrap());
        let outcome = recency_ranker(case).and_then(|ranker| {
            ranker.run(if how == "batch_list_of_lists" { Batch::Many(vec![docs.clone(), docs.clone()]) } else { Batch::One(docs.clone()) })
        });
        let ranked = match (outcome, haystack.get("result")) {
            (Err(err), None) => {
                check_error(&name, haystack, &err);
                continue;
            }
            (Ok(ranked), Some(_)) => ranked,
            (outcome, _) => panic!("{name}: rerankit {outcome:?}, Haystack {haystack}"),
        };
        let want_warnings = haystack["warnings"].as_array().unwrap();
        match ranked.documents {
            Batch::One(list) => {
                // Haystack logs the unparsable date as an error record, not a warning; rerankit hands both back as warnings
                let logged = usize::from(case["docs"] == "unparsable");
                assert_eq!(ranked.warnings.len(), want_warnings.len() + logged, "{name}: {:?}", ranked.warnings);
                let warnings = &ranked.warnings[..want_warnings.len()];
                check_list(&name, &list, &haystack["result"], warnings, want_warnings);
                if logged == 1 {
                    assert!(ranked.warnings[0].contains("= \"abcd\""), "{name}: {:?}", ranked.warnings);
                }
            }
            Batch::Many(lists) => {
                assert_eq!(lists.len(), 2);
                let per_list = want_warnings.len() / 2;
                let logged = usize::from(case["docs"] == "unparsable");
                assert_eq!(ranked.warnings.len(), 2 * (per_list + logged), "{name}: {:?}", ranked.warnings);
                for (l, list) in lists.iter().enumerate() {
                    let warnings: Vec<String> = ranked.warnings.iter().filter(|w| w.starts_with(&format!("documents[{l}]"))).cloned().collect();
                    let want: &[Value] = if logged == 1 { &[] } else { &want_warnings[..per_list] };
                    let warnings = if logged == 1 { &warnings[..0] } else { &warnings[..] };
                    check_list(&name, list, &haystack["result"][l], warnings, want);
                }
            }
        }
    }
}

#[test]
fn test_recentness_ranker() {
    recentness_cases("predict");
}

#[test]
fn test_recentness_ranker_batch_list() {
    recentness_cases("batch_list");
}

#[test]
fn test_recentness_ranker_batch_list_of_lists() {
    recentness_cases("batch_list_of_lists");
}

#[test]
fn haystack_recentness_top_k_of_every_sign() {
    for case in rankers_fixture()["recentness"]["top_k"].as_array().unwrap() {
        let k = top_k(&case["top_k"]);
        let mode = RankingMode::parse("rankingMode", case["ranking_mode"].as_str().unwrap()).unwrap();
        let ranker = RecentnessRanker::new("date", 0.5, k, mode).unwrap();
        let ranked = ranker.run(Batch::One(recency_docs(case["docs"].as_str().unwrap()))).unwrap();
        let Batch::One(list) = ranked.documents else { panic!("shape") };
        assert_eq!(case["init"]["result"], case["predict"]["result"], "Haystack's init and per-call top_k agree");
        check_list(&format!("top_k {k:?}"), &list, &case["init"]["result"], &[], &[]);
    }
}
