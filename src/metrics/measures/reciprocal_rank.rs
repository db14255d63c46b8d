//! Reciprocal rank: `recip_rank` and ranx's `mrr@k`.

use crate::metrics::evaluation::ranking::RankedRelevance;

/// `recip_rank` = 1 / (rank of the first relevant document); 0 when none is retrieved.
pub fn reciprocal_rank(r: &RankedRelevance) -> f64 {
    reciprocal_rank_at(r, usize::MAX)
}

/// ranx `mrr@k` = 1 / (rank of the first relevant document) if that rank ≤ k, else 0.
pub fn reciprocal_rank_at(r: &RankedRelevance, k: usize) -> f64 {
    r.rels.iter().take(k).position(|&rel| r.is_relevant(rel)).map_or(0.0, |i| 1.0 / (i + 1) as f64)
}
