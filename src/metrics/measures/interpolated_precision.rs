//! Interpolated precision: `iprec_at_recall_x` and `11pt_avg`.
//!
//! Interpolated precision at rank i is max_{j ≥ i} P(j). At recall level x, trec_eval 10.0 takes the
//! c-th relevant retrieved document with c = round(x × R) (`lround`; 9.x used ⌊x·R + 0.9⌋) and reports the
//! interpolated precision at its rank; 0 when fewer than c relevant documents were retrieved. c = 0 behaves
//! as the first relevant document.

use crate::metrics::ranking::RankedRelevance;

/// Interpolated precision at each recall level of `levels`, computed from one backward pass.
pub fn interpolated_precision_at_recalls(r: &RankedRelevance, levels: &[f64]) -> Vec<f64> {
    if r.num_rel_ret == 0 || r.num_ret == 0 {
        return vec![0.0; levels.len()];
    }
    // best_from_relevant[c - 1] = max precision over ranks ≥ rank of the c-th relevant retrieved document.
    let mut best_from_relevant = vec![0.0; r.num_rel_ret as usize];
    let mut relevant_so_far = r.num_rel_ret;
    let mut best = r.num_rel_ret as f64 / r.num_ret as f64;
    for i in (1..=r.rels.len()).rev() {
        if relevant_so_far == 0 {
            break;
        }
        best = best.max(relevant_so_far as f64 / i as f64);
        if r.is_relevant(r.rels[i - 1]) {
            best_from_relevant[relevant_so_far as usize - 1] = best;
            relevant_so_far -= 1;
        }
    }
    levels
        .iter()
        .map(|&level| {
            let c = (level * r.num_rel as f64).round();
            if c > r.num_rel_ret as f64 {
                0.0
            } else if c < 1.0 {
                best_from_relevant[0]
            } else {
                best_from_relevant[c as usize - 1]
            }
        })
        .collect()
}

/// `iprec_at_recall_x`: interpolated precision at recall level x.
pub fn interpolated_precision_at_recall(r: &RankedRelevance, level: f64) -> f64 {
    interpolated_precision_at_recalls(r, &[level])[0]
}

/// `11pt_avg` = mean of the interpolated precision at the recall levels (default 0.0, 0.1, …, 1.0).
pub fn eleven_point_average(r: &RankedRelevance, levels: &[f64]) -> f64 {
    if levels.is_empty() {
        return 0.0;
    }
    interpolated_precision_at_recalls(r, levels).iter().fold(0.0, |total, x| total + x) / levels.len() as f64
}
