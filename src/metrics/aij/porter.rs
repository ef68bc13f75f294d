//! NLTK's `PorterStemmer()` in its default `NLTK_EXTENSIONS` mode (nltk/stem/porter.py, nltk 3.10), used by
//! the VisualQA METEOR (docs/specs/aij2022.md 3.4, 3.9). Works on code points; non-Latin words only get lower-cased.
//!
//! The word is edited in place in one buffer, and every test (`_is_consonant`, `_measure`, `_contains_vowel`,
//! `_ends_double_consonant`, `_ends_cvc`, `endswith`) is one pass without allocating, so a word of n code
//! points costs O(n) (the first version recomputed the consonant flags of a prefix per letter and copied the
//! word per rule: quadratic, and about 1 MB/s on long answers).

/// `_is_consonant(word, i)`: not a vowel, and a `y` is a consonant at the start or after a vowel. Walks back over
/// a run of `y`s only (each `y` flips the answer), never recursing.
fn is_cons(w: &[char], i: usize) -> bool {
    match w[i] {
        'a' | 'e' | 'i' | 'o' | 'u' => false,
        'y' => {
            let mut j = i;
            while j > 0 && w[j - 1] == 'y' {
                j -= 1;
            }
            // w[j] is the first `y` of the run: a consonant at 0 or after a vowel (`!_is_consonant(w, j - 1)`).
            let first = j == 0 || matches!(w[j - 1], 'a' | 'e' | 'i' | 'o' | 'u');
            if (i - j).is_multiple_of(2) {
                first
            } else {
                !first
            }
        }
        _ => true,
    }
}

/// Calls `f(is_consonant)` for each letter of `w` in order, in one pass.
fn each_flag(w: &[char], mut f: impl FnMut(bool)) {
    let mut prev = false;
    for (i, &c) in w.iter().enumerate() {
        let v = match c {
            'a' | 'e' | 'i' | 'o' | 'u' => false,
            'y' => i == 0 || !prev,
            _ => true,
        };
        f(v);
        prev = v;
    }
}

/// `_measure`: the number of vowel-to-consonant transitions.
fn measure(w: &[char]) -> usize {
    let (mut m, mut prev) = (0, None);
    each_flag(w, |v| {
        if prev == Some(false) && v {
            m += 1;
        }
        prev = Some(v);
    });
    m
}

fn contains_vowel(w: &[char]) -> bool {
    let mut any = false;
    each_flag(w, |v| any |= !v);
    any
}

fn ends_double(w: &[char]) -> bool {
    let n = w.len();
    n >= 2 && w[n - 1] == w[n - 2] && is_cons(w, n - 1)
}

fn ends_cvc(w: &[char]) -> bool {
    let n = w.len();
    (n >= 3
        && is_cons(w, n - 3)
        && !is_cons(w, n - 2)
        && is_cons(w, n - 1)
        && !matches!(w[n - 1], 'w' | 'x' | 'y'))
        || (n == 2 && !is_cons(w, 0) && is_cons(w, 1))
}

/// `word.endswith(s)` for an ASCII suffix; the stem's length when it does.
fn ends(w: &[char], s: &str) -> Option<usize> {
    let k = s.len();
    (w.len() >= k && w[w.len() - k..].iter().zip(s.chars()).all(|(a, b)| *a == b))
        .then(|| w.len() - k)
}

/// Replaces everything from `at` with `repl`.
fn put(w: &mut Vec<char>, at: usize, repl: &str) {
    w.truncate(at);
    w.extend(repl.chars());
}

/// A rule's condition on (stem, word).
type Cond = Option<fn(&[char], &[char]) -> bool>;

/// `_apply_rule_list`: the first rule whose suffix matches decides (applied, or the word is kept). A `*d`
/// suffix matches a double consonant (then, as in NLTK, also the literal text `*d`).
fn rules(w: &mut Vec<char>, list: &[(&str, &str, Cond)]) {
    for (suffix, repl, cond) in list {
        let at = if *suffix == "*d" && ends_double(w) {
            Some(w.len() - 2)
        } else {
            ends(w, suffix)
        };
        if let Some(at) = at {
            if cond.is_none_or(|c| c(&w[..at], w)) {
                put(w, at, repl);
            }
            return;
        }
    }
}

fn pos(s: &[char], _: &[char]) -> bool {
    measure(s) > 0
}
fn gt1(s: &[char], _: &[char]) -> bool {
    measure(s) > 1
}

fn step1a(w: &mut Vec<char>) {
    if let (Some(at), 4) = (ends(w, "ies"), w.len()) {
        return put(w, at, "ie");
    }
    rules(
        w,
        &[
            ("sses", "ss", None),
            ("ies", "i", None),
            ("ss", "ss", None),
            ("s", "", None),
        ],
    )
}

fn step1b(w: &mut Vec<char>) {
    if let Some(at) = ends(w, "ied") {
        let repl = if w.len() == 4 { "ie" } else { "i" };
        return put(w, at, repl);
    }
    if let Some(at) = ends(w, "eed") {
        if measure(&w[..at]) > 0 {
            put(w, at, "ee");
        }
        return;
    }
    let Some(at) = ["ed", "ing"]
        .iter()
        .find_map(|s| ends(w, s).filter(|&at| contains_vowel(&w[..at])))
    else {
        return;
    };
    w.truncate(at);
    // `intermediate_stem[-1]` raises IndexError on an empty stem; an empty stem has no vowel, so it never gets here.
    let last = w.last().copied();
    if let Some(at) = ["at", "bl", "iz"].iter().find_map(|s| ends(w, s)) {
        // at → ate, bl → ble, iz → ize
        w.truncate(at + 2);
        w.push('e');
        return;
    }
    // ("*d", intermediate_stem[-1], not l/s/z): a double consonant becomes single.
    if ends_double(w) {
        if !matches!(last, Some('l' | 's' | 'z')) {
            w.pop();
        }
        return;
    }
    if ends(w, "*d").is_some() {
        if !matches!(last, Some('l' | 's' | 'z')) {
            // "…*d" → "…" + last, i.e. "…d".
            let n = w.len();
            w.truncate(n - 2);
            w.extend(last);
        }
        return;
    }
    // ("", "e", m = 1 and *o)
    if measure(w) == 1 && ends_cvc(w) {
        w.push('e');
    }
}

fn step1c(w: &mut Vec<char>) {
    rules(
        w,
        &[(
            "y",
            "i",
            Some(|s: &[char], _: &[char]| s.len() > 1 && is_cons(s, s.len() - 1)),
        )],
    )
}

fn step2(w: &mut Vec<char>) {
    if let Some(at) = ends(w, "alli").filter(|&at| measure(&w[..at]) > 0) {
        put(w, at, "al");
    }
    let p: Cond = Some(pos);
    let logi: Cond = Some(|_: &[char], word: &[char]| measure(&word[..word.len() - 3]) > 0);
    rules(
        w,
        &[
            ("ational", "ate", p),
            ("tional", "tion", p),
            ("enci", "ence", p),
            ("anci", "ance", p),
            ("izer", "ize", p),
            ("bli", "ble", p),
            ("alli", "al", p),
            ("entli", "ent", p),
            ("eli", "e", p),
            ("ousli", "ous", p),
            ("ization", "ize", p),
            ("ation", "ate", p),
            ("ator", "ate", p),
            ("alism", "al", p),
            ("iveness", "ive", p),
            ("fulness", "ful", p),
            ("ousness", "ous", p),
            ("aliti", "al", p),
            ("iviti", "ive", p),
            ("biliti", "ble", p),
            ("fulli", "ful", p),
            ("logi", "log", logi),
        ],
    )
}

fn step3(w: &mut Vec<char>) {
    let p: Cond = Some(pos);
    rules(
        w,
        &[
            ("icate", "ic", p),
            ("ative", "", p),
            ("alize", "al", p),
            ("iciti", "ic", p),
            ("ical", "ic", p),
            ("ful", "", p),
            ("ness", "", p),
        ],
    )
}

fn step4(w: &mut Vec<char>) {
    let g: Cond = Some(gt1);
    let ion: Cond =
        Some(|s: &[char], _: &[char]| measure(s) > 1 && matches!(s.last(), Some('s' | 't')));
    rules(
        w,
        &[
            ("al", "", g),
            ("ance", "", g),
            ("ence", "", g),
            ("er", "", g),
            ("ic", "", g),
            ("able", "", g),
            ("ible", "", g),
            ("ant", "", g),
            ("ement", "", g),
            ("ment", "", g),
            ("ent", "", g),
            ("ion", "", ion),
            ("ou", "", g),
            ("ism", "", g),
            ("ate", "", g),
            ("iti", "", g),
            ("ous", "", g),
            ("ive", "", g),
            ("ize", "", g),
        ],
    )
}

fn step5a(w: &mut Vec<char>) {
    if let Some(at) = ends(w, "e") {
        let m = measure(&w[..at]);
        if m > 1 || (m == 1 && !ends_cvc(&w[..at])) {
            w.truncate(at);
        }
    }
}

fn step5b(w: &mut Vec<char>) {
    let c: Cond = Some(|_: &[char], word: &[char]| measure(&word[..word.len() - 1]) > 1);
    rules(w, &[("ll", "l", c)])
}

/// `PorterStemmer().stem(word)` (NLTK_EXTENSIONS, `to_lowercase=True`).
pub fn stem(word: &str) -> String {
    let mut buf = Vec::new();
    let mut out = String::new();
    stem_into(word, &mut buf, &mut out);
    out
}

/// [`stem`] into `out` (cleared first), with `buf` as the working buffer: a loop over many words reuses both.
pub fn stem_into(word: &str, buf: &mut Vec<char>, out: &mut String) {
    out.clear();
    let lower = crate::pycompat::lower_cow(word);
    let irregular = match lower.as_ref() {
        "sky" | "skies" => Some("sky"),
        "dying" => Some("die"),
        "lying" => Some("lie"),
        "tying" => Some("tie"),
        "news" => Some("news"),
        "innings" | "inning" => Some("inning"),
        "outings" | "outing" => Some("outing"),
        "cannings" | "canning" => Some("canning"),
        "howe" => Some("howe"),
        "proceed" => Some("proceed"),
        "exceed" => Some("exceed"),
        "succeed" => Some("succeed"),
        _ => None,
    };
    if let Some(s) = irregular {
        out.push_str(s);
        return;
    }
    if word.chars().nth(2).is_none() {
        out.push_str(&lower);
        return;
    }
    buf.clear();
    buf.extend(lower.chars());
    for step in [step1a, step1b, step1c, step2, step3, step4, step5a, step5b] {
        step(buf);
    }
    out.extend(buf.iter());
}

#[cfg(test)]
mod tests {
    use super::stem;

    #[test]
    fn nltk_examples() {
        for (w, s) in [
            ("running", "run"),
            ("caresses", "caress"),
            ("ponies", "poni"),
            ("ties", "tie"),
            ("agreed", "agre"),
            ("plastered", "plaster"),
            ("motoring", "motor"),
            ("hopping", "hop"),
            ("filing", "file"),
            ("happy", "happi"),
            ("relational", "relat"),
            ("generously", "gener"),
            ("ЁЖИК", "ёжик"),
            ("dying", "die"),
        ] {
            assert_eq!(stem(w), s, "{w}");
        }
    }
}
