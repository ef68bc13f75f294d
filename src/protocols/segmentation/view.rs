//! The segmentation view (`www/views/segmentation.js`) and its one request: the overlay of one image (an item
//! id of the report), `{"image": id}`: correct green, wrong class magenta, not predicted blue, ignored hatched
//! ([`super::image::render`]), with the GT and predicted class of every pixel.

use super::{image, pairing, SegmentationOptions};
use crate::diag::Diags;
use crate::input::FileSet;
use crate::protocols::options::OptionSet;
use crate::protocols::views::{Extras, Overlay, View, ViewCall, ViewOut};
use crate::protocols::Request;

pub static EXTRAS: Extras = Extras {
    page_view: true,
    views: &[View {
        name: "overlay",
        run: |call: &mut ViewCall| {
            overlay(call.files, call.req, call.text("image")?).map(ViewOut::from)
        },
    }],
    ..Extras::NONE
};

/// The overlay of image `image_id` (an item id of the report) of `files`.
pub fn overlay(files: &FileSet, req: &Request, image_id: &str) -> Result<Overlay, String> {
    let opts = SegmentationOptions::resolve(req.mode, &req.set)?;
    let budget = crate::budget::Budget::from_set(&req.set);
    let st = super::settings_in(&opts, budget).map_err(|e| e.0)?;
    let mut diags = Diags::new();
    let pairs = pairing::pair(files, true, &mut diags);
    let p = pairs
        .iter()
        .find(|p| p.id == image_id)
        .ok_or_else(|| format!("no image `{image_id}` in the dropped files"))?;
    let mut diags = Diags::new();
    match image::load(p, &st, &mut diags) {
        Some(l) => Ok(image::render(&l, &st)),
        None => Err(diags.list.iter().find(|d| d.is_error()).map_or_else(
            || format!("image `{image_id}` cannot be scored"),
            |d| d.message.clone(),
        )),
    }
}
