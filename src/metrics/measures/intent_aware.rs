//! Intent-aware measures over subtopic judgements, as ndeval (TREC Web track; pyndeval, ir_measures'
//! provider) computes them: alpha-(n)DCG@k (Clarke et al., SIGIR 2008), (n)ERR-IA@k (Chapelle et al., CIKM
//! 2009), (n)NRBP (Clarke et al., ICTIR 2009), P-IA@k, MAP-IA and subtopic recall; cutoffs up to 20.
//!
//! The document at rank i gains G_i = Σ_{subtopics s it is relevant to} (1 − α)^{c_s}, c_s the number of
//! documents above it relevant to s. A = the subtopics with a relevant document (ndeval's `actualSubtopics`);
//! every measure is 0 when A = 0. The `n` variants divide by the same measure of ndeval's greedy ideal
//! ranking (at each rank the judged document with the highest gain given those above, ties to the greater
//! docno; the exact ideal is NP-hard). ndeval's collection-independent normalisation skips the first rank, so
//! `alpha_DCG@1` and `ERR_IA@1` are left undivided (they can exceed 1), as there.

use crate::metrics::inputs::intent_qrels::{IntentDocument, QueryIntents};

/// ndeval's deepest cutoff (`DEPTH`).
pub const MAX_DEPTH: u32 = 20;
/// The α ir_measures passes for the measures without an `alpha` parameter (ndeval's default).
pub const DEFAULT_ALPHA: f64 = 0.5;

/// One ndeval measure with its parameters (the relevance level is given beside it).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum IntentAwareMeasure {
    AlphaDcg { k: u32, alpha: f64 },
    AlphaNdcg { k: u32, alpha: f64 },
    ErrIa { k: u32 },
    NerrIa { k: u32 },
    PrecisionIa { k: u32 },
    SubtopicRecall { k: u32 },
    ApIa,
    Nrbp { alpha: f64, beta: f64 },
    NNrbp { alpha: f64, beta: f64 },
}

impl IntentAwareMeasure {
    /// ir_measures' name with its parameters written out (`rel` only when given).
    pub fn name(&self, rel: Option<i64>) -> String {
        let rel = rel.map_or(String::new(), |l| format!("rel={l}"));
        let params = |given: &[String]| {
            let list: Vec<&str> = given.iter().map(String::as_str).chain([rel.as_str()]).filter(|p| !p.is_empty()).collect();
            if list.is_empty() {
                String::new()
            } else {
                format!("({})", list.join(","))
            }
        };
        match self {
            IntentAwareMeasure::AlphaDcg { k, alpha } => format!("alpha_DCG{}@{k}", params(&[format!("alpha={alpha}")])),
            IntentAwareMeasure::AlphaNdcg { k, alpha } => format!("alpha_nDCG{}@{k}", params(&[format!("alpha={alpha}")])),
            IntentAwareMeasure::ErrIa { k } => format!("ERR_IA{}@{k}", params(&[])),
            IntentAwareMeasure::NerrIa { k } => format!("nERR_IA{}@{k}", params(&[])),
            IntentAwareMeasure::PrecisionIa { k } => format!("P_IA{}@{k}", params(&[])),
            IntentAwareMeasure::SubtopicRecall { k } => format!("StRecall{}@{k}", params(&[])),
            IntentAwareMeasure::ApIa => format!("AP_IA{}", params(&[])),
            IntentAwareMeasure::Nrbp { alpha, beta } => format!("NRBP{}", params(&[format!("alpha={alpha}"), format!("beta={beta}")])),
            IntentAwareMeasure::NNrbp { alpha, beta } => format!("nNRBP{}", params(&[format!("alpha={alpha}"), format!("beta={beta}")])),
        }
    }

    /// The cutoff, for measures that have one.
    pub fn cutoff(&self) -> Option<u32> {
        match self {
            IntentAwareMeasure::AlphaDcg { k, .. }
            | IntentAwareMeasure::AlphaNdcg { k, .. }
            | IntentAwareMeasure::ErrIa { k }
            | IntentAwareMeasure::NerrIa { k }
            | IntentAwareMeasure::PrecisionIa { k }
            | IntentAwareMeasure::SubtopicRecall { k } => Some(*k),
            _ => None,
        }
    }

    /// The measure's value for one query's ranking at relevance level `rel`.
    pub fn value(&self, ranking: &IntentRanking, rel: i64) -> f64 {
        match *self {
            IntentAwareMeasure::AlphaDcg { k, alpha } => alpha_dcg_at(ranking, rel, alpha, k),
            IntentAwareMeasure::AlphaNdcg { k, alpha } => alpha_ndcg_at(ranking, rel, alpha, k),
            IntentAwareMeasure::ErrIa { k } => err_ia_at(ranking, rel, k),
            IntentAwareMeasure::NerrIa { k } => normalised_err_ia_at(ranking, rel, k),
            IntentAwareMeasure::PrecisionIa { k } => precision_ia_at(ranking, rel, k),
            IntentAwareMeasure::SubtopicRecall { k } => subtopic_recall_at(ranking, rel, k),
            IntentAwareMeasure::ApIa => average_precision_ia(ranking, rel),
            IntentAwareMeasure::Nrbp { alpha, beta } => nrbp(ranking, rel, alpha, beta),
            IntentAwareMeasure::NNrbp { alpha, beta } => normalised_nrbp(ranking, rel, alpha, beta),
        }
    }
}

/// A query's subtopic judgements and, per rank of the run, the judged document there (None: unjudged).
#[derive(Debug, Clone, Copy)]
pub struct IntentRanking<'a> {
    pub query: &'a QueryIntents,
    pub document_at_rank: &'a [Option<u32>],
}

impl<'a> IntentRanking<'a> {
    /// The judged documents of the first `k` ranks (None where the run's document is unjudged).
    fn documents(&self, k: u32) -> impl Iterator<Item = Option<&'a IntentDocument>> + 'a {
        let query = self.query;
        self.document_at_rank.iter().take(k as usize).map(move |d| d.map(|i| &query.documents[i as usize]))
    }
}

/// ndeval's rank discount ln 2 / ln(i + 2) for the 0-based rank i.
fn discount(i: usize) -> f64 {
    std::f64::consts::LN_2 / ((i + 2) as f64).ln()
}

/// One past the highest subtopic index of the query.
fn subtopic_slots(query: &QueryIntents) -> usize {
    query.documents.iter().flat_map(|d| d.grades.iter().map(|(s, _)| *s as usize + 1)).max().unwrap_or(0)
}

/// The novelty gain G_i of each document of `documents`, in order.
fn novelty_gains<'a>(
    documents: impl Iterator<Item = Option<&'a IntentDocument>>,
    relevance_level: i64,
    alpha: f64,
    subtopics: usize,
) -> Vec<f64> {
    let mut subtopic_gain = vec![1.0f64; subtopics];
    documents
        .map(|document| {
            let mut gain = 0.0;
            for s in document.into_iter().flat_map(|d| d.relevant_subtopics(relevance_level)) {
                gain += subtopic_gain[s as usize];
                subtopic_gain[s as usize] *= 1.0 - alpha;
            }
            gain
        })
        .collect()
}

/// The run's novelty gains over its first `k` ranks.
fn run_gains(ranking: &IntentRanking, relevance_level: i64, alpha: f64, k: u32) -> Vec<f64> {
    novelty_gains(ranking.documents(k), relevance_level, alpha, subtopic_slots(ranking.query))
}

/// The novelty gains of ndeval's greedy ideal ranking, first `k`.
fn ideal_gains(query: &QueryIntents, relevance_level: i64, alpha: f64, k: u32) -> Vec<f64> {
    let mut subtopic_gain = vec![1.0f64; subtopic_slots(query)];
    let mut used = vec![false; query.documents.len()];
    let mut gains = Vec::new();
    for _ in 0..(k as usize).min(query.documents.len()) {
        let mut best: Option<(usize, f64)> = None;
        for (i, document) in query.documents.iter().enumerate().filter(|(i, _)| !used[*i]) {
            let gain = document.relevant_subtopics(relevance_level).map(|s| subtopic_gain[s as usize]).fold(0.0, |t, g| t + g);
            // documents are in ascending docno order, so an equal gain later has the greater docno
            if best.is_none_or(|(_, best_gain)| gain >= best_gain) {
                best = Some((i, gain));
            }
        }
        let Some((chosen, gain)) = best else { break };
        used[chosen] = true;
        gains.push(gain);
        for s in query.documents[chosen].relevant_subtopics(relevance_level) {
            subtopic_gain[s as usize] *= 1.0 - alpha;
        }
    }
    gains
}

/// Σ_i weight(i) · gains_i.
fn weighted_sum(gains: &[f64], weight: impl Fn(usize) -> f64) -> f64 {
    gains.iter().enumerate().map(|(i, g)| g * weight(i)).fold(0.0, |t, x| t + x)
}

/// ndeval's "ideal ideal" normaliser Σ_{i<k} A (1 − α)^i · weight(i): every subtopic covered at every rank;
/// 1 at k = 1, where ndeval does not normalise.
fn ideal_ideal(subtopics: usize, alpha: f64, k: u32, weight: impl Fn(usize) -> f64) -> f64 {
    if k == 1 {
        return 1.0;
    }
    let gains: Vec<f64> = (0..k).scan(subtopics as f64, |gain, _| {
        let current = *gain;
        *gain *= 1.0 - alpha;
        Some(current)
    })
    .collect();
    weighted_sum(&gains, weight)
}

/// The run's measure over the ideal ranking's, 0 when the run's is 0 (ndeval's `renormalize`).
fn over_ideal(run: f64, ideal: f64) -> f64 {
    if run == 0.0 {
        0.0
    } else {
        run / ideal
    }
}

/// `alpha_DCG@k` = Σ_{i<k} G_i / log2(i + 2) ÷ Σ_{i<k} A (1 − α)^i / log2(i + 2) (undivided at k = 1).
pub fn alpha_dcg_at(ranking: &IntentRanking, rel: i64, alpha: f64, k: u32) -> f64 {
    let subtopics = ranking.query.judged_subtopics(rel);
    if subtopics == 0 {
        return 0.0;
    }
    weighted_sum(&run_gains(ranking, rel, alpha, k), discount) / ideal_ideal(subtopics, alpha, k, discount)
}

/// `alpha_nDCG@k` = Σ_{i<k} G_i / log2(i + 2) ÷ the same sum over the greedy ideal ranking.
pub fn alpha_ndcg_at(ranking: &IntentRanking, rel: i64, alpha: f64, k: u32) -> f64 {
    if ranking.query.judged_subtopics(rel) == 0 {
        return 0.0;
    }
    let run = weighted_sum(&run_gains(ranking, rel, alpha, k), discount);
    over_ideal(run, weighted_sum(&ideal_gains(ranking.query, rel, alpha, k), discount))
}

/// 1 / (i + 1) for the 0-based rank i.
fn reciprocal(i: usize) -> f64 {
    1.0 / (i + 1) as f64
}

/// `ERR_IA@k` = Σ_{i<k} G_i / (i + 1) ÷ Σ_{i<k} A (1 − α)^i / (i + 1), α = 0.5 (undivided at k = 1).
pub fn err_ia_at(ranking: &IntentRanking, rel: i64, k: u32) -> f64 {
    let subtopics = ranking.query.judged_subtopics(rel);
    if subtopics == 0 {
        return 0.0;
    }
    let err = weighted_sum(&run_gains(ranking, rel, DEFAULT_ALPHA, k), reciprocal);
    err / ideal_ideal(subtopics, DEFAULT_ALPHA, k, reciprocal)
}

/// `nERR_IA@k` = Σ_{i<k} G_i / (i + 1) ÷ the same sum over the greedy ideal ranking, α = 0.5.
pub fn normalised_err_ia_at(ranking: &IntentRanking, rel: i64, k: u32) -> f64 {
    if ranking.query.judged_subtopics(rel) == 0 {
        return 0.0;
    }
    let run = weighted_sum(&run_gains(ranking, rel, DEFAULT_ALPHA, k), reciprocal);
    over_ideal(run, weighted_sum(&ideal_gains(ranking.query, rel, DEFAULT_ALPHA, k), reciprocal))
}

/// `P_IA@k` = Σ_{i<k} |subtopics document i is relevant to| / (k · A).
pub fn precision_ia_at(ranking: &IntentRanking, rel: i64, k: u32) -> f64 {
    let subtopics = ranking.query.judged_subtopics(rel);
    if subtopics == 0 {
        return 0.0;
    }
    let pairs: usize = ranking.documents(k).flatten().map(|d| d.relevant_subtopics(rel).count()).sum();
    pairs as f64 / (k as f64 * subtopics as f64)
}

/// `StRecall@k` = |subtopics some document of the top k is relevant to| / A.
pub fn subtopic_recall_at(ranking: &IntentRanking, rel: i64, k: u32) -> f64 {
    let subtopics = ranking.query.judged_subtopics(rel);
    if subtopics == 0 {
        return 0.0;
    }
    let mut covered: Vec<u32> = ranking.documents(k).flatten().flat_map(|d| d.relevant_subtopics(rel)).collect();
    covered.sort_unstable();
    covered.dedup();
    covered.len() as f64 / subtopics as f64
}

/// `AP_IA` = (1/A) Σ_s AP_s over the whole ranking, AP_s = Σ_{i: document i relevant to s} (relevant to s in
/// the top i + 1)/(i + 1) ÷ (documents relevant to s in the qrels).
pub fn average_precision_ia(ranking: &IntentRanking, rel: i64) -> f64 {
    let subtopics = ranking.query.judged_subtopics(rel);
    if subtopics == 0 {
        return 0.0;
    }
    let slots = subtopic_slots(ranking.query);
    let mut relevant = vec![0u64; slots];
    for s in ranking.query.documents.iter().flat_map(|d| d.relevant_subtopics(rel)) {
        relevant[s as usize] += 1;
    }
    let (mut found, mut total) = (vec![0u64; slots], vec![0.0f64; slots]);
    for (i, document) in ranking.documents(u32::MAX).enumerate() {
        for s in document.into_iter().flat_map(|d| d.relevant_subtopics(rel)) {
            found[s as usize] += 1;
            total[s as usize] += found[s as usize] as f64 / (i + 1) as f64;
        }
    }
    let sum = (0..slots).filter(|&s| relevant[s] > 0).map(|s| total[s] / relevant[s] as f64).fold(0.0, |t, x| t + x);
    sum / subtopics as f64
}

/// NRBP of a list of novelty gains: (1 − (1 − α)β)/A · Σ_i G_i β^i.
fn nrbp_of(gains: &[f64], subtopics: usize, alpha: f64, beta: f64) -> f64 {
    let mut decay = 1.0;
    let mut sum = 0.0;
    for gain in gains {
        sum += gain * decay;
        decay *= beta;
    }
    sum * (1.0 - (1.0 - alpha) * beta) / subtopics as f64
}

/// `NRBP(alpha=α,beta=β)` = (1 − (1 − α)β)/A · Σ_i G_i β^i over the whole ranking.
pub fn nrbp(ranking: &IntentRanking, rel: i64, alpha: f64, beta: f64) -> f64 {
    let subtopics = ranking.query.judged_subtopics(rel);
    if subtopics == 0 {
        return 0.0;
    }
    nrbp_of(&run_gains(ranking, rel, alpha, u32::MAX), subtopics, alpha, beta)
}

/// `nNRBP` = NRBP ÷ the NRBP of the greedy ideal ranking of every judged document. (ndeval divides 0 by 0,
/// NaN, for a query without relevant subtopics; rerankit gives 0.)
pub fn normalised_nrbp(ranking: &IntentRanking, rel: i64, alpha: f64, beta: f64) -> f64 {
    let subtopics = ranking.query.judged_subtopics(rel);
    if subtopics == 0 {
        return 0.0;
    }
    let run = nrbp_of(&run_gains(ranking, rel, alpha, u32::MAX), subtopics, alpha, beta);
    let ideal = nrbp_of(&ideal_gains(ranking.query, rel, alpha, u32::MAX), subtopics, alpha, beta);
    run / ideal
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::inputs::intent_qrels::IntentQrels;

    #[test]
    fn by_hand() {
        // d1 covers s1 and s2, d2 covers s1, d3 covers s3; the ideal is d1, d3, d2.
        let qrels = IntentQrels::parse("q s1 d1 1\nq s2 d1 1\nq s1 d2 1\nq s3 d3 1\n").unwrap();
        let query = qrels.query("q").unwrap();
        // run: d2, d1 (d3 missing)
        let ranking = IntentRanking { query, document_at_rank: &[Some(1), Some(0)] };
        let run = 1.0 + (0.5 + 1.0) / 3f64.log2();
        let ideal = 2.0 + 1.0 / 3f64.log2() + 0.5 / 2.0;
        assert!((alpha_ndcg_at(&ranking, 1, 0.5, 3) - run / ideal).abs() < 1e-12);
        let norm = 3.0 + 1.5 / 3f64.log2() + 0.75 / 2.0;
        assert!((alpha_dcg_at(&ranking, 1, 0.5, 3) - run / norm).abs() < 1e-12);
        let err = 1.0 + 1.5 / 2.0;
        assert!((err_ia_at(&ranking, 1, 3) - err / (3.0 + 1.5 / 2.0 + 0.75 / 3.0)).abs() < 1e-12);
        assert!((normalised_err_ia_at(&ranking, 1, 3) - err / (2.0 + 1.0 / 2.0 + 0.5 / 3.0)).abs() < 1e-12);
        assert_eq!(err_ia_at(&ranking, 1, 1), 1.0);
        assert_eq!(precision_ia_at(&ranking, 1, 2), 3.0 / 6.0);
        assert_eq!(subtopic_recall_at(&ranking, 1, 2), 2.0 / 3.0);
        // AP per subtopic: s1 (2 relevant) 1/1 + 2/2 → 1; s2 (1) 1/2; s3 (1) 0
        assert!((average_precision_ia(&ranking, 1) - (1.0 + 0.5) / 3.0).abs() < 1e-12);
        let nrbp_run = (1.0 + 1.5 * 0.5) * (1.0 - 0.25) / 3.0;
        assert!((nrbp(&ranking, 1, 0.5, 0.5) - nrbp_run).abs() < 1e-12);
        let nrbp_ideal = (2.0 + 1.0 * 0.5 + 0.5 * 0.25) * 0.75 / 3.0;
        assert!((normalised_nrbp(&ranking, 1, 0.5, 0.5) - nrbp_run / nrbp_ideal).abs() < 1e-12);
        assert_eq!(alpha_ndcg_at(&ranking, 2, 0.5, 3), 0.0);
    }
}
