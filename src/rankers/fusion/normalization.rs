//! Score normalisation of one query's results before fusion, as ranx's `norm` options define it.
//!
//! With s the scores of one query in one run (n of them, in ranking order for `rank`), and ε = 1e-9 guarding
//! every denominator as ranx does:
//!
//! | norm | formula |
//! |---|---|
//! | `none` | s |
//! | `min-max` (`min_max`) | (s − min) / max(max − min, ε) |
//! | `min-max-inverted` (`min_max_inverted`) | (max − s) / max(max − min, ε); the run is then re-ranked by the new scores, so its lowest-scored document comes first |
//! | `max` | s / max(max, ε) |
//! | `sum` | (s − min) / max(Σs − n·min, ε) |
//! | `zmuv` (z-score) | (s − mean) / max(std, ε), population standard deviation |
//! | `rank` | 1 − i/n for the document at 0-based position i of the ranking order |
//! | `borda` | over the query's candidates C (every document any run retrieved for it): 1 − i/\|C\| for the run's document at position i, 0.5 − (n − 1)/(2\|C\|) for each candidate the run did not retrieve (which then counts as retrieved by it) |
//!
//! Means and sums run left to right, as ranx's numba code computes them. ranx iterates the documents that
//! `borda` adds in the order of a Python set (which changes with the process's hash seed); rerankit ranks them
//! after the run's own documents, by doc id ascending (they share one score).

use super::run::ranking_order;
use crate::error::{Error, Result};

/// The guard ranx puts under every denominator.
const EPSILON: f64 = 1e-9;

/// Every normalisation name [`Normalization::parse`] takes.
pub const NAMES: &[&str] =
    &["none", "min-max", "min_max", "min-max-inverted", "min_max_inverted", "max", "sum", "zmuv", "z-score", "rank", "borda"];

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Normalization {
    None,
    #[default]
    MinMax,
    /// ranx's `min_max_inverted`: low scores become high ones.
    MinMaxInverted,
    Max,
    Sum,
    /// Zero mean, unit variance.
    ZScore,
    Rank,
    /// ranx's `borda`: positions over all runs' candidates for the query.
    Borda,
}

crate::deserialize_by_parse!(Normalization, |s| Normalization::parse("", s));

impl Normalization {
    /// ranx's names: `"min-max"` (`"min_max"`), `"min-max-inverted"` (`"min_max_inverted"`), `"max"`, `"sum"`,
    /// `"zmuv"` (also `"z-score"`), `"rank"`, `"borda"`, and `"none"`. An unknown name is INVALID_ARGUMENT naming
    /// `field` and the nearest valid names.
    pub fn parse(field: &str, s: &str) -> Result<Self> {
        match s {
            "none" => Ok(Normalization::None),
            "min-max" | "min_max" => Ok(Normalization::MinMax),
            "min-max-inverted" | "min_max_inverted" => Ok(Normalization::MinMaxInverted),
            "max" => Ok(Normalization::Max),
            "sum" => Ok(Normalization::Sum),
            "zmuv" | "z-score" => Ok(Normalization::ZScore),
            "rank" => Ok(Normalization::Rank),
            "borda" => Ok(Normalization::Borda),
            other => Err(Error::invalid(field, crate::options::unknown_name("normalisation", other, NAMES))),
        }
    }

    /// Normalises one run's scores of one query, given in ranking order (score descending). For
    /// [`Normalization::MinMaxInverted`] the result is in the old order (re-rank it, see [`Normalization::normalize_lists`]);
    /// [`Normalization::Borda`] needs the other runs and is computed by [`Normalization::normalize_lists`] (here it
    /// gives the `rank` values, which are borda's when no other run adds candidates).
    pub fn apply(self, scores: &[f64]) -> Vec<f64> {
        let n = scores.len();
        if n == 0 {
            return Vec::new();
        }
        let min = scores.iter().copied().fold(f64::INFINITY, f64::min);
        let max = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        match self {
            Normalization::None => scores.to_vec(),
            Normalization::MinMax => {
                let d = (max - min).max(EPSILON);
                scores.iter().map(|s| (s - min) / d).collect()
            }
            Normalization::MinMaxInverted => {
                let d = (max - min).max(EPSILON);
                scores.iter().map(|s| (max - s) / d).collect()
            }
            Normalization::Max => {
                let d = max.max(EPSILON);
                scores.iter().map(|s| s / d).collect()
            }
            Normalization::Sum => {
                let sum: f64 = scores.iter().sum();
                let d = (sum - min * n as f64).max(EPSILON);
                scores.iter().map(|s| (s - min) / d).collect()
            }
            Normalization::ZScore => {
                let mean = scores.iter().sum::<f64>() / n as f64;
                let variance = scores.iter().map(|s| (s - mean) * (s - mean)).sum::<f64>() / n as f64;
                let d = variance.sqrt().max(EPSILON);
                scores.iter().map(|s| (s - mean) / d).collect()
            }
            Normalization::Rank | Normalization::Borda => (0..n).map(|i| 1.0 - i as f64 / n as f64).collect(),
        }
    }

    /// Normalises one query of every run (`None`: the run lacks the query, which counts as no results), each
    /// list in ranking order. Returns every run's `(doc, normalised score)` list in the order ranx keeps it: the
    /// input order, re-ranked after `min-max-inverted`, and for `borda` the run's documents followed by the
    /// candidates it missed (doc id ascending).
    pub fn normalize_lists(self, lists: &[Option<Vec<(String, f64)>>]) -> Vec<Vec<(String, f64)>> {
        if self == Normalization::Borda {
            return borda(lists);
        }
        lists
            .iter()
            .map(|list| {
                let Some(list) = list else { return Vec::new() };
                let scores: Vec<f64> = list.iter().map(|(_, s)| *s).collect();
                let mut out: Vec<(String, f64)> = list.iter().zip(self.apply(&scores)).map(|((d, _), s)| (d.clone(), s)).collect();
                if self == Normalization::MinMaxInverted {
                    out.sort_by(ranking_order);
                }
                out
            })
            .collect()
    }
}

/// ranx's `borda_norm` of one query over all runs.
fn borda(lists: &[Option<Vec<(String, f64)>>]) -> Vec<Vec<(String, f64)>> {
    let mut candidates: Vec<&str> = lists.iter().flatten().flatten().map(|(d, _)| d.as_str()).collect();
    candidates.sort_unstable();
    candidates.dedup();
    let c = candidates.len() as f64;
    lists
        .iter()
        .map(|list| {
            let list: &[(String, f64)] = list.as_deref().unwrap_or(&[]);
            let retrieved: std::collections::HashSet<&str> = list.iter().map(|(d, _)| d.as_str()).collect();
            let n = list.len() as f64;
            let mut out: Vec<(String, f64)> = list.iter().enumerate().map(|(i, (d, _))| (d.clone(), 1.0 - i as f64 / c)).collect();
            let missed = 0.5 - (n - 1.0) / (2.0 * c);
            out.extend(candidates.iter().filter(|d| !retrieved.contains(*d)).map(|d| (d.to_string(), missed)));
            out
        })
        .collect()
}
