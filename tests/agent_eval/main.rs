//! Agent evaluation against graphrag-eval: its datasets, the LLM-judged metrics, bad input.
//! One test binary per area (cargo builds and links each once); `cargo test --test agent_eval` runs them.

mod datasets;
mod llm;
mod bad_input;
