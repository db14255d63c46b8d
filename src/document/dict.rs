//! `Document.to_dict` / `Document.from_dict` as Haystack 1.x does them.
//!
//! A field map is `{custom_key: standard_attribute}`. `from_dict` renames mapped keys, keeps the standard ones
//! and moves every other top-level key into `meta` (after the keys `meta` already has), as Haystack does.

use super::{json_type, ContentType, Document, IdHashKey};
use crate::error::{Error, Result};
use serde_json::{Map, Value};

/// The keys `from_dict` treats as Document attributes (Haystack's `init_args`, less the unused `question`).
const INIT_ARGS: [&str; 7] = ["content", "content_type", "id", "score", "id_hash_keys", "meta", "embedding"];

/// `{custom_key: standard_attribute}`.
pub type FieldMap = Map<String, Value>;

impl Document {
    /// `Document.to_dict(field_map)`: attributes in Haystack's `__dict__` order (content, content_type, score,
    /// meta, id_hash_keys, embedding, id), each renamed by the inverted field map.
    pub fn to_dict(&self, field_map: &FieldMap) -> Map<String, Value> {
        let rename = |attr: &str| -> String {
            field_map
                .iter()
                .find(|(_, standard)| standard.as_str() == Some(attr))
                .map(|(custom, _)| custom.clone())
                .unwrap_or_else(|| attr.to_string())
        };
        let mut out = Map::new();
        out.insert(rename("content"), self.content.clone());
        out.insert(rename("content_type"), Value::String(self.content_type.as_str().into()));
        out.insert(rename("score"), self.score.map(Value::from).unwrap_or(Value::Null));
        out.insert(rename("meta"), Value::Object(self.meta.clone()));
        out.insert(rename("id_hash_keys"), Value::Array(self.id_hash_keys.iter().map(|k| Value::String(k.name())).collect()));
        out.insert(
            rename("embedding"),
            match &self.embedding {
                Some(e) => Value::Array(e.iter().map(|&x| Value::from(x)).collect()),
                None => Value::Null,
            },
        );
        out.insert(rename("id"), Value::String(self.id.clone()));
        out
    }

    /// `Document.from_dict(dict, field_map)`; keys starting with `__` are ignored. `id_hash_keys`, when given,
    /// replaces the dict's own `id_hash_keys` (Haystack 1.26 hashes the id from the dict's); either applies only
    /// when the dict has no id.
    pub fn from_dict(dict: &Map<String, Value>, field_map: &FieldMap, id_hash_keys: Option<Vec<IdHashKey>>) -> Result<Self> {
        for (custom, standard) in field_map {
            match standard.as_str() {
                Some(s) if INIT_ARGS.contains(&s) => {}
                _ => {
                    return Err(Error::invalid(
                        &format!("fieldMap.{custom}"),
                        format!("must name a Document attribute ({}), got {standard}", INIT_ARGS.join(", ")),
                    ))
                }
            }
        }
        let mut meta = match dict.get("meta") {
            None | Some(Value::Null) => Map::new(),
            Some(Value::Object(m)) => m.clone(),
            Some(other) => return Err(Error::invalid("meta", format!("expected an object, got {}", json_type(other)))),
        };
        let mut attrs: Map<String, Value> = Map::new();
        for (key, value) in dict {
            if key.starts_with("__") {
                continue;
            }
            if INIT_ARGS.contains(&key.as_str()) {
                if key != "meta" {
                    attrs.insert(key.clone(), value.clone());
                }
            } else if let Some(standard) = field_map.get(key).and_then(Value::as_str) {
                if standard == "meta" {
                    match value {
                        Value::Object(m) => meta = m.clone(),
                        Value::Null => {}
                        other => return Err(Error::invalid(key, format!("mapped to meta, expected an object, got {}", json_type(other)))),
                    }
                } else {
                    attrs.insert(standard.to_string(), value.clone());
                }
            } else {
                meta.insert(key.clone(), value.clone());
            }
        }

        let content = attrs.get("content").cloned().unwrap_or(Value::Null);
        let content_type = match attrs.get("content_type") {
            None | Some(Value::Null) => ContentType::Text,
            Some(Value::String(s)) => ContentType::parse("content_type", s)?,
            Some(other) => return Err(Error::invalid("content_type", format!("expected a string, got {}", json_type(other)))),
        };
        let id = match attrs.get("id") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(Value::Number(n)) => Some(n.to_string()),
            Some(other) => return Err(Error::invalid("id", format!("expected a string, got {}", json_type(other)))),
        };
        let score = match attrs.get("score") {
            None | Some(Value::Null) => None,
            Some(Value::Number(n)) => n.as_f64(),
            Some(other) => return Err(Error::invalid("score", format!("expected a number, got {}", json_type(other)))),
        };
        let embedding = match attrs.get("embedding") {
            None | Some(Value::Null) => None,
            Some(value) => Some(parse_embedding(value)?),
        };
        let hash_keys = match (id_hash_keys, attrs.get("id_hash_keys")) {
            (Some(given), _) => Some(given),
            (None, None | Some(Value::Null)) => None,
            (None, Some(value)) => Some(parse_id_hash_keys(value)?),
        };
        Document::build(content, content_type, id, score, meta, embedding, hash_keys)
    }
}

/// A list of numbers as an embedding, each kept as the double it is (no float32 rounding).
pub(crate) fn parse_embedding(value: &Value) -> Result<Vec<f64>> {
    let Value::Array(items) = value else {
        return Err(Error::invalid("embedding", format!("expected a list of numbers, got {}", json_type(value))));
    };
    items
        .iter()
        .enumerate()
        .map(|(i, x)| match x.as_f64() {
            Some(v) if v.is_finite() => Ok(v),
            _ => Err(Error::invalid(&format!("embedding[{i}]"), format!("expected a finite number, got {x}"))),
        })
        .collect()
}

/// `["content", "meta", …]` as hash keys.
pub fn parse_id_hash_keys(value: &Value) -> Result<Vec<IdHashKey>> {
    let Value::Array(items) = value else {
        return Err(Error::invalid("id_hash_keys", format!("expected a list of strings, got {}", json_type(value))));
    };
    items
        .iter()
        .enumerate()
        .map(|(i, x)| {
            let field = format!("id_hash_keys[{i}]");
            match x {
                Value::String(s) => IdHashKey::parse(&field, s),
                other => Err(Error::invalid(&field, format!("expected a string, got {}", json_type(other)))),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn map(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn unknown_fields_go_to_meta_and_field_map_renames() {
        let dict = map(json!({"text": "hello world", "url": "http://x", "meta": {"a": 1}, "__internal": 1}));
        let fm = map(json!({"text": "content"}));
        let d = Document::from_dict(&dict, &fm, None).unwrap();
        assert_eq!(d.content, json!("hello world"));
        assert_eq!(d.id, "ab97467d60eb63b1533f6046eb7f610e");
        assert_eq!(Value::Object(d.meta.clone()), json!({"a": 1, "url": "http://x"}));
        let back = d.to_dict(&fm);
        let keys: Vec<&str> = back.keys().map(String::as_str).collect();
        assert_eq!(keys, ["text", "content_type", "score", "meta", "id_hash_keys", "embedding", "id"]);
        let again = Document::from_dict(&back, &fm, None).unwrap();
        assert_eq!(again, d);
    }

    #[test]
    fn id_hash_keys_apply_only_without_id() {
        let dict = map(json!({"content": "same text", "meta": {"source": "a.pdf", "page": 1}}));
        let keys = Some(vec![IdHashKey::Content, IdHashKey::Meta]);
        let d = Document::from_dict(&dict, &Map::new(), keys.clone()).unwrap();
        assert_eq!(d.id, "c752396ef48f7d390149628665954ab5");
        let with_id = map(json!({"content": "same text", "id": "given"}));
        assert_eq!(Document::from_dict(&with_id, &Map::new(), keys).unwrap().id, "given");
    }

    #[test]
    fn tables_and_bad_fields() {
        let dict = map(json!({"content": [["a", "b"], [1, 2]], "content_type": "table"}));
        let d = Document::from_dict(&dict, &Map::new(), None).unwrap();
        // farm-haystack 1.26.4: the MurmurHash3 of the DataFrame's printout "   a  b\n0  1  2".
        assert_eq!(d.id, "c5346bff2648716c10abed17a3136a53");
        for (bad, field) in [
            (json!({"content": "x", "meta": 3}), "meta"),
            (json!({"content": "x", "score": "high"}), "score"),
            (json!({"content": "x", "embedding": [1, "a"]}), "embedding[1]"),
            (json!({"content": "x", "content_type": "video"}), "content_type"),
            (json!({"meta": {}}), "content"),
        ] {
            let e = Document::from_dict(&map(bad), &Map::new(), None).unwrap_err();
            assert!(e.message.starts_with(field), "{} should name {field}", e.message);
        }
        let e = Document::from_dict(&map(json!({"content": "x"})), &map(json!({"c": "nope"})), None).unwrap_err();
        assert!(e.message.starts_with("fieldMap.c"));
    }
}
