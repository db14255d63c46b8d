//! Python's `str` methods as graphrag-eval applies them to its prompts: `template.format(**values)` and
//! `str.capitalize()`.

use super::values as py;
use serde_json::{Map, Value};

/// Python's `str.capitalize()` (first character upper-cased, the rest lower-cased).
pub fn python_capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c.flat_map(char::to_lowercase)).collect(),
        None => String::new(),
    }
}

/// Python's `template.format(**values)` for plain `{name}` fields and `{{`/`}}` escapes; any other field
/// (unknown name, index, attribute, conversion or format spec) is an error, as it would be in Python for
/// names it does not know.
pub fn python_format(template: &str, values: &Map<String, Value>) -> std::result::Result<String, String> {
    let mut out = String::with_capacity(template.len());
    let mut chars = template.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
                out.push('{');
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
                out.push('}');
            }
            '}' => return Err("Single '}' encountered in format string".into()),
            '{' => {
                let mut field = String::new();
                loop {
                    match chars.next() {
                        Some('}') => break,
                        Some('{') => return Err("unexpected '{' in field name".into()),
                        Some(ch) => field.push(ch),
                        None => return Err("Single '{' encountered in format string".into()),
                    }
                }
                match values.get(&field) {
                    Some(v) => out.push_str(&py::str_of(v)),
                    None if field.is_empty() => return Err("Format string contains positional fields".into()),
                    None => return Err(format!("'{field}'")),
                }
            }
            _ => out.push(c),
        }
    }
    Ok(out)
}


#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn format_and_capitalize_like_python() {
        let mut v = Map::new();
        v.insert("a".into(), json!("x"));
        assert_eq!(python_format("{{a}} {a}}}", &v).unwrap(), "{a} x}");
        assert!(python_format("{b}", &v).is_err());
        assert_eq!(python_capitalize("reference steps"), "Reference steps");
    }
}
