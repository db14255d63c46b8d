//! `tests/fixtures/haystack/rankers.json`: what farm-haystack 1.26.4's rankers answered
//! (`scripts/fixtures/haystack/make_haystack_rankers.py`).

use rerankit::Document;
use serde_json::Value;
use std::path::PathBuf;
use std::sync::OnceLock;

pub fn rankers_fixture() -> &'static Value {
    static FIXTURE: OnceLock<Value> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/haystack/rankers.json");
        serde_json::from_str(&std::fs::read_to_string(&path).expect("rankers.json")).expect("rankers.json is JSON")
    })
}

/// A fixture's top_k (`null` or an integer).
pub fn top_k(v: &Value) -> Option<i64> {
    v.as_i64()
}

/// The strings of a fixture's `{"result": [...]}`.
pub fn strings(v: &Value) -> Vec<String> {
    v.as_array().expect("an array").iter().map(|s| s.as_str().expect("a string").to_string()).collect()
}

/// `Document(content)` with Haystack's defaults (text).
pub fn text_documents<S: AsRef<str>>(contents: &[S]) -> Vec<Document> {
    contents.iter().map(|c| Document::new(c.as_ref())).collect()
}

pub fn contents(documents: &[Document]) -> Vec<String> {
    documents.iter().map(|d| d.content.as_str().expect("string content").to_string()).collect()
}
