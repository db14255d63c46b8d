//! Semantic answer similarity columns and metrics against Haystack 1.26's own `_add_sas_to_eval_result`,
//! `calculate_metrics` and `wrong_examples` (scripts/fixtures/haystack/make_haystack_sas.py). Haystack's model
//! runner (sentence-transformers on PyTorch) is replaced there by onnxruntime on the same ONNX files, doing what
//! sentence-transformers does (bi-encoder: mean pooling + normalisation, cosine; cross-encoder: sigmoid of the
//! one logit); PyTorch is not installable here (see that script). rerankit runs the models with tract, so
//! SAS values agree to 1e-4 (float32 kernels differ in the last bits), everything else exactly.
#![cfg(feature = "cpu")]


use rerankit::eval::haystack::{AnswerScope, EvalMode, HaystackMetricsOptions, WrongExamplesOptions};
use rerankit::eval::haystack::sas::{BiEncoderSas, CrossEncoderSas, SasScorer};
use rerankit::eval::haystack::{EvaluationResult, NodeTable};
use serde_json::Value;
use std::io::Read;

const TOL: f64 = 1e-4;

fn fixture(rel: &str) -> String {
    let p = crate::common::repo().join("tests/fixtures/haystack").join(rel);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Equal up to `TOL` for numbers (booleans as 0/1), exactly otherwise; object keys in the same order.
fn close(a: &Value, b: &Value, path: &str) -> Result<(), String> {
    match (a, b) {
        (Value::Number(_) | Value::Bool(_), Value::Number(_) | Value::Bool(_)) => {
            let f = |v: &Value| v.as_f64().unwrap_or_else(|| v.as_bool().map(|x| x as u8 as f64).unwrap_or(f64::NAN));
            let (x, y) = (f(a), f(b));
            if (x - y).abs() <= TOL {
                Ok(())
            } else {
                Err(format!("{path}: {x} != {y}"))
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            if x.len() != y.len() {
                return Err(format!("{path}: length {} != {}", x.len(), y.len()));
            }
            x.iter().zip(y).enumerate().try_for_each(|(i, (p, q))| close(p, q, &format!("{path}[{i}]")))
        }
        (Value::Object(x), Value::Object(y)) => {
            let (kx, ky): (Vec<&String>, Vec<&String>) = (x.keys().collect(), y.keys().collect());
            if kx != ky {
                return Err(format!("{path}: keys {kx:?} != {ky:?}"));
            }
            x.iter().try_for_each(|(k, v)| close(v, &y[k], &format!("{path}.{k}")))
        }
        _ if a == b => Ok(()),
        _ => Err(format!("{path}: {a} != {b}")),
    }
}

/// Haystack's in-memory rows (node_results.json.gz; equal to rerankit's own, see tests/haystack_eval/evaluation_result.rs) with
/// rerankit's SAS columns added by `scorer`.
fn with_sas(scorer: &mut dyn SasScorer) -> EvaluationResult {
    let gz = std::fs::read(crate::common::repo().join("tests/fixtures/haystack/node_results.json.gz")).unwrap();
    let mut text = String::new();
    flate2::read::GzDecoder::new(&gz[..]).read_to_string(&mut text).unwrap();
    let mut r = EvaluationResult::from_json(&serde_json::from_str(&text).unwrap()).unwrap();
    r.add_sas(scorer, 65.0).unwrap();
    r
}

fn check(model: &str, r: &EvaluationResult) {
    let mut bad = Vec::new();
    // rows: every column (the SAS ones where Pipeline.eval's column order puts them) and value
    let theirs = NodeTable::from_csv("Reader.csv", &fixture(&format!("sas/{model}/Reader.csv"))).unwrap();
    // through CSV as Haystack's side went (a CSV writes None and "" alike)
    let ours = NodeTable::from_csv("Reader.csv", &r.node("Reader").unwrap().to_csv()).unwrap();
    assert_eq!(ours.columns, theirs.columns, "{model}: columns");
    if let Err(e) = close(&Value::Array(ours.to_records()), &Value::Array(theirs.to_records()), "rows") {
        bad.push(e);
    }
    // calculate_metrics: the Reader's exact_match, f1, sas (+ num_examples_for_eval)
    let grid: Value = serde_json::from_str(&fixture(&format!("sas/{model}/metrics.json"))).unwrap();
    for case in grid.as_array().unwrap() {
        let o = HaystackMetricsOptions {
            simulated_top_k_reader: case["simulated_top_k_reader"].as_i64().unwrap(),
            answer_scope: AnswerScope::parse(case["answer_scope"].as_str().unwrap()).unwrap(),
            eval_mode: EvalMode::parse(case["eval_mode"].as_str().unwrap()).unwrap(),
            ..HaystackMetricsOptions::default()
        };
        let got = r.calculate_metrics(&o).unwrap().value;
        let reader = Value::Object(got.into_iter().find(|(n, _)| n == "Reader").unwrap().1);
        if let Err(e) = close(&reader, &case["metrics"]["Reader"], &format!("metrics {o:?}")) {
            bad.push(e);
        }
    }
    // wrong_examples ranked by sas
    let cases: Value = serde_json::from_str(&fixture(&format!("sas/{model}/wrong_examples.json"))).unwrap();
    for case in cases.as_array().unwrap() {
        let a = &case["args"];
        let mut o = WrongExamplesOptions { answer_metric: "sas".into(), ..Default::default() };
        o.n = a.get("n").and_then(Value::as_u64).unwrap_or(3) as usize;
        o.answer_metric_threshold = a.get("answer_metric_threshold").and_then(Value::as_f64).unwrap_or(0.5);
        o.metrics.simulated_top_k_reader = a.get("simulated_top_k_reader").and_then(Value::as_i64).unwrap_or(-1);
        o.metrics.answer_scope = AnswerScope::parse(a.get("answer_scope").and_then(Value::as_str).unwrap_or("any")).unwrap();
        o.metrics.eval_mode = EvalMode::parse(a.get("eval_mode").and_then(Value::as_str).unwrap_or("integrated")).unwrap();
        let got = Value::Array(r.wrong_examples("Reader", &o).unwrap().value);
        if let Err(e) = close(&got, &case["result"], &format!("wrong_examples {a}")) {
            bad.push(e);
        }
    }
    assert!(bad.is_empty(), "{model}: {} differences:\n{}", bad.len(), bad.join("\n"));
}

#[test]
fn bi_encoder_sas_equals_haystack() {
    // sentence-transformers' max_seq_length for all-MiniLM-L6-v2 (sentence_bert_config.json)
    let model = crate::common::embedder("all-MiniLM-L6-v2", "model.onnx", 256);
    let r = with_sas(&mut BiEncoderSas { model: &model, batch_size: 32 });
    check("all-MiniLM-L6-v2", &r);
}

#[test]
fn cross_encoder_sas_equals_haystack() {
    let model = crate::common::cross_encoder("ce-parity-1", "model.onnx");
    let r = with_sas(&mut CrossEncoderSas { model: &model, batch_size: 32 });
    check("ce-parity-1", &r);
}

#[test]
fn a_scorer_returning_the_wrong_count_is_an_error() {
    let mut short = rerankit::eval::haystack::sas::FnScorer(|pairs: &[(String, String)]| Ok(vec![0.5; pairs.len() - 1]));
    let mut r = EvaluationResult::new();
    r.insert("Reader", NodeTable::from_csv("Reader.csv", &fixture("node_results/Reader.csv")).unwrap());
    let e = r.add_sas(&mut short, 65.0).unwrap_err();
    assert_eq!(e.code.as_str(), "INVALID_ARGUMENT", "{e:?}");
    assert!(e.message.contains("scores for"), "{}", e.message);
}
