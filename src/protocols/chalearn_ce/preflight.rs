//! The pre-flight check of `chalearn-ce` (docs/specs/preflight.md): the manifest holds the category names and each
//! category's image ids (sorted, so that the GT's line order cannot tell positives from negatives), never a
//! label. `check` rebuilds each category's GT from the manifest with one placeholder label and runs scoring's
//! own pairing ([`pairing::pair`]) and category reader ([`category::read`]) on it, so every diagnostic about the
//! submission (files, categories, ids, lines, duplicates) has the code and location scoring gives it.

use super::category::ReadSettings;
use super::category::{self, stem_of, Buffers, Interner};
use super::options::{ChalearnOptions, IdMatch, MissingImages};
use super::pairing::Paired;
use super::pairing::{self, split_gt_stem};
use super::read_settings;
use crate::diag::Diagnostic;
use crate::formats::chalearn::read_gt;
use crate::input::{Entry, FileSet, Role, RoleFrom};
use crate::protocols::preflight::{bad_manifest, counted, item, strings, thousands, Found};
use crate::protocols::Run;
use crate::report::Item;
use serde_json::{json, Value};
use std::collections::HashSet;

/// `expects`: `{"image_set": "test", "categories": [{"name": "Holi", "ids": 0}, …], "id_lists": [[…], …]}`;
/// a category's `ids` indexes `id_lists` (categories that share their image set share one list).
pub fn manifest(run: &mut Run, opts: &ChalearnOptions) -> Value {
    let stem = opts.id_match == IdMatch::Stem;
    let Some((gts, imgset)) = pairing::gt_only(run.files, &opts.gt_suffix, &mut run.diags) else {
        return Value::Null;
    };
    let mut lists: Vec<Vec<String>> = Vec::new();
    let mut categories = Vec::new();
    for g in &gts {
        let mut seen: HashSet<Vec<u8>> = HashSet::new();
        let mut ids = Vec::new();
        read_gt(g.entry.text_file(), &mut run.diags, |id, _label, _line| {
            // The key scoring matches on; the first id of a key is the one scoring keeps.
            let key = if stem { stem_of(id) } else { id };
            if seen.insert(key.to_vec()) {
                ids.push(String::from_utf8_lossy(id).into_owned());
            }
        });
        ids.sort();
        let k = match lists.iter().position(|l| *l == ids) {
            Some(k) => k,
            None => {
                lists.push(ids);
                lists.len() - 1
            }
        };
        categories.push(json!({ "name": g.category, "ids": k }));
    }
    json!({ "image_set": imgset, "categories": categories, "id_lists": lists })
}

/// A category of the manifest: its name and its image ids.
struct Expected<'a> {
    name: String,
    ids: &'a [Value],
}

fn parse(expects: &Value) -> Option<(String, Vec<Expected<'_>>)> {
    let imgset = expects.get("image_set")?.as_str()?.to_string();
    let lists = expects.get("id_lists")?.as_array()?;
    let mut out = Vec::new();
    for c in expects.get("categories")?.as_array()? {
        let name = c.get("name")?.as_str()?.to_string();
        let k = usize::try_from(c.get("ids")?.as_u64()?).ok()?;
        let ids = lists.get(k)?.as_array()?;
        if name.is_empty() || ids.iter().any(|i| !i.is_string()) {
            return None;
        }
        out.push(Expected { name, ids });
    }
    Some((imgset, out))
}

/// Checks the submission in `run.files` against `expects`; returns what was found.
pub fn check(run: &mut Run, opts: &ChalearnOptions, expects: &Value) -> Found {
    let Some((imgset, expected)) = parse(expects) else {
        run.diags
            .push(bad_manifest("expected image_set, categories and id_lists"));
        return String::from("no usable manifest").into();
    };
    let gt_suffix = opts.gt_suffix.as_str();
    let Some(mut set) = stand_in_gt(run, &imgset, &expected, gt_suffix) else {
        return String::from("no usable manifest").into();
    };
    set.entries.extend(run.files.entries.iter().cloned());
    let n = expected.len() as u64;
    let Some(paired) = pairing::pair(&set, gt_suffix, &mut run.diags) else {
        return format!("0 of {}", counted(n, "category", "categories")).into();
    };
    let append = opts.missing_images == MissingImages::Append;
    let tally = read_categories(run, &paired, read_settings(opts), append);
    let cats = if tally.have == n {
        counted(n, "category", "categories")
    } else {
        format!(
            "{} of {}",
            thousands(tally.have),
            counted(n, "category", "categories")
        )
    };
    let sizes = &tally.sizes;
    let uniform = sizes.windows(2).all(|w| w[0] == w[1]);
    let summary = match sizes.first() {
        Some(&s) if uniform && tally.have == n && tally.matched == tally.total => {
            format!("{cats}, {} each", counted(s, "id", "ids"))
        }
        _ => format!(
            "{cats}, {} of {} ids",
            thousands(tally.matched),
            thousands(tally.total)
        ),
    };
    Found {
        summary,
        items: tally.items,
    }
}

/// Each category's GT as scoring would read it, rebuilt from the manifest with every label a placeholder
/// negative; `None` (after a `preflight.manifest` error) when a category name does not fit `gt_suffix`.
fn stand_in_gt(
    run: &mut Run,
    imgset: &str,
    expected: &[Expected],
    gt_suffix: &str,
) -> Option<FileSet> {
    let fixed = gt_suffix.trim().trim_start_matches('_');
    let suffix = if !imgset.is_empty() {
        imgset
    } else if fixed.is_empty() || fixed.eq_ignore_ascii_case("auto") {
        "test"
    } else {
        fixed
    };
    let mut set = FileSet::default();
    for c in expected {
        let name = format!("{}_{suffix}.txt", c.name);
        if split_gt_stem(&name[..name.len() - 4], gt_suffix).map(|(cat, _)| cat) != Some(&c.name) {
            run.diags.push(bad_manifest(&format!(
                "category `{}` does not fit gt_suffix",
                c.name
            )));
            return None;
        }
        let mut bytes = Vec::new();
        for id in strings(&Value::Array(c.ids.to_vec())) {
            bytes.extend_from_slice(id.as_bytes());
            bytes.extend_from_slice(b" -1\n");
        }
        set.entries.push(Entry::plain(
            name,
            Some(Role::Gt),
            Some(RoleFrom::Explicit),
            bytes,
        ));
    }
    Some(set)
}

/// What the categories' files held: categories with a file, ids matched of ids expected, each category's
/// size, one item per category.
struct Tally {
    have: u64,
    matched: u64,
    total: u64,
    sizes: Vec<u64>,
    items: Vec<Item>,
}

/// Reads each category of `paired` with scoring's reader, pushing its diagnostics and a warning per missing
/// category file or missing image.
fn read_categories(run: &mut Run, paired: &Paired, rs: ReadSettings, append: bool) -> Tally {
    let (mut ids, mut bufs) = (Interner::default(), Buffers::default());
    let mut t = Tally {
        have: 0,
        matched: 0,
        total: 0,
        sizes: Vec::new(),
        items: Vec::new(),
    };
    for (gt, sub) in paired.gts.iter().zip(&paired.preds) {
        let Some(sub) = sub else {
            let o = category::read(&gt.entry, None, rs, &mut ids, &mut run.diags, &mut bufs);
            let size = o.npos + o.nneg + o.ignored;
            t.total += size;
            t.sizes.push(size);
            bufs.recycle(o);
            t.items.push(item(
                &gt.category,
                json!({ "expected": size, "found": 0, "file": Value::Null }),
            ));
            run.diags.push(missing_category(&gt.category));
            continue;
        };
        t.have += 1;
        let o = category::read(
            &gt.entry,
            Some(sub),
            rs,
            &mut ids,
            &mut run.diags,
            &mut bufs,
        );
        let size = o.npos + o.nneg + o.ignored;
        t.sizes.push(size);
        t.total += size;
        let missing = o.missing_pos + o.missing_neg;
        // Every id of the manifest counts once; with gt_zero=ignore a listed id is still found.
        let found = size - missing;
        t.matched += found;
        t.items.push(item(
            &gt.category,
            json!({ "expected": size, "found": found, "unknown": o.unknown,
                    "duplicates": o.duplicates, "file": sub.path }),
        ));
        if missing > 0 {
            run.diags
                .push(missing_images(&sub.path, missing, size, found, append));
        }
        bufs.recycle(o);
    }
    t
}

/// The warning for a category without a submission file.
fn missing_category(category: &str) -> Diagnostic {
    Diagnostic::warning(
        "chalearn.res.missing_category",
        format!("no submission file for category `{category}`: AP = 0"),
    )
    .file(&format!("{category}.txt"))
    .expected(format!("{category}.txt in the submission"))
    .hint(format!(
        "Add {category}.txt to the submission zip (at its root)."
    ))
    .official("not published (probably crashes); dropscore counts AP = 0")
}

/// The warning for `missing` GT images absent from the category file `path`.
fn missing_images(path: &str, missing: u64, size: u64, found: u64, append: bool) -> Diagnostic {
    Diagnostic::warning(
        "chalearn.res.missing_images",
        format!(
            "{missing} GT image(s) missing from this file: {}",
            if append {
                "appended as one last tie group"
            } else {
                "not ranked; recall stays below 1"
            }
        ),
    )
    .file(path)
    .expected(format!("{size} lines"))
    .found(format!("{found} matched"))
    .hint("Give a confidence for every test image in every category file.")
    .official("not published; the official reading does not rank them [default]")
}
