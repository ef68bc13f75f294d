//! From the dropped files to pycocotools' view of them: `COCO(gt)`, `loadRes(results)` and the lists
//! `COCOeval._prepare` builds (`getAnnIds(imgIds, catIds)` then `loadAnns`).
//!
//! - Images: `sorted(np.unique(ids))`; categories likewise (a repeated category id keeps its last entry, as
//!   the `cats` dict does).
//! - GT: for each image in order, its annotations in file order whose category is a GT category, each looked
//!   up by id in the `anns` dict, so a repeated annotation id yields the *last* annotation with that id
//!   (warning); annotations of images or categories not listed are never looked at (warning).
//! - Results: an image id not in the GT is refused (`loadRes`'s assertion; error `detection.unknown_image`);
//!   a category id not in the GT is never looked at (info). An empty list: error `detection.empty_results`.

use crate::diag::{Diagnostic, Diags, Severity};
use crate::formats::coco_json::{self, Detection, GtFile, ImageId, Locator};
use crate::input::{Entry, FileSet, Role};
use crate::metrics::coco::{Det, Gt, Input};
use rustc_hash::FxHashMap;

/// The evaluation input plus what the report needs to name things.
pub struct Loaded {
    pub input: Input,
    pub image_ids: Vec<ImageId>,
    pub image_names: Vec<Option<String>>,
    pub category_ids: Vec<i64>,
    pub category_names: Vec<Option<String>>,
    /// Per category: GT boxes that are not crowd, and detections.
    pub gt_boxes: Vec<u64>,
    pub detections: Vec<u64>,
    /// Per image: GT boxes (not crowd) and detections, all categories.
    pub image_gt: Vec<u64>,
    pub image_dets: Vec<u64>,
    /// The image index of each GT `images` entry, in file order, a repeated id once (the bootstrap's units).
    pub unit_images: Vec<usize>,
    /// The two files' paths.
    pub gt_path: String,
    pub res_path: String,
}

pub(super) fn one<'a>(files: &'a FileSet, role: Role, diags: &mut Diags) -> Option<&'a Entry> {
    let all: Vec<&Entry> = files
        .with_role(role)
        .filter(|e| !super::viewer::is_image(e))
        .collect();
    let what = if role == Role::Gt {
        "a COCO annotation file (ground truth)"
    } else {
        "a COCO results file (predictions)"
    };
    match all.len() {
        1 => Some(all[0]),
        0 => {
            diags.push(
                Diagnostic::error(
                    if role == Role::Gt {
                        "detection.no_gt"
                    } else {
                        "detection.no_results"
                    },
                    format!("no {what} was given"),
                )
                .expected(what)
                .hint(
                    "Give the annotation JSON as ground truth and the results JSON as predictions.",
                ),
            );
            None
        }
        n => {
            diags.push(
                Diagnostic::error(
                    "detection.too_many_files",
                    format!("{n} files were given where {what} is expected"),
                )
                .file(&all[1].path)
                .expected("one JSON file")
                .found(
                    all.iter()
                        .map(|e| e.path.as_str())
                        .collect::<Vec<_>>()
                        .join(", "),
                )
                .hint("Give exactly one annotation file and one results file."),
            );
            None
        }
    }
}

pub(super) fn read(e: &Entry, diags: &mut Diags) -> Option<Vec<u8>> {
    match e.read_all() {
        Ok(b) => Some(b),
        Err(err) => {
            diags.push(Diagnostic::read_error(&e.path, err));
            None
        }
    }
}

fn index_of<T: Clone + Eq + std::hash::Hash>(sorted: &[T]) -> FxHashMap<T, usize> {
    sorted
        .iter()
        .enumerate()
        .map(|(i, v)| (v.clone(), i))
        .collect()
}

/// Reads and indexes the GT and results. `None` when an error blocks the evaluation.
pub fn load(files: &FileSet, budget: crate::budget::Budget, diags: &mut Diags) -> Option<Loaded> {
    let (g, r) = (one(files, Role::Gt, diags), one(files, Role::Pred, diags));
    let (g, r) = (g?, r?);
    let (gb, rb) = (read(g, diags)?, read(r, diags)?);
    if !super::budget::files_fit(g, &gb, r, &rb, budget, diags) {
        return None;
    }
    let mut found = Vec::new();
    let gt = coco_json::read_gt(&g.path, &gb, &mut found);
    let dets = coco_json::read_results(&r.path, &rb, &mut found);
    let mut blocked = found.iter().any(|d| d.is_error());
    diags.extend(found);
    let (gt, dets) = (gt?, dets?);
    if !image_id_types_agree(&gt, &g.path, &gb, diags) {
        return None;
    }
    if dets.is_empty() && !blocked {
        diags.push(
            Diagnostic::error("detection.empty_results", "the results list is empty")
                .file(&r.path)
                .expected("at least one detection")
                .hint("Submit a list of {image_id, category_id, bbox, score} objects.")
                .official("crashes: loadRes reads the first detection of the results list, and the list is empty"),
        );
        return None;
    }
    let loaded = build(&gt, &g.path, &gb, &dets, &r.path, &rb, diags);
    blocked |= diags.has_errors();
    (!blocked).then_some(loaded)
}

/// Indexes parsed files as pycocotools does (module doc).
pub fn build(
    gt: &GtFile,
    gt_path: &str,
    gt_bytes: &[u8],
    dets: &[Detection],
    res_path: &str,
    res_bytes: &[u8],
    diags: &mut Diags,
) -> Loaded {
    let (image_ids, image_names) =
        sorted_ids(gt.images.iter().map(|i| (i.id.clone(), &i.file_name)));
    let (category_ids, category_names) = sorted_ids(gt.categories.iter().map(|c| (c.id, &c.name)));
    let ix = Indexes {
        image: index_of(&image_ids),
        category: index_of(&category_ids),
    };
    let mut seen = vec![false; image_ids.len()];
    let unit_images = gt
        .images
        .iter()
        .map(|i| ix.image[&i.id])
        .filter(|&k| !std::mem::replace(&mut seen[k], true))
        .collect();
    let mut loaded = Loaded {
        unit_images,
        input: Input {
            n_images: image_ids.len(),
            n_categories: category_ids.len(),
            gts: Vec::new(),
            dets: Vec::with_capacity(dets.len()),
        },
        gt_boxes: vec![0; category_ids.len()],
        detections: vec![0; category_ids.len()],
        image_gt: vec![0; image_ids.len()],
        image_dets: vec![0; image_ids.len()],
        image_ids,
        image_names,
        category_ids,
        category_names,
        gt_path: gt_path.to_string(),
        res_path: res_path.to_string(),
    };
    let last = last_by_id(gt, gt_path, gt_bytes, diags);
    ground_truth(gt, &last, &ix, &mut loaded, gt_path, diags);
    results(dets, &ix, &mut loaded, res_path, res_bytes, diags);
    loaded
}

/// Sorted unique ids (`sorted(np.unique(ids))`) and each one's name, the last entry's for a repeated id.
fn sorted_ids<'a, T: Clone + Ord + std::hash::Hash>(
    entries: impl Iterator<Item = (T, &'a Option<String>)> + Clone,
) -> (Vec<T>, Vec<Option<String>>) {
    let mut ids: Vec<T> = entries.clone().map(|(id, _)| id).collect();
    ids.sort_unstable();
    ids.dedup();
    let ix = index_of(&ids);
    let mut names = vec![None; ids.len()];
    for (id, name) in entries {
        names[ix[&id]] = name.clone();
    }
    (ids, names)
}

/// Whether the GT's image ids are all integers or all strings: `COCOeval` sorts them
/// (`sorted(cocoGt.getImgIds())`), and Python cannot order an `int` and a `str` (error
/// `detection.mixed_image_ids`, at the first image whose id's type is not the first image's).
fn image_id_types_agree(gt: &GtFile, gt_path: &str, gt_bytes: &[u8], diags: &mut Diags) -> bool {
    let Some(first) = gt.images.first() else {
        return true;
    };
    let Some(k) = gt
        .images
        .iter()
        .position(|i| i.id.type_name() != first.id.type_name())
    else {
        return true;
    };
    let (a, b) = (&first.id, &gt.images[k].id);
    diags.push(
        Locator::new(gt_bytes)
            .error(
                gt_path,
                "detection.mixed_image_ids",
                gt.image_at[k],
                format!(
                    "image ids of two types: {} ({}) and {} ({})",
                    a.json_text(),
                    a.type_name(),
                    b.json_text(),
                    b.type_name()
                ),
            )
            .expected("every image id an integer, or every image id a string")
            .found(b.json_text())
            .hint("Write every image id the same way (all numbers, or all strings), in the ground truth and in the results.")
            .official("crashes: COCOeval sorts the image ids, and Python cannot compare an int with a str (TypeError)"),
    );
    false
}

/// Image and category id -> index in the sorted ids.
struct Indexes {
    image: FxHashMap<ImageId, usize>,
    category: FxHashMap<i64, usize>,
}

/// `anns[id]`: the index of the last annotation with each id; a repeated id is a warning.
fn last_by_id(
    gt: &GtFile,
    gt_path: &str,
    gt_bytes: &[u8],
    diags: &mut Diags,
) -> FxHashMap<i64, usize> {
    let mut last: FxHashMap<i64, usize> = FxHashMap::default();
    let mut repeated: Vec<usize> = Vec::new();
    for (i, a) in gt.annotations.iter().enumerate() {
        if last.insert(a.id, i).is_some() {
            repeated.push(i);
        }
    }
    if let Some(&first) = repeated.first() {
        let a = &gt.annotations[first];
        let more = match repeated.len() {
            1 => String::new(),
            n => format!(" ({} more repeated ids)", n - 1),
        };
        let mut d = Locator::new(gt_bytes)
            .error(gt_path, "detection.duplicate_annotation_id", a.at, format!("annotation id {} is used more than once{more}", a.id))
            .expected("unique annotation ids")
            .hint("Give every annotation its own id.")
            .official("COCO() keeps the last annotation with an id; the evaluation uses it in place of each earlier one");
        d.severity = Severity::Warning;
        diags.push(d);
    }
    last
}

/// The GT boxes, image by image in file order, each looked up by its id (module doc), counted per category
/// and image (crowd boxes not); annotations of unlisted images or categories, and id 0, are warnings.
fn ground_truth(
    gt: &GtFile,
    last: &FxHashMap<i64, usize>,
    ix: &Indexes,
    loaded: &mut Loaded,
    gt_path: &str,
    diags: &mut Diags,
) {
    let mut unlisted = 0usize;
    let mut order: Vec<(usize, usize)> = Vec::with_capacity(gt.annotations.len());
    for (i, a) in gt.annotations.iter().enumerate() {
        match (ix.image.get(&a.image_id), ix.category.get(&a.category_id)) {
            (Some(&im), Some(_)) => order.push((im, i)),
            _ => unlisted += 1,
        }
    }
    if unlisted > 0 {
        diags.push(
            Diagnostic::warning(
                "detection.unlisted_gt",
                format!("{unlisted} GT annotation(s) belong to an image or category that the file does not list; they are not evaluated"),
            )
            .file(gt_path)
            .hint("List every image in `images` and every category in `categories`.")
            .official("ignores them (getAnnIds looks up listed images and categories only)"),
        );
    }
    order.sort_by_key(|&(im, _)| im);
    loaded.input.gts.reserve(order.len());
    let mut zero_id = false;
    for (_, i) in order {
        let a = &gt.annotations[last[&gt.annotations[i].id]];
        let (Some(&image), Some(&category)) =
            (ix.image.get(&a.image_id), ix.category.get(&a.category_id))
        else {
            continue; // keyed under an image or category nobody looks up
        };
        zero_id |= a.id == 0;
        if !a.iscrowd {
            loaded.gt_boxes[category] += 1;
            loaded.image_gt[image] += 1;
        }
        loaded.input.gts.push(Gt {
            id: a.id,
            image,
            category,
            bbox: a.bbox,
            area: a.area,
            crowd: a.iscrowd,
        });
    }
    if zero_id {
        diags.push(
            Diagnostic::warning("detection.annotation_id_zero", "a GT annotation has id 0")
                .file(gt_path)
                .expected("annotation ids ≥ 1")
                .hint("Number annotations from 1: pycocotools stores matches as GT ids, and id 0 reads as unmatched.")
                .official("a detection matched to it counts as a false positive"),
        );
    }
}

/// The detections, counted per category and image: an unknown image is an error (`loadRes` refuses it), an
/// unknown category an info (never looked at).
fn results(
    dets: &[Detection],
    ix: &Indexes,
    loaded: &mut Loaded,
    res_path: &str,
    res_bytes: &[u8],
    diags: &mut Diags,
) {
    let rloc = Locator::new(res_bytes);
    let mut unknown_cat: Vec<&Detection> = Vec::new();
    for d in dets {
        let Some(&image) = ix.image.get(&d.image_id) else {
            diags.push(
                rloc.error(res_path, "detection.unknown_image", d.at, format!("image id {} is not in the ground truth", d.image_id.json_text()))
                    .expected("an image id of the GT `images` list")
                    .found(d.image_id.json_text())
                    .hint("Detections may only refer to images of the annotation file.")
                    .official("refuses the results (loadRes: AssertionError, Results do not correspond to current coco set)"),
            );
            continue;
        };
        let Some(&category) = ix.category.get(&d.category_id) else {
            unknown_cat.push(d);
            continue;
        };
        loaded.detections[category] += 1;
        loaded.image_dets[image] += 1;
        loaded.input.dets.push(Det {
            image,
            category,
            bbox: d.bbox,
            score: d.score,
        });
    }
    if let Some(first) = unknown_cat.first() {
        let mut d = rloc
            .error(res_path, "detection.unknown_category", first.at, format!("category id {} is not in the ground truth; {} detection(s) with unknown categories are not evaluated", first.category_id, unknown_cat.len()))
            .found(first.category_id.to_string())
            .hint("Use the category ids of the annotation file.")
            .official("ignores them (getAnnIds filters by the GT categories)");
        d.severity = Severity::Info;
        diags.push(d);
    }
}
