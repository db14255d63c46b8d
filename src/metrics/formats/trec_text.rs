//! TREC text, the one reader of its three formats:
//!
//! | format | line | read into |
//! |---|---|---|
//! | qrels | `qid iter docno grade` (exactly 4 fields) | [`Qrels`] |
//! | run | `qid Q0 docno rank score tag` (6 fields or more; further fields ignored, as trec_eval does) | [`Run`] |
//! | intent qrels | `qid subtopic docno grade` (exactly 4 fields) | [`IntentQrels`] |
//!
//! The rules they share are written once here: a leading byte-order mark is dropped ([`without_bom`], the crate's one rule); lines
//! are split in one pass over the bytes ([`for_each_field_line`]): fields are separated by ASCII whitespace, lines by
//! `\n` (a trailing `\r` is whitespace); blank lines and lines whose first non-blank character is `#` are
//! skipped (trec_eval 10.0's comment lines); a line with the wrong number of fields or a grade that is not an
//! integer is a `PARSE` error naming the format and the line ([`for_each_record`], [`grade`]); bytes that are not UTF-8
//! are an error naming the line and byte ([`utf8_text`]).

use super::decimal::parse_f64;
use crate::byte_order_mark::without_bom;
use crate::error::{Error, Result};
use crate::metrics::inputs::intent_qrels::{IntentQrels, IntentQrelsBuilder};
use crate::metrics::inputs::qrels::{Qrels, QrelsBuilder};
use crate::metrics::inputs::run::{check_score, DuplicatePolicy, Run, RunBuilder};

/// One of the three formats: its name in errors (`qrels line 3`), its columns, and whether further fields are
/// allowed.
struct Format {
    name: &'static str,
    columns: &'static str,
    further_fields: bool,
}

const QRELS: Format = Format { name: "qrels", columns: "qid iter docno grade", further_fields: false };
const RUN: Format = Format { name: "run", columns: "qid Q0 docno rank score tag", further_fields: true };
const INTENT_QRELS: Format = Format { name: "intent qrels", columns: "qid subtopic docno grade", further_fields: false };

/// Calls `record(line, fields)` for each record of `text` in `format`: each content line's 1-based number and
/// its first `N` fields; stops at the first error, its own or that of a line whose field count is wrong.
fn for_each_record<'a, const N: usize>(
    text: &'a str,
    format: &Format,
    mut record: impl FnMut(usize, &[&'a str; N]) -> Result<()>,
) -> Result<()> {
    for_each_field_line::<N>(without_bom(text), |line, fields, count| {
        if count < N || (count > N && !format.further_fields) {
            return Err(Error::parse(
                format!("{} line {line}", format.name),
                format!("expected {N} fields ({}), found {count}", format.columns),
            ));
        }
        record(line, fields)
    })
}

/// About how many lines `text` has (for reserving room): its first 64 KiB's lines, scaled to its length.
fn estimated_lines(text: &str) -> usize {
    let sample = &text.as_bytes()[..text.len().min(1 << 16)];
    let lines = memchr::memchr_iter(b'\n', sample).count() + 1;
    (text.len() as u64 * lines as u64 / sample.len().max(1) as u64) as usize + 1
}

/// The 1-based line of record `index` (0-based) of `text`, read before without error; 0 if there are fewer records.
/// For an error found after reading (a document listed twice), whose entry knows its record but not its line.
fn record_line<const N: usize>(text: &str, format: &Format, index: usize) -> u32 {
    let (mut records, mut found) = (0, 0);
    let _ = for_each_record::<N>(text, format, |line, _| {
        if records == index {
            found = line as u32;
        }
        records += 1;
        Ok(())
    });
    found
}

/// A grade column: an integer, or the error naming the line.
fn grade(text: &str, format: &Format, line: usize) -> Result<i64> {
    text.parse().map_err(|_| Error::parse(format!("{} line {line}", format.name), format!("grade '{text}' is not an integer")))
}

/// A score column: a finite number, or the error naming the line.
fn score(text: &str, line: usize) -> Result<f64> {
    let problem = |what: &str| Error::parse(format!("{} line {line}", RUN.name), format!("score '{text}' is {what}"));
    let score = parse_f64(text).ok_or_else(|| problem("not a number"))?;
    check_score(score).map_err(|_| problem("not finite"))
}

impl Qrels {
    /// Parses TREC qrels text: `qid iter docno grade` per line. Errors name the line.
    pub fn parse(text: &str) -> Result<Qrels> {
        let mut builder = QrelsBuilder::with_capacity(text.len() / 4, estimated_lines(text));
        for_each_record::<4>(text, &QRELS, |line, &[qid, _iter, docno, grade_text]| {
            builder.add_at_line(qid, docno, grade(grade_text, &QRELS, line)?, line as u32)
        })?;
        builder.build()
    }
}

impl Run {
    /// Parses TREC run text: `qid Q0 docno rank score tag` per line; the run's name is the last line's tag.
    /// Errors name the line.
    pub fn parse(text: &str, duplicates: DuplicatePolicy) -> Result<Run> {
        let mut builder = RunBuilder::with_capacity(text.len() / 3, estimated_lines(text), duplicates);
        let mut name = "";
        for_each_record::<6>(text, &RUN, |line, &[qid, _q0, docno, _rank, score_text, tag]| {
            name = tag;
            builder.add_unchecked(qid, docno, score(score_text, line)?)
        })?;
        // the k-th record added the document at index k
        let mut run = builder.build_naming_lines(|doc| record_line::<6>(text, &RUN, doc as usize))?;
        run.name = name.to_string();
        Ok(run)
    }
}

impl IntentQrels {
    /// Parses intent-aware qrels text: `qid subtopic docno grade` per line. A (query, subtopic, document)
    /// judged twice is an error naming both lines.
    pub fn parse(text: &str) -> Result<IntentQrels> {
        let mut builder = IntentQrelsBuilder::default();
        for_each_record::<4>(text, &INTENT_QRELS, |line, &[qid, subtopic, docno, grade_text]| {
            builder.add_at_line(qid, subtopic, docno, grade(grade_text, &INTENT_QRELS, line)?, line);
            Ok(())
        })?;
        builder.build()
    }
}

/// ASCII whitespace other than the line feed.
#[inline]
fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | 0x0b | 0x0c)
}

/// Calls `each(line, fields, count)` for each content line of `text`: its 1-based number, its first `N` fields
/// (`""` past the last) and its field count; stops at the first error `each` returns. A callback rather than an
/// iterator: the fields stay in the parse loop's registers instead of being copied out per line (those copies
/// were half the splitter's samples in a profile of a 10M-line run).
pub fn for_each_field_line<'a, const N: usize>(
    text: &'a str,
    mut each: impl FnMut(usize, &[&'a str; N], usize) -> Result<()>,
) -> Result<()> {
    let bytes = text.as_bytes();
    let len = bytes.len();
    let mut position = 0;
    let mut line = 0;
    while position < len {
        line += 1;
        let mut i = position;
        let mut fields = [""; N];
        let mut count = 0;
        loop {
            while i < len && is_blank(bytes[i]) {
                i += 1;
            }
            if i >= len || bytes[i] == b'\n' {
                break;
            }
            if count == 0 && bytes[i] == b'#' {
                while i < len && bytes[i] != b'\n' {
                    i += 1;
                }
                break;
            }
            let start = i;
            while i < len && bytes[i] != b'\n' && !is_blank(bytes[i]) {
                i += 1;
            }
            if count < N {
                // Both ends lie next to ASCII bytes (or the text's ends), so they are char boundaries.
                fields[count] = &text[start..i];
            }
            count += 1;
        }
        position = i + 1;
        if count > 0 {
            each(line, &fields, count)?;
        }
    }
    Ok(())
}

/// `bytes` as UTF-8 text, or a `PARSE` error naming `field`, the line and the byte within it (trec_eval's files
/// are ASCII or UTF-8; a Latin-1 file fails at its first accented letter).
pub fn utf8_text<'a>(field: &str, bytes: &'a [u8]) -> Result<&'a str> {
    std::str::from_utf8(bytes).map_err(|e| {
        let valid = &bytes[..e.valid_up_to()];
        let line = valid.iter().filter(|&&b| b == b'\n').count() + 1;
        let column = valid.len() - valid.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1) + 1;
        Error::parse(
            format!("{field} line {line}"),
            format!("byte {column} is not UTF-8 (a Latin-1 file? convert it: iconv -f latin1 -t utf8)"),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::for_each_field_line;

    fn field_lines<const N: usize>(text: &str) -> Vec<(usize, [&str; N], usize)> {
        let mut lines = Vec::new();
        for_each_field_line::<N>(text, |line, fields, count| {
            lines.push((line, *fields, count));
            Ok(())
        })
        .unwrap();
        lines
    }

    #[test]
    fn fields_comments_blank_lines_and_line_numbers() {
        let text = "# c\n\na b  c\r\n  # indented\n\td\te f g h\nlast";
        assert_eq!(field_lines::<3>(text), vec![(3, ["a", "b", "c"], 3), (5, ["d", "e", "f"], 5), (6, ["last", "", ""], 1)]);
        assert_eq!(field_lines::<2>(""), vec![]);
        assert_eq!(field_lines::<2>("x é\n"), vec![(1, ["x", "é"], 2)]);
    }
}
