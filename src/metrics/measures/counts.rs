//! Counts per query: retrieved, relevant, relevant retrieved, judged non-relevant retrieved.

use crate::metrics::evaluation::ranking::RankedRelevance;

/// `num_ret`: documents retrieved (after the `-M` cut).
pub fn num_retrieved(r: &RankedRelevance) -> f64 {
    r.num_ret as f64
}

/// `num_rel`: documents judged with grade ≥ the relevance level.
pub fn num_relevant(r: &RankedRelevance) -> f64 {
    r.num_rel as f64
}

/// `num_rel_ret`: retrieved documents with grade ≥ the relevance level.
pub fn num_relevant_retrieved(r: &RankedRelevance) -> f64 {
    r.num_rel_ret as f64
}

/// `num_nonrel_judged_ret` = num_ret − not-in-pool − unjudged-in-pool − num_rel_ret.
pub fn num_nonrelevant_judged_retrieved(r: &RankedRelevance) -> f64 {
    (r.num_ret - r.num_nonpool - r.num_unjudged_in_pool - r.num_rel_ret) as f64
}

/// Relevant documents among the first `k` ranks (fewer when fewer were retrieved).
pub fn relevant_in_top(r: &RankedRelevance, k: usize) -> u64 {
    r.rels.iter().take(k).filter(|&&rel| r.is_relevant(rel)).count() as u64
}

/// ranx `hits@k`: relevant documents among the first k ranks.
pub fn hits_at(r: &RankedRelevance, k: u32) -> f64 {
    relevant_in_top(r, k as usize) as f64
}
