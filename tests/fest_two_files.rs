//! fest layout 1 (docs/specs/fest.md 2.1): one GT PNG and one prediction PNG pair whatever their names, with an
//! info that says so, in both modes; with several images, names decide.

mod common;
use common::fest::fest;
use common::*;
use dropscore::Mode::{Corrected, Official};

fn read(rel: &str) -> Vec<u8> {
    std::fs::read(data(rel)).unwrap()
}

#[test]
fn two_files_pair_whatever_their_names() {
    let (g, p) = (
        read("fest/synthetic/gt/001.png"),
        read("fest/synthetic/pred/001.png"),
    );
    for mode in [Official, Corrected] {
        let same = fest(
            vec![("001.png", g.clone())],
            vec![("001.png", p.clone())],
            mode,
            &[],
        );
        let named = fest(
            vec![("gt.png", g.clone())],
            vec![("pred.png", p.clone())],
            mode,
            &[],
        );
        assert!(!named.has_errors(), "{:?}", named.diagnostics);
        assert!(same.scores.get("line_iu").is_some());
        assert_eq!(named.scores, same.scores, "{mode:?}: the same numbers");
        let d = named
            .diagnostics
            .iter()
            .find(|d| d.code == "fest.input.two_files")
            .expect("an info that says so");
        assert_eq!(d.severity, dropscore::Severity::Info);
        assert_eq!(d.file.as_deref(), Some("pred.png"));
        assert!(!same
            .diagnostics
            .iter()
            .any(|d| d.code == "fest.input.two_files"));
    }
}

#[test]
fn with_several_images_names_still_decide() {
    let (g, p) = (
        read("fest/synthetic/gt/001.png"),
        read("fest/synthetic/pred/001.png"),
    );
    let r = fest(
        vec![("gt/001.png", g.clone()), ("gt/002.png", g)],
        vec![("pred/003.png", p)],
        Official,
        &[],
    );
    assert!(!r
        .diagnostics
        .iter()
        .any(|d| d.code == "fest.input.two_files"));
    assert!(r
        .diagnostics
        .iter()
        .any(|d| d.code == "fest.official.missing_prediction"));
}
