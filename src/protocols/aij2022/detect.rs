//! Which dropped file is what (docs/specs/aij2022.md 2.2, 2.3): per-task files by name prefix or folder, the
//! combined layout (`predictions.json` + GT JSON + `ids.json`), FID sides, CLIP scores and option tables.

use super::clip::{self, Embeddings};
use super::generation::{read_clip, Side};
use super::options::AijOptions;
use super::Task;
use crate::budget::Budget;
use crate::diag::Diagnostic;
use crate::formats::aij_json::{self, Doc};
use crate::formats::npy;
use crate::input::{Entry, FileSet, Role};
use crate::report::Mode;
use std::collections::HashMap;

#[derive(Default)]
pub struct Found {
    pub gt: HashMap<Task, Doc>,
    pub pred: HashMap<Task, Doc>,
    pub input: HashMap<Task, Doc>,
    pub ids: Option<Doc>,
    pub combined_gt: Option<Doc>,
    pub combined_pred: Option<Doc>,
    pub combined_input: Option<Doc>,
    pub fid_ref: Option<Side>,
    pub fid_gen: Option<Side>,
    pub clip: Option<HashMap<String, f64>>,
    pub ref_images: Vec<String>,
    pub gen_images: Vec<String>,
    pub lemma_table: Option<(String, Vec<u8>)>,
    pub ruwordnet: Option<(String, Vec<u8>)>,
}

const IMAGE_EXT: [&str; 11] = [
    "bmp", "jpg", "JPG", "jpeg", "JPEG", "pgm", "png", "ppm", "tif", "tiff", "webp",
];

fn task_of(prefix: &str) -> Option<Task> {
    Some(match prefix {
        "textqa" => Task::TextQa,
        "mathqa" => Task::MathQa,
        "generation" => Task::Generation,
        "captioning" => Task::Captioning,
        "vqa" => Task::Vqa,
        "titw" | "text_recognition" => Task::Titw,
        _ => return None,
    })
}

fn matches_option(e: &Entry, value: &str) -> bool {
    if value.is_empty() || value == "none" {
        return false;
    }
    let base = value.rsplit(['/', '\\']).next().unwrap_or(value);
    e.path == value || e.path.ends_with(&format!("/{value}")) || e.name() == base
}

fn read(e: &Entry, diags: &mut Vec<Diagnostic>) -> Option<Vec<u8>> {
    match e.read_all() {
        Ok(b) => Some(b),
        Err(err) => {
            diags.push(Diagnostic::read_error(&e.path, err));
            None
        }
    }
}

fn json(e: &Entry, mode: Mode, diags: &mut Vec<Diagnostic>) -> Option<Doc> {
    let b = read(e, diags)?;
    match aij_json::parse_owned(&e.path, b) {
        Ok(d) => python_extensions(&d, mode, diags).then_some(d),
        Err(d) => {
            diags.push(*d);
            None
        }
    }
}

/// Refuses, before it is read, an FID side whose `.npy` header declares a shape that FID cannot hold in
/// the memory budget (`n` rows of `d` values: [`crate::protocols::aij2022::generation::fid_memory`]).
fn fid_fits(
    e: &Entry,
    n_of: fn(&[usize]) -> (usize, usize),
    budget: Budget,
    diags: &mut Vec<Diagnostic>,
) -> bool {
    let Some(shape) = e.head(4096).ok().and_then(|h| npy::peek_shape(&h)) else {
        return true;
    };
    let (n, d) = n_of(&shape);
    match budget.check(
        &format!("FID with d = {d} (shape {shape:?})"),
        super::generation::fid_memory(n, d),
    ) {
        Ok(()) => true,
        Err(msg) => {
            diags.push(
                Diagnostic::error("input.limit", msg)
                    .file(&e.path)
                    .expected(format!("d at most {} in the memory budget", super::generation::max_fid_dim(budget)))
                    .found(format!("shape {shape:?}"))
                    .hint("FID holds several d×d matrices of binary64: Inception pool3 features (d = 2048) need about 256 MiB."),
            );
            false
        }
    }
}

/// Reads an FID side from an `.npy` entry or the members of one `.npz`.
fn side_npy(e: &Entry, budget: Budget, diags: &mut Vec<Diagnostic>) -> Option<Side> {
    let acts = |s: &[usize]| match s {
        [n, d] => (*n, *d),
        [d] => (1, *d),
        _ => (1, 1),
    };
    if !fid_fits(e, acts, budget, diags) {
        return None;
    }
    let b = read(e, diags)?;
    match npy::parse(&e.path, &b) {
        Ok(arr) => Some(Side::Acts {
            file: e.path.clone(),
            arr,
        }),
        Err(d) => {
            diags.push(*d);
            None
        }
    }
}

fn side_npz(
    archive: &str,
    members: &[&Entry],
    budget: Budget,
    diags: &mut Vec<Diagnostic>,
) -> Option<Side> {
    let get = |k: &str| members.iter().find(|m| m.name() == format!("{k}.npy"));
    let (Some(mu), Some(sigma)) = (get("mu"), get("sigma")) else {
        let keys: Vec<String> = members
            .iter()
            .map(|m| m.name().trim_end_matches(".npy").to_string())
            .collect();
        diags.push(
            Diagnostic::error("aij.gen.npz_keys", "the .npz has no `mu` and `sigma` arrays")
                .file(archive)
                .expected("keys mu, sigma")
                .found(keys.join(", "))
                .hint("Write the statistics with pytorch-fid --save-stats or numpy.savez(path, mu=mu, sigma=sigma).")
                .official("crashes: it reads the arrays `mu` and `sigma`, which this .npz does not have"),
        );
        return None;
    };
    let stats = |s: &[usize]| (0, s.iter().copied().max().unwrap_or(1));
    if !fid_fits(mu, stats, budget, diags) || !fid_fits(sigma, stats, budget, diags) {
        return None;
    }
    let a = npy::parse(&mu.path, &read(mu, diags)?)
        .map_err(|d| diags.push(*d))
        .ok()?;
    let s = npy::parse(&sigma.path, &read(sigma, diags)?)
        .map_err(|d| diags.push(*d))
        .ok()?;
    Some(Side::Stats {
        file: archive.to_string(),
        mu: a,
        sigma: s,
    })
}

/// Diagnostics for what Python's json reads beyond JSON: official mode reads it as Python does (a
/// warning, the scorer goes on with the value); corrected mode refuses `NaN` and `Infinity`, which are not JSON
/// (RFC 8259; docs/specs/aij2022.md 2.1), and reads a number beyond the float range as ±∞ and a lone surrogate as
/// one code point, with a warning. False when the file is refused.
fn python_extensions(d: &Doc, mode: Mode, diags: &mut Vec<Diagnostic>) -> bool {
    use crate::formats::python_json::Use;
    for (kind, code, what, python) in [
        (
            Use::Literal,
            "aij.json.python_literal",
            "`NaN`, `Infinity` or `-Infinity`, which is not JSON",
            "reads it as float('nan') / float('inf') and scores with that value",
        ),
        (
            Use::Huge,
            "aij.json.huge_number",
            "a number beyond the float range",
            "reads it as float('inf') (an integer: a Python int) and scores with that value",
        ),
        (
            Use::Surrogate,
            "aij.json.lone_surrogate",
            "a lone UTF-16 surrogate escape (such as \\ud800), which is no Unicode text",
            "keeps it as one code point and scores with that string",
        ),
    ] {
        let at: Vec<(u64, u64)> = d
            .extensions
            .iter()
            .filter(|x| x.1 == kind)
            .map(|x| x.0)
            .collect();
        let Some(&(line, col)) = at.first() else {
            continue;
        };
        let refuse = kind == Use::Literal && mode == Mode::Corrected;
        let n = if at.len() > 1 {
            format!(" (and {} more)", at.len() - 1)
        } else {
            String::new()
        };
        let msg = format!("{what}{n}; Python's json {python}");
        let diag = if refuse {
            Diagnostic::error(
                "aij.json.syntax",
                format!("{what}{n}: corrected mode reads standard JSON only"),
            )
            .hint("Write the number as JSON (a finite number), or null.")
        } else {
            Diagnostic::warning(code, msg)
                .hint("Write standard JSON: finite numbers and valid Unicode text.")
        };
        diags.push(
            diag.file(&d.file)
                .at(line, col)
                .official(format!("Python's json {python}")),
        );
        if refuse {
            return false;
        }
    }
    true
}

/// The dropped files sorted by what they are, before the JSON documents, arrays and CLIP scores are read whole.
#[derive(Default)]
struct Sorted<'a> {
    npz: Vec<(String, Vec<&'a Entry>, Option<Role>)>,
    npys: Vec<&'a Entry>,
    clip_files: Vec<&'a Entry>,
    generic: Vec<&'a Entry>,
    emb: Embeddings,
}

/// The options that name files: the lemma and RuWordNet tables, the CLIP scores.
struct Named {
    lemma: String,
    wordnet: String,
    clip: String,
}

pub fn find(
    files: &FileSet,
    opts: &AijOptions,
    budget: Budget,
    mode: Mode,
    diags: &mut Vec<Diagnostic>,
) -> Found {
    let mut f = Found::default();
    let named = Named {
        lemma: opts.lemma_table.0.clone(),
        wordnet: opts.ruwordnet_table.0.clone(),
        clip: opts.clip_scores.0.clone(),
    };
    let mut sorted = Sorted::default();
    for e in &files.entries {
        sort_entry(e, &named, &mut f, &mut sorted, mode, diags);
    }
    read_generic(&mut f, &sorted.generic, mode, diags);
    fid_sides(&mut f, &mut sorted, opts, budget, diags);
    for e in &sorted.clip_files {
        if let Some(b) = read(e, diags) {
            let m = read_clip(&e.path, &b, diags);
            f.clip.get_or_insert_with(HashMap::new).extend(m);
        }
    }
    if let Some(m) = sorted.emb.scores(diags) {
        f.clip.get_or_insert_with(HashMap::new).extend(m);
    }
    f
}

/// One entry: a table named by an option, an image, an `.npz` member, a CLIP matrix, an FID array, a CLIP
/// scores file, or a JSON document (read here when its name says its task).
fn sort_entry<'a>(
    e: &'a Entry,
    named: &Named,
    f: &mut Found,
    sorted: &mut Sorted<'a>,
    mode: Mode,
    diags: &mut Vec<Diagnostic>,
) {
    let auto =
        |opt: &str, names: &[&str]| (opt.is_empty() || opt == "none") && names.contains(&e.name());
    if matches_option(e, &named.lemma) || auto(&named.lemma, &["lemmas.tsv", "lemma_table.tsv"]) {
        f.lemma_table = read(e, diags).map(|b| (e.path.clone(), b));
        return;
    }
    if matches_option(e, &named.wordnet)
        || auto(&named.wordnet, &["ruwordnet.tsv", "ruwordnet_table.tsv"])
    {
        f.ruwordnet = read(e, diags).map(|b| (e.path.clone(), b));
        return;
    }
    if matches_option(e, &named.clip) {
        sorted.clip_files.push(e);
        return;
    }
    let name = e.name().to_string();
    let lower = name.to_ascii_lowercase();
    let dirs: Vec<&str> = e.path.split(['/', '\\', '!']).collect();
    let ext = name.rsplit('.').next().unwrap_or("");
    if IMAGE_EXT.contains(&ext) {
        if dirs.contains(&"output_pr_images") {
            f.gen_images.push(e.path.clone());
        } else if dirs.contains(&"output_images") {
            f.ref_images.push(e.path.clone());
        }
        return;
    }
    if let Some((archive, _)) = e
        .path
        .rsplit_once('!')
        .filter(|(a, _)| a.to_ascii_lowercase().ends_with(".npz"))
    {
        npz_member(e, archive, &name, sorted, diags);
        return;
    }
    if lower.ends_with(".npy") && lower.contains("clip") {
        match (clip::kind(&name), read(e, diags)) {
            (Some(k), Some(b)) => sorted.emb.add(k, &e.path, &b, diags),
            (None, _) => diags.push(
                Diagnostic::warning("aij.clip.embedding_kind", "a CLIP .npy is used only when its name says image (or img) or text (or txt)")
                    .file(&e.path)
                    .hint("Name the matrices clip_image.npy and clip_text.npy, with the ids in clip_ids.json."),
            ),
            _ => {}
        }
        return;
    }
    if lower.ends_with(".npy") {
        sorted.npys.push(e);
        return;
    }
    if lower == "clip_scores.json" || lower == "clip_scores.csv" {
        sorted.clip_files.push(e);
        return;
    }
    if lower.ends_with(".json") {
        sort_json(e, &name, &dirs, f, sorted, mode, diags);
    }
}

/// A member of an `.npz` archive: a CLIP embedding when the archive's name says clip, else one more member of
/// its archive (an FID side).
fn npz_member<'a>(
    e: &'a Entry,
    archive: &str,
    name: &str,
    sorted: &mut Sorted<'a>,
    diags: &mut Vec<Diagnostic>,
) {
    if archive.to_ascii_lowercase().contains("clip") {
        match (clip::kind(name), read(e, diags)) {
            (Some(k), Some(b)) => sorted.emb.add(k, &e.path, &b, diags),
            (None, _) => diags.push(
                Diagnostic::warning(
                    "aij.clip.embedding_kind",
                    "this member of a CLIP archive is not used: name it image.npy or text.npy",
                )
                .file(&e.path),
            ),
            _ => {}
        }
        return;
    }
    match sorted.npz.iter_mut().find(|(a, _, _)| a == archive) {
        Some(g) => g.1.push(e),
        None => sorted.npz.push((archive.to_string(), vec![e], e.role)),
    }
}

/// A JSON file: the CLIP ids, `ids.json`, `predictions.json`, a task's `<task>_gt|pred|input.json` (or
/// `<task>/gt.json`…), else a generic document left for [`read_generic`].
fn sort_json<'a>(
    e: &'a Entry,
    name: &str,
    dirs: &[&str],
    f: &mut Found,
    sorted: &mut Sorted<'a>,
    mode: Mode,
    diags: &mut Vec<Diagnostic>,
) {
    let lower = name.to_ascii_lowercase();
    let stem = &name[..name.len() - 5];
    if clip::is_ids_name(&lower) {
        if let Some(b) = read(e, diags) {
            if sorted.emb.ids.is_some() {
                diags.push(
                    Diagnostic::warning(
                        "aij.clip.embeddings_extra",
                        "a second CLIP ids file is not used",
                    )
                    .file(&e.path),
                );
            } else {
                sorted.emb.ids = Some((e.path.clone(), b));
            }
        }
        return;
    }
    if lower == "ids.json" {
        f.ids = json(e, mode, diags);
        return;
    }
    if lower == "predictions.json" {
        f.combined_pred = json(e, mode, diags);
        return;
    }
    let (prefix, kind) = match stem.rsplit_once('_') {
        Some((p, k)) if matches!(k, "gt" | "pred" | "input") => (p.to_string(), k),
        _ => match stem {
            "gt" | "pred" | "input" => (
                dirs.iter().rev().nth(1).copied().unwrap_or("").to_string(),
                stem,
            ),
            _ => (String::new(), ""),
        },
    };
    match task_of(&prefix.to_ascii_lowercase()) {
        Some(t) => {
            if let Some(doc) = json(e, mode, diags) {
                match kind {
                    "gt" => f.gt.insert(t, doc),
                    "pred" => f.pred.insert(t, doc),
                    _ => f.input.insert(t, doc),
                };
            }
        }
        None => sorted.generic.push(e),
    }
}

/// Generic JSON files: the combined layout's GT / input, or a single task's pair by role.
fn read_generic(f: &mut Found, generic: &[&Entry], mode: Mode, diags: &mut Vec<Diagnostic>) {
    for e in generic {
        let lower = e.name().to_ascii_lowercase();
        let Some(doc) = json(e, mode, diags) else {
            continue;
        };
        match (lower.as_str(), e.role) {
            ("input.json", _) => f.combined_input = Some(doc),
            (_, Some(Role::Pred)) if f.combined_pred.is_none() => f.combined_pred = Some(doc),
            (_, Some(Role::Gt)) | (_, None) if f.combined_gt.is_none() => f.combined_gt = Some(doc),
            _ => diags.push(
                Diagnostic::warning("aij.input.unused", "this JSON file was not recognised and is not scored")
                    .file(&e.path)
                    .hint("Name files <task>_gt.json / <task>_pred.json / <task>_input.json, or predictions.json + ids.json."),
            ),
        }
    }
}

/// FID sides: the `.npy` files and `.npz` archives read, assigned by the fid_inputs option, else by role.
fn fid_sides(
    f: &mut Found,
    sorted: &mut Sorted,
    opts: &AijOptions,
    budget: Budget,
    diags: &mut Vec<Diagnostic>,
) {
    let fid_opt = opts.fid_inputs.items();
    let mut sides: Vec<(String, Option<Role>, Side)> = Vec::new();
    for e in std::mem::take(&mut sorted.npys) {
        if let Some(s) = side_npy(e, budget, diags) {
            sides.push((e.path.clone(), e.role, s));
        }
    }
    for (archive, members, role) in std::mem::take(&mut sorted.npz) {
        if let Some(s) = side_npz(&archive, &members, budget, diags) {
            sides.push((archive, role, s));
        }
    }
    if fid_opt.len() == 2 {
        for (want, slot) in [(&fid_opt[0], 0), (&fid_opt[1], 1)] {
            let base = want.rsplit(['/', '\\']).next().unwrap_or(want);
            if let Some(i) = sides.iter().position(|(p, _, _)| {
                p == want
                    || p.ends_with(&format!("/{want}"))
                    || p.rsplit(['/', '\\', '!']).next() == Some(base)
            }) {
                let s = sides.remove(i).2;
                if slot == 0 {
                    f.fid_ref = Some(s)
                } else {
                    f.fid_gen = Some(s)
                }
            }
        }
    } else {
        for (_, role, s) in sides {
            match role {
                Some(Role::Gt) if f.fid_ref.is_none() => f.fid_ref = Some(s),
                Some(Role::Pred) if f.fid_gen.is_none() => f.fid_gen = Some(s),
                _ => diags.push(
                    Diagnostic::warning("aij.gen.fid_side_unknown", "this array is not used: drop one FID input as GT (reference) and one as prediction (generated), or set fid_inputs=ref,gen")
                        .file(s.file()),
                ),
            }
        }
    }
}

/// `split_tasks.py`: split the combined GT / predictions / input by `ids.json`, in ids order.
pub fn split_combined(f: &mut Found, diags: &mut Vec<Diagnostic>) {
    let Some(ids) = f.ids.take() else { return };
    let mut unknown = Vec::new();
    for doc in [&f.combined_gt, &f.combined_pred].into_iter().flatten() {
        for (k, _) in &doc.entries {
            if ids.get(k).is_none() {
                unknown.push((doc.at(k, Diagnostic::error("aij.ids.unknown", format!("id {k} is not in ids.json: split_tasks.py drops it"))
                    .hint("Every id of the predictions and the GT needs a task number in ids.json.")
                    .official("silently dropped by split_tasks.py")), k.clone()));
            }
        }
    }
    diags.extend(unknown.into_iter().map(|(d, _)| d));
    for (k, v) in &ids.entries {
        let n = match v {
            aij_json::Val::Num(n) => n.as_u64(),
            aij_json::Val::Str(s) => s
                .parse::<u64>()
                .ok()
                .filter(|_| !s.starts_with('+') && (s.len() == 1)),
            _ => None,
        };
        let Some(task) = n.and_then(Task::from_num) else {
            diags.push(
                ids.at(
                    k,
                    Diagnostic::error(
                        "aij.ids.bad_task",
                        format!("id {k}: task must be 0…5, found {v}"),
                    )
                    .official("crashes: split_tasks.py has no task with this number"),
                ),
            );
            continue;
        };
        for (src, dst) in [
            (&f.combined_gt, &mut f.gt),
            (&f.combined_pred, &mut f.pred),
            (&f.combined_input, &mut f.input),
        ] {
            let Some(src) = src else { continue };
            let Some(i) = src.index(k) else { continue };
            dst.entry(task)
                .or_insert_with(|| Doc::empty(&src.file))
                .push_from(src, i);
        }
    }
    // Tasks whose ids are all absent from one side still need an (empty) document on the other.
    let tasks: Vec<Task> = f.gt.keys().chain(f.pred.keys()).copied().collect();
    for t in tasks {
        if f.combined_pred.is_some() {
            f.pred
                .entry(t)
                .or_insert_with(|| Doc::empty("predictions.json"));
        }
        if let Some(g) = &f.combined_gt {
            f.gt.entry(t).or_insert_with(|| Doc::empty(&g.file));
        }
    }
}

/// The role layer's view of a file: the contest's names (`<task>_gt.json`, `<task>_pred.json`,
/// `predictions.json`, `ids.json`) tell; anything else is either.
pub fn classify(path: &str, _head: &[u8]) -> crate::protocols::Class {
    use crate::protocols::Class;
    let name = path
        .rsplit(['/', '\\', '!'])
        .next()
        .unwrap_or(path)
        .to_ascii_lowercase();
    let name = name.strip_suffix(".gz").unwrap_or(&name);
    let Some(stem) = name.strip_suffix(".json") else {
        return Class::either();
    };
    let kind = stem.rsplit_once('_').map_or(stem, |(_, k)| k);
    match (stem, kind) {
        ("predictions", _) | (_, "pred") => Class::pred("is named as the contest's predictions"),
        ("ids", _) | (_, "gt") => Class::gt("is named as the contest's ground truth"),
        _ => Class::either(),
    }
}
