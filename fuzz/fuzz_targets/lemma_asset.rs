//! The lemmatiser asset reader (src/lemma): the first byte picks the shape of the rest.
//! - even: the bytes are an asset (`Lemmatizer::from_bytes`);
//! - odd: the converter's 16 tables as text, separated by NUL bytes in `lemma::build`'s file order, packed by
//!   `lemma::build::build_with` first (seeded with tests/data/lemma/mini, so mutations stay near a valid
//!   dictionary and reach the lookups and the unknown-word analyzers).
//!
//! When an asset loads, a fixed list of words and the words of the input's `words.txt` section are
//! lemmatised. Asserts only that nothing panics.
#![no_main]
use dropscore::lemma::Lemmatizer;
use libfuzzer_sys::fuzz_target;

const FILES: [&str; 16] = [
    "meta.txt",
    "prefixes.txt",
    "suffixes.txt",
    "paradigms.txt",
    "tags.txt",
    "lists.txt",
    "raw_lists.txt",
    "words.txt",
    "plists.txt",
    "pred0.txt",
    "pred1.txt",
    "pred2.txt",
    "known_prefixes.txt",
    "particles.txt",
    "unicode.txt",
    "overrides.txt",
];

const WORDS: [&str; 14] = [
    "кот",
    "котами",
    "ещё",
    "еще",
    "наилучший",
    "по-русски",
    "кое-что",
    "псевдокот",
    "xiv",
    "3,5",
    "-",
    "",
    "не-кот-не",
    "ёжиками",
];

fuzz_target!(|data: &[u8]| {
    let Some((&shape, rest)) = data.split_first() else {
        return;
    };
    let mut extra: Vec<String> = Vec::new();
    let asset = if shape % 2 == 0 {
        rest.to_vec()
    } else {
        let parts: Vec<&[u8]> = rest.split(|&b| b == 0).collect();
        let text =
            |i: usize| String::from_utf8_lossy(parts.get(i).copied().unwrap_or(&[])).into_owned();
        for line in text(7).lines().take(64) {
            extra.push(line.split('\t').next().unwrap_or("").to_string());
        }
        let read = |name: &str| -> Result<String, String> {
            let i = FILES
                .iter()
                .position(|f| *f == name)
                .ok_or("unknown table")?;
            Ok(text(i))
        };
        match dropscore::lemma::build::build_with(&read) {
            Ok(a) => a,
            Err(_) => return,
        }
    };
    if let Ok(lem) = Lemmatizer::from_bytes(&asset) {
        for w in WORDS
            .iter()
            .copied()
            .chain(extra.iter().map(String::as_str))
        {
            let _ = lem.normal_form(w);
            let _ = lem.is_known(w);
        }
    }
});
