//! ir_measures' `Compat` (Clarke, Vtyurina & Smucker, "Assessing top-k preferences", TOIS 2021), as its compat
//! provider computes it: rank-biased overlap between the run's ranking and an ideal ranking.

use crate::metrics::evaluation::ranking::{RankedRelevance, NO_ENTRY, NO_JUDGEMENT};
use crate::metrics::inputs::qrels::QueryQrels;
use crate::metrics::inputs::run::QueryRun;

/// `Compat(p=p, normalize=n)` = RBO(R, I) = Σ_{i<D} p^i |R_{≤i} ∩ I_{≤i}| / (i + 1) ÷ Σ_{i<D} p^i, with R the
/// ranking, I the documents judged with grade > 0 sorted by grade descending, then by the run's score descending
/// (0 for one not retrieved), then in qrels order, and D = max(|R|, |I|); normalised (ir_measures' default), divided
/// by RBO(I, I) when that is > 0. 0 when D = 0.
pub fn compatibility(r: &RankedRelevance, qrels: Option<&QueryQrels>, run: Option<&QueryRun>, p: f64, normalize: bool) -> f64 {
    let judgements = qrels.map_or(&[][..], |q| &q.judgements[..]);
    // the run's score of each judged document (0 when not retrieved)
    let mut score = vec![0.0; judgements.len()];
    for (&judgement, &entry) in r.judgement_at_rank.iter().zip(&r.entry_at_rank) {
        if judgement != NO_JUDGEMENT && entry != NO_ENTRY {
            score[judgement as usize] = run.map_or(0.0, |q| q.entries[entry as usize].score);
        }
    }
    let mut ideal: Vec<u32> = (0..judgements.len() as u32).filter(|&j| judgements[j as usize].grade > 0).collect();
    // ir_measures sorts by qrels order, then (stably) by score, then by grade: one stable sort by the three keys,
    // the last sort's first, gives the same order (one instance of std's sort instead of three, and one pass)
    ideal.sort_by(|&a, &b| {
        let (ja, jb) = (&judgements[a as usize], &judgements[b as usize]);
        jb.grade
            .cmp(&ja.grade)
            .then_with(|| score[b as usize].total_cmp(&score[a as usize]))
            .then_with(|| ja.input_position.cmp(&jb.input_position))
    });
    let ranking: Vec<Option<u32>> = r.judgement_at_rank.iter().map(|&j| (j != NO_JUDGEMENT).then_some(j)).collect();
    let depth = ranking.len().max(ideal.len());
    if depth == 0 {
        return 0.0;
    }
    let value = rank_biased_overlap(&ranking, &ideal, judgements.len(), p, depth);
    if normalize {
        let own: Vec<Option<u32>> = ideal.iter().map(|&j| Some(j)).collect();
        let best = rank_biased_overlap(&own, &ideal, judgements.len(), p, depth);
        if best > 0.0 {
            return value / best;
        }
    }
    value
}

/// Σ_{i<depth} p^i · |ranking[..=i] ∩ ideal[..=i]| / (i + 1) ÷ Σ_{i<depth} p^i, in ir_measures' order of
/// operations; documents are judgement indices (an unjudged ranked document, `None`, is in no ideal ranking).
fn rank_biased_overlap(ranking: &[Option<u32>], ideal: &[u32], judged: usize, p: f64, depth: usize) -> f64 {
    let (mut in_ranking, mut in_ideal) = (vec![false; judged], vec![false; judged]);
    let mut overlap = 0u64;
    let (mut score, mut normalizer, mut weight) = (0.0f64, 0.0f64, 1.0f64);
    for i in 0..depth {
        if let Some(Some(j)) = ranking.get(i) {
            if !in_ranking[*j as usize] {
                in_ranking[*j as usize] = true;
                overlap += in_ideal[*j as usize] as u64;
            }
        }
        if let Some(&j) = ideal.get(i) {
            if !in_ideal[j as usize] {
                in_ideal[j as usize] = true;
                overlap += in_ranking[j as usize] as u64;
            }
        }
        score += weight * overlap as f64 / (i + 1) as f64;
        normalizer += weight;
        weight *= p;
    }
    score / normalizer
}
