//! Evaluation of question-answering systems beyond ranked lists.
//!
//! - [`agent`]: agent-step evaluation in the style of graphrag-eval (steps score, SPARQL result matching,
//!   retrieval ids, LLM-judged answers through a caller-supplied judge, aggregates).

pub mod agent;

pub mod haystack;
