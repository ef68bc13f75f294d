//! Ids that look the same but are not: equal once both are in Unicode normalization form C and stripped of
//! invisible characters (zero-width space, joiners, word joiner, BOM, soft hyphen). A submission id that is
//! unknown only because of such a difference is reported with both spellings, named (NFC or NFD) and with
//! invisible characters written as code points, instead of as two identical-looking strings.

use super::IdIndex;
use rustc_hash::FxHashMap;
use unicode_normalization::{is_nfc, is_nfd, UnicodeNormalization};

/// Characters that print as nothing.
fn invisible(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}' | '\u{180E}' | '\u{200B}'..='\u{200F}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}'
    )
}

/// The id as compared here: NFC, without invisible characters.
fn key(id: &str) -> String {
    id.chars().filter(|c| !invisible(*c)).nfc().collect()
}

/// Whether `id` can differ from its key (ASCII ids without control characters cannot).
fn special(id: &str) -> bool {
    !id.is_ascii()
}

/// The GT ids by key (only those that are not ASCII, built on the first unknown id), and the unknown
/// submission ids found to be lookalikes, with their GT spelling.
#[derive(Default)]
pub(super) struct Lookalikes {
    gt: Option<FxHashMap<String, usize>>,
    found: FxHashMap<String, String>,
}

impl Lookalikes {
    /// Notes the GT lookalike of `id`, an id not in the GT, if there is one.
    pub(super) fn note(&mut self, ids: &IdIndex, id: &str) {
        if self.found.contains_key(id) {
            return;
        }
        let gt = self.gt.get_or_insert_with(|| {
            let mut m = FxHashMap::default();
            for i in 0..ids.len() {
                let g = ids.get(i);
                if special(g) {
                    m.entry(key(g)).or_insert(i);
                }
            }
            m
        });
        let k = key(id);
        let hit = match gt.get(&k) {
            Some(&i) => Some(i),
            None if k != id => ids.find(&k),
            None => None,
        };
        if let Some(i) = hit {
            self.found.insert(id.to_string(), ids.get(i).to_string());
        }
    }
    /// The words for submission id `id` when it is a lookalike of a GT id.
    pub(super) fn words(&self, id: &str) -> Option<String> {
        let gt = self.found.get(id)?;
        Some(format!(
            "`{}`{} in the submission, `{}`{} in the ground truth: the same text in another Unicode form",
            shown(id),
            form(id, gt),
            shown(gt),
            form(gt, id)
        ))
    }
}

/// The id with its invisible characters written as code points (`\u{200B}`).
pub(super) fn shown(id: &str) -> String {
    id.chars()
        .map(|c| {
            if invisible(c) {
                format!("\\u{{{:04X}}}", c as u32)
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// " (NFC)" or " (NFD)" when `a` and `b` differ in normalization, else "".
fn form(a: &str, b: &str) -> &'static str {
    let strip = |s: &str| s.chars().filter(|c| !invisible(*c)).collect::<String>();
    let (sa, sb) = (strip(a), strip(b));
    if sa == sb {
        ""
    } else if is_nfc(&sa) {
        " (NFC)"
    } else if is_nfd(&sa) {
        " (NFD)"
    } else {
        " (not normalized)"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms_and_invisibles() {
        let nfc = "caf\u{e9}";
        let nfd = "cafe\u{301}";
        assert_eq!(key(nfd), nfc);
        assert_eq!(form(nfd, nfc), " (NFD)");
        assert_eq!(form(nfc, nfd), " (NFC)");
        assert_eq!(key("a\u{200B}b"), "ab");
        assert_eq!(shown("a\u{200B}b"), "a\\u{200B}b");
        assert_eq!(form("a\u{200B}b", "ab"), "");
    }
}
