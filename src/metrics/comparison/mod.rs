//! Comparing runs on the same qrels, measure by measure, as ranx's `compare` does: per-query values, means,
//! a statistical test between every pair of runs ([`StatTest`]), and win/tie/loss counts. [`compare_runs`] is
//! the two-run form (both tests at once, per-query differences); [`compare`] takes any number of runs and one
//! test, and its result is what [`crate::metrics::formats::ranx_report`] prints.
//!
//! Queries are paired by qid over the union of the evaluations, in byte order (ranx sorts its qrels' ids the same
//! way, and its Fisher test draws per query in that order); a query evaluated for some runs only counts 0 for the
//! others, as trec_eval `-c` would score it.

pub mod significance;
pub mod tukey;

use significance::{fisher_randomization_test, paired_t_test, PermutationTest, TTest};
use tukey::tukey_hsd;

use crate::error::{Error, Result};
use crate::metrics::evaluation::{evaluate, EvalOptions, Evaluation};
use crate::metrics::inputs::qrels::Qrels;
use crate::metrics::inputs::run::Run;
use crate::metrics::measures::Value;
use crate::metrics::names::dialect::MeasureRequest;
use crate::python::numpy_sum::np_mean;

/// Most permutations one randomisation test may run.
pub const MAX_TRIALS: u32 = 1_000_000;

/// Settings of the permutation test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PermutationSettings {
    pub n_permutations: u32,
    /// numpy's legacy seed (0 ≤ seed < 2³²).
    pub random_seed: u32,
}

impl Default for PermutationSettings {
    /// ranx's defaults: 1000 permutations, seed 42.
    fn default() -> Self {
        PermutationSettings { n_permutations: 1000, random_seed: 42 }
    }
}

/// Options of `compareRuns`' significance tests, beside `evaluate`'s (ranx's `compare` keyword arguments).
#[derive(Debug, Clone, Default, PartialEq, serde::Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct CompareOptions {
    /// The test between every pair of runs (ranx's `stat_test`; default "student", as ranx's `compare`). Runs
    /// given as an array only: two runs given apart get both Student's and Fisher's test.
    pub stat_test: Option<StatTest>,
    /// Permutations of Fisher's randomisation test (ranx's `n_permutations`; default 1000).
    pub n_permutations: Option<u32>,
    /// A pair differs significantly when p ≤ maxP (ranx's `max_p`; default 0.01). Runs given as an array only.
    pub max_p: Option<f64>,
    /// Fisher's seed (ranx's `random_seed`), numpy's legacy seed 0 ≤ s < 2³² (default 42): the same seed gives
    /// ranx's p-values.
    pub random_seed: Option<u64>,
}

impl CompareOptions {
    /// The settings of [`compare`] (N runs, one test).
    pub fn settings(&self) -> Result<CompareSettings> {
        let defaults = CompareSettings::default();
        Ok(CompareSettings {
            stat_test: self.stat_test.unwrap_or(defaults.stat_test),
            permutation: self.permutation()?,
            max_p: self.max_p.unwrap_or(defaults.max_p),
        })
    }

    /// The settings of [`compare_runs`] (two runs, both tests): `statTest` and `maxP` choose among N runs' tests and
    /// so mean nothing there.
    pub fn pair_settings(&self) -> Result<PermutationSettings> {
        if self.stat_test.is_some() || self.max_p.is_some() {
            let name = if self.stat_test.is_some() { "statTest" } else { "maxP" };
            return Err(Error::invalid(
                &format!("options.{name}"),
                "two runs given apart get both tests and no significance flag: give the runs as an array to choose the test",
            ));
        }
        self.permutation()
    }

    /// Checked: 1 ≤ nPermutations ≤ [`MAX_TRIALS`], randomSeed < 2³² (numpy's legacy seeds).
    fn permutation(&self) -> Result<PermutationSettings> {
        let defaults = PermutationSettings::default();
        let n_permutations = self.n_permutations.unwrap_or(defaults.n_permutations);
        if n_permutations == 0 {
            return Err(Error::invalid("options.nPermutations", "must be at least 1"));
        }
        // a hard cap on the work one call may ask for: p-values resolve to 1e-6 at the cap, and 2^32 permutations
        // over a few thousand queries would block the caller for minutes
        if n_permutations > MAX_TRIALS {
            return Err(Error::invalid("options.nPermutations", format!("at most {MAX_TRIALS} (ranx's default is 1000)")));
        }
        let random_seed = match self.random_seed {
            None => defaults.random_seed,
            Some(s) => u32::try_from(s)
                .map_err(|_| Error::invalid("options.randomSeed", format!("must be below 2^32 (numpy's legacy seed, as ranx uses), got {s}")))?,
        };
        Ok(PermutationSettings { n_permutations, random_seed })
    }
}

/// One measure compared between two runs.
#[derive(Debug, Clone, PartialEq)]
pub struct MeasureComparison {
    pub key: String,
    pub mean_a: f64,
    pub mean_b: f64,
    /// Per query: (qid, value for a, value for b); b − a is the difference.
    pub per_query: Vec<(String, f64, f64)>,
    pub t_test: TTest,
    pub permutation: PermutationTest,
}

/// Query ids over the union of `evaluations`, in byte order, and each evaluation's numeric values of measure `m`
/// for them (0 where an evaluation lacks the query); `None` when the measure is not numeric.
fn paired_values(evaluations: &[Evaluation], m: usize) -> Option<(Vec<String>, Vec<Vec<f64>>)> {
    if evaluations.iter().any(|e| matches!(e.aggregate[m], Value::Text(_))) {
        return None;
    }
    let mut qids: Vec<&str> = evaluations.iter().flat_map(|e| e.per_query.iter().map(|q| q.qid.as_str())).collect();
    crate::stable_sort::stable_sort_by(&mut qids, |x, y| x.as_bytes().cmp(y.as_bytes()));
    qids.dedup();
    let values = evaluations
        .iter()
        .map(|e| {
            qids.iter()
                .map(|qid| {
                    e.per_query.binary_search_by(|q| q.qid.as_bytes().cmp(qid.as_bytes())).ok().map_or(0.0, |i| {
                        match &e.per_query[i].values[m] {
                            Value::Number(x) => *x,
                            Value::Text(_) => f64::NAN,
                        }
                    })
                })
                .collect()
        })
        .collect();
    Some((qids.into_iter().map(str::to_string).collect(), values))
}

/// Compares `run_b` with `run_a` on every numeric measure of `measures`: paired t-test and Fisher's test.
pub fn compare_runs(
    qrels: &Qrels,
    run_a: &Run,
    run_b: &Run,
    measures: &[MeasureRequest],
    options: &EvalOptions,
    permutation: PermutationSettings,
) -> Result<Vec<MeasureComparison>> {
    let evaluations = [evaluate(qrels, run_a, measures, options)?, evaluate(qrels, run_b, measures, options)?];
    let mut comparisons = Vec::new();
    for (m, request) in measures.iter().enumerate() {
        let Some((qids, values)) = paired_values(&evaluations, m) else { continue };
        let mean = |v: &[f64]| if v.is_empty() { 0.0 } else { np_mean(v) };
        comparisons.push(MeasureComparison {
            key: request.key.clone(),
            mean_a: mean(&values[0]),
            mean_b: mean(&values[1]),
            t_test: paired_t_test(&values[0], &values[1]),
            permutation: fisher_randomization_test(&values[0], &values[1], permutation.n_permutations, permutation.random_seed),
            per_query: qids.into_iter().zip(values[0].iter().zip(&values[1])).map(|(q, (a, b))| (q, *a, *b)).collect(),
        });
    }
    Ok(comparisons)
}

/// The significance test of `compareRuns` (ranx's `stat_test`): "student" (two-sided paired Student's t-test),
/// "fisher" (Fisher's randomisation test with ranx's seeded draws) or "tukey" (Tukey's HSD over all runs at once).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum StatTest {
    /// Fisher's randomisation test, ranx's draws ([`fisher_randomization_test`]).
    Fisher,
    /// Two-sided paired Student's t-test ([`paired_t_test`]).
    Student,
    /// Tukey's HSD over all runs at once ([`tukey_hsd`]).
    Tukey,
}

impl StatTest {
    /// ranx's name.
    pub fn name(self) -> &'static str {
        match self {
            StatTest::Fisher => "fisher",
            StatTest::Student => "student",
            StatTest::Tukey => "tukey",
        }
    }
}

/// Settings of [`compare`]; the defaults are ranx's.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CompareSettings {
    /// Default Student's t-test, as ranx's `compare`.
    pub stat_test: StatTest,
    /// Fisher's permutations and seed (default 1000 and 42).
    pub permutation: PermutationSettings,
    /// A pair differs significantly when p ≤ max_p (default 0.01).
    pub max_p: f64,
}

impl Default for CompareSettings {
    fn default() -> Self {
        CompareSettings { stat_test: StatTest::Student, permutation: PermutationSettings::default(), max_p: 0.01 }
    }
}

/// How often run i scored above, equal to and below run j over the queries (ranx's win/tie/loss).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct WinTieLoss {
    pub win: u32,
    pub tie: u32,
    pub loss: u32,
}

/// One measure over all runs.
#[derive(Debug, Clone, PartialEq)]
pub struct MeasureResults {
    pub key: String,
    /// Mean per run (numpy's mean of the per-query values, as ranx).
    pub means: Vec<f64>,
    /// `values[run][query]`, queries as in [`Comparison::qids`].
    pub values: Vec<Vec<f64>>,
    /// `p_values[i][j]`, symmetric; NaN on the diagonal.
    pub p_values: Vec<Vec<f64>>,
    /// `win_tie_loss[i][j]`: run i against run j.
    pub win_tie_loss: Vec<Vec<WinTieLoss>>,
}

/// Runs compared on several measures (ranx's `Report` data).
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    pub run_names: Vec<String>,
    pub qids: Vec<String>,
    pub measures: Vec<MeasureResults>,
    pub settings: CompareSettings,
}

impl Comparison {
    /// Whether runs i and j differ significantly on measure m: p ≤ max_p (never for NaN).
    pub fn significant(&self, m: usize, i: usize, j: usize) -> bool {
        self.measures[m].p_values[i][j] <= self.settings.max_p
    }
}

/// The most runs [`compare`] takes: the report names them a–z, as ranx does.
pub const MAX_RUNS: usize = 26;

/// Compares `runs` (named by `names`) on every numeric measure: each run's per-query values and mean, the p-value
/// of every pair under `settings.stat_test`, and win/tie/loss counts, as ranx's `compare`.
pub fn compare(
    qrels: &Qrels,
    runs: &[&Run],
    names: &[String],
    measures: &[MeasureRequest],
    options: &EvalOptions,
    settings: CompareSettings,
) -> Result<Comparison> {
    if names.len() != runs.len() {
        return Err(Error::invalid("names", format!("has {} names for {} runs", names.len(), runs.len())));
    }
    let evaluations: Vec<Evaluation> = runs.iter().map(|run| evaluate(qrels, run, measures, options)).collect::<Result<_>>()?;
    let mut qids: Vec<String> = Vec::new();
    let mut scores = Vec::new();
    for (m, request) in measures.iter().enumerate() {
        if let Some((q, values)) = paired_values(&evaluations, m) {
            qids = q;
            scores.push((request.key.clone(), values));
        }
    }
    if scores.is_empty() {
        return Err(Error::invalid("measures", "no numeric measure to compare"));
    }
    compare_scores(names, qids, scores, settings)
}

/// The statistics of [`compare`] over per-query scores already computed: `scores` holds, per measure, its key and
/// `values[run][query]` (queries as in `qids`, the same for every run).
pub fn compare_scores(
    names: &[String],
    qids: Vec<String>,
    scores: Vec<(String, Vec<Vec<f64>>)>,
    settings: CompareSettings,
) -> Result<Comparison> {
    let k = names.len();
    if !(2..=MAX_RUNS).contains(&k) {
        return Err(Error::invalid("runs", format!("give 2 to {MAX_RUNS} runs to compare, got {k}")));
    }
    if let Some((i, _)) = names.iter().enumerate().find(|(i, n)| names[..*i].contains(n)) {
        return Err(Error::invalid(&format!("names[{i}]"), format!("{:?} names two runs", names[i])));
    }
    if !(settings.max_p.is_finite() && settings.max_p > 0.0 && settings.max_p <= 1.0) {
        return Err(Error::invalid("maxP", format!("must be in (0, 1], got {}", settings.max_p)));
    }
    if settings.permutation.n_permutations == 0 {
        return Err(Error::invalid("nPermutations", "must be at least 1"));
    }
    let mut results = Vec::new();
    for (key, values) in scores {
        if values.len() != k || values.iter().any(|v| v.len() != qids.len()) {
            return Err(Error::invalid(&format!("scores.{key}"), format!("expected {k} runs × {} queries", qids.len())));
        }
        let mut p_values = vec![vec![f64::NAN; k]; k];
        if settings.stat_test == StatTest::Tukey {
            let groups: Vec<&[f64]> = values.iter().map(Vec::as_slice).collect();
            p_values = tukey_hsd(&groups);
            (0..k).for_each(|i| p_values[i][i] = f64::NAN);
        } else {
            for i in 0..k {
                for j in i + 1..k {
                    let p = match settings.stat_test {
                        StatTest::Fisher => {
                            let PermutationSettings { n_permutations, random_seed } = settings.permutation;
                            fisher_randomization_test(&values[i], &values[j], n_permutations, random_seed).p_value
                        }
                        _ => paired_t_test(&values[i], &values[j]).p_value,
                    };
                    (p_values[i][j], p_values[j][i]) = (p, p);
                }
            }
        }
        let win_tie_loss = (0..k)
            .map(|i| {
                (0..k)
                    .map(|j| {
                        let mut w = WinTieLoss::default();
                        for (a, b) in values[i].iter().zip(&values[j]) {
                            if a > b {
                                w.win += 1;
                            } else if a == b {
                                w.tie += 1;
                            } else if a < b {
                                w.loss += 1;
                            }
                        }
                        w
                    })
                    .collect()
            })
            .collect();
        results.push(MeasureResults {
            key,
            means: values.iter().map(|v| np_mean(v)).collect(),
            values,
            p_values,
            win_tie_loss,
        });
    }
    Ok(Comparison { run_names: names.to_vec(), qids, measures: results, settings })
}
