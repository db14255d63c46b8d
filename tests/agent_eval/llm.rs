//! LLM-judged metrics: replaying graphrag-eval's fake-judge transcript (tests/fixtures/graphrag_eval/expected/
//! extra_llm.judge.json) must give byte-identical prompts and graphrag-eval's outputs.

use rerankit::eval::agent::llm::{Config, JudgeAnswer, Plan};
use rerankit::eval::agent::{self, Responses};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/graphrag_eval")
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn json(rel: &str) -> Value {
    serde_json::from_str(&read(rel)).unwrap()
}

/// Errors are compared by presence (graphrag-eval's messages come from pydantic / json); everything else
/// exactly, numbers to 1e-9.
fn same(expected: &Value, actual: &Value, path: &str) {
    match (expected, actual) {
        (Value::Number(a), Value::Number(b)) => {
            let (x, y) = (a.as_f64().unwrap(), b.as_f64().unwrap());
            assert!((x - y).abs() <= 1e-9 * x.abs().max(1.0), "{path}: expected {x}, got {y}");
        }
        (Value::Object(a), Value::Object(b)) => {
            let keys = |m: &serde_json::Map<String, Value>| m.keys().cloned().collect::<std::collections::BTreeSet<_>>();
            assert_eq!(keys(a), keys(b), "{path}: keys differ");
            for (k, v) in a {
                if k.ends_with("_error") {
                    continue;
                }
                same(v, &b[k], &format!("{path}.{k}"));
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            assert_eq!(a.len(), b.len(), "{path}: lengths differ");
            for (i, (v, w)) in a.iter().zip(b).enumerate() {
                same(v, w, &format!("{path}[{i}]"));
            }
        }
        _ => assert_eq!(expected, actual, "{path}"),
    }
}

#[test]
fn fake_judge_transcript_reproduces_graphrag_eval() {
    let manifest = json("cases.json");
    let case = manifest["evaluation"].as_array().unwrap().iter().find(|c| c["name"] == "extra_llm").unwrap().clone();
    let reference = agent::parse_reference(&read(case["reference"].as_str().unwrap())).unwrap();
    let responses = Responses::parse(&read(case["responses"].as_str().unwrap())).unwrap();
    let config = Config::parse(&read(case["config"].as_str().unwrap())).unwrap();
    let custom = config.custom_metric_names();
    let mut results = agent::evaluate(&reference, &responses);
    let plan = Plan::new(&reference, &responses, &results, config);
    let transcript = json(case["judge"].as_str().unwrap());
    let lookup: std::collections::HashMap<String, String> = transcript
        .as_array()
        .unwrap()
        .iter()
        .map(|t| (t["prompt"].as_str().unwrap().to_string(), t["response"].as_str().unwrap().to_string()))
        .collect();
    let answers: Vec<JudgeAnswer> = plan
        .prompts()
        .iter()
        .map(|p| JudgeAnswer {
            text: Ok(lookup.get(p).unwrap_or_else(|| panic!("prompt not asked by graphrag-eval:\n{p}")).clone()),
            cost: None,
        })
        .collect();
    assert_eq!(answers.len(), transcript.as_array().unwrap().len(), "a different number of judge calls");
    plan.apply(&mut results, &answers).unwrap();
    let results = Value::Array(results);
    same(&json(case["evaluation"].as_str().unwrap()), &results, "extra_llm");
    let aggregates = agent::aggregate(results.as_array().unwrap(), &custom);
    same(&json(case["aggregates"].as_str().unwrap()), &aggregates, "extra_llm aggregates");
}

#[test]
fn judge_costs_are_summed_and_bad_answers_become_error_keys() {
    let reference = agent::parse_reference(&read("upstream/tests-with-llm/test_data/reference_1.yaml")).unwrap();
    let responses = Responses::parse(&read("upstream/tests-with-llm/test_data/actual_responses_1.jsonl")).unwrap();
    let mut results = agent::evaluate(&reference, &responses);
    let plan = Plan::new(&reference, &responses, &results, Config::default());
    assert!(!plan.requests.is_empty());
    let answers: Vec<JudgeAnswer> = plan
        .prompts()
        .iter()
        .map(|p| {
            let text = if p.contains("reference_claims_count") {
                r#"{"reference_claims_count": 2, "actual_claims_count": 2, "matching_claims_count": 1, "reason": "half"}"#
            } else if p.contains("\"verdicts\"") {
                "not json at all"
            } else if p.contains("\"attributed\"") {
                r#"{"attributed": 1, "total": 2}"#
            } else {
                r#"{"answer_relevance": 0.75, "reason": "ok"}"#
            };
            JudgeAnswer { text: Ok(text.to_string()), cost: Some(0.001) }
        })
        .collect();
    plan.apply(&mut results, &answers).unwrap();
    let first = results.iter().find(|r| r.get("answer_f1").is_some()).expect("an answer_f1");
    assert_eq!(first["answer_recall"], 0.5);
    assert_eq!(first["answer_relevance"], 0.75);
    assert_eq!(first["answer_relevance_cost"], 0.001);
    let step = results
        .iter()
        .flat_map(|r| r["actual_steps"].as_array().cloned().unwrap_or_default())
        .find(|s| s.get("retrieval_answer_recall").is_some())
        .expect("a judged retrieval step");
    assert_eq!(step["retrieval_answer_recall"], 0.5);
    assert!(step.get("retrieval_answer_precision_error").is_some());
    assert!(step.get("retrieval_answer_f1").is_none());
    // wrong number of answers is the caller's error
    assert!(plan.apply(&mut results, &[]).is_err());
}
