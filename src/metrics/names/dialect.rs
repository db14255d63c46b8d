//! Reading a measure name: [`Metric::parse_all_in`] reads it in a [`Dialect`] (whose meaning a name two tools
//! define differently has), [`parse_measures_in`] reads a caller's list into [`MeasureRequest`]s.
//!
//! In every dialect a name the dialect's own tool does not define is read as the trec_eval dialect reads it:
//! trec_eval's families and nicknames first ([`super::trec_eval`]), then ranx / ir_measures `name@k` and
//! aliases ([`super::ranx`]), then ir_measures' parameterised names ([`super::ir_measures`]). A name two tools
//! define with different meanings (`recall`: trec_eval's `recall_5 … recall_1000`, ranx's recall over the
//! whole ranking) is read in the caller's [`Dialect`]; [`colliding_names`] enumerates them from the tools' name
//! tables.

use super::ir_measures::{is_ir_measures_name, parse_ir_measure, registry_names};
use super::ranx::{parse_alias, parse_at_style, parse_ranx, parse_rbp, RANX_NAMES};
use super::trec_eval::{nickname, parse_underscore_cutoff, trec_family, FAMILIES};
use crate::error::{Error, Result};
use crate::metrics::measures::metric::Metric;

/// Whose meaning a measure name has where trec_eval's, ranx's and ir_measures' names collide: "trec_eval" (the
/// default of `evaluate` and `compareRuns(a, b)`: `recall` is recall_5 … recall_1000, `P` is P_5 … P_1000), "ranx"
/// (the default of `compareRuns` with an array of runs: `recall` is recall over the whole ranking, `hits` /
/// `hit_rate` likewise, `rbp.95`; an empty run is refused, as ranx refuses it) or "ir_measures" (its
/// case-sensitive names as ir_measures reads them: `P`, `Recall` without `@k` are errors; every query of the qrels
/// is evaluated; empty qrels give an empty result). A name only one tool knows means what that tool computes in
/// every dialect.
// `colliding_names` lists the names that collide.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub enum Dialect {
    /// trec_eval's families and nicknames first, then the other tools' names (rerankit's historical reading).
    #[default]
    #[serde(rename = "trec_eval")]
    TrecEval,
    /// ranx 0.3.21's names ([`RANX_NAMES`], `name@k`, `rbp.95`) as ranx computes them, then the trec_eval
    /// dialect's reading for any other name.
    #[serde(rename = "ranx")]
    Ranx,
    /// ir_measures 0.4.3's registered names, spelt as ir_measures spells them (case matters), as its
    /// `parse_measure` and default providers read them; then the trec_eval dialect's reading.
    #[serde(rename = "ir_measures")]
    IrMeasures,
}

impl Dialect {
    pub const ALL: [Dialect; 3] = [Dialect::TrecEval, Dialect::Ranx, Dialect::IrMeasures];

    pub fn as_str(self) -> &'static str {
        match self {
            Dialect::TrecEval => "trec_eval",
            Dialect::Ranx => "ranx",
            Dialect::IrMeasures => "ir_measures",
        }
    }

    /// The measure names this tool itself defines (without cutoffs or parameters).
    pub fn names(self) -> Vec<&'static str> {
        match self {
            Dialect::TrecEval => FAMILIES.iter().chain(&["official", "all_trec", "set"]).copied().collect(),
            Dialect::Ranx => RANX_NAMES.to_vec(),
            Dialect::IrMeasures => registry_names(),
        }
    }
}

/// Names of the three tools' tables ([`Dialect::names`]) that rerankit reads differently in different
/// dialects: the names a caller must say the dialect of.
pub fn colliding_names() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Dialect::ALL.iter().flat_map(|d| d.names()).collect();
    crate::stable_sort::stable_sort(&mut names);
    names.dedup();
    names.retain(|name| {
        let readings: Vec<Option<Vec<Metric>>> = Dialect::ALL.iter().map(|&d| Metric::parse_all_in(name, d).ok()).collect();
        readings.windows(2).any(|w| w[0] != w[1])
    });
    names
}

impl Metric {
    /// `official` stand for several. Colliding names are read as trec_eval's ([`Dialect::TrecEval`]).
    pub fn parse_all(name: &str) -> Result<Vec<Metric>> {
        Metric::parse_all_in(name, Dialect::TrecEval)
    }

    /// [`Metric::parse_all`] with the meaning `dialect` gives a name its tool defines.
    pub fn parse_all_in(name: &str, dialect: Dialect) -> Result<Vec<Metric>> {
        let name = name.trim();
        match dialect {
            Dialect::TrecEval => {}
            Dialect::Ranx => {
                if let Some(metric) = parse_ranx(name)? {
                    return Ok(vec![metric]);
                }
            }
            Dialect::IrMeasures => {
                let measure = name.split(['(', '@']).next().unwrap_or(name).trim();
                if is_ir_measures_name(measure) {
                    return Ok(vec![parse_ir_measure(name)?]);
                }
            }
        }
        Metric::parse_trec_eval_first(name)
    }

    fn parse_trec_eval_first(name: &str) -> Result<Vec<Metric>> {
        if name.is_empty() {
            return Err(Error::invalid("measure", "empty measure name"));
        }
        if name.contains('(') {
            return Ok(vec![parse_ir_measure(name)?]);
        }
        // ranx's relevance-level suffix (`precision@5-l2`) is ranx's alone
        if name.contains("-l") {
            if let Some(metric) = parse_ranx(name)? {
                return Ok(vec![metric]);
            }
        }
        if let Some(at) = name.find('@') {
            // ranx's `rbp@95` (its `rbp.95` is trec_eval's rbp family with parameters outside the ranx dialect)
            if name.starts_with("rbp@") {
                return Ok(parse_rbp(name)?.into_iter().collect());
            }
            if let Some(metric) = parse_at_style(&name[..at], &name[at + 1..], name)? {
                return Ok(vec![metric]);
            }
            return Ok(vec![parse_ir_measure(name)?]);
        }
        if let Some(metrics) = parse_underscore_cutoff(name)? {
            return Ok(metrics);
        }
        let (family, params) = match name.find('.') {
            Some(dot) => (&name[..dot], Some(&name[dot + 1..])),
            None => (name, None),
        };
        if let Some(list) = nickname(family) {
            let mut metrics = Vec::new();
            for family in list {
                metrics.extend(trec_family(family, None, name)?);
            }
            return Ok(metrics);
        }
        if FAMILIES.contains(&family) || family == "haystack" {
            return trec_family(family, params, name);
        }
        if params.is_none() {
            if let Some(metric) = parse_alias(name) {
                return Ok(vec![metric]);
            }
            if is_ir_measures_name(name) {
                return Ok(vec![parse_ir_measure(name)?]);
            }
        }
        Err(unknown(name))
    }

    /// Parses one measure name that must stand for exactly one measure.
    pub fn parse(name: &str) -> Result<Metric> {
        let mut metrics = Metric::parse_all(name)?;
        if metrics.len() != 1 {
            return Err(Error::invalid("measure", format!("'{name}' stands for {} measures, not one", metrics.len())));
        }
        Ok(metrics.remove(0))
    }
}

/// A requested measure and the key its results are reported under.
#[derive(Debug, Clone, PartialEq)]
pub struct MeasureRequest {
    /// The name as the caller wrote it when it stands for one measure (`ndcg@10`), else the measure's own
    /// name (`P_5` from `P.5,10`).
    pub key: String,
    pub metric: Metric,
}

/// Parses a list of measure names into requests, keeping the caller's order and dropping exact repeats.
pub fn parse_measures<S: AsRef<str>>(names: &[S]) -> Result<Vec<MeasureRequest>> {
    parse_measures_in(names, Dialect::TrecEval)
}

/// [`parse_measures`] in `dialect`.
pub fn parse_measures_in<S: AsRef<str>>(names: &[S], dialect: Dialect) -> Result<Vec<MeasureRequest>> {
    let mut requests: Vec<MeasureRequest> = Vec::new();
    for name in names {
        let name = name.as_ref();
        let metrics = Metric::parse_all_in(name, dialect)?;
        let single = metrics.len() == 1;
        for metric in metrics {
            let key = if single { name.trim().to_string() } else { metric.name() };
            if !requests.iter().any(|r| r.key == key && r.metric == metric) {
                requests.push(MeasureRequest { key, metric });
            }
        }
    }
    Ok(requests)
}

/// The error for a name no dialect reads (the trec_eval reading is every dialect's last).
fn unknown(name: &str) -> Error {
    let family = name.split(['.', '@', '(']).next().unwrap_or(name);
    let mut names: Vec<&str> = FAMILIES.iter().chain(&["official", "all_trec", "set"]).chain(RANX_NAMES).copied().collect();
    names.extend(registry_names());
    crate::stable_sort::stable_sort(&mut names);
    names.dedup();
    Error::invalid(
        "measure",
        format!(
            "unknown measure '{name}' (trec_eval names such as 'ndcg_cut_10', 'P.5,10', 'map', or ranx names such as \
             'ndcg@10', 'mrr@10', 'recall@100', or ir_measures names such as 'P(rel=2)@10', 'RBP(p=0.8)'): {}",
            crate::options::unknown_name("measure name", family, &names)
        ),
    )
}
