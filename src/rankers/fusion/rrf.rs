//! Reciprocal rank fusion (Cormack, Clarke & Büttcher, SIGIR 2009), as ranx computes it.
//!
//! `RRF(d) = Σ_runs 1 / (k + rank_run(d))`, where `rank_run(d)` is d's 1-based position in that run's ranking
//! order (score descending, ties by doc id ascending) and runs that did not retrieve d add nothing
//! ([`super::contribution::Contribution::ReciprocalRank`]). k defaults
//! to 60. Scores only decide the order, so a normalisation matters only where it changes the order
//! (`min-max-inverted`, `borda`).

use crate::error::{Error, Result};

/// ranx's and the paper's default k.
pub const DEFAULT_K: f64 = 60.0;

/// Checks `k`: finite and ≥ 0 (so that no rank divides by zero).
pub fn check_k(k: f64) -> Result<()> {
    if !k.is_finite() || k < 0.0 {
        return Err(Error::invalid("k", format!("must be a finite number ≥ 0, got {k}")));
    }
    Ok(())
}
