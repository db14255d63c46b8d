//! The Comb family of Fox & Shaw (TREC-2, 1993), and the weighted sum, over normalised scores as ranx combines them.
//!
//! For a document d and the runs R(d) that retrieved it (scores already normalised per run and query):
//!
//! - CombSUM: `Σ_{r∈R(d)} s_r(d)`
//! - CombMNZ: `|R(d)| × Σ_{r∈R(d)} s_r(d)`
//! - CombMAX: `max_{r∈R(d)} s_r(d)`
//! - weighted sum: `Σ_r w_r × s_r(d)`, a run that did not retrieve d counting 0.
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
}

/// The running combination for one document.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CombinedScore {
    sum: f64,
    weighted_sum: f64,
    max: f64,
    runs: usize,
}

impl Default for CombinedScore {
    fn default() -> Self {
        CombinedScore { sum: 0.0, weighted_sum: 0.0, max: f64::NEG_INFINITY, runs: 0 }
    }
}

impl CombinedScore {
    /// Adds run `run`'s normalised score.
    pub fn add(&mut self, run: usize, score: f64, combination: &Combination) {
        self.sum += score;
        self.max = self.max.max(score);
        self.runs += 1;
        if let Combination::WeightedSum(weights) = combination {
            self.weighted_sum += weights[run] * score;
        }
    }

    /// The fused score.
    pub fn value(&self, combination: &Combination) -> f64 {
        match combination {
            Combination::Sum => self.sum,
            Combination::Mnz => self.sum * self.runs as f64,
            Combination::Max => self.max,
            Combination::WeightedSum(_) => self.weighted_sum,
        }
    }
}
