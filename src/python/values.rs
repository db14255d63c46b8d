//! Python semantics on JSON values: equality (`1 == 1.0 == True`), truthiness, hashing keys and `str()`.
//!
//! graphrag-eval compares `json.loads` results and YAML values with Python's `==`, tests them with `if x:`
//! and prints them with `str()`; these helpers give the same answers on `serde_json::Value`.

use super::repr as python_repr;
use serde_json::Value;

/// A JSON number or bool as Python sees it: an exact integer when it is one, else a float.
#[derive(Clone, Copy, Debug)]
enum Num {
    Int(i128),
    Float(f64),
}

fn num(v: &Value) -> Option<Num> {
    match v {
        Value::Bool(b) => Some(Num::Int(*b as i128)),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                Some(Num::Int(i as i128))
            } else if let Some(u) = n.as_u64() {
                Some(Num::Int(u as i128))
            } else {
                n.as_f64().map(Num::Float)
            }
        }
        _ => None,
    }
}

fn num_eq(a: Num, b: Num) -> bool {
    match (a, b) {
        (Num::Int(x), Num::Int(y)) => x == y,
        (Num::Float(x), Num::Float(y)) => x == y,
        (Num::Int(i), Num::Float(f)) | (Num::Float(f), Num::Int(i)) => {
            f.is_finite() && f.fract() == 0.0 && f.abs() < 1.8e38 && (f as i128) == i
        }
    }
}

/// Python's `a == b` on values that came out of `json.loads` / `yaml.safe_load`.
pub fn eq(a: &Value, b: &Value) -> bool {
    if let (Some(x), Some(y)) = (num(a), num(b)) {
        return num_eq(x, y);
    }
    match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::String(x), Value::String(y)) => x == y,
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| eq(p, q)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| eq(v, w)))
        }
        _ => false,
    }
}

/// Python's `bool(x)`.
pub fn truthy(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(_) => match num(v) {
            Some(Num::Int(i)) => i != 0,
            Some(Num::Float(f)) => f != 0.0,
            None => true,
        },
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Object(o) => !o.is_empty(),
    }
}

/// `str(x)` for a JSON value (strings as they are; others in Python's repr).
pub fn str_of(v: &Value) -> String {
    python_repr::str_of(v)
}

/// A key such that two hashable values get the same key exactly when Python's `==` holds
/// (numbers and bools by value, strings by text). `None` for unhashable values (lists, dicts).
pub fn hash_key(v: &Value) -> Option<String> {
    match v {
        Value::Null => Some("N".into()),
        Value::String(s) => Some(format!("s{s}")),
        Value::Bool(_) | Value::Number(_) => match num(v)? {
            Num::Int(i) => Some(format!("i{i}")),
            Num::Float(f) if f.is_finite() && f.fract() == 0.0 && f.abs() < 1.8e38 => Some(format!("i{}", f as i128)),
            Num::Float(f) => Some(format!("f{}", f.to_bits())),
        },
        _ => None,
    }
}

/// Python's `type(x).__name__` as graphrag-eval's error messages would print it.
pub fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "NoneType",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_f64() => "float",
        Value::Number(_) => "int",
        Value::String(_) => "str",
        Value::Array(_) => "list",
        Value::Object(_) => "dict",
    }
}

/// `sorted(list)` of JSON values as Python would sort them: strings with strings, numbers with numbers;
/// mixed or unorderable kinds are an error (Python raises `TypeError`).
pub fn sorted(items: &[Value]) -> Result<Vec<Value>, String> {
    let all_str = items.iter().all(|v| v.is_string());
    let all_num = items.iter().all(|v| num(v).is_some());
    if !(all_str || all_num) {
        return Err("'<' not supported between instances of the list's items".into());
    }
    let mut out = items.to_vec();
    if all_str {
        // Python compares str by code point, which is UTF-8 byte order.
        crate::stable_sort::stable_sort_by(&mut out, |a, b| a.as_str().unwrap_or("").cmp(b.as_str().unwrap_or("")));
    } else {
        let key = |v: &Value| match num(v) {
            Some(Num::Int(i)) => i as f64,
            Some(Num::Float(f)) => f,
            None => f64::NAN,
        };
        crate::stable_sort::stable_sort_by(&mut out, |a, b| key(a).partial_cmp(&key(b)).unwrap_or(std::cmp::Ordering::Equal));
    }
    Ok(out)
}

/// Python's `json.loads(text)` (serde_json; Python's extra `NaN`/`Infinity` literals are not accepted).
pub fn json_loads(text: &str) -> Result<Value, String> {
    serde_json::from_str::<Value>(text).map_err(|e| format!("Expecting value: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn python_equality() {
        assert!(eq(&json!(1), &json!(1.0)));
        assert!(eq(&json!(true), &json!(1)));
        assert!(!eq(&json!("1"), &json!(1)));
        assert!(eq(&json!({"a": [1, 2.0]}), &json!({"a": [1.0, 2]})));
        assert!(!eq(&json!([1]), &json!([1, 2])));
        assert_eq!(hash_key(&json!(2.0)), hash_key(&json!(2)));
    }

    #[test]
    fn python_truthiness() {
        assert!(!truthy(&json!(0)));
        assert!(!truthy(&json!("")));
        assert!(!truthy(&json!([])));
        assert!(truthy(&json!(0.5)));
    }
}
