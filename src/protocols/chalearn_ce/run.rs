//! Scores every category: each one on its own (its GT, its submission file, its diagnostics), so that natively
//! the categories are spread over the machine's cores; the results are merged in category order, which makes
//! the report the same bytes whatever the number of threads (and the same as the wasm build's single thread).

use super::category::{self, Aps, Buffers, Interner, ReadSettings, Reading};
use super::pairing::{GtFile, Paired};
use super::plots;
use super::Progress;
use crate::diag::{Diagnostic, Diags};
use crate::input::Entry;
use crate::report::{Item, Scores};
use serde_json::{json, Map, Value};

/// What every category is scored with.
pub struct Ctx {
    pub set: ReadSettings,
    pub active: Reading,
    pub others: Vec<(&'static str, Reading)>,
}

/// One category's share of the report.
pub struct CategoryResult {
    pub item: Item,
    /// AP under the active reading.
    pub ap: Option<f64>,
    /// AP under each of `Ctx::others`.
    pub row: Vec<Option<f64>>,
    /// An error blocks the category's AP (and so mAP).
    pub blocked: bool,
    /// The GT has no positive: left out of mAP.
    pub no_positives: bool,
    /// This category's diagnostics, in the order a single pass would push them.
    pub diags: Diags,
    /// What the bootstrap's units need (with [`category::ReadSettings::keep`]).
    pub kept: Option<category::Kept>,
}

/// Reads and scores one category.
pub fn one(
    ctx: &Ctx,
    gt: &GtFile,
    sub: Option<&Entry>,
    ids: &mut Interner,
    bufs: &mut Buffers,
) -> CategoryResult {
    let mut diags = Diags::new();
    let active = ctx.active;
    let mut o = category::read(&gt.entry, sub, ctx.set, ids, &mut diags, bufs);
    let kept = o.kept.take();
    let no_positives = o.npos == 0 && !o.blocked;
    notes(gt, sub, &o, no_positives, active.append_missing, &mut diags);
    let mut a = Aps::new(&o, &mut bufs.ap);
    let ap = a.ap(active);
    let row: Vec<Option<f64>> = ctx.others.iter().map(|(_, r)| a.ap(*r)).collect();
    let mut detail = counts(&o, &row);
    detail.insert("gt_file".into(), json!(gt.entry.path));
    detail.insert("file".into(), sub.map_or(Value::Null, |s| json!(s.path)));
    if ap.is_some() && o.has_file {
        let pts = a.points(active);
        detail.insert(
            "pr_curve".into(),
            plots::pr_curve(&gt.category, pts, active.integration, active.sentinels),
        );
        if let Some(h) = plots::confidence_hist(&gt.category, &o.ranked) {
            detail.insert("confidence_hist".into(), h);
        }
    }
    drop(a);
    let blocked = o.blocked;
    bufs.recycle(o);
    CategoryResult {
        item: Item {
            id: gt.category.clone(),
            group: None,
            scores: Scores::new().with("ap", ap),
            detail,
        },
        ap,
        row,
        blocked,
        no_positives,
        diags,
        kept,
    }
}

/// The category's notes: no submission file (AP = 0), no positive in the GT (left out of mAP), GT images
/// missing from the file (`appended`: as one last tie group).
fn notes(
    gt: &GtFile,
    sub: Option<&Entry>,
    o: &category::Outcome,
    no_positives: bool,
    appended: bool,
    diags: &mut Diags,
) {
    if sub.is_none() {
        diags.push(
            Diagnostic::warning(
                "chalearn.res.missing_category",
                format!("no submission file for category `{}`: AP = 0", gt.category),
            )
            .file(&gt.entry.path)
            .expected(format!("{}.txt in the submission", gt.category))
            .hint(format!(
                "Add {}.txt to the submission zip (at its root).",
                gt.category
            ))
            .official("not published (probably crashes); dropscore counts AP = 0"),
        );
    }
    if no_positives {
        diags.push(
            Diagnostic::warning(
                "chalearn.gt.no_positives",
                format!(
                    "category `{}` has no positive image: AP undefined, left out of mAP",
                    gt.category
                ),
            )
            .file(&gt.entry.path)
            .expected("at least one line labelled 1")
            .hint("Check the GT labels (1 = positive).")
            .official("AP is NaN (division by zero)"),
        );
    }
    let Some(s) = sub.filter(|_| !o.unreadable) else {
        return;
    };
    if o.missing_pos > 0 || (o.missing_neg > 0 && o.npos > 0) {
        let msg = format!(
            "{} GT image(s) missing from this file ({} positive, {} negative): {}",
            o.missing_pos + o.missing_neg,
            o.missing_pos,
            o.missing_neg,
            if appended {
                "appended as one last tie group"
            } else {
                "not ranked; recall stays below 1"
            }
        );
        let d = if o.missing_pos > 0 {
            Diagnostic::warning("chalearn.res.missing_images", msg)
        } else {
            Diagnostic::info("chalearn.res.missing_images", msg)
        };
        diags.push(
            d.file(&s.path)
                .expected(format!("{} lines", o.npos + o.nneg))
                .found(format!("{} matched", o.matched))
                .hint("Give a confidence for every test image in every category file.")
                .official("not published; the official reading does not rank them [default]"),
        );
    }
}

/// The item's counts and the APs of the other readings (`row`: as `Ctx::others` lists them).
fn counts(o: &category::Outcome, row: &[Option<f64>]) -> Map<String, Value> {
    let (pf, nf) = (row[3], row[4]);
    let mut detail = Map::new();
    detail.insert("npos".into(), json!(o.npos));
    detail.insert("submitted".into(), json!(o.submitted));
    detail.insert("matched".into(), json!(o.matched));
    detail.insert("unknown".into(), json!(o.unknown));
    detail.insert("duplicates".into(), json!(o.duplicates));
    detail.insert("missing_positives".into(), json!(o.missing_pos));
    detail.insert("missing_negatives".into(), json!(o.missing_neg));
    if o.ignored > 0 {
        detail.insert("ignored".into(), json!(o.ignored));
    }
    detail.insert("ap_step".into(), num(row[0]));
    detail.insert("ap_grouped".into(), num(row[2]));
    detail.insert(
        "tie_spread".into(),
        num(match (pf, nf) {
            (Some(p), Some(q)) => Some(p - q),
            _ => None,
        }),
    );
    detail
}

pub fn num(v: Option<f64>) -> Value {
    v.and_then(serde_json::Number::from_f64)
        .map_or(Value::Null, Value::Number)
}

/// Every category, in order, on this thread.
#[cfg(target_arch = "wasm32")]
pub fn all(paired: &Paired, ctx: &Ctx, progress: &mut dyn Progress) -> Vec<CategoryResult> {
    sequential(paired, ctx, progress)
}

fn sequential(paired: &Paired, ctx: &Ctx, progress: &mut dyn Progress) -> Vec<CategoryResult> {
    let (mut ids, mut bufs) = (Interner::default(), Buffers::default());
    let n = paired.gts.len();
    let mut out = Vec::with_capacity(n);
    for (k, (gt, sub)) in paired.gts.iter().zip(&paired.preds).enumerate() {
        progress.update(k as f64 / n as f64, "scoring categories");
        out.push(one(ctx, gt, sub.as_ref(), &mut ids, &mut bufs));
    }
    out
}

/// A file read on this thread: what `Entry::plain` needs.
#[cfg(not(target_arch = "wasm32"))]
type Read = (
    String,
    Option<crate::input::Role>,
    Option<crate::input::RoleFrom>,
    Vec<u8>,
);
/// A category: index, name, GT file, submission file.
#[cfg(not(target_arch = "wasm32"))]
type Job = (usize, String, Read, Option<Read>);

/// One worker of [`all`]: parses and scores the categories it receives until the jobs end.
#[cfg(not(target_arch = "wasm32"))]
fn worker(
    ctx: &Ctx,
    job_rx: &std::sync::Mutex<std::sync::mpsc::Receiver<Job>>,
    res_tx: &std::sync::mpsc::Sender<(usize, CategoryResult)>,
) {
    let (mut ids, mut bufs) = (Interner::default(), Buffers::default());
    loop {
        let job = match job_rx.lock() {
            Ok(rx) => rx.recv(),
            Err(_) => break,
        };
        let Ok((k, category, (path, role, from, bytes), sub)) = job else {
            break;
        };
        let gt = GtFile {
            category,
            entry: Entry::plain(path, role, from, bytes),
        };
        let sub = sub.map(|(path, role, from, bytes)| Entry::plain(path, role, from, bytes));
        let r = one(ctx, &gt, sub.as_ref(), &mut ids, &mut bufs);
        if res_tx.send((k, r)).is_err() {
            break;
        }
    }
}

/// Every category, natively: this thread reads (and inflates) the files in order and hands their bytes to
/// one worker per core, which parse and score them; results come back by index. A category whose file
/// cannot be read here is scored on this thread from its entry (which reports the read error as usual).
#[cfg(not(target_arch = "wasm32"))]
pub fn all(paired: &Paired, ctx: &Ctx, progress: &mut dyn Progress) -> Vec<CategoryResult> {
    use std::sync::{mpsc, Arc, Mutex};
    let n = paired.gts.len();
    let workers = std::thread::available_parallelism()
        .map_or(1, |c| c.get())
        .min(8)
        .min(n);
    if workers < 2 {
        return sequential(paired, ctx, progress);
    }
    let read = |e: &Entry| -> std::io::Result<Read> {
        Ok((e.path.clone(), e.role, e.role_from, e.read_all()?))
    };
    let mut results: Vec<Option<CategoryResult>> = (0..n).map(|_| None).collect();
    let mut done = 0usize;
    std::thread::scope(|s| {
        let (job_tx, job_rx) = mpsc::sync_channel::<Job>(2 * workers);
        let job_rx = Arc::new(Mutex::new(job_rx));
        let (res_tx, res_rx) = mpsc::channel::<(usize, CategoryResult)>();
        for _ in 0..workers {
            let (job_rx, res_tx) = (Arc::clone(&job_rx), res_tx.clone());
            s.spawn(move || worker(ctx, &job_rx, &res_tx));
        }
        drop(res_tx);
        let (mut ids, mut bufs) = (Interner::default(), Buffers::default());
        let mut take = |k: usize, r: CategoryResult, done: &mut usize| {
            if let Some(slot) = results.get_mut(k) {
                *slot = Some(r);
                *done += 1;
                progress.update(*done as f64 / n as f64, "scoring categories");
            }
        };
        for (k, (gt, sub)) in paired.gts.iter().zip(&paired.preds).enumerate() {
            match (read(&gt.entry), sub.as_ref().map(read).transpose()) {
                (Ok(g), Ok(s)) => {
                    if job_tx.send((k, gt.category.clone(), g, s)).is_err() {
                        break;
                    }
                }
                _ => {
                    let r = one(ctx, gt, sub.as_ref(), &mut ids, &mut bufs);
                    take(k, r, &mut done);
                }
            }
            while let Ok((k, r)) = res_rx.try_recv() {
                take(k, r, &mut done);
            }
        }
        drop(job_tx);
        for (k, r) in res_rx {
            take(k, r, &mut done);
        }
    });
    // A worker that stopped early leaves its categories here, scored on this thread.
    let (mut ids, mut bufs) = (Interner::default(), Buffers::default());
    results
        .into_iter()
        .zip(paired.gts.iter().zip(&paired.preds))
        .map(|(r, (gt, sub))| r.unwrap_or_else(|| one(ctx, gt, sub.as_ref(), &mut ids, &mut bufs)))
        .collect()
}
