//! Shared by the test binaries that load models (each area's main.rs includes it as `mod common`).
#![allow(dead_code)]

use rerankit::inference::{CrossEncoder, Embedder, ModelLoadOptions, ModelDir};
use serde_json::Value;
use std::path::PathBuf;

/// `$RERANKIT_MODELS`, default `~/.cache/rerankit/models`.
pub fn models_dir() -> PathBuf {
    match std::env::var_os("RERANKIT_MODELS") {
        Some(p) if !p.is_empty() => PathBuf::from(p),
        _ => PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".cache/rerankit/models"),
    }
}

/// The files of model `name`; panics with the fix when they are missing (tests never skip silently).
pub fn model_dir(name: &str, file: &str) -> ModelDir {
    let dir = models_dir().join(name);
    if !dir.join(file).is_file() {
        panic!(
            "test model {}/{file} is missing: run `npm run fixtures` (it builds the test models into $RERANKIT_MODELS, \
             default ~/.cache/rerankit/models)",
            dir.display()
        );
    }
    ModelDir::read(&dir, file).expect("model files readable")
}

pub fn cross_encoder(name: &str, file: &str) -> CrossEncoder {
    CrossEncoder::load(model_dir(name, file).files(), &ModelLoadOptions::default()).expect("cross-encoder loads")
}

pub fn embedder(name: &str, file: &str, max_length: usize) -> Embedder {
    let opts = ModelLoadOptions { max_length: Some(max_length), ..Default::default() };
    Embedder::load(model_dir(name, file).files(), &opts).expect("embedder loads")
}

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A committed fixture file, with the fix when it is missing.
pub fn fixture_json(rel: &str) -> Value {
    let p = repo().join("tests/fixtures").join(rel);
    let text = std::fs::read_to_string(&p)
        .unwrap_or_else(|e| panic!("fixture {} missing ({e}): run `npm run fixtures`", p.display()));
    serde_json::from_str(&text).expect("fixture is JSON")
}

pub fn f32s(v: &Value) -> Vec<f32> {
    v.as_array().expect("array").iter().map(|x| x.as_f64().expect("number") as f32).collect()
}

pub fn i64s(v: &Value) -> Vec<i64> {
    v.as_array().expect("array").iter().map(|x| x.as_i64().expect("integer")).collect()
}

/// The ONNX bytes with the one-logit classifier bias set to NaN. The bias is the serialized TensorProto
/// `name: "classifier.bias"` (field 8) directly followed by `raw_data` (field 9, tag 0x4a) of 4 bytes, so the
/// float is patched in place without an ONNX writer.
pub fn with_nan_classifier_bias(model: &[u8]) -> Vec<u8> {
    let needle: &[u8] = b"\x42\x0fclassifier.bias\x4a\x04";
    let at = model.windows(needle.len()).position(|w| w == needle).expect("classifier.bias stored as 4 raw bytes");
    let mut out = model.to_vec();
    out[at + needle.len()..at + needle.len() + 4].copy_from_slice(&f32::NAN.to_le_bytes());
    out
}
