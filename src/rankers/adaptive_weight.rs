//! The adaptive reranker weight of seed 002 (Roman Parykin, 2022) and docs/parity.md §6.
//!
//! The more a reranker rearranges the retrieved documents, the more its score should weigh. With `x_i` the rank
//! of document i before reranking and `y_i` its rank after (0-based, by score descending, stable for ties):
//!
//! - `RMSE = sqrt((1/n) Σ (y_i − x_i)²)`
//! - `MAE  = (1/n) Σ |y_i − x_i|`
//! - adaptive weight `ARW = max(e, w_min)`, with e the error (not normalised) and `w_min` = `min_weight`.
//!
//! The blog computes `np.argsort(scores)` (the ascending sorting permutation) rather than ranks; on its example
//! both give RMSE 2.23606797749979 and MAE 1.6. rerankit uses ranks, which is what the blog's prose means.
//!
//! Combined score (the blog's `scoring`): `(s × retriever_weight + r × reranker_weight) / 2`; with both weights 1
//! this is the plain average.
//!
//! Empty score lists give error 0 (and weight `max(0, min_weight)`); lists of different lengths and non-finite
//! scores are errors.

use crate::error::{Error, Result};

/// The error function over rank changes: "rmse" (root mean square error; default) or "mae" (mean absolute error).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename_all = "lowercase"))]
pub enum PositionError {
    /// Root mean square error.
    #[default]
    Rmse,
    /// Mean absolute error.
    Mae,
}

impl PositionError {
    /// `"rmse"` or `"mae"`.
    pub fn parse(field: &str, s: &str) -> Result<Self> {
        match s {
            "rmse" => Ok(PositionError::Rmse),
            "mae" => Ok(PositionError::Mae),
            other => Err(Error::invalid(field, format!("expected \"rmse\" or \"mae\", got {other:?}"))),
        }
    }
}

crate::deserialize_by_parse!(PositionError, |s| PositionError::parse("", s));

/// Options of `adaptiveWeight`.
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct AdaptiveWeightOptions {
    /// The error over the rank changes. Default "rmse".
    pub error: PositionError,
    /// The floor of the weight (default 0).
    pub min_weight: f64,
}

/// Options of `combineScores`.
#[derive(Debug, Clone, Copy, PartialEq, serde::Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct CombineScoresOptions {
    /// The retriever score's weight. Default 1.
    pub retriever_weight: f64,
    /// The reranker score's weight. Default 1; the adaptive weight is a natural choice.
    pub reranker_weight: f64,
}

impl Default for CombineScoresOptions {
    fn default() -> Self {
        CombineScoresOptions { retriever_weight: 1.0, reranker_weight: 1.0 }
    }
}

/// The weight and the error it came from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AdaptiveWeight {
    /// `max(error, min_weight)`.
    pub weight: f64,
    /// The RMSE or MAE between the ranks before and after reranking.
    pub error: f64,
}

/// The weight, the error, and the combined scores of [`combine_with_adaptive_weight`].
#[derive(Debug, Clone, PartialEq)]
pub struct AdaptiveCombination {
    pub weight: f64,
    pub error: f64,
    pub scores: Vec<f64>,
}

/// The rank (0-based) of every item when sorted by score descending; equal scores keep input order.
pub fn ranks_by_score(scores: &[f64]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..scores.len()).collect();
    crate::stable_sort::stable_sort_by(&mut order, |&a, &b| scores[b].total_cmp(&scores[a]));
    let mut ranks = vec![0; scores.len()];
    for (rank, &i) in order.iter().enumerate() {
        ranks[i] = rank;
    }
    ranks
}

/// The adaptive reranker weight from the scores of the same documents before (retriever) and after (reranker).
pub fn adaptive_weight(before_scores: &[f64], after_scores: &[f64], error: PositionError, min_weight: f64) -> Result<AdaptiveWeight> {
    check_pair("beforeScores", before_scores, "afterScores", after_scores)?;
    if !min_weight.is_finite() {
        return Err(Error::invalid("minWeight", format!("must be a finite number, got {min_weight}")));
    }
    let n = before_scores.len();
    let e = if n == 0 {
        0.0
    } else {
        let before = ranks_by_score(before_scores);
        let after = ranks_by_score(after_scores);
        let diffs = before.iter().zip(&after).map(|(&x, &y)| y as f64 - x as f64);
        match error {
            PositionError::Rmse => (diffs.map(|d| d * d).sum::<f64>() / n as f64).sqrt(),
            PositionError::Mae => diffs.map(f64::abs).sum::<f64>() / n as f64,
        }
    };
    Ok(AdaptiveWeight { weight: e.max(min_weight), error: e })
}

/// `(s × retriever_weight + r × reranker_weight) / 2` for each pair of scores.
pub fn combine_scores(retriever_scores: &[f64], reranker_scores: &[f64], retriever_weight: f64, reranker_weight: f64) -> Result<Vec<f64>> {
    check_pair("retrieverScores", retriever_scores, "rerankerScores", reranker_scores)?;
    for (name, w) in [("retrieverWeight", retriever_weight), ("rerankerWeight", reranker_weight)] {
        if !w.is_finite() {
            return Err(Error::invalid(name, format!("must be a finite number, got {w}")));
        }
    }
    Ok(retriever_scores
        .iter()
        .zip(reranker_scores)
        .map(|(s, r)| (s * retriever_weight + r * reranker_weight) / 2.0)
        .collect())
}

/// The adaptive weight used as the reranker weight: `combine_scores(retriever, reranker, retriever_weight, ARW)`.
pub fn combine_with_adaptive_weight(
    retriever_scores: &[f64],
    reranker_scores: &[f64],
    error: PositionError,
    min_weight: f64,
    retriever_weight: f64,
) -> Result<AdaptiveCombination> {
    let arw = adaptive_weight(retriever_scores, reranker_scores, error, min_weight)?;
    let scores = combine_scores(retriever_scores, reranker_scores, retriever_weight, arw.weight)?;
    Ok(AdaptiveCombination { weight: arw.weight, error: arw.error, scores })
}

fn check_pair(a_name: &str, a: &[f64], b_name: &str, b: &[f64]) -> Result<()> {
    if a.len() != b.len() {
        return Err(Error::invalid(
            b_name,
            format!("has {} scores but {a_name} has {}; give both scores of every document", b.len(), a.len()),
        ));
    }
    for (name, list) in [(a_name, a), (b_name, b)] {
        if let Some(i) = list.iter().position(|x| !x.is_finite()) {
            return Err(Error::invalid(&format!("{name}[{i}]"), format!("{} is not a finite score", list[i])));
        }
    }
    Ok(())
}
