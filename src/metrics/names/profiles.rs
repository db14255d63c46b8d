//! Named profiles: the measures and settings that reproduce another tool's numbers.
//!
//! - `trec_eval`: trec_eval's `official` measures, default settings.
//! - `haystack`: Haystack 1.x `EvaluationResult.calculate_metrics()` document metrics (`recall_multi_hit`,
//!   `recall_single_hit`, `precision`, `map`, `mrr`, `ndcg`), the retriever's order as given, every query of
//!   the run evaluated; `simulated_top_k_retriever` is [`RankingOptions::max_results`].
//! - `graphrag` / `graphrag@k`: graphrag-eval's `recall_at_k` (k = 10 unless given) and `average_precision`,
//!   the retrieved order as given, every query of the qrels evaluated (a missing one scores 0).

use super::dialect::MeasureRequest;
use super::trec_eval::OFFICIAL;
use crate::error::{Error, Result};
use crate::metrics::evaluation::ranking::{RankingOptions, TiePolicy};
use crate::metrics::evaluation::{EvalOptions, QueryScope};
use crate::metrics::measures::metric::{HaystackMeasure, Metric};

/// A profile's measures (keyed as the original tool names them) and settings.
#[derive(Debug, Clone, PartialEq)]
pub struct Profile {
    pub measures: Vec<MeasureRequest>,
    pub options: EvalOptions,
}

/// The profile called `name`.
pub fn profile(name: &str) -> Result<Profile> {
    let lower = name.trim().to_ascii_lowercase();
    if lower == "trec_eval" || lower == "trec" {
        let mut measures = Vec::new();
        for family in OFFICIAL {
            for metric in Metric::parse_all(family)? {
                measures.push(MeasureRequest { key: metric.name(), metric });
            }
        }
        return Ok(Profile { measures, options: EvalOptions::default() });
    }
    if lower == "haystack" {
        let measures = HaystackMeasure::ALL
            .into_iter()
            .map(|m| MeasureRequest { key: m.haystack_name().to_string(), metric: Metric::Haystack(m) })
            .collect();
        let options = EvalOptions {
            ranking: RankingOptions { ties: TiePolicy::Input, ..RankingOptions::default() },
            scope: QueryScope::AllRun,
            ..EvalOptions::default()
        };
        return Ok(Profile { measures, options });
    }
    if let Some(rest) = lower.strip_prefix("graphrag") {
        let k = match rest.strip_prefix('@') {
            Some(k) => k
                .parse::<u32>()
                .ok()
                .filter(|k| *k >= 1)
                .ok_or_else(|| Error::invalid("profile", format!("'{name}': k must be a positive integer")))?,
            None if rest.is_empty() => 10,
            None => return Err(unknown_profile(name)),
        };
        let measures = vec![
            MeasureRequest { key: format!("recall@{k}"), metric: Metric::GraphragRecall(k) },
            MeasureRequest { key: "average_precision".to_string(), metric: Metric::GraphragAp },
        ];
        let options = EvalOptions {
            ranking: RankingOptions { ties: TiePolicy::Input, ..RankingOptions::default() },
            scope: QueryScope::AllQrels,
            ..EvalOptions::default()
        };
        return Ok(Profile { measures, options });
    }
    Err(unknown_profile(name))
}

fn unknown_profile(name: &str) -> Error {
    Error::invalid("profile", format!("unknown profile '{name}' (trec_eval, haystack, graphrag, graphrag@k)"))
}
