//! Bindings for agent-step evaluation (wrapped by pkg/metrics/agent_eval.ts). Inputs are YAML/JSON text or JS values
//! (read strictly, key order kept: graphrag-eval's output order); results come back as plain JS values. The
//! judge runs in TypeScript between `prompts()` and `apply()`.

use super::convert::{to_js, to_json};
use super::errors::{js, JsResult};
use rerankit::eval::agent::llm::{Config, JudgeAnswer, Plan};
use rerankit::eval::agent::{self, input::parse_document, Responses};
use rerankit::{Error, Result};
use serde_json::Value;
use wasm_bindgen::prelude::*;

/// A document given as YAML/JSON text (parsed) or as a JS value (read strictly).
fn document(field: &str, value: &JsValue) -> Result<Value> {
    match value.as_string() {
        Some(text) => parse_document(&text, field),
        None if value.is_object() => to_json(field, value),
        None => Err(Error::invalid(field, "expected YAML/JSON text, an array or an object")),
    }
}

fn reference_of(value: &JsValue) -> Result<Value> {
    match value.as_string() {
        Some(text) => agent::parse_reference(&text),
        None => {
            let v = document("reference", value)?;
            if !v.is_array() {
                return Err(Error::invalid("reference", "the reference dataset must be a list of templates"));
            }
            Ok(v)
        }
    }
}

fn responses_of(value: &JsValue) -> Result<Responses> {
    match value.as_string() {
        Some(text) => Responses::parse(&text),
        None => Ok(Responses::from_value(document("responses", value)?)),
    }
}

/// graphrag-eval's configuration; `undefined`, `null` or blank text: the defaults.
fn config_of(value: &JsValue) -> Result<Config> {
    if value.is_undefined() || value.is_null() || value.as_string().is_some_and(|t| t.trim().is_empty()) {
        return Ok(Config::default());
    }
    Config::from_value(&document("config", value)?)
}

/// `run_evaluation` without LLM metrics: one result per reference question.
#[wasm_bindgen(js_name = agentEvaluate, unchecked_return_type = "import('../metrics/agent_eval.js').AgentResult[]")]
pub fn agent_evaluate(reference: JsValue, responses: JsValue) -> JsResult<JsValue> {
    js((|| {
        let reference = reference_of(&reference)?;
        let responses = responses_of(&responses)?;
        to_js(&Value::Array(agent::evaluate(&reference, &responses)))
    })())
}

/// `compute_aggregates`: results (a list, or its YAML/JSON text) → aggregates; `config` names the custom metrics.
#[wasm_bindgen(js_name = agentAggregate, unchecked_return_type = "Record<string, unknown>")]
pub fn agent_aggregate(results: JsValue, config: JsValue) -> JsResult<JsValue> {
    js((|| {
        let samples = document("results", &results)?;
        let samples = samples.as_array().ok_or_else(|| Error::invalid("results", "expected a list of evaluation results"))?;
        let custom = config_of(&config)?.custom_metric_names();
        to_js(&agent::aggregate(samples, &custom))
    })())
}

/// Any JSON-compatible value as YAML text (for the CLI's `--format yaml`).
#[wasm_bindgen(js_name = agentToYaml)]
pub fn agent_to_yaml(value: JsValue) -> JsResult<String> {
    js((|| {
        let v = to_json("value", &value)?;
        Ok(agent::to_yaml(&v))
    })())
}

/// An evaluation with an LLM judge: the non-LLM results, the prompts to send, and `apply(answers)`.
#[wasm_bindgen(js_name = AgentJudgePlan)]
pub struct AgentJudgePlan {
    results: Vec<Value>,
    plan: Plan,
}

#[wasm_bindgen(js_class = AgentJudgePlan)]
impl AgentJudgePlan {
    #[wasm_bindgen(constructor)]
    pub fn new(reference: JsValue, responses: JsValue, config: JsValue) -> JsResult<AgentJudgePlan> {
        js((|| {
            let config = config_of(&config)?;
            let reference = reference_of(&reference)?;
            let responses = responses_of(&responses)?;
            let results = agent::evaluate(&reference, &responses);
            let plan = Plan::new(&reference, &responses, &results, config);
            Ok(AgentJudgePlan { results, plan })
        })())
    }

    /// The prompts, in the order `apply` expects the answers.
    pub fn prompts(&self) -> Vec<String> {
        self.plan.prompts()
    }

    /// The custom metric names of the configuration.
    #[wasm_bindgen(js_name = customMetrics)]
    pub fn custom_metrics(&self) -> Vec<String> {
        self.plan.custom_metric_names()
    }

    /// Folds the judge's answers — one `{text}` / `{error}` (+ optional `cost`) per prompt — into the results.
    #[wasm_bindgen(unchecked_return_type = "import('../metrics/agent_eval.js').AgentResult[]")]
    pub fn apply(&self, answers: JsValue) -> JsResult<JsValue> {
        js((|| {
            let parsed = to_json("answers", &answers)?;
            let list = parsed.as_array().ok_or_else(|| Error::invalid("answers", "expected an array"))?;
            let answers: Vec<JudgeAnswer> = list
                .iter()
                .map(|a| JudgeAnswer {
                    text: match (a.get("text").and_then(Value::as_str), a.get("error")) {
                        (Some(t), _) => Ok(t.to_string()),
                        (None, Some(e)) => Err(e.as_str().map(str::to_string).unwrap_or_else(|| e.to_string())),
                        (None, None) => Err("the judge returned no text".to_string()),
                    },
                    cost: a.get("cost").and_then(Value::as_f64),
                })
                .collect();
            let mut results = self.results.clone();
            self.plan.apply(&mut results, &answers)?;
            to_js(&Value::Array(results))
        })())
    }
}
