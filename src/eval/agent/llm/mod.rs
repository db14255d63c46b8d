//! LLM-judged metrics through a caller-supplied judge, with no vendor or API key in the library.
//!
//! The work is split into two pure steps so that the async `judge(prompt) → text` call lives in the caller
//! (the TypeScript layer): [`Plan::new`] builds every prompt (and settles what needs no judge, such as a
//! custom evaluation whose inputs are missing), then [`Plan::apply`] parses the judge's answers into the
//! output keys of graphrag-eval (`answer_*`, `retrieval_*` on retrieval steps, custom outputs, `*_error`
//! when an answer does not parse, `*_cost` summed when the judge reports costs).
//!
//! Answer correctness and custom evaluations follow graphrag-eval exactly (prompt template with
//! `{question}`/`{reference_answer}`/`{actual_answer}`, claim counts validated as its pydantic model does; the
//! custom prompt built and its tab-separated answer parsed as it does). graphrag-eval computes answer relevance
//! and the retrieval context metrics with RAGAS (embeddings and several LLM calls); rerankit asks the judge
//! for them with its own prompts (a relevance score; attributed reference claims for recall; per-context
//! usefulness verdicts for precision, averaged as RAGAS's context precision), which is documented as a
//! deliberate difference.
//!
//! - [`config`]: which metrics run (graphrag-eval's configuration, custom evaluations).
//! - [`prompts`]: the prompts.
//! - [`answers`]: the judge's answers parsed into output keys.
//! - [`plan`]: [`Plan`], the prompts of a set of results and the folding of the answers.

pub mod answers;
pub mod config;
pub mod plan;
pub mod prompts;

pub use answers::{f1, parse_correctness, parse_relevance, parse_retrieval_precision, parse_retrieval_recall};
pub use config::{Config, CustomEvaluation};
pub use plan::{JudgeAnswer, JudgeRequest, Plan, Purpose};
pub use prompts::DEFAULT_CORRECTNESS_PROMPT;
