//! Intent-aware measures over subtopic judgements, as ndeval (TREC Web track; pyndeval, ir_measures'
//! provider) computes them: `alpha_nDCG@k` (Clarke et al., SIGIR 2008) and `ERR_IA@k` (Chapelle et al.,
//! CIKM 2009), to depth 20 at most.
//!
//! Both credit the document at rank i with its novelty gain G_i = Σ_{subtopics s it is relevant to}
//! (1 − α)^{c_s}, c_s the number of documents above it relevant to s; a subtopic counts for the query when
//! some document is relevant to it (ndeval's `actualSubtopics`, A).

use crate::metrics::intent_qrels::{IntentDocument, QueryIntents};

/// ndeval's deepest cutoff (`DEPTH`).
pub const MAX_DEPTH: u32 = 20;
/// The α of `ERR_IA` (ir_measures passes ndeval's default for measures without an `alpha` parameter).
pub const ERR_IA_ALPHA: f64 = 0.5;

/// A query's subtopic judgements and, per rank of the run, the judged document there (None: unjudged).
#[derive(Debug, Clone, Copy)]
pub struct IntentRanking<'a> {
    pub query: &'a QueryIntents,
    pub document_at_rank: &'a [Option<u32>],
}

/// ndeval's rank discount ln 2 / ln(i + 2) for the 0-based rank i.
fn discount(i: usize) -> f64 {
    std::f64::consts::LN_2 / ((i + 2) as f64).ln()
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

/// One past the highest subtopic index of the query.
fn subtopic_slots(query: &QueryIntents) -> usize {
    query.documents.iter().flat_map(|d| d.grades.iter().map(|(s, _)| *s as usize + 1)).max().unwrap_or(0)
}

/// The run's novelty gains over its first `k` ranks.
fn run_gains(ranking: &IntentRanking, relevance_level: i64, alpha: f64, k: u32) -> Vec<f64> {
    let documents = ranking.document_at_rank.iter().take(k as usize);
    let query = ranking.query;
    novelty_gains(
        documents.map(|d| d.map(|i| &query.documents[i as usize])),
        relevance_level,
        alpha,
        subtopic_slots(query),
    )
}

/// ndeval's ideal ranking, first `k` novelty gains: greedily the judged document with the highest gain given
/// those above it, ties to the greater docno (the exact problem is NP-hard; ndeval's greedy is the reference).
fn ideal_gains(query: &QueryIntents, relevance_level: i64, alpha: f64, k: u32) -> Vec<f64> {
    let mut subtopic_gain = vec![1.0f64; subtopic_slots(query)];
    let mut used = vec![false; query.documents.len()];
    let mut gains = Vec::new();
    for _ in 0..(k as usize).min(query.documents.len()) {
        let mut best: Option<(usize, f64)> = None;
        for (i, document) in query.documents.iter().enumerate().filter(|(i, _)| !used[*i]) {
            let gain: f64 = document.relevant_subtopics(relevance_level).map(|s| subtopic_gain[s as usize]).fold(0.0, |t, g| t + g);
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

/// `alpha_nDCG@k` = Σ_{i<k} G_i / log2(i + 2) ÷ the same sum over ndeval's greedy ideal ranking; 0 when no
/// subtopic is relevant or the run gains nothing.
pub fn alpha_ndcg_at(ranking: &IntentRanking, relevance_level: i64, alpha: f64, k: u32) -> f64 {
    if ranking.query.judged_subtopics(relevance_level) == 0 {
        return 0.0;
    }
    let dcg = |gains: Vec<f64>| gains.iter().enumerate().map(|(i, g)| g * discount(i)).fold(0.0, |t, x| t + x);
    let run = dcg(run_gains(ranking, relevance_level, alpha, k));
    if run == 0.0 {
        return 0.0;
    }
    run / dcg(ideal_gains(ranking.query, relevance_level, alpha, k))
}

/// `ERR_IA@k` = Σ_{i<k} G_i/(i + 1) ÷ Σ_{i<k} A(1 − α)^i/(i + 1) with α = 0.5 (ndeval's collection-independent
/// "ideal ideal" normalisation). At k = 1 ndeval leaves the sum undivided (its normalising loop starts at the
/// second rank), so `ERR_IA@1` = G_1, as there. 0 when no subtopic is relevant.
pub fn err_ia_at(ranking: &IntentRanking, relevance_level: i64, k: u32) -> f64 {
    let subtopics = ranking.query.judged_subtopics(relevance_level);
    if subtopics == 0 {
        return 0.0;
    }
    let alpha = ERR_IA_ALPHA;
    let err = run_gains(ranking, relevance_level, alpha, k).iter().enumerate().map(|(i, g)| g / (i + 1) as f64).fold(0.0, |t, x| t + x);
    if k == 1 {
        return err;
    }
    let mut ideal_gain = subtopics as f64;
    let mut ideal = 0.0;
    for i in 0..k as usize {
        ideal += ideal_gain / (i + 1) as f64;
        ideal_gain *= 1.0 - alpha;
    }
    err / ideal
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::intent_qrels::IntentQrels;

    #[test]
    fn alpha_ndcg_by_hand() {
        // d1 covers s1 and s2, d2 covers s1, d3 covers s3; the ideal is d1, d3, d2.
        let qrels = IntentQrels::parse("q s1 d1 1\nq s2 d1 1\nq s1 d2 1\nq s3 d3 1\n").unwrap();
        let query = qrels.query("q").unwrap();
        // run: d2, d1 (d3 missing)
        let ranking = IntentRanking { query, document_at_rank: &[Some(1), Some(0)] };
        let run = 1.0 + (0.5 + 1.0) / 3f64.log2();
        let ideal = 2.0 + 1.0 / 3f64.log2() + 0.5 / 2.0;
        assert!((alpha_ndcg_at(&ranking, 1, 0.5, 3) - run / ideal).abs() < 1e-12);
        let err = 1.0 + 1.5 / 2.0;
        let norm = 3.0 + 1.5 / 2.0 + 0.75 / 3.0;
        assert!((err_ia_at(&ranking, 1, 3) - err / norm).abs() < 1e-12);
        assert_eq!(err_ia_at(&ranking, 1, 1), 1.0);
        assert_eq!(alpha_ndcg_at(&ranking, 2, 0.5, 3), 0.0);
    }
}
