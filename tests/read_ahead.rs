//! Family CSVs of 1 MiB and more are tokenised ahead on a second thread natively (src/formats/csv_records.rs;
//! the unit test there checks that both ways hand on the same records, batches and diagnostics). Here, the
//! whole path: large files, plain, gzipped and zipped (deflated and stored), in memory and on disk, score as
//! the arrays they hold, and their mistakes are located at their lines and columns.

mod common;

use common::{bytes_input, cli, score_inputs};
use dropscore::input::Role;
use dropscore::{Mode, Report};
use std::io::Write;
use zip::write::SimpleFileOptions;
use zip::CompressionMethod;

const N: usize = 80_000;

/// A GT in id order and a shuffled submission, with the targets and predictions in GT order.
fn files() -> (Vec<u8>, Vec<u8>, Vec<f64>, Vec<f64>) {
    let mut x = 0x5eed_1234_u64;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let t: Vec<f64> = (0..N).map(|_| (next() % 200_000) as f64 / 1000.0).collect();
    let p: Vec<f64> = (0..N).map(|_| (next() % 200_000) as f64 / 1000.0).collect();
    let mut gt = String::from("id,target\n");
    for (i, v) in t.iter().enumerate() {
        gt.push_str(&format!("id{i:06},{v}\n"));
    }
    let mut order: Vec<usize> = (0..N).collect();
    for i in (1..N).rev() {
        order.swap(i, (next() % (i as u64 + 1)) as usize);
    }
    let mut pred = String::from("id,prediction\n");
    for &i in &order {
        pred.push_str(&format!("id{i:06},{}\n", p[i]));
    }
    assert!(gt.len() > 1 << 20 && pred.len() > 1 << 20);
    (gt.into_bytes(), pred.into_bytes(), t, p)
}

/// `bytes` as `name` plain, gzipped, zipped deflated and zipped stored: (path, bytes, how diagnostics name it).
fn containers(name: &str, bytes: &[u8]) -> Vec<(String, Vec<u8>, String)> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(bytes).unwrap();
    let zip = |method| {
        let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        let opts = SimpleFileOptions::default().compression_method(method);
        w.start_file(name, opts).unwrap();
        w.write_all(bytes).unwrap();
        w.finish().unwrap().into_inner()
    };
    vec![
        (name.to_string(), bytes.to_vec(), name.to_string()),
        (
            format!("{name}.gz"),
            gz.finish().unwrap(),
            format!("{name}.gz"),
        ),
        (
            "d.zip".into(),
            zip(CompressionMethod::Deflated),
            format!("d.zip!{name}"),
        ),
        (
            "s.zip".into(),
            zip(CompressionMethod::Stored),
            format!("s.zip!{name}"),
        ),
    ]
}

fn run(gt: &[u8], pred_path: &str, pred: Vec<u8>) -> Report {
    score_inputs(
        "regression",
        vec![
            bytes_input("gt.csv", Some(Role::Gt), gt.to_vec()),
            bytes_input(pred_path, Some(Role::Pred), pred),
        ],
        Mode::Official,
        &[],
    )
}

fn bits(r: &Report) -> Vec<(String, Option<u64>)> {
    dropscore::protocols::regression::METRICS
        .iter()
        .map(|m| (m.to_string(), r.scores.get(m).map(f64::to_bits)))
        .collect()
}

#[test]
fn large_files_score_as_their_arrays() {
    let (gt, pred, t, p) = files();
    let want = dropscore::protocols::regression::metrics(&t, &p, &mut || {});
    let want: Vec<(String, Option<u64>)> = dropscore::protocols::regression::METRICS
        .iter()
        .map(|m| (m.to_string(), want.get(m).map(f64::to_bits)))
        .collect();
    assert!(want.iter().all(|(_, v)| v.is_some()));
    for (path, bytes, _) in containers("pred.csv", &pred) {
        let r = run(&gt, &path, bytes);
        assert!(r.diagnostics.is_empty(), "{path}: {:#?}", r.diagnostics);
        assert_eq!(bits(&r), want, "{path}");
        assert_eq!(r.item_count(), N, "{path}");
    }
}

#[test]
fn mistakes_in_large_files_are_located() {
    let (gt, pred, _, _) = files();
    let text = String::from_utf8(pred).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    // Lines are 1-based: lines[k] is line k + 1.
    lines[11] = "id999999,1.0".into(); // unknown id
    lines[31] = lines[21].clone(); // repeated id
    lines[41] = format!("{},abc", &lines[41][..8]); // not a number, column 10
    lines[51].push_str(",extra"); // 3 fields
    lines[70_001] = format!("{},nan", &lines[70_001][..8]); // not finite, column 10
    let mut bytes = (lines.join("\n") + "\n").into_bytes();
    let at = bytes.len() - 200; // invalid UTF-8 in the id of the third line from the end, column 2
    let third_last = bytes[..at].iter().rposition(|&b| b == b'\n').unwrap() + 1;
    let line_no = lines.len() - bytes[third_last..].iter().filter(|&&b| b == b'\n').count() + 1;
    bytes[third_last + 1] = 0xff;
    let want_lines = [
        ("regression.unknown_id", 12, 1),
        ("regression.duplicate_id", 32, 1),
        ("regression.non_numeric", 42, 10),
        ("regression.csv", 52, 1),
        ("regression.non_finite", 70_002, 10),
        ("input.invalid_utf8", line_no as u64, 2),
    ];
    for (path, b, shown) in containers("pred.csv", &bytes) {
        let r = run(&gt, &path, b);
        let got: Vec<(String, String, u64, u64)> = r
            .diagnostics
            .iter()
            .filter(|d| d.file.as_deref() == Some(shown.as_str()))
            .map(|d| {
                let f = d.file.clone().unwrap_or_default();
                (
                    d.code.clone(),
                    f,
                    d.line.unwrap_or(0),
                    d.column.unwrap_or(0),
                )
            })
            .collect();
        let want: Vec<(String, String, u64, u64)> = want_lines
            .iter()
            .map(|&(c, l, col)| (c.to_string(), shown.clone(), l, col))
            .collect();
        assert_eq!(got, want, "{path}");
        assert_eq!(r.scores.get("root_mean_squared_error"), None);
    }
}

/// The CLI reads files on disk by position from the second thread: the same report as from memory.
#[test]
fn cli_reads_large_files_on_disk() {
    let (gt, pred, _, _) = files();
    let dir = std::env::temp_dir().join(format!("dropscore-ahead-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut want = None;
    for (path, bytes, _) in containers("pred.csv", &pred) {
        std::fs::write(dir.join("gt.csv"), &gt).unwrap();
        std::fs::write(dir.join(&path), &bytes).unwrap();
        let (g, p) = (dir.join("gt.csv"), dir.join(&path));
        let (g, p) = (g.to_str().unwrap(), p.to_str().unwrap());
        let (code, v) = cli::run_json(&["regression", "--gt", g, "--pred", p, "--format", "json"]);
        assert_eq!(code, 0, "{path}");
        let scores = v["scores"].clone();
        let from_memory = run(&gt, &path, bytes);
        for m in dropscore::protocols::regression::METRICS {
            assert_eq!(scores[m].as_f64(), from_memory.scores.get(m), "{path} {m}");
        }
        assert_eq!(v["items"].as_array().map(Vec::len), Some(N), "{path}");
        match &want {
            None => want = Some(scores),
            Some(w) => assert_eq!(&scores, w, "{path}"),
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
