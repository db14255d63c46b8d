//! The [`Metric`] type: one named value per query, parsed from trec_eval names (`ndcg_cut_10`, `ndcg_cut.10,20`,
//! `P_5`, `P.5,10`, `recip_rank`, `ndcg.1=3,2=9` …) and from ranx / ir_measures names (`ndcg@10`, `P@5`,
//! `precision@5`, `mrr@10`, `recall@100`, `map@100`, `hit_rate@10` …).
//!
//! ir_measures' parameterised names (`P(rel=2)@10`, `RBP(p=0.8)`, `ERR@10`, `alpha_nDCG(alpha=0.5)@20`) are read by
//! [`super::ir_measures_syntax`]; a name any older style reads keeps its meaning.
//!
//! ranx names that differ from trec_eval's measure of the same word map to what ranx computes: `map@k` is
//! trec_eval's `map_cut_k`, `mrr@k` stops at rank k ([`Metric::RecipRankCut`]), `ndcg@k` is `ndcg_cut_k`
//! (gain = grade), `ndcg_burges@k` uses gain 2^grade − 1, `precision`, `hits` and `hit_rate` without k are
//! over the whole ranking. ranx breaks score ties its own way; rerankit always uses the
//! [`TiePolicy`](super::TiePolicy) chosen.
//!
//! A name two tools define with different meanings (`recall`: trec_eval's `recall_5 … recall_1000`, ranx's
//! recall over the whole ranking) is read in the caller's [`Dialect`]; [`colliding_names`] enumerates them from
//! the tools' name tables.

use std::fmt;

use super::ir_measures_syntax::{is_ir_measures_name, parse_ir_measure};
use super::measures::intent_aware::IntentAwareMeasure;
use crate::error::{Error, Result};

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

    fn parse(name: &str) -> Option<HaystackMeasure> {
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
    /// ranx `ndcg_burges`: gain 2^grade − 1.
    NdcgBurges,
    NdcgBurgesCut(u32),
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

/// Families in trec_eval's `te_trec_measures` order; `FAMILIES[i]` prints before `FAMILIES[i + 1]`.
const FAMILIES: &[&str] = &[
    "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank",
    "iprec_at_recall", "P", "relstring", "recall", "infAP", "gm_bpref", "Rprec_mult", "utility", "11pt_avg", "binG",
    "G", "dcg", "ideal_dcg", "ndcg", "ndcg_rel", "Rndcg", "ndcg_cut", "map_cut", "relative_P", "success", "set_P",
    "set_relative_P", "set_recall", "set_map", "set_F", "num_nonrel_judged_ret", "rbp", "rbp_resid", "unj",
];

/// Whether `name` is a trec_eval measure family (`P`, `ndcg_cut`, `map`, …).
pub fn is_trec_family(name: &str) -> bool {
    FAMILIES.contains(&name)
}

/// trec_eval's `official` nickname (its default measure set).
pub const OFFICIAL: &[&str] =
    &["runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank", "iprec_at_recall", "P"];

/// trec_eval's `all_trec` nickname.
pub const ALL_TREC: &[&str] = &[
    "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank",
    "iprec_at_recall", "P", "relstring", "recall", "unj", "rbp", "rbp_resid", "infAP", "gm_bpref", "utility",
    "11pt_avg", "ndcg", "relative_P", "Rprec_mult", "success", "map_cut", "ndcg_cut", "ndcg_rel", "Rndcg", "binG",
    "G", "set_P", "set_recall", "set_relative_P", "set_map", "set_F", "num_nonrel_judged_ret",
];

/// trec_eval's `set` nickname.
pub const SET: &[&str] =
    &["runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "utility", "set_P", "set_recall", "set_relative_P", "set_map", "set_F"];

/// Whose meaning a measure name has where trec_eval's, ranx's and ir_measures' names collide (`recall` is
/// trec_eval's `recall_5 … recall_1000` but ranx's recall over the whole ranking; `P` is trec_eval's `P_5 … P_1000`
/// but an error in ir_measures, which needs `P@k`). A name only one tool knows means what that tool computes in
/// every dialect; [`colliding_names`] lists the others.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize)]
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
            Dialect::IrMeasures => super::ir_measures_syntax::registry_names(),
        }
    }
}

/// ranx 0.3.21's measure names (`metric_switch` in ranx/metrics/__init__.py); each also takes `@k`, and `rbp`
/// needs its persistence (`rbp.95`). Without `@k`, ranx's k is 0: the whole ranking.
pub const RANX_NAMES: &[&str] = &[
    "hits", "hit_rate", "precision", "recall", "f1", "r-precision", "mrr", "map", "dcg", "dcg_burges", "ndcg",
    "ndcg_burges", "bpref", "rbp",
];

/// The cutoff of ranx's names written without `@k`: the whole ranking (`hits`, `hit_rate`).
pub const WHOLE_RANKING: u32 = u32::MAX;

/// Names of the three tools' tables ([`Dialect::names`]) that rerankit reads differently in different
/// dialects: the names a caller must say the dialect of.
pub fn colliding_names() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Dialect::ALL.iter().flat_map(|d| d.names()).collect();
    names.sort_unstable();
    names.dedup();
    names.retain(|name| {
        let readings: Vec<Option<Vec<Metric>>> = Dialect::ALL.iter().map(|&d| Metric::parse_all_in(name, d).ok()).collect();
        readings.windows(2).any(|w| w[0] != w[1])
    });
    names
}

const DEFAULT_CUTOFFS: &[u32] = &[5, 10, 15, 20, 30, 100, 200, 500, 1000];
const DEFAULT_RECALL_LEVELS: &[f64] = &[0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0];
const DEFAULT_RPREC_FACTORS: &[f64] = &[0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0];

impl Metric {
    /// The measure's name as trec_eval prints it (`P_5`, `iprec_at_recall_0.10`, `ndcg_1=3,2=9`), or the
    /// ranx-style name for measures trec_eval lacks (`mrr@10`, `ndcg_burges@10`).
    pub fn name(&self) -> String {
        fn with_params(family: &str, printable: &Option<String>) -> String {
            match printable {
                Some(p) => format!("{family}_{p}"),
                None => family.to_string(),
            }
        }
        match self {
            Metric::IprecAtRecall(level) => format!("iprec_at_recall_{level:3.2}"),
            Metric::P(k) => format!("P_{k}"),
            Metric::Relstring { printable, .. } => with_params("relstring", printable),
            Metric::Recall(k) => format!("recall_{k}"),
            Metric::RprecMult(f) => format!("Rprec_mult_{f:3.2}"),
            Metric::Utility(list) => with_params("utility", &list.printable),
            Metric::ElevenPtAvg(list) => with_params("11pt_avg", &list.printable),
            Metric::G(g) => with_params("G", &g.printable),
            Metric::Dcg(g) => with_params("dcg", &g.printable),
            Metric::IdealDcg(g) => with_params("ideal_dcg", &g.printable),
            Metric::Ndcg(g) => with_params("ndcg", &g.printable),
            Metric::NdcgRel(g) => with_params("ndcg_rel", &g.printable),
            Metric::Rndcg(g) => with_params("Rndcg", &g.printable),
            Metric::NdcgCut(k) => format!("ndcg_cut_{k}"),
            Metric::MapCut(k) => format!("map_cut_{k}"),
            Metric::RelativeP(k) => format!("relative_P_{k}"),
            Metric::Success(WHOLE_RANKING) => "hit_rate".to_string(),
            Metric::Success(k) => format!("success_{k}"),
            Metric::SetF { printable, .. } => with_params("set_F", printable),
            Metric::Rbp(g) => with_params("rbp", &g.printable),
            Metric::RbpResid(g) => with_params("rbp_resid", &g.printable),
            Metric::Unj(k) => format!("unj_{k}"),
            Metric::RecipRankCut(k) => format!("mrr@{k}"),
            Metric::NdcgBurges => "ndcg_burges".to_string(),
            Metric::NdcgBurgesCut(k) => format!("ndcg_burges@{k}"),
            Metric::Hits(WHOLE_RANKING) => "hits".to_string(),
            Metric::Hits(k) => format!("hits@{k}"),
            Metric::F1Cut(k) => format!("f1@{k}"),
            Metric::Haystack(m) => format!("haystack.{}", m.haystack_name()),
            Metric::GraphragRecall(k) => format!("graphrag_recall@{k}"),
            Metric::GraphragAp => "graphrag_ap".to_string(),
            Metric::ExpectedReciprocalRank(k) => format!("ERR@{k}"),
            Metric::IprecTrecEval9(level) => format!("IPrec@{level}"),
            Metric::Judged(k) => k.map_or("Judged".to_string(), |k| format!("Judged@{k}")),
            Metric::RbpBinary { p, rel } => format!("RBP(p={p},rel={rel})"),
            Metric::RbpGraded { p, cutoff } => {
                format!("RBP(p={p}){}", cutoff.map_or(String::new(), |k| format!("@{k}")))
            }
            Metric::NdcgCutGains { k, gains } => {
                format!("ndcg_cut_{k}({})", gains.printable.as_deref().unwrap_or_default())
            }
            Metric::IntentAware { measure, rel } => measure.name(*rel),
            Metric::Judging { metric, judging } => {
                let mut settings = Vec::new();
                if let Some(level) = judging.relevance_level {
                    settings.push(format!("rel={level}"));
                }
                if judging.judged_only {
                    settings.push("judged_only=True".to_string());
                }
                format!("{}({})", metric.name(), settings.join(","))
            }
            other => other.family().to_string(),
        }
    }

    /// The trec_eval family name (`P` for `P_5`), or the name itself for other measures.
    pub fn family(&self) -> &'static str {
        match self {
            Metric::RunId => "runid",
            Metric::NumQ => "num_q",
            Metric::NumRet => "num_ret",
            Metric::NumRel => "num_rel",
            Metric::NumRelRet => "num_rel_ret",
            Metric::Map => "map",
            Metric::GmMap => "gm_map",
            Metric::Rprec => "Rprec",
            Metric::Bpref => "bpref",
            Metric::RecipRank => "recip_rank",
            Metric::IprecAtRecall(_) => "iprec_at_recall",
            Metric::P(_) => "P",
            Metric::Relstring { .. } => "relstring",
            Metric::Recall(_) => "recall",
            Metric::InfAp => "infAP",
            Metric::GmBpref => "gm_bpref",
            Metric::RprecMult(_) => "Rprec_mult",
            Metric::Utility(_) => "utility",
            Metric::ElevenPtAvg(_) => "11pt_avg",
            Metric::BinG => "binG",
            Metric::G(_) => "G",
            Metric::Dcg(_) => "dcg",
            Metric::IdealDcg(_) => "ideal_dcg",
            Metric::Ndcg(_) => "ndcg",
            Metric::NdcgRel(_) => "ndcg_rel",
            Metric::Rndcg(_) => "Rndcg",
            Metric::NdcgCut(_) => "ndcg_cut",
            Metric::MapCut(_) => "map_cut",
            Metric::RelativeP(_) => "relative_P",
            Metric::Success(_) => "success",
            Metric::SetP => "set_P",
            Metric::SetRelativeP => "set_relative_P",
            Metric::SetRecall => "set_recall",
            Metric::SetMap => "set_map",
            Metric::SetF { .. } => "set_F",
            Metric::NumNonrelJudgedRet => "num_nonrel_judged_ret",
            Metric::Rbp(_) => "rbp",
            Metric::RbpResid(_) => "rbp_resid",
            Metric::Unj(_) => "unj",
            Metric::RecipRankCut(_) => "mrr",
            Metric::NdcgBurges | Metric::NdcgBurgesCut(_) => "ndcg_burges",
            Metric::Hits(_) => "hits",
            Metric::F1Cut(_) => "f1",
            Metric::Haystack(_) => "haystack",
            Metric::GraphragRecall(_) => "graphrag_recall",
            Metric::GraphragAp => "graphrag_ap",
            Metric::ExpectedReciprocalRank(_) => "ERR",
            Metric::IprecTrecEval9(_) => "IPrec",
            Metric::Judged(_) => "Judged",
            Metric::RbpBinary { .. } | Metric::RbpGraded { .. } => "RBP",
            Metric::NdcgCutGains { .. } => "ndcg_cut",
            Metric::IntentAware { .. } => "intent_aware",
            Metric::Judging { metric, .. } => metric.family(),
        }
    }

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

    /// Sort key giving trec_eval's printing order: family order, then parameter ascending.
    pub fn print_order(&self) -> (usize, f64) {
        if let Metric::Judging { metric, .. } = self {
            return metric.print_order();
        }
        let family = FAMILIES.iter().position(|f| *f == self.family()).unwrap_or(FAMILIES.len());
        let parameter = match self {
            Metric::IprecAtRecall(x) | Metric::RprecMult(x) | Metric::IprecTrecEval9(x) => *x,
            Metric::P(k)
            | Metric::Recall(k)
            | Metric::NdcgCut(k)
            | Metric::MapCut(k)
            | Metric::RelativeP(k)
            | Metric::Success(k)
            | Metric::Unj(k)
            | Metric::RecipRankCut(k)
            | Metric::NdcgBurgesCut(k)
            | Metric::Hits(k)
            | Metric::F1Cut(k)
            | Metric::GraphragRecall(k)
            | Metric::ExpectedReciprocalRank(k)
            | Metric::NdcgCutGains { k, .. } => *k as f64,
            Metric::IntentAware { measure, .. } => measure.cutoff().unwrap_or(0) as f64,
            Metric::Haystack(m) => HaystackMeasure::ALL.iter().position(|x| x == m).unwrap_or(0) as f64,
            _ => 0.0,
        };
        (family, parameter)
    }

    /// How the per-query values are aggregated.
    pub fn aggregation(&self) -> Aggregation {
        match self.unjudged() {
            Metric::RunId => Aggregation::RunName,
            Metric::NumQ => Aggregation::QueryCount,
            Metric::NumRet | Metric::NumRel | Metric::NumRelRet | Metric::NumNonrelJudgedRet => Aggregation::Sum,
            Metric::GmMap | Metric::GmBpref => Aggregation::GeometricMean,
            Metric::Relstring { .. } => Aggregation::None,
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

    /// Parses one measure name (either style) into the measures it stands for: `P.5,10` and nicknames such as
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
        if let Some(at) = name.find('@') {
            if let Some(metric) = parse_at_style(&name[..at], &name[at + 1..], name)? {
                return Ok(vec![metric]);
            }
            return Ok(vec![parse_ir_measure(name)?]);
        }
        if let Some(metric) = parse_underscore_cutoff(name)? {
            return Ok(vec![metric]);
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

impl fmt::Display for Metric {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
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

fn unknown(name: &str) -> Error {
    Error::invalid(
        "measure",
        format!(
            "unknown measure '{name}' (trec_eval names such as 'ndcg_cut_10', 'P.5,10', 'map', or ranx names such as \
             'ndcg@10', 'mrr@10', 'recall@100', or ir_measures names such as 'P(rel=2)@10', 'RBP(p=0.8)')"
        ),
    )
}

fn nickname(name: &str) -> Option<&'static [&'static str]> {
    match name {
        "official" => Some(OFFICIAL),
        "all_trec" => Some(ALL_TREC),
        "set" => Some(SET),
        _ => None,
    }
}

/// trec_eval's `atol`: optional sign and leading digits; anything after them is ignored (`23.4` → 23).
fn leading_integer(text: &str) -> Option<i64> {
    let text = text.trim_start();
    let (sign, digits) = match text.as_bytes().first() {
        Some(b'-') => (-1, &text[1..]),
        Some(b'+') => (1, &text[1..]),
        _ => (1, text),
    };
    let end = digits.bytes().position(|b| !b.is_ascii_digit()).unwrap_or(digits.len());
    if end == 0 {
        return None;
    }
    digits[..end].parse::<i64>().ok().map(|v| sign * v)
}

/// A strict number for measure parameters (`.25`, `-1`, `0.5`).
fn parse_number(text: &str, name: &str) -> Result<f64> {
    let value: f64 = text
        .trim()
        .parse()
        .map_err(|_| Error::invalid("measure", format!("'{name}': parameter '{text}' is not a number")))?;
    if !value.is_finite() {
        return Err(Error::invalid("measure", format!("'{name}': parameter '{text}' is not finite")));
    }
    Ok(value)
}

/// A document cutoff: a positive integer (`atol` semantics as trec_eval: `23.4` → 23).
fn parse_cutoff(text: &str, name: &str) -> Result<u32> {
    match leading_integer(text) {
        Some(k) if k >= 1 && k <= u32::MAX as i64 => Ok(k as u32),
        Some(k) if k < 1 => Err(Error::invalid("measure", format!("'{name}': cutoff must be at least 1, got {k}"))),
        Some(_) => Err(Error::invalid("measure", format!("'{name}': cutoff '{text}' is too large"))),
        None => Err(Error::invalid("measure", format!("'{name}': cutoff '{text}' is not an integer"))),
    }
}

fn parse_cutoffs(params: &str, name: &str) -> Result<Vec<u32>> {
    let mut cutoffs = params.split(',').map(|p| parse_cutoff(p, name)).collect::<Result<Vec<u32>>>()?;
    cutoffs.sort_unstable();
    if cutoffs.windows(2).any(|w| w[0] == w[1]) {
        return Err(Error::invalid("measure", format!("'{name}': duplicate cutoffs")));
    }
    Ok(cutoffs)
}

fn parse_real_cutoffs(params: &str, name: &str) -> Result<Vec<f64>> {
    let mut values = params.split(',').map(|p| parse_number(p, name)).collect::<Result<Vec<f64>>>()?;
    values.sort_by(|a, b| a.total_cmp(b));
    if values.windows(2).any(|w| w[0] == w[1]) {
        return Err(Error::invalid("measure", format!("'{name}': duplicate cutoffs")));
    }
    Ok(values)
}

fn parse_gain_pairs(params: Option<&str>, name: &str) -> Result<GainPairs> {
    let Some(params) = params else { return Ok(GainPairs::default()) };
    let mut pairs = Vec::new();
    for pair in params.split(',') {
        let Some((level, gain)) = pair.split_once('=') else {
            return Err(Error::invalid("measure", format!("'{name}': expected level=gain pairs, got '{pair}'")));
        };
        if level.is_empty() {
            return Err(Error::invalid("measure", format!("'{name}': expected level=gain pairs, got '{pair}'")));
        }
        pairs.push((level.to_string(), parse_number(gain, name)?));
    }
    Ok(GainPairs { printable: Some(params.to_string()), pairs })
}

fn no_params(family: &str, params: Option<&str>, name: &str) -> Result<()> {
    match params {
        Some(_) => Err(Error::invalid("measure", format!("'{name}': measure '{family}' takes no parameters"))),
        None => Ok(()),
    }
}

/// A trec_eval family with optional `.params`.
fn trec_family(family: &str, params: Option<&str>, name: &str) -> Result<Vec<Metric>> {
    if params == Some("") {
        return Err(Error::invalid("measure", format!("'{name}': empty parameter list")));
    }
    let cutoffs = |defaults: &[u32]| -> Result<Vec<u32>> {
        match params {
            Some(p) => parse_cutoffs(p, name),
            None => Ok(defaults.to_vec()),
        }
    };
    let simple = |metric: Metric| -> Result<Vec<Metric>> {
        no_params(family, params, name)?;
        Ok(vec![metric])
    };
    Ok(match family {
        "runid" => simple(Metric::RunId)?,
        "num_q" => simple(Metric::NumQ)?,
        "num_ret" => simple(Metric::NumRet)?,
        "num_rel" => simple(Metric::NumRel)?,
        "num_rel_ret" => simple(Metric::NumRelRet)?,
        "map" => simple(Metric::Map)?,
        "gm_map" => simple(Metric::GmMap)?,
        "Rprec" => simple(Metric::Rprec)?,
        "bpref" => simple(Metric::Bpref)?,
        "recip_rank" => simple(Metric::RecipRank)?,
        "infAP" => simple(Metric::InfAp)?,
        "gm_bpref" => simple(Metric::GmBpref)?,
        "binG" => simple(Metric::BinG)?,
        "set_P" => simple(Metric::SetP)?,
        "set_relative_P" => simple(Metric::SetRelativeP)?,
        "set_recall" => simple(Metric::SetRecall)?,
        "set_map" => simple(Metric::SetMap)?,
        "num_nonrel_judged_ret" => simple(Metric::NumNonrelJudgedRet)?,
        "iprec_at_recall" => match params {
            Some(p) => parse_real_cutoffs(p, name)?.into_iter().map(Metric::IprecAtRecall).collect(),
            None => DEFAULT_RECALL_LEVELS.iter().map(|&l| Metric::IprecAtRecall(l)).collect(),
        },
        "Rprec_mult" => match params {
            Some(p) => parse_real_cutoffs(p, name)?.into_iter().map(Metric::RprecMult).collect(),
            None => DEFAULT_RPREC_FACTORS.iter().map(|&f| Metric::RprecMult(f)).collect(),
        },
        "P" => cutoffs(DEFAULT_CUTOFFS)?.into_iter().map(Metric::P).collect(),
        "recall" => cutoffs(DEFAULT_CUTOFFS)?.into_iter().map(Metric::Recall).collect(),
        "ndcg_cut" => cutoffs(DEFAULT_CUTOFFS)?.into_iter().map(Metric::NdcgCut).collect(),
        "map_cut" => cutoffs(DEFAULT_CUTOFFS)?.into_iter().map(Metric::MapCut).collect(),
        "relative_P" => cutoffs(DEFAULT_CUTOFFS)?.into_iter().map(Metric::RelativeP).collect(),
        "success" => cutoffs(&[1, 5, 10])?.into_iter().map(Metric::Success).collect(),
        "unj" => cutoffs(&[5, 10, 20])?.into_iter().map(Metric::Unj).collect(),
        "relstring" => match params {
            Some(p) => {
                let length = parse_number(p.split(',').next().unwrap_or(p), name)?;
                vec![Metric::Relstring { length: length.max(0.0) as u32, printable: Some(p.to_string()) }]
            }
            None => vec![Metric::Relstring { length: 10, printable: None }],
        },
        "utility" => match params {
            Some(p) => {
                let values = p.split(',').map(|v| parse_number(v, name)).collect::<Result<Vec<f64>>>()?;
                if values.len() != 4 {
                    return Err(Error::invalid("measure", format!("'{name}': utility takes 4 coefficients")));
                }
                vec![Metric::Utility(NumberList { printable: Some(p.to_string()), values })]
            }
            None => vec![Metric::Utility(NumberList { printable: None, values: vec![1.0, -1.0, 0.0, 0.0] })],
        },
        "11pt_avg" => match params {
            Some(p) => {
                let values = p.split(',').map(|v| parse_number(v, name)).collect::<Result<Vec<f64>>>()?;
                vec![Metric::ElevenPtAvg(NumberList { printable: Some(p.to_string()), values })]
            }
            None => vec![Metric::ElevenPtAvg(NumberList { printable: None, values: DEFAULT_RECALL_LEVELS.to_vec() })],
        },
        "set_F" => match params {
            Some(p) => vec![Metric::SetF { beta: parse_number(p, name)?, printable: Some(p.to_string()) }],
            None => vec![Metric::SetF { beta: 1.0, printable: None }],
        },
        "G" => vec![Metric::G(parse_gain_pairs(params, name)?)],
        "dcg" => vec![Metric::Dcg(parse_gain_pairs(params, name)?)],
        "ideal_dcg" => vec![Metric::IdealDcg(parse_gain_pairs(params, name)?)],
        "ndcg" => vec![Metric::Ndcg(parse_gain_pairs(params, name)?)],
        "ndcg_rel" => vec![Metric::NdcgRel(parse_gain_pairs(params, name)?)],
        "Rndcg" => vec![Metric::Rndcg(parse_gain_pairs(params, name)?)],
        "rbp" => vec![Metric::Rbp(parse_gain_pairs(params, name)?)],
        "rbp_resid" => vec![Metric::RbpResid(parse_gain_pairs(params, name)?)],
        "haystack" => match params {
            Some(p) => vec![Metric::Haystack(HaystackMeasure::parse(p).ok_or_else(|| unknown(name))?)],
            None => HaystackMeasure::ALL.into_iter().map(Metric::Haystack).collect(),
        },
        _ => return Err(unknown(name)),
    })
}

/// trec_eval's printed form with the cutoff after an underscore: `P_5`, `ndcg_cut_10`, `iprec_at_recall_0.10`.
fn parse_underscore_cutoff(name: &str) -> Result<Option<Metric>> {
    const INTEGER_FAMILIES: &[&str] = &["relative_P", "ndcg_cut", "map_cut", "success", "recall", "unj", "P"];
    const REAL_FAMILIES: &[&str] = &["iprec_at_recall", "Rprec_mult"];
    for family in REAL_FAMILIES {
        if let Some(rest) = name.strip_prefix(family).and_then(|r| r.strip_prefix('_')) {
            if rest.parse::<f64>().is_ok() {
                return Ok(trec_family(family, Some(rest), name)?.pop());
            }
        }
    }
    for family in INTEGER_FAMILIES {
        if let Some(rest) = name.strip_prefix(family).and_then(|r| r.strip_prefix('_')) {
            if !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit() || b == b'-' || b == b'+') {
                return Ok(trec_family(family, Some(rest), name)?.pop());
            }
        }
    }
    if let Some(rest) = name.strip_prefix("relstring_") {
        return Ok(trec_family("relstring", Some(rest), name)?.pop());
    }
    Ok(None)
}

/// ranx / ir_measures names without a cutoff.
fn parse_alias(name: &str) -> Option<Metric> {
    Some(match name.to_ascii_lowercase().as_str() {
        "ndcg" => Metric::Ndcg(GainPairs::default()),
        "ndcg_burges" => Metric::NdcgBurges,
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

/// A ranx name as ranx 0.3.21 reads it (`extract_metric_and_params`): `name`, `name@k` or `rbp.95`; `None` for a
/// name that is not ranx's (ranx's names are lower case and case-sensitive).
fn parse_ranx(name: &str) -> Result<Option<Metric>> {
    let (family, cutoff) = match name.split_once('@') {
        Some((family, cutoff)) => (family, Some(cutoff)),
        None => (name, None),
    };
    if let Some(p) = family.strip_prefix("rbp.") {
        // ranx reads `rbp.95` as p = float("0.95"): graded gains of the documents with grade ≥ 1, whole ranking
        let p = parse_number(&format!("0.{p}"), name)?;
        return Ok(Some(Metric::RbpGraded { p, cutoff: None }));
    }
    if !RANX_NAMES.contains(&family) {
        return Ok(None);
    }
    if let Some(cutoff) = cutoff {
        if matches!(family, "dcg" | "dcg_burges") {
            return Err(Error::invalid("measure", format!("'{name}': ranx's {family}@k is not computed by rerankit")));
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
        "dcg" => Metric::Dcg(GainPairs::default()),
        "ndcg" => Metric::Ndcg(GainPairs::default()),
        "ndcg_burges" => Metric::NdcgBurges,
        "bpref" => Metric::Bpref,
        "hits" => Metric::Hits(WHOLE_RANKING),
        "hit_rate" => Metric::Success(WHOLE_RANKING),
        "rbp" => return Err(Error::invalid("measure", format!("'{name}': ranx's rbp needs its persistence (rbp.95)"))),
        _ => return Err(Error::invalid("measure", format!("'{name}': ranx's {family} is not computed by rerankit"))),
    }))
}

/// `name@k` (ranx / ir_measures); `None` for a family these names do not know (ir_measures' own names).
fn parse_at_style(family: &str, cutoff: &str, name: &str) -> Result<Option<Metric>> {
    const FAMILIES: &[&str] = &[
        "ndcg", "ndcg_burges", "p", "precision", "r", "recall", "map", "ap", "mrr", "rr", "recip_rank", "success",
        "hit_rate", "hitrate", "hits", "f1", "graphrag_recall",
    ];
    if !FAMILIES.contains(&family.to_ascii_lowercase().as_str()) {
        return Ok(None);
    }
    if cutoff.is_empty() || !cutoff.bytes().all(|b| b.is_ascii_digit()) {
        return Err(Error::invalid("measure", format!("'{name}': the cutoff after '@' must be a positive integer")));
    }
    let k = parse_cutoff(cutoff, name)?;
    Ok(Some(match family.to_ascii_lowercase().as_str() {
        "ndcg" => Metric::NdcgCut(k),
        "ndcg_burges" => Metric::NdcgBurgesCut(k),
        "p" | "precision" => Metric::P(k),
        "r" | "recall" => Metric::Recall(k),
        "map" | "ap" => Metric::MapCut(k),
        "mrr" | "rr" | "recip_rank" => Metric::RecipRankCut(k),
        "success" | "hit_rate" | "hitrate" => Metric::Success(k),
        "hits" => Metric::Hits(k),
        "f1" => Metric::F1Cut(k),
        "graphrag_recall" => Metric::GraphragRecall(k),
        _ => return Err(unknown(name)),
    }))
}
