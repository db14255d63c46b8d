//! Score normalisation of one query's results before fusion, as ranx's `norm` options define it.
//!
//! With s the scores of one query in one run (n of them, in ranking order for `rank`), and ε = 1e-9 guarding
//! every denominator as ranx does:
//!
//! | norm | formula |
//! |---|---|
//! | `none` | s |
//! | `min-max` | (s − min) / max(max − min, ε) |
//! | `max` | s / max(max, ε) |
//! | `sum` | (s − min) / max(Σs − n·min, ε) |
//! | `zmuv` (z-score) | (s − mean) / max(std, ε), population standard deviation |
//! | `rank` | 1 − i/n for the document at 0-based position i of the ranking order |
//!
//! ranx's `borda` norm (which looks at all runs together) is not offered.

use crate::error::{Error, Result};

/// The guard ranx puts under every denominator.
const EPSILON: f64 = 1e-9;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Normalization {
    None,
    #[default]
    MinMax,
    Max,
    Sum,
    /// Zero mean, unit variance.
    ZScore,
    Rank,
}

crate::deserialize_by_parse!(Normalization, |s| Normalization::parse("", s));

impl Normalization {
    /// ranx's names: `"min-max"`, `"max"`, `"sum"`, `"zmuv"` (also `"z-score"`), `"rank"`, and `"none"`.
    pub fn parse(field: &str, s: &str) -> Result<Self> {
        match s {
            "none" => Ok(Normalization::None),
            "min-max" => Ok(Normalization::MinMax),
            "max" => Ok(Normalization::Max),
            "sum" => Ok(Normalization::Sum),
            "zmuv" | "z-score" => Ok(Normalization::ZScore),
            "rank" => Ok(Normalization::Rank),
            "borda" => Err(Error::unsupported(format!("{field}: \"borda\" normalisation is not offered; use \"rank\""))),
            other => Err(Error::invalid(
                field,
                format!("expected \"none\", \"min-max\", \"max\", \"sum\", \"zmuv\" (or \"z-score\") or \"rank\", got {other:?}"),
            )),
        }
    }

    /// Normalises `scores`, which must be in ranking order (score descending) for [`Normalization::Rank`].
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
            Normalization::Rank => (0..n).map(|i| 1.0 - i as f64 / n as f64).collect(),
        }
    }
}
