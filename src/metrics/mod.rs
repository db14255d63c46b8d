//! Retrieval metrics with trec_eval 10.0 semantics, and the other tools' measures, names and comparisons.
//!
//! | module | what is there |
//! |---|---|
//! | [`inputs`] | what is evaluated: [`Qrels`] (`qid iter docno grade`), [`Run`] (`qid Q0 docno rank score tag`), [`IntentQrels`] |
//! | [`formats`] | the text formats: TREC qrels / runs / intent qrels (one reader), ranx's JSON shape, trec_eval's output ([`format_trec_eval`]), ranx's report tables |
//! | [`names`] | how each tool names a measure: trec_eval (`ndcg_cut_10`, `P.5,10`, `official`), ranx (`ndcg@10`, `mrr@10`), ir_measures (`P(rel=2)@10`, `RBP(p=0.8)`); the [`Dialect`] a colliding name is read in; [`profile`]s (`haystack`, `graphrag`) |
//! | [`measures`] | what a measure is ([`Metric`]) and one function per formula, its formula in its doc comment |
//! | [`evaluation`] | [`evaluate`]: ranking each query once ([`evaluation::ranking`]: score descending, ties by docno descending, rank column ignored; `-l`, `-c`, `-M`, `-J`), every measure from that ranking, the aggregates |
//! | [`comparison`] | comparing runs as ranx does: paired t-test, Fisher's randomisation test, Tukey's HSD |
//! | [`options`] | [`EvaluateOptions`]: `evaluate`'s and `compare`'s options as JavaScript and JSON give them |
//! | [`trec_cli`] | trec_eval's command line, for `rerankit-eval` and the Node CLI |
//!
//! Inside the crate, modules import from the file that defines a thing, never through these re-exports or a
//! parent's: the `mod.rs` files are tables of contents, and no two files import each other.
//!
//! Not implemented from trec_eval: the preference measures (`prefs_*`, `-R prefs`), the judgement-group
//! measures (`*_avgjg`, `-R qrels_jg`), `yaap`, `-Z` z-scores; `-J` only per measure (ir_measures'
//! `judged_only=True`).

pub mod comparison;
pub mod evaluation;
pub mod formats;
pub mod inputs;
pub mod measures;
pub mod names;
pub mod options;
pub mod trec_cli;

pub use evaluation::ranking::{RankingOptions, TiePolicy};
pub use evaluation::{evaluate, EvalOptions, Evaluation, QueryEvaluation, QueryScope};
pub use formats::trec_eval_output::format_trec_eval;
pub use inputs::intent_qrels::IntentQrels;
pub use inputs::qrels::Qrels;
pub use inputs::run::{DuplicatePolicy, Run};
pub use measures::interpolated_precision::RecallRounding;
pub use measures::metric::{HaystackMeasure, Judging, Metric};
pub use measures::Value;
pub use names::dialect::{colliding_names, parse_measures, parse_measures_in, Dialect, MeasureRequest};
pub use names::profiles::{profile, Profile};
pub use options::EvaluateOptions;

use crate::error::Result;

/// Parses both texts and evaluates `measures` (names in either style) in one call.
pub fn evaluate_text<S: AsRef<str>>(qrels: &str, run: &str, measures: &[S], options: &EvalOptions) -> Result<Evaluation> {
    let qrels = Qrels::parse(qrels)?;
    let run = Run::parse(run, DuplicatePolicy::Error)?;
    evaluate(&qrels, &run, &parse_measures(measures)?, options)
}
