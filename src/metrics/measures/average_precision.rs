//! Average precision family: `map`, `map_cut_k`, `gm_map` (per query), `set_map`, `bpref` (trec_eval's and
//! ranx's), `infAP`.

use crate::metrics::evaluation::ranking::{RankedRelevance, NOT_IN_POOL, UNJUDGED_IN_POOL};
use crate::metrics::inputs::qrels::QueryQrels;

/// Sum over the relevant documents in the top `k` of the precision at their rank: Σ (rel so far) / rank.
fn sum_of_precisions(r: &RankedRelevance, k: usize) -> f64 {
    let mut relevant_so_far = 0u64;
    let mut sum = 0.0;
    for (i, &rel) in r.rels.iter().take(k).enumerate() {
        if r.is_relevant(rel) {
            relevant_so_far += 1;
            sum += relevant_so_far as f64 / (i + 1) as f64;
        }
    }
    sum
}

/// `map` (per query: AP) = Σ_{relevant retrieved d} P(rank(d)) / R; unretrieved relevant documents count 0;
/// 0 when R = 0.
///
/// The one average precision of every tool rerankit reproduces: trec_eval's `map` (and `gm_map` per query),
/// ranx's and ir_measures' `map` / `AP` without a cutoff, Haystack 1.x's document `map`
/// ([`super::haystack`]) and graphrag-eval's `average_precision` ([`super::graphrag`]). Their documented
/// differences are none in the formula: each divides by R, the query's relevant documents whether retrieved or
/// not (Haystack: the gold ids united with the retrieved documents that match; graphrag-eval: its
/// `relevant_ids`), and each scores 0 when R = 0. Which documents are relevant is the qrels' and the relevance
/// level's business, not a parameter here.
pub fn average_precision(r: &RankedRelevance) -> f64 {
    average_precision_at(r, usize::MAX)
}

/// `map_cut_k` = Σ_{relevant d in top k} P(rank(d)) / R.
pub fn average_precision_at(r: &RankedRelevance, k: usize) -> f64 {
    if r.num_rel == 0 {
        return 0.0;
    }
    sum_of_precisions(r, k) / r.num_rel as f64
}

/// `set_map` = num_rel_ret² / (num_ret × R); 0 when either is 0.
pub fn set_average_precision(r: &RankedRelevance) -> f64 {
    if r.num_ret == 0 || r.num_rel == 0 {
        return 0.0;
    }
    (r.num_rel_ret as f64 * r.num_rel_ret as f64) / (r.num_ret as f64 * r.num_rel as f64)
}

/// `bpref` = (1/R) Σ_{relevant retrieved d} (1 − min(n_d, R) / min(N, R)), where n_d is the number of judged
/// non-relevant documents ranked above d and N the number of judged non-relevant documents (grades ≥ 0 below
/// the relevance level). Unjudged and not-in-pool documents are skipped.
pub fn bpref(r: &RankedRelevance, num_judged_nonrelevant: u64) -> f64 {
    let mut nonrelevant_so_far = 0u64;
    let mut sum = 0.0;
    for &rel in &r.rels {
        if rel == NOT_IN_POOL || rel == UNJUDGED_IN_POOL {
            continue;
        }
        if rel >= 0 && !r.is_relevant(rel) {
            nonrelevant_so_far += 1;
        } else if nonrelevant_so_far > 0 {
            sum += 1.0
                - nonrelevant_so_far.min(r.num_rel) as f64 / num_judged_nonrelevant.min(r.num_rel) as f64;
        } else {
            sum += 1.0;
        }
    }
    if r.num_rel > 0 {
        sum / r.num_rel as f64
    } else {
        sum
    }
}

/// ranx's `bpref` (`ranx/metrics/bpref.py`) = (1/R) Σ_{relevant retrieved d} (1 − min(n_d, R) / min(R, N)), with
/// R the judgements at or above the relevance level and N every other judgement of the query — negative grades
/// included, as ranx's qrels keep them — and n_d the judged documents below the level ranked above d (documents
/// absent from the qrels are skipped). 0 when R = 0; NaN when N = 0 and a relevant document is retrieved, where
/// ranx divides 0 by 0 (trec_eval counts such a document 1).
pub fn ranx_bpref(r: &RankedRelevance, query: Option<&QueryQrels>) -> f64 {
    let num_rel = r.num_rel;
    if num_rel == 0 {
        return 0.0;
    }
    let num_nonrelevant = query.map_or(0, |q| (q.judgements.len() as u64).saturating_sub(num_rel));
    let mut nonrelevant_so_far = 0u64;
    let mut sum = 0.0;
    for &rel in &r.rels {
        if rel == NOT_IN_POOL {
            continue;
        }
        if rel == UNJUDGED_IN_POOL || !r.is_relevant(rel) {
            nonrelevant_so_far += 1;
        } else {
            sum += 1.0 - nonrelevant_so_far.min(num_rel) as f64 / num_nonrelevant.min(num_rel) as f64;
        }
    }
    sum / num_rel as f64
}

/// `infAP` (Yilmaz & Aslam), trec_eval's form: for a relevant document at 0-based rank j > 0,
/// 1/(j+1) + (j/(j+1)) · ((rel_above + nonrel_above + unjudged_above)/j) · ((rel_above + ε)/(rel_above +
/// nonrel_above + 2ε)), ε = 0.00001; 1 at j = 0; summed and divided by R.
pub fn inferred_average_precision(r: &RankedRelevance) -> f64 {
    const EPSILON: f64 = 0.00001;
    let (mut nonrelevant_so_far, mut relevant_so_far, mut unjudged_so_far) = (0u64, 0u64, 0u64);
    let mut sum = 0.0;
    for (j, &rel) in r.rels.iter().enumerate() {
        if rel == NOT_IN_POOL {
            continue;
        }
        if rel == UNJUDGED_IN_POOL {
            unjudged_so_far += 1;
            continue;
        }
        if rel >= 0 && !r.is_relevant(rel) {
            nonrelevant_so_far += 1;
            continue;
        }
        relevant_so_far += 1;
        if j == 0 {
            sum += 1.0;
        } else {
            let fj = j as f64;
            let above = (relevant_so_far - 1) as f64;
            sum += 1.0 / (fj + 1.0)
                + (fj / (fj + 1.0))
                    * ((above + nonrelevant_so_far as f64 + unjudged_so_far as f64) / fj)
                    * ((above + EPSILON) / (above + nonrelevant_so_far as f64 + 2.0 * EPSILON));
        }
    }
    if r.num_rel > 0 {
        sum / r.num_rel as f64
    } else {
        sum
    }
}
