//! WebGPU vs the CPU (tract) path: logits within 1e-3 for the reference pairs, for SciFact (query, document)
//! pairs of mixed lengths in padded batches, and embeddings; the parity probe and the CPU fallback (int8 graph, a
//! GPU model that disagrees, device "cpu").
//!
//!   bash scripts/install-vulkan.sh && cargo test --profile native-test --test webgpu parity:: -- --nocapture --test-threads 1
//!   ... -- --ignored --nocapture     the same checks on the real test models at full size: for GPU machines
//!
//! Natively wgpu runs on Vulkan — Mesa's lavapipe on a machine without a GPU (what CI has), where the kernels run
//! ~70× slower than tract. So the default tests take the small random-weight models `npm run fixtures` builds
//! (scripts/fixtures/random_bert.py SMALL_SHAPES: the real models' graph, every op of it, with 2 layers, hidden 96
//! in three heads of 32 — the real head size — and FFN 384): what these tests prove is that each kernel and the
//! weight mapping handle the graph, which does not depend on the depth or width. 20 mixed-length pairs per model,
//! the 9 hand-written reference pairs and 12 embedded texts. The ignored tests are the same checks on the real
//! MiniLM-shaped models (ce-parity-1/2, ce-probe, all-MiniLM-L6-v2) at full size (200 pairs, all 30 reference
//! pairs, 60 texts). Models come from `npm run fixtures` ($RERANKIT_MODELS, default ~/.cache/rerankit/models).
#![cfg(all(feature = "webgpu", not(target_arch = "wasm32")))]


use crate::common::*;
use rerankit::inference::onnx_import::decode;
use rerankit::inference::bert::BertWeights;
use rerankit::inference::webgpu::{block_on, Gpu, GpuBert};
use rerankit::inference::{CrossEncoderEngine, Device, EmbedderEngine, ModelLoadOptions, Output, RerankOptions};
use rerankit::ErrorCode;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

const TOL: f32 = 1e-3;

fn gpu_cross_encoder(name: &str, file: &str, device: Device) -> (CrossEncoderEngine, Rc<RefCell<Vec<String>>>) {
    let dir = model_dir(name, file);
    let heard = Rc::new(RefCell::new(Vec::new()));
    let h = heard.clone();
    let ce = block_on(CrossEncoderEngine::load(dir.files(), &ModelLoadOptions::default(), device, Some(Box::new(move |m: &str| h.borrow_mut().push(m.to_string())))))
        .expect("loads");
    (ce, heard)
}

fn max_diff(a: &[f32], b: &[f32]) -> f32 {
    assert_eq!(a.len(), b.len());
    a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0, f32::max)
}

fn read(rel: &str) -> String {
    let p = repo().join("tests/fixtures/collection").join(rel);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{} missing ({e})", p.display()))
}

/// 200 (query, document) pairs of SciFact test queries: each query's judged documents and neighbours in the
/// corpus, each document cut to a pseudo-random number of words (3 … all), so lengths run from ~10 to 512 tokens.
fn collection_pairs(n: usize) -> Vec<(String, String)> {
    let queries: HashMap<String, String> = read("queries.jsonl")
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .map(|v| (v["_id"].as_str().unwrap().to_string(), v["text"].as_str().unwrap().to_string()))
        .collect();
    let out = std::process::Command::new("gzip").arg("-dc").arg(repo().join("tests/fixtures/collection/corpus.jsonl.gz")).output().expect("gzip");
    let corpus: Vec<(String, String)> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            (v["_id"].as_str().unwrap().to_string(), format!("{} {}", v["title"].as_str().unwrap(), v["text"].as_str().unwrap()))
        })
        .collect();
    let index: HashMap<&str, usize> = corpus.iter().enumerate().map(|(i, (id, _))| (id.as_str(), i)).collect();
    let mut pairs = Vec::new();
    let mut seed = 12345u64;
    for line in read("qrels/test.tsv").lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        let (Some(q), Some(&d)) = (queries.get(f[0]), index.get(f[1])) else { continue };
        for k in [d, (d + 1) % corpus.len(), (d * 7 + 3) % corpus.len()] {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let words: Vec<&str> = corpus[k].1.split_whitespace().collect();
            let keep = match (seed >> 33) % 4 {
                0 => words.len(),               // whole (often truncated at 512 tokens)
                1 => 3 + (seed >> 40) as usize % 20,
                _ => 20 + (seed >> 40) as usize % 200,
            };
            pairs.push((q.clone(), words[..keep.min(words.len())].join(" ")));
            if pairs.len() == n {
                return pairs;
            }
        }
    }
    pairs
}

/// `n` collection pairs through both models on WebGPU and on tract, in padded batches of 8: same logits within
/// [`TOL`]; the pairs must span short (≤ `short`) to long (≥ `long` tokens) so that batches are padded.
fn collection_parity(models: [&str; 2], n: usize, short: usize, long: usize) {
    for name in models {
        let (mut ce, heard) = gpu_cross_encoder(name, "model.onnx", Device::WebGpu);
        assert_eq!(ce.device(), "webgpu", "{name}: {:?}", ce.warnings());
        let pairs = collection_pairs(n);
        let refs: Vec<(&str, &str)> = pairs.iter().map(|(q, d)| (q.as_str(), d.as_str())).collect();
        let lens: Vec<usize> = refs.iter().map(|(q, d)| ce.cpu().encode_pair(q, d).unwrap().len()).collect();
        let t = std::time::Instant::now();
        let got = block_on(ce.score(&refs, 8)).unwrap();
        let gpu_s = t.elapsed().as_secs_f64();
        assert_eq!(ce.device(), "webgpu", "{name}: fell back: {:?}", heard.borrow());
        let t = std::time::Instant::now();
        let want = ce.cpu().score(&refs, 8).unwrap();
        let cpu_s = t.elapsed().as_secs_f64();
        let d = max_diff(&got, &want);
        eprintln!(
            "{name}: {n} pairs ({}..{} tokens, {} in all) max |webgpu − tract| = {d:.2e}; probe {:?}; webgpu {gpu_s:.1}s (probe included), cpu {cpu_s:.1}s on {}",
            lens.iter().min().unwrap(),
            lens.iter().max().unwrap(),
            lens.iter().sum::<usize>(),
            ce.probe_report(),
            ce.adapter().unwrap_or_default()
        );
        assert_eq!(got.len(), n * ce.cpu().num_labels());
        assert!(*lens.iter().max().unwrap() >= long && *lens.iter().min().unwrap() <= short, "mixed lengths: {lens:?}");
        assert!(d <= TOL, "{name}: max |webgpu − tract| = {d} > {TOL}");
    }
}

#[test]
fn collection_pairs_match_tract_in_padded_batches() {
    collection_parity(["small-ce-1", "small-ce-2"], 20, 40, 400);
}

#[test]
#[ignore = "200 pairs × 2 full-size models: minutes on a GPU, too slow for lavapipe in CI"]
fn collection_200_pairs_match_tract_in_padded_batches() {
    collection_parity(["ce-parity-1", "ce-parity-2"], 200, 40, 400);
}

/// The reference pairs (all 30, or the 9 hand-written ones of 5–65 tokens) of the three test cross-encoders, as
/// token ids (the small models share their tokenizer), through `models`.
fn reference_parity(models: &[&str], all: bool) {
    for (name, source) in models.iter().zip(["ce-parity-1", "ce-parity-2", "ce-probe"]) {
        let reference = fixture_json(&format!("models/reference/{source}.json"));
        let (mut ce, _) = gpu_cross_encoder(name, "model.onnx", Device::WebGpu);
        let seqs: Vec<_> = reference["pairs"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| all || p["source"].as_str().unwrap_or_default().starts_with("hand:"))
            .map(|p| rerankit::inference::batching::Sequence { ids: i64s(&p["input_ids"]), type_ids: i64s(&p["token_type_ids"]) })
            .collect();
        let got = block_on(ce.logits(&seqs, 8)).unwrap();
        assert_eq!(ce.device(), "webgpu", "{name}: {:?}", ce.warnings());
        let want = ce.cpu().logits(&seqs, 8).unwrap();
        let d = max_diff(&got, &want);
        eprintln!("{name}: {} reference pairs, max |webgpu − tract| = {d:.2e}", seqs.len());
        assert!(d <= TOL, "{name}: {d}");
    }
}

#[test]
fn reference_pairs_match_tract() {
    reference_parity(&["small-ce-1", "small-ce-2", "small-ce-1b"], false);
}

#[test]
#[ignore = "all 30 reference pairs (up to 512 tokens) × 3 full-size models: for GPU machines"]
fn all_reference_pairs_match_tract() {
    reference_parity(&["ce-parity-1", "ce-parity-2", "ce-probe"], true);
}

#[test]
fn builtin_pairs_and_rerank_match_tract() {
    let (mut ce, _) = gpu_cross_encoder("small-ce-2", "model.onnx", Device::Auto);
    let long = "Aspirin lowers the risk of a second heart attack. ".repeat(80); // chunked: > 512 tokens
    let texts = ["Paris is in France.", "Berlin is the capital of Germany.", long.as_str(), "x"];
    let opts = RerankOptions { top_k: None, ..Default::default() };
    let got = block_on(ce.rerank_texts("where is paris", &texts, &opts)).unwrap();
    let want = ce.cpu().rerank_texts("where is paris", &texts, &opts).unwrap();
    assert_eq!(ce.device(), "webgpu");
    assert_eq!(got.iter().map(|r| r.index).collect::<Vec<_>>(), want.iter().map(|r| r.index).collect::<Vec<_>>());
    for (g, w) in got.iter().zip(&want) {
        assert!((g.score - w.score).abs() <= TOL, "{g:?} vs {w:?}");
    }
    let report = ce.probe_report().expect("the probe ran on first use").clone();
    assert!(report.passed && report.max_abs_diff <= TOL, "{report:?}");
}

#[test]
fn int8_graph_is_unsupported_on_webgpu() {
    // quantised graphs map (the CPU's BERT engine runs them) but stay off the GPU: GpuBert refuses int8 weights
    // with UNSUPPORTED, which CrossEncoderEngine turns into a CPU fallback + warning (Backend::open)
    let (ce, heard) = gpu_cross_encoder("ce-parity-1", "model_int8.onnx", Device::WebGpu);
    assert_eq!(ce.device(), "cpu");
    assert!(heard.borrow().iter().any(|w| w.contains("webgpu: quantised")), "{:?}", heard.borrow());
}

#[test]
fn device_cpu_never_opens_the_gpu() {
    let (ce, heard) = gpu_cross_encoder("small-ce-1", "model.onnx", Device::Cpu);
    assert_eq!(ce.device(), "cpu");
    assert!(heard.borrow().is_empty() && ce.adapter().is_none());
    assert_eq!(Device::parse("device", "auto").unwrap(), Device::Auto);
    assert_eq!(Device::parse("device", "webgpu").unwrap(), Device::WebGpu);
    assert_eq!(Device::parse("device", "tpu").unwrap_err().code, ErrorCode::InvalidArgument);
}

#[test]
fn failed_probe_falls_back_to_cpu_and_warns() {
    // the GPU gets small-ce-1b's weights while the CPU runs small-ce-1 (same shape, one logit): the probe must
    // catch it
    let cpu_dir = model_dir("small-ce-1", "model.onnx");
    let other = model_dir("small-ce-1b", "model.onnx");
    let heard = Rc::new(RefCell::new(Vec::<String>::new()));
    let h = heard.clone();
    let mut ce = block_on(CrossEncoderEngine::load_with_gpu_model(
        cpu_dir.files(),
        &other.model,
        &ModelLoadOptions::default(),
        Device::WebGpu,
        Some(Box::new(move |m: &str| h.borrow_mut().push(m.to_string()))),
    ))
    .unwrap();
    assert_eq!(ce.device(), "webgpu"); // not yet probed
    let got = block_on(ce.score(&[("a query", "a document"), ("another", "text")], 2)).unwrap();
    assert_eq!(ce.device(), "cpu");
    assert!(heard.borrow().len() == 1 && heard.borrow()[0].contains("parity probe failed"), "{:?}", heard.borrow());
    assert!(!ce.probe_report().unwrap().passed);
    assert_eq!(got, ce.cpu().score(&[("a query", "a document"), ("another", "text")], 2).unwrap());
}

/// `n` collection documents embedded on WebGPU and on tract (window 256), with and without normalisation: every
/// component within [`TOL`].
fn embedding_parity(name: &str, n: usize) {
    let dir = model_dir(name, "model.onnx");
    let opts = ModelLoadOptions { max_length: Some(256), ..Default::default() };
    let mut e = block_on(EmbedderEngine::load(dir.files(), &opts, Device::WebGpu, None)).unwrap();
    let pairs = collection_pairs(n);
    let texts: Vec<&str> = pairs.iter().map(|(_, d)| d.as_str()).collect();
    for normalize in [true, false] {
        let got = block_on(e.embed(&texts, normalize, 16)).unwrap();
        assert_eq!(e.device(), "webgpu", "{:?}", e.warnings());
        let want = e.cpu().embed(&texts, normalize, 16).unwrap();
        let d = max_diff(&got.concat(), &want.concat());
        eprintln!("{name}: {n} texts normalize={normalize}: max |webgpu − tract| = {d:.2e}");
        assert!(d <= TOL, "{d}");
    }
}

#[test]
fn embeddings_match_tract() {
    embedding_parity("small-embedder", 12);
}

/// Pooling other than mean moves a WebGPU embedder to the CPU, with a warning, and pools as the CPU embedder does.
#[test]
fn cls_pooling_runs_on_the_cpu() {
    let dir = model_dir("small-embedder", "model.onnx");
    let heard = std::rc::Rc::new(std::cell::RefCell::new(Vec::<String>::new()));
    let sink = heard.clone();
    let warn: rerankit::inference::WarningFn = Box::new(move |m: &str| sink.borrow_mut().push(m.to_string()));
    let mut e = block_on(EmbedderEngine::load(dir.files(), &ModelLoadOptions::default(), Device::WebGpu, Some(warn)))
        .unwrap()
        .with_pooling(rerankit::inference::Pooling::Cls);
    assert_eq!(e.device(), "cpu");
    assert!(heard.borrow().iter().any(|m| m.contains("\"cls\" pooling runs on the CPU")), "{:?}", heard.borrow());
    let got = block_on(e.embed(&["a text", "another one"], true, 2)).unwrap();
    assert_eq!(got, e.cpu().embed(&["a text", "another one"], true, 2).unwrap());
    assert_eq!(e.cpu().pooling(), rerankit::inference::Pooling::Cls);
}

#[test]
#[ignore = "60 texts through all-MiniLM-L6-v2: for GPU machines"]
fn embeddings_of_60_texts_match_tract() {
    embedding_parity("all-MiniLM-L6-v2", 60);
}

/// The structural weight mapping on rewritten graphs: decomposed layer norm, Gemm / transposed weights, and
/// an unsupported activation.
#[test]
fn weight_mapping_handles_decomposed_layer_norm_and_rejects_unknown_graphs() {
    let dir = model_dir("small-ce-1", "model.onnx");
    let proto = decode(&dir.model).unwrap();
    let ce = cross_encoder("small-ce-1", "model.onnx");
    let seqs: Vec<_> = [("what is up", "the sky is up"), ("aspirin", "aspirin inhibits platelets and thromboxane")]
        .iter()
        .map(|(q, d)| ce.encode_pair(q, d).unwrap())
        .collect();
    let want = ce.logits(&seqs, 2).unwrap();
    let gpu = Arc::new(block_on(Gpu::new()).unwrap());
    let check = |proto: &rerankit::inference::onnx_import::pb::ModelProto, what: &str| {
        let w = BertWeights::from_onnx(proto, "logits", None).unwrap_or_else(|e| panic!("{what}: {e}"));
        let mut m = GpuBert::new(gpu.clone(), &w).unwrap();
        let batch = rerankit::inference::batching::batches(&seqs, &rerankit::inference::memory_budget::BatchLimit::rows(2), 0).remove(0);
        let out = block_on(m.run(&batch, Output::Logits)).unwrap();
        let mut got = vec![0f32; 2];
        for (r, &i) in batch.rows.iter().enumerate() {
            got[i] = out[r];
        }
        let d = max_diff(&got, &want);
        eprintln!("{what}: max |webgpu − tract| = {d:.2e}");
        assert!(d <= TOL, "{what}: {d}");
    };
    check(&proto, "fused LayerNormalization, heads from the Reshape constant");
    check(&rewrite::decompose_layer_norms(&proto), "decomposed layer norm");
    check(&rewrite::classifier_as_gemm(&proto), "classifier as Gemm(transB = 1)");
    let err = BertWeights::from_onnx(&rewrite::erf_to_tanh(&proto), "logits", None).unwrap_err();
    assert_eq!(err.code, ErrorCode::Unsupported, "{err}");
    eprintln!("tanh activation: {err}");
}

mod rewrite {
    use rerankit::inference::onnx_import::pb::{self, AttributeProto, NodeProto, TensorProto};

    fn node(op: &str, inputs: &[&str], output: &str) -> NodeProto {
        NodeProto {
            op_type: op.into(),
            input: inputs.iter().map(|s| s.to_string()).collect(),
            output: vec![output.into()],
            name: output.into(),
            ..Default::default()
        }
    }

    fn scalar(name: &str, v: f32) -> TensorProto {
        TensorProto { name: name.into(), data_type: 1, float_data: vec![v], ..Default::default() }
    }

    fn ints_attr(name: &str, v: &[i64]) -> AttributeProto {
        AttributeProto { name: name.into(), r#type: 7, ints: v.to_vec(), ..Default::default() }
    }

    /// Every LayerNormalization → ReduceMean, Sub, Pow, ReduceMean, Add ε, Sqrt, Div, Mul γ, Add β.
    pub fn decompose_layer_norms(proto: &pb::ModelProto) -> pb::ModelProto {
        let mut p = proto.clone();
        let g = p.graph.as_mut().unwrap();
        let mut nodes = Vec::new();
        for (i, n) in g.node.iter().enumerate() {
            if n.op_type != "LayerNormalization" {
                nodes.push(n.clone());
                continue;
            }
            let eps = n.attribute.iter().find(|a| a.name == "epsilon").map(|a| a.f).unwrap_or(1e-5);
            let x = n.input[0].as_str();
            let t = |s: &str| format!("/ln{i}/{s}");
            g.initializer.push(scalar(&t("eps"), eps));
            g.initializer.push(scalar(&t("two"), 2.0));
            let mut m1 = node("ReduceMean", &[x], &t("mean"));
            m1.attribute.push(ints_attr("axes", &[-1]));
            nodes.push(m1);
            nodes.push(node("Sub", &[x, &t("mean")], &t("d")));
            nodes.push(node("Pow", &[&t("d"), &t("two")], &t("sq")));
            let mut m2 = node("ReduceMean", &[&t("sq")], &t("var"));
            m2.attribute.push(ints_attr("axes", &[-1]));
            nodes.push(m2);
            nodes.push(node("Add", &[&t("var"), &t("eps")], &t("ve")));
            nodes.push(node("Sqrt", &[&t("ve")], &t("std")));
            nodes.push(node("Div", &[&t("d"), &t("std")], &t("norm")));
            nodes.push(node("Mul", &[&t("norm"), &n.input[1]], &t("scaled")));
            nodes.push(node("Add", &[&t("scaled"), &n.input[2]], &n.output[0]));
        }
        g.node = nodes;
        p
    }

    /// The classifier's MatMul + Add → Gemm(x, Wᵀ stored [out, in], b, transB = 1).
    pub fn classifier_as_gemm(proto: &pb::ModelProto) -> pb::ModelProto {
        let mut p = proto.clone();
        let g = p.graph.as_mut().unwrap();
        let mm = g.node.iter().position(|n| n.op_type == "MatMul" && n.input[1] == "classifier.weight_T").unwrap();
        let add = g.node.iter().position(|n| n.op_type == "Add" && n.input.contains(&g.node[mm].output[0])).unwrap();
        let w = g.initializer.iter_mut().find(|t| t.name == "classifier.weight_T").unwrap();
        let (r, c) = (w.dims[0] as usize, w.dims[1] as usize);
        let vals: Vec<f32> = if w.raw_data.is_empty() { w.float_data.clone() } else { w.raw_data.chunks(4).map(|b| f32::from_le_bytes(b.try_into().unwrap())).collect() };
        let mut t = vec![0f32; r * c];
        for i in 0..r {
            for j in 0..c {
                t[j * r + i] = vals[i * c + j];
            }
        }
        w.raw_data = t.iter().flat_map(|v| v.to_le_bytes()).collect();
        w.float_data.clear();
        w.dims = vec![c as i64, r as i64];
        let mut gemm = node("Gemm", &[&g.node[mm].input[0], "classifier.weight_T", "classifier.bias"], &g.node[add].output[0]);
        gemm.attribute.push(AttributeProto { name: "transB".into(), r#type: 2, i: 1, ..Default::default() });
        g.node[add] = gemm;
        g.node.remove(mm);
        p
    }

    /// Erf → Tanh: an activation the kernels do not implement.
    pub fn erf_to_tanh(proto: &pb::ModelProto) -> pb::ModelProto {
        let mut p = proto.clone();
        for n in p.graph.as_mut().unwrap().node.iter_mut().filter(|n| n.op_type == "Erf") {
            n.op_type = "Tanh".into();
        }
        p
    }
}
