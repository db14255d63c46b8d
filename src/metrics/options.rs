//! The options of `evaluate` and `compare` as JavaScript and JSON give them: a profile's measures and settings
//! (`profile: "haystack"`), then each option given on top of them.

use std::borrow::Cow;

use super::evaluation::ranking::TiePolicy;
use super::evaluation::{EvalOptions, QueryScope};
use super::inputs::intent_qrels::IntentQrels;
use super::inputs::qrels::Qrels;
use super::measures::interpolated_precision::RecallRounding;
use super::names::dialect::{parse_measures_in, Dialect, MeasureRequest};
use super::names::profiles::profile;
use crate::error::{Error, Result};

/// Options of `evaluate` and `compareRuns`.
// The doc comments of the option structs are the API reference of their TypeScript types too (pkg/options.ts is
// rendered from them, src/options/typescript.rs): they speak to JavaScript callers (`null`, not `None`).
#[derive(Debug, Clone, Default, PartialEq, serde::Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct EvaluateOptions {
    /// Grades ≥ this are relevant (trec_eval `-l`). Default 1.
    pub relevance_level: Option<i64>,
    /// Average over every query of the qrels; a query missing from the run scores 0 (trec_eval `-c`): the same
    /// as `scope: "qrels"`.
    pub complete: Option<bool>,
    /// Which queries are evaluated.
    pub scope: Option<QueryScope>,
    /// Keep only the top n of each query after ranking (trec_eval `-M`; Haystack's simulated_top_k_retriever).
    pub max_results: Option<usize>,
    /// Rank only the retrieved documents judged with a grade ≥ 0, after the maxResults cut (trec_eval `-J`): one
    /// absent from the qrels or judged with a negative grade is dropped. Default false.
    pub judged_only: Option<bool>,
    /// How documents of equal score are ordered.
    pub ties: Option<TiePolicy>,
    /// Documents in the collection (trec_eval `-N`; `utility` only).
    pub collection_size: Option<u64>,
    /// Measures and settings of another tool: "haystack", "graphrag", "graphrag@k", "trec_eval".
    pub profile: Option<String>,
    /// Whose meaning a measure name has where the tools' names collide (docs/eval.md "Measure names and
    /// dialects"). The "ir_measures" dialect also evaluates every query of the qrels (ir_measures' scope) unless
    /// `scope` or `complete` says otherwise.
    pub dialect: Option<Dialect>,
    /// A document listed twice for a query: keep the first instead of failing (text and Map runs).
    pub keep_first_duplicate: Option<bool>,
    /// Recall level → number of relevant documents for iprec_at_recall / 11pt_avg.
    pub recall_rounding: Option<RecallRounding>,
    /// Also report each measure's standard deviation over the evaluated queries in `Evaluation.std`, as ranx's
    /// `evaluate(..., return_std=True)` does (numpy's population standard deviation, ddof 0). Default false.
    pub return_std: Option<bool>,
    /// Intent-aware (diversity) qrels, `qid subtopic docno grade` per line (TREC Web track / ndeval format), for
    /// ndeval's measures (`alpha_nDCG@k`, `ERR_IA@k`, `nERR_IA@k`, `P_IA@k`, `StRecall@k`, `AP_IA`, `NRBP`,
    /// `nNRBP`); the ordinary qrels still decide which queries are evaluated.
    pub intents: Option<String>,
}

impl EvaluateOptions {
    /// The measures to compute (`measures` when given, else the profile's) and the settings.
    pub fn resolve(&self, measures: &[String]) -> Result<(Vec<MeasureRequest>, EvalOptions)> {
        let (mut requests, eval) = match &self.profile {
            Some(name) => {
                let p = profile(name)?;
                (p.measures, p.options)
            }
            None => (Vec::new(), EvalOptions::default()),
        };
        if !measures.is_empty() {
            requests = parse_measures_in(measures, self.dialect.unwrap_or_default())?;
        }
        if requests.is_empty() {
            return Err(Error::invalid("measures", "no measure given (pass names such as ['map', 'ndcg@10'], or options.profile)"));
        }
        Ok((requests, self.settings_over(eval)))
    }

    /// The settings alone (the profile's, with these options over them): for measures the caller defines.
    pub fn settings(&self) -> Result<EvalOptions> {
        let base = match &self.profile {
            Some(name) => profile(name)?.options,
            None => EvalOptions::default(),
        };
        Ok(self.settings_over(base))
    }

    fn settings_over(&self, mut eval: EvalOptions) -> EvalOptions {
        let dialect = self.dialect.unwrap_or_default();
        eval.dialect = dialect;
        if dialect == Dialect::IrMeasures {
            eval.scope = QueryScope::AllQrels;
        }
        if let Some(level) = self.relevance_level {
            eval.ranking.relevance_level = level;
        }
        if let Some(max) = self.max_results {
            eval.ranking.max_results = Some(max);
        }
        if let Some(judged_only) = self.judged_only {
            eval.ranking.judged_only = judged_only;
        }
        if let Some(size) = self.collection_size {
            eval.collection_size = size;
        }
        if let Some(ties) = self.ties {
            eval.ranking.ties = ties;
        }
        if let Some(scope) = self.scope {
            eval.scope = scope;
        }
        if let Some(rounding) = self.recall_rounding {
            eval.recall_rounding = rounding;
        }
        if self.complete == Some(true) {
            eval.scope = QueryScope::AllQrels;
        }
        eval
    }

    /// `qrels` with the intent-aware qrels of [`EvaluateOptions::intents`] attached, when given.
    pub fn qrels_with_intents<'a>(&self, qrels: &'a Qrels) -> Result<Cow<'a, Qrels>> {
        match &self.intents {
            None => Ok(Cow::Borrowed(qrels)),
            Some(text) => {
                let intents = IntentQrels::parse(text).map_err(|e| e.at("options.intents"))?;
                Ok(Cow::Owned(qrels.clone().with_intents(intents)))
            }
        }
    }
}
