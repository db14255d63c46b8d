//! How the runs' contributions to one document become its fused score: the Comb family of Fox & Shaw (TREC-2,
//! 1993) and the later combinations ranx builds on it, as ranx 0.3.21 computes them.
//!
//! For a document d, c_r(d) is run r's contribution (its normalised score, or a value of d's position in r — see
//! [`super::contribution`]) and R(d) the runs that retrieved d, in the runs' order. Sums run over R(d) in that
//! order, left to right, as ranx's numba loops do.

/// How the contributions of one document are combined.
#[derive(Debug, Clone, PartialEq)]
pub enum Combination {
    /// CombSUM: `Σ_{r∈R(d)} c_r(d)`.
    Sum,
    /// CombMNZ: `|R(d)| × Σ_{r∈R(d)} c_r(d)`.
    Mnz,
    /// CombMAX: `max_r c_r(d)`, a run that missed d counting −10⁹ (ranx's stand-in).
    Max,
    /// CombMIN: `min_r c_r(d)`, a run that missed d counting 10⁹ (ranx's stand-in).
    Min,
    /// CombANZ: `Σ_{r∈R(d)} c_r(d) / |R(d)|`.
    Anz,
    /// CombMED: the median of `c_r(d)` over R(d) (the mean of the two middle values for an even count).
    Med,
    /// CombGMNZ (Lee, SIGIR 1997): `Σ_{r∈R(d)} c_r(d) × |R(d)|^γ`.
    Gmnz { gamma: f64 },
    /// ranx's `log_isr` combination: `Σ_{r∈R(d)} c_r(d) × ln |R(d)|`.
    LogMnz,
    /// ranx's `logn_isr` combination: `Σ_{r∈R(d)} c_r(d) × ln(|R(d)| + σ)`.
    LognMnz { sigma: f64 },
    /// Weighted sum: `Σ_{r∈R(d)} w_r × c_r(d)` (a run that missed d counts 0).
    WeightedSum(Vec<f64>),
    /// Mixed (Wu & Crestani, CIKM 2002): `(Σ_{r∈R(d)} w_r × c_r(d)) × √|R(d)|`.
    Mixed(Vec<f64>),
    /// WMNZ: `(Σ_{r∈R(d)} c_r(d)) × (Σ_{r∈R(d)} w_r)`.
    WeightedMnz(Vec<f64>),
    /// BayesFuse's sum of log-odds: `Σ_r c_r(d)` over every run in order, a run that missed d counting
    /// `ln(0.001 / 0.999)`.
    SumOdds,
}

/// ranx's value for a run that missed the document under [`Combination::Max`] and [`Combination::Min`].
const ABSENT: f64 = 1e9;

/// The log-odds of a run that missed the document under [`Combination::SumOdds`].
pub fn min_odd() -> f64 {
    (0.001f64 / 0.999).ln()
}

impl Combination {
    /// The per-run weights of the weighted combinations.
    pub fn weights(&self) -> Option<&[f64]> {
        match self {
            Combination::WeightedSum(w) | Combination::Mixed(w) | Combination::WeightedMnz(w) => Some(w),
            _ => None,
        }
    }

    /// The fused score of a document from its contribution in every run (`None` where the run missed it).
    pub fn combine(&self, contributions: &[Option<f64>]) -> f64 {
        let present = || contributions.iter().flatten().copied();
        let n = present().count() as f64;
        let sum = || present().fold(0.0, |s, c| s + c);
        match self {
            Combination::Sum => sum(),
            Combination::Mnz => sum() * n,
            Combination::Max => contributions.iter().map(|c| c.unwrap_or(-ABSENT)).fold(f64::NEG_INFINITY, |m, c| if c > m { c } else { m }),
            Combination::Min => contributions.iter().map(|c| c.unwrap_or(ABSENT)).fold(f64::INFINITY, |m, c| if c < m { c } else { m }),
            Combination::Anz => sum() / n,
            Combination::Med => {
                let mut v: Vec<f64> = present().collect();
                v.sort_by(f64::total_cmp);
                let m = v.len() / 2;
                if v.len() % 2 == 1 {
                    v[m]
                } else {
                    (v[m - 1] + v[m]) / 2.0
                }
            }
            Combination::Gmnz { gamma } => sum() * n.powf(*gamma),
            Combination::LogMnz => sum() * n.ln(),
            Combination::LognMnz { sigma } => sum() * (n + sigma).ln(),
            Combination::WeightedSum(w) => weighted(contributions, w).fold(0.0, |s, (c, w)| s + w * c),
            Combination::Mixed(w) => weighted(contributions, w).fold(0.0, |s, (c, w)| s + c * w) * n.sqrt(),
            Combination::WeightedMnz(w) => sum() * weighted(contributions, w).fold(0.0, |s, (_, w)| s + w),
            Combination::SumOdds => {
                let absent = min_odd();
                contributions.iter().fold(0.0, |s, c| s + c.unwrap_or(absent))
            }
        }
    }
}

/// `(c_r(d), w_r)` over R(d).
fn weighted<'a>(contributions: &'a [Option<f64>], weights: &'a [f64]) -> impl Iterator<Item = (f64, f64)> + 'a {
    contributions.iter().zip(weights).filter_map(|(c, w)| c.map(|c| (c, *w)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weighted_combinations() {
        let w = vec![0.7, 0.3];
        // retrieved by both runs (normalised 0.5 and 1.0), then by the second run only (0.4)
        let both = [Some(0.5), Some(1.0)];
        assert_eq!(Combination::WeightedSum(w.clone()).combine(&both), 0.7 * 0.5 + 0.3 * 1.0);
        assert_eq!(Combination::Mixed(w.clone()).combine(&both), (0.7 * 0.5 + 0.3 * 1.0) * 2f64.sqrt());
        assert_eq!(Combination::WeightedMnz(w.clone()).combine(&both), (0.5 + 1.0) * (0.7 + 0.3));
        assert_eq!(Combination::Mixed(w.clone()).combine(&[None, Some(0.4)]), 0.3 * 0.4);
        assert_eq!(Combination::WeightedMnz(w).combine(&[None, Some(0.4)]), 0.4 * 0.3);
    }

    #[test]
    fn absent_runs_count_as_ranx_counts_them() {
        assert_eq!(Combination::Max.combine(&[None, Some(-2e9)]), -1e9);
        assert_eq!(Combination::Min.combine(&[None, Some(2e9)]), 1e9);
        assert_eq!(Combination::Min.combine(&[Some(0.2), None, Some(0.1)]), 0.1);
        assert_eq!(Combination::Med.combine(&[Some(3.0), None, Some(1.0), Some(2.0), Some(10.0)]), 2.5);
        assert_eq!(Combination::Anz.combine(&[Some(3.0), None, Some(1.0)]), 2.0);
        assert_eq!(Combination::LogMnz.combine(&[Some(3.0), None]), 0.0);
        assert_eq!(Combination::SumOdds.combine(&[Some(1.0), None]), 1.0 + min_odd());
    }
}
