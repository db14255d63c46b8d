//! Python's `repr()` of JSON-like values, byte for byte.
//!
//! Haystack 1.x hashes `str(meta)` into document ids (docs/parity.md §1), so the string we hash must be the one
//! CPython prints: single-quoted strings with Python's escapes, `True`/`False`/`None`, floats in shortest
//! round-trip form switching to exponent notation outside `1e-4 <= |x| < 1e16`, dicts in insertion order.

use serde_json::{Map, Value};

/// `repr(value)` as CPython prints it.
pub fn repr(value: &Value) -> String {
    let mut out = String::new();
    write_value(&mut out, value);
    out
}

/// `str(value)`: like [`repr`] except that a top-level string is printed as is.
pub fn str_of(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => repr(other),
    }
}

/// `repr(dict)` for a JSON object.
pub fn repr_dict(map: &Map<String, Value>) -> String {
    let mut out = String::new();
    write_dict(&mut out, map);
    out
}

fn write_value(out: &mut String, value: &Value) {
    match value {
        Value::Null => out.push_str("None"),
        Value::Bool(true) => out.push_str("True"),
        Value::Bool(false) => out.push_str("False"),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                out.push_str(&i.to_string());
            } else if let Some(u) = n.as_u64() {
                out.push_str(&u.to_string());
            } else {
                out.push_str(&repr_float(n.as_f64().unwrap_or(f64::NAN)));
            }
        }
        Value::String(s) => out.push_str(&repr_str(s)),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_value(out, item);
            }
            out.push(']');
        }
        Value::Object(map) => write_dict(out, map),
    }
}

fn write_dict(out: &mut String, map: &Map<String, Value>) {
    out.push('{');
    for (i, (key, item)) in map.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(&repr_str(key));
        out.push_str(": ");
        write_value(out, item);
    }
    out.push('}');
}

/// `repr(float)`: shortest round-trip digits; fixed notation when the decimal exponent lies in [-4, 16),
/// otherwise `d.ddde±XX` with at least two exponent digits; integral values keep a trailing `.0`.
pub fn repr_float(x: f64) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf".into() } else { "-inf".into() };
    }
    // Rust's `{:e}` gives the same shortest round-trip digits Python uses, as `d.ddde[-]X`.
    let sci = format!("{:e}", x);
    let (mantissa, exponent) = sci.split_once('e').expect("`{:e}` always has an exponent");
    let exponent: i32 = exponent.parse().expect("`{:e}` exponent is an integer");
    let negative = mantissa.starts_with('-');
    let digits: String = mantissa.chars().filter(|c| c.is_ascii_digit()).collect();
    let mut out = String::new();
    if negative {
        out.push('-');
    }
    if (-4..16).contains(&exponent) {
        if exponent < 0 {
            out.push_str("0.");
            for _ in 0..(-exponent - 1) {
                out.push('0');
            }
            out.push_str(&digits);
        } else {
            let int_len = exponent as usize + 1;
            if digits.len() <= int_len {
                out.push_str(&digits);
                for _ in digits.len()..int_len {
                    out.push('0');
                }
                out.push_str(".0");
            } else {
                out.push_str(&digits[..int_len]);
                out.push('.');
                out.push_str(&digits[int_len..]);
            }
        }
    } else {
        out.push_str(&digits[..1]);
        if digits.len() > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        out.push('e');
        out.push(if exponent < 0 { '-' } else { '+' });
        out.push_str(&format!("{:02}", exponent.unsigned_abs()));
    }
    out
}

/// `round(x, digits)` for digits ≥ 0: the double nearest the correctly rounded decimal, i.e. the number that
/// `"%.{digits}f" % x` prints (Python rounds the exact binary value, half to even; so does Rust's formatting).
pub fn round(x: f64, digits: usize) -> f64 {
    format!("{x:.digits$}").parse().unwrap_or(x)
}

/// `repr(str)`: single quotes unless the text holds `'` and no `"`; backslash escapes for the quote, `\\`,
/// `\t`, `\n`, `\r`, other C0 controls and DEL as `\xNN`, and non-printable non-ASCII characters as
/// `\xNN`, `\uNNNN` or `\UNNNNNNNN`.
pub fn repr_str(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') { '"' } else { '\'' };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || c as u32 == 0x7f => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if (c as u32) < 0x7f => out.push(c),
            c if is_printable(c) => out.push(c),
            c => {
                let code = c as u32;
                if code <= 0xff {
                    out.push_str(&format!("\\x{code:02x}"));
                } else if code <= 0xffff {
                    out.push_str(&format!("\\u{code:04x}"));
                } else {
                    out.push_str(&format!("\\U{code:08x}"));
                }
            }
        }
    }
    out.push(quote);
    out
}

/// Python's `str.isprintable` for one non-ASCII character: false for the categories Cc, Cf, Co, Zl, Zp and
/// Zs and for noncharacters. Unassigned code points (Cn) are not tracked: they are treated as printable, which
/// differs from CPython only for text holding unassigned code points.
fn is_printable(c: char) -> bool {
    let code = c as u32;
    if c.is_control() {
        return false;
    }
    const NOT_PRINTABLE: &[(u32, u32)] = &[
        (0x00A0, 0x00A0),   // Zs no-break space
        (0x00AD, 0x00AD),   // Cf soft hyphen
        (0x0600, 0x0605),   // Cf Arabic number signs
        (0x061C, 0x061C),   // Cf Arabic letter mark
        (0x06DD, 0x06DD),   // Cf
        (0x070F, 0x070F),   // Cf
        (0x0890, 0x0891),   // Cf
        (0x08E2, 0x08E2),   // Cf
        (0x1680, 0x1680),   // Zs ogham space
        (0x180E, 0x180E),   // Cf Mongolian vowel separator
        (0x2000, 0x200F),   // Zs spaces, Cf zero-width and direction marks
        (0x2028, 0x202F),   // Zl, Zp, Cf embeddings, Zs narrow no-break space
        (0x205F, 0x2064),   // Zs, Cf invisible operators
        (0x2066, 0x206F),   // Cf isolates and deprecated format characters
        (0x3000, 0x3000),   // Zs ideographic space
        (0xD800, 0xF8FF),   // Cs, Co private use
        (0xFDD0, 0xFDEF),   // noncharacters
        (0xFEFF, 0xFEFF),   // Cf byte order mark
        (0xFFF9, 0xFFFB),   // Cf interlinear annotation
        (0x110BD, 0x110BD), // Cf
        (0x110CD, 0x110CD), // Cf
        (0x13430, 0x1343F), // Cf Egyptian format controls
        (0x1BCA0, 0x1BCA3), // Cf shorthand format controls
        (0x1D173, 0x1D17A), // Cf musical format controls
        (0xE0001, 0xE0001), // Cf language tag
        (0xE0020, 0xE007F), // Cf tags
        (0xF0000, 0x10FFFF), // Co supplementary private use
    ];
    if code & 0xFFFE == 0xFFFE {
        return false; // U+xxFFFE and U+xxFFFF are noncharacters in every plane
    }
    !NOT_PRINTABLE.iter().any(|&(lo, hi)| (lo..=hi).contains(&code))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn floats_match_cpython() {
        let cases = [
            (1.5, "1.5"),
            (1e-5, "1e-05"),
            (0.0001, "0.0001"),
            (1.0, "1.0"),
            (-0.0, "-0.0"),
            (1e16, "1e+16"),
            (1e15, "1000000000000000.0"),
            (123456789.125, "123456789.125"),
            (0.1, "0.1"),
            (1.0 / 3.0, "0.3333333333333333"),
            (2.5e-7, "2.5e-07"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
            (5e-324, "5e-324"),
            (f64::NAN, "nan"),
            (f64::NEG_INFINITY, "-inf"),
        ];
        for (x, want) in cases {
            assert_eq!(repr_float(x), want, "repr({x:e})");
        }
    }

    #[test]
    fn strings_match_cpython() {
        assert_eq!(repr_str("a.pdf"), "'a.pdf'");
        assert_eq!(repr_str("it's"), "\"it's\"");
        assert_eq!(repr_str("it's \"x\""), "'it\\'s \"x\"'");
        assert_eq!(repr_str("tab\there\nnl\\"), "'tab\\there\\nnl\\\\'");
        assert_eq!(repr_str("\u{7}\u{7f}"), "'\\x07\\x7f'");
        assert_eq!(repr_str("Ünïcödé ✓ 🚀"), "'Ünïcödé ✓ 🚀'");
        assert_eq!(repr_str("nb\u{a0}sp\u{200b}"), "'nb\\xa0sp\\u200b'");
        assert_eq!(repr_str("\u{e0001}"), "'\\U000e0001'");
    }

    #[test]
    fn containers_match_cpython() {
        let v = json!({"n": 1.5, "ok": true, "tags": ["a", "b"], "none": null, "i": 3, "d": {}});
        assert_eq!(repr(&v), "{'n': 1.5, 'ok': True, 'tags': ['a', 'b'], 'none': None, 'i': 3, 'd': {}}");
        assert_eq!(str_of(&json!("plain")), "plain");
        assert_eq!(repr(&json!([[1, 2], []])), "[[1, 2], []]");
    }
}
