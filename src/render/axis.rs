//! The axes of a plot spec ([`super::plot`]): nice ticks over a range and their texts, and the texts of labels
//! that must fit (a common prefix named once, long labels cut).

use super::plot::{Axis, Tick};
use crate::items_query::number_text;

/// A number as the page writes one without declared decimals (`auto` of www/util.js): `—` when missing.
pub fn auto(v: Option<f64>) -> String {
    let mut s = String::new();
    number_text(v.unwrap_or(f64::NAN), None, &mut s);
    s
}

/// The step of about `count` ticks over `span`: 1, 2, 5 or 10 times a power of ten.
pub fn nice_step(span: f64, count: usize) -> f64 {
    let raw = span / count.max(1) as f64;
    let mag = 10f64.powf(raw.log10().floor());
    let norm = raw / mag;
    let k = if norm < 1.5 {
        1.0
    } else if norm < 3.0 {
        2.0
    } else if norm < 7.0 {
        5.0
    } else {
        10.0
    };
    k * mag
}

/// The domain `[min, max]` rounded outwards to about `count` nice ticks, and the ticks with their texts (the
/// step's decimals, at most 6). `integer`: steps of at least 1.
pub fn nice_axis(min: f64, max: f64, count: usize, integer: bool) -> Axis {
    let (mut min, mut max) = if min.is_finite() && max.is_finite() {
        (min, max)
    } else {
        (0.0, 1.0)
    };
    if min == max {
        if min == 0.0 {
            max = 1.0;
        } else if min > 0.0 {
            min = 0.0;
        } else {
            max = 0.0;
        }
    }
    let mut step = nice_step(max - min, count);
    if integer {
        step = step.max(1.0);
    }
    let lo = (min / step + 1e-9).floor() * step;
    let hi = (max / step - 1e-9).ceil() * step;
    let decimals = (-(step.log10() + 1e-9).floor()).clamp(0.0, 6.0) as usize;
    let mut ticks = Vec::new();
    let mut i = 0;
    while i < 50 {
        let v = lo + step * i as f64;
        if v > hi + step * 1e-6 {
            break;
        }
        let v = round_to_12_digits(v);
        let text = format!("{v:.decimals$}");
        ticks.push(Tick {
            at: v,
            text: if text.starts_with('-') && text.trim_start_matches(['-', '0', '.']).is_empty() {
                text[1..].to_string()
            } else {
                text
            },
        });
        i += 1;
    }
    Axis {
        label: String::new(),
        lo,
        hi,
        ticks,
    }
}

/// `v` to 12 significant digits (`Number(v.toPrecision(12))`): 0.30000000000000004 → 0.3.
pub(super) fn round_to_12_digits(v: f64) -> f64 {
    if v == 0.0 || !v.is_finite() {
        return v;
    }
    format!("{v:.11e}").parse().unwrap_or(v)
}

/// The value range of a plot's y axis: it includes 0, and scores within [0, 1] show the whole unit range.
pub(super) fn y_range(values: impl Iterator<Item = f64>, counts: bool) -> (f64, f64) {
    let (mut lo, mut hi, mut any) = (0f64, 0f64, false);
    for v in values.filter(|v| v.is_finite()) {
        lo = lo.min(v);
        hi = hi.max(v);
        any = true;
    }
    if !any {
        return (0.0, 1.0);
    }
    if !counts && lo >= 0.0 && hi <= 1.0 {
        hi = 1.0;
    }
    (lo, hi)
}

/// `text` cut to `max` characters with a trailing `…`.
pub fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut s: String = text.chars().take(max.saturating_sub(1)).collect();
    s.push('…');
    s
}

/// The labels' common prefix up to a separator or a letter–digit boundary (never a whole label), and each
/// label without it: `Latin14396/001`, `Latin14396/002` → `Latin14396/`, `001`, `002`.
pub fn distinct_labels(labels: &[String]) -> (String, Vec<String>) {
    if labels.len() < 2 {
        return (String::new(), labels.to_vec());
    }
    let first: Vec<char> = labels[0].chars().collect();
    let mut n = first.len();
    for t in labels {
        n = n.min(t.chars().zip(&first).take_while(|(a, b)| a == *b).count());
    }
    let sep = |c: char| "\\/_-. \t\n#:|,;".contains(c) || c.is_whitespace();
    let mut cut = 0;
    for i in 1..=n {
        let a = first[i - 1];
        let b = first.get(i).copied();
        let digit_b = b.is_some_and(|b| b.is_ascii_digit());
        let letter_b = b.is_some_and(char::is_alphabetic);
        if sep(a) || (a.is_alphabetic() && digit_b) || (a.is_ascii_digit() && letter_b) {
            cut = i;
        }
    }
    if labels.iter().any(|t| t.chars().count() <= cut) {
        cut = 0;
    }
    let prefix = first[..cut].iter().collect();
    (
        prefix,
        labels
            .iter()
            .map(|t| t.chars().skip(cut).collect())
            .collect(),
    )
}
