//! ir_measures' own tests (`ir_measures/tests/*.py`, tag v0.4.3) translated: their inputs and asserted values
//! kept, the names read in the ir_measures dialect (every qrels query evaluated, as ir_measures does). A test that
//! asks one provider (`ir_measures.gdeval`, `.cwl_eval`, `.ranx`…) is read with the name that means that
//! provider's computation in rerankit (gdeval's `nDCG@k` is `nDCG(dcg='exp-log2')@k`); its tolerance is the
//! Python test's (`assertEqual`: exactly, `places=n`: |a − b| < 0.5·10⁻ⁿ, `delta`), and a value gdeval prints with
//! 5 decimals is compared as gdeval rounds it. Which test functions are translated and which are not applicable
//! is in docs/parity.md (§7, "ir_measures' own tests").

use std::path::PathBuf;

use rerankit::metrics::{evaluate, Dialect, DuplicatePolicy, EvaluateOptions, Evaluation, Qrels, Run};

/// The qrels most of ir_measures' tests share (`test_gdeval.py`, `test_judged.py`, `test_providers.py`,
/// `test_aggregate.py` without query 1's D0… see each test).
const QRELS: &str = "0 0 D0 0\n0 0 D1 1\n0 0 D2 1\n0 0 D3 2\n0 0 D4 0\n1 0 D0 1\n1 0 D3 2\n1 0 D5 2\n";
const RUN: &str = "0 0 D0 1 0.8 run\n0 0 D2 2 0.7 run\n0 0 D1 3 0.3 run\n0 0 D3 4 0.4 run\n0 0 D4 5 0.1 run\n\
1 0 D1 1 0.8 run\n1 0 D3 2 0.7 run\n1 0 D4 3 0.3 run\n1 0 D2 4 0.4 run\n";

/// How close a value must be, as the Python test asserts it.
#[derive(Clone, Copy, Debug)]
enum Tolerance {
    /// `assertEqual`.
    Exact,
    /// `assertAlmostEqual(places=n)`: round(a − b, n) == 0.
    Places(i32),
    /// `assertAlmostEqual(delta=d)`.
    Delta(f64),
    /// gdeval prints `%.5f`: rerankit's value rounded so is the asserted one.
    Gdeval,
}

impl Tolerance {
    fn holds(self, ours: f64, theirs: f64) -> bool {
        match self {
            Tolerance::Exact => ours == theirs || (ours.is_nan() && theirs.is_nan()),
            Tolerance::Places(n) => (ours - theirs).abs() < 0.5 * 10f64.powi(-n),
            Tolerance::Delta(d) => (ours - theirs).abs() <= d,
            Tolerance::Gdeval => (ours - theirs).abs() <= 5e-6 + 1e-12,
        }
    }
}

fn fixture(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/ir_measures_tests").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `ir_measures.iter_calc` / `calc_aggregate` over TREC texts, in the ir_measures dialect.
fn calc(qrels: &str, run: &str, names: &[&str]) -> Evaluation {
    try_calc(qrels, run, names).unwrap_or_else(|e| panic!("{names:?}: {}", e.message))
}

fn try_calc(qrels: &str, run: &str, names: &[&str]) -> rerankit::Result<Evaluation> {
    let qrels = Qrels::parse(qrels)?;
    let run = Run::parse(run, DuplicatePolicy::Error)?;
    let options = EvaluateOptions { dialect: Some(Dialect::IrMeasures), ..Default::default() };
    let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
    let (requests, eval) = options.resolve(&names)?;
    evaluate(&qrels, &run, &requests, &eval)
}

/// The queries `name` has a value for (ir_measures yields no value where rerankit's is NaN: `Accuracy` on a
/// query without both a relevant and a non-relevant document) and its aggregate.
fn values_of(e: &Evaluation, name: &str) -> (Vec<(String, f64)>, f64) {
    let j = e.measures.iter().position(|m| m.key == name).unwrap_or_else(|| panic!("{name} not in {:?}", e.measures));
    let per_query = e
        .per_query
        .iter()
        .map(|q| (q.qid.clone(), q.values[j].as_f64()))
        .filter(|(_, v)| !v.is_nan())
        .collect();
    (per_query, e.aggregate[j].as_f64())
}

/// One measure against a test's asserted per-query values (in query order) and mean (`None`: not asserted).
fn assert_measure(qrels: &str, run: &str, name: &str, per_query: &[(&str, f64)], mean: Option<f64>, tolerance: Tolerance) {
    let (ours, aggregate) = values_of(&calc(qrels, run, &[name]), name);
    let ours_qids: Vec<&str> = ours.iter().map(|(q, _)| q.as_str()).collect();
    let their_qids: Vec<&str> = per_query.iter().map(|(q, _)| *q).collect();
    assert_eq!(ours_qids, their_qids, "{name}: queries");
    for ((qid, value), (_, expected)) in ours.iter().zip(per_query) {
        assert!(tolerance.holds(*value, *expected), "{name} {qid}: rerankit {value}, ir_measures' test {expected}");
    }
    if let Some(mean) = mean {
        assert!(tolerance.holds(aggregate, mean), "{name} mean: rerankit {aggregate}, ir_measures' test {mean}");
    }
}

// ---- test_aggregate.py ----

/// `test_P`: `P@5`'s `calc_aggregate` is 0.5 and `calc` gives two queries.
#[test]
fn aggregate_test_p() {
    let qrels = QRELS;
    let run = format!("{RUN}1 0 D0 5 0.1 run\n");
    let e = calc(qrels, &run, &["P@5"]);
    assert_eq!(e.aggregate[0].as_f64(), 0.5);
    assert_eq!(e.per_query.len(), 2);
}

// ---- test_accuracy.py ----

/// `test_accuracy`: its qrels and run keep their blank lines and trailing space.
#[test]
fn accuracy_test_accuracy() {
    let qrels = "0 0 C0_1 0\n0 0 B0_1 1\n0 0 A0_1 2\n\n1 0 A1_1 2\n1 0 A1_2 2\n1 0 B1_1 1\n1 0 C1_2 0\n\n2 0 B1_1 1\n";
    let run = "0 0 C0_1 1 0.4 run\n0 0 A0_1 2 0.3 run\n0 0 C0_2 3 0.2 run\n0 0 C0_3 4 0.1 run\n\n\
1 0 C1_1 1 0.8 run\n1 0 A1_1 2 0.7 run\n1 0 C1_2 3 0.6 run\n1 0 B1_1 4 0.5 run\n1 0 C1_3 5 0.4 run\n\n\
2 0 B1_1 2 0.2 run \n2 0 C1_1 3 0.1 run\n";
    let results_1 = [("0", 2. / 3.), ("1", 0.5 * (2. / 3. + 1. / 3.)), ("2", 1.)];
    let mean = results_1.iter().map(|(_, v)| v).sum::<f64>() / results_1.len() as f64;
    assert_measure(qrels, run, "Accuracy(rel=1)", &results_1, Some(mean), Tolerance::Delta(1e-9));
    assert_measure(qrels, run, "Accuracy(rel=2)", &[("0", 2. / 3.), ("1", 0.75)], None, Tolerance::Delta(1e-9));
}

// ---- test_compat.py ----

/// `test_measures`: Compat at p = 0.95, 0.9, 0.8 on its compat.qrels / compat.run ("based on a manual execution of
/// https://github.com/claclark/Compatibility").
#[test]
fn compat_test_measures() {
    let (qrels, run) = (fixture("compat.qrels"), fixture("compat.run"));
    let cases = [
        ("Compat(p=0.95)", [("31_1", 0.51779512165509), ("31_2", 0.018400100569017922)]),
        ("Compat(p=0.9)", [("31_1", 0.3761334522946854), ("31_2", 0.004344079941789211)]),
        ("Compat(p=0.8)", [("31_1", 0.16723008845234535), ("31_2", 0.00022806427320561776)]),
    ];
    for (name, expected) in cases {
        // the test zips the first two results with its two expectations
        let (ours, _) = values_of(&calc(&qrels, &run, &[name]), name);
        for ((qid, value), (their_qid, theirs)) in ours.iter().zip(expected) {
            assert_eq!(qid, their_qid, "{name}");
            assert!(Tolerance::Delta(1e-9).holds(*value, theirs), "{name} {qid}: rerankit {value}, test {theirs}");
        }
    }
    let e = calc(&qrels, &run, &["Compat(p=0.95)"]);
    assert!(Tolerance::Delta(1e-9).holds(e.aggregate[0].as_f64(), 0.268097611), "mean {}", e.aggregate[0].as_f64());
}

// ---- test_cwl_eval.py ----

/// `test_measures`: cwl_eval's measures on its cwl.qrels / cwl.run ("based on a manual execution of cwl-eval"),
/// to 1e-4 as the test asserts.
#[test]
fn cwl_eval_test_measures() {
    let (qrels, run) = (fixture("cwl.qrels"), fixture("cwl.run"));
    let cases: [(&str, [f64; 3]); 18] = [
        ("AP", [0.7087, 0.7438, 0.3068]),
        ("BPM(T=1.0,max_rel=1)@20", [1.0000, 1.0000, 0.1667]),
        ("BPM(T=2.0,max_rel=1)@10", [0.6667, 1.0000, 0.2857]),
        ("INSQ(T=1.0,max_rel=1)", [0.5872, 0.6629, 0.0880]),
        ("INSQ(T=2.0,max_rel=1)", [0.4513, 0.5068, 0.1292]),
        ("INST(T=1.0,max_rel=1)", [0.7934, 0.9226, 0.0888]),
        ("INST(T=2.0,max_rel=1)", [0.5994, 0.6924, 0.1397]),
        ("SDCG(max_rel=1)@10", [0.5645, 0.6531, 0.2848]),
        ("NERR8(max_rel=1)@10", [1.0000, 1.0000, 0.1667]),
        ("NERR9(max_rel=1)@10", [1.0000, 1.0000, 0.0680]),
        ("NERR10(p=0.8,max_rel=1)", [1.0000, 1.0000, 0.0888]),
        ("NERR11(T=2.0,max_rel=1)", [1.0000, 1.0000, 0.0691]),
        ("P@1", [1.0000, 1.0000, 0.0000]),
        ("P@10", [0.5000, 0.6000, 0.4000]),
        ("P@20", [0.2500, 0.3000, 0.2000]),
        ("P@5", [0.6000, 0.6000, 0.0000]),
        ("RBP(p=0.9,rel=1)", [0.3501, 0.3996, 0.1988]),
        ("RR", [1.0000, 1.0000, 0.1667]),
    ];
    for (name, [t1, t2, t3]) in cases {
        assert_measure(&qrels, &run, name, &[("T1", t1), ("T2", t2), ("T3", t3)], None, Tolerance::Delta(1e-4));
    }
}

// ---- test_gdeval.py ----

/// `test_nDCG`: gdeval's nDCG@20 and nDCG@2 (gdeval's nDCG is exp-log2; its values printed to 5 decimals).
#[test]
fn gdeval_test_ndcg() {
    let name = "nDCG(dcg='exp-log2')@20";
    assert_measure(QRELS, RUN, name, &[("0", 0.6201), ("1", 0.35099)], Some(0.485545), Tolerance::Gdeval);
    let name = "nDCG(dcg='exp-log2')@2";
    assert_measure(QRELS, RUN, name, &[("0", 0.17377), ("1", 0.38685)], Some(0.28031), Tolerance::Gdeval);
    // one evaluator, both measures, twice
    for _ in 0..2 {
        let e = calc(QRELS, RUN, &["nDCG(dcg='exp-log2')@20", "nDCG(dcg='exp-log2')@2"]);
        assert!(Tolerance::Gdeval.holds(e.aggregate[0].as_f64(), 0.485545));
        assert!(Tolerance::Gdeval.holds(e.aggregate[1].as_f64(), 0.28031));
    }
}

/// `test_ERR`: ERR@20 and ERR@2.
#[test]
fn gdeval_test_err() {
    assert_measure(QRELS, RUN, "ERR@20", &[("0", 0.10175), ("1", 0.09375)], Some(0.09775), Tolerance::Gdeval);
    assert_measure(QRELS, RUN, "ERR@2", &[("0", 0.03125), ("1", 0.09375)], Some(0.0625), Tolerance::Gdeval);
}

// ---- test_judged.py ----

/// `test_judged`: Judged without a cutoff and at 1000, 10, 3, 1.
#[test]
fn judged_test_judged() {
    for (name, q1) in [
        ("Judged", 1.0 / 4.0),
        ("Judged(cutoff=1000)", 1.0 / 4.0),
        ("Judged(cutoff=10)", 1.0 / 4.0),
        ("Judged(cutoff=3)", 1.0 / 3.0),
        ("Judged(cutoff=1)", 0.0),
    ] {
        assert_measure(QRELS, RUN, name, &[("0", 1.0), ("1", q1)], None, Tolerance::Delta(1e-4));
    }
}

// ---- test_measures.py ----

const ONE_QUERY_QRELS: &str = "0 0 D0 0\n0 0 D1 1\n0 0 D2 1\n0 0 D3 2\n0 0 D4 0\n";
const ONE_QUERY_RUN: &str = "0 0 D0 1 0.8 run\n0 0 D2 2 0.7 run\n0 0 D1 3 0.3 run\n0 0 D3 4 0.4 run\n0 0 D4 5 0.1 run\n";

/// `test_P`: each measure computes (the test prints the values and asserts nothing else).
#[test]
fn measures_test_p() {
    let names = [
        "P@5", "P(rel=2)@5", "RR", "RR(rel=2)", "Rprec", "Rprec(rel=2)", "AP", "AP@2", "AP(rel=2)", "AP(rel=2)@2", "nDCG",
        "nDCG@2", "R@2", "R(rel=2)@2", "Bpref", "Bpref(rel=2)", "Judged@5", "Judged@20", "ERR@2", "ERR@20",
        "nDCG(dcg='exp-log2')@2", "nDCG(dcg='exp-log2')@5",
    ];
    for name in names {
        let e = calc(ONE_QUERY_QRELS, ONE_QUERY_RUN, &[name]);
        assert_eq!(e.per_query.len(), 1, "{name}");
        assert!(e.aggregate[0].as_f64().is_finite(), "{name}");
    }
}

/// `test_measures`: the test checks that every provider supporting a measure agrees to 4 places; rerankit has one
/// implementation per measure, so this checks each computes, and that the spellings of one measure agree.
#[test]
fn measures_test_measures() {
    let cutoffs = [1, 5, 10, 20, 50, 100];
    let mut names: Vec<String> = Vec::new();
    for r in [1, 2] {
        names.extend(cutoffs.iter().map(|k| format!("P(rel={r})@{k}")));
        names.extend(cutoffs.iter().map(|k| format!("R(rel={r})@{k}")));
        names.push(format!("RR(rel={r})"));
        names.extend(cutoffs.iter().map(|k| format!("RR(rel={r})@{k}")));
        names.push(format!("Rprec(rel={r})"));
        names.push(format!("AP(rel={r})"));
        names.extend(cutoffs.iter().map(|k| format!("AP(rel={r})@{k}")));
        names.push(format!("Bpref(rel={r})"));
    }
    for d in ["log2", "exp-log2"] {
        names.push(format!("nDCG(dcg='{d}')"));
        names.extend(cutoffs.iter().map(|k| format!("nDCG(dcg='{d}')@{k}")));
    }
    names.extend(cutoffs.iter().map(|k| format!("Judged@{k}")));
    names.extend(cutoffs.iter().map(|k| format!("ERR@{k}")));
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let e = calc(ONE_QUERY_QRELS, ONE_QUERY_RUN, &refs);
    assert_eq!(e.measures.len(), names.len());
    assert!(e.aggregate.iter().all(|v| v.as_f64().is_finite()));
    let of = |name: &str| values_of(&e, name).1;
    assert_eq!(of("P(rel=1)@5"), calc(ONE_QUERY_QRELS, ONE_QUERY_RUN, &["P@5"]).aggregate[0].as_f64());
    assert_eq!(of("nDCG(dcg='log2')"), calc(ONE_QUERY_QRELS, ONE_QUERY_RUN, &["nDCG"]).aggregate[0].as_f64());
}

// ---- test_providers.py ----

/// `test_empty`: every provider's measure on qrels without a run, a partial run, a run without qrels, partial
/// qrels, and neither. rerankit answers as ir_measures: the qrels' queries (a query missing from the run scores 0),
/// none without qrels (the mean of nothing is NaN). cwl_eval's P@5 of 0.6000000000000001 is its own float noise
/// (3 / 5 summed as weights); rerankit's P@5 is trec_eval's 0.6, so cwl_eval's rows compare to 1e-15.
#[test]
fn providers_test_empty() {
    let qrels = "0 0 D0 0\n0 0 D1 1\n0 0 D2 1\n0 0 D3 2\n0 0 D4 0\n1 0 D0 1\n1 0 D3 2\n1 0 D5 2\n";
    let run = RUN;
    let partial_qrels: String = qrels.lines().filter(|l| l.starts_with("0 ")).map(|l| format!("{l}\n")).collect();
    let partial_run: String = run.lines().filter(|l| l.starts_with("0 ")).map(|l| format!("{l}\n")).collect();
    // (provider, measure, value of query 0 with its full run, tolerance)
    let providers: [(&str, &str, f64, f64, Tolerance); 9] = [
        ("default", "P@5", 0.6, 0.6, Tolerance::Exact),
        ("gdeval", "ERR@5", 0.10175, 0.10175, Tolerance::Gdeval),
        ("judged", "Judged@5", 1.0, 1.0, Tolerance::Exact),
        ("msmarco", "RR@5", 0.5, 0.5, Tolerance::Exact),
        ("pytrec_eval", "P@5", 0.6, 0.6, Tolerance::Exact),
        ("trectools", "P@5", 0.6, 0.6, Tolerance::Exact),
        ("cwl_eval", "P@5", 0.6000000000000001, 0.6000000000000001, Tolerance::Delta(1e-15)),
        ("compat", "Compat(p=0.8)", 0.4744431703672816, 0.4744431703672816, Tolerance::Exact),
        ("accuracy", "Accuracy()", 0.5, 0.5, Tolerance::Exact),
    ];
    for (provider, name, q0, q0_alone, tolerance) in providers {
        let what = format!("{provider} {name}");
        let accuracy = provider == "accuracy";
        // qrels but no run: every qrels query scores 0 (Accuracy: no query has a value, the mean is NaN)
        let (values, mean) = values_of(&calc(qrels, "", &[name]), name);
        let expected: Vec<(String, f64)> =
            if accuracy { vec![] } else { vec![("0".into(), 0.0), ("1".into(), 0.0)] };
        assert_eq!(values, expected, "{what}: qrels, no run");
        assert!(if accuracy { mean.is_nan() } else { mean == 0.0 }, "{what}: qrels, no run: mean {mean}");
        // qrels but partial run
        let (values, mean) = values_of(&calc(qrels, &partial_run, &[name]), name);
        let expected_q1 = if accuracy { vec![] } else { vec![("1".to_string(), 0.0)] };
        assert_eq!(values.len(), 1 + expected_q1.len(), "{what}: partial run");
        assert!(tolerance.holds(values[0].1, q0) && values[0].0 == "0", "{what}: partial run: {values:?}");
        assert_eq!(values[1..], expected_q1[..], "{what}: partial run");
        let partial_mean = if accuracy { q0 } else { q0 / 2.0 };
        assert!(tolerance.holds(mean, partial_mean), "{what}: partial run: mean {mean}, test {partial_mean}");
        // run but no qrels; no run and no qrels: nothing, NaN
        for (q, r) in [("", run), ("", "")] {
            let (values, mean) = values_of(&calc(q, r, &[name]), name);
            assert!(values.is_empty() && mean.is_nan(), "{what}: no qrels: {values:?} {mean}");
        }
        // run but partial qrels: query 0 only
        let (values, mean) = values_of(&calc(&partial_qrels, run, &[name]), name);
        assert_eq!(values.len(), 1, "{what}: partial qrels");
        assert!(values[0].0 == "0" && tolerance.holds(values[0].1, q0_alone), "{what}: partial qrels: {values:?}");
        assert!(tolerance.holds(mean, q0_alone), "{what}: partial qrels: mean {mean}");
    }
}

// ---- test_pyndeval.py ----

/// The intent-aware tests' qrels: the iteration column is the subtopic.
const INTENT_QRELS: &str = "0 0 D0 0\n0 0 D1 1\n0 0 D2 1\n0 1 D2 1\n0 1 D3 2\n0 0 D4 0\n1 0 D0 1\n1 0 D3 2\n1 1 D5 2\n";

fn calc_with_intents(names: &[&str]) -> Evaluation {
    // the ordinary qrels: each document once (pyndeval reads only the subtopic judgements)
    let mut seen = std::collections::HashSet::new();
    let qrels: String = INTENT_QRELS
        .lines()
        .filter(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            seen.insert((f[0], f[2]))
        })
        .map(|l| format!("{l}\n"))
        .collect();
    let options = EvaluateOptions {
        dialect: Some(Dialect::IrMeasures),
        intents: Some(INTENT_QRELS.to_string()),
        ..Default::default()
    };
    let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
    let (requests, eval) = options.resolve(&names).unwrap();
    let qrels = Qrels::parse(&qrels).unwrap();
    let qrels = options.qrels_with_intents(&qrels).unwrap();
    evaluate(&qrels, &Run::parse(RUN, DuplicatePolicy::Error).unwrap(), &requests, &eval).unwrap()
}

/// `test_measures`: every intent-aware measure and parameter the test names computes.
#[test]
fn pyndeval_test_measures() {
    let names = [
        "ERR_IA@5", "ERR_IA(rel=2)@10", "nERR_IA@5", "nERR_IA(rel=2)@10", "alpha_DCG@5", "alpha_nDCG@5", "NRBP",
        "NRBP(rel=2)", "nNRBP", "nNRBP(rel=2)", "AP_IA", "AP_IA(rel=2)", "P_IA@5", "P_IA(rel=2)@10", "StRecall@5",
        "StRecall(rel=2)@10",
    ];
    let e = calc_with_intents(&names);
    assert_eq!(e.measures.len(), names.len());
    assert!(e.aggregate.iter().all(|v| v.as_f64().is_finite()), "{:?}", e.aggregate);
}

/// `test_ERR_IA`: ERR_IA@20 to 4 places.
#[test]
fn pyndeval_test_err_ia() {
    let (values, mean) = values_of(&calc_with_intents(&["ERR_IA@20"]), "ERR_IA@20");
    assert_eq!(values.iter().map(|(q, _)| q.as_str()).collect::<Vec<_>>(), ["0", "1"]);
    assert!(Tolerance::Places(4).holds(values[0].1, 0.4659), "{values:?}");
    assert!(Tolerance::Places(4).holds(values[1].1, 0.1803), "{values:?}");
    assert!(Tolerance::Places(4).holds(mean, 0.3231), "{mean}");
}

// ---- test_pytrec_eval.py (PytrecEvalProvider) ----

/// test_NumRel's qrels: query 1's D5 is 0.
const QRELS_NUM_REL: &str = "0 0 D0 0\n0 0 D1 1\n0 0 D2 1\n0 0 D3 2\n0 0 D4 0\n1 0 D0 1\n1 0 D3 2\n1 0 D5 0\n";
/// test_Success … test_SetF.
const QRELS_SET: &str = "0 0 D0 0\n0 0 D1 1\n0 0 D2 2\n0 0 D3 2\n0 0 D4 0\n1 0 D0 1\n1 0 D3 2\n1 0 D5 0\n";
const RUN_SET: &str = "0 0 D0 1 0.8 run\n0 0 D2 2 0.7 run\n0 0 D1 3 0.3 run\n0 0 D3 4 0.4 run\n0 0 D4 5 0.1 run\n\
1 0 D1 1 0.8 run\n1 0 D4 2 0.7 run\n1 0 D3 3 0.3 run\n1 0 D2 4 0.4 run\n";
/// test_IPrec.
const QRELS_IPREC: &str = "0 0 D0 1\n0 0 D1 1\n0 0 D2 2\n0 0 D3 2\n0 0 D4 0\n1 0 D0 1\n1 0 D3 2\n1 0 D5 0\n";
/// test_infAP and test_nDCG: negative grades.
const QRELS_INFAP: &str = "0 0 D0 1\n0 0 D1 -1\n0 0 D2 0\n0 0 D3 2\n0 0 D4 0\n1 0 D0 1\n1 0 D3 2\n1 0 D4 -1\n1 0 D5 0\n";
/// test_P.
const QRELS_P: &str = "0 0 D0 -1\n0 0 D1 1\n0 0 D3 2\n0 0 D4 1\n1 0 D0 1\n1 0 D3 0\n1 0 D4 -1\n";
const RUN_P: &str = "0 0 D0 1 0.8 run\n0 0 D2 2 0.7 run\n0 0 D1 3 0.3 run\n0 0 D3 4 0.4 run\n0 0 D4 5 0.1 run\n\
1 0 D1 1 0.8 run\n1 0 D0 2 0.7 run\n1 0 D3 3 0.3 run\n1 0 D2 4 0.4 run\n";

/// Two queries' values and the mean, as most of test_pytrec_eval.py asserts them.
fn assert_two(qrels: &str, run: &str, name: &str, q0: f64, q1: f64, mean: Option<f64>, tolerance: Tolerance) {
    assert_measure(qrels, run, name, &[("0", q0), ("1", q1)], mean, tolerance);
}

#[test]
fn pytrec_eval_test_num_ret_num_q_num_rel() {
    use Tolerance::Exact;
    assert_two(QRELS, RUN, "NumRet", 5.0, 4.0, Some(9.0), Exact);
    assert_two(QRELS, RUN, "NumRet(rel=1)", 3.0, 1.0, Some(4.0), Exact);
    assert_two(QRELS, RUN, "NumRet(rel=2)", 1.0, 1.0, Some(2.0), Exact);
    assert_two(QRELS, RUN, "NumRet(rel=3)", 0.0, 0.0, Some(0.0), Exact);
    assert_two(QRELS, RUN, "NumQ", 1.0, 1.0, Some(2.0), Exact);
    assert_two(QRELS_NUM_REL, RUN, "NumRel", 3.0, 2.0, Some(5.0), Exact);
}

#[test]
fn pytrec_eval_test_success() {
    use Tolerance::Exact;
    assert_two(QRELS_SET, RUN_SET, "Success@2", 1.0, 0.0, Some(0.5), Exact);
    assert_two(QRELS_SET, RUN_SET, "Success(rel=2)@2", 1.0, 0.0, Some(0.5), Exact);
    assert_two(QRELS_SET, RUN_SET, "Success(rel=3)@2", 0.0, 0.0, Some(0.0), Exact);
}

#[test]
fn pytrec_eval_test_set_p_set_r_set_ap() {
    use Tolerance::Exact;
    assert_two(QRELS_SET, RUN_SET, "SetP(rel=1)", 0.6, 0.25, Some(0.425), Exact);
    assert_two(QRELS_SET, RUN_SET, "SetRelP(rel=1)", 1.0, 0.5, Some(0.75), Exact);
    assert_two(QRELS_SET, RUN_SET, "SetP(rel=2)", 0.4, 0.25, Some(0.325), Exact);
    assert_two(QRELS_SET, RUN_SET, "SetRelP(rel=2)", 1.0, 1.0, Some(1.0), Exact);
    assert_two(QRELS_SET, RUN_SET, "SetP(rel=3)", 0.0, 0.0, Some(0.0), Exact);
    assert_two(QRELS_SET, RUN_SET, "SetR(rel=1)", 1.0, 0.5, Some(0.75), Exact);
    assert_two(QRELS_SET, RUN_SET, "SetR(rel=2)", 1.0, 1.0, Some(1.0), Exact);
    assert_two(QRELS_SET, RUN_SET, "SetR(rel=3)", 0.0, 0.0, Some(0.0), Exact);
    assert_two(QRELS_SET, RUN_SET, "SetAP(rel=1)", 0.6, 0.125, Some(0.3625), Exact);
    assert_two(QRELS_SET, RUN_SET, "SetAP(rel=2)", 0.4, 0.25, Some(0.325), Exact);
    assert_two(QRELS_SET, RUN_SET, "SetAP(rel=3)", 0.0, 0.0, Some(0.0), Exact);
}

#[test]
fn pytrec_eval_test_set_f() {
    use Tolerance::{Exact, Places};
    assert_two(QRELS_SET, RUN_SET, "SetF(rel=1)", 0.75, 0.33333, Some(0.5417), Places(4));
    assert_measure(QRELS_SET, RUN_SET, "SetF(rel=1,beta=0.5)", &[("0", 0.6923), ("1", 0.3)], Some(0.49615), Places(4));
    let (values, _) = values_of(&calc(QRELS_SET, RUN_SET, &["SetF(rel=1,beta=0.5)"]), "SetF(rel=1,beta=0.5)");
    assert_eq!(values[1].1, 0.3);
    assert_measure(QRELS_SET, RUN_SET, "SetF(rel=1,beta=2.0)", &[("0", 0.81818), ("1", 0.375)], Some(0.59659), Places(4));
    let (values, _) = values_of(&calc(QRELS_SET, RUN_SET, &["SetF(rel=1,beta=2.0)"]), "SetF(rel=1,beta=2.0)");
    assert_eq!(values[1].1, 0.375);
    assert_two(QRELS_SET, RUN_SET, "SetF(rel=3)", 0.0, 0.0, Some(0.0), Exact);
    // "make sure the multiple invocations happen correctly"
    let names = ["SetF(rel=1)", "SetF(rel=1,beta=0.5)", "SetF(rel=1,beta=2.0)", "SetF(rel=3)"];
    let e = calc(QRELS_SET, RUN_SET, &names);
    for (j, mean) in [0.5417, 0.49615, 0.59659].into_iter().enumerate() {
        assert!(Places(4).holds(e.aggregate[j].as_f64(), mean), "{}", names[j]);
    }
    assert_eq!(e.aggregate[3].as_f64(), 0.0);
}

#[test]
fn pytrec_eval_test_iprec() {
    use Tolerance::{Exact, Places};
    assert_two(QRELS_IPREC, RUN_SET, "IPrec@0.25", 1.0, 0.25, Some(0.625), Exact);
    assert_two(QRELS_IPREC, RUN_SET, "IPrec@0.5", 1.0, 0.25, Some(0.625), Exact);
    assert_two(QRELS_IPREC, RUN_SET, "IPrec@0.75", 1.0, 0.0, Some(0.5), Exact);
    for level in ["0.1", "0.25", "0.5", "0.75"] {
        let name = format!("IPrec(rel=2)@{level}");
        assert_two(QRELS_IPREC, RUN_SET, &name, 0.6666666, 0.25, Some(0.4583), Places(4));
        let (values, _) = values_of(&calc(QRELS_IPREC, RUN_SET, &[&name]), &name);
        assert_eq!(values[1].1, 0.25, "{name}");
    }
}

#[test]
fn pytrec_eval_test_inf_ap() {
    use Tolerance::Places;
    assert_two(QRELS_INFAP, RUN_SET, "AP", 0.8333, 0.125, Some(0.47916666666666663), Places(4));
    assert_two(QRELS_INFAP, RUN_SET, "infAP", 0.8333, 0.1875, Some(0.510416), Places(4));
    assert_two(QRELS_INFAP, RUN_SET, "AP(rel=2)", 0.33333, 0.25, Some(0.2917), Places(4));
    assert_two(QRELS_INFAP, RUN_SET, "infAP(rel=2)", 0.33333, 0.375, Some(0.3542), Places(4));
    // the test's assertEqual on query 1
    for (name, q1) in [("AP", 0.125), ("infAP", 0.1875)] {
        assert_eq!(values_of(&calc(QRELS_INFAP, RUN_SET, &[name]), name).0[1].1, q1, "{name}");
    }
}

/// `test_nDCG`: `assertMetrics` (4 places).
#[test]
fn pytrec_eval_test_ndcg() {
    use Tolerance::Places;
    assert_two(QRELS_INFAP, RUN_SET, "nDCG", 0.76018, 0.32739, None, Places(4));
    assert_two(QRELS_INFAP, RUN_SET, "nDCG@3", 0.76018, 0.0, None, Places(4));
    assert_two(QRELS_INFAP, RUN_SET, "nDCG(gains={0:1,1:4})", 0.97177, 0.14949, None, Places(4));
}

#[test]
fn pytrec_eval_test_p() {
    use Tolerance::Places;
    assert_two(QRELS_P, RUN_P, "P@4", 0.5, 0.25, None, Places(4));
    assert_two(QRELS_P, RUN_P, "P(judged_only=True)@4", 0.75, 0.25, None, Places(4));
}

/// `test_judged_only`: each measure with `judged_only=True` equals the measure on the run without its unjudged
/// documents (D0 is judged -1: unjudged; D2 is absent), and differs from the measure on the whole run.
#[test]
fn pytrec_eval_test_judged_only() {
    let qrels = "0 0 D0 -1\n0 0 D1 1\n0 0 D3 2\n0 0 D4 1\n";
    let run = "0 0 D0 1 0.8 run\n0 0 D2 2 0.7 run\n0 0 D1 3 0.3 run\n0 0 D3 4 0.4 run\n0 0 D4 5 0.1 run\n";
    let run_unjudged_removed = "0 0 D1 3 0.3 run\n0 0 D3 4 0.4 run\n0 0 D4 5 0.1 run\n";
    let measures = [
        ("P@4", "P(judged_only=True)@4"),
        ("RR", "RR(judged_only=True)"),
        ("Rprec", "Rprec(judged_only=True)"),
        ("AP", "AP(judged_only=True)"),
        ("AP@4", "AP(judged_only=True)@4"),
        ("nDCG", "nDCG(judged_only=True)"),
        ("nDCG@4", "nDCG(judged_only=True)@4"),
        ("R@2", "R(judged_only=True)@2"),
        ("SetP", "SetP(judged_only=True)"),
        ("SetAP", "SetAP(judged_only=True)"),
        ("SetF", "SetF(judged_only=True)"),
        ("Success@2", "Success(judged_only=True)@2"),
        ("IPrec@0.5", "IPrec(judged_only=True)@0.5"),
    ];
    for (plain, judged_only) in measures {
        let judged = values_of(&calc(qrels, run, &[judged_only]), judged_only).0[0].1;
        let removed = values_of(&calc(qrels, run_unjudged_removed, &[plain]), plain).0[0].1;
        let whole = values_of(&calc(qrels, run, &[plain]), plain).0[0].1;
        assert!(Tolerance::Places(4).holds(judged, removed), "{judged_only}: {judged}, without the unjudged {removed}");
        assert!(!Tolerance::Places(7).holds(judged, whole), "{judged_only}: {judged} equals {plain} on the whole run");
    }
}

// ---- test_ranx.py (ir_measures' ranx provider, one query) ----

/// `test_P`: the values ir_measures' ranx provider gives, asserted exactly (`Metric` equality).
#[test]
fn ranx_provider_test_p() {
    let cases: &[(&str, f64)] = &[
        ("P@5", 0.6),
        ("P(rel=2)@5", 0.2),
        ("SetP", 0.6),
        ("R@5", 1.0),
        ("R(rel=2)@5", 1.0),
        ("R@2", 0.3333333333333333),
        ("R(rel=2)@2", 0.0),
        ("SetR", 1.0),
        ("RR", 0.5),
        ("RR(rel=2)", 0.3333333333333333),
        ("RR@10", 0.5),
        ("RR(rel=2)@10", 0.3333333333333333),
        ("RR@2", 0.5),
        ("RR(rel=2)@2", 0.0),
        ("AP", 0.6388888888888888),
        ("AP(rel=2)", 0.3333333333333333),
        ("AP@10", 0.6388888888888888),
        ("AP(rel=2)@10", 0.3333333333333333),
        ("AP@2", 0.16666666666666666),
        ("AP(rel=2)@2", 0.0),
        ("Success@10", 1.0),
        ("Success(rel=2)@10", 1.0),
        ("Success@2", 1.0),
        ("Success(rel=2)@2", 0.0),
        ("NumRet(rel=1)", 3.0),
        ("nDCG", 0.6584645692843067),
        ("nDCG@5", 0.6584645692843067),
        ("nDCG@2", 0.23981246656813146),
        ("nDCG(dcg='exp-log2')", 0.6201040599710453),
        ("nDCG(dcg='exp-log2')@5", 0.6201040599710453),
        ("nDCG(dcg='exp-log2')@2", 0.17376534287144002),
        ("Rprec", 0.6666666666666666),
        ("Rprec(rel=2)", 0.0),
    ];
    let mut problems = Vec::new();
    for &(name, expected) in cases {
        match try_calc(ONE_QUERY_QRELS, ONE_QUERY_RUN, &[name]) {
            Ok(e) if e.per_query[0].values[0].as_f64() == expected => {}
            Ok(e) => problems.push(format!("{name}: rerankit {}, test {expected}", e.per_query[0].values[0].as_f64())),
            Err(e) => problems.push(format!("{name}: {}", e.message)),
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

// ---- test_util.py ----

/// `test_parse_trec_measure`: trec_eval's spellings (read in the trec_eval dialect) compute what ir_measures'
/// names they parse to compute, in the same order, on the shared qrels and run. trec_eval's `official` also
/// prints `runid` and `gm_map`, which ir_measures has no measure for; rerankit keeps trec_eval's list, so the
/// test checks ir_measures' 28 measures among its 30. `set_F.1.0,0.5,2.4` is one measure in trec_eval (its
/// parameter list sets β once, the first value), three in ir_measures.
#[test]
fn util_test_parse_trec_measure() {
    let standard = [5, 10, 15, 20, 30, 100, 200, 500, 1000];
    let with = |family: &str| standard.iter().map(|k| format!("{family}@{k}")).collect::<Vec<_>>();
    let official: Vec<String> = with("P")
        .into_iter()
        .chain(["Rprec", "Bpref"].map(String::from))
        .chain((0..=10).map(|i| format!("IPrec@{:.1}", i as f64 / 10.0)))
        .chain(["AP", "NumQ", "NumRel", "NumRelRet", "NumRet", "RR"].map(String::from))
        .collect();
    let strings = |names: &[&str]| names.iter().map(|n| n.to_string()).collect::<Vec<_>>();
    let cases: Vec<(&str, Vec<String>)> = vec![
        ("map", strings(&["AP"])),
        ("P_5", strings(&["P@5"])),
        ("P_5,10", strings(&["P@5", "P@10"])),
        ("P.5", strings(&["P@5"])),
        ("P.5,10", strings(&["P@5", "P@10"])),
        ("P", with("P")),
        ("ndcg", strings(&["nDCG"])),
        ("ndcg_cut.10", strings(&["nDCG@10"])),
        ("ndcg_cut.5,10", strings(&["nDCG@5", "nDCG@10"])),
        ("ndcg_cut_10", strings(&["nDCG@10"])),
        ("ndcg_cut_5,10", strings(&["nDCG@5", "nDCG@10"])),
        ("ndcg_cut", with("nDCG")),
        ("set_P", strings(&["SetP"])),
        ("set_recall", strings(&["SetR"])),
        ("set_F", strings(&["SetF"])),
        ("set_relative_P", strings(&["SetRelP"])),
        ("set_map", strings(&["SetAP"])),
        ("set_F.1.0,0.5,2.4", strings(&["SetF", "SetF(beta=0.5)", "SetF(beta=2.4)"])),
        ("official", official),
    ];
    let (qrels, run) = (Qrels::parse(QRELS).unwrap(), Run::parse(RUN, DuplicatePolicy::Error).unwrap());
    // per measure: its key and its per-query values then its aggregate
    let columns = |names: &[String], dialect: Dialect| -> Vec<(String, Vec<f64>)> {
        let options = EvaluateOptions { dialect: Some(dialect), ..Default::default() };
        let (requests, eval) = options.resolve(names).unwrap_or_else(|e| panic!("{names:?}: {}", e.message));
        let e = evaluate(&qrels, &run, &requests, &eval).unwrap();
        (0..e.measures.len())
            .map(|j| {
                let mut values: Vec<f64> = e.per_query.iter().map(|q| q.values[j].as_f64()).collect();
                values.push(e.aggregate[j].as_f64());
                (e.measures[j].key.clone(), values)
            })
            .collect()
    };
    for (trec, ir_measures_names) in cases {
        let ours = columns(&[trec.to_string()], Dialect::TrecEval);
        let theirs = columns(&ir_measures_names, Dialect::IrMeasures);
        let values = |c: &[(String, Vec<f64>)]| c.iter().map(|(_, v)| v.clone()).collect::<Vec<_>>();
        match trec {
            "set_F.1.0,0.5,2.4" => assert_eq!((ours.len(), values(&ours)[0].clone()), (1, values(&theirs)[0].clone()), "{trec}"),
            "official" => {
                let extra: Vec<&str> =
                    ours.iter().filter(|(_, v)| !values(&theirs).contains(v)).map(|(k, _)| k.as_str()).collect();
                assert_eq!(extra, ["runid", "gm_map"], "{trec}");
                assert!(values(&theirs).iter().all(|v| values(&ours).contains(v)), "{trec}");
                assert_eq!(ours.len(), theirs.len() + 2, "{trec}");
            }
            _ => assert_eq!(values(&ours), values(&theirs), "{trec}: {ir_measures_names:?}"),
        }
    }
}

/// `test_parse_measure`: the spellings ir_measures parses to one measure compute the same.
#[test]
fn util_test_parse_measure() {
    let cases = [
        ("AP", "AP"),
        ("MAP", "AP"),
        ("P@10", "P@10"),
        ("nDCG@10", "nDCG@10"),
        ("P(rel=2)@10", "P(rel=2)@10"),
        ("nDCG(dcg=\"exp-log2\")@10", "nDCG(dcg='exp-log2')@10"),
        ("nDCG(dcg=\"exp-log2\", cutoff=20)@10", "nDCG(dcg='exp-log2')@10"),
        ("nDCG(dcg=\"exp-log2\", cutoff=20)", "nDCG(dcg='exp-log2')@20"),
        ("nDCG(gains={0:1,1:2})", "nDCG(gains={0:1,1:2})"),
        ("nDCG(gains={1: 2, 0: 1})", "nDCG(gains={0:1,1:2})"),
        ("nDCG(gains={0:1,1:2})@5", "nDCG(gains={0:1,1:2})@5"),
        ("IPrec@0.2", "IPrec@0.2"),
        ("IPrec(rel=2)@0.2", "IPrec(rel=2)@0.2"),
        ("IPrec(rel=2, recall=0.4)@0.2", "IPrec(rel=2)@0.2"),
        ("IPrec(rel=2, recall=0.4)", "IPrec(rel=2)@0.4"),
    ];
    for (spelling, canonical) in cases {
        let ours = calc(QRELS, RUN, &[spelling]);
        let theirs = calc(QRELS, RUN, &[canonical]);
        assert_eq!(ours.measures[0].metric, theirs.measures[0].metric, "{spelling} is {canonical}");
        assert_eq!(ours.aggregate, theirs.aggregate, "{spelling}");
    }
}
