//! What a caller-defined measure is given (ir_measures' `define` / `define_byquery`, pkg/metrics/
//! defined_measures.ts): every query [`evaluate`](super::evaluate) scores under the same options, with its
//! judgements (docno order, as ir_measures sorts its qrels) and its ranking (the call's tie policy, `-M` cut and
//! `judgedOnly`), so that a measure of the caller's sees exactly the documents the built-in ones rank.

use super::ranking::{rank_query, RankedRelevance, RankingWorkspace};
use super::{refuse_empty, scoped_queries, EvalOptions};
use crate::error::Result;
use crate::metrics::{Qrels, Run};

/// One evaluated query's judgements and ranking.
#[derive(Debug, Clone, PartialEq)]
pub struct QueryInputs {
    pub qid: String,
    /// `(docno, grade)` in docno order; empty when the query has no judgements.
    pub judgements: Vec<(String, i64)>,
    /// `(docno, score)` from rank 1; empty when the run lacks the query.
    pub ranking: Vec<(String, f64)>,
}

/// The queries `evaluate` would score with `options`, in its order; the empty inputs it refuses are refused.
pub fn query_inputs(qrels: &Qrels, run: &Run, options: &EvalOptions) -> Result<Vec<QueryInputs>> {
    refuse_empty(qrels, run, options)?;
    let mut workspace = RankingWorkspace::default();
    let mut ranked = RankedRelevance::default();
    let mut out = Vec::new();
    for (qid, query_run, query_qrels) in scoped_queries(qrels, run, options.scope) {
        if query_run.is_none() && query_qrels.is_none() {
            continue;
        }
        let judgements = query_qrels
            .map(|q| q.judgements.iter().map(|j| (qrels.docno(j).to_string(), j.grade)).collect())
            .unwrap_or_default();
        let ranking = match query_run {
            Some(query_run) => {
                rank_query(run, query_run, query_qrels.map(|q| (qrels, q)), &options.ranking, &mut workspace, &mut ranked);
                ranked
                    .entry_at_rank
                    .iter()
                    .map(|&e| {
                        let entry = &query_run.entries[e as usize];
                        (run.docno(entry).to_string(), entry.score)
                    })
                    .collect()
            }
            None => Vec::new(),
        };
        out.push(QueryInputs { qid: qid.to_string(), judgements, ranking });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::{DuplicatePolicy, QueryScope, TiePolicy};

    fn inputs() -> (Qrels, Run) {
        let qrels = Qrels::from_triples([("1", "a", 1), ("1", "c", 0), ("2", "b", 2), ("3", "z", 1)]).unwrap();
        let run = Run::from_triples([("1", "c", 0.5), ("1", "a", 0.5), ("1", "d", 0.9), ("2", "b", 0.1), ("4", "x", 1.0)], DuplicatePolicy::keeping_first(false)).unwrap();
        (qrels, run)
    }

    #[test]
    fn queries_and_ranking_as_evaluate_sees_them() {
        let (qrels, run) = inputs();
        let got = query_inputs(&qrels, &run, &EvalOptions::default()).unwrap();
        // trec_eval's scope: queries in both; ties by docno descending
        assert_eq!(got.iter().map(|q| q.qid.as_str()).collect::<Vec<_>>(), ["1", "2"]);
        assert_eq!(got[0].judgements, [("a".to_string(), 1), ("c".to_string(), 0)]);
        assert_eq!(got[0].ranking, [("d".to_string(), 0.9), ("c".to_string(), 0.5), ("a".to_string(), 0.5)]);
        let mut options = EvalOptions::default();
        options.ranking.ties = TiePolicy::Input;
        options.ranking.max_results = Some(2);
        options.scope = QueryScope::AllQrels;
        let got = query_inputs(&qrels, &run, &options).unwrap();
        assert_eq!(got.iter().map(|q| q.qid.as_str()).collect::<Vec<_>>(), ["1", "2", "3"]);
        // the run's own order, cut at 2
        assert_eq!(got[0].ranking, [("c".to_string(), 0.5), ("a".to_string(), 0.5)]);
        assert!(got[2].ranking.is_empty() && got[2].judgements == [("z".to_string(), 1)]);
    }

    #[test]
    fn empty_inputs_are_refused_as_evaluate_refuses_them() {
        let (_, run) = inputs();
        let empty = Qrels::from_triples([]).unwrap();
        assert_eq!(query_inputs(&empty, &run, &EvalOptions::default()).unwrap_err().code, crate::ErrorCode::InvalidArgument);
        let options = EvalOptions { dialect: crate::metrics::names::dialect::Dialect::IrMeasures, ..Default::default() };
        assert_eq!(query_inputs(&empty, &run, &options).unwrap(), []);
    }
}
