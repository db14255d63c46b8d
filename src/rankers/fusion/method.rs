//! The fusion methods by ranx's names, their parameters as JS passes them (`{method, k, weights, phi, …}`), and
//! what each is made of: a per-run [`Contribution`] and a [`Combination`], or a Condorcet vote.

use super::comb::Combination;
use super::contribution::Contribution;
use super::normalization::Normalization;
use super::rrf;
use crate::error::{Error, Result};

/// Every method name [`FusionMethod::from_options`] takes: ranx's, and the `comb…` spellings.
pub const NAMES: &[&str] = &[
    "rrf", "wsum", "mixed", "wmnz", "sum", "combsum", "mnz", "combmnz", "max", "combmax", "min", "combmin", "anz", "combanz",
    "med", "combmed", "gmnz", "combgmnz", "isr", "log_isr", "logn_isr", "bordafuse", "w_bordafuse", "condorcet",
    "w_condorcet", "rbc", "probfuse", "bayesfuse", "mapfuse", "posfuse", "segfuse", "slidefuse",
];

/// ranx's default σ of `logn_isr`.
pub const DEFAULT_SIGMA: f64 = 0.01;

/// A fusion method with its parameters.
#[derive(Debug, Clone, PartialEq)]
pub enum FusionMethod {
    /// `rrf`: Σ 1/(k + i + 1) over the runs that retrieved d (i: d's 0-based position; k = 60 by default).
    ReciprocalRank { k: f64 },
    /// The normalised scores combined: `sum`, `mnz`, `max`, `min`, `anz`, `med`, `gmnz`, `wsum`, `mixed`, `wmnz`.
    Combined(Combination),
    /// `isr`: |R(d)| · Σ 1/(i + 1)².
    InverseSquareRank,
    /// `log_isr`: ln|R(d)| · Σ 1/(i + 1)².
    LogInverseSquareRank,
    /// `logn_isr`: ln(|R(d)| + σ) · Σ 1/(i + 1)², σ ∈ [0, 1] (default 0.01).
    LognInverseSquareRank { sigma: f64 },
    /// `rbc`: Σ (1 − φ) · φ^i.
    RankBiasedCentroid { phi: f64 },
    /// `bordafuse`: Σ over every run of the Borda points (C − i; a missed candidate (C − n + 1)/2).
    BordaFuse,
    /// `w_bordafuse`: Σ w_r · Borda points.
    WeightedBordaFuse(Vec<f64>),
    /// `condorcet`: |C| − j for the candidate at position j of the pairwise-majority sort.
    Condorcet,
    /// `w_condorcet`: the same with weighted votes.
    WeightedCondorcet(Vec<f64>),
    /// `probfuse`: Σ P_r(k)/(k + 1) over d's segment k in each run (trained segment probabilities).
    ProbFuse { probs: Vec<Vec<f64>> },
    /// `bayesfuse`: Σ over every run of the trained log-odds of d's position (ln(0.001/0.999) where missed).
    BayesFuse { log_odds: Vec<Vec<f64>> },
    /// `mapfuse`: Σ MAP_r/(i + 1) (each run's trained MAP).
    MapFuse { map_scores: Vec<f64> },
    /// `posfuse`: Σ P_r(i) (trained probability of relevance of each position).
    PosFuse { probs: Vec<Vec<f64>> },
    /// `segfuse`: Σ P_r(k) · (s + 1) over d's fixed-size segment k (trained segment probabilities).
    SegFuse { probs: Vec<Vec<f64>> },
    /// `slidefuse`: Σ the mean trained probability over the positions i − w … i + w.
    SlideFuse { probs: Vec<Vec<f64>>, w: usize },
}

/// What a method computes: contributions then a combination, or a Condorcet vote.
#[derive(Debug, Clone, PartialEq)]
pub enum Recipe {
    Combine(Contribution, Combination),
    /// Condorcet, with the weights of the weighted form.
    Condorcet(Option<Vec<f64>>),
}

/// Options of `fuse`: ranx's `fuse(runs, norm, method, params)`, the params beside the method under ranx's names.
#[derive(Debug, Clone, PartialEq, serde::Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct FuseOptions {
    /// `"rrf"` (default); `"wsum"`, `"mixed"`, `"wmnz"` (weights); `"sum"`, `"mnz"`, `"max"`, `"min"`, `"anz"`,
    /// `"med"`, `"gmnz"` (gamma) over the normalised scores; `"isr"`, `"log_isr"`, `"logn_isr"` (sigma), `"rbc"`
    /// (phi), `"bordafuse"`, `"w_bordafuse"` (weights), `"condorcet"`, `"w_condorcet"` (weights) over the
    /// positions; the trained `"probfuse"`, `"posfuse"`, `"segfuse"` (probs), `"slidefuse"` (probs, w),
    /// `"bayesfuse"` (logOdds), `"mapfuse"` (mapScores), whose params `optimizeFusion` trains.
    #[cfg_attr(test, ts(type = "FusionMethodName"))]
    pub method: String,
    /// RRF's k (default 60).
    pub k: Option<f64>,
    /// One weight per run (`wsum`, `mixed`, `wmnz`, `w_bordafuse`, `w_condorcet`).
    pub weights: Option<Vec<f64>>,
    /// Normalisation per run and query before fusing: min-max when absent (as ranx), none when `null` or
    /// `"none"`. The position-based methods see it only through the order it gives.
    pub norm: Option<Normalization>,
    /// `rbc`'s persistence φ.
    pub phi: Option<f64>,
    /// `gmnz`'s exponent γ.
    pub gamma: Option<f64>,
    /// `logn_isr`'s σ in [0, 1] (default 0.01).
    pub sigma: Option<f64>,
    /// `slidefuse`'s window half-width.
    pub w: Option<u32>,
    /// Trained probabilities, one array per run (`probfuse`, `posfuse`, `segfuse`, `slidefuse`).
    pub probs: Option<Vec<Vec<f64>>>,
    /// `bayesfuse`'s trained log-odds, one array per run.
    pub log_odds: Option<Vec<Vec<f64>>>,
    /// `mapfuse`'s trained MAP, one per run.
    pub map_scores: Option<Vec<f64>>,
}

impl Default for FuseOptions {
    fn default() -> Self {
        FuseOptions {
            method: "rrf".into(),
            k: None,
            weights: None,
            norm: Some(Normalization::default()),
            phi: None,
            gamma: None,
            sigma: None,
            w: None,
            probs: None,
            log_odds: None,
            map_scores: None,
        }
    }
}

impl FuseOptions {
    /// The method and the normalisation these options name.
    pub fn method_and_norm(self) -> Result<(FusionMethod, Normalization)> {
        Ok((FusionMethod::from_options(&self)?, self.norm.unwrap_or(Normalization::None)))
    }
}

/// Which methods take each parameter (for the errors).
const TAKES: &[(&str, &[&str])] = &[
    ("k", &["rrf"]),
    ("weights", &["wsum", "mixed", "wmnz", "w_bordafuse", "w_condorcet"]),
    ("phi", &["rbc"]),
    ("gamma", &["gmnz"]),
    ("sigma", &["logn_isr"]),
    ("w", &["slidefuse"]),
    ("probs", &["probfuse", "posfuse", "segfuse", "slidefuse"]),
    ("logOdds", &["bayesfuse"]),
    ("mapScores", &["mapfuse"]),
];

/// `"a"`, `"a" and "b"`, `"a", "b" and "c"`.
fn quoted_list(names: &[&str]) -> String {
    let q: Vec<String> = names.iter().map(|n| format!("{n:?}")).collect();
    match q.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => q.join(""),
    }
}

impl FusionMethod {
    /// Builds a method from ranx-style names (`"rrf"`, `"wsum"`, `"combmnz"`, `"rbc"`, …, see [`NAMES`]) and
    /// the parameters in `options`. A parameter the method does not take, or a missing one it needs, is
    /// INVALID_ARGUMENT naming it; an unknown method names `method` and the nearest valid names.
    pub fn from_options(o: &FuseOptions) -> Result<Self> {
        let name = o.method.as_str();
        let canonical = match name {
            "combsum" => "sum",
            "combmnz" => "mnz",
            "combmax" => "max",
            "combmin" => "min",
            "combanz" => "anz",
            "combmed" => "med",
            "combgmnz" => "gmnz",
            other if NAMES.contains(&other) => other,
            other => return Err(Error::invalid("method", crate::options::unknown_name("fusion method", other, NAMES))),
        };
        let given: [(&str, bool); 9] = [
            ("k", o.k.is_some()),
            ("weights", o.weights.is_some()),
            ("phi", o.phi.is_some()),
            ("gamma", o.gamma.is_some()),
            ("sigma", o.sigma.is_some()),
            ("w", o.w.is_some()),
            ("probs", o.probs.is_some()),
            ("logOdds", o.log_odds.is_some()),
            ("mapScores", o.map_scores.is_some()),
        ];
        for ((field, is_given), (_, methods)) in given.iter().zip(TAKES) {
            if *is_given && !methods.contains(&canonical) {
                let which = if methods.len() == 1 { "method" } else { "methods" };
                return Err(Error::invalid(field, format!("only {which} {} take{} {field}, not {name:?}", quoted_list(methods), if methods.len() == 1 { "s" } else { "" })));
            }
        }
        fn need<T: Clone>(value: &Option<T>, field: &str, name: &str, what: &str) -> Result<T> {
            value.clone().ok_or_else(|| Error::invalid(field, format!("method {name:?} needs {what}")))
        }
        let finite = |field: &str, x: f64| -> Result<f64> {
            if x.is_finite() {
                Ok(x)
            } else {
                Err(Error::invalid(field, format!("must be a finite number, got {x}")))
            }
        };
        let weights = || need(&o.weights, "weights", name, "one weight per run");
        let probs = || need(&o.probs, "probs", name, "the trained probabilities, one array per run (optimizeFusion trains them)");
        Ok(match canonical {
            "rrf" => FusionMethod::ReciprocalRank { k: o.k.unwrap_or(rrf::DEFAULT_K) },
            "wsum" => FusionMethod::Combined(Combination::WeightedSum(weights()?)),
            "mixed" => FusionMethod::Combined(Combination::Mixed(weights()?)),
            "wmnz" => FusionMethod::Combined(Combination::WeightedMnz(weights()?)),
            "sum" => FusionMethod::Combined(Combination::Sum),
            "mnz" => FusionMethod::Combined(Combination::Mnz),
            "max" => FusionMethod::Combined(Combination::Max),
            "min" => FusionMethod::Combined(Combination::Min),
            "anz" => FusionMethod::Combined(Combination::Anz),
            "med" => FusionMethod::Combined(Combination::Med),
            "gmnz" => FusionMethod::Combined(Combination::Gmnz { gamma: finite("gamma", need(&o.gamma, "gamma", name, "gamma")?)? }),
            "isr" => FusionMethod::InverseSquareRank,
            "log_isr" => FusionMethod::LogInverseSquareRank,
            "logn_isr" => {
                let sigma = o.sigma.unwrap_or(DEFAULT_SIGMA);
                if !(0.0..=1.0).contains(&sigma) {
                    return Err(Error::invalid("sigma", format!("must be in [0, 1], got {sigma}")));
                }
                FusionMethod::LognInverseSquareRank { sigma }
            }
            "rbc" => FusionMethod::RankBiasedCentroid { phi: finite("phi", need(&o.phi, "phi", name, "phi")?)? },
            "bordafuse" => FusionMethod::BordaFuse,
            "w_bordafuse" => FusionMethod::WeightedBordaFuse(weights()?),
            "condorcet" => FusionMethod::Condorcet,
            "w_condorcet" => FusionMethod::WeightedCondorcet(weights()?),
            "probfuse" => FusionMethod::ProbFuse { probs: probs()? },
            "posfuse" => FusionMethod::PosFuse { probs: probs()? },
            "segfuse" => FusionMethod::SegFuse { probs: probs()? },
            "slidefuse" => FusionMethod::SlideFuse { probs: probs()?, w: need(&o.w, "w", name, "w, the window's half-width")? as usize },
            "bayesfuse" => FusionMethod::BayesFuse { log_odds: need(&o.log_odds, "logOdds", name, "the trained log-odds, one array per run (optimizeFusion trains them)")? },
            "mapfuse" => FusionMethod::MapFuse { map_scores: need(&o.map_scores, "mapScores", name, "the trained MAP of each run (optimizeFusion trains them)")? },
            _ => unreachable!("every name in NAMES is matched"),
        })
    }

    /// The older three-argument form: a method name with RRF's `k` and the weights.
    pub fn parse(name: &str, k: Option<f64>, weights: Option<Vec<f64>>) -> Result<Self> {
        FusionMethod::from_options(&FuseOptions { method: name.into(), k, weights, ..Default::default() })
    }

    /// What the method computes.
    pub fn recipe(&self) -> Recipe {
        use Contribution as C;
        let combine = |c, m| Recipe::Combine(c, m);
        match self {
            FusionMethod::ReciprocalRank { k } => combine(C::ReciprocalRank { k: *k }, Combination::Sum),
            FusionMethod::Combined(m) => combine(C::Score, m.clone()),
            FusionMethod::InverseSquareRank => combine(C::InverseSquareRank, Combination::Mnz),
            FusionMethod::LogInverseSquareRank => combine(C::InverseSquareRank, Combination::LogMnz),
            FusionMethod::LognInverseSquareRank { sigma } => combine(C::InverseSquareRank, Combination::LognMnz { sigma: *sigma }),
            FusionMethod::RankBiasedCentroid { phi } => combine(C::RankBiased { phi: *phi }, Combination::Sum),
            FusionMethod::BordaFuse => combine(C::Borda, Combination::Sum),
            FusionMethod::WeightedBordaFuse(w) => combine(C::Borda, Combination::WeightedSum(w.clone())),
            FusionMethod::Condorcet => Recipe::Condorcet(None),
            FusionMethod::WeightedCondorcet(w) => Recipe::Condorcet(Some(w.clone())),
            FusionMethod::ProbFuse { probs } => combine(C::SegmentProbability(probs.clone()), Combination::Sum),
            FusionMethod::BayesFuse { log_odds } => combine(C::LogOdds(log_odds.clone()), Combination::SumOdds),
            FusionMethod::MapFuse { map_scores } => combine(C::MapScore(map_scores.clone()), Combination::Sum),
            FusionMethod::PosFuse { probs } => combine(C::PositionProbability(probs.clone()), Combination::Sum),
            FusionMethod::SegFuse { probs } => combine(C::SegmentScore(probs.clone()), Combination::Sum),
            FusionMethod::SlideFuse { probs, w } => combine(C::SlidingWindow { probs: probs.clone(), w: *w }, Combination::Sum),
        }
    }

    /// Checks the parameters against the number of runs: one weight, one trained array per run, finite values.
    pub fn check(&self, runs: usize) -> Result<()> {
        let per_run = |field: &str, len: usize| -> Result<()> {
            if len != runs {
                return Err(Error::invalid(field, format!("has {len} entries for {runs} runs")));
            }
            Ok(())
        };
        let all_finite = |field: &str, xs: &[f64]| -> Result<()> {
            match xs.iter().position(|x| !x.is_finite()) {
                Some(i) => Err(Error::invalid(&format!("{field}[{i}]"), format!("{} is not a finite number", xs[i]))),
                None => Ok(()),
            }
        };
        let arrays = |field: &str, xs: &[Vec<f64>]| -> Result<()> {
            per_run(field, xs.len())?;
            for (r, x) in xs.iter().enumerate() {
                all_finite(&format!("{field}[{r}]"), x)?;
            }
            Ok(())
        };
        match self {
            FusionMethod::ReciprocalRank { k } => rrf::check_k(*k),
            FusionMethod::Combined(c) => match c.weights() {
                Some(w) => {
                    if w.len() != runs {
                        return Err(Error::invalid("weights", format!("has {} weights for {runs} runs", w.len())));
                    }
                    all_finite("weights", w)
                }
                None => Ok(()),
            },
            FusionMethod::WeightedBordaFuse(w) | FusionMethod::WeightedCondorcet(w) => {
                if w.len() != runs {
                    return Err(Error::invalid("weights", format!("has {} weights for {runs} runs", w.len())));
                }
                all_finite("weights", w)
            }
            FusionMethod::ProbFuse { probs } | FusionMethod::PosFuse { probs } | FusionMethod::SegFuse { probs } | FusionMethod::SlideFuse { probs, .. } => {
                arrays("probs", probs)
            }
            FusionMethod::BayesFuse { log_odds } => arrays("logOdds", log_odds),
            FusionMethod::MapFuse { map_scores } => {
                per_run("mapScores", map_scores.len())?;
                all_finite("mapScores", map_scores)
            }
            _ => Ok(()),
        }
    }
}
