//! The image viewers' requests on a [`Session`]: fest and segmentation overlays, fest page images, detection boxes.

use super::{request, Session};
use crate::protocols;
use js_sys::{Reflect, Uint8Array};
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
impl Session {
    /// `fest`: the mask overlay of one image (an item id of the report) as
    /// `{ width, height, rgba: Uint8Array, gt_labels: Uint32Array, pred_labels: Uint32Array, meta: JSON string }`
    /// (www/API.md). Throws a string when the image cannot be scored.
    pub fn fest_overlay(&self, options: JsValue, image_id: &str) -> Result<JsValue, JsValue> {
        let req = request(options)?;
        let o = protocols::fest::overlay::overlay(&self.files, &req, image_id)
            .map_err(|e| JsValue::from_str(&e))?;
        overlay_object(o)
    }

    /// `fest`: the page image dropped for one image (`img-<MS>/…/<stem>.jpg`, specs/fest.md 2.1) as
    /// `{ path, bytes: Uint8Array }`, or `null` when none was dropped. The page decodes it and draws the overlay on it.
    pub fn fest_page_image(&self, options: JsValue, image_id: &str) -> Result<JsValue, JsValue> {
        let req = request(options)?;
        let Some(e) = protocols::fest::page_image::find(&self.files, &req, image_id) else {
            return Ok(JsValue::NULL);
        };
        let bytes = e
            .read_all()
            .map_err(|err| JsValue::from_str(&format!("{}: {err}", e.path)))?;
        let obj = js_sys::Object::new();
        Reflect::set(&obj, &"path".into(), &JsValue::from_str(&e.path))?;
        Reflect::set(&obj, &"bytes".into(), &Uint8Array::from(&bytes[..]))?;
        Ok(obj.into())
    }

    /// `segmentation`: the overlay of one image (an item id of the report): correct green, wrong class magenta,
    /// not predicted blue, ignored hatched; the same object as [`Session::fest_overlay`], with the GT and
    /// predicted class of every pixel in `gt_labels` / `pred_labels`.
    pub fn segmentation_overlay(
        &self,
        options: JsValue,
        image_id: &str,
    ) -> Result<JsValue, JsValue> {
        let req = request(options)?;
        let o = protocols::segmentation::overlay(&self.files, &req, image_id)
            .map_err(|e| JsValue::from_str(&e))?;
        overlay_object(o)
    }

    /// `detection`: the images of the ground truth, `[{image_id, name}]` as JSON (src/protocols/detection/viewer.rs).
    pub fn detection_images(&mut self, options: JsValue) -> Result<String, JsValue> {
        Ok(self.detection_view(options)?.images().to_string())
    }

    /// `detection`: one image's GT boxes and detections, classified TP / FP / FN at IoU 0.5 (area all, the
    /// largest maxDets) by the evaluation's own matching, as JSON (src/protocols/detection/viewer.rs). The files
    /// are indexed once per session and options.
    pub fn detection_image(&mut self, options: JsValue, image_id: f64) -> Result<String, JsValue> {
        if image_id.fract() != 0.0 || !image_id.is_finite() {
            return Err(JsValue::from_str("image_id must be an integer"));
        }
        let v = self.detection_view(options)?.image(image_id as i64);
        v.map(|v| v.to_string()).map_err(|e| JsValue::from_str(&e))
    }

    fn detection_view(
        &mut self,
        options: JsValue,
    ) -> Result<&protocols::detection::viewer::Prepared, JsValue> {
        let key = js_sys::JSON::stringify(&options)
            .ok()
            .and_then(|k| k.as_string())
            .unwrap_or_default();
        if self.detection.as_ref().map(|d| &d.0) != Some(&key) {
            let req = request(options)?;
            let prepared = protocols::detection::viewer::prepare(&self.files, &req)
                .map_err(|e| JsValue::from_str(&e))?;
            self.detection = Some((key, prepared));
        }
        match &self.detection {
            Some((_, p)) => Ok(p),
            None => Err(JsValue::from_str("the detections cannot be evaluated")),
        }
    }
}

/// An overlay as the object of www/API.md: `{ width, height, rgba, gt_labels, pred_labels, meta: JSON string }`.
fn overlay_object(o: protocols::fest::overlay::Overlay) -> Result<JsValue, JsValue> {
    let obj = js_sys::Object::new();
    Reflect::set(&obj, &"width".into(), &JsValue::from(o.width))?;
    Reflect::set(&obj, &"height".into(), &JsValue::from(o.height))?;
    Reflect::set(&obj, &"rgba".into(), &Uint8Array::from(&o.rgba[..]))?;
    Reflect::set(
        &obj,
        &"gt_labels".into(),
        &js_sys::Uint32Array::from(&o.gt_labels[..]),
    )?;
    Reflect::set(
        &obj,
        &"pred_labels".into(),
        &js_sys::Uint32Array::from(&o.pred_labels[..]),
    )?;
    Reflect::set(
        &obj,
        &"meta".into(),
        &JsValue::from_str(&o.meta.to_string()),
    )?;
    Ok(obj.into())
}
