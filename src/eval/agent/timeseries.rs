//! `retrieve_time_series` and `retrieve_data_points` step comparison (graphrag-eval `docs/steps.md`
//! § "Time-series comparison" and § "Data-points comparison").

use crate::python::values as py;
use chrono::{DateTime, Duration, FixedOffset, NaiveDate, NaiveDateTime, NaiveTime, TimeZone, Utc};
use serde_json::{Map, Value};

/// `normalize_str_values`: falsy values as they are, a string as a one-item list, a list sorted.
fn normalize_str_values(v: Option<&Value>) -> Result<Value, String> {
    let Some(v) = v else { return Ok(Value::Null) };
    if !py::truthy(v) {
        return Ok(v.clone());
    }
    match v {
        Value::String(_) => Ok(Value::Array(vec![v.clone()])),
        Value::Array(items) => py::sorted(items).map(Value::Array),
        Value::Object(m) => Ok(Value::Array(
            py::sorted(&m.keys().map(|k| Value::String(k.clone())).collect::<Vec<_>>())?,
        )),
        other => Err(format!("'{}' object is not iterable", py::type_name(other))),
    }
}

/// `normalize_granularity`: a leading `<digits><letters>` with the unit spelled out (`15m` → `15minutes`).
pub fn normalize_granularity(g: Option<&Value>) -> Result<Value, String> {
    let Some(g) = g else { return Ok(Value::Null) };
    if !py::truthy(g) {
        return Ok(g.clone());
    }
    let Value::String(s) = g else {
        return Err(format!("expected string or bytes-like object, got '{}'", py::type_name(g)));
    };
    let digits: String = s.chars().take_while(|c| c.is_ascii_digit()).collect();
    let letters: String = s[digits.len()..].chars().take_while(|c| c.is_ascii_alphabetic()).collect();
    if digits.is_empty() || letters.is_empty() {
        return Ok(g.clone());
    }
    let unit = letters.to_lowercase();
    let mapped = match unit.as_str() {
        "s" | "second" => "seconds",
        "m" | "minute" => "minutes",
        "h" | "hour" => "hours",
        "d" | "day" => "days",
        "w" | "week" => "weeks",
        "mo" | "month" => "months",
        "q" | "quarter" => "quarters",
        "y" | "year" => "years",
        other => other,
    };
    Ok(Value::String(format!("{digits}{mapped}")))
}

/// `^((\d+[smhdw]-(ago|ahead))|now)$` (Python's `$` also accepts one trailing newline); the signed offset in
/// seconds, `Some(0)` for `now`.
fn relative_seconds(s: &str) -> Option<Result<i64, String>> {
    let s = s.strip_suffix('\n').unwrap_or(s);
    if s == "now" {
        return Some(Ok(0));
    }
    let (body, sign) = if let Some(b) = s.strip_suffix("-ago") {
        (b, -1)
    } else if let Some(b) = s.strip_suffix("-ahead") {
        (b, 1)
    } else {
        return None;
    };
    let unit = body.chars().last()?;
    let digits = &body[..body.len() - unit.len_utf8()];
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mult: i64 = match unit {
        's' => 1,
        'm' => 60,
        'h' => 3600,
        'd' => 86400,
        'w' => 7 * 86400,
        _ => return None,
    };
    Some(
        digits
            .parse::<i64>()
            .ok()
            .and_then(|n| n.checked_mul(mult))
            .filter(|s| s.abs() < 86_400 * 999_999_999)
            .map(|n| sign * n)
            .ok_or_else(|| "Python int too large to convert to C int".to_string()),
    )
}

fn is_relative(v: &Value) -> bool {
    v.as_str().is_some_and(|s| relative_seconds(s).is_some())
}

fn digits_at(b: &[u8], pos: usize, n: usize) -> Option<u32> {
    let part = b.get(pos..pos + n)?;
    if !part.iter().all(|c| c.is_ascii_digit()) {
        return None;
    }
    std::str::from_utf8(part).ok()?.parse().ok()
}

/// dateutil's `isoparse` for the common ISO 8601 forms: `YYYY-MM-DD`, `YYYYMMDD`, `YYYY-MM`, `YYYY`, then
/// any one separator character and `HH[:MM[:SS[.ffffff]]]` or `HHMM[SS]`, then `Z`, `±HH`, `±HH:MM` or `±HHMM`.
/// Naive results are `None` offset (treated as UTC by the caller).
pub fn isoparse(s: &str) -> Option<(NaiveDateTime, Option<FixedOffset>)> {
    let b = s.as_bytes();
    let year = digits_at(b, 0, 4)? as i32;
    let mut pos = 4;
    let (mut month, mut day) = (1, 1);
    if b.get(pos) == Some(&b'-') {
        month = digits_at(b, pos + 1, 2)?;
        pos += 3;
        if b.get(pos) == Some(&b'-') {
            day = digits_at(b, pos + 1, 2)?;
            pos += 3;
        }
    } else if let Some(m) = digits_at(b, pos, 2) {
        month = m;
        day = digits_at(b, pos + 2, 2)?;
        pos += 4;
    }
    let date = NaiveDate::from_ymd_opt(year, month, day)?;
    if pos == b.len() {
        return Some((date.and_hms_opt(0, 0, 0)?, None));
    }
    // one separator character (any), then the time
    let sep_len = s[pos..].chars().next()?.len_utf8();
    pos += sep_len;
    let hour = digits_at(b, pos, 2)?;
    pos += 2;
    let (mut minute, mut second, mut micro) = (0, 0, 0);
    let colon = b.get(pos) == Some(&b':');
    if colon || digits_at(b, pos, 2).is_some() {
        let p = pos + colon as usize;
        minute = digits_at(b, p, 2)?;
        pos = p + 2;
        let colon2 = b.get(pos) == Some(&b':');
        if (colon2 == colon) && (colon2 || digits_at(b, pos, 2).is_some()) {
            let p = pos + colon2 as usize;
            second = digits_at(b, p, 2)?;
            pos = p + 2;
            if matches!(b.get(pos), Some(b'.') | Some(b',')) {
                pos += 1;
                let start = pos;
                while pos < b.len() && b[pos].is_ascii_digit() {
                    pos += 1;
                }
                if pos == start {
                    return None;
                }
                let frac = &s[start..pos.min(start + 6)];
                micro = format!("{frac:0<6}").parse().ok()?;
            }
        }
    }
    let mut extra_day = false;
    let time = if hour == 24 && minute == 0 && second == 0 && micro == 0 {
        extra_day = true;
        NaiveTime::from_hms_opt(0, 0, 0)?
    } else {
        NaiveTime::from_hms_micro_opt(hour, minute, second, micro)?
    };
    let mut dt = date.and_time(time);
    if extra_day {
        dt += Duration::days(1);
    }
    let rest = &s[pos..];
    if rest.is_empty() {
        return Some((dt, None));
    }
    if rest == "Z" || rest == "z" {
        return Some((dt, Some(FixedOffset::east_opt(0)?)));
    }
    let rb = rest.as_bytes();
    let sign = match rb[0] {
        b'+' => 1,
        b'-' => -1,
        _ => return None,
    };
    let hh = digits_at(rb, 1, 2)? as i32;
    let mm = match rb.len() {
        3 => 0,
        5 => digits_at(rb, 3, 2)? as i32,
        6 if rb[3] == b':' => digits_at(rb, 4, 2)? as i32,
        _ => return None,
    };
    if hh > 23 || mm > 59 {
        return None;
    }
    Some((dt, Some(FixedOffset::east_opt(sign * (hh * 3600 + mm * 60))?)))
}

/// An instant in UTC (naive times are UTC).
pub fn parse_instant(s: &str) -> Option<DateTime<Utc>> {
    let (naive, offset) = isoparse(s)?;
    Some(match offset {
        None => Utc.from_utc_datetime(&naive),
        Some(o) => o.from_local_datetime(&naive).single()?.with_timezone(&Utc),
    })
}

enum Time {
    Instant(DateTime<Utc>),
    Raw(Value),
}

fn normalize_time(v: &Value, anchor: &Value) -> Result<Time, String> {
    if let Value::String(s) = v {
        if let Some(offset) = relative_seconds(s) {
            let offset = offset?;
            let anchor_instant = anchor.as_str().and_then(parse_instant);
            return match anchor_instant {
                Some(a) => a
                    .checked_add_signed(Duration::seconds(offset))
                    .map(Time::Instant)
                    .ok_or_else(|| "date value out of range".to_string()),
                None if offset == 0 && s.trim_end_matches('\n') == "now" => Ok(Time::Raw(anchor.clone())),
                None => Err(format!(
                    "cannot resolve the relative time '{s}': the actual step's execution_timestamp is not an ISO 8601 time"
                )),
            };
        }
        if let Some(t) = parse_instant(s) {
            return Ok(Time::Instant(t));
        }
    }
    Ok(Time::Raw(v.clone()))
}

/// `do_times_equal`: a relative reference time (`2h-ago`, `now`) is resolved against the actual step's
/// `execution_timestamp` and accepted within 60 seconds of an absolute actual time; two absolute times must be
/// the same instant; an absolute reference never matches a relative actual time.
fn times_equal(anchor: &Value, reference: Option<&Value>, actual: Option<&Value>) -> Result<bool, String> {
    let reference = reference.filter(|v| !v.is_null());
    let actual = actual.filter(|v| !v.is_null());
    let (reference, actual) = match (reference, actual) {
        (None, None) => return Ok(true),
        (Some(r), Some(a)) => (r, a),
        _ => return Ok(false),
    };
    let (ref_rel, act_rel) = (is_relative(reference), is_relative(actual));
    if !ref_rel && act_rel {
        return Ok(false);
    }
    let r = normalize_time(reference, anchor)?;
    let a = normalize_time(actual, anchor)?;
    Ok(match (r, a) {
        (Time::Instant(r), Time::Instant(a)) => {
            if ref_rel && !act_rel {
                let diff = (r - a).num_microseconds().map(|us| us.abs()).unwrap_or(i64::MAX);
                diff <= 60_000_000
            } else {
                r == a
            }
        }
        (Time::Raw(r), Time::Raw(a)) => py::eq(&r, &a),
        _ => false,
    })
}

fn args_of<'a>(step: &'a Map<String, Value>, which: &str) -> Result<&'a Map<String, Value>, String> {
    match step.get("args") {
        Some(Value::Object(m)) => Ok(m),
        Some(other) => Err(format!("the {which} step's args is a {}, not an object", py::type_name(other))),
        None => Err(format!("the {which} step has no 'args'")),
    }
}

fn opt_eq(a: Option<&Value>, b: Option<&Value>) -> bool {
    py::eq(a.unwrap_or(&Value::Null), b.unwrap_or(&Value::Null))
}

/// `retrieve_time_series` steps: `mrid` (string → one-item list, lists sorted) and, when the reference gives
/// one, `limit`; without a reference `mrid` the actual step must have none and the limits must be equal.
pub fn time_series_equal(reference: &Map<String, Value>, actual: &Map<String, Value>) -> Result<bool, String> {
    let (ra, aa) = (args_of(reference, "reference")?, args_of(actual, "actual")?);
    let (ref_mrid, ref_limit) = (ra.get("mrid"), ra.get("limit"));
    let (act_mrid, act_limit) = (aa.get("mrid"), aa.get("limit"));
    if ref_mrid.is_some_and(py::truthy) {
        let same = py::eq(&normalize_str_values(ref_mrid)?, &normalize_str_values(act_mrid)?);
        if ref_limit.is_some_and(py::truthy) {
            Ok(same && opt_eq(ref_limit, act_limit))
        } else {
            Ok(same)
        }
    } else {
        Ok(act_mrid.is_none_or(Value::is_null) && opt_eq(ref_limit, act_limit))
    }
}

/// `retrieve_data_points` steps: `external_id`, `granularity`, `aggregates`, `limit`, `start` and `end`.
pub fn data_points_equal(reference: &Map<String, Value>, actual: &Map<String, Value>) -> Result<bool, String> {
    let anchor = actual.get("execution_timestamp").ok_or("the actual retrieve_data_points step has no 'execution_timestamp'")?;
    let (ra, aa) = (args_of(reference, "reference")?, args_of(actual, "actual")?);
    let ref_ext = ra.get("external_id").ok_or("the reference step's args have no 'external_id'")?;
    let act_ext = aa.get("external_id").ok_or("the actual step's args have no 'external_id'")?;
    let same_ids = py::eq(&normalize_str_values(Some(ref_ext))?, &normalize_str_values(Some(act_ext))?);
    let same_granularity =
        py::eq(&normalize_granularity(ra.get("granularity"))?, &normalize_granularity(aa.get("granularity"))?);
    let same_aggregates =
        py::eq(&normalize_str_values(ra.get("aggregates"))?, &normalize_str_values(aa.get("aggregates"))?);
    if !(same_ids && same_granularity && same_aggregates) {
        return Ok(false);
    }
    if !times_equal(anchor, ra.get("start"), aa.get("start"))? {
        return Ok(false);
    }
    if !times_equal(anchor, ra.get("end"), aa.get("end"))? {
        return Ok(false);
    }
    Ok(opt_eq(ra.get("limit"), aa.get("limit")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn iso_forms() {
        let t = |s| parse_instant(s).map(|d| d.to_rfc3339());
        assert_eq!(t("2025-01-01T01:00:00+01:00"), t("2025-01-01T00:00:00Z"));
        assert_eq!(t("2025-01-01 00:00:00"), t("2025-01-01T00:00:00Z"));
        assert_eq!(t("20250101T000000Z"), t("2025-01-01"));
        assert_eq!(t("2025-01-01T00:00:00.5Z").unwrap(), "2025-01-01T00:00:00.500+00:00");
        assert!(t("yesterday").is_none());
        assert!(t("2025-13-01").is_none());
    }

    #[test]
    fn granularity_and_relative() {
        assert_eq!(normalize_granularity(Some(&json!("15m"))).unwrap(), json!("15minutes"));
        assert_eq!(normalize_granularity(Some(&json!("1Hour"))).unwrap(), json!("1hours"));
        assert_eq!(normalize_granularity(Some(&json!("15 m"))).unwrap(), json!("15 m"));
        assert_eq!(relative_seconds("2h-ago").unwrap().unwrap(), -7200);
        assert_eq!(relative_seconds("3w-ahead").unwrap().unwrap(), 3 * 7 * 86400);
        assert!(relative_seconds("2y-ago").is_none());
    }
}
