//! What a measure is: [`Metric`], one value per query and one aggregate, with its parameters ([`GainPairs`],
//! [`NumberList`], [`Judging`]) and what follows from it alone: how its values aggregate ([`Aggregation`]) and
//! print ([`ValueKind`]). How each tool names a measure is [`crate::metrics::names`]; its formula is one function
//! in [`crate::metrics::measures`].

use super::cwl::CwlMeasure;
use super::intent_aware::IntentAwareMeasure;

/// Custom gains for the nDCG family: `level=gain` pairs as trec_eval's `-m ndcg.1=3,2=9`. A pair whose name is
/// not an integer is ignored, as trec_eval does.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GainPairs {
    /// The parameter text as given (it becomes part of the measure's name), `None` for default gains.
    pub printable: Option<String>,
    pub pairs: Vec<(String, f64)>,
}

/// Parameters given as a comma-separated list of numbers (`utility.2,-1,0,0`, `11pt_avg..25,.5,.75`).
#[derive(Debug, Clone, PartialEq)]
pub struct NumberList {
    /// The parameter text as given, `None` for the defaults.
    pub printable: Option<String>,
    pub values: Vec<f64>,
}

/// Judging settings of one measure that trec_eval takes for the whole run: ir_measures' `rel=` (trec_eval's
/// `-l`) and `judged_only=True` (trec_eval's `-J`). `None` / `false`: the evaluation's own settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Judging {
    pub relevance_level: Option<i64>,
    pub judged_only: bool,
}

/// What Haystack 1.x's `EvaluationResult` reports per query for a retriever (`_build_document_metrics_df`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HaystackMeasure {
    RecallMultiHit,
    RecallSingleHit,
    Precision,
    Map,
    Mrr,
    Ndcg,
}

impl HaystackMeasure {
    pub const ALL: [HaystackMeasure; 6] = [
        HaystackMeasure::RecallMultiHit,
        HaystackMeasure::RecallSingleHit,
        HaystackMeasure::Precision,
        HaystackMeasure::Map,
        HaystackMeasure::Mrr,
        HaystackMeasure::Ndcg,
    ];

    /// Haystack's own column name.
    pub fn haystack_name(self) -> &'static str {
        match self {
            HaystackMeasure::RecallMultiHit => "recall_multi_hit",
            HaystackMeasure::RecallSingleHit => "recall_single_hit",
            HaystackMeasure::Precision => "precision",
            HaystackMeasure::Map => "map",
            HaystackMeasure::Mrr => "mrr",
            HaystackMeasure::Ndcg => "ndcg",
        }
    }

    pub(crate) fn parse(name: &str) -> Option<HaystackMeasure> {
        HaystackMeasure::ALL.into_iter().find(|m| m.haystack_name() == name)
    }
}

/// One evaluation measure: one value per query, and one aggregate.
#[derive(Debug, Clone, PartialEq)]
pub enum Metric {
    // ---- trec_eval 10.0, in its printing order ----
    RunId,
    NumQ,
    NumRet,
    NumRel,
    NumRelRet,
    Map,
    GmMap,
    Rprec,
    Bpref,
    RecipRank,
    /// Interpolated precision at a recall level in [0, 1].
    IprecAtRecall(f64),
    /// Precision at cutoff k.
    P(u32),
    /// Relevance values of the first n documents as a string (`relstring.n`, default 10).
    Relstring { length: u32, printable: Option<String> },
    Recall(u32),
    InfAp,
    GmBpref,
    /// Precision at `factor × R` documents.
    RprecMult(f64),
    Utility(NumberList),
    ElevenPtAvg(NumberList),
    BinG,
    G(GainPairs),
    Dcg(GainPairs),
    IdealDcg(GainPairs),
    Ndcg(GainPairs),
    NdcgRel(GainPairs),
    Rndcg(GainPairs),
    NdcgCut(u32),
    MapCut(u32),
    RelativeP(u32),
    Success(u32),
    SetP,
    SetRelativeP,
    SetRecall,
    SetMap,
    /// Set F measure with relative importance x of recall (`set_F.x`, default 1).
    SetF { beta: f64, printable: Option<String> },
    NumNonrelJudgedRet,
    Rbp(GainPairs),
    RbpResid(GainPairs),
    /// Fraction of unjudged documents in the top k.
    Unj(u32),
    // ---- beyond trec_eval ----
    /// ranx `mrr@k`: reciprocal rank of the first relevant document within the top k.
    RecipRankCut(u32),
    /// ranx `bpref`: its own judged sets (negative grades judged non-relevant) and its 0/0.
    RanxBpref,
    /// ranx `ndcg_burges`: gain 2^grade − 1.
    NdcgBurges,
    NdcgBurgesCut(u32),
    /// ranx `dcg@k` (`dcg`: k = [`WHOLE_RANKING`]): unnormalised DCG, gain = grade of the documents at or above
    /// the relevance level.
    DcgCut(u32),
    /// ranx `dcg_burges@k` (`dcg_burges`: k = [`WHOLE_RANKING`]): unnormalised DCG with gain 2^grade − 1.
    DcgBurgesCut(u32),
    /// ranx `hits@k`: number of relevant documents in the top k.
    Hits(u32),
    /// ranx `f1@k`: harmonic mean of P@k and recall@k.
    F1Cut(u32),
    Haystack(HaystackMeasure),
    /// graphrag-eval `recall_at_k`: of the first k relevant ids (qrels order), the fraction found in the top k.
    GraphragRecall(u32),
    /// graphrag-eval `average_precision`: sum of precision at each relevant hit, divided by R.
    GraphragAp,
    // ---- ir_measures ----
    /// `ERR@k`: expected reciprocal rank, gdeval's gains.
    ExpectedReciprocalRank(u32),
    /// `IPrec@x`: interpolated precision at recall x as pytrec_eval computes it (trec_eval 9's rounding of
    /// x·R, whatever the evaluation's `recall_rounding`).
    IprecTrecEval9(f64),
    /// `Judged@k`: fraction of the top k (or of the whole ranking) that the qrels judge.
    Judged(Option<u32>),
    /// `RBP(p=…,rel=…)`: rank-biased precision with binary gains, cwl_eval's weights.
    RbpBinary { p: f64, rel: i64 },
    /// `RBP(p=…)@k`: rank-biased precision with the grade as gain (trectools).
    RbpGraded { p: f64, cutoff: Option<u32> },
    /// cwl_eval's C/W/L measures (`SDCG`, `NERR8`–`NERR11`, `INST`, `INSQ`, `BPM`) with grades scaled from
    /// [min_rel, max_rel] to [0, 1].
    Cwl { measure: CwlMeasure, min_rel: i64, max_rel: i64 },
    /// `Accuracy(rel=…)@k`: how often a relevant document is ranked above a non-relevant one (ir_measures'
    /// accuracy provider); no value (NaN) for a query without both.
    Accuracy { cutoff: Option<u32>, rel: i64 },
    /// `Compat(p=…, normalize=…)`: rank-biased overlap with the ideal ranking (ir_measures' compat provider).
    Compat { p: f64, normalize: bool },
    /// `nDCG(gains={…})@k`: `ndcg_cut_k` with custom gains.
    NdcgCutGains { k: u32, gains: GainPairs },
    /// ndeval's measures over intent-aware qrels (`alpha_nDCG@k`, `ERR_IA@k`, …) at relevance level `rel`
    /// (None: the evaluation's).
    IntentAware { measure: IntentAwareMeasure, rel: Option<i64> },
    /// Another measure computed at its own relevance level or over judged documents only.
    Judging { metric: Box<Metric>, judging: Judging },
}

/// How a measure's per-query values become its aggregate (the `all` line).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Aggregation {
    /// Arithmetic mean over the evaluated queries.
    Mean,
    /// Arithmetic mean over the queries with a value (not NaN); NaN when none has one (ir_measures' mean over
    /// the queries a provider reports).
    MeanOfDefined,
    /// Sum over the evaluated queries (counts).
    Sum,
    /// The number of evaluated queries.
    QueryCount,
    /// exp(mean(log(max(v, 0.00001)))), trec_eval's `gm_*`.
    GeometricMean,
    /// The run's name.
    RunName,
    /// No aggregate (`relstring`).
    None,
}

/// How a value is printed in trec_eval's format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueKind {
    /// `%6.4f`
    Real,
    /// `%ld` of the truncated value.
    Count,
    /// Quoted or plain text.
    Text,
}

/// The cutoff of ranx's names written without `@k`: the whole ranking (`hits`, `hit_rate`).
pub const WHOLE_RANKING: u32 = u32::MAX;

impl Metric {
    /// The measure that computes the values, without its [`Judging`] settings.
    pub fn unjudged(&self) -> &Metric {
        match self {
            Metric::Judging { metric, .. } => metric.unjudged(),
            other => other,
        }
    }

    /// Whether the measure reads intent-aware qrels.
    pub fn needs_intents(&self) -> bool {
        matches!(self.unjudged(), Metric::IntentAware { .. })
    }

    /// How the per-query values are aggregated.
    pub fn aggregation(&self) -> Aggregation {
        match self.unjudged() {
            Metric::RunId => Aggregation::RunName,
            Metric::NumQ => Aggregation::QueryCount,
            Metric::NumRet | Metric::NumRel | Metric::NumRelRet | Metric::NumNonrelJudgedRet => Aggregation::Sum,
            Metric::GmMap | Metric::GmBpref => Aggregation::GeometricMean,
            Metric::Relstring { .. } => Aggregation::None,
            Metric::Accuracy { .. } => Aggregation::MeanOfDefined,
            _ => Aggregation::Mean,
        }
    }

    /// How values print in trec_eval's format.
    pub fn value_kind(&self) -> ValueKind {
        match self.unjudged() {
            Metric::RunId | Metric::Relstring { .. } => ValueKind::Text,
            Metric::NumQ | Metric::NumRet | Metric::NumRel | Metric::NumRelRet | Metric::NumNonrelJudgedRet => {
                ValueKind::Count
            }
            _ => ValueKind::Real,
        }
    }

    /// Whether trec_eval prints a per-query line for this measure with `-q`.
    pub fn prints_per_query(&self) -> bool {
        !matches!(self.unjudged(), Metric::RunId | Metric::NumQ | Metric::GmMap | Metric::GmBpref)
    }
}
