//! From per-query values to the aggregate (`all`) value, as trec_eval averages.
//!
//! Means divide by the number of evaluated queries (with `-c`, every query of the qrels is evaluated, so
//! that is the number of qrels queries). Counts are sums. `gm_map` / `gm_bpref` are geometric means of
//! max(v, 0.00001). With `-c`, `num_rel` is trec_eval's own total: judgements with grade > 0 over the whole
//! qrels, whatever the relevance level.

use crate::metrics::inputs::qrels::Qrels;
use crate::metrics::measures::metric::{Aggregation, Metric};
use crate::metrics::measures::Value;

/// trec_eval's floor for geometric means (`MIN_GEO_MEAN`).
pub const MIN_GEOMETRIC_MEAN: f64 = 0.00001;

/// What an aggregate may depend on beyond the per-query values.
#[derive(Debug, Clone, Copy)]
pub struct AggregateContext<'a> {
    pub qrels: &'a Qrels,
    pub run_name: &'a str,
    /// trec_eval `-c`.
    pub complete: bool,
}

/// Arithmetic mean; 0 for no values.
pub fn mean(values: &[f64]) -> f64 {
    if values.is_empty() {
        0.0
    } else {
        values.iter().fold(0.0, |total, x| total + x) / values.len() as f64
    }
}

/// numpy's `np.std(values)`, which ranx's `return_std` calls: the population standard deviation (ddof = 0),
/// √(Σ (v − mean)² / n) with numpy's pairwise sums; NaN for no values.
pub fn standard_deviation(values: &[f64]) -> f64 {
    crate::python::numpy_sum::np_var(values, 0).sqrt()
}

/// exp(mean(ln(max(v, 0.00001)))); 0 for no values (trec_eval prints the untouched 0).
pub fn geometric_mean(values: &[f64]) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    (values.iter().map(|v| v.max(MIN_GEOMETRIC_MEAN).ln()).fold(0.0, |total, x| total + x) / values.len() as f64).exp()
}

/// Judgements with grade > 0 in the whole qrels (trec_eval's `num_rel` total under `-c`).
pub fn positive_judgements(qrels: &Qrels) -> u64 {
    qrels.queries().iter().flat_map(|q| &q.grade_counts).filter(|(g, _)| *g > 0).map(|(_, c)| c).sum()
}

/// The aggregate of `metric` over the per-query `values`.
pub fn aggregate(metric: &Metric, values: &[f64], context: &AggregateContext) -> Value {
    match metric.aggregation() {
        Aggregation::Mean => Value::Number(mean(values)),
        Aggregation::MeanOfDefined => {
            let defined: Vec<f64> = values.iter().copied().filter(|v| !v.is_nan()).collect();
            Value::Number(if defined.is_empty() { f64::NAN } else { mean(&defined) })
        }
        Aggregation::Sum => {
            if *metric == Metric::NumRel && context.complete {
                Value::Number(positive_judgements(context.qrels) as f64)
            } else {
                Value::Number(values.iter().fold(0.0, |total, x| total + x))
            }
        }
        Aggregation::QueryCount => Value::Number(values.len() as f64),
        Aggregation::GeometricMean => Value::Number(geometric_mean(values)),
        Aggregation::RunName => Value::Text(context.run_name.to_string()),
        Aggregation::None => Value::Text(String::new()),
    }
}
