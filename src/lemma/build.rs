//! Packs the tables written by `tools/lemmas/convert.py` into the asset (layout in [`super::asset`]).
//! Native only; run by the set-up command through `dropscore lemma-build DIR OUT`.

use super::asset::{MAGIC, SECTIONS};
use std::path::Path;

fn read(dir: &Path, name: &str) -> Result<String, String> {
    std::fs::read_to_string(dir.join(name))
        .map_err(|e| format!("{}: {e}", dir.join(name).display()))
}

/// The file's lines without the final newline's empty line.
fn lines_of(text: &str) -> Vec<&str> {
    let t = text.strip_suffix('\n').unwrap_or(text);
    t.split('\n').collect()
}

fn num<T: std::str::FromStr>(s: &str, what: &str) -> Result<T, String> {
    s.trim()
        .parse()
        .map_err(|_| format!("{what}: bad number `{s}`"))
}

fn put_u32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

/// `u32` n, offsets, records: each line of `text` is `;`-separated records of comma-separated numbers,
/// written with the byte widths in `widths`.
fn table(text: &str, widths: &[usize], what: &str, sep: char) -> Result<Vec<u8>, String> {
    let rows = lines_of(text);
    let mut out = Vec::new();
    put_u32(&mut out, rows.len() as u32);
    let mut recs = Vec::new();
    let mut count = 0u32;
    put_u32(&mut out, 0);
    for row in &rows {
        for rec in row.split(sep).filter(|r| !r.is_empty()) {
            let fields: Vec<&str> = rec.split(',').collect();
            if fields.len() != widths.len() {
                return Err(format!("{what}: bad record `{rec}`"));
            }
            for (f, w) in fields.iter().zip(widths) {
                let v: u64 = num(f, what)?;
                if *w < 8 && v >> (8 * w) != 0 {
                    return Err(format!("{what}: {v} does not fit {w} bytes"));
                }
                recs.extend_from_slice(&v.to_le_bytes()[..*w]);
            }
            count += 1;
        }
        put_u32(&mut out, count);
    }
    out.extend_from_slice(&recs);
    Ok(out)
}

/// An fst map from `key<TAB>value` lines (keys in `encode_key`'s form); `extra` adds high bits per key.
fn fst_map(text: &str, what: &str, extra: &dyn Fn(&str) -> u64) -> Result<Vec<u8>, String> {
    let mut rows = Vec::new();
    for line in lines_of(text) {
        if line.is_empty() {
            continue;
        }
        let (k, v) = line
            .split_once('\t')
            .ok_or_else(|| format!("{what}: bad line `{line}`"))?;
        let v: u64 = num(v, what)?;
        let mut key = Vec::new();
        if !super::asset::encode_key(k, &mut key) {
            return Err(format!("{what}: key too long `{k}`"));
        }
        rows.push((key, v | extra(k)));
    }
    rows.sort_unstable();
    let mut b = fst::MapBuilder::memory();
    for (k, v) in rows {
        b.insert(&k, v).map_err(|e| format!("{what}: {e}"))?;
    }
    b.into_inner().map_err(|e| format!("{what}: {e}"))
}

/// Builds the asset from the converter's output folder.
pub fn build(dir: &Path) -> Result<Vec<u8>, String> {
    build_with(&|name| read(dir, name))
}

/// Builds the asset from the converter's tables, `read(file name)` giving each file's text (the fuzz target
/// feeds them from memory).
pub fn build_with(read: &dyn Fn(&str) -> Result<String, String>) -> Result<Vec<u8>, String> {
    let mut sections: Vec<Vec<u8>> = Vec::with_capacity(SECTIONS);
    sections.push(read("meta.txt")?.trim_end().as_bytes().to_vec());
    for name in ["prefixes.txt", "suffixes.txt"] {
        let t = read(name)?;
        sections.push(lines_of(&t).join("\n").into_bytes());
    }
    sections.push(table(
        &read("paradigms.txt")?,
        &[2, 2, 2],
        "paradigms",
        ' ',
    )?);
    let tags = read("tags.txt")?;
    let mut tag_bytes = Vec::new();
    let tag_rows = lines_of(&tags);
    put_u32(&mut tag_bytes, tag_rows.len() as u32);
    for row in tag_rows {
        let (f, feats) = row.split_once(' ').ok_or("tags: bad line")?;
        tag_bytes.push(num::<u8>(f, "tags")?);
        tag_bytes.extend_from_slice(&num::<u64>(feats, "tags")?.to_le_bytes());
    }
    sections.push(tag_bytes);
    sections.push(table(&read("lists.txt")?, &[2, 2, 4], "lists", ';')?);
    // Raw (dictionary-order) lists of the words whose order P(t|w) changed: "word<TAB>list id".
    let raw_text = read("raw_lists.txt")?;
    let mut raw = std::collections::HashMap::new();
    for line in lines_of(&raw_text) {
        if let Some((k, v)) = line.split_once('\t') {
            raw.insert(k.to_string(), num::<u64>(v, "raw_lists")? + 1);
        }
    }
    let extra = |k: &str| raw.get(k).map_or(0, |v| v << 32);
    sections.push(fst_map(&read("words.txt")?, "words", &extra)?);
    sections.push(table(&read("plists.txt")?, &[4, 4, 2, 2], "plists", ';')?);
    for n in 0..3 {
        let name = format!("pred{n}.txt");
        sections.push(fst_map(&read(&name)?, &name, &|_| 0)?);
    }
    for name in [
        "known_prefixes.txt",
        "particles.txt",
        "unicode.txt",
        "overrides.txt",
    ] {
        let t = read(name)?;
        sections.push(lines_of(&t).join("\n").into_bytes());
    }
    debug_assert_eq!(sections.len(), SECTIONS);
    let mut out = MAGIC.to_vec();
    for s in sections {
        put_u32(&mut out, s.len() as u32);
        out.extend_from_slice(&s);
    }
    Ok(out)
}
