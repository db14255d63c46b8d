//! ir_measures' `Accuracy` (its accuracy provider): how often a relevant document is ranked above a non-relevant
//! one, among the retrieved documents.

use crate::metrics::evaluation::ranking::{RankedRelevance, NOT_IN_POOL};

/// `Accuracy(rel=l)@k` = 1 − Σ_{relevant d in the top k} (non-relevant documents above d) ÷ (N · R), over the top
/// k (the whole ranking without k), R the relevant documents among them (grade ≥ l; a document absent from the
/// qrels has grade 0) and N the non-relevant ones. A query with R = 0 has no value (NaN; ir_measures reports
/// nothing for it and averages over the others), and so has one with N = 0 (ir_measures divides by zero there).
pub fn accuracy(r: &RankedRelevance, k: Option<u32>, relevance_level: i64) -> f64 {
    let depth = k.map_or(usize::MAX, |k| k as usize);
    let (mut relevant, mut nonrelevant, mut above) = (0u64, 0u64, 0u64);
    for &rel in r.rels.iter().take(depth) {
        let grade = if rel == NOT_IN_POOL { 0 } else { rel };
        if grade >= relevance_level {
            relevant += 1;
            above += nonrelevant;
        } else {
            nonrelevant += 1;
        }
    }
    if relevant == 0 || nonrelevant == 0 {
        return f64::NAN;
    }
    1.0 - above as f64 / (nonrelevant as f64 * relevant as f64)
}
