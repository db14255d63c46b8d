//! Conformance: rerankit's agent evaluation reproduces graphrag-eval 6.6.1's outputs on its own test data and
//! on the extra step-rule cases (tests/fixtures/graphrag_eval, outputs made by graphrag-eval itself).

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
    serde_json::from_str(&read(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// Equal as Python's `==` on the loaded data would say, except that numbers agree to 1e-9 (relative for
/// large values). Reports the first difference with its path.
fn same(expected: &Value, actual: &Value, path: &str) -> Result<(), String> {
    match (expected, actual) {
        (Value::Number(a), Value::Number(b)) => {
            let (x, y) = (a.as_f64().unwrap(), b.as_f64().unwrap());
            if (x - y).abs() <= 1e-9 * x.abs().max(1.0) {
                Ok(())
            } else {
                Err(format!("{path}: expected {x}, got {y}"))
            }
        }
        (Value::Object(a), Value::Object(b)) => {
            for (k, v) in a {
                match b.get(k) {
                    Some(w) => same(v, w, &format!("{path}.{k}"))?,
                    None => return Err(format!("{path}.{k}: missing (expected {v})")),
                }
            }
            for k in b.keys() {
                if !a.contains_key(k) {
                    return Err(format!("{path}.{k}: unexpected key (value {})", b[k]));
                }
            }
            Ok(())
        }
        (Value::Array(a), Value::Array(b)) => {
            if a.len() != b.len() {
                return Err(format!("{path}: expected {} items, got {}", a.len(), b.len()));
            }
            for (i, (v, w)) in a.iter().zip(b).enumerate() {
                same(v, w, &format!("{path}[{i}]"))?;
            }
            Ok(())
        }
        _ if expected == actual => Ok(()),
        _ => Err(format!("{path}: expected {expected}, got {actual}")),
    }
}

fn custom_metric_names(config: Option<&Value>) -> Vec<String> {
    let Some(cfg) = config else { return vec![] };
    let cfg = agent::llm::Config::from_value(cfg).expect("config");
    cfg.custom_metric_names()
}

#[test]
fn non_llm_evaluations_equal_graphrag_eval() {
    let manifest = json("cases.json");
    let mut checked = 0;
    for case in manifest["evaluation"].as_array().unwrap() {
        if !case["config"].is_null() {
            continue; // LLM-judged: tests/agent_eval/llm.rs
        }
        let name = case["name"].as_str().unwrap();
        let reference = agent::parse_reference(&read(case["reference"].as_str().unwrap())).unwrap();
        let responses = Responses::parse(&read(case["responses"].as_str().unwrap())).unwrap();
        let results = Value::Array(agent::evaluate(&reference, &responses));
        same(&json(case["evaluation"].as_str().unwrap()), &results, name).unwrap_or_else(|e| panic!("{e}"));
        let aggregates = agent::aggregate(results.as_array().unwrap(), &[]);
        same(&json(case["aggregates"].as_str().unwrap()), &aggregates, &format!("{name} aggregates"))
            .unwrap_or_else(|e| panic!("{e}"));
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} cases");
}

#[test]
fn aggregates_of_upstream_evaluations_equal_graphrag_eval() {
    let manifest = json("cases.json");
    for case in manifest["aggregates"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let samples = agent::input::parse_document(&read(case["evaluation"].as_str().unwrap()), name).unwrap();
        let aggregates = agent::aggregate(samples.as_array().unwrap(), &custom_metric_names(None));
        same(&json(case["aggregates"].as_str().unwrap()), &aggregates, name).unwrap_or_else(|e| panic!("{e}"));
    }
}

#[test]
fn steps_matching_matches_annotations() {
    // a spot check in addition to the full comparison: the extra cases' ids name the rule they exercise
    let reference = agent::parse_reference(&read("extra/steps_reference.yaml")).unwrap();
    let responses = Responses::parse(&read("extra/steps_responses.jsonl")).unwrap();
    let results = agent::evaluate(&reference, &responses);
    let by_id = |id: &str| results.iter().find(|r| r["question_id"] == id).unwrap().clone();
    assert_eq!(by_id("r_k3_partial")["steps_score"], 2.0 / 3.0);
    assert_eq!(by_id("g_two_groups_ok")["reference_steps"][0][0]["matches"], "call_2");
    assert_eq!(by_id("d_relative_ok")["steps_score"], 1.0);
    assert_eq!(by_id("d_relative_too_far")["steps_score"], 0.0);
}
