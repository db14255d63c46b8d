//! trec_eval's measure names: families with optional parameters (`P.5,10`, `ndcg.1=3,2=9`, `utility.2,-1,0,0`),
//! their printed form with the cutoff after an underscore (`P_5`, `ndcg_cut_10`, `iprec_at_recall_0.10`), the
//! nicknames (`official`, `all_trec`, `set`), and the printing order. The number rules of measure parameters
//! (trec_eval's `atol` cutoffs, strict numbers) are here too; the other dialects read their numbers with them.
//!
//! [`Metric::name`] is the name a measure is reported under: trec_eval's printed name, or, for a measure
//! trec_eval lacks, the name of the tool that defines it (`mrr@10`, `ERR@10`, `RBP(p=0.8)`).

use std::fmt;

use crate::error::{Error, Result};
use crate::metrics::measures::metric::{GainPairs, HaystackMeasure, Metric, NumberList, WHOLE_RANKING};

/// Families in trec_eval's `te_trec_measures` order; `FAMILIES[i]` prints before `FAMILIES[i + 1]`.
pub(super) const FAMILIES: &[&str] = &[
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
            Metric::DcgCut(WHOLE_RANKING) => "dcg".to_string(),
            Metric::DcgCut(k) => format!("dcg@{k}"),
            Metric::DcgBurgesCut(WHOLE_RANKING) => "dcg_burges".to_string(),
            Metric::DcgBurgesCut(k) => format!("dcg_burges@{k}"),
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
            Metric::Cwl { measure, min_rel, max_rel } => measure.name(*min_rel, *max_rel),
            Metric::Accuracy { cutoff, rel } => format!(
                "Accuracy{}{}",
                if *rel == 1 { String::new() } else { format!("(rel={rel})") },
                cutoff.map_or(String::new(), |k| format!("@{k}"))
            ),
            Metric::Compat { p, normalize } => {
                format!("Compat(p={p}{})", if *normalize { "" } else { ",normalize=False" })
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
            Metric::Bpref | Metric::RanxBpref => "bpref",
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
            Metric::DcgCut(_) => "dcg",
            Metric::DcgBurgesCut(_) => "dcg_burges",
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
            Metric::Compat { .. } => "Compat",
            Metric::Accuracy { .. } => "Accuracy",
            Metric::Cwl { .. } => "cwl",
            Metric::IntentAware { .. } => "intent_aware",
            Metric::Judging { metric, .. } => metric.family(),
        }
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
            | Metric::DcgCut(k)
            | Metric::DcgBurgesCut(k)
            | Metric::Hits(k)
            | Metric::F1Cut(k)
            | Metric::GraphragRecall(k)
            | Metric::ExpectedReciprocalRank(k)
            | Metric::NdcgCutGains { k, .. } => *k as f64,
            Metric::IntentAware { measure, .. } => measure.cutoff().unwrap_or(0) as f64,
            Metric::Cwl { measure, .. } => measure.cutoff().unwrap_or(0) as f64,
            Metric::Haystack(m) => HaystackMeasure::ALL.iter().position(|x| x == m).unwrap_or(0) as f64,
            _ => 0.0,
        };
        (family, parameter)
    }
}

impl fmt::Display for Metric {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

pub(super) fn nickname(name: &str) -> Option<&'static [&'static str]> {
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
pub(super) fn parse_number(text: &str, name: &str) -> Result<f64> {
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
pub(super) fn parse_cutoff(text: &str, name: &str) -> Result<u32> {
    match leading_integer(text) {
        Some(k) if k >= 1 && k <= u32::MAX as i64 => Ok(k as u32),
        Some(k) if k < 1 => Err(Error::invalid("measure", format!("'{name}': cutoff must be at least 1, got {k}"))),
        Some(_) => Err(Error::invalid("measure", format!("'{name}': cutoff '{text}' is too large"))),
        None => Err(Error::invalid("measure", format!("'{name}': cutoff '{text}' is not an integer"))),
    }
}

fn parse_cutoffs(params: &str, name: &str) -> Result<Vec<u32>> {
    let mut cutoffs = params.split(',').map(|p| parse_cutoff(p, name)).collect::<Result<Vec<u32>>>()?;
    crate::stable_sort::stable_sort(&mut cutoffs);
    if cutoffs.windows(2).any(|w| w[0] == w[1]) {
        return Err(Error::invalid("measure", format!("'{name}': duplicate cutoffs")));
    }
    Ok(cutoffs)
}

fn parse_real_cutoffs(params: &str, name: &str) -> Result<Vec<f64>> {
    let mut values = params.split(',').map(|p| parse_number(p, name)).collect::<Result<Vec<f64>>>()?;
    crate::stable_sort::stable_sort_by(&mut values, f64::total_cmp);
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
pub(super) fn trec_family(family: &str, params: Option<&str>, name: &str) -> Result<Vec<Metric>> {
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
        // trec_eval reads a parameter list (`set_F.1.0,0.5,2.4`) and uses its first value, printing them all
        "set_F" => match params {
            Some(p) => {
                let values = p.split(',').map(|v| parse_number(v, name)).collect::<Result<Vec<f64>>>()?;
                vec![Metric::SetF { beta: values[0], printable: Some(p.to_string()) }]
            }
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
            Some(p) => vec![Metric::Haystack(HaystackMeasure::parse(p).ok_or_else(|| unknown_haystack_measure(p))?)],
            None => HaystackMeasure::ALL.into_iter().map(Metric::Haystack).collect(),
        },
        // every caller passes one of FAMILIES or a nickname's member
        _ => return Err(Error::invalid("measure", format!("'{name}' is not a trec_eval measure"))),
    })
}

/// `haystack.<name>` with a name that is not one of Haystack's measures.
fn unknown_haystack_measure(name: &str) -> Error {
    let names: Vec<&str> = HaystackMeasure::ALL.iter().map(|m| m.haystack_name()).collect();
    Error::invalid("measure", crate::options::unknown_name("Haystack measure", name, &names))
}

/// trec_eval's printed form with the parameter after an underscore (`P_5`, `ndcg_cut_10`, `iprec_at_recall_0.10`,
/// `set_F_0.5`), and pytrec_eval's spelling of a list so (`P_5,10`, `ndcg_cut_5,10`), which trec_eval itself
/// refuses: each is trec_eval's `family.params` (`P.5,10`: `P_5` and `P_10`).
pub(super) fn parse_underscore_cutoff(name: &str) -> Result<Option<Vec<Metric>>> {
    const INTEGER_FAMILIES: &[&str] = &["relative_P", "ndcg_cut", "map_cut", "success", "recall", "unj", "P"];
    const REAL_FAMILIES: &[&str] = &["iprec_at_recall", "Rprec_mult", "set_F"];
    for family in REAL_FAMILIES {
        if let Some(rest) = name.strip_prefix(family).and_then(|r| r.strip_prefix('_')) {
            if rest.split(',').all(|p| p.parse::<f64>().is_ok()) {
                return Ok(Some(trec_family(family, Some(rest), name)?));
            }
        }
    }
    for family in INTEGER_FAMILIES {
        if let Some(rest) = name.strip_prefix(family).and_then(|r| r.strip_prefix('_')) {
            if !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit() || matches!(b, b'-' | b'+' | b',')) {
                return Ok(Some(trec_family(family, Some(rest), name)?));
            }
        }
    }
    if let Some(rest) = name.strip_prefix("relstring_") {
        return Ok(Some(trec_family("relstring", Some(rest), name)?));
    }
    Ok(None)
}
