//! Bindings for Haystack-style pipeline evaluation and the SQuAD scripts (wrapped by pkg/metrics/haystack_eval.ts).
//!
//! Inputs are JS values converted strictly by [`convert::to_json`] (errors name the path), or JSON text where
//! a whole file is passed (a string argument is parsed as JSON; a bad file is a `PARSE` error). Results go back
//! as plain JS values, key order kept (Haystack's column order, the official scripts' key order).

use super::convert::{read_options, string_arg, to_js, to_json};
use super::errors::{js, JsResult};
use rerankit::eval::haystack::{
    self, squad, EvaluationBuildOptions, EvaluationResult, HaystackMetricsOptions, WrongExamplesOptions,
};
use rerankit::{Error, Result};
use serde_json::{Map, Value};
use wasm_bindgen::prelude::*;


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
    /// Builds every node's rows from `{queries, labels, nodes}` (see `parse_eval_input`) with
    /// [`EvaluationBuildOptions`] (`{contextMatching, customDocumentIdField}`).
    #[wasm_bindgen(js_name = fromPredictions)]
    pub fn from_predictions(input: JsValue, options: JsValue) -> JsResult<HaystackEvaluation> {
        js((|| {
            let input = value_of("input", &input)?;
            let options: EvaluationBuildOptions = read_options("", &options)?;
            let (queries, labels, nodes) = haystack::parse_eval_input(&input)?;
            let field = options.custom_document_id_field.as_deref();
            Ok(HaystackEvaluation { inner: EvaluationResult::from_predictions(&queries, &labels, &nodes, &options.context_matching, field)? })
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

    /// `calculate_metrics(...)` → `{metrics: {node: {metric: value}}, warnings}` (the warnings Haystack logs, in order).
    #[wasm_bindgen(js_name = calculateMetrics, unchecked_return_type = "{ metrics: import('../metrics/haystack_eval.js').PipelineMetrics; warnings: string[] }")]
    pub fn calculate_metrics(&self, options: JsValue) -> JsResult<JsValue> {
        js((|| {
            let o: HaystackMetricsOptions = read_options("options", &options)?;
            let result = self.inner.calculate_metrics(&o)?;
            let mut metrics = Map::new();
            for (node, m) in result.value {
                metrics.insert(node, Value::Object(m));
            }
            to_js(&serde_json::json!({ "metrics": metrics, "warnings": result.warnings }))
        })())
    }

    /// `wrong_examples(node, ...)` → `{examples: [{multilabel_id, query, filters, metrics, documents|answers, ...}],
    /// warnings}` (the warnings Haystack logs, in order).
    #[wasm_bindgen(js_name = wrongExamples, unchecked_return_type = "{ examples: import('../metrics/haystack_eval.js').WrongExample[]; warnings: string[] }")]
    pub fn wrong_examples(&self, node: JsValue, options: JsValue) -> JsResult<JsValue> {
        js((|| {
            let node = string_arg("node", &node)?;
            let o: WrongExamplesOptions = read_options("options", &options)?;
            let result = self.inner.wrong_examples(&node, &o)?;
            to_js(&serde_json::json!({ "examples": result.value, "warnings": result.warnings }))
        })())
    }

    /// One node's rows as the CSV `EvaluationResult.save` writes.
    #[wasm_bindgen(js_name = toCsv)]
    pub fn to_csv(&self, node: JsValue) -> JsResult<String> {
        js(self.node(&node).map(|t| t.to_csv()))
    }

    /// Replaces (or adds) a node's rows from CSV text.
    #[wasm_bindgen(js_name = setCsv)]
    pub fn set_csv(&mut self, node: JsValue, text: JsValue) -> JsResult<()> {
        js((|| {
            let node = string_arg("node", &node)?;
            let text = string_arg("text", &text)?;
            let one = EvaluationResult::from_csv_files(&[(format!("{node}.csv"), text)])?;
            let (_, t) = one.node_results.into_iter().next().ok_or_else(|| Error::internal("no table"))?;
            self.inner.insert(&node, t);
            Ok(())
        })())
    }

    /// Haystack's `append(key, value)`: adds rows (row objects, as `nodeRows` gives them) after a node's rows, or
    /// makes the node; no rows change nothing.
    #[wasm_bindgen(js_name = appendRows)]
    pub fn append_rows(&mut self, node: JsValue, rows: JsValue) -> JsResult<()> {
        js((|| {
            let node = string_arg("node", &node)?;
            let Value::Array(records) = to_json("rows", &rows)? else {
                return Err(Error::invalid("rows", "expected an array of row objects"));
            };
            self.inner.append(&node, haystack::NodeTable::from_records(&records)?);
            Ok(())
        })())
    }

    /// `{node: [row objects]}`.
    #[wasm_bindgen(js_name = toJson, unchecked_return_type = "Record<string, import('../metrics/haystack_eval.js').EvalRow[]>")]
    pub fn to_json_value(&self) -> JsResult<JsValue> {
        js(to_js(&self.inner.to_json()))
    }

    /// One node's rows, as row objects.
    #[wasm_bindgen(js_name = nodeRows, unchecked_return_type = "import('../metrics/haystack_eval.js').EvalRow[]")]
    pub fn node_rows(&self, node: JsValue) -> JsResult<JsValue> {
        js(self.node(&node).and_then(|t| to_js(&Value::Array(t.to_records()))))
    }
}

// Semantic answer similarity (Haystack's `sas` columns).
#[wasm_bindgen(js_class = HaystackEvaluation)]
impl HaystackEvaluation {
    /// The (prediction, gold answer) pairs of a node's answer rows, `[[prediction, gold], …]`.
    #[wasm_bindgen(js_name = sasPairs, unchecked_return_type = "[string, string][]")]
    pub fn sas_pairs(&self, node: JsValue) -> JsResult<JsValue> {
        js(self.node(&node).and_then(|t| to_js(&haystack::sas::sas_pairs(t))))
    }

    /// Adds a node's SAS columns from one score per `sasPairs(node)` pair, computed by the caller's model (a
    /// rerankit model's `sasScores`, which lives in the model module, or the caller's own function); the node's
    /// columns then come in `Pipeline.eval`'s order.
    #[wasm_bindgen(js_name = applySasScores)]
    pub fn apply_sas_scores(&mut self, node: JsValue, scores: &[f64], context_matching_threshold: f64) -> JsResult<()> {
        js((|| {
            let node = string_arg("node", &node)?;
            if let Some(i) = scores.iter().position(|x| !x.is_finite()) {
                return Err(Error::invalid(&format!("scores[{i}]"), "expected a finite number"));
            }
            let mut scorer = haystack::sas::FnScorer(|_: &[(String, String)]| Ok(scores.to_vec()));
            haystack::sas::add_sas(self.node_mut(&node)?, &mut scorer, context_matching_threshold)
        })())
    }
}

impl HaystackEvaluation {
    fn node_mut(&mut self, node: &str) -> Result<&mut haystack::NodeTable> {
        let names = self.inner.node_names().join(", ");
        self.inner.node_mut(node).ok_or_else(|| Error::invalid("node", format!("unknown node {node:?} (nodes: {names})")))
    }

    fn node(&self, node: &JsValue) -> Result<&haystack::NodeTable> {
        let node = string_arg("node", node)?;
        self.inner
            .node(&node)
            .ok_or_else(|| Error::invalid("node", format!("unknown node {node:?} (nodes: {})", self.inner.node_names().join(", "))))
    }
}

#[wasm_bindgen(typescript_custom_section)]
const SQUAD_RUN: &'static str = r#"
/** `squadEvaluate`'s answer: the official script's JSON output, its stdout and its stderr lines. */
export interface SquadRun {
  version: "1.1" | "2.0";
  output: import('../metrics/haystack_eval.js').SquadV1Result | import('../metrics/haystack_eval.js').SquadV2Result;
  printed: string;
  messages: string[];
}
"#;

/// Runs `evaluate-v1.1.py` / `evaluate-v2.0.py`: dataset and predictions (values or JSON text), options
/// `{version}` (`squad::SquadOptions`). Returns `{version, output, printed, messages}`: `printed`
/// is the script's stdout without the final newline, `messages` its stderr lines.
#[wasm_bindgen(js_name = squadEvaluate, unchecked_return_type = "SquadRun")]
pub fn squad_evaluate(dataset: JsValue, predictions: JsValue, options: JsValue) -> JsResult<JsValue> {
    js((|| {
        let options: squad::SquadOptions = read_options("options", &options)?;
        let dataset = value_of("dataset", &dataset)?;
        let predictions = value_of("predictions", &predictions)?;
        if !dataset.is_object() {
            return Err(Error::parse("dataset", "expected a SQuAD dataset object {\"version\", \"data\": [...]}"));
        }
        let version = options.version(&dataset)?;
        let result = match version {
            squad::SquadVersion::V1_1 => squad::evaluate_v1(&dataset, &predictions)?,
            squad::SquadVersion::V2_0 => squad::evaluate_v2(&dataset, &predictions)?,
        };
        let mut out = Map::new();
        out.insert("version".into(), Value::String(if version == squad::SquadVersion::V1_1 { "1.1" } else { "2.0" }.into()));
        out.insert("printed".into(), Value::String(squad::dumps_official(&result.output, version)));
        out.insert("output".into(), Value::Object(result.output));
        out.insert("messages".into(), Value::Array(result.messages.into_iter().map(Value::String).collect()));
        to_js(&Value::Object(out))
    })())
}

/// The official SQuAD `normalize_answer`.
#[wasm_bindgen(js_name = squadNormalizeAnswer)]
pub fn squad_normalize_answer(text: JsValue) -> JsResult<String> {
    js(string_arg("text", &text).map(|t| squad::normalize_answer(&t)))
}

/// `[exact, f1]` of one prediction against one gold answer (v2.0's `compute_exact` / `compute_f1`).
#[wasm_bindgen(js_name = squadScores)]
pub fn squad_scores(gold: JsValue, prediction: JsValue) -> JsResult<Vec<f64>> {
    js((|| {
        let (gold, prediction) = (string_arg("gold", &gold)?, string_arg("prediction", &prediction)?);
        Ok(vec![squad::compute_exact(&gold, &prediction), squad::compute_f1(&gold, &prediction)])
    })())
}
