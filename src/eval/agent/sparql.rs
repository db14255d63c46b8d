//! SPARQL results comparison, as graphrag-eval's `docs/steps.md` § "SPARQL queries comparison" describes.
//!
//! - ASK: the `boolean`s must be equal.
//! - SELECT: every choice of as many actual columns as there are `required_columns`, in every order, is
//!   compared with the reference's required columns, row strings against row strings (as sets, multisets when
//!   `ignore_duplicates` is false, or lists when `ordered`). A cell's string is Python's `str()` of the parsed
//!   term: xsd integer types as integers, xsd decimal/double/float truncated to 5 decimals, xsd:boolean as
//!   `True`/`False`, everything else its lexical value; an unbound cell is `None`.

use crate::python::values as py;
use crate::python::repr::repr_float;
use serde_json::Value;
use std::collections::{HashMap, HashSet};

const XSD: &str = "http://www.w3.org/2001/XMLSchema#";
const INTEGER_TYPES: [&str; 11] = [
    "integer",
    "int",
    "long",
    "short",
    "byte",
    "nonNegativeInteger",
    "positiveInteger",
    "unsignedLong",
    "unsignedInt",
    "unsignedShort",
    "unsignedByte",
];
const FLOAT_TYPES: [&str; 3] = ["decimal", "double", "float"];

/// Python's whitespace for `str.strip()` (ASCII and the common Unicode spaces).
fn py_strip(s: &str) -> &str {
    s.trim_matches(|c: char| c.is_whitespace() || ('\x1c'..='\x1f').contains(&c))
}

/// Removes underscores the way Python's `int()`/`float()` allow them: single, between two digits.
fn strip_underscores(s: &str) -> Option<String> {
    if !s.contains('_') {
        return Some(s.to_string());
    }
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    for (i, &c) in chars.iter().enumerate() {
        if c == '_' {
            let before = i > 0 && chars[i - 1].is_ascii_digit();
            let after = chars.get(i + 1).is_some_and(|d| d.is_ascii_digit());
            if !(before && after) {
                return None;
            }
        } else {
            out.push(c);
        }
    }
    Some(out)
}

/// `str(int(text))`, or `None` where Python's `int()` raises `ValueError`.
pub fn python_int_str(text: &str) -> Option<String> {
    let s = strip_underscores(py_strip(text))?;
    let (neg, digits) = match s.as_bytes().first()? {
        b'-' => (true, &s[1..]),
        b'+' => (false, &s[1..]),
        _ => (false, &s[..]),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let trimmed = digits.trim_start_matches('0');
    if trimmed.is_empty() {
        return Some("0".into());
    }
    Some(if neg { format!("-{trimmed}") } else { trimmed.to_string() })
}

/// Python's `float(text)`, or `None` where it raises `ValueError`.
pub fn python_float(text: &str) -> Option<f64> {
    let s = strip_underscores(py_strip(text))?;
    let lower = s.to_ascii_lowercase();
    let body = lower.trim_start_matches(['+', '-']);
    // Rust accepts the same literals as Python, except that it also takes "infinity"/"inf"/"nan" (as Python
    // does) and rejects nothing Python accepts; reject what Python rejects: empty, hex, bare sign.
    if body.is_empty() || body.starts_with("0x") {
        return None;
    }
    s.parse::<f64>().ok()
}

/// The string graphrag-eval compares for one SPARQL term: `str(parse_sparql_term(term))`.
pub fn term_string(term: Option<&Value>) -> String {
    let Some(term) = term else { return "None".into() };
    let Value::Object(map) = term else { return py::str_of(term) };
    let value = map.get("value");
    let value_str = || value.map(py::str_of).unwrap_or_else(|| "None".into());
    let term_type = map.get("type").and_then(Value::as_str);
    if !matches!(term_type, Some("literal") | Some("typed-literal")) {
        return value_str();
    }
    let datatype = match map.get("datatype") {
        Some(d) if py::truthy(d) => d,
        _ => return value_str(),
    };
    let Some(local) = datatype.as_str().and_then(|d| d.strip_prefix(XSD)) else { return value_str() };
    if INTEGER_TYPES.contains(&local) {
        return match value {
            Some(Value::String(s)) => python_int_str(s).unwrap_or_else(|| s.clone()),
            Some(Value::Number(n)) => match n.as_i64() {
                Some(i) => i.to_string(),
                None => match n.as_f64() {
                    Some(f) if f.is_finite() => format!("{}", f.trunc() as i128),
                    _ => py::str_of(value.unwrap_or(&Value::Null)),
                },
            },
            Some(Value::Bool(b)) => (*b as i32).to_string(),
            _ => value_str(),
        };
    }
    if FLOAT_TYPES.contains(&local) {
        let parsed = match value {
            Some(Value::String(s)) => python_float(s),
            Some(Value::Number(n)) => n.as_f64(),
            Some(Value::Bool(b)) => Some(*b as i32 as f64),
            _ => None,
        };
        return match parsed {
            Some(f) if f.is_nan() => "nan".into(),
            Some(f) if f.is_infinite() => repr_float(f),
            Some(f) => repr_float(truncate5(f)),
            None => value_str(),
        };
    }
    if local == "boolean" {
        if let Some(Value::String(s)) = value {
            let lower = s.to_lowercase();
            return if lower == "true" || lower == "1" { "True".into() } else { "False".into() };
        }
        return value_str();
    }
    value_str()
}

/// `math.trunc(x * 10**5) / 10**5`.
fn truncate5(x: f64) -> f64 {
    (x * 100000.0).trunc() / 100000.0
}

fn column_strings(vars: &[String], bindings: &[Value]) -> Result<HashMap<String, Vec<String>>, String> {
    let mut out = HashMap::new();
    for var in vars {
        let mut col = Vec::with_capacity(bindings.len());
        for b in bindings {
            let Value::Object(map) = b else {
                return Err(format!("a SPARQL binding is a {}, not an object", py::type_name(b)));
            };
            col.push(term_string(map.get(var)));
        }
        out.insert(var.clone(), col);
    }
    Ok(out)
}

fn lines(vars: &[&String], columns: &HashMap<String, Vec<String>>, rows: usize) -> Vec<String> {
    (0..rows).map(|r| vars.iter().map(|v| columns[*v][r].as_str()).collect::<String>()).collect()
}

fn tables_match(reference: &[String], actual: &[String], ordered: bool, ignore_duplicates: bool) -> bool {
    if ordered {
        return reference == actual;
    }
    if ignore_duplicates {
        let a: HashSet<&String> = reference.iter().collect();
        let b: HashSet<&String> = actual.iter().collect();
        return a == b;
    }
    let mut a: HashMap<&String, usize> = HashMap::new();
    for r in reference {
        *a.entry(r).or_default() += 1;
    }
    let mut b: HashMap<&String, usize> = HashMap::new();
    for r in actual {
        *b.entry(r).or_default() += 1;
    }
    a == b
}

/// Calls `f` with every `k`-combination of `0..n` (lexicographic), stopping when it returns true.
fn any_combination(n: usize, k: usize, f: &mut dyn FnMut(&[usize]) -> bool) -> bool {
    if k > n {
        return false;
    }
    let mut idx: Vec<usize> = (0..k).collect();
    'outer: loop {
        if f(&idx) {
            return true;
        }
        let mut i = k;
        while i > 0 {
            i -= 1;
            if idx[i] < i + n - k {
                idx[i] += 1;
                for j in i + 1..k {
                    idx[j] = idx[j - 1] + 1;
                }
                continue 'outer;
            }
        }
        return false;
    }
}

/// Calls `f` with every permutation of `items` (Heap's algorithm), stopping when it returns true.
fn any_permutation<T: Clone>(items: &[T], f: &mut dyn FnMut(&[T]) -> bool) -> bool {
    let mut a = items.to_vec();
    let n = a.len();
    if f(&a) {
        return true;
    }
    let mut c = vec![0usize; n];
    let mut i = 1;
    while i < n {
        if c[i] < i {
            if i % 2 == 0 {
                a.swap(0, i);
            } else {
                a.swap(c[i], i);
            }
            if f(&a) {
                return true;
            }
            c[i] += 1;
            i = 1;
        } else {
            c[i] = 0;
            i += 1;
        }
    }
    false
}

fn str_list(v: &Value, what: &str) -> Result<Vec<String>, String> {
    match v {
        Value::Array(items) => Ok(items.iter().map(py::str_of).collect()),
        Value::Null => Ok(vec![]),
        other => Err(format!("{what} is a {}, not a list", py::type_name(other))),
    }
}

/// `compare_sparql_results`: 1.0 when the actual result matches the reference, else 0.0.
/// `Err` where graphrag-eval itself would raise (malformed result objects).
pub fn compare_results(
    reference: &Value,
    actual: &Value,
    required: &Value,
    ordered: bool,
    ignore_duplicates: bool,
) -> Result<f64, String> {
    if actual.is_string() {
        return Ok(0.0); // DESCRIBE / CONSTRUCT output given as a JSON string
    }
    let Value::Object(reference) = reference else {
        return Err(format!("the reference SPARQL result is a {}, not an object", py::type_name(reference)));
    };
    if let Some(ref_bool) = reference.get("boolean") {
        return match actual {
            Value::Object(a) => Ok(a.get("boolean").is_some_and(|b| py::eq(ref_bool, b)) as i32 as f64),
            Value::Array(items) if !items.iter().any(|i| i.as_str() == Some("boolean")) => Ok(0.0),
            other => Err(format!("the actual SPARQL result is a {}, not an object", py::type_name(other))),
        };
    }
    let Value::Object(actual) = actual else {
        return Err(format!("the actual SPARQL result is a {}, not an object", py::type_name(actual)));
    };
    let reference_bindings = reference
        .get("results")
        .and_then(|r| r.as_object())
        .and_then(|r| r.get("bindings"))
        .ok_or_else(|| "the reference SPARQL result has no results.bindings".to_string())?;
    let actual_bindings = match actual.get("results") {
        None => Value::Array(vec![]),
        Some(Value::Object(r)) => r.get("bindings").cloned().unwrap_or(Value::Array(vec![])),
        Some(other) => return Err(format!("the actual SPARQL results is a {}, not an object", py::type_name(other))),
    };
    let actual_vars = match actual.get("head") {
        Some(Value::Object(h)) => str_list(h.get("vars").unwrap_or(&Value::Null), "head.vars")?,
        Some(other) => return Err(format!("the actual SPARQL head is a {}, not an object", py::type_name(other))),
        None => return Err("the actual SPARQL result has no head".into()),
    };
    let required: Vec<String> = str_list(required, "required_columns")?;
    let (ref_any, act_any) = (py::truthy(reference_bindings), py::truthy(&actual_bindings));
    if !ref_any && !act_any {
        return Ok((actual_vars.len() >= required.len()) as i32 as f64);
    }
    if !ref_any || !act_any {
        return Ok(0.0);
    }
    if required.len() > actual_vars.len() {
        return Ok(0.0);
    }
    if required.is_empty() {
        return Ok(1.0);
    }
    let (Value::Array(reference_rows), Value::Array(actual_rows)) = (reference_bindings, &actual_bindings) else {
        return Err("SPARQL bindings must be lists".into());
    };
    let ref_cols = column_strings(&required, reference_rows)?;
    let act_cols = column_strings(&actual_vars, actual_rows)?;
    let required_refs: Vec<&String> = required.iter().collect();
    let table = lines(&required_refs, &ref_cols, reference_rows.len());
    let k = required.len();
    let matched = any_combination(actual_vars.len(), k, &mut |combo: &[usize]| {
        let chosen: Vec<&String> = combo.iter().map(|&i| &actual_vars[i]).collect();
        any_permutation(&chosen, &mut |perm: &[&String]| {
            let actual_table = lines(perm, &act_cols, actual_rows.len());
            tables_match(&table, &actual_table, ordered, ignore_duplicates)
        })
    });
    Ok(matched as i32 as f64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn terms_print_as_python() {
        let lit = |v: &str, t: &str| json!({"type": "literal", "value": v, "datatype": format!("{XSD}{t}")});
        assert_eq!(term_string(Some(&lit("007", "integer"))), "7");
        assert_eq!(term_string(Some(&lit("1.123456789", "double"))), "1.12345");
        assert_eq!(term_string(Some(&lit("2", "decimal"))), "2.0");
        assert_eq!(term_string(Some(&lit("TRUE", "boolean"))), "True");
        assert_eq!(term_string(Some(&lit("x1", "integer"))), "x1");
        assert_eq!(term_string(None), "None");
        assert_eq!(term_string(Some(&json!({"type": "uri", "value": "urn:a"}))), "urn:a");
    }

    #[test]
    fn combinations_and_permutations_cover_all() {
        let mut seen = vec![];
        any_combination(4, 2, &mut |c| {
            seen.push(c.to_vec());
            false
        });
        assert_eq!(seen.len(), 6);
        let mut n = 0;
        any_permutation(&[1, 2, 3, 4], &mut |_| {
            n += 1;
            false
        });
        assert_eq!(n, 24);
        let mut n0 = 0;
        any_combination(3, 0, &mut |_| {
            n0 += 1;
            false
        });
        assert_eq!(n0, 1);
    }
}
