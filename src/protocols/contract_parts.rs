//! Public and private parts (docs/specs/statistics.md section 4): one ground truth whose units are assigned to
//! the public part, the private part or to none (`Ignored`), by a split file (`id<TAB>Public|Private|Ignored`,
//! shell option `split`) or, for the CSV families, the GT's usage column (Kaggle's `Usage`,
//! [`super::contract_parts_csv`]). The report keeps each part's scores under `parts`; Ignored units are in no
//! part and not in the whole; option `part` picks what `scores` (the headline, the leaderboard) shows, and a
//! report of one part holds no value of the other.
//!
//! For a protocol without a usage column the parts are recomputed from its bootstrap units
//! ([`crate::stats::units::Units`]): a part is the replicate whose weights are 1 on the part's units and 0
//! elsewhere, which is the metric on the part's units alone (to the replicate's 1e-12).
//!
//! A unit the split file does not list is an error (no part is computed): Kaggle's solution files give every row
//! a `Usage`, and a unit silently left out of both parts would change the private leaderboard unnoticed.

use super::options::{PartChoice, PartSettings};
use super::UsageError;
use crate::diag::{excerpt, Diagnostic, Diags};
use crate::input::FileSet;
use crate::report::{Parts, Report, Scores};
use crate::stats::units::{Replicate, Slot, Units};
use std::any::Any;
use std::collections::HashMap;
use std::sync::Arc;

/// A unit's part.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    Public,
    Private,
    Ignored,
}

impl Part {
    /// `Public`, `Private` or `Ignored`, in any case, spaces around ignored.
    pub fn parse(text: &str) -> Option<Part> {
        match text.trim().to_ascii_lowercase().as_str() {
            "public" => Some(Part::Public),
            "private" => Some(Part::Private),
            "ignored" => Some(Part::Ignored),
            _ => None,
        }
    }
}

/// Whether a unit of part `p` is scored under `choice` (the whole: every unit not Ignored).
pub fn shown(p: Part, choice: PartChoice) -> bool {
    match choice {
        PartChoice::All => p != Part::Ignored,
        PartChoice::Public => p == Part::Public,
        PartChoice::Private => p == Part::Private,
    }
}

/// The split file, taken out of the inputs before roles are settled (no protocol ever sees it as a ground
/// truth or a prediction): its path and bytes, and the inputs without it. `Ok((None, None))` without a split;
/// a usage error when the named file is not among the inputs or cannot be read.
#[allow(clippy::type_complexity)] // the split file and the inputs without it
pub fn take_split(
    files: &FileSet,
    settings: &PartSettings,
) -> Result<(Option<(String, Vec<u8>)>, Option<FileSet>), UsageError> {
    if settings.split.is_empty() {
        return Ok((None, None));
    }
    let name = &settings.split;
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let at = files
        .entries
        .iter()
        .position(|e| e.path == *name)
        .or_else(|| files.entries.iter().position(|e| e.name() == base));
    let Some(at) = at else {
        return Err(UsageError(format!(
            "option `split`: no input named `{name}` (give the split file's path; on the page, drop it with the \
             ground truth)"
        )));
    };
    let bytes = files.entries[at]
        .read_all()
        .map_err(|e| UsageError(format!("option `split`: cannot read `{name}`: {e}")))?;
    let mut rest = files.clone();
    let e = rest.entries.remove(at);
    Ok((Some((e.path, bytes)), Some(rest)))
}

/// Reads a split file against the units' ids: each unit's part, or `None` with located errors (a line that
/// is not `id<TAB>part`, a part that is not Public/Private/Ignored, an id that names no unit, an id listed
/// twice, units not listed). A first line whose part reads `usage` or `part` is a header.
pub fn read_split(
    file: &str,
    bytes: &[u8],
    ids: &[String],
    diags: &mut Diags,
) -> Option<Vec<Part>> {
    let mut index: HashMap<&str, Vec<usize>> = HashMap::with_capacity(ids.len());
    for (i, id) in ids.iter().enumerate() {
        index.entry(id.as_str()).or_default().push(i);
    }
    let mut parts: Vec<Option<Part>> = vec![None; ids.len()];
    let mut first_line: HashMap<&str, u64> = HashMap::new();
    let mut bad = false;
    let text = String::from_utf8_lossy(bytes);
    for (k, raw) in text.split('\n').enumerate() {
        let line = k as u64 + 1;
        let l = raw.strip_suffix('\r').unwrap_or(raw);
        if l.trim().is_empty() {
            continue;
        }
        let mut err = |code: &str, msg: String, col: u64, expected: &str, found: &str| {
            bad = true;
            diags.push(
                Diagnostic::error(code, msg)
                    .file(file)
                    .at(line, col)
                    .expected(expected.to_string())
                    .found(excerpt(found))
                    .hint(
                        "Write one line per unit: its id, a tab, then Public, Private or Ignored.",
                    ),
            );
        };
        let Some((id, part_text)) = l.rsplit_once('\t') else {
            err(
                "stats.split_line",
                "a split line is `id<TAB>Public|Private|Ignored`; this one has no tab".into(),
                1,
                "id<TAB>Public|Private|Ignored",
                l,
            );
            continue;
        };
        let col = id.chars().count() as u64 + 2;
        let Some(part) = Part::parse(part_text) else {
            let header = matches!(
                part_text.trim().to_ascii_lowercase().as_str(),
                "usage" | "part"
            );
            if !(header && first_line.is_empty() && line == 1) {
                err(
                    "stats.split_part",
                    format!("`{}` is not a part", excerpt(part_text.trim())),
                    col,
                    "Public, Private or Ignored",
                    part_text,
                );
            }
            continue;
        };
        let id = id.trim_matches([' ', '\t']);
        let Some(units) = index.get(id) else {
            err(
                "stats.split_unknown_id",
                format!("`{}` names no unit of the ground truth", excerpt(id)),
                1,
                "an id of the ground truth",
                id,
            );
            continue;
        };
        if let Some(&before) = first_line.get(id) {
            err(
                "stats.split_duplicate",
                format!("`{}` is listed twice (first on line {before})", excerpt(id)),
                1,
                "each id once",
                id,
            );
            continue;
        }
        first_line.insert(id, line);
        for &i in units {
            parts[i] = Some(part);
        }
    }
    let missing: Vec<usize> = (0..ids.len()).filter(|&i| parts[i].is_none()).collect();
    if let Some(&first) = missing.first() {
        bad = true;
        diags.push(
            Diagnostic::error(
                "stats.split_missing",
                format!(
                    "{} of the {} units are not in the split file (the first: `{}`); no part is scored",
                    missing.len(),
                    ids.len(),
                    excerpt(&ids[first])
                ),
            )
            .file(file)
            .expected("one line per unit")
            .hint("List every unit, with Ignored for those no part should score."),
        );
    }
    if bad {
        return None;
    }
    Some(
        parts
            .into_iter()
            .map(|p| p.unwrap_or(Part::Ignored))
            .collect(),
    )
}

/// The units of `inner` at positions `keep` (in unit order): weights of the other units are 0.
struct Subset {
    inner: Arc<Units>,
    keep: Vec<usize>,
}

impl Subset {
    fn spread<T: Copy + Default>(&self, w: &[T]) -> Vec<T> {
        let mut full = vec![T::default(); self.inner.count()];
        for (&i, &v) in self.keep.iter().zip(w) {
            full[i] = v;
        }
        full
    }
}

impl Replicate for Subset {
    fn metrics(&self) -> Vec<String> {
        self.inner.replicate.metrics()
    }
    fn values(&self, w: &[u32]) -> Vec<Option<f64>> {
        self.inner.replicate.values(&self.spread(w))
    }
    fn mixed(
        &self,
        other: &dyn Replicate,
        take_other: &[bool],
        w: &[u32],
    ) -> Option<Vec<Option<f64>>> {
        let o = other.as_any().downcast_ref::<Subset>()?;
        (o.keep == self.keep).then_some(())?;
        let (take, w) = (self.spread(take_other), self.spread(w));
        self.inner.replicate.mixed(&*o.inner.replicate, &take, &w)
    }
    fn unit_scores(&self) -> Option<Vec<f64>> {
        let s = self.inner.replicate.unit_scores()?;
        Some(self.keep.iter().map(|&i| s[i]).collect())
    }
    fn lower_is_better(&self, metric: &str) -> bool {
        self.inner.replicate.lower_is_better(metric)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The units of `units` whose part is shown under `choice`, strata sizes recounted.
fn subset(units: &Arc<Units>, parts: &[Part], choice: PartChoice) -> Units {
    let keep: Vec<usize> = (0..parts.len())
        .filter(|&i| shown(parts[i], choice))
        .collect();
    let mut sizes = Vec::with_capacity(units.sizes.len());
    let mut start = 0;
    for &n in &units.sizes {
        sizes.push(
            keep.iter()
                .filter(|&&i| i >= start && i < start + n)
                .count(),
        );
        start += n;
    }
    Units {
        unit: units.unit,
        strata: units.strata,
        sizes,
        replicate: Box::new(Subset {
            inner: units.clone(),
            keep: keep.clone(),
        }),
        no_interval: units.no_interval.clone(),
        ids: keep
            .iter()
            .filter_map(|&i| units.ids.get(i).cloned())
            .collect(),
    }
}

/// The scores of `units` on every unit once, keyed as `like` (null where the units do not recompute a metric).
fn scores_of(units: &Units, like: &Scores) -> Scores {
    let metrics = units.replicate.metrics();
    let values = if units.count() == 0 {
        vec![None; metrics.len()]
    } else {
        units.replicate.values(&vec![1; units.count()])
    };
    let mut out = Scores::new();
    for (id, _) in like.iter() {
        let v = metrics
            .iter()
            .position(|m| m == id)
            .and_then(|i| values.get(i).copied().flatten());
        out.set(id, v);
    }
    out
}

/// The parts of a protocol without a usage column, from the split file and the report's units (see the module
/// documentation). Does nothing without a split file.
pub fn apply(
    report: &mut Report,
    split: Option<&(String, Vec<u8>)>,
    choice: PartChoice,
    diags: &mut Diags,
) {
    let Some((file, bytes)) = split else {
        if choice != PartChoice::All && report.parts.is_none() {
            diags.push(Diagnostic::warning(
                "stats.no_split",
                format!(
                    "option part = {}: the input has no split (no split file, no usage column); every unit is \
                     scored",
                    if choice == PartChoice::Public { "public" } else { "private" }
                ),
            ));
        }
        return;
    };
    let Some(units) = report.units.0.clone() else {
        if !diags.has_errors() {
            diags.push(Diagnostic::warning(
                "stats.split_no_units",
                "no parts: this protocol does not list its units for the bootstrap yet, so the split file cannot \
                 be applied",
            ).file(file));
        }
        return;
    };
    if units.ids.len() != units.count() {
        diags.push(
            Diagnostic::warning(
                "stats.split_no_units",
                "no parts: this protocol does not name its units yet, so the split file cannot be applied",
            )
            .file(file),
        );
        return;
    }
    let Some(parts) = read_split(file, bytes, &units.ids, diags) else {
        return;
    };
    let public = subset(&units, &parts, PartChoice::Public);
    let private = subset(&units, &parts, PartChoice::Private);
    let like = report.scores.clone();
    let (public_scores, private_scores) = (scores_of(&public, &like), scores_of(&private, &like));
    let ignored = parts.contains(&Part::Ignored);
    let shown_units = match choice {
        PartChoice::All if !ignored => None,
        PartChoice::All => Some(subset(&units, &parts, PartChoice::All)),
        PartChoice::Public => Some(public),
        PartChoice::Private => Some(private),
    };
    report.parts = Some(Parts(match choice {
        PartChoice::All => vec![
            ("public".into(), public_scores),
            ("private".into(), private_scores),
        ],
        PartChoice::Public => vec![("public".into(), public_scores)],
        PartChoice::Private => vec![("private".into(), private_scores)],
    }));
    if let Some(u) = shown_units {
        report.scores = scores_of(&u, &like);
        let keep: std::collections::HashSet<&str> = u.ids.iter().map(String::as_str).collect();
        keep_items(report, &|id| keep.contains(id));
        report.units = Slot::new(u);
    }
}

/// Keeps the per-item rows whose id passes `keep`; what is computed over every unit (groups, readings, plots)
/// is dropped, so that no value of a unit not shown remains.
fn keep_items(report: &mut Report, keep: &dyn Fn(&str) -> bool) {
    report.items.retain(|it| keep(&it.id));
    if let Some(t) = report.item_table.as_mut() {
        match Arc::get_mut(t) {
            Some(t) => {
                let ids = &t.ids;
                t.order.retain(|&i| keep(ids.get(i as usize)));
            }
            None => report.item_table = None,
        }
    }
    report.groups.clear();
    report.readings.clear();
    report.plots.clear();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::units::weighted_mean;

    struct Mean(Vec<f64>);
    impl Replicate for Mean {
        fn metrics(&self) -> Vec<String> {
            vec!["mean".into()]
        }
        fn values(&self, w: &[u32]) -> Vec<Option<f64>> {
            vec![weighted_mean(&self.0, w)]
        }
        fn as_any(&self) -> &dyn Any {
            self
        }
    }

    fn report() -> Report {
        let x = vec![1.0, 2.0, 3.0, 4.0, 10.0];
        let ids = ["a", "b", "c", "d", "e"].map(String::from).to_vec();
        let mut r = Report::new("toy", crate::report::Mode::Official);
        r.scores.set("mean", Some(4.0));
        r.units = Slot::new(Units::plain("row", 5, Box::new(Mean(x))).with_ids(ids));
        r
    }

    #[test]
    fn parts_from_units_and_a_split_file() {
        let split = (
            "split.tsv".to_string(),
            b"a\tPublic\nb\tprivate\nc\tPUBLIC\nd\tPrivate\ne\tIgnored\n".to_vec(),
        );
        let mut r = report();
        let mut diags = Diags::new();
        apply(&mut r, Some(&split), PartChoice::All, &mut diags);
        assert!(!diags.has_errors());
        assert_eq!(r.scores.get("mean"), Some(2.5));
        let parts = r.parts.clone().unwrap();
        assert_eq!(parts.get("public").unwrap().get("mean"), Some(2.0));
        assert_eq!(parts.get("private").unwrap().get("mean"), Some(3.0));
        assert_eq!(r.units.0.as_ref().unwrap().count(), 4);
        let mut r = report();
        apply(&mut r, Some(&split), PartChoice::Private, &mut diags);
        assert_eq!(r.scores.get("mean"), Some(3.0));
        assert!(r.parts.as_ref().unwrap().get("public").is_none());
        assert_eq!(r.units.0.as_ref().unwrap().ids, ["b", "d"]);
    }

    #[test]
    fn units_missing_from_the_split_file_are_an_error() {
        let split = ("s".to_string(), b"a\tPublic\nb\tPrivate\n".to_vec());
        let mut r = report();
        let mut diags = Diags::new();
        apply(&mut r, Some(&split), PartChoice::All, &mut diags);
        assert!(diags.has_errors());
        assert!(r.parts.is_none());
        assert_eq!(r.scores.get("mean"), Some(4.0));
    }
}
