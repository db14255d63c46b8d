//! Reading a document's date leniently, as Haystack's `dateutil.parser.parse` does, into a sortable instant.
//!
//! Accepted values of `meta[date_meta_field]`:
//! - a JSON number: seconds since the Unix epoch (`1714557600`, `1714557600.5`);
//! - a string of digits (optionally signed, optionally with a fraction): epoch seconds too. dateutil would read
//!   `"20210501"` as 1 May 2021 and `"2021"` as a year; as epoch seconds they still sort in the same order as
//!   long as every document uses the same form;
//! - ISO 8601 with or without time and zone (`2021-05-01`, `2021-05-01T10:00`, `2024-02-29T10:00:00Z`,
//!   `2024-02-29T10:00:00.123+02:00`), RFC 2822 (`Wed, 02 Jun 2021 06:31:39 GMT`), `2023-05-01 10:00`,
//!   `2021/05/01`, `05/01/2021` (month first, dateutil's default), `May 1, 2021`, `1 May 2021`, zone names such as
//!   `UTC` / `PST` / `+0800`, and the other forms of the `dateparser` crate (0.3.1), which rerankit called until it
//!   read them itself ([`forms`], with [`shape`] for the shapes its regexes gave and [`zone`] for its zones): the
//!   regex engine with its Unicode tables was over a third of `rerankit/eval`'s wasm.
//!
//! Dates without a zone are taken as UTC; dates with one are converted to UTC, so that every date compares with
//! every other (Python refuses to compare naive with aware datetimes; rerankit orders them instead). A date without
//! a time is midnight; a time without a date (`4:00pm`) is today's, as dateutil reads it.

mod forms;
mod shape;
mod zone;

use chrono::{DateTime, NaiveDate, NaiveDateTime, NaiveTime, Utc};
use serde_json::Value;

/// A point in time as nanoseconds since 1970-01-01T00:00:00Z; only its order matters.
pub type EpochNanos = i128;

/// What a date value turned out to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DateReading {
    Instant(EpochNanos),
    /// A string no known date form matches: the caller warns and keeps the input order.
    Unparsable,
}

/// Reads one date value. `Err` carries the problem with a value that is no date at all (a boolean, list or object);
/// `null` is the caller's business (a missing date).
pub fn read_date(value: &Value) -> Result<DateReading, String> {
    match value {
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                Ok(DateReading::Instant(i as i128 * 1_000_000_000))
            } else if let Some(x) = n.as_f64() {
                Ok(DateReading::Instant(epoch_seconds_to_nanos(x)))
            } else {
                Err(format!("{n} is not a number of seconds"))
            }
        }
        Value::String(s) => Ok(read_date_text(s)),
        Value::Bool(_) => Err("a boolean is not a date (expected a date string or epoch seconds)".into()),
        Value::Array(_) => Err("a list is not a date (expected a date string or epoch seconds)".into()),
        Value::Object(_) => Err("an object is not a date (expected a date string or epoch seconds)".into()),
        Value::Null => Err("null is not a date".into()),
    }
}

/// Reads a date string; see the module docs for the forms.
pub fn read_date_text(text: &str) -> DateReading {
    read_date_text_at(text, Utc::now)
}

/// [`read_date_text`] with the clock given: `now` is asked only by the forms that read today's date or year
/// (`4:00pm`, `May 27 02:45:27`, `2014.03`).
pub fn read_date_text_at(text: &str, now: impl FnOnce() -> DateTime<Utc>) -> DateReading {
    let s = text.trim();
    if s.is_empty() {
        return DateReading::Unparsable;
    }
    if let Some(nanos) = epoch_seconds_text(s) {
        return DateReading::Instant(nanos);
    }
    // Strict ISO 8601 / RFC 3339 first: the common case, and forms dateparser does not list (`T` without a zone).
    if let Ok(dt) = DateTime::parse_from_rfc3339(s) {
        return DateReading::Instant(utc_nanos(&dt.with_timezone(&Utc)));
    }
    for format in ["%Y-%m-%dT%H:%M:%S%.f%z", "%Y-%m-%dT%H:%M%z"] {
        if let Ok(dt) = DateTime::parse_from_str(s, format) {
            return DateReading::Instant(utc_nanos(&dt.with_timezone(&Utc)));
        }
    }
    for format in ["%Y-%m-%dT%H:%M:%S%.f", "%Y-%m-%dT%H:%M"] {
        if let Ok(naive) = NaiveDateTime::parse_from_str(s, format) {
            return DateReading::Instant(utc_nanos(&naive.and_utc()));
        }
    }
    if let Ok(day) = NaiveDate::parse_from_str(s, "%Y-%m-%d") {
        return DateReading::Instant(utc_nanos(&day.and_time(NaiveTime::MIN).and_utc()));
    }
    // Everything else: the lenient forms, with naive values in UTC and midnight for date-only values.
    match forms::read(s, now()) {
        Some(dt) => DateReading::Instant(utc_nanos(&dt)),
        None => DateReading::Unparsable,
    }
}

fn utc_nanos(dt: &DateTime<Utc>) -> EpochNanos {
    dt.timestamp() as i128 * 1_000_000_000 + dt.timestamp_subsec_nanos() as i128
}

fn epoch_seconds_to_nanos(x: f64) -> EpochNanos {
    // `as` saturates for values beyond i128; such dates still sort after (or before) every real one.
    (x * 1e9) as i128
}

/// `[+-]digits[.digits]` as epoch seconds.
fn epoch_seconds_text(s: &str) -> Option<EpochNanos> {
    let unsigned = s.strip_prefix(['+', '-']).unwrap_or(s);
    let (whole, fraction) = match unsigned.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (unsigned, None),
    };
    let all_digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    if !all_digits(whole) || fraction.is_some_and(|f| !all_digits(f)) {
        return None;
    }
    match fraction {
        None => s.parse::<i128>().ok().and_then(|secs| secs.checked_mul(1_000_000_000)),
        Some(_) => s.parse::<f64>().ok().filter(|x| x.is_finite()).map(epoch_seconds_to_nanos),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn instant(s: &str) -> EpochNanos {
        match read_date_text(s) {
            DateReading::Instant(n) => n,
            DateReading::Unparsable => panic!("{s:?} did not parse"),
        }
    }

    fn secs(s: &str) -> i128 {
        instant(s) / 1_000_000_000
    }

    #[test]
    fn iso_forms() {
        let may1 = 1_619_827_200; // 2021-05-01T00:00:00Z
        assert_eq!(secs("2021-05-01"), may1);
        assert_eq!(secs("2021-05-01T00:00:00Z"), may1);
        assert_eq!(secs("2021-05-01T02:00:00+02:00"), may1);
        assert_eq!(secs("2021-05-01T02:00:00+0200"), may1);
        assert_eq!(secs("2021-05-01T10:00"), may1 + 36_000);
        assert_eq!(secs("2021-05-01T10:00:00"), may1 + 36_000);
        assert_eq!(instant("2021-05-01T00:00:00.250Z") - instant("2021-05-01"), 250_000_000);
        assert_eq!(secs("  2021-05-01 "), may1);
    }

    #[test]
    fn lenient_forms() {
        let may1 = 1_619_827_200;
        assert_eq!(secs("2021-05-01 10:00"), may1 + 36_000);
        assert_eq!(secs("2021-05-01 10:00:00"), may1 + 36_000);
        assert_eq!(secs("2021/05/01"), may1);
        assert_eq!(secs("05/01/2021"), may1);
        assert_eq!(secs("May 1, 2021"), may1);
        assert_eq!(secs("1 May 2021"), may1);
        assert_eq!(secs("Sat, 01 May 2021 00:00:00 GMT"), may1);
        assert_eq!(secs("Sat, 01 May 2021 02:00:00 +0200"), may1);
        assert_eq!(secs("2021-05-01 00:00:00 UTC"), may1);
    }

    #[test]
    fn epoch_seconds() {
        assert_eq!(read_date(&serde_json::json!(1_619_827_200)), Ok(DateReading::Instant(1_619_827_200_000_000_000)));
        assert_eq!(read_date(&serde_json::json!(1.5)), Ok(DateReading::Instant(1_500_000_000)));
        assert_eq!(secs("1619827200"), 1_619_827_200);
        assert_eq!(instant("-1.5"), -1_500_000_000);
    }

    #[test]
    fn not_dates() {
        assert_eq!(read_date_text("next tuesday-ish"), DateReading::Unparsable);
        assert_eq!(read_date_text(""), DateReading::Unparsable);
        assert_eq!(read_date_text("2021-13-45"), DateReading::Unparsable);
        assert!(read_date(&serde_json::json!(true)).is_err());
        assert!(read_date(&serde_json::json!([2021])).is_err());
    }
}
