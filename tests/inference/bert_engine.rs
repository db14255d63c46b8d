//! The BERT engine (`inference::bert`: weights mapped by structure, run without tract) on every Hub fixture form
//! (tests/fixtures/hub) against onnxruntime, held to the same limits as the tract path in hub_exports.rs: fp32
//! forms within 1e-4 of onnxruntime on the same file; fp16 and int8 forms within twice onnxruntime's own
//! distance from fp32. Forms the mapper does not cover must be refused as `UNSUPPORTED` (onnxruntime's fused
//! graphs, 4-bit weights, ModernBERT), never mapped wrongly. Prints the table (`-- --nocapture`).

use rerankit::inference::batching::Batch;
use rerankit::inference::bert::{BertWeights, CpuBert};
use rerankit::inference::{ModelDir, Output, PreparedModel};
use serde_json::Value;

fn floats(v: &Value) -> Vec<f32> {
    v.as_array().unwrap().iter().flat_map(|row| row.as_array().unwrap().iter().map(|x| x.as_f64().unwrap() as f32)).collect()
}

fn max_diff(a: &[f32], b: &[f32]) -> f32 {
    assert_eq!(a.len(), b.len());
    a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0, f32::max)
}

fn ints(v: &Value) -> Vec<i64> {
    v.as_array().unwrap().iter().map(|x| x.as_i64().unwrap()).collect()
}

/// The reference's token ids as one padded batch.
fn batch(r: &Value) -> Batch {
    let tokens = r["tokens"].as_array().unwrap();
    let len = tokens.iter().map(|t| t["ids"].as_array().unwrap().len()).max().unwrap();
    let mut b = Batch { rows: (0..tokens.len()).collect(), len, input_ids: vec![], attention_mask: vec![], token_type_ids: vec![] };
    for t in tokens {
        let (ids, types) = (ints(&t["ids"]), ints(&t["type_ids"]));
        b.input_ids.extend(ids.iter().copied().chain(std::iter::repeat(0)).take(len));
        b.token_type_ids.extend(types.iter().copied().chain(std::iter::repeat(0)).take(len));
        b.attention_mask.extend((0..len).map(|i| (i < ids.len()) as i64));
    }
    b
}

/// Mean of each row's real token states.
fn mean_pooled(b: &Batch, states: &[f32], hidden: usize) -> Vec<f32> {
    let mut out = Vec::new();
    for r in 0..b.rows.len() {
        let n = b.attention_mask[r * b.len..(r + 1) * b.len].iter().filter(|&&m| m == 1).count();
        for i in 0..hidden {
            out.push((0..n).map(|t| states[(r * b.len + t) * hidden + i]).sum::<f32>() / n as f32);
        }
    }
    out
}

#[test]
fn every_mapped_form_matches_onnxruntime_and_the_rest_is_unsupported() {
    let hub = crate::common::repo().join("tests/fixtures/hub");
    let mut table = Vec::new();
    let mut failures = Vec::new();
    let mut refs: Vec<_> = std::fs::read_dir(hub.join("references")).unwrap().map(|e| e.unwrap().path()).collect();
    refs.sort();
    for path in refs {
        let r: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
        let repo = r["repo"].as_str().unwrap();
        let embedder = r["output"] == "last_hidden_state";
        let fp32 = floats(&r["outputs"]["model"]);
        let b = batch(&r);
        for (form, meta) in r["forms"].as_object().unwrap() {
            let Some(ort) = r["outputs"].get(form).map(floats) else { continue };
            let dir = ModelDir::read(hub.join(repo), meta["file"].as_str().unwrap()).unwrap();
            let model = PreparedModel::of(dir.files()).unwrap();
            let output = if embedder { Output::MeanPooled { normalize: false } } else { Output::Logits };
            let fused = ["model_O2", "model_O3", "model_O4", "model_ort_fused", "model_q4"].contains(&form.as_str());
            let expected_mapped = r["model_type"] != "modernbert" && !fused;
            match BertWeights::of_model(&model, output) {
                Ok(w) => {
                    // where the BERT engine is the only CPU engine (the Workers module), the op check admits the graph
                    if let Err(e) = rerankit::inference::bert::weights::check_ops(&model.graph) {
                        failures.push(format!("{repo} {form}: mapped, but the op check refuses it: {}", e.message));
                    }
                    let hidden = w.hidden;
                    let (shape, out) = CpuBert::new(w).run(&b).unwrap();
                    let ours = if embedder { mean_pooled(&b, &out, hidden) } else { out };
                    assert_eq!(shape[0], b.rows.len());
                    let (vs_form, vs_fp32, ort_vs_fp32) = (max_diff(&ours, &ort), max_diff(&ours, &fp32), max_diff(&ort, &fp32));
                    let float_form = !(form.contains("fp16") || form.contains("quant") || form.contains("int8") || form.contains("uint8"));
                    let lim = if float_form { 1e-4 } else { (2.0 * ort_vs_fp32).max(1e-5) };
                    let ok = if float_form { vs_form <= lim } else { vs_fp32 <= lim };
                    let line = format!("{repo:<28} {form:<24} mapped: vs ort(form) {vs_form:.1e}  vs fp32 {vs_fp32:.1e}  (ort: {ort_vs_fp32:.1e}, limit {lim:.1e})");
                    if !ok || !expected_mapped {
                        failures.push(line.clone());
                    }
                    table.push(line);
                }
                Err(e) => {
                    let line = format!("{repo:<28} {form:<24} {:?}: {}", e.code, e.message);
                    if expected_mapped || e.code != rerankit::ErrorCode::Unsupported {
                        failures.push(line.clone());
                    }
                    table.push(line);
                }
            }
        }
    }
    eprintln!("{}", table.join("\n"));
    assert!(failures.is_empty(), "{} forms fail:\n{}", failures.len(), failures.join("\n"));
}

/// An op outside the BERT engine's set is refused by name (where that engine is the only one, before the
/// structural walk could step over it).
#[test]
fn the_op_check_names_an_op_the_bert_engine_does_not_run() {
    let dir = ModelDir::read(crate::common::repo().join("tests/fixtures/hub/rerankit-test/tiny-bert-reranker"), "onnx/model.onnx").unwrap();
    let mut model = PreparedModel::of(dir.files()).unwrap();
    rerankit::inference::bert::weights::check_ops(&model.graph).unwrap();
    let graph = model.graph.graph.as_mut().unwrap();
    let tanh = graph.node.iter_mut().find(|n| n.op_type == "Tanh").unwrap();
    tanh.op_type = "Sigmoid".into();
    let e = rerankit::inference::bert::weights::check_ops(&model.graph).unwrap_err();
    assert_eq!(e.code, rerankit::ErrorCode::Unsupported);
    assert!(e.message.contains("ai.onnx.Sigmoid"), "{}", e.message);
}
