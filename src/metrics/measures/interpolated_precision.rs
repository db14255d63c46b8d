//! Interpolated precision: `iprec_at_recall_x` and `11pt_avg`.
//!
//! Interpolated precision at rank i is max_{j ≥ i} P(j). At recall level x, trec_eval 10.0 takes the
//! c-th relevant retrieved document with c = round(x × R) (`lround`; trec_eval 9.x — and so pytrec_eval —
//! used ⌊x·R + 0.9⌋, [`RecallRounding::TrecEval9`]) and reports the interpolated precision at its rank; 0 when
//! fewer than c relevant documents were retrieved. c = 0 behaves as the first relevant document. With nothing
//! retrieved (every document thrown out by `-J`, or `-M 0`) trec_eval's starting precision is 0/0: NaN at the
//! levels with c = 0, 0 at the others.

/// How a recall level x becomes a number of relevant documents c (of R): "trec_eval_10" (c = round(x·R), the
/// default) or "trec_eval_9" (c = ⌊x·R + 0.9⌋, what pytrec_eval embeds).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub enum RecallRounding {
    /// trec_eval 10.0: c = round(x × R).
    #[default]
    #[serde(rename = "trec_eval_10")]
    TrecEval10,
    /// trec_eval 9.x and pytrec_eval: c = ⌊x × R + 0.9⌋.
    #[serde(rename = "trec_eval_9")]
    TrecEval9,
}

impl RecallRounding {
    /// The number of relevant documents for recall level `level` with `num_rel` relevant documents.
    pub fn relevant_count(self, level: f64, num_rel: u64) -> f64 {
        match self {
            RecallRounding::TrecEval10 => (level * num_rel as f64).round(),
            RecallRounding::TrecEval9 => (level * num_rel as f64 + 0.9).trunc(),
        }
    }
}

use crate::metrics::evaluation::ranking::RankedRelevance;

/// Interpolated precision at each recall level of `levels`, computed from one backward pass.
pub fn interpolated_precision_at_recalls(r: &RankedRelevance, levels: &[f64], rounding: RecallRounding) -> Vec<f64> {
    if r.num_ret == 0 {
        // trec_eval starts from num_rel_ret / num_ret = 0/0 and gives it to every level it reaches (c = 0)
        return levels.iter().map(|&level| if rounding.relevant_count(level, r.num_rel) > 0.0 { 0.0 } else { f64::NAN }).collect();
    }
    if r.num_rel_ret == 0 {
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
            let c = rounding.relevant_count(level, r.num_rel);
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
pub fn interpolated_precision_at_recall(r: &RankedRelevance, level: f64, rounding: RecallRounding) -> f64 {
    interpolated_precision_at_recalls(r, &[level], rounding)[0]
}

/// `11pt_avg` = mean of the interpolated precision at the recall levels (default 0.0, 0.1, …, 1.0).
pub fn eleven_point_average(r: &RankedRelevance, levels: &[f64], rounding: RecallRounding) -> f64 {
    if levels.is_empty() {
        return 0.0;
    }
    interpolated_precision_at_recalls(r, levels, rounding).iter().fold(0.0, |total, x| total + x) / levels.len() as f64
}
