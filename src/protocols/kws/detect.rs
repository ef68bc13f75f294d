//! Which dropped file is the GT and which are runs, and which family they are (docs/specs/kws.md 2.1): content
//! decides, file extensions never do (`.gz` is opened first by the input layer).

use super::options::{KwsOptions as O, Preset};
use crate::diag::Diagnostic;
use crate::formats::lines::strip_bom;
use crate::input::{Entry, FileSet, Role, RoleFrom};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    Xml,
    Trec,
}

impl Family {
    pub fn preset(self) -> Preset {
        match self {
            Family::Xml => Preset::Icfhr14,
            Family::Trec => Preset::Trec,
        }
    }
    /// The options that apply to this family (the others are listed but have no effect).
    pub fn option_names(self) -> &'static [&'static str] {
        match self {
            Family::Xml => &[
                O::preset,
                O::match_document,
                O::dedupe,
                O::complete,
                O::empty_gt_query,
                O::relevance_threshold,
                O::k,
            ],
            Family::Trec => &[
                O::preset,
                O::complete,
                O::relevance_level,
                O::depth,
                O::trec_version,
                O::tie_break,
                O::float_rel,
                O::measures,
            ],
        }
    }
    pub fn describe(self) -> &'static str {
        match self {
            Family::Xml => "ICFHR'14 XML",
            Family::Trec => "TREC qrels/run",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sniff {
    XmlGt,
    XmlRes,
    Qrels,
    Run,
    Unknown,
}

impl Sniff {
    fn role(self) -> Option<Role> {
        match self {
            Sniff::XmlGt | Sniff::Qrels => Some(Role::Gt),
            Sniff::XmlRes | Sniff::Run => Some(Role::Pred),
            Sniff::Unknown => None,
        }
    }
    fn family(self) -> Option<Family> {
        match self {
            Sniff::XmlGt | Sniff::XmlRes => Some(Family::Xml),
            Sniff::Qrels | Sniff::Run => Some(Family::Trec),
            Sniff::Unknown => None,
        }
    }
}

/// Classifies a file from its first 64 KiB.
pub fn sniff(head: &[u8]) -> Sniff {
    let text = strip_bom(head);
    let start = text
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(text.len());
    let text = &text[start..];
    if text.first() == Some(&b'<') {
        let has = |pat: &[u8]| memchr::memmem::find(text, pat).is_some();
        if has(b"<GTRel") || has(b"<GroundTruthRelevanceJudgements") {
            Sniff::XmlGt
        } else if has(b"<Rel ") || has(b"<Rel>") || has(b"<Rel\t") || has(b"<RelevanceListings") {
            Sniff::XmlRes
        } else {
            Sniff::Unknown
        }
    } else {
        // The first line that is not a `#` comment (trec_eval 10.0 skips them; with 9.0.8 the reader then
        // reports the comment as a malformed line, located).
        let line = text
            .split(|b| *b == b'\n' || *b == b'\r')
            .find(|l| !l.is_empty() && l.first() != Some(&b'#'))
            .unwrap_or(&[]);
        let line = String::from_utf8_lossy(line);
        let fields: Vec<&str> = line.split_ascii_whitespace().collect();
        let numeric = |s: &str| s.parse::<f64>().is_ok();
        match fields.len() {
            4 if numeric(fields[3]) => Sniff::Qrels,
            n if n >= 6 && numeric(fields[4]) => Sniff::Run,
            _ => Sniff::Unknown,
        }
    }
}

/// The role layer's view of a file (see `protocols::roles`).
pub fn classify(head: &[u8]) -> crate::protocols::Class {
    use crate::protocols::Class;
    match sniff(head) {
        Sniff::XmlGt => Class::gt("has <GTRel> relevance-judgement blocks"),
        Sniff::XmlRes => Class::pred("has <Rel> result blocks"),
        Sniff::Qrels => Class::gt("has 4-field qrels lines"),
        Sniff::Run => Class::pred("has 6-field run lines"),
        Sniff::Unknown => Class::unrelated("is not an ICFHR'14 XML or TREC file"),
    }
}

pub struct Picked {
    pub gt: Entry,
    pub runs: Vec<Entry>,
    pub family: Family,
}

pub fn pick(files: &FileSet, diags: &mut Vec<Diagnostic>) -> Option<Picked> {
    let mut gts = Vec::new();
    let mut runs = Vec::new();
    for e in &files.entries {
        if let Some((e, fam)) = recognise(e, diags) {
            if e.role == Some(Role::Gt) {
                gts.push((e, fam));
            } else {
                runs.push((e, fam));
            }
        }
    }
    runs.sort_by(|a, b| a.0.path.cmp(&b.0.path));
    if gts.is_empty() || runs.is_empty() {
        let which = if gts.is_empty() {
            "ground truth"
        } else {
            "results"
        };
        diags.push(
            Diagnostic::error("kws.input.missing_role", format!("no {which} file found"))
                .expected("one ground-truth file and at least one results file")
                .found(format!(
                    "{} ground truth, {} results",
                    gts.len(),
                    runs.len()
                ))
                .hint(format!("Add the {which} file.")),
        );
        return None;
    }
    if gts.len() > 1 {
        diags.push(
            Diagnostic::error("kws.input.multiple_gt", "more than one ground-truth file")
                .expected("exactly one")
                .found(
                    gts.iter()
                        .map(|g| g.0.path.as_str())
                        .collect::<Vec<_>>()
                        .join(", "),
                )
                .hint("Drop a single ground-truth file."),
        );
        return None;
    }
    let (gt, family) = gts.pop()?;
    if let Some((r, f)) = runs.iter().find(|(_, f)| *f != family) {
        diags.push(
            Diagnostic::error(
                "kws.input.mixed_families",
                format!(
                    "{} ground truth with a {} run",
                    family.describe(),
                    f.describe()
                ),
            )
            .file(&r.path)
            .hint("Use files of one family; convert XML to TREC with `dropscore kws convert`."),
        );
        return None;
    }
    Some(Picked {
        gt,
        runs: runs.into_iter().map(|r| r.0).collect(),
        family,
    })
}

/// An entry with the role its content says (a note when it was dropped as the other one) and its family;
/// `None` for a file that is neither (a warning) or cannot be read.
fn recognise(e: &Entry, diags: &mut Vec<Diagnostic>) -> Option<(Entry, Family)> {
    let kind = match e.head(64 << 10) {
        Ok(h) => sniff(&h),
        Err(err) => {
            diags.push(Diagnostic::read_error(&e.path, err));
            return None;
        }
    };
    let Some(sniffed) = kind.role() else {
        diags.push(
            Diagnostic::warning(
                "kws.input.unrecognised",
                "not an ICFHR'14 XML or TREC file; ignored",
            )
            .file(&e.path)
            .line(1)
            .expected("<GTRel>/<Rel> XML, qrels (4 fields) or a run (6 fields)")
            .hint("Drop only the ground-truth and result files."),
        );
        return None;
    };
    let mut e = e.clone();
    let side = |r: Role, pred: &'static str| if r == Role::Gt { "ground truth" } else { pred };
    if let Some(declared) = e.role.filter(|d| *d != sniffed) {
        diags.push(
            Diagnostic::info(
                "kws.input.swapped",
                format!(
                    "dropped as {} but its content is {}: used as {}",
                    side(declared, "predictions"),
                    side(sniffed, "results"),
                    side(sniffed, "predictions"),
                ),
            )
            .file(&e.path)
            .hint("Nothing to do: the roles were recognised from the content."),
        );
    }
    if e.role.is_none() {
        e.role_from = Some(RoleFrom::Sniffed);
    }
    e.role = Some(sniffed);
    Some((e, kind.family().unwrap_or(Family::Xml)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniffs() {
        assert_eq!(
            sniff(
                b"\xEF\xBB\xBF<?xml?>\r\n<GroundTruthRelevanceJudgements>\r\n<GTRel queryid=\"a\">"
            ),
            Sniff::XmlGt
        );
        assert_eq!(
            sniff(b"<?xml?><RelevanceListings><Rel queryid=\"a\">"),
            Sniff::XmlRes
        );
        assert_eq!(sniff(b"q1 0 d1 1\n"), Sniff::Qrels);
        assert_eq!(sniff(b"q1 Q0 d1 1 2.5 run\n"), Sniff::Run);
        assert_eq!(sniff(b"hello"), Sniff::Unknown);
    }
}
