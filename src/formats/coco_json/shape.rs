//! What a COCO results file that is not a list is instead, named in plain words.

use super::Locator;
use crate::diag::Diagnostic;

/// A results file that is a JSON object rather than the list `loadRes` takes: the list wrapped in an object
/// (`{"annotations": […]}`, as some exporters write it), or a COCO annotation file. `None` for anything else.
pub fn not_a_list(file: &str, loc: &Locator, text: &str) -> Option<Diagnostic> {
    let start = text.len() - text.trim_start().len();
    if !text[start..].starts_with('{') {
        return None;
    }
    // The first key and what its value opens with, without reading the whole (possibly huge) object.
    let body = text[start + 1..].trim_start();
    let key = body.strip_prefix('"')?.split('"').next()?;
    let after = body[key.len() + 2..]
        .trim_start()
        .strip_prefix(':')?
        .trim_start();
    let head = &text.as_bytes()[..text.len().min(1 << 16)];
    let list_key = after.starts_with('[').then_some(key);
    let (msg, hint) = if memchr::memmem::find(head, b"\"images\"").is_some() {
        (
            "this is a COCO annotation file (an object with `images`), not a results list"
                .to_string(),
            "Give the detections as a results list; the annotation file is the ground truth."
                .to_string(),
        )
    } else if let Some(k) = list_key {
        (
            format!("the results list is wrapped in an object (`{{\"{}\": […]}}`); a COCO results file is the bare list", crate::diag::excerpt(k)),
            format!("Save the list itself, e.g. json.dump(data[\"{}\"], f).", crate::diag::excerpt(k)),
        )
    } else {
        return None;
    };
    Some(
        loc.error(file, "detection.json.not_a_list", start, msg)
            .expected(
                "a COCO results list [{\"image_id\", \"category_id\", \"bbox\", \"score\"}, …]",
            )
            .hint(hint)
            .official("COCO.loadRes fails (it iterates the object's keys as results)"),
    )
}
