//! The page views' requests on a [`Session`] (www/API.md, "Views"): one method, [`Session::view`], for every
//! protocol's views (src/protocols/views.rs), with the values they keep between requests in the session.

use super::{request, Session};
use crate::protocols::views::{self, Array, ViewCall};
use js_sys::{Object, Reflect, Uint32Array, Uint8Array};
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
impl Session {
    /// The session protocol's view `name` on the session's files, with `options` (`{ mode, set }`, those of the
    /// report it belongs to) and `args` (JSON text): `{ json, arrays }`, the answer's JSON text and an object of
    /// its typed arrays (`Uint8Array`, `Uint32Array`), which the worker sets on the parsed JSON. Throws a string
    /// when the protocol has no such view or the view cannot answer (an image that cannot be scored).
    pub fn view(&mut self, name: &str, options: JsValue, args: &str) -> Result<JsValue, JsValue> {
        let req = request(options)?;
        let args: serde_json::Value = serde_json::from_str(args)
            .map_err(|e| JsValue::from_str(&format!("bad view arguments: {e}")))?;
        let mut call = ViewCall {
            files: &self.files,
            req: &req,
            args: &args,
            cache: &mut self.views,
        };
        let out = views::run(&self.protocol, name, &mut call).map_err(|e| JsValue::from_str(&e))?;
        let arrays = Object::new();
        for (key, a) in &out.arrays {
            let value: JsValue = match a {
                Array::U8(v) => Uint8Array::from(&v[..]).into(),
                Array::U32(v) => Uint32Array::from(&v[..]).into(),
            };
            Reflect::set(&arrays, &JsValue::from_str(key), &value)?;
        }
        let obj = Object::new();
        Reflect::set(
            &obj,
            &"json".into(),
            &JsValue::from_str(&out.json.to_string()),
        )?;
        Reflect::set(&obj, &"arrays".into(), &arrays)?;
        Ok(obj.into())
    }
}
