//! The records of a CSV text, as the `csv` crate reads them with its defaults (`ReaderBuilder::new()`:
//! `,` between fields, `"` quotes with `""` inside for a quote, `\r`, `\n` or `\r\n` ending a record, no comments,
//! no escapes, a UTF-8 BOM at the start skipped) and `flexible(false)`.
//!
//! Why not the crate itself: it was 16 KB of rerankit/eval's wasm (7 KB gzip) for reading what
//! `EvaluationResult.save` writes. This is csv-core's state machine, byte for byte: the same fields from any
//! text, blank lines skipped, a quote after a field's closing quote or inside an unquoted field kept as text, an
//! unclosed quote running to the end, and a record of another length than the first refused with the crate's
//! message, its record number, line and byte included (they are where the crate's reader stood when the record
//! began: after the previous record's `\r`, before the blank lines). The tests compare the two on random texts.

/// One record: its fields, and where the reader stood when it began (csv's `Position`: line from 1, byte from 0).
pub struct CsvRecord {
    pub fields: Vec<String>,
    pub line: u64,
    pub byte: u64,
}

/// What csv-core's reader is in the middle of (its NFA states, less those it passes through without a byte).
#[derive(Clone, Copy, PartialEq)]
enum State {
    StartRecord,
    StartField,
    InField,
    InQuotedField,
    /// a `"` inside a quoted field: the field's end, or the first of `""`
    QuoteInQuotedField,
    /// the record ended with `\r`: a `\n` next belongs to it
    AfterCr,
}

/// Every record of `text`, the header first.
pub fn csv_records(text: &str) -> Vec<CsvRecord> {
    let bytes = text.as_bytes();
    let mut at = if bytes.starts_with(b"\xef\xbb\xbf") { 3 } else { 0 };
    let mut line = 1;
    let mut state = State::StartRecord;
    let mut records = Vec::new();
    loop {
        let (start_line, start_byte) = (line, at as u64);
        let mut fields = Vec::new();
        let mut field = Vec::new();
        // the record's end: after its terminator byte, or at the end of the text
        let ended = loop {
            let Some(&c) = bytes.get(at) else {
                // csv-core's final transition: a record in progress ends here, and nothing follows
                let open = !matches!(state, State::StartRecord | State::AfterCr);
                state = State::StartRecord;
                break open;
            };
            let terminator = c == b'\r' || c == b'\n';
            let mut consumed = true;
            match state {
                State::StartRecord if terminator => {}
                State::StartRecord => {
                    state = State::StartField;
                    consumed = false;
                }
                State::AfterCr => {
                    state = State::StartRecord;
                    consumed = c == b'\n';
                }
                State::StartField if c == b'"' => state = State::InQuotedField,
                State::InQuotedField if c == b'"' => state = State::QuoteInQuotedField,
                State::InQuotedField => field.push(c),
                State::QuoteInQuotedField if c == b'"' => {
                    field.push(c);
                    state = State::InQuotedField;
                }
                State::StartField | State::InField | State::QuoteInQuotedField if c == b',' => {
                    fields.push(std::mem::take(&mut field));
                    state = State::StartField;
                }
                State::StartField | State::InField | State::QuoteInQuotedField if terminator => {
                    at += 1;
                    line += u64::from(c == b'\n');
                    state = if c == b'\r' { State::AfterCr } else { State::StartRecord };
                    break true;
                }
                State::StartField | State::InField | State::QuoteInQuotedField => {
                    field.push(c);
                    state = State::InField;
                }
            }
            if consumed {
                at += 1;
                line += u64::from(c == b'\n');
            }
        };
        if !ended {
            return records;
        }
        fields.push(field);
        // fields end at ASCII bytes of valid UTF-8, so each is valid UTF-8
        let fields = fields.into_iter().map(|f| String::from_utf8(f).unwrap_or_default()).collect();
        records.push(CsvRecord { fields, line: start_line, byte: start_byte });
    }
}

/// The `csv` crate's message for a record whose length differs from the first record's (`index`: the record's
/// number, the header's 0).
pub fn unequal_lengths(record: &CsvRecord, index: usize, expected: usize) -> String {
    format!(
        "CSV error: record {index} (line: {}, byte: {}): found record with {} fields, but the previous record has {expected} fields",
        record.line,
        record.byte,
        record.fields.len()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The header, the rows before the first bad one, and the error, as the csv crate reads them.
    fn by_crate(text: &str) -> (Vec<Vec<String>>, Option<String>) {
        let mut reader = csv::ReaderBuilder::new().has_headers(true).flexible(false).from_reader(text.as_bytes());
        let mut rows = vec![reader.headers().expect("a &str has no I/O or UTF-8 errors").iter().map(str::to_string).collect()];
        for rec in reader.records() {
            match rec {
                Ok(rec) => rows.push(rec.iter().map(str::to_string).collect()),
                Err(e) => return (rows, Some(e.to_string())),
            }
        }
        (rows, None)
    }

    fn by_us(text: &str) -> (Vec<Vec<String>>, Option<String>) {
        let records = csv_records(text);
        let Some(header) = records.first() else { return (vec![vec![]], None) };
        let mut rows = vec![header.fields.clone()];
        for (i, rec) in records.iter().enumerate().skip(1) {
            if rec.fields.len() != header.fields.len() {
                return (rows, Some(unequal_lengths(rec, i, header.fields.len())));
            }
            rows.push(rec.fields.clone());
        }
        (rows, None)
    }

    #[test]
    fn the_csv_crates_records_and_errors() {
        let pieces = ["a", "bc", ",", "\"", "\"\"", "\r", "\n", "\r\n", "é", " ", "\u{feff}", "1.5"];
        let mut seed = 0x2545_f491_u32;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed as usize
        };
        for n in 0..20_000 {
            let mut text = String::new();
            if n % 7 == 0 {
                text.push('\u{feff}');
            }
            for _ in 0..next() % 24 {
                text.push_str(pieces[next() % pieces.len()]);
            }
            assert!(by_us(&text) == by_crate(&text), "{text:?}: {:?} != {:?}", by_us(&text), by_crate(&text));
        }
        for text in ["", "\n\n", "h1,h2\r\na,b\r\n\r\nc\r\n", "h\n\n\na,b\n", "\"x\"y,z\nq", "\"unclosed,\n"] {
            assert!(by_us(text) == by_crate(text), "{text:?}: {:?} != {:?}", by_us(text), by_crate(text));
        }
    }
}
