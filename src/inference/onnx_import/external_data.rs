//! Weights stored outside the `.onnx` file (ONNX "external data").
//!
//! torch ≥ 2.9 writes every export's weights to `<model>.onnx.data` by default, and a protobuf cannot exceed
//! 2 GB, so every large Hub model ships its tensors in a `.onnx_data` file. Each such tensor's `external_data`
//! entries name the file (`location`, relative to the model), and `offset`/`length` inside it. The bytes are
//! copied into the tensor's `raw_data` before tract sees the graph: tract only reads external data from a file
//! path, and in wasm there is none — the files arrive as bytes (fetched, read or given by the caller).

use super::for_each_tensor;
use crate::{Error, Result};
use crate::inference::onnx_import::pb;

/// One external-data file: its `location` as the graph names it (or just its file name), and its bytes.
#[derive(Debug, Clone, PartialEq)]
pub struct ExternalFile {
    pub location: String,
    pub bytes: Vec<u8>,
}

/// The `location`s the graph's tensors refer to, each once, in first-use order (what a loader must fetch).
pub fn locations(proto: &mut pb::ModelProto) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for_each_tensor(proto, &mut |t| {
        if let Some(loc) = is_external(t).then(|| entry(t, "location")).flatten() {
            if !out.iter().any(|l| l == loc) {
                out.push(loc.to_string());
            }
        }
        Ok(())
    })
    .expect("the visitor never fails");
    out
}

/// Copies every external tensor's bytes from `files` into the tensor (`MODEL_LOAD` naming the tensor and file
/// when the file is missing or too short).
pub fn inline(proto: &mut pb::ModelProto, files: &[ExternalFile]) -> Result<()> {
    for_each_tensor(proto, &mut |t| {
        if !is_external(t) {
            return Ok(());
        }
        let location = entry(t, "location")
            .ok_or_else(|| Error::model_load(format!("model: tensor {:?} is external but names no location", t.name)))?
            .to_string();
        let file = find(files, &location).ok_or_else(|| {
            let given: Vec<&str> = files.iter().map(|f| f.location.as_str()).collect();
            Error::model_load(format!(
                "model: the weights of tensor {:?} are in the external file {location:?}, which was not given \
                 (given: {given:?}); pass it as externalData, or load the model by path or URL with the file beside it",
                t.name
            ))
        })?;
        let number = |key: &str| -> Result<Option<usize>> {
            entry(t, key)
                .map(|v| v.trim().parse::<usize>().map_err(|_| Error::model_load(format!("model: tensor {:?}: external {key} {v:?} is not a number", t.name))))
                .transpose()
        };
        let offset = number("offset")?.unwrap_or(0);
        let length = match number("length")? {
            Some(n) => n,
            None => file.bytes.len().checked_sub(offset).ok_or_else(|| short(&t.name, &location, offset, 0, file.bytes.len()))?,
        };
        let end = offset.checked_add(length).filter(|&e| e <= file.bytes.len());
        let end = end.ok_or_else(|| short(&t.name, &location, offset, length, file.bytes.len()))?;
        t.raw_data = file.bytes[offset..end].to_vec();
        t.external_data.clear();
        t.data_location = None;
        Ok(())
    })
}

fn short(tensor: &str, location: &str, offset: usize, length: usize, size: usize) -> Error {
    Error::model_load(format!(
        "model: tensor {tensor:?} needs bytes {offset}..{} of {location:?}, which has {size} bytes (truncated or another file)",
        offset.saturating_add(length)
    ))
}

/// The file for `location`: exact match, else the same file name (callers often pass a bare name or a URL).
fn find<'a>(files: &'a [ExternalFile], location: &str) -> Option<&'a ExternalFile> {
    let base = |s: &str| s.rsplit(['/', '\\']).next().unwrap_or(s).to_string();
    files.iter().find(|f| f.location == location).or_else(|| files.iter().find(|f| base(&f.location) == base(location)))
}

fn is_external(t: &pb::TensorProto) -> bool {
    t.data_location == Some(pb::tensor_proto::DataLocation::External as i32) && t.raw_data.is_empty()
}

fn entry<'a>(t: &'a pb::TensorProto, key: &str) -> Option<&'a str> {
    t.external_data.iter().find(|e| e.key == key).map(|e| e.value.as_str())
}
