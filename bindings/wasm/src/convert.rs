//! JS values ⇄ `serde_json::Value`, strictly.
//!
//! serde's generic path would turn `NaN` into `null` and accept functions silently; this walk rejects
//! non-finite numbers, functions, symbols and cycles with an `INVALID_ARGUMENT` that names the path
//! (`documents[3].meta.date`), keeps object key order (ids hash Python's dict repr) and reads typed arrays,
//! `Map`s and `Date`s (as ISO 8601 strings).

use rerankit::{Error, Result};
use js_sys::{Array, Reflect};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Number, Value};
use wasm_bindgen::{JsCast, JsValue};

/// Deepest nesting accepted; deeper input is almost surely a cycle.
const MAX_DEPTH: usize = 128;

/// Most elements read from one array: past it (`{length: 1e9}`, a sparse array of length 2³²−1) reading would
/// take minutes or all memory; 2²⁵ is far beyond any list the API takes element by element.
const MAX_ELEMENTS: u32 = 1 << 25;

// Object.keys, Array.from and Array.isArray with `catch`: a throwing Proxy trap becomes an `Err` here instead of
// an exception unwinding through the wasm frames (which would leave the caller's Rust object borrowed).
#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = Object, js_name = keys, catch)]
    fn object_keys(value: &JsValue) -> std::result::Result<Array, JsValue>;
    #[wasm_bindgen(js_namespace = Array, js_name = from, catch)]
    fn array_from(value: &JsValue) -> std::result::Result<Array, JsValue>;
    #[wasm_bindgen(js_namespace = Array, js_name = isArray, catch)]
    fn is_array(value: &JsValue) -> std::result::Result<bool, JsValue>;
}

/// The elements of an array or typed array (`None` for anything else), read through catching calls: a Proxy or a
/// getter that throws becomes `path`'s error instead of unwinding through Rust; more than [`MAX_ELEMENTS`] is
/// refused before any is read.
pub fn list_items(path: &str, value: &JsValue) -> Result<Option<Vec<JsValue>>> {
    let typed = js_sys::ArrayBuffer::is_view(value) && !value.is_instance_of::<js_sys::DataView>();
    if !typed && !is_array(value).map_err(|e| unreadable(path, &e))? {
        return Ok(None);
    }
    let length = Reflect::get(value, &JsValue::from_str("length")).map_err(|e| unreadable(path, &e))?.as_f64().unwrap_or(0.0);
    if length > MAX_ELEMENTS as f64 {
        return Err(Error::invalid(path, format!("has {length} elements, more than the {MAX_ELEMENTS} rerankit reads from one list")));
    }
    (0..length as u32)
        .map(|i| Reflect::get_u32(value, i).map_err(|e| unreadable(&format!("{path}[{i}]"), &e)))
        .collect::<Result<Vec<_>>>()
        .map(Some)
}

/// `INVALID_ARGUMENT` for a value whose reading threw (a Proxy, a getter), with the thrown message.
fn unreadable(path: &str, thrown: &JsValue) -> Error {
    let message = thrown
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| thrown.as_string())
        .unwrap_or_else(|| "an exception".into());
    Error::invalid(path, format!("reading it threw: {message}"))
}

/// Converts a JS value to JSON; `path` names it in errors.
pub fn to_json(path: &str, value: &JsValue) -> Result<Value> {
    walk(path, value, 0)
}

/// Converts a JS value that must be an object (or null/undefined, giving an empty map).
pub fn to_json_object(path: &str, value: &JsValue) -> Result<Map<String, Value>> {
    match to_json(path, value)? {
        Value::Object(m) => Ok(m),
        Value::Null => Ok(Map::new()),
        other => Err(Error::invalid(path, format!("expected an object, got {}", rerankit::document::json_type(&other)))),
    }
}

/// Reads option struct `T` (see [`rerankit::options`]) from a JS object, strictly as [`to_json`] reads it.
pub fn read_options<T: DeserializeOwned>(path: &str, value: &JsValue) -> Result<T> {
    rerankit::options::from_json(path, to_json(path, value)?)
}

/// The path of `key` inside `path`: `options.topK`, or `topK` at the top of an unnamed value (a rerank's options).
fn member(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

fn walk(path: &str, value: &JsValue, depth: usize) -> Result<Value> {
    if depth > MAX_DEPTH {
        return Err(Error::invalid(path, format!("nested deeper than {MAX_DEPTH} levels (a cycle?)")));
    }
    if value.is_null() || value.is_undefined() {
        return Ok(Value::Null);
    }
    if let Some(b) = value.as_bool() {
        return Ok(Value::Bool(b));
    }
    if let Some(x) = value.as_f64() {
        return number(path, x);
    }
    if let Some(s) = value.as_string() {
        return Ok(Value::String(s));
    }
    if value.is_bigint() {
        let text: String = js_sys::BigInt::from(value.clone()).to_string(10).map(String::from).unwrap_or_default();
        return text
            .parse::<i64>()
            .map(|i| Value::Number(i.into()))
            .map_err(|_| Error::invalid(path, "a BigInt outside the 64-bit range"));
    }
    if value.is_function() || value.is_symbol() {
        return Err(Error::invalid(path, "functions and symbols are not data"));
    }
    if let Some(items) = list_items(path, value)? {
        // arrays and typed arrays (every element a number or a bigint)
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            out.push(walk(&format!("{path}[{i}]"), item, depth + 1)?);
        }
        return Ok(Value::Array(out));
    }
    if let Some(date) = value.dyn_ref::<js_sys::Date>() {
        if date.get_time().is_nan() {
            return Err(Error::invalid(path, "an invalid Date"));
        }
        return Ok(Value::String(String::from(date.to_iso_string())));
    }
    if value.is_instance_of::<js_sys::Map>() {
        let entries = array_from(value).map_err(|e| unreadable(path, &e))?;
        let mut out = Map::new();
        for entry in entries.iter() {
            let (k, v) = (Reflect::get_u32(&entry, 0).unwrap_or_default(), Reflect::get_u32(&entry, 1).unwrap_or_default());
            // a key that is not a string: its JSON text (a number's digits); a symbol or undefined has none
            let key = k
                .as_string()
                .or_else(|| js_sys::JSON::stringify(&k).ok().and_then(|s| s.as_string()))
                .ok_or_else(|| Error::invalid(path, "a Map key that is neither a string nor JSON data"))?;
            let item = walk(&member(path, &key), &v, depth + 1)?;
            out.insert(key, item);
        }
        return Ok(Value::Object(out));
    }
    if value.is_object() {
        let keys = object_keys(value).map_err(|e| unreadable(path, &e))?;
        let mut out = Map::new();
        for key in keys.iter() {
            let name = key.as_string().unwrap_or_default();
            let item = Reflect::get(value, &key).map_err(|e| unreadable(&member(path, &name), &e))?;
            if item.is_undefined() {
                continue; // JSON.stringify drops undefined properties too
            }
            out.insert(name.clone(), walk(&member(path, &name), &item, depth + 1)?);
        }
        return Ok(Value::Object(out));
    }
    Err(Error::invalid(path, "unsupported JS value"))
}

fn number(path: &str, x: f64) -> Result<Value> {
    if !x.is_finite() {
        return Err(Error::invalid(path, format!("{x} is not a finite number")));
    }
    // Integral values within the safe range stay integers so that Python's repr prints `1`, not `1.0`.
    if x.fract() == 0.0 && x.abs() <= 9_007_199_254_740_991.0 && !(x == 0.0 && x.is_sign_negative()) {
        return Ok(Value::Number((x as i64).into()));
    }
    Ok(Value::Number(Number::from_f64(x).expect("finite")))
}

/// Converts JSON (or any serialisable value) to a plain JS value: objects, not `Map`s; `null` for `None`.
pub fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue> {
    let serializer = serde_wasm_bindgen::Serializer::json_compatible();
    value.serialize(&serializer).map_err(|e| Error::internal(format!("cannot convert a result to JS: {e}")))
}

/// A string argument: anything else is `INVALID_ARGUMENT` naming `path`, before wasm-bindgen would build a wasm
/// string from it (its glue reads a non-string's length as NaN and traps).
#[cfg_attr(not(feature = "pipeline-eval"), allow(dead_code))] // Haystack evaluation's node names and answers
pub fn string_arg(path: &str, value: &JsValue) -> Result<String> {
    value.as_string().ok_or_else(|| Error::invalid(path, format!("expected a string, got {}", js_type(value))))
}

/// A count (a batch size, a trial count): a non-negative integer, never wrapped modulo 2³² as wasm-bindgen's
/// `usize` glue would wrap it.
#[cfg_attr(not(feature = "models"), allow(dead_code))] // the models' batch sizes
pub fn count_arg(path: &str, value: &JsValue) -> Result<usize> {
    let Some(x) = value.as_f64() else {
        return Err(Error::invalid(path, format!("expected a non-negative integer, got {}", js_type(value))));
    };
    if !(x.fract() == 0.0 && (0.0..=u32::MAX as f64).contains(&x)) {
        return Err(Error::invalid(path, format!("expected a non-negative integer below 2^32, got {x}")));
    }
    Ok(x as usize)
}

/// What a JS value is, for messages: `a number`, `an object`, `null`…
pub fn js_type(value: &JsValue) -> &'static str {
    if value.is_null() {
        "null"
    } else if value.is_undefined() {
        "undefined"
    } else if value.as_bool().is_some() {
        "a boolean"
    } else if value.as_f64().is_some() {
        "a number"
    } else if value.is_string() {
        "a string"
    } else if value.is_bigint() {
        "a BigInt"
    } else if value.is_symbol() {
        "a symbol"
    } else if value.is_function() {
        "a function"
    } else if is_array(value).unwrap_or(false) {
        "an array"
    } else {
        "an object"
    }
}
