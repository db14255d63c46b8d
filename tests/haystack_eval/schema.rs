//! Haystack 1.x's own schema tests (farm-haystack v1.26.4 `test/others/test_schema.py`), translated: the
//! peer's inputs and asserted values, with the files of `test/samples/schema/` inlined. docs/parity.md §9 lists
//! every test function of that file and what became of it. The last tests check the values
//! `scripts/fixtures/haystack/make_haystack_schema.py` computed with farm-haystack itself.

use rerankit::document::{Answer, AnswerType, ContentType, Document, IdHashKey, Label, LabelOrigin, MultiLabel, Offset, Span, TableCell};
use rerankit::python::dataframe::dataframe_str;
use rerankit::ErrorCode;
use serde_json::{json, Map, Value};
use std::path::PathBuf;

fn obj(v: Value) -> Map<String, Value> {
    v.as_object().expect("an object").clone()
}

fn doc(content: Value, content_type: ContentType, id: Option<&str>, meta: Value, keys: Option<&[&str]>) -> rerankit::Result<Document> {
    let keys = keys.map(|k| k.iter().map(|s| IdHashKey::parse("id_hash_keys", s)).collect::<rerankit::Result<Vec<_>>>()).transpose()?;
    Document::build(content, content_type, id.map(str::to_string), None, obj(meta), None, keys)
}

fn text_doc(content: &str, id: &str) -> Document {
    doc(json!(content), ContentType::Text, Some(id), json!({}), None).unwrap()
}

/// `Label(query, answer, document, is_correct_answer, is_correct_document, origin, …)` with the optional id and
/// created_at of the Haystack fixtures.
fn label(query: &str, answer: Answer, document: Document, correct_answer: bool, origin: LabelOrigin, id: Option<&str>, created_at: Option<&str>) -> Label {
    let mut l = Label::new(query.into(), document, correct_answer, true, origin, Some(answer), None).unwrap();
    if let Some(id) = id {
        l.id = id.into();
    }
    l.created_at = created_at.map(str::to_string);
    l
}

fn answer(text: &str, score: Option<f64>, ids: &[&str], offsets_in_document: Option<Vec<Offset>>) -> Answer {
    Answer {
        score,
        document_ids: if ids.is_empty() { None } else { Some(ids.iter().map(|s| s.to_string()).collect()) },
        offsets_in_document,
        ..Answer::new(text)
    }
}

fn span(start: i64, end: i64) -> Offset {
    Offset::Span(Span { start, end })
}

fn cell(row: i64, col: i64) -> Offset {
    Offset::Cell(TableCell { row, col })
}

/// Haystack's `Label.__eq__`: the judgement, not the id or timestamps.
fn haystack_eq(a: &Label, b: &Label) -> bool {
    a.query == b.query
        && a.answer == b.answer
        && a.is_correct_answer == b.is_correct_answer
        && a.is_correct_document == b.is_correct_document
        && a.origin == b.origin
        && a.document == b.document
        && a.no_answer == b.no_answer
        && a.pipeline_id == b.pipeline_id
}

// --- fixtures of test_schema.py ---

fn text_label() -> Label {
    label(
        "some",
        answer("an answer", Some(0.1), &["doc_1"], Some(vec![span(1, 3)])),
        text_doc("some text", "doc_1"),
        true,
        LabelOrigin::UserFeedback,
        Some("text_label_1"),
        Some("2023-05-02 11:43:56"),
    )
}

/// `text_label_dict`, which is also `test/samples/schema/text_label.json`.
fn text_label_dict() -> Value {
    json!({
        "id": "text_label_1",
        "query": "some",
        "document": {"id": "doc_1", "content": "some text", "content_type": "text", "meta": {}, "id_hash_keys": ["content"], "score": null, "embedding": null},
        "is_correct_answer": true,
        "is_correct_document": true,
        "origin": "user-feedback",
        "answer": {"answer": "an answer", "type": "extractive", "score": 0.1, "context": null, "offsets_in_document": [{"start": 1, "end": 3}], "offsets_in_context": null, "document_ids": ["doc_1"], "meta": {}},
        "pipeline_id": null,
        "created_at": "2023-05-02 11:43:56",
        "updated_at": null,
        "meta": {},
        "filters": null
    })
}

fn records_table() -> Value {
    // pd.DataFrame.from_records([{"col1": "text_1", "col2": 1}, {"col1": "text_2", "col2": 2}]) as rows.
    json!([["col1", "col2"], ["text_1", 1], ["text_2", 2]])
}

fn table_answer_of_label(text: &str, offset: Offset) -> Answer {
    Answer { context: Some(records_table()), ..answer(text, Some(0.1), &["123"], Some(vec![offset])) }
}

fn table_label() -> Label {
    label(
        "some",
        table_answer_of_label("text_2", cell(1, 0)),
        doc(records_table(), ContentType::Table, Some("fe5cb68f8226776914781f6bd40ad718"), json!({}), None).unwrap(),
        true,
        LabelOrigin::UserFeedback,
        Some("fbd79f71-d690-4b21-bd0a-1094292b9809"),
        Some("2023-05-02 11:43:56"),
    )
}

/// `table_label_dict`, which is also `test/samples/schema/table_label.json`.
fn table_label_dict() -> Value {
    json!({
        "id": "fbd79f71-d690-4b21-bd0a-1094292b9809",
        "query": "some",
        "document": {"id": "fe5cb68f8226776914781f6bd40ad718", "content": [["col1", "col2"], ["text_1", 1], ["text_2", 2]], "content_type": "table", "meta": {}, "id_hash_keys": ["content"], "score": null, "embedding": null},
        "is_correct_answer": true,
        "is_correct_document": true,
        "origin": "user-feedback",
        "answer": {"answer": "text_2", "type": "extractive", "score": 0.1, "context": [["col1", "col2"], ["text_1", 1], ["text_2", 2]], "offsets_in_document": [{"row": 1, "col": 0}], "offsets_in_context": null, "document_ids": ["123"], "meta": {}},
        "pipeline_id": null,
        "created_at": "2023-05-02 11:43:56",
        "updated_at": null,
        "meta": {},
        "filters": null
    })
}

fn text_answer() -> Answer {
    Answer { context: Some(json!("abc")), offsets_in_context: Some(vec![span(3, 5)]), ..answer("an answer", Some(0.1), &["123"], Some(vec![span(1, 10)])) }
}

fn text_answer_dict() -> Value {
    json!({"answer": "an answer", "type": "extractive", "score": 0.1, "context": "abc", "offsets_in_document": [{"start": 1, "end": 10}], "offsets_in_context": [{"start": 3, "end": 5}], "document_ids": ["123"], "meta": {}})
}

fn table_answer() -> Answer {
    Answer { offsets_in_context: Some(vec![cell(1, 0)]), ..table_answer_of_label("text_2", cell(1, 0)) }
}

fn table_answer_dict() -> Value {
    json!({"answer": "text_2", "type": "extractive", "score": 0.1, "context": [["col1", "col2"], ["text_1", 1], ["text_2", 2]], "offsets_in_document": [{"row": 1, "col": 0}], "offsets_in_context": [{"row": 1, "col": 0}], "document_ids": ["123"], "meta": {}})
}

fn text_doc_dict() -> Value {
    json!({"content": "some text", "content_type": "text", "score": null, "meta": {}, "id_hash_keys": ["content"], "embedding": null, "id": "doc1"})
}

fn actors_table() -> Value {
    // pd.DataFrame({"actors": […], "age": […], "number of movies": […], "date of birth": […]}) as rows.
    json!([
        ["actors", "age", "number of movies", "date of birth"],
        ["brad pitt", 58, 87, "18 december 1963"],
        ["leonardo di caprio", 47, 53, "11 november 1974"],
        ["george clooney", 60, 69, "6 may 1961"]
    ])
}

fn table_doc_dict() -> Value {
    json!({"content": actors_table(), "content_type": "table", "score": null, "meta": {}, "id_hash_keys": ["content"], "embedding": null, "id": "doc1"})
}

fn with_embedding(mut d: Value, id: &str) -> Value {
    d["embedding"] = json!([1.1, 2.2, 3.3, 4.4]);
    d["id"] = json!(id);
    d
}

fn doc_with_embedding(content: Value, content_type: ContentType) -> Document {
    Document::build(content, content_type, Some("doc2".into()), None, Map::new(), Some(vec![1.1, 2.2, 3.3, 4.4]), None).unwrap()
}

// --- the tests ---

#[test]
fn test_no_answer_label() {
    let no_answer = label("question", Answer::new(""), text_doc("some", "777"), true, LabelOrigin::GoldLabel, None, None);
    let with_answer = label("question", Answer::new("some"), text_doc("some", "777"), true, LabelOrigin::GoldLabel, None, None);
    assert_eq!(no_answer.no_answer, Some(true));
    assert_eq!(with_answer.no_answer, Some(false));
}

#[test]
fn test_text_labels_with_identical_fields_are_equal() {
    assert_eq!(text_label(), text_label());
}

#[test]
fn test_text_labels_with_different_fields_are_not_equal() {
    let different = label(
        "some",
        answer("different answer", Some(0.1), &["doc_1"], Some(vec![span(5, 15)])),
        text_doc("some text", "doc_1"),
        true,
        LabelOrigin::UserFeedback,
        Some("text_label_1"),
        Some("2023-05-02 11:43:56"),
    );
    assert!(!haystack_eq(&text_label(), &different));
    assert_ne!(text_label(), different);
}

/// test_label_from_json, test_label_to_json, test_text_label_from_dict and test_text_label_to_dict (the JSON
/// file holds the dict).
#[test]
fn test_text_label_dict() {
    assert_eq!(Label::from_dict("label", &text_label_dict()).unwrap(), text_label());
    assert_eq!(text_label().to_dict(), text_label_dict());
}

/// The copies of the table label in Haystack's equality tests: no id, no timestamp, and a table document
/// without id (Haystack hashes the DataFrame's printout into it).
fn table_label_copy(answer_text: &str, offset: Offset) -> Label {
    let document = doc(records_table(), ContentType::Table, None, json!({}), None).unwrap();
    label("some", table_answer_of_label(answer_text, offset), document, true, LabelOrigin::UserFeedback, None, None)
}

#[test]
fn test_table_labels_with_identical_fields_are_equal() {
    let copy = table_label_copy("text_2", cell(1, 0));
    assert_eq!(copy.document.id, "fe5cb68f8226776914781f6bd40ad718");
    assert!(haystack_eq(&table_label(), &copy));
}

#[test]
fn test_table_labels_with_different_fields_are_not_equal() {
    assert!(!haystack_eq(&table_label(), &table_label_copy("text_1", cell(0, 0))));
}

/// test_table_label_from_json, test_table_label_to_json, test_table_label_from_dict, test_table_label_to_dict.
#[test]
fn test_table_label_dict() {
    assert_eq!(Label::from_dict("label", &table_label_dict()).unwrap(), table_label());
    assert_eq!(table_label().to_dict(), table_label_dict());
}

/// test_answer_to_json, test_answer_from_json, test_answer_to_dict, test_answer_from_dict, and the same four
/// for the table answer.
#[test]
fn test_answer_dict() {
    for (answer, dict) in [(text_answer(), text_answer_dict()), (table_answer(), table_answer_dict())] {
        assert_eq!(answer.to_dict(), dict);
        assert_eq!(Answer::from_dict("answer", &dict).unwrap(), answer);
    }
}

/// test_document_from_dict, test_document_to_dict, test_document_{from,to}_json_without_embedding, and the
/// same four for the table document.
#[test]
fn test_document_dict() {
    let table_doc = doc(actors_table(), ContentType::Table, Some("doc1"), json!({}), None).unwrap();
    for (d, dict) in [(text_doc("some text", "doc1"), text_doc_dict()), (table_doc, table_doc_dict())] {
        assert_eq!(Document::from_dict(&obj(dict.clone()), &Map::new(), None).unwrap(), d);
        assert_eq!(Value::Object(d.to_dict(&Map::new())), dict);
    }
}

/// test_document_{from,to}_json_with_embedding and test_table_doc_{from,to}_json_with_embedding
/// (text_doc_emb.json, table_doc_emb.json).
#[test]
fn test_document_json_with_embedding() {
    for (content, content_type, dict) in [(json!("some text"), ContentType::Text, text_doc_dict()), (actors_table(), ContentType::Table, table_doc_dict())] {
        let json = with_embedding(dict, "doc2");
        let d = doc_with_embedding(content, content_type);
        assert_eq!(Document::from_dict(&obj(json.clone()), &Map::new(), None).unwrap(), d);
        assert_eq!(Value::Object(d.to_dict(&Map::new())), json);
    }
}

#[test]
fn test_answer_postinit() {
    let a = Answer::from_dict("answer", &json!({"answer": "test", "offsets_in_document": [{"start": 10, "end": 20}]})).unwrap();
    assert!(a.meta.is_empty());
    assert_eq!(a.offsets_in_document, Some(vec![span(10, 20)]));
}

#[test]
fn test_table_answer_postinit() {
    let a = Answer::from_dict("answer", &json!({"answer": "test", "offsets_in_document": [{"row": 1, "col": 2}]})).unwrap();
    assert!(a.meta.is_empty());
    assert_eq!(a.offsets_in_document, Some(vec![cell(1, 2)]));
}

#[test]
fn test_generate_doc_id_using_text() {
    let d = |text: &str, name: &str| doc(json!(text), ContentType::Text, None, json!({"name": name}), None).unwrap().id;
    assert_eq!(d("text1", "doc1"), d("text1", "doc2"));
    assert_ne!(d("text1", "doc1"), d("text2", "doc3"));
}

#[test]
fn test_generate_doc_id_using_custom_list() {
    let d = |text: &str, name: &str, keys: &[&str]| doc(json!(text), ContentType::Text, None, json!({"name": name}), Some(keys));
    assert_eq!(d("text1", "doc1", &["content"]).unwrap().id, d("text1", "doc2", &["content"]).unwrap().id);
    assert_ne!(d("text1", "doc1", &["content", "meta"]).unwrap().id, d("text1", "doc2", &["content", "meta"]).unwrap().id);
    assert_ne!(d("text1", "doc1", &["content"]).unwrap().id, d("text2", "doc3", &["content"]).unwrap().id);
    let e = d("text1", "doc1", &["content", "non_existing_field"]).unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidArgument);
}

#[test]
fn test_generate_doc_id_custom_list_meta() {
    let d = |text: &str, name: &str, keys: &[&str]| doc(json!(text), ContentType::Text, None, json!({"name": name, "url": "https://deepset.ai"}), Some(keys)).unwrap().id;
    assert_eq!(d("text1", "doc1", &["content", "meta.url"]), d("text1", "doc2", &["content", "meta.url"]));
    assert_eq!(d("text1", "doc1", &["meta.url"]), d("text2", "doc2", &["meta.url"]));
    assert_ne!(d("text1", "doc1", &["meta.url"]), d("text2", "doc2", &["meta.url", "meta.name"]));
}

fn filtered_label(answer_text: &str, filters: Value) -> Label {
    let mut l = label("question", Answer::new(answer_text), text_doc("some", "777"), true, LabelOrigin::GoldLabel, None, None);
    l.filters = Some(filters);
    l
}

#[test]
fn test_aggregate_labels_with_labels() {
    let l1 = filtered_label("1", json!({"name": ["filename1"]}));
    let l2 = filtered_label("2", json!({"name": ["filename1"]}));
    let l3 = filtered_label("2", json!({"name": ["filename2"]}));
    let ml = MultiLabel::new(vec![l1.clone(), l2], false, false).unwrap();
    assert_eq!(ml.filters, Some(json!({"name": ["filename1"]})));
    assert_eq!(MultiLabel::new(vec![l1, l3], false, false).unwrap_err().code, ErrorCode::InvalidArgument);
}

fn ordered_label(id: &str, text: &str, offsets_in_document: Offset, offsets_in_context: Option<Offset>, document: Document, correct_answer: bool) -> Label {
    let a = Answer { offsets_in_document: Some(vec![offsets_in_document]), offsets_in_context: offsets_in_context.map(|o| vec![o]), ..Answer::new(text) };
    label("question", a, document, correct_answer, LabelOrigin::GoldLabel, Some(id), None)
}

#[test]
fn test_multilabel_preserve_order() {
    let labels = vec![
        ordered_label("0", "answer1", span(12, 18), None, text_doc("some", "123"), true),
        ordered_label("1", "answer2", span(12, 18), None, text_doc("some", "123"), true),
        ordered_label("2", "answer3", span(12, 18), None, text_doc("some other", "333"), true),
        ordered_label("3", "", span(0, 0), None, text_doc("some", "777"), true),
        ordered_label("4", "answer5", span(12, 18), None, text_doc("some", "123"), false),
    ];
    let ml = MultiLabel::new(labels, false, false).unwrap();
    for i in 0..5 {
        assert_eq!(ml.labels[i].id, i.to_string());
    }
}

#[test]
fn test_multilabel_preserve_order_w_duplicates() {
    let l0 = || ordered_label("0", "answer1", span(12, 18), Some(span(1, 7)), text_doc("some", "123"), true);
    let l2 = || ordered_label("2", "answer3", span(14, 20), Some(span(2, 8)), text_doc("some other", "333"), true);
    let labels = vec![l0(), ordered_label("1", "answer2", span(10, 16), Some(span(0, 6)), text_doc("some", "123"), true), l2(), l0(), l2()];
    let ml = MultiLabel::new(labels, false, false).unwrap();
    assert_eq!(ml.query, "question");
    assert_eq!(ml.answers, ["answer1", "answer2", "answer3"]);
    assert_eq!(ml.document_ids, ["123", "123", "333"]);
    assert_eq!(ml.contexts, ["some", "some", "some other"]);
    assert_eq!(json!(ml.offsets_in_documents), json!([{"start": 12, "end": 18}, {"start": 10, "end": 16}, {"start": 14, "end": 20}]));
    assert_eq!(json!(ml.offsets_in_contexts), json!([{"start": 1, "end": 7}, {"start": 0, "end": 6}, {"start": 2, "end": 8}]));
    for i in 0..3 {
        assert_eq!(ml.labels[i].id, i.to_string());
    }
}

#[test]
fn test_multilabel_id() {
    let l = |query: &str, filters: Value| {
        let mut l = label(query, Answer::new("answer 1"), text_doc("something", "1"), true, LabelOrigin::GoldLabel, None, None);
        l.filters = Some(filters);
        l
    };
    let filter1 = json!({"name": ["name 1"]});
    let filter2 = json!({"name": ["name 1"], "author": ["author 1"]});
    assert_eq!(MultiLabel::new(vec![l("question 1", filter1)], false, false).unwrap().id, "33a3e58e13b16e9d6ec682ffe59ccc89");
    assert_eq!(MultiLabel::new(vec![l("question 2", filter2.clone())], false, false).unwrap().id, "1b3ad38b629db7b0e869373b01bc32b1");
    assert_eq!(MultiLabel::new(vec![l("question 1", filter2)], false, false).unwrap().id, "531445fa3bdf98b8598a3bea032bd605");
}

#[test]
fn test_multilabel_with_doc_containing_dataframes() {
    let table = json!([["col1", "col2"], [1, 3], [2, 4]]);
    let table_doc = doc(table.clone(), ContentType::Table, Some("table1"), json!({}), None).unwrap();
    let a = Answer {
        context: Some(table),
        offsets_in_document: Some(vec![cell(0, 0)]),
        offsets_in_context: Some(vec![cell(0, 0)]),
        document_ids: Some(vec![table_doc.id.clone()]),
        ..Answer::new("1")
    };
    let ml = MultiLabel::new(vec![label("A question", a, table_doc, true, LabelOrigin::GoldLabel, None, None)], false, false).unwrap();
    assert_eq!(ml.query, "A question");
    assert_eq!(ml.contexts, ["   col1  col2\n0     1     3\n1     2     4"]);
    assert_eq!(ml.answers, ["1"]);
    assert_eq!(ml.document_ids, ["table1"]);
    assert_eq!(json!(ml.offsets_in_documents), json!([{"row": 0, "col": 0}]));
    assert_eq!(json!(ml.offsets_in_contexts), json!([{"row": 0, "col": 0}]));
}

/// test_multilabel_serialization and test_table_multilabel_serialization: rerankit's MultiLabel is rebuilt from
/// its labels (no dict of its own), so what must survive is the label's dict round trip.
#[test]
fn test_multilabel_serialization() {
    let godt = "\n\n\n\n\nThe eighth and final season of the fantasy drama television series ''Game of Thrones'', produced by HBO, premiered on April 14, 2019, and concluded on May 19, 2019. Unlike the first six seasons, which consisted of ten episodes each, and the seventh season, which consisted of seven episodes, the eighth season consists of only six episodes.\n\nThe final season depicts the culmination of the series' two primary conflicts: the G";
    let common = |document: Value, answer: Value, query: &str| {
        json!({
            "id": "011079cf-c93f-49e6-83bb-42cd850dce12", "query": query, "document": document,
            "is_correct_answer": true, "is_correct_document": true, "origin": "user-feedback", "answer": answer,
            "no_answer": false, "pipeline_id": null, "created_at": "2022-07-22T13:29:33.699781+00:00",
            "updated_at": "2022-07-22T13:29:33.784895+00:00",
            "meta": {"answer_id": "374394", "document_id": "604995", "question_id": "345530"}, "filters": null
        })
    };
    let text = common(
        json!({"content": godt, "content_type": "text", "id": "9c82c97c9dc8ba6895893a53aafa610f", "meta": {}, "score": null, "embedding": null}),
        json!({"answer": "April 14", "type": "extractive", "score": null, "context": godt, "offsets_in_document": [{"start": 124, "end": 132}], "offsets_in_context": null, "document_ids": null, "meta": {}}),
        "When was the final season first shown on TV?",
    );
    let table = common(
        json!({"content": [["col1", "col2"], [1, 3], [2, 4]], "content_type": "table", "id": "table1", "meta": {}, "score": null, "embedding": null}),
        json!({"answer": "1", "type": "extractive", "score": null, "context": [["col1", "col2"], [1, 3], [2, 4]], "offsets_in_document": [{"row": 0, "col": 0}], "offsets_in_context": [{"row": 0, "col": 0}], "document_ids": ["table1"], "meta": {}}),
        "What is the first number?",
    );
    for dict in [text, table] {
        let label = Label::from_dict("label", &dict).unwrap();
        let original = MultiLabel::new(vec![label.clone()], false, false).unwrap();
        let again = Label::from_dict("label", &label.to_dict()).unwrap();
        assert_eq!(again, label);
        assert_eq!(MultiLabel::new(vec![again], false, false).unwrap(), original);
    }
}

#[test]
fn test_id_hash_keys_not_ignored() {
    let d = |n: &str, keys: Option<&[&str]>| doc(json!("hello world"), ContentType::Text, None, json!({"doc_id": n}), keys).unwrap().id;
    assert_ne!(d("1", Some(&["meta"])), d("2", Some(&["meta"])));
    assert_eq!(d("3", None), d("4", None));
}

fn legacy_label(document_id: Value) -> Value {
    json!({
        "id": "123",
        "query": "Who made the PDF specification?",
        "document": {"content": "Some content", "content_type": "text", "score": null, "id": "fc18c987a8312e72a47fb1524f230bb0", "meta": {}, "embedding": [0.1, 0.2, 0.3]},
        "answer": {
            "answer": "Adobe Systems", "type": "extractive", "context": "Some content",
            "offsets_in_context": [{"start": 60, "end": 73}], "offsets_in_document": [{"start": 60, "end": 73}],
            "document_id": document_id, "meta": {}, "score": null
        },
        "is_correct_answer": true,
        "is_correct_document": true,
        "origin": "user-feedback",
        "pipeline_id": "some-123"
    })
}

#[test]
fn test_legacy_answer_document_id() {
    let legacy = legacy_label(json!("fc18c987a8312e72a47fb1524f230bb0"));
    let want = Some(vec!["fc18c987a8312e72a47fb1524f230bb0".to_string()]);
    assert_eq!(Answer::from_dict("answer", &legacy["answer"]).unwrap().document_ids, want);
    assert_eq!(Label::from_dict("label", &legacy).unwrap().answer.unwrap().document_ids, want);
}

#[test]
fn test_legacy_answer_document_id_is_none() {
    let legacy = legacy_label(Value::Null);
    assert_eq!(Answer::from_dict("answer", &legacy["answer"]).unwrap().document_ids, None);
    assert_eq!(Label::from_dict("label", &legacy).unwrap().answer.unwrap().document_ids, None);
}

// --- values computed by farm-haystack 1.26.4.post0 itself (tests/fixtures/haystack/schema.json) ---

fn schema_fixture() -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/haystack/schema.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Every printable table prints and hashes as Haystack's DataFrame; every other one is refused, never guessed.
#[test]
fn table_printouts_and_ids_equal_haystack() {
    let fixture = schema_fixture();
    let tables = fixture["tables"].as_array().unwrap();
    let mut printed = 0;
    let mut wrong = Vec::new();
    for t in tables {
        let rows = t["rows"].as_array().unwrap();
        let derived = doc(t["rows"].clone(), ContentType::Table, None, json!({}), None);
        let ok = if t["printable"] == json!(true) {
            printed += 1;
            dataframe_str("content", rows).ok().as_deref() == t["str"].as_str() && derived.map(|d| d.id).ok().as_deref() == t["id"].as_str()
        } else {
            derived.is_err_and(|e| e.code == ErrorCode::Unsupported)
        };
        if !ok {
            wrong.push(format!("{} printable={}: {:?} want {:?}", t["rows"], t["printable"], dataframe_str("content", rows), t["str"]));
        }
    }
    assert!(wrong.is_empty(), "{} tables differ:\n{}", wrong.len(), wrong.join("\n"));
    assert!(printed >= 100 && printed < tables.len(), "{printed} of {} printable", tables.len());
}

#[test]
fn documents_equal_haystack() {
    for case in schema_fixture()["documents"].as_array().unwrap() {
        let d = Document::from_dict(&obj(case["dict"].clone()), &Map::new(), None).unwrap();
        assert_eq!(Value::Object(d.to_dict(&Map::new())), case["to_dict"], "{}", case["dict"]);
    }
}

#[test]
fn answers_equal_haystack() {
    for case in schema_fixture()["answers"].as_array().unwrap() {
        let a = Answer::from_dict("answer", &case["dict"]).unwrap();
        assert_eq!(a.to_dict(), case["to_dict"], "{}", case["dict"]);
        assert_eq!(a.answer_type == AnswerType::Generative, case["dict"]["type"] == json!("generative"));
    }
}

// --- `EvaluationResult.append` (test_evaluation_result_append; tests/fixtures/haystack/append.json holds what
// farm-haystack itself gave, from scripts/fixtures/haystack/make_haystack_append.py) ---

fn rows_table(rows: Value) -> rerankit::eval::haystack::NodeTable {
    rerankit::eval::haystack::NodeTable::from_records(rows.as_array().expect("records")).unwrap()
}

#[test]
fn test_evaluation_result_append() {
    use rerankit::eval::haystack::EvaluationResult;
    let df1 = json!([{"col1": 1, "index": 3}, {"col1": 2, "index": 4}]);
    let df2 = json!([{"col1": 5, "index": 7}, {"col1": 6, "index": 8}]);
    let df_expected = json!([{"col1": 1, "index": 3}, {"col1": 2, "index": 4}, {"col1": 5, "index": 7}, {"col1": 6, "index": 8}]);

    let mut eval_result = EvaluationResult::new();
    eval_result.append("test", rows_table(df1.clone()));
    assert_eq!(eval_result.node("test"), Some(&rows_table(df1)));
    eval_result.append("test", rows_table(df2));
    assert_eq!(eval_result.node("test"), Some(&rows_table(df_expected)));
}

#[test]
fn evaluation_result_append_as_haystack() {
    use rerankit::eval::haystack::{Cell, EvaluationResult, NodeTable};
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/haystack/append.json");
    let fixture: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    for (name, case) in fixture["cases"].as_object().unwrap() {
        let mut result = EvaluationResult::new();
        for step in case["appends"].as_array().unwrap() {
            let rows = &step["rows"];
            let table = match rows.get("columns") {
                Some(columns) => NodeTable::new(columns.as_array().unwrap().iter().map(|c| c.as_str().unwrap().to_string()).collect()),
                None => rows_table(rows.clone()),
            };
            result.append(step["key"].as_str().unwrap(), table);
        }
        let want = case["node_results"].as_object().unwrap();
        assert_eq!(result.node_names(), want.keys().cloned().collect::<Vec<_>>(), "{name}");
        for (node, table) in want {
            let got = result.node(node).unwrap();
            assert_eq!(json!(got.columns), table["columns"], "{name}: {node}");
            let rows: Vec<Vec<Value>> = got.rows.iter().map(|r| r.iter().map(Cell::to_json).collect()).collect();
            assert_eq!(json!(rows), table["rows"], "{name}: {node}");
            // an integer column upcast to float prints as pandas prints it
            for (row, want_row) in got.rows.iter().zip(table["rows"].as_array().unwrap()) {
                for (cell, want_cell) in row.iter().zip(want_row.as_array().unwrap()) {
                    assert_eq!(matches!(cell, Cell::Float(_)), want_cell.is_f64(), "{name}: {node}: {cell:?} / {want_cell}");
                }
            }
        }
    }
}
