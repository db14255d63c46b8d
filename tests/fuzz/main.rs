//! Fuzzing every parser a caller can feed: seeded mutations of real files (tests/fuzz/mutation.rs) through each
//! parser and on into what consumes its output (a parsed run is evaluated, a parsed model scores a pair), failing
//! on any panic — on wasm32 a panic is a trap — and on any input that runs past a generous bound (a hang).
//!
//! `cargo test --test fuzz` runs each target for `RERANKIT_FUZZ_INPUTS` inputs (default 300: the CI share) from
//! seed `RERANKIT_FUZZ_SEED` (default 1); `npm run fuzz -- --seconds N` gives each target N seconds instead
//! (`RERANKIT_FUZZ_SECONDS`). A failure prints the target, the seed, the input's number and its bytes, and
//! writes them to `target/fuzz-failures/`.

mod mutation;

use mutation::{mutate, Rng};
use rerankit::eval::agent::{self, llm::Config, Responses};
use rerankit::eval::haystack::{table::parse_literal, EvaluationResult, HaystackMetricsOptions};
use rerankit::inference::batching::Batch;
use rerankit::inference::bert::{BertWeights, CpuBert};
use rerankit::inference::{CrossEncoder, ModelFiles, ModelLoadOptions, Output, PreparedModel};
use rerankit::metrics::{evaluate, parse_measures, DuplicatePolicy, EvalOptions, Qrels, Run};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Longer than any parser takes on 64 KiB by orders of magnitude: past it, an input counts as a hang.
const HANG: Duration = Duration::from_secs(10);

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: impl AsRef<Path>) -> Vec<u8> {
    let path = repo().join(path);
    std::fs::read(&path).unwrap_or_else(|e| panic!("fuzz seed {}: {e}", path.display()))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Seeds: every file under `dir` whose name passes `keep`, at most 64 KiB each.
fn seeds_in(dir: &str, keep: impl Fn(&str) -> bool) -> Vec<Vec<u8>> {
    let mut paths: Vec<PathBuf> = walk(&repo().join(dir));
    paths.sort();
    paths
        .into_iter()
        .filter(|p| keep(&p.file_name().unwrap_or_default().to_string_lossy()))
        .map(std::fs::read)
        .filter_map(std::result::Result::ok)
        .filter(|b| b.len() <= 1 << 16)
        .collect()
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    entries
        .flatten()
        .flat_map(|e| if e.path().is_dir() { walk(&e.path()) } else { vec![e.path()] })
        .collect()
}

/// How many inputs, or for how long, each target runs.
#[derive(Clone, Copy)]
enum Budget {
    Inputs(usize),
    Seconds(u64),
}

fn budget() -> Budget {
    let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    match (var("RERANKIT_FUZZ_SECONDS"), var("RERANKIT_FUZZ_INPUTS")) {
        (Some(s), _) => Budget::Seconds(s.parse().expect("RERANKIT_FUZZ_SECONDS: a number of seconds")),
        (None, Some(n)) => Budget::Inputs(n.parse().expect("RERANKIT_FUZZ_INPUTS: a number of inputs")),
        (None, None) => Budget::Inputs(300),
    }
}

/// Runs `target` on mutations of `seeds` within the budget; panics (the test fails) on the first panic or hang,
/// after saving the input. Prints `target: inputs, errors, accepted`.
fn fuzz(name: &str, seeds: &[Vec<u8>], target: impl Fn(&[u8]) -> bool) {
    assert!(!seeds.is_empty(), "{name}: no seed files");
    let seed: u64 = std::env::var("RERANKIT_FUZZ_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(1);
    let mut rng = Rng::new(seed ^ name.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3)));
    // the default hook would print every caught panic; each is reported once, below
    std::panic::set_hook(Box::new(|_| {}));
    let start = Instant::now();
    let (mut inputs, mut accepted) = (0usize, 0usize);
    // the seeds themselves first, then mutations
    let next = |i: usize, rng: &mut Rng| if i < seeds.len() { seeds[i].clone() } else { mutate(rng, seeds) };
    loop {
        match budget() {
            Budget::Inputs(n) if inputs >= n.max(seeds.len()) => break,
            Budget::Seconds(s) if start.elapsed() >= Duration::from_secs(s) && inputs >= seeds.len() => break,
            _ => {}
        }
        let input = next(inputs, &mut rng);
        let t = Instant::now();
        let outcome = catch_unwind(AssertUnwindSafe(|| target(&input)));
        let took = t.elapsed();
        let failure = match outcome {
            Err(panic) => Some(format!(
                "panicked: {}",
                panic.downcast_ref::<String>().cloned().or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string())).unwrap_or_default()
            )),
            Ok(_) if took > HANG => Some(format!("ran {took:?} (a hang: the bound is {HANG:?})")),
            Ok(ok) => {
                accepted += ok as usize;
                None
            }
        };
        if let Some(failure) = failure {
            let dir = repo().join("target/fuzz-failures");
            let _ = std::fs::create_dir_all(&dir);
            let file = dir.join(format!("{name}-seed{seed}-{inputs}.bin"));
            let _ = std::fs::write(&file, &input);
            LAST_MODEL.with(|m| {
                if !m.borrow().is_empty() {
                    let _ = std::fs::write(file.with_extension("onnx"), &*m.borrow());
                }
            });
            drop(std::panic::take_hook()); // the default hook again, to print this failure
            panic!(
                "{name}: input {inputs} (seed {seed}) {failure}\n  saved to {}\n  input: {:?}",
                file.display(),
                text(&input[..input.len().min(2000)])
            );
        }
        inputs += 1;
    }
    drop(std::panic::take_hook());
    println!("{name}: {inputs} inputs in {:.1} s, {accepted} accepted, {} refused with an error, 0 panics, 0 hangs", start.elapsed().as_secs_f64(), inputs - accepted);
}

fn trec_seeds(prefix: &str) -> Vec<Vec<u8>> {
    let mut seeds = seeds_in("../shared/data/trec_eval", |n| n.starts_with(prefix));
    seeds.extend(seeds_in("tests/fixtures/collection", |n| n.ends_with(".trec") && (prefix == "qrels") == n.starts_with("qrels")));
    if seeds.is_empty() {
        // the shared data is not in every checkout: a small pair of the same format
        seeds.push(if prefix == "qrels" { b"q1 0 d1 1\nq1 0 d2 0\nq2 0 d3 2\n".to_vec() } else { b"q1 Q0 d1 1 2.5 r\nq1 Q0 d2 2 1 r\nq2 Q0 d3 1 0.5 r\n".to_vec() });
    }
    seeds
}

const MEASURES: &[&str] = &["all_trec", "ndcg_cut.5,10", "P.1,5", "map", "bpref", "recall_5", "success.1,2", "nDCG@10", "R@100", "MRR@10"];

#[test]
fn trec_qrels() {
    let run = Run::parse("q1 Q0 d1 1 2.5 r\nq1 Q0 d2 2 1 r\n301 Q0 FBIS3-10082 1 0.9 r\n", DuplicatePolicy::Error).unwrap();
    let measures = parse_measures(MEASURES).unwrap();
    fuzz("trec_qrels", &trec_seeds("qrels"), |b| match Qrels::parse(&text(b)) {
        Ok(qrels) => evaluate(&qrels, &run, &measures, &EvalOptions::default()).is_ok(),
        Err(_) => false,
    });
}

#[test]
fn trec_run() {
    let qrels = Qrels::parse("q1 0 d1 1\nq1 0 d2 0\n301 0 FBIS3-10082 1\n").unwrap();
    let measures = parse_measures(MEASURES).unwrap();
    fuzz("trec_run", &trec_seeds("results"), |b| {
        let policy = if b.len() % 2 == 0 { DuplicatePolicy::Error } else { DuplicatePolicy::KeepFirst };
        match Run::parse(&text(b), policy) {
            Ok(run) => evaluate(&qrels, &run, &measures, &EvalOptions::default()).is_ok(),
            Err(_) => false,
        }
    });
}

#[test]
fn measure_names_and_cli_arguments() {
    let seeds: Vec<Vec<u8>> = ["-m all_trec -q -c", "-m ndcg_cut.5,10 -m P -M 100", "nDCG@10 R@100 MRR", "-J -l2 -N 1000 -m utility.2,-1,0,0", "-m map -m set_F.0.5 -Z zscores"]
        .iter()
        .map(|s| s.as_bytes().to_vec())
        .collect();
    let qrels = "q1 0 d1 1\nq1 0 d2 0\n";
    let run = "q1 Q0 d1 1 2.5 r\nq1 Q0 d2 2 1 r\n";
    fuzz("measure_names_and_cli_arguments", &seeds, |b| {
        let words: Vec<String> = text(b).split_whitespace().map(str::to_string).collect();
        let names = parse_measures(&words).is_ok();
        let args = rerankit::metrics::trec_cli::TrecEvalArgs::parse(&words);
        names | args.is_ok_and(|a| rerankit::metrics::trec_cli::run_trec_eval(&a, qrels, run, None).is_ok())
    });
}

#[test]
fn haystack_csv() {
    // the header and first rows of each node's CSV (the whole files are hundreds of KiB)
    let seeds: Vec<Vec<u8>> = ["Retriever", "Reader"]
        .iter()
        .map(|n| {
            let csv = text(&read(format!("tests/fixtures/haystack/node_results/{n}.csv")));
            let mut reader = csv::ReaderBuilder::new().has_headers(false).from_reader(csv.as_bytes());
            let mut out = csv::Writer::from_writer(Vec::new());
            for record in reader.records().take(6) {
                out.write_record(&record.expect("fixture CSV")).expect("CSV written");
            }
            out.into_inner().expect("CSV written")
        })
        .collect();
    fuzz("haystack_csv", &seeds, |b| {
        let node = if b.len() % 2 == 0 { "Retriever" } else { "Reader" };
        match EvaluationResult::from_csv_files(&[(node.to_string(), text(b))]) {
            Ok(result) => {
                let metrics = result.calculate_metrics(&HaystackMetricsOptions::default()).is_ok();
                let _ = result.wrong_examples(node, &Default::default());
                let _ = result.to_csv_files();
                metrics
            }
            Err(_) => false,
        }
    });
}

#[test]
fn python_literals() {
    let seeds: Vec<Vec<u8>> = [
        "['a', \"b\", 'it\\'s']",
        "{'answer': 'x', 'score': 0.5, 'offsets': [(0, 3)], 'meta': {}}",
        "[1, -2.5e-3, None, True, False, nan, inf]",
        "('a',)",
        "'\\x00\\u00e9\\N{BULLET}'",
    ]
    .iter()
    .map(|s| s.as_bytes().to_vec())
    .collect();
    fuzz("python_literals", &seeds, |b| parse_literal(&text(b)).is_ok());
}

#[test]
fn agent_yaml_and_json() {
    let mut seeds = seeds_in("tests/fixtures/graphrag_eval/cases", |n| n.ends_with(".json"));
    seeds.extend(seeds_in("tests/fixtures/graphrag_eval/upstream/tests/test_data", |n| n.ends_with(".yaml") || n.ends_with(".json") || n.ends_with(".jsonl")));
    let reference = agent::parse_reference(&text(&read("tests/fixtures/graphrag_eval/cases/upstream_steps_1.reference.json"))).unwrap();
    let responses = Responses::parse(&text(&read("tests/fixtures/graphrag_eval/cases/upstream_steps_1.responses.json"))).unwrap();
    fuzz("agent_yaml_and_json", &seeds, |b| {
        let t = text(b);
        let mut ok = false;
        if let Ok(r) = agent::parse_reference(&t) {
            let results = agent::evaluate(&r, &responses);
            let _ = agent::aggregate(&results, &[]);
            ok = true;
        }
        if let Ok(r) = Responses::parse(&t) {
            let results = agent::evaluate(&reference, &r);
            let _ = agent::aggregate(&results, &[]);
            ok = true;
        }
        if let Ok(samples) = agent::input::parse_document(&t, "results") {
            if let Some(list) = samples.as_array() {
                let _ = agent::aggregate(list, &["custom".to_string()]);
            }
        }
        ok | Config::parse(&t).is_ok()
    });
}

#[test]
fn haystack_and_squad_json() {
    let mut seeds = seeds_in("tests/fixtures/haystack", |n| n == "eval_input.json");
    seeds.push(
        br#"{"dataset": {"version": "1.1", "data": [{"title": "t", "paragraphs": [{"context": "The cat sat.", "qas": [{"id": "1", "question": "Who sat?", "answers": [{"text": "The cat", "answer_start": 0}, {"text": "cat", "answer_start": 4}]}, {"id": "2", "question": "What?", "answers": [], "is_impossible": true}]}]}]}, "predictions": {"1": "the cat", "2": ""}}"#.to_vec(),
    );
    fuzz("haystack_and_squad_json", &seeds, |b| {
        let Ok(v) = serde_json::from_slice::<serde_json::Value>(b) else { return false };
        let mut ok = false;
        if let Ok((queries, labels, nodes)) = rerankit::eval::haystack::parse_eval_input(&v) {
            if let Ok(result) = EvaluationResult::from_predictions(&queries, &labels, &nodes, &Default::default(), None) {
                ok = result.calculate_metrics(&HaystackMetricsOptions::default()).is_ok();
            }
        }
        if let (Some(dataset), Some(predictions)) = (v.get("dataset"), v.get("predictions")) {
            ok |= rerankit::eval::haystack::squad::evaluate_v1(dataset, predictions).is_ok();
            ok |= rerankit::eval::haystack::squad::evaluate_v2(dataset, predictions).is_ok();
        }
        ok
    });
}

#[test]
fn lenient_dates() {
    let seeds: Vec<Vec<u8>> = ["2021-05-01", "2024-02-29T10:00:00.123+02:00", "Wed, 02 Jun 2021 06:31:39 GMT", "May 1, 2021 4:00pm PST", "05/01/2021", "1714557600.5"]
        .iter()
        .map(|s| s.as_bytes().to_vec())
        .collect();
    fuzz("lenient_dates", &seeds, |b| matches!(rerankit::rankers::lenient_date::read_date_text(&text(b)), rerankit::rankers::lenient_date::DateReading::Instant(_)));
}

/// A model's files, one of which the target replaces.
struct Model {
    name: &'static str,
    /// `model.onnx`, or the quantised export's file name.
    file: String,
    model: Vec<u8>,
    tokenizer: Vec<u8>,
    config: Vec<u8>,
}

fn tiny_models() -> Vec<Model> {
    ["tiny-bert-reranker", "tiny-xlm-roberta-reranker", "tiny-electra-reranker"].into_iter().map(|name| tiny_model(name, "model.onnx")).collect()
}

/// The tiny BERT's dynamically quantised exports (int8 and u8 weights): their chains take the fused int8 product
/// (src/inference/row_quantization), whose fusion and packing read the graph's initializers.
fn tiny_quantised_models() -> Vec<Model> {
    vec![tiny_model("tiny-bert-reranker", "model_int8.onnx"), tiny_model("tiny-bert-reranker", "model_uint8.onnx")]
}

impl Model {
    /// The target's label: the model, and its file when it is not `model.onnx`.
    fn label(&self) -> String {
        if self.file == "model.onnx" { self.name.to_string() } else { format!("{}/{}", self.name, self.file) }
    }
}

fn tiny_model(name: &'static str, file: &str) -> Model {
    let dir = format!("tests/fixtures/hub/rerankit-test/{name}");
    Model { name, file: file.to_string(), model: read(format!("{dir}/onnx/{file}")), tokenizer: read(format!("{dir}/tokenizer.json")), config: read(format!("{dir}/config.json")) }
}

/// Loads the files and, if that worked, encodes texts that tokenise to nothing or past the window, and scores.
fn load_and_score(model: &[u8], tokenizer: &[u8], config: &[u8]) -> bool {
    let files = ModelFiles { model, tokenizer, config: Some(config), external_data: &[] };
    let ce = match CrossEncoder::load(files, &ModelLoadOptions::default()) {
        Ok(ce) => ce,
        Err(e) => {
            if std::env::var_os("RERANKIT_FUZZ_DEBUG").is_some() {
                eprintln!("load: {e}");
            }
            return false;
        }
    };
    let long = "word ".repeat(300);
    for (q, d) in [("", ""), ("\u{200b}", "\u{feff}"), ("\0", long.as_str())] {
        let _ = ce.encode_pair(q, d);
        let _ = ce.score(&[(q, d)], 1);
    }
    let scored = ce.score(&[("q", "a document"), ("q", long.as_str())], 2);
    if std::env::var_os("RERANKIT_FUZZ_DEBUG").is_some() {
        eprintln!("score: {scored:?}");
    }
    scored.is_ok()
}

/// The BERT engine (src/inference/bert) on an edited graph: its weights mapped or refused with an error, and a
/// mapped model runs a short sequence — never a panic.
fn map_and_run_bert(model: &[u8]) {
    let Ok(prepared) = PreparedModel::prepare(model, &[], &[], None) else { return };
    if let Ok(weights) = BertWeights::of_model(&prepared, Output::Logits) {
        let batch = Batch { rows: vec![0], len: 3, input_ids: vec![0, 1, 2], attention_mask: vec![1; 3], token_type_ids: vec![0; 3] };
        let _ = CpuBert::new(weights).run(&batch);
    }
}

/// Fuzzes one of a model's files (`which`: 0 model, 1 tokenizer, 2 config), the other two kept, for each model.
fn fuzz_model_file(target: &str, which: usize) {
    // the quantised graphs only where the graph is what varies
    let quantised = if which == 0 { tiny_quantised_models() } else { vec![] };
    for m in tiny_models().into_iter().chain(quantised) {
        let seed = [&m.model, &m.tokenizer, &m.config][which].clone();
        fuzz(&format!("{target}[{}]", m.label()), &[seed], |b| match which {
            0 => load_and_score(b, &m.tokenizer, &m.config),
            1 => load_and_score(&m.model, b, &m.config),
            _ => load_and_score(&m.model, &m.tokenizer, b),
        });
    }
}

#[test]
fn onnx_bytes() {
    fuzz_model_file("onnx_bytes", 0);
}

#[test]
fn tokenizer_json() {
    fuzz_model_file("tokenizer_json", 1);
}

#[test]
fn model_config_json() {
    fuzz_model_file("model_config_json", 2);
}

/// One structural edit of a decoded ONNX model: what byte flips almost never reach (they fail to decode), and
/// what a hand-edited or mis-exported graph looks like to the loader — another operator, a wrong input, an
/// attribute or a dimension out of range, a tensor of another type, a node gone.
fn mutate_graph(rng: &mut Rng, proto: &mut rerankit::inference::onnx_import::pb::ModelProto) {
    let Some(graph) = proto.graph.as_mut() else { return };
    let odd_ints = [0i64, -1, 1, 2, 3, 7, 1 << 20, i64::MAX, i64::MIN];
    match rng.below(7) {
        0 if !graph.node.is_empty() => {
            let i = rng.below(graph.node.len());
            let other = graph.node[rng.below(graph.node.len())].op_type.clone();
            graph.node[i].op_type = other;
        }
        1 if !graph.node.is_empty() => {
            let names: Vec<String> = graph.node.iter().flat_map(|n| n.output.clone()).chain(graph.initializer.iter().map(|t| t.name.clone())).collect();
            let i = rng.below(graph.node.len());
            if !graph.node[i].input.is_empty() && !names.is_empty() {
                let k = rng.below(graph.node[i].input.len());
                graph.node[i].input[k] = rng.pick(&names).clone();
            }
        }
        2 if !graph.node.is_empty() => {
            let i = rng.below(graph.node.len());
            if let Some(a) = graph.node[i].attribute.iter_mut().nth(rng.below(4)) {
                a.i = *rng.pick(&odd_ints);
                a.f = *rng.pick(&[f32::NAN, f32::INFINITY, 0.0, -1.0, 1e30]);
                if let Some(x) = a.ints.first_mut() {
                    *x = *rng.pick(&odd_ints);
                }
            }
        }
        3 if !graph.initializer.is_empty() => {
            let i = rng.below(graph.initializer.len());
            let t = &mut graph.initializer[i];
            if !t.dims.is_empty() {
                let k = rng.below(t.dims.len());
                t.dims[k] = *rng.pick(&[0, 1, t.dims[k] + 1, t.dims[k] - 1, -1]);
            } else {
                t.dims.push(2);
            }
        }
        4 if !graph.initializer.is_empty() => {
            let i = rng.below(graph.initializer.len());
            graph.initializer[i].data_type = *rng.pick(&[1, 2, 3, 6, 7, 10, 11, 16]);
        }
        5 if !graph.node.is_empty() => {
            let i = rng.below(graph.node.len());
            graph.node.remove(i);
        }
        _ => {
            // an input's declared shape
            if let Some(input) = graph.input.first_mut() {
                use rerankit::inference::onnx_import::pb::type_proto::Value;
                if let Some(Value::TensorType(t)) = input.r#type.as_mut().and_then(|t| t.value.as_mut()) {
                    if let Some(shape) = t.shape.as_mut() {
                        if let Some(d) = shape.dim.first_mut() {
                            d.value = Some(rerankit::inference::onnx_import::pb::tensor_shape_proto::dimension::Value::DimValue(*rng.pick(&odd_ints)));
                        }
                    }
                }
            }
        }
    }
}

/// Edited graphs of the tiny models, loaded by the CPU path (tract) and by the BERT engine: each an answer or
/// an error, never a panic or a hang.
#[test]
fn onnx_graphs() {
    use prost::Message;
    for m in tiny_models().into_iter().chain(tiny_quantised_models()) {
        let proto = rerankit::inference::onnx_import::decode(&m.model).expect("seed model decodes");
        let seed_bytes = proto.encode_to_vec();
        // the mutation happens inside the target: the input is the seed of one edit stream, so a failure's saved
        // bytes are the edited model itself (it is re-encoded below and written on failure)
        let counter = std::cell::Cell::new(0u64);
        fuzz(&format!("onnx_graphs[{}]", m.label()), &[seed_bytes], |_| {
            let mut rng = Rng::new(counter.get());
            counter.set(counter.get() + 1);
            let mut edited = proto.clone();
            for _ in 0..1 + rng.below(3) {
                mutate_graph(&mut rng, &mut edited);
            }
            let bytes = edited.encode_to_vec();
            LAST_MODEL.with(|last| *last.borrow_mut() = bytes.clone());
            // an allocation failure aborts the process before `fuzz` can save anything: with RERANKIT_FUZZ_TRACE
            // the model about to load is written first
            if let Some(path) = std::env::var_os("RERANKIT_FUZZ_TRACE") {
                let _ = std::fs::write(path, &bytes);
            }
            map_and_run_bert(&bytes);
            load_and_score(&bytes, &m.tokenizer, &m.config)
        });
    }
}

thread_local! {
    /// The model `onnx_graphs` tried last: on a failure, `fuzz` saves the input (here only a counter), so the
    /// edited model is written beside it from here.
    static LAST_MODEL: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}
