//! Agent-step evaluation in the style of graphrag-eval 6.6.1 (Apache-2.0, Ontotext/Graphwise): the same
//! inputs give the same non-LLM outputs (`tests/fixtures/graphrag_eval/`).
//!
//! - Inputs ([`input`]): a reference dataset (templates → questions with optional `reference_steps` and
//!   `reference_answer`), YAML or JSON; target responses as JSON (object keyed by question id, or list),
//!   JSONL or YAML; error responses `{question_id, error, status: "error"}`.
//! - [`evaluate`]: one output object per question with graphrag-eval's keys; `steps_score` from step matching
//!   ([`steps`], [`sparql`], [`timeseries`]); matched reference steps annotated with `matches`.
//! - [`aggregate`]: `per_template`, `micro`, `macro`.
//! - [`yaml`]: a JSON value as YAML text (`agentToYaml`, the CLI's `--format yaml`), as serde_yaml_ng writes it.
//! - [`llm`]: LLM-judged metrics without any vendor: the library builds the prompts and parses the judge's
//!   answers (both pure); the caller (the TS layer) runs its async `judge(prompt)` in between.
//!
//! Where graphrag-eval raises and stops the whole run (a question with no response, a SPARQL reference step
//! without `required_columns`, an empty reference group…), rerankit reports the problem on the item instead:
//! `status: "error"` + `error` for an unreadable question or a missing response, `steps_score_error` (and no
//! `steps_score`) when the steps cannot be compared.

pub mod aggregate;
pub mod evaluate;
pub mod input;
pub mod llm;
pub mod sparql;
pub mod steps;
pub mod timeseries;
pub mod yaml;

pub use aggregate::aggregate;
pub use evaluate::evaluate;
pub use input::{parse_reference, Responses};
pub use yaml::to_yaml;
