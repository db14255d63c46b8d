//! ranx's `optimize_fusion`: the fusion parameters that score best on training qrels, by grid search, and the
//! training of the supervised methods.
//!
//! | method | what is searched or trained (ranx's defaults) | best `params` |
//! |---|---|---|
//! | `wsum`, `mixed`, `wmnz`, `w_bordafuse`, `w_condorcet` | every weight vector over `round(np.arange(0, 1 + step, step), d)` (step 0.1; d = decimals of step) whose Python `sum` is exactly 1.0, in `itertools.product` order | `{weights}` |
//! | `rrf` | k in `range(minK, maxK + 1, step)` (10, 100, 10) | `{k}` |
//! | `gmnz` | γ in `round(np.arange(minGamma, maxGamma + step, step), d)` (0.01, 1.0, 0.01) | `{gamma}` |
//! | `logn_isr` | σ over the same grid (`minSigma`, `maxSigma`: 0.01, 1.0, step 0.01) | `{sigma}` |
//! | `rbc` | φ over the same grid (`minPhi`, `maxPhi`: 0.01, 1.0, step 0.01) | `{phi}` |
//! | `probfuse` | K in `minNSegments ..= maxNSegments` (1, 100), each trained | `{probs}` of the best K |
//! | `slidefuse` | probabilities trained once, then w in `minW ..= maxW` (1, 100) | `{probs, w}` |
//! | `bayesfuse`, `mapfuse`, `posfuse`, `segfuse` | trained only ([`super::trained`]); no search, `metric` unused | `{logOdds}`, `{mapScores}`, `{probs}` |
//!
//! The runs are normalised once (`norm`, default min-max, as ranx normalises before it optimises or trains).
//! Each configuration fuses them, evaluates `metric` on the fused run in its ranking order (score descending,
//! ties by doc id ascending, as ranx's fused runs are ordered; numpy's mean over the queries) and keeps the best
//! with ranx's rule `score >= best` (from 0): among equal scores the **last** configuration in grid order wins.
//! `grid` replaces the generated grid by the caller's list (weight vectors, k, γ, σ, φ, K or w values), tried in
//! that order.
//!
//! The exact `sum == 1.0` filter drops vectors such as (0.2, 0.7, 0.1) whose float sum is 1.0000000000000002, as
//! Python 3.11's left-to-right `sum` does (3.12 sums floats with compensation and keeps them). ranx's grids of
//! γ, σ and φ come from `np.arange`, whose length is `⌈(stop − start) / step⌉` and whose values past the second
//! are `start + i·(start + step − start)`, each then rounded to the step's decimals.

use super::comb::Combination;
use super::method::FusionMethod;
use super::normalization::Normalization;
use super::run::Run as FusionRun;
use super::{normalize, trained, NormalizedQuery};
use crate::error::{Error, Result};
use crate::metrics::inputs::run::RunBuilder;
use crate::metrics::{evaluate, parse_measures, DuplicatePolicy, EvalOptions, MeasureRequest, Qrels, TiePolicy, Value};
use crate::python::numpy_sum::np_mean;
use crate::python::repr::{repr_float, round};
use serde_json::{json, Value as Json};

/// Most configurations one search may try.
pub const MAX_TRIALS: usize = 100_000;

/// The methods [`optimize_fusion`] takes (ranx's `optimization_switch`).
pub const METHODS: &[&str] = &[
    "wsum", "mixed", "wmnz", "w_bordafuse", "w_condorcet", "rrf", "gmnz", "logn_isr", "rbc", "probfuse", "slidefuse", "bayesfuse",
    "mapfuse", "posfuse", "segfuse",
];

/// Options of `optimizeFusion` (ranx's `optimize_fusion` keyword arguments).
#[derive(Debug, Clone, PartialEq, serde::Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct OptimizeFusionOptions {
    /// The method whose parameters are searched (default "wsum"); "bayesfuse", "mapfuse", "posfuse", "segfuse"
    /// are trained only (no search, no score).
    #[cfg_attr(test, ts(type = "OptimizableFusionMethod"))]
    pub method: String,
    /// The measure to maximise, any name `evaluate` takes (default ranx's "ndcg").
    pub metric: String,
    /// Normalisation applied once before the search or training (default "min-max", as ranx; "none" for none).
    pub norm: Option<Normalization>,
    /// Grid step: weights (default 0.1), rrf's k (default 10), gamma, sigma, phi (default 0.01).
    pub step: Option<f64>,
    /// rrf's smallest k (default 10).
    pub min_k: Option<u32>,
    /// rrf's largest k (default 100).
    pub max_k: Option<u32>,
    /// gmnz's smallest γ (default 0.01).
    pub min_gamma: Option<f64>,
    /// gmnz's largest γ (default 1.0).
    pub max_gamma: Option<f64>,
    /// logn_isr's smallest σ (default 0.01).
    pub min_sigma: Option<f64>,
    /// logn_isr's largest σ (default 1.0).
    pub max_sigma: Option<f64>,
    /// rbc's smallest φ (default 0.01).
    pub min_phi: Option<f64>,
    /// rbc's largest φ (default 1.0).
    pub max_phi: Option<f64>,
    /// probfuse's smallest number of segments (default 1).
    pub min_n_segments: Option<u32>,
    /// probfuse's largest number of segments (default 100).
    pub max_n_segments: Option<u32>,
    /// slidefuse's smallest window half-width (default 1).
    pub min_w: Option<u32>,
    /// slidefuse's largest window half-width (default 100).
    pub max_w: Option<u32>,
    /// The configurations to try instead of the generated grid: weight vectors, or k, γ, σ, φ, segment counts or
    /// w values.
    #[cfg_attr(test, ts(type = "Array<Array<number>> | Array<number> | null"))]
    pub grid: Option<Vec<Json>>,
}

impl Default for OptimizeFusionOptions {
    fn default() -> Self {
        OptimizeFusionOptions {
            method: "wsum".into(),
            metric: "ndcg".into(),
            norm: None,
            step: None,
            min_k: None,
            max_k: None,
            min_gamma: None,
            max_gamma: None,
            min_sigma: None,
            max_sigma: None,
            min_phi: None,
            max_phi: None,
            min_n_segments: None,
            max_n_segments: None,
            min_w: None,
            max_w: None,
            grid: None,
        }
    }
}

/// One configuration of a search, or a trained result.
#[derive(Debug, Clone, PartialEq)]
pub enum FusionParams {
    Weights(Vec<f64>),
    K(f64),
    Gamma(f64),
    Sigma(f64),
    Phi(f64),
    /// A probfuse trial: the number of segments.
    NSegments(usize),
    /// A slidefuse trial: the window half-width.
    W(usize),
    /// Trained probabilities, one array per run (probfuse, posfuse, segfuse).
    Probs(Vec<Vec<f64>>),
    /// slidefuse's trained probabilities and best w.
    SlideFuse { probs: Vec<Vec<f64>>, w: usize },
    LogOdds(Vec<Vec<f64>>),
    MapScores(Vec<f64>),
}

impl FusionParams {
    /// As `fuse` takes them: `{weights}`, `{k}`, `{gamma}`, `{sigma}`, `{phi}`, `{probs}`, `{probs, w}`,
    /// `{logOdds}`, `{mapScores}`; a probfuse trial is `{nSegments}`, a slidefuse trial `{w}`.
    pub fn to_json(&self) -> Json {
        match self {
            FusionParams::Weights(w) => json!({ "weights": w }),
            FusionParams::K(k) => json!({ "k": k }),
            FusionParams::Gamma(g) => json!({ "gamma": g }),
            FusionParams::Sigma(s) => json!({ "sigma": s }),
            FusionParams::Phi(p) => json!({ "phi": p }),
            FusionParams::NSegments(n) => json!({ "nSegments": n }),
            FusionParams::W(w) => json!({ "w": w }),
            FusionParams::Probs(p) => json!({ "probs": p }),
            FusionParams::SlideFuse { probs, w } => json!({ "probs": probs, "w": w }),
            FusionParams::LogOdds(o) => json!({ "logOdds": o }),
            FusionParams::MapScores(m) => json!({ "mapScores": m }),
        }
    }
}

/// The search's result: the best configuration, its score, and every configuration tried with its score (ranx's
/// optimisation report), in grid order. The training-only methods have no score and no trials.
#[derive(Debug, Clone, PartialEq)]
pub struct Optimization {
    pub best: FusionParams,
    pub best_score: Option<f64>,
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

/// `round(x, d)` for x in `np.arange(start, stop, step)`, d the decimals of `str(step)`.
fn arange_rounded(field: &str, start: f64, stop: f64, step: f64) -> Result<Vec<f64>> {
    if !(step.is_finite() && step >= 1e-4) {
        return Err(Error::invalid("step", format!("must be a number ≥ 0.0001, got {step}")));
    }
    if !(start.is_finite() && stop.is_finite()) {
        return Err(Error::invalid(field, "the range must be finite"));
    }
    let text = repr_float(step);
    let digits = text.split_once('.').map_or(0, |(_, after)| after.len());
    let count = ((stop - start) / step).ceil();
    if count > MAX_TRIALS as f64 {
        return Err(Error::invalid("grid", format!("{count} values; at most {MAX_TRIALS}")));
    }
    let count = count.max(0.0) as usize;
    let delta = (start + step) - start;
    Ok((0..count)
        .map(|i| match i {
            0 => start,
            1 => start + step,
            _ => start + i as f64 * delta,
        })
        .map(|x| round(x, digits))
        .collect())
}

/// The options that belong to one method only, with the methods that take them.
const OPTION_OWNERS: &[(&str, &[&str])] = &[
    ("step", &["wsum", "mixed", "wmnz", "w_bordafuse", "w_condorcet", "rrf", "gmnz", "logn_isr", "rbc"]),
    ("minK", &["rrf"]),
    ("maxK", &["rrf"]),
    ("minGamma", &["gmnz"]),
    ("maxGamma", &["gmnz"]),
    ("minSigma", &["logn_isr"]),
    ("maxSigma", &["logn_isr"]),
    ("minPhi", &["rbc"]),
    ("maxPhi", &["rbc"]),
    ("minNSegments", &["probfuse"]),
    ("maxNSegments", &["probfuse"]),
    ("minW", &["slidefuse"]),
    ("maxW", &["slidefuse"]),
    ("grid", &["wsum", "mixed", "wmnz", "w_bordafuse", "w_condorcet", "rrf", "gmnz", "logn_isr", "rbc", "probfuse", "slidefuse"]),
];

fn check_owners(options: &OptimizeFusionOptions, method: &str) -> Result<()> {
    let o = options;
    let given = [
        o.step.is_some(),
        o.min_k.is_some(),
        o.max_k.is_some(),
        o.min_gamma.is_some(),
        o.max_gamma.is_some(),
        o.min_sigma.is_some(),
        o.max_sigma.is_some(),
        o.min_phi.is_some(),
        o.max_phi.is_some(),
        o.min_n_segments.is_some(),
        o.max_n_segments.is_some(),
        o.min_w.is_some(),
        o.max_w.is_some(),
        o.grid.is_some(),
    ];
    for ((field, methods), is_given) in OPTION_OWNERS.iter().zip(given) {
        if is_given && !methods.contains(&method) {
            let names: Vec<String> = methods.iter().map(|m| format!("{m:?}")).collect();
            return Err(Error::invalid(field, format!("only {} take{} {field}, not {method:?}", names.join(", "), if methods.len() == 1 { "s" } else { "" })));
        }
    }
    Ok(())
}

/// The method name as [`METHODS`] spells it, or the error for one ranx does not optimise.
fn optimizable(name: &str) -> Result<&'static str> {
    let canonical = if name == "combgmnz" { "gmnz" } else { name };
    if let Some(m) = METHODS.iter().find(|m| **m == canonical) {
        return Ok(m);
    }
    if super::method::NAMES.contains(&name) {
        return Err(Error::invalid("method", format!("{name:?} has no parameters to optimise or train; ranx optimises {}", METHODS.join(", "))));
    }
    Err(Error::invalid("method", crate::options::unknown_name("fusion method", name, METHODS)))
}

/// The metric's mean over the queries of the ranked lists `(qid, [(doc id, score)])`, each in the order given.
fn mean_score<'a>(qrels: &Qrels, lists: impl Iterator<Item = (&'a str, Vec<(&'a str, f64)>)>, request: &[MeasureRequest], metric: &str) -> Result<f64> {
    let mut builder = RunBuilder::with_capacity(0, 0, DuplicatePolicy::Error);
    for (qid, list) in lists {
        for (doc, score) in list {
            builder.add(qid, doc, score)?;
        }
    }
    // The fused run is evaluated in fusion's ranking order (ties by doc id ascending), which is the order ranx's
    // fused runs come in and keep when ranx evaluates them; trec_eval's tie rule would move tied documents.
    let mut ranked_as_given = EvalOptions::default();
    ranked_as_given.ranking.ties = TiePolicy::Input;
    let evaluation = evaluate(qrels, &builder.build()?, request, &ranked_as_given)?;
    let values: Vec<f64> = evaluation
        .per_query
        .iter()
        .map(|q| match q.values[0] {
            Value::Number(x) => Ok(x),
            Value::Text(_) => Err(Error::invalid("metric", format!("{metric:?} is not a numeric measure"))),
        })
        .collect::<Result<_>>()?;
    Ok(if values.is_empty() { 0.0 } else { np_mean(&values) })
}

/// The metric on the runs fused by `method`.
fn fused_score(qrels: &Qrels, queries: &[NormalizedQuery], method: &FusionMethod, request: &[MeasureRequest], metric: &str) -> Result<f64> {
    let recipe = method.recipe();
    let fused: Vec<(&str, Vec<(&str, f64)>)> = queries
        .iter()
        .map(|q| {
            let scores = q.fused_scores(&recipe);
            let mut order: Vec<usize> = (0..q.docs.len()).collect();
            crate::stable_sort::stable_sort_by(&mut order, |&a, &b| scores[b].total_cmp(&scores[a]).then_with(|| q.docs[a].cmp(&q.docs[b])));
            (q.qid.as_str(), order.into_iter().map(|d| (q.docs[d].as_str(), scores[d])).collect())
        })
        .collect();
    mean_score(qrels, fused.into_iter(), request, metric)
}

/// mapfuse's training: each run's MAP on `qrels`, the run in ranx's order of the normalised run.
pub fn train_mapfuse(qrels: &Qrels, queries: &[NormalizedQuery], runs: usize) -> Result<Vec<f64>> {
    let request = parse_measures(&["map"])?;
    (0..runs)
        .map(|r| {
            let lists = queries.iter().map(|q| (q.qid.as_str(), q.runs[r].iter().map(|&(d, s)| (q.docs[d].as_str(), s)).collect()));
            mean_score(qrels, lists, &request, "map")
        })
        .collect()
}

/// Every run's hit lists over the qrels' queries.
fn all_hit_lists(qrels: &Qrels, queries: &[NormalizedQuery], runs: usize) -> Result<Vec<Vec<Vec<f64>>>> {
    (0..runs).map(|r| trained::hit_lists(qrels, queries, r)).collect()
}

/// Searches the grid (see the module docs) for the configuration of `options.method` that maximises
/// `options.metric` on `qrels`, or trains the method.
pub fn optimize_fusion(qrels: &Qrels, runs: &[FusionRun], options: &OptimizeFusionOptions) -> Result<Optimization> {
    if runs.len() < 2 {
        return Err(Error::invalid("runs", format!("give at least 2 runs to fuse, got {}", runs.len())));
    }
    for (i, run) in runs.iter().enumerate() {
        run.validate(&format!("runs[{i}]"))?;
    }
    let method = optimizable(&options.method)?;
    check_owners(options, method)?;
    let request = parse_measures(&[options.metric.as_str()])?;
    if request.len() != 1 {
        return Err(Error::invalid("metric", format!("name one measure, got {:?} ({} measures)", options.metric, request.len())));
    }
    let n = runs.len();
    let queries = normalize(runs, options.norm.unwrap_or_default());
    let trained_only = |best: FusionParams| Ok(Optimization { best, best_score: None, trials: Vec::new() });
    let probs_of = |estimate: &dyn Fn(&[Vec<f64>]) -> Vec<f64>| -> Result<Vec<Vec<f64>>> {
        Ok(all_hit_lists(qrels, &queries, n)?.iter().map(|h| estimate(h)).collect())
    };
    match method {
        "bayesfuse" => return trained_only(FusionParams::LogOdds(probs_of(&trained::bayesfuse_log_odds)?)),
        "posfuse" => return trained_only(FusionParams::Probs(probs_of(&trained::position_probs)?)),
        "segfuse" => return trained_only(FusionParams::Probs(probs_of(&trained::segfuse_probs)?)),
        "mapfuse" => {
            if qrels.queries().is_empty() {
                return Err(Error::invalid("qrels", "training needs at least one query"));
            }
            return trained_only(FusionParams::MapScores(train_mapfuse(qrels, &queries, n)?));
        }
        _ => {}
    }
    let grid = grid(options, method, n)?;
    if grid.is_empty() {
        return Err(Error::invalid("grid", "no configuration to try"));
    }
    if grid.len() > MAX_TRIALS {
        return Err(Error::invalid("grid", format!("{} configurations; at most {MAX_TRIALS}", grid.len())));
    }
    let hits = if matches!(method, "probfuse" | "slidefuse") { Some(all_hit_lists(qrels, &queries, n)?) } else { None };
    let slide_probs: Option<Vec<Vec<f64>>> = (method == "slidefuse").then(|| hits.as_ref().map_or(Vec::new(), |h| h.iter().map(|h| trained::position_probs(h)).collect()));
    let mut trials = Vec::with_capacity(grid.len());
    let mut best: Option<(usize, f64, Option<Vec<Vec<f64>>>)> = None;
    for params in grid {
        let mut trained_probs = None;
        let fusion = match (&params, method) {
            (FusionParams::Weights(w), "wsum") => FusionMethod::Combined(Combination::WeightedSum(w.clone())),
            (FusionParams::Weights(w), "mixed") => FusionMethod::Combined(Combination::Mixed(w.clone())),
            (FusionParams::Weights(w), "wmnz") => FusionMethod::Combined(Combination::WeightedMnz(w.clone())),
            (FusionParams::Weights(w), "w_bordafuse") => FusionMethod::WeightedBordaFuse(w.clone()),
            (FusionParams::Weights(w), _) => FusionMethod::WeightedCondorcet(w.clone()),
            (FusionParams::K(k), _) => FusionMethod::ReciprocalRank { k: *k },
            (FusionParams::Gamma(g), _) => FusionMethod::Combined(Combination::Gmnz { gamma: *g }),
            (FusionParams::Sigma(s), _) => FusionMethod::LognInverseSquareRank { sigma: *s },
            (FusionParams::Phi(p), _) => FusionMethod::RankBiasedCentroid { phi: *p },
            (FusionParams::NSegments(k), _) => {
                let probs: Vec<Vec<f64>> = hits.as_ref().map_or(Vec::new(), |h| h.iter().map(|h| trained::probfuse_probs(h, *k)).collect());
                trained_probs = Some(probs.clone());
                FusionMethod::ProbFuse { probs }
            }
            (FusionParams::W(w), _) => FusionMethod::SlideFuse { probs: slide_probs.clone().unwrap_or_default(), w: *w },
            _ => unreachable!("grids hold search configurations only"),
        };
        let score = fused_score(qrels, &queries, &fusion, &request, &options.metric)?;
        if score >= best.as_ref().map_or(0.0, |b| b.1) {
            best = Some((trials.len(), score, trained_probs));
        }
        trials.push((params, score));
    }
    let (at, best_score, probs) = best.ok_or_else(|| Error::invalid("metric", "no configuration gave a score"))?;
    let best = match (&trials[at].0, probs) {
        (FusionParams::NSegments(_), Some(probs)) => FusionParams::Probs(probs),
        (FusionParams::W(w), _) => FusionParams::SlideFuse { probs: slide_probs.unwrap_or_default(), w: *w },
        (p, _) => p.clone(),
    };
    Ok(Optimization { best, best_score: Some(best_score), trials })
}

/// The configurations to try, in order.
fn grid(options: &OptimizeFusionOptions, method: &str, runs: usize) -> Result<Vec<FusionParams>> {
    let explicit = |read: &dyn Fn(&Json) -> Option<FusionParams>, expected: &str| -> Option<Result<Vec<FusionParams>>> {
        options.grid.as_ref().map(|list| {
            list.iter()
                .enumerate()
                .map(|(i, item)| read(item).ok_or_else(|| Error::invalid(&format!("grid[{i}]"), format!("expected {expected}, got {item}"))))
                .collect()
        })
    };
    let unit = |x: &Json| x.as_f64().filter(|x| x.is_finite());
    let whole = |x: &Json, min: u64| x.as_u64().filter(|&x| x >= min).map(|x| x as usize);
    match method {
        "wsum" | "mixed" | "wmnz" | "w_bordafuse" | "w_condorcet" => explicit(
            &|item| {
                let w: Option<Vec<f64>> = item.as_array().and_then(|a| a.iter().map(unit).collect());
                w.filter(|w| w.len() == runs).map(FusionParams::Weights)
            },
            &format!("{runs} finite weights"),
        )
        .unwrap_or_else(|| Ok(weight_grid(&weight_values(options.step.unwrap_or(0.1))?, runs)?.into_iter().map(FusionParams::Weights).collect())),
        "rrf" => explicit(&|item| unit(item).filter(|k| *k >= 0.0).map(FusionParams::K), "a k ≥ 0").unwrap_or_else(|| {
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
        }),
        "gmnz" | "logn_isr" | "rbc" => {
            let (make, field, min, max): (fn(f64) -> FusionParams, &str, Option<f64>, Option<f64>) = match method {
                "gmnz" => (FusionParams::Gamma, "minGamma", options.min_gamma, options.max_gamma),
                "logn_isr" => (FusionParams::Sigma, "minSigma", options.min_sigma, options.max_sigma),
                _ => (FusionParams::Phi, "minPhi", options.min_phi, options.max_phi),
            };
            let in_range = |x: f64| method != "logn_isr" || (0.0..=1.0).contains(&x);
            explicit(&|item| unit(item).filter(|x| in_range(*x)).map(make), if method == "logn_isr" { "a σ in [0, 1]" } else { "a finite number" }).unwrap_or_else(|| {
                let step = options.step.unwrap_or(0.01);
                let values = arange_rounded(field, min.unwrap_or(0.01), max.unwrap_or(1.0) + step, step)?;
                if let Some(bad) = values.iter().find(|x| !in_range(**x)) {
                    return Err(Error::invalid(field, format!("σ must be in [0, 1]; the range gives {bad}")));
                }
                Ok(values.into_iter().map(make).collect())
            })
        }
        "probfuse" => explicit(&|item| whole(item, 1).map(FusionParams::NSegments), "a number of segments ≥ 1").unwrap_or_else(|| {
            let (min, max) = (options.min_n_segments.unwrap_or(1), options.max_n_segments.unwrap_or(100));
            if min == 0 {
                return Err(Error::invalid("minNSegments", "must be ≥ 1"));
            }
            Ok((min..=max).map(|k| FusionParams::NSegments(k as usize)).collect())
        }),
        _ => explicit(&|item| whole(item, 0).map(FusionParams::W), "a window half-width ≥ 0").unwrap_or_else(|| {
            let (min, max) = (options.min_w.unwrap_or(1), options.max_w.unwrap_or(100));
            Ok((min..=max).map(|w| FusionParams::W(w as usize)).collect())
        }),
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
