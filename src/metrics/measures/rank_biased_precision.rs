//! Rank-biased precision (Moffat & Zobel): trec_eval's `rbp` and `rbp_resid` (`m_rbp.c`, `m_rbp_resid.c`), and
//! ir_measures' `RBP`, whose two providers weigh the ranks differently: cwl_eval (`RBP(p=…,rel=…)`, binary
//! gains over a 1000-document C/W/L ranking) and trectools (`RBP(p=…)`, the grade as gain).

use super::gain_table::GainTable;
use super::metric::GainPairs;
use crate::metrics::evaluation::ranking::{RankedRelevance, NOT_IN_POOL};

/// The depth of cwl_eval's rankings (`RankingMaker(max_n=1000)` in ir_measures' cwl_eval provider).
pub const CWL_DEPTH: usize = 1000;

/// The persistence p: the pair named `p` (`-m rbp.p=0.8`), default 0.9.
pub fn persistence(pairs: &GainPairs) -> f64 {
    pairs.pairs.iter().rev().find(|(name, _)| name == "p").map_or(0.9, |(_, p)| *p)
}

/// Σ_i gain_i · p^i over the ranks i = 0, 1, …
fn persistence_weighted_sum(gains: impl Iterator<Item = f64>, p: f64) -> f64 {
    let mut sum = 0.0;
    let mut weight = 1.0;
    for gain in gains {
        if gain != 0.0 {
            sum += gain * weight;
        }
        weight *= p;
    }
    sum
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
    (1.0 - p) * persistence_weighted_sum(r.rels.iter().map(|&rel| table.gain(rel)), p)
}

/// ir_measures `RBP(p=p,rel=l)` (cwl_eval) = Σ_{i<1000} g_i · p^i / Σ_{i<1000} p^i, with g = 1 for a judged
/// document whose grade (negative grades read as 0) is ≥ l, else 0. The C/W/L weights are normalised over the
/// 1000 ranks, not by (1 − p).
pub fn binary_rank_biased_precision(r: &RankedRelevance, p: f64, relevance_level: i64) -> f64 {
    let gains = r.rels.iter().take(CWL_DEPTH).map(|&rel| {
        let judged_grade = if rel == NOT_IN_POOL { None } else { Some(rel.max(0)) };
        if judged_grade.is_some_and(|grade| grade >= relevance_level) {
            1.0
        } else {
            0.0
        }
    });
    let normaliser = persistence_weighted_sum(std::iter::repeat_n(1.0, CWL_DEPTH), p);
    persistence_weighted_sum(gains, p) / normaliser
}

/// ir_measures `RBP(p=p)@k` (trectools, graded) and ranx's `rbp.p` = (1 − p) Σ_{i<k} g_i · p^i with g the grade
/// when positive and at or above the relevance level (ranx's `rbp.p-lN` drops the judgements below N), else 0
/// (no rescaling: grades above 1 give values above what binary gains could); k = the whole ranking when not given.
pub fn graded_rank_biased_precision(r: &RankedRelevance, p: f64, k: Option<u32>) -> f64 {
    let depth = k.map_or(usize::MAX, |k| k as usize);
    let least = r.relevance_level.max(1);
    let gains = r.rels.iter().take(depth).map(|&rel| if rel >= least { rel as f64 } else { 0.0 });
    (1.0 - p) * persistence_weighted_sum(gains, p)
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
