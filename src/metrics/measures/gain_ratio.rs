//! `G` and `binG`: gain-ratio measures (trec_eval's `m_G.c`, `m_binG.c`, followed step by step).

use super::gain_table::GainTable;
use super::ndcg::IdealCursor;
use crate::metrics::evaluation::ranking::RankedRelevance;

/// `binG` = (1/R) Σ_{relevant retrieved at 0-based rank i, the n-th relevant} 1 / log2(i + 3 − n); 0 when no
/// relevant document is retrieved.
pub fn binary_g(r: &RankedRelevance) -> f64 {
    let mut relevant_so_far = 0u64;
    let mut sum = 0.0;
    for (i, &rel) in r.rels.iter().enumerate() {
        if r.is_relevant(rel) {
            relevant_so_far += 1;
            sum += 1.0 / ((3 + i) as f64 - relevant_so_far as f64).log2();
        }
    }
    if relevant_so_far > 0 {
        sum / r.num_rel as f64
    } else {
        0.0
    }
}

/// `G` = Σ_i gain_i / log2(2 + cost_i − gain_so_far_i) over the ideal's total gain, where cost_i accumulates
/// max(ideal gain at i, 1) — trec_eval's G measure.
pub fn g(r: &RankedRelevance, gains: &GainTable) -> f64 {
    const MIN_COST: f64 = 1.0;
    let mut ideal = IdealCursor::new(gains);
    let (mut results_g, mut sum_results, mut sum_ideal, mut sum_cost) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
    let n = r.rels.len();
    let mut i = 0;
    while i < n && ideal.gain > 0.0 {
        let gain = gains.gain(r.rels[i]);
        sum_results += gain;
        ideal.advance();
        if ideal.gain > 0.0 {
            sum_ideal += ideal.gain;
        }
        sum_cost += if ideal.gain >= MIN_COST { ideal.gain } else { MIN_COST };
        if gain != 0.0 {
            results_g += gain / (2.0 + sum_cost - sum_results).log2();
        }
        i += 1;
    }
    while i < n {
        let gain = gains.gain(r.rels[i]);
        sum_results += gain;
        sum_cost += MIN_COST;
        if gain != 0.0 {
            results_g += gain / (2.0 + sum_cost - sum_results).log2();
        }
        i += 1;
    }
    while ideal.gain > 0.0 {
        ideal.advance();
        if ideal.gain > 0.0 {
            sum_ideal += ideal.gain;
        }
    }
    if sum_ideal > 0.0 {
        results_g / sum_ideal
    } else {
        0.0
    }
}
