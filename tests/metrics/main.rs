//! trec_eval-exact metrics: the trec_eval CLI and library, input formats, measure profiles, the SciFact collection.
//! One test binary per area (cargo builds and links each once); `cargo test --test metrics` runs them.

mod trec_eval;
mod inputs;
mod profiles;
mod collection;
mod ir_measures;
mod compare;
mod optimize_fusion;
mod float_text;
mod judged_only;
mod dialects;
mod measure_names;
mod ranx_evaluate_tests;
mod ir_measures_tests;
mod columnar;
