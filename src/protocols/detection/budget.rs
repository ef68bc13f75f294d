//! detection under the memory budget (README, "Limits and the memory budget"): the two JSON files are
//! weighed before they are parsed (an upper bound on their objects, the `{` count, times what the reader and
//! the evaluation hold for each), and the evaluation before it allocates ([`coco::cost`]: `precision` and
//! `recall` over categories × the options, the boxes, the largest IoU matrix). A refusal names the file or
//! the option responsible.

use crate::budget::{self, Budget};
use crate::diag::{Diagnostic, Diags};
use crate::input::Entry;
use crate::metrics::coco::{self, cost::Blame, Input, Params};
use crate::protocols::UsageError;

/// Bytes a GT object (annotation, image or category) costs from its parse to the evaluation: the reader's
/// raw value (16) and annotation (80), the evaluation's box and its per-threshold state.
const GT_OBJECT: u64 = 200;
/// Bytes a results object costs: the reader's raw value (16) and detection (64), the evaluation's. 16 M
/// boxes in a 1.0 GB file peaked at 2.93 GB (119 bytes a box besides the file): 160 leaves a third over.
const RESULT_OBJECT: u64 = 160;

/// An upper bound on the JSON objects of `bytes`: its `{` count.
fn objects(bytes: &[u8]) -> u64 {
    memchr::memchr_iter(b'{', bytes).count() as u64
}

/// `true` when the GT `g` and the results `r` (read, not yet parsed) fit the budget; otherwise an
/// `input.limit` naming the file with the larger share.
pub fn files_fit(g: &Entry, gb: &[u8], r: &Entry, rb: &[u8], b: Budget, diags: &mut Diags) -> bool {
    let gt = (gb.len() as u64).saturating_add(objects(gb).saturating_mul(GT_OBJECT));
    let res = (rb.len() as u64).saturating_add(objects(rb).saturating_mul(RESULT_OBJECT));
    let need = gt.saturating_add(res);
    if need <= b.max_memory {
        return true;
    }
    let (file, n) = if res >= gt {
        (&r.path, objects(rb))
    } else {
        (&g.path, objects(gb))
    };
    diags.push(
        budget::refusal(
            file,
            None,
            &format!(
                "reading and evaluating up to {n} objects (boxes, images, categories) of {file}"
            ),
            need,
            b,
        )
        .found(format!("up to {n} JSON objects")),
    );
    false
}

/// `Ok(true)` when evaluating `input` under `p` fits the budget; `Ok(false)` after an `input.limit` naming
/// the GT (its categories and images, or its boxes) or the results (their detections); a usage error
/// naming `max_dets` when the option alone takes it over (the defaults would fit).
pub fn evaluation_fits(
    input: &Input,
    p: &Params,
    gt: &str,
    res: &str,
    b: Budget,
    diags: &mut Diags,
) -> Result<bool, UsageError> {
    let Some((blame, need)) = coco::cost::over(input, p, b.max_memory) else {
        return Ok(true);
    };
    let k = input.n_categories;
    let what = match blame {
        Blame::MaxDets => {
            let text = b
                .check(
                    &format!(
                        "option `max_dets` ({} values) on {k} categories",
                        p.max_dets.len()
                    ),
                    need,
                )
                .err()
                .unwrap_or_default();
            return Err(UsageError(format!(
                "{text}; or give fewer max_dets values (pycocotools' default is 1,10,100)"
            )));
        }
        Blame::GroundTruth => (
            gt,
            format!(
                "evaluating {k} categories × {} images and {} GT boxes of {gt}",
                input.n_images,
                input.gts.len()
            ),
        ),
        Blame::Results => (
            res,
            format!("evaluating the {} detections of {res}", input.dets.len()),
        ),
    };
    let d: Diagnostic = budget::refusal(what.0, None, &what.1, need, b);
    diags.push(d);
    Ok(false)
}

/// The warning of a `max_dets` without 100: `summarize()`'s first line asks for AP at maxDets=100 whatever
/// `maxDets` holds (pycocotools 2.0.8 `_summarize(1)`), finds no such column, and prints -1.000.
pub fn without_100(max_dets: &[usize]) -> Diagnostic {
    let list: Vec<String> = max_dets.iter().map(usize::to_string).collect();
    Diagnostic::warning(
        "detection.max_dets_without_100",
        format!(
            "max_dets = {} does not list 100, so AP (the first line) is -1, as pycocotools prints it; the other lines use the largest value",
            list.join(",")
        ),
    )
    .expected("max_dets listing 100 (e.g. 1,10,100) for AP")
    .found(list.join(","))
    .hint("Add 100 to max_dets for AP, or rank by another stat (metric = AP50, AR100…).")
    .official("stats[0] = -1 (summarize() reads maxDets=100 for the first line)")
}
