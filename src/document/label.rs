//! `Label` and `MultiLabel` (seeds 001/003; Haystack 1.x semantics).

use super::{id, json_type, Answer, Document};
use crate::python::{json as python_json, repr as python_repr};
use crate::error::{Error, Result};
use md5::{Digest, Md5};
use serde_json::{Map, Value};

/// Where a label came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LabelOrigin {
    UserFeedback,
    GoldLabel,
}

impl LabelOrigin {
    pub fn as_str(self) -> &'static str {
        match self {
            LabelOrigin::UserFeedback => "user-feedback",
            LabelOrigin::GoldLabel => "gold-label",
        }
    }
}

/// One judged (query, document, answer) triple: a gold label or user feedback.
#[derive(Debug, Clone, PartialEq)]
pub struct Label {
    pub id: String,
    pub query: String,
    pub document: Document,
    pub is_correct_answer: bool,
    pub is_correct_document: bool,
    pub origin: LabelOrigin,
    pub answer: Option<Answer>,
    /// True when the question has no answer; derived from `answer` when not given.
    pub no_answer: Option<bool>,
    pub pipeline_id: Option<String>,
    pub created_at: Option<String>,
    pub updated_at: Option<String>,
    pub meta: Map<String, Value>,
    pub filters: Option<Value>,
}

impl Label {
    /// Builds a label, checking `no_answer` against the answer as Haystack does. Without an `id`, the id is the
    /// MurmurHash3 of the label's identity fields (Haystack draws a random uuid4; a derived id keeps evaluation
    /// files reproducible).
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        query: String,
        document: Document,
        is_correct_answer: bool,
        is_correct_document: bool,
        origin: LabelOrigin,
        answer: Option<Answer>,
        no_answer: Option<bool>,
    ) -> Result<Self> {
        let no_answer = match (&answer, no_answer) {
            (Some(a), Some(true)) if !a.answer.is_empty() || a.context.as_ref().is_some_and(|c| !is_empty_context(c)) => {
                return Err(Error::invalid("no_answer", format!("is true but the label has an answer {:?}", a.answer)))
            }
            (Some(a), Some(false)) if a.answer.is_empty() => {
                return Err(Error::invalid("no_answer", "is false but the label's answer is empty"))
            }
            (Some(a), None) => Some(a.answer.is_empty()),
            (_, given) => given,
        };
        let mut label = Label {
            id: String::new(),
            query,
            document,
            is_correct_answer,
            is_correct_document,
            origin,
            answer,
            no_answer,
            pipeline_id: None,
            created_at: None,
            updated_at: None,
            meta: Map::new(),
            filters: None,
        };
        label.id = id::id_from_key(&label.identity());
        Ok(label)
    }

    /// The fields Haystack's `Label.__eq__`/`__hash__` compare, as one string.
    fn identity(&self) -> String {
        let answer = self.answer.as_ref().map(|a| a.to_dict()).unwrap_or(Value::Null);
        format!(
            "{}\u{1f}{}\u{1f}{}\u{1f}{}\u{1f}{}\u{1f}{}\u{1f}{:?}\u{1f}{:?}",
            self.query,
            python_repr::repr(&answer),
            self.is_correct_answer,
            self.is_correct_document,
            self.origin.as_str(),
            self.document.id,
            self.no_answer,
            self.pipeline_id
        )
    }

    /// `Label.from_dict`: `document` and `answer` are dicts as `Document.to_dict` / `Answer.to_dict` give them.
    pub fn from_dict(field: &str, value: &Value) -> Result<Self> {
        let Value::Object(m) = value else {
            return Err(Error::invalid(field, format!("expected an object, got {}", json_type(value))));
        };
        let name = |k: &str| format!("{field}.{k}");
        let str_field = |k: &str, required: bool| -> Result<Option<String>> {
            match m.get(k) {
                Some(Value::String(s)) => Ok(Some(s.clone())),
                None | Some(Value::Null) if !required => Ok(None),
                None | Some(Value::Null) => Err(Error::invalid(&name(k), "is required")),
                Some(other) => Err(Error::invalid(&name(k), format!("expected a string, got {}", json_type(other)))),
            }
        };
        let bool_field = |k: &str| -> Result<Option<bool>> {
            match m.get(k) {
                None | Some(Value::Null) => Ok(None),
                Some(Value::Bool(b)) => Ok(Some(*b)),
                Some(other) => Err(Error::invalid(&name(k), format!("expected a boolean, got {}", json_type(other)))),
            }
        };
        let query = str_field("query", true)?.unwrap_or_default();
        let document = match m.get("document") {
            Some(Value::Object(d)) => Document::from_dict(d, &Map::new(), None).map_err(|e| Error::new(e.code, format!("{}.document.{}", field, e.message)))?,
            Some(other) => return Err(Error::invalid(&name("document"), format!("expected an object, got {}", json_type(other)))),
            None => return Err(Error::invalid(&name("document"), "is required")),
        };
        let answer = match m.get("answer") {
            None | Some(Value::Null) => None,
            Some(a) => Some(Answer::from_dict(&name("answer"), a)?),
        };
        let origin = match str_field("origin", false)?.as_deref() {
            None | Some("gold-label") => LabelOrigin::GoldLabel,
            Some("user-feedback") => LabelOrigin::UserFeedback,
            Some(other) => return Err(Error::invalid(&name("origin"), format!("expected \"gold-label\" or \"user-feedback\", got {other:?}"))),
        };
        let mut label = Label::new(
            query,
            document,
            bool_field("is_correct_answer")?.unwrap_or(true),
            bool_field("is_correct_document")?.unwrap_or(true),
            origin,
            answer,
            bool_field("no_answer")?,
        )?;
        label.pipeline_id = str_field("pipeline_id", false)?;
        label.created_at = str_field("created_at", false)?;
        label.updated_at = str_field("updated_at", false)?;
        label.meta = match m.get("meta") {
            None | Some(Value::Null) => Map::new(),
            Some(Value::Object(o)) => o.clone(),
            Some(other) => return Err(Error::invalid(&name("meta"), format!("expected an object, got {}", json_type(other)))),
        };
        label.filters = match m.get("filters") {
            None | Some(Value::Null) => None,
            Some(f @ Value::Object(_)) => Some(f.clone()),
            Some(other) => return Err(Error::invalid(&name("filters"), format!("expected an object, got {}", json_type(other)))),
        };
        label.id = match str_field("id", false)? {
            Some(given) => given,
            None => id::id_from_key(&label.identity()),
        };
        Ok(label)
    }

    /// `Label.to_dict()`: Haystack's keys, so without `no_answer` (a property there, derived from the answer).
    pub fn to_dict(&self) -> Value {
        let mut m = Map::new();
        m.insert("id".into(), Value::String(self.id.clone()));
        m.insert("query".into(), Value::String(self.query.clone()));
        m.insert("document".into(), Value::Object(self.document.to_dict(&Map::new())));
        m.insert("is_correct_answer".into(), Value::Bool(self.is_correct_answer));
        m.insert("is_correct_document".into(), Value::Bool(self.is_correct_document));
        m.insert("origin".into(), Value::String(self.origin.as_str().into()));
        m.insert("answer".into(), self.answer.as_ref().map(Answer::to_dict).unwrap_or(Value::Null));
        m.insert("pipeline_id".into(), opt_str(&self.pipeline_id));
        m.insert("created_at".into(), opt_str(&self.created_at));
        m.insert("updated_at".into(), opt_str(&self.updated_at));
        m.insert("meta".into(), Value::Object(self.meta.clone()));
        m.insert("filters".into(), self.filters.clone().unwrap_or(Value::Null));
        Value::Object(m)
    }

    /// Haystack's `is_positive_label`.
    pub fn is_positive(&self) -> bool {
        (self.is_correct_answer && self.is_correct_document) || (self.answer.is_none() && self.is_correct_document)
    }
}

fn opt_str(s: &Option<String>) -> Value {
    s.clone().map(Value::String).unwrap_or(Value::Null)
}

fn is_empty_context(c: &Value) -> bool {
    match c {
        Value::Null => true,
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        _ => false,
    }
}

/// Options of `new MultiLabel(labels, options)` (Haystack's keyword arguments).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct MultiLabelOptions {
    /// Keep only positive labels (Haystack's `is_positive_label`: a correct document with a correct answer or no
    /// answer). Default false.
    pub drop_negative_labels: bool,
    /// Keep only the labels whose `noAnswer` is false. Default false.
    pub drop_no_answers: bool,
}

/// The labels of one query (and filters), aggregated as Haystack's `MultiLabel` does.
#[derive(Debug, Clone, PartialEq)]
pub struct MultiLabel {
    /// MD5 hex of `query + json.dumps(filters, sort_keys=True)`.
    pub id: String,
    pub labels: Vec<Label>,
    pub query: String,
    pub filters: Option<Value>,
    /// True only when every label is a no-answer label.
    pub no_answer: bool,
    /// The answers of the answered labels (`[""]` when `no_answer`).
    pub answers: Vec<String>,
    pub offsets_in_documents: Vec<crate::document::Offset>,
    pub offsets_in_contexts: Vec<crate::document::Offset>,
    /// Ids of the documents of the labels that have an answer.
    pub document_ids: Vec<String>,
    /// `str(document.content)` of the labels that have an answer (a table's pandas printout).
    pub contexts: Vec<String>,
}

impl MultiLabel {
    /// Drops duplicate labels (Haystack's label equality), then negative or no-answer labels if asked; all
    /// labels must share one query and one filters value.
    pub fn new(labels: Vec<Label>, drop_negative_labels: bool, drop_no_answers: bool) -> Result<Self> {
        let mut unique: Vec<Label> = Vec::with_capacity(labels.len());
        for label in labels {
            if !unique.iter().any(|u| u.identity() == label.identity()) {
                unique.push(label);
            }
        }
        if drop_negative_labels {
            unique.retain(Label::is_positive);
        }
        if drop_no_answers {
            unique.retain(|l| l.no_answer == Some(false));
        }
        let query = match unique.first() {
            Some(l) => l.query.clone(),
            None => return Err(Error::invalid("labels", "a MultiLabel needs at least one label (after dropping)")),
        };
        if let Some(i) = unique.iter().position(|l| l.query != query) {
            return Err(Error::invalid(&format!("labels[{i}].query"), format!("{:?} differs from {query:?}", unique[i].query)));
        }
        let filters = unique[0].filters.clone();
        if let Some(i) = unique.iter().position(|l| l.filters != filters) {
            return Err(Error::invalid(&format!("labels[{i}].filters"), "differ from the first label's filters"));
        }
        let key = format!("{}{}", query, python_json::dumps_sorted(filters.as_ref().unwrap_or(&Value::Null)));
        let id = Md5::digest(key.as_bytes()).iter().map(|b| format!("{b:02x}")).collect();
        let no_answer = unique.iter().all(|l| l.no_answer == Some(true));
        let (mut answers, mut offsets_in_documents, mut offsets_in_contexts) = (Vec::new(), Vec::new(), Vec::new());
        if no_answer {
            answers.push(String::new());
        } else {
            for a in unique.iter().filter(|l| l.no_answer != Some(true)).filter_map(|l| l.answer.as_ref()) {
                answers.push(a.answer.clone());
                offsets_in_documents.extend(a.offsets_in_document.iter().flatten().copied());
                offsets_in_contexts.extend(a.offsets_in_context.iter().flatten().copied());
            }
        }
        let answered: Vec<&Label> = unique.iter().filter(|l| l.no_answer != Some(true)).collect();
        let document_ids = answered.iter().map(|l| l.document.id.clone()).collect();
        let contexts = answered.iter().map(|l| l.document.content_str()).collect::<Result<_>>()?;
        Ok(MultiLabel { id, labels: unique, query, filters, no_answer, answers, offsets_in_documents, offsets_in_contexts, document_ids, contexts })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn label(q: &str, doc: &str, answer: &str) -> Label {
        Label::new(q.into(), Document::new(doc), true, true, LabelOrigin::GoldLabel, Some(Answer::new(answer)), None).unwrap()
    }

    #[test]
    fn multilabel_aggregates_like_haystack() {
        let labels = vec![label("who?", "Alice wrote it", "Alice"), label("who?", "Alice wrote it", "Alice"), label("who?", "Bob too", "Bob")];
        let ml = MultiLabel::new(labels, false, false).unwrap();
        assert_eq!(ml.labels.len(), 2, "duplicates dropped");
        assert_eq!(ml.answers, ["Alice", "Bob"]);
        assert!(!ml.no_answer);
        assert_eq!(ml.contexts, ["Alice wrote it", "Bob too"]);
        // hashlib.md5(("who?" + "null").encode()).hexdigest()
        assert_eq!(ml.id, format!("{:x}", Md5::digest(b"who?null")));
        let none = MultiLabel::new(vec![label("q", "d", "")], false, false).unwrap();
        assert!(none.no_answer);
        assert_eq!(none.answers, [""]);
        assert!(none.document_ids.is_empty());
    }

    #[test]
    fn label_round_trip_and_errors() {
        let l = label("q", "doc text", "doc");
        let back = Label::from_dict("label", &l.to_dict()).unwrap();
        assert_eq!(back, l);
        let e = Label::from_dict("labels[3]", &json!({"query": "q"})).unwrap_err();
        assert_eq!(e.message, "labels[3].document: is required");
        let e = Label::new("q".into(), Document::new("d"), true, true, LabelOrigin::GoldLabel, Some(Answer::new("x")), Some(true)).unwrap_err();
        assert!(e.message.starts_with("no_answer"));
        assert!(MultiLabel::new(vec![label("a", "d", "x"), label("b", "d", "x")], false, false).is_err());
    }
}
