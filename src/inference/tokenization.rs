//! Text → token ids for cross-encoders (query/document pairs) and bi-encoders (single texts).
//!
//! The tokenizer's own truncation and padding (a `tokenizer.json` often carries `max_length: 128`, fixed
//! padding) are switched off: rerankit truncates and pads itself, so that
//!
//! - a pair is `template(query, document)` (for BERT `[CLS] q [SEP] d [SEP]`, type ids 0…0 1…1) truncated
//!   **only_second**: the document keeps its first `max_length − specials(pair) − |q|` tokens, so the query and
//!   the final separator always survive. This equals Hugging Face's
//!   `tokenizer(q, d, truncation="only_second", max_length=…)`.
//! - the query alone is capped at `max_query_tokens` (default `max_length / 2`) so that a document always gets
//!   a window; Python's `only_second` would raise instead.
//! - a long document is tokenised once and cut into chunks that each fill the window beside the query
//!   ([`PairTokenizer::chunks`]), Cohere-style.

use super::batching::Sequence;
use super::model_info::ModelInfo;
use crate::{Error, ErrorCode, Result};
use tokenizers::{Encoding, PostProcessor, Tokenizer};

/// A tokenizer prepared for one model window.
#[derive(Clone)]
pub struct PairTokenizer {
    tokenizer: Tokenizer,
    /// Longest sequence fed to the model, special tokens included.
    pub max_length: usize,
    /// Special tokens the template adds around a pair (3 for BERT, 4 for RoBERTa).
    pub pair_specials: usize,
    /// Special tokens the template adds around a single text (2 for BERT).
    pub single_specials: usize,
    /// Query tokens kept (the query is cut to this many before the document is placed).
    pub max_query_tokens: usize,
    /// Id used to pad batches (attention mask 0 there).
    pub pad_id: u32,
    /// Largest token id the tokenizer can produce.
    pub max_token_id: u32,
}

impl PairTokenizer {
    /// Parses `tokenizer.json` and checks that it belongs to `model` ([`check_fits`]).
    pub fn from_bytes(bytes: &[u8], max_length: usize, model: &ModelInfo) -> Result<Self> {
        // tokenizers panics (`expect("Helper")` in its decoder deserializer) on JSON that ends early or is malformed
        // inside the `decoder` section; a panic is a trap on wasm32, so malformed JSON is refused before it runs
        let json: serde_json::Value = serde_json::from_slice(bytes)
            .map_err(|e| Error::tokenizer(format!("tokenizer: tokenizer.json is not valid JSON ({e})")))?;
        check_templates(json.get("post_processor").unwrap_or(&serde_json::Value::Null))?;
        let mut tokenizer = Tokenizer::from_bytes(bytes)
            .map_err(|e| Error::tokenizer(format!("tokenizer: cannot parse tokenizer.json ({e})")))?;
        let pad_token = tokenizer
            .get_padding()
            .map(|p| p.pad_id)
            .or_else(|| ["[PAD]", "<pad>", "<PAD>", "<|padding|>"].iter().find_map(|t| tokenizer.token_to_id(t)));
        tokenizer
            .with_truncation(None)
            .map_err(|e| Error::tokenizer(format!("tokenizer: cannot disable truncation ({e})")))?;
        tokenizer.with_padding(None);
        let (pair_specials, single_specials) = match tokenizer.get_post_processor() {
            Some(p) => (p.added_tokens(true), p.added_tokens(false)),
            None => (0, 0),
        };
        let max_token_id = tokenizer.get_vocab(true).values().copied().max().unwrap_or(0);
        check_fits(max_token_id, pad_token, model)?;
        let pad_id = pad_token.or(model.config_pad_token_id).unwrap_or(0);
        if max_length <= pair_specials + 2 {
            return Err(Error::invalid("maxLength", format!("{max_length} leaves no room for a query and a document")));
        }
        Ok(PairTokenizer {
            tokenizer,
            max_length,
            pair_specials,
            single_specials,
            max_query_tokens: max_length / 2,
            pad_id,
            max_token_id,
        })
    }

    /// Sets the query cap; it must leave at least one document token in the window.
    pub fn set_max_query_tokens(&mut self, n: usize) -> Result<()> {
        let most = self.max_length - self.pair_specials - 1;
        if n == 0 || n > most {
            return Err(Error::invalid("maxQueryTokens", format!("{n} is outside 1..={most} for maxLength {}", self.max_length)));
        }
        self.max_query_tokens = n;
        Ok(())
    }

    /// Tokens of `text` without special tokens (normaliser, pre-tokeniser and model only).
    pub fn encode(&self, text: &str) -> Result<Encoding> {
        self.tokenizer
            .encode_fast(text, false)
            .map_err(|e| Error::tokenizer(format!("tokenizer: cannot encode a text ({e})")))
    }

    /// The first `limit` tokens of `text`, tokenising only as much of a huge text as needed.
    ///
    /// The text is cut at a whitespace boundary after a prefix and the prefix tokenised; the cut cannot change
    /// tokens before it because normalisers work per character and pre-tokenisers split on whitespace (BERT,
    /// RoBERTa byte-level, SentencePiece metaspace). The prefix doubles until it yields more than `limit`
    /// tokens or covers the whole text.
    pub fn encode_prefix(&self, text: &str, limit: usize) -> Result<Encoding> {
        // ~4 bytes per token for English; start with room for 8 bytes per token.
        let mut cut = limit.saturating_mul(8).max(4096);
        loop {
            if cut >= text.len() {
                return self.encode(text);
            }
            let mut end = cut;
            while end < text.len() && !text.is_char_boundary(end) {
                end += 1;
            }
            // Back up to the last whitespace before `end` (within the prefix).
            let prefix = &text[..end];
            match prefix.rfind(char::is_whitespace) {
                Some(ws) if ws > 0 => {
                    let enc = self.encode(&text[..ws])?;
                    if enc.len() > limit {
                        return Ok(enc);
                    }
                }
                _ => {}
            }
            cut = cut.saturating_mul(2);
        }
    }

    /// The query's tokens, capped at `max_query_tokens`. An empty or blank query is an error.
    pub fn query(&self, query: &str) -> Result<Encoding> {
        if query.trim().is_empty() {
            return Err(Error::invalid("query", "must be a non-empty string"));
        }
        let enc = self.encode_prefix(query, self.max_query_tokens)?;
        Ok(slice(&enc, 0, enc.len().min(self.max_query_tokens)))
    }

    /// Document tokens that fit beside `query`: `max_length − pair_specials − |query|`.
    pub fn window(&self, query: &Encoding) -> usize {
        self.max_length - self.pair_specials - query.len()
    }

    /// The model input for `template(query, document[start..end])`.
    pub fn pair(&self, query: &Encoding, document: &Encoding, start: usize, end: usize) -> Result<Sequence> {
        let merged = self
            .tokenizer
            .post_process(query.clone(), Some(slice(document, start, end)), true)
            .map_err(|e| Error::tokenizer(format!("tokenizer: cannot build a pair ({e})")))?;
        self.sequence(&merged, "the query and document encode")
    }

    /// The chunks of `document` that are scored beside `query`.
    ///
    /// With window `w = max_length − specials − |q|` and step `w − overlap`, chunk `k` covers document tokens
    /// `[k·step, k·step + w)`; at most `max_chunks` chunks are made. A document within the window gives one
    /// sequence; `max_chunks = 1` is plain only_second truncation.
    pub fn chunks(&self, query: &Encoding, document: &Encoding, max_chunks: usize, overlap: usize) -> Result<Vec<Sequence>> {
        let w = self.window(query);
        if overlap >= w {
            return Err(Error::invalid("chunkOverlap", format!("{overlap} must be smaller than the document window ({w} tokens)")));
        }
        let step = w - overlap;
        let n = document.len();
        let mut out = Vec::new();
        let mut start = 0;
        loop {
            let end = (start + w).min(n);
            out.push(self.pair(query, document, start, end)?);
            if end >= n || out.len() >= max_chunks.max(1) {
                return Ok(out);
            }
            start += step;
        }
    }

    /// Tokens of a document, tokenising no more of it than `max_chunks` windows beside `query` can use.
    pub fn document(&self, query: &Encoding, text: &str, max_chunks: usize, overlap: usize) -> Result<Encoding> {
        let w = self.window(query);
        let needed = w + (max_chunks.max(1) - 1) * w.saturating_sub(overlap).max(1);
        self.encode_prefix(text, needed)
    }

    /// A single text for a bi-encoder: `template(text)` truncated to `max_length`.
    pub fn single(&self, text: &str) -> Result<Sequence> {
        let keep = self.max_length - self.single_specials;
        let enc = self.encode_prefix(text, keep)?;
        let enc = slice(&enc, 0, enc.len().min(keep));
        let merged = self
            .tokenizer
            .post_process(enc, None, true)
            .map_err(|e| Error::tokenizer(format!("tokenizer: cannot add special tokens ({e})")))?;
        self.sequence(&merged, "the text encodes")
    }

    /// The model input of an encoding. An empty one is refused here: a graph fed zero positions fails deep inside
    /// tract (an out-of-range slice in Gather, a trap in wasm), and it happens only with a tokenizer that adds no
    /// special tokens (no `post_processor`) and a text it has no token for (`"\u200b"`, an empty vocabulary).
    fn sequence(&self, enc: &Encoding, what: &str) -> Result<Sequence> {
        if enc.get_ids().is_empty() {
            return Err(Error::new(
                ErrorCode::InvalidArgument,
                format!("{what} to no tokens (the tokenizer adds no special tokens and has no token for the text), so the model has nothing to read"),
            ));
        }
        Ok(Sequence {
            ids: enc.get_ids().iter().map(|&i| i as i64).collect(),
            type_ids: enc.get_type_ids().iter().map(|&i| i as i64).collect(),
        })
    }
}

/// `TOKENIZER` when the tokenizer belongs to another model than the graph's:
/// - it produces ids the word-embedding table has no row for (`max id ≥ rows`);
/// - its vocabulary is much smaller than the table: exports round tables up to a multiple of 8–128 rows, so a
///   gap beyond `max(128, rows / 100)` rows means a foreign vocabulary whose ids all happen to fit;
/// - its padding token is not `config.json`'s `pad_token_id` (BERT pads with 0, RoBERTa/XLM-R with 1).
pub fn check_fits(max_token_id: u32, pad_token: Option<u32>, model: &ModelInfo) -> Result<()> {
    let size = max_token_id as usize + 1;
    if let Some(rows) = model.vocab_rows {
        if size > rows {
            return Err(Error::tokenizer(format!(
                "tokenizer: it produces token ids up to {max_token_id} but the model embeds only {rows} tokens; \
                 the tokenizer belongs to another model"
            )));
        }
        if rows - size > (rows / 100).max(128) {
            return Err(Error::tokenizer(format!(
                "tokenizer: its vocabulary has {size} tokens but the model's embedding table has {rows} rows; \
                 the tokenizer belongs to another model"
            )));
        }
    }
    if let (Some(want), Some(got)) = (model.config_pad_token_id, pad_token) {
        if want != got {
            return Err(Error::tokenizer(format!(
                "tokenizer: its padding token has id {got} but config.json's pad_token_id is {want}; \
                 the tokenizer belongs to another model"
            )));
        }
    }
    Ok(())
}

/// Tokens `[start, end)` of an encoding, as a new encoding (the post-processor needs one).
fn slice(enc: &Encoding, start: usize, end: usize) -> Encoding {
    let end = end.min(enc.len());
    let start = start.min(end);
    Encoding::new(
        enc.get_ids()[start..end].to_vec(),
        enc.get_type_ids()[start..end].to_vec(),
        enc.get_tokens()[start..end].to_vec(),
        enc.get_word_ids()[start..end].to_vec(),
        enc.get_offsets()[start..end].to_vec(),
        enc.get_special_tokens_mask()[start..end].to_vec(),
        enc.get_attention_mask()[start..end].to_vec(),
        Vec::new(),
        Default::default(),
    )
}

/// Every special token a `TemplateProcessing` template names must be among its `special_tokens`: tokenizers
/// indexes that map when it encodes, and a missing key panics (a trap on wasm32) instead of failing the load.
fn check_templates(post_processor: &serde_json::Value) -> Result<()> {
    use serde_json::Value;
    match post_processor.get("type").and_then(Value::as_str) {
        Some("Sequence") => {
            for p in post_processor.get("processors").and_then(Value::as_array).into_iter().flatten() {
                check_templates(p)?;
            }
        }
        Some("TemplateProcessing") => {
            let known = post_processor.get("special_tokens").and_then(Value::as_object);
            for template in ["single", "pair"] {
                for piece in post_processor.get(template).and_then(Value::as_array).into_iter().flatten() {
                    let Some(id) = piece.get("SpecialToken").and_then(|t| t.get("id")) else { continue };
                    let id = id.as_str().unwrap_or_default();
                    if !known.is_some_and(|k| k.contains_key(id)) {
                        return Err(Error::tokenizer(format!(
                            "tokenizer: the post-processor's {template} template uses special token {id:?}, which its special_tokens do not define"
                        )));
                    }
                }
            }
        }
        _ => {}
    }
    Ok(())
}

