//! Precision family: `P_k`, `relative_P_k`, `set_P`, `set_relative_P`, `Rprec`, `Rprec_mult`.

use super::counts::relevant_in_top;
use crate::metrics::evaluation::ranking::RankedRelevance;

/// `P_k` = (relevant in top k) / k — divided by k even when fewer than k were retrieved.
pub fn precision_at(r: &RankedRelevance, k: u32) -> f64 {
    relevant_in_top(r, k as usize) as f64 / k as f64
}

/// `relative_P_k` = (relevant in top k) / min(k, R); 0 when R = 0.
pub fn relative_precision_at(r: &RankedRelevance, k: u32) -> f64 {
    if r.num_rel == 0 {
        return 0.0;
    }
    relevant_in_top(r, k as usize) as f64 / (k as u64).min(r.num_rel) as f64
}

/// `set_P` = num_rel_ret / num_ret; 0 when nothing was retrieved.
pub fn set_precision(r: &RankedRelevance) -> f64 {
    if r.num_ret == 0 {
        return 0.0;
    }
    r.num_rel_ret as f64 / r.num_ret as f64
}

/// `set_relative_P` = num_rel_ret / min(num_ret, R); 0 when either is 0.
pub fn set_relative_precision(r: &RankedRelevance) -> f64 {
    if r.num_ret == 0 || r.num_rel == 0 {
        return 0.0;
    }
    r.num_rel_ret as f64 / r.num_ret.min(r.num_rel) as f64
}

/// `Rprec` = (relevant in top min(num_ret, R)) / R; 0 when that cutoff is 0.
pub fn r_precision(r: &RankedRelevance) -> f64 {
    let cutoff = r.num_ret.min(r.num_rel);
    if cutoff == 0 {
        return 0.0;
    }
    relevant_in_top(r, cutoff as usize) as f64 / r.num_rel as f64
}

/// `Rprec_mult_f` = P at c documents, c = ⌊f × R + 0.9⌋ (trec_eval's rounding); 0 when c = 0.
pub fn r_precision_multiple(r: &RankedRelevance, factor: f64) -> f64 {
    let cutoff = (factor * r.num_rel as f64 + 0.9) as i64;
    if cutoff <= 0 {
        return 0.0;
    }
    relevant_in_top(r, cutoff as usize) as f64 / cutoff as f64
}
