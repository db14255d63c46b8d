//! Haystack 1.x evaluation: EvaluationResult, SQuAD, SAS.
//! One test binary per area (cargo builds and links each once); `cargo test --test haystack_eval` runs them.

#[cfg(feature = "cpu")]
#[path = "../common/mod.rs"]
mod common;

mod evaluation_result;
mod squad;
mod sas;
