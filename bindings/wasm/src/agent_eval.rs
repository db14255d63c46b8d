//! Bindings for agent-step evaluation (wrapped by pkg/agent_eval.ts). Values cross as JSON text so that key
//! order (graphrag-eval's output order) survives; the judge runs in TypeScript between `prompts()` and
//! `apply()`.

use super::errors::{js, JsResult};
use rerankit::eval::agent::llm::{Config, JudgeAnswer, Plan};
use rerankit::eval::agent::{self, Responses};
use rerankit::{Error, Result};
use serde_json::Value;
use wasm_bindgen::prelude::*;

fn to_text(v: &Value) -> Result<String> {
    serde_json::to_string(v).map_err(|e| Error::internal(format!("serialising the results: {e}")))
}

fn config_of(text: Option<String>) -> Result<Config> {
    match text {
        Some(t) if !t.trim().is_empty() => Config::parse(&t),
        _ => Ok(Config::default()),
    }
}

/// `run_evaluation` without LLM metrics: reference (YAML/JSON) and responses (JSON/JSONL/YAML) text → results
/// as JSON text.
#[wasm_bindgen(js_name = agentEvaluate)]
pub fn agent_evaluate(reference: &str, responses: &str) -> JsResult<String> {
    js((|| {
        let reference = agent::parse_reference(reference)?;
        let responses = Responses::parse(responses)?;
        to_text(&Value::Array(agent::evaluate(&reference, &responses)))
    })())
}

/// `compute_aggregates`: results (JSON/YAML text) → aggregates as JSON text; `config` names the custom metrics.
#[wasm_bindgen(js_name = agentAggregate)]
pub fn agent_aggregate(results: &str, config: Option<String>) -> JsResult<String> {
    js((|| {
        let samples = agent::input::parse_document(results, "results")?;
        let samples = samples.as_array().ok_or_else(|| Error::invalid("results", "expected a list of evaluation results"))?;
        let custom = config_of(config)?.custom_metric_names();
        to_text(&agent::aggregate(samples, &custom))
    })())
}

/// JSON text → YAML text (for the CLI's `--format yaml`).
#[wasm_bindgen(js_name = agentToYaml)]
pub fn agent_to_yaml(json: &str) -> JsResult<String> {
    js((|| {
        let v: Value = serde_json::from_str(json).map_err(|e| Error::parse("json", e))?;
        serde_yaml_ng::to_string(&v).map_err(|e| Error::internal(format!("writing YAML: {e}")))
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
    pub fn new(reference: &str, responses: &str, config: Option<String>) -> JsResult<AgentJudgePlan> {
        js((|| {
            let config = config_of(config)?;
            let reference = agent::parse_reference(reference)?;
            let responses = Responses::parse(responses)?;
            let results = agent::evaluate(&reference, &responses);
            let plan = Plan::new(&reference, &responses, &results, config);
            Ok(AgentJudgePlan { results, plan })
        })())
    }

    /// The prompts, as a JSON array of strings.
    pub fn prompts(&self) -> JsResult<String> {
        js(serde_json::to_string(&self.plan.prompts()).map_err(|e| Error::internal(e.to_string())))
    }

    /// The custom metric names of the configuration, as a JSON array.
    #[wasm_bindgen(js_name = customMetrics)]
    pub fn custom_metrics(&self) -> JsResult<String> {
        let names: Vec<String> = self.plan.custom_metric_names();
        js(serde_json::to_string(&names).map_err(|e| Error::internal(e.to_string())))
    }

    /// Folds the judge's answers — a JSON array, one `{text}` / `{error}` (+ optional `cost`) per prompt —
    /// into the results; returns them as JSON text.
    pub fn apply(&self, answers: &str) -> JsResult<String> {
        js((|| {
            let parsed: Value = serde_json::from_str(answers).map_err(|e| Error::parse("answers", e))?;
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
            to_text(&Value::Array(results))
        })())
    }
}
