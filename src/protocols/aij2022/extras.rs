//! What aij2022 adds beyond its report: its page view (`www/views/aij2022.js`), the Russian dictionary its text
//! tasks lemmatise with ([`LEMMAS`], `ru-lemmas.bin`), and the FID warm-up of the page.

use crate::input::FileSet;
use crate::lemma::Lemmatizer;
use crate::protocols::views::{Asset, Extras};
use crate::protocols::Request;
use std::sync::Arc;

pub static EXTRAS: Extras = Extras {
    page_view: true,
    views: &[],
    assets: &[LEMMAS],
    warm_up: Some(warm_up),
    commands: &[],
};

/// The built-in lemmatiser's dictionary (src/lemma): without it, words the `lemma_table` option does not
/// place keep their form and the report says `aij.lemma.unknown` (scores not bit-exact). scripts/start builds
/// it after serving the page.
pub const LEMMAS: Asset = Asset {
    name: "lemma",
    file: "ru-lemmas.bin",
    label: "the Russian dictionary",
    size_hint: 12_400_000,
    needed_after: "aij.lemma.unknown",
    without: "lemmas are approximate",
    missing: [
        "The Russian dictionary is still being built",
        " (scripts/start builds it after serving the page; a few minutes, log: target/lemma-build.log). \
         Meanwhile ImageGeneration (FID) and every other protocol are exact; the text tasks score without \
         lemmas and say “not bit-exact”. This note changes when the dictionary is ready.",
    ],
    ready: [
        "The Russian dictionary is ready:",
        " aij2022’s text tasks are available and exact. Score them again if you scored before.",
    ],
    cli_flag: "lemmas",
    env: "DROPSCORE_LEMMAS",
    load: |bytes, req: &mut Request| {
        let lem = Lemmatizer::from_bytes(bytes)?;
        let meta = lem.meta().to_string();
        req.lemmatizer = Some(Arc::new(lem));
        Ok(meta)
    },
    loaded: |req| req.lemmatizer.is_some(),
};

/// Before the first score of FID inputs (`.npy`/`.npz`): FID's linear algebra once on small matrices (d = 300,
/// ~0.2 s; `metrics::aij::fid::exercise`), so that V8 has compiled it with its optimising tier before the one
/// long call on 2048-d inputs (~2 s saved).
fn warm_up(files: &FileSet) -> bool {
    let fid = files.entries.iter().any(|e| {
        let p = e.path.to_ascii_lowercase();
        p.ends_with(".npy") || p.ends_with(".npz")
    });
    if fid {
        std::hint::black_box(crate::metrics::aij::fid::exercise(300));
    }
    fid
}
