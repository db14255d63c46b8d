//! The shapes a date string must have before a form reads it: the handful of regular-expression pieces that the
//! `dateparser` crate's gates used (`[0-9]{4}`, `\s+`, `(:[0-9]{2})?`, a captured zone at the end…), matched by a
//! small backtracking walk instead of a regex engine (whose Unicode tables were most of `rerankit/eval`'s size).
//!
//! Every shape is anchored at both ends, as the gates were, unless searched for with [`contains`]. Optional parts
//! are tried present first and counted runs longest first, so the zone a shape captures is the one the regex
//! (leftmost-first, greedy) captured.

/// One piece of a shape.
#[derive(Debug, Clone, Copy)]
pub enum Part {
    /// `[0-9]{min,max}`
    Digits(usize, usize),
    /// `[a-zA-Z]{min,max}`
    Letters(usize, usize),
    /// A literal character.
    Char(char),
    /// `c?`
    MaybeChar(char),
    /// `\s*` (0) or `\s+` (1): Unicode white space, as `\s` and `str::trim` read it.
    Spaces(usize),
    /// An optional group `(…)?` of the pieces above.
    Maybe(&'static [Part]),
    /// `(am|pm|AM|PM)?`
    MaybeAmPm,
    /// `[+-:]{min,max}`: the characters `+ , - . / 0-9 :` (the regex range `+-:`), a numeric zone offset.
    OffsetChars(usize, usize),
    /// `(?<tz>\s*[+-:a-zA-Z0-9]{3,6})` with `\s*` (0) or `\s+` (1): the zone, captured (always the last piece).
    Zone(usize),
    /// `.`: any character but a line feed.
    Any,
}

/// Whether the whole of `text` has the shape; `Some(zone)` (trimmed, empty when the shape has no zone) if so.
pub fn whole<'t>(text: &'t str, shape: &[Part]) -> Option<&'t str> {
    let mut zone = (0, 0);
    walk(text, 0, shape, &[], true, &mut zone).then(|| text[zone.0..zone.1].trim())
}

/// Whether some part of `text` has the shape (an unanchored search).
pub fn contains(text: &str, shape: &[Part]) -> bool {
    text.char_indices().any(|(at, _)| walk(text, at, shape, &[], false, &mut (0, 0)))
}

/// Matches `first` then `then` from byte `at`; groups are never nested, so `then` is only used inside a group.
fn walk(text: &str, at: usize, first: &[Part], then: &[Part], anchored: bool, zone: &mut (usize, usize)) -> bool {
    let Some((part, rest)) = first.split_first() else {
        return if then.is_empty() { !anchored || at == text.len() } else { walk(text, at, then, &[], anchored, zone) };
    };
    let next = |end: usize, zone: &mut (usize, usize)| walk(text, end, rest, then, anchored, zone);
    let tail = &text[at..];
    match *part {
        Part::Digits(min, max) => run(tail, at, min, max, |c| c.is_ascii_digit(), |end| next(end, zone)),
        Part::Letters(min, max) => run(tail, at, min, max, |c| c.is_ascii_alphabetic(), |end| next(end, zone)),
        Part::OffsetChars(min, max) => run(tail, at, min, max, is_offset_char, |end| next(end, zone)),
        Part::Spaces(min) => run(tail, at, min, usize::MAX, char::is_whitespace, |end| next(end, zone)),
        Part::Char(c) => tail.starts_with(c) && next(at + c.len_utf8(), zone),
        Part::MaybeChar(c) => (tail.starts_with(c) && next(at + c.len_utf8(), zone)) || next(at, zone),
        Part::Any => tail.chars().next().is_some_and(|c| c != '\n') && next(at + tail.chars().next().map_or(0, char::len_utf8), zone),
        Part::Maybe(group) => {
            debug_assert!(then.is_empty(), "groups are not nested");
            walk(text, at, group, rest, anchored, zone) || next(at, zone)
        }
        Part::MaybeAmPm => {
            let am_pm = ["am", "pm", "AM", "PM"].iter().any(|m| tail.starts_with(m));
            (am_pm && next(at + 2, zone)) || next(at, zone)
        }
        Part::Zone(min_spaces) => run(tail, at, min_spaces, usize::MAX, char::is_whitespace, |start| {
            run(&text[start..], start, 3, 6, |c| c.is_ascii_alphabetic() || is_offset_char(c), |end| {
                *zone = (at, end);
                next(end, zone)
            })
        }),
    }
}

/// A greedy counted run of characters in a class: tries `then` at each end from the longest run to `min`.
fn run(tail: &str, at: usize, min: usize, max: usize, class: impl Fn(char) -> bool, mut then: impl FnMut(usize) -> bool) -> bool {
    let ends: Vec<usize> = std::iter::once(0)
        .chain(tail.char_indices().take_while(|&(_, c)| class(c)).map(|(i, c)| i + c.len_utf8()))
        .take(max.saturating_add(1))
        .collect();
    ends.iter().enumerate().rev().take_while(|&(count, _)| count >= min).any(|(_, &end)| then(at + end))
}

/// The regex range `+-:` (U+002B…U+003A): `+ , - . / 0-9 :`.
fn is_offset_char(c: char) -> bool {
    ('+'..=':').contains(&c)
}

#[cfg(test)]
mod tests {
    use super::Part::*;
    use super::*;

    #[test]
    fn greedy_optional_parts_leave_the_zone_what_the_regex_left_it() {
        let shape = [Digits(2, 2), Char(':'), Digits(2, 2), Maybe(&[Char(':'), Digits(2, 2)]), Zone(0)];
        assert_eq!(whole("10:00:00 PST", &shape), Some("PST"));
        // the seconds are given up so that the zone has its three characters
        assert_eq!(whole("10:00:00", &shape), Some(":00"));
        assert_eq!(whole("10:00", &shape), None);
    }

    #[test]
    fn searches_are_unanchored() {
        let shape = [Digits(1, 4), Any, Digits(1, 4), Digits(1, 4)];
        assert!(contains("v1.23", &shape));
        assert!(!contains("1.2", &shape));
        assert!(!contains("1\n23", &shape));
    }
}
