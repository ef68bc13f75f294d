//! The input layer: zips (stored, deflate, nested), `.gz`, junk entries, role detection, zip-bomb limits.

mod common;
use common::*;
use dropscore::input::{FileSet, Input, Limits, Role, RoleFrom};
use dropscore::Mode::Official;
use std::io::Write;
use zip::write::SimpleFileOptions;
use zip::CompressionMethod;

fn read(rel: &str) -> Vec<u8> {
    std::fs::read(data(rel)).unwrap()
}

fn zip_of(entries: &[(&str, Vec<u8>)], method: CompressionMethod) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, bytes) in entries {
        w.start_file(
            *name,
            SimpleFileOptions::default().compression_method(method),
        )
        .unwrap();
        w.write_all(bytes).unwrap();
    }
    w.finish().unwrap().into_inner()
}

fn gz(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

fn sample_pair() -> (Vec<u8>, Vec<u8>) {
    (
        read("kws/rusteval/GroundTruthRelevanceJudgementsSample.xml"),
        read("kws/rusteval/WordSpottingResultsSample.xml"),
    )
}

#[test]
fn codalab_zip_with_ref_and_res_folders_and_junk() {
    let (gt, res) = sample_pair();
    for method in [CompressionMethod::Stored, CompressionMethod::Deflated] {
        let z = zip_of(
            &[
                ("input/ref/gt.xml", gt.clone()),
                ("input/res/results.xml", res.clone()),
                ("__MACOSX/input/res/._results.xml", vec![0; 10]),
                ("input/.DS_Store", vec![1, 2]),
            ],
            method,
        );
        // No explicit role: the ref/res folder names decide.
        let r = score_inputs("kws", vec![bytes_input("sub.zip", None, z)], Official, &[]);
        assert_eq!(
            headline5(&r),
            ["0.90000", "0.50000", "0.51852"],
            "{method:?} {:?}",
            codes(&r)
        );
        let ignored: Vec<_> = r
            .diagnostics
            .iter()
            .filter(|d| d.code == "input.ignored_file")
            .map(|d| d.file.clone().unwrap())
            .collect();
        assert_eq!(ignored.len(), 2, "{ignored:?}");
        assert!(ignored.iter().any(|f| f == "sub.zip!input/.DS_Store"));
    }
}

#[test]
fn roles_from_paths_and_content() {
    let (gt, res) = sample_pair();
    let set = FileSet::build(
        vec![
            bytes_input("x/ref/a.xml", None, gt.clone()),
            bytes_input("x/res/b.xml", None, res.clone()),
        ],
        &Limits::default(),
    );
    assert_eq!(set.entries[0].role, Some(Role::Gt));
    assert_eq!(set.entries[0].role_from, Some(RoleFrom::PathName));
    // No hint at all: content sniffing decides.
    let r = score_inputs(
        "kws",
        vec![
            bytes_input("a.xml", None, res.clone()),
            bytes_input("b.xml", None, gt.clone()),
        ],
        Official,
        &[],
    );
    assert_eq!(headline5(&r), ["0.90000", "0.50000", "0.51852"]);
    // Dropped the wrong way round: the shell's error `input.swapped` first, nothing scored (tests/swapped.rs).
    let r = score_inputs(
        "kws",
        vec![
            bytes_input("a.xml", Some(Role::Gt), res.clone()),
            bytes_input("b.xml", Some(Role::Pred), gt.clone()),
        ],
        Official,
        &[],
    );
    assert_eq!(r.diagnostics[0].code, "input.swapped");
    assert!(r.diagnostics[0].is_error() && r.scores.is_empty());
    // One file on the wrong side next to the right one: kws's own sniffing settles it, with an info.
    let r = score_inputs(
        "kws",
        vec![
            bytes_input("a.xml", Some(Role::Pred), gt.clone()),
            bytes_input("b.xml", Some(Role::Pred), res.clone()),
        ],
        Official,
        &[],
    );
    assert_eq!(headline5(&r), ["0.90000", "0.50000", "0.51852"]);
    assert!(has(&r, "kws.input.swapped"));
    // Only one role present.
    let r = score_inputs(
        "kws",
        vec![bytes_input("a.xml", Some(Role::Pred), res.clone())],
        Official,
        &[],
    );
    assert!(has(&r, "kws.input.missing_role") && r.has_errors());
    // Mixed families.
    let run = read("kws/trec/sample.run");
    let r = score_inputs(
        "kws",
        vec![
            bytes_input("gt.xml", Some(Role::Gt), gt),
            bytes_input("run.txt", Some(Role::Pred), run),
        ],
        Official,
        &[],
    );
    assert!(has(&r, "kws.input.mixed_families"));
    let d = r
        .diagnostics
        .iter()
        .find(|d| d.code == "kws.input.mixed_families")
        .unwrap();
    assert!(d.hint.as_deref().unwrap().contains("dropscore kws convert"));
}

#[test]
fn gz_files_and_gz_inside_zip_and_nested_zip() {
    let (gt, res) = sample_pair();
    let r = score_inputs(
        "kws",
        vec![
            bytes_input("gt.xml.gz", Some(Role::Gt), gz(&gt)),
            bytes_input("res.xml.gz", Some(Role::Pred), gz(&res)),
        ],
        Official,
        &[],
    );
    assert_eq!(headline5(&r), ["0.90000", "0.50000", "0.51852"]);
    let inner = zip_of(&[("res.xml.gz", gz(&res))], CompressionMethod::Deflated);
    let outer = zip_of(
        &[("gt/gt.xml", gt.clone()), ("pred/inner.zip", inner)],
        CompressionMethod::Deflated,
    );
    let set = FileSet::build(
        vec![bytes_input("all.zip", None, outer)],
        &Limits::default(),
    );
    let paths: Vec<&str> = set.entries.iter().map(|e| e.path.as_str()).collect();
    assert_eq!(
        paths,
        ["all.zip!gt/gt.xml", "all.zip!pred/inner.zip!res.xml.gz"]
    );
    assert_eq!(set.entries[1].role, Some(Role::Pred));
    assert_eq!(set.entries[1].name(), "res.xml");
    let r = score_inputs(
        "kws",
        vec![bytes_input(
            "all.zip",
            None,
            zip_of(
                &[("ref/gt.xml", gt), ("res/r.xml.gz", gz(&res))],
                CompressionMethod::Deflated,
            ),
        )],
        Official,
        &[],
    );
    assert_eq!(headline5(&r), ["0.90000", "0.50000", "0.51852"]);
}

#[test]
fn zip_bombs_and_broken_archives_are_refused_with_a_message() {
    let zeros = vec![0u8; 8 << 20];
    let z = zip_of(&[("big.xml", zeros.clone())], CompressionMethod::Deflated);
    let limits = Limits {
        max_ratio: 100,
        ratio_floor: 1 << 20,
        ..Limits::default()
    };
    let set = FileSet::build(
        vec![Input {
            path: "bomb.zip".into(),
            role: None,
            blob: std::rc::Rc::new(z),
        }],
        &limits,
    );
    assert!(set.entries.is_empty());
    let d = set
        .diagnostics
        .iter()
        .find(|d| d.code == "input.limit")
        .expect("refused");
    assert!(d.message.contains("zip bomb"), "{}", d.message);
    // A .gz that inflates past its limit fails while reading, with the same explanation.
    let g = gz(&zeros);
    let limits = Limits {
        max_ratio: 100,
        ratio_floor: 1 << 20,
        ..Limits::default()
    };
    let set = FileSet::build(
        vec![Input {
            path: "bomb.xml.gz".into(),
            role: None,
            blob: std::rc::Rc::new(g),
        }],
        &limits,
    );
    let err = set.entries[0].read_all().unwrap_err();
    assert!(err.to_string().contains("zip bomb"), "{err}");
    // Truncated archive: located error, no panic.
    let z = zip_of(&[("a.xml", vec![b'a'; 1000])], CompressionMethod::Deflated);
    for cut in [10, z.len() / 2, z.len() - 5] {
        let set = FileSet::build(
            vec![bytes_input("cut.zip", None, z[..cut].to_vec())],
            &Limits::default(),
        );
        let d = set
            .diagnostics
            .iter()
            .find(|d| d.code == "input.zip.invalid")
            .unwrap_or_else(|| panic!("cut {cut}: {:?}", set.diagnostics));
        assert_eq!(d.file.as_deref(), Some("cut.zip"));
        assert!(set.entries.is_empty());
    }
}

#[test]
fn every_fixture_through_every_mode_never_panics() {
    let dir = data("kws/edge");
    let files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    for a in &files {
        for b in &files {
            for mode in [dropscore::Mode::Official, dropscore::Mode::Corrected] {
                let r = score_inputs(
                    "kws",
                    vec![
                        bytes_input("a", Some(Role::Gt), std::fs::read(a).unwrap()),
                        bytes_input("b", Some(Role::Pred), std::fs::read(b).unwrap()),
                    ],
                    mode,
                    &[],
                );
                assert_eq!(r.schema, 1);
            }
        }
    }
}

/// A chalearn-ce category whose zip member is corrupt: the read error names the member, and
/// the category is not scored as if its file were there (no "N GT images missing from this file" follow-on).
#[test]
fn corrupt_zip_member_is_unreadable_not_empty() {
    let res = read("chalearn-ce/ap_example/input/res/La_Tomatina.txt");
    let body: Vec<u8> = res.iter().cycle().take(res.len() * 40).copied().collect();
    let mut z = zip_of(&[("La_Tomatina.txt", body)], CompressionMethod::Deflated);
    // Flip bytes inside the deflate stream: 30-byte local header + the 15-byte name, then a few bytes in.
    for b in &mut z[30 + 15 + 8..30 + 15 + 12] {
        *b ^= 0xff;
    }
    for mode in [Official, dropscore::Mode::Corrected] {
        let r = score_inputs(
            "chalearn-ce",
            vec![
                input(
                    "chalearn-ce/ap_example/input/ref/La_Tomatina_test.txt",
                    Some(Role::Gt),
                ),
                bytes_input("res.zip", Some(Role::Pred), z.clone()),
            ],
            mode,
            &[("expected_categories", "1")],
        );
        let first = &r.diagnostics[0];
        assert_eq!(first.code, "input.read_error", "{:?}", codes(&r));
        assert_eq!(first.file.as_deref(), Some("res.zip!La_Tomatina.txt"));
        assert!(!has(&r, "chalearn.res.missing_images"), "{:?}", codes(&r));
        assert_eq!(r.scores.get("map"), None);
    }
}

/// A 1-row gray PNG of `values`.
fn gray_png(values: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, values.len() as u32, 1);
    enc.set_color(png::ColorType::Grayscale);
    enc.set_depth(png::BitDepth::Eight);
    enc.write_header()
        .unwrap()
        .write_image_data(values)
        .unwrap();
    out
}

/// Scores `n` generated GT and prediction masks (`gt/` and `res/` folders of a temporary directory) with the
/// command line under `ulimit -n 256`; returns the exit status and the JSON report.
fn segmentation_under_256_descriptors(n: usize, tag: &str) -> (i32, serde_json::Value) {
    let dir = std::env::temp_dir().join(format!("dropscore-fds-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for sub in ["gt", "res"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
    }
    for k in 0..n {
        let v = (k % 2) as u8;
        std::fs::write(dir.join(format!("gt/{k:06}.png")), gray_png(&[v, 1])).unwrap();
        std::fs::write(dir.join(format!("res/{k:06}.png")), gray_png(&[v, 0])).unwrap();
    }
    let script = format!(
        "ulimit -n 256 && exec '{}' segmentation --gt '{}' --pred '{}' --set num_classes=2 --format json",
        cli::exe().display(),
        dir.join("gt").display(),
        dir.join("res").display()
    );
    let out = std::process::Command::new("sh")
        .args(["-c", &script])
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let report = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!("{e}: {}", String::from_utf8_lossy(&out.stderr));
    });
    (out.status.code().unwrap_or(-1), report)
}

/// Every file is opened when it is read and closed after: 1,500 masks each side (3,000 files) score under a
/// limit of 256 open descriptors, every image counted.
#[cfg(unix)]
#[test]
fn many_files_under_a_low_descriptor_limit() {
    check_many_files(1_500, "1500");
}

/// As [`many_files_under_a_low_descriptor_limit`] with 100,000 masks each side (200,000 files). Ignored by
/// default: writing and removing the files takes minutes on a slow disk (`cargo test -- --ignored`).
#[cfg(unix)]
#[test]
#[ignore]
fn hundred_thousand_files_under_a_low_descriptor_limit() {
    check_many_files(100_000, "100k");
}

#[cfg(unix)]
fn check_many_files(n: usize, tag: &str) {
    let (status, report) = segmentation_under_256_descriptors(n, tag);
    let diags = &report["diagnostics"];
    assert_eq!(status, 0, "{n} files: {diags}");
    assert!(
        !diags.to_string().contains("input.read_error"),
        "{n} files: {diags}"
    );
    let images = report["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["group"] == "image")
        .count();
    assert_eq!(images, n, "{n} files");
    // Pixel accuracy: the first pixel of each image right, the second wrong.
    assert_eq!(report["scores"]["aAcc"].as_f64(), Some(0.5), "{n} files");
}

/// A CSV saved as UTF-16 (a spreadsheet's "Unicode text") is named as UTF-16, with the fix, whether it
/// starts with a byte-order mark or not.
#[test]
fn utf16_csv_is_named_utf16() {
    let text = "id,label\na,0\nb,1\n";
    let le: Vec<u8> = text.encode_utf16().flat_map(|u| u.to_le_bytes()).collect();
    let be: Vec<u8> = text.encode_utf16().flat_map(|u| u.to_be_bytes()).collect();
    for (what, bytes) in [
        ("LE with BOM", [vec![0xff, 0xfe], le.clone()].concat()),
        ("BE with BOM", [vec![0xfe, 0xff], be.clone()].concat()),
        ("LE", le),
        ("BE", be),
    ] {
        let r = score_inputs(
            "classification",
            vec![
                bytes_input("gt.csv", Some(Role::Gt), text.as_bytes().to_vec()),
                bytes_input("pred.csv", Some(Role::Pred), bytes),
            ],
            Official,
            &[],
        );
        let d = r
            .diagnostics
            .iter()
            .find(|d| d.file.as_deref() == Some("pred.csv"))
            .unwrap_or_else(|| panic!("{what}: no diagnostic on pred.csv"));
        assert!(
            d.message.contains("UTF-16 text: save the file as UTF-8"),
            "{what}: {}",
            d.message
        );
        assert!(!d.message.contains("binary"), "{what}: {}", d.message);
    }
}

/// An id in another Unicode form (NFD for NFC) or with a zero-width character is named as such, both
/// spellings shown and the invisible character written as a code point, not as two identical-looking ids.
#[test]
fn lookalike_ids_are_explained() {
    let gt = "id,label\ncaf\u{e9},0\nxy,1\nplain,1\n";
    let pred = "id,label\ncafe\u{301},0\nx\u{200B}y,1\nplain,1\n";
    let r = score_inputs(
        "classification",
        vec![
            bytes_input("gt.csv", Some(Role::Gt), gt.as_bytes().to_vec()),
            bytes_input("pred.csv", Some(Role::Pred), pred.as_bytes().to_vec()),
        ],
        Official,
        &[],
    );
    let unknown: Vec<&str> = r
        .diagnostics
        .iter()
        .filter(|d| d.code == "classification.unknown_id")
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(unknown.len(), 2, "{unknown:?}");
    assert!(
        unknown[0].contains(
            "`cafe\u{301}` (NFD) in the submission, `caf\u{e9}` (NFC) in the ground truth"
        ),
        "{}",
        unknown[0]
    );
    assert!(
        unknown[1].contains("`x\\u{200B}y` in the submission, `xy` in the ground truth"),
        "{}",
        unknown[1]
    );
}
