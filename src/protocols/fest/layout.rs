//! Input layouts and pairing (docs/specs/fest.md 2.1, 2.2): two PNGs, a GT folder + a prediction folder, the data
//! set layout `<MS>/text-line-gt-<MS>/<split>/NNN.png` + `<MS>/NNN.png`, and Codalab `ref`/`res` (roles from
//! the path). Manuscripts are matched by folder name (exact, then case-insensitive, then `manuscript_map`);
//! images by file stem, iterating over the GT folder's entries sorted by code point as the official script does.

use crate::diag::Diagnostic;
use crate::input::{Entry, FileSet, Role};
use crate::report::Mode;
use std::collections::BTreeMap;

/// One image to score.
pub struct Job<'a> {
    pub stem: String,
    /// Unique item id: `<stem>` (one manuscript) or `<MS>/<stem>`, `#2` for a repeat.
    pub id: String,
    pub gt: &'a Entry,
    pub pred: Option<&'a Entry>,
    /// Official mode: a GT entry that is not a PNG (and has no PNG of its stem). The official script reads
    /// `<stem>.png` and crashes here, so scoring stops at this job (spec 6).
    pub unreadable: bool,
}

pub struct Manuscript<'a> {
    pub name: String,
    pub jobs: Vec<Job<'a>>,
}

fn comps(path: &str) -> Vec<&str> {
    path.split(['/', '\\', '!'])
        .filter(|c| !c.is_empty())
        .collect()
}

/// File name without its last extension; a leading dot does not start an extension.
pub fn stem(name: &str) -> &str {
    match name.rfind('.') {
        Some(i) if i > 0 => &name[..i],
        _ => name,
    }
}

/// The folder an entry is in (archive names count as folders): `""` at the top.
fn parent(path: &str) -> String {
    let c = comps(path);
    if c.len() >= 2 {
        c[c.len() - 2].to_string()
    } else {
        String::new()
    }
}

struct GtFile<'a> {
    ms: String,
    split: Option<String>,
    dataset: bool,
    entry: &'a Entry,
}

fn classify(e: &Entry) -> GtFile<'_> {
    let c = comps(&e.path);
    let tl = c
        .iter()
        .position(|x| x.to_ascii_lowercase().starts_with("text-line-gt-") && x.len() > 13);
    match tl {
        Some(i) if i + 1 < c.len() => {
            let ms = if i > 0 {
                c[i - 1].to_string()
            } else {
                c[i][13..].to_string()
            };
            let split = (c.len() > i + 2).then(|| c[i + 1].to_string());
            GtFile {
                ms,
                split,
                dataset: true,
                entry: e,
            }
        }
        _ => GtFile {
            ms: parent(&e.path),
            split: None,
            dataset: false,
            entry: e,
        },
    }
}

/// The GT side of the layouts: the GT entries of each manuscript (by folder name, the data set's split chosen)
/// and whether the data set layout is used. Page images are reported and left out.
pub fn gt_side<'a>(
    files: &'a FileSet,
    split_opt: &str,
    diags: &mut Vec<Diagnostic>,
) -> (BTreeMap<String, Vec<&'a Entry>>, bool) {
    let mut gts: Vec<GtFile> = Vec::new();
    for e in files.with_role(Role::Gt) {
        if comps(&e.path)
            .iter()
            .any(|c| c.to_ascii_lowercase().starts_with("img-"))
        {
            diags.push(
                Diagnostic::info("fest.input.page_image", "page image: not scored")
                    .file(&e.path)
                    .hint(
                        "Page images are only backgrounds; the GT masks are in text-line-gt-<MS>/.",
                    ),
            );
            continue;
        }
        gts.push(classify(e));
    }
    let empty = empty_splits(files);
    let chosen = choose_splits(&gts, &empty, split_opt, diags);
    gts.retain(|g| {
        !g.dataset
            || chosen.get(&g.ms).cloned().flatten() == Some(g.split.clone().unwrap_or_default())
    });
    let mut gt_ms: BTreeMap<String, Vec<&Entry>> = BTreeMap::new();
    for g in &gts {
        gt_ms.entry(g.ms.clone()).or_default().push(g.entry);
    }
    for (ms, split) in &empty {
        if chosen.get(ms) == Some(&Some(split.clone())) {
            gt_ms.entry(ms.clone()).or_default();
        }
    }
    let dataset = gts.iter().any(|g| g.dataset) || !empty.is_empty();
    (gt_ms, dataset)
}

/// Split folders of the data set layout that hold no image: empty folders (on disk or in a zip), and folders
/// holding only system files (which the input layer ignores, with an info). These are manuscripts without an
/// image (spec 6, empty GT folder), as (manuscript, split).
fn empty_splits(files: &FileSet) -> Vec<(String, String)> {
    let ignored = files
        .diagnostics
        .iter()
        .filter(|d| d.code == "input.ignored_file")
        .filter_map(|d| d.file.as_deref())
        .map(|f| (f, 3));
    let folders = files
        .empty_folders_of(Role::Gt)
        .map(|f| (f.path.as_str(), 2));
    let mut empty: Vec<(String, String)> = Vec::new();
    // `below`: how many components the path has after `text-line-gt-<MS>` and before its end, plus one.
    for (path, below) in ignored.chain(folders) {
        let c = comps(path);
        let tl = c
            .iter()
            .position(|x| x.to_ascii_lowercase().starts_with("text-line-gt-") && x.len() > 13);
        if let Some(i) = tl.filter(|&i| i + below == c.len() && !c.contains(&"__MACOSX")) {
            let ms = if i > 0 { c[i - 1] } else { &c[i][13..] };
            let split = (ms.to_string(), c[i + 1].to_string());
            if !empty.contains(&split) {
                empty.push(split);
            }
        }
    }
    empty
}

/// The split chosen for each manuscript of the data set layout: its only split folder, else the one named by
/// the `split` option (`None`, an error, when there is none of that name).
fn choose_splits(
    gts: &[GtFile],
    empty: &[(String, String)],
    split_opt: &str,
    diags: &mut Vec<Diagnostic>,
) -> BTreeMap<String, Option<String>> {
    let mut splits: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let named = gts
        .iter()
        .filter(|g| g.dataset)
        .map(|g| (g.ms.clone(), g.split.clone().unwrap_or_default()));
    for (ms, name) in named.chain(empty.iter().cloned()) {
        let s = splits.entry(ms).or_default();
        if !s.contains(&name) {
            s.push(name);
        }
    }
    let mut chosen: BTreeMap<String, Option<String>> = BTreeMap::new();
    for (ms, s) in &splits {
        let pick = if s.len() == 1 {
            Some(s[0].clone())
        } else if s.iter().any(|x| x == split_opt) {
            Some(split_opt.to_string())
        } else {
            diags.push(
                Diagnostic::error(
                    "fest.input.ambiguous_split",
                    format!("manuscript {ms}: several split folders and none is `{split_opt}`"),
                )
                .expected(format!("a split folder named `{split_opt}`"))
                .found(s.join(", "))
                .hint("Choose one with --set split=NAME."),
            );
            None
        };
        chosen.insert(ms.clone(), pick);
    }
    chosen
}

/// Builds the manuscripts and their jobs; every layout problem becomes a diagnostic.
pub fn build<'a>(
    files: &'a FileSet,
    mode: Mode,
    split_opt: &str,
    map_opt: &str,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Manuscript<'a>> {
    for e in files.entries.iter().filter(|e| e.role.is_none()) {
        diags.push(
            Diagnostic::error("fest.input.unknown_role", "cannot tell whether this file is ground truth or a prediction")
                .file(&e.path)
                .hint("Drop it on the GT or the prediction zone (CLI: --gt / --pred), or put it under a ref/ or res/ folder."),
        );
    }
    let (gt_ms, dataset) = gt_side(files, split_opt, diags);
    let mut pred_dirs: BTreeMap<String, Vec<&Entry>> = BTreeMap::new();
    for e in files.with_role(Role::Pred) {
        pred_dirs.entry(parent(&e.path)).or_default().push(e);
    }
    if gt_ms.is_empty() {
        diags.push(no_images(mode));
        return Vec::new();
    }
    // Manuscript pairing.
    let map: Vec<(String, String)> = map_opt
        .split(',')
        .filter_map(|kv| {
            kv.split_once('=')
                .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        })
        .collect();
    let single = gt_ms.len() == 1;
    let mut out = Vec::new();
    let mut used_pred: Vec<String> = Vec::new();
    for (ms, entries) in &gt_ms {
        let pred_dir = pred_dir_of(ms, &map, &pred_dirs, single);
        let name = if single && !dataset {
            "default".to_string()
        } else {
            ms.clone()
        };
        let preds: Vec<&Entry> = match &pred_dir {
            Some(d) => {
                used_pred.push(d.clone());
                pred_dirs.get(d).cloned().unwrap_or_default()
            }
            None => {
                if !pred_dirs.is_empty() || !single {
                    diags.push(unmatched(ms, &gt_ms, &pred_dirs));
                    continue;
                }
                Vec::new()
            }
        };
        // Layout 1 (spec 2.1): two PNG files, one on each side, pair whatever their names.
        let two_files = single && !dataset && entries.len() == 1 && preds.len() == 1;
        out.push(Manuscript {
            name: name.clone(),
            jobs: pair(
                &name,
                entries,
                &preds,
                mode,
                !single || dataset,
                two_files,
                diags,
            ),
        });
    }
    for (d, es) in &pred_dirs {
        if !used_pred.contains(d) {
            for e in es {
                diags.push(extra(e));
            }
        }
    }
    out
}

/// The prediction folder of manuscript `ms`: the one `manuscript_map` names, the only one (one manuscript), the
/// one of the same name, else the only one of the same name in another case.
fn pred_dir_of(
    ms: &str,
    map: &[(String, String)],
    pred_dirs: &BTreeMap<String, Vec<&Entry>>,
    single: bool,
) -> Option<String> {
    if let Some((_, v)) = map.iter().find(|(k, _)| k == ms) {
        pred_dirs.keys().find(|k| *k == v).cloned()
    } else if single && pred_dirs.len() == 1 {
        pred_dirs.keys().next().cloned()
    } else if pred_dirs.contains_key(ms) {
        Some(ms.to_string())
    } else {
        let ci: Vec<&String> = pred_dirs
            .keys()
            .filter(|k| k.eq_ignore_ascii_case(ms))
            .collect();
        (ci.len() == 1).then(|| ci[0].clone())
    }
}

/// No GT image at all: NaN means officially (a warning), an error when corrected.
fn no_images(mode: Mode) -> Diagnostic {
    Diagnostic::new(
        if mode == Mode::Official {
            crate::Severity::Warning
        } else {
            crate::Severity::Error
        },
        "fest.input.no_images",
        "no GT image to score",
    )
    .hint("Drop the GT masks (PNG) on the GT zone.")
    .official("NaN means (numpy mean of an empty list)")
}

fn unmatched(
    ms: &str,
    gt_ms: &BTreeMap<String, Vec<&Entry>>,
    pred_dirs: &BTreeMap<String, Vec<&Entry>>,
) -> Diagnostic {
    Diagnostic::error(
        "fest.input.unmatched_manuscript",
        format!("no prediction folder for manuscript `{ms}`"),
    )
    .expected(format!(
        "GT manuscripts: {}",
        gt_ms.keys().cloned().collect::<Vec<_>>().join(", ")
    ))
    .found(format!(
        "prediction folders: {}",
        pred_dirs
            .keys()
            .map(|k| if k.is_empty() {
                "(top level)".to_string()
            } else {
                k.clone()
            })
            .collect::<Vec<_>>()
            .join(", ")
    ))
    .hint("set `manuscript_map`, e.g. --set manuscript_map=Latin2=latin1,Syriaque341=syr")
}

fn extra(e: &Entry) -> Diagnostic {
    Diagnostic::info(
        "fest.input.extra_prediction",
        "prediction without a GT image: ignored",
    )
    .file(&e.path)
    .hint("Nothing to do if this file is not meant to be scored.")
    .official("ignored")
}

/// Official pairing inside one manuscript (spec 2.2); `two_files`: layout 1, the one prediction pairs the one
/// GT image whatever its name.
pub fn pair<'a>(
    ms: &str,
    gt: &[&'a Entry],
    pred: &[&'a Entry],
    mode: Mode,
    prefix: bool,
    two_files: bool,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Job<'a>> {
    let mut gt: Vec<&Entry> = gt.to_vec();
    gt.sort_by(|a, b| a.name().as_bytes().cmp(b.name().as_bytes()));
    let mut jobs: Vec<Job> = Vec::new();
    let mut claimed = vec![false; pred.len()];
    let mut seen: BTreeMap<String, u32> = BTreeMap::new();
    for e in &gt {
        let st = stem(e.name()).to_string();
        let want = format!("{st}.png");
        let Some(png) = gt.iter().find(|x| x.name() == want) else {
            diags.push(not_png(e, &want, mode));
            if mode == Mode::Official {
                let n = seen.entry(st.clone()).or_insert(0);
                *n += 1;
                jobs.push(Job {
                    id: job_id(ms, &st, *n, prefix),
                    stem: st,
                    gt: e,
                    pred: None,
                    unreadable: true,
                });
            }
            continue;
        };
        let n = seen.entry(st.clone()).or_insert(0);
        *n += 1;
        if *n > 1 {
            diags.push(duplicate_stem(e, &st, mode));
            if mode != Mode::Official {
                continue;
            }
        }
        let mut p = pred.iter().position(|x| x.name() == want);
        if p.is_none() && two_files && pred.len() == 1 && !claimed[0] {
            p = Some(0);
            diags.push(
                Diagnostic::info(
                    "fest.input.two_files",
                    format!(
                        "one GT image and one prediction: `{}` is scored against `{}` whatever their names",
                        pred[0].name(),
                        e.name()
                    ),
                )
                .file(&pred[0].path)
                .hint("Nothing to do; with several images, name each prediction like its GT image."),
            );
        }
        if let Some(i) = p {
            claimed[i] = true;
        }
        let id = job_id(ms, &st, *n, prefix);
        jobs.push(Job {
            stem: st,
            id,
            gt: png,
            pred: p.map(|i| pred[i]),
            unreadable: false,
        });
    }
    for (i, e) in pred.iter().enumerate() {
        if !claimed[i] {
            diags.push(extra(e));
        }
    }
    jobs
}

/// The item id of the `n`-th GT entry of stem `st`: `<stem>` or `<MS>/<stem>` (`prefix`), `#n` for a repeat.
fn job_id(ms: &str, st: &str, n: u32, prefix: bool) -> String {
    let base = if prefix {
        format!("{ms}/{st}")
    } else {
        st.to_string()
    };
    if n > 1 {
        format!("{base}#{n}")
    } else {
        base
    }
}

/// A GT entry with the stem of an earlier one: scored again officially, once when corrected.
fn duplicate_stem(e: &Entry, st: &str, mode: Mode) -> Diagnostic {
    Diagnostic::warning(
        "fest.input.duplicate_stem",
        if mode == Mode::Official {
            format!("`{}` has the stem of another GT entry: the official script scores image {st} again", e.name())
        } else {
            format!("`{}` has the stem of another GT entry: image {st} is scored once", e.name())
        },
    )
    .file(&e.path)
    .hint("Keep only the PNG mask in the GT folder.")
    .official("scores the image once per entry")
}

/// A GT entry that is not a PNG and has no PNG of its stem (`want`): the official script crashes reading it.
fn not_png(e: &Entry, want: &str, mode: Mode) -> Diagnostic {
    let d = if mode == Mode::Official {
        Diagnostic::error(
            "fest.official.gt_unreadable",
            format!(
                "GT entry is not a PNG: the official script reads `{want}`, which does not exist"
            ),
        )
        .official("crashes (cv2.imread returns None)")
    } else {
        Diagnostic::warning(
            "fest.official.gt_unreadable",
            format!("GT entry is not a PNG (no `{want}`): skipped"),
        )
        .official("crashes (reads the missing PNG)")
    };
    d.file(&e.path).hint("Remove the file from the GT folder.")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stems() {
        assert_eq!(stem("001.png"), "001");
        assert_eq!(stem("a.b.png"), "a.b");
        assert_eq!(stem(".DS_Store"), ".DS_Store");
        assert_eq!(stem("noext"), "noext");
    }
}
