//! The page view of `kaggle` (`www/views/kaggle.js`): for masks, the list of images worst Dice first and one
//! image's overlay (the solution against the submission, one class per pixel); for PredictionString boxes, the
//! views of `pstring_view.rs`; the other metrics show the report's per-item table.

use super::{inputs, masks, KaggleOptions, Kind};
use crate::diag::Diags;
use crate::protocols::options::OptionSet;
use crate::protocols::views::{Array, Extras, View, ViewCall, ViewOut};
use crate::protocols::{Options, Request};
use serde_json::json;

pub static EXTRAS: Extras = Extras {
    page_view: true,
    views: &[
        View {
            name: "images",
            run: images,
        },
        View {
            name: "overlay",
            run: overlay,
        },
        View {
            name: "box_images",
            run: super::pstring_view::box_images,
        },
        View {
            name: "boxes",
            run: super::pstring_view::boxes,
        },
    ],
    ..Extras::NONE
};

/// The masks of the session's files under the report's options, read once per options.
fn read(call: &mut ViewCall) -> Result<std::rc::Rc<masks::MaskSet>, String> {
    let key = call.options_key();
    let (files, req) = (call.files, call.req);
    call.cache
        .keyed(key, || {
            let opts = options(req)?;
            if Kind::of(&opts.metric).map_err(|e| e.0)? != Kind::Masks {
                return Err("the overlay is for mask metrics".into());
            }
            let delim = inputs::delimiter(&opts.delimiter).map_err(|e| e.0)?;
            let mut diags = Diags::new();
            let (gt, pred) = inputs::pick(files, &mut diags).ok_or("no solution and submission")?;
            masks::read(gt, pred, &opts, delim, &mut diags)
                .map_err(|e| e.0)?
                .map(std::rc::Rc::new)
                .ok_or_else(|| "the files could not be read".to_string())
        })
        .cloned()
}

fn options(req: &Request) -> Result<KaggleOptions, String> {
    Ok(KaggleOptions::read(&Options::resolve(
        KaggleOptions::SPECS,
        req.mode,
        &req.set,
    )?))
}

/// `{"masks": true, "images": [[id, dice]…], "of": n}`: at most 500 images, worst Dice first;
/// `{"masks": false}` when the report's metric is not a mask metric (the page then shows the per-item table).
fn images(call: &mut ViewCall) -> Result<ViewOut, String> {
    if Kind::of(&options(call.req)?.metric).map_err(|e| e.0)? != Kind::Masks {
        return Ok(json!({ "masks": false }).into());
    }
    let set = read(call)?;
    let list = masks::worst_first(&set, 500);
    Ok(json!({ "masks": true, "images": list, "of": set.ids.len() }).into())
}

/// One image's overlay: `{"id", "height", "width", "gt_pixels", "pred_pixels", "dice"}` and `classes`, one
/// byte per pixel, row-major (0 neither, 1 both, 2 the submission alone, 3 the solution alone).
fn overlay(call: &mut ViewCall) -> Result<ViewOut, String> {
    let id = call.text("id")?.to_string();
    let set = read(call)?;
    let (json, px) = masks::overlay(&set, &id).ok_or_else(|| format!("no image `{id}`"))?;
    Ok(ViewOut {
        json,
        arrays: vec![("classes", Array::U8(px))],
    })
}
