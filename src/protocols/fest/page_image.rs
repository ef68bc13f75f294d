//! The page image under an image's overlay (docs/specs/fest.md 2.1: page images `img-<MS>/…/<stem>.jpg` may be
//! dropped; they are never scored, only drawn under the overlay). The page's viewer asks for the file of one
//! scored image; this finds it among the dropped files.

use super::layout;
use crate::diag::Diagnostic;
use crate::input::{Entry, FileSet};
use crate::protocols::options::OptionSet;
use crate::protocols::Request;

const IMAGE_EXTENSIONS: &[&str] = &[".jpg", ".jpeg", ".png", ".gif", ".webp", ".bmp"];

fn comps(path: &str) -> Vec<&str> {
    path.split(['/', '\\', '!'])
        .filter(|c| !c.is_empty())
        .collect()
}

/// The page image of image `image_id` (an item id of the report): an entry in a folder `img-<MS>` (any
/// role) whose stem is the image's stem. With several, the one of the image's manuscript and the GT's split
/// folder wins. `None` when none was dropped.
pub fn find<'a>(files: &'a FileSet, req: &Request, image_id: &str) -> Option<&'a Entry> {
    let opts = super::FestOptions::resolve(req.mode, &req.set).ok()?;
    let mut diags: Vec<Diagnostic> = Vec::new();
    let mss = layout::build(
        files,
        req.mode,
        &opts.split,
        &opts.manuscript_map,
        &mut diags,
    );
    let (ms, job) = mss
        .iter()
        .find_map(|m| m.jobs.iter().find(|j| j.id == image_id).map(|j| (m, j)))?;
    let gt_dirs = comps(&job.gt.path);
    let mut best: Option<(u8, &Entry)> = None;
    for e in &files.entries {
        let c = comps(&e.path);
        let Some(at) = c
            .iter()
            .position(|x| {
                x.len() > 4 && x.is_char_boundary(4) && x[..4].eq_ignore_ascii_case("img-")
            })
            .filter(|&at| at + 1 < c.len())
        else {
            continue;
        };
        let name = e.name();
        let lower = name.to_ascii_lowercase();
        if !IMAGE_EXTENSIONS.iter().any(|x| lower.ends_with(x)) || layout::stem(name) != job.stem {
            continue;
        }
        let same_ms = c[at][4..].eq_ignore_ascii_case(&ms.name);
        let same_split = c[at + 1..c.len() - 1]
            .iter()
            .all(|d| gt_dirs[..gt_dirs.len().saturating_sub(1)].contains(d));
        let score = 1 + 2 * u8::from(same_ms) + u8::from(same_split);
        if best.is_none_or(|(s, _)| score > s) {
            best = Some((score, e));
        }
    }
    best.map(|(_, e)| e)
}
