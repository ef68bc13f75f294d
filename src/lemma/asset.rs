//! The lemmatiser asset (`ru-lemmas.bin`): pymorphy3's OpenCorpora dictionary in a compact form.
//!
//! Layout (little-endian): the magic `DSLEMMA3`, then 15 sections, each a `u32` byte length and its bytes:
//!
//! | # | section | content |
//! |---|---|---|
//! | 0 | meta | UTF-8 text: source package versions |
//! | 1 | paradigm prefixes | UTF-8, `\n`-separated |
//! | 2 | suffixes | UTF-8, `\n`-separated (id = line) |
//! | 3 | paradigms | `u32` n, `u32` form offsets[n+1], forms of 6 bytes: `u16` suffix, `u16` tag, `u16` prefix |
//! | 4 | tags | `u32` n, per tag `u8` flags (1 productive, 2 POS unknown, 4 ADJF+sing+datv), `u64` features |
//! | 5 | parse lists | `u32` n, `u32` offsets[n+1], entries of 8 bytes: `u16` paradigm, `u16` form, `u32` ё mask |
//! | 6 | word forms | `fst` map (keys in [`encode_key`]'s byte form): form → list id (low 32 bits, pymorphy's final order) and 1 + list id in the raw dictionary order (high 32 bits, 0 = the same) |
//! | 7 | prediction lists | `u32` n, `u32` offsets[n+1], entries of 12 bytes: `u32` ё mask, `u32` count, `u16` paradigm, `u16` form |
//! | 8–10 | prediction suffixes | `fst` maps (keys as in 6) per paradigm prefix: suffix → prediction list id |
//! | 11 | known prefixes | UTF-8, `\n`-separated, pymorphy3's order |
//! | 12 | particles after a hyphen | UTF-8, `\n`-separated |
//! | 13 | Unicode classes | UTF-8 lines `C first last` (hex code points) for C in P (punctuation), A (isalpha), L (Latin letter), S (isspace), D (isdecimal) |
//! | 14 | overrides | UTF-8 lines `word<TAB>normal form`: words outside the dictionary whose parses P(t|w) re-orders |
//!
//! A ё mask has bit i set when the i-th character of the query is `е` and the dictionary spells it `ё`.

pub const MAGIC: &[u8; 8] = b"DSLEMMA3";

/// The byte form of a key in the `fst` maps: lower-case Cyrillic а–я as 0x80–0x9F and ё as 0xA0 (one byte a
/// letter instead of UTF-8's two: half the transitions per lookup), ASCII as itself, any other character as
/// 0xFF followed by its UTF-8 bytes. Returns false (nothing to look up) for a key longer than `MAX_KEY` bytes.
pub fn encode_key(word: &str, out: &mut Vec<u8>) -> bool {
    out.clear();
    if word.len() > MAX_KEY {
        return false;
    }
    for c in word.chars() {
        match c {
            'а'..='я' => out.push(0x80 + (c as u32 - 'а' as u32) as u8),
            'ё' => out.push(0xA0),
            c if c.is_ascii() => out.push(c as u8),
            c => {
                out.push(0xFF);
                let mut b = [0u8; 4];
                out.extend_from_slice(c.encode_utf8(&mut b).as_bytes());
            }
        }
    }
    true
}

/// No dictionary key or suffix is anywhere near this long (bytes of UTF-8).
pub const MAX_KEY: usize = 256;
pub const SECTIONS: usize = 15;

/// Splits the asset into its sections (borrowed).
pub fn sections(data: &[u8]) -> Result<Vec<&[u8]>, String> {
    let body = data.strip_prefix(&MAGIC[..]).ok_or(
        "not a dropscore lemmatiser asset (bad magic); rebuild it with scripts/ensure-tools",
    )?;
    let mut out = Vec::with_capacity(SECTIONS);
    let mut rest = body;
    for i in 0..SECTIONS {
        let (len, tail) =
            take_u32(rest).ok_or_else(|| format!("asset truncated at section {i}"))?;
        let len = len as usize;
        if tail.len() < len {
            return Err(format!("asset truncated in section {i}"));
        }
        out.push(&tail[..len]);
        rest = &tail[len..];
    }
    Ok(out)
}

pub fn take_u32(b: &[u8]) -> Option<(u32, &[u8])> {
    let (h, t) = b.split_first_chunk::<4>()?;
    Some((u32::from_le_bytes(*h), t))
}

/// A table section: `u32` n, `u32` offsets[n+1], then records of `rec` bytes.
pub struct Table<'a> {
    pub offsets: Vec<u32>,
    pub records: &'a [u8],
}

pub fn table<'a>(b: &'a [u8], rec: usize, what: &str) -> Result<Table<'a>, String> {
    let bad = || format!("asset: malformed {what} table");
    let (n, mut rest) = take_u32(b).ok_or_else(bad)?;
    let n = n as usize;
    let mut offsets = Vec::with_capacity(n + 1);
    for _ in 0..=n {
        let (o, t) = take_u32(rest).ok_or_else(bad)?;
        offsets.push(o);
        rest = t;
    }
    if offsets.windows(2).any(|w| w[0] > w[1]) {
        return Err(bad());
    }
    let total = offsets.last().copied().unwrap_or(0) as usize;
    if rest.len() != total * rec {
        return Err(bad());
    }
    Ok(Table {
        offsets,
        records: rest,
    })
}

pub fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

pub fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

pub fn lines(b: &[u8], what: &str) -> Result<Vec<String>, String> {
    let s = std::str::from_utf8(b).map_err(|_| format!("asset: {what} is not UTF-8"))?;
    Ok(s.split('\n').map(str::to_string).collect())
}
