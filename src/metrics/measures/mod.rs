//! The measures: one pure function per formula, grouped by family. [`value`] dispatches a [`Metric`] to its
//! function for one query.

pub mod accuracy;
pub mod average_precision;
pub mod compatibility;
pub mod counts;
pub mod cwl;
pub mod expected_reciprocal_rank;
pub mod gain_ratio;
pub mod gain_table;
pub mod graphrag;
pub mod haystack;
pub mod intent_aware;
pub mod interpolated_precision;
pub mod judged;
pub mod metric;
pub mod ndcg;
pub mod precision;
pub mod rank_biased_precision;
pub mod recall;
pub mod reciprocal_rank;
pub mod set_measures;

use gain_table::GainTable;
use metric::Metric;

use crate::metrics::evaluation::ranking::RankedRelevance;
use crate::metrics::inputs::qrels::QueryQrels;
use crate::metrics::inputs::run::QueryRun;

/// A measure's value for one query (or its aggregate): a number, or text for `runid` and `relstring`.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Number(f64),
    Text(String),
}

impl Value {
    /// The number, or NaN for text.
    pub fn as_f64(&self) -> f64 {
        match self {
            Value::Number(x) => *x,
            Value::Text(_) => f64::NAN,
        }
    }
}

/// What a measure may read about one query.
#[derive(Debug, Clone, Copy)]
pub struct QueryContext<'a> {
    pub ranked: &'a RankedRelevance,
    /// The query's judgements (None when the qrels lack the query).
    pub qrels: Option<&'a QueryQrels>,
    /// The query's run entries (None when the run lacks the query), for measures that read scores (`Compat`).
    pub run: Option<&'a QueryRun>,
    /// trec_eval `-N` (used by `utility` only).
    pub collection_size: u64,
    /// The run's name (`runid`).
    pub run_name: &'a str,
    /// Recall level → relevant count for `iprec_at_recall` and `11pt_avg`.
    pub recall_rounding: interpolated_precision::RecallRounding,
    /// The query's subtopic judgements and the run's documents among them (intent-aware measures); None
    /// when the query has none.
    pub intents: Option<intent_aware::IntentRanking<'a>>,
}

/// Judged non-relevant documents of the query: grades in [0, relevance level).
fn num_judged_nonrelevant(query: Option<&QueryQrels>, relevance_level: i64) -> u64 {
    query.map_or(0, |q| q.grade_counts.iter().filter(|(g, _)| *g < relevance_level).map(|(_, c)| c).sum())
}

/// The value of `metric` for one query.
pub fn value(metric: &Metric, q: &QueryContext) -> Value {
    let r = q.ranked;
    let number = match metric {
        Metric::RunId => return Value::Text(q.run_name.to_string()),
        Metric::Relstring { length, .. } => return Value::Text(set_measures::relevance_string(r, *length)),
        Metric::NumQ => 1.0,
        Metric::NumRet => counts::num_retrieved(r),
        Metric::NumRel => counts::num_relevant(r),
        Metric::NumRelRet => counts::num_relevant_retrieved(r),
        Metric::NumNonrelJudgedRet => counts::num_nonrelevant_judged_retrieved(r),
        Metric::Map | Metric::GmMap | Metric::GraphragAp => average_precision::average_precision(r),
        Metric::MapCut(k) => average_precision::average_precision_at(r, *k as usize),
        Metric::SetMap => average_precision::set_average_precision(r),
        Metric::Bpref | Metric::GmBpref => {
            average_precision::bpref(r, num_judged_nonrelevant(q.qrels, r.relevance_level))
        }
        Metric::RanxBpref => average_precision::ranx_bpref(r, q.qrels),
        Metric::InfAp => average_precision::inferred_average_precision(r),
        Metric::Rprec => precision::r_precision(r),
        Metric::RprecMult(factor) => precision::r_precision_multiple(r, *factor),
        Metric::P(k) => precision::precision_at(r, *k),
        Metric::RelativeP(k) => precision::relative_precision_at(r, *k),
        Metric::SetP => precision::set_precision(r),
        Metric::SetRelativeP => precision::set_relative_precision(r),
        Metric::Recall(k) => recall::recall_at(r, *k),
        Metric::SetRecall => recall::set_recall(r),
        Metric::Success(k) => recall::success_at(r, *k),
        Metric::F1Cut(k) => recall::f1_at(r, *k),
        Metric::Hits(k) => counts::hits_at(r, *k),
        Metric::RecipRank => reciprocal_rank::reciprocal_rank(r),
        Metric::RecipRankCut(k) => reciprocal_rank::reciprocal_rank_at(r, *k as usize),
        Metric::IprecAtRecall(level) => interpolated_precision::interpolated_precision_at_recall(r, *level, q.recall_rounding),
        Metric::ElevenPtAvg(levels) => interpolated_precision::eleven_point_average(r, &levels.values, q.recall_rounding),
        Metric::Utility(coefficients) => set_measures::utility(r, &coefficients.values, q.collection_size),
        Metric::SetF { beta, .. } => set_measures::set_f(r, *beta),
        Metric::Unj(k) => set_measures::unjudged_at(r, *k),
        Metric::BinG => gain_ratio::binary_g(r),
        Metric::G(pairs) => gain_ratio::g(r, &GainTable::new(pairs, q.qrels)),
        Metric::Dcg(pairs) => ndcg::dcg(r, &GainTable::new(pairs, q.qrels)),
        Metric::IdealDcg(pairs) => ndcg::ideal_dcg(&GainTable::new(pairs, q.qrels)),
        Metric::Ndcg(pairs) => ndcg::ndcg(r, &GainTable::new(pairs, q.qrels)),
        Metric::NdcgRel(pairs) => ndcg::ndcg_relevant(r, &GainTable::new(pairs, q.qrels)),
        Metric::Rndcg(pairs) => ndcg::r_ndcg(r, &GainTable::new(pairs, q.qrels)),
        Metric::NdcgCut(k) => ndcg::ndcg_at(r, q.qrels, *k),
        Metric::NdcgBurges => ndcg::ndcg_burges(r, q.qrels, None),
        Metric::NdcgBurgesCut(k) => ndcg::ndcg_burges(r, q.qrels, Some(*k)),
        Metric::DcgCut(k) => ndcg::dcg_at(r, *k),
        Metric::DcgBurgesCut(k) => ndcg::dcg_burges_at(r, *k),
        Metric::Rbp(pairs) => rank_biased_precision::rank_biased_precision(
            r,
            &GainTable::new(pairs, q.qrels),
            rank_biased_precision::persistence(pairs),
        ),
        Metric::RbpResid(pairs) => {
            rank_biased_precision::rank_biased_precision_residual(r, rank_biased_precision::persistence(pairs))
        }
        Metric::Haystack(measure) => haystack::haystack_value(r, *measure),
        Metric::GraphragRecall(k) => graphrag::recall_at(r, q.qrels, *k),
        Metric::ExpectedReciprocalRank(k) => expected_reciprocal_rank::err_at(r, *k),
        Metric::IprecTrecEval9(level) => {
            interpolated_precision::interpolated_precision_at_recall(r, *level, interpolated_precision::RecallRounding::TrecEval9)
        }
        Metric::Judged(k) => judged::judged_at(r, *k),
        Metric::RbpBinary { p, rel } => rank_biased_precision::binary_rank_biased_precision(r, *p, *rel),
        Metric::Cwl { measure, min_rel, max_rel } => cwl::cwl_expected_utility(r, measure, *min_rel, *max_rel),
        Metric::Accuracy { cutoff, rel } => accuracy::accuracy(r, *cutoff, *rel),
        Metric::Compat { p, normalize } => compatibility::compatibility(r, q.qrels, q.run, *p, *normalize),
        Metric::RbpGraded { p, cutoff } => rank_biased_precision::graded_rank_biased_precision(r, *p, *cutoff),
        Metric::NdcgCutGains { k, gains } => ndcg::ndcg_at_with_gains(r, &GainTable::new(gains, q.qrels), *k),
        Metric::IntentAware { measure, rel } => {
            q.intents.map_or(0.0, |intents| measure.value(&intents, rel.unwrap_or(r.relevance_level)))
        }
        // the caller ranked the query with these settings already
        Metric::Judging { metric, .. } => return value(metric, q),
    };
    Value::Number(number)
}
