//! Reciprocal rank fusion (Cormack, Clarke & Büttcher, SIGIR 2009), as ranx computes it.
//!
//! `RRF(d) = Σ_runs 1 / (k + rank_run(d))`, where `rank_run(d)` is d's 1-based position in that run's ranking
//! order (score descending, ties by doc id ascending) and runs that did not retrieve d add nothing. k defaults
//! to 60. Scores only decide the order, so normalisation has no effect on RRF.

use super::run::{ranking_order, Results};
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

/// One run's RRF contributions for one query: `(doc_id, 1 / (k + rank))` in ranking order.
pub fn reciprocal_ranks(results: &Results, k: f64) -> Results {
    let mut ranked = results.clone();
    ranked.sort_by(ranking_order);
    ranked.into_iter().enumerate().map(|(i, (doc, _))| (doc, 1.0 / (k + (i + 1) as f64))).collect()
}
