//! NLTK's `PorterStemmer()` in its default `NLTK_EXTENSIONS` mode (nltk/stem/porter.py, nltk 3.10), used by
//! the VisualQA METEOR (specs/aij2022.md 3.4, 3.9). Works on code points; non-Latin words only get lower-cased.

type W = Vec<char>;

fn flags(w: &[char]) -> Vec<bool> {
    let mut f: Vec<bool> = Vec::with_capacity(w.len());
    for (i, &c) in w.iter().enumerate() {
        let v = if matches!(c, 'a' | 'e' | 'i' | 'o' | 'u') {
            false
        } else if c == 'y' {
            i == 0 || !f[i - 1]
        } else {
            true
        };
        f.push(v);
    }
    f
}

fn is_cons(w: &[char], i: usize) -> bool {
    flags(&w[..=i])[i]
}

fn measure(w: &[char]) -> usize {
    let f = flags(w);
    f.windows(2).filter(|p| !p[0] && p[1]).count()
}

fn contains_vowel(w: &[char]) -> bool {
    !flags(w).iter().all(|&c| c)
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

fn ends(w: &[char], s: &str) -> bool {
    let s: W = s.chars().collect();
    w.len() >= s.len() && w[w.len() - s.len()..] == s[..]
}

fn cut(w: &[char], s: &str) -> W {
    w[..w.len() - s.chars().count()].to_vec()
}

fn cat(mut a: W, b: &str) -> W {
    a.extend(b.chars());
    a
}

type Cond<'a> = Option<&'a dyn Fn(&[char]) -> bool>;

/// `_apply_rule_list`: the first rule whose suffix matches decides (applied, or the word is kept).
fn rules(w: &[char], list: &[(&str, &str, Cond)]) -> W {
    for (suffix, repl, cond) in list {
        if *suffix == "*d" && ends_double(w) {
            let stem = w[..w.len() - 2].to_vec();
            return if cond.is_none_or(|c| c(&stem)) {
                cat(stem, repl)
            } else {
                w.to_vec()
            };
        }
        if ends(w, suffix) {
            let stem = cut(w, suffix);
            return if cond.is_none_or(|c| c(&stem)) {
                cat(stem, repl)
            } else {
                w.to_vec()
            };
        }
    }
    w.to_vec()
}

fn pos(s: &[char]) -> bool {
    measure(s) > 0
}
fn gt1(s: &[char]) -> bool {
    measure(s) > 1
}

fn step1a(w: &[char]) -> W {
    if ends(w, "ies") && w.len() == 4 {
        return cat(cut(w, "ies"), "ie");
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

fn step1b(w: &[char]) -> W {
    if ends(w, "ied") {
        return cat(cut(w, "ied"), if w.len() == 4 { "ie" } else { "i" });
    }
    if ends(w, "eed") {
        let stem = cut(w, "eed");
        return if measure(&stem) > 0 {
            cat(stem, "ee")
        } else {
            w.to_vec()
        };
    }
    let mut inter = None;
    for suffix in ["ed", "ing"] {
        if ends(w, suffix) {
            let s = cut(w, suffix);
            if contains_vowel(&s) {
                inter = Some(s);
                break;
            }
        }
    }
    let Some(inter) = inter else {
        return w.to_vec();
    };
    let last = inter.last().copied();
    let last_s: String = last.map(String::from).unwrap_or_default();
    let not_lsz = move |_: &[char]| !matches!(last, Some('l' | 's' | 'z'));
    let e_rule = |s: &[char]| measure(s) == 1 && ends_cvc(s);
    // `intermediate_stem[-1]` raises IndexError on an empty stem; an empty stem has no vowel, so it never gets here.
    rules(
        &inter,
        &[
            ("at", "ate", None),
            ("bl", "ble", None),
            ("iz", "ize", None),
            ("*d", &last_s, Some(&not_lsz)),
            ("", "e", Some(&e_rule)),
        ],
    )
}

fn step1c(w: &[char]) -> W {
    let c = |s: &[char]| s.len() > 1 && is_cons(s, s.len() - 1);
    rules(w, &[("y", "i", Some(&c))])
}

fn step2(w: &[char]) -> W {
    if ends(w, "alli") && pos(&cut(w, "alli")) {
        return step2(&cat(cut(w, "alli"), "al"));
    }
    let word = w.to_vec();
    let logi = move |_: &[char]| pos(&word[..word.len().saturating_sub(3)]);
    let p: Cond = Some(&pos);
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
            ("logi", "log", Some(&logi)),
        ],
    )
}

fn step3(w: &[char]) -> W {
    let p: Cond = Some(&pos);
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

fn step4(w: &[char]) -> W {
    let g: Cond = Some(&gt1);
    let ion = |s: &[char]| measure(s) > 1 && matches!(s.last(), Some('s' | 't'));
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
            ("ion", "", Some(&ion)),
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

fn step5a(w: &[char]) -> W {
    if ends(w, "e") {
        let stem = cut(w, "e");
        let m = measure(&stem);
        if m > 1 || (m == 1 && !ends_cvc(&stem)) {
            return stem;
        }
    }
    w.to_vec()
}

fn step5b(w: &[char]) -> W {
    let word = w.to_vec();
    let c = move |_: &[char]| measure(&word[..word.len().saturating_sub(1)]) > 1;
    rules(w, &[("ll", "l", Some(&c))])
}

/// `PorterStemmer().stem(word)` (NLTK_EXTENSIONS, `to_lowercase=True`).
pub fn stem(word: &str) -> String {
    let lower = crate::pycompat::lower(word);
    let irregular = match lower.as_str() {
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
        return s.to_string();
    }
    if word.chars().count() <= 2 {
        return lower;
    }
    let mut w: W = lower.chars().collect();
    for step in [step1a, step1b, step1c, step2, step3, step4, step5a, step5b] {
        w = step(&w);
    }
    w.into_iter().collect()
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
