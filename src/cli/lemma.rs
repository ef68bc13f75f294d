//! The hidden developer commands of the Russian lemmatiser: `dropscore lemma-build` (the asset's set-up) and
//! `dropscore lemma` (its parity tests' entry).

use super::usage;
use std::io::Write;
use std::path::Path;

/// `dropscore lemma-build DIR OUT`: packs tools/lemmas/convert.py's tables into the asset.
pub fn lemma_build(rest: &[String]) -> i32 {
    let [dir, out] = rest else {
        return usage("usage: dropscore lemma-build CONVERTED_DIR OUT_FILE");
    };
    match dropscore::lemma::build::build(Path::new(dir)) {
        Ok(bytes) => match std::fs::write(out, &bytes) {
            Ok(()) => {
                eprintln!("lemma-build: {out}: {} bytes", bytes.len());
                0
            }
            Err(e) => usage(&format!("{out}: {}", dropscore::input::disk::io_words(&e))),
        },
        Err(e) => usage(&e),
    }
}

/// `dropscore lemma [--lemmas FILE] [--bench]`: one word a line on standard input, its normal form a
/// line on standard output (the parity tests' entry); `--bench` prints only the words per second.
pub fn lemma(rest: &[String]) -> i32 {
    use std::io::Read;
    let mut explicit = None;
    let mut bench = false;
    let mut it = rest.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--lemmas" => explicit = it.next().map(String::as_str),
            "--bench" => bench = true,
            _ => return usage("usage: dropscore lemma [--lemmas FILE] [--bench] < words"),
        }
    }
    let lem = match dropscore::lemma::load_asset(explicit) {
        Ok(Some(l)) => l,
        Ok(None) => return usage("no lemmatiser asset found (run scripts/ensure-tools)"),
        Err(e) => return usage(&e),
    };
    let mut input = String::new();
    if std::io::stdin().lock().read_to_string(&mut input).is_err() {
        return usage("standard input is not UTF-8");
    }
    let words: Vec<&str> = input.lines().collect();
    if bench {
        let t = std::time::Instant::now();
        let mut n = 0usize;
        let mut bytes = 0usize;
        while t.elapsed().as_secs_f64() < 1.0 || n == 0 {
            for w in &words {
                bytes += lem.normal_form(w).len();
            }
            n += words.len();
        }
        let s = t.elapsed().as_secs_f64();
        println!(
            "{:.0} words/s ({n} words, {bytes} bytes of normal forms)",
            n as f64 / s
        );
        return 0;
    }
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for w in words {
        let _ = writeln!(out, "{}", lem.normal_form(w));
    }
    let _ = out.flush();
    0
}
