//! Which files are GT and which are the submission, their categories, and the pairing of the two
//! (docs/specs/chalearn-ce.md 2.2, 2.3): GT `<Category>_<imgset>.txt`, submission `<Category>.txt`, exact name
//! match first, then case-insensitive (warning); a wrapping folder inside the submission zip is read with a
//! warning; leftover submission files are reported with the closest category name.

use crate::diag::{Diagnostic, Diags};
use crate::input::{Entry, FileSet, Role};
use std::collections::BTreeMap;

pub const IMGSETS: &[&str] = &["train", "val", "valid", "validation", "test"];

pub struct GtFile {
    pub category: String,
    pub entry: Entry,
}

/// GT categories in ascending byte order, each with its submission file (if any).
pub struct Paired {
    pub gts: Vec<GtFile>,
    pub preds: Vec<Option<Entry>>,
    /// The common `<imgset>` of the GT files (empty when none was recognised).
    pub imgset: String,
}

/// `(category, imgset)` of a GT file stem: `suffix` = `auto` or a fixed imgset (with or without `_`).
pub fn split_gt_stem<'a>(stem: &'a str, suffix: &str) -> Option<(&'a str, &'a str)> {
    let (cat, set) = stem.rsplit_once('_')?;
    if cat.is_empty() {
        return None;
    }
    let fixed = suffix.trim().trim_start_matches('_');
    let ok = if fixed.is_empty() || fixed.eq_ignore_ascii_case("auto") {
        IMGSETS.iter().any(|s| set.eq_ignore_ascii_case(s))
    } else {
        set == fixed
    };
    ok.then_some((cat, set))
}

/// The file's stem when it is a `.txt` file (after `.gz`), else `None`.
fn txt_stem(e: &Entry) -> Option<&str> {
    let name = e.name();
    let n = name.len();
    if n > 4 && name.is_char_boundary(n - 4) && name[n - 4..].eq_ignore_ascii_case(".txt") {
        Some(&name[..n - 4])
    } else {
        None
    }
}

/// Levenshtein distance on characters (for "did you mean" hints; names are short).
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.chars().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

pub fn closest<'a>(name: &str, among: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let lower = name.to_lowercase();
    among.min_by_key(|c| (edit_distance(&lower, &c.to_lowercase()), c.len()))
}

pub fn pair(files: &FileSet, gt_suffix: &str, diags: &mut Diags) -> Option<Paired> {
    let mut gts: BTreeMap<String, Entry> = BTreeMap::new();
    let mut sets: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut preds: Vec<(String, Entry)> = Vec::new();
    let mut nested_zips: Vec<String> = Vec::new();
    for e in &files.entries {
        let Some(stem) = txt_stem(e) else {
            diags.push(not_txt(e));
            continue;
        };
        let split = split_gt_stem(stem, gt_suffix);
        let role = e.role.unwrap_or(if split.is_some() {
            Role::Gt
        } else {
            Role::Pred
        });
        match role {
            Role::Gt => add_gt(e, stem, split, &mut gts, &mut sets, diags),
            Role::Pred => {
                if let Some((zip, member)) = e.path.rsplit_once('!') {
                    if member.contains('/') && !nested_zips.iter().any(|z| z == zip) {
                        nested_zips.push(zip.to_string());
                    }
                }
                preds.push((stem.to_string(), e.clone()));
            }
        }
    }
    for zip in &nested_zips {
        diags.push(
            Diagnostic::warning("chalearn.zip.nested", "the submission files sit in a folder inside the zip; read from there")
                .file(zip)
                .expected("<Category>.txt files at the root of the zip")
                .hint("Zip the category files themselves, not their folder: Codalab expects them at the root.")
                .official("Codalab does not find the files (every category scores 0 or the scorer crashes)"),
        );
    }
    let mut fatal = false;
    if gts.is_empty() {
        diags.push(no_gt());
        fatal = true;
    }
    if preds.is_empty() {
        diags.push(
            Diagnostic::error("chalearn.input.no_submission", "no submission file found")
                .expected("one <Category>.txt file per category")
                .hint("Add the submission zip or its <Category>.txt files."),
        );
        fatal = true;
    }
    fatal |= !mixed_sets_ok(&sets, diags);
    if fatal {
        return None;
    }
    let imgset = image_set(&sets);
    let cats: Vec<String> = gts.keys().cloned().collect();
    let slots = match_categories(&cats, preds, diags);
    let gts = gts
        .into_iter()
        .map(|(category, entry)| GtFile { category, entry })
        .collect();
    Some(Paired {
        gts,
        preds: slots,
        imgset,
    })
}

/// Each category's submission file: exact names first (in path order), then names that differ in case only
/// (a warning); a second file of a category and a file of no category are reported and not used.
fn match_categories(
    cats: &[String],
    preds: Vec<(String, Entry)>,
    diags: &mut Diags,
) -> Vec<Option<Entry>> {
    let mut slots: Vec<Option<Entry>> = vec![None; cats.len()];
    let mut leftovers = Vec::new();
    for (stem, e) in preds {
        match cats.binary_search(&stem) {
            Ok(i) => {
                if slots[i].is_some() {
                    diags.push(duplicate_file(&e, &stem));
                } else {
                    slots[i] = Some(e);
                }
            }
            Err(_) => leftovers.push((stem, e)),
        }
    }
    for (stem, e) in leftovers {
        let ci = cats
            .iter()
            .enumerate()
            .find(|(i, c)| slots[*i].is_none() && c.eq_ignore_ascii_case(&stem))
            .map(|(i, _)| i);
        match ci {
            Some(i) => {
                diags.push(
                    Diagnostic::warning(
                        "chalearn.res.category_case",
                        format!("matched to category `{}` ignoring case", cats[i]),
                    )
                    .file(&e.path)
                    .expected(format!("{}.txt", cats[i]))
                    .found(e.name().to_string())
                    .hint("Name the file exactly as the category, with the same case.")
                    .official("not published; a case-sensitive file system would not find it"),
                );
                slots[i] = Some(e);
            }
            None if cats.iter().any(|c| c.eq_ignore_ascii_case(&stem)) => {
                diags.push(duplicate_file(&e, &stem));
            }
            None => {
                let near = closest(&stem, cats.iter().map(String::as_str)).unwrap_or("");
                diags.push(
                    Diagnostic::warning(
                        "chalearn.res.unknown_category",
                        format!("no GT category `{stem}`; the file is ignored"),
                    )
                    .file(&e.path)
                    .found(e.name().to_string())
                    .hint(format!("Did you mean `{near}.txt`? Submission files are named after the GT categories."))
                    .official("ignored"),
                );
            }
        }
    }
    slots
}

/// A ground-truth file: its category (from `<Category>_<imgset>`), unless a file of that category came first.
fn add_gt(
    e: &Entry,
    stem: &str,
    split: Option<(&str, &str)>,
    gts: &mut BTreeMap<String, Entry>,
    sets: &mut BTreeMap<String, Vec<String>>,
    diags: &mut Diags,
) {
    let (cat, set) = match split {
        Some((c, s)) => (c.to_string(), s.to_string()),
        None => {
            diags.push(
                Diagnostic::warning(
                    "chalearn.gt.suffix",
                    format!("GT file name without an `_<imgset>` suffix; read as category `{stem}`"),
                )
                .file(&e.path)
                .expected("<Category>_<imgset>.txt, e.g. La_Tomatina_test.txt")
                .found(e.name().to_string())
                .hint("Name GT files <Category>_<imgset>.txt, or set gt_suffix to the suffix they use."),
            );
            (stem.to_string(), String::new())
        }
    };
    if gts.contains_key(&cat) {
        diags.push(
            Diagnostic::warning(
                "chalearn.gt.duplicate_category",
                format!("a second GT file for category `{cat}`; ignored"),
            )
            .file(&e.path)
            .hint("Drop one GT file per category."),
        );
        return;
    }
    sets.entry(set).or_default().push(e.path.clone());
    gts.insert(cat, e.clone());
}

/// The common `<imgset>` of the GT files (empty when none was recognised).
fn image_set(sets: &BTreeMap<String, Vec<String>>) -> String {
    sets.keys()
        .find(|s| !s.is_empty())
        .cloned()
        .unwrap_or_default()
}

/// False, with the error `chalearn.gt.mixed_sets`, when the GT files come from more than one image set.
fn mixed_sets_ok(sets: &BTreeMap<String, Vec<String>>, diags: &mut Diags) -> bool {
    let named_sets: Vec<_> = sets.iter().filter(|(s, _)| !s.is_empty()).collect();
    if named_sets.len() > 1 {
        let list: Vec<String> = named_sets
            .iter()
            .map(|(s, files)| format!("_{s}: {}", files.len()))
            .collect();
        diags.push(
            Diagnostic::error(
                "chalearn.gt.mixed_sets",
                format!("GT files of different image sets: {}", list.join(", ")),
            )
            .expected("one <imgset> for all GT files")
            .found(
                named_sets
                    .iter()
                    .map(|(s, f)| format!("{} (_{s})", f.first().map(String::as_str).unwrap_or("")))
                    .collect::<Vec<_>>()
                    .join(", "),
            )
            .hint("Drop the GT files of one image set only, or set gt_suffix."),
        );
        return false;
    }
    true
}

/// The ground-truth side of [`pair`] alone (the pre-flight manifest): categories in ascending byte order and
/// their image set; `None` after an error.
pub fn gt_only(
    files: &FileSet,
    gt_suffix: &str,
    diags: &mut Diags,
) -> Option<(Vec<GtFile>, String)> {
    let mut gts: BTreeMap<String, Entry> = BTreeMap::new();
    let mut sets: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for e in files.with_role(Role::Gt) {
        let Some(stem) = txt_stem(e) else {
            diags.push(not_txt(e));
            continue;
        };
        add_gt(
            e,
            stem,
            split_gt_stem(stem, gt_suffix),
            &mut gts,
            &mut sets,
            diags,
        );
    }
    if gts.is_empty() {
        diags.push(no_gt());
        return None;
    }
    if !mixed_sets_ok(&sets, diags) {
        return None;
    }
    let gts = gts
        .into_iter()
        .map(|(category, entry)| GtFile { category, entry })
        .collect();
    Some((gts, image_set(&sets)))
}

fn not_txt(e: &Entry) -> Diagnostic {
    Diagnostic::info("chalearn.input.ignored", "not a .txt file; ignored")
        .file(&e.path)
        .hint(
            "Category files are named <Category>.txt (submission) or <Category>_<imgset>.txt (GT).",
        )
}

fn no_gt() -> Diagnostic {
    Diagnostic::error("chalearn.input.no_gt", "no ground-truth file found")
        .expected("one <Category>_<imgset>.txt file per category")
        .hint("Add the GT files (the Codalab layout's input/ref folder).")
}

fn duplicate_file(e: &Entry, stem: &str) -> Diagnostic {
    Diagnostic::warning(
        "chalearn.res.duplicate_category",
        format!(
            "a second submission file for category `{stem}`; ignored (the first one is scored)"
        ),
    )
    .file(&e.path)
    .hint("Submit one file per category.")
}

/// The role layer's view of a file: a GT file holds `<image_id> <label>` lines with labels 1, 0 or -1 (and its
/// name usually ends in `_<imgset>`); a prediction holds decimal confidences.
pub fn classify(path: &str, head: &[u8]) -> crate::protocols::Class {
    use crate::protocols::Class;
    let text = String::from_utf8_lossy(head);
    let mut lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    if head.len() >= 2048 && lines.len() > 1 {
        lines.pop(); // possibly cut
    }
    let values: Vec<&str> = lines
        .iter()
        .filter_map(|l| l.split_whitespace().nth(1))
        .collect();
    if values.is_empty() || values.iter().any(|v| v.parse::<f64>().is_err()) {
        return Class::either().or_name(path);
    }
    let stem = path
        .rsplit(['/', '\\', '!'])
        .next()
        .unwrap_or(path)
        .trim_end_matches(".gz");
    let stem = stem.rsplit_once('.').map_or(stem, |(s, _)| s);
    if values.iter().any(|v| v.contains(['.', 'e', 'E'])) {
        Class::pred("has decimal confidences")
    } else if values.iter().all(|v| matches!(*v, "1" | "0" | "-1"))
        && split_gt_stem(stem, "auto").is_some()
    {
        Class::gt("has 1/0/-1 labels and an `_<imgset>` name")
    } else {
        Class::either().or_name(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gt_stems() {
        assert_eq!(
            split_gt_stem("La_Tomatina_test", "auto"),
            Some(("La_Tomatina", "test"))
        );
        assert_eq!(
            split_gt_stem("San_Fermin_train", "auto"),
            Some(("San_Fermin", "train"))
        );
        assert_eq!(split_gt_stem("La_Tomatina", "auto"), None);
        assert_eq!(split_gt_stem("_test", "auto"), None);
        assert_eq!(split_gt_stem("Holi_gt", "_gt"), Some(("Holi", "gt")));
        assert_eq!(split_gt_stem("Holi_test", "gt"), None);
    }

    #[test]
    fn closest_names() {
        let cats = ["La_Tomatina", "San_Fermin", "Holi"];
        assert_eq!(
            closest("La_Tomatino", cats.iter().copied()),
            Some("La_Tomatina")
        );
        assert_eq!(closest("holy", cats.iter().copied()), Some("Holi"));
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }
}
