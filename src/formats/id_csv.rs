//! Streaming CSV tables keyed by an id column, shared by the `classification` and `regression` families
//! (docs/specs/families.md section 0): the records ([`super::csv_records`]), their columns, numbers and budget. Ids
//! are stored once, in one arena ([`IdIndex`], in `id_index`).

pub use super::csv_records::{
    raw_field, read, read_batched, read_batched_with, trim, Batch, CsvIn, Early, Event, Row, BATCH,
};
pub use super::id_index::{tag, IdIndex, Matcher, Tag};
use crate::diag::{excerpt, Diagnostic, Diags};

/// The index of the column named `name` (ASCII case-insensitive).
pub fn find_column(header: &[String], name: &str) -> Option<usize> {
    header.iter().position(|h| h.eq_ignore_ascii_case(name))
}

/// The id column: `option` if given (an error when absent), else the first column named `id` (any case), else
/// the first column.
pub fn id_column(
    family: &str,
    file: &str,
    header: &[String],
    option: &str,
    diags: &mut Diags,
) -> Option<usize> {
    if !option.is_empty() {
        let c = header.iter().position(|h| h == option);
        if c.is_none() {
            diags.push(missing_column(family, file, header, option, "id_column"));
        }
        return c;
    }
    Some(find_column(header, "id").unwrap_or(0))
}

/// A located error: the header lacks a named column.
pub fn missing_column(
    family: &str,
    file: &str,
    header: &[String],
    name: &str,
    option: &str,
) -> Diagnostic {
    Diagnostic::error(
        &format!("{family}.missing_column"),
        format!("no column named `{name}` in the header"),
    )
    .file(file)
    .at(1, 1)
    .expected(name.to_string())
    .found(excerpt(&header.join(",")))
    .hint(format!(
        "Name the column `{name}` in the header, or set the option `{option}`."
    ))
}

/// The value column besides `id`: `option` if given, else the only other column, else the first of
/// `defaults` (any case). `None` (with an error) when none fits.
pub fn value_column(
    family: &str,
    file: &str,
    header: &[String],
    id: usize,
    option: &str,
    defaults: &[&str],
    diags: &mut Diags,
) -> Option<usize> {
    if !option.is_empty() {
        if let Some(c) = header.iter().position(|h| h == option) {
            return Some(c);
        }
    }
    let others: Vec<usize> = (0..header.len()).filter(|&i| i != id).collect();
    if others.len() == 1 && option.is_empty() {
        return Some(others[0]);
    }
    for d in defaults {
        if let Some(c) = find_column(header, d).filter(|&c| c != id) {
            return Some(c);
        }
    }
    let name = if option.is_empty() {
        defaults.first().copied().unwrap_or("label")
    } else {
        option
    };
    diags.push(missing_column(family, file, header, name, "label_column"));
    None
}

/// `s.parse::<f64>()` of a plain decimal (`-`, digits, at most one `.`, at most 15 digits in all), else `None`.
/// Clinger's fast path, the first one `parse` takes: the digits as an integer m < 10¹⁵ < 2⁵³ and 10^f (f ≤ 15
/// fraction digits) are exact doubles, so the one rounding of m / 10^f is the correctly rounded value.
#[inline]
fn plain_decimal(s: &[u8]) -> Option<f64> {
    if let Ok(w) = <[u8; 8]>::try_from(s) {
        if let Some(v) = eight_bytes(u64::from_le_bytes(w)) {
            return Some(v);
        }
    }
    let (negative, digits) = match s.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, s),
    };
    if let [c] = digits {
        // One digit (a 0/1 label).
        let d = c.wrapping_sub(b'0');
        let v = f64::from(d);
        return (d < 10).then_some(if negative { -v } else { v });
    }
    if digits.is_empty() || digits.len() > 16 {
        return None;
    }
    let (mut m, mut count, mut fraction, mut dot) = (0u64, 0usize, 0usize, false);
    for &c in digits {
        match c {
            b'0'..=b'9' => {
                m = m * 10 + (c - b'0') as u64;
                count += 1;
                fraction += dot as usize;
            }
            b'.' if !dot => dot = true,
            _ => return None,
        }
    }
    if count == 0 || count > 15 {
        return None;
    }
    let v = m as f64 / POW10[fraction];
    Some(if negative { -v } else { v })
}

const POW10: [f64; 16] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
];

/// [`plain_decimal`] of a field of exactly eight bytes, `w` (its bytes little-endian, the first one lowest):
/// eight digits, or seven digits and one point (a probability written `%.6f`, e.g. `0.673167`), read at once.
/// The point is taken out (the bytes before it move up one, a `0` in front), then the eight digits are one
/// integer m < 10⁸ by three multiplications (fast_float's `parse_eight_digits_unrolled`, Lemire 2021), and
/// the value is m / 10^f as [`plain_decimal`] computes it. `None`: not of that form (the loop decides).
#[inline]
fn eight_bytes(w: u64) -> Option<f64> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    // The lowest zero byte of `w ^ '.'s` is the first point (a borrow marks only bytes above a zero one).
    let x = w ^ (ONES * u64::from(b'.'));
    let points = x.wrapping_sub(ONES) & !x & (ONES * 0x80);
    let (w, fraction) = if points == 0 {
        (w, 0)
    } else {
        let p = points.trailing_zeros() / 8;
        let below = (1u64 << (8 * p)) - 1;
        let above = (!0u64).checked_shl(8 * (p + 1)).unwrap_or(0);
        (((w & below) << 8) | (w & above) | u64::from(b'0'), 7 - p)
    };
    // Every byte in 0x30..=0x39 (a second point fails here). Bytes of 0x30..=0x3f gain no carry from + 6.
    let high = ONES * 0xf0;
    if w & high != ONES * 0x30 || w.wrapping_add(ONES * 6) & high != ONES * 0x30 {
        return None;
    }
    let v = (w & 0x0f0f_0f0f_0f0f_0f0f).wrapping_mul(2561) >> 8;
    let v = (v & 0x00ff_00ff_00ff_00ff).wrapping_mul(6_553_601) >> 16;
    let m = (v & 0x0000_ffff_0000_ffff).wrapping_mul(42_949_672_960_001) >> 32;
    Some(m as f64 / POW10[fraction as usize])
}

/// The finite number `s` (trimmed) holds, as [`number`] parses it; `None` when [`number`] would report an error.
#[inline]
pub fn finite(s: &[u8]) -> Option<f64> {
    if let Some(v) = plain_decimal(s) {
        return Some(v);
    }
    let v = std::str::from_utf8(s).ok()?.parse::<f64>().ok()?;
    v.is_finite().then_some(v)
}

/// A parsed number field: finite f64, or a located error (`<family>.empty_cell`, `.non_numeric`, `.non_finite`).
pub fn number(family: &str, file: &str, row: &Row, col: usize, diags: &mut Diags) -> Option<f64> {
    let s = row.get(col);
    if let Some(v) = finite(s.as_bytes()) {
        return Some(v);
    }
    let err = |code: &str, msg: String, hint: &str| {
        Diagnostic::error(&format!("{family}.{code}"), msg)
            .file(file)
            .at(row.line, row.column(col))
            .expected("a finite decimal number")
            .found(excerpt(s))
            .hint(hint.to_string())
    };
    if s.is_empty() {
        diags.push(err(
            "empty_cell",
            "empty cell".into(),
            "Fill every cell with a number.",
        ));
        return None;
    }
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() => Some(v),
        Ok(_) => {
            diags.push(err(
                "non_finite",
                format!("`{}` is not a finite number", excerpt(s)),
                "Replace NaN and infinities by finite numbers.",
            ));
            None
        }
        Err(_) => {
            diags.push(err(
                "non_numeric",
                format!("`{}` is not a number", excerpt(s)),
                "Write decimal numbers such as 0.25 or 1e-3.",
            ));
            None
        }
    }
}

/// The error of a GT table without rows (`<family>.empty_file`).
pub fn empty_gt(family: &str, file: &str) -> Diagnostic {
    Diagnostic::error(
        &format!("{family}.empty_file"),
        "the ground truth has no rows",
    )
    .file(file)
    .hint("Drop the complete ground-truth file.")
}

/// The error of a GT id given twice (`<family>.duplicate_id`), at the repeat; `first_line` is the first one's.
pub fn duplicate_gt_id(
    family: &str,
    file: &str,
    row: &Row,
    col: usize,
    first_line: u64,
) -> Diagnostic {
    let id = row.get(col);
    Diagnostic::error(
        &format!("{family}.duplicate_id"),
        format!(
            "GT id `{}` repeated (first on line {first_line})",
            excerpt(id)
        ),
    )
    .file(file)
    .at(row.line, row.column(col))
    .found(excerpt(id))
    .hint("The ground truth must list each id once.")
}

/// The rows a GT table of `size` bytes (0: unknown) will have, guessed from its first `rows` (their fields and
/// separators), and capped so that an id table sized for them ([`IdIndex::TABLE_BYTES_PER_ID`] at most) holds at
/// most an eighth of the budget: a table read ahead of the rows it holds never crosses the budget on a bad guess.
pub fn expected_rows(size: u64, rows: &[Row], budget: crate::budget::Budget) -> usize {
    let bytes: usize = rows
        .iter()
        .map(|r| r.fields.iter().map(|f| f.len() + 1).sum::<usize>())
        .sum();
    if size == 0 || bytes == 0 {
        return 0;
    }
    let guess = size as u128 * rows.len() as u128 / bytes as u128;
    guess.min(u128::from(
        budget.max_memory / 8 / IdIndex::TABLE_BYTES_PER_ID,
    )) as usize
}

/// Counts the memory a family holds for GT `rows` (`bytes_of(row)` each) into `held`; when it crosses the
/// budget, pushes the located `input.limit` refusal at that row (`what` says what a row holds) and returns false.
pub fn charge_rows(
    held: &mut u64,
    rows: &[Row],
    bytes_of: impl Fn(&Row) -> u64,
    what: &str,
    budget: crate::budget::Budget,
    file: &str,
    diags: &mut Diags,
) -> bool {
    for row in rows {
        *held += bytes_of(row);
        if *held > budget.max_memory {
            let what = format!("the ground truth's rows up to line {} ({what})", row.line);
            diags.push(crate::budget::refusal(
                file,
                Some(row.line),
                &what,
                *held,
                budget,
            ));
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Eight bytes read at once give `parse`'s value, bit for bit: every place of the point, and bytes around
    /// the digits and the point (a value is taken only from eight digits, or seven and one point).
    #[test]
    fn eight_bytes_are_parse() {
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        let alphabet = b"0123456789.-+e/:\x00\xff ";
        for k in 0..400_000u32 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let mut b = [0u8; 8];
            for (i, c) in b.iter_mut().enumerate() {
                *c = if k % 2 == 0 {
                    b'0' + ((x >> (i * 4)) % 10) as u8
                } else {
                    alphabet[(x >> (i * 5)) as usize % alphabet.len()]
                };
            }
            if k % 4 == 0 {
                b[(x >> 58) as usize % 8] = b'.';
            }
            let want = std::str::from_utf8(&b)
                .ok()
                .and_then(|t| t.parse::<f64>().ok());
            let got = eight_bytes(u64::from_le_bytes(b));
            let digits = b.iter().filter(|c| c.is_ascii_digit()).count();
            let points = b.iter().filter(|&&c| c == b'.').count();
            if digits + points == 8 && points <= 1 {
                assert_eq!(got.map(f64::to_bits), want.map(f64::to_bits), "{b:?}");
            } else {
                assert_eq!(got, None, "{b:?}");
            }
        }
    }

    /// The fast path gives `parse`'s value, bit for bit, and declines what it does not cover.
    #[test]
    fn plain_decimal_is_parse() {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut texts: Vec<String> = [
            "0",
            "-0",
            "-0.0",
            "1.",
            ".5",
            "-.5",
            "007",
            "0.1",
            "0.3",
            "123456789012345",
            "1234567890123456",
            "0.000000000000001",
            "99999999999999.9",
            "-2.675",
            "0.673167",
            "1",
            "-1",
            "9",
            "12.5",
            "999999999999999",
            "9999999999999999",
            "99999999.9999999",
            ".999999999999999",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let mut others = Vec::new();
        for _ in 0..100_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let digits = (x % 16) as usize + 1;
            let m = (x >> 8) % 10u64.pow(digits.min(15) as u32);
            let dot = (x >> 60) as usize % (digits + 1);
            let t = format!("{m:0digits$}");
            let (a, b) = t.split_at(dot.min(t.len()));
            let sign = if x & 1 == 1 { "-" } else { "" };
            texts.push(format!("{sign}{a}.{b}"));
            texts.push(format!("{sign}{t}"));
            // Any short string of digits, points, signs and the bytes around the digits.
            let alphabet = b"0123456789.-+e/: ";
            let len = (x >> 40) as usize % 18;
            let any: String = (0..len)
                .map(|k| alphabet[(x >> (k * 3 % 40)) as usize % alphabet.len()] as char)
                .collect();
            others.push(any);
        }
        for t in &others {
            if let Some(v) = plain_decimal(t.as_bytes()) {
                assert_eq!(
                    Some(v.to_bits()),
                    t.parse::<f64>().ok().map(f64::to_bits),
                    "{t}"
                );
            }
        }
        for t in &texts {
            let want = t.parse::<f64>().ok();
            match plain_decimal(t.as_bytes()) {
                Some(v) => assert_eq!(Some(v.to_bits()), want.map(f64::to_bits), "{t}"),
                None => assert!(
                    want.is_none() || t.bytes().filter(u8::is_ascii_digit).count() > 15,
                    "{t} declined"
                ),
            }
        }
        for t in [
            "0.673167", "1.000000", "12345678", "1234567.", ".1234567", "0000000.",
        ] {
            assert_eq!(
                eight_bytes(u64::from_le_bytes(t.as_bytes().try_into().unwrap())),
                t.parse().ok()
            );
        }
        for t in [
            "", "-", ".", "1.2.3", "1e5", "+1", "inf", "1_0", " 1", "a", "/", ":", "1:",
            "0.67316/", "12.3.", "1..2", "-.", "\u{7f}", "1 ",
        ] {
            assert_eq!(plain_decimal(t.as_bytes()), None, "{t}");
        }
    }
}
