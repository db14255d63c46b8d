//! Cross-encoders and embedders on the CPU (tract) against onnxruntime: the test models, int8, the SciFact collection, and the native benchmark (ignored).
//! One test binary per area (cargo builds and links each once); `cargo test --test inference` runs them.

#[path = "../common/mod.rs"]
mod common;

mod models;
mod int8;
mod collection;
mod bench;
mod hub_exports;
mod bert_engine;
mod headwise_attention;
