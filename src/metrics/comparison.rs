//! Two runs on the same qrels, measure by measure: per-query values and differences, paired t-test and
//! randomised permutation test.
//!
//! Queries are paired by qid over the union of the two evaluations; a query evaluated for one run only
//! (the other run lacks it) counts 0 for the other run, as trec_eval `-c` would score it.

use super::evaluation::{evaluate, EvalOptions};
use super::measure::MeasureRequest;
use super::measures::Value;
use super::qrels::Qrels;
use super::run::Run;
use super::significance::{paired_t_test, permutation_test, PermutationTest, TTest};
use crate::error::Result;

/// Settings of the permutation test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PermutationSettings {
    pub trials: u32,
    pub seed: u64,
}

impl Default for PermutationSettings {
    /// ranx's defaults: 1000 permutations, seed 42.
    fn default() -> Self {
        PermutationSettings { trials: 1000, seed: 42 }
    }
}

/// One measure compared.
#[derive(Debug, Clone, PartialEq)]
pub struct MeasureComparison {
    pub key: String,
    pub mean_a: f64,
    pub mean_b: f64,
    /// Per query: (qid, value for a, value for b); b − a is the difference.
    pub per_query: Vec<(String, f64, f64)>,
    pub t_test: TTest,
    pub permutation: PermutationTest,
}

/// Compares `run_b` with `run_a` on every numeric measure of `measures`.
pub fn compare_runs(
    qrels: &Qrels,
    run_a: &Run,
    run_b: &Run,
    measures: &[MeasureRequest],
    options: &EvalOptions,
    permutation: PermutationSettings,
) -> Result<Vec<MeasureComparison>> {
    let a = evaluate(qrels, run_a, measures, options)?;
    let b = evaluate(qrels, run_b, measures, options)?;
    let mut qids: Vec<&str> = a.per_query.iter().chain(&b.per_query).map(|q| q.qid.as_str()).collect();
    qids.sort_unstable_by(|x, y| x.as_bytes().cmp(y.as_bytes()));
    qids.dedup();
    let value_of = |e: &super::Evaluation, qid: &str, m: usize| -> f64 {
        e.per_query
            .binary_search_by(|q| q.qid.as_bytes().cmp(qid.as_bytes()))
            .ok()
            .map_or(0.0, |i| match &e.per_query[i].values[m] {
                Value::Number(x) => *x,
                Value::Text(_) => f64::NAN,
            })
    };
    let mut comparisons = Vec::new();
    for (m, request) in measures.iter().enumerate() {
        if matches!(a.aggregate[m], Value::Text(_)) {
            continue;
        }
        let per_query: Vec<(String, f64, f64)> =
            qids.iter().map(|qid| (qid.to_string(), value_of(&a, qid, m), value_of(&b, qid, m))).collect();
        let values_a: Vec<f64> = per_query.iter().map(|(_, x, _)| *x).collect();
        let values_b: Vec<f64> = per_query.iter().map(|(_, _, y)| *y).collect();
        let mean = |v: &[f64]| if v.is_empty() { 0.0 } else { v.iter().fold(0.0, |s, x| s + x) / v.len() as f64 };
        comparisons.push(MeasureComparison {
            key: request.key.clone(),
            mean_a: mean(&values_a),
            mean_b: mean(&values_b),
            t_test: paired_t_test(&values_a, &values_b),
            permutation: permutation_test(&values_a, &values_b, permutation.trials, permutation.seed),
            per_query,
        });
    }
    Ok(comparisons)
}
