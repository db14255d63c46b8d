//! Turning [`rerankit::Error`] into the TypeScript wrapper's `RerankitError`.
//!
//! The wrapper registers its `RerankitError` class once at start-up; errors are constructed with it so that
//! `err instanceof RerankitError` holds and `err.code` is the stable code. Before registration (only possible
//! when the raw bindings are used directly) a plain `Error` with `name` and `code` set is thrown instead.

use rerankit::Error;
use std::cell::RefCell;
use wasm_bindgen::prelude::*;

thread_local! {
    static ERROR_CLASS: RefCell<Option<js_sys::Function>> = const { RefCell::new(None) };
}

/// Registers the JS class `new (message, code) => Error` used for every error thrown by the bindings.
#[wasm_bindgen(js_name = registerErrorClass)]
pub fn register_error_class(class: js_sys::Function) {
    ERROR_CLASS.with(|c| *c.borrow_mut() = Some(class));
}

/// The JS value thrown for `err`.
pub fn to_js_error(err: Error) -> JsValue {
    let message = JsValue::from_str(&err.message);
    let code = JsValue::from_str(err.code.as_str());
    let registered = ERROR_CLASS.with(|c| c.borrow().clone());
    if let Some(class) = registered {
        let args = js_sys::Array::of2(&message, &code);
        if let Ok(obj) = js_sys::Reflect::construct(&class, &args) {
            return obj;
        }
    }
    let plain = js_sys::Error::new(&err.message);
    plain.set_name("RerankitError");
    let _ = js_sys::Reflect::set(&plain, &JsValue::from_str("code"), &code);
    plain.into()
}

/// `Result` of a binding: the error is already the thrown JS value.
pub type JsResult<T> = Result<T, JsValue>;

/// Maps a crate result into a binding result.
pub fn js<T>(r: rerankit::Result<T>) -> JsResult<T> {
    r.map_err(to_js_error)
}
