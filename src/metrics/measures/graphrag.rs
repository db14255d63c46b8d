//! graphrag-eval's retrieval metrics (`graphrag_eval/steps/retrieval_context_ids.py`), per query.
//!
//! Relevant = grade ≥ the relevance level, in the qrels' input order (graphrag-eval's `relevant_ids` list).
//! graphrag-eval's `average_precision` is trec_eval's `map` per query:
//! [`super::average_precision::average_precision`].

use crate::metrics::inputs::qrels::QueryQrels;
use crate::metrics::evaluation::ranking::{RankedRelevance, NO_JUDGEMENT};

/// `recall_at_k` = |first k relevant ids ∩ top k retrieved| / |first k relevant ids|; 0 without relevant ids.
///
/// graphrag-eval cuts the reference list at k as well as the retrieved list, so the divisor is min(k, R).
pub fn recall_at(r: &RankedRelevance, query: Option<&QueryQrels>, k: u32) -> f64 {
    let Some(query) = query else { return 0.0 };
    let k = k as usize;
    // Judgement indices (into the docno-sorted list) of the first k relevant ids in input order.
    let mut relevant: Vec<(u32, usize)> = query
        .judgements
        .iter()
        .enumerate()
        .filter(|(_, j)| j.grade >= r.relevance_level)
        .map(|(index, j)| (j.input_position, index))
        .collect();
    relevant.sort_unstable();
    relevant.truncate(k);
    if relevant.is_empty() {
        return 0.0;
    }
    let retrieved: Vec<u32> =
        r.judgement_at_rank.iter().take(k).copied().filter(|&j| j != NO_JUDGEMENT).collect();
    let found = relevant.iter().filter(|(_, index)| retrieved.contains(&(*index as u32))).count();
    found as f64 / relevant.len() as f64
}
