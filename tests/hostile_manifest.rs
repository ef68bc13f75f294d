//! A manifest is not a denial of service, and `max_megapixels` never takes a decode past `max_memory`: a
//! manifest declaring 300 images of 64 MP is checked in seconds (only predicted images are built at their
//! size), one declaring an image the budget cannot hold, 200,000 categories or a text larger than the
//! budget is refused naming the manifest (never a GT file the participant does not have); a PNG header
//! declaring 100000×100000 is refused by the budget even with `max_megapixels` raised. Each under the peak
//! bound of tests/hostile.rs. Run with `cargo test --release --test hostile_manifest`.

mod common;
mod hostile_common;
use hostile_common::bombs::png;
use hostile_common::{refused, run, tmp, write, Outcome, PEAK_BOUND_KB};
use std::time::Instant;

fn bounded(o: &Outcome, what: &str) {
    let kb = o.peak_kb.unwrap_or(0);
    eprintln!(
        "{what}: exit {}, peak resident memory {} MiB",
        o.code,
        kb / 1024
    );
    assert!(kb < PEAK_BOUND_KB, "{what}: peak {kb} KiB over the bound");
}

fn manifest(protocol: &str, options: &str, expects: &str) -> String {
    format!(
        "{{\"schema\":1,\"kind\":\"dropscore-manifest\",\"protocol\":\"{protocol}\",\"options\":{options},\"expects\":{expects}}}"
    )
}

const SEG_OPTIONS: &str = "{\"metric\":\"mIoU\",\"num_classes\":\"2\",\"class_names\":null,\"ignore_index\":255,\"reduce_zero_label\":false,\"palette\":null,\"missing\":\"error\",\"max_megapixels\":MP}";

fn seg_manifest(n: usize, w: u64, h: u64, mp: u64) -> String {
    let images: Vec<String> = (0..n)
        .map(|i| format!("{{\"stem\":\"scene_{i}\",\"path\":\"gt/scene_{i}.png\",\"width\":{w},\"height\":{h}}}"))
        .collect();
    manifest(
        "segmentation",
        &SEG_OPTIONS.replace("MP", &mp.to_string()),
        &format!(
            "{{\"images\":[{}],\"num_classes\":2,\"class_names\":[],\"ignore_index\":255}}",
            images.join(",")
        ),
    )
}

fn check(protocol: &str, m: &str, pred: &str) -> Outcome {
    run(&[
        "check",
        protocol,
        "--manifest",
        m,
        "--pred",
        pred,
        "--format",
        "json",
    ])
}

fn diagnostics(o: &Outcome) -> Vec<serde_json::Value> {
    let v: serde_json::Value = serde_json::from_str(&o.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}\n{}", o.stdout, o.stderr));
    v["diagnostics"].as_array().unwrap().clone()
}

#[test]
fn a_manifest_of_many_large_images_is_checked_quickly() {
    // 300 images of 64 MP (it took 103 s); one prediction, 8×8.
    let m = write("seg_300.json", seg_manifest(300, 8000, 8000, 64).as_bytes());
    let pred = tmp("seg_pred");
    std::fs::create_dir_all(&pred).unwrap();
    std::fs::write(pred.join("scene_0.png"), png(8, 8, 0, &[0; 64], &[])).unwrap();
    let t = Instant::now();
    let o = check("segmentation", &m, pred.to_str().unwrap());
    let took = t.elapsed();
    eprintln!("300 × 64 MP manifest: {took:?}");
    assert_eq!(o.code, 1, "{}\n{}", o.stdout, o.stderr);
    let d = diagnostics(&o);
    // The one prediction is the wrong size, as scoring says; the 299 others are missing.
    assert!(
        d.iter().any(|d| d["code"] == "segmentation.size_mismatch"),
        "{d:?}"
    );
    assert!(took.as_secs() < 20, "{took:?}");
    bounded(&o, "300 × 64 MP manifest");
}

#[test]
fn an_image_the_budget_cannot_hold_is_the_manifests_fault() {
    // max_megapixels raised to 100,000 in the manifest, one image of 100000×100000: refused naming the
    // manifest, not "gt/scene_0.png: not a valid PNG".
    let m = write(
        "seg_huge.json",
        seg_manifest(1, 100_000, 100_000, 100_000).as_bytes(),
    );
    let pred = write("scene_0.png", &png(8, 8, 0, &[0; 64], &[]));
    let o = check("segmentation", &m, &pred);
    assert_eq!(o.code, 1, "{}\n{}", o.stdout, o.stderr);
    let d = diagnostics(&o);
    assert!(
        d.iter().all(|d| d["file"] != "gt/scene_0.png"),
        "a GT file the participant does not have: {d:?}"
    );
    let m = d
        .iter()
        .find(|d| d["code"] == "preflight.manifest")
        .unwrap();
    assert!(
        m["message"].as_str().unwrap().contains("--set max_memory="),
        "{m}"
    );
    bounded(&o, "100000×100000 in a manifest");
}

#[test]
fn a_manifest_of_200_000_categories_is_refused() {
    let cats: Vec<String> = (1..=200_000)
        .map(|c| format!("{{\"id\":{c},\"name\":\"c{c}\"}}"))
        .collect();
    let opts = "{\"metric\":\"AP\",\"max_dets\":\"1,10,100\",\"iou_thresholds\":\"0.50:0.05:0.95\",\"area_ranges\":\"all=0:1e10,small=0:1024,medium=1024:9216,large=9216:1e10\",\"use_cats\":true}";
    let m = write(
        "det_200k.json",
        manifest(
            "detection",
            opts,
            &format!(
                "{{\"images\":[{{\"id\":1,\"width\":100,\"height\":100}}],\"categories\":[{}]}}",
                cats.join(",")
            ),
        )
        .as_bytes(),
    );
    let r = write(
        "det_200k_res.json",
        b"[{\"image_id\":1,\"category_id\":1,\"bbox\":[1,1,5,5],\"score\":0.5}]",
    );
    let o = check("detection", &m, &r);
    assert_eq!(o.code, 1, "{}\n{}", o.stdout, o.stderr);
    let d = diagnostics(&o);
    assert!(d.iter().any(|d| d["code"] == "preflight.manifest"), "{d:?}");
    bounded(&o, "200,000-category manifest");
}

#[test]
fn a_manifest_larger_than_the_budget_is_refused_before_parsing() {
    // 4 MB of ids under a 32 MiB budget (a 1.2 GiB string took 2.4 GB under the default one).
    let ids: Vec<String> = (0..400_000).map(|i| format!("\"i{i}\"")).collect();
    let m = write(
        "cls_big.json",
        manifest(
            "classification",
            "{}",
            &format!("{{\"ids\":[{}]}}", ids.join(",")),
        )
        .as_bytes(),
    );
    let p = write("cls_pred.csv", b"id,label\ni0,a\n");
    let o = run(&[
        "check",
        "classification",
        "--manifest",
        &m,
        "--pred",
        &p,
        "--set",
        "max_memory=32MiB",
    ]);
    assert_eq!(o.code, 2, "{}\n{}", o.stdout, o.stderr);
    assert!(
        o.stderr.contains("cls_big.json") && o.stderr.contains("--set max_memory="),
        "{}",
        o.stderr
    );
    bounded(&o, "4 MB manifest under 32 MiB");
}

#[test]
fn max_megapixels_only_lowers_what_max_memory_allows() {
    // A 1 KB PNG declaring 100000×100000 (10 G pixels), max_megapixels raised to 100,000: refused from its
    // header by the budget (it asked for 10 GB and aborted).
    let mut p = png(1, 1, 0, &[0], &[]);
    p[16..20].copy_from_slice(&100_000u32.to_be_bytes());
    p[20..24].copy_from_slice(&100_000u32.to_be_bytes());
    let mut crc = flate2::Crc::new();
    crc.update(&p[12..29]);
    p[29..33].copy_from_slice(&crc.sum().to_be_bytes());
    let big = write("big_header.png", &p);
    let gt = write("small_gt.png", &png(8, 8, 0, &[0; 64], &[]));
    let o = run(&[
        "segmentation",
        "--gt",
        &gt,
        "--pred",
        &big,
        "--set",
        "num_classes=2",
        "--set",
        "max_megapixels=100000",
        "--format",
        "json",
    ]);
    refused(&o, "segmentation.too_large", "big_header.png");
    assert!(o.stdout.contains("max_memory"), "{}", o.stdout);
    let o = run(&[
        "fest",
        "--gt",
        &big,
        "--pred",
        &big,
        "--set",
        "max_megapixels=100000",
        "--format",
        "json",
    ]);
    refused(&o, "fest.input.too_large", "big_header.png");
}
