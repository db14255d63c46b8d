//! The lenient date reading (src/rankers/lenient_date.rs) over every date form it documents, their near misses and
//! junk (tests/fixtures/dates/lenient_dates.json, inputs from tests/fixtures/gen/make_lenient_dates.py). The expected
//! values were recorded from the implementation that called the `dateparser` crate (e66e09e), so that our own
//! reading of its forms (src/rankers/lenient_date/forms.rs) is held to the same answer on each. Before dateparser
//! was removed, the two also agreed on the generator's `--full` list (48,867 strings) and on 3 × 1,000,000 seeded
//! random strings of date pieces (digits, separators, month and zone names, `am`/`pm`, CJK date marks, spaces).

use rerankit::rankers::lenient_date::{read_date_text, read_date_text_at, DateReading};
use chrono::DateTime;
use serde_json::Value;
use std::path::PathBuf;

fn fixture_path() -> PathBuf {
    match std::env::var_os("LENIENT_DATES") {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/dates/lenient_dates.json"),
    }
}

fn as_text(reading: DateReading) -> Value {
    match reading {
        DateReading::Instant(nanos) => Value::String(nanos.to_string()),
        DateReading::Unparsable => Value::Null,
    }
}

/// Fills `expected` (and `now`, the recording instant in epoch seconds: a few forms read today's date or year) from
/// the current implementation: `cargo test --test rankers -- --ignored record_lenient_dates`
/// (`LENIENT_DATES=FILE` records another list, e.g. the generator's `--full` one).
#[test]
#[ignore]
fn record_lenient_dates() {
    let path = fixture_path();
    let fixture: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
    let mut lines = Vec::new();
    // dateparser panicked on a zone offset of 24 hours or more (chrono's FixedOffset::east): recorded as "panicked"
    std::panic::set_hook(Box::new(|_| {}));
    for case in fixture["cases"].as_array().unwrap() {
        let input = case[0].as_str().unwrap();
        let expected = std::panic::catch_unwind(|| as_text(read_date_text(input))).unwrap_or_else(|_| Value::from("panicked"));
        let row = Value::Array(vec![case[0].clone(), expected, case[2].clone()]);
        lines.push(serde_json::to_string(&row).unwrap());
    }
    let text = format!("{{\"now\": {now},\n\"cases\": [\n{}\n]}}\n", lines.join(",\n"));
    std::fs::write(&path, text).unwrap();
}

/// Every case reads as recorded, with the recording's clock. Where dateparser panicked (a zone offset of 24 hours or
/// more) the date is unparsable.
#[test]
fn lenient_dates_read_as_dateparser_read_them() {
    let fixture: Value = serde_json::from_str(&std::fs::read_to_string(fixture_path()).unwrap()).unwrap();
    let now = DateTime::from_timestamp(fixture["now"].as_i64().expect("a recorded fixture"), 0).unwrap();
    let mut wrong = Vec::new();
    let cases = fixture["cases"].as_array().unwrap();
    for case in cases {
        let input = case[0].as_str().unwrap();
        let expected = if case[1] == "panicked" { Value::Null } else { case[1].clone() };
        let got = as_text(read_date_text_at(input, || now));
        if got != expected {
            wrong.push(format!("{input:?}: {got} (expected {expected})"));
        }
    }
    assert!(wrong.is_empty(), "{} of {} cases differ:\n{}", wrong.len(), cases.len(), wrong.join("\n"));
}
