//! ranx's measure names (`ndcg@10`, `dcg@10`, `mrr@10`, `hits`, `rbp.95`, `rbp@95`) as ranx 0.3.21 reads them, the `name@k` style
//! ranx and ir_measures share, and the lower-case aliases of either tool's names without a cutoff.
//!
//! ranx names that differ from trec_eval's measure of the same word map to what ranx computes: `map@k` is
//! trec_eval's `map_cut_k`, `mrr@k` stops at rank k ([`Metric::RecipRankCut`]), `ndcg@k` is `ndcg_cut_k`
//! (gain = grade), `ndcg_burges@k` uses gain 2^grade − 1, `dcg@k` and `dcg_burges@k` are those DCGs unnormalised, `precision`, `hits` and `hit_rate` without k are
//! over the whole ranking. ranx breaks score ties its own way; rerankit always uses the
//! [`TiePolicy`](crate::metrics::evaluation::ranking::TiePolicy) chosen.

use super::trec_eval::{parse_cutoff, parse_number};
use crate::error::{Error, Result};
use crate::metrics::measures::metric::{GainPairs, HaystackMeasure, Judging, Metric, WHOLE_RANKING};

/// ranx 0.3.21's measure names (`metric_switch` in ranx/metrics/__init__.py); each also takes `@k`, and `rbp`
/// needs its persistence (`rbp.95`). Without `@k`, ranx's k is 0: the whole ranking.
pub const RANX_NAMES: &[&str] = &[
    "hits", "hit_rate", "precision", "recall", "f1", "r-precision", "mrr", "map", "dcg", "dcg_burges", "ndcg",
    "ndcg_burges", "bpref", "rbp",
];

/// ranx / ir_measures names without a cutoff.
pub(super) fn parse_alias(name: &str) -> Option<Metric> {
    Some(match name.to_ascii_lowercase().as_str() {
        "ndcg" => Metric::Ndcg(GainPairs::default()),
        "ndcg_burges" => Metric::NdcgBurges,
        "dcg_burges" => Metric::DcgBurgesCut(WHOLE_RANKING),
        "mrr" | "rr" => Metric::RecipRank,
        "ap" => Metric::Map,
        "map" => Metric::Map,
        "precision" => Metric::SetP,
        "recall" => Metric::SetRecall,
        "r-precision" | "r_precision" | "rprec" => Metric::Rprec,
        "bpref" => Metric::Bpref,
        "f1" => Metric::SetF { beta: 1.0, printable: None },
        // ranx's hits without k: relevant documents retrieved, averaged over queries as ranx averages it
        // (ir_measures' NumRelRet, trec_eval's num_rel_ret, is summed)
        "hits" => Metric::Hits(WHOLE_RANKING),
        "hit_rate" => Metric::Success(WHOLE_RANKING),
        // ir_measures' NumRelRet: relevance level 1 unless it says rel= (whatever the evaluation's level)
        "numrelret" => Metric::Judging {
            metric: Box::new(Metric::NumRelRet),
            judging: Judging { relevance_level: Some(1), judged_only: false },
        },
        "numret" => Metric::NumRet,
        "numrel" => Metric::NumRel,
        "numq" => Metric::NumQ,
        "infap" => Metric::InfAp,
        "graphrag_ap" => Metric::GraphragAp,
        "recall_multi_hit" => Metric::Haystack(HaystackMeasure::RecallMultiHit),
        "recall_single_hit" => Metric::Haystack(HaystackMeasure::RecallSingleHit),
        _ => return None,
    })
}

/// A ranx name as ranx 0.3.21 reads it (`extract_metric_and_params`): `name`, `name@k` or `rbp.95`, with an
/// optional relevance level `-lN` (`precision@5-l2`); `None` for a name that is not ranx's (ranx's names are lower
/// case and case-sensitive).
pub(super) fn parse_ranx(name: &str) -> Result<Option<Metric>> {
    match name.split_once("-l") {
        Some((measure, level)) => parse_ranx_at_level(name, measure, level),
        None => parse_ranx_measure(name, name),
    }
}

/// ranx's `-lN` suffix: the qrels keep the judgements with grade ≥ N (`clean_qrels`), so a binary measure is
/// trec_eval's at relevance level N, `dcg`/`dcg_burges`/`ndcg_burges`/`rbp` gain only from grades ≥ N (in the
/// ideal ranking too), `ndcg` is nDCG with the grades below N gaining 0, and `bpref` counts the judgements below N
/// as its non-relevant ones (ranx's bpref does not clean its qrels).
fn parse_ranx_at_level(name: &str, measure: &str, level: &str) -> Result<Option<Metric>> {
    let Some(metric) = parse_ranx_measure(measure, name)? else { return Ok(None) };
    let level: i64 = level.parse().ok().filter(|_| level.bytes().all(|b| b.is_ascii_digit())).ok_or_else(|| {
        Error::invalid("measure", format!("'{name}': ranx's relevance level after '-l' must be an integer (precision@5-l2)"))
    })?;
    let family = measure.split(['@', '.']).next().unwrap_or(measure);
    if family == "ndcg" {
        let pairs: Vec<(String, f64)> = (1..level.clamp(1, 1000)).map(|grade| (grade.to_string(), 0.0)).collect();
        let printable = pairs.iter().map(|(grade, _)| format!("{grade}=0")).collect::<Vec<_>>().join(",");
        let gains = GainPairs { printable: Some(printable), pairs };
        return Ok(Some(match metric {
            Metric::NdcgCut(k) => Metric::NdcgCutGains { k, gains },
            _ => Metric::Ndcg(gains),
        }));
    }
    Ok(Some(Metric::Judging { metric: Box::new(metric), judging: Judging { relevance_level: Some(level), judged_only: false } }))
}

/// A ranx name without the `-lN` suffix (`measure`); errors name what the caller wrote (`name`, level included).
fn parse_ranx_measure(measure: &str, name: &str) -> Result<Option<Metric>> {
    let (family, cutoff) = match measure.split_once('@') {
        Some((family, cutoff)) => (family, Some(cutoff)),
        None => (measure, None),
    };
    if let Some(metric) = parse_rbp(measure)? {
        return Ok(Some(metric));
    }
    if !RANX_NAMES.contains(&family) {
        return Ok(None);
    }
    if let Some(cutoff) = cutoff {
        if family == "bpref" {
            // ranx's bpref takes a k and ignores it
            at_cutoff(cutoff, name)?;
            return Ok(Some(Metric::RanxBpref));
        }
        return parse_at_style(family, cutoff, name);
    }
    Ok(Some(match family {
        "precision" => Metric::SetP,
        "recall" => Metric::SetRecall,
        "f1" => Metric::SetF { beta: 1.0, printable: None },
        "r-precision" => Metric::Rprec,
        "mrr" => Metric::RecipRank,
        "map" => Metric::Map,
        "dcg" => Metric::DcgCut(WHOLE_RANKING),
        "dcg_burges" => Metric::DcgBurgesCut(WHOLE_RANKING),
        "ndcg" => Metric::Ndcg(GainPairs::default()),
        "ndcg_burges" => Metric::NdcgBurges,
        "bpref" => Metric::RanxBpref,
        "hits" => Metric::Hits(WHOLE_RANKING),
        "hit_rate" => Metric::Success(WHOLE_RANKING),
        "rbp" => return Err(Error::invalid("measure", format!("'{name}': ranx's rbp needs its persistence (rbp.95)"))),
        _ => return Err(Error::invalid("measure", format!("'{name}': ranx's {family} is not computed by rerankit"))),
    }))
}

/// ranx's RBP spellings, `rbp.95` and `rbp@95`: ranx (`extract_metric_and_params`) reads the digits after the
/// first `.`, else after `@`, as p = float("0.95"); graded gains of the documents with grade ≥ 1, whole ranking.
/// `None` for a name not spelt so.
pub(super) fn parse_rbp(name: &str) -> Result<Option<Metric>> {
    let Some(rest) = name.strip_prefix("rbp") else { return Ok(None) };
    let Some(digits) = rest.strip_prefix('.').or_else(|| rest.strip_prefix('@')) else { return Ok(None) };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(Error::invalid(
            "measure",
            format!("'{name}': ranx's rbp takes its persistence as digits after the point, as in rbp.95 or rbp@95"),
        ));
    }
    let p = parse_number(&format!("0.{digits}"), name)?;
    Ok(Some(Metric::RbpGraded { p, cutoff: None }))
}

/// `name@k` (ranx / ir_measures); `None` for a family these names do not know (ir_measures' own names).
pub(super) fn parse_at_style(family: &str, cutoff: &str, name: &str) -> Result<Option<Metric>> {
    let metric: fn(u32) -> Metric = match family.to_ascii_lowercase().as_str() {
        "ndcg" => Metric::NdcgCut,
        "ndcg_burges" => Metric::NdcgBurgesCut,
        "dcg" => Metric::DcgCut,
        "dcg_burges" => Metric::DcgBurgesCut,
        "p" | "precision" => Metric::P,
        "r" | "recall" => Metric::Recall,
        "map" | "ap" => Metric::MapCut,
        "mrr" | "rr" | "recip_rank" => Metric::RecipRankCut,
        "success" | "hit_rate" | "hitrate" => Metric::Success,
        "hits" => Metric::Hits,
        "f1" => Metric::F1Cut,
        "graphrag_recall" => Metric::GraphragRecall,
        _ => return Ok(None),
    };
    Ok(Some(metric(at_cutoff(cutoff, name)?)))
}

/// The k after `@`: digits only, a positive integer.
fn at_cutoff(cutoff: &str, name: &str) -> Result<u32> {
    if cutoff.is_empty() || !cutoff.bytes().all(|b| b.is_ascii_digit()) {
        return Err(Error::invalid("measure", format!("'{name}': the cutoff after '@' must be a positive integer")));
    }
    parse_cutoff(cutoff, name)
}
