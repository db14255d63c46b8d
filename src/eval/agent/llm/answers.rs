//! The judge's answers parsed into graphrag-eval's output keys: answer correctness validated as graphrag-eval's
//! pydantic model validates it, and rerankit's own relevance and retrieval answers.

use crate::python::values as py;
use serde_json::{Map, Value};

/// Extracts the JSON object of an answer (the whole text, or the text inside a ```json fence).
pub(super) fn answer_json(text: &str) -> std::result::Result<Map<String, Value>, String> {
    let t = text.trim();
    let t = t
        .strip_prefix("```json")
        .or_else(|| t.strip_prefix("```"))
        .and_then(|r| r.trim_end().strip_suffix("```"))
        .unwrap_or(t);
    match py::json_loads(t)? {
        Value::Object(m) => Ok(m),
        other => Err(format!("expected a JSON object, got a {}", py::type_name(&other))),
    }
}

/// An integer as pydantic's lax mode reads it (int, integral float, numeric string).
pub(super) fn lax_int(v: &Value, key: &str) -> std::result::Result<i64, String> {
    match v {
        Value::Number(n) if n.is_i64() => Ok(n.as_i64().unwrap_or(0)),
        Value::Number(n) => match n.as_f64() {
            Some(f) if f.fract() == 0.0 && f.abs() < 9e15 => Ok(f as i64),
            _ => Err(format!("{key}: Input should be a valid integer")),
        },
        Value::String(s) => s.trim().parse::<i64>().map_err(|_| format!("{key}: Input should be a valid integer")),
        _ => Err(format!("{key}: Input should be a valid integer")),
    }
}

/// `compute_f1`.
pub fn f1(recall: f64, precision: f64) -> f64 {
    if recall == 0.0 && precision == 0.0 {
        0.0
    } else {
        2.0 * (recall * precision) / (recall + precision)
    }
}

/// Parses an answer-correctness answer into graphrag-eval's keys (validated as its pydantic model does).
pub fn parse_correctness(text: &str) -> Map<String, Value> {
    let parse = || -> std::result::Result<Map<String, Value>, String> {
        let m = answer_json(text)?;
        for k in m.keys() {
            if !["reference_claims_count", "actual_claims_count", "matching_claims_count", "reason"].contains(&k.as_str()) {
                return Err(format!("{k}: Extra inputs are not permitted"));
            }
        }
        let get = |k: &str| m.get(k).ok_or_else(|| format!("{k}: Field required"));
        let r = lax_int(get("reference_claims_count")?, "reference_claims_count")?;
        let a = lax_int(get("actual_claims_count")?, "actual_claims_count")?;
        let n = lax_int(get("matching_claims_count")?, "matching_claims_count")?;
        let reason = get("reason")?.as_str().ok_or("reason: Input should be a valid string")?.to_string();
        if r < 1 {
            return Err("reference_claims_count: Input should be greater than or equal to 1".into());
        }
        if a < 1 {
            return Err("actual_claims_count: Input should be greater than or equal to 1".into());
        }
        if n < 0 {
            return Err("matching_claims_count: Input should be greater than or equal to 0".into());
        }
        if reason.is_empty() {
            return Err("reason: String should have at least 1 character".into());
        }
        if n > r || n > a {
            return Err("matching_claims_count must be less than or equal to both reference_claims_count and actual_claims_count".into());
        }
        let mut out = Map::new();
        out.insert("answer_reference_claims_count".into(), Value::from(r));
        out.insert("answer_actual_claims_count".into(), Value::from(a));
        out.insert("answer_matching_claims_count".into(), Value::from(n));
        out.insert("answer_correctness_reason".into(), Value::String(reason));
        let recall = n as f64 / r as f64;
        let precision = n as f64 / a as f64;
        out.insert("answer_recall".into(), Value::from(recall));
        out.insert("answer_precision".into(), Value::from(precision));
        out.insert("answer_f1".into(), Value::from(f1(recall, precision)));
        Ok(out)
    };
    parse().unwrap_or_else(|e| {
        let mut m = Map::new();
        m.insert("answer_correctness_error".into(), Value::String(e));
        m
    })
}

pub(super) fn unit_number(v: Option<&Value>, key: &str) -> std::result::Result<f64, String> {
    let x = v.and_then(Value::as_f64).ok_or_else(|| format!("{key}: expected a number"))?;
    if !(0.0..=1.0).contains(&x) {
        return Err(format!("{key}: {x} is not between 0 and 1"));
    }
    Ok(x)
}

/// Parses an answer-relevance answer: `{"answer_relevance": x}` with 0 ≤ x ≤ 1.
pub fn parse_relevance(text: &str) -> std::result::Result<f64, String> {
    let m = answer_json(text)?;
    unit_number(m.get("answer_relevance"), "answer_relevance")
}

/// Parses a retrieval recall answer: attributed / total.
pub fn parse_retrieval_recall(text: &str) -> std::result::Result<f64, String> {
    let m = answer_json(text)?;
    let attributed = m.get("attributed").and_then(Value::as_f64).ok_or("attributed: expected a number")?;
    let total = m.get("total").and_then(Value::as_f64).ok_or("total: expected a number")?;
    if total <= 0.0 || attributed < 0.0 || attributed > total {
        return Err(format!("expected 0 <= attributed <= total and total > 0, got {attributed} and {total}"));
    }
    Ok(attributed / total)
}

/// Parses retrieval precision verdicts (one 0/1 per context) into RAGAS-style context precision:
/// Σ_k precision@k · v_k / Σ v_k (0 when no context is useful).
pub fn parse_retrieval_precision(text: &str, contexts: usize) -> std::result::Result<f64, String> {
    let m = answer_json(text)?;
    let verdicts = m.get("verdicts").and_then(Value::as_array).ok_or("verdicts: expected a list")?;
    if verdicts.len() != contexts {
        return Err(format!("expected {contexts} verdicts, got {}", verdicts.len()));
    }
    let mut hits = 0.0;
    let mut total = 0.0;
    for (i, v) in verdicts.iter().enumerate() {
        let v = match v {
            Value::Bool(b) => *b as i32 as f64,
            Value::Number(n) if n.as_f64() == Some(0.0) || n.as_f64() == Some(1.0) => n.as_f64().unwrap_or(0.0),
            _ => return Err(format!("verdict {} is not 0 or 1", i + 1)),
        };
        if v == 1.0 {
            hits += 1.0;
            total += hits / (i + 1) as f64;
        }
    }
    Ok(if hits == 0.0 { 0.0 } else { total / hits })
}


#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn correctness_validation() {
        let ok = parse_correctness(r#"{"reference_claims_count": 2, "actual_claims_count": 4, "matching_claims_count": 1, "reason": "r"}"#);
        assert_eq!(ok["answer_recall"], 0.5);
        assert_eq!(ok["answer_precision"], 0.25);
        assert!(parse_correctness(r#"{"reference_claims_count": 2, "actual_claims_count": 1, "matching_claims_count": 3, "reason": "r"}"#)
            .contains_key("answer_correctness_error"));
        assert!(parse_correctness("nope").contains_key("answer_correctness_error"));
        assert_eq!(parse_retrieval_precision(r#"{"verdicts": [1, 0, 1]}"#, 3).unwrap(), (1.0 + 2.0 / 3.0) / 2.0);
    }
}
