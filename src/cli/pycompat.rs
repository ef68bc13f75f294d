//! `dropscore pycompat repr|float|split|lower` (hidden): the entry of tests/reference/pycompat_diff.py, which
//! compares [`dropscore::pycompat`] with CPython. One case a line on standard input, one answer a line on
//! standard output:
//! - `repr`: a float's 64 bits in hex → `repr(x)`;
//! - `float`: a JSON string → `repr(float(s))`, or `ValueError`;
//! - `split`: a JSON string → `s.split()` as a JSON list;
//! - `lower`: a JSON string → `s.lower()` as a JSON string.

use super::usage;
use dropscore::pycompat;
use std::io::{BufRead, Write};

pub fn pycompat(rest: &[String]) -> i32 {
    let what = rest.first().map(String::as_str).unwrap_or("");
    if !matches!(what, "repr" | "float" | "split" | "lower") || rest.len() != 1 {
        return usage("usage: dropscore pycompat repr|float|split|lower < cases");
    }
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for (n, line) in std::io::stdin().lock().lines().enumerate() {
        let Ok(line) = line else {
            return usage("standard input is not UTF-8");
        };
        let answer = if what == "repr" {
            match u64::from_str_radix(line.trim(), 16) {
                Ok(bits) => pycompat::float_repr(f64::from_bits(bits)),
                Err(_) => return usage(&format!("line {}: not 16 hex digits", n + 1)),
            }
        } else {
            let Ok(s) = serde_json::from_str::<String>(&line) else {
                return usage(&format!("line {}: not a JSON string", n + 1));
            };
            match what {
                "float" => pycompat::parse_float(s.as_bytes())
                    .map_or("ValueError".into(), pycompat::float_repr),
                "split" => serde_json::to_string(&pycompat::split(&s).collect::<Vec<_>>())
                    .unwrap_or_default(),
                _ => serde_json::to_string(&pycompat::lower(&s)).unwrap_or_default(),
            }
        };
        if writeln!(out, "{answer}").is_err() {
            return 1;
        }
    }
    let _ = out.flush();
    0
}

/// `dropscore tokenize --nltk|--razdel|--porter`: one text a line on standard input, its NLTK 3.7 `word_tokenize`
/// or razdel 0.5.0 tokens joined by single spaces, or NLTK's Porter stem of the line, a line on standard output
/// (tests/reference/aij_tokenize_diff.py).
pub fn tokenize(rest: &[String]) -> i32 {
    use dropscore::metrics::aij::{nltk_tokenize, porter, razdel};
    use std::io::{Read, Write};
    let which = match rest {
        [a] if matches!(a.as_str(), "--nltk" | "--razdel" | "--porter") => a.as_str(),
        _ => return super::usage("usage: dropscore tokenize --nltk|--razdel|--porter < texts"),
    };
    let mut input = String::new();
    if std::io::stdin().lock().read_to_string(&mut input).is_err() {
        return super::usage("standard input is not UTF-8");
    }
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for line in input.strip_suffix('\n').unwrap_or(&input).split('\n') {
        let t = match which {
            "--nltk" => nltk_tokenize::word_tokenize_joined(line),
            "--razdel" => razdel::join_tokens(line),
            _ => porter::stem(line),
        };
        let _ = writeln!(out, "{t}");
    }
    let _ = out.flush();
    0
}
