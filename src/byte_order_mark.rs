//! The one rule for a leading UTF-8 byte-order mark in text a user hands in (TREC qrels, runs and intent qrels;
//! graphrag-eval's reference datasets and responses): it is dropped. Editors on Windows write one; trec_eval would
//! read it as part of the first qid (and then refuse the file or misjudge the query), and JSON and YAML parsers
//! refuse it. No qid, JSON or YAML document starts with U+FEFF.

/// The text without its leading byte-order mark, if it has one.
pub fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}
