//! Russian lemmatiser: the first parse's normal form as pymorphy3 (OpenCorpora dictionary) gives it.
//!
//! Contract (used by `protocols::aij2022`):
//! - [`Lemmatizer::from_bytes`] loads the compact dictionary asset built by the set-up command
//!   (`tools/lemmas/convert.py` + `dropscore lemma-build`, layout in [`asset`]);
//! - [`Lemmatizer::normal_form`] takes a lower-cased word form and returns
//!   `pymorphy3.MorphAnalyzer().parse(word)[0].normal_form`; a word no analyzer places comes back unchanged,
//!   as pymorphy does.
//!
//! The analysis follows pymorphy3 2.0.6's analyzer chain (`pymorphy3/lang/ru/config.py` DEFAULT_UNITS, see
//! [`analyze`]): dictionary (with the е → ё substitution and the P(t|w) re-ordering), numbers, punctuation,
//! Roman and Latin words, hyphenated particles, `по-` adverbs, hyphenated words, known prefixes, unknown
//! prefixes together with known-suffix prediction, and finally the word itself.

mod analyze;
pub mod asset;
#[cfg(not(target_arch = "wasm32"))]
pub mod build;
mod shapes;

use asset::{lines, sections, table, u16_at, u32_at};
use std::borrow::Cow;

/// One form of a paradigm.
#[derive(Clone, Copy, Debug)]
struct Form {
    suffix: u16,
    tag: u16,
    prefix: u16,
}

#[derive(Clone, Copy, Debug)]
struct TagInfo {
    flags: u8,
    features: u64,
}

const PRODUCTIVE: u8 = 1;
const UNKNOWN_POS: u8 = 2;
const ADJF_SING_DATV: u8 = 4;

/// A dictionary parse of a query: paradigm, form index, ё mask.
#[derive(Clone, Copy, Debug)]
struct Entry {
    para: u16,
    idx: u16,
    mask: u32,
}

/// A prediction: ё mask of the suffix, count, paradigm, form index.
#[derive(Clone, Copy, Debug)]
struct PEntry {
    mask: u32,
    count: u32,
    para: u16,
    idx: u16,
}

/// A loaded dictionary.
pub struct Lemmatizer {
    meta: String,
    prefixes: Vec<String>,
    suffixes: Vec<String>,
    /// forms of paradigm p: `forms[para_off[p]..para_off[p+1]]`
    para_off: Vec<u32>,
    forms: Vec<Form>,
    tags: Vec<TagInfo>,
    list_off: Vec<u32>,
    entries: Vec<Entry>,
    words: fst::Map<Vec<u8>>,
    plist_off: Vec<u32>,
    pentries: Vec<PEntry>,
    preds: Vec<fst::Map<Vec<u8>>>,
    known_prefixes: Vec<String>,
    particles: Vec<String>,
    uni: shapes::Unicode,
    /// first normal forms of the words outside the dictionary that P(t|w) re-orders
    overrides: std::collections::HashMap<String, String>,
    /// ids of the shape tags, after the dictionary's tags
    tag_numb_intg: u16,
    tag_numb_real: u16,
    tag_pnct: u16,
    tag_romn: u16,
    tag_latn: u16,
    tag_advb: u16,
    tag_unkn: u16,
}

impl std::fmt::Debug for Lemmatizer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Lemmatizer({} forms; {})", self.words.len(), self.meta)
    }
}

/// An fst map of the asset, its checksum verified first: `fst` trusts its bytes and panics on corrupted
/// addresses (found by the `lemma_asset` fuzz target), so a damaged asset is refused before any lookup.
fn fst_map(b: &[u8], what: &str) -> Result<fst::Map<Vec<u8>>, String> {
    let m = fst::Map::new(b.to_vec()).map_err(|e| format!("asset: bad {what} map: {e}"))?;
    m.as_fst()
        .verify()
        .map_err(|e| format!("asset: bad {what} map: {e}"))?;
    Ok(m)
}

/// A table of the asset (`rec`-byte records, [`table`]): its offsets and its records read by `read`.
fn records<T>(
    b: &[u8],
    rec: usize,
    what: &str,
    read: impl Fn(&[u8]) -> T,
) -> Result<(Vec<u32>, Vec<T>), String> {
    let t = table(b, rec, what)?;
    let items = t.records.chunks_exact(rec).map(read).collect();
    Ok((t.offsets, items))
}

/// The tags section: a count (at least the 7 shape tags, at most 2^16 − 1), then per tag its flags byte and
/// its 64-bit feature set.
fn tag_infos(b: &[u8]) -> Result<Vec<TagInfo>, String> {
    let (n_tags, rest) = asset::take_u32(b).ok_or("asset: bad tags")?;
    if rest.len() != n_tags as usize * 9 || n_tags < 7 || n_tags > u16::MAX as u32 {
        return Err("asset: bad tags".into());
    }
    Ok(rest
        .chunks_exact(9)
        .map(|r| TagInfo {
            flags: r[0],
            features: u64::from_le_bytes([r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8]]),
        })
        .collect())
}

impl Lemmatizer {
    /// Loads the dictionary asset.
    pub fn from_bytes(data: &[u8]) -> Result<Self, String> {
        let s = sections(data)?;
        let sec = |i: usize| s.get(i).copied().unwrap_or(&[]);
        let meta = String::from_utf8_lossy(sec(0)).into_owned();
        let prefixes = lines(sec(1), "prefixes")?;
        let suffixes = lines(sec(2), "suffixes")?;

        let (para_off, forms) = records(sec(3), 6, "paradigms", |r| Form {
            suffix: u16_at(r, 0),
            tag: u16_at(r, 2),
            prefix: u16_at(r, 4),
        })?;
        let tags = tag_infos(sec(4))?;
        let shape0 = (tags.len() - 7) as u16;
        let (list_off, entries) = records(sec(5), 8, "lists", |r| Entry {
            para: u16_at(r, 0),
            idx: u16_at(r, 2),
            mask: u32_at(r, 4),
        })?;
        let words = fst_map(sec(6), "word")?;
        let (plist_off, pentries) = records(sec(7), 12, "prediction lists", |r| PEntry {
            mask: u32_at(r, 0),
            count: u32_at(r, 4),
            para: u16_at(r, 8),
            idx: u16_at(r, 10),
        })?;
        let preds = (8..11)
            .map(|i| fst_map(sec(i), "prediction"))
            .collect::<Result<Vec<_>, _>>()?;
        let known_prefixes = lines(sec(11), "known prefixes")?;
        let particles = lines(sec(12), "particles")?;
        let uni = shapes::Unicode::parse(&lines(sec(13), "Unicode classes")?)?;
        let overrides = lines(sec(14), "overrides")?
            .into_iter()
            .filter_map(|l| {
                l.split_once('\t')
                    .map(|(w, n)| (w.to_string(), n.to_string()))
            })
            .collect();

        let lem = Lemmatizer {
            meta,
            prefixes,
            suffixes,
            para_off,
            forms,
            tags,
            list_off,
            entries,
            words,
            plist_off,
            pentries,
            preds,
            known_prefixes,
            particles,
            uni,
            overrides,
            tag_numb_intg: shape0,
            tag_numb_real: shape0 + 1,
            tag_pnct: shape0 + 2,
            tag_romn: shape0 + 3,
            tag_latn: shape0 + 4,
            tag_advb: shape0 + 5,
            tag_unkn: shape0 + 6,
        };
        lem.validate()?;
        Ok(lem)
    }

    /// Every id in the tables points inside its table, so lookups cannot go out of bounds.
    fn validate(&self) -> Result<(), String> {
        let bad = |what: &str| Err(format!("asset: {what} out of range"));
        if self.prefixes.is_empty() || self.preds.len() != self.prefixes.len().min(3) {
            return bad("paradigm prefixes");
        }
        for f in &self.forms {
            if f.suffix as usize >= self.suffixes.len()
                || f.tag as usize >= self.tags.len()
                || f.prefix as usize >= self.prefixes.len()
            {
                return bad("paradigm form");
            }
        }
        if self.para_off.last().copied().unwrap_or(0) as usize != self.forms.len()
            || self.para_off.windows(2).any(|w| w[0] == w[1])
        {
            return bad("paradigm");
        }
        let n_para = self.para_off.len() - 1;
        let form_ok = |para: u16, idx: u16| {
            (para as usize) < n_para
                && self.para_off[para as usize] + (idx as u32) < self.para_off[para as usize + 1]
        };
        if !self.entries.iter().all(|e| form_ok(e.para, e.idx)) {
            return bad("dictionary parse");
        }
        if !self.pentries.iter().all(|e| form_ok(e.para, e.idx)) {
            return bad("prediction");
        }
        // Word and prediction list ids are checked at lookup (`lookup`, `predictions` use `get`), so the
        // 3 million keys need not be streamed here.
        Ok(())
    }

    /// Source package versions, as the converter recorded them.
    pub fn meta(&self) -> &str {
        &self.meta
    }

    /// The normal form of a lower-cased word form (the word itself when unknown).
    pub fn normal_form<'a>(&self, word: &'a str) -> Cow<'a, str> {
        if let Some(list) = self.lookup(word, false) {
            if let Some(e) = list.first() {
                if e.idx == 0 && e.mask == 0 {
                    return Cow::Borrowed(word);
                }
                let nf = self.build_normal_form(e.para, e.idx, &with_yo(word, e.mask));
                return if nf == word {
                    Cow::Borrowed(word)
                } else {
                    Cow::Owned(nf)
                };
            }
        }
        if let Some(nf) = self.overrides.get(word) {
            return if nf == word {
                Cow::Borrowed(word)
            } else {
                Cow::Owned(nf.clone())
            };
        }
        let nf = analyze::first_normal_form(self, word);
        if nf == word {
            Cow::Borrowed(word)
        } else {
            Cow::Owned(nf)
        }
    }

    /// Whether `word` is a dictionary key (a form, or the е-spelling of a form with ё).
    pub fn is_known(&self, word: &str) -> bool {
        let mut key = Vec::with_capacity(word.len());
        asset::encode_key(word, &mut key) && self.words.contains_key(&key)
    }

    /// The dictionary parses of `word` (pymorphy's final order, or the raw dictionary order).
    fn lookup(&self, word: &str, raw: bool) -> Option<&[Entry]> {
        let mut key = Vec::with_capacity(word.len());
        if !asset::encode_key(word, &mut key) {
            return None;
        }
        let v = self.words.get(&key)?;
        let id = if raw && v >> 32 != 0 {
            (v >> 32) - 1
        } else {
            v & 0xffff_ffff
        } as usize;
        let (a, b) = (*self.list_off.get(id)?, *self.list_off.get(id + 1)?);
        self.entries.get(a as usize..b as usize)
    }

    fn predictions(&self, prefix_id: usize, suffix: &str) -> &[PEntry] {
        let mut key = Vec::with_capacity(suffix.len());
        if !asset::encode_key(suffix, &mut key) {
            return &[];
        }
        let Some(id) = self.preds.get(prefix_id).and_then(|m| m.get(&key)) else {
            return &[];
        };
        let id = id as usize;
        match (self.plist_off.get(id), self.plist_off.get(id + 1)) {
            (Some(&a), Some(&b)) => self.pentries.get(a as usize..b as usize).unwrap_or(&[]),
            _ => &[],
        }
    }

    fn form(&self, para: u16, idx: u16) -> Form {
        let at = self.para_off[para as usize] as usize + idx as usize;
        self.forms[at]
    }

    fn tag_of(&self, para: u16, idx: u16) -> u16 {
        self.form(para, idx).tag
    }

    fn flags(&self, tag: u16) -> u8 {
        self.tags.get(tag as usize).map_or(0, |t| t.flags)
    }

    fn features(&self, tag: u16) -> u64 {
        self.tags.get(tag as usize).map_or(0, |t| t.features)
    }

    /// `Dictionary.build_normal_form` (pymorphy3/opencorpora_dict/wrapper.py): the stem (the fixed word
    /// without the form's prefix and suffix, Python slicing) between the normal form's prefix and suffix.
    fn build_normal_form(&self, para: u16, idx: u16, fixed_word: &str) -> String {
        if idx == 0 {
            return fixed_word.to_string();
        }
        let f = self.form(para, idx);
        let n = self.form(para, 0);
        let pre_chars = self.prefixes[f.prefix as usize].chars().count();
        let suf_chars = self.suffixes[f.suffix as usize].chars().count();
        // Python's fixed_word[len(prefix):-len(suffix)] (or [len(prefix):] for an empty suffix), in characters.
        let start = fixed_word
            .char_indices()
            .nth(pre_chars)
            .map_or(fixed_word.len(), |(i, _)| i);
        let stop = if suf_chars == 0 {
            fixed_word.len()
        } else {
            fixed_word
                .char_indices()
                .rev()
                .nth(suf_chars - 1)
                .map_or(0, |(i, _)| i)
        };
        let n_pre = &self.prefixes[n.prefix as usize];
        let n_suf = &self.suffixes[n.suffix as usize];
        let stem = fixed_word.get(start..stop.max(start)).unwrap_or("");
        let mut out = String::with_capacity(n_pre.len() + stem.len() + n_suf.len());
        out.push_str(n_pre);
        out.push_str(stem);
        out.push_str(n_suf);
        out
    }
}

/// `word` with the characters flagged in `mask` written as ё.
fn with_yo(word: &str, mask: u32) -> Cow<'_, str> {
    if mask == 0 {
        return Cow::Borrowed(word);
    }
    Cow::Owned(
        word.chars()
            .enumerate()
            .map(|(i, c)| {
                if i < 32 && mask >> i & 1 == 1 {
                    'ё'
                } else {
                    c
                }
            })
            .collect(),
    )
}

/// The asset's file name.
pub const ASSET_NAME: &str = "ru-lemmas.bin";

/// Where the CLI looks for the asset, in order: `explicit` (`--lemmas`), the `DROPSCORE_LEMMAS` environment
/// variable, `ru-lemmas.bin` next to the executable, then the repository's built asset
/// `www/assets/ru-lemmas.bin`. Returns the candidates that exist, first match first.
#[cfg(not(target_arch = "wasm32"))]
pub fn asset_candidates(explicit: Option<&str>) -> Vec<std::path::PathBuf> {
    use std::path::PathBuf;
    let mut c: Vec<PathBuf> = Vec::new();
    if let Some(e) = explicit {
        c.push(e.into());
    }
    if let Some(e) = std::env::var_os("DROPSCORE_LEMMAS").filter(|e| !e.is_empty()) {
        c.push(e.into());
    }
    if let Some(dir) = std::env::current_exe()
        .ok()
        .and_then(|p| p.parent().map(PathBuf::from))
    {
        c.push(dir.join(ASSET_NAME));
    }
    c.push(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("www/assets")
            .join(ASSET_NAME),
    );
    c.into_iter().filter(|p| p.is_file()).collect()
}

/// The lemmatiser of the command line, the scoring program and the tests, loaded from the first of
/// [`asset_candidates`]: `Ok(None)` when there is none and none was named; a named file (`--lemmas`) must
/// exist and load. Errors name the file, in plain words.
#[cfg(not(target_arch = "wasm32"))]
pub fn load_asset(explicit: Option<&str>) -> Result<Option<std::sync::Arc<Lemmatizer>>, String> {
    if let Some(e) = explicit.filter(|e| !std::path::Path::new(e).is_file()) {
        return Err(format!("--lemmas {e}: no such file"));
    }
    let Some(path) = asset_candidates(explicit).into_iter().next() else {
        return Ok(None);
    };
    let shown = path.display();
    let bytes =
        std::fs::read(&path).map_err(|e| format!("{shown}: {}", crate::diag::io_words(&e)))?;
    Lemmatizer::from_bytes(&bytes)
        .map(|l| Some(std::sync::Arc::new(l)))
        .map_err(|e| format!("{shown}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::shapes::is_roman;

    #[test]
    fn roman_numbers() {
        for w in ["xiv", "mcmxc", "iv", "mmxxiv"] {
            assert!(is_roman(w), "{w}");
        }
        for w in ["", "iiii", "abc", "vx"] {
            assert!(!is_roman(w), "{w}");
        }
    }
}
