//! The document schema of Haystack 1.x (seeds 001/003): [`Document`], [`Span`], [`Answer`], [`Label`] and
//! [`MultiLabel`], with Haystack-compatible ids and dict conversion.

mod answer;
pub mod dict;
pub mod id;
mod label;

pub use answer::{Answer, AnswerType, Offset, Span, TableCell};
pub use label::{Label, LabelOrigin, MultiLabel, MultiLabelOptions};

use crate::error::{Error, Result};
use crate::python::{dataframe as python_dataframe, repr as python_repr};
use serde_json::{Map, Value};

/// What a document's `content` holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ContentType {
    #[default]
    Text,
    /// A table: `content` is a list of rows, the first row being the column names (Haystack's serialised form).
    Table,
    /// A path or URL of an image.
    Image,
    /// A path or URL of an audio file.
    Audio,
}

impl ContentType {
    pub fn as_str(self) -> &'static str {
        match self {
            ContentType::Text => "text",
            ContentType::Table => "table",
            ContentType::Image => "image",
            ContentType::Audio => "audio",
        }
    }

    pub fn parse(field: &str, s: &str) -> Result<Self> {
        match s {
            "text" => Ok(ContentType::Text),
            "table" => Ok(ContentType::Table),
            "image" => Ok(ContentType::Image),
            "audio" => Ok(ContentType::Audio),
            other => Err(Error::invalid(field, format!("expected \"text\", \"table\", \"image\" or \"audio\", got {other:?}"))),
        }
    }
}

/// A document attribute that may feed the id hash (`id_hash_keys`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IdHashKey {
    Content,
    ContentType,
    Score,
    Meta,
    /// `"meta.<key>"`: one meta value, skipped when the document's meta lacks the key. The key is everything
    /// after the first dot (`"meta.url.path"` reads `meta["url.path"]`), as in Haystack.
    MetaKey(String),
}

impl IdHashKey {
    pub fn parse(field: &str, s: &str) -> Result<Self> {
        match s {
            "content" => Ok(IdHashKey::Content),
            "content_type" => Ok(IdHashKey::ContentType),
            "score" => Ok(IdHashKey::Score),
            "meta" => Ok(IdHashKey::Meta),
            "embedding" => Err(Error::unsupported(format!(
                "{field}: \"embedding\" cannot be hashed reproducibly (Haystack hashes numpy's printout); use \"content\" and/or \"meta\""
            ))),
            other => match other.strip_prefix("meta.") {
                Some(key) => Ok(IdHashKey::MetaKey(key.to_string())),
                None => Err(Error::invalid(
                    field,
                    format!("{other:?} is not one of \"content\", \"content_type\", \"score\", \"meta\" or \"meta.<key>\""),
                )),
            },
        }
    }

    /// The key as Haystack spells it in `id_hash_keys`.
    pub fn name(&self) -> String {
        match self {
            IdHashKey::Content => "content".into(),
            IdHashKey::ContentType => "content_type".into(),
            IdHashKey::Score => "score".into(),
            IdHashKey::Meta => "meta".into(),
            IdHashKey::MetaKey(key) => format!("meta.{key}"),
        }
    }
}

/// A passage, table or media reference with its relevance score, metadata and optional embedding.
#[derive(Debug, Clone, PartialEq)]
pub struct Document {
    pub id: String,
    /// Text, or for tables a list of rows (column names first).
    pub content: Value,
    pub content_type: ContentType,
    pub score: Option<f64>,
    pub meta: Map<String, Value>,
    /// The keys as Haystack keeps them: those given, or `["content"]`. The id was hashed from the keys given
    /// when the document was built, so a default document's id is the hash of its content alone, not of the
    /// `":" + content` that an explicit `["content"]` hashes (both Haystack's rules).
    pub id_hash_keys: Vec<IdHashKey>,
    /// Doubles, as the caller gave them: a document's numbers come back bit for bit (`1.1` stays `1.1`, not
    /// the float32 `1.100000023841858`); a ranker that computes in float32 narrows its own copy.
    pub embedding: Option<Vec<f64>>,
}

impl Document {
    /// A text document with its Haystack id.
    pub fn new(content: impl Into<String>) -> Self {
        let content = Value::String(content.into());
        let id = id::id_from_key(&python_repr::str_of(&content));
        Document {
            id,
            content,
            content_type: ContentType::Text,
            score: None,
            meta: Map::new(),
            id_hash_keys: vec![IdHashKey::Content],
            embedding: None,
        }
    }

    /// Builds a document, validating each field and deriving the id from `id_hash_keys` when none is given.
    pub fn build(
        content: Value,
        content_type: ContentType,
        id: Option<String>,
        score: Option<f64>,
        meta: Map<String, Value>,
        embedding: Option<Vec<f64>>,
        id_hash_keys: Option<Vec<IdHashKey>>,
    ) -> Result<Self> {
        check_content(&content, content_type)?;
        if let Some(s) = score {
            if s.is_nan() {
                return Err(Error::invalid("score", "NaN is not a score"));
            }
        }
        if let Some(e) = &embedding {
            if let Some(i) = e.iter().position(|x| !x.is_finite()) {
                return Err(Error::invalid("embedding", format!("value at index {i} is not finite")));
            }
        }
        let mut doc = Document { id: String::new(), content, content_type, score, meta, id_hash_keys: Vec::new(), embedding };
        doc.id = match id {
            Some(id) => id,
            None => doc.compute_id(id_hash_keys.as_deref())?,
        };
        // Haystack keeps `id_hash_keys or ["content"]`: an empty list too becomes the default.
        doc.id_hash_keys = id_hash_keys.filter(|k| !k.is_empty()).unwrap_or_else(|| vec![IdHashKey::Content]);
        Ok(doc)
    }

    /// The text of a text document, `None` for other content types.
    pub fn text(&self) -> Option<&str> {
        match (&self.content, self.content_type) {
            (Value::String(s), ContentType::Text) => Some(s),
            _ => None,
        }
    }

    /// Python's `str(document.content)`: the text, or for a table the printout of its pandas DataFrame.
    pub fn content_str(&self) -> Result<String> {
        match (self.content_type, &self.content) {
            (ContentType::Table, Value::Array(rows)) => python_dataframe::dataframe_str("content", rows),
            (_, content) => Ok(python_repr::str_of(content)),
        }
    }

    /// `Document._get_id(id_hash_keys)`: without keys the hash of `str(content)`; with keys the hash of the
    /// concatenated `":" + str(attribute)` (a `meta.<key>` the meta lacks adds nothing), an error when that
    /// concatenation is empty.
    pub fn compute_id(&self, id_hash_keys: Option<&[IdHashKey]>) -> Result<String> {
        let Some(keys) = id_hash_keys else {
            return Ok(id::id_from_key(&self.content_str()?));
        };
        let mut key = String::new();
        for k in keys {
            let part = match k {
                IdHashKey::Content => self.content_str()?,
                IdHashKey::ContentType => self.content_type.as_str().to_string(),
                IdHashKey::Score => self.score.map(python_repr::repr_float).unwrap_or_else(|| "None".into()),
                IdHashKey::Meta => python_repr::repr_dict(&self.meta),
                IdHashKey::MetaKey(name) => match self.meta.get(name) {
                    Some(value) => python_repr::str_of(value),
                    None => continue,
                },
            };
            key.push(':');
            key.push_str(&part);
        }
        if key.is_empty() {
            return Err(Error::invalid(
                "id_hash_keys",
                "give at least one of \"content\", \"meta\" or a \"meta.<key>\" the meta has (or null for the default)",
            ));
        }
        Ok(id::id_from_key(&key))
    }
}

fn check_content(content: &Value, content_type: ContentType) -> Result<()> {
    match (content_type, content) {
        (_, Value::Null) => Err(Error::invalid("content", "is required (got null)")),
        (ContentType::Table, Value::Array(rows)) => {
            if let Some(i) = rows.iter().position(|r| !r.is_array()) {
                return Err(Error::invalid("content", format!("a table is a list of rows; row {i} is not a list")));
            }
            Ok(())
        }
        (ContentType::Table, other) => Err(Error::invalid("content", format!("a table must be a list of rows, got {}", json_type(other)))),
        (_, Value::String(_)) => Ok(()),
        (ct, other) => Err(Error::invalid("content", format!("{} content must be a string, got {}", ct.as_str(), json_type(other)))),
    }
}

/// The JSON type name of a value, for error messages.
pub fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn doc_with(content: &str, meta: Value, keys: Option<Vec<IdHashKey>>) -> Result<Document> {
        let meta = meta.as_object().cloned().unwrap_or_default();
        Document::build(json!(content), ContentType::Text, None, None, meta, None, keys)
    }

    #[test]
    fn golden_ids_with_hash_keys() {
        use IdHashKey::*;
        let d = doc_with("same text", json!({"source": "a.pdf", "page": 1}), Some(vec![Content, Meta])).unwrap();
        assert_eq!(d.id, "c752396ef48f7d390149628665954ab5");
        let d = doc_with("same text", json!({"source": "b.pdf", "page": 1}), Some(vec![Content, Meta])).unwrap();
        assert_eq!(d.id, "c5bfd03e64ef56211f273c1f2865ff5");
        let d = doc_with("same text", json!({"source": "a.pdf"}), Some(vec![Meta])).unwrap();
        assert_eq!(d.id, "e1f916fbc44302e05a5d15b5741f1aae");
        let d = doc_with("same text", json!({}), Some(vec![Content])).unwrap();
        assert_eq!(d.id, "5b0d946892ee9301e58fc17d0dfb635a");
        let d = doc_with("x", json!({"n": 1.5, "ok": true, "tags": ["a", "b"], "none": null}), Some(vec![Content, Meta])).unwrap();
        assert_eq!(d.id, "16a3002ded4448f48311a17d7b138115");
    }

    #[test]
    fn golden_ids_default() {
        assert_eq!(Document::new("hello world").id, "ab97467d60eb63b1533f6046eb7f610e");
        assert_eq!(Document::new("").id, "00");
        assert_eq!(Document::new("Ünïcödé text — ✓ 🚀").id, "feaa2e0c675a9e88eeec037e16f38649");
        assert_eq!(Document::new("日本語のテキスト").id, "a4c4e6415667b49ee8d3ac652a560caa");
        assert_eq!(Document::new("line1\nline2\ttab").id, "6bbf81cdc7a032097b0a7be388d7467f");
        assert_eq!(Document::new("a".repeat(10_000)).id, "8f3c6fd33973be4e59af6a9023bd9b69");
    }

    #[test]
    fn given_id_is_kept_and_bad_fields_are_named() {
        let d = Document::build(json!("t"), ContentType::Text, Some("my-id".into()), Some(0.5), Map::new(), None, None).unwrap();
        assert_eq!(d.id, "my-id");
        let e = doc_with("t", json!({}), Some(vec![])).unwrap_err();
        assert!(e.message.starts_with("id_hash_keys"), "{}", e.message);
        let e = Document::build(json!(3), ContentType::Text, None, None, Map::new(), None, None).unwrap_err();
        assert!(e.message.starts_with("content"), "{}", e.message);
        let e = Document::build(json!("t"), ContentType::Text, None, Some(f64::NAN), Map::new(), None, None).unwrap_err();
        assert!(e.message.starts_with("score"));
        let e = Document::build(json!("t"), ContentType::Text, None, None, Map::new(), Some(vec![1.0, f64::NAN]), None).unwrap_err();
        assert!(e.message.contains("index 1"));
        assert!(IdHashKey::parse("id_hash_keys[0]", "embedding").is_err());
    }
}
