//! Bindings for the document schema: ids, dict conversion, labels.

use super::convert::{read_options, to_js, to_json, to_json_object};
use super::errors::{js, JsResult};
use rerankit::document::{dict::parse_id_hash_keys, Document, Label, MultiLabel};
use rerankit::{Error, Result};
use serde_json::{Map, Value};
use wasm_bindgen::prelude::*;

fn hash_keys(value: &JsValue) -> Result<Option<Vec<rerankit::document::IdHashKey>>> {
    match to_json("idHashKeys", value)? {
        Value::Null => Ok(None),
        v => parse_id_hash_keys(&v).map(Some).map_err(|e| Error::new(e.code, e.message.replacen("id_hash_keys", "idHashKeys", 1))),
    }
}

/// `Document.from_dict(dict, fieldMap, idHashKeys)` → the document as a standard dict.
#[wasm_bindgen(js_name = documentFromDict, unchecked_return_type = "import('../document.js').DocumentDict")]
pub fn document_from_dict(dict: JsValue, field_map: JsValue, id_hash_keys: JsValue) -> JsResult<JsValue> {
    js((|| {
        if !dict.is_object() {
            return Err(Error::invalid("dict", "expected an object"));
        }
        let dict = to_json_object("dict", &dict)?;
        let field_map = to_json_object("fieldMap", &field_map)?;
        let doc = Document::from_dict(&dict, &field_map, hash_keys(&id_hash_keys)?)?;
        to_js(&doc.to_dict(&Map::new()))
    })())
}

/// `doc.to_dict(fieldMap)` for a document given as a standard dict.
#[wasm_bindgen(js_name = documentToDict, unchecked_return_type = "Record<string, unknown>")]
pub fn document_to_dict(doc: JsValue, field_map: JsValue) -> JsResult<JsValue> {
    js((|| {
        let dict = to_json_object("document", &doc)?;
        let field_map = to_json_object("fieldMap", &field_map)?;
        let doc = Document::from_dict(&dict, &Map::new(), None)?;
        to_js(&doc.to_dict(&field_map))
    })())
}

/// Validates a document given as a standard dict (without `id`, the id is derived) and returns it normalised.
#[wasm_bindgen(js_name = documentNormalize, unchecked_return_type = "import('../document.js').DocumentDict")]
pub fn document_normalize(doc: JsValue) -> JsResult<JsValue> {
    js((|| {
        let mut dict = to_json_object("document", &doc)?;
        let keys = match dict.remove("id_hash_keys") {
            None | Some(Value::Null) => None,
            Some(v) => Some(parse_id_hash_keys(&v)?),
        };
        let doc = Document::from_dict(&dict, &Map::new(), keys)?;
        to_js(&doc.to_dict(&Map::new()))
    })())
}

/// `Label.to_dict()` plus the `no_answer` the JS `Label` keeps (Haystack's `from_dict` accepts and ignores it).
fn label_dict_with_no_answer(label: &Label) -> Value {
    let mut dict = label.to_dict();
    dict["no_answer"] = label.no_answer.map(Value::Bool).unwrap_or(Value::Null);
    dict
}

/// `Label.from_dict` → the label as a dict (derived `id` and `no_answer` filled in).
#[wasm_bindgen(js_name = labelFromDict, unchecked_return_type = "Required<import('../document.js').LabelDict>")]
pub fn label_from_dict(dict: JsValue) -> JsResult<JsValue> {
    js((|| {
        let label = Label::from_dict("label", &to_json("label", &dict)?)?;
        to_js(&label_dict_with_no_answer(&label))
    })())
}

#[wasm_bindgen(typescript_custom_section)]
const MULTI_LABEL_DICT: &'static str = r#"
/** `multiLabel`'s aggregate of labels, with Haystack's field names (pkg/document.ts's `MultiLabel` holds it). */
export interface MultiLabelDict {
  id: string;
  query: string;
  filters: Record<string, unknown> | null;
  labels: Required<import('../document.js').LabelDict>[];
  no_answer: boolean;
  answers: string[];
  offsets_in_documents: (import('../document.js').Span | import('../document.js').TableCell)[];
  offsets_in_contexts: (import('../document.js').Span | import('../document.js').TableCell)[];
  document_ids: string[];
  contexts: string[];
}
"#;

/// `MultiLabel(labels, {dropNegativeLabels, dropNoAnswers})` → its aggregated fields.
#[wasm_bindgen(js_name = multiLabel, unchecked_return_type = "MultiLabelDict")]
pub fn multi_label(labels: JsValue, options: JsValue) -> JsResult<JsValue> {
    js((|| {
        let options: rerankit::document::MultiLabelOptions = read_options("options", &options)?;
        let Value::Array(items) = to_json("labels", &labels)? else {
            return Err(Error::invalid("labels", "expected an array of labels"));
        };
        let labels = items
            .iter()
            .enumerate()
            .map(|(i, l)| Label::from_dict(&format!("labels[{i}]"), l))
            .collect::<Result<Vec<_>>>()?;
        let ml = MultiLabel::new(labels, options.drop_negative_labels, options.drop_no_answers)?;
        let mut out = Map::new();
        out.insert("id".into(), Value::String(ml.id));
        out.insert("query".into(), Value::String(ml.query));
        out.insert("filters".into(), ml.filters.unwrap_or(Value::Null));
        out.insert("labels".into(), Value::Array(ml.labels.iter().map(label_dict_with_no_answer).collect()));
        out.insert("no_answer".into(), Value::Bool(ml.no_answer));
        out.insert("answers".into(), serde_json::to_value(&ml.answers).unwrap_or_default());
        out.insert("offsets_in_documents".into(), serde_json::to_value(&ml.offsets_in_documents).unwrap_or_default());
        out.insert("offsets_in_contexts".into(), serde_json::to_value(&ml.offsets_in_contexts).unwrap_or_default());
        out.insert("document_ids".into(), serde_json::to_value(&ml.document_ids).unwrap_or_default());
        out.insert("contexts".into(), serde_json::to_value(&ml.contexts).unwrap_or_default());
        to_js(&Value::Object(out))
    })())
}
