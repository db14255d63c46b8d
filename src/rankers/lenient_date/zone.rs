//! A zone after a date as the `dateparser` crate (0.3.1, `timezone::parse`) read it: `+0800`, `-08`, `+08:00`,
//! `+08 00`, or a name. Names are RFC 2822's: GMT/UT/UTC, EST/EDT, CST/CDT, MST/MDT, PST/PDT (case-insensitive);
//! any other run of letters reads as UTC (RFC 2822's advice for unknown names, so `CET` is +00:00), and only the
//! letters count (`PST8` is PST).

use chrono::FixedOffset;

/// The zone's offset; `None` when it is no zone. dateparser panicked on an offset of 24 hours or more (`+2500`);
/// that is `None` here, so the date is unparsable.
pub fn offset(zone: &str) -> Option<FixedOffset> {
    let seconds = if zone.contains(':') {
        // hours, then any run of colons and spaces, then minutes
        numeric(zone, |rest| rest.trim_start_matches(|c: char| c == ':' || c.is_whitespace()))?
    } else {
        let letters = zone.bytes().take_while(u8::is_ascii_alphabetic).count();
        if letters > 0 {
            named(&zone[..letters].to_ascii_lowercase())
        } else {
            numeric(zone, |rest| rest)?
        }
    };
    FixedOffset::east_opt(seconds)
}

fn named(name: &str) -> i32 {
    let hours = match name {
        "edt" => -4,
        "est" | "cdt" => -5,
        "cst" | "mdt" => -6,
        "mst" | "pdt" => -7,
        "pst" => -8,
        _ => 0, // gmt, ut, utc and every name RFC 2822 does not know
    };
    hours * 3600
}

/// `[+-]HH`, a separator, `MM` (00–59): seconds east. What follows the minutes is ignored, as dateparser did.
fn numeric(zone: &str, separator: impl Fn(&str) -> &str) -> Option<i32> {
    let sign = match zone.as_bytes().first()? {
        b'+' => 1,
        b'-' => -1,
        _ => return None,
    };
    let two_digits = |s: &str| match s.as_bytes() {
        [a @ b'0'..=b'9', b @ b'0'..=b'9', ..] => Some(i32::from((a - b'0') * 10 + (b - b'0'))),
        _ => None,
    };
    let hours = two_digits(&zone[1..])?;
    let minutes = two_digits(separator(&zone[3..])).filter(|m| *m < 60)?;
    Some(sign * (hours * 3600 + minutes * 60))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn east(zone: &str) -> Option<i32> {
        offset(zone).map(|o| o.local_minus_utc())
    }

    #[test]
    fn offsets_and_names() {
        assert_eq!(east("-0800"), Some(-8 * 3600));
        assert_eq!(east("+10:00"), Some(10 * 3600));
        assert_eq!(east("+08 : 30"), Some(8 * 3600 + 1800));
        assert_eq!(east("PST"), Some(-8 * 3600));
        assert_eq!(east("pdt"), Some(-7 * 3600));
        assert_eq!(east("UTC"), Some(0));
        assert_eq!(east("CET"), Some(0));
        assert_eq!(east("+08001"), Some(8 * 3600));
    }

    #[test]
    fn not_zones() {
        assert_eq!(east("+08"), None); // no minutes
        assert_eq!(east("+0860"), None);
        assert_eq!(east("0800"), None);
        assert_eq!(east("+2500"), None); // dateparser panicked here
    }
}
