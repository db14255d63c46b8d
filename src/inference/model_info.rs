//! What a transformer ONNX export needs from its caller, read from the graph itself (and `config.json` when
//! given): which inputs it takes, what it outputs, how many token ids it can embed and how long a sequence
//! its position table allows.
//!
//! Everything here is read from the protobuf before tract builds a plan, so a corrupt or foreign file fails
//! fast with `MODEL_LOAD` and a tokenizer that does not fit fails with `TOKENIZER` instead of an out-of-range
//! gather deep inside the graph.

use crate::{Error, Result};
use serde_json::Value;
use crate::inference::onnx_import::pb;

/// The role of one graph input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputRole {
    /// `input_ids`: token ids, int64 `[batch, sequence]`.
    InputIds,
    /// `attention_mask`: 1 for real tokens, 0 for padding.
    AttentionMask,
    /// `token_type_ids`: segment ids (0 = query, 1 = document for BERT pairs).
    TokenTypeIds,
}

impl InputRole {
    fn from_name(name: &str) -> Option<Self> {
        match name {
            "input_ids" => Some(InputRole::InputIds),
            "attention_mask" | "input_mask" => Some(InputRole::AttentionMask),
            "token_type_ids" | "segment_ids" => Some(InputRole::TokenTypeIds),
            _ => None,
        }
    }
}

/// Facts about a model graph, detected from the ONNX protobuf and `config.json`.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelInfo {
    /// Graph inputs in declaration order (tract feeds inputs positionally).
    pub inputs: Vec<InputRole>,
    /// Names of the graph outputs, in order.
    pub outputs: Vec<String>,
    /// Rows of the word-embedding table (the largest token id + 1 the model accepts), when found.
    pub vocab_rows: Option<usize>,
    /// Rows of the position-embedding table, when found.
    pub position_rows: Option<usize>,
    /// `config.json`'s `model_type` (`bert`, `roberta`, …), when given.
    pub model_type: Option<String>,
    /// `config.json`'s `max_position_embeddings`, when given.
    pub config_max_positions: Option<usize>,
    /// `config.json`'s number of labels (`num_labels` or the size of `id2label`), when given.
    pub config_num_labels: Option<usize>,
    /// `config.json`'s number of attention heads (`num_attention_heads`, DistilBERT's `n_heads`), when given.
    pub config_attention_heads: Option<usize>,
    /// `config.json`'s `pad_token_id`, when given: the tokenizer's padding token must be this one.
    pub config_pad_token_id: Option<u32>,
    /// The graph computes position ids from the tokens with a `CumSum` (RoBERTa, XLM-R, CamemBERT: positions
    /// start at `padding_idx + 1`).
    pub offset_positions: bool,
    /// Width of a token's hidden state (the word-embedding table's columns), when found.
    pub hidden: Option<usize>,
    /// The largest dimension of the graph's 2-D weights other than the embedding tables: the feed-forward
    /// block's `intermediate` width in a transformer, its widest activation per token.
    pub widest: Option<usize>,
}

impl ModelInfo {
    /// Reads the graph's inputs, outputs and embedding tables; `config` is the optional `config.json`.
    pub fn detect(proto: &pb::ModelProto, config: Option<&Value>) -> Result<Self> {
        let graph = proto.graph.as_ref().ok_or_else(|| Error::model_load("model: the ONNX file has no graph"))?;
        let initializers: std::collections::HashSet<&str> = graph.initializer.iter().map(|t| t.name.as_str()).collect();
        let mut inputs = Vec::new();
        for input in graph.input.iter().filter(|i| !initializers.contains(i.name.as_str())) {
            let role = InputRole::from_name(&input.name).ok_or_else(|| {
                Error::model_load(format!(
                    "model: unsupported input {:?} (expected input_ids, attention_mask and optionally token_type_ids)",
                    input.name
                ))
            })?;
            inputs.push(role);
        }
        if !inputs.contains(&InputRole::InputIds) {
            return Err(Error::model_load("model: the graph has no input_ids input"));
        }
        let outputs = graph.output.iter().map(|o| o.name.clone()).collect();

        let rows_of = |needle: &str| {
            graph
                .initializer
                .iter()
                .filter(|t| t.name.contains(needle) && t.dims.len() == 2 && t.dims[0] > 0)
                .map(|t| t.dims[0] as usize)
                .max()
        };
        let vocab_rows = rows_of("word_embeddings").or_else(|| gather_rows_fed_by(graph, "input_ids"));
        let position_rows = rows_of("position_embeddings");
        let matrices = || graph.initializer.iter().filter(|t| t.dims.len() == 2 && t.dims.iter().all(|&d| d > 0));
        let embedding = |t: &&pb::TensorProto| t.name.contains("embeddings") || Some(t.dims[0] as usize) == vocab_rows;
        let hidden = matrices().find(|t| t.name.contains("word_embeddings") || Some(t.dims[0] as usize) == vocab_rows).map(|t| t.dims[1] as usize);
        let widest = matrices().filter(|t| !embedding(t)).map(|t| t.dims[0].max(t.dims[1]) as usize).max();

        let config_usize = |key: &str| config.and_then(|c| c.get(key)).and_then(Value::as_u64).map(|v| v as usize);
        let config_num_labels = config_usize("num_labels").or_else(|| {
            config.and_then(|c| c.get("id2label")).and_then(Value::as_object).map(|m| m.len()).filter(|&n| n > 0)
        });
        Ok(ModelInfo {
            inputs,
            outputs,
            vocab_rows: vocab_rows.or_else(|| config_usize("vocab_size")),
            position_rows,
            model_type: config.and_then(|c| c.get("model_type")).and_then(Value::as_str).map(str::to_string),
            config_max_positions: config_usize("max_position_embeddings"),
            config_num_labels,
            config_attention_heads: config.and_then(attention_heads),
            config_pad_token_id: config_usize("pad_token_id").map(|v| v as u32),
            offset_positions: graph.node.iter().any(|n| n.op_type == "CumSum"),
            hidden,
            widest,
        })
    }

    /// Whether the graph takes `token_type_ids`.
    pub fn has_token_type_ids(&self) -> bool {
        self.inputs.contains(&InputRole::TokenTypeIds)
    }

    /// The longest sequence (special tokens included) the position table allows.
    ///
    /// RoBERTa-family models number positions from `padding_idx + 1` (`padding_idx` = the pad token id, 1 in
    /// every RoBERTa/XLM-R/CamemBERT vocabulary), so their table holds that many rows more than the usable
    /// length (514 rows → 512 tokens). They are recognised by `config.json`'s `model_type`, or without it by
    /// the graph: their exports compute position ids with a `CumSum` over the non-padding tokens.
    pub fn position_limit(&self) -> Option<usize> {
        let roberta = matches!(self.model_type.as_deref(), Some("roberta" | "xlm-roberta" | "camembert" | "longformer"));
        let offset = if roberta || self.offset_positions { self.config_pad_token_id.unwrap_or(1) as usize + 1 } else { 0 };
        self.config_max_positions.or(self.position_rows).map(|n| n.saturating_sub(offset))
    }

    /// The window used when the caller gives no `maxLength`: the position limit, else 512.
    /// A requested length beyond the position limit is an error (the model cannot embed those positions).
    pub fn resolve_max_length(&self, requested: Option<usize>) -> Result<usize> {
        let limit = self.position_limit();
        match requested {
            None => Ok(limit.unwrap_or(512)),
            Some(n) if n < 8 => Err(Error::invalid("maxLength", format!("{n} is too small (at least 8 tokens)"))),
            Some(n) => match limit {
                Some(l) if n > l => {
                    Err(Error::invalid("maxLength", format!("{n} exceeds the model's {l} positions")))
                }
                _ => Ok(n),
            },
        }
    }
}

/// Rows of the first `Gather` whose indices come (possibly through a `Cast`) from graph input `input` and whose
/// table is a 2-D initializer: the word-embedding table of exports that renamed it.
fn gather_rows_fed_by(graph: &pb::GraphProto, input: &str) -> Option<usize> {
    let mut names = vec![input.to_string()];
    for node in &graph.node {
        if node.op_type == "Cast" && node.input.first().is_some_and(|i| names.contains(i)) {
            names.extend(node.output.iter().cloned());
        }
    }
    graph.node.iter().filter(|n| n.op_type == "Gather" && n.input.len() == 2 && names.contains(&n.input[1])).find_map(|n| {
        graph.initializer.iter().find(|t| t.name == n.input[0] && t.dims.len() == 2).map(|t| t.dims[0] as usize)
    })
}

/// Parses `config.json` bytes (a Hugging Face model config).
/// The number of attention heads a `config.json` names (BERT-style configs say `num_attention_heads`,
/// DistilBERT's `n_heads`).
pub fn attention_heads(config: &Value) -> Option<usize> {
    ["num_attention_heads", "n_heads"].iter().find_map(|k| config.get(*k)).and_then(Value::as_u64).map(|v| v as usize)
}

pub fn parse_config(bytes: &[u8]) -> Result<Value> {
    let value: Value =
        serde_json::from_slice(bytes).map_err(|e| Error::model_load(format!("config: not valid JSON ({e})")))?;
    if !value.is_object() {
        return Err(Error::model_load("config: expected a JSON object"));
    }
    Ok(value)
}
