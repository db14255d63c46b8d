//! Rank fusion over runs in ranx's shape `{query_id: {doc_id: score}}`, with every method and normalisation of
//! ranx 0.3.21.
//!
//! `fuse(runs, method, norm)` follows ranx's `fuse`: each run's scores are normalised per query
//! ([`normalization`]), then each run gives each document it ranks a contribution ([`contribution`]: its
//! normalised score, or a value of its 0-based position i in the run), and the contributions are combined per
//! document ([`comb`]), or the documents are sorted by a pairwise vote ([`condorcet`]). The trained methods take
//! what [`trained`] estimates from qrels (`optimizeFusion` trains them, as ranx's `optimize_fusion` does). The
//! fused run lists every document that any run retrieved, ranked by fused score descending, **ties broken by doc
//! id ascending** (ranx leaves ties to numpy's unstable sort).
//!
//! R(d) is the set of runs that retrieved d, s_r(d) its normalised score in run r, C the query's candidates
//! (every document any run retrieved):
//!
//! | method | fused score of d | parameters |
//! |---|---|---|
//! | `rrf` | Σ_{R(d)} 1/(k + i + 1) (the norm only matters through the order) | `k` (60) |
//! | `wsum` | Σ_{R(d)} w_r · s_r(d) | `weights` |
//! | `mixed` | (Σ_{R(d)} w_r · s_r(d)) · √\|R(d)\| | `weights` |
//! | `wmnz` | (Σ_{R(d)} s_r(d)) · (Σ_{R(d)} w_r) | `weights` |
//! | `sum` (`combsum`) | Σ_{R(d)} s_r(d) | |
//! | `mnz` (`combmnz`) | \|R(d)\| · Σ_{R(d)} s_r(d) | |
//! | `max` (`combmax`) | max_r s_r(d), a missing run counting −10⁹ | |
//! | `min` (`combmin`) | min_r s_r(d), a missing run counting 10⁹ | |
//! | `anz` (`combanz`) | Σ_{R(d)} s_r(d) / \|R(d)\| | |
//! | `med` (`combmed`) | median of s_r(d) over R(d) | |
//! | `gmnz` (`combgmnz`) | Σ_{R(d)} s_r(d) · \|R(d)\|^γ | `gamma` |
//! | `isr` | \|R(d)\| · Σ_{R(d)} 1/(i + 1)² | |
//! | `log_isr` | ln\|R(d)\| · Σ_{R(d)} 1/(i + 1)² | |
//! | `logn_isr` | ln(\|R(d)\| + σ) · Σ_{R(d)} 1/(i + 1)² | `sigma` (0.01, in [0, 1]) |
//! | `rbc` | Σ_{R(d)} (1 − φ) · φ^i | `phi` |
//! | `bordafuse` | Σ_r (\|C\| − i), a run that missed d giving (\|C\| − n_r + 1)/2 | |
//! | `w_bordafuse` | Σ_r w_r · the same points | `weights` |
//! | `condorcet` | \|C\| − j, j: d's place in the pairwise-majority sort | |
//! | `w_condorcet` | the same with weighted votes | `weights` |
//! | `probfuse` | Σ_{R(d)} P_r(k)/(k + 1), k: d's segment of ⌈n_r / K⌉ positions | `probs` (trained, K = `nSegments`) |
//! | `bayesfuse` | Σ_r O_r(i), the log-odds of d's position; ln(0.001/0.999) where r missed d | `logOdds` (trained) |
//! | `mapfuse` | Σ_{R(d)} MAP_r / (i + 1) | `mapScores` (trained) |
//! | `posfuse` | Σ_{R(d)} P_r(i) | `probs` (trained) |
//! | `segfuse` | Σ_{R(d)} P_r(k) · (s_r(d) + 1), k: d's segment of bounds 0, 5, 15, 35, …, 5115 | `probs` (trained) |
//! | `slidefuse` | Σ_{R(d)} mean of P_r over positions max(i − w, 0) … min(i + w, n_r − 1) | `probs` (trained), `w` |
//!
//! i is d's 0-based position in run r in ranx's order of the normalised run: the input's ranking order (score
//! descending, ties by doc id), re-ranked after `min-max-inverted`, and for `borda` the run's documents then the
//! candidates it missed.
//!
//! Differences from ranx: ranx asserts that all runs have the same query ids; rerankit fuses the union of the
//! queries (a run without a query counts as a run with no results for it), in order of first appearance. One
//! run is accepted (it is then just normalised and re-ranked). Condorcet's result where the vote is no ranking
//! is described in [`condorcet`].

pub mod comb;
pub mod condorcet;
pub mod contribution;
pub mod method;
pub mod normalization;
pub mod optimize;
pub mod rrf;
pub mod run;
pub mod trained;

pub use comb::Combination;
pub use method::{FusionMethod, FuseOptions, Recipe};
pub use normalization::Normalization;
pub use run::{ranking_order, Results, Run};

use crate::error::{Error, Result};
use std::collections::HashMap;

/// Fuses `runs` into one run (see the module docs). Runs are validated (finite scores, no repeated ids); errors
/// name `runs[i].query.doc`.
pub fn fuse(runs: &[Run], method: &FusionMethod, norm: Normalization) -> Result<Run> {
    if runs.is_empty() {
        return Err(Error::invalid("runs", "give at least one run"));
    }
    for (i, run) in runs.iter().enumerate() {
        run.validate(&format!("runs[{i}]"))?;
    }
    method.check(runs.len())?;
    let recipe = method.recipe();
    let fused = normalize(runs, norm)
        .into_iter()
        .map(|query| {
            let scores = query.fused_scores(&recipe);
            (query.qid.clone(), query.ranked(&scores))
        })
        .collect();
    Ok(Run { queries: fused })
}

/// One query of every run after normalisation.
#[derive(Debug, Clone, PartialEq)]
pub struct NormalizedQuery {
    pub qid: String,
    /// The query's candidates: every document any run retrieved, in first appearance over the runs in order.
    pub docs: Vec<String>,
    /// Per run, `(document index, normalised score)` in ranx's order of the normalised run.
    pub runs: Vec<Vec<(usize, f64)>>,
}

/// Every query of `runs` (their union, in first appearance order), normalised with `norm`.
pub fn normalize(runs: &[Run], norm: Normalization) -> Vec<NormalizedQuery> {
    let mut query_ids: Vec<&str> = Vec::new();
    let mut seen: HashMap<&str, ()> = HashMap::new();
    for run in runs {
        for (q, _) in &run.queries {
            if seen.insert(q.as_str(), ()).is_none() {
                query_ids.push(q);
            }
        }
    }
    let per_run: Vec<HashMap<&str, &Results>> = runs.iter().map(|run| run.queries.iter().map(|(q, r)| (q.as_str(), r)).collect()).collect();
    query_ids
        .into_iter()
        .map(|qid| {
            let lists: Vec<Option<Results>> = per_run
                .iter()
                .map(|m| {
                    m.get(qid).map(|r| {
                        let mut ranked = (*r).clone();
                        ranked.sort_by(ranking_order);
                        ranked
                    })
                })
                .collect();
            let mut docs: Vec<String> = Vec::new();
            let mut index: HashMap<String, usize> = HashMap::new();
            let runs = norm
                .normalize_lists(&lists)
                .into_iter()
                .map(|list| {
                    list.into_iter()
                        .map(|(doc, score)| {
                            let slot = *index.entry(doc.clone()).or_insert_with(|| {
                                docs.push(doc);
                                docs.len() - 1
                            });
                            (slot, score)
                        })
                        .collect()
                })
                .collect();
            NormalizedQuery { qid: qid.to_string(), docs, runs }
        })
        .collect()
}

impl NormalizedQuery {
    /// The fused score of every document (by index).
    pub fn fused_scores(&self, recipe: &Recipe) -> Vec<f64> {
        match recipe {
            Recipe::Combine(contribution, combination) => {
                let mut per_doc: Vec<Vec<Option<f64>>> = vec![vec![None; self.runs.len()]; self.docs.len()];
                for (r, list) in self.runs.iter().enumerate() {
                    for (doc, value) in contribution.values(r, list, self.docs.len()) {
                        per_doc[doc][r] = Some(value);
                    }
                }
                per_doc.iter().map(|c| combination.combine(c)).collect()
            }
            Recipe::Condorcet(weights) => {
                let mut positions: Vec<Vec<Option<usize>>> = vec![vec![None; self.runs.len()]; self.docs.len()];
                for (r, list) in self.runs.iter().enumerate() {
                    for (i, &(doc, _)) in list.iter().enumerate() {
                        positions[doc][r] = Some(i);
                    }
                }
                let mut order: Vec<usize> = (0..self.docs.len()).collect();
                crate::stable_sort::stable_sort_by(&mut order, |&a, &b| self.docs[a].cmp(&self.docs[b]));
                condorcet::condorcet_scores(&positions, order, weights.as_deref())
            }
        }
    }

    /// `(doc id, score)` in ranking order (score descending, doc id ascending).
    pub fn ranked(&self, scores: &[f64]) -> Results {
        let mut fused: Results = self.docs.iter().cloned().zip(scores.iter().copied()).collect();
        fused.sort_by(ranking_order);
        fused
    }
}
