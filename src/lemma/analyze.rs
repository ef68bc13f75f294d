//! pymorphy3's analyzer chain for words the dictionary does not hold (`MorphAnalyzer.parse` with the
//! units of `pymorphy3/lang/ru/config.py`), ported unit by unit from `pymorphy3/units/*.py` (2.0.6).
//!
//! Only what decides the parses' order, words, tags and normal forms is kept; scores are kept where they
//! sort (KnownSuffixAnalyzer). Sub-words (prefix remainders, hyphen parts) are parsed recursively with the
//! whole chain, memoised per call so that no input can make the recursion exponential.

use super::{Entry, Lemmatizer, ADJF_SING_DATV, PRODUCTIVE, UNKNOWN_POS};
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

/// What `methods_stack[0][2]` is in pymorphy (the paradigm of the innermost dictionary method), the third
/// part of the `seen` key (word, tag, para_id).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum ParaKey {
    None,
    Para(u16),
    /// hyphenated words carry a method tuple here, equal to nothing else
    Opaque(u32),
}

#[derive(Clone, Debug)]
struct Parse {
    word: String,
    tag: u16,
    nf: String,
    para: ParaKey,
}

impl Parse {
    /// The parse of `prefix` + this word: pymorphy's prefix analyzers glue the prefix to word and normal form.
    fn prefixed(&self, prefix: &str) -> Parse {
        Parse {
            word: format!("{prefix}{}", self.word),
            tag: self.tag,
            nf: format!("{prefix}{}", self.nf),
            para: self.para,
        }
    }
}

type Seen = HashSet<(String, u16, ParaKey)>;

/// `add_parse_if_not_seen`
fn add_if_not_seen(p: Parse, out: &mut Vec<Parse>, seen: &mut Seen) {
    if seen.insert((p.word.clone(), p.tag, p.para)) {
        out.push(p);
    }
}

struct Ctx<'a> {
    lem: &'a Lemmatizer,
    memo: HashMap<String, Rc<Vec<Parse>>>,
    opaque: u32,
    depth: u32,
}

/// Deeper sub-word recursion than this (pymorphy itself stops with RecursionError near 1000 Python frames,
/// about 300 nested parses) parses as unknown, so the stack stays small in wasm.
const MAX_DEPTH: u32 = 200;

/// `parse(word)[0].normal_form` for a lower-cased word.
pub fn first_normal_form(lem: &Lemmatizer, word: &str) -> String {
    let mut ctx = Ctx {
        lem,
        memo: HashMap::new(),
        opaque: 0,
        depth: 0,
    };
    let parses = ctx.parse(word);
    parses
        .first()
        .map_or_else(|| word.to_string(), |p| p.nf.clone())
}

fn char_len(s: &str) -> usize {
    s.chars().count()
}

/// Byte offset of the `n`-th character (or the end).
fn byte_at(s: &str, n: usize) -> usize {
    s.char_indices().nth(n).map_or(s.len(), |(i, _)| i)
}

impl Ctx<'_> {
    /// `MorphAnalyzer.parse`: the units in order; a terminal unit (or group) with results ends the chain.
    fn parse(&mut self, word: &str) -> Rc<Vec<Parse>> {
        if let Some(r) = self.memo.get(word) {
            return r.clone();
        }
        if self.depth >= MAX_DEPTH {
            return Rc::new(vec![Parse {
                word: word.to_string(),
                tag: self.lem.tag_unkn,
                nf: word.to_string(),
                para: ParaKey::None,
            }]);
        }
        self.depth += 1;
        let r = Rc::new(self.parse_uncached(word));
        self.depth -= 1;
        self.memo.insert(word.to_string(), r.clone());
        r
    }

    fn parse_uncached(&mut self, word: &str) -> Vec<Parse> {
        let lem = self.lem;
        // DictionaryAnalyzer (+ the abbreviation analyzers, which need an upper-case letter).
        let res = self.dictionary(word, false);
        if !res.is_empty() {
            return res;
        }
        // NumberAnalyzer
        let shape = |tag: u16| {
            vec![Parse {
                word: word.to_string(),
                tag,
                nf: word.to_string(),
                para: ParaKey::None,
            }]
        };
        if lem.uni.is_int(word) {
            return shape(lem.tag_numb_intg);
        }
        if lem.uni.is_float(&word.replace(',', ".")) {
            return shape(lem.tag_numb_real);
        }
        // PunctuationAnalyzer
        if lem.uni.is_punctuation(word) {
            return shape(lem.tag_pnct);
        }
        // [RomanNumberAnalyzer, LatinAnalyzer]
        let mut res = Vec::new();
        if super::shapes::is_roman(word) {
            res.extend(shape(lem.tag_romn));
        }
        if lem.uni.is_latin(word) {
            res.extend(shape(lem.tag_latn));
        }
        if !res.is_empty() {
            return res;
        }
        let mut seen = Seen::new();
        let res = self.hyphen_particle(word, &mut seen);
        if !res.is_empty() {
            return res;
        }
        if self.hyphen_adverb(word) {
            return vec![Parse {
                word: word.to_string(),
                tag: lem.tag_advb,
                nf: word.to_string(),
                para: ParaKey::None,
            }];
        }
        let res = self.hyphenated_words(word);
        if !res.is_empty() {
            return res;
        }
        let res = self.known_prefix(word, &mut seen);
        if !res.is_empty() {
            return res;
        }
        // [UnknownPrefixAnalyzer, KnownSuffixAnalyzer]
        let mut res = self.unknown_prefix(word, &mut seen);
        res.extend(self.known_suffix(word, &mut seen));
        if !res.is_empty() {
            return res;
        }
        // UnknAnalyzer
        shape(lem.tag_unkn)
    }

    /// DictionaryAnalyzer.parse (`raw`: without MorphAnalyzer's P(t|w) re-ordering).
    fn dictionary(&self, word: &str, raw: bool) -> Vec<Parse> {
        let lem = self.lem;
        let Some(list) = lem.lookup(word, raw) else {
            return Vec::new();
        };
        list.iter()
            .map(|&Entry { para, idx, mask }| {
                let fixed = super::with_yo(word, mask).into_owned();
                Parse {
                    nf: lem.build_normal_form(para, idx, &fixed),
                    word: fixed,
                    tag: lem.tag_of(para, idx),
                    para: ParaKey::Para(para),
                }
            })
            .collect()
    }

    /// HyphenSeparatedParticleAnalyzer: `смотри-ка` → parse(`смотри`) + `-ка` (first matching particle only).
    fn hyphen_particle(&mut self, word: &str, seen: &mut Seen) -> Vec<Parse> {
        let mut out = Vec::new();
        if !word.contains('-') {
            return out;
        }
        let lem = self.lem;
        let Some((base, particle)) = lem.particles.iter().find_map(|p| {
            let base = word.strip_suffix(p.as_str())?;
            (!base.is_empty()).then_some((base, p))
        }) else {
            return out;
        };
        for p in self.parse(base).iter() {
            let q = Parse {
                word: format!("{}{particle}", p.word),
                tag: p.tag,
                nf: format!("{}{particle}", p.nf),
                para: p.para,
            };
            add_if_not_seen(q, &mut out, seen);
        }
        out
    }

    /// HyphenAdverbAnalyzer: `по-` + a word with an ADJF,sing,datv parse.
    fn hyphen_adverb(&mut self, word: &str) -> bool {
        if char_len(word) < 5 {
            return false;
        }
        let Some(rest) = word.strip_prefix("по-") else {
            return false;
        };
        let lem = self.lem;
        self.parse(rest)
            .iter()
            .any(|p| lem.flags(p.tag) & ADJF_SING_DATV != 0)
    }

    /// HyphenatedWordsAnalyzer: both parts inflected alike, then the left part as a fixed prefix.
    fn hyphenated_words(&mut self, word: &str) -> Vec<Parse> {
        let lem = self.lem;
        if !word.contains('-')
            || word.starts_with('-')
            || word.ends_with('-')
            || word.matches('-').count() != 1
            || lem
                .known_prefixes
                .iter()
                .any(|p| word.starts_with(p.as_str()))
        {
            return Vec::new();
        }
        let Some((left, right)) = word.split_once('-') else {
            return Vec::new();
        };
        let lp = self.parse(left);
        let rp = self.parse(right);
        let mut out = Vec::new();
        for l in lp.iter() {
            if lem.flags(l.tag) & UNKNOWN_POS != 0 {
                continue;
            }
            let lf = lem.features(l.tag);
            for r in rp.iter() {
                if lem.features(r.tag) != lf {
                    continue;
                }
                self.opaque += 1;
                out.push(Parse {
                    word: format!("{}-{}", l.word, r.word),
                    tag: l.tag,
                    nf: format!("{}-{}", l.nf, r.nf),
                    para: ParaKey::Opaque(self.opaque),
                });
            }
        }
        for r in rp.iter() {
            if lem.flags(r.tag) & UNKNOWN_POS != 0 {
                continue;
            }
            self.opaque += 1;
            out.push(Parse {
                word: format!("{left}-{}", r.word),
                tag: r.tag,
                nf: format!("{left}-{}", r.nf),
                para: ParaKey::Opaque(self.opaque),
            });
        }
        out
    }

    /// KnownPrefixAnalyzer: the longest known prefixes first, the remainder (≥ 3 characters) parsed by the
    /// whole chain; productive parses only.
    fn known_prefix(&mut self, word: &str, seen: &mut Seen) -> Vec<Parse> {
        let lem = self.lem;
        let mut prefixes: Vec<&String> = lem
            .known_prefixes
            .iter()
            .filter(|p| word.starts_with(p.as_str()))
            .collect();
        prefixes.sort_by_key(|p| std::cmp::Reverse(char_len(p)));
        let mut out = Vec::new();
        for prefix in prefixes {
            let rest = &word[prefix.len()..];
            if char_len(rest) < 3 {
                continue;
            }
            for p in self.parse(rest).iter() {
                if lem.flags(p.tag) & PRODUCTIVE != 0 {
                    add_if_not_seen(p.prefixed(prefix), &mut out, seen);
                }
            }
        }
        out
    }

    /// UnknownPrefixAnalyzer: prefixes of 1..=5 characters (remainder ≥ 3), the remainder looked up in the
    /// dictionary (raw order); productive parses only.
    fn unknown_prefix(&self, word: &str, seen: &mut Seen) -> Vec<Parse> {
        let lem = self.lem;
        let len = char_len(word);
        let max_split = len.saturating_sub(3).min(5);
        let mut out = Vec::new();
        for i in 1..=max_split {
            let at = byte_at(word, i);
            let (prefix, rest) = word.split_at(at);
            for p in self.dictionary(rest, true) {
                if lem.flags(p.tag) & PRODUCTIVE != 0 {
                    add_if_not_seen(p.prefixed(prefix), &mut out, seen);
                }
            }
        }
        out
    }

    /// KnownSuffixAnalyzer: for each paradigm prefix the word starts with (last first), the longest word
    /// ending (5..=1 characters) with productive predictions; scored count / total count, stable-sorted.
    fn known_suffix(&self, word: &str, seen: &mut Seen) -> Vec<Parse> {
        let lem = self.lem;
        let len = char_len(word);
        if len < 4 {
            return Vec::new();
        }
        let n = lem.preds.len();
        let mut totals = vec![1u64; n];
        let mut found: Vec<(u32, Parse, usize)> = Vec::new();
        for prefix_id in (0..n).rev() {
            if !word.starts_with(lem.prefixes[prefix_id].as_str()) {
                continue;
            }
            for i in (1..=5usize).rev() {
                let at = byte_at(word, len.saturating_sub(i));
                let (start, end) = word.split_at(at);
                for e in lem.predictions(prefix_id, end) {
                    let tag = lem.tag_of(e.para, e.idx);
                    if lem.flags(tag) & PRODUCTIVE == 0 {
                        continue;
                    }
                    totals[prefix_id] += e.count as u64;
                    let fixed = format!("{start}{}", super::with_yo(end, e.mask));
                    if !seen.insert((fixed.clone(), tag, ParaKey::Para(e.para))) {
                        continue;
                    }
                    let nf = lem.build_normal_form(e.para, e.idx, &fixed);
                    found.push((
                        e.count,
                        Parse {
                            word: fixed,
                            tag,
                            nf,
                            para: ParaKey::Para(e.para),
                        },
                        prefix_id,
                    ));
                }
                if totals[prefix_id] > 1 {
                    break;
                }
            }
        }
        let mut scored: Vec<(f64, Parse)> = found
            .into_iter()
            .map(|(cnt, p, pid)| (cnt as f64 / totals[pid] as f64 * 0.5, p))
            .collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0));
        scored.into_iter().map(|(_, p)| p).collect()
    }
}
