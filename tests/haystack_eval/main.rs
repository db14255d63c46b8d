//! Haystack 1.x evaluation: EvaluationResult, SQuAD, SAS, and the document schema (test_schema.py translated).
//! One test binary per area (cargo builds and links each once); `cargo test --test haystack_eval` runs them.

#[cfg(feature = "cpu")]
#[path = "../common/mod.rs"]
mod common;

mod evaluation_result;
mod schema;
mod squad;
mod sas;
