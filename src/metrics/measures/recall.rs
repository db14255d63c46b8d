//! Recall family: `recall_k`, `set_recall`, `success_k`, ranx's `f1@k`.

use super::counts::relevant_in_top;
use crate::metrics::evaluation::ranking::RankedRelevance;

/// `recall_k` = (relevant in top k) / R; 0 when R = 0.
pub fn recall_at(r: &RankedRelevance, k: u32) -> f64 {
    if r.num_rel == 0 {
        return 0.0;
    }
    relevant_in_top(r, k as usize) as f64 / r.num_rel as f64
}

/// `set_recall` = num_rel_ret / R; 0 when R = 0.
pub fn set_recall(r: &RankedRelevance) -> f64 {
    if r.num_rel == 0 {
        return 0.0;
    }
    r.num_rel_ret as f64 / r.num_rel as f64
}

/// `success_k` = 1 if any relevant document is in the top k, else 0.
pub fn success_at(r: &RankedRelevance, k: u32) -> f64 {
    if relevant_in_top(r, k as usize) > 0 {
        1.0
    } else {
        0.0
    }
}

/// ranx `f1@k` = 2·P·R / (P + R) with P = hits@k / k and R = hits@k / num_rel; 0 when P + R = 0.
pub fn f1_at(r: &RankedRelevance, k: u32) -> f64 {
    let hits = relevant_in_top(r, k as usize) as f64;
    let precision = hits / k as f64;
    let recall = if r.num_rel == 0 { 0.0 } else { hits / r.num_rel as f64 };
    if precision + recall == 0.0 {
        return 0.0;
    }
    2.0 * precision * recall / (precision + recall)
}
