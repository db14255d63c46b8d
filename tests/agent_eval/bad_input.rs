//! Bad input never stops the run: each problem lands on its item (`status: "error"` + `error`, or
//! `steps_score_error`), where graphrag-eval would raise.

use rerankit::eval::agent::{self, Responses};
use rerankit::ErrorCode;
use serde_json::json;

#[test]
fn malformed_documents_are_parse_errors() {
    let e = agent::parse_reference("- template_id: [unclosed").unwrap_err();
    assert_eq!(e.code, ErrorCode::Parse);
    let e = agent::parse_reference("template_id: x").unwrap_err();
    assert_eq!(e.code, ErrorCode::Parse);
    assert!(Responses::parse(": : :\n  - [").is_err());
}

#[test]
fn bad_records_and_missing_keys_become_item_errors() {
    let reference = agent::parse_reference(
        r#"
- template_id: t
  questions:
  - id: q1
    question_text: one
    reference_steps:
    - - name: sparql_query
        output: '{"head": {"vars": ["a"]}, "results": {"bindings": []}}'
        output_media_type: application/sparql-results+json
  - id: q2
    question_text: two
    reference_steps:
    - - name: some_new_tool
        output: "42"
  - id: q3
    question_text: three
  - id: q4
  - question_text: no id
  - id: q5
    question_text: five
    reference_steps: [[]]
- questions: []
"#,
    )
    .unwrap();
    let responses = Responses::parse(
        "{\"question_id\": \"q1\", \"actual_steps\": [{\"name\": \"sparql_query\", \"id\": \"c\", \"status\": \"success\", \"output\": \"{}\"}]}\n\
         {\"question_id\": \"q2\", \"actual_steps\": [{\"name\": \"some_new_tool\", \"id\": \"x\", \"status\": \"success\", \"output\": \"42\"}]}\n\
         {not json}\n\
         oops, not even an object\n\
         {\"question_id\": \"q4\"}\n\
         {\"question_id\": \"q5\", \"actual_steps\": []}\n",
    )
    .unwrap();
    assert_eq!(responses.problems.len(), 2);
    let results = agent::evaluate(&reference, &responses);
    assert_eq!(results.len(), 7);
    // missing required_columns: graphrag-eval raises KeyError; rerankit reports it on the item
    assert!(results[0]["steps_score_error"].as_str().unwrap().contains("required_columns"));
    assert!(results[0].get("steps_score").is_none());
    // an unknown step name is compared by plain equality, as graphrag-eval does
    assert_eq!(results[1]["steps_score"], json!(1.0));
    assert_eq!(results[1]["reference_steps"][0][0]["matches"], "x");
    // no response: an error item naming the unreadable line
    assert_eq!(results[2]["status"], "error");
    assert!(results[2]["error"].as_str().unwrap().contains("line 3"));
    // missing question_text / id / template_id
    assert_eq!(results[3]["status"], "error");
    assert_eq!(results[4]["status"], "error");
    assert!(results[6]["error"].as_str().unwrap().contains("template_id"));
    // an empty group: graphrag-eval divides by zero
    assert!(results[5].get("steps_score_error").is_some());
    // aggregates still work over all of it
    let agg = agent::aggregate(&results, &[]);
    assert_eq!(agg["micro"]["number_of_error_samples"], json!(4));
}

/// A leading byte-order mark is dropped (src/byte_order_mark.rs, the rule TREC text follows too), in JSON, YAML
/// and JSONL alike.
#[test]
fn a_byte_order_mark_is_dropped_once() {
    for text in ["[{\"template_id\": 1, \"questions\": []}]", "- template_id: 1\n  questions: []\n"] {
        let plain = agent::input::parse_document(text, "reference").unwrap();
        assert_eq!(agent::input::parse_document(&format!("\u{feff}{text}"), "reference").unwrap(), plain);
    }
    let jsonl = "{\"question_id\": \"q1\", \"response\": \"a\"}\n{\"question_id\": \"q2\", \"response\": \"b\"}\n";
    let plain = Responses::parse(jsonl).unwrap();
    let marked = Responses::parse(&format!("\u{feff}{jsonl}")).unwrap();
    assert_eq!(format!("{marked:?}"), format!("{plain:?}"));
}
