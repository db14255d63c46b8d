//! SQuAD answer normalisation, EM and F1 exactly as the official scripts compute them, and the official
//! `evaluate-v1.1.py` / `evaluate-v2.0.py` outputs for a dataset and a predictions file.
//!
//! `normalize_answer(s)` = `white_space_fix(remove_articles(remove_punc(lower(s))))` with Python 3 semantics:
//! - `lower`: `str.lower()` (full Unicode lower-casing, final sigma included; Rust's `to_lowercase` is the same
//!   mapping);
//! - `remove_punc`: drops the 32 ASCII characters of `string.punctuation` only;
//! - `remove_articles`: `re.sub(r"\b(a|an|the)\b", " ", text)` where `\w` is Python's (`str.isalnum()` or `_`,
//!   i.e. letters L*, numbers Nd/Nl/No, and `_`; combining marks are *not* word characters, unlike Rust's regex);
//! - `white_space_fix`: `" ".join(text.split())` with Python's whitespace (Unicode White_Space plus the
//!   separators U+001C–U+001F).
//!
//! Haystack's `compute_exact` / `compute_f1` are the v2.0 ones (an empty side scores 1 only when both are empty).

use crate::error::{Error, Result};
use serde_json::{Map, Value};
use std::collections::HashMap;
use unicode_general_category::{get_general_category, GeneralCategory as G};

const PUNCTUATION: &str = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";

/// Python's `\w` for `str` patterns: `ch.isalnum() or ch == '_'`.
fn is_py_word(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric() || c == '_';
    }
    matches!(
        get_general_category(c),
        G::UppercaseLetter
            | G::LowercaseLetter
            | G::TitlecaseLetter
            | G::ModifierLetter
            | G::OtherLetter
            | G::DecimalNumber
            | G::LetterNumber
            | G::OtherNumber
    )
}

/// Python's `str.isspace()` (what `str.split()` splits on).
fn is_py_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// The official SQuAD `normalize_answer`.
pub fn normalize_answer(s: &str) -> String {
    let lowered = s.to_lowercase();
    let no_punc: Vec<char> = lowered.chars().filter(|c| !PUNCTUATION.contains(*c)).collect();
    // remove_articles: maximal runs of word characters equal to a / an / the become one space
    let mut out = String::with_capacity(no_punc.len());
    let mut i = 0;
    while i < no_punc.len() {
        if is_py_word(no_punc[i]) {
            let start = i;
            while i < no_punc.len() && is_py_word(no_punc[i]) {
                i += 1;
            }
            let run: String = no_punc[start..i].iter().collect();
            if run == "a" || run == "an" || run == "the" {
                out.push(' ');
            } else {
                out.push_str(&run);
            }
        } else {
            out.push(no_punc[i]);
            i += 1;
        }
    }
    out.split(is_py_space).filter(|t| !t.is_empty()).collect::<Vec<_>>().join(" ")
}

/// `get_tokens` of the v2.0 script: `[]` for an empty string, else the normalised text split on whitespace.
pub fn get_tokens(s: &str) -> Vec<String> {
    if s.is_empty() {
        return Vec::new();
    }
    normalize_answer(s).split(is_py_space).filter(|t| !t.is_empty()).map(str::to_string).collect()
}

/// v2.0 `compute_exact` (Haystack's `calculate_em_str`): 1.0 when the normalised strings are equal.
pub fn compute_exact(gold: &str, pred: &str) -> f64 {
    if normalize_answer(gold) == normalize_answer(pred) {
        1.0
    } else {
        0.0
    }
}

fn f1_of_tokens(gold: &[String], pred: &[String], empty_rule: bool) -> f64 {
    if empty_rule && (gold.is_empty() || pred.is_empty()) {
        return if gold == pred { 1.0 } else { 0.0 };
    }
    let mut counts: HashMap<&str, i64> = HashMap::new();
    for t in gold {
        *counts.entry(t).or_insert(0) += 1;
    }
    let mut num_same = 0i64;
    for t in pred {
        if let Some(c) = counts.get_mut(t.as_str()) {
            if *c > 0 {
                *c -= 1;
                num_same += 1;
            }
        }
    }
    if num_same == 0 {
        return 0.0;
    }
    let precision = 1.0 * num_same as f64 / pred.len() as f64;
    let recall = 1.0 * num_same as f64 / gold.len() as f64;
    (2.0 * precision * recall) / (precision + recall)
}

/// v2.0 `compute_f1` (Haystack's `calculate_f1_str`).
pub fn compute_f1(gold: &str, pred: &str) -> f64 {
    f1_of_tokens(&get_tokens(gold), &get_tokens(pred), true)
}

/// v1.1 `f1_score(prediction, ground_truth)` (no special case for empty answers).
pub fn f1_v1(pred: &str, gold: &str) -> f64 {
    let p: Vec<String> = normalize_answer(pred).split(is_py_space).filter(|t| !t.is_empty()).map(str::to_string).collect();
    let g: Vec<String> = normalize_answer(gold).split(is_py_space).filter(|t| !t.is_empty()).map(str::to_string).collect();
    f1_of_tokens(&g, &p, false)
}

/// Which official script to reproduce.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SquadVersion {
    V1_1,
    V2_0,
}

/// One question of a SQuAD dataset file.
#[derive(Debug, Clone)]
pub struct SquadQuestion {
    pub id: String,
    pub answers: Vec<String>,
    pub is_impossible: bool,
}

fn field<'a>(v: &'a Value, key: &str, at: &str) -> Result<&'a Value> {
    v.get(key).ok_or_else(|| Error::parse(at, format!("missing \"{key}\"")))
}

/// The questions of a SQuAD `{"version", "data": [{"paragraphs": [{"qas": [...]}]}]}` file, in file order.
pub fn parse_dataset(json: &Value) -> Result<Vec<SquadQuestion>> {
    let data = field(json, "data", "dataset")?.as_array().ok_or_else(|| Error::parse("dataset.data", "expected a list"))?;
    let mut out = Vec::new();
    for (ai, article) in data.iter().enumerate() {
        let at = format!("dataset.data[{ai}]");
        let paragraphs = field(article, "paragraphs", &at)?.as_array().ok_or_else(|| Error::parse(&at, "paragraphs: expected a list"))?;
        for (pi, p) in paragraphs.iter().enumerate() {
            let at = format!("dataset.data[{ai}].paragraphs[{pi}]");
            let qas = field(p, "qas", &at)?.as_array().ok_or_else(|| Error::parse(&at, "qas: expected a list"))?;
            for (qi, qa) in qas.iter().enumerate() {
                let at = format!("{at}.qas[{qi}]");
                let id = match field(qa, "id", &at)? {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                let answers = field(qa, "answers", &at)?
                    .as_array()
                    .ok_or_else(|| Error::parse(&at, "answers: expected a list"))?
                    .iter()
                    .map(|a| a.get("text").and_then(Value::as_str).map(str::to_string).ok_or_else(|| Error::parse(&at, "answers[].text: expected a string")))
                    .collect::<Result<Vec<_>>>()?;
                let is_impossible = qa.get("is_impossible").and_then(Value::as_bool).unwrap_or(false);
                out.push(SquadQuestion { id, answers, is_impossible });
            }
        }
    }
    Ok(out)
}

/// The official script's result: the JSON object it prints (keys in its order) and its stderr lines.
#[derive(Debug, Clone)]
pub struct SquadEvaluation {
    pub output: Map<String, Value>,
    pub messages: Vec<String>,
}

fn predictions_map(preds: &Value) -> Result<&Map<String, Value>> {
    preds.as_object().ok_or_else(|| Error::parse("predictions", "expected an object {question id: answer text}"))
}

fn pred_text<'a>(preds: &'a Map<String, Value>, id: &str) -> Result<Option<&'a str>> {
    match preds.get(id) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(other) => Err(Error::parse(format!("predictions[{id:?}]"), format!("expected a string, got {other}"))),
    }
}

/// `evaluate-v1.1.py DATASET PREDICTIONS`: `{"exact_match": 100·EM, "f1": 100·F1}` over every question of the
/// dataset (an unanswered question scores 0 and is reported).
pub fn evaluate_v1(dataset: &Value, predictions: &Value) -> Result<SquadEvaluation> {
    let questions = parse_dataset(dataset)?;
    let preds = predictions_map(predictions)?;
    let (mut em, mut f1, mut total) = (0.0f64, 0.0f64, 0usize);
    let mut messages = Vec::new();
    for q in &questions {
        total += 1;
        let Some(pred) = pred_text(preds, &q.id)? else {
            messages.push(format!("Unanswered question {} will receive score 0.", q.id));
            continue;
        };
        // metric_max_over_ground_truths: max() of an empty list raises in Python
        if q.answers.is_empty() {
            return Err(Error::invalid(&format!("dataset question {}", q.id), "has no answers (evaluate-v1.1.py fails on it)"));
        }
        em += q.answers.iter().map(|g| if normalize_answer(pred) == normalize_answer(g) { 1.0 } else { 0.0 }).fold(f64::MIN, f64::max);
        f1 += q.answers.iter().map(|g| f1_v1(pred, g)).fold(f64::MIN, f64::max);
    }
    let mut output = Map::new();
    if total == 0 {
        return Err(Error::invalid("dataset", "has no questions (evaluate-v1.1.py divides by zero)"));
    }
    output.insert("exact_match".into(), json_f64(100.0 * em / total as f64));
    output.insert("f1".into(), json_f64(100.0 * f1 / total as f64));
    Ok(SquadEvaluation { output, messages })
}

fn json_f64(x: f64) -> Value {
    serde_json::Number::from_f64(x).map(Value::Number).unwrap_or(Value::Null)
}

/// `evaluate-v2.0.py DATASET PREDICTIONS` (no na-prob file): exact, f1, total, and HasAns_/NoAns_ splits when
/// present, as the script prints them. A missing prediction is reported ("Missing prediction for …") and left
/// out of the overall average; the HasAns/NoAns splits then raise `KeyError` in the script, an error here.
pub fn evaluate_v2(dataset: &Value, predictions: &Value) -> Result<SquadEvaluation> {
    let questions = parse_dataset(dataset)?;
    let preds = predictions_map(predictions)?;
    let mut messages = Vec::new();
    let mut exact: HashMap<&str, f64> = HashMap::new();
    let mut f1s: HashMap<&str, f64> = HashMap::new();
    for q in &questions {
        let mut gold: Vec<&str> = q.answers.iter().map(String::as_str).filter(|a| !normalize_answer(a).is_empty()).collect();
        if gold.is_empty() {
            gold = vec![""];
        }
        let Some(pred) = pred_text(preds, &q.id)? else {
            messages.push(format!("Missing prediction for {}", q.id));
            continue;
        };
        exact.insert(&q.id, gold.iter().map(|g| compute_exact(g, pred)).fold(f64::MIN, f64::max));
        f1s.insert(&q.id, gold.iter().map(|g| compute_f1(g, pred)).fold(f64::MIN, f64::max));
    }
    // the overall numbers average over the scored questions (make_eval_dict without a qid list)
    let all: Vec<&SquadQuestion> = questions.iter().filter(|q| exact.contains_key(q.id.as_str())).collect();
    let has: Vec<&SquadQuestion> = questions.iter().filter(|q| !q.answers.is_empty()).collect();
    let no: Vec<&SquadQuestion> = questions.iter().filter(|q| q.answers.is_empty()).collect();
    let eval_dict = |qs: &[&SquadQuestion]| -> Result<(f64, f64, usize)> {
        let mut e = 0.0;
        let mut f = 0.0;
        for q in qs {
            e += *exact.get(q.id.as_str()).ok_or_else(|| Error::invalid("predictions", format!("no prediction for question {} (evaluate-v2.0.py raises KeyError)", q.id)))?;
            f += f1s[q.id.as_str()];
        }
        Ok((100.0 * e / qs.len() as f64, 100.0 * f / qs.len() as f64, qs.len()))
    };
    let mut output = Map::new();
    if all.is_empty() {
        return Err(Error::invalid("dataset", "has no questions (evaluate-v2.0.py divides by zero)"));
    }
    let (e, f, t) = eval_dict(&all)?;
    output.insert("exact".into(), json_f64(e));
    output.insert("f1".into(), json_f64(f));
    output.insert("total".into(), Value::from(t));
    if !has.is_empty() {
        let (e, f, t) = eval_dict(&has)?;
        output.insert("HasAns_exact".into(), json_f64(e));
        output.insert("HasAns_f1".into(), json_f64(f));
        output.insert("HasAns_total".into(), Value::from(t));
    }
    if !no.is_empty() {
        let (e, f, t) = eval_dict(&no)?;
        output.insert("NoAns_exact".into(), json_f64(e));
        output.insert("NoAns_f1".into(), json_f64(f));
        output.insert("NoAns_total".into(), Value::from(t));
    }
    Ok(SquadEvaluation { output, messages })
}

/// Options of `squadEvaluate`.
#[derive(Debug, Clone, Default, PartialEq, serde::Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct SquadOptions {
    /// The official script to run: "1.1" or "2.0" (also "v1.1", "v2.0"); absent: from the dataset's `version`,
    /// else 2.0 when any question is marked `is_impossible`.
    #[cfg_attr(test, ts(type = "\"1.1\" | \"2.0\" | \"v1.1\" | \"v2.0\" | null"))]
    pub version: Option<String>,
}

impl SquadOptions {
    pub fn version(&self, dataset: &Value) -> Result<SquadVersion> {
        match self.version.as_deref() {
            None | Some("") => Ok(detect_version(dataset)),
            Some("1.1") | Some("v1.1") => Ok(SquadVersion::V1_1),
            Some("2.0") | Some("v2.0") => Ok(SquadVersion::V2_0),
            Some(other) => Err(Error::invalid("version", format!("{other:?} is not \"1.1\" or \"2.0\""))),
        }
    }
}

/// Detects the version from the dataset's `"version"` field (`"1.1"` / `"v2.0"`), else from the presence of
/// `is_impossible` anywhere.
pub fn detect_version(dataset: &Value) -> SquadVersion {
    match dataset.get("version").and_then(Value::as_str) {
        Some(v) if v.contains('2') => SquadVersion::V2_0,
        Some(v) if v.contains('1') => SquadVersion::V1_1,
        _ => {
            let any_impossible = parse_dataset(dataset).map(|qs| qs.iter().any(|q| q.is_impossible)).unwrap_or(false);
            if any_impossible {
                SquadVersion::V2_0
            } else {
                SquadVersion::V1_1
            }
        }
    }
}

/// What the official script prints: v1.1 `json.dumps(result)` on one line, v2.0 `json.dumps(result, indent=2)`.
pub fn dumps_official(output: &Map<String, Value>, version: SquadVersion) -> String {
    match version {
        SquadVersion::V1_1 => dumps_flat(output),
        SquadVersion::V2_0 => {
            let parts: Vec<String> = output.iter().map(|(k, v)| format!("  {}: {}", Value::String(k.clone()), py_number(v))).collect();
            format!("{{\n{}\n}}", parts.join(",\n"))
        }
    }
}

fn py_number(v: &Value) -> String {
    match v {
        Value::Number(n) if n.is_f64() => crate::python::repr::repr_float(n.as_f64().unwrap_or(0.0)),
        other => other.to_string(),
    }
}

/// Python's `json.dumps(obj)` for the flat objects the scripts print (floats in repr form, `", "` / `": "`).
pub fn dumps_flat(output: &Map<String, Value>) -> String {
    let parts: Vec<String> = output
        .iter()
        .map(|(k, v)| {
            let val = match v {
                Value::Number(n) if n.is_f64() => crate::python::repr::repr_float(n.as_f64().unwrap_or(0.0)),
                other => other.to_string(),
            };
            format!("{}: {}", Value::String(k.clone()), val)
        })
        .collect();
    format!("{{{}}}", parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalisation_basics() {
        assert_eq!(normalize_answer("The  Cat, a dog!"), "cat dog");
        // `_` is in string.punctuation, so the official function removes it.
        assert_eq!(normalize_answer("an_apple"), "anapple");
        assert_eq!(normalize_answer("a\u{301}"), "\u{301}");
        assert_eq!(normalize_answer("x\u{1c}y"), "x y");
        assert_eq!(compute_f1("", ""), 1.0);
        assert_eq!(compute_f1("a", "x"), 0.0);
        assert_eq!(f1_v1("", ""), 0.0);
    }
}
