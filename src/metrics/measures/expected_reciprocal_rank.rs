//! Expected reciprocal rank (Chapelle et al., CIKM 2009) as ir_measures computes `ERR@k`: with its gdeval
//! provider (TREC Web track's `gdeval.pl`), whose gains assume grades from 0 to 4.

use crate::metrics::evaluation::ranking::RankedRelevance;

/// The highest grade gdeval accepts (`$MAX_JUDGMENT`); its stopping probabilities divide by 2^4.
pub const MAX_GRADE: i64 = 4;

/// `ERR@k` = Σ_{i=1..k} (R_i / i) · Π_{j<i} (1 − R_j), with R = (2^g − 1) / 2^4 for grade g > 0 and R = 0 for
/// grades ≤ 0 and unjudged documents.
pub fn err_at(r: &RankedRelevance, k: u32) -> f64 {
    let mut score = 0.0;
    let mut not_stopped = 1.0;
    for (i, &rel) in r.rels.iter().take(k as usize).enumerate() {
        let grade = rel.max(0);
        let stop = ((grade as f64).exp2() - 1.0) / (MAX_GRADE as f64).exp2();
        score += stop * not_stopped / (i + 1) as f64;
        not_stopped *= 1.0 - stop;
    }
    score
}
