//! Evaluating a run against qrels: which queries, ranking each once, every requested measure from that one
//! ranking, then the aggregates.

pub mod aggregate;
pub mod query_inputs;
pub mod ranking;

use aggregate::{aggregate, AggregateContext};
use ranking::{missing_query_ranking, rank_query, RankedRelevance, RankingOptions, RankingWorkspace, NO_ENTRY};

use crate::error::{Error, Result};
use crate::metrics::inputs::intent_qrels::QueryIntents;
use crate::metrics::inputs::qrels::{Qrels, QueryQrels};
use crate::metrics::inputs::run::{QueryRun, Run};
use crate::metrics::measures::expected_reciprocal_rank::MAX_GRADE;
use crate::metrics::measures::intent_aware::IntentRanking;
use crate::metrics::measures::interpolated_precision::RecallRounding;
use crate::metrics::measures::metric::{Aggregation, Metric};
use crate::metrics::measures::{value, QueryContext, Value};
use crate::metrics::names::dialect::{Dialect, MeasureRequest};

/// Which queries are evaluated and averaged over: "judged" (in both the qrels and the run; trec_eval's default),
/// "qrels" (every query of the qrels, trec_eval `-c`) or "run" (every run query, judged or not; Haystack).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub enum QueryScope {
    /// Queries in both the qrels and the run (trec_eval's default; run queries without judgements are
    /// ignored). trec_eval 10.0 stops with an error when a qrels query is missing from the run; rerankit
    /// skips it as trec_eval 9 and pytrec_eval do.
    #[default]
    #[serde(rename = "judged")]
    Judged,
    /// Every query of the qrels (trec_eval `-c`): a query missing from the run is scored as trec_eval scores
    /// it (a one-document ranking of an unjudged document, then num_ret, utility, relstring, unj and
    /// rbp_resid reset to 0) — 0 for the usual measures.
    #[serde(rename = "qrels")]
    AllQrels,
    /// Every query of the run, judged or not (Haystack's `EvaluationResult`, which evaluates each query it
    /// ran).
    #[serde(rename = "run")]
    AllRun,
}

/// Evaluation settings (trec_eval's command-line options).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct EvalOptions {
    pub ranking: RankingOptions,
    pub scope: QueryScope,
    /// Number of documents in the collection (trec_eval `-N`; `utility` only).
    pub collection_size: u64,
    /// trec_eval 10.0's rounding of recall levels (default) or 9.x's, which pytrec_eval embeds.
    pub recall_rounding: RecallRounding,
    /// Whose rules hold for empty inputs: trec_eval and ranx refuse empty qrels, ranx an empty run too;
    /// ir_measures answers empty qrels with no queries (and a NaN mean, as its `calc_aggregate`).
    pub dialect: Dialect,
}

/// One query's values, parallel to [`Evaluation::measures`].
#[derive(Debug, Clone, PartialEq)]
pub struct QueryEvaluation {
    pub qid: String,
    pub values: Vec<Value>,
}

/// The result of [`evaluate`].
#[derive(Debug, Clone, PartialEq)]
pub struct Evaluation {
    pub measures: Vec<MeasureRequest>,
    /// Evaluated queries in qid byte order (trec_eval's order).
    pub per_query: Vec<QueryEvaluation>,
    /// Aggregate per measure, parallel to `measures`.
    pub aggregate: Vec<Value>,
    pub run_name: String,
}

impl Evaluation {
    /// The aggregate under `key`.
    pub fn aggregate_of(&self, key: &str) -> Option<&Value> {
        self.measures.iter().position(|m| m.key == key).map(|i| &self.aggregate[i])
    }

    /// Per measure, parallel to `measures`, the standard deviation of its per-query values as ranx's
    /// `evaluate(…, return_std=True)` reports it ([`aggregate::standard_deviation`]); NaN for a text measure and
    /// for no queries.
    pub fn standard_deviations(&self) -> Vec<f64> {
        (0..self.measures.len())
            .map(|j| {
                let values: Vec<f64> = self.per_query.iter().map(|q| q.values[j].as_f64()).collect();
                aggregate::standard_deviation(&values)
            })
            .collect()
    }
}

/// Empty inputs each tool refuses: trec_eval and ranx empty qrels (an evaluation against nothing would report
/// zeros that look like results; ir_measures answers with no queries), ranx 0.3.21 an empty run (its Run has no
/// queries to take the max over).
fn refuse_empty(qrels: &Qrels, run: &Run, options: &EvalOptions) -> Result<()> {
    if qrels.is_empty() && options.dialect != Dialect::IrMeasures {
        return Err(Error::invalid("qrels", "no queries: empty qrels judge nothing"));
    }
    if run.is_empty() && options.dialect == Dialect::Ranx {
        return Err(Error::invalid("run", "no queries: ranx refuses an empty run (give the dialect \"trec_eval\" or \"ir_measures\" to score it 0)"));
    }
    Ok(())
}

/// The queries to evaluate, in qid byte order, each with its run results and judgements.
fn scoped_queries<'a>(
    qrels: &'a Qrels,
    run: &'a Run,
    scope: QueryScope,
) -> Vec<(&'a str, Option<&'a QueryRun>, Option<&'a QueryQrels>)> {
    match scope {
        QueryScope::Judged => qrels
            .queries()
            .iter()
            .filter_map(|q| run.query(&q.qid).map(|r| (q.qid.as_str(), Some(r), Some(q))))
            .collect(),
        QueryScope::AllQrels => qrels.queries().iter().map(|q| (q.qid.as_str(), run.query(&q.qid), Some(q))).collect(),
        QueryScope::AllRun => run.queries().iter().map(|r| (r.qid.as_str(), Some(r), qrels.query(&r.qid))).collect(),
    }
}

/// trec_eval's clean-up after scoring a query missing from the run (`-c`).
fn reset_after_missing_query(metric: &Metric, value: &mut Value) {
    match metric {
        Metric::NumRet | Metric::Utility(_) | Metric::Unj(_) | Metric::RbpResid(_) => *value = Value::Number(0.0),
        Metric::Relstring { .. } => *value = Value::Text(String::new()),
        _ => {}
    }
}

/// The ranking settings of one measure: the evaluation's, with the measure's own [`Judging`] on top.
fn ranking_of(metric: &Metric, base: &RankingOptions) -> RankingOptions {
    match metric {
        Metric::Judging { judging, .. } => RankingOptions {
            relevance_level: judging.relevance_level.unwrap_or(base.relevance_level),
            judged_only: base.judged_only || judging.judged_only,
            ..*base
        },
        _ => *base,
    }
}

/// Refuses measures the qrels cannot serve: intent-aware measures without subtopic judgements, and ERR on
/// grades above gdeval's 4 (gdeval itself stops on them).
fn check_requirements(qrels: &Qrels, measures: &[MeasureRequest]) -> Result<()> {
    if let Some(request) = measures.iter().find(|r| r.metric.needs_intents()) {
        if qrels.intents().is_none() {
            return Err(Error::invalid(
                "intents",
                format!("'{}' needs intent-aware qrels (qid subtopic docno grade), given as the intents option", request.key),
            ));
        }
    }
    if let Some(request) = measures.iter().find(|r| matches!(r.metric.unjudged(), Metric::ExpectedReciprocalRank(_))) {
        let too_high = qrels.queries().iter().find(|q| q.grade_counts.last().is_some_and(|(g, _)| *g > MAX_GRADE));
        if let Some(query) = too_high {
            return Err(Error::invalid(
                "qrels",
                format!(
                    "'{}' takes grades up to {MAX_GRADE} (gdeval's gains), query '{}' has grade {}",
                    request.key,
                    query.qid,
                    query.grade_counts.last().map_or(0, |(g, _)| *g)
                ),
            ));
        }
    }
    Ok(())
}

/// Per rank, the run's document among the query's subtopic judgements.
fn intent_documents(run: &Run, query_run: Option<&QueryRun>, intents: &QueryIntents, ranked: &RankedRelevance, out: &mut Vec<Option<u32>>) {
    out.clear();
    out.extend(ranked.entry_at_rank.iter().map(|&entry| {
        let entry = query_run.filter(|_| entry != NO_ENTRY).map(|q| &q.entries[entry as usize])?;
        intents.position(run.entry_bytes(entry)).map(|i| i as u32)
    }));
}

/// Evaluates `run` against `qrels` on every requested measure.
pub fn evaluate(qrels: &Qrels, run: &Run, measures: &[MeasureRequest], options: &EvalOptions) -> Result<Evaluation> {
    refuse_empty(qrels, run, options)?;
    if qrels.is_empty() {
        // ir_measures gives an empty result in every provider: iter_calc yields nothing, and calc_aggregate's
        // mean of nothing is NaN (numpy's), its sums (NumQ, NumRel…) 0
        let of_nothing = |request: &MeasureRequest| match request.metric.aggregation() {
            Aggregation::Sum | Aggregation::QueryCount => 0.0,
            _ => f64::NAN,
        };
        let aggregate = measures.iter().map(|r| Value::Number(of_nothing(r))).collect();
        return Ok(Evaluation { measures: measures.to_vec(), per_query: Vec::new(), aggregate, run_name: run.name.clone() });
    }
    check_requirements(qrels, measures)?;
    // one ranking per distinct setting: ir_measures' rel= and judged_only= rank the query again, as its
    // pytrec_eval provider runs trec_eval once per setting
    let mut settings: Vec<RankingOptions> = Vec::new();
    let setting_of: Vec<usize> = measures
        .iter()
        .map(|request| {
            let ranking = ranking_of(&request.metric, &options.ranking);
            settings.iter().position(|s| *s == ranking).unwrap_or_else(|| {
                settings.push(ranking);
                settings.len() - 1
            })
        })
        .collect();
    let wants_intents = measures.iter().any(|r| r.metric.needs_intents());
    let mut workspace = RankingWorkspace::default();
    let mut rankings: Vec<RankedRelevance> = vec![RankedRelevance::default(); settings.len()];
    let mut documents_at_rank: Vec<Vec<Option<u32>>> = vec![Vec::new(); settings.len()];
    let mut per_query = Vec::new();
    for (qid, query_run, query_qrels) in scoped_queries(qrels, run, options.scope) {
        let missing = query_run.is_none();
        if missing && query_qrels.is_none() {
            continue;
        }
        for (setting, ranked) in settings.iter().zip(rankings.iter_mut()) {
            match (query_run, query_qrels) {
                (Some(query_run), judged) => {
                    rank_query(run, query_run, judged.map(|q| (qrels, q)), setting, &mut workspace, ranked)
                }
                (None, Some(q)) => missing_query_ranking(q, setting.relevance_level, ranked),
                (None, None) => unreachable!("skipped above"),
            }
        }
        let query_intents = if wants_intents { qrels.intents().and_then(|i| i.query(qid)) } else { None };
        if let Some(intents) = query_intents {
            for (ranked, documents) in rankings.iter().zip(documents_at_rank.iter_mut()) {
                intent_documents(run, query_run, intents, ranked, documents);
            }
        }
        let values = measures
            .iter()
            .zip(&setting_of)
            .map(|(request, &setting)| {
                let context = QueryContext {
                    ranked: &rankings[setting],
                    qrels: query_qrels,
                    run: query_run,
                    collection_size: options.collection_size,
                    run_name: &run.name,
                    recall_rounding: options.recall_rounding,
                    intents: query_intents
                        .map(|query| IntentRanking { query, document_at_rank: &documents_at_rank[setting] }),
                };
                let mut v = value(&request.metric, &context);
                if missing {
                    reset_after_missing_query(request.metric.unjudged(), &mut v);
                }
                v
            })
            .collect();
        per_query.push(QueryEvaluation { qid: qid.to_string(), values });
    }
    let context =
        AggregateContext { qrels, run_name: &run.name, complete: options.scope == QueryScope::AllQrels };
    let aggregate = measures
        .iter()
        .enumerate()
        .map(|(i, request)| {
            let values: Vec<f64> = per_query.iter().map(|q| q.values[i].as_f64()).collect();
            aggregate(&request.metric, &values, &context)
        })
        .collect();
    Ok(Evaluation { measures: measures.to_vec(), per_query, aggregate, run_name: run.name.clone() })
}
