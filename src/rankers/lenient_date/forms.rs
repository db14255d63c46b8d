//! The lenient date forms, in the order and with the exact reading of the `dateparser` crate (0.3.1), which
//! rerankit called until it replaced it by this (its regex engine was most of `rerankit/eval`'s size): each form is
//! a shape (the regex that gated it, [`super::shape`]) and the chrono formats that then read it. The first form
//! whose shape fits and whose formats read the text gives the instant; a form with a zone whose zone is no zone
//! ends the search (unparsable), as dateparser's did.
//!
//! Dates without a zone are UTC and dates without a time midnight (how rerankit called dateparser). Three forms
//! need today: a time alone is today's (`4:00pm`, in its zone's day if it has one), `May 27 02:45:27` is this
//! year's, and `2014.03` is this day of that month. The tests of tests/rankers/lenient_dates.rs hold every form to
//! the answers dateparser gave (tests/fixtures/dates/lenient_dates.json).

use super::shape::{contains, whole, Part, Part::*};
use super::zone;
use chrono::{DateTime, Datelike, FixedOffset, NaiveDate, NaiveDateTime, NaiveTime, TimeZone, Utc};

/// How a form's formats read the text.
#[derive(Clone, Copy)]
enum Reading {
    /// A date and time whose formats include the offset (`%#z`).
    WithOffset,
    /// A date and time in UTC.
    DateTime,
    /// A date at midnight UTC.
    Date,
    /// A date and time in the captured zone.
    DateTimeInZone,
    /// A date at midnight in the captured zone.
    DateInZone,
    /// A time today (UTC).
    TimeToday,
    /// A time today in the captured zone.
    TimeTodayInZone,
}

/// How a form rewrites the text before its formats read it.
#[derive(Clone, Copy)]
enum Rewrite {
    None,
    /// `, ` and `. ` become spaces (`May 8, 2009`, `oct. 7, 70`).
    CommaAndDotSpaces,
    /// `, ` becomes a space (`12 Feb 2006, 19:17`).
    CommaSpace,
    /// Every `,` and every `at` go (`May 26, 2021, 12:49 AM PDT`, `September 17, 2012 at 10:09am PST`).
    NoCommasNoAt,
    /// This year goes before (`May 27 02:45:27`).
    ThisYearFirst,
}

struct Form {
    shape: &'static [Part],
    rewrite: Rewrite,
    reading: Reading,
    formats: &'static [&'static str],
}

const SECONDS: Part = Maybe(&[Char(':'), Digits(2, 2)]);
const FRACTION: Part = Maybe(&[Char('.'), Digits(1, 9)]);
const MONTH_NAME: Part = Letters(3, 9);

/// `H:M:S`, `H:M`, `H:M:S.f`, `I:M:S pm`, `I:M pm` after `date` (dateparser's five time formats).
macro_rules! five_times {
    ($date:literal) => {
        &[
            concat!($date, " %H:%M:%S"),
            concat!($date, " %H:%M"),
            concat!($date, " %H:%M:%S%.f"),
            concat!($date, " %I:%M:%S %P"),
            concat!($date, " %I:%M %P"),
        ]
    };
}

/// dateparser's forms in its order (its `Parse::parse`, families flattened: each form's shape implies its family's).
const FORMS: &[Form] = &[
    // postgres: 2019-11-29 08:08:05-08, 2017-07-19 03:21:51+00:00
    Form {
        shape: &[Digits(4, 4), Char('-'), Digits(2, 2), Char('-'), Digits(2, 2), Spaces(1), Digits(2, 2), Char(':'), Digits(2, 2), SECONDS, FRACTION, OffsetChars(3, 6)],
        rewrite: Rewrite::None,
        reading: Reading::WithOffset,
        formats: &["%Y-%m-%d %H:%M:%S%#z", "%Y-%m-%d %H:%M:%S%.f%#z", "%Y-%m-%d %H:%M%#z"],
    },
    // 2021-04-30 21:14:10.052282, 2014-04-26 05:24:37 PM
    Form {
        shape: &[Digits(4, 4), Char('-'), Digits(2, 2), Char('-'), Digits(2, 2), Spaces(1), Digits(2, 2), Char(':'), Digits(2, 2), SECONDS, FRACTION, Spaces(0), MaybeAmPm],
        rewrite: Rewrite::None,
        reading: Reading::DateTime,
        formats: &["%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%d %H:%M:%S%.f", "%Y-%m-%d %I:%M:%S %P", "%Y-%m-%d %I:%M %P"],
    },
    // 2017-11-25 13:31:15 PST, 2014-04-26 13:13:44 +09:00
    Form {
        shape: &[Digits(4, 4), Char('-'), Digits(2, 2), Char('-'), Digits(2, 2), Spaces(1), Digits(2, 2), Char(':'), Digits(2, 2), SECONDS, FRACTION, Zone(0)],
        rewrite: Rewrite::None,
        reading: Reading::DateTimeInZone,
        formats: &["%Y-%m-%d %H:%M:%S %Z", "%Y-%m-%d %H:%M %Z", "%Y-%m-%d %H:%M:%S%.f %Z"],
    },
    // 2021-02-21
    Form {
        shape: &[Digits(4, 4), Char('-'), Digits(2, 2), Char('-'), Digits(2, 2)],
        rewrite: Rewrite::None,
        reading: Reading::Date,
        formats: &["%Y-%m-%d"],
    },
    // 2021-02-21 PST, 2020-07-20+08:00
    Form {
        shape: &[Digits(4, 4), Char('-'), Digits(2, 2), Char('-'), Digits(2, 2), Zone(0)],
        rewrite: Rewrite::None,
        reading: Reading::DateInZone,
        formats: &["%Y-%m-%d %Z"],
    },
    // 01:06:06, 4:00pm, 6:00 AM
    Form {
        shape: &[Digits(1, 2), Char(':'), Digits(2, 2), SECONDS, Spaces(0), MaybeAmPm],
        rewrite: Rewrite::None,
        reading: Reading::TimeToday,
        formats: &["%H:%M:%S", "%H:%M", "%I:%M:%S %P", "%I:%M %P"],
    },
    // 01:06:06 PST, 6:00 AM PST
    Form {
        shape: &[Digits(1, 2), Char(':'), Digits(2, 2), SECONDS, Spaces(0), MaybeAmPm, Zone(1)],
        rewrite: Rewrite::None,
        reading: Reading::TimeTodayInZone,
        formats: &["%H:%M:%S %Z", "%H:%M %Z", "%I:%M:%S %P %Z", "%I:%M %P %Z"],
    },
    // 2021-Feb-21
    Form {
        shape: &[Digits(4, 4), Char('-'), MONTH_NAME, Char('-'), Digits(2, 2)],
        rewrite: Rewrite::None,
        reading: Reading::Date,
        formats: &["%Y-%m-%d", "%Y-%b-%d"],
    },
    // May 6 at 9:24 PM, May 27 02:45:27 (this year)
    Form {
        shape: &[Letters(3, 3), Spaces(1), Digits(1, 2), Spaces(0), Maybe(&[Char('a'), Char('t')]), Spaces(1), Digits(1, 2), Char(':'), Digits(2, 2), SECONDS, Spaces(0), MaybeAmPm],
        rewrite: Rewrite::ThisYearFirst,
        reading: Reading::DateTime,
        formats: &["%Y %b %d at %I:%M %P", "%Y %b %d %H:%M:%S"],
    },
    // May 8, 2009 5:57:51 PM, September 17, 2012, 10:10:09
    Form {
        shape: &[MONTH_NAME, MaybeChar('.'), Spaces(1), Digits(1, 2), Char(','), Spaces(1), Digits(2, 4), MaybeChar(','), Spaces(1), Digits(1, 2), Char(':'), Digits(2, 2), SECONDS, Spaces(0), MaybeAmPm],
        rewrite: Rewrite::CommaAndDotSpaces,
        reading: Reading::DateTime,
        formats: &["%B %d %Y %H:%M:%S", "%B %d %Y %H:%M", "%B %d %Y %I:%M:%S %P", "%B %d %Y %I:%M %P"],
    },
    // May 02, 2021 15:51:31 UTC, May 26, 2021, 12:49 AM PDT, September 17, 2012 at 10:09am PST
    Form {
        shape: &[MONTH_NAME, Spaces(1), Digits(1, 2), MaybeChar(','), Spaces(1), Digits(4, 4), Spaces(0), MaybeChar(','), Maybe(&[Char('a'), Char('t')]), Spaces(1), Digits(2, 2), Char(':'), Digits(2, 2), SECONDS, Spaces(0), MaybeAmPm, Zone(1)],
        rewrite: Rewrite::NoCommasNoAt,
        reading: Reading::DateTimeInZone,
        formats: &["%B %d %Y %H:%M:%S %Z", "%B %d %Y %H:%M %Z", "%B %d %Y %I:%M:%S %P %Z", "%B %d %Y %I:%M %P %Z"],
    },
    // May 25, 2021, oct. 7, 70
    Form {
        shape: &[MONTH_NAME, MaybeChar('.'), Spaces(1), Digits(1, 2), Char(','), Spaces(1), Digits(2, 4)],
        rewrite: Rewrite::CommaAndDotSpaces,
        reading: Reading::Date,
        formats: &["%B %d %y", "%B %d %Y"],
    },
    // 12 Feb 2006, 19:17, 14 May 2019 19:11:40.164
    Form {
        shape: &[Digits(1, 2), Spaces(1), MONTH_NAME, Spaces(1), Digits(2, 4), MaybeChar(','), Spaces(1), Digits(1, 2), Char(':'), Digits(2, 2), SECONDS, FRACTION],
        rewrite: Rewrite::CommaSpace,
        reading: Reading::DateTime,
        formats: five_times!("%d %B %Y"),
    },
    // 7 oct 70, 03 February 2013
    Form {
        shape: &[Digits(1, 2), Spaces(1), MONTH_NAME, Spaces(1), Digits(2, 4)],
        rewrite: Rewrite::None,
        reading: Reading::Date,
        formats: &["%d %B %y", "%d %B %Y"],
    },
    // 4/8/14 22:05, 8/8/1965 01:00:01 PM
    Form {
        shape: &[Digits(1, 2), Char('/'), Digits(1, 2), Char('/'), Digits(2, 4), Spaces(1), Digits(1, 2), Char(':'), Digits(2, 2), SECONDS, FRACTION, Spaces(0), MaybeAmPm],
        rewrite: Rewrite::None,
        reading: Reading::DateTime,
        formats: &[
            "%m/%d/%y %H:%M:%S", "%m/%d/%y %H:%M", "%m/%d/%y %H:%M:%S%.f", "%m/%d/%y %I:%M:%S %P", "%m/%d/%y %I:%M %P",
            "%m/%d/%Y %H:%M:%S", "%m/%d/%Y %H:%M", "%m/%d/%Y %H:%M:%S%.f", "%m/%d/%Y %I:%M:%S %P", "%m/%d/%Y %I:%M %P",
        ],
    },
    // 3/31/2014, 08/21/71
    Form {
        shape: &[Digits(1, 2), Char('/'), Digits(1, 2), Char('/'), Digits(2, 4)],
        rewrite: Rewrite::None,
        reading: Reading::Date,
        formats: &["%m/%d/%y", "%m/%d/%Y"],
    },
    // 4-8-14 22:05, 8-8-1965 01:00:01 PM
    Form {
        shape: &[Digits(1, 2), Char('-'), Digits(1, 2), Char('-'), Digits(2, 4), Spaces(1), Digits(1, 2), Char(':'), Digits(2, 2), SECONDS, FRACTION, Spaces(0), MaybeAmPm],
        rewrite: Rewrite::None,
        reading: Reading::DateTime,
        formats: &[
            "%m-%d-%y %H:%M:%S", "%m-%d-%y %H:%M", "%m-%d-%y %H:%M:%S%.f", "%m-%d-%y %I:%M:%S %P", "%m-%d-%y %I:%M %P",
            "%m-%d-%Y %H:%M:%S", "%m-%d-%Y %H:%M", "%m-%d-%Y %H:%M:%S%.f", "%m-%d-%Y %I:%M:%S %P", "%m-%d-%Y %I:%M %P",
        ],
    },
    // 3-31-2014, 08-21-71
    Form {
        shape: &[Digits(1, 2), Char('-'), Digits(1, 2), Char('-'), Digits(2, 4)],
        rewrite: Rewrite::None,
        reading: Reading::Date,
        formats: &["%m-%d-%y", "%m-%d-%Y"],
    },
    // 2014/04/08 22:05, 2012/03/19 10:11:59.3186369
    Form {
        shape: &[Digits(4, 4), Char('/'), Digits(1, 2), Char('/'), Digits(1, 2), Spaces(1), Digits(1, 2), Char(':'), Digits(2, 2), SECONDS, FRACTION, Spaces(0), MaybeAmPm],
        rewrite: Rewrite::None,
        reading: Reading::DateTime,
        formats: five_times!("%Y/%m/%d"),
    },
    // 2014/3/31
    Form {
        shape: &[Digits(4, 4), Char('/'), Digits(1, 2), Char('/'), Digits(1, 2)],
        rewrite: Rewrite::None,
        reading: Reading::Date,
        formats: &["%Y/%m/%d"],
    },
];

/// `3.31.2014`, `2014.03.30`, `2014.03` (today's day of that month): dateparser searched for this shape anywhere.
const DOTTED: &[Part] = &[Digits(1, 4), Any, Digits(1, 4), Digits(1, 4)];
/// `171113 14:14:20` (MySQL's log): searched for anywhere too.
const MYSQL_LOG: &[Part] = &[Digits(6, 6), Spaces(1), Digits(2, 2), Char(':'), Digits(2, 2), Char(':'), Digits(2, 2)];

/// `2014年04月08日11时25分18秒`, `2014年04月08日`: the last forms.
const CHINESE: &[Form] = &[
    Form {
        shape: &[Digits(4, 4), Char('年'), Digits(2, 2), Char('月'), Digits(2, 2), Char('日'), Digits(2, 2), Char('时'), Digits(2, 2), Char('分'), Digits(2, 2), Char('秒')],
        rewrite: Rewrite::None,
        reading: Reading::DateTime,
        formats: &["%Y年%m月%d日%H时%M分%S秒"],
    },
    Form {
        shape: &[Digits(4, 4), Char('年'), Digits(2, 2), Char('月'), Digits(2, 2), Char('日')],
        rewrite: Rewrite::None,
        reading: Reading::Date,
        formats: &["%Y年%m月%d日"],
    },
];

/// What a form made of the text: no fit (try the next form), an instant, or the end (a zone that is no zone).
enum Outcome {
    NoFit,
    Instant(DateTime<Utc>),
    Unparsable,
}

/// Reads `text` (already trimmed, and neither epoch seconds nor RFC 3339: the caller tried those) by the first form
/// that fits; `now` is the instant the three today-relative forms read today from.
pub fn read(text: &str, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
    // dateparser tried ten to nineteen digits as epoch seconds, milliseconds or nanoseconds first; the caller reads
    // every run of digits as epoch seconds before this, so that form never comes here.
    if let Ok(dt) = DateTime::parse_from_rfc2822(text) {
        return Some(dt.with_timezone(&Utc));
    }
    for form in FORMS {
        match form.read(text, now) {
            Outcome::NoFit => continue,
            Outcome::Instant(dt) => return Some(dt),
            Outcome::Unparsable => return None,
        }
    }
    if contains(text, DOTTED) {
        let date = ["%m.%d.%y", "%m.%d.%Y", "%Y.%m.%d"]
            .iter()
            .find_map(|f| NaiveDate::parse_from_str(text, f).ok())
            .or_else(|| NaiveDate::parse_from_str(&format!("{text}.{}", now.day()), "%Y.%m.%d").ok());
        if let Some(date) = date {
            return Some(date.and_time(NaiveTime::MIN).and_utc());
        }
    }
    if contains(text, MYSQL_LOG) {
        if let Some(dt) = date_time_utc(text, "%y%m%d %H:%M:%S") {
            return Some(dt);
        }
    }
    CHINESE.iter().find_map(|form| match form.read(text, now) {
        Outcome::Instant(dt) => Some(dt),
        Outcome::NoFit | Outcome::Unparsable => None,
    })
}

impl Form {
    fn read(&self, text: &str, now: DateTime<Utc>) -> Outcome {
        let Some(zone_text) = whole(text, self.shape) else {
            return Outcome::NoFit;
        };
        let rewritten = match self.rewrite {
            Rewrite::None => text.to_string(),
            Rewrite::CommaAndDotSpaces => text.replace(", ", " ").replace(". ", " "),
            Rewrite::CommaSpace => text.replace(", ", " "),
            Rewrite::NoCommasNoAt => text.replace(',', "").replace("at", ""),
            Rewrite::ThisYearFirst => format!("{} {text}", now.year()),
        };
        let text = rewritten.as_str();
        let zoned = matches!(self.reading, Reading::DateTimeInZone | Reading::DateInZone | Reading::TimeTodayInZone);
        let offset = if zoned {
            match zone::offset(zone_text) {
                Some(offset) => offset,
                None => return Outcome::Unparsable,
            }
        } else {
            FixedOffset::east_opt(0).expect("zero is an offset")
        };
        let first = |read: &dyn Fn(&str) -> Option<DateTime<Utc>>| self.formats.iter().find_map(|f| read(f));
        let found = match self.reading {
            Reading::WithOffset => first(&|f| DateTime::parse_from_str(text, f).ok().map(|dt| dt.with_timezone(&Utc))),
            Reading::DateTime => first(&|f| date_time_utc(text, f)),
            Reading::Date => first(&|f| NaiveDate::parse_from_str(text, f).ok().map(|d| d.and_time(NaiveTime::MIN).and_utc())),
            Reading::DateTimeInZone => first(&|f| NaiveDateTime::parse_from_str(text, f).ok().and_then(|dt| in_zone(offset, dt))),
            Reading::DateInZone => {
                first(&|f| NaiveDate::parse_from_str(text, f).ok().and_then(|d| in_zone(offset, d.and_time(NaiveTime::MIN))))
            }
            Reading::TimeToday => first(&|f| NaiveTime::parse_from_str(text, f).ok().map(|t| now.date_naive().and_time(t).and_utc())),
            Reading::TimeTodayInZone => {
                let today = now.with_timezone(&offset).date_naive();
                first(&|f| NaiveTime::parse_from_str(text, f).ok().and_then(|t| in_zone(offset, today.and_time(t))))
            }
        };
        match found {
            Some(dt) => Outcome::Instant(dt),
            None => Outcome::NoFit,
        }
    }
}

/// chrono's reading of a date and time into UTC as dateparser called it (`TimeZone::datetime_from_str`, which
/// differs from `NaiveDateTime::parse_from_str` in nothing these formats use; kept for exactness).
#[allow(deprecated)]
fn date_time_utc(text: &str, format: &str) -> Option<DateTime<Utc>> {
    Utc.datetime_from_str(text, format).ok()
}

fn in_zone(offset: FixedOffset, local: NaiveDateTime) -> Option<DateTime<Utc>> {
    offset.from_local_datetime(&local).single().map(|dt| dt.with_timezone(&Utc))
}
