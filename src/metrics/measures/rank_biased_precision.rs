//! Rank-biased precision (Moffat & Zobel): `rbp` and `rbp_resid` (trec_eval's `m_rbp.c`, `m_rbp_resid.c`).

use super::gain_table::GainTable;
use crate::metrics::measure::GainPairs;
use crate::metrics::ranking::RankedRelevance;

/// The persistence p: the pair named `p` (`-m rbp.p=0.8`), default 0.9.
pub fn persistence(pairs: &GainPairs) -> f64 {
    pairs.pairs.iter().rev().find(|(name, _)| name == "p").map_or(0.9, |(_, p)| *p)
}

/// `rbp` = (1 − p) Σ_i gain_i · p^i, with gains rescaled to [0, 1] by (g − min)/(max − min) when any lies
/// outside [0, 1].
pub fn rank_biased_precision(r: &RankedRelevance, gains: &GainTable, p: f64) -> f64 {
    let mut table = gains.clone();
    let min = table.levels.iter().map(|l| l.gain).fold(f64::INFINITY, f64::min);
    let max = table.levels.iter().map(|l| l.gain).fold(f64::NEG_INFINITY, f64::max);
    if !table.levels.is_empty() && (min < 0.0 || max > 1.0) {
        for level in &mut table.levels {
            level.gain = (level.gain - min) / (max - min);
        }
    }
    let mut sum = 0.0;
    let mut weight = 1.0;
    for &rel in &r.rels {
        let gain = table.gain(rel);
        if gain != 0.0 {
            sum += gain * weight;
        }
        weight *= p;
    }
    (1.0 - p) * sum
}

/// `rbp_resid` = p^n + (1 − p) Σ_{unjudged or not-in-pool at i} p^i: how much rbp could still rise; 0 when
/// every retrieved document is judged (trec_eval's convention).
pub fn rank_biased_precision_residual(r: &RankedRelevance, p: f64) -> f64 {
    let mut unjudged = 0u64;
    let mut sum = 0.0;
    let mut weight = 1.0;
    for &rel in &r.rels {
        if rel < 0 {
            unjudged += 1;
            sum += weight;
        }
        weight *= p;
    }
    if unjudged > 0 {
        weight + (1.0 - p) * sum
    } else {
        0.0
    }
}
