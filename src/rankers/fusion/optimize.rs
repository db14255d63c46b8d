//! ranx's `optimize_fusion`: the fusion parameters that score best on training qrels, by grid search.
//!
//! | method | grid (ranx's defaults) |
//! |---|---|
//! | `wsum` | every weight vector over `round(np.arange(0, 1 + step, step), d)` (step 0.1; d = decimals of step) whose Python `sum` is exactly 1.0, in `itertools.product` order |
//! | `mixed`, `wmnz` | the same weight vectors as `wsum` |
//! | `rrf` | k in `range(minK, maxK + 1, step)` (10, 100, 10) |
//!
//! Each configuration fuses the runs (normalised once, `norm` default min-max, as ranx normalises before it
//! optimises), evaluates `metric` on the fused run in its ranking order (score descending, ties by doc id
//! ascending, as ranx's fused runs are ordered; numpy's mean over the queries) and keeps the best with
//! ranx's rule `score >= best`: among equal scores the **last** configuration in grid order wins. `grid` replaces
//! the generated grid by the caller's list (weight vectors for wsum, k values for rrf), tried in that order.
//!
//! The exact `sum == 1.0` filter drops vectors such as (0.2, 0.7, 0.1) whose float sum is 1.0000000000000002, as
//! Python 3.11's left-to-right `sum` does (3.12 sums floats with compensation and keeps them).

use super::comb::{Combination, CombinedScore};
use super::normalization::Normalization;
use super::run::{ranking_order, Run as FusionRun};
use crate::error::{Error, Result};
use crate::metrics::run::RunBuilder;
use crate::metrics::{evaluate, parse_measures, DuplicatePolicy, EvalOptions, Qrels, TiePolicy, Value};
use crate::python::numpy_sum::np_mean;
use crate::python::repr::{repr_float, round};
use std::collections::HashMap;

/// Most configurations one search may try.
pub const MAX_TRIALS: usize = 100_000;

/// The options of [`optimize_fusion`] as JS and JSON give them.
#[derive(Debug, Clone, PartialEq, serde::Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct OptimizeOptions {
    /// `"wsum"` (default), `"mixed"`, `"wmnz"` or `"rrf"`.
    pub method: String,
    /// The measure to maximise, any name `evaluate` takes (default ranx's `"ndcg"`).
    pub metric: String,
    /// Normalisation applied once before the search (default min-max; `"none"` for none).
    pub norm: Option<Normalization>,
    /// Grid step: weights (default 0.1) or k (default 10).
    pub step: Option<f64>,
    /// rrf's smallest and largest k (defaults 10 and 100).
    pub min_k: Option<u32>,
    pub max_k: Option<u32>,
    /// The configurations to try instead of the generated grid: weight vectors (wsum, mixed, wmnz) or k values (rrf).
    pub grid: Option<Vec<serde_json::Value>>,
}

impl Default for OptimizeOptions {
    fn default() -> Self {
        OptimizeOptions { method: "wsum".into(), metric: "ndcg".into(), norm: None, step: None, min_k: None, max_k: None, grid: None }
    }
}

/// One configuration of the search.
#[derive(Debug, Clone, PartialEq)]
pub enum FusionParams {
    Weights(Vec<f64>),
    K(f64),
}

/// The search's result: the best configuration, its score, and every configuration tried with its score (ranx's
/// optimisation report), in grid order.
#[derive(Debug, Clone, PartialEq)]
pub struct Optimization {
    pub best: FusionParams,
    pub best_score: f64,
    pub trials: Vec<(FusionParams, f64)>,
}

/// The weights ranx tries for `step`: `round(x, d)` for x in `np.arange(0, 1 + step, step)`.
fn weight_values(step: f64) -> Result<Vec<f64>> {
    if !(step.is_finite() && (1e-4..=1.0).contains(&step)) {
        return Err(Error::invalid("step", format!("a weight step must be in [0.0001, 1], got {step}")));
    }
    // ranx rounds to the digits after the point of str(step), which has a point from 1e-4 up.
    let text = repr_float(step);
    let digits = text.split_once('.').map_or(0, |(_, after)| after.len());
    let count = ((1.0 + step) / step).ceil() as usize;
    Ok((0..count).map(|i| round(i as f64 * step, digits)).collect())
}

/// `[seq for seq in product(*[values] * runs) if sum(seq) == 1.0]`.
fn weight_grid(values: &[f64], runs: usize) -> Result<Vec<Vec<f64>>> {
    let total = (values.len() as f64).powi(runs as i32);
    if total > 1e7 {
        return Err(Error::invalid("step", format!("{} weights for {runs} runs is {total:e} combinations; use a larger step", values.len())));
    }
    let mut out = Vec::new();
    let mut index = vec![0usize; runs];
    loop {
        let weights: Vec<f64> = index.iter().map(|&i| values[i]).collect();
        if weights.iter().fold(0.0, |s, w| s + w) == 1.0 {
            out.push(weights);
        }
        // the last position varies fastest, as itertools.product
        let mut p = runs;
        loop {
            if p == 0 {
                return Ok(out);
            }
            p -= 1;
            index[p] += 1;
            if index[p] < values.len() {
                break;
            }
            index[p] = 0;
        }
    }
}

/// One query of every run, prepared once: the documents (first appearance over the runs in ranking order), and
/// per run the normalised score and 1-based rank of each document it retrieved.
struct PreparedQuery {
    qid: String,
    docs: Vec<String>,
    /// `per_run[r]`: (document index, normalised score, rank) in the run's ranking order.
    per_run: Vec<Vec<(usize, f64, usize)>>,
}

fn prepare(runs: &[FusionRun], norm: Normalization) -> Vec<PreparedQuery> {
    let mut order: Vec<&str> = Vec::new();
    let mut seen: HashMap<&str, ()> = HashMap::new();
    for run in runs {
        for (q, _) in &run.queries {
            if seen.insert(q.as_str(), ()).is_none() {
                order.push(q);
            }
        }
    }
    let lookup: Vec<HashMap<&str, &Vec<(String, f64)>>> =
        runs.iter().map(|r| r.queries.iter().map(|(q, l)| (q.as_str(), l)).collect()).collect();
    order
        .into_iter()
        .map(|qid| {
            let mut docs: Vec<String> = Vec::new();
            let mut index: HashMap<String, usize> = HashMap::new();
            let per_run = lookup
                .iter()
                .map(|run| {
                    let Some(results) = run.get(qid) else { return Vec::new() };
                    let mut ranked = (*results).clone();
                    ranked.sort_by(ranking_order);
                    let scores: Vec<f64> = ranked.iter().map(|(_, s)| *s).collect();
                    ranked
                        .into_iter()
                        .zip(norm.apply(&scores))
                        .enumerate()
                        .map(|(rank, ((doc, _), score))| {
                            let slot = *index.entry(doc.clone()).or_insert_with(|| {
                                docs.push(doc);
                                docs.len() - 1
                            });
                            (slot, score, rank + 1)
                        })
                        .collect()
                })
                .collect();
            PreparedQuery { qid: qid.to_string(), docs, per_run }
        })
        .collect()
}

/// The fused scores of one query for one configuration, combined as `fuse` combines them ([`CombinedScore`], the
/// runs in order): rrf sums 1/(k + rank_r), the weighted methods combine the normalised scores.
fn fused_scores(query: &PreparedQuery, method: &str, params: &FusionParams) -> Vec<f64> {
    let combination = match params {
        FusionParams::K(_) => Combination::Sum,
        FusionParams::Weights(w) => match method {
            "mixed" => Combination::Mixed(w.clone()),
            "wmnz" => Combination::WeightedMnz(w.clone()),
            _ => Combination::WeightedSum(w.clone()),
        },
    };
    let mut scores = vec![CombinedScore::default(); query.docs.len()];
    for (r, list) in query.per_run.iter().enumerate() {
        for &(doc, score, rank) in list {
            let contribution = match params {
                FusionParams::K(k) => 1.0 / (k + rank as f64),
                FusionParams::Weights(_) => score,
            };
            scores[doc].add(r, contribution, &combination);
        }
    }
    scores.iter().map(|c| c.value(&combination)).collect()
}

/// Searches the grid (see the module docs) for the configuration of `options.method` that maximises
/// `options.metric` on `qrels`.
pub fn optimize_fusion(qrels: &Qrels, runs: &[FusionRun], options: &OptimizeOptions) -> Result<Optimization> {
    if runs.len() < 2 {
        return Err(Error::invalid("runs", format!("give at least 2 runs to fuse, got {}", runs.len())));
    }
    for (i, run) in runs.iter().enumerate() {
        run.validate(&format!("runs[{i}]"))?;
    }
    let requests = parse_measures(&[options.metric.as_str()])?;
    if requests.len() != 1 {
        return Err(Error::invalid("metric", format!("name one measure, got {:?} ({} measures)", options.metric, requests.len())));
    }
    let grid = grid(options, runs.len())?;
    if grid.is_empty() {
        return Err(Error::invalid("grid", "no configuration to try"));
    }
    if grid.len() > MAX_TRIALS {
        return Err(Error::invalid("grid", format!("{} configurations; at most {MAX_TRIALS}", grid.len())));
    }
    let prepared = prepare(runs, options.norm.unwrap_or_default());
    // The fused run is evaluated in fusion's ranking order (ties by doc id ascending), which is the order ranx's
    // fused runs come in and keep when ranx evaluates them; trec_eval's tie rule would move tied documents.
    let mut ranked_as_fused = EvalOptions::default();
    ranked_as_fused.ranking.ties = TiePolicy::Input;
    let mut trials = Vec::with_capacity(grid.len());
    let mut best: Option<(usize, f64)> = None;
    for params in grid {
        let mut builder = RunBuilder::with_capacity(0, DuplicatePolicy::Error);
        for query in &prepared {
            let mut fused: Vec<(usize, f64)> = fused_scores(query, &options.method, &params).into_iter().enumerate().collect();
            fused.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| query.docs[a.0].cmp(&query.docs[b.0])));
            for (doc, score) in fused {
                builder.add(&query.qid, &query.docs[doc], score)?;
            }
        }
        let evaluation = evaluate(qrels, &builder.build()?, &requests, &ranked_as_fused)?;
        let values: Vec<f64> = evaluation
            .per_query
            .iter()
            .map(|q| match q.values[0] {
                Value::Number(x) => Ok(x),
                Value::Text(_) => Err(Error::invalid("metric", format!("{:?} is not a numeric measure", options.metric))),
            })
            .collect::<Result<_>>()?;
        let score = if values.is_empty() { 0.0 } else { np_mean(&values) };
        if score >= best.map_or(0.0, |b| b.1) {
            best = Some((trials.len(), score));
        }
        trials.push((params, score));
    }
    let (at, best_score) = best.ok_or_else(|| Error::invalid("metric", "no configuration gave a score"))?;
    Ok(Optimization { best: trials[at].0.clone(), best_score, trials })
}

/// The configurations to try, in order.
fn grid(options: &OptimizeOptions, runs: usize) -> Result<Vec<FusionParams>> {
    match options.method.as_str() {
        "wsum" | "mixed" | "wmnz" => {
            if options.min_k.is_some() || options.max_k.is_some() {
                return Err(Error::invalid("minK", "only method \"rrf\" takes minK and maxK"));
            }
            match &options.grid {
                Some(list) => list
                    .iter()
                    .enumerate()
                    .map(|(i, item)| {
                        let weights: Option<Vec<f64>> = item.as_array().and_then(|a| a.iter().map(|w| w.as_f64().filter(|x| x.is_finite())).collect());
                        match weights {
                            Some(w) if w.len() == runs => Ok(FusionParams::Weights(w)),
                            _ => Err(Error::invalid(&format!("grid[{i}]"), format!("expected {runs} finite weights, got {item}"))),
                        }
                    })
                    .collect(),
                None => Ok(weight_grid(&weight_values(options.step.unwrap_or(0.1))?, runs)?.into_iter().map(FusionParams::Weights).collect()),
            }
        }
        "rrf" => match &options.grid {
            Some(list) => list
                .iter()
                .enumerate()
                .map(|(i, item)| match item.as_f64() {
                    Some(k) if k.is_finite() && k >= 0.0 => Ok(FusionParams::K(k)),
                    _ => Err(Error::invalid(&format!("grid[{i}]"), format!("expected a k ≥ 0, got {item}"))),
                })
                .collect(),
            None => {
                let step = options.step.unwrap_or(10.0);
                if !(step >= 1.0 && step.fract() == 0.0 && step <= u32::MAX as f64) {
                    return Err(Error::invalid("step", format!("rrf's step is a whole number ≥ 1, got {step}")));
                }
                let (min, max) = (options.min_k.unwrap_or(10), options.max_k.unwrap_or(100));
                let count = if max < min { 0 } else { (max - min) as u64 / step as u64 + 1 };
                if count > MAX_TRIALS as u64 {
                    return Err(Error::invalid("grid", format!("{count} values of k; at most {MAX_TRIALS}")));
                }
                Ok((min..=max).step_by(step as usize).map(|k| FusionParams::K(k as f64)).collect())
            }
        },
        other => Err(Error::invalid("method", format!("expected \"wsum\", \"mixed\", \"wmnz\" or \"rrf\" (the methods rerankit fuses with parameters), got {other:?}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranx_weight_grids() {
        assert_eq!(weight_values(0.1).unwrap(), vec![0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]);
        assert_eq!(weight_values(0.05).unwrap().len(), 21);
        // 11 pairs for two runs; 62 of the 66 triples sum to exactly 1.0 (ranx's report for 3 runs has 62 configs)
        assert_eq!(weight_grid(&weight_values(0.1).unwrap(), 2).unwrap().len(), 11);
        let triples = weight_grid(&weight_values(0.1).unwrap(), 3).unwrap();
        assert_eq!(triples.len(), 62);
        assert_eq!(triples[0], vec![0.0, 0.0, 1.0]);
        assert!(!triples.contains(&vec![0.2, 0.7, 0.1]) && triples.contains(&vec![0.1, 0.2, 0.7]));
        assert!(weight_values(0.0).is_err() && weight_values(f64::NAN).is_err() && weight_values(2.0).is_err());
    }
}
