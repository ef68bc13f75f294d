//! Cells read as `pandas.read_csv` reads them (pandas 2.2, its C parser, default `na_values`, `true_values` and
//! `false_values`), for the CSV families' option `read_as = pandas` (docs/kaggle.md): Kaggle's metrics see the
//! solution and the submission as the DataFrames pandas read from them.
//!
//! pandas types a whole column (int64, then uint64, float64, bool, else object strings); dropscore reads cell by
//! cell, as the column's type would read that cell when the cell is of it. Every rule is listed in
//! docs/kaggle.md.

use super::id_csv::Row;
use super::id_index::IdIndex;
use crate::diag::{excerpt, Diagnostic, Diags};
use std::collections::HashMap;

/// How the CSV families read a cell: as pandas reads it, or as its text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ReadAs {
    #[default]
    Text,
    Pandas,
}

impl ReadAs {
    /// The key under which an id matches another: with `Pandas`, as pandas' merge compares the ids it read
    /// (`00012`, `+12` and `12.0` are the integer 12; [`id_key`], docs/kaggle.md), else as written.
    pub fn key(self, id: &str) -> std::borrow::Cow<'_, str> {
        match self {
            ReadAs::Pandas => id_key(id).map_or(id.into(), Into::into),
            ReadAs::Text => id.into(),
        }
    }
}

/// pandas' default missing-value strings (`pandas._libs.parsers.STR_NA_VALUES`, pandas 2.2), the empty cell
/// included: a cell equal to one is NaN.
pub const NA_VALUES: &[&str] = &[
    "", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND", "1.#QNAN",
    "<NA>", "N/A", "NA", "NULL", "NaN", "None", "n/a", "nan", "null",
];

/// Whether pandas reads the cell as a missing value (NaN).
pub fn is_na(s: &str) -> bool {
    NA_VALUES.contains(&s)
}

/// The boolean of a cell of a bool column: pandas' C parser's `true_values` `True`, `TRUE`, `true` and
/// `false_values` `False`, `FALSE`, `false`.
pub fn boolean(s: &str) -> Option<bool> {
    match s {
        "True" | "TRUE" | "true" => Some(true),
        "False" | "FALSE" | "false" => Some(false),
        _ => None,
    }
}

/// The integer of an integer cell: an optional sign, then ASCII digits (leading zeros allowed). pandas reads a
/// column of them as int64, uint64, or beyond both as Python integers (an object column): each by its value.
fn integer(s: &str) -> Option<i128> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || digits.len() > 38 || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    s.strip_prefix('+').unwrap_or(s).parse().ok()
}

/// The number of a float64 cell written as a decimal (digits, sign, point, exponent; pandas' `xstrtod`), finite.
fn decimal(s: &str) -> Option<f64> {
    let b = s.as_bytes();
    let numeric = |c: &u8| c.is_ascii_digit() || matches!(c, b'+' | b'-' | b'.' | b'e' | b'E');
    if !b.iter().all(numeric) || !b.iter().any(u8::is_ascii_digit) {
        return None;
    }
    s.parse::<f64>().ok().filter(|v| v.is_finite())
}

/// The integer value of a numeric cell: an integer, or a float with an integral value within int64 (pandas
/// reads `3.0` as 3.0, which equals 3 as NumPy compares them).
pub fn integral(s: &str) -> Option<i64> {
    if let Some(v) = integer(s) {
        return i64::try_from(v).ok();
    }
    let v = decimal(s)?;
    (v.fract() == 0.0 && v.abs() < 9.2e18).then_some(v as i64)
}

/// The key under which pandas' merge would match id `s`, when it is not `s` itself: an int64/uint64 id as
/// its decimal (`00012` and `+12` are 12), a float id by its value (`12.0` is 12, `1.50` is 1.5); `None` for an
/// id that is its own key (any text that is not a number, and canonical integers).
pub fn id_key(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let canonical_int = !b.is_empty()
        && b.len() <= 18
        && b.iter().all(u8::is_ascii_digit)
        && (b.len() == 1 || b[0] != b'0');
    if canonical_int {
        return None;
    }
    let key = match integer(s) {
        Some(v) => v.to_string(),
        None => {
            let v = decimal(s)?;
            if v.fract() == 0.0 && v.abs() < 9.2e18 {
                (v as i64).to_string()
            } else {
                format!("{v:e}")
            }
        }
    };
    (key != s).then_some(key)
}

/// The GT ids under their pandas keys ([`id_key`]): a GT id whose key is another GT id's repeats it, and a
/// submission id matches the GT id of the same key. Only ids that are not their own key are held.
#[derive(Default)]
pub struct IdKeys {
    /// Key → GT row, for the GT ids that are not their own key.
    alias: HashMap<String, usize>,
}

impl IdKeys {
    /// Before GT id `id` is added as row `row` of `ids`: `Err(first)` when its key is the key of GT row `first`.
    pub fn add_gt(&mut self, ids: &IdIndex, id: &str, row: usize) -> Result<(), usize> {
        match id_key(id) {
            Some(key) => {
                if let Some(first) = ids.find(&key).or_else(|| self.alias.get(&key).copied()) {
                    return Err(first);
                }
                self.alias.insert(key, row);
            }
            None => {
                if let Some(&first) = self.alias.get(id) {
                    return Err(first);
                }
            }
        }
        Ok(())
    }
    /// As [`IdKeys::add_gt`] for the next row of `ids` when `read_as` is pandas (else nothing is held): the
    /// first GT row of the same key, if any.
    pub fn repeat(&mut self, read_as: ReadAs, ids: &IdIndex, id: &str) -> Option<usize> {
        match read_as {
            ReadAs::Pandas => self.add_gt(ids, id, ids.len()).err(),
            ReadAs::Text => None,
        }
    }
    /// The GT row of submission id `id`, not found as written.
    pub fn find(&self, ids: &IdIndex, id: &str) -> Option<usize> {
        match id_key(id) {
            Some(key) => ids.find(&key).or_else(|| self.alias.get(&key).copied()),
            None if self.alias.is_empty() => None,
            None => self.alias.get(id).copied(),
        }
    }
    /// Fills the rows of a batch not found as written (`found[k]` is `None`) by their ids' keys (field `col`).
    pub fn resolve(&self, ids: &IdIndex, rows: &[Row], col: usize, found: &mut [Option<usize>]) {
        for (row, f) in rows.iter().zip(found.iter_mut()) {
            if f.is_none() {
                *f = self.find(ids, row.get(col));
            }
        }
    }
}

/// A number cell as pandas reads it: a bool column's `True`/`False` are 1 and 0 (NumPy's arithmetic on bools),
/// a missing-value string other than the ones Rust parses (`NA`, `N/A`, `null`, `None`, …) is NaN: a located
/// `<family>.non_finite` error saying so. `None` when the cell is none of these (read it as text).
pub fn number(
    family: &str,
    file: &str,
    row: &Row,
    col: usize,
    diags: &mut Diags,
) -> Option<Option<f64>> {
    let s = row.get(col);
    if let Some(b) = boolean(s) {
        return Some(Some(if b { 1.0 } else { 0.0 }));
    }
    if s.is_empty() || s.parse::<f64>().is_ok() || !is_na(s) {
        return None;
    }
    diags.push(
        Diagnostic::error(
            &format!("{family}.non_finite"),
            format!(
                "`{}` is a missing value: pandas reads it as NaN",
                excerpt(s)
            ),
        )
        .file(file)
        .at(row.line, row.column(col))
        .expected("a finite decimal number")
        .found(excerpt(s))
        .hint("Replace missing values (NA, NaN, null, None, empty) by finite numbers."),
    );
    Some(None)
}

/// A number cell read as `read_as` says: a finite f64, or `None` with a located error (as
/// [`super::id_csv::number`], and [`number`]'s rules first for pandas).
pub fn read_number(
    read_as: ReadAs,
    family: &str,
    file: &str,
    row: &Row,
    col: usize,
    diags: &mut Diags,
) -> Option<f64> {
    if read_as == ReadAs::Pandas {
        if let Some(v) = number(family, file, row, col, diags) {
            return v;
        }
    }
    super::id_csv::number(family, file, row, col, diags)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_as_pandas_compares() {
        assert_eq!(id_key("12"), None);
        assert_eq!(id_key("00012").as_deref(), Some("12"));
        assert_eq!(id_key("+12").as_deref(), Some("12"));
        assert_eq!(id_key("-0").as_deref(), Some("0"));
        assert_eq!(id_key("12.0").as_deref(), Some("12"));
        assert_eq!(id_key("1.50").as_deref(), Some("1.5e0"));
        assert_eq!(id_key("abc"), None);
        assert_eq!(id_key("0x12"), None);
        assert_eq!(id_key("1e3").as_deref(), Some("1000"));
        assert_eq!(id_key("18446744073709551615"), None);
        assert_eq!(integral("3.0"), Some(3));
        assert_eq!(integral("3.5"), None);
        assert_eq!(integral("-007"), Some(-7));
        assert!(is_na("NA") && is_na("") && !is_na("na"));
        assert_eq!(boolean("TRUE"), Some(true));
        assert_eq!(boolean("yes"), None);
    }
}
