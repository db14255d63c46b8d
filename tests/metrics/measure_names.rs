//! Measure spellings read exactly as their tool reads them (issue #41), against the tools' own answers in
//! tests/fixtures/collection/measure_names (tests/fixtures/gen/make_measure_names.py, on the dialects fixture's
//! 60 queries): ranx 0.3.21's `dcg@k`, `dcg_burges@k`, `rbp.95` / `rbp@95` with `return_std`; trec_eval 10.0's
//! comma lists and nicknames as it prints them; pytrec_eval's underscore lists (`P_5,10`); ir_measures 0.4.3's
//! parameters, every one it registers for the measures rerankit computes, with its values or its refusals.


use rerankit::metrics::{evaluate, format_trec_eval, Dialect, DuplicatePolicy, EvaluateOptions, Evaluation, Qrels, Run};
use serde_json::Value as Json;

use super::dialects::{fixture_with, read, Fixture};

fn fixture() -> Fixture {
    fixture_with("measure_names")
}

fn evaluate_in(f: &Fixture, names: &[&str], dialect: Dialect) -> rerankit::Result<Evaluation> {
    let options = EvaluateOptions { dialect: Some(dialect), ..Default::default() };
    let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
    let (requests, eval) = options.resolve(&names)?;
    evaluate(&f.qrels, &f.run, &requests, &eval)
}

fn close(a: f64, b: f64, tolerance: f64) -> bool {
    (a - b).abs() <= tolerance
}

/// Names whose value in this fixture is ranx's evaluate's bpref at a level, which leaves 0 for every query after
/// one without relevant documents at the level in the same numba work chunk (tests/fixtures/gen/make_ranx_levels.py);
/// rerankit gives ranx's per-query bpref, compared in [`ranx_levels_clean_the_qrels_as_ranx_does`].
const RANX_PARALLEL_LOOP_ZEROS: &[&str] = &["bpref-l2"];

/// ranx's per-query values, means and `return_std` standard deviations, one name at a time and all at once.
#[test]
fn ranx_names_and_return_std() {
    let f = fixture();
    let mut problems = Vec::new();
    let mut compared = 0;
    for (name, expected) in f.values["ranx"].as_object().unwrap() {
        if RANX_PARALLEL_LOOP_ZEROS.contains(&name.as_str()) {
            continue;
        }
        let ours = evaluate_in(&f, &[name], Dialect::Ranx);
        if let Some(error) = expected["error"].as_str() {
            match ours {
                Err(e) => assert!(e.message.contains(name.as_str()), "{name}: {}", e.message),
                Ok(_) => problems.push(format!("{name}: ranx refuses it ({error}), rerankit computes it")),
            }
            continue;
        }
        let ours = match ours {
            Ok(ours) => ours,
            Err(e) => {
                problems.push(format!("{name}: {}", e.message));
                continue;
            }
        };
        assert_eq!(ours.measures.len(), 1, "{name}");
        let per_query = expected["per_query"].as_object().unwrap();
        assert_eq!(ours.per_query.len(), per_query.len(), "{name}: queries");
        for q in &ours.per_query {
            let theirs = per_query[&q.qid].as_f64().unwrap();
            if !close(q.values[0].as_f64(), theirs, 1e-12) {
                problems.push(format!("{name} {}: ours {} ranx {theirs}", q.qid, q.values[0].as_f64()));
            }
        }
        let (mean, std) = (ours.aggregate[0].as_f64(), ours.standard_deviations()[0]);
        if !close(mean, expected["mean"].as_f64().unwrap(), 1e-12) || !close(std, expected["std"].as_f64().unwrap(), 1e-12) {
            problems.push(format!("{name}: mean/std ours {mean}/{std}, ranx {}/{}", expected["mean"], expected["std"]));
        }
        compared += 1;
    }
    assert!(problems.is_empty(), "{} differ:\n{}", problems.len(), problems.join("\n"));
    assert!(compared >= 25, "{compared} names compared");

    let all = f.values["ranx_all"].as_object().unwrap();
    let names: Vec<&str> = all.keys().map(String::as_str).filter(|n| !RANX_PARALLEL_LOOP_ZEROS.contains(n)).collect();
    let ours = evaluate_in(&f, &names, Dialect::Ranx).unwrap();
    let std = ours.standard_deviations();
    assert_eq!(ours.measures.len(), names.len());
    for (j, request) in ours.measures.iter().enumerate() {
        let theirs = &all[&request.key];
        assert!(close(ours.aggregate[j].as_f64(), theirs["mean"].as_f64().unwrap(), 1e-12), "{} mean", request.key);
        assert!(close(std[j], theirs["std"].as_f64().unwrap(), 1e-12), "{} std: ours {} ranx {}", request.key, std[j], theirs["std"]);
    }
}

/// ranx's `ndcg_burges`, `bpref` and `rbp` bare and at the levels -l0 … -l5 (tests/fixtures/collection/ranx_levels,
/// tests/fixtures/gen/make_ranx_levels.py): on the dialects fixture, and on small qrels with negative grades, a
/// query without judged non-relevant documents (ranx's bpref is NaN there) and levels above every grade. bpref is
/// compared with ranx's `_bpref` query by query (see [`RANX_PARALLEL_LOOP_ZEROS`]).
#[test]
fn ranx_levels_clean_the_qrels_as_ranx_does() {
    let levels: Json = serde_json::from_str(&read("ranx_levels", "values.json")).unwrap();
    let small = Fixture {
        qrels: Qrels::parse(&read("ranx_levels", "small.qrels")).unwrap(),
        run: Run::parse(&read("ranx_levels", "small.run"), DuplicatePolicy::Error).unwrap(),
        values: Json::Null,
    };
    let same = |ours: f64, theirs: &Json| match theirs.as_f64() {
        Some(theirs) => close(ours, theirs, 1e-12),
        None => theirs.as_str() == Some("nan") && ours.is_nan(),
    };
    let mut problems = Vec::new();
    let mut compared = 0;
    for (label, f) in [("dialects", &fixture()), ("small", &small)] {
        for (name, expected) in levels[label].as_object().unwrap() {
            let ours = match evaluate_in(f, &[name], Dialect::Ranx) {
                Ok(ours) => ours,
                Err(e) => {
                    problems.push(format!("{label} {name}: {}", e.message));
                    continue;
                }
            };
            for q in &ours.per_query {
                if !same(q.values[0].as_f64(), &expected["per_query"][&q.qid]) {
                    problems.push(format!("{label} {name} {}: ours {} ranx {}", q.qid, q.values[0].as_f64(), expected["per_query"][&q.qid]));
                }
            }
            if !same(ours.aggregate[0].as_f64(), &expected["mean"]) {
                problems.push(format!("{label} {name} mean: ours {} ranx {}", ours.aggregate[0].as_f64(), expected["mean"]));
            }
            compared += 1;
        }
    }
    assert!(problems.is_empty(), "{} differ:\n{}", problems.len(), problems.join("\n"));
    assert_eq!(compared, 2 * 5 * 7);
}

/// ranx's spellings around its levels: `bpref@k` is bpref (ranx ignores bpref's k, at any level); a malformed
/// level, rbp without its persistence, or an unknown name is an `INVALID_ARGUMENT` naming it.
#[test]
fn ranx_level_spellings() {
    let f = fixture();
    let value = |name: &str| evaluate_in(&f, &[name], Dialect::Ranx).unwrap().aggregate[0].as_f64();
    assert_eq!(value("bpref@5"), value("bpref"));
    assert_eq!(value("bpref@5-l2"), value("bpref-l2"));
    for (name, needle) in [
        ("ndcg_burges-lx", "relevance level"),
        ("bpref-l", "relevance level"),
        ("rbp-l2", "persistence"),
        ("bpref@x", "cutoff"),
        ("bpreff-l2", "bpref"),
    ] {
        let error = evaluate_in(&f, &[name], Dialect::Ranx).unwrap_err();
        assert_eq!(error.code, rerankit::ErrorCode::InvalidArgument, "{name}");
        assert!(error.message.contains(name) && error.message.contains(needle), "{name}: {}", error.message);
    }
}

/// `dcg@k`, `dcg_burges@k` and `rbp@95` are ranx's alone, so they mean the same in every dialect; bare `dcg` is
/// trec_eval's outside the ranx dialect.
#[test]
fn ranx_only_names_in_every_dialect() {
    let f = fixture();
    for name in ["dcg@10", "dcg_burges@5", "dcg_burges", "rbp@95"] {
        let ranx = evaluate_in(&f, &[name], Dialect::Ranx).unwrap();
        for dialect in [Dialect::TrecEval, Dialect::IrMeasures] {
            let other = evaluate_in(&f, &[name], dialect).unwrap_or_else(|e| panic!("{name}: {}", e.message));
            assert_eq!(other.measures, ranx.measures, "{name} in {}", dialect.as_str());
        }
    }
    let trec = evaluate_in(&f, &["dcg"], Dialect::TrecEval).unwrap();
    assert_eq!(trec.measures[0].metric, rerankit::metrics::Metric::Dcg(Default::default()));
}

/// trec_eval's comma lists, nicknames and parameter lists, printed as trec_eval prints them; what it refuses is
/// refused, except pytrec_eval's underscore spelling (below).
#[test]
fn trec_eval_lists_as_trec_eval_prints_them() {
    let f = fixture();
    let mut problems = Vec::new();
    for (name, expected) in f.values["trec_eval"].as_object().unwrap() {
        let ours = evaluate_in(&f, &[name], Dialect::TrecEval);
        if let Some(error) = expected["error"].as_str() {
            let pytrec_eval_spelling = f.values["pytrec_eval"].get(name).is_some_and(|v| v["error"].is_null());
            if ours.is_ok() && !pytrec_eval_spelling {
                problems.push(format!("{name}: trec_eval refuses it ({error}), rerankit computes it"));
            }
            continue;
        }
        match ours {
            Err(e) => problems.push(format!("{name}: {}", e.message)),
            Ok(ours) => {
                let text = format_trec_eval(&ours, true);
                let stdout = expected["stdout"].as_str().unwrap();
                if text != stdout {
                    let first = text.lines().zip(stdout.lines()).find(|(a, b)| a != b);
                    problems.push(format!("{name}: first difference {first:?}; {} vs {} lines", text.lines().count(), stdout.lines().count()));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{} differ:\n{}", problems.len(), problems.join("\n"));
}

/// pytrec_eval's spelling `family_p1,p2` (trec_eval refuses it) is trec_eval's `family.p1,p2`: the same measures
/// under the names pytrec_eval keys them by, with the values trec_eval prints for the dotted name.
#[test]
fn pytrec_eval_underscore_lists() {
    let f = fixture();
    let mut problems = Vec::new();
    for (name, expected) in f.values["pytrec_eval"].as_object().unwrap() {
        let ours = match evaluate_in(&f, &[name], Dialect::TrecEval) {
            Ok(ours) => ours,
            Err(e) => {
                problems.push(format!("{name}: {}", e.message));
                continue;
            }
        };
        let dotted = expected["trec_eval_name"].as_str().unwrap();
        let reference = evaluate_in(&f, &[dotted], Dialect::TrecEval).unwrap();
        let names = |e: &Evaluation| e.measures.iter().map(|m| m.metric.clone()).collect::<Vec<_>>();
        if names(&ours) != names(&reference) {
            problems.push(format!("{name}: {:?}, trec_eval's {dotted} {:?}", names(&ours), names(&reference)));
        }
        if format_trec_eval(&ours, true) != format_trec_eval(&reference, true) {
            problems.push(format!("{name}: values differ from {dotted}'s"));
        }
        // pytrec_eval's keys (it drops set_F's parameter from the key)
        let first_query = expected["per_query"].as_object().unwrap().values().next().unwrap().as_object().unwrap();
        if ours.measures.len() > 1 {
            let mut keys: Vec<&str> = ours.measures.iter().map(|m| m.key.as_str()).collect();
            let mut theirs: Vec<&str> = first_query.keys().map(String::as_str).collect();
            keys.sort_unstable();
            theirs.sort_unstable();
            if keys != theirs {
                problems.push(format!("{name}: keys {keys:?}, pytrec_eval's {theirs:?}"));
            }
        }
    }
    assert!(problems.is_empty(), "{} differ:\n{}", problems.len(), problems.join("\n"));
}

/// ir_measures names its DefaultPipeline hands to its ranx provider, which fails in the fixture's environment
/// (pandas 3 gives the query ids a string dtype that ranx 0.3.21's `Qrels.from_df` asserts is `object`), with the
/// ranx name computing what that provider computes under pandas 2 (checked with pandas 2.2.3: 0.6703200987407719).
const RANX_PROVIDER_UNDER_PANDAS_3: &[(&str, &str)] = &[("nDCG(dcg='exp-log2')", "ndcg_burges")];

/// Every ir_measures name of the fixture in the ir_measures dialect: refused where ir_measures refuses it (at
/// parsing, validation, or for want of a provider), else its provider's values per query and mean (gdeval's to
/// its 5 printed decimals, the others to 1e-9). A query the provider reports nothing for must be NaN (no value:
/// `Accuracy`) or 0 in rerankit.
#[test]
fn ir_measures_parameters() {
    let f = fixture();
    let mut problems = Vec::new();
    let (mut computed, mut refused) = (0, 0);
    let mut largest: f64 = 0.0;
    for (name, ranx_name) in RANX_PROVIDER_UNDER_PANDAS_3 {
        let ours = evaluate_in(&f, &[name], Dialect::IrMeasures).unwrap().aggregate[0].as_f64();
        assert!(close(ours, f.values["ranx"][ranx_name]["mean"].as_f64().unwrap(), 1e-12), "{name}: {ours}");
    }
    for (name, expected) in f.values["ir_measures"].as_object().unwrap() {
        if RANX_PROVIDER_UNDER_PANDAS_3.iter().any(|(n, _)| n == name) {
            continue;
        }
        let ours = evaluate_in(&f, &[name], Dialect::IrMeasures);
        if let Some(error) = expected["error"].as_str() {
            match ours {
                Err(e) => {
                    refused += 1;
                    assert_eq!(e.code, rerankit::ErrorCode::InvalidArgument, "{name}");
                    assert!(e.message.contains(name.as_str()), "{name}: the message names it: {}", e.message);
                }
                Ok(_) => problems.push(format!("{name}: ir_measures refuses it ({error}), rerankit computes it")),
            }
            continue;
        }
        let ours = match ours {
            Ok(ours) => ours,
            Err(e) => {
                problems.push(format!("{name}: ir_measures computes it ({}), rerankit: {}", expected["provider"], e.message));
                continue;
            }
        };
        let tolerance = if expected["provider"] == "gdeval" { 5e-6 } else { 1e-9 };
        let per_query = expected["per_query"].as_object().unwrap();
        for q in &ours.per_query {
            // a query the provider reports nothing for: rerankit's NaN (no value; Accuracy) or 0
            let Some(theirs) = per_query.get(&q.qid).and_then(Json::as_f64) else {
                let ours = q.values[0].as_f64();
                if !(ours.is_nan() || ours == 0.0) {
                    problems.push(format!("{name} {}: ours {ours}, ir_measures reports nothing", q.qid));
                }
                continue;
            };
            if expected["provider"] != "gdeval" {
                largest = largest.max((q.values[0].as_f64() - theirs).abs());
            }
            if !close(q.values[0].as_f64(), theirs, tolerance) {
                problems.push(format!("{name} {}: ours {} ir_measures {theirs} ({})", q.qid, q.values[0].as_f64(), expected["provider"]));
                break;
            }
        }
        let mean = expected["mean"].as_f64().unwrap();
        if !close(ours.aggregate[0].as_f64(), mean, tolerance) {
            problems.push(format!("{name} mean: ours {} ir_measures {mean}", ours.aggregate[0].as_f64()));
        }
        computed += 1;
    }
    eprintln!("ir_measures names: {computed} computed, {refused} refused; largest difference (gdeval's 5 decimals aside) {largest:e}");
    assert!(problems.is_empty(), "{} differ:\n{}", problems.len(), problems.join("\n"));
}
