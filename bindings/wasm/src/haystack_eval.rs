//! Bindings for Haystack-style pipeline evaluation and the SQuAD scripts (wrapped by pkg/haystack_eval.ts).
//!
//! Inputs are JS values converted strictly by [`convert::to_json`] (errors name the path), or JSON text where
//! a whole file is passed (a string argument is parsed as JSON; a bad file is a `PARSE` error). Results go back
//! as JSON text so that key order (Haystack's column order, the official scripts' key order) survives; the
//! wrapper parses it.

use super::convert::{read_options, to_json};
use super::errors::{js, JsResult};
use rerankit::eval::haystack::{
    self, squad, ContextMatching, EvaluationResult, MetricsOptions, WrongExamplesOptions,
};
use rerankit::{Error, Result};
use serde_json::{Map, Value};
use wasm_bindgen::prelude::*;

fn to_text(v: &Value) -> Result<String> {
    serde_json::to_string(v).map_err(|e| Error::internal(format!("serialising the result: {e}")))
}

/// A JS value, or JSON text when it is a string.
fn value_of(path: &str, v: &JsValue) -> Result<Value> {
    match v.as_string() {
        Some(text) => serde_json::from_str(&text).map_err(|e| Error::parse(path, e)),
        None => to_json(path, v),
    }
}

/// Haystack's `EvaluationResult`: one table of rows per node.
#[wasm_bindgen(js_name = HaystackEvaluation)]
pub struct HaystackEvaluation {
    inner: EvaluationResult,
}

#[wasm_bindgen(js_class = HaystackEvaluation)]
impl HaystackEvaluation {
    /// Builds every node's rows from `{queries, labels, nodes}` (see `parse_eval_input`); `contextMatching` is
    /// `{minLength, boostSplitOverlaps, threshold}` (defaults 100, true, 65).
    #[wasm_bindgen(js_name = fromPredictions)]
    pub fn from_predictions(input: JsValue, context_matching: JsValue) -> JsResult<HaystackEvaluation> {
        js((|| {
            let input = value_of("input", &input)?;
            let cm: ContextMatching = read_options("contextMatching", &context_matching)?;
            let (queries, labels, nodes) = haystack::parse_eval_input(&input)?;
            Ok(HaystackEvaluation { inner: EvaluationResult::from_predictions(&queries, &labels, &nodes, &cm)? })
        })())
    }

    /// `load(dir)` from `[[file name, CSV text], ...]` (the node name is the file stem).
    #[wasm_bindgen(js_name = fromCsvFiles)]
    pub fn from_csv_files(files: JsValue) -> JsResult<HaystackEvaluation> {
        js((|| {
            let v = to_json("files", &files)?;
            let list = v.as_array().ok_or_else(|| Error::invalid("files", "expected a list of [file name, CSV text]"))?;
            let mut pairs = Vec::with_capacity(list.len());
            for (i, f) in list.iter().enumerate() {
                match f.as_array().map(Vec::as_slice) {
                    Some([Value::String(name), Value::String(text)]) => pairs.push((name.clone(), text.clone())),
                    _ => return Err(Error::invalid(&format!("files[{i}]"), "expected [file name, CSV text]")),
                }
            }
            Ok(HaystackEvaluation { inner: EvaluationResult::from_csv_files(&pairs)? })
        })())
    }

    /// From `{node: [row objects]}` (a value or JSON text).
    #[wasm_bindgen(js_name = fromJson)]
    pub fn from_json(value: JsValue) -> JsResult<HaystackEvaluation> {
        js((|| Ok(HaystackEvaluation { inner: EvaluationResult::from_json(&value_of("evaluation result", &value)?)? }))())
    }

    /// The node names, in order.
    #[wasm_bindgen(js_name = nodeNames)]
    pub fn node_names(&self) -> Vec<String> {
        self.inner.node_names()
    }

    /// `calculate_metrics(...)` → `{node: {metric: value}}` as JSON text.
    #[wasm_bindgen(js_name = calculateMetrics)]
    pub fn calculate_metrics(&self, options: JsValue) -> JsResult<String> {
        js((|| {
            let o: MetricsOptions = read_options("options", &options)?;
            let mut out = Map::new();
            for (node, metrics) in self.inner.calculate_metrics(&o)? {
                out.insert(node, Value::Object(metrics));
            }
            to_text(&Value::Object(out))
        })())
    }

    /// `wrong_examples(node, ...)` → a JSON array of `{multilabel_id, query, filters, metrics, documents|answers, ...}`.
    #[wasm_bindgen(js_name = wrongExamples)]
    pub fn wrong_examples(&self, node: &str, options: JsValue) -> JsResult<String> {
        js((|| {
            let o: WrongExamplesOptions = read_options("options", &options)?;
            to_text(&Value::Array(self.inner.wrong_examples(node, &o)?))
        })())
    }

    /// One node's rows as the CSV `EvaluationResult.save` writes.
    #[wasm_bindgen(js_name = toCsv)]
    pub fn to_csv(&self, node: &str) -> JsResult<String> {
        js(self.node(node).map(|t| t.to_csv()))
    }

    /// Replaces (or adds) a node's rows from CSV text.
    #[wasm_bindgen(js_name = setCsv)]
    pub fn set_csv(&mut self, node: &str, text: &str) -> JsResult<()> {
        js((|| {
            let one = EvaluationResult::from_csv_files(&[(format!("{node}.csv"), text.to_string())])?;
            let (_, t) = one.node_results.into_iter().next().ok_or_else(|| Error::internal("no table"))?;
            self.inner.insert(node, t);
            Ok(())
        })())
    }

    /// `{node: [row objects]}` as JSON text.
    #[wasm_bindgen(js_name = toJson)]
    pub fn to_json_text(&self) -> JsResult<String> {
        js(to_text(&self.inner.to_json()))
    }

    /// One node's rows as a JSON array of row objects.
    #[wasm_bindgen(js_name = nodeRows)]
    pub fn node_rows(&self, node: &str) -> JsResult<String> {
        js(self.node(node).and_then(|t| to_text(&Value::Array(t.to_records()))))
    }
}

// Semantic answer similarity (Haystack's `sas` columns).
#[wasm_bindgen(js_class = HaystackEvaluation)]
impl HaystackEvaluation {
    /// The (prediction, gold answer) pairs of a node's answer rows, as JSON text `[[prediction, gold], …]`.
    #[wasm_bindgen(js_name = sasPairs)]
    pub fn sas_pairs(&self, node: &str) -> JsResult<String> {
        js(self.node(node).and_then(|t| {
            let pairs = haystack::sas::sas_pairs(t);
            to_text(&Value::Array(pairs.into_iter().map(|(p, g)| Value::Array(vec![Value::String(p), Value::String(g)])).collect()))
        }))
    }

    /// Adds a node's SAS columns from one score per `sasPairs(node)` pair, computed by the caller's model (a
    /// rerankit model's `sasScores`, which lives in the model module, or the caller's own function).
    #[wasm_bindgen(js_name = applySasScores)]
    pub fn apply_sas_scores(&mut self, node: &str, scores: &[f64], context_matching_threshold: f64) -> JsResult<()> {
        js((|| {
            if let Some(i) = scores.iter().position(|x| !x.is_finite()) {
                return Err(Error::invalid(&format!("scores[{i}]"), "expected a finite number"));
            }
            let mut scorer = haystack::sas::FnScorer(|_: &[(String, String)]| Ok(scores.to_vec()));
            haystack::sas::add_sas(self.node_mut(node)?, &mut scorer, context_matching_threshold)
        })())
    }
}

impl HaystackEvaluation {
    fn node_mut(&mut self, node: &str) -> Result<&mut haystack::NodeTable> {
        let names = self.inner.node_names().join(", ");
        self.inner.node_mut(node).ok_or_else(|| Error::invalid("node", format!("unknown node {node:?} (nodes: {names})")))
    }

    fn node(&self, node: &str) -> Result<&haystack::NodeTable> {
        self.inner
            .node(node)
            .ok_or_else(|| Error::invalid("node", format!("unknown node {node:?} (nodes: {})", self.inner.node_names().join(", "))))
    }
}

/// Runs `evaluate-v1.1.py` / `evaluate-v2.0.py`: dataset and predictions (values or JSON text), `version`
/// `"1.1"` / `"2.0"` or absent (detected). Returns JSON text `{version, output, printed, messages}`: `printed`
/// is the script's stdout without the final newline, `messages` its stderr lines.
#[wasm_bindgen(js_name = squadEvaluate)]
pub fn squad_evaluate(dataset: JsValue, predictions: JsValue, version: Option<String>) -> JsResult<String> {
    js((|| {
        let dataset = value_of("dataset", &dataset)?;
        let predictions = value_of("predictions", &predictions)?;
        if !dataset.is_object() {
            return Err(Error::parse("dataset", "expected a SQuAD dataset object {\"version\", \"data\": [...]}"));
        }
        let version = match version.as_deref() {
            None | Some("") => squad::detect_version(&dataset),
            Some("1.1") | Some("v1.1") => squad::SquadVersion::V1_1,
            Some("2.0") | Some("v2.0") => squad::SquadVersion::V2_0,
            Some(other) => return Err(Error::invalid("version", format!("{other:?} is not \"1.1\" or \"2.0\""))),
        };
        let result = match version {
            squad::SquadVersion::V1_1 => squad::evaluate_v1(&dataset, &predictions)?,
            squad::SquadVersion::V2_0 => squad::evaluate_v2(&dataset, &predictions)?,
        };
        let mut out = Map::new();
        out.insert("version".into(), Value::String(if version == squad::SquadVersion::V1_1 { "1.1" } else { "2.0" }.into()));
        out.insert("printed".into(), Value::String(squad::dumps_official(&result.output, version)));
        out.insert("output".into(), Value::Object(result.output));
        out.insert("messages".into(), Value::Array(result.messages.into_iter().map(Value::String).collect()));
        to_text(&Value::Object(out))
    })())
}

/// The official SQuAD `normalize_answer`.
#[wasm_bindgen(js_name = squadNormalizeAnswer)]
pub fn squad_normalize_answer(text: &str) -> String {
    squad::normalize_answer(text)
}

/// `[exact, f1]` of one prediction against one gold answer (v2.0's `compute_exact` / `compute_f1`).
#[wasm_bindgen(js_name = squadScores)]
pub fn squad_scores(gold: &str, prediction: &str) -> Vec<f64> {
    vec![squad::compute_exact(gold, prediction), squad::compute_f1(gold, prediction)]
}
