//! Evaluating a run against qrels: which queries, ranking each once, every requested measure from that one
//! ranking, then the aggregates.

use super::aggregate::{aggregate, AggregateContext};
use super::measure::{MeasureRequest, Metric};
use super::measures::interpolated_precision::RecallRounding;
use super::measures::{value, QueryContext, Value};
use super::qrels::{Qrels, QueryQrels};
use super::ranking::{missing_query_ranking, rank_query, RankedRelevance, RankingOptions, RankingWorkspace};
use super::run::{QueryRun, Run};
use crate::error::{Error, Result};

/// Which queries are evaluated and averaged over.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize)]
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

/// Evaluates `run` against `qrels` on every requested measure.
pub fn evaluate(qrels: &Qrels, run: &Run, measures: &[MeasureRequest], options: &EvalOptions) -> Result<Evaluation> {
    // trec_eval refuses empty qrels; an evaluation against nothing would report zeros that look like results
    if qrels.is_empty() {
        return Err(Error::invalid("qrels", "no queries: empty qrels judge nothing"));
    }
    let mut workspace = RankingWorkspace::default();
    let mut ranked = RankedRelevance::default();
    let mut per_query = Vec::new();
    for (qid, query_run, query_qrels) in scoped_queries(qrels, run, options.scope) {
        let missing = query_run.is_none();
        match (query_run, query_qrels) {
            (Some(query_run), judged) => {
                rank_query(run, query_run, judged.map(|q| (qrels, q)), &options.ranking, &mut workspace, &mut ranked)
            }
            (None, Some(q)) => missing_query_ranking(q, options.ranking.relevance_level, &mut ranked),
            (None, None) => continue,
        }
        let context = QueryContext {
            ranked: &ranked,
            qrels: query_qrels,
            collection_size: options.collection_size,
            run_name: &run.name,
            recall_rounding: options.recall_rounding,
        };
        let values = measures
            .iter()
            .map(|request| {
                let mut v = value(&request.metric, &context);
                if missing {
                    reset_after_missing_query(&request.metric, &mut v);
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
