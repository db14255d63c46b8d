//! The training of ranx's supervised fusion methods: what each estimates from qrels and the (normalised) runs,
//! as ranx 0.3.21's `*_train` functions compute it.
//!
//! Training reads each run's **hit lists**: for every query of the qrels (sorted by query id, as ranx orders
//! them), 1 at each position of the run's list (ranx's order of the normalised run) whose document is judged
//! relevant (grade ≥ 1), else 0. A run without the query has an empty hit list there. ranx asserts that runs and
//! qrels have the same queries; rerankit trains over the qrels' queries and ignores the runs' others.
//!
//! | method | trained per run, from its hit lists h_q over the Q training queries |
//! |---|---|
//! | `posfuse`, `slidefuse` | P(i) = (Σ_q h_q[i]) / \|{q : \|h_q\| > i}\|, for i below the longest list |
//! | `probfuse` (K segments) | P(k) = (Σ_q mean(h_q[k·s_q .. (k+1)·s_q])) / Q, s_q = ⌈\|h_q\| / K⌉, an empty segment adding 0 |
//! | `segfuse` | P(k) = (Σ_q Σ h_q[b_k .. b_{k+1}] / (b_{k+1} − b_k)) / Q for the bounds b = 0, 5, 15, 35, …, 5115 |
//! | `bayesfuse` | O(i) = ln(p / (1 − p)) over the position bands 0, 5, 10, 15, 20, 30, 100, 200, 500, 1000, p the mean precision of the band (0 → 0.001, 1 − p = 0 → 0.001) |
//! | `mapfuse` | the run's MAP on the qrels (see [`super::optimize`] for the evaluation) |

use super::contribution::SEGFUSE_BOUNDS;
use super::NormalizedQuery;
use crate::error::{Error, Result};
use crate::metrics::Qrels;
use std::collections::HashMap;

/// BayesFuse's position bands.
pub const BAYESFUSE_CUTOFFS: [usize; 10] = [0, 5, 10, 15, 20, 30, 100, 200, 500, 1000];

/// Run `run`'s hit lists over the qrels' queries (sorted by id).
pub fn hit_lists(qrels: &Qrels, queries: &[NormalizedQuery], run: usize) -> Result<Vec<Vec<f64>>> {
    if qrels.queries().is_empty() {
        return Err(Error::invalid("qrels", "training needs at least one query"));
    }
    let by_id: HashMap<&str, &NormalizedQuery> = queries.iter().map(|q| (q.qid.as_str(), q)).collect();
    Ok(qrels
        .queries()
        .iter()
        .map(|judged| {
            let relevant: HashMap<&str, bool> = judged.judgements.iter().map(|j| (qrels.docno(j), j.grade >= 1)).collect();
            match by_id.get(judged.qid.as_str()) {
                Some(q) => q.runs[run].iter().map(|&(d, _)| if relevant.get(q.docs[d].as_str()) == Some(&true) { 1.0 } else { 0.0 }).collect(),
                None => Vec::new(),
            }
        })
        .collect())
}

/// PosFuse's and SlideFuse's probability of relevance of each position (ranx's `estimate_probs`).
pub fn position_probs(hits: &[Vec<f64>]) -> Vec<f64> {
    let len = hits.iter().map(Vec::len).max().unwrap_or(0);
    let (mut numerators, mut denominators) = (vec![0.0; len], vec![0.0; len]);
    for list in hits {
        for (i, h) in list.iter().enumerate() {
            denominators[i] += 1.0;
            numerators[i] += h;
        }
    }
    numerators.iter().zip(&denominators).map(|(n, d)| n / d).collect()
}

/// ProbFuse's probability of relevance of each of `segments` segments (ranx's `estimate_segment_probs`).
pub fn probfuse_probs(hits: &[Vec<f64>], segments: usize) -> Vec<f64> {
    let mut probs = vec![0.0; segments];
    for list in hits {
        let size = list.len().div_ceil(segments);
        for (k, p) in probs.iter_mut().enumerate() {
            let segment = &list[(k * size).min(list.len())..((k + 1) * size).min(list.len())];
            if !segment.is_empty() {
                *p += sum(segment) / segment.len() as f64;
            }
        }
    }
    probs.iter().map(|p| p / hits.len() as f64).collect()
}

/// SegFuse's probability of relevance of each fixed segment.
pub fn segfuse_probs(hits: &[Vec<f64>]) -> Vec<f64> {
    let mut probs = vec![0.0; SEGFUSE_BOUNDS.len() - 1];
    for list in hits {
        for (k, p) in probs.iter_mut().enumerate() {
            let (start, end) = (SEGFUSE_BOUNDS[k], SEGFUSE_BOUNDS[k + 1]);
            *p += sum(&list[start.min(list.len())..end.min(list.len())]) / (end - start) as f64;
        }
    }
    probs.iter().map(|p| p / hits.len() as f64).collect()
}

/// BayesFuse's log-odds of relevance of positions 0..1000 (ranx's `_estimate_log_odds`).
pub fn bayesfuse_log_odds(hits: &[Vec<f64>]) -> Vec<f64> {
    let mut odds = vec![0.0; BAYESFUSE_CUTOFFS[BAYESFUSE_CUTOFFS.len() - 1]];
    for band in BAYESFUSE_CUTOFFS.windows(2) {
        let (start, end) = (band[0], band[1]);
        let mut precision = 0.0;
        for list in hits {
            let found = sum(&list[start.min(list.len())..end.min(list.len())]);
            precision += found / (end - start) as f64 / hits.len() as f64;
        }
        if precision == 0.0 {
            precision += 0.001;
        }
        let mut negative = 1.0 - precision;
        if negative == 0.0 {
            negative += 0.001;
        }
        odds[start..end].fill((precision / negative).ln());
    }
    odds
}

/// Left-to-right sum from 0, as numba's `sum` over an array.
fn sum(xs: &[f64]) -> f64 {
    xs.iter().fold(0.0, |s, x| s + x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn estimates() {
        let hits = vec![vec![0.0, 1.0, 1.0], vec![1.0, 0.0]];
        assert_eq!(position_probs(&hits), [0.5, 0.5, 1.0]);
        // segments of 2 and 1 positions: (0.5 + 1) / 2, (1 + 0) / 2
        assert_eq!(probfuse_probs(&hits, 2), [0.75, 0.5]);
        assert_eq!(segfuse_probs(&hits)[..2], [(2.0 / 5.0 + 1.0 / 5.0) / 2.0, 0.0]);
        let odds = bayesfuse_log_odds(&hits);
        assert_eq!(odds.len(), 1000);
        let p: f64 = 0.4 / 2.0 + 0.2 / 2.0;
        assert_eq!(odds[0], (p / (1.0 - p)).ln());
        assert_eq!(odds[999], (0.001f64 / 0.999).ln());
    }
}
