//! Which LLM metrics run: graphrag-eval's configuration (its `custom_evaluations`, and its `llm` section, which
//! is accepted and ignored except for `llm.embedding`), read and checked as graphrag-eval checks it.

use super::prompts::DEFAULT_CORRECTNESS_PROMPT;
use crate::python::values as py;
use crate::python::json::dumps_indent2;
use crate::python::text::{python_capitalize, python_format};
use crate::error::{Error, Result};
use serde_json::{Map, Value};

pub(super) const RESERVED_KEYS: [&str; 24] = [
    "template_id",
    "question_id",
    "actual_answer",
    "actual_steps",
    "question_text",
    "reference_answer",
    "reference_steps",
    "status",
    "error",
    "answer_actual_claims_count",
    "answer_matching_claims_count",
    "answer_reference_claims_count",
    "answer_precision",
    "answer_recall",
    "answer_f1",
    "answer_correctness_reason",
    "answer_correctness_error",
    "answer_relevance",
    "answer_relevance_error",
    "steps_score",
    "input_tokens",
    "output_tokens",
    "total_tokens",
    "elapsed_sec",
];
pub(super) const INPUTS: [&str; 5] = ["question", "reference_answer", "reference_steps", "actual_answer", "actual_steps"];

/// One custom evaluation (`custom_evaluations[*]` of graphrag-eval's configuration).
#[derive(Debug, Clone)]
pub struct CustomEvaluation {
    pub name: String,
    pub inputs: Vec<String>,
    pub instructions: String,
    /// Output name → description, in order.
    pub outputs: Vec<(String, String)>,
    pub steps_name: Option<String>,
    /// In the configuration's order (graphrag-eval keeps a set, whose order is Python's hash order).
    pub steps_keys: Vec<String>,
}

/// Which LLM metrics run. From a graphrag-eval configuration (its `llm` section is accepted and ignored,
/// except that, as in graphrag-eval, answer relevance runs by default only when `llm.embedding` is given);
/// without a configuration every built-in metric runs.
#[derive(Debug, Clone)]
pub struct Config {
    pub answer_correctness: bool,
    pub correctness_prompt: String,
    pub answer_relevance: bool,
    pub retrieval: bool,
    pub custom: Vec<CustomEvaluation>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            answer_correctness: true,
            correctness_prompt: DEFAULT_CORRECTNESS_PROMPT.to_string(),
            answer_relevance: true,
            retrieval: true,
            custom: vec![],
        }
    }
}

pub(super) fn bad(msg: impl std::fmt::Display) -> Error {
    Error::invalid("config", msg)
}

pub(super) fn string_list(v: &Value, what: &str) -> Result<Vec<String>> {
    match v {
        Value::Array(items) => items
            .iter()
            .map(|i| i.as_str().map(str::to_string).ok_or_else(|| bad(format!("{what}: every item must be a string"))))
            .collect(),
        _ => Err(bad(format!("{what} must be a list of strings"))),
    }
}

impl Config {
    /// Parses a configuration (YAML or JSON text).
    pub fn parse(text: &str) -> Result<Config> {
        Config::from_value(&super::super::input::parse_document(text, "config")?)
    }

    pub fn from_value(v: &Value) -> Result<Config> {
        let mut cfg = Config::default();
        let Some(map) = v.as_object() else {
            if v.is_null() {
                return Ok(cfg);
            }
            return Err(bad("the configuration must be a mapping"));
        };
        let has_llm_section = map.get("llm").is_some_and(|l| !l.is_null());
        let has_embedding = map.get("llm").and_then(|l| l.get("embedding")).is_some_and(|e| !e.is_null());
        if has_llm_section && !has_embedding {
            cfg.answer_relevance = false;
        }
        if let Some(ac) = map.get("answer_correctness").filter(|v| !v.is_null()) {
            if let Some(e) = ac.get("enabled") {
                cfg.answer_correctness = e.as_bool().ok_or_else(|| bad("answer_correctness.enabled must be a boolean"))?;
            }
            if let Some(p) = ac.get("prompt") {
                cfg.correctness_prompt =
                    p.as_str().ok_or_else(|| bad("answer_correctness.prompt must be a string"))?.to_string();
            }
        }
        if let Some(ar) = map.get("answer_relevance").filter(|v| !v.is_null()) {
            if let Some(e) = ar.get("enabled") {
                cfg.answer_relevance = e.as_bool().ok_or_else(|| bad("answer_relevance.enabled must be a boolean"))?;
            }
        }
        if let Some(r) = map.get("retrieval").filter(|v| !v.is_null()) {
            if let Some(e) = r.get("enabled") {
                cfg.retrieval = e.as_bool().ok_or_else(|| bad("retrieval.enabled must be a boolean"))?;
            }
        }
        // graphrag-eval validates the prompt by formatting it with sample values
        let mut sample = Map::new();
        for k in ["question", "reference_answer", "actual_answer"] {
            sample.insert(k.into(), Value::String("x".into()));
        }
        python_format(&cfg.correctness_prompt, &sample).map_err(|e| {
            bad(format!(
                "Invalid prompt template. Must only contain placeholders: {{question}}, {{reference_answer}}, and {{actual_answer}}. Original error: {e}"
            ))
        })?;
        if let Some(list) = map.get("custom_evaluations").filter(|v| !v.is_null()) {
            let items = list.as_array().ok_or_else(|| bad("custom_evaluations must be a list"))?;
            if items.is_empty() {
                return Err(bad("custom_evaluations must not be empty"));
            }
            for item in items {
                cfg.custom.push(CustomEvaluation::from_value(item)?);
            }
        }
        Ok(cfg)
    }

    /// The output names of the custom evaluations (aggregated like the built-in metrics).
    pub fn custom_metric_names(&self) -> Vec<String> {
        self.custom.iter().flat_map(|c| c.outputs.iter().map(|(k, _)| k.clone())).collect()
    }
}

impl CustomEvaluation {
    fn from_value(v: &Value) -> Result<CustomEvaluation> {
        let m = v.as_object().ok_or_else(|| bad("a custom evaluation must be a mapping"))?;
        for k in m.keys() {
            if !["name", "inputs", "instructions", "outputs", "steps_name", "steps_keys"].contains(&k.as_str()) {
                return Err(bad(format!("custom evaluation: unknown key '{k}'")));
            }
        }
        let name = m.get("name").and_then(Value::as_str).ok_or_else(|| bad("custom evaluation: 'name' (string) is required"))?;
        let inputs = string_list(m.get("inputs").unwrap_or(&Value::Null), &format!("{name}.inputs"))?;
        if inputs.is_empty() {
            return Err(bad(format!("{name}.inputs must not be empty")));
        }
        for i in &inputs {
            if !INPUTS.contains(&i.as_str()) {
                return Err(bad(format!("{name}.inputs: '{i}' is not one of {INPUTS:?}")));
            }
        }
        let instructions =
            m.get("instructions").and_then(Value::as_str).ok_or_else(|| bad(format!("{name}: 'instructions' (string) is required")))?;
        let outputs = match m.get("outputs") {
            Some(Value::Object(o)) => o
                .iter()
                .map(|(k, d)| d.as_str().map(|d| (k.clone(), d.to_string())).ok_or_else(|| bad(format!("{name}.outputs.{k} must be a string"))))
                .collect::<Result<Vec<_>>>()?,
            _ => return Err(bad(format!("{name}: 'outputs' (a mapping) is required"))),
        };
        let steps_name = match m.get("steps_name") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(_) => return Err(bad(format!("{name}.steps_name must be a string"))),
        };
        let steps_keys = match m.get("steps_keys") {
            None | Some(Value::Null) => None,
            Some(v) => {
                let mut keys = string_list(v, &format!("{name}.steps_keys"))?;
                if keys.is_empty() {
                    return Err(bad(format!("{name}.steps_keys must not be empty")));
                }
                for k in &keys {
                    if k != "args" && k != "output" {
                        return Err(bad(format!("{name}.steps_keys: '{k}' is not 'args' or 'output'")));
                    }
                }
                let mut seen = vec![];
                keys.retain(|k| if seen.contains(k) { false } else { seen.push(k.clone()); true });
                Some(keys)
            }
        };
        if inputs.iter().any(|i| i == "reference_steps" || i == "actual_steps") {
            if steps_name.is_none() {
                return Err(bad(format!("{name}: steps_name is required when steps are in inputs")));
            }
            if steps_keys.is_none() {
                return Err(bad(format!("{name}: steps_keys is required when steps are in inputs")));
            }
        }
        if RESERVED_KEYS.contains(&format!("{name}_error").as_str()) {
            return Err(bad(format!("Name {name} is reserved")));
        }
        let clash: Vec<&str> = outputs.iter().map(|(k, _)| k.as_str()).filter(|k| RESERVED_KEYS.contains(k)).collect();
        if !clash.is_empty() {
            return Err(bad(format!("Output keys {clash:?} are reserved")));
        }
        Ok(CustomEvaluation {
            name: name.to_string(),
            inputs,
            instructions: instructions.to_string(),
            outputs,
            steps_name,
            steps_keys: steps_keys.unwrap_or_default(),
        })
    }

    /// The prompt template before the inputs are filled in (graphrag-eval's layout).
    fn template(&self) -> String {
        let mut out_instr = String::from("Output the following values separated by tabs:");
        for (k, d) in &self.outputs {
            out_instr.push_str(&format!("\n- {k}: {d}"));
        }
        let inputs: Vec<String> = self
            .inputs
            .iter()
            .map(|k| {
                let header = python_capitalize(&k.replace('_', " "));
                format!("# {header}\n{{{k}}}")
            })
            .collect();
        [self.instructions.trim().to_string(), out_instr, inputs.join("\n\n")].join("\n\n")
    }

    pub(super) fn error(&self, msg: &str) -> Map<String, Value> {
        let mut m = Map::new();
        for (k, _) in &self.outputs {
            m.insert(k.clone(), Value::Null);
        }
        m.insert(format!("{}_error", self.name), Value::String(msg.to_string()));
        m
    }

    fn format_steps(&self, steps: &[Value]) -> std::result::Result<String, String> {
        let mut formatted = vec![];
        for step in steps {
            let step = match step {
                Value::String(s) => py::json_loads(s).map_err(|_| "malformed".to_string())?,
                other => other.clone(),
            };
            let name = step.get("name").ok_or("a step has no 'name'")?;
            if name.as_str() != self.steps_name.as_deref() {
                continue;
            }
            let mut out = Map::new();
            for k in &self.steps_keys {
                let v = step.get(k).cloned().unwrap_or(Value::Null);
                let v = match &v {
                    Value::String(s) => py::json_loads(s).unwrap_or(v.clone()),
                    _ => v,
                };
                out.insert(k.clone(), v);
            }
            formatted.push(Value::Object(out));
        }
        Ok(dumps_indent2(&Value::Array(formatted)))
    }

    /// The prompt for one question, or the error outputs graphrag-eval gives without calling the LLM.
    pub(super) fn prompt(&self, question: &Map<String, Value>, actual: &Map<String, Value>) -> std::result::Result<String, Map<String, Value>> {
        let has = |i: &str| self.inputs.iter().any(|x| x == i);
        let mut inputs = Map::new();
        if has("question") {
            let q = question.get("question_text").ok_or_else(|| self.error("Reference missing key 'question_text'"))?;
            inputs.insert("question".into(), q.clone());
        }
        if has("reference_answer") {
            let a = question.get("reference_answer").ok_or_else(|| self.error("Reference missing key 'reference_answer'"))?;
            inputs.insert("reference_answer".into(), a.clone());
        }
        if has("actual_answer") {
            let a = actual.get("actual_answer").ok_or_else(|| self.error("Actual output missing key 'actual_answer'"))?;
            inputs.insert("actual_answer".into(), a.clone());
        }
        if has("reference_steps") {
            let groups = question.get("reference_steps").ok_or_else(|| self.error("Reference missing key 'reference_steps'"))?;
            let groups = groups.as_array().ok_or_else(|| self.error("reference_steps is not a list"))?;
            let mut parts = vec![];
            for g in groups {
                let g = g.as_array().ok_or_else(|| self.error("a reference steps group is not a list"))?;
                parts.push(self.format_steps(g).map_err(|e| {
                    self.error(if e == "malformed" { "Malformed reference step JSON" } else { &e })
                })?);
            }
            inputs.insert("reference_steps".into(), Value::String(parts.join("\n\n")));
        }
        if has("actual_steps") {
            let steps = actual.get("actual_steps").ok_or_else(|| self.error("Actual output missing key 'actual_steps'"))?;
            let steps = steps.as_array().ok_or_else(|| self.error("actual_steps is not a list"))?;
            let s = self
                .format_steps(steps)
                .map_err(|e| self.error(if e == "malformed" { "Malformed actual step JSON" } else { &e }))?;
            inputs.insert("actual_steps".into(), Value::String(s));
        }
        python_format(&self.template(), &inputs).map_err(|e| self.error(&e))
    }

    /// graphrag-eval's `parse_outputs`: exactly one tab-separated value per output, each JSON or kept as text.
    pub fn parse_answer(&self, response: &str) -> Map<String, Value> {
        let vals: Vec<&str> = response.split('\t').collect();
        if vals.len() != self.outputs.len() {
            return self.error(&format!("Expected {} tab-separated values, got: {response}", self.outputs.len()));
        }
        let mut m = Map::new();
        for ((k, _), v) in self.outputs.iter().zip(vals) {
            m.insert(k.clone(), py::json_loads(v).unwrap_or_else(|_| Value::String(v.to_string())));
        }
        m
    }
}

