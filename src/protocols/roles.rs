//! The role layer (specs README, "Role detection"): every protocol classifies entries
//! ([`Protocol::classify`](super::Protocol::classify)); this decides, once for all protocols, what the classifications mean.
//!
//! - An entry with no role from the caller or its path takes the role its content shows (`RoleFrom::Sniffed`).
//! - Inputs given the wrong way round (what looks like ground truth is all on the prediction side, or what
//!   looks like predictions all on the ground-truth side; see [`swapped`]) are **swapped inputs**: when the roles were given
//!   explicitly (`--gt`/`--pred`, the page's drop zones) the run stops with the error `input.swapped`, whose
//!   hint is the corrected command line, and nothing is scored; when they came from folder names (`ref/`,
//!   `res/`) the roles are exchanged, with the info `input.swapped`, and the run goes on.

use super::kinds;
use super::shell::{AnyProtocol, Class, Looks};
use crate::diag::Diagnostic;
use crate::input::kind::sniff;
use crate::input::{FileSet, Role, RoleFrom};

/// What the role layer decided.
pub struct Settled {
    /// The file set with roles changed, when any changed.
    pub files: Option<FileSet>,
    pub diagnostics: Vec<Diagnostic>,
    /// Stop: the inputs were given explicitly the wrong way round.
    pub refuse: bool,
}

/// Refuses entries of a kind the protocol does not read, classifies the others with `p` and settles the roles.
pub fn settle(p: &dyn AnyProtocol, files: &FileSet) -> Settled {
    let mut out = Settled {
        files: None,
        diagnostics: Vec::new(),
        refuse: false,
    };
    let mut kept = FileSet::of(
        Vec::with_capacity(files.entries.len()),
        files.diagnostics.clone(),
    );
    let mut classes: Vec<Option<Class>> = Vec::with_capacity(files.entries.len());
    for e in &files.entries {
        let head = e.head(p.info().head_len.max(16)).ok();
        if let Some(h) = &head {
            if let Some(d) = kinds::refusal(p, e, sniff(e.name(), h, e.size)) {
                out.diagnostics.push(d);
                continue;
            }
        }
        classes.push(head.map(|h| p.classify(&e.path, &h)));
        kept.entries.push(e.clone());
    }
    let mut changed = kept.entries.len() < files.entries.len();
    let mut set = kept;
    if let Some(explicit) = swapped(&set, &classes) {
        let found = evidence(&set, &classes);
        if explicit {
            out.diagnostics
                .push(swapped_error(p.info().id, &set, found));
            out.refuse = true;
            return out;
        }
        out.diagnostics.push(swapped_info(found));
        for e in &mut set.entries {
            e.role = e.role.map(|r| match r {
                Role::Gt => Role::Pred,
                Role::Pred => Role::Gt,
            });
        }
        changed = true;
    }
    for (e, c) in set.entries.iter_mut().zip(&classes) {
        if e.role.is_some() {
            continue;
        }
        let role = match c.as_ref().map(|c| c.looks) {
            Some(Looks::Gt) => Role::Gt,
            Some(Looks::Pred) => Role::Pred,
            _ => continue,
        };
        e.role = Some(role);
        e.role_from = Some(RoleFrom::Sniffed);
        changed = true;
    }
    if changed {
        out.files = Some(set);
    }
    out
}

const SWAPPED: &str =
    "These inputs look swapped: the files given as ground truth look like predictions, and \
                       the predictions look like ground truth.";

/// The error `input.swapped` for roles given explicitly: nothing is scored, and the hint is the command line
/// with the two sides exchanged. `found` says what gave the swap away.
fn swapped_error(id: &str, files: &FileSet, found: String) -> Diagnostic {
    Diagnostic::error("input.swapped", format!("{SWAPPED} Nothing was scored."))
        .expected("ground truth on the ground-truth side, predictions on the prediction side")
        .found(found)
        .hint(format!(
            "Swap the two inputs and score again: {}",
            corrected_command(id, files)
        ))
}

/// The info `input.swapped` for roles taken from folder names (`ref/`, `res/`), which are exchanged.
fn swapped_info(found: String) -> Diagnostic {
    Diagnostic::info(
        "input.swapped",
        format!("{SWAPPED} Their folders' roles were exchanged."),
    )
    .found(found)
    .hint("Put the ground truth under ref/ and the predictions under res/.")
}

/// `Some(explicit)` when the inputs look swapped: both sides hold entries, and either nothing on the
/// ground-truth side looks like ground truth while something on the prediction side does (and the ground-truth
/// side holds something that looks like predictions, or the prediction side nothing that does), or the same
/// with the sides exchanged. `explicit` when any role was given explicitly.
fn swapped(files: &FileSet, classes: &[Option<Class>]) -> Option<bool> {
    // [side: gt, pred][looks: gt, pred]
    let mut count = [[0usize; 2]; 2];
    let mut present = [false; 2];
    let mut explicit = false;
    for (e, c) in files.entries.iter().zip(classes) {
        let Some(role) = e.role else {
            continue;
        };
        let side = usize::from(role == Role::Pred);
        present[side] = true;
        explicit |= e.role_from == Some(RoleFrom::Explicit);
        match c.as_ref().map(|c| c.looks) {
            Some(Looks::Gt) => count[side][0] += 1,
            Some(Looks::Pred) => count[side][1] += 1,
            _ => {}
        }
    }
    let [gt, pr] = count;
    let a = gt[0] == 0 && pr[0] > 0 && (gt[1] > 0 || pr[1] == 0);
    let b = pr[1] == 0 && gt[1] > 0 && (pr[0] > 0 || gt[0] == 0);
    (present[0] && present[1] && (a || b)).then_some(explicit)
}

/// The evidence, one clause per side: "`run.txt` (given as ground truth) has 6 fields per line like a run; …".
fn evidence(files: &FileSet, classes: &[Option<Class>]) -> String {
    let mut parts = Vec::new();
    for role in [Role::Gt, Role::Pred] {
        let first = files
            .entries
            .iter()
            .zip(classes)
            .find_map(|(e, c)| match c {
                Some(c) if e.role == Some(role) && matches!(c.looks, Looks::Gt | Looks::Pred) => {
                    Some((e, c))
                }
                _ => None,
            });
        if let Some((e, c)) = first {
            parts.push(format!(
                "`{}` (given as {}) {}",
                e.name(),
                if role == Role::Gt {
                    "ground truth"
                } else {
                    "predictions"
                },
                c.evidence
            ));
        }
    }
    parts.join("; ")
}

/// `dropscore <id> --gt <what was given as predictions> --pred <what was given as ground truth>`.
pub fn corrected_command(id: &str, files: &FileSet) -> String {
    let side = |role: Role| -> String {
        let mut roots: Vec<&str> = Vec::new();
        for e in files.entries.iter().filter(|e| e.role == Some(role)) {
            let root = e.path.split('!').next().unwrap_or(&e.path);
            if !roots.contains(&root) {
                roots.push(root);
            }
        }
        if roots.len() > 4 {
            return common_dir(&roots);
        }
        roots.iter().map(|r| quote(r)).collect::<Vec<_>>().join(" ")
    };
    format!(
        "dropscore {id} --gt {} --pred {}",
        side(Role::Pred),
        side(Role::Gt)
    )
}

/// The longest common folder of `paths` (or `.`).
fn common_dir(paths: &[&str]) -> String {
    let first: Vec<&str> = paths[0].split('/').collect();
    let mut n = first.len().saturating_sub(1);
    for p in &paths[1..] {
        let parts: Vec<&str> = p.split('/').collect();
        n = n.min(first.iter().zip(&parts).take_while(|(a, b)| a == b).count());
        n = n.min(parts.len().saturating_sub(1));
    }
    if n == 0 {
        ".".into()
    } else {
        quote(&first[..n].join("/"))
    }
}

/// A path as a shell word: single-quoted when it has anything but `[A-Za-z0-9._/+-]`.
fn quote(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "._/+-".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_folder_and_quoting() {
        assert_eq!(
            common_dir(&["a/b/c.txt", "a/b/d.txt", "a/b/e/f.txt"]),
            "a/b"
        );
        assert_eq!(common_dir(&["x.txt", "y.txt"]), ".");
        assert_eq!(quote("res/a b.txt"), "'res/a b.txt'");
        assert_eq!(quote("res/a.txt"), "res/a.txt");
    }
}
