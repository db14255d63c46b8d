//! Haystack 1.x evaluation: EvaluationResult, SQuAD, SAS, the document schema (test_schema.py translated) and
//! pipeline evaluation (test_eval.py, test_eval_batch.py translated).
//! One test binary per area (cargo builds and links each once); `cargo test --test haystack_eval` runs them.

#[cfg(feature = "cpu")]
#[path = "../common/mod.rs"]
mod common;

mod evaluation_result;
mod pipeline_eval;
mod schema;
mod squad;
mod sas;
