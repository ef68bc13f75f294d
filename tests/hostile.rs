//! Hostile and oversized inputs: each bomb is generated here at test time (a few MB on disk,
//! gigabytes once inflated), run through the release CLI under `/usr/bin/time -v`, and must end in a
//! located refusal (exit 1, the diagnostic code and the file named) with a bounded peak memory.
//!
//! Stated bound: every case below peaks under 400 MiB of resident memory (the default budget is 2 GiB;
//! these refusals happen long before it is approached). Run with `cargo test --release --test suite hostile::`.

mod common;
mod hostile_common;
use hostile_common::bombs::{deflate, deflate_padded};
use hostile_common::{refused, run, tmp, write, PEAK_BOUND_KB};

/// A zip of deflate members (name, raw deflate, uncompressed size). CRCs are left 0: the refusals come
/// before any check of them (a real bomb can carry right ones at no cost).
fn zip(members: &[(&str, Vec<u8>, u64)]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut central = Vec::new();
    for (name, data, usize_) in members {
        let off = out.len() as u32;
        local_header(&mut out, name, data.len() as u32, *usize_ as u32);
        out.extend_from_slice(data);
        central_header(&mut central, name, data.len() as u32, *usize_ as u32, off);
    }
    finish(out, central, members.len())
}

fn local_header(out: &mut Vec<u8>, name: &str, csize: u32, usize_: u32) {
    out.extend_from_slice(&[0x50, 0x4b, 3, 4, 20, 0, 0, 0, 8, 0, 0, 0, 0, 0]);
    out.extend_from_slice(&0u32.to_le_bytes());
    out.extend_from_slice(&csize.to_le_bytes());
    out.extend_from_slice(&usize_.to_le_bytes());
    out.extend_from_slice(&(name.len() as u16).to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out.extend_from_slice(name.as_bytes());
}

fn central_header(out: &mut Vec<u8>, name: &str, csize: u32, usize_: u32, off: u32) {
    out.extend_from_slice(&[0x50, 0x4b, 1, 2, 20, 0, 20, 0, 0, 0, 8, 0, 0, 0, 0, 0]);
    out.extend_from_slice(&0u32.to_le_bytes());
    out.extend_from_slice(&csize.to_le_bytes());
    out.extend_from_slice(&usize_.to_le_bytes());
    out.extend_from_slice(&(name.len() as u16).to_le_bytes());
    out.extend_from_slice(&[0; 8]);
    out.extend_from_slice(&0u32.to_le_bytes());
    out.extend_from_slice(&off.to_le_bytes());
    out.extend_from_slice(name.as_bytes());
}

fn finish(mut out: Vec<u8>, central: Vec<u8>, n: usize) -> Vec<u8> {
    let start = out.len() as u32;
    let n = n.min(0xffff) as u16;
    out.extend_from_slice(&central);
    out.extend_from_slice(&[0x50, 0x4b, 5, 6, 0, 0, 0, 0]);
    out.extend_from_slice(&n.to_le_bytes());
    out.extend_from_slice(&n.to_le_bytes());
    out.extend_from_slice(&(central.len() as u32).to_le_bytes());
    out.extend_from_slice(&start.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out
}

/// A `.gz` of raw deflate `data` inflating to `usize_` bytes (ISIZE modulo 2³², CRC left 0).
fn gz(data: &[u8], usize_: u64) -> Vec<u8> {
    let mut out = vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3];
    out.extend_from_slice(data);
    out.extend_from_slice(&0u32.to_le_bytes());
    out.extend_from_slice(&(usize_ as u32).to_le_bytes());
    out
}

const CE_REF: &str = "chalearn-ce/ap_example/input/ref";
const QRELS: &str = "kws/trec/sample.qrels.bin";

#[test]
fn zip_bomb_entry_is_refused_by_its_declared_size() {
    // 3 GiB of zeros in a 3 MB zip, for chalearn-ce: over the per-file limit (1 GiB, half the budget).
    let z = zip(&[("res/Ball_test.txt", deflate(b"", 0, 3072, b""), 3 << 30)]);
    let p = write("ce_bomb.zip", &z);
    let o = run(&[
        "chalearn-ce",
        "--gt",
        CE_REF,
        "--pred",
        &p,
        "--format",
        "json",
    ]);
    refused(&o, "input.limit", "ce_bomb.zip!res/Ball_test.txt");
}

#[test]
fn gz_bomb_is_refused_while_streaming() {
    // 3 GiB of zeros in a 3 MB .gz for falsid: the shell's file-kind check names it binary data from its first
    // bytes, before anything is inflated further.
    let p = write("gt_bomb.csv.gz", &gz(&deflate(b"", 0, 3072, b""), 3 << 30));
    let args = |p: &str| -> Vec<String> {
        [
            "falsid",
            "--gt",
            p,
            "--pred",
            "falsid/worked/pred_merged.csv",
            "--format",
            "json",
        ]
        .map(String::from)
        .to_vec()
    };
    let a = args(&p);
    let o = run(&a.iter().map(String::as_str).collect::<Vec<_>>());
    refused(&o, "input.wrong_kind", "gt_bomb.csv.gz");
    // 3 GiB of text with no line end: the streaming reader refuses it at the field limit (64 MiB).
    let p = write(
        "gt_text_bomb.csv.gz",
        &gz(&deflate(b"id,label\n", b'a', 3072, b""), 3 << 30),
    );
    let a = args(&p);
    let o = run(&a.iter().map(String::as_str).collect::<Vec<_>>());
    refused(&o, "input.limit", "gt_text_bomb.csv.gz");
}

#[test]
fn long_line_in_a_zipped_run_is_refused_at_its_line() {
    // One 512 MiB line (second line of the file) in a 0.5 MB zip: refused at 64 MiB, never buffered whole.
    let z = zip(&[(
        "run.txt",
        deflate_padded(b"1 Q0 a 1 1.0 x\n", b'a', 512, b"\n", 1000),
        (512 << 20) + 16,
    )]);
    let p = write("run_line.zip", &z);
    let o = run(&["kws", "--gt", QRELS, "--pred", &p, "--format", "json"]);
    refused(&o, "input.limit", "run_line.zip!run.txt");
    let report: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
    let d = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "input.limit")
        .unwrap();
    assert_eq!(d["line"], 2, "{d}");
}

#[test]
fn long_xml_attribute_is_refused_in_both_modes() {
    let head = b"<?xml version=\"1.0\"?>\n<RelevanceListing>\n<Rel queryid=\"";
    let z = zip(&[(
        "res.xml",
        deflate_padded(head, b'q', 512, b"\"></Rel></RelevanceListing>\n", 1000),
        (512 << 20) + 100,
    )]);
    let p = write("xml_line.zip", &z);
    for mode in ["official", "corrected"] {
        let o = run(&[
            "kws",
            "--gt",
            "kws/rusteval/GroundTruthRelevanceJudgementsSample.xml",
            "--pred",
            &p,
            "--mode",
            mode,
            "--format",
            "json",
        ]);
        refused(&o, "input.limit", "xml_line.zip!res.xml");
    }
}

#[test]
fn overlapping_zip_entries_are_refused_at_once() {
    // 100,000 central-directory entries that all point at one 256 MiB member: 6 MB on disk.
    let data = deflate_padded(b"", b'0', 256, b"", 1000);
    let mut out = Vec::new();
    local_header(&mut out, "res/a.txt", data.len() as u32, 256 << 20);
    out.extend_from_slice(&data);
    let mut central = Vec::new();
    for i in 0..100_000 {
        let name = format!("res/{i:06}.txt");
        central_header(&mut central, &name, data.len() as u32, 256 << 20, 0);
    }
    // The count needs zip64 past 65,535 entries; the zip crate reads the 16-bit count, so the archive
    // declares 0xffff and the central directory holds them all (the reader walks the directory).
    let p = write("overlap.zip", &finish(out, central, 100_000));
    let t = std::time::Instant::now();
    let o = run(&[
        "chalearn-ce",
        "--gt",
        CE_REF,
        "--pred",
        &p,
        "--format",
        "json",
    ]);
    assert!(t.elapsed().as_secs() < 30, "{:?}", t.elapsed());
    refused(&o, "input.zip.overlap", "overlap.zip");
}

#[test]
fn whole_file_reads_refuse_beyond_the_budget() {
    // A .gz whose trailer says 3 GiB, read whole by fest: refused before allocating.
    let p = write("page.png.gz", &gz(&deflate(b"", 0, 3072, b""), 3 << 30));
    let o = run(&["fest", "--gt", &p, "--pred", &p, "--format", "json"]);
    refused(&o, "input.limit", "page.png.gz");
}

fn npy(shape: &str, body_bytes: usize) -> Vec<u8> {
    let mut h = format!("{{'descr': '<f4', 'fortran_order': False, 'shape': {shape}, }}");
    while (10 + h.len() + 1) % 64 != 0 {
        h.push(' ');
    }
    h.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend_from_slice(&(h.len() as u16).to_le_bytes());
    out.extend_from_slice(h.as_bytes());
    out.resize(out.len() + body_bytes, 0);
    out
}

#[test]
fn wide_fid_activations_are_refused_before_allocating() {
    for (name, shape, n, d) in [
        ("wide3.npy", "(3, 30000)", 3, 30000),
        ("wide2.npy", "(2, 100000)", 2, 100000),
    ] {
        let p = write(name, &npy(shape, n * d * 4));
        let o = run(&[
            "aij2022",
            "--set",
            "task=generation",
            "--gt",
            &p,
            "--pred",
            &p,
            "--format",
            "json",
        ]);
        refused(&o, "input.limit", name);
    }
}

#[test]
fn wide_fid_statistics_are_refused_before_allocating() {
    // Two .npz of (12000,) and (12000, 12000) float32 zeros: 570 KB each, 576 MB of sigma.
    let d = 12000usize;
    let mu = npy("(12000,)", d * 4);
    let sigma = npy("(12000, 12000)", 0);
    let hl = sigma.len();
    let z = zip(&[
        ("mu.npy", deflate(&mu, 0, 0, b""), mu.len() as u64),
        (
            "sigma.npy",
            deflate_padded(
                &sigma,
                0,
                (d * d * 4) >> 20,
                &vec![0; (d * d * 4) % (1 << 20)],
                1000,
            ),
            (hl + d * d * 4) as u64,
        ),
    ]);
    let a = write("wide_a.npz", &z);
    let b = write("wide_b.npz", &z);
    let o = run(&[
        "aij2022",
        "--set",
        "task=generation",
        "--gt",
        &a,
        "--pred",
        &b,
        "--format",
        "json",
    ]);
    refused(&o, "input.limit", "wide_a.npz");
}

#[test]
fn the_budget_is_raised_or_lowered_with_max_memory() {
    // A 3 MiB line: accepted by the default budget (field limit 64 MiB), refused under max_memory=64MiB
    // (field limit 2 MiB), and the refusal names the budget.
    let mut run_file = b"1 Q0 a 1 1.0 x\n".to_vec();
    run_file.extend(std::iter::repeat_n(b'a', 3 << 20));
    run_file.push(b'\n');
    let p = write("run_3mib.txt", &run_file);
    let o = run(&["kws", "--gt", QRELS, "--pred", &p, "--format", "json"]);
    assert!(!o.stdout.contains("input.limit"), "{}", o.stdout);
    let o = run(&[
        "kws",
        "--gt",
        QRELS,
        "--pred",
        &p,
        "--format",
        "json",
        "--set",
        "max_memory=64MiB",
    ]);
    refused(&o, "input.limit", "run_3mib.txt");
    assert!(o.stdout.contains("field limit of 2 MiB"), "{}", o.stdout);
    let report: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
    assert!(
        report["options"].get("max_memory").is_none(),
        "not written into report.options"
    );
    let o = run(&[
        "kws",
        "--gt",
        QRELS,
        "--pred",
        &p,
        "--set",
        "max_memory=lots",
    ]);
    assert_eq!(o.code, 2, "{}", o.stderr);
}

#[test]
fn yaml_alias_bomb_and_deep_nesting_are_refused() {
    let dir = tmp("yaml");
    std::fs::create_dir_all(&dir).unwrap();
    let mut laughs = String::from("a0: &a0 [\"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\"]\n");
    for i in 1..10 {
        laughs.push_str(&format!(
            "a{i}: &a{i} [{}]\n",
            vec![format!("*a{}", i - 1); 9].join(", ")
        ));
    }
    let deep = "- ".repeat(100_000) + "x\n";
    for (name, text, want) in [
        ("laughs.yaml", laughs, "aliases expand"),
        ("deep.yaml", deep, "nested more than"),
    ] {
        std::fs::write(dir.join(name), text).unwrap();
        let toml = dir.join(format!("{name}.toml"));
        std::fs::write(
            &toml,
            format!("protocol = \"kws\"\n[leaderboard]\ncompetition_yaml = \"{name}\"\n"),
        )
        .unwrap();
        let o = run(&["config", toml.to_str().unwrap()]);
        assert_ne!(o.code, 0, "{}", o.stdout);
        assert!(
            o.code == 1 || o.code == 2,
            "no abort: {}\n{}",
            o.code,
            o.stderr
        );
        assert!(
            o.stderr.contains(want) && o.stderr.contains(name),
            "{}",
            o.stderr
        );
        if let Some(kb) = o.peak_kb {
            assert!(kb < PEAK_BOUND_KB, "peak {kb} KiB");
            eprintln!("{name}: peak resident memory {} MiB", kb / 1024);
        }
    }
}

/// A 1-bit grey PNG of `w`×`h` whose pixel (x, y) is white when `on(x, y)`.
fn png_1bit(w: u32, h: u32, on: impl Fn(u32, u32) -> bool) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, w, h);
        enc.set_color(png::ColorType::Grayscale);
        enc.set_depth(png::BitDepth::One);
        enc.set_compression(png::Compression::High);
        let mut wr = enc.write_header().unwrap();
        let stride = w.div_ceil(8) as usize;
        let mut data = vec![0u8; stride * h as usize];
        for y in 0..h {
            for x in 0..w {
                if on(x, y) {
                    data[y as usize * stride + (x / 8) as usize] |= 0x80 >> (x % 8);
                }
            }
        }
        wr.write_image_data(&data).unwrap();
    }
    out
}

#[test]
fn fest_many_small_components_stay_in_the_budget() {
    // A checkerboard read with connectivity=4 (one component per white pixel, 32 million): refused by
    // the budget before labelling.
    let p = write(
        "checker.png",
        &png_1bit(8000, 8000, |x, y| (x + y) % 2 == 0),
    );
    let o = run(&[
        "fest",
        "--gt",
        &p,
        "--pred",
        &p,
        "--set",
        "connectivity=4",
        "--format",
        "json",
    ]);
    refused(&o, "input.limit", "checker.png");
    // Isolated dots (one pixel in four: 16 million components, 3.1 GB before): refused as well.
    let p = write(
        "dots.png",
        &png_1bit(8000, 8000, |x, y| x % 2 == 0 && y % 2 == 0),
    );
    let o = run(&["fest", "--gt", &p, "--pred", &p, "--format", "json"]);
    refused(&o, "input.limit", "dots.png");
    // 2000×2000 of dots (a million components) is scored, within the estimate the rule uses
    // (13 bytes a pixel + 160 a run = 212 MB) plus the process's own 20 MB.
    let p = write(
        "dots_small.png",
        &png_1bit(2000, 2000, |x, y| x % 2 == 0 && y % 2 == 0),
    );
    let o = run(&["fest", "--gt", &p, "--pred", &p, "--format", "json"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    if let Some(kb) = o.peak_kb {
        eprintln!("dots 2000×2000: peak resident memory {} MiB", kb / 1024);
        assert!(
            kb * 1024 < 4_000_000 * 13 + 1_000_000 * 160 + (20 << 20),
            "{kb} KiB"
        );
    }
}
