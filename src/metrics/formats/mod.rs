//! The text formats read and written.
//!
//! | module | what |
//! |---|---|
//! | [`trec_text`] | TREC text: qrels `qid iter docno grade`, runs `qid Q0 docno rank score tag`, intent qrels `qid subtopic docno grade`; the line, field, BOM and UTF-8 rules they share |
//! | [`decimal`] | numbers read as `str::parse::<f64>` reads them, with Clinger's fast path for plain decimals (run scores) |
//! | [`ranx_json`] | ranx's in-memory shape as JSON: `{qid: {docno: value}}` |
//! | [`trec_eval_output`] | trec_eval's printed results |
//! | [`ranx_report`] | ranx's `Report` tables of a comparison (text, LaTeX, Markdown, HTML) |

pub mod decimal;
pub mod ranx_json;
pub mod ranx_report;
pub mod trec_eval_output;
pub mod trec_text;
