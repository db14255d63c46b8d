//! Discounted cumulative gain family: `ndcg`, `dcg`, `ideal_dcg`, `ndcg_cut_k`, `ndcg_rel`, `Rndcg`, and ranx's
//! `ndcg_burges` (gain 2^g − 1). Discount: log2(rank + 1).

use super::gain_table::GainTable;
use crate::metrics::inputs::qrels::QueryQrels;
use crate::metrics::evaluation::ranking::RankedRelevance;

/// log2(rank + 1) for a 0-based index i: log2(i + 2).
#[inline]
fn discount(i: usize) -> f64 {
    ((i + 2) as f64).log2()
}

/// DCG = Σ_i gain(rel_i) / log2(i + 2) over the retrieved documents.
pub fn dcg(r: &RankedRelevance, gains: &GainTable) -> f64 {
    r.rels.iter().map(|&rel| gains.gain(rel)).enumerate().filter(|(_, gain)| *gain != 0.0).map(|(i, gain)| gain / discount(i)).fold(0.0, |total, x| total + x)
}

/// Ideal DCG over every judged document: the positive gains sorted descending, discounted by position.
pub fn ideal_dcg(gains: &GainTable) -> f64 {
    gains.ideal_gains().enumerate().map(|(i, gain)| gain / discount(i)).fold(0.0, |total, x| total + x)
}

/// `ndcg` = DCG / ideal DCG (gain = grade unless `level=gain` pairs say otherwise); 0 when ideal DCG = 0.
pub fn ndcg(r: &RankedRelevance, gains: &GainTable) -> f64 {
    let ideal = ideal_dcg(gains);
    if ideal > 0.0 {
        dcg(r, gains) / ideal
    } else {
        0.0
    }
}

/// `ndcg_cut_k` = DCG@k / ideal DCG@k, gain = grade (grades > 0 only), ideal over all judged documents cut at
/// k; 0 when ideal DCG@k = 0.
pub fn ndcg_at(r: &RankedRelevance, query: Option<&QueryQrels>, k: u32) -> f64 {
    let gains = r.rels.iter().map(|&rel| if rel > 0 { rel as f64 } else { 0.0 });
    cut_ndcg(gains, ideal_grades(query).map(|grade| grade as f64), k)
}

/// ir_measures `nDCG(gains={…})@k`: `ndcg_cut_k` on qrels whose grades were mapped through the gains (its
/// pytrec_eval provider rewrites the qrels so), i.e. DCG@k / ideal DCG@k with the gain table's gains.
pub fn ndcg_at_with_gains(r: &RankedRelevance, gains: &GainTable, k: u32) -> f64 {
    cut_ndcg(r.rels.iter().map(|&rel| gains.gain(rel).max(0.0)), gains.ideal_gains(), k)
}

/// DCG@k of `gains` over DCG@k of `ideal`; the DCG itself when the ideal's is 0 (trec_eval's `ndcg_cut`).
fn cut_ndcg(gains: impl Iterator<Item = f64>, ideal: impl Iterator<Item = f64>, k: u32) -> f64 {
    let k = k as usize;
    let dcg: f64 = gains.take(k).enumerate().filter(|(_, gain)| *gain > 0.0).map(|(i, gain)| gain / discount(i)).fold(0.0, |total, x| total + x);
    let ideal: f64 = ideal.take(k).enumerate().map(|(i, gain)| gain / discount(i)).fold(0.0, |total, x| total + x);
    if ideal > 0.0 {
        dcg / ideal
    } else {
        dcg
    }
}

/// Judged grades > 0, highest first.
fn ideal_grades(query: Option<&QueryQrels>) -> impl Iterator<Item = i64> + '_ {
    query
        .into_iter()
        .flat_map(|q| q.grade_counts.iter().rev())
        .filter(|(grade, _)| *grade > 0)
        .flat_map(|&(grade, count)| std::iter::repeat(grade).take(count as usize))
}

/// ranx `ndcg_burges@k` = Σ_{i<k} (2^g_i − 1)/log2(i+2) over the ideal's same sum, gaining only from positive
/// grades at or above the relevance level (ranx's `-lN` drops the judgements below N from the qrels, in the ideal
/// ranking too; at the default level 1 that is every positive grade); `k = None` for the whole ranking.
pub fn ndcg_burges(r: &RankedRelevance, query: Option<&QueryQrels>, k: Option<u32>) -> f64 {
    let k = k.map_or(usize::MAX, |k| k as usize);
    let least = r.relevance_level.max(1);
    let ideal_grades = || ideal_grades(query).filter(move |grade| *grade >= least);
    // (2^g − 1) · 2^−m with m the highest grade: the ratio is unchanged and huge grades do not overflow.
    let highest = ideal_grades().next().unwrap_or(0);
    let scale = if highest > 512 { highest as f64 } else { 0.0 };
    let burges = |grade: i64| (grade as f64 - scale).exp2() - (-scale).exp2();
    let dcg: f64 = r
        .rels
        .iter()
        .take(k)
        .enumerate()
        .filter(|(_, &rel)| rel >= least)
        .map(|(i, &rel)| burges(rel) / discount(i))
        .fold(0.0, |total, x| total + x);
    let ideal: f64 = ideal_grades().take(k).enumerate().map(|(i, grade)| burges(grade) / discount(i)).fold(0.0, |total, x| total + x);
    if ideal > 0.0 {
        dcg / ideal
    } else {
        0.0
    }
}

/// ranx `dcg@k` (Järvelin): DCG@k = Σ_{i<k} g_i / log2(i + 2), g_i the grade of the document at rank i + 1 when
/// it is at or above the relevance level, else 0; not normalised. k = [`WHOLE_RANKING`](super::metric::WHOLE_RANKING)
/// for the whole ranking (ranx's k = 0).
pub fn dcg_at(r: &RankedRelevance, k: u32) -> f64 {
    ranx_dcg(r, k, |grade| grade as f64)
}

/// ranx `dcg_burges@k` (Burges): DCG@k = Σ_{i<k} (2^g_i − 1) / log2(i + 2), g_i as in [`dcg_at`].
pub fn dcg_burges_at(r: &RankedRelevance, k: u32) -> f64 {
    ranx_dcg(r, k, |grade| (grade as f64).exp2() - 1.0)
}

/// Σ_{i<k} gain(g_i) / log2(i + 2) over the documents judged at or above the relevance level (ranx's
/// `clean_qrels`), summed as numpy sums ranx's `weighted_hit_list / log2(arange(1, k + 1) + 1)`.
fn ranx_dcg(r: &RankedRelevance, k: u32, gain: impl Fn(i64) -> f64) -> f64 {
    let terms: Vec<f64> = r
        .rels
        .iter()
        .take(k as usize)
        .enumerate()
        .map(|(i, &rel)| if rel >= 0 && rel >= r.relevance_level { gain(rel) / discount(i) } else { 0.0 })
        .collect();
    crate::python::numpy_sum::np_sum(&terms)
}

/// `ndcg_rel`: nDCG averaged over the ranks of the relevant documents: at each retrieved document with
/// positive gain, DCG/ideal DCG so far; each relevant document not retrieved contributes the final
/// DCG/ideal DCG; the sum is divided by the number of documents with positive ideal gain (trec_eval's
/// `m_ndcg_rel.c`, followed step by step).
pub fn ndcg_relevant(r: &RankedRelevance, gains: &GainTable) -> f64 {
    let mut ideal = IdealCursor::new(gains);
    let (mut dcg, mut ideal_dcg, mut sum) = (0.0f64, 0.0f64, 0.0f64);
    let (mut num_rel, mut num_rel_ret) = (0u64, 0u64);
    let n = r.rels.len();
    let mut i = 0;
    while i < n && ideal.gain > 0.0 {
        let gain = gains.gain(r.rels[i]);
        if gain != 0.0 {
            dcg += gain / discount(i);
        }
        ideal.advance();
        if ideal.gain > 0.0 {
            num_rel += 1;
            ideal_dcg += ideal.gain / discount(i);
        }
        if gain > 0.0 {
            sum += dcg / ideal_dcg;
            num_rel_ret += 1;
        }
        i += 1;
    }
    while i < n {
        let gain = gains.gain(r.rels[i]);
        if gain != 0.0 {
            dcg += gain / discount(i);
        }
        if gain > 0.0 {
            sum += dcg / ideal_dcg;
            num_rel_ret += 1;
        }
        i += 1;
    }
    while ideal.gain > 0.0 {
        ideal.advance();
        if ideal.gain > 0.0 {
            num_rel += 1;
            ideal_dcg += ideal.gain / discount(i);
        }
        i += 1;
    }
    sum += (num_rel as f64 - num_rel_ret as f64) * dcg / ideal_dcg;
    if sum > 0.0 {
        sum / num_rel as f64
    } else {
        0.0
    }
}

/// `Rndcg`: nDCG sampled wherever the ideal ranking's gain changes level (and once after the retrieved list
/// when it outlasts the ideal), averaged over those samples (trec_eval's `m_Rndcg.c`, followed step by step);
/// 0 when R = 0 or there is no sample.
pub fn r_ndcg(r: &RankedRelevance, gains: &GainTable) -> f64 {
    if r.num_rel == 0 {
        return 0.0;
    }
    let mut ideal = IdealCursor::new(gains);
    let (mut dcg, mut ideal_dcg, mut sum) = (0.0f64, 0.0f64, 0.0f64);
    let mut samples = 0u64;
    let mut previous_gain = ideal.gain;
    let n = r.rels.len();
    let mut i = 0;
    while i < n && ideal.gain > 0.0 {
        let gain = gains.gain(r.rels[i]);
        ideal.advance();
        if previous_gain != ideal.gain {
            if ideal_dcg > 0.0 {
                sum += dcg / ideal_dcg;
                samples += 1;
            }
            previous_gain = ideal.gain;
        }
        if gain != 0.0 {
            dcg += gain / discount(i);
        }
        if ideal.gain > 0.0 {
            ideal_dcg += ideal.gain / discount(i);
        }
        i += 1;
    }
    if i < n {
        while i < n {
            let gain = gains.gain(r.rels[i]);
            if gain != 0.0 {
                dcg += gain / discount(i);
            }
            i += 1;
        }
        if ideal_dcg > 0.0 {
            sum += dcg / ideal_dcg;
            samples += 1;
        }
    }
    while ideal.gain > 0.0 {
        ideal.advance();
        if previous_gain != ideal.gain {
            if ideal_dcg > 0.0 {
                sum += dcg / ideal_dcg;
                samples += 1;
            }
            previous_gain = ideal.gain;
        }
        if ideal.gain > 0.0 {
            ideal_dcg += ideal.gain / discount(i);
        }
        i += 1;
    }
    if samples == 0 {
        0.0
    } else {
        sum / samples as f64
    }
}

/// Walks the ideal ranking one document at a time, level by level from the highest gain, as trec_eval's
/// nDCG loops do (`cur_level`, `num_at_level`, `ideal_gain`).
pub struct IdealCursor<'a> {
    levels: &'a [super::gain_table::GainLevel],
    /// Index of the current level; -1 once past the lowest.
    level: isize,
    taken_at_level: u64,
    /// Gain of the current level (0 once past the lowest).
    pub gain: f64,
}

impl<'a> IdealCursor<'a> {
    pub fn new(gains: &'a GainTable) -> Self {
        let level = gains.levels.len() as isize - 1;
        let gain = if level >= 0 { gains.levels[level as usize].gain } else { 0.0 };
        IdealCursor { levels: &gains.levels, level, taken_at_level: 0, gain }
    }

    /// Moves to the next ideal document, dropping to lower levels when the current one is used up.
    pub fn advance(&mut self) {
        self.taken_at_level += 1;
        while self.level >= 0 && self.taken_at_level > self.levels[self.level as usize].count {
            self.taken_at_level = 1;
            self.level -= 1;
            self.gain = if self.level >= 0 { self.levels[self.level as usize].gain } else { 0.0 };
        }
    }
}
