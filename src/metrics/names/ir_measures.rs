//! ir_measures' measure names: `Measure(param=value,…)@cutoff`, read as ir_measures' `parse_measure` reads
//! them (a Python call expression: integers, floats, `True`/`False`, quoted strings and `{int: int}` dicts as
//! values; the value after `@` is the measure's "at" parameter, the cutoff, or `recall` for `IPrec`), then
//! mapped to the [`Metric`] that computes what ir_measures' default provider for that measure computes.
//!
//! `rel=` is trec_eval's relevance level (`-l`) for that one measure and `judged_only=True` its `-J`, as
//! ir_measures' pytrec_eval provider passes them; a name without them follows the evaluation's options.

use crate::error::{Error, Result};
use crate::metrics::measures::cwl::CwlMeasure;
use crate::metrics::measures::intent_aware::{IntentAwareMeasure, DEFAULT_ALPHA, MAX_DEPTH};
use crate::metrics::measures::metric::{GainPairs, Judging, Metric};

/// A parameter value as Python's literal syntax writes it.
#[derive(Debug, Clone, PartialEq)]
enum Literal {
    Int(i64),
    Float(f64),
    Bool(bool),
    Text(String),
    Dict(Vec<(Literal, Literal)>),
}

impl Literal {
    fn describe(&self) -> String {
        match self {
            Literal::Int(v) => v.to_string(),
            Literal::Float(v) => v.to_string(),
            Literal::Bool(v) => if *v { "True" } else { "False" }.to_string(),
            Literal::Text(v) => format!("'{v}'"),
            Literal::Dict(_) => "a dict".to_string(),
        }
    }
}

/// ir_measures 0.4.3's registry (`ir_measures.measures.registry`): every name, each computed by rerankit.
const COMPUTED: &[&str] = &[
    "P", "Precision", "R", "Recall", "AP", "MAP", "RR", "MRR", "Rprec", "RPrec", "nDCG", "NDCG", "Bpref", "BPref",
    "infAP", "NumRet", "NumRelRet", "NumQ", "NumRel", "SetP", "SetRelP", "SetR", "SetF", "SetAP", "Success", "IPrec",
    "Judged", "ERR", "RBP", "alpha_nDCG", "α_nDCG", "alpha_DCG", "α_DCG", "ERR_IA", "nERR_IA", "P_IA", "StRecall",
    "AP_IA", "MAP_IA", "NRBP", "nNRBP", "Compat", "Accuracy", "SDCG", "NERR8", "NERR9", "NERR10", "NERR11", "INST",
    "INSQ", "BPM",
];

/// The parameters ir_measures 0.4.3 registers for each measure (`SUPPORTED_PARAMS`), for the message naming an
/// unknown one.
fn supported_params(measure: &str) -> &'static [&'static str] {
    match measure {
        "P" | "Precision" | "R" | "Recall" | "AP" | "MAP" | "RR" | "MRR" | "Success" => &["cutoff", "rel", "judged_only"],
        "Rprec" | "RPrec" | "SetAP" => &["rel", "judged_only"],
        "Bpref" | "BPref" | "infAP" | "SetR" | "NumRel" | "NumRet" | "NumRelRet" => &["rel"],
        "NumQ" => &[],
        "SetP" | "SetRelP" => &["rel", "relative", "judged_only"],
        "SetF" => &["rel", "beta", "judged_only"],
        "IPrec" => &["recall", "rel", "judged_only"],
        "nDCG" | "NDCG" => &["cutoff", "dcg", "gains", "judged_only"],
        "Judged" | "ERR" => &["cutoff"],
        "Compat" => &["p", "normalize"],
        "Accuracy" => &["cutoff", "rel"],
        "SDCG" => &["cutoff", "dcg", "min_rel", "max_rel"],
        "NERR8" | "NERR9" => &["cutoff", "min_rel", "max_rel"],
        "NERR10" => &["p", "min_rel", "max_rel"],
        "NERR11" | "INST" | "INSQ" => &["T", "min_rel", "max_rel"],
        "BPM" => &["cutoff", "T", "min_rel", "max_rel"],
        "RBP" => &["cutoff", "p", "rel"],
        "alpha_nDCG" | "α_nDCG" | "alpha_DCG" | "α_DCG" => &["cutoff", "rel", "alpha", "judged_only"],
        "ERR_IA" | "nERR_IA" | "P_IA" => &["cutoff", "rel", "judged_only"],
        "StRecall" => &["cutoff", "rel"],
        "AP_IA" | "MAP_IA" => &["rel", "judged_only"],
        "NRBP" | "nNRBP" => &["rel", "alpha", "beta"],
        _ => &[],
    }
}

/// ir_measures 0.4.3's registered measure names (`ir_measures.measures.registry`).
pub fn registry_names() -> Vec<&'static str> {
    COMPUTED.to_vec()
}

/// Whether `name` (without parameters or cutoff) is a measure name of ir_measures' registry.
pub fn is_ir_measures_name(name: &str) -> bool {
    COMPUTED.contains(&name)
}

fn syntax_error(text: &str, problem: impl std::fmt::Display) -> Error {
    Error::invalid("measure", format!("'{text}': {problem}; ir_measures names are written Measure(k1=v1, k2=v2)@c"))
}

/// A cursor over the measure text.
struct Reader<'a> {
    text: &'a str,
    rest: &'a str,
}

impl<'a> Reader<'a> {
    fn skip_space(&mut self) {
        self.rest = self.rest.trim_start();
    }

    fn eat(&mut self, c: char) -> bool {
        self.skip_space();
        match self.rest.strip_prefix(c) {
            Some(rest) => {
                self.rest = rest;
                true
            }
            None => false,
        }
    }

    fn identifier(&mut self) -> Result<&'a str> {
        self.skip_space();
        let end = self.rest.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(self.rest.len());
        let word = &self.rest[..end];
        if word.is_empty() || word.starts_with(|c: char| c.is_ascii_digit()) {
            return Err(syntax_error(self.text, "expected a name"));
        }
        self.rest = &self.rest[end..];
        Ok(word)
    }

    fn literal(&mut self) -> Result<Literal> {
        self.skip_space();
        let first = self.rest.chars().next().ok_or_else(|| syntax_error(self.text, "a value is missing"))?;
        if first == '{' {
            self.rest = &self.rest[1..];
            let mut pairs = Vec::new();
            if self.eat('}') {
                return Ok(Literal::Dict(pairs));
            }
            loop {
                let key = self.literal()?;
                if !self.eat(':') {
                    return Err(syntax_error(self.text, "expected ':' in a dict"));
                }
                pairs.push((key, self.literal()?));
                if self.eat('}') {
                    return Ok(Literal::Dict(pairs));
                }
                if !self.eat(',') {
                    return Err(syntax_error(self.text, "expected ',' or '}' in a dict"));
                }
                if self.eat('}') {
                    return Ok(Literal::Dict(pairs));
                }
            }
        }
        if first == '\'' || first == '"' {
            let body = &self.rest[1..];
            let end = body.find(first).ok_or_else(|| syntax_error(self.text, "unterminated string"))?;
            self.rest = &body[end + 1..];
            return Ok(Literal::Text(body[..end].to_string()));
        }
        if first.is_alphabetic() {
            return match self.identifier()? {
                "True" => Ok(Literal::Bool(true)),
                "False" => Ok(Literal::Bool(false)),
                other => Err(syntax_error(self.text, format!("values must be numbers, True/False, quoted strings or dicts, got '{other}'"))),
            };
        }
        // a number token; a sign belongs to it only after an exponent marker (Python reads a leading '-' as an
        // operator, which ir_measures refuses)
        let bytes = self.rest.as_bytes();
        let mut end = 0;
        while end < bytes.len() {
            let b = bytes[end];
            let exponent_sign = (b == b'+' || b == b'-') && end > 0 && matches!(bytes[end - 1], b'e' | b'E');
            if !(b.is_ascii_alphanumeric() || b == b'.' || exponent_sign) {
                break;
            }
            end += 1;
        }
        let token = &self.rest[..end];
        let value = if !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit()) {
            token.parse::<i64>().map(Literal::Int).ok()
        } else if token.starts_with(|c: char| c.is_ascii_digit() || c == '.') {
            token.parse::<f64>().ok().filter(|v| v.is_finite()).map(Literal::Float)
        } else {
            None
        };
        let shown = if token.is_empty() { self.rest.split([',', ')', '}', ':']).next().unwrap_or("") } else { token };
        let value = value.ok_or_else(|| syntax_error(self.text, format!("'{shown}' is not a value")))?;
        self.rest = &self.rest[end..];
        Ok(value)
    }
}

/// The parsed parts of an ir_measures name.
struct Call<'a> {
    text: &'a str,
    measure: &'a str,
    params: Vec<(&'a str, Literal)>,
}

fn parse_call(text: &str) -> Result<Call<'_>> {
    let mut reader = Reader { text, rest: text };
    let measure = reader.identifier()?;
    let mut params: Vec<(&str, Literal)> = Vec::new();
    if reader.eat('(') && !reader.eat(')') {
        loop {
            let key = reader.identifier().map_err(|_| syntax_error(text, "arguments must be named (key=value)"))?;
            if !reader.eat('=') {
                return Err(syntax_error(text, "arguments must be named (key=value)"));
            }
            let value = reader.literal()?;
            if params.iter().any(|(k, _)| *k == key) {
                return Err(syntax_error(text, format!("parameter '{key}' given twice")));
            }
            params.push((key, value));
            if reader.eat(')') {
                break;
            }
            if !reader.eat(',') {
                return Err(syntax_error(text, "expected ',' or ')'"));
            }
            if reader.eat(')') {
                break;
            }
        }
    }
    if reader.eat('@') {
        let at = reader.literal()?;
        let key = if measure == "IPrec" { "recall" } else { "cutoff" };
        // ir_measures' parse_measure: the value after '@' wins (`nDCG(cutoff=20)@10` is nDCG@10)
        params.retain(|(k, _)| *k != key);
        params.push((key, at));
    }
    reader.skip_space();
    if !reader.rest.is_empty() {
        return Err(syntax_error(text, format!("unexpected '{}'", reader.rest)));
    }
    Ok(Call { text, measure, params })
}

/// The parameters of one measure, taken one by one; what is left over is an unsupported parameter.
struct Params<'a> {
    call: Call<'a>,
}

impl Params<'_> {
    fn take(&mut self, key: &str) -> Option<Literal> {
        let at = self.call.params.iter().position(|(k, _)| *k == key)?;
        Some(self.call.params.remove(at).1)
    }

    fn wrong_type(&self, key: &str, value: &Literal, expected: &str) -> Error {
        Error::invalid(
            "measure",
            format!("'{}': parameter {key}={} of {} must be {expected}", self.call.text, value.describe(), self.call.measure),
        )
    }

    fn int(&mut self, key: &str) -> Result<Option<i64>> {
        match self.take(key) {
            None => Ok(None),
            Some(Literal::Int(v)) => Ok(Some(v)),
            Some(other) => Err(self.wrong_type(key, &other, "an integer")),
        }
    }

    /// A float parameter: ir_measures declares `dtype=float` and refuses an int (`SetF(beta=2)`; write `2.0`).
    fn float(&mut self, key: &str) -> Result<Option<f64>> {
        match self.take(key) {
            None => Ok(None),
            Some(Literal::Float(v)) => Ok(Some(v)),
            Some(other) => Err(self.wrong_type(key, &other, "a float (ir_measures refuses an int: write 2.0)")),
        }
    }

    fn flag(&mut self, key: &str) -> Result<Option<bool>> {
        match self.take(key) {
            None => Ok(None),
            Some(Literal::Bool(v)) => Ok(Some(v)),
            Some(other) => Err(self.wrong_type(key, &other, "True or False")),
        }
    }

    fn text(&mut self, key: &str) -> Result<Option<String>> {
        match self.take(key) {
            None => Ok(None),
            Some(Literal::Text(v)) => Ok(Some(v)),
            Some(other) => Err(self.wrong_type(key, &other, "a quoted string")),
        }
    }

    /// A cutoff: a positive integer.
    fn cutoff(&mut self) -> Result<Option<u32>> {
        match self.int("cutoff")? {
            None => Ok(None),
            Some(k) if k >= 1 && k <= u32::MAX as i64 => Ok(Some(k as u32)),
            Some(k) => Err(self.invalid(format!("the cutoff must be a positive integer, got {k}"))),
        }
    }

    fn required_cutoff(&mut self) -> Result<u32> {
        self.cutoff()?.ok_or_else(|| self.invalid(format!("{} needs a cutoff ({}@k)", self.call.measure, self.call.measure)))
    }

    /// `rel`: an int, or `True`/`False` (Python's bools are ints, and ir_measures' `dtype=int` check takes them).
    fn rel(&mut self) -> Result<Option<i64>> {
        match self.take("rel") {
            Some(Literal::Bool(v)) => Ok(Some(v as i64)),
            Some(other) => {
                self.call.params.push(("rel", other));
                self.int("rel")
            }
            None => Ok(None),
        }
    }

    /// `rel` and `judged_only` as the pytrec_eval provider passes them: trec_eval's `-l`, which pytrec_eval
    /// refuses below 1 ("relevance_level should be positive"), and `-J`.
    fn judging(&mut self, has_judged_only: bool) -> Result<Judging> {
        let relevance_level = self.rel()?;
        if let Some(level) = relevance_level.filter(|&level| level < 1) {
            return Err(self.invalid(format!("rel={level}: pytrec_eval, which computes {}, needs rel ≥ 1", self.call.measure)));
        }
        let judged_only = if has_judged_only { self.flag("judged_only")?.unwrap_or(false) } else { false };
        Ok(Judging { relevance_level, judged_only })
    }

    fn invalid(&self, problem: impl std::fmt::Display) -> Error {
        Error::invalid("measure", format!("'{}': {problem}", self.call.text))
    }

    /// The measure, once every parameter was taken: a parameter left is one the measure does not have.
    fn finish(self, metric: Metric) -> Result<Metric> {
        if let Some((key, _)) = self.call.params.first() {
            let measure = self.call.measure;
            let unknown = crate::options::unknown_name(&format!("parameter of {measure}"), key, supported_params(measure));
            return Err(Error::invalid(
                "measure",
                format!("'{}': {measure} has no parameter '{key}' in ir_measures: {unknown}", self.call.text),
            ));
        }
        Ok(metric)
    }
}

/// Custom nDCG gains `{grade: gain, …}` as ir_measures' pytrec_eval provider applies them
/// (`gains.get(grade, grade)`): a key is a grade when it equals an int in Python (`1`, `True`, `1.0`); other keys
/// (`'1'`, `1.5`) never match a grade and are ignored, and unlisted grades keep their grade as gain. A gain must be
/// an int (pytrec_eval refuses any other relevance; rerankit refuses it even for a grade the qrels lack). Python's
/// literal syntax has no negative numbers, so gains are ≥ 0.
fn gain_pairs(params: &mut Params, value: Literal) -> Result<GainPairs> {
    let Literal::Dict(entries) = value else { return Err(params.wrong_type("gains", &value, "a dict {grade: gain}")) };
    let as_int = |literal: &Literal| match *literal {
        Literal::Int(v) => Some(v),
        Literal::Bool(v) => Some(v as i64),
        Literal::Float(v) if v.fract() == 0.0 && v.abs() < 1e15 => Some(v as i64),
        _ => None,
    };
    let mut pairs: Vec<(String, f64)> = Vec::new();
    for (grade, gain) in entries {
        let gain = match gain {
            Literal::Int(v) => v,
            Literal::Bool(v) => v as i64,
            other => return Err(params.invalid(format!("gains: the gain {} must be an int, as pytrec_eval needs", other.describe()))),
        };
        if let Some(grade) = as_int(&grade) {
            // a later equal key replaces the earlier one, as in a Python dict
            pairs.retain(|(g, _)| *g != grade.to_string());
            pairs.push((grade.to_string(), gain as f64));
        }
    }
    // a dict has no order: ir_measures' `nDCG(gains={1: 2, 0: 1})` is its `nDCG(gains={0:1,1:2})`
    crate::stable_sort::stable_sort_by_key(&mut pairs, |(grade, _)| grade.parse::<i64>().ok());
    let printable = pairs.iter().map(|(grade, gain)| format!("{grade}={gain}")).collect::<Vec<_>>().join(",");
    Ok(GainPairs { printable: Some(printable), pairs })
}

fn with_judging(metric: Metric, judging: Judging) -> Metric {
    if judging == Judging::default() {
        metric
    } else {
        Metric::Judging { metric: Box::new(metric), judging }
    }
}

/// A probability-like parameter in [0, 1] (`alpha`, `beta`), its default when not given.
fn unit_interval(p: &mut Params, key: &str, default: f64) -> Result<f64> {
    let value = p.float(key)?.unwrap_or(default);
    if !(0.0..=1.0).contains(&value) {
        return Err(p.invalid(format!("{key} must be in [0, 1], got {value}")));
    }
    Ok(value)
}

/// ndeval's measures (ir_measures' pyndeval provider): cutoffs 1 to 20, `rel` binarises the subtopic grades
/// (without it, the evaluation's relevance level, 1 by default as in ir_measures), `alpha` / `beta` where the
/// measure has them (ndeval's 0.5 otherwise).
fn intent_aware(p: &mut Params) -> Result<Metric> {
    let name = p.call.measure;
    let has_cutoff = !matches!(name, "AP_IA" | "MAP_IA" | "NRBP" | "nNRBP");
    let k = if has_cutoff {
        let k = p.required_cutoff()?;
        if k > MAX_DEPTH {
            return Err(p.invalid(format!("ndeval computes {name} to depth {MAX_DEPTH} at most, got {k}")));
        }
        k
    } else {
        0
    };
    let rel = p.rel()?;
    if !matches!(name, "StRecall" | "NRBP" | "nNRBP") && p.flag("judged_only")? == Some(true) {
        return Err(p.invalid("ir_measures' pyndeval provider cannot run judged_only=True"));
    }
    let measure = match name {
        "alpha_nDCG" | "α_nDCG" => IntentAwareMeasure::AlphaNdcg { k, alpha: unit_interval(p, "alpha", DEFAULT_ALPHA)? },
        "alpha_DCG" | "α_DCG" => IntentAwareMeasure::AlphaDcg { k, alpha: unit_interval(p, "alpha", DEFAULT_ALPHA)? },
        "ERR_IA" => IntentAwareMeasure::ErrIa { k },
        "nERR_IA" => IntentAwareMeasure::NerrIa { k },
        "P_IA" => IntentAwareMeasure::PrecisionIa { k },
        "StRecall" => IntentAwareMeasure::SubtopicRecall { k },
        "AP_IA" | "MAP_IA" => IntentAwareMeasure::ApIa,
        _ => {
            let alpha = unit_interval(p, "alpha", DEFAULT_ALPHA)?;
            let beta = unit_interval(p, "beta", 0.5)?;
            if name == "NRBP" {
                IntentAwareMeasure::Nrbp { alpha, beta }
            } else {
                IntentAwareMeasure::NNrbp { alpha, beta }
            }
        }
    };
    Ok(Metric::IntentAware { measure, rel })
}

/// cwl_eval's measures (ir_measures' cwl_eval provider): `max_rel` required, `min_rel` (default 0) below it, the
/// cutoff required where the measure has one, `T` (default 1.0) and `p` (default 0.9) floats.
fn cwl_measure(p: &mut Params) -> Result<Metric> {
    let name = p.call.measure;
    let cutoff = if matches!(name, "SDCG" | "NERR8" | "NERR9" | "BPM") { Some(p.required_cutoff()?) } else { None };
    let k = cutoff.unwrap_or(0);
    let t = if matches!(name, "NERR11" | "INST" | "INSQ" | "BPM") { p.float("T")?.unwrap_or(1.0) } else { 1.0 };
    let measure = match name {
        "SDCG" => {
            if let Some(dcg) = p.text("dcg")?.filter(|d| d != "log2") {
                return Err(p.invalid(format!("SDCG's dcg must be 'log2', got '{dcg}'")));
            }
            CwlMeasure::Sdcg { k }
        }
        "NERR8" => CwlMeasure::Nerr8 { k },
        "NERR9" => CwlMeasure::Nerr9 { k },
        "NERR10" => CwlMeasure::Nerr10 { p: p.float("p")?.unwrap_or(0.9) },
        "NERR11" => CwlMeasure::Nerr11 { t },
        "INST" => CwlMeasure::Inst { t },
        "INSQ" => CwlMeasure::Insq { t },
        _ => CwlMeasure::Bpm { t, k },
    };
    let min_rel = p.int("min_rel")?.unwrap_or(0);
    let max_rel = p.int("max_rel")?.ok_or_else(|| p.invalid(format!("{name} needs max_rel, the grade that gains 1")))?;
    if min_rel >= max_rel {
        return Err(p.invalid(format!("min_rel ({min_rel}) must be below max_rel ({max_rel})")));
    }
    Ok(Metric::Cwl { measure, min_rel, max_rel })
}

/// Parses an ir_measures name into the measure rerankit computes for it.
pub fn parse_ir_measure(text: &str) -> Result<Metric> {
    let call = parse_call(text)?;
    let measure = call.measure;
    if !COMPUTED.contains(&measure) {
        let unknown = crate::options::unknown_name("ir_measures measure", measure, &registry_names());
        return Err(Error::invalid("measure", format!("unknown measure '{text}' (not a trec_eval, ranx or ir_measures name): {unknown}")));
    }
    let mut p = Params { call };
    let metric = match measure {
        "P" | "Precision" => {
            let k = p.required_cutoff()?;
            with_judging(Metric::P(k), p.judging(true)?)
        }
        "R" | "Recall" => {
            let k = p.required_cutoff()?;
            with_judging(Metric::Recall(k), p.judging(true)?)
        }
        "Success" => {
            let k = p.required_cutoff()?;
            with_judging(Metric::Success(k), p.judging(true)?)
        }
        "AP" | "MAP" => {
            let metric = match p.cutoff()? {
                Some(k) => Metric::MapCut(k),
                None => Metric::Map,
            };
            with_judging(metric, p.judging(true)?)
        }
        "RR" | "MRR" => {
            let cutoff = p.cutoff()?;
            let judging = match cutoff {
                // RR@k is msmarco's, which takes any rel (rel=0 too)
                Some(_) => Judging { relevance_level: p.rel()?, judged_only: p.flag("judged_only")?.unwrap_or(false) },
                None => p.judging(true)?,
            };
            if cutoff.is_some() && judging.judged_only {
                return Err(p.invalid("no ir_measures provider computes RR(judged_only=True)@k"));
            }
            with_judging(cutoff.map_or(Metric::RecipRank, Metric::RecipRankCut), judging)
        }
        "Rprec" | "RPrec" => with_judging(Metric::Rprec, p.judging(true)?),
        "Bpref" | "BPref" => with_judging(Metric::Bpref, p.judging(false)?),
        "infAP" => with_judging(Metric::InfAp, p.judging(false)?),
        "SetR" => with_judging(Metric::SetRecall, p.judging(false)?),
        "SetAP" => with_judging(Metric::SetMap, p.judging(true)?),
        "SetP" | "SetRelP" => {
            let relative = p.flag("relative")?.unwrap_or(measure == "SetRelP");
            let metric = if relative { Metric::SetRelativeP } else { Metric::SetP };
            with_judging(metric, p.judging(true)?)
        }
        "SetF" => {
            let beta = p.float("beta")?.unwrap_or(1.0);
            let printable = if beta == 1.0 { None } else { Some(beta.to_string()) };
            with_judging(Metric::SetF { beta, printable }, p.judging(true)?)
        }
        "NumQ" => Metric::NumQ,
        "NumRel" => {
            // the pytrec_eval provider computes NumRel at rel=1 only (trec_eval's num_rel ignores -l)
            let judging = p.judging(false)?;
            if judging.relevance_level.is_some_and(|level| level != 1) {
                return Err(p.invalid("no ir_measures provider computes NumRel with rel other than 1"));
            }
            with_judging(Metric::NumRel, Judging::default())
        }
        "NumRet" | "NumRelRet" => {
            let mut judging = p.judging(false)?;
            if measure == "NumRelRet" && judging.relevance_level.is_none() {
                judging.relevance_level = Some(1);
            }
            match judging.relevance_level {
                // NumRet(rel=l) counts retrieved documents with grade ≥ l: trec_eval's num_rel_ret at -l l
                Some(_) => with_judging(Metric::NumRelRet, judging),
                None => Metric::NumRet,
            }
        }
        "IPrec" => {
            let recall = p.float("recall")?.ok_or_else(|| p.invalid("IPrec needs a recall level (IPrec@0.5)"))?;
            if !(0.0..=1.0).contains(&recall) {
                return Err(p.invalid(format!("the recall level must be in [0, 1], got {recall}")));
            }
            // the pytrec_eval provider asks for `iprec_at_recall_{recall:.2f}` from the trec_eval 9 it embeds
            let level: f64 = format!("{recall:.2}").parse().unwrap_or(recall);
            with_judging(Metric::IprecTrecEval9(level), p.judging(true)?)
        }
        "nDCG" | "NDCG" => {
            let cutoff = p.cutoff()?;
            let dcg = p.text("dcg")?.unwrap_or_else(|| "log2".to_string());
            let gains = match p.take("gains") {
                Some(value) => Some(gain_pairs(&mut p, value)?),
                None => None,
            };
            // ir_measures' nDCG has no `rel`
            let judging = Judging { relevance_level: None, judged_only: p.flag("judged_only")?.unwrap_or(false) };
            match (dcg.as_str(), gains) {
                ("log2", None) => with_judging(cutoff.map_or(Metric::Ndcg(GainPairs::default()), Metric::NdcgCut), judging),
                ("log2", Some(gains)) => with_judging(
                    match cutoff {
                        Some(k) => Metric::NdcgCutGains { k, gains },
                        None => Metric::Ndcg(gains),
                    },
                    judging,
                ),
                // gdeval computes exp-log2 at a cutoff, ir_measures' ranx provider without one (ranx's
                // ndcg_burges; under pandas 3 ranx 0.3.21 refuses ir_measures' string-dtype query ids)
                ("exp-log2", None) if judging == Judging::default() => match cutoff {
                    Some(k) => Metric::NdcgBurgesCut(k),
                    None => Metric::NdcgBurges,
                },
                ("exp-log2", _) => return Err(p.invalid("no ir_measures provider computes nDCG(dcg='exp-log2') with gains, rel or judged_only")),
                (other, _) => return Err(p.invalid(format!("dcg must be 'log2' or 'exp-log2', got '{other}'"))),
            }
        }
        "Judged" => Metric::Judged(p.cutoff()?),
        "ERR" => Metric::ExpectedReciprocalRank(p.required_cutoff()?),
        "RBP" => {
            let cutoff = p.cutoff()?;
            let persistence = p.float("p")?.unwrap_or(0.8);
            if !(persistence > 0.0 && persistence < 1.0) {
                return Err(p.invalid(format!("the persistence p must be in (0, 1), got {persistence}")));
            }
            match (p.rel()?, cutoff) {
                (Some(rel), None) => Metric::RbpBinary { p: persistence, rel },
                (None, cutoff) => Metric::RbpGraded { p: persistence, cutoff },
                (Some(_), Some(_)) => return Err(p.invalid("no ir_measures provider computes RBP with both rel and a cutoff")),
            }
        }
        "alpha_nDCG" | "α_nDCG" | "alpha_DCG" | "α_DCG" | "ERR_IA" | "nERR_IA" | "P_IA" | "StRecall" | "AP_IA"
        | "MAP_IA" | "NRBP" | "nNRBP" => intent_aware(&mut p)?,
        "SDCG" | "NERR8" | "NERR9" | "NERR10" | "NERR11" | "INST" | "INSQ" | "BPM" => cwl_measure(&mut p)?,
        // the accuracy provider's own rel (default 1, any int), not trec_eval's -l
        "Accuracy" => {
            let cutoff = p.cutoff()?;
            let rel = p.rel()?.unwrap_or(1);
            if rel < 1 {
                // every unjudged document is then relevant and the provider divides by zero non-relevant ones
                return Err(p.invalid(format!("rel={rel}: ir_measures' accuracy provider divides by zero below rel=1")));
            }
            Metric::Accuracy { cutoff, rel }
        }
        "Compat" => {
            // any float, as the compat provider takes it (p ≥ 1 weighs deeper ranks more)
            let persistence = p.float("p")?.unwrap_or(0.95);
            Metric::Compat { p: persistence, normalize: p.flag("normalize")?.unwrap_or(true) }
        }
        _ => unreachable!("every COMPUTED name is matched"),
    };
    p.finish(metric)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judged(metric: Metric, rel: i64) -> Metric {
        Metric::Judging { metric: Box::new(metric), judging: Judging { relevance_level: Some(rel), judged_only: false } }
    }

    #[test]
    fn maps_parameterised_names() {
        assert_eq!(parse_ir_measure("P(rel=2)@10").unwrap(), judged(Metric::P(10), 2));
        assert_eq!(parse_ir_measure("AP(rel=2)").unwrap(), judged(Metric::Map, 2));
        assert_eq!(parse_ir_measure("RR(rel=2)@10").unwrap(), judged(Metric::RecipRankCut(10), 2));
        assert_eq!(parse_ir_measure(" RBP( p = 0.5 , rel=2 ) ").unwrap(), Metric::RbpBinary { p: 0.5, rel: 2 });
        assert_eq!(parse_ir_measure("RBP").unwrap(), Metric::RbpGraded { p: 0.8, cutoff: None });
        assert_eq!(parse_ir_measure("NumRelRet").unwrap(), judged(Metric::NumRelRet, 1));
        assert_eq!(parse_ir_measure("SetRelP").unwrap(), Metric::SetRelativeP);
        assert_eq!(parse_ir_measure("IPrec@0.125").unwrap(), Metric::IprecTrecEval9(0.12));
        assert_eq!(parse_ir_measure("nDCG(dcg='exp-log2')@10").unwrap(), Metric::NdcgBurgesCut(10));
        assert_eq!(parse_ir_measure("nDCG(dcg='exp-log2')").unwrap(), Metric::NdcgBurges);
        assert_eq!(parse_ir_measure("nDCG(dcg='exp-log2',cutoff=20)@10").unwrap(), Metric::NdcgBurgesCut(10));
        assert_eq!(parse_ir_measure("P(rel=True)@5").unwrap(), judged(Metric::P(5), 1));
        assert_eq!(parse_ir_measure("RR(rel=0)@10").unwrap(), judged(Metric::RecipRankCut(10), 0));
        let gains = parse_ir_measure("nDCG(gains={'1':5,True:3,2.0:4,2.5:9})@10").unwrap();
        assert!(matches!(gains, Metric::NdcgCutGains { ref gains, .. } if gains.pairs == [("1".to_string(), 3.0), ("2".to_string(), 4.0)]));
        assert_eq!(
            parse_ir_measure("α_nDCG(alpha=0.25)@20").unwrap(),
            Metric::IntentAware { measure: IntentAwareMeasure::AlphaNdcg { k: 20, alpha: 0.25 }, rel: None }
        );
        assert_eq!(
            parse_ir_measure("nNRBP(beta=0.8,rel=2)").unwrap(),
            Metric::IntentAware { measure: IntentAwareMeasure::NNrbp { alpha: 0.5, beta: 0.8 }, rel: Some(2) }
        );
        let gains = parse_ir_measure("nDCG(gains={0:0,1:1,2:3})@10").unwrap();
        assert!(matches!(gains, Metric::NdcgCutGains { k: 10, ref gains } if gains.pairs.len() == 3));
        assert_eq!(
            parse_ir_measure("P(judged_only=True)@5").unwrap(),
            Metric::Judging { metric: Box::new(Metric::P(5)), judging: Judging { relevance_level: None, judged_only: true } }
        );
    }

    #[test]
    fn refuses_with_the_measure_named() {
        for (name, needle) in [
            ("P(rel=2)", "needs a cutoff"),
            ("P(rel=2.5)@10", "must be an integer"),
            ("P(rel=-1)@10", "not a value"),
            ("P(foo=1)@10", "no parameter 'foo'"),
            ("P(rel=1, rel=2)@10", "given twice"),
            ("P(1)@10", "must be named"),
            ("SDCG(min_rel=1)@20", "needs max_rel"),
            ("INST(min_rel=2,max_rel=2)", "must be below max_rel"),
            ("NRBP(beta=1.5)", "beta must be in [0, 1]"),
            ("AP_IA@10", "no parameter 'cutoff'"),
            ("Compat(p=8)", "must be a float"),
            ("BPM(max_rel=1)", "needs a cutoff"),
            ("alpha_nDCG@30", "depth 20"),
            ("RBP(p=1.5)", "(0, 1)"),
            ("RBP(rel=1)@10", "both rel and a cutoff"),
            ("nDCG(dcg='exp')@10", "dcg must be"),
            ("nDCG(gains={1:-1})@10", "'-1' is not a value"),
            ("nDCG(gains={1:1.5})@10", "must be an int"),
            ("SetF(beta=2)", "must be a float"),
            ("P(rel=0)@10", "rel ≥ 1"),
            ("NumRel(rel=2)", "rel other than 1"),
            ("nDCG(rel=2)@10", "no parameter 'rel'"),
            ("nDCG(dcg='exp-log2',judged_only=True)", "no ir_measures provider"),
            ("nDCG(cutof=10)", "did you mean \"cutoff\""),
            ("nDGC@10", "did you mean \"nDCG\""),
            ("ERR", "needs a cutoff"),
            ("Nope(x=1)", "unknown measure"),
            ("P(rel=2)@10 extra", "unexpected"),
            ("P(rel='2')@10", "must be an integer"),
        ] {
            let message = parse_ir_measure(name).unwrap_err().to_string();
            assert!(message.contains(needle) && message.contains(name.trim()), "{name}: {message}");
        }
    }
}
