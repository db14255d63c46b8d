//! Option structs read from JSON: the one place where serde's errors become [`Error`]s.
//!
//! Every option struct of the API derives `Deserialize` with `rename_all = "camelCase"` and
//! `deny_unknown_fields`: the names users write in JavaScript (`topK`, `batchSize`) are the struct's fields, so
//! adding an option is adding a field, and a misspelt key is an error instead of a setting silently ignored.
//! [`from_json`] names the field at fault (`options.topK`), the closest valid name of an unknown key, and keeps
//! the stable code of a value its type refused (`norm: "borda"` is `UNSUPPORTED`, see [`refused`]).

use crate::error::{Error, ErrorCode, Result};
use serde::de::{self, DeserializeOwned, Visitor};
use serde_json::Value;

/// Marks a crate [`Error`] carried through serde as a message (see [`refused`]).
const MARK: char = '\u{1}';

/// Reads option struct `T` from `value` (`null` reads as `{}`); errors name `path.field` (`field` alone when
/// `path` is empty, as for the options of a call whose fields are documented by name).
pub fn from_json<T: DeserializeOwned>(path: &str, value: Value) -> Result<T> {
    let value = Value::Object(options_object(path, value)?);
    serde_path_to_error::deserialize(value).map_err(|e| {
        let at = e.path().to_string();
        let field = match at.as_str() {
            "." | "" => path.to_string(),
            at => field_path(path, at),
        };
        describe(&field, &e.into_inner().to_string())
    })
}

/// An options value as the object its keys are read from: `null` is `{}`, and anything but an object is refused
/// (serde would read an array as the struct's fields in order).
fn options_object(path: &str, value: Value) -> Result<serde_json::Map<String, Value>> {
    match value {
        Value::Null => Ok(serde_json::Map::new()),
        Value::Object(map) => Ok(map),
        other => Err(Error::invalid(path, format!("expected an object, got {}", crate::document::json_type(&other)))),
    }
}

/// `path.field`, or `field` alone at the top of an unnamed value.
fn field_path(path: &str, field: &str) -> String {
    if path.is_empty() {
        field.to_string()
    } else {
        format!("{path}.{field}")
    }
}

/// A crate error raised while deserializing (by a type whose `Deserialize` calls its own `parse`), carried to
/// [`from_json`] with its code. The error's message starts with the field name the parser was given: parsers
/// called from `Deserialize` get `""`, and [`from_json`] puts the field's path in front.
pub fn refused<E: de::Error>(err: Error) -> E {
    E::custom(format!("{MARK}{}{MARK}{}", err.code.as_str(), err.message))
}

/// Implements `Deserialize` for a type read from a string by its own parser (`|s: &str| -> Result<Self>`), with
/// the parser's messages and codes. A parser that names a field in its messages should be given `""` as the
/// field (`T::parse("", s)`): [`from_json`] names the field by its path.
#[macro_export]
macro_rules! deserialize_by_parse {
    ($t:ty, $parse:expr) => {
        impl<'de> serde::Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
                let s = <String as serde::Deserialize>::deserialize(d)?;
                let parse: fn(&str) -> $crate::Result<$t> = $parse;
                parse(&s).map_err($crate::options::refused)
            }
        }
    };
}

fn describe(field: &str, message: &str) -> Error {
    if let Some(rest) = message.strip_prefix(MARK) {
        if let Some((code, text)) = rest.split_once(MARK) {
            let code = ErrorCode::parse(code).unwrap_or(ErrorCode::InvalidArgument);
            // the parser named no field (": …") or the field by its own name ("documentScope: …")
            let last = field.rsplit('.').next().unwrap_or(field);
            let text = text.strip_prefix(": ").or_else(|| text.strip_prefix(&format!("{last}: "))).unwrap_or(text);
            return Error::new(code, format!("{field}: {text}"));
        }
    }
    if let Some(rest) = message.strip_prefix("unknown field ") {
        // the path already ends with the unknown key
        let (name, valid) = names(rest);
        return Error::invalid(field, unknown("option", &name, &valid));
    }
    if let Some(rest) = message.strip_prefix("unknown variant ") {
        let (name, valid) = names(rest);
        return Error::invalid(field, unknown("value", &name, &valid));
    }
    if let Some(rest) = message.strip_prefix("invalid type: ").or_else(|| message.strip_prefix("invalid value: ")) {
        if let Some((got, expected)) = rest.rsplit_once(", expected ") {
            return Error::invalid(field, format!("expected {}, got {got}", expectation(expected)));
        }
    }
    if let Some(rest) = message.strip_prefix("missing field ") {
        let name = rest.trim_matches('`');
        return Error::invalid(&if field.is_empty() { name.to_string() } else { format!("{field}.{name}") }, "is required");
    }
    Error::invalid(field, message)
}

/// The backticked name and the valid names of serde's "`x`, expected one of `a`, `b`" (or "`a` or `b`").
fn names(rest: &str) -> (String, Vec<String>) {
    let mut quoted = rest.split('`').skip(1).step_by(2).map(str::to_string);
    let name = quoted.next().unwrap_or_default();
    (name, quoted.collect())
}

/// "unknown normalisation \"bordaa\": did you mean \"borda\"? (valid: …)": the message for a name outside a
/// fixed list (fusion methods, normalisations), with the nearest valid name when one is near enough.
pub fn unknown_name(what: &str, name: &str, valid: &[&str]) -> String {
    let valid: Vec<String> = valid.iter().map(|v| v.to_string()).collect();
    unknown(what, name, &valid)
}

/// "unknown option \"topk\": did you mean \"topK\"? (valid: …)".
fn unknown(what: &str, name: &str, valid: &[String]) -> String {
    let mut text = format!("unknown {what} {name:?}");
    if let Some(best) = closest(name, valid) {
        text.push_str(&format!(": did you mean {best:?}?"));
    }
    if valid.is_empty() {
        text.push_str(" (none is taken here)");
    } else {
        text.push_str(&format!(" (valid: {})", valid.join(", ")));
    }
    text
}

/// The valid name nearest to `name` (case-insensitive edit distance), when it is near enough to be a typo or
/// one name is the start of the other (`relevance` → `relevanceLevel`).
fn closest<'a>(name: &str, valid: &'a [String]) -> Option<&'a String> {
    let lower = name.to_lowercase();
    let typed: Vec<char> = lower.chars().collect();
    valid
        .iter()
        .map(|v| (v, v.to_lowercase()))
        .map(|(v, l)| (edit_distance(&typed, &l.chars().collect::<Vec<char>>()), l, v))
        .filter(|(d, l, _)| *d <= (l.chars().count() / 3).max(2) || (lower.len() >= 3 && (l.starts_with(&lower) || lower.starts_with(l.as_str()))))
        .min_by_key(|(d, _, _)| *d)
        .map(|(_, _, v)| v)
}

/// The Levenshtein distance of `a` and `b` (insertions, deletions and substitutions, each costing 1), one row of
/// the table at a time. Names are a few dozen characters at most and read only on an error, so the plain
/// quadratic table is all this needs: rapidfuzz's bit-parallel Levenshtein, which gave the same distances, was
/// 22 KB of rerankit/eval's wasm (about 8 KB gzip) for this one call.
fn edit_distance(a: &[char], b: &[char]) -> usize {
    // previous[j]: the distance of a[..i] and b[..j], for the row i being computed next
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current = vec![0; b.len() + 1];
    for (i, &ca) in a.iter().enumerate() {
        current[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != cb);
            current[j + 1] = substitution.min(previous[j + 1] + 1).min(current[j] + 1);
        }
        std::mem::swap(&mut previous, &mut current);
    }
    previous[b.len()]
}

/// serde's type names in the words a JavaScript user reads.
fn expectation(expected: &str) -> &str {
    match expected {
        "usize" | "u64" | "u32" | "u16" | "u8" => "a non-negative integer",
        "isize" | "i64" | "i32" | "i16" | "i8" => "an integer",
        "f64" | "f32" => "a number",
        "a sequence" => "an array",
        "a map" => "an object",
        e if e.starts_with("struct ") => "an object",
        e => e,
    }
}

/// Reads option struct `T` from the keys of `value` that are its fields, and returns the other keys, which must be
/// fields of `Rest` (read by the caller): one options object that two structs read (`compareRuns`' test options
/// beside `evaluate`'s), split by the structs' own field names rather than a list kept beside them. A key of
/// neither is refused with the nearest name of both.
pub fn split_off<T: DeserializeOwned, Rest: DeserializeOwned>(path: &str, value: Value) -> Result<(T, Value)> {
    let mut rest = options_object(path, value)?;
    let valid: Vec<String> = field_names::<T>().iter().chain(field_names::<Rest>()).map(|f| f.to_string()).collect();
    if let Some(key) = rest.keys().find(|k| !valid.contains(k)) {
        return Err(Error::invalid(&field_path(path, key), unknown("option", key, &valid)));
    }
    let mut taken = serde_json::Map::new();
    for field in field_names::<T>() {
        if let Some(v) = rest.remove(*field) {
            taken.insert(field.to_string(), v);
        }
    }
    Ok((from_json(path, Value::Object(taken))?, Value::Object(rest)))
}

/// The field names of option struct `T` as JSON sees them (what the TypeScript types must declare).
pub fn field_names<T: DeserializeOwned>() -> &'static [&'static str] {
    struct Fields(Option<&'static [&'static str]>);
    impl<'de> de::Deserializer<'de> for &mut Fields {
        type Error = de::value::Error;
        fn deserialize_any<V: Visitor<'de>>(self, _: V) -> std::result::Result<V::Value, Self::Error> {
            Err(de::Error::custom("not a struct"))
        }
        fn deserialize_struct<V: Visitor<'de>>(
            self,
            _: &'static str,
            fields: &'static [&'static str],
            _: V,
        ) -> std::result::Result<V::Value, Self::Error> {
            self.0 = Some(fields);
            Err(de::Error::custom("fields read"))
        }
        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option unit
            unit_struct newtype_struct seq tuple tuple_struct map enum identifier ignored_any
        }
    }
    let mut fields = Fields(None);
    let _ = T::deserialize(&mut fields);
    fields.0.unwrap_or(&[])
}

#[cfg(test)]
mod tests {
    use super::edit_distance;

    /// The distances rapidfuzz's Levenshtein gave, which `closest` used before: on every pair of a set of names
    /// and their typos (empty, one letter, non-ASCII, transpositions, prefixes).
    #[test]
    fn edit_distance_is_rapidfuzz_levenshtein() {
        let words = [
            "", "a", "ab", "ba", "topk", "topK", "relevanceLevel", "relevancelevl", "borda", "bordaa", "qrels", "qrel",
            "ndcg_cut", "nDCG", "nDGC", "cutof", "cutoff", "méthode", "methode", "日本語", "日本", "kitten", "sitting",
        ];
        for a in words {
            for b in words {
                let a: Vec<char> = a.to_lowercase().chars().collect();
                let b: Vec<char> = b.to_lowercase().chars().collect();
                let expected = rapidfuzz::distance::levenshtein::distance(a.iter().copied(), b.iter().copied());
                assert_eq!(edit_distance(&a, &b), expected, "{a:?} {b:?}");
            }
        }
    }
}
