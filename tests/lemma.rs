//! The built-in Russian lemmatiser (src/lemma) on the aij2022 fixtures' words and a few analyzer cases,
//! against pymorphy3's normal forms (tests/data/lemma/fixture_lemmas.tsv). Needs the asset
//! www/assets/ru-lemmas.bin, which scripts/ensure-tools builds. The large parity runs (100,000 dictionary
//! forms, 20,000 unknown forms) are tests/reference/lemma_diff.py.

use dropscore::lemma::Lemmatizer;
use std::path::PathBuf;
use std::sync::OnceLock;

fn lemmatizer() -> &'static Lemmatizer {
    static L: OnceLock<Lemmatizer> = OnceLock::new();
    L.get_or_init(|| {
        let path = std::env::var_os("DROPSCORE_LEMMAS")
            .map(PathBuf::from)
            .unwrap_or_else(|| {
                PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("www/assets/ru-lemmas.bin")
            });
        let bytes = std::fs::read(&path).unwrap_or_else(|e| {
            panic!(
                "{}: {e} (build the asset with scripts/ensure-tools)",
                path.display()
            )
        });
        Lemmatizer::from_bytes(&bytes).expect("asset loads")
    })
}

#[test]
fn fixture_words_match_pymorphy3() {
    let text = include_str!("data/lemma/fixture_lemmas.tsv");
    let lem = lemmatizer();
    let mut n = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let (w, want) = line.split_once('\t').expect("word<TAB>normal form");
        assert_eq!(lem.normal_form(w), want, "normal form of {w:?}");
        n += 1;
    }
    assert_eq!(n, 62);
}

#[test]
fn unknown_and_odd_input_never_panics() {
    let lem = lemmatizer();
    let long = "недо".repeat(200);
    let hyphens = "-а-".repeat(100);
    for w in [
        "",
        " ",
        "\u{0}",
        "-",
        "--",
        "по-",
        "-ка",
        "ё",
        "ёёёёёёёёёёёёёёёёёёёёёёёёёёёёёёёёёёёёёё",
        &long,
        &hyphens,
        "𝔘𝔫𝔦",
        "١٢٣",
        "1_000",
        "1e5",
        "inf",
    ] {
        let _ = lem.normal_form(w);
    }
    assert_eq!(lem.normal_form("1_000"), "1_000");
}

#[test]
fn garbage_assets_are_errors() {
    assert!(Lemmatizer::from_bytes(b"").is_err());
    assert!(Lemmatizer::from_bytes(b"DSLEMMA1\x05\x00\x00\x00ab").is_err());
    let mut bytes =
        std::fs::read(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("www/assets/ru-lemmas.bin"))
            .unwrap_or_default();
    bytes.truncate(bytes.len() / 2);
    assert!(Lemmatizer::from_bytes(&bytes).is_err());
}

#[test]
fn deep_prefix_recursion_stays_bounded() {
    // pymorphy recurses once per known prefix; a long run of them must neither overflow nor take long.
    let lem = lemmatizer();
    let w = format!("{}кот", "не".repeat(5000));
    assert_eq!(lem.normal_form(&w), w);
}
