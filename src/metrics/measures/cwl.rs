//! cwl_eval's C/W/L measures as ir_measures' cwl_eval provider runs them (`SDCG`, `NERR8`–`NERR11`, `INST`,
//! `INSQ`, `BPM`; Moffat et al.'s C/W/L framework, `cwl.ruler`). Each measure is its continuation vector C; the
//! value is the expected utility Σ_i W_i g_i over a ranking of [`CWL_DEPTH`] items, with W_1 = 1 / Σ_i Π_{j<i} C_j
//! and W_i = W_1 Π_{j<i} C_j (`CWLMetric.w_vector`). g_i is the document's grade, negative grades read as 0,
//! clipped to [min_rel, max_rel] and scaled to [0, 1] by (g − min_rel)/(max_rel − min_rel); an unjudged document and
//! the ranks past the run gain 0 (cwl_eval's worse case); every document costs 1. Ranks are 1-based below.

use super::rank_biased_precision::CWL_DEPTH;
use crate::metrics::evaluation::ranking::RankedRelevance;

/// A C/W/L measure of ir_measures' cwl_eval provider, with its parameters.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum CwlMeasure {
    /// `SDCG(max_rel=…)@k`
    Sdcg { k: u32 },
    /// `NERR8(max_rel=…)@k`
    Nerr8 { k: u32 },
    /// `NERR9(max_rel=…)@k`
    Nerr9 { k: u32 },
    /// `NERR10(p=…,max_rel=…)`
    Nerr10 { p: f64 },
    /// `NERR11(T=…,max_rel=…)`
    Nerr11 { t: f64 },
    /// `INST(T=…,max_rel=…)`
    Inst { t: f64 },
    /// `INSQ(T=…,max_rel=…)`
    Insq { t: f64 },
    /// `BPM(T=…,max_rel=…)@k`
    Bpm { t: f64, k: u32 },
}

impl CwlMeasure {
    /// The continuation probability C_i after rank i (1-based), given the gains so far.
    fn continuation(&self, rank: usize, gain: f64, cumulative_gain: f64) -> f64 {
        match *self {
            CwlMeasure::Sdcg { k } => sdcg_continuation(rank, k),
            CwlMeasure::Nerr8 { k } => nerr8_continuation(rank, gain, k),
            CwlMeasure::Nerr9 { k } => nerr9_continuation(rank, gain, k),
            CwlMeasure::Nerr10 { p } => nerr10_continuation(gain, p),
            CwlMeasure::Nerr11 { t } => nerr11_continuation(rank, gain, t),
            CwlMeasure::Inst { t } => inst_continuation(rank, cumulative_gain, t),
            CwlMeasure::Insq { t } => insq_continuation(rank, t),
            CwlMeasure::Bpm { t, k } => bpm_continuation(rank, cumulative_gain, t, k),
        }
    }

    /// ir_measures' name of the measure (its `repr`, without default parameters).
    pub fn name(&self, min_rel: i64, max_rel: i64) -> String {
        let rels = if min_rel == 0 { format!("max_rel={max_rel}") } else { format!("min_rel={min_rel},max_rel={max_rel}") };
        match *self {
            CwlMeasure::Sdcg { k } => format!("SDCG({rels})@{k}"),
            CwlMeasure::Nerr8 { k } => format!("NERR8({rels})@{k}"),
            CwlMeasure::Nerr9 { k } => format!("NERR9({rels})@{k}"),
            CwlMeasure::Nerr10 { p } => format!("NERR10(p={p},{rels})"),
            CwlMeasure::Nerr11 { t } => format!("NERR11(T={t},{rels})"),
            CwlMeasure::Inst { t } => format!("INST(T={t},{rels})"),
            CwlMeasure::Insq { t } => format!("INSQ(T={t},{rels})"),
            CwlMeasure::Bpm { t, k } => format!("BPM(T={t},{rels})@{k}"),
        }
    }

    /// The cutoff, for trec_eval's printing order.
    pub fn cutoff(&self) -> Option<u32> {
        match *self {
            CwlMeasure::Sdcg { k } | CwlMeasure::Nerr8 { k } | CwlMeasure::Nerr9 { k } | CwlMeasure::Bpm { k, .. } => Some(k),
            _ => None,
        }
    }
}

/// `SDCG@k` (cwl's `NDCGCWLMetric`): C_i = log2(i + 1) / log2(i + 2) for i < k, else 0, so W_i ∝ 1/log2(i + 1)
/// over the top k: DCG@k divided by the DCG@k of k documents of gain 1.
fn sdcg_continuation(rank: usize, k: u32) -> f64 {
    if rank < k as usize {
        ((rank + 1) as f64).ln() / ((rank + 2) as f64).ln()
    } else {
        0.0
    }
}

/// `NERR8@k` (Azzopardi et al. 2021, eq. 8): C_i = 1 − g_i for i < k, else 0.
fn nerr8_continuation(rank: usize, gain: f64, k: u32) -> f64 {
    if rank < k as usize {
        1.0 - gain
    } else {
        0.0
    }
}

/// `NERR9@k` (eq. 9): C_i = i/(i + 1) · (1 − g_i) for i < k, else 0.
fn nerr9_continuation(rank: usize, gain: f64, k: u32) -> f64 {
    if rank < k as usize {
        rank as f64 / (rank as f64 + 1.0) * (1.0 - gain)
    } else {
        0.0
    }
}

/// `NERR10(p)` (eq. 10, RBP-like): C_i = p (1 − g_i).
fn nerr10_continuation(gain: f64, p: f64) -> f64 {
    p * (1.0 - gain)
}

/// `NERR11(T)` (eq. 11, INSQ-like): C_i = ((i + 2T − 1)/(i + 2T))² (1 − g_i).
fn nerr11_continuation(rank: usize, gain: f64, t: f64) -> f64 {
    ((rank as f64 + 2.0 * t - 1.0) / (rank as f64 + 2.0 * t)).powf(2.0) * (1.0 - gain)
}

/// `INST(T)` (Moffat et al. 2015): C_i = ((i + T + T_i − 1)/(i + T + T_i))², T_i = T − Σ_{j≤i} g_j.
fn inst_continuation(rank: usize, cumulative_gain: f64, t: f64) -> f64 {
    let t_i = t - cumulative_gain;
    ((rank as f64 + t + t_i - 1.0) / (rank as f64 + t + t_i)).powf(2.0)
}

/// `INSQ(T)` (Moffat et al. 2012): C_i = ((i + 2T − 1)/(i + 2T))².
fn insq_continuation(rank: usize, t: f64) -> f64 {
    ((rank as f64 + 2.0 * t - 1.0) / (rank as f64 + 2.0 * t)).powf(2.0)
}

/// `BPM(T)@K` (static Bejewelled Player Model, Zhang et al. 2017): C_i = 1 while Σ_{j≤i} g_j < T and i < K
/// (each document costing 1), else 0 from there on.
fn bpm_continuation(rank: usize, cumulative_gain: f64, t: f64, k: u32) -> f64 {
    if cumulative_gain < t && (rank as f64) < k as f64 {
        1.0
    } else {
        0.0
    }
}

/// cwl_eval's gain of a ranked document: the grade clipped to [min_rel, max_rel] and scaled to [0, 1]. A negative
/// grade reads as 0 and an unjudged document gains 0 (min_rel ≥ 0, so both scale to 0 alike).
fn scaled_gain(rel: i64, min_rel: i64, max_rel: i64) -> f64 {
    let grade = rel.max(0).clamp(min_rel, max_rel);
    (grade - min_rel) as f64 / (max_rel - min_rel) as f64
}

/// The expected utility Σ_i W_i g_i of `measure` over the top [`CWL_DEPTH`] ranks (see the module docs).
pub fn cwl_expected_utility(r: &RankedRelevance, measure: &CwlMeasure, min_rel: i64, max_rel: i64) -> f64 {
    let mut gains = vec![0.0; CWL_DEPTH];
    for (gain, &rel) in gains.iter_mut().zip(&r.rels) {
        *gain = scaled_gain(rel, min_rel, max_rel);
    }
    let mut cumulative = 0.0;
    let continuation: Vec<f64> = gains
        .iter()
        .enumerate()
        .map(|(i, &gain)| {
            cumulative += gain;
            measure.continuation(i + 1, gain, cumulative)
        })
        .collect();
    // Π_{j<i} C_j for i = 1 … n (the empty product first), as numpy's cumprod of C[0..n-1]
    let mut products = Vec::with_capacity(CWL_DEPTH);
    let mut product = 1.0;
    products.push(product);
    for &c in &continuation[..CWL_DEPTH - 1] {
        product *= c;
        products.push(product);
    }
    let w1 = 1.0 / crate::python::numpy_sum::np_sum(&products);
    let weighted: Vec<f64> = products.iter().zip(&gains).map(|(p, g)| if *g == 0.0 { 0.0 } else { p * w1 * g }).collect();
    crate::python::numpy_sum::np_sum(&weighted)
}
