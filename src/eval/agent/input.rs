//! Reading the inputs: reference datasets (YAML or JSON) and target responses (JSON object keyed by question
//! id, JSON list, JSONL, or YAML).

use crate::byte_order_mark::without_bom;
use crate::error::{Error, Result};
use serde_json::{Map, Value};

/// Parses YAML or JSON text (JSON is YAML, but JSON is tried first for exact numbers and speed).
pub fn parse_document(text: &str, what: &str) -> Result<Value> {
    let trimmed = without_bom(text);
    if let Ok(v) = serde_json::from_str::<Value>(trimmed) {
        return Ok(v);
    }
    serde_yaml_ng::from_str::<Value>(trimmed).map_err(|e| Error::parse(what, format!("not valid YAML or JSON: {e}")))
}

/// A reference dataset: a list of templates `{template_id, questions: [...]}`.
pub fn parse_reference(text: &str) -> Result<Value> {
    let v = parse_document(text, "reference")?;
    if !v.is_array() {
        return Err(Error::parse("reference", "the reference dataset must be a list of templates"));
    }
    Ok(v)
}

/// Target responses keyed by question id, and the problems met on the way (records that could not be read
/// or have no `question_id`): those never stop the run; their questions get a "no response" error instead.
#[derive(Debug, Clone, Default)]
pub struct Responses {
    pub by_id: Map<String, Value>,
    pub problems: Vec<String>,
}

fn key_of(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

impl Responses {
    fn add(&mut self, record: Value, location: String) {
        match record.get("question_id").and_then(key_of) {
            Some(id) if record.is_object() => {
                self.by_id.insert(id, record);
            }
            _ => self.problems.push(format!("{location}: a response record needs a 'question_id'")),
        }
    }

    /// From a parsed value: `{id: record}`, `[record, ...]`, or one record.
    pub fn from_value(value: Value) -> Responses {
        let mut out = Responses::default();
        match value {
            Value::Array(items) => {
                for (i, r) in items.into_iter().enumerate() {
                    out.add(r, format!("responses[{i}]"));
                }
            }
            Value::Object(map) if map.contains_key("question_id") => out.add(Value::Object(map), "responses".into()),
            Value::Object(map) => {
                for (k, r) in map {
                    if r.is_object() {
                        // run_evaluation looks records up by the dict key; the record's own question_id is echoed
                        out.by_id.insert(k, r);
                    } else {
                        out.problems.push(format!("responses[{k:?}]: not an object"));
                    }
                }
            }
            _ => out.problems.push("responses: expected a list, an object keyed by question id, or JSONL".into()),
        }
        out
    }

    /// From text: JSON (object or list), YAML, or JSONL (one record a line; a bad line is a problem, not an error).
    pub fn parse(text: &str) -> Result<Responses> {
        let trimmed = without_bom(text);
        if let Ok(v) = serde_json::from_str::<Value>(trimmed) {
            return Ok(Responses::from_value(v));
        }
        // JSONL when the first record line is a JSON object (later bad lines are problems, not errors)
        let looks_jsonl = trimmed
            .lines()
            .find(|l| !l.trim().is_empty())
            .is_some_and(|l| l.trim_start().starts_with('{') && serde_json::from_str::<Value>(l).is_ok());
        if looks_jsonl {
            let mut out = Responses::default();
            for (n, line) in trimmed.lines().enumerate() {
                if line.trim().is_empty() {
                    continue;
                }
                match serde_json::from_str::<Value>(line) {
                    Ok(v) => out.add(v, format!("line {}", n + 1)),
                    Err(e) => out.problems.push(format!("line {}: {e}", n + 1)),
                }
            }
            return Ok(out);
        }
        let v = serde_yaml_ng::from_str::<Value>(trimmed)
            .map_err(|e| Error::parse("responses", format!("not valid JSON, JSONL or YAML: {e}")))?;
        Ok(Responses::from_value(v))
    }
}
