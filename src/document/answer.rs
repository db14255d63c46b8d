//! `Span`, `TableCell` and `Answer` (seeds 001/003).

use super::json_type;
use crate::error::{Error, Result};
use crate::python::{dataframe as python_dataframe, repr as python_repr};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// A character range (text) or cell range (tables, counted from the top left) of an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Span {
    pub start: i64,
    pub end: i64,
}

/// A table answer's cell, as Haystack's `TableCell` (row counted without the header row).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableCell {
    pub row: i64,
    pub col: i64,
}

/// Where an answer lies: Haystack reads an offset dict with a `row` key as a `TableCell`, any other as a `Span`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Offset {
    Cell(TableCell),
    Span(Span),
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

impl AnswerType {
    /// The type as Haystack spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            AnswerType::Extractive => "extractive",
            AnswerType::Generative => "generative",
            AnswerType::Other => "other",
        }
    }
}

/// An answer of a reader or generator; `answer == ""` means "no answer". Fields in Haystack's `to_dict` order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Answer {
    pub answer: String,
    #[serde(rename = "type", default)]
    pub answer_type: AnswerType,
    #[serde(default)]
    pub score: Option<f64>,
    /// The passage (or table, as a list of rows) the answer was read from.
    #[serde(default)]
    pub context: Option<Value>,
    #[serde(default)]
    pub offsets_in_document: Option<Vec<Offset>>,
    #[serde(default)]
    pub offsets_in_context: Option<Vec<Offset>>,
    /// The documents the answer came from: one for extractive answers, any number for generative ones.
    #[serde(default)]
    pub document_ids: Option<Vec<String>>,
    #[serde(default, deserialize_with = "meta_or_empty")]
    pub meta: Map<String, Value>,
}

/// Haystack's `__post_init__` turns a `None` meta into `{}`.
fn meta_or_empty<'de, D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Map<String, Value>, D::Error> {
    Ok(Option::<Map<String, Value>>::deserialize(d)?.unwrap_or_default())
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
            document_ids: None,
            meta: Map::new(),
        }
    }

    /// `Answer.from_dict`, which also reads the `document_id` of answers saved before Haystack 1.12: a string
    /// becomes a one-id list, `None` stays `None`, and it replaces any `document_ids` beside it, as in Haystack.
    pub fn from_dict(field: &str, value: &Value) -> Result<Self> {
        let Value::Object(m) = value else {
            return Err(Error::invalid(field, format!("expected an object, got {}", json_type(value))));
        };
        let mut m = m.clone();
        if let Some(legacy) = m.remove("document_id") {
            let ids = match legacy {
                Value::Null => Value::Null,
                id @ Value::String(_) => Value::Array(vec![id]),
                other => return Err(Error::invalid(&format!("{field}.document_id"), format!("expected a string or null, got {}", json_type(&other)))),
            };
            m.insert("document_ids".into(), ids);
        }
        serde_json::from_value(Value::Object(m)).map_err(|e| Error::invalid(field, e))
    }

    pub fn to_dict(&self) -> Value {
        serde_json::to_value(self).expect("an Answer always serialises")
    }

    /// `str(answer.context)`: Haystack turns a list context into a DataFrame (a table, column names first), so
    /// a list prints as pandas prints the table.
    pub fn context_str(context: &Value) -> Result<String> {
        match context {
            Value::Array(rows) => python_dataframe::dataframe_str("context", rows),
            other => Ok(python_repr::str_of(other)),
        }
    }
}
