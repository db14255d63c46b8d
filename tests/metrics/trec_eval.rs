//! Conformance with trec_eval 10.0: every expected output in the shared trec_eval test folder, line by line,
//! per query and `all`.

use std::path::PathBuf;

use rerankit::metrics::trec_cli::{run_trec_eval, TrecEvalArgs};

/// `$RERANKIT_SHARED/data/trec_eval`, or `../shared/data/trec_eval` beside the crate.
fn trec_eval_dir() -> Option<PathBuf> {
    let shared = std::env::var_os("RERANKIT_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared"));
    let dir = shared.join("data/trec_eval");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("skipping: {} not found (set RERANKIT_SHARED)", dir.display());
        None
    }
}

/// Runs the command behind `expected` (trec_eval's arguments) and compares with the file, line by line.
fn check(expected: &str, args: &[&str]) {
    let Some(dir) = trec_eval_dir() else { return };
    let parsed = TrecEvalArgs::parse(args).unwrap();
    let qrels = std::fs::read_to_string(dir.join(&parsed.files[0])).unwrap();
    let run = std::fs::read_to_string(dir.join(&parsed.files[1])).unwrap();
    let ours = run_trec_eval(&parsed, &qrels, &run, None).unwrap();
    let theirs = std::fs::read_to_string(dir.join(expected)).unwrap();
    let ours: Vec<&str> = ours.lines().collect();
    let theirs: Vec<&str> = theirs.lines().collect();
    let mut mismatches = Vec::new();
    for (i, (a, b)) in ours.iter().zip(&theirs).enumerate() {
        if a != b {
            mismatches.push(format!("line {}: ours {a:?} trec_eval {b:?}", i + 1));
        }
    }
    if ours.len() != theirs.len() {
        mismatches.push(format!("{} lines ours, {} lines trec_eval", ours.len(), theirs.len()));
    }
    assert!(mismatches.is_empty(), "{expected}: {} differences:\n{}", mismatches.len(), mismatches.iter().take(40).cloned().collect::<Vec<_>>().join("\n"));
}

#[test]
fn official_measures() {
    check("out.test", &["qrels.test", "results.test"]);
}

#[test]
fn official_measures_with_comment_lines_in_qrels() {
    check("out.test", &["qrels.test.with-comments", "results.test"]);
}

#[test]
fn official_measures_with_comment_lines_in_run_and_qrels() {
    check("out.comment.test", &["qrels.comment.test", "results.comment.test"]);
}

#[test]
fn all_trec() {
    check("out.test.a", &["-m", "all_trec", "qrels.test", "results.test"]);
}

#[test]
fn all_trec_per_query() {
    check("out.test.aq", &["-m", "all_trec", "-q", "qrels.test", "results.test"]);
}

#[test]
fn all_trec_per_query_complete() {
    check("out.test.aqc", &["-m", "all_trec", "-q", "-c", "qrels.test", "results.trunc"]);
}

#[test]
fn all_trec_per_query_complete_max_100() {
    check("out.test.aqcM", &["-m", "all_trec", "-q", "-c", "-M100", "qrels.test", "results.trunc"]);
}

#[test]
fn all_trec_per_query_relevance_level_2() {
    check("out.test.aql", &["-m", "all_trec", "-mrelstring.20", "-q", "-l2", "qrels.rel_level", "results.test"]);
}

#[test]
fn parameterised_measures() {
    check(
        "out.test.meas_params",
        &[
            "-q",
            "-miprec_at_recall..10,.20,.25,.75,.50",
            "-m",
            "P.5,7,3",
            "-m",
            "recall.20,2000",
            "-m",
            "Rprec_mult.5.0,0.2,0.35",
            "-mutility.2,-1,0,0",
            "-m",
            "11pt_avg..25,.5,.75",
            "-mndcg.1=3,2=9,4=4.5",
            "-mndcg_cut.10,20,23.4",
            "-msuccess.2,5,20",
            "qrels.test",
            "results.test",
        ],
    );
}
