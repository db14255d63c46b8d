//! Haystack 1.x's own pipeline evaluation tests (farm-haystack v1.26.4 `test/pipelines/test_eval.py` and
//! `test_eval_batch.py`), translated where the pipeline needs no neural model: the DocumentSearchPipeline and
//! FAQPipeline over conftest's TfidfRetriever. docs/parity.md §9 lists every test function of both files.
//!
//! The predictions are what the real pipeline produced: `scripts/fixtures/haystack/make_haystack_eval_tests.py`
//! ran each test's `Pipeline.eval` / `eval_batch` with farm-haystack and recorded what `_build_eval_dataframe`
//! received (`tests/fixtures/haystack/eval_tests.json`). rerankit builds the rows from those predictions and the
//! test's labels, and must give the values the Haystack test asserts (copied below), then every row and every
//! `calculate_metrics` value farm-haystack computed on the same run.

use rerankit::document::Document;
use rerankit::eval::haystack::{parse_eval_input, AnswerScope, ContextMatchingOptions, DocumentScope, EvalMode, EvaluationResult, HaystackMetricsOptions, NodePredictions};
use rerankit::ErrorCode;
use serde_json::{json, Map, Value};
use std::path::PathBuf;
use std::sync::OnceLock;

fn fixture() -> &'static Value {
    static FIXTURE: OnceLock<Value> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/haystack/eval_tests.json");
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    })
}

fn case(file: &str, test: &str) -> &'static Value {
    fixture()["cases"].as_array().unwrap().iter().find(|c| c["file"] == file && c["test"] == test).unwrap_or_else(|| panic!("no case {file}::{test}"))
}

/// One query's predictions of a node.
fn for_query(p: &NodePredictions, i: usize) -> NodePredictions {
    fn one<T: Clone>(v: &Option<Vec<Vec<T>>>, i: usize) -> Option<Vec<Vec<T>>> {
        v.as_ref().map(|lists| vec![lists[i].clone()])
    }
    NodePredictions { answers: one(&p.answers, i), answers_isolated: one(&p.answers_isolated, i), documents: one(&p.documents, i), documents_isolated: one(&p.documents_isolated, i) }
}

/// What the case's `Pipeline.eval` (one frame per query, appended, then the columns reordered) or `eval_batch` (one
/// frame) builds.
fn evaluate(c: &Value) -> rerankit::Result<EvaluationResult> {
    let (queries, labels, nodes) = parse_eval_input(&c["input"])?;
    let cm: ContextMatchingOptions = serde_json::from_value(c["context_matching"].clone()).unwrap();
    let field = c["custom_document_id_field"].as_str();
    if !c["per_query"].as_bool().unwrap() {
        return EvaluationResult::from_predictions(&queries, &labels, &nodes, &cm, field);
    }
    let mut result = EvaluationResult::new();
    for i in 0..queries.len() {
        let one: Vec<(String, NodePredictions)> = nodes.iter().map(|(n, p)| (n.clone(), for_query(p, i))).collect();
        let r = EvaluationResult::from_predictions(&queries[i..=i], &labels[i..=i], &one, &cm, field)?;
        for (node, table) in r.node_results {
            result.append(&node, table);
        }
    }
    result.reorder_columns();
    Ok(result)
}

fn run(file: &str, test: &str) -> EvaluationResult {
    evaluate(case(file, test)).unwrap()
}

fn metrics_with(r: &EvaluationResult, document_scope: &str, eval_mode: &str) -> Map<String, Value> {
    let o = HaystackMetricsOptions {
        document_scope: DocumentScope::parse(document_scope).unwrap(),
        eval_mode: EvalMode::parse(eval_mode).unwrap(),
        ..HaystackMetricsOptions::default()
    };
    r.calculate_metrics(&o).unwrap().value.into_iter().map(|(n, m)| (n, Value::Object(m))).collect()
}

/// `eval_result.calculate_metrics(document_scope=…)`.
fn metrics(r: &EvaluationResult, document_scope: &str) -> Map<String, Value> {
    metrics_with(r, document_scope, "integrated")
}

/// Haystack's `assert metrics[node][name] == value` for each pair.
fn assert_metrics(m: &Map<String, Value>, node: &str, want: &[(&str, f64)], at: &str) {
    for (name, value) in want {
        assert_eq!(m[node][name].as_f64(), Some(*value), "{at}: metrics[{node:?}][{name:?}]");
    }
}

/// The six document metrics the tests assert, in their order: mrr, map, recall_multi_hit, recall_single_hit,
/// precision, ndcg.
fn document_metrics(values: [f64; 6]) -> Vec<(&'static str, f64)> {
    ["mrr", "map", "recall_multi_hit", "recall_single_hit", "precision", "ndcg"].into_iter().zip(values).collect()
}

/// The `document_scope` → values table a `*_document_scope` test asserts on the Retriever.
fn assert_scopes(r: &EvaluationResult, scopes: &[(&str, [f64; 6])]) {
    for (scope, values) in scopes {
        assert_metrics(&metrics(r, scope), "Retriever", &document_metrics(*values), scope);
    }
}

fn close(a: &Value, b: &Value, at: &str) -> Result<(), String> {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
            if (x - y).abs() <= 1e-12 * (1.0 + y.abs()) { Ok(()) } else { Err(format!("{at}: {x} != {y}")) }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x.iter().zip(y).enumerate().try_for_each(|(i, (p, q))| close(p, q, &format!("{at}[{i}]"))),
        (Value::Object(x), Value::Object(y)) => {
            let mut kx: Vec<&String> = x.keys().collect();
            let mut ky: Vec<&String> = y.keys().collect();
            kx.sort();
            ky.sort();
            if kx != ky {
                return Err(format!("{at}: keys {kx:?} != {ky:?}"));
            }
            y.iter().try_for_each(|(k, v)| close(&x[k], v, &format!("{at}.{k}")))
        }
        _ if a == b => Ok(()),
        _ => Err(format!("{at}: {a} != {b}")),
    }
}

/// Every row, every column in the order `Pipeline.eval` returns them, every `calculate_metrics` value and the
/// warnings Haystack logged computing it, as farm-haystack gave them for the case.
fn assert_equals_haystack(c: &Value, r: &EvaluationResult) {
    let at = format!("{}::{}", c["file"].as_str().unwrap(), c["test"].as_str().unwrap());
    let theirs = c["node_results"].as_object().unwrap();
    assert_eq!(r.node_names(), theirs.keys().cloned().collect::<Vec<_>>(), "{at}: nodes");
    for (node, columns) in c["node_columns"].as_object().unwrap() {
        assert_eq!(Value::from(r.node(node).unwrap().columns.clone()), *columns, "{at}: {node}'s columns");
    }
    for (node, rows) in theirs {
        let mine = Value::Array(r.node(node).unwrap().to_records());
        if let Err(e) = close(&mine, rows, &format!("{at} {node} rows")) {
            panic!("{e}");
        }
    }
    for m in c["metrics"].as_array().unwrap() {
        let o = HaystackMetricsOptions {
            document_scope: DocumentScope::parse(m["document_scope"].as_str().unwrap()).unwrap(),
            answer_scope: AnswerScope::parse(m["answer_scope"].as_str().unwrap()).unwrap(),
            eval_mode: EvalMode::parse(m["eval_mode"].as_str().unwrap()).unwrap(),
            ..HaystackMetricsOptions::default()
        };
        let result = r.calculate_metrics(&o).unwrap();
        let mine: Map<String, Value> = result.value.into_iter().map(|(n, m)| (n, Value::Object(m))).collect();
        if let Err(e) = close(&Value::Object(mine), &m["metrics"], &format!("{at} {o:?}")) {
            panic!("{e}");
        }
        assert_eq!(Value::from(result.warnings), m["warnings"], "{at} {o:?}: warnings");
    }
}

fn translated(file: &str, test: &str) -> EvaluationResult {
    let r = run(file, test);
    assert_equals_haystack(case(file, test), &r);
    r
}

/// `test_document_search_calculate_metrics`' row checks: the Berlin query's first document is a gold document,
/// the Munich query's is not.
fn assert_first_documents(r: &EvaluationResult) {
    let t = r.node("Retriever").unwrap();
    assert_eq!(r.node_names().len(), 1);
    let rows = t.to_records();
    let first = |q: &str| rows.iter().find(|row| row["query"] == q && row["rank"].as_f64() == Some(1.0)).unwrap();
    let (berlin, munich) = (first("Who lives in Berlin?"), first("Who lives in Munich?"));
    assert!(berlin["gold_document_ids"].as_array().unwrap().contains(&berlin["document_id"]));
    assert!(!munich["gold_document_ids"].as_array().unwrap().contains(&munich["document_id"]));
}

const EVAL: &str = "test_eval.py";
const EVAL_BATCH: &str = "test_eval_batch.py";

/// `test_extractive_qa_eval_document_scope` (both files): eval_labels, min_length 20.
fn assert_extractive_qa_document_scopes(r: &EvaluationResult) {
    assert_scopes(
        r,
        &[
            ("document_id", [0.5, 0.5, 0.5, 0.5, 0.1, 0.5]),
            ("context", [1.0, 1.0, 1.0, 1.0, 1.0, 1.0]),
            ("document_id_and_context", [0.5, 0.5, 0.5, 0.5, 0.1, 0.5]),
            ("document_id_or_context", [1.0, 1.0, 1.0, 1.0, 1.0, 1.0]),
            ("answer", [1.0, 1.0, 1.0, 1.0, 0.2, 1.0]),
            ("document_id_or_answer", [1.0, 1.0, 1.0, 1.0, 0.2, 1.0]),
        ],
    );
}

#[test]
fn test_eval_extractive_qa_eval_document_scope() {
    assert_extractive_qa_document_scopes(&translated(EVAL, "test_extractive_qa_eval_document_scope"));
}

#[test]
fn test_eval_batch_extractive_qa_eval_document_scope() {
    assert_extractive_qa_document_scopes(&translated(EVAL_BATCH, "test_extractive_qa_eval_document_scope"));
}

#[test]
fn test_eval_document_search_eval_document_scope() {
    let r = translated(EVAL, "test_document_search_eval_document_scope");
    assert_scopes(
        &r,
        &[
            ("document_id", [0.5, 0.5, 0.5, 0.5, 0.1, 0.5]),
            ("context", [1.0, 1.0, 1.0, 1.0, 1.0, 1.0]),
            ("document_id_and_context", [0.5, 0.5, 0.5, 0.5, 0.1, 0.5]),
            ("document_id_or_context", [1.0, 1.0, 1.0, 1.0, 1.0, 1.0]),
            ("answer", [0.0, 0.0, 0.0, 0.0, 0.0, 0.0]),
            ("document_id_or_answer", [0.5, 0.5, 0.5, 0.5, 0.1, 0.5]),
        ],
    );
}

#[test]
fn test_eval_document_search_id_only_eval_document_scope() {
    let r = translated(EVAL, "test_document_search_id_only_eval_document_scope");
    assert_scopes(
        &r,
        &[
            ("document_id", [0.5, 0.5, 0.5, 0.5, 0.1, 0.5]),
            ("context", [0.0, 0.0, 0.0, 0.0, 0.0, 0.0]),
            ("document_id_and_context", [0.0, 0.0, 0.0, 0.0, 0.0, 0.0]),
            ("document_id_or_context", [0.5, 0.5, 0.5, 0.5, 0.1, 0.5]),
            ("answer", [0.0, 0.0, 0.0, 0.0, 0.0, 0.0]),
            ("document_id_or_answer", [0.5, 0.5, 0.5, 0.5, 0.1, 0.5]),
        ],
    );
}

/// `test_file_search_eval_document_scope`'s six scopes (`custom_document_id_field="name"`); its ndcg is
/// `pytest.approx(0.6934, 0.0001)`, checked at that tolerance.
fn assert_file_search_scopes(r: &EvaluationResult) {
    let id_scope = [0.6, 0.6, 1.0, 1.0, 0.2];
    for (scope, values) in [
        ("document_id", Some(id_scope)),
        ("context", None),
        ("document_id_and_context", None),
        ("document_id_or_context", Some(id_scope)),
        ("answer", None),
        ("document_id_or_answer", Some(id_scope)),
    ] {
        let m = metrics(r, scope);
        match values {
            Some(v) => {
                assert_metrics(&m, "Retriever", &document_metrics([v[0], v[1], v[2], v[3], v[4], 0.0])[..5], scope);
                let ndcg = m["Retriever"]["ndcg"].as_f64().unwrap();
                assert!((ndcg - 0.6934).abs() <= 0.6934 * 0.0001, "{scope}: ndcg {ndcg} ≉ 0.6934");
            }
            None => assert_metrics(&m, "Retriever", &document_metrics([0.0; 6]), scope),
        }
    }
}

#[test]
fn test_eval_file_search_eval_document_scope() {
    let r = translated(EVAL, "test_file_search_eval_document_scope");
    assert_file_search_scopes(&r);
    // the rows carry Haystack's custom id columns
    let rows = r.node("Retriever").unwrap().to_records();
    assert_eq!(rows[0]["gold_custom_document_ids"], json!(["filename1"]));
    assert_eq!(rows[0]["custom_document_id"], json!("filename1"));
    assert_eq!(rows[0]["gold_document_ids"], json!(["00"]), "the labels' documents have no id of their own");
}

#[test]
fn test_eval_extractive_qa_eval_document_scope_no_answer() {
    let r = translated(EVAL, "test_extractive_qa_eval_document_scope_no_answer");
    for scope in ["document_id", "context", "document_id_and_context", "document_id_or_context", "answer", "document_id_or_answer"] {
        assert_metrics(&metrics(&r, scope), "Retriever", &document_metrics([1.0; 6]), scope);
    }
}

#[test]
fn test_eval_document_search_calculate_metrics() {
    let r = translated(EVAL, "test_document_search_calculate_metrics");
    assert_first_documents(&r);
    assert_metrics(&metrics(&r, "document_id"), "Retriever", &document_metrics([0.5, 0.5, 0.5, 0.5, 0.1, 0.5]), "document_id");
}

#[test]
fn test_eval_batch_document_search_calculate_metrics() {
    let r = translated(EVAL_BATCH, "test_document_search_calculate_metrics");
    assert_first_documents(&r);
    assert_metrics(&metrics(&r, "document_id"), "Retriever", &document_metrics([0.5, 0.5, 0.5, 0.5, 0.1, 0.5]), "document_id");
}

#[test]
fn test_eval_document_search_isolated() {
    // add_isolated_node_eval=True: the retriever has no isolated output, so its isolated metrics are empty
    let c = case(EVAL, "test_document_search_isolated");
    assert_eq!(c["add_isolated_node_eval"], true);
    let r = translated(EVAL, "test_document_search_isolated");
    assert_first_documents(&r);
    assert_metrics(&metrics(&r, "document_id"), "Retriever", &document_metrics([0.5, 0.5, 0.5, 0.5, 0.1, 0.5]), "document_id");
    assert_eq!(metrics_with(&r, "document_id", "isolated")["Retriever"], json!({}));
}

fn assert_faq_metrics(r: &EvaluationResult) {
    assert_eq!(r.node_names(), ["Retriever", "Docs2Answers"]);
    let m = metrics(r, "document_id");
    assert_metrics(&m, "Retriever", &document_metrics([0.5, 0.5, 0.5, 0.5, 0.1, 0.5]), "document_id");
    assert_metrics(&m, "Docs2Answers", &[("exact_match", 0.0), ("f1", 0.0)], "document_id");
}

#[test]
fn test_eval_faq_calculate_metrics() {
    assert_faq_metrics(&translated(EVAL, "test_faq_calculate_metrics"));
}

#[test]
fn test_eval_batch_faq_calculate_metrics() {
    assert_faq_metrics(&translated(EVAL_BATCH, "test_faq_calculate_metrics"));
}

// Around the translated tests: custom document id fields as farm-haystack answered them.

#[test]
fn custom_document_id_field_with_eval_batch() {
    assert_file_search_scopes(&translated("around", "file_search_eval_batch"));
}

#[test]
fn custom_document_id_field_on_answer_rows() {
    // Docs2Answers' answers carry their document's meta: custom_document_ids are read from it
    for test in ["file_search_faq_answers", "file_search_faq_answers_batch"] {
        let r = translated("around", test);
        let rows = r.node("Docs2Answers").unwrap().to_records();
        assert!(rows.iter().all(|row| row["custom_document_ids"].as_array().is_some_and(|ids| ids.len() == 1)), "{test}");
    }
}

#[test]
fn custom_document_ids_compare_as_python_values() {
    // page_number 2.0 (label) equals 2 (document); "3" does not equal 3
    let r = translated("around", "numeric_custom_id");
    let rows = r.node("Retriever").unwrap().to_records();
    assert_eq!(rows[0]["custom_document_id"], json!(2.0), "a column of numbers is float64, as rank is");
    // saved and loaded (Haystack's converters read the custom id lists back), the metrics stay
    for test in ["numeric_custom_id", "file_search_faq_answers"] {
        let r = run("around", test);
        let loaded = EvaluationResult::from_csv_files(&r.to_csv_files()).unwrap();
        for scope in DocumentScope::ALL {
            let o = HaystackMetricsOptions { document_scope: scope, ..HaystackMetricsOptions::default() };
            assert_eq!(loaded.calculate_metrics(&o).unwrap(), r.calculate_metrics(&o).unwrap(), "{test} {scope:?}");
        }
        let back = loaded.to_json();
        for (node, rows) in r.to_json().as_object().unwrap() {
            for (mine, theirs) in rows.as_array().unwrap().iter().zip(back[node].as_array().unwrap()) {
                for column in ["gold_custom_document_ids", "custom_document_ids"] {
                    assert_eq!(mine.get(column), theirs.get(column), "{test} {node}.{column}");
                }
            }
        }
    }
}

#[test]
fn custom_document_id_field_missing_from_documents_or_labels() {
    // a retrieved document without the field has the custom id ""
    translated("around", "custom_id_field_absent_from_retrieved_documents");
    // a label without it: Haystack's KeyError is INVALID_ARGUMENT naming the option
    let c = case("around", "custom_id_field_absent_from_a_label");
    assert_eq!(c["error"]["type"], "KeyError");
    let e = evaluate(c).unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidArgument);
    assert!(e.message.starts_with("customDocumentIdField: \"name\" is not in the meta of the document of label 0 of query 0"), "{e}");
}

// test_eval.py's two unit tests of EvaluationResult.load, their CSV files as csv.DictWriter writes them.

#[test]
fn test_eval_load_legacy_evaluation_result() {
    let id = Document::new("test").id;
    let csv = format!("answer,document_id,custom_document_id,gold_document_contents,content\r\nanswer,{id},custom_id,\"['gold', 'document', 'contents']\",content\r\n");
    let r = EvaluationResult::from_csv_files(&[("legacy.csv".into(), csv)]).unwrap();
    assert_eq!(r.node_names(), ["legacy"]);
    let t = r.node("legacy").unwrap();
    assert_eq!(t.rows.len(), 1);
    let row = &t.to_records()[0];
    assert_eq!(row["answer"], "answer");
    assert_eq!(row["document_ids"], json!([id]));
    assert_eq!(row["custom_document_ids"], json!(["custom_id"]));
    assert_eq!(row["gold_contexts"], json!(["gold", "document", "contents"]));
    assert_eq!(row["context"], "content");
    for gone in ["document_id", "custom_document_id", "gold_document_contents", "content"] {
        assert!(t.col(gone).is_none(), "{gone}");
    }
}

#[test]
fn test_eval_load_evaluation_result() {
    let columns = [
        "multilabel_id", "query", "filters", "gold_answers", "answer", "context", "exact_match", "f1", "exact_match_context_scope", "f1_context_scope",
        "exact_match_document_id_scope", "f1_document_id_scope", "exact_match_document_id_and_context_scope", "f1_document_id_and_context_scope",
        "gold_contexts", "rank", "document_ids", "gold_document_ids", "offsets_in_document", "gold_offsets_in_documents", "offsets_in_context",
        "gold_offsets_in_contexts", "gold_answers_exact_match", "gold_answers_f1", "gold_documents_id_match", "gold_contexts_similarity", "type",
        "node", "eval_mode", "index",
    ];
    // csv.DictWriter: minimal quoting, None as an empty field, floats as str()
    let row = [
        "ddc1562602f2d6d895b91e53f83e4c16", "who is written in the book of life", "b'null'",
        "\"['every person who is destined for Heaven or the World to Come', 'all people considered righteous before God']\"", "", "",
        "0.0", "0.0", "0.0", "0.0", "0.0", "0.0", "0.0", "0.0", "\"['Book of Life - wikipedia Book of Life Jump to: navigation, search...']\"", "1.0", "",
        "\"['de2fd2f109e11213af1ea189fd1488a3-0', 'de2fd2f109e11213af1ea189fd1488a3-0']\"", "\"[{'start': 0, 'end': 0}]\"",
        "\"[{'start': 374, 'end': 434}, {'start': 1107, 'end': 1149}]\"", "\"[{'start': 0, 'end': 0}]\"",
        "\"[{'start': 374, 'end': 434}, {'start': 1107, 'end': 1149}]\"", "\"[0, 0]\"", "\"[0, 0]\"", "\"[0.0, 0.0]\"", "\"[0.0, 0.0]\"", "answer", "Reader",
        "integrated", "",
    ];
    let csv = format!("{}\r\n{}\r\n", columns.join(","), row.join(","));
    let r = EvaluationResult::from_csv_files(&[("Reader.csv".into(), csv)]).unwrap();
    assert_eq!(r.node_names(), ["Reader"]);
    let t = r.node("Reader").unwrap();
    assert_eq!(t.columns, columns);
    let known = json!({
        "multilabel_id": "ddc1562602f2d6d895b91e53f83e4c16",
        "query": "who is written in the book of life",
        "filters": "null",
        "gold_answers": ["every person who is destined for Heaven or the World to Come", "all people considered righteous before God"],
        // Haystack: None. A saved None and a saved "" are one empty field; rerankit reads a text column's as ""
        // (docs/parity.md §9: the no-answer rows' "" answers round-trip)
        "answer": "",
        "context": "",
        "exact_match": 0.0, "f1": 0.0, "exact_match_context_scope": 0.0, "f1_context_scope": 0.0,
        "exact_match_document_id_scope": 0.0, "f1_document_id_scope": 0.0,
        "exact_match_document_id_and_context_scope": 0.0, "f1_document_id_and_context_scope": 0.0,
        "gold_contexts": ["Book of Life - wikipedia Book of Life Jump to: navigation, search..."],
        "rank": 1.0,
        "document_ids": null,
        "gold_document_ids": ["de2fd2f109e11213af1ea189fd1488a3-0", "de2fd2f109e11213af1ea189fd1488a3-0"],
        "offsets_in_document": [{"start": 0, "end": 0}],
        "gold_offsets_in_documents": [{"start": 374, "end": 434}, {"start": 1107, "end": 1149}],
        "offsets_in_context": [{"start": 0, "end": 0}],
        "gold_offsets_in_contexts": [{"start": 374, "end": 434}, {"start": 1107, "end": 1149}],
        "gold_answers_exact_match": [0, 0],
        "gold_answers_f1": [0, 0],
        "gold_documents_id_match": [0.0, 0.0],
        "gold_contexts_similarity": [0.0, 0.0],
        "type": "answer",
        "node": "Reader",
        "eval_mode": "integrated",
        "index": null,
    });
    assert_eq!(t.to_records()[0], known);
    assert!(matches!(t.get(0, "filters"), rerankit::eval::haystack::Cell::Bytes(b) if b == "null"), "b'null' is bytes");
}

#[test]
fn test_eval_generative_qa_w_promptnode_eval() {
    // PromptNode's model (google/flan-t5-small) answered fixed text in the generator; what the test asserts does not
    // depend on the text: the columns, the prompt, float metrics, and the save/load round trip
    let r = translated(EVAL, "test_generative_qa_w_promptnode_eval");
    let metrics = metrics(&r, "document_id");
    let generator = r.node("PromptNode").unwrap();
    let retriever = r.node("Retriever").unwrap();
    let expected_generator_result_columns = [
        "answer", "exact_match", "f1", "exact_match_context_scope", "f1_context_scope", "exact_match_document_id_scope", "f1_document_id_scope",
        "exact_match_document_id_and_context_scope", "f1_document_id_and_context_scope", "offsets_in_document", "gold_offsets_in_documents",
        "offsets_in_context", "gold_offsets_in_contexts", "gold_answers_exact_match", "gold_answers_f1", "document_ids", "prompt",
    ];
    let expected_retriever_result_columns = [
        "gold_id_match", "context_match", "answer_match", "gold_id_or_answer_match", "gold_id_and_answer_match", "gold_id_or_context_match",
        "gold_id_and_context_match", "gold_id_and_context_and_answer_match", "context_and_answer_match", "gold_answers_match", "document_id",
    ];
    let expected_generic_result_columns = [
        "multilabel_id", "query", "filters", "context", "gold_contexts", "gold_documents_id_match", "gold_contexts_similarity", "type", "node",
        "eval_mode", "rank", "gold_document_ids", "gold_answers",
    ];
    let sorted = |cols: Vec<&str>| {
        let mut v: Vec<String> = cols.into_iter().map(str::to_string).collect();
        v.sort();
        v
    };
    let columns = |t: &rerankit::eval::haystack::NodeTable| sorted(t.columns.iter().map(String::as_str).collect());
    assert_eq!(sorted([&expected_generator_result_columns[..], &expected_generic_result_columns[..], &["index"]].concat()), columns(generator));
    assert_eq!(sorted([&expected_retriever_result_columns[..], &expected_generic_result_columns[..], &["index"]].concat()), columns(retriever));
    assert!(!matches!(generator.get(0, "prompt"), rerankit::eval::haystack::Cell::None));
    for node_metrics in metrics.values() {
        for value in node_metrics.as_object().unwrap().values() {
            assert!(value.is_f64(), "{value} is a float");
        }
    }
    // save, load: the same rows (but for the documented None → "" of a text column's empty cell: generative
    // answers have no context) and the same metrics
    let saved = EvaluationResult::from_csv_files(&r.to_csv_files()).unwrap();
    for (node, table) in &r.node_results {
        let loaded = saved.node(node).unwrap();
        assert_eq!(loaded.columns, table.columns, "{node}");
        for (mine, back) in table.to_records().iter().zip(loaded.to_records()) {
            for (k, v) in mine.as_object().unwrap() {
                let want = if v.is_null() && k == "context" { json!("") } else { v.clone() };
                assert_eq!(back[k], want, "{node}.{k}");
            }
        }
    }
    assert_eq!(saved.calculate_metrics(&HaystackMetricsOptions { document_scope: DocumentScope::DocumentId, ..HaystackMetricsOptions::default() }).unwrap(),
        r.calculate_metrics(&HaystackMetricsOptions { document_scope: DocumentScope::DocumentId, ..HaystackMetricsOptions::default() }).unwrap());
}

/// `test_extractive_qa_eval_wrong_examples`' Retriever half (its rows do not depend on the FARMReader that runs
/// after it): `wrong_examples(node="Retriever", n=1)` has one query, Haystack's.
fn assert_retriever_wrong_examples(file: &str) {
    let r = translated(file, "test_extractive_qa_eval_wrong_examples");
    let o = rerankit::eval::haystack::WrongExamplesOptions { n: 1, ..Default::default() };
    let wrongs_retriever = Value::Array(r.wrong_examples("Retriever", &o).unwrap().value);
    assert_eq!(wrongs_retriever.as_array().unwrap().len(), 1);
    if let Err(e) = close(&wrongs_retriever, &case(file, "test_extractive_qa_eval_wrong_examples")["extra"]["wrong_examples_retriever_n1"], file) {
        panic!("{e}");
    }
}

#[test]
fn test_eval_extractive_qa_eval_wrong_examples() {
    assert_retriever_wrong_examples(EVAL);
}

#[test]
fn test_eval_batch_extractive_qa_eval_wrong_examples() {
    assert_retriever_wrong_examples(EVAL_BATCH);
}

#[test]
fn custom_document_ids_on_a_node_with_answers_and_documents() {
    // eval_batch's tail on one node's output: a generative answer's ids from its doc_metas, an extractive one's from
    // its meta, the documents' numeric ids a float column beside the answer rows' gaps; the columns in the order
    // Pipeline.eval gives a node with answer and document rows
    let c = case("around", "answers_and_documents_of_one_node");
    let r = translated("around", "answers_and_documents_of_one_node");
    let want: Vec<String> = c["node_columns"]["Mixed"].as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_string()).collect();
    assert_eq!(r.node("Mixed").unwrap().columns, want);
}

/// The warnings `calculate_metrics(document_scope=…, answer_scope=…)` returns.
fn metrics_warnings(r: &EvaluationResult, document_scope: &str, answer_scope: &str) -> Vec<String> {
    let o = HaystackMetricsOptions {
        document_scope: DocumentScope::parse(document_scope).unwrap(),
        answer_scope: AnswerScope::parse(answer_scope).unwrap(),
        ..HaystackMetricsOptions::default()
    };
    r.calculate_metrics(&o).unwrap().warnings
}

/// `wrong_examples(**args)` from Haystack's keyword arguments (snake_case, `node` among them).
fn wrong_examples_with(r: &EvaluationResult, args: &Value) -> rerankit::eval::haystack::Warned<Vec<Value>> {
    let camel = |k: &str| k.split('_').enumerate().map(|(i, w)| if i == 0 { w.to_string() } else { w[..1].to_uppercase() + &w[1..] }).collect::<String>();
    let options: Map<String, Value> = args.as_object().unwrap().iter().filter(|(k, _)| *k != "node").map(|(k, v)| (camel(k), v.clone())).collect();
    let o: rerankit::eval::haystack::WrongExamplesOptions = serde_json::from_value(Value::Object(options)).unwrap();
    r.wrong_examples(args["node"].as_str().unwrap(), &o).unwrap()
}

/// `test_extractive_qa_eval_answer_document_scope_combinations`: Haystack's logged warning for a non-answer
/// `document_scope` with a non-default `answer_scope`, which rerankit returns beside the metrics. pytest's
/// `caplog.text` accumulates over the test, so the later `in` checks read everything logged so far, as here. Run on
/// the pipeline's Retriever: the FARMReader and SAS model after it (model output) add a node that logs the same
/// warning, they do not decide whether it is logged.
fn assert_scope_combination_warnings(file: &str) {
    let test = "test_extractive_qa_eval_answer_document_scope_combinations";
    let r = translated(file, test);
    let mut caplog = String::new();
    let mut log = |document_scope: &str, answer_scope: &str| {
        for message in metrics_warnings(&r, document_scope, answer_scope) {
            caplog.push_str(&message);
            caplog.push('\n');
        }
        caplog.clone()
    };
    // valid values for non default answer_scopes
    log("document_id_or_answer", "context");
    let text = log("answer", "context");
    assert!(!text.contains("You specified a non-answer document_scope together with a non-default answer_scope"));
    for document_scope in ["document_id", "context", "document_id_and_context", "document_id_or_context"] {
        let text = log(document_scope, "context");
        assert!(text.contains("You specified a non-answer document_scope together with a non-default answer_scope"), "{document_scope}");
    }

    // each call's warnings are exactly what farm-haystack logged (one per node), and so are those of
    // wrong_examples and of a result without the eval_mode column (an older CSV)
    let extra = &case(file, test)["extra"];
    for call in extra["calculate_metrics"].as_array().unwrap() {
        let got = metrics_warnings(&r, call["document_scope"].as_str().unwrap(), call["answer_scope"].as_str().unwrap());
        assert_eq!(Value::from(got), call["warnings"], "{file} {call}");
    }
    for call in extra["wrong_examples"].as_array().unwrap() {
        let got = wrong_examples_with(&r, &call["args"]);
        assert_eq!(Value::from(got.warnings), call["warnings"], "{file} {}", call["args"]);
        close(&Value::Array(got.value), &call["result"], file).unwrap();
    }
    // a metric the node does not compute: Haystack's KeyError (before its unreachable "not available" warning),
    // rerankit's INVALID_ARGUMENT naming the option and the node's metrics
    assert_eq!(extra["unknown_metric"]["type"], "KeyError");
    let o = rerankit::eval::haystack::WrongExamplesOptions { document_metric: "recall".into(), ..Default::default() };
    let e = r.wrong_examples("Retriever", &o).unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidArgument);
    assert!(e.message.starts_with("documentMetric: unknown metric \"recall\""), "{e}");
    assert!(e.message.contains("recall_single_hit"), "{e}");
    let mut no_mode = r.clone();
    for (_, t) in &mut no_mode.node_results {
        let c = t.col("eval_mode").unwrap();
        t.columns.remove(c);
        t.rows.iter_mut().for_each(|row| drop(row.remove(c)));
    }
    let theirs = &extra["without_eval_mode"];
    assert_eq!(Value::from(metrics_warnings(&no_mode, "context", "context")), theirs["calculate_metrics"]["warnings"], "{file}");
    let got = wrong_examples_with(&no_mode, &json!({"node": "Retriever", "n": 1, "eval_mode": "isolated"}));
    assert_eq!(Value::from(got.warnings), theirs["wrong_examples"]["warnings"], "{file}");
    close(&Value::Array(got.value), &theirs["wrong_examples"]["result"], file).unwrap();
}

#[test]
fn test_eval_extractive_qa_eval_answer_document_scope_combinations() {
    assert_scope_combination_warnings(EVAL);
}

#[test]
fn test_eval_batch_extractive_qa_eval_answer_document_scope_combinations() {
    assert_scope_combination_warnings(EVAL_BATCH);
}
