//! Models as the Hub ships them (tests/fixtures/hub, made by tests/fixtures/gen/make_hub_models.py with torch,
//! optimum and onnxruntime): every family × export form loads from its Hub layout and matches onnxruntime.
//!
//! - fp32 forms (TorchScript opset 14/17, dynamo with weights inside or in `.onnx.data`, optimum O1–O3,
//!   onnxruntime's fused graph): logits within 1e-4 of onnxruntime's on the same file and on `model.onnx`;
//! - fp16 forms (the float16 converter, O4): within 2× onnxruntime-fp16's own distance from fp32;
//! - quantised forms (quantize_dynamic QUInt8/QInt8/per channel, MatMulNBits 4-bit): as close to fp32 as
//!   onnxruntime's run of the same file, ×2;
//! - token ids equal to the `tokenizers` library's (only_second truncation to the window, RoBERTa offset).

use rerankit::inference::{CrossEncoder, Embedder, ModelLoadOptions, ModelDir};
use serde_json::Value;
use std::path::PathBuf;

fn hub() -> PathBuf {
    crate::common::repo().join("tests/fixtures/hub")
}

fn references() -> Vec<Value> {
    let mut out: Vec<(String, Value)> = std::fs::read_dir(hub().join("references"))
        .expect("tests/fixtures/hub/references")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .map(|p| (p.display().to_string(), serde_json::from_slice(&std::fs::read(&p).unwrap()).unwrap()))
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(out.len() >= 6, "expected the hub fixture references, found {}", out.len());
    out.into_iter().map(|(_, v)| v).collect()
}

fn floats(v: &Value) -> Vec<f32> {
    v.as_array().unwrap().iter().flat_map(|row| row.as_array().unwrap().iter().map(|x| x.as_f64().unwrap() as f32)).collect()
}

fn max_diff(a: &[f32], b: &[f32]) -> f32 {
    assert_eq!(a.len(), b.len());
    a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0, f32::max)
}

/// What a form must reach against fp32, given onnxruntime's own distance `ort` of that form from fp32.
fn limit(form: &str, ort: f32) -> f32 {
    if form.contains("fp16") || form == "model_O4" || form.contains("quant") || form.contains("int8") || form.contains("uint8") || form.contains("q4") {
        (2.0 * ort).max(1e-5)
    } else {
        1e-4
    }
}

#[test]
fn every_export_form_matches_onnxruntime() {
    let mut report = Vec::new();
    let mut failures = Vec::new();
    for r in references() {
        let repo = hub().join(r["repo"].as_str().unwrap());
        let fp32 = floats(&r["outputs"]["model"]);
        let embedder = r["output"] == "last_hidden_state";
        for (form, meta) in r["forms"].as_object().unwrap() {
            let Some(ort) = r["outputs"].get(form) else { continue };
            let outcome = std::panic::catch_unwind(|| check_form(&r, &repo, form, meta, ort, &fp32, embedder));
            match outcome {
                Ok(line) => report.push(line),
                Err(e) => failures.push(format!("{} {form}: {}", r["repo"], e.downcast_ref::<String>().cloned().unwrap_or_default())),
            }
        }
    }
    eprintln!("{}", report.join("\n"));
    assert!(failures.is_empty(), "{} forms fail:\n{}", failures.len(), failures.join("\n"));
}

fn check_form(r: &Value, repo: &std::path::Path, form: &str, meta: &Value, ort: &Value, fp32: &[f32], embedder: bool) -> String {
    {
        {
            let ort = floats(ort);
            let dir = ModelDir::read(repo, meta["file"].as_str().unwrap()).unwrap_or_else(|e| panic!("{repo:?} {form}: {e}"));
            let ours: Vec<f32> = if embedder {
                let e = Embedder::load(dir.files(), &ModelLoadOptions::default()).unwrap_or_else(|e| panic!("{} {form}: {e}", r["repo"]));
                let texts: Vec<&str> = r["texts"].as_array().unwrap().iter().map(|t| t.as_str().unwrap()).collect();
                e.embed(&texts, false, 4).unwrap().concat()
            } else {
                let ce = CrossEncoder::load(dir.files(), &ModelLoadOptions::default()).unwrap_or_else(|e| panic!("{} {form}: {e}", r["repo"]));
                assert_eq!(ce.max_length(), r["window"].as_u64().unwrap() as usize, "{} {form}: window", r["repo"]);
                let pairs: Vec<(&str, &str)> =
                    r["pairs"].as_array().unwrap().iter().map(|p| (p[0].as_str().unwrap(), p[1].as_str().unwrap())).collect();
                for (i, (q, d)) in pairs.iter().enumerate() {
                    let want: Vec<i64> = r["tokens"][i]["ids"].as_array().unwrap().iter().map(|x| x.as_i64().unwrap()).collect();
                    assert_eq!(ce.encode_pair(q, d).unwrap().ids, want, "{} pair {i}: token ids", r["repo"]);
                }
                ce.score(&pairs, 4).unwrap()
            };
            let (vs_form, vs_fp32, ort_vs_fp32) = (max_diff(&ours, &ort), max_diff(&ours, fp32), max_diff(&ort, fp32));
            let lim = limit(form, ort_vs_fp32);
            assert!(vs_fp32 <= lim, "{vs_fp32} from onnxruntime fp32 (limit {lim}, onnxruntime's own {ort_vs_fp32})");
            if lim == 1e-4 {
                assert!(vs_form <= 1e-4, "{vs_form} from onnxruntime on the same file");
            }
            format!("{:<28} {:<24} vs ort(form) {vs_form:.1e}  vs fp32 {vs_fp32:.1e}  (ort: {ort_vs_fp32:.1e})", r["repo"].as_str().unwrap(), form)
        }
    }
}

fn repo_dir(name: &str) -> PathBuf {
    hub().join("rerankit-test").join(name)
}

fn read(name: &str, file: &str) -> Vec<u8> {
    std::fs::read(repo_dir(name).join(file)).unwrap()
}

#[test]
fn roberta_window_comes_from_the_graph_without_config_json() {
    // 130 position rows, positions numbered from padding_idx + 1 = 2: the window is 128, and a pair longer than
    // that is truncated (before: window 130 and an out-of-range position gather, a trap in wasm)
    for file in ["onnx/model.onnx", "onnx/model_dynamo.onnx", "onnx/model_O2.onnx"] {
        let model = read("tiny-xlm-roberta-reranker", file);
        let tokenizer = read("tiny-xlm-roberta-reranker", "tokenizer.json");
        let files = rerankit::inference::ModelFiles { model: &model, tokenizer: &tokenizer, ..Default::default() };
        let ce = CrossEncoder::load(files, &ModelLoadOptions::default()).unwrap();
        assert_eq!(ce.max_length(), 128, "{file}");
        let long = "word ".repeat(2000);
        let scores = ce.score(&[("query", long.as_str())], 1).unwrap();
        assert!(scores[0].is_finite());
        let err = CrossEncoder::load(files, &ModelLoadOptions { max_length: Some(130), ..Default::default() }).err().unwrap();
        assert!(err.message.contains("maxLength") && err.message.contains("128"), "{err}");
    }
}

#[test]
fn a_tokenizer_of_another_model_is_refused() {
    let load = |model_repo: &str, tokenizer_repo: &str| {
        let dir = ModelDir::read(repo_dir(model_repo), "onnx/model.onnx").unwrap();
        let tokenizer = read(tokenizer_repo, "tokenizer.json");
        let files = rerankit::inference::ModelFiles { tokenizer: &tokenizer, ..dir.files() };
        CrossEncoder::load(files, &ModelLoadOptions::default()).err()
    };
    for (model, tokenizer) in [
        ("tiny-bert-reranker", "tiny-xlm-roberta-reranker"),
        ("tiny-distilbert-reranker", "tiny-modernbert-reranker"),
        ("tiny-xlm-roberta-reranker", "tiny-bert-reranker"),
        ("tiny-modernbert-reranker", "tiny-electra-reranker"),
    ] {
        let err = load(model, tokenizer).unwrap_or_else(|| panic!("{model} with {tokenizer}'s tokenizer loaded"));
        assert_eq!(err.code, rerankit::ErrorCode::Tokenizer, "{model} + {tokenizer}: {err}");
        assert!(err.message.contains("belongs to another model"), "{err}");
    }
    assert!(load("tiny-bert-reranker", "tiny-bert-reranker").is_none());
}

#[test]
fn a_missing_or_short_external_data_file_is_named() {
    let model = read("tiny-bert-reranker", "onnx/model_external.onnx");
    let tokenizer = read("tiny-bert-reranker", "tokenizer.json");
    let files = rerankit::inference::ModelFiles { model: &model, tokenizer: &tokenizer, ..Default::default() };
    let err = CrossEncoder::load(files, &ModelLoadOptions::default()).err().unwrap();
    assert_eq!(err.code, rerankit::ErrorCode::ModelLoad);
    assert!(err.message.contains("model_external.onnx.data"), "{err}");
    let data = read("tiny-bert-reranker", "onnx/model_external.onnx.data");
    let short = [rerankit::inference::ExternalFile { location: "model_external.onnx.data".into(), bytes: data[..data.len() / 2].to_vec() }];
    let err = CrossEncoder::load(rerankit::inference::ModelFiles { external_data: &short, ..files }, &ModelLoadOptions::default()).err().unwrap();
    assert!(err.message.contains("truncated"), "{err}");
}

#[test]
fn an_op_outside_the_engine_is_unsupported_by_name() {
    let rewrite = |edit: &dyn Fn(&mut rerankit::inference::onnx_import::pb::ModelProto)| {
        let bytes = edited_model("onnx/model_O2.onnx", edit);
        assert!(rerankit::inference::onnx_import::prepare(&bytes, &[]).is_err());
        load_refused(&bytes)
    };
    let err = rewrite(&|p| {
        let n = p.graph.as_mut().unwrap().node.iter_mut().find(|n| n.op_type == "SkipLayerNormalization").unwrap();
        n.op_type = "QOrderedLayerNormalization".into();
    });
    assert_eq!(err.code, rerankit::ErrorCode::Unsupported, "{err}");
    assert!(err.message.contains("com.microsoft.QOrderedLayerNormalization"), "{err}");
    let err = rewrite(&|p| {
        let n = p.graph.as_mut().unwrap().node.iter_mut().find(|n| n.op_type == "Attention").unwrap();
        n.input.resize(5, String::new());
        n.input[4] = "past".into();
    });
    assert_eq!(err.code, rerankit::ErrorCode::Unsupported, "{err}");
    assert!(err.message.contains("Attention") && err.message.contains("past"), "{err}");
}

/// Graph edits the fuzzer (tests/fuzz/main.rs `onnx_graphs`) found to abort or hang tract are refused first:
/// a `Transpose` whose `perm` holds 2⁶³−1 (tract reserved 8 GiB), and a `LayerNormalization` on a scalar constant
/// or on a scalar the graph computes (an int8 graph's activation scale; tract's shape rule looped 2⁶⁴ times).
#[test]
fn graph_edits_that_break_tract_are_model_load_errors() {
    let load = |edit: &dyn Fn(&mut rerankit::inference::onnx_import::pb::ModelProto)| load_refused(&edited_model("onnx/model.onnx", edit));
    let err = load(&|p| {
        let n = p.graph.as_mut().unwrap().node.iter_mut().find(|n| n.op_type == "Transpose").unwrap();
        n.attribute.iter_mut().find(|a| a.name == "perm").unwrap().ints[0] = i64::MAX;
    });
    assert_eq!(err.code, rerankit::ErrorCode::ModelLoad, "{err}");
    assert!(err.message.contains("perm"), "{err}");
    let err = load(&|p| {
        let graph = p.graph.as_mut().unwrap();
        let constants: Vec<String> = graph.node.iter().filter(|n| n.op_type == "Constant").flat_map(|n| n.output.clone()).collect();
        let n = graph.node.iter_mut().find(|n| n.input.first().is_some_and(|i| constants.contains(i)) && n.op_type == "Sub").unwrap();
        n.op_type = "LayerNormalization".into();
    });
    assert_eq!(err.code, rerankit::ErrorCode::ModelLoad, "{err}");
    assert!(err.message.contains("LayerNormalization"), "{err}");
    // the fuzzer's input: the product of an activation scale and a weight scale made a LayerNormalization
    let model = edited_model("onnx/model_int8.onnx", &|p| {
        let graph = p.graph.as_mut().unwrap();
        let scales: Vec<String> = graph.node.iter().filter(|n| n.op_type == "DynamicQuantizeLinear").map(|n| n.output[1].clone()).collect();
        let n = graph.node.iter_mut().find(|n| n.op_type == "Mul" && n.input.first().is_some_and(|i| scales.contains(i))).unwrap();
        n.op_type = "LayerNormalization".into();
    });
    let err = load_refused(&model);
    assert_eq!(err.code, rerankit::ErrorCode::ModelLoad, "{err}");
    assert!(err.message.contains("LayerNormalization") && err.message.contains("rank-0"), "{err}");
}

/// tiny-bert-reranker's `file` after `edit`, re-encoded.
fn edited_model(file: &str, edit: &dyn Fn(&mut rerankit::inference::onnx_import::pb::ModelProto)) -> Vec<u8> {
    use prost::Message;
    let mut proto = rerankit::inference::onnx_import::decode(&read("tiny-bert-reranker", file)).unwrap();
    edit(&mut proto);
    proto.encode_to_vec()
}

/// The error of loading `model` with tiny-bert-reranker's tokenizer (the test fails if it loads).
fn load_refused(model: &[u8]) -> rerankit::Error {
    let tokenizer = read("tiny-bert-reranker", "tokenizer.json");
    let files = rerankit::inference::ModelFiles { model, tokenizer: &tokenizer, ..Default::default() };
    CrossEncoder::load(files, &ModelLoadOptions::default()).err().expect("the edited model is refused")
}

#[test]
fn text_that_encodes_to_no_tokens_is_an_error_not_a_trap() {
    // Without its post-processor the tokenizer adds no [CLS]/[SEP], and "\u{200b}" has no token: a pair of them
    // used to reach tract as zero positions (an out-of-range slice in Gather, a trap in wasm)
    let mut tokenizer: Value = serde_json::from_slice(&read("tiny-bert-reranker", "tokenizer.json")).unwrap();
    tokenizer["post_processor"] = Value::Null;
    let tokenizer = serde_json::to_vec(&tokenizer).unwrap();
    let dir = ModelDir::read(repo_dir("tiny-bert-reranker"), "onnx/model.onnx").unwrap();
    let ce = CrossEncoder::load(rerankit::inference::ModelFiles { tokenizer: &tokenizer, ..dir.files() }, &ModelLoadOptions::default()).unwrap();
    let err = ce.score(&[("query", "a document"), ("\u{200b}", "\u{200b}")], 2).err().unwrap();
    assert_eq!(err.code, rerankit::ErrorCode::InvalidArgument, "{err}");
    assert!(err.message.starts_with("pairs[1]: the query and document encode to no tokens"), "{err}");
    let err = ce.rerank_texts("\u{200b}", &["a document", "\u{feff}"], &Default::default()).err().unwrap();
    assert!(err.message.starts_with("documents[1]: "), "{err}");
    // what has tokens still scores, and the model is unharmed by the refusal
    assert!(ce.score(&[("query", "a document")], 1).unwrap()[0].is_finite());

    let dir = ModelDir::read(repo_dir("tiny-bert-embedder"), "onnx/model.onnx").unwrap();
    let mut tokenizer: Value = serde_json::from_slice(&dir.tokenizer).unwrap();
    tokenizer["post_processor"] = Value::Null;
    let tokenizer = serde_json::to_vec(&tokenizer).unwrap();
    let embedder = Embedder::load(rerankit::inference::ModelFiles { tokenizer: &tokenizer, ..dir.files() }, &ModelLoadOptions::default()).unwrap();
    let err = embedder.embed(&["words", ""], true, 8).err().unwrap();
    assert!(err.message.starts_with("texts[1]: the text encodes to no tokens"), "{err}");
}
