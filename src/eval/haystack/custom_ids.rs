//! `custom_document_id_field` of Haystack 1.x's `Pipeline.eval` / `eval_batch`: documents are matched to labels
//! by a meta field (a file name, a URL) instead of their id, for the `document_id` scopes
//! (`_build_eval_dataframe`, farm-haystack 1.26).
//!
//! - gold: `label.document.meta[field]` of each label that is not a no-answer label (Haystack's `not l.no_answer`:
//!   a label without answer counts); a label whose document lacks the field is an error, as Haystack's `KeyError`.
//! - a retrieved document: `document.meta.get(field, "")`;
//! - an answer: `meta.get(field, "")` of each of `answer.meta["doc_metas"]` (generative answers, one meta per
//!   source document), or of the answer's own meta.
//!
//! The values are compared with Python's `==` (`2 == 2.0`, `"2" != 2`), so they stay JSON values.

use crate::document::MultiLabel;
use crate::error::{Error, Result};
use crate::python::values::eq;
use serde_json::{Map, Value};

/// `gold_custom_document_ids` of one query (`query` is its position, for the error).
pub fn gold_ids(labels: &MultiLabel, field: &str, query: usize) -> Result<Vec<Value>> {
    labels
        .labels
        .iter()
        .enumerate()
        .filter(|(_, l)| l.no_answer != Some(true))
        .map(|(j, l)| {
            l.document.meta.get(field).cloned().ok_or_else(|| {
                Error::invalid(
                    "customDocumentIdField",
                    format!("{field:?} is not in the meta of the document of label {j} of query {query} ({:?}); every label but the no-answer ones needs it (Haystack: KeyError)", labels.query),
                )
            })
        })
        .collect()
}

/// `custom_document_id` of a retrieved document.
pub fn document_id(meta: &Map<String, Value>, field: &str) -> Value {
    meta.get(field).cloned().unwrap_or_else(|| Value::String(String::new()))
}

/// `custom_document_ids` of an answer (`at` names the answer in errors).
pub fn answer_ids(meta: &Map<String, Value>, field: &str, at: &str) -> Result<Vec<Value>> {
    let Some(doc_metas) = meta.get("doc_metas") else { return Ok(vec![document_id(meta, field)]) };
    let Value::Array(doc_metas) = doc_metas else {
        return Err(Error::invalid(&format!("{at}.meta.doc_metas"), "expected a list of meta objects"));
    };
    doc_metas
        .iter()
        .enumerate()
        .map(|(k, m)| match m {
            Value::Object(m) => Ok(document_id(m, field)),
            _ => Err(Error::invalid(&format!("{at}.meta.doc_metas[{k}]"), "expected a meta object")),
        })
        .collect()
}

/// `gold_documents_id_match` of a document row: 1.0 per gold id equal to the document's.
pub fn document_matches(gold: &[Value], id: &Value) -> Vec<f64> {
    gold.iter().map(|g| if eq(id, g) { 1.0 } else { 0.0 }).collect()
}

/// `gold_documents_id_match` of an answer row: 1.0 per gold id among the answer's (Python's `in`).
pub fn answer_matches(gold: &[Value], ids: &[Value]) -> Vec<f64> {
    gold.iter().map(|g| if ids.iter().any(|i| eq(i, g)) { 1.0 } else { 0.0 }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn meta(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn answers_read_doc_metas_when_they_have_them() {
        let m = meta(json!({"name": "own", "doc_metas": [{"name": "a"}, {}, {"name": 3}]}));
        assert_eq!(answer_ids(&m, "name", "a").unwrap(), [json!("a"), json!(""), json!(3)]);
        assert_eq!(answer_ids(&meta(json!({"name": "own"})), "name", "a").unwrap(), [json!("own")]);
        assert_eq!(answer_ids(&Map::new(), "name", "a").unwrap(), [json!("")]);
        let bad = answer_ids(&meta(json!({"doc_metas": ["x"]})), "name", "nodes.R.answers[0][1]").unwrap_err();
        assert!(bad.to_string().contains("nodes.R.answers[0][1].meta.doc_metas[0]"), "{bad}");
    }

    #[test]
    fn ids_compare_as_python_does() {
        let gold = [json!(2.0), json!("3"), json!(5)];
        assert_eq!(document_matches(&gold, &json!(2)), [1.0, 0.0, 0.0]);
        assert_eq!(document_matches(&gold, &json!(3)), [0.0, 0.0, 0.0]);
        assert_eq!(answer_matches(&gold, &[json!("3"), json!(5.0)]), [0.0, 1.0, 1.0]);
    }
}
