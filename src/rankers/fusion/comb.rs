//! The Comb family of Fox & Shaw (TREC-2, 1993), and the weighted sum, over normalised scores as ranx combines them.
//!
//! For a document d and the runs R(d) that retrieved it (scores already normalised per run and query):
//!
//! - CombSUM: `Σ_{r∈R(d)} s_r(d)`
//! - CombMNZ: `|R(d)| × Σ_{r∈R(d)} s_r(d)`
//! - CombMAX: `max_{r∈R(d)} s_r(d)`
//! - weighted sum: `Σ_r w_r × s_r(d)`, a run that did not retrieve d counting 0.
//! - Mixed (Wu & Crestani, CIKM 2002): `(Σ_{r∈R(d)} w_r × s_r(d)) × √|R(d)|`
//! - WMNZ: `(Σ_{r∈R(d)} s_r(d)) × (Σ_{r∈R(d)} w_r)`
//!
//! Sums run over the runs in their given order, starting from 0, as Python's `sum` does.

/// How the normalised scores of one document are combined.
#[derive(Debug, Clone, PartialEq)]
pub enum Combination {
    Sum,
    Mnz,
    Max,
    /// One weight per run.
    WeightedSum(Vec<f64>),
    /// ranx's `mixed`: one weight per run.
    Mixed(Vec<f64>),
    /// ranx's `wmnz`: one weight per run.
    WeightedMnz(Vec<f64>),
}

impl Combination {
    /// The per-run weights of the weighted combinations.
    pub fn weights(&self) -> Option<&[f64]> {
        match self {
            Combination::WeightedSum(w) | Combination::Mixed(w) | Combination::WeightedMnz(w) => Some(w),
            _ => None,
        }
    }
}

/// The running combination for one document.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CombinedScore {
    sum: f64,
    weighted_sum: f64,
    weight_sum: f64,
    max: f64,
    runs: usize,
}

impl Default for CombinedScore {
    fn default() -> Self {
        CombinedScore { sum: 0.0, weighted_sum: 0.0, weight_sum: 0.0, max: f64::NEG_INFINITY, runs: 0 }
    }
}

impl CombinedScore {
    /// Adds run `run`'s normalised score.
    pub fn add(&mut self, run: usize, score: f64, combination: &Combination) {
        self.sum += score;
        self.max = self.max.max(score);
        self.runs += 1;
        if let Some(weights) = combination.weights() {
            self.weighted_sum += weights[run] * score;
            self.weight_sum += weights[run];
        }
    }

    /// The fused score.
    pub fn value(&self, combination: &Combination) -> f64 {
        match combination {
            Combination::Sum => self.sum,
            Combination::Mnz => self.sum * self.runs as f64,
            Combination::Max => self.max,
            Combination::WeightedSum(_) => self.weighted_sum,
            Combination::Mixed(_) => self.weighted_sum * (self.runs as f64).sqrt(),
            Combination::WeightedMnz(_) => self.sum * self.weight_sum,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn combine(combination: &Combination, scores: &[(usize, f64)]) -> f64 {
        let mut c = CombinedScore::default();
        for &(run, score) in scores {
            c.add(run, score, combination);
        }
        c.value(combination)
    }

    #[test]
    fn weighted_combinations() {
        let w = vec![0.7, 0.3];
        // retrieved by both runs (normalised 0.5 and 1.0), then by the second run only (0.4)
        assert_eq!(combine(&Combination::WeightedSum(w.clone()), &[(0, 0.5), (1, 1.0)]), 0.7 * 0.5 + 0.3 * 1.0);
        assert_eq!(combine(&Combination::Mixed(w.clone()), &[(0, 0.5), (1, 1.0)]), (0.7 * 0.5 + 0.3 * 1.0) * 2f64.sqrt());
        assert_eq!(combine(&Combination::WeightedMnz(w.clone()), &[(0, 0.5), (1, 1.0)]), (0.5 + 1.0) * (0.7 + 0.3));
        assert_eq!(combine(&Combination::Mixed(w.clone()), &[(1, 0.4)]), 0.3 * 0.4);
        assert_eq!(combine(&Combination::WeightedMnz(w), &[(1, 0.4)]), 0.4 * 0.3);
    }
}
