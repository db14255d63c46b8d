//! Judgement rate: ir_measures' `Judged@k` (its `judged` provider, after OpenNIR).

use crate::metrics::evaluation::ranking::{RankedRelevance, NOT_IN_POOL};

/// `Judged@k` = |judged documents in the top k| / min(k, retrieved), where judged means named in the qrels
/// with any grade (negative grades included); without k, over the whole ranking. 0 for an empty ranking.
pub fn judged_at(r: &RankedRelevance, k: Option<u32>) -> f64 {
    let depth = k.map_or(r.rels.len(), |k| (k as usize).min(r.rels.len()));
    if depth == 0 {
        return 0.0;
    }
    let judged = r.rels.iter().take(depth).filter(|&&rel| rel != NOT_IN_POOL).count();
    judged as f64 / depth as f64
}
