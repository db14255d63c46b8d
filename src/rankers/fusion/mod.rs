//! Rank fusion over runs in ranx's shape `{query_id: {doc_id: score}}`.
//!
//! `fuse(runs, method, norm)` follows ranx's `fuse`: each run's scores are normalised per query
//! ([`normalization`]), then combined per document ([`comb`], [`rrf`]). The fused run lists every document that
//! any run retrieved, ranked by fused score descending, **ties broken by doc id ascending** (ranx leaves ties to
//! numpy's unstable sort).
//!
//! | method | fused score of d |
//! |---|---|
//! | `rrf` | Σ 1/(k + rank) over the runs that retrieved d (k = 60; the norm is irrelevant) |
//! | `wsum` | Σ w_r · norm_r(d) (one weight per run; a run that missed d counts 0) |
//! | `combsum` | Σ norm_r(d) |
//! | `combmnz` | (number of runs that retrieved d) × Σ norm_r(d) |
//! | `combmax` | max norm_r(d) |
//! | `mixed` | (Σ_{r∈R(d)} w_r · norm_r(d)) · √\|R(d)\| (R(d): the runs that retrieved d) |
//! | `wmnz` | (Σ_{r∈R(d)} norm_r(d)) · (Σ_{r∈R(d)} w_r) |
//!
//! Differences from ranx: ranx asserts that all runs have the same query ids; rerankit fuses the union of the
//! queries (a run without a query simply contributes nothing to it), in order of first appearance. One run is
//! accepted (it is then just normalised and re-ranked).

pub mod comb;
pub mod normalization;
pub mod optimize;
pub mod rrf;
pub mod run;

pub use comb::{Combination, CombinedScore};
pub use normalization::Normalization;
pub use run::{ranking_order, Results, Run};

use crate::error::{Error, Result};
use std::collections::HashMap;

/// The fusion method and its parameters.
#[derive(Debug, Clone, PartialEq)]
pub enum FusionMethod {
    /// Reciprocal rank fusion with constant k.
    ReciprocalRank { k: f64 },
    /// Normalise, then combine.
    Combined(Combination),
}

impl FusionMethod {
    /// Builds a method from ranx-style names: `"rrf"` (with `k`, default 60), `"wsum"`, `"mixed"`, `"wmnz"` (with
    /// one weight per run), `"combsum"`, `"combmnz"`, `"combmax"` (also ranx's `"sum"`, `"mnz"`, `"max"`).
    pub fn parse(name: &str, k: Option<f64>, weights: Option<Vec<f64>>) -> Result<Self> {
        let method = match name {
            "rrf" => FusionMethod::ReciprocalRank { k: k.unwrap_or(rrf::DEFAULT_K) },
            "wsum" | "mixed" | "wmnz" => match weights {
                Some(w) => {
                    if k.is_some() {
                        return Err(Error::invalid("k", format!("only method \"rrf\" takes k, not {name:?}")));
                    }
                    return Ok(FusionMethod::Combined(match name {
                        "wsum" => Combination::WeightedSum(w),
                        "mixed" => Combination::Mixed(w),
                        _ => Combination::WeightedMnz(w),
                    }));
                }
                None => return Err(Error::invalid("weights", format!("method {name:?} needs one weight per run"))),
            },
            "combsum" | "sum" => FusionMethod::Combined(Combination::Sum),
            "combmnz" | "mnz" => FusionMethod::Combined(Combination::Mnz),
            "combmax" | "max" => FusionMethod::Combined(Combination::Max),
            other => {
                return Err(Error::invalid(
                    "method",
                    format!("expected \"rrf\", \"wsum\", \"mixed\", \"wmnz\", \"combsum\", \"combmnz\" or \"combmax\", got {other:?}"),
                ))
            }
        };
        if weights.is_some() {
            return Err(Error::invalid("weights", format!("only methods \"wsum\", \"mixed\" and \"wmnz\" take weights, not {name:?}")));
        }
        if k.is_some() && !matches!(method, FusionMethod::ReciprocalRank { .. }) {
            return Err(Error::invalid("k", format!("only method \"rrf\" takes k, not {name:?}")));
        }
        Ok(method)
    }
}

/// The options of [`fuse`], as JS and JSON give them: `{method, k, weights, norm}`; `norm: null` is no
/// normalisation, an absent `norm` is min-max.
#[derive(Debug, Clone, PartialEq, serde::Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct FusionOptions {
    /// ranx's method name; default `"rrf"`.
    pub method: String,
    /// RRF's constant (default 60).
    pub k: Option<f64>,
    /// `wsum`'s, `mixed`'s and `wmnz`'s weights, one per run.
    pub weights: Option<Vec<f64>>,
    pub norm: Option<Normalization>,
}

impl Default for FusionOptions {
    fn default() -> Self {
        FusionOptions { method: "rrf".into(), k: None, weights: None, norm: Some(Normalization::default()) }
    }
}

impl FusionOptions {
    /// The method and the normalisation these options name.
    pub fn method_and_norm(self) -> Result<(FusionMethod, Normalization)> {
        Ok((FusionMethod::parse(&self.method, self.k, self.weights)?, self.norm.unwrap_or(Normalization::None)))
    }
}

/// Fuses `runs` into one run (see the module docs). Runs are validated (finite scores, no repeated ids); errors
/// name `runs[i].query.doc`.
pub fn fuse(runs: &[Run], method: &FusionMethod, norm: Normalization) -> Result<Run> {
    if runs.is_empty() {
        return Err(Error::invalid("runs", "give at least one run"));
    }
    for (i, run) in runs.iter().enumerate() {
        run.validate(&format!("runs[{i}]"))?;
    }
    match method {
        FusionMethod::ReciprocalRank { k } => rrf::check_k(*k)?,
        FusionMethod::Combined(c) => {
            if let Some(w) = c.weights() {
                if w.len() != runs.len() {
                    return Err(Error::invalid("weights", format!("has {} weights for {} runs", w.len(), runs.len())));
                }
                if let Some(i) = w.iter().position(|x| !x.is_finite()) {
                    return Err(Error::invalid(&format!("weights[{i}]"), format!("{} is not a finite weight", w[i])));
                }
            }
        }
    }

    // Query ids in first-appearance order, and where each run keeps them.
    let mut query_ids: Vec<&str> = Vec::new();
    let mut seen: HashMap<&str, ()> = HashMap::new();
    let per_run: Vec<HashMap<&str, &Results>> = runs
        .iter()
        .map(|run| run.queries.iter().map(|(q, r)| (q.as_str(), r)).collect())
        .collect();
    for run in runs {
        for (q, _) in &run.queries {
            if seen.insert(q.as_str(), ()).is_none() {
                query_ids.push(q);
            }
        }
    }

    let fused = query_ids
        .into_iter()
        .map(|q| {
            let lists: Vec<Option<&Results>> = per_run.iter().map(|m| m.get(q).copied()).collect();
            (q.to_string(), fuse_query(&lists, method, norm))
        })
        .collect();
    Ok(Run { queries: fused })
}

/// Fuses one query's results (one entry per run, `None` where the run lacks the query), in ranking order.
pub fn fuse_query(lists: &[Option<&Results>], method: &FusionMethod, norm: Normalization) -> Results {
    let mut index: HashMap<&str, usize> = HashMap::new();
    let mut docs: Vec<(&str, CombinedScore)> = Vec::new();
    let combination = match method {
        FusionMethod::ReciprocalRank { .. } => Combination::Sum,
        FusionMethod::Combined(c) => c.clone(),
    };
    // Per-run contributions, computed first so that the borrowed doc ids outlive them.
    let contributions: Vec<Results> = lists
        .iter()
        .map(|list| {
            let Some(results) = list else { return Vec::new() };
            match method {
                FusionMethod::ReciprocalRank { k } => rrf::reciprocal_ranks(results, *k),
                FusionMethod::Combined(_) => {
                    let mut ranked = (*results).clone();
                    ranked.sort_by(ranking_order);
                    let scores: Vec<f64> = ranked.iter().map(|(_, s)| *s).collect();
                    ranked.into_iter().zip(norm.apply(&scores)).map(|((d, _), s)| (d, s)).collect()
                }
            }
        })
        .collect();
    for (run, list) in contributions.iter().enumerate() {
        for (doc, score) in list {
            let slot = *index.entry(doc.as_str()).or_insert_with(|| {
                docs.push((doc.as_str(), CombinedScore::default()));
                docs.len() - 1
            });
            docs[slot].1.add(run, *score, &combination);
        }
    }
    let mut fused: Results = docs.into_iter().map(|(d, c)| (d.to_string(), c.value(&combination))).collect();
    fused.sort_by(ranking_order);
    fused
}
