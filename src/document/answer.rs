//! `Span` and `Answer` (seeds 001/003).

use super::json_type;
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// A character range (text) or cell range (tables, counted from the top left) of an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Span {
    pub start: i64,
    pub end: i64,
}

/// Where an answer came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AnswerType {
    #[default]
    Extractive,
    Generative,
    Other,
}

/// An answer of a reader or generator; `answer == ""` means "no answer".
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Answer {
    pub answer: String,
    #[serde(rename = "type", default)]
    pub answer_type: AnswerType,
    #[serde(default)]
    pub score: Option<f64>,
    /// The passage (or table) the answer was read from.
    #[serde(default)]
    pub context: Option<Value>,
    #[serde(default)]
    pub offsets_in_document: Option<Vec<Span>>,
    #[serde(default)]
    pub offsets_in_context: Option<Vec<Span>>,
    #[serde(default, alias = "document_ids", deserialize_with = "document_id_or_ids")]
    pub document_id: Option<String>,
    #[serde(default)]
    pub meta: Map<String, Value>,
}

/// Accepts Haystack 1.x's older `document_id` (a string) and its later `document_ids` (a list: the first id).
fn document_id_or_ids<'de, D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Option<String>, D::Error> {
    let v = Option::<Value>::deserialize(d)?;
    Ok(match v {
        Some(Value::String(s)) => Some(s),
        Some(Value::Array(items)) => items.first().and_then(|x| x.as_str().map(str::to_string)),
        _ => None,
    })
}

impl Answer {
    pub fn new(answer: impl Into<String>) -> Self {
        Answer {
            answer: answer.into(),
            answer_type: AnswerType::Extractive,
            score: None,
            context: None,
            offsets_in_document: None,
            offsets_in_context: None,
            document_id: None,
            meta: Map::new(),
        }
    }

    pub fn from_dict(field: &str, value: &Value) -> Result<Self> {
        if !value.is_object() {
            return Err(Error::invalid(field, format!("expected an object, got {}", json_type(value))));
        }
        serde_json::from_value(value.clone()).map_err(|e| Error::invalid(field, e))
    }

    pub fn to_dict(&self) -> Value {
        serde_json::to_value(self).expect("an Answer always serialises")
    }
}
