//! Options read from JSON (`rerankit::options`), as every binding reads them: typed structs whose fields are the
//! names users write, an unknown key named with the closest valid one, wrong types and values named by field.

use rerankit::eval::haystack::{ContextMatchingOptions, WrongExamplesOptions};
use rerankit::inference::RerankOptions;
use rerankit::metrics::{EvaluateOptions, QueryScope, TiePolicy};
use rerankit::options::{field_names, from_json};
use rerankit::rankers::fusion::{FuseOptions, Normalization};
use rerankit::rankers::recentness::{RankingMode, RecentnessRankerOptions};
use rerankit::ErrorCode;
use serde_json::json;

fn error<T: serde::de::DeserializeOwned + std::fmt::Debug>(path: &str, value: serde_json::Value) -> (ErrorCode, String) {
    let e = from_json::<T>(path, value).unwrap_err();
    (e.code, e.message)
}

#[test]
fn absent_keys_keep_their_defaults_and_null_top_k_keeps_all() {
    let o: RerankOptions = from_json("", json!({})).unwrap();
    assert_eq!(o, RerankOptions::default());
    let o: RerankOptions = from_json("", json!({"topK": null, "batchSize": 4, "embedMetaFields": ["title"]})).unwrap();
    assert_eq!((o.top_k, o.batch_size, o.embed_meta_fields), (None, 4, vec!["title".to_string()]));
    let o: RerankOptions = from_json("", serde_json::Value::Null).unwrap();
    assert_eq!(o.top_k, Some(10));
}

#[test]
fn an_unknown_key_names_itself_and_the_closest_valid_name() {
    let (code, message) = error::<RerankOptions>("", json!({"topk": 5}));
    assert_eq!(code, ErrorCode::InvalidArgument);
    assert!(message.starts_with("topk: unknown option \"topk\": did you mean \"topK\"?"), "{message}");
    assert!(message.contains("batchSize") && message.contains("embedMetaFields"), "{message}");
    let (_, message) = error::<EvaluateOptions>("options", json!({"relevanceLevl": 2}));
    assert!(message.starts_with("options.relevanceLevl: unknown option") && message.contains("did you mean \"relevanceLevel\"?"), "{message}");
    // nothing near enough: no guess, only the valid names
    let (_, message) = error::<FuseOptions>("", json!({"zzzzzzzz": 1}));
    assert!(!message.contains("did you mean") && message.contains("valid: method, k, weights, norm"), "{message}");
}

#[test]
fn wrong_types_and_values_name_the_field() {
    let (code, message) = error::<RerankOptions>("", json!({"batchSize": 1.5}));
    assert_eq!(code, ErrorCode::InvalidArgument);
    assert_eq!(message, "batchSize: expected a non-negative integer, got floating point `1.5`");
    let (_, message) = error::<RerankOptions>("", json!({"batchSize": -2}));
    assert!(message.starts_with("batchSize: expected a non-negative integer"), "{message}");
    let (_, message) = error::<RerankOptions>("", json!({"embedMetaFields": ["a", 3]}));
    assert!(message.starts_with("embedMetaFields[1]: expected a string"), "{message}");
    // an array is not read as the fields in order
    let (_, message) = error::<RerankOptions>("options", json!([1, 2]));
    assert_eq!(message, "options: expected an object, got array");
    let (_, message) = error::<RecentnessRankerOptions>("", json!({"weight": 0.2}));
    assert_eq!(message, "dateMetaField: is required");
}

#[test]
fn enum_values_read_by_their_own_parsers_keep_message_and_code() {
    let o: RecentnessRankerOptions = from_json("", json!({"dateMetaField": "date", "rankingMode": "score"})).unwrap();
    assert_eq!((o.ranking_mode, o.weight, o.top_k), (RankingMode::Score, 0.5, None));
    let (code, message) = error::<FuseOptions>("", json!({"norm": "bordaa"}));
    assert_eq!(code, ErrorCode::InvalidArgument);
    assert!(message.starts_with("norm: unknown normalisation \"bordaa\": did you mean \"borda\"?"), "{message}");
    let (code, message) = error::<RecentnessRankerOptions>("", json!({"dateMetaField": "d", "rankingMode": "rrf"}));
    assert_eq!(code, ErrorCode::InvalidArgument);
    assert!(message.starts_with("rankingMode: expected \"reciprocal_rank_fusion\" or \"score\""), "{message}");
    let (_, message) = error::<WrongExamplesOptions>("options", json!({"documentScope": "doc"}));
    assert!(message.starts_with("options.documentScope: \"doc\" is not one of"), "{message}");
    // serde-named variants: the closest valid value is suggested too
    let (_, message) = error::<EvaluateOptions>("options", json!({"scope": "qrel"}));
    assert!(message.starts_with("options.scope: unknown value \"qrel\": did you mean \"qrels\"?"), "{message}");
}

#[test]
fn null_norm_is_no_normalisation_and_an_absent_one_min_max() {
    let absent: FuseOptions = from_json("", json!({"method": "combsum"})).unwrap();
    let null: FuseOptions = from_json("", json!({"method": "combsum", "norm": null})).unwrap();
    assert_eq!(absent.method_and_norm().unwrap().1, Normalization::MinMax);
    assert_eq!(null.method_and_norm().unwrap().1, Normalization::None);
}

#[test]
fn options_lie_over_a_profile() {
    let o: EvaluateOptions = from_json("options", json!({"profile": "haystack", "ties": "trec_eval", "maxResults": 5})).unwrap();
    let (requests, eval) = o.resolve(&[]).unwrap();
    assert!(!requests.is_empty());
    assert_eq!((eval.ranking.ties, eval.ranking.max_results, eval.scope), (TiePolicy::TrecEval, Some(5), QueryScope::AllRun));
}

#[test]
fn the_flat_wrong_examples_options_fill_the_nested_struct() {
    let o: WrongExamplesOptions = from_json("options", json!({"n": 5, "simulatedTopKRetriever": 3, "answerMetric": "exact_match"})).unwrap();
    assert_eq!((o.n, o.metrics.simulated_top_k_retriever, o.answer_metric.as_str()), (5, 3, "exact_match"));
    assert_eq!(o.metrics.simulated_top_k_reader, -1);
    let (_, message) = error::<WrongExamplesOptions>("options", json!({"nn": 5}));
    assert!(message.contains("unknown option \"nn\"") && message.contains("simulatedTopKReader"), "{message}");
}

#[test]
fn field_names_are_the_json_names() {
    assert_eq!(
        field_names::<RerankOptions>(),
        ["topK", "batchSize", "scaleScore", "calibrationFactor", "scoreThreshold", "maxChunksPerDoc", "chunkOverlap", "embedMetaFields", "maxDocuments", "deadlineMs"]
    );
    assert_eq!(field_names::<ContextMatchingOptions>(), ["minLength", "boostSplitOverlaps", "threshold"]);
    assert!(field_names::<WrongExamplesOptions>().contains(&"evalMode"));
}
