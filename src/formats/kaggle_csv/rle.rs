//! A run-length-encoded mask cell, as Kaggle's competitions write it (Carvana, Severstal, Airbus, the 2018
//! Data Science Bowl): space-separated pairs `start length`, pixel numbers 1-based in column-major order (top
//! to bottom, then left to right); an empty cell is an empty mask. Decoded into [`Runs`], never into pixels.
//! Refused, each with its place in the cell: an odd number of values, a value that is not a whole number, a
//! start of 0 or a length of 0, a run that starts before the previous one ends (unsorted or overlapping runs),
//! a run past the image's last pixel.

use crate::metrics::kaggle::rle::Runs;

/// Why a cell is not a mask, in words for the participant.
#[derive(Clone, Debug, PartialEq)]
pub struct RleError {
    /// `odd`, `not_a_number`, `zero`, `unsorted`, `past_end`: the diagnostic code's last part.
    pub what: &'static str,
    pub message: String,
}

fn err(what: &'static str, message: String) -> RleError {
    RleError { what, message }
}

/// The mask of `cell` in an image of `pixels` pixels (`height × width`).
pub fn parse(cell: &str, pixels: u64) -> Result<Runs, RleError> {
    let mut runs = Vec::new();
    let mut values = cell.split_ascii_whitespace();
    let mut prev_end = 0u64;
    let mut n = 0usize;
    while let Some(s) = values.next() {
        n += 1;
        let Some(l) = values.next() else {
            return Err(err(
                "rle_odd",
                format!("an odd number of values ({n}): a run-length encoding is pairs of start and length"),
            ));
        };
        n += 1;
        let start = number(s, n - 1)?;
        let len = number(l, n)?;
        if start == 0 || len == 0 {
            return Err(err(
                "rle_zero",
                format!(
                    "run {} has start {start} and length {len}: pixel numbers start at 1 and lengths at 1",
                    n / 2
                ),
            ));
        }
        let (s0, end) = (start - 1, start - 1 + len);
        if s0 < prev_end {
            return Err(err(
                "rle_unsorted",
                format!(
                    "run {} starts at pixel {start}, before the previous run ends (pixel {prev_end}): runs must be sorted and must not overlap",
                    n / 2
                ),
            ));
        }
        if end > pixels {
            return Err(err(
                "rle_past_end",
                format!(
                    "run {} ends at pixel {end}, past the image's last pixel ({pixels})",
                    n / 2
                ),
            ));
        }
        prev_end = end;
        runs.push((s0 as u32, len as u32));
    }
    Ok(Runs::normalized(runs))
}

/// Value `i` (1-based) of the cell as a whole number.
fn number(s: &str, i: usize) -> Result<u64, RleError> {
    s.parse::<u64>()
        .ok()
        .filter(|v| *v <= u32::MAX as u64)
        .ok_or_else(|| {
            err(
                "rle_not_a_number",
                format!(
                    "value {i} `{}` is not a whole number of pixels",
                    crate::diag::excerpt(s)
                ),
            )
        })
}

/// The Kaggle encoding of a mask (1-based starts): what a participant's `rle_encode` writes.
pub fn encode(runs: &Runs) -> String {
    let mut out = String::new();
    for &(s, l) in &runs.0 {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&format!("{} {l}", s as u64 + 1));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_and_refuses() {
        assert_eq!(parse("1 3 10 2", 20).unwrap(), Runs(vec![(0, 3), (9, 2)]));
        assert_eq!(parse("1 3 4 2", 20).unwrap(), Runs(vec![(0, 5)]));
        assert_eq!(parse("", 20).unwrap(), Runs::default());
        assert_eq!(parse("1 3 4", 20).unwrap_err().what, "rle_odd");
        assert_eq!(parse("5 3 4 2", 20).unwrap_err().what, "rle_unsorted");
        assert_eq!(parse("19 3", 20).unwrap_err().what, "rle_past_end");
        assert_eq!(parse("0 3", 20).unwrap_err().what, "rle_zero");
        assert_eq!(parse("1.5 3", 20).unwrap_err().what, "rle_not_a_number");
        assert_eq!(encode(&parse("3 4", 20).unwrap()), "3 4");
    }
}
