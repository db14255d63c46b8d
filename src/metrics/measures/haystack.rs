//! The `haystack` profile's measures (`crate::metrics::profile("haystack")`): Haystack 1.x `EvaluationResult`
//! document metrics as a run/qrels measure (`schema.py`, `_build_document_metrics_df`), per query. The node-table
//! metrics of `EvaluationResult.calculate_metrics` are `crate::eval::haystack::node_metrics`.
//!
//! Relevant = grade ≥ the relevance level; R = number of relevant documents (Haystack: the gold ids united
//! with the retrieved documents matching the relevance criterion). Haystack's quirks are kept: with R = 0 both
//! recalls are 1.0; nDCG is binary and its ideal sums over all R relevant documents, not cut at the number
//! retrieved (so a top-k list can score below 1 with every slot relevant).

use super::average_precision::average_precision;
use super::metric::HaystackMeasure;
use super::precision::set_precision;
use super::recall::set_recall;
use super::reciprocal_rank::reciprocal_rank;
use crate::metrics::evaluation::ranking::RankedRelevance;

/// The value of one Haystack document metric for one query.
pub fn haystack_value(r: &RankedRelevance, measure: HaystackMeasure) -> f64 {
    match measure {
        HaystackMeasure::RecallMultiHit => recall_multi_hit(r),
        HaystackMeasure::RecallSingleHit => recall_single_hit(r),
        // precision = rel_ret / retrieved, 0 when nothing was retrieved: trec_eval's set_P
        HaystackMeasure::Precision => set_precision(r),
        // map (per query) = Σ_{relevant at rank k} (relevant in top k)/k / R, 0 when R = 0: trec_eval's map
        HaystackMeasure::Map => average_precision(r),
        // mrr (per query) = 1 / rank of the first relevant document, 0 when none: trec_eval's recip_rank
        HaystackMeasure::Mrr => reciprocal_rank(r),
        HaystackMeasure::Ndcg => binary_ndcg(r),
    }
}

/// recall_multi_hit = rel_ret / R (trec_eval's set_recall); 1.0 when R = 0.
pub fn recall_multi_hit(r: &RankedRelevance) -> f64 {
    if r.num_rel == 0 {
        1.0
    } else {
        set_recall(r)
    }
}

/// recall_single_hit = min(rel_ret, 1); 1.0 when R = 0.
pub fn recall_single_hit(r: &RankedRelevance) -> f64 {
    if r.num_rel == 0 {
        1.0
    } else {
        r.num_rel_ret.min(1) as f64
    }
}

/// ndcg = Σ_{relevant at rank k} 1/log2(k + 1) ÷ Σ_{k=1..R} 1/log2(k + 1); the divisor is 1 when R = 0.
pub fn binary_ndcg(r: &RankedRelevance) -> f64 {
    let dcg: f64 = r
        .rels
        .iter()
        .enumerate()
        .filter(|(_, &rel)| r.is_relevant(rel))
        .map(|(i, _)| 1.0 / ((i + 2) as f64).log2())
        .fold(0.0, |total, x| total + x);
    let ideal: f64 = if r.num_rel == 0 { 1.0 } else { (1..=r.num_rel).map(|k| 1.0 / ((k + 1) as f64).log2()).fold(0.0, |total, x| total + x) };
    dcg / ideal
}
