//! LLM-judged metrics through a caller-supplied judge, with no vendor or API key in the library.
//!
//! The work is split into two pure steps so that the async `judge(prompt) → text` call lives in the caller
//! (the TypeScript layer): [`Plan::new`] builds every prompt (and settles what needs no judge, such as a
//! custom evaluation whose inputs are missing), then [`Plan::apply`] parses the judge's answers into the
//! output keys of graphrag-eval (`answer_*`, `retrieval_*` on retrieval steps, custom outputs, `*_error`
//! when an answer does not parse, `*_cost` summed when the judge reports costs).
//!
//! Answer correctness and custom evaluations follow graphrag-eval exactly (prompt template with
//! `{question}`/`{reference_answer}`/`{actual_answer}`, claim counts validated as its pydantic model does; the
//! custom prompt built and its tab-separated answer parsed as it does). graphrag-eval computes answer relevance
//! and the retrieval context metrics with RAGAS (embeddings and several LLM calls); rerankit asks the judge
//! for them with its own prompts (a relevance score; attributed reference claims for recall; per-context
//! usefulness verdicts for precision, averaged as RAGAS's context precision), which is documented as a
//! deliberate difference.

use super::evaluate::{questions, response_for};
use super::input::Responses;
use crate::python::values as py;
use crate::error::{Error, Result};
use serde_json::{Map, Value};

/// rerankit's default answer-correctness prompt (same placeholders and JSON fields as graphrag-eval's).
pub const DEFAULT_CORRECTNESS_PROMPT: &str = "Below are a question, a reference answer and a candidate answer.
1. List the claims each answer makes.
2. Match claims between the answers: matching claims mean the same, with the same subjects, names, places, amounts, IDs, commands and paths.
3. Reply with one JSON object and nothing else.

# Question
{question}

# Reference answer
{reference_answer}

# Candidate answer
{actual_answer}

# JSON keys
* reference_claims_count: number of claims in the reference answer (at least 1)
* actual_claims_count: number of claims in the candidate answer (at least 1)
* matching_claims_count: number of matching claims (at most either count)
* reason: a short explanation of the counts

# Example
{{\"reference_claims_count\": 2, \"actual_claims_count\": 3, \"matching_claims_count\": 2, \"reason\": \"...\"}}
";

const RESERVED_KEYS: [&str; 24] = [
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
const INPUTS: [&str; 5] = ["question", "reference_answer", "reference_steps", "actual_answer", "actual_steps"];

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

fn bad(msg: impl std::fmt::Display) -> Error {
    Error::invalid("config", msg)
}

fn string_list(v: &Value, what: &str) -> Result<Vec<String>> {
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
        Config::from_value(&super::input::parse_document(text, "config")?)
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

    fn error(&self, msg: &str) -> Map<String, Value> {
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
    fn prompt(&self, question: &Map<String, Value>, actual: &Map<String, Value>) -> std::result::Result<String, Map<String, Value>> {
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

/// Python's `str.capitalize()` (first character upper-cased, the rest lower-cased).
fn python_capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c.flat_map(char::to_lowercase)).collect(),
        None => String::new(),
    }
}

/// Python's `template.format(**values)` for plain `{name}` fields and `{{`/`}}` escapes; any other field
/// (unknown name, index, attribute, conversion or format spec) is an error, as it would be in Python for
/// names it does not know.
pub fn python_format(template: &str, values: &Map<String, Value>) -> std::result::Result<String, String> {
    let mut out = String::with_capacity(template.len());
    let mut chars = template.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
                out.push('{');
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
                out.push('}');
            }
            '}' => return Err("Single '}' encountered in format string".into()),
            '{' => {
                let mut field = String::new();
                loop {
                    match chars.next() {
                        Some('}') => break,
                        Some('{') => return Err("unexpected '{' in field name".into()),
                        Some(ch) => field.push(ch),
                        None => return Err("Single '{' encountered in format string".into()),
                    }
                }
                match values.get(&field) {
                    Some(v) => out.push_str(&py::str_of(v)),
                    None if field.is_empty() => return Err("Format string contains positional fields".into()),
                    None => return Err(format!("'{field}'")),
                }
            }
            _ => out.push(c),
        }
    }
    Ok(out)
}

fn json_escape_ascii(s: &str, out: &mut String) {
    crate::python::json::write_str(out, s);
}

/// Python's `json.dumps(value, indent=2)` (ensure_ascii, `", "`→`","` at line ends, `": "`).
pub fn dumps_indent2(v: &Value) -> String {
    fn write(v: &Value, level: usize, out: &mut String) {
        match v {
            Value::Null => out.push_str("null"),
            Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Value::Number(n) => {
                if n.is_f64() {
                    out.push_str(&crate::python::repr::repr_float(n.as_f64().unwrap_or(f64::NAN)))
                } else {
                    out.push_str(&n.to_string())
                }
            }
            Value::String(s) => json_escape_ascii(s, out),
            Value::Array(a) if a.is_empty() => out.push_str("[]"),
            Value::Object(o) if o.is_empty() => out.push_str("{}"),
            Value::Array(a) => {
                out.push('[');
                for (i, item) in a.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push('\n');
                    out.push_str(&"  ".repeat(level + 1));
                    write(item, level + 1, out);
                }
                out.push('\n');
                out.push_str(&"  ".repeat(level));
                out.push(']');
            }
            Value::Object(o) => {
                out.push('{');
                for (i, (k, item)) in o.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push('\n');
                    out.push_str(&"  ".repeat(level + 1));
                    json_escape_ascii(k, out);
                    out.push_str(": ");
                    write(item, level + 1, out);
                }
                out.push('\n');
                out.push_str(&"  ".repeat(level));
                out.push('}');
            }
        }
    }
    let mut out = String::new();
    write(v, 0, &mut out);
    out
}

/// The judge's answer to one prompt.
#[derive(Debug, Clone, PartialEq)]
pub struct JudgeAnswer {
    /// The text, or the judge's own failure (an exception in the callback).
    pub text: std::result::Result<String, String>,
    /// Cost in US dollars, when the judge reports it.
    pub cost: Option<f64>,
}

/// What a prompt is for.
#[derive(Debug, Clone, PartialEq)]
pub enum Purpose {
    AnswerCorrectness,
    AnswerRelevance,
    Custom(usize),
    /// (actual step index, `answer`|`context`, `recall`|`precision`)
    Retrieval(usize, &'static str, &'static str),
}

/// One call to the judge.
#[derive(Debug, Clone)]
pub struct JudgeRequest {
    /// Index of the output object (question) it is for.
    pub item: usize,
    pub purpose: Purpose,
    pub prompt: String,
    /// For retrieval precision: how many contexts the verdicts are about.
    pub contexts: usize,
}

enum Slot {
    Ready(Map<String, Value>),
    Judge(usize),
}

/// The prompts for a set of evaluation results, and how to fold the answers back in.
pub struct Plan {
    pub requests: Vec<JudgeRequest>,
    /// Per item, in graphrag-eval's key order: answer relevance, answer correctness, custom evaluations.
    slots: Vec<Vec<(Purpose, Slot)>>,
    config: Config,
}

fn contexts_texts(output: &Value) -> std::result::Result<Vec<String>, String> {
    let text = output.as_str().ok_or("the retrieval output is not a string")?;
    let parsed = py::json_loads(text).map_err(|e| format!("the retrieval output is not JSON: {e}"))?;
    let items = parsed.as_array().ok_or("the retrieval output is not a JSON list")?;
    items
        .iter()
        .map(|c| c.get("text").map(py::str_of).ok_or_else(|| "'text'".to_string()))
        .collect()
}

fn retrieval_recall_prompt(question: &str, reference: &str, contexts: &[String]) -> String {
    let mut p = String::from(
        "Split the reference text into its claims and decide, for each claim, whether the retrieved contexts support it.\n\
         Reply with one JSON object and nothing else: {\"attributed\": <claims supported by the contexts>, \"total\": <claims in the reference>, \"reason\": \"...\"}.\n\n",
    );
    p.push_str(&format!("# Question\n{question}\n\n# Reference\n{reference}\n\n# Retrieved contexts\n"));
    for (i, c) in contexts.iter().enumerate() {
        p.push_str(&format!("[{}] {}\n", i + 1, c));
    }
    p
}

fn retrieval_precision_prompt(question: &str, reference: &str, contexts: &[String]) -> String {
    let mut p = String::from(
        "For each retrieved context, in order, decide whether it was useful in arriving at the reference text for the question (1) or not (0).\n\
         Reply with one JSON object and nothing else: {\"verdicts\": [<1 or 0 for each context, in order>], \"reason\": \"...\"}.\n\n",
    );
    p.push_str(&format!("# Question\n{question}\n\n# Reference\n{reference}\n\n# Retrieved contexts\n"));
    for (i, c) in contexts.iter().enumerate() {
        p.push_str(&format!("[{}] {}\n", i + 1, c));
    }
    p
}

fn relevance_prompt(question: &str, answer: &str) -> String {
    format!(
        "Rate how relevant the answer is to the question: 1 when it addresses the question directly and completely, 0 when it is unrelated or evasive (non-committal answers such as \"I don't know\" score 0).\n\
         Reply with one JSON object and nothing else: {{\"answer_relevance\": <a number from 0 to 1>, \"reason\": \"...\"}}.\n\n# Question\n{question}\n\n# Answer\n{answer}\n"
    )
}

/// Extracts the JSON object of an answer (the whole text, or the text inside a ```json fence).
fn answer_json(text: &str) -> std::result::Result<Map<String, Value>, String> {
    let t = text.trim();
    let t = t
        .strip_prefix("```json")
        .or_else(|| t.strip_prefix("```"))
        .and_then(|r| r.trim_end().strip_suffix("```"))
        .unwrap_or(t);
    match py::json_loads(t)? {
        Value::Object(m) => Ok(m),
        other => Err(format!("expected a JSON object, got a {}", py::type_name(&other))),
    }
}

/// An integer as pydantic's lax mode reads it (int, integral float, numeric string).
fn lax_int(v: &Value, key: &str) -> std::result::Result<i64, String> {
    match v {
        Value::Number(n) if n.is_i64() => Ok(n.as_i64().unwrap_or(0)),
        Value::Number(n) => match n.as_f64() {
            Some(f) if f.fract() == 0.0 && f.abs() < 9e15 => Ok(f as i64),
            _ => Err(format!("{key}: Input should be a valid integer")),
        },
        Value::String(s) => s.trim().parse::<i64>().map_err(|_| format!("{key}: Input should be a valid integer")),
        _ => Err(format!("{key}: Input should be a valid integer")),
    }
}

/// `compute_f1`.
pub fn f1(recall: f64, precision: f64) -> f64 {
    if recall == 0.0 && precision == 0.0 {
        0.0
    } else {
        2.0 * (recall * precision) / (recall + precision)
    }
}

/// Parses an answer-correctness answer into graphrag-eval's keys (validated as its pydantic model does).
pub fn parse_correctness(text: &str) -> Map<String, Value> {
    let parse = || -> std::result::Result<Map<String, Value>, String> {
        let m = answer_json(text)?;
        for k in m.keys() {
            if !["reference_claims_count", "actual_claims_count", "matching_claims_count", "reason"].contains(&k.as_str()) {
                return Err(format!("{k}: Extra inputs are not permitted"));
            }
        }
        let get = |k: &str| m.get(k).ok_or_else(|| format!("{k}: Field required"));
        let r = lax_int(get("reference_claims_count")?, "reference_claims_count")?;
        let a = lax_int(get("actual_claims_count")?, "actual_claims_count")?;
        let n = lax_int(get("matching_claims_count")?, "matching_claims_count")?;
        let reason = get("reason")?.as_str().ok_or("reason: Input should be a valid string")?.to_string();
        if r < 1 {
            return Err("reference_claims_count: Input should be greater than or equal to 1".into());
        }
        if a < 1 {
            return Err("actual_claims_count: Input should be greater than or equal to 1".into());
        }
        if n < 0 {
            return Err("matching_claims_count: Input should be greater than or equal to 0".into());
        }
        if reason.is_empty() {
            return Err("reason: String should have at least 1 character".into());
        }
        if n > r || n > a {
            return Err("matching_claims_count must be less than or equal to both reference_claims_count and actual_claims_count".into());
        }
        let mut out = Map::new();
        out.insert("answer_reference_claims_count".into(), Value::from(r));
        out.insert("answer_actual_claims_count".into(), Value::from(a));
        out.insert("answer_matching_claims_count".into(), Value::from(n));
        out.insert("answer_correctness_reason".into(), Value::String(reason));
        let recall = n as f64 / r as f64;
        let precision = n as f64 / a as f64;
        out.insert("answer_recall".into(), Value::from(recall));
        out.insert("answer_precision".into(), Value::from(precision));
        out.insert("answer_f1".into(), Value::from(f1(recall, precision)));
        Ok(out)
    };
    parse().unwrap_or_else(|e| {
        let mut m = Map::new();
        m.insert("answer_correctness_error".into(), Value::String(e));
        m
    })
}

fn unit_number(v: Option<&Value>, key: &str) -> std::result::Result<f64, String> {
    let x = v.and_then(Value::as_f64).ok_or_else(|| format!("{key}: expected a number"))?;
    if !(0.0..=1.0).contains(&x) {
        return Err(format!("{key}: {x} is not between 0 and 1"));
    }
    Ok(x)
}

/// Parses an answer-relevance answer: `{"answer_relevance": x}` with 0 ≤ x ≤ 1.
pub fn parse_relevance(text: &str) -> std::result::Result<f64, String> {
    let m = answer_json(text)?;
    unit_number(m.get("answer_relevance"), "answer_relevance")
}

/// Parses a retrieval recall answer: attributed / total.
pub fn parse_retrieval_recall(text: &str) -> std::result::Result<f64, String> {
    let m = answer_json(text)?;
    let attributed = m.get("attributed").and_then(Value::as_f64).ok_or("attributed: expected a number")?;
    let total = m.get("total").and_then(Value::as_f64).ok_or("total: expected a number")?;
    if total <= 0.0 || attributed < 0.0 || attributed > total {
        return Err(format!("expected 0 <= attributed <= total and total > 0, got {attributed} and {total}"));
    }
    Ok(attributed / total)
}

/// Parses retrieval precision verdicts (one 0/1 per context) into RAGAS-style context precision:
/// Σ_k precision@k · v_k / Σ v_k (0 when no context is useful).
pub fn parse_retrieval_precision(text: &str, contexts: usize) -> std::result::Result<f64, String> {
    let m = answer_json(text)?;
    let verdicts = m.get("verdicts").and_then(Value::as_array).ok_or("verdicts: expected a list")?;
    if verdicts.len() != contexts {
        return Err(format!("expected {contexts} verdicts, got {}", verdicts.len()));
    }
    let mut hits = 0.0;
    let mut total = 0.0;
    for (i, v) in verdicts.iter().enumerate() {
        let v = match v {
            Value::Bool(b) => *b as i32 as f64,
            Value::Number(n) if n.as_f64() == Some(0.0) || n.as_f64() == Some(1.0) => n.as_f64().unwrap_or(0.0),
            _ => return Err(format!("verdict {} is not 0 or 1", i + 1)),
        };
        if v == 1.0 {
            hits += 1.0;
            total += hits / (i + 1) as f64;
        }
    }
    Ok(if hits == 0.0 { 0.0 } else { total / hits })
}

impl Plan {
    /// Builds every prompt for `results` (the output of [`super::evaluate`] on the same inputs).
    pub fn new(reference: &Value, responses: &Responses, results: &[Value], config: Config) -> Plan {
        let mut requests = vec![];
        let mut slots = vec![];
        let empty = Map::new();
        for (item, q) in questions(reference).into_iter().enumerate() {
            let mut item_slots = vec![];
            let Ok(question) = q.question else {
                slots.push(item_slots);
                continue;
            };
            if results.get(item).and_then(|r| r.get("question_text")).is_none() {
                slots.push(item_slots);
                continue;
            }
            let actual_v = response_for(question, responses);
            let actual = actual_v.as_object().unwrap_or(&empty);
            let question_text = question.get("question_text").map(py::str_of).unwrap_or_default();
            // retrieval steps (graphrag-eval evaluates these inside evaluate_steps, before the evaluators)
            if config.retrieval {
                let steps = actual.get("actual_steps").and_then(Value::as_array).cloned().unwrap_or_default();
                if let Some(reference_answer) = question.get("reference_answer") {
                    for (si, step) in steps.iter().enumerate() {
                        if step.get("name").and_then(Value::as_str) != Some("retrieval") {
                            continue;
                        }
                        let Some(output) = step.get("output") else { continue };
                        match contexts_texts(output) {
                            Ok(ctx) => {
                                let reference = py::str_of(reference_answer);
                                for (which, prompt) in [
                                    ("recall", retrieval_recall_prompt(&question_text, &reference, &ctx)),
                                    ("precision", retrieval_precision_prompt(&question_text, &reference, &ctx)),
                                ] {
                                    requests.push(JudgeRequest {
                                        item,
                                        purpose: Purpose::Retrieval(si, "answer", which),
                                        prompt,
                                        contexts: ctx.len(),
                                    });
                                }
                            }
                            Err(e) => {
                                let mut m = Map::new();
                                m.insert("retrieval_answer_recall_error".into(), Value::String(e.clone()));
                                m.insert("retrieval_answer_precision_error".into(), Value::String(e));
                                item_slots.push((Purpose::Retrieval(si, "answer", "error"), Slot::Ready(m)));
                            }
                        }
                    }
                }
                // matched reference retrieval steps: context recall/precision against the reference contexts
                if let Some(Value::Array(groups)) = results.get(item).and_then(|r| r.get("reference_steps")) {
                    for g in groups {
                        for rs in g.as_array().map(|v| v.as_slice()).unwrap_or(&[]) {
                            if rs.get("name").and_then(Value::as_str) != Some("retrieval") {
                                continue;
                            }
                            let Some(id) = rs.get("matches") else { continue };
                            let Some(si) = steps.iter().position(|s| s.get("id").is_some_and(|x| py::eq(x, id))) else { continue };
                            let Some(output) = steps[si].get("output") else { continue };
                            let both = contexts_texts(output).and_then(|ctx| {
                                contexts_texts(rs.get("output").unwrap_or(&Value::Null)).map(|r| (ctx, r.join("\n")))
                            });
                            match both {
                                Ok((ctx, reference)) => {
                                    for (which, prompt) in [
                                        ("recall", retrieval_recall_prompt(&question_text, &reference, &ctx)),
                                        ("precision", retrieval_precision_prompt(&question_text, &reference, &ctx)),
                                    ] {
                                        requests.push(JudgeRequest {
                                            item,
                                            purpose: Purpose::Retrieval(si, "context", which),
                                            prompt,
                                            contexts: ctx.len(),
                                        });
                                    }
                                }
                                Err(e) => {
                                    let mut m = Map::new();
                                    m.insert("retrieval_context_recall_error".into(), Value::String(e.clone()));
                                    m.insert("retrieval_context_precision_error".into(), Value::String(e));
                                    item_slots.push((Purpose::Retrieval(si, "context", "error"), Slot::Ready(m)));
                                }
                            }
                        }
                    }
                }
            }
            if config.answer_relevance {
                if let Some(answer) = actual.get("actual_answer") {
                    requests.push(JudgeRequest {
                        item,
                        purpose: Purpose::AnswerRelevance,
                        prompt: relevance_prompt(&question_text, &py::str_of(answer)),
                        contexts: 0,
                    });
                    item_slots.push((Purpose::AnswerRelevance, Slot::Judge(requests.len() - 1)));
                }
            }
            if config.answer_correctness {
                if let (Some(actual_answer), Some(reference_answer)) = (actual.get("actual_answer"), question.get("reference_answer")) {
                    let q = question.get("question_text").cloned().unwrap_or(Value::Null);
                    let blank = [&q, reference_answer, actual_answer].iter().find_map(|v| match v {
                        Value::String(s) if s.trim().is_empty() => {
                            Some("The question of the reference or the actual answer is a blank string!".to_string())
                        }
                        Value::String(_) => None,
                        other => Some(format!("'{}' object has no attribute 'strip'", py::type_name(other))),
                    });
                    let mut vals = Map::new();
                    vals.insert("question".into(), q.clone());
                    vals.insert("reference_answer".into(), reference_answer.clone());
                    vals.insert("actual_answer".into(), actual_answer.clone());
                    match blank.map(Err).unwrap_or_else(|| python_format(&config.correctness_prompt, &vals)) {
                        Ok(prompt) => {
                            requests.push(JudgeRequest { item, purpose: Purpose::AnswerCorrectness, prompt, contexts: 0 });
                            item_slots.push((Purpose::AnswerCorrectness, Slot::Judge(requests.len() - 1)));
                        }
                        Err(e) => {
                            let mut m = Map::new();
                            m.insert("answer_correctness_error".into(), Value::String(e));
                            item_slots.push((Purpose::AnswerCorrectness, Slot::Ready(m)));
                        }
                    }
                }
            }
            for (ci, custom) in config.custom.iter().enumerate() {
                match custom.prompt(question, actual) {
                    Ok(prompt) => {
                        requests.push(JudgeRequest { item, purpose: Purpose::Custom(ci), prompt, contexts: 0 });
                        item_slots.push((Purpose::Custom(ci), Slot::Judge(requests.len() - 1)));
                    }
                    Err(m) => item_slots.push((Purpose::Custom(ci), Slot::Ready(m))),
                }
            }
            slots.push(item_slots);
        }
        Plan { requests, slots, config }
    }

    /// The output names of the configuration's custom evaluations (for [`super::aggregate`]).
    pub fn custom_metric_names(&self) -> Vec<String> {
        self.config.custom_metric_names()
    }

    /// The prompts, in order (one judge call each).
    pub fn prompts(&self) -> Vec<String> {
        self.requests.iter().map(|r| r.prompt.clone()).collect()
    }

    /// Folds the judge's answers (one per request, in order) into `results`.
    pub fn apply(&self, results: &mut [Value], answers: &[JudgeAnswer]) -> Result<()> {
        if answers.len() != self.requests.len() {
            return Err(Error::invalid("answers", format!("expected {} judge answers, got {}", self.requests.len(), answers.len())));
        }
        // retrieval metrics on the actual steps
        let mut per_step: std::collections::BTreeMap<(usize, usize, &str), Map<String, Value>> = Default::default();
        for (req, ans) in self.requests.iter().zip(answers) {
            let Purpose::Retrieval(si, kind, which) = &req.purpose else { continue };
            let entry = per_step.entry((req.item, *si, kind)).or_default();
            let key = format!("retrieval_{kind}_{which}");
            let parsed = ans.text.clone().and_then(|t| {
                if *which == "recall" {
                    parse_retrieval_recall(&t)
                } else {
                    parse_retrieval_precision(&t, req.contexts)
                }
            });
            match parsed {
                Ok(x) => {
                    entry.insert(key.clone(), Value::from(x));
                }
                Err(e) => {
                    entry.insert(format!("{key}_error"), Value::String(e));
                }
            }
            if let Some(c) = ans.cost {
                entry.insert(format!("{key}_cost"), Value::from(c));
            }
        }
        for (item, slots) in self.slots.iter().enumerate() {
            for (p, s) in slots {
                if let (Purpose::Retrieval(si, kind, _), Slot::Ready(m)) = (p, s) {
                    per_step.entry((item, *si, kind)).or_default().extend(m.clone());
                }
            }
        }
        for ((item, si, kind), mut m) in per_step {
            let (r, p) = (m.get(&format!("retrieval_{kind}_recall")).and_then(Value::as_f64), m.get(&format!("retrieval_{kind}_precision")).and_then(Value::as_f64));
            if let (Some(r), Some(p)) = (r, p) {
                m.insert(format!("retrieval_{kind}_f1"), Value::from(f1(r, p)));
                let costs = (
                    m.get(&format!("retrieval_{kind}_recall_cost")).and_then(Value::as_f64),
                    m.get(&format!("retrieval_{kind}_precision_cost")).and_then(Value::as_f64),
                );
                if let (Some(a), Some(b)) = costs {
                    m.insert(format!("retrieval_{kind}_f1_cost"), Value::from(a + b));
                }
            }
            if let Some(Value::Object(step)) = results.get_mut(item).and_then(|r| r.get_mut("actual_steps")).and_then(|s| s.get_mut(si)) {
                step.extend(m);
            }
        }
        // evaluators, in graphrag-eval's order
        for (item, slots) in self.slots.iter().enumerate() {
            let Some(Value::Object(out)) = results.get_mut(item) else { continue };
            for (purpose, slot) in slots {
                let (m, cost) = match slot {
                    Slot::Ready(m) => (m.clone(), None),
                    Slot::Judge(i) => {
                        let ans = &answers[*i];
                        let m = match purpose {
                            Purpose::AnswerCorrectness => match &ans.text {
                                Ok(t) => parse_correctness(t),
                                Err(e) => [("answer_correctness_error".to_string(), Value::String(e.clone()))].into_iter().collect(),
                            },
                            Purpose::AnswerRelevance => match ans.text.clone().and_then(|t| parse_relevance(&t)) {
                                Ok(x) => [("answer_relevance".to_string(), Value::from(x))].into_iter().collect(),
                                Err(e) => [("answer_relevance_error".to_string(), Value::String(e))].into_iter().collect(),
                            },
                            Purpose::Custom(ci) => {
                                let c = &self.config.custom[*ci];
                                match &ans.text {
                                    Ok(t) => c.parse_answer(t),
                                    Err(e) => c.error(e),
                                }
                            }
                            Purpose::Retrieval(..) => continue,
                        };
                        (m, ans.cost)
                    }
                };
                if matches!(purpose, Purpose::Retrieval(..)) {
                    continue;
                }
                out.extend(m);
                if let Some(c) = cost {
                    let key = match purpose {
                        Purpose::AnswerCorrectness => "answer_correctness_cost".to_string(),
                        Purpose::AnswerRelevance => "answer_relevance_cost".to_string(),
                        Purpose::Custom(ci) => format!("{}_cost", self.config.custom[*ci].name),
                        Purpose::Retrieval(..) => continue,
                    };
                    out.insert(key, Value::from(c));
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn format_and_dumps_like_python() {
        let mut v = Map::new();
        v.insert("a".into(), json!("x"));
        assert_eq!(python_format("{{a}} {a}}}", &v).unwrap(), "{a} x}");
        assert!(python_format("{b}", &v).is_err());
        assert_eq!(dumps_indent2(&json!([{"output": {"k": [1, 2.5, "é"]}}, {}])), "[\n  {\n    \"output\": {\n      \"k\": [\n        1,\n        2.5,\n        \"\\u00e9\"\n      ]\n    }\n  },\n  {}\n]");
        assert_eq!(python_capitalize("reference steps"), "Reference steps");
    }

    #[test]
    fn correctness_validation() {
        let ok = parse_correctness(r#"{"reference_claims_count": 2, "actual_claims_count": 4, "matching_claims_count": 1, "reason": "r"}"#);
        assert_eq!(ok["answer_recall"], 0.5);
        assert_eq!(ok["answer_precision"], 0.25);
        assert!(parse_correctness(r#"{"reference_claims_count": 2, "actual_claims_count": 1, "matching_claims_count": 3, "reason": "r"}"#)
            .contains_key("answer_correctness_error"));
        assert!(parse_correctness("nope").contains_key("answer_correctness_error"));
        assert_eq!(parse_retrieval_precision(r#"{"verdicts": [1, 0, 1]}"#, 3).unwrap(), (1.0 + 2.0 / 3.0) / 2.0);
    }
}
