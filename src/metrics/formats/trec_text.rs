//! Line and field splitting shared by the qrels and run parsers, in one pass over the bytes: fields are
//! separated by ASCII whitespace, lines by `\n` (a trailing `\r` is whitespace); blank lines and lines whose
//! first non-blank character is `#` are skipped (trec_eval 10.0's comment lines).

/// The text without a leading UTF-8 byte-order mark (qrels, runs and intent qrels alike). trec_eval would read the
/// mark as part of the first qid (and then refuse the file or misjudge the query); editors on Windows write one, and
/// no qid starts with U+FEFF.
pub(crate) fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
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

/// `bytes` as UTF-8 text, or a `PARSE` error naming `field`, the line and the byte within it (trec_eval's files
/// are ASCII or UTF-8; a Latin-1 file fails at its first accented letter).
pub fn utf8_text<'a>(field: &str, bytes: &'a [u8]) -> crate::error::Result<&'a str> {
    std::str::from_utf8(bytes).map_err(|e| {
        let valid = &bytes[..e.valid_up_to()];
        let line = valid.iter().filter(|&&b| b == b'\n').count() + 1;
        let column = valid.len() - valid.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1) + 1;
        crate::error::Error::parse(
            format!("{field} line {line}"),
            format!("byte {column} is not UTF-8 (a Latin-1 file? convert it: iconv -f latin1 -t utf8)"),
        )
    })
}
