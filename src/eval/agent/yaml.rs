//! YAML text of a JSON value, byte for byte as `serde_yaml_ng::to_string` writes it (`agentToYaml`, the CLI's
//! `--format yaml`).
//!
//! serde_yaml_ng writes through libyaml's emitter (the `unsafe-libyaml` port), whose code was 24 KB of
//! rerankit/eval's gzip; a JSON value needs only part of it: block mappings and sequences, `[]` and `{}` for empty
//! ones, and libyaml's choice between plain, single-quoted, double-quoted and literal scalars. This is that part,
//! with libyaml's names and rules (`analyze_scalar`, `select_scalar_style`, `write_*`; 2-space indent, no line
//! width). The unit tests compare it with serde_yaml_ng (still the crate that reads YAML) on the agent fixtures
//! and on random values made of the characters each rule looks at.

use serde_json::Value;

const INDENT: i32 = 2;

/// `serde_yaml_ng::to_string(value)`.
pub fn to_yaml(value: &Value) -> String {
    let mut e = Emitter { out: String::new(), column: 0, indent: -1, indents: Vec::new(), whitespace: true, indention: true };
    e.node(value, false, false);
    // the document's implicit end; serde_yaml_ng never ends the stream, so a last `|+` scalar gets no `...`
    e.write_indent();
    e.out
}

#[derive(Clone, Copy, PartialEq)]
enum Style {
    Plain,
    SingleQuoted,
    DoubleQuoted,
    Literal,
}

/// What libyaml's `analyze_scalar` finds in a scalar.
struct Analysis {
    multiline: bool,
    block_plain_allowed: bool,
    single_quoted_allowed: bool,
    block_allowed: bool,
}

struct Emitter {
    out: String,
    column: i32,
    indent: i32,
    indents: Vec<i32>,
    whitespace: bool,
    indention: bool,
}

impl Emitter {
    /// A node, in a mapping (key or value) or not; a simple key is a mapping key written before `:`.
    fn node(&mut self, value: &Value, mapping: bool, simple_key: bool) {
        match value {
            Value::Null => self.scalar("null", Style::Plain, simple_key),
            Value::Bool(b) => self.scalar(if *b { "true" } else { "false" }, Style::Plain, simple_key),
            // serde_yaml_ng writes floats with ryu, serde_json with zmij, whose text is ryu's but for the `+` of a
            // positive exponent (the tests check it on random doubles): ryu's tables are not needed twice
            Value::Number(n) => self.scalar(&n.to_string().replace("e+", "e"), Style::Plain, simple_key),
            Value::String(s) => {
                // serde_yaml_ng's style for a string: literal when it has a line feed, quoted when it would read
                // back as another type
                let style = if s.contains('\n') {
                    Style::Literal
                } else if reads_as_non_string(s) {
                    Style::SingleQuoted
                } else {
                    Style::Plain
                };
                self.scalar(s, style, simple_key)
            }
            Value::Array(items) if items.is_empty() => self.empty_flow("[", "]"),
            Value::Object(map) if map.is_empty() => self.empty_flow("{", "}"),
            Value::Array(items) => {
                self.increase_indent(false, mapping && !self.indention);
                for item in items {
                    self.write_indent();
                    self.write_indicator("-", true, false, true);
                    self.node(item, false, false);
                }
                self.indent = self.indents.pop().unwrap_or(-1);
            }
            Value::Object(map) => {
                self.increase_indent(false, false);
                for (key, value) in map {
                    self.write_indent();
                    let key_analysis = analyze(key);
                    if !key_analysis.multiline && key.len() <= 128 {
                        self.node(&Value::String(key.clone()), true, true);
                        self.write_indicator(":", false, false, false);
                    } else {
                        self.write_indicator("?", true, false, true);
                        self.node(&Value::String(key.clone()), true, false);
                        self.write_indent();
                        self.write_indicator(":", true, false, true);
                    }
                    self.node(value, true, false);
                }
                self.indent = self.indents.pop().unwrap_or(-1);
            }
        }
    }

    fn empty_flow(&mut self, open: &str, close: &str) {
        self.write_indicator(open, true, true, false);
        self.increase_indent(true, false);
        self.indent = self.indents.pop().unwrap_or(-1);
        self.write_indicator(close, false, false, false);
    }

    /// `select_scalar_style` (block context, no tags) and the writer of the style chosen.
    fn scalar(&mut self, text: &str, requested: Style, simple_key: bool) {
        let a = analyze(text);
        let mut style = requested;
        if simple_key && a.multiline {
            style = Style::DoubleQuoted;
        }
        if style == Style::Plain && (!a.block_plain_allowed || (text.is_empty() && simple_key)) {
            style = Style::SingleQuoted;
        }
        if style == Style::SingleQuoted && !a.single_quoted_allowed {
            style = Style::DoubleQuoted;
        }
        if style == Style::Literal && (!a.block_allowed || simple_key) {
            style = Style::DoubleQuoted;
        }
        self.increase_indent(true, false);
        match style {
            Style::Plain => self.write_plain(text),
            Style::SingleQuoted => self.write_single_quoted(text),
            Style::DoubleQuoted => self.write_double_quoted(text),
            Style::Literal => self.write_literal(text),
        }
        self.indent = self.indents.pop().unwrap_or(-1);
    }

    fn increase_indent(&mut self, flow: bool, indentless: bool) {
        self.indents.push(self.indent);
        if self.indent < 0 {
            self.indent = if flow { INDENT } else { 0 };
        } else if !indentless {
            self.indent += INDENT;
        }
    }

    fn put(&mut self, c: char) {
        self.out.push(c);
        self.column += 1;
    }

    fn put_break(&mut self) {
        self.out.push('\n');
        self.column = 0;
    }

    /// A line break of the scalar: a line feed as the emitter's own, others (CR, NEL, LS, PS) as they are.
    fn write_break(&mut self, c: char) {
        if c == '\n' {
            self.put_break();
        } else {
            self.out.push(c);
            self.column = 0;
        }
    }

    fn write_indent(&mut self) {
        let indent = self.indent.max(0);
        if !self.indention || self.column > indent || (self.column == indent && !self.whitespace) {
            self.put_break();
        }
        while self.column < indent {
            self.put(' ');
        }
        self.whitespace = true;
        self.indention = true;
    }

    fn write_indicator(&mut self, indicator: &str, need_whitespace: bool, is_whitespace: bool, is_indention: bool) {
        if need_whitespace && !self.whitespace {
            self.put(' ');
        }
        for c in indicator.chars() {
            self.put(c);
        }
        self.whitespace = is_whitespace;
        self.indention = self.indention && is_indention;
    }

    fn write_plain(&mut self, text: &str) {
        if !self.whitespace && !text.is_empty() {
            self.put(' ');
        }
        self.write_folded(text, None);
        self.whitespace = false;
        self.indention = false;
    }

    fn write_single_quoted(&mut self, text: &str) {
        self.write_indicator("'", true, false, false);
        if self.write_folded(text, Some('\'')) {
            self.write_indent();
        }
        self.write_indicator("'", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    /// The characters of a plain or single-quoted scalar as libyaml writes them: spaces as they are, a line break
    /// doubled where YAML would fold it, an indent after breaks; `quote` written twice. Whether it ended in breaks.
    fn write_folded(&mut self, text: &str, quote: Option<char>) -> bool {
        let mut breaks = false;
        for c in text.chars() {
            if c == ' ' {
                self.put(c);
            } else if is_break(c) {
                if !breaks && c == '\n' {
                    self.put_break();
                }
                self.write_break(c);
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                if Some(c) == quote {
                    self.put(c);
                }
                self.put(c);
                self.indention = false;
                breaks = false;
            }
        }
        breaks
    }

    fn write_double_quoted(&mut self, text: &str) {
        self.write_indicator("\"", true, false, false);
        for c in text.chars() {
            if !is_printable(c) || c == '\u{feff}' || is_break(c) || c == '"' || c == '\\' {
                self.put('\\');
                let code = c as u32;
                let short = match code {
                    0x00 => Some('0'),
                    0x07 => Some('a'),
                    0x08 => Some('b'),
                    0x09 => Some('t'),
                    0x0A => Some('n'),
                    0x0B => Some('v'),
                    0x0C => Some('f'),
                    0x0D => Some('r'),
                    0x1B => Some('e'),
                    0x22 => Some('"'),
                    0x5C => Some('\\'),
                    0x85 => Some('N'),
                    0xA0 => Some('_'),
                    0x2028 => Some('L'),
                    0x2029 => Some('P'),
                    _ => None,
                };
                match short {
                    Some(s) => self.put(s),
                    None => {
                        let (letter, digits) = if code <= 0xFF {
                            ('x', 2)
                        } else if code <= 0xFFFF {
                            ('u', 4)
                        } else {
                            ('U', 8)
                        };
                        self.put(letter);
                        for k in (0..digits).rev() {
                            let digit = (code >> (4 * k)) & 0xF;
                            self.put(char::from_digit(digit, 16).unwrap_or('0').to_ascii_uppercase());
                        }
                    }
                }
            } else {
                self.put(c);
            }
        }
        self.write_indicator("\"", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    fn write_literal(&mut self, text: &str) {
        self.write_indicator("|", true, false, false);
        // block scalar hints: an indentation indicator when the text starts with a space or a break; chomping
        let first = text.chars().next();
        if first.is_some_and(|c| c == ' ' || is_break(c)) {
            self.write_indicator("2", false, false, false);
        }
        let mut last = text.chars().rev();
        let chomp = match (last.next(), last.next()) {
            (None, _) => Some("-"),
            (Some(c), _) if !is_break(c) => Some("-"),
            (Some(_), None) => Some("+"),
            (Some(_), Some(c)) if is_break(c) => Some("+"),
            _ => None,
        };
        if let Some(chomp) = chomp {
            self.write_indicator(chomp, false, false, false);
        }
        self.put_break();
        self.indention = true;
        self.whitespace = true;
        let mut breaks = true;
        for c in text.chars() {
            if is_break(c) {
                self.write_break(c);
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                self.put(c);
                self.indention = false;
                breaks = false;
            }
        }
    }
}

/// libyaml's line breaks: CR, LF, NEL, LS, PS.
fn is_break(c: char) -> bool {
    matches!(c, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

/// libyaml's `IS_PRINTABLE` (on UTF-8): LF, printable ASCII, and the BMP from U+00A0 without surrogates, U+FEFF,
/// U+FFFE and U+FFFF, and every character above the BMP.
fn is_printable(c: char) -> bool {
    matches!(c as u32, 0x0A | 0x20..=0x7E | 0xA0..=0xD7FF | 0xE000..=0xFEFE | 0xFF00..=0xFFFD | 0x10000..)
}

/// libyaml's `IS_BLANKZ`: a space, a tab, a line break, or the end of the text (which libyaml's NUL terminator
/// marks, so a NUL inside the text counts as an end too).
fn blank_or_end(c: Option<char>) -> bool {
    c.is_none_or(|c| c == ' ' || c == '\t' || c == '\0' || is_break(c))
}

/// libyaml's `analyze_scalar`, for the flags a block-context scalar needs.
fn analyze(text: &str) -> Analysis {
    if text.is_empty() {
        return Analysis { multiline: false, block_plain_allowed: true, single_quoted_allowed: true, block_allowed: false };
    }
    let mut block_indicators = text.starts_with("---") || text.starts_with("...");
    let (mut line_breaks, mut special_characters) = (false, false);
    let (mut leading_space, mut leading_break, mut trailing_space, mut trailing_break) = (false, false, false, false);
    let (mut break_space, mut space_break, mut previous_space, mut previous_break) = (false, false, false, false);
    let mut preceded_by_whitespace = true;
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        let followed_by_whitespace = blank_or_end(chars.get(i + 1).copied());
        let (first, last) = (i == 0, i + 1 == chars.len());
        if first {
            if "#,[]{}&*!|>'\"%@`".contains(c) || (c == '-' && followed_by_whitespace) {
                block_indicators = true;
            }
            if (c == '?' || c == ':') && followed_by_whitespace {
                block_indicators = true;
            }
        } else if (c == ':' && followed_by_whitespace) || (c == '#' && preceded_by_whitespace) {
            block_indicators = true;
        }
        if !is_printable(c) {
            special_characters = true;
        }
        if is_break(c) {
            line_breaks = true;
        }
        if c == ' ' {
            leading_space |= first;
            trailing_space |= last;
            break_space |= previous_break;
            previous_space = true;
            previous_break = false;
        } else if is_break(c) {
            leading_break |= first;
            trailing_break |= last;
            space_break |= previous_space;
            previous_space = false;
            previous_break = true;
        } else {
            previous_space = false;
            previous_break = false;
        }
        preceded_by_whitespace = blank_or_end(Some(c));
    }
    let edges = leading_space || leading_break || trailing_space || trailing_break;
    Analysis {
        multiline: line_breaks,
        block_plain_allowed: !(edges || break_space || space_break || special_characters || line_breaks || block_indicators),
        single_quoted_allowed: !(break_space || space_break || special_characters),
        block_allowed: !(trailing_space || space_break || special_characters),
    }
}

/// Whether serde_yaml_ng would read the plain scalar back as something else than this string (null, a bool, an
/// integer, a float, or digits with a leading zero): serde_yaml_ng quotes those.
fn reads_as_non_string(v: &str) -> bool {
    v.is_empty()
        || matches!(v, "null" | "Null" | "NULL" | "~" | "true" | "True" | "TRUE" | "false" | "False" | "FALSE")
        || unsigned_int(v)
        || negative_int(v)
        || digits_but_not_number(v)
        || float(v)
}

/// serde_yaml_ng's `parse_unsigned_int` (for u128, the widest it tries): `0x`, `0o`, `0b` or decimal.
fn unsigned_int(scalar: &str) -> bool {
    let unpositive = scalar.strip_prefix('+').unwrap_or(scalar);
    for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] {
        if let Some(rest) = unpositive.strip_prefix(prefix) {
            if rest.starts_with(['+', '-']) {
                return false;
            }
            if u128::from_str_radix(rest, radix).is_ok() {
                return true;
            }
        }
    }
    !unpositive.starts_with(['+', '-']) && !digits_but_not_number(scalar) && u128::from_str_radix(unpositive, 10).is_ok()
}

/// serde_yaml_ng's `parse_negative_int` (for i128).
fn negative_int(scalar: &str) -> bool {
    for (prefix, radix) in [("-0x", 16), ("-0o", 8), ("-0b", 2)] {
        if let Some(rest) = scalar.strip_prefix(prefix) {
            if i128::from_str_radix(&format!("-{rest}"), radix).is_ok() {
                return true;
            }
        }
    }
    !digits_but_not_number(scalar) && i128::from_str_radix(scalar, 10).is_ok()
}

/// serde_yaml_ng's `parse_f64` succeeding.
fn float(scalar: &str) -> bool {
    let unpositive = match scalar.strip_prefix('+') {
        Some(rest) if rest.starts_with(['+', '-']) => return false,
        Some(rest) => rest,
        None => scalar,
    };
    matches!(unpositive, ".inf" | ".Inf" | ".INF")
        || matches!(scalar, "-.inf" | "-.Inf" | "-.INF" | ".nan" | ".NaN" | ".NAN")
        || unpositive.parse::<f64>().is_ok_and(f64::is_finite)
}

/// Leading zeros before digits: a string in YAML 1.2 (serde_yaml_ng quotes it).
fn digits_but_not_number(scalar: &str) -> bool {
    let scalar = scalar.strip_prefix(['-', '+']).unwrap_or(scalar);
    scalar.len() > 1 && scalar.starts_with('0') && scalar[1..].bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::to_yaml;
    use serde_json::{json, Map, Value};

    fn same(value: &Value) {
        let theirs = serde_yaml_ng::to_string(value).expect("serde_yaml_ng writes every JSON value");
        assert_eq!(to_yaml(value), theirs, "on {value}");
    }

    #[test]
    fn the_fixtures_as_serde_yaml_ng_writes_them() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/graphrag_eval");
        let mut stack = vec![dir];
        let mut n = 0;
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "json" || e == "yaml" || e == "yml") {
                    if let Ok(value) = super::super::input::parse_document(&std::fs::read_to_string(&path).unwrap(), "fixture") {
                        same(&value);
                        n += 1;
                    }
                }
            }
        }
        assert!(n > 50, "{n} fixtures");
    }

    #[test]
    fn scalars_and_shapes_as_serde_yaml_ng_writes_them() {
        for text in [
            "", " ", "a", "a b", " a", "a ", "a\n", "\n", "\na", "a\nb", "a\n\n", "a \nb", "a\n b", "  a\nb", "\ta",
            "a\tb", "null", "Null", "~", "true", "FALSE", "yes", "0", "00", "0123", "-0123", "+1", "-1", "1.5", ".5",
            "1e3", "1E-7", ".inf", "-.Inf", ".NaN", "nan", "inf", "0x1F", "0xZ", "-0x1F", "0o17", "0b101", "+-1",
            "1_000", "12345678901234567890123456789012345678901", "#a", "a #b", "a#b", "a: b", "a:b", "a:", "- a", "-a",
            "-", "---", "--- a", "...", "? a", "?a", ":", "[a]", "{a}", "a,b", "&a", "*a", "!a", "|a", ">a", "'a",
            "\"a", "%a", "@a", "`a", "it's", "say \"hi\"", "back\\slash", "\u{0}", "a\u{7}b", "\u{1b}", "\u{7f}",
            "\u{85}", "a\u{85}b", "\u{a0}", "\u{2028}", "a\u{2028}b", "a\u{2029}", "\u{feff}a", "\u{fffe}",
            "\u{ffff}", "\u{e000}", "\u{d7ff}", "é", "日本語", "😀", "a\rb", "a\r\nb", "a\n\nb\n", "x\n\n",
        ] {
            same(&json!(text));
            same(&json!([text]));
            same(&json!({ text: text }));
            same(&json!({"k": {text: [text, {text: text}]}}));
        }
        let long = "k".repeat(128);
        let longer = "k".repeat(129);
        for value in [
            json!(null), json!(true), json!(0), json!(-5), json!(u64::MAX), json!(i64::MIN), json!(1.0), json!(0.1),
            json!(1e20), json!(1e-7), json!(-2.5e300), json!(123456789.125), json!([]), json!({}), json!([[]]),
            json!([{}]), json!({"a": []}), json!({"a": {}}), json!([[1, 2], [3, [4, []]]]), json!({"a": [{"b": 1, "c": [2]}]}),
            json!([{"a": {"b": {"c": []}}}, {}]), json!({ long.as_str(): 1, longer.as_str(): [1, {"x": "y\nz"}] }),
            json!({"a\nb": 1, "c\nd": {"e": []}, "": "", " ": [" "]}),
        ] {
            same(&value);
        }
    }

    #[test]
    fn doubles_as_serde_yaml_ng_writes_them() {
        let mut bits: u64 = 0x2545_f491_4f6c_dd1d;
        let mut n = 0;
        while n < 1_000_000 {
            bits ^= bits << 13;
            bits ^= bits >> 7;
            bits ^= bits << 17;
            // every exponent, and short decimals (the exponent thresholds of the text)
            let f = if n % 2 == 0 { f64::from_bits(bits) } else { (bits % 100_000) as f64 * 10f64.powi((bits >> 40) as i32 % 40 - 20) };
            if f.is_finite() {
                same(&json!(f));
                n += 1;
            }
        }
        for f in [0.0, -0.0, 1.0, 0.1, 1e15, 1e16, 1e17, 1e-5, 1e-6, 1e-7, 5e-324, f64::MAX, f64::MIN_POSITIVE, 123456.0] {
            same(&json!(f));
        }
    }

    /// Random values over the characters the rules look at.
    #[test]
    fn random_values_as_serde_yaml_ng_writes_them() {
        const CHARS: &[char] = &[
            'a', 'b', '0', '1', '9', ' ', ' ', '\n', '\t', '\r', '#', ':', '-', '?', '\'', '"', '\\', '[', ']', '{',
            '}', ',', '&', '*', '!', '|', '>', '%', '@', '`', '.', 'e', 'E', '+', 'x', 'o', '_', '~', 'n', 'u', 'l',
            't', 'r', 'f', '\u{0}', '\u{7f}', '\u{85}', '\u{a0}', '\u{2028}', '\u{2029}', '\u{feff}', '\u{fffe}',
            'é', '😀', '\u{1b}',
        ];
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        fn text(next: &mut impl FnMut(usize) -> usize) -> String {
            let len = [0, 1, 1, 2, 3, 4, 6, 10, 20, 130][next(10)];
            (0..len).map(|_| CHARS[next(CHARS.len())]).collect()
        }
        fn value(next: &mut impl FnMut(usize) -> usize, depth: usize) -> Value {
            match next(if depth > 3 { 5 } else { 7 }) {
                0 => Value::Null,
                1 => json!(next(2) == 0),
                2 => [json!(next(1000)), json!(-(next(1000) as i64)), json!(next(1000) as f64 / 8.0), json!(1e-9 * next(100) as f64)][next(4)].clone(),
                3 | 4 => Value::String(text(next)),
                5 => Value::Array((0..next(4)).map(|_| value(next, depth + 1)).collect()),
                _ => Value::Object((0..next(4)).map(|_| (text(next), value(next, depth + 1))).collect::<Map<_, _>>()),
            }
        }
        for _ in 0..200_000 {
            same(&value(&mut next, 0));
        }
    }
}
