//! Hostile PNG chunks: an 8×8 mask or label map whose `iCCP` colour profile or `zTXt` text inflates to
//! gigabytes is read without inflating it (segmentation, fest, and the manifest of each), under the peak
//! bound of tests/hostile.rs; a palette label map without `PLTE`, or with indices beyond it, gets a located
//! warning. Run with `cargo test --release --test suite hostile_png::`.

mod common;
mod hostile_common;
use hostile_common::bombs::{png, zlib_bomb};
use hostile_common::{run, write, Outcome, PEAK_BOUND_KB};

fn report(o: &Outcome) -> serde_json::Value {
    serde_json::from_str(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}\n{}", o.stdout, o.stderr))
}

fn bounded(o: &Outcome, what: &str) {
    let kb = o.peak_kb.unwrap_or(0);
    eprintln!(
        "{what}: exit {}, peak resident memory {} MiB",
        o.code,
        kb / 1024
    );
    assert!(kb < PEAK_BOUND_KB, "{what}: peak {kb} KiB over the bound");
}

#[test]
fn ancillary_bombs_are_never_inflated() {
    // 4 GiB of profile (4 MB on disk) and 4 GiB of compressed text, each in an 8×8 gray PNG.
    let iccp = zlib_bomb(b"bomb\0\0", 4096);
    let ztxt = zlib_bomb(b"Comment\0\0", 4096);
    let zeros = [0u8; 64];
    let gt = write("seg_gt.png", &png(8, 8, 0, &zeros, &[]));
    for (name, kind, data) in [
        ("iccp_bomb.png", b"iCCP", &iccp),
        ("ztxt_bomb.png", b"zTXt", &ztxt),
    ] {
        let bomb = write(name, &png(8, 8, 0, &zeros, &[(kind, data)]));
        let o = run(&[
            "segmentation",
            "--gt",
            &gt,
            "--pred",
            &bomb,
            "--set",
            "num_classes=2",
            "--format",
            "json",
        ]);
        assert_eq!(o.code, 0, "{}\n{}", o.stdout, o.stderr);
        assert_eq!(report(&o)["scores"]["mIoU"], 1.0, "{}", o.stdout);
        bounded(&o, &format!("segmentation {name}"));
        let o = run(&[
            "manifest",
            "segmentation",
            "--gt",
            &bomb,
            "--set",
            "num_classes=2",
        ]);
        assert_eq!(o.code, 0, "{}\n{}", o.stdout, o.stderr);
        assert!(o.stdout.contains("\"width\":8"), "{}", o.stdout);
        bounded(&o, &format!("segmentation manifest {name}"));
        let o = run(&["fest", "--gt", &bomb, "--pred", &bomb, "--format", "json"]);
        assert!(o.code == 0 || o.code == 1, "{}\n{}", o.stdout, o.stderr);
        assert!(!o.stdout.contains("bad_png"), "{}", o.stdout);
        bounded(&o, &format!("fest {name}"));
        let o = run(&["manifest", "fest", "--gt", &bomb]);
        assert_eq!(o.code, 0, "{}\n{}", o.stdout, o.stderr);
        bounded(&o, &format!("fest manifest {name}"));
    }
}

#[test]
fn palette_label_maps_without_their_palette_are_located() {
    let idx: Vec<u8> = (0..64).map(|i| (i % 2) as u8).collect();
    let gt = write("pal_gt.png", &png(8, 8, 0, &idx, &[]));
    let plte = [0u8, 0, 0, 255, 255, 255];
    for (name, pred, code) in [
        (
            "pal_none.png",
            png(8, 8, 3, &idx, &[]),
            "segmentation.png_no_palette",
        ),
        (
            "pal_short.png",
            png(8, 8, 3, &idx, &[(b"PLTE", &plte[..3])]),
            "segmentation.png_palette_index",
        ),
    ] {
        let p = write(name, &pred);
        let o = run(&[
            "segmentation",
            "--gt",
            &gt,
            "--pred",
            &p,
            "--set",
            "num_classes=2",
            "--format",
            "json",
        ]);
        assert_eq!(o.code, 0, "{}\n{}", o.stdout, o.stderr);
        let r = report(&o);
        let d = r["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["code"] == code)
            .unwrap_or_else(|| panic!("no {code}: {}", o.stdout));
        assert_eq!(d["severity"], "warning");
        assert!(d["file"].as_str().unwrap().ends_with(name), "{d}");
        assert!(
            d["offset"].is_u64() || d["pixel"] == serde_json::json!([1, 0]),
            "{d}"
        );
        // The indices are the values (Pillow's reading): scored as the GT.
        assert_eq!(r["scores"]["mIoU"], 1.0);
    }
    // A full palette: no warning.
    let p = write("pal_ok.png", &png(8, 8, 3, &idx, &[(b"PLTE", &plte)]));
    let o = run(&[
        "segmentation",
        "--gt",
        &gt,
        "--pred",
        &p,
        "--set",
        "num_classes=2",
        "--format",
        "json",
    ]);
    assert!(!o.stdout.contains("png_"), "{}", o.stdout);
}
