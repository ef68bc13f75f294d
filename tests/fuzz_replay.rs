//! CI replay of the fuzz corpus: every file in fuzz/corpus/<target>/ goes through
//! its target's body (`dropscore::fuzzing`, the same function the cargo-fuzz binary calls), under plain
//! `cargo test` on stable. A target without a corpus folder, or with an empty one, fails; so does a corpus
//! folder or a cargo-fuzz binary without a target, and any panic (the failing file is named).

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz")
}

fn names_in(dir: &Path, strip: &str) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .filter_map(|n| n.strip_suffix(strip).map(str::to_string))
        .collect();
    v.sort();
    v
}

#[test]
fn every_target_has_a_binary_and_a_corpus() {
    let mut targets: Vec<String> = dropscore::fuzzing::TARGETS
        .iter()
        .map(|t| t.0.to_string())
        .collect();
    targets.sort();
    assert_eq!(
        names_in(&root().join("fuzz_targets"), ".rs"),
        targets,
        "fuzz/fuzz_targets/*.rs and dropscore::fuzzing::TARGETS differ"
    );
    assert_eq!(
        names_in(&root().join("corpus"), ""),
        targets,
        "fuzz/corpus/* and dropscore::fuzzing::TARGETS differ"
    );
    let cargo = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    for t in &targets {
        assert!(
            cargo.contains(&format!("name = \"{t}\"")),
            "{t}: no [[bin]] in fuzz/Cargo.toml"
        );
        assert!(
            readme.contains(&format!("`{t}`")),
            "{t}: not listed in fuzz/README.md"
        );
    }
}

#[test]
fn corpus_replays_without_panics() {
    let started = std::time::Instant::now();
    let mut total = 0;
    for (name, body) in dropscore::fuzzing::TARGETS {
        let dir = root().join("corpus").join(name);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("fuzz/corpus/{name}: {e}"))
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| p.is_file())
            .collect();
        files.sort();
        assert!(!files.is_empty(), "fuzz/corpus/{name} has no seed");
        let t = std::time::Instant::now();
        for f in &files {
            let data = std::fs::read(f).unwrap();
            let shown = f.strip_prefix(root()).unwrap_or(f).display().to_string();
            if std::panic::catch_unwind(|| body(&data)).is_err() {
                panic!("{shown}: target {name} panicked (reproduce: scripts/fuzz {name} with this file)");
            }
        }
        total += files.len();
        eprintln!(
            "{name}: {} files in {:.2} s",
            files.len(),
            t.elapsed().as_secs_f64()
        );
    }
    eprintln!(
        "replayed {total} corpus files in {:.1} s",
        started.elapsed().as_secs_f64()
    );
}
