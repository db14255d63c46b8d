//! Line splitting shared by the qrels and run parsers: whitespace-separated fields, `#` comment lines and
//! blank lines skipped (trec_eval 10.0 skips a line whose first non-blank character is `#`).

/// Each content line of `text` with its 1-based line number; comment and blank lines are left out.
pub fn content_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split('\n').enumerate().filter_map(|(index, line)| {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            None
        } else {
            Some((index + 1, line))
        }
    })
}

/// Splits `line` on ASCII whitespace into at most `N` leading fields plus the count of all fields.
#[inline]
pub fn leading_fields<const N: usize>(line: &str) -> ([&str; N], usize) {
    let mut fields = [""; N];
    let mut count = 0;
    for field in line.split_ascii_whitespace() {
        if count < N {
            fields[count] = field;
        }
        count += 1;
    }
    (fields, count)
}
