//! What the model bindings (super::models) read from JS and give back: documents and queries of a rerank (the
//! predict_batch shapes), external-data files, SAS pairs, rankings; and the model-free exports of the model
//! module: `placeDevice` (src/inference/device.rs), `externalDataLocations` and `int8Kernel`.
//!
//! Model bytes arrive as `Uint8Array`s (the TypeScript side fetches URLs and reads files); options arrive as
//! plain objects with the JS names (`topK`, `maxChunksPerDoc`, …) and are read by `super::convert::read_options`.

use super::convert::{list_items, read_options, to_js, to_json, to_json_object};
use super::errors::{js, JsResult};
use rerankit::eval::haystack::sas::{BiEncoderSas, CrossEncoderSas, SasScorer};
use rerankit::inference::cross_encoder::model_text;
use rerankit::inference::onnx_import::{decode, external_data};
use rerankit::inference::{place, CrossEncoder, Device, Embedder, ExternalFile, Pooling, Ranked, RerankOptions};
use rerankit::rankers::batch::{pair_queries_with_lists, Batch, QueryBatch};
use rerankit::{Error, Result};
use serde_json::Value;
use wasm_bindgen::prelude::*;

/// The model's text for each JS document of list `path`: a string, or an object (a `Document` too) with string
/// `content` and optional `meta`; only those two properties are read.
fn texts(path: &str, documents: &JsValue, meta_fields: &[String]) -> Result<Vec<String>> {
    let Some(items) = list_items(path, documents)? else {
        return Err(Error::invalid(path, "expected an array of strings or documents"));
    };
    items
        .into_iter()
        .enumerate()
        .map(|(i, item)| {
            if let Some(s) = item.as_string() {
                return Ok(s);
            }
            if !item.is_object() {
                return Err(Error::invalid(&format!("{path}[{i}]"), "expected a string or a document with text content"));
            }
            let content = js_sys::Reflect::get(&item, &JsValue::from_str("content")).unwrap_or(JsValue::UNDEFINED);
            let content = content
                .as_string()
                .ok_or_else(|| Error::invalid(&format!("{path}[{i}].content"), "a cross-encoder needs text content (a string)"))?;
            if meta_fields.is_empty() {
                return Ok(content);
            }
            let meta = js_sys::Reflect::get(&item, &JsValue::from_str("meta")).unwrap_or(JsValue::UNDEFINED);
            let meta = to_json_object(&format!("{path}[{i}].meta"), &meta)?;
            Ok(model_text(&content, &meta, meta_fields))
        })
        .collect()
}

pub(super) fn string_list(field: &str, value: &JsValue) -> Result<Vec<String>> {
    match to_json(field, value)? {
        Value::Array(a) => a
            .into_iter()
            .enumerate()
            .map(|(i, v)| match v {
                Value::String(s) => Ok(s),
                other => Err(Error::invalid(&format!("{field}[{i}]"), format!("expected a string, got {}", rerankit::document::json_type(&other)))),
            })
            .collect(),
        other => Err(Error::invalid(field, format!("expected an array of strings, got {}", rerankit::document::json_type(&other)))),
    }
}

/// `[[a, b], …]` from JS, pairs of strings; `shape` names the two (`[query, document]`) in errors.
pub(super) fn string_pairs(field: &str, value: &JsValue, shape: &str) -> Result<Vec<(String, String)>> {
    let Value::Array(items) = to_json(field, value)? else {
        return Err(Error::invalid(field, format!("expected an array of {shape}")));
    };
    items
        .into_iter()
        .enumerate()
        .map(|(i, pair)| match pair {
            Value::Array(p) => match <[Value; 2]>::try_from(p) {
                Ok([Value::String(a), Value::String(b)]) => Ok((a, b)),
                _ => Err(Error::invalid(&format!("{field}[{i}]"), format!("expected {shape} strings"))),
            },
            _ => Err(Error::invalid(&format!("{field}[{i}]"), format!("expected {shape} strings"))),
        })
        .collect()
}

fn sas_pairs(value: &JsValue) -> Result<Vec<(String, String)>> {
    string_pairs("pairs", value, "[prediction, gold answer]")
}

/// SAS scores of a cross-encoder (also a WebGPU model's CPU twin).
pub(super) fn cross_encoder_sas(model: &CrossEncoder, pairs: &JsValue, batch_size: usize) -> Result<Vec<f64>> {
    CrossEncoderSas { model, batch_size }.score_pairs(&sas_pairs(pairs)?)
}

/// SAS scores of a bi-encoder (also a WebGPU model's CPU twin).
pub(super) fn embedder_sas(model: &Embedder, pairs: &JsValue, batch_size: usize) -> Result<Vec<f64>> {
    BiEncoderSas { model, batch_size }.score_pairs(&sas_pairs(pairs)?)
}

/// The external-data files given from JS: `undefined`, or an array of `{location: string, bytes: Uint8Array}`.
pub(super) fn external_files(value: &JsValue) -> Result<Vec<ExternalFile>> {
    if value.is_undefined() || value.is_null() {
        return Ok(Vec::new());
    }
    let Some(items) = list_items("externalData", value)? else {
        return Err(Error::invalid("externalData", "expected an array of {location, bytes}"));
    };
    items
        .into_iter()
        .enumerate()
        .map(|(i, item)| {
            let get = |key: &str| js_sys::Reflect::get(&item, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED);
            let location = get("location")
                .as_string()
                .ok_or_else(|| Error::invalid(&format!("externalData[{i}].location"), "expected a string"))?;
            let bytes = get("bytes");
            if !bytes.is_instance_of::<js_sys::Uint8Array>() {
                return Err(Error::invalid(&format!("externalData[{i}].bytes"), "expected a Uint8Array"));
            }
            Ok(ExternalFile { location, bytes: bytes.unchecked_into::<js_sys::Uint8Array>().to_vec() })
        })
        .collect()
}

#[wasm_bindgen(typescript_custom_section)]
const MODEL_PATH_TYPES: &'static str = r#"
/** Where a load starts (src/inference/device.rs `place`): the device asked for, whether to try WebGPU, and the
 *  warning owed when a wanted GPU is not tried. */
export interface Placement {
  /** The device asked for. */
  device: "cpu" | "webgpu" | "auto";
  /** Whether the load tries WebGPU. */
  tryGpu: boolean;
  /** The warning owed when a wanted GPU is not tried, else null. */
  warning: string | null;
}
/** One document of a ranking: its index in the caller's list and its score. */
export interface Ranked {
  /** Index of the document in the input list. */
  index: number;
  /** Its score (after scaling); NaN when it was not scored. */
  score: number;
  /** Whether it was scored: present when the call had maxDocuments or deadlineMs. */
  scored?: boolean;
}
"#;

/// Where a model asked to run on `device` starts (src/inference/device.rs): `{device, tryGpu, warning}`.
/// `runtimeHasWebGpu` is the wrapper's look at the runtime; `pooling` an embedder's pooling, if any.
#[wasm_bindgen(js_name = placeDevice, unchecked_return_type = "Placement")]
pub fn place_device(device: JsValue, runtime_has_webgpu: bool, pooling: JsValue) -> JsResult<JsValue> {
    js((|| {
        let device = match to_json("device", &device)? {
            Value::Null => Device::default(),
            Value::String(s) => Device::parse("device", &s)?,
            other => return Err(Error::invalid("device", format!("expected \"webgpu\", \"cpu\" or \"auto\", got {other}"))),
        };
        let pooling = match to_json("pooling", &pooling)? {
            Value::Null => None,
            Value::String(s) => Some(Pooling::parse(&s)?),
            other => return Err(Error::invalid("pooling", format!("expected \"mean\", \"cls\" or \"lastToken\", got {other}"))),
        };
        let p = place(device, runtime_has_webgpu, pooling);
        to_js(&serde_json::json!({"device": p.device.as_str(), "tryGpu": p.try_gpu, "warning": p.warning}))
    })())
}

/// The external-data files (`location`s, relative to the model) that the graph's tensors name: what a loader
/// must fetch beside the `.onnx` file. Empty for models with their weights inside.
#[wasm_bindgen(js_name = externalDataLocations)]
pub fn external_data_locations(model: &[u8]) -> JsResult<Vec<String>> {
    js(decode(model).map(|mut proto| external_data::locations(&mut proto)))
}

/// The arguments of both bindings' `rerank` (Haystack's `predict_batch` shapes): the options, and one query and
/// one list of model texts per document list. `queries` is one query (a string, or an array of one) for all
/// lists, or one per list; `nested` tells whether the caller gave a list of lists (`lists` then holds them) or
/// one list (`lists` is `[documents]`), so that errors name `documents[l][i]` or `documents[i]`.
pub(super) fn rerank_input(queries: &JsValue, lists: &JsValue, nested: bool, options: &JsValue) -> Result<(RerankOptions, Vec<String>, Vec<Vec<String>>)> {
    let options: RerankOptions = read_options("", options)?;
    options.validate()?;
    let queries = match queries.as_string() {
        Some(query) => QueryBatch::One(query),
        None if list_items("queries", queries)?.is_some() => QueryBatch::Many(string_list("queries", queries)?),
        None if nested => return Err(Error::invalid("queries", "expected a string or an array of strings")),
        None => return Err(Error::invalid("query", "expected a string")),
    };
    let Some(lists) = list_items("documents", lists)? else {
        return Err(Error::invalid("documents", "expected an array"));
    };
    if !nested && lists.len() != 1 {
        return Err(Error::internal("a single document list is passed as [documents]"));
    }
    let mut texts = lists
        .iter()
        .enumerate()
        .map(|(l, list)| texts(&if nested { format!("documents[{l}]") } else { "documents".to_string() }, list, &options.embed_meta_fields))
        .collect::<Result<Vec<_>>>()?;
    let lists = if nested { Batch::Many(texts) } else { Batch::One(texts.remove(0)) };
    // the rankers' one rule (src/rankers/batch.rs): one query for every list, or one per list
    let (queries, texts) = pair_queries_with_lists("queries", queries, "documents", lists)?.pairs.into_iter().map(|(_, q, list)| (q, list)).unzip();
    Ok((options, queries, texts))
}

/// `[[{index, score}]]`, one list per document list.
pub(super) fn ranked_to_js(ranked: Vec<Vec<Ranked>>, options: &RerankOptions) -> Result<JsValue> {
    // `scored` only where a call may leave documents unscored (maxDocuments, deadlineMs); an unscored document's
    // score is NaN, which JSON cannot carry, so the objects are made here
    let with_scored = options.may_leave_unscored();
    let set = |o: &js_sys::Object, key: &str, value: JsValue| {
        js_sys::Reflect::set(o, &JsValue::from_str(key), &value).map_err(|_| Error::internal("could not build a ranking object"))
    };
    let lists = js_sys::Array::new();
    for list in ranked {
        let out = js_sys::Array::new();
        for r in list {
            let o = js_sys::Object::new();
            set(&o, "index", JsValue::from(r.index as f64))?;
            set(&o, "score", JsValue::from(r.score as f64))?;
            if with_scored {
                set(&o, "scored", JsValue::from(!r.score.is_nan()))?;
            }
            out.push(&o);
        }
        lists.push(&out);
    }
    Ok(lists.into())
}

/// The int8 matrix kernel this module runs on this CPU (src/inference/row_quantization): `"relaxed-dot"` or
/// `"i16-dot"`.
#[wasm_bindgen(js_name = int8Kernel)]
pub fn int8_kernel() -> String {
    rerankit::inference::row_quantization::kernel_name().to_string()
}
