//! Python's `json.dumps(value, sort_keys=True)` with its defaults (`ensure_ascii=True`, separators `", "` and
//! `": "`), byte for byte. Haystack's `MultiLabel.id` is the MD5 of `query + json.dumps(filters, sort_keys=True)`.

use super::repr::repr_float;
use serde_json::Value;

/// `json.dumps(value, sort_keys=True)`.
pub fn dumps_sorted(value: &Value) -> String {
    let mut out = String::new();
    write(&mut out, value);
    out
}

fn write(out: &mut String, value: &Value) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => {
            if n.is_i64() || n.is_u64() {
                out.push_str(&n.to_string());
            } else {
                let x = n.as_f64().unwrap_or(f64::NAN);
                out.push_str(&match x {
                    x if x.is_nan() => "NaN".to_string(),
                    x if x == f64::INFINITY => "Infinity".to_string(),
                    x if x == f64::NEG_INFINITY => "-Infinity".to_string(),
                    x => repr_float(x),
                });
            }
        }
        Value::String(s) => write_str(out, s),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write(out, item);
            }
            out.push(']');
        }
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            // Python sorts str keys by code point; Rust's str order is byte order, which agrees for UTF-8.
            crate::stable_sort::stable_sort(&mut keys);
            out.push('{');
            for (i, key) in keys.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_str(out, key);
                out.push_str(": ");
                write(out, &map[key.as_str()]);
            }
            out.push('}');
        }
    }
}

/// A JSON string literal as Python's `json.dumps` writes it (`ensure_ascii=True`).
pub fn write_str(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 || (c as u32) > 0x7e => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{:04x}", unit));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn matches_python_json_dumps() {
        assert_eq!(dumps_sorted(&json!(null)), "null");
        assert_eq!(dumps_sorted(&json!({"b": [1, 2.5], "a": {"z": true, "y": null}})), r#"{"a": {"y": null, "z": true}, "b": [1, 2.5]}"#);
        assert_eq!(dumps_sorted(&json!("é\"🚀\n")), r#""\u00e9\"\ud83d\ude80\n""#);
        assert_eq!(dumps_sorted(&json!(1e-5)), "1e-05");
    }
}

fn json_escape_ascii(s: &str, out: &mut String) {
    write_str(out, s);
}

/// Python's `json.dumps(value, indent=2)` (ensure_ascii, `", "`→`","` at line ends, `": "`).
pub fn dumps_indent2(v: &Value) -> String {
    fn write(v: &Value, level: usize, out: &mut String) {
        match v {
            Value::Null => out.push_str("null"),
            Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Value::Number(n) => {
                if n.is_f64() {
                    out.push_str(&crate::python::repr::repr_float(n.as_f64().unwrap_or(f64::NAN)))
                } else {
                    out.push_str(&n.to_string())
                }
            }
            Value::String(s) => json_escape_ascii(s, out),
            Value::Array(a) if a.is_empty() => out.push_str("[]"),
            Value::Object(o) if o.is_empty() => out.push_str("{}"),
            Value::Array(a) => {
                out.push('[');
                for (i, item) in a.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push('\n');
                    out.push_str(&"  ".repeat(level + 1));
                    write(item, level + 1, out);
                }
                out.push('\n');
                out.push_str(&"  ".repeat(level));
                out.push(']');
            }
            Value::Object(o) => {
                out.push('{');
                for (i, (k, item)) in o.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push('\n');
                    out.push_str(&"  ".repeat(level + 1));
                    json_escape_ascii(k, out);
                    out.push_str(": ");
                    write(item, level + 1, out);
                }
                out.push('\n');
                out.push_str(&"  ".repeat(level));
                out.push('}');
            }
        }
    }
    let mut out = String::new();
    write(v, 0, &mut out);
    out
}


#[cfg(test)]
mod indent2_tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn dumps_indent2_like_python() {
        assert_eq!(dumps_indent2(&json!([{"output": {"k": [1, 2.5, "é"]}}, {}])), "[\n  {\n    \"output\": {\n      \"k\": [\n        1,\n        2.5,\n        \"\\u00e9\"\n      ]\n    }\n  },\n  {}\n]");
    }
}
