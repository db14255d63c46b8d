//! JS values ⇄ `serde_json::Value`, strictly.
//!
//! serde's generic path would turn `NaN` into `null` and accept functions silently; this walk rejects
//! non-finite numbers, functions, symbols and cycles with an `INVALID_ARGUMENT` that names the path
//! (`documents[3].meta.date`), keeps object key order (ids hash Python's dict repr) and reads typed arrays,
//! `Map`s and `Date`s (as ISO 8601 strings).

use rerankit::{Error, Result};
use js_sys::{Array, Object, Reflect};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Number, Value};
use wasm_bindgen::{JsCast, JsValue};

/// Deepest nesting accepted; deeper input is almost surely a cycle.
const MAX_DEPTH: usize = 128;

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
    if Array::is_array(value) {
        let arr: &Array = value.unchecked_ref();
        let mut out = Vec::with_capacity(arr.length() as usize);
        for (i, item) in arr.iter().enumerate() {
            out.push(walk(&format!("{path}[{i}]"), &item, depth + 1)?);
        }
        return Ok(Value::Array(out));
    }
    if js_sys::ArrayBuffer::is_view(value) && !value.is_instance_of::<js_sys::DataView>() {
        // Typed arrays: every element is a number (or bigint).
        let arr = Array::from(value);
        let mut out = Vec::with_capacity(arr.length() as usize);
        for (i, item) in arr.iter().enumerate() {
            out.push(walk(&format!("{path}[{i}]"), &item, depth + 1)?);
        }
        return Ok(Value::Array(out));
    }
    if let Some(date) = value.dyn_ref::<js_sys::Date>() {
        if date.get_time().is_nan() {
            return Err(Error::invalid(path, "an invalid Date"));
        }
        return Ok(Value::String(String::from(date.to_iso_string())));
    }
    if let Some(map) = value.dyn_ref::<js_sys::Map>() {
        let mut out = Map::new();
        let mut err = None;
        map.for_each(&mut |v, k| {
            if err.is_some() {
                return;
            }
            let key = k.as_string().unwrap_or_else(|| js_sys::JSON::stringify(&k).map(String::from).unwrap_or_default());
            match walk(&format!("{path}.{key}"), &v, depth + 1) {
                Ok(j) => {
                    out.insert(key, j);
                }
                Err(e) => err = Some(e),
            }
        });
        return match err {
            Some(e) => Err(e),
            None => Ok(Value::Object(out)),
        };
    }
    if value.is_object() {
        let obj: &Object = value.unchecked_ref();
        let keys = Object::keys(obj);
        let mut out = Map::new();
        for key in keys.iter() {
            let name = key.as_string().unwrap_or_default();
            let item = Reflect::get(obj, &key).map_err(|_| Error::invalid(path, format!("cannot read property {name:?}")))?;
            if item.is_undefined() {
                continue; // JSON.stringify drops undefined properties too
            }
            out.insert(name.clone(), walk(&format!("{path}.{name}"), &item, depth + 1)?);
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
