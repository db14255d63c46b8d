//! TREC text, the one reader of its three formats:
//!
//! | format | line | read into |
//! |---|---|---|
//! | qrels | `qid iter docno grade` (exactly 4 fields) | [`Qrels`] |
//! | run | `qid Q0 docno rank score tag` (6 fields or more; further fields ignored, as trec_eval does) | [`Run`] |
//! | intent qrels | `qid subtopic docno grade` (exactly 4 fields) | [`IntentQrels`] |
//!
//! The rules they share are written once here: a leading byte-order mark is dropped ([`without_bom`], the crate's one rule); lines
//! are split in one pass over the bytes ([`field_lines`]): fields are separated by ASCII whitespace, lines by
//! `\n` (a trailing `\r` is whitespace); blank lines and lines whose first non-blank character is `#` are
//! skipped (trec_eval 10.0's comment lines); a line with the wrong number of fields or a grade that is not an
//! integer is a `PARSE` error naming the format and the line ([`records`], [`grade`]); bytes that are not UTF-8
//! are an error naming the line and byte ([`utf8_text`]).

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

/// The records of `text` in `format`: each content line's 1-based number and its first `N` fields, or the
/// error of a line whose field count is wrong.
fn records<'a, const N: usize>(text: &'a str, format: &'a Format) -> impl Iterator<Item = Result<(usize, [&'a str; N])>> + 'a {
    field_lines::<N>(without_bom(text)).map(move |(line, fields, count)| {
        if count < N || (count > N && !format.further_fields) {
            return Err(Error::parse(
                format!("{} line {line}", format.name),
                format!("expected {N} fields ({}), found {count}", format.columns),
            ));
        }
        Ok((line, fields))
    })
}

/// A grade column: an integer, or the error naming the line.
fn grade(text: &str, format: &Format, line: usize) -> Result<i64> {
    text.parse().map_err(|_| Error::parse(format!("{} line {line}", format.name), format!("grade '{text}' is not an integer")))
}

/// A score column: a finite number, or the error naming the line.
fn score(text: &str, line: usize) -> Result<f64> {
    let problem = |what: &str| Error::parse(format!("{} line {line}", RUN.name), format!("score '{text}' is {what}"));
    let score: f64 = text.parse().map_err(|_| problem("not a number"))?;
    check_score(score).map_err(|_| problem("not finite"))
}

impl Qrels {
    /// Parses TREC qrels text: `qid iter docno grade` per line. Errors name the line.
    pub fn parse(text: &str) -> Result<Qrels> {
        let mut builder = QrelsBuilder::with_capacity(text.len() / 4);
        for record in records::<4>(text, &QRELS) {
            let (line, [qid, _iter, docno, grade_text]) = record?;
            builder.add_at_line(qid, docno, grade(grade_text, &QRELS, line)?, line as u32)?;
        }
        builder.build()
    }
}

impl Run {
    /// Parses TREC run text: `qid Q0 docno rank score tag` per line; the run's name is the last line's tag.
    /// Errors name the line.
    pub fn parse(text: &str, duplicates: DuplicatePolicy) -> Result<Run> {
        let mut builder = RunBuilder::with_capacity(text.len() / 3, duplicates);
        let mut name = "";
        for record in records::<6>(text, &RUN) {
            let (line, [qid, _q0, docno, _rank, score_text, tag]) = record?;
            builder.add_at_line(qid, docno, score(score_text, line)?, line as u32)?;
            name = tag;
        }
        let mut run = builder.build()?;
        run.name = name.to_string();
        Ok(run)
    }
}

impl IntentQrels {
    /// Parses intent-aware qrels text: `qid subtopic docno grade` per line. A (query, subtopic, document)
    /// judged twice is an error naming both lines.
    pub fn parse(text: &str) -> Result<IntentQrels> {
        let mut builder = IntentQrelsBuilder::default();
        for record in records::<4>(text, &INTENT_QRELS) {
            let (line, [qid, subtopic, docno, grade_text]) = record?;
            builder.add_at_line(qid, subtopic, docno, grade(grade_text, &INTENT_QRELS, line)?, line);
        }
        builder.build()
    }
}

/// ASCII whitespace other than the line feed.
#[inline]
fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | 0x0b | 0x0c)
}

/// The content lines of a text, each as its 1-based line number, its first `N` fields and its field count.
pub struct FieldLines<'a, const N: usize> {
    text: &'a str,
    position: usize,
    line: usize,
}

/// Iterates the content lines of `text` with up to `N` leading fields each.
pub fn field_lines<const N: usize>(text: &str) -> FieldLines<'_, N> {
    FieldLines { text, position: 0, line: 0 }
}

impl<'a, const N: usize> Iterator for FieldLines<'a, N> {
    type Item = (usize, [&'a str; N], usize);

    fn next(&mut self) -> Option<Self::Item> {
        let bytes = self.text.as_bytes();
        let len = bytes.len();
        while self.position < len {
            self.line += 1;
            let mut i = self.position;
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
                    fields[count] = &self.text[start..i];
                }
                count += 1;
            }
            self.position = i + 1;
            if count > 0 {
                return Some((self.line, fields, count));
            }
        }
        None
    }
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
    use super::field_lines;

    #[test]
    fn fields_comments_blank_lines_and_line_numbers() {
        let text = "# c\n\na b  c\r\n  # indented\n\td\te f g h\nlast";
        let lines: Vec<_> = field_lines::<3>(text).collect();
        assert_eq!(lines, vec![(3, ["a", "b", "c"], 3), (5, ["d", "e", "f"], 5), (6, ["last", "", ""], 1)]);
        assert_eq!(field_lines::<2>("").count(), 0);
        assert_eq!(field_lines::<2>("x é\n").next(), Some((1, ["x", "é"], 2)));
    }
}
