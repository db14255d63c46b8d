//! Query-major columns (src/metrics/inputs/columns.rs) against the two other ways to give the same data: TREC text
//! and entry-by-entry triples (what the nested `{qid: {docno: value}}` shape becomes). Every value of every measure
//! must be the same bits, in each dialect, whatever the row layout (a shared document table, one id per row, a
//! query split in two blocks); and bad columns are `INVALID_ARGUMENT` naming the field.

use rerankit::metrics::inputs::columns::{Columns, DocIdTable, QrelsColumns, RunColumns};
use rerankit::metrics::{evaluate, Dialect, DuplicatePolicy, EvaluateOptions, Evaluation, Qrels, QueryScope, Run, TiePolicy};
use rerankit::ErrorCode;

use super::dialects::read;

/// `(qid, docno, value)` rows of a TREC file: the grade column of qrels, the score column of a run.
fn rows(text: &str, value_column: usize) -> Vec<(String, String, String)> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f[0].to_string(), f[2].to_string(), f[value_column].to_string())
        })
        .collect()
}

/// Owned columns: consecutive rows of one query form a block, document ids go in a table (each once) or one per row.
struct Owned<V> {
    query_ids: Vec<String>,
    offsets: Vec<u32>,
    doc_ids: Vec<String>,
    docs: Option<Vec<u32>>,
    values: Vec<V>,
}

impl<V: Copy> Owned<V> {
    fn new(rows: &[(String, String, V)], shared_table: bool) -> Owned<V> {
        let mut out = Owned { query_ids: Vec::new(), offsets: vec![0], doc_ids: Vec::new(), docs: shared_table.then(Vec::new), values: Vec::new() };
        let mut table = std::collections::HashMap::new();
        for (i, (qid, docno, value)) in rows.iter().enumerate() {
            if i == 0 || rows[i - 1].0 != *qid {
                if i > 0 {
                    out.offsets.push(i as u32);
                }
                out.query_ids.push(qid.clone());
            }
            match &mut out.docs {
                Some(docs) => {
                    let next = table.len() as u32;
                    let index = *table.entry(docno.clone()).or_insert_with(|| {
                        out.doc_ids.push(docno.clone());
                        next
                    });
                    docs.push(index);
                }
                None => out.doc_ids.push(docno.clone()),
            }
            out.values.push(*value);
        }
        out.offsets.push(rows.len() as u32);
        if rows.is_empty() {
            out.offsets = vec![0];
        }
        out
    }

    fn with<T>(&self, f: impl FnOnce(Columns<V>) -> T) -> T {
        let doc_ids: Vec<&str> = self.doc_ids.iter().map(String::as_str).collect();
        // the table both ways: copied from the ids, and taken from them joined
        let doc_ids = if self.docs.is_some() { DocIdTable::new(&doc_ids).unwrap() } else { DocIdTable::from_joined("docIds", doc_ids.join("\0"), doc_ids.len()).unwrap() };
        self.with_table(doc_ids, f)
    }

    /// The columns with `table` for their ids (their `docs` index it).
    fn with_table<T>(&self, table: DocIdTable, f: impl FnOnce(Columns<V>) -> T) -> T {
        let query_ids: Vec<&str> = self.query_ids.iter().map(String::as_str).collect();
        f(Columns { query_ids: &query_ids, offsets: &self.offsets, doc_ids: table, docs: self.docs.as_deref(), values: &self.values })
    }

    /// These columns' rows with `docs` indexing `ids` instead.
    fn indexing(mut self, ids: &[&str]) -> Owned<V> {
        let index: std::collections::HashMap<&str, u32> = ids.iter().enumerate().map(|(i, id)| (*id, i as u32)).collect();
        let docs = self.docs.as_ref().expect("columns with a table");
        self.docs = Some(docs.iter().map(|&d| index[self.doc_ids[d as usize].as_str()]).collect());
        self.doc_ids = ids.iter().map(|id| id.to_string()).collect();
        self
    }
}

/// Every document id of the rows, each once, in an order unlike byte order (neighbours swapped), so that ranking
/// cannot mistake index order, ascending or descending, for trec_eval's docno order.
fn shared_ids<'a>(qrels: &'a [(String, String, i64)], run: &'a [(String, String, f64)]) -> Vec<&'a str> {
    let mut ids: Vec<&str> = qrels.iter().map(|r| r.1.as_str()).chain(run.iter().map(|r| r.1.as_str())).collect();
    ids.sort_unstable();
    ids.dedup();
    for pair in ids.chunks_mut(2) {
        pair.reverse();
    }
    ids
}

fn typed<V>(rows: &[(String, String, String)], parse: impl Fn(&str) -> V) -> Vec<(String, String, V)> {
    rows.iter().map(|(q, d, v)| (q.clone(), d.clone(), parse(v))).collect()
}

/// The same qrels and run every way (text; triples; columns with a table each, one id per row, and one distinct
/// table both share), each pair of qrels and run as `(qrels, run)`.
fn every_way(qrels_text: &str, run_text: &str) -> Vec<(&'static str, Qrels, Run)> {
    let qrels_rows = typed(&rows(qrels_text, 3), |v| v.parse::<i64>().unwrap());
    let run_rows = typed(&rows(run_text, 4), |v| v.parse::<f64>().unwrap());
    let mut text_run = Run::parse(run_text, DuplicatePolicy::Error).unwrap();
    text_run.name.clear(); // the tag column: in-memory runs have no name
    let triples_qrels = Qrels::from_triples(qrels_rows.iter().map(|(q, d, g)| (q.as_str(), d.as_str(), *g))).unwrap();
    let triples_run = Run::from_triples(run_rows.iter().map(|(q, d, s)| (q.as_str(), d.as_str(), *s)), DuplicatePolicy::Error).unwrap();
    let mut out = vec![("text", Qrels::parse(qrels_text).unwrap(), text_run), ("triples", triples_qrels, triples_run)];
    for (name, shared) in [("columns with a table", true), ("columns, one id per row", false)] {
        let qrels = Owned::new(&qrels_rows, shared).with(|c| Qrels::from_columns("qrels", c)).unwrap();
        let run = Owned::new(&run_rows, shared).with(|c| Run::from_columns("run", c, DuplicatePolicy::Error)).unwrap();
        out.push((name, qrels, run));
    }
    let ids = shared_ids(&qrels_rows, &run_rows);
    let table = DocIdTable::new(&ids).unwrap().distinct("docIds").unwrap();
    let qrels = Owned::new(&qrels_rows, true).indexing(&ids).with_table(table.clone(), |c| Qrels::from_columns("qrels", c)).unwrap();
    let run = Owned::new(&run_rows, true).indexing(&ids).with_table(table, |c| Run::from_columns("run", c, DuplicatePolicy::Error)).unwrap();
    out.push(("columns sharing one distinct table", qrels, run));
    out
}

/// Every key, qid and value (by bits) of two evaluations.
fn assert_same_bits(a: &Evaluation, b: &Evaluation, what: &str) {
    let bits = |v: &rerankit::metrics::Value| match v {
        rerankit::metrics::Value::Number(x) => format!("{:016x}", x.to_bits()),
        rerankit::metrics::Value::Text(t) => t.clone(),
    };
    assert_eq!(a.measures.iter().map(|m| &m.key).collect::<Vec<_>>(), b.measures.iter().map(|m| &m.key).collect::<Vec<_>>(), "{what}");
    assert_eq!(a.per_query.len(), b.per_query.len(), "{what}: queries");
    for (x, y) in a.per_query.iter().zip(&b.per_query) {
        assert_eq!(x.qid, y.qid, "{what}");
        assert_eq!(x.values.iter().map(bits).collect::<Vec<_>>(), y.values.iter().map(bits).collect::<Vec<_>>(), "{what}: query {}", x.qid);
    }
    assert_eq!(a.aggregate.iter().map(bits).collect::<Vec<_>>(), b.aggregate.iter().map(bits).collect::<Vec<_>>(), "{what}: aggregate");
}

/// Measures in each dialect, with option sets that change what is ranked or averaged.
fn cases() -> Vec<(Dialect, Vec<&'static str>)> {
    vec![
        (Dialect::TrecEval, vec!["all_trec", "ndcg_cut.5,10", "P.5,10", "recall", "rbp.p=0.8", "ndcg.1=3,2=9"]),
        (Dialect::Ranx, vec!["map@100", "ndcg@10", "mrr@10", "recall@100", "precision@5", "hit_rate@10", "ndcg_burges@10", "dcg@10", "rbp.95", "bpref", "recall", "hits"]),
        (Dialect::IrMeasures, vec!["P@10", "nDCG@10", "AP", "RR", "R@100", "Judged@10", "ERR@10", "Compat(p=0.8)", "RBP(p=0.8)", "SetF(beta=1.0)", "infAP", "P(rel=2)@5", "NumRet", "IPrec@0.5"]),
    ]
}

fn option_sets(dialect: Dialect) -> Vec<EvaluateOptions> {
    let base = EvaluateOptions { dialect: Some(dialect), ..Default::default() };
    vec![
        base.clone(),
        EvaluateOptions { relevance_level: Some(2), max_results: Some(7), ..base.clone() },
        EvaluateOptions { judged_only: Some(true), ..base.clone() },
        EvaluateOptions { scope: Some(QueryScope::AllQrels), ties: Some(TiePolicy::Input), ..base.clone() },
        EvaluateOptions { scope: Some(QueryScope::AllRun), ..base },
    ]
}

fn check_every_way(qrels_text: &str, run_text: &str) {
    let inputs = every_way(qrels_text, run_text);
    for (dialect, names) in cases() {
        let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
        for options in option_sets(dialect) {
            let (requests, eval) = options.resolve(&names).unwrap_or_else(|e| panic!("{:?}: {}", dialect, e.message));
            let reference = evaluate(&inputs[0].1, &inputs[0].2, &requests, &eval).unwrap();
            assert!(!reference.per_query.is_empty());
            for (name, qrels, run) in &inputs[1..] {
                let ours = evaluate(qrels, run, &requests, &eval).unwrap();
                assert_same_bits(&reference, &ours, &format!("{name} vs text, {dialect:?}, {options:?}"));
            }
        }
    }
}

#[test]
fn columns_text_and_triples_give_the_same_bits_on_the_dialects_collection() {
    check_every_way(&read("dialects", "qrels.trec"), &read("dialects", "run.trec"));
}

#[test]
fn columns_text_and_triples_give_the_same_bits_with_negative_grades_and_ties() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/judged_only");
    let qrels = std::fs::read_to_string(dir.join("qrels.trec")).unwrap();
    let run = std::fs::read_to_string(dir.join("run.trec")).unwrap();
    check_every_way(&qrels, &run);
    // tied scores (broken by docno), a query split in two blocks, a query only in the run
    let qrels = "q1 0 a 1\nq1 0 b 0\nq1 0 c 2\nq2 0 x 1\nq2 0 y -1\nq1 0 d 1\n";
    let run = "q1 Q0 a 1 0.5 r\nq1 Q0 b 2 0.5 r\nq2 Q0 y 1 1e-300 r\nq2 Q0 x 2 -0.0 r\nq1 Q0 c 3 0.5 r\nq3 Q0 a 1 2 r\nq1 Q0 z 4 0.0 r\n";
    check_every_way(qrels, run);
}

#[test]
fn scores_keep_their_bits() {
    let scores = [0.1f64, -0.0, 5e-324, 1.7976931348623157e308, 0.30000000000000004, f32::MAX as f64, 1.0 + f64::EPSILON];
    let doc_ids = ["a", "b", "c", "d", "e", "f", "g"];
    let run = Run::from_columns(
        "run",
        RunColumns { query_ids: &["q"], offsets: &[0, 7], doc_ids: DocIdTable::new(&doc_ids).unwrap(), docs: None, values: &scores },
        DuplicatePolicy::Error,
    )
    .unwrap();
    let kept: Vec<u64> = run.queries()[0].entries.iter().map(|e| e.score.to_bits()).collect();
    assert_eq!(kept, scores.iter().map(|s| s.to_bits()).collect::<Vec<_>>());
}

fn table(ids: &[&str]) -> DocIdTable {
    DocIdTable::new(ids).unwrap()
}

fn run_error(columns: RunColumns, duplicates: DuplicatePolicy) -> rerankit::Error {
    let err = Run::from_columns("run", columns, duplicates).unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidArgument, "{}", err.message);
    err
}

#[test]
fn bad_columns_name_the_field() {
    let ok = || RunColumns { query_ids: &["q1", "q2"], offsets: &[0, 2, 3], doc_ids: table(&["a", "b", "c"]), docs: Some(&[0, 1, 2]), values: &[1.0, 0.5, 0.2] };
    assert!(Run::from_columns("run", ok(), DuplicatePolicy::Error).is_ok());
    let cases: Vec<(RunColumns, &str)> = vec![
        (RunColumns { offsets: &[0, 3], ..ok() }, "run.offsets: has 2 offsets for 2 queries"),
        (RunColumns { offsets: &[1, 2, 3], ..ok() }, "run.offsets[0]: is 1"),
        (RunColumns { offsets: &[0, 3, 2], ..ok() }, "run.offsets[2]: is 2, below"),
        (RunColumns { offsets: &[0, 1, 2], ..ok() }, "run.offsets[2]: is 2, but run.scores has 3 rows"),
        (RunColumns { docs: Some(&[0, 1]), ..ok() }, "run.docs: has 2 rows"),
        (RunColumns { docs: Some(&[0, 3, 1]), ..ok() }, "run.docs[1]: is 3, outside run.docIds (length 3)"),
        (RunColumns { docs: None, doc_ids: table(&["a", "b"]), ..ok() }, "run.docIds: has 2 ids for 3 rows"),
        (RunColumns { query_ids: &["q1", ""], ..ok() }, "run.queryIds[1]: is empty"),
        (RunColumns { doc_ids: table(&["a", "", "c"]), ..ok() }, "run.docIds[1]: is empty"),
        (RunColumns { values: &[1.0, f64::NAN, 0.2], ..ok() }, "run.scores[1]: score NaN is not finite"),
        (RunColumns { values: &[1.0, 0.5, f64::NEG_INFINITY], ..ok() }, "run.scores[2]: score -inf is not finite"),
        (RunColumns { docs: Some(&[0, 0, 2]), ..ok() }, "run: document 'a' is listed twice for query 'q1'"),
        // the same id at two places of the table is the same document
        (RunColumns { doc_ids: table(&["a", "a", "c"]), ..ok() }, "run: document 'a' is listed twice for query 'q1'"),
    ];
    for (columns, expected) in cases {
        let err = run_error(columns, DuplicatePolicy::Error);
        assert!(err.message.starts_with(expected), "{:?} does not start with {expected:?}", err.message);
    }
    let qrels = || QrelsColumns { query_ids: &["q1"], offsets: &[0, 2], doc_ids: table(&["a", "b"]), docs: Some(&[1, 1]), values: &[1, 2] };
    let err = Qrels::from_columns("qrels", qrels()).unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidArgument);
    assert!(err.message.starts_with("qrels: document 'b' is judged twice for query 'q1'"), "{}", err.message);
    let err = Qrels::from_columns("qrels", QrelsColumns { offsets: &[0, 3], ..qrels() }).unwrap_err();
    assert!(err.message.starts_with("qrels.offsets[1]: is 3, but qrels.grades has 2 rows"), "{}", err.message);
    // joined ids: one containing the separator is refused
    let err = DocIdTable::from_joined("run.docIds", "a\0b\0c".to_string(), 2).unwrap_err();
    assert_eq!(err.message, "run.docIds: ids must not contain U+0000");
    assert_eq!(DocIdTable::from_joined("ids", String::new(), 0).unwrap().len(), 0);
    let joined = DocIdTable::from_joined("ids", "a\0\0bc".to_string(), 3).unwrap();
    assert_eq!((0..3).map(|i| joined.get(i)).collect::<Vec<_>>(), ["a", "", "bc"]);
}

#[test]
fn keep_first_duplicate_keeps_the_first_row_as_text_does() {
    let columns = RunColumns { query_ids: &["q"], offsets: &[0, 3], doc_ids: table(&["a", "b"]), docs: Some(&[0, 1, 0]), values: &[0.1, 0.5, 0.9] };
    let run = Run::from_columns("run", columns, DuplicatePolicy::KeepFirst).unwrap();
    let text = Run::parse("q Q0 a 1 0.1 r\nq Q0 b 2 0.5 r\nq Q0 a 3 0.9 r\n", DuplicatePolicy::KeepFirst).unwrap();
    let entries = |r: &Run| r.queries()[0].entries.iter().map(|e| (r.docno(e).to_string(), e.score.to_bits())).collect::<Vec<_>>();
    assert_eq!(entries(&run), entries(&text));
}

#[test]
fn no_queries_is_an_empty_input() {
    let run = Run::from_columns("run", RunColumns { query_ids: &[], offsets: &[0], doc_ids: table(&[]), docs: None, values: &[] }, DuplicatePolicy::Error).unwrap();
    assert!(run.is_empty());
    let err = run_error(RunColumns { query_ids: &[], offsets: &[], doc_ids: table(&[]), docs: None, values: &[] }, DuplicatePolicy::Error);
    assert!(err.message.starts_with("run.offsets: has 0 offsets for 0 queries"), "{}", err.message);
}

#[test]
fn a_shared_table_lists_each_id_once_and_mixes_with_other_inputs() {
    let err = DocIdTable::new(&["a", "b", "a"]).unwrap().distinct("docIds").unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidArgument);
    assert!(err.message.starts_with("docIds[2]: repeats docIds[0] (\"a\")"), "{}", err.message);
    let err = DocIdTable::new(&["a", ""]).unwrap().distinct("docIds").unwrap_err();
    assert!(err.message.starts_with("docIds[1]: is empty"), "{}", err.message);
    let table = DocIdTable::new(&["c", "a", "b", "d"]).unwrap().distinct("docIds").unwrap();
    assert!(table.is_distinct() && !DocIdTable::new(&["a"]).unwrap().is_distinct());
    // a document twice in one query: refused, or the first kept, as from text
    let twice = || RunColumns { query_ids: &["q"], offsets: &[0, 3], doc_ids: table.clone(), docs: Some(&[1, 2, 1]), values: &[0.1, 0.5, 0.9] };
    let err = run_error(twice(), DuplicatePolicy::Error);
    assert!(err.message.starts_with("run: document 'a' is listed twice for query 'q'"), "{}", err.message);
    let kept = Run::from_columns("run", twice(), DuplicatePolicy::KeepFirst).unwrap();
    let text = Run::parse("q Q0 a 1 0.1 r\nq Q0 b 2 0.5 r\nq Q0 a 3 0.9 r\n", DuplicatePolicy::KeepFirst).unwrap();
    let entries = |r: &Run| r.queries()[0].entries.iter().map(|e| (r.docno(e).to_string(), e.score.to_bits())).collect::<Vec<_>>();
    assert_eq!(entries(&kept), entries(&text));
    // inputs on the table against inputs of their own (text), and against another table: the text's bits
    let qrels_text = "q 0 a 1\nq 0 d 2\nq 0 b 0\n";
    let run_text = "q Q0 b 1 0.5 r\nq Q0 c 2 0.5 r\nq Q0 d 3 0.7 r\nq Q0 a 4 0.5 r\n";
    let table_qrels = |table: &DocIdTable| {
        Qrels::from_columns("qrels", QrelsColumns { query_ids: &["q"], offsets: &[0, 3], doc_ids: table.clone(), docs: Some(&[1, 3, 2]), values: &[1, 2, 0] }).unwrap()
    };
    let run = Run::from_columns("run", RunColumns { query_ids: &["q"], offsets: &[0, 4], doc_ids: table.clone(), docs: Some(&[2, 0, 3, 1]), values: &[0.5, 0.5, 0.7, 0.5] }, DuplicatePolicy::Error).unwrap();
    let other_table = DocIdTable::new(&["x", "d", "b", "a"]).unwrap().distinct("docIds").unwrap();
    let other_qrels = Qrels::from_columns("qrels", QrelsColumns { query_ids: &["q"], offsets: &[0, 3], doc_ids: other_table, docs: Some(&[3, 1, 2]), values: &[1, 2, 0] }).unwrap();
    let mut text_run = Run::parse(run_text, DuplicatePolicy::Error).unwrap();
    text_run.name.clear();
    let text_qrels = Qrels::parse(qrels_text).unwrap();
    let names: Vec<String> = ["map", "ndcg", "P.1,2,3", "relstring", "recip_rank"].iter().map(|n| n.to_string()).collect();
    let (requests, eval) = EvaluateOptions::default().resolve(&names).unwrap();
    let reference = evaluate(&text_qrels, &text_run, &requests, &eval).unwrap();
    for (what, qrels, run) in [
        ("both on the table", &table_qrels(&table), &run),
        ("run on the table, text qrels", &text_qrels, &run),
        ("qrels on the table, text run", &table_qrels(&table), &text_run),
        ("run on the table, qrels on another", &other_qrels, &run),
    ] {
        assert_same_bits(&reference, &evaluate(qrels, run, &requests, &eval).unwrap(), what);
    }
}
