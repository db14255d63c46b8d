//! Retrieval metrics with trec_eval 10.0 semantics.
//!
//! - Inputs: [`Qrels`] (`qid iter docno grade`) and [`Run`] (`qid Q0 docno rank score tag`) parsed from TREC
//!   text, or built in memory ([`Qrels::from_triples`], [`ranx_shape`] for `{qid: {docno: value}}`).
//! - Measures: [`Metric`], parsed from trec_eval names (`ndcg_cut_10`, `P.5,10`, `official`, `all_trec`),
//!   ranx names (`ndcg@10`, `mrr@10`) or ir_measures names (`P(rel=2)@10`, `RBP(p=0.8)`, `ERR@10`); each formula
//!   is one function in [`measures`]. Intent-aware measures read [`IntentQrels`] attached to the qrels.
//! - Semantics ([`ranking`]): score descending, ties by docno descending; rank column ignored; relevance level
//!   (`-l`), complete (`-c`, [`QueryScope::AllQrels`]), max results (`-M`), custom nDCG gains.
//! - Output: [`evaluate`] gives per-query values and aggregates; [`format_trec_eval`] prints them exactly as
//!   trec_eval does.
//! - Profiles ([`profile`]): `haystack` (Haystack 1.x document metrics) and `graphrag` (graphrag-eval).
//!
//! Not implemented from trec_eval: the preference measures (`prefs_*`, `-R prefs`), the judgement-group
//! measures (`*_avgjg`, `-R qrels_jg`), `yaap`, `-Z` z-scores; `-J` only per measure (ir_measures'
//! `judged_only=True`).

pub mod aggregate;
pub mod comparison;
mod docno_arena;
pub mod evaluation;
pub mod intent_qrels;
pub mod ir_measures_syntax;
pub mod measure;
pub mod measures;
pub mod options;
pub mod profiles;
pub mod qrels;
pub mod ranking;
pub mod ranx_shape;
pub mod report;
pub mod run;
pub mod significance;
pub mod text_lines;
pub mod tukey;
pub mod trec_cli;
pub mod trec_format;

pub use evaluation::{evaluate, EvalOptions, Evaluation, QueryEvaluation, QueryScope};
pub use intent_qrels::IntentQrels;
pub use measure::{colliding_names, parse_measures, parse_measures_in, Dialect, HaystackMeasure, Judging, MeasureRequest, Metric};
pub use measures::interpolated_precision::RecallRounding;
pub use measures::Value;
pub use options::EvaluateOptions;
pub use profiles::{profile, Profile};
pub use qrels::Qrels;
pub use ranking::{RankingOptions, TiePolicy};
pub use run::{DuplicatePolicy, Run};
pub use trec_format::format_trec_eval;

use crate::error::Result;

/// Parses both texts and evaluates `measures` (names in either style) in one call.
pub fn evaluate_text<S: AsRef<str>>(qrels: &str, run: &str, measures: &[S], options: &EvalOptions) -> Result<Evaluation> {
    let qrels = Qrels::parse(qrels)?;
    let run = Run::parse(run, DuplicatePolicy::Error)?;
    evaluate(&qrels, &run, &parse_measures(measures)?, options)
}
