//! Haystack 1.x EvaluationResult conformance: every expected value below was produced by farm-haystack
//! 1.26.4.post0 itself (scripts/fixtures/haystack/make_haystack_eval.py) on SciFact-based labels/predictions.

use rerankit::eval::haystack::context::calculate_context_similarity;
use rerankit::eval::haystack::{AnswerScope, DocumentScope, EvalMode, HaystackMetricsOptions, WrongExamplesOptions};
use rerankit::python::numpy_argsort::argsort_quicksort;
use rerankit::eval::haystack::{parse_eval_input, ContextMatchingOptions, EvaluationResult, NodeTable};
use serde_json::Value;
use std::io::Read;
use std::path::PathBuf;
use std::sync::OnceLock;

fn fixture(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/haystack").join(rel)
}

fn read_json(rel: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(fixture(rel)).unwrap()).unwrap()
}

fn close(a: &Value, b: &Value, path: &str) -> Result<(), String> {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
            if (x - y).abs() <= 1e-9 * (1.0 + y.abs()) {
                Ok(())
            } else {
                Err(format!("{path}: {x} != {y}"))
            }
        }
        (Value::Bool(x), Value::Number(y)) | (Value::Number(y), Value::Bool(x)) => {
            if (*x as i64 as f64) == y.as_f64().unwrap() {
                Ok(())
            } else {
                Err(format!("{path}: {x} != {y}"))
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            if x.len() != y.len() {
                return Err(format!("{path}: length {} != {}", x.len(), y.len()));
            }
            for (i, (p, q)) in x.iter().zip(y).enumerate() {
                close(p, q, &format!("{path}[{i}]"))?;
            }
            Ok(())
        }
        (Value::Object(x), Value::Object(y)) => {
            let kx: Vec<&String> = x.keys().collect();
            let ky: Vec<&String> = y.keys().collect();
            if kx != ky {
                return Err(format!("{path}: keys {kx:?} != {ky:?}"));
            }
            for (k, v) in x {
                close(v, &y[k], &format!("{path}.{k}"))?;
            }
            Ok(())
        }
        _ if a == b => Ok(()),
        _ => Err(format!("{path}: {a} != {b}")),
    }
}

fn haystack_csvs() -> Vec<(String, String)> {
    ["Reader.csv", "Retriever.csv"]
        .iter()
        .map(|n| (n.to_string(), std::fs::read_to_string(fixture(&format!("node_results/{n}"))).unwrap()))
        .collect()
}

/// rerankit's rows for eval_input.json (built once: context matching over every row is the slow part).
fn built() -> &'static EvaluationResult {
    static BUILT: OnceLock<EvaluationResult> = OnceLock::new();
    BUILT.get_or_init(|| {
        let input = read_json("eval_input.json");
        let (queries, labels, nodes) = parse_eval_input(&input).unwrap();
        EvaluationResult::from_predictions(&queries, &labels, &nodes, &ContextMatchingOptions::default(), None).unwrap()
    })
}

/// The first line (and field) where two CSV texts differ.
fn first_difference(a: &str, b: &str) -> String {
    for (i, (x, y)) in a.lines().zip(b.lines()).enumerate() {
        if x != y {
            let (fx, fy): (Vec<&str>, Vec<&str>) = (x.split(',').collect(), y.split(',').collect());
            let k = fx.iter().zip(&fy).position(|(p, q)| p != q).unwrap_or(0);
            return format!("line {}: field ~{k}: {:?} != {:?}", i + 1, &fx.get(k).unwrap_or(&""), &fy.get(k).unwrap_or(&""));
        }
    }
    format!("{} lines != {} lines", a.lines().count(), b.lines().count())
}

#[test]
fn context_similarity_equals_haystack() {
    let cases = read_json("context_similarity.json");
    let mut bad = Vec::new();
    for (i, c) in cases.as_array().unwrap().iter().enumerate() {
        let (a, b) = (c["context"].as_str().unwrap(), c["candidate"].as_str().unwrap());
        for (key, min_len, boost) in [("score", 100, true), ("score_no_boost", 100, false), ("score_min_length_20", 20, true)] {
            let got = calculate_context_similarity(a, b, min_len, boost);
            let want = c[key].as_f64().unwrap();
            if (got - want).abs() > 1e-9 {
                bad.push(format!("pair {i} {key}: {got} != {want}"));
            }
        }
    }
    assert!(bad.is_empty(), "{} mismatches:\n{}", bad.len(), bad[..bad.len().min(20)].join("\n"));
}

#[test]
fn csv_round_trip_is_exact() {
    for (name, text) in haystack_csvs() {
        let t = NodeTable::from_csv(&name, &text).unwrap();
        assert_eq!(t.to_csv(), text, "{name}");
    }
    let r = built();
    for (name, text) in r.to_csv_files() {
        let back = NodeTable::from_csv(&name, &text).unwrap();
        assert_eq!(back.to_csv(), text, "{name}: save, load, save gives the same bytes");
    }
    let json = r.to_json();
    let again = EvaluationResult::from_json(&json).unwrap();
    assert_eq!(again.to_json(), json);
}

#[test]
fn rows_equal_haystack_eval_batch() {
    // Byte for byte what Haystack's EvaluationResult.save wrote for what its Pipeline.eval_batch returns
    // (_build_eval_dataframe's rows, then _reorder_columns_in_eval_result): the columns, their order, every value
    // (floats in Python's repr), None and "" alike written as "".
    let ours = built().to_csv_files();
    let theirs = haystack_csvs();
    let names = |v: &[(String, String)]| v.iter().map(|(n, _)| n.clone()).collect::<std::collections::BTreeSet<_>>();
    assert_eq!(names(&ours), names(&theirs), "nodes");
    for (name, text) in &theirs {
        let mine = &ours.iter().find(|(n, _)| n == name).unwrap().1;
        if mine != text {
            let dump = std::env::temp_dir().join(format!("rerankit-haystack-{name}"));
            let _ = std::fs::write(&dump, mine);
            panic!("{name}: {} (rerankit's CSV: {})", first_difference(mine, text), dump.display());
        }
    }
}

fn options(case: &Value) -> HaystackMetricsOptions {
    HaystackMetricsOptions {
        simulated_top_k_reader: case["simulated_top_k_reader"].as_i64().unwrap(),
        simulated_top_k_retriever: case["simulated_top_k_retriever"].as_i64().unwrap(),
        document_scope: DocumentScope::parse(case["document_scope"].as_str().unwrap()).unwrap(),
        answer_scope: AnswerScope::parse(case["answer_scope"].as_str().unwrap()).unwrap(),
        eval_mode: EvalMode::parse(case["eval_mode"].as_str().unwrap()).unwrap(),
    }
}

#[test]
fn calculate_metrics_equals_haystack_on_the_whole_grid() {
    let grid = read_json("metrics.json");
    // on Haystack's own rows (loaded from its CSVs) and on the rows rerankit built
    let loaded = EvaluationResult::from_csv_files(&haystack_csvs()).unwrap();
    let mut n = 0;
    for case in grid.as_array().unwrap() {
        let o = options(case);
        for r in [&loaded, built()] {
            let got = r.calculate_metrics(&o).unwrap();
            // the warnings Haystack logged for the call (the scope one, once per node)
            assert_eq!(Value::from(got.warnings), case["warnings"], "{case}: warnings");
            let mut m = serde_json::Map::new();
            for (k, v) in got.value {
                m.insert(k, Value::Object(v));
            }
            // Haystack's dict order is its node order (Reader saved first by the generator): compare per node
            for (node, want) in case["metrics"].as_object().unwrap() {
                if let Err(e) = close(&m[node], want, &format!("{case}: {node}")) {
                    panic!("{e}");
                }
            }
            n += 1;
        }
    }
    assert_eq!(n, 2 * 288);
}

#[test]
fn argsort_equals_numpy_quicksort() {
    // numpy 1.26's portable argsort(kind="quicksort") on 300 tie-heavy arrays (with NaN in some)
    let fx = read_json("argsort.json");
    for (i, case) in fx["cases"].as_array().unwrap().iter().enumerate() {
        let v: Vec<f64> = case["values"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap_or(f64::NAN)).collect();
        let want: Vec<usize> = case["argsort"].as_array().unwrap().iter().map(|x| x.as_u64().unwrap() as usize).collect();
        assert_eq!(argsort_quicksort(&v), want, "case {i} (n = {})", v.len());
    }
}

fn wrong_examples_options(a: &Value) -> WrongExamplesOptions {
    let mut o = WrongExamplesOptions::default();
    let get_i = |k: &str, d: i64| a.get(k).and_then(Value::as_i64).unwrap_or(d);
    let get_f = |k: &str, d: f64| a.get(k).and_then(Value::as_f64).unwrap_or(d);
    let get_s = |k: &str, d: &str| a.get(k).and_then(Value::as_str).unwrap_or(d).to_string();
    o.n = get_i("n", 3) as usize;
    o.metrics.simulated_top_k_reader = get_i("simulated_top_k_reader", -1);
    o.metrics.simulated_top_k_retriever = get_i("simulated_top_k_retriever", -1);
    o.metrics.document_scope = DocumentScope::parse(&get_s("document_scope", "document_id_or_answer")).unwrap();
    o.metrics.answer_scope = AnswerScope::parse(&get_s("answer_scope", "any")).unwrap();
    o.metrics.eval_mode = EvalMode::parse(&get_s("eval_mode", "integrated")).unwrap();
    o.document_metric = get_s("document_metric", "recall_single_hit");
    o.answer_metric = get_s("answer_metric", "f1");
    o.document_metric_threshold = get_f("document_metric_threshold", 0.5);
    o.answer_metric_threshold = get_f("answer_metric_threshold", 0.5);
    o
}

/// Every case of wrong_examples.json on `r`; the differences found.
fn wrong_examples_differences(r: &EvaluationResult) -> Vec<String> {
    let cases = read_json("wrong_examples.json");
    assert!(cases.as_array().unwrap().len() >= 14);
    let mut bad = Vec::new();
    for case in cases.as_array().unwrap() {
        let a = &case["args"];
        let o = wrong_examples_options(a);
        let got = Value::Array(r.wrong_examples(a["node"].as_str().unwrap(), &o).unwrap().value);
        if let Err(e) = close(&got, &case["result"], &a.to_string()) {
            bad.push(e);
        }
    }
    bad
}

#[test]
fn wrong_examples_equal_haystack() {
    // Haystack's wrong_examples on its in-memory EvaluationResult; rerankit's on the rows it built (which
    // rows_equal_haystack_eval_batch shows are Haystack's). Exact: which queries, their order
    // (ties in numpy's quicksort order), the columns of each row, null vs "".
    let bad = wrong_examples_differences(built());
    assert!(bad.is_empty(), "{} cases differ:\n{}", bad.len(), bad.join("\n"));
}

#[test]
fn wrong_examples_equal_haystack_on_its_own_rows() {
    // the same on Haystack's in-memory rows themselves (node_results.json.gz), read with from_json
    let mut text = String::new();
    let gz = std::fs::read(fixture("node_results.json.gz")).unwrap();
    flate2::read::GzDecoder::new(&gz[..]).read_to_string(&mut text).unwrap();
    let r = EvaluationResult::from_json(&serde_json::from_str(&text).unwrap()).unwrap();
    let bad = wrong_examples_differences(&r);
    assert!(bad.is_empty(), "{} cases differ:\n{}", bad.len(), bad.join("\n"));
}
