//! Submissions that try to leave their folder or to hang or fool the terminal, generated
//! at test time: symbolic links (to /etc/passwd, to the ground truth, to /etc, dangling, `up -> ..`), a FIFO, and
//! file names carrying terminal control sequences. `dropscore score` and `dropscore <protocol> --gt/--pred` must
//! skip links and special files with a located warning, still write their outputs, never wait on a FIFO, never
//! print "(os error N)", and never send a raw control character to the terminal.
#![cfg(unix)]

mod common;
use common::{cli, data};
use serde_json::Value;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const GT: &str = "chalearn-ce/ap_example/input/ref/La_Tomatina_test.txt";
const RES: &str = "chalearn-ce/ap_example/input/res/La_Tomatina.txt";

/// Runs the CLI, failing the test if it has not finished after 60 s (a FIFO opened for reading would block).
/// No message is a raw OS error.
fn run(args: &[&Path]) -> (i32, String, String) {
    let (code, out, err) = cli::run_within(args, Duration::from_secs(60));
    assert!(!err.contains("os error"), "{err}");
    (code, out, err)
}

fn fresh(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dropscore-hostile-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(d.join("input/ref")).unwrap();
    std::fs::create_dir_all(d.join("input/res")).unwrap();
    std::fs::copy(data(GT), d.join("input/ref/La_Tomatina_test.txt")).unwrap();
    d
}

fn mkfifo(p: &Path) {
    let c = std::ffi::CString::new(p.to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0, "mkfifo");
}

/// Adds every kind of hostile entry to `res`: a link to a directory outside, a dangling link, `up -> ..`, a
/// link to the GT from inside a subfolder, and a FIFO.
fn hostile_entries(res: &Path) {
    symlink("/etc", res.join("etc")).unwrap();
    symlink("nowhere", res.join("dangling")).unwrap();
    std::fs::create_dir_all(res.join("sub")).unwrap();
    symlink("..", res.join("sub/up")).unwrap();
    symlink(
        "../../ref/La_Tomatina_test.txt",
        res.join("sub/La_Tomatina.txt"),
    )
    .unwrap();
    mkfifo(&res.join("pipe.txt"));
}

fn warned(err: &str, code: &str, file: &str) -> bool {
    err.lines()
        .any(|l| l.starts_with(&format!("{file}: warning [{code}]")))
}

#[test]
fn score_skips_a_link_to_etc_passwd_and_still_writes_its_page() {
    let d = fresh("passwd");
    symlink("/etc/passwd", d.join("input/res/La_Tomatina.txt")).unwrap();
    let out = d.join("output");
    let (code, _, err) = run(&[
        Path::new("score"),
        &d.join("input"),
        &out,
        Path::new("--protocol=chalearn-ce"),
    ]);
    assert_eq!(code, 1, "nothing left to score: {err}");
    assert!(
        warned(&err, "input.link_skipped", "res/La_Tomatina.txt"),
        "{err}"
    );
    let html = std::fs::read_to_string(out.join("detailed_results.html")).unwrap();
    assert!(html.contains("input.link_skipped"));
    let passwd = std::fs::read_to_string("/etc/passwd").unwrap_or_default();
    let first = passwd.lines().next().unwrap_or("root:x:0:0");
    assert!(!html.contains(first), "the page quotes /etc/passwd");
    assert!(!err.contains(first), "stderr quotes /etc/passwd");
    assert!(!out.join("scores.json").exists());
}

#[test]
fn score_does_not_score_a_link_to_the_ground_truth() {
    let d = fresh("gt-link");
    symlink(
        "../ref/La_Tomatina_test.txt",
        d.join("input/res/La_Tomatina.txt"),
    )
    .unwrap();
    let out = d.join("output");
    let (code, _, err) = run(&[
        Path::new("score"),
        &d.join("input"),
        &out,
        Path::new("--protocol=chalearn-ce"),
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(
        warned(&err, "input.link_skipped", "res/La_Tomatina.txt"),
        "{err}"
    );
    assert!(out.join("detailed_results.html").is_file());
    assert!(!out.join("scores.txt").exists(), "no mAP 1.0 from the GT");
}

#[test]
fn score_skips_dir_links_dangling_links_up_links_and_fifos() {
    let d = fresh("mixed");
    let res = d.join("input/res");
    std::fs::copy(data(RES), res.join("La_Tomatina.txt")).unwrap();
    hostile_entries(&res);
    let out = d.join("output");
    let (code, _, err) = run(&[
        Path::new("score"),
        &d.join("input"),
        &out,
        Path::new("--protocol=chalearn-ce"),
    ]);
    assert_eq!(code, 0, "warnings only: {err}");
    for (c, f) in [
        ("input.link_skipped", "res/etc"),
        ("input.link_skipped", "res/dangling"),
        ("input.link_skipped", "res/sub/up"),
        ("input.link_skipped", "res/sub/La_Tomatina.txt"),
        ("input.special_file_skipped", "res/pipe.txt"),
    ] {
        assert!(warned(&err, c, f), "{c} {f}: {err}");
    }
    // The worked example's AP (tests/score_program.rs), as if the hostile entries were absent.
    let txt = std::fs::read_to_string(out.join("scores.txt")).unwrap();
    assert_eq!(txt, "mAP: 0.7222222222222223\n");
    let html = std::fs::read_to_string(out.join("detailed_results.html")).unwrap();
    assert!(html.contains("input.special_file_skipped"));
}

#[test]
fn score_reads_a_linked_res_folder_as_empty() {
    for (tag, target) in [("dangling-res", "nowhere"), ("up-res", "..")] {
        let d = fresh(tag);
        std::fs::remove_dir(d.join("input/res")).unwrap();
        symlink(target, d.join("input/res")).unwrap();
        let out = d.join("output");
        let (code, _, err) = run(&[
            Path::new("score"),
            &d.join("input"),
            &out,
            Path::new("--protocol=chalearn-ce"),
        ]);
        assert_eq!(code, 1, "{tag}: {err}");
        assert!(warned(&err, "input.link_skipped", "res"), "{tag}: {err}");
        assert!(out.join("detailed_results.html").is_file(), "{tag}");
    }
}

#[test]
fn cli_folders_skip_links_and_fifos() {
    let d = fresh("cli");
    let res = d.join("input/res");
    std::fs::copy(data(RES), res.join("La_Tomatina.txt")).unwrap();
    hostile_entries(&res);
    let (code, out, err) = run(&[
        Path::new("chalearn-ce"),
        Path::new("--gt"),
        &d.join("input/ref"),
        Path::new("--pred"),
        &res,
        Path::new("--format=json"),
    ]);
    assert_eq!(code, 0, "{err}");
    let report: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["scores"]["map"].as_f64(), Some(0.7222222222222223));
    let shown = |rel: &str| res.join(rel).to_string_lossy().into_owned();
    let mut skipped: Vec<(String, String)> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|x| x["code"].as_str().unwrap().ends_with("_skipped"))
        .map(|x| {
            (
                x["code"].as_str().unwrap().to_string(),
                x["file"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    skipped.sort();
    let mut want: Vec<(String, String)> = [
        ("input.link_skipped", "dangling"),
        ("input.link_skipped", "etc"),
        ("input.link_skipped", "sub/La_Tomatina.txt"),
        ("input.link_skipped", "sub/up"),
        ("input.special_file_skipped", "pipe.txt"),
    ]
    .iter()
    .map(|(c, f)| (c.to_string(), shown(f)))
    .collect();
    want.sort();
    assert_eq!(skipped, want);
    // A FIFO named on the command line is skipped too, without waiting for a writer.
    let fifo = d.join("named.fifo");
    mkfifo(&fifo);
    let (code, _, err) = run(&[
        Path::new("chalearn-ce"),
        Path::new("--gt"),
        &d.join("input/ref"),
        Path::new("--pred"),
        &fifo,
    ]);
    assert_eq!(code, 1, "no submission left: {err}");
    assert!(
        warned(&err, "input.special_file_skipped", &fifo.to_string_lossy()),
        "{err}"
    );
    // A missing path stays a usage error, in plain words.
    let (code, _, err) = run(&[
        Path::new("chalearn-ce"),
        Path::new("--gt"),
        &d.join("input/ref"),
        Path::new("--pred"),
        &d.join("missing.txt"),
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("missing.txt: no such file or directory"),
        "{err}"
    );
}

/// No raw control character (but newline and tab) and no bidi control reaches the terminal.
fn assert_terminal_safe(what: &str, s: &str) {
    for c in s.chars() {
        assert!(
            !dropscore::render::is_terminal_control(c) || c == '\n' || c == '\t',
            "{what} carries {c:?}: {s}"
        );
    }
}

#[test]
fn terminal_controls_in_file_names_are_escaped() {
    let evil = "\u{1b}[2J\u{1b}]0;owned\u{7}x\u{8}\ny: error [forged]\u{202e}gpj.exe";
    let escaped = "\\x1b[2J\\x1b]0;owned\\x07x\\x08\\x0ay: error [forged]\\u{202e}gpj.exe";
    let d = fresh("escape");
    let (gt, res) = (d.join("input/ref"), d.join("input/res"));
    std::fs::rename(
        gt.join("La_Tomatina_test.txt"),
        gt.join(format!("{evil}_test.txt")),
    )
    .unwrap();
    std::fs::copy(data(RES), res.join(format!("{evil}.txt"))).unwrap();
    std::fs::write(res.join(format!("{evil}2.txt")), "img 1\n").unwrap();
    let (code, out, err) = run(&[
        Path::new("chalearn-ce"),
        Path::new("--gt"),
        &gt,
        Path::new("--pred"),
        &res,
    ]);
    assert_eq!(code, 0, "{err}");
    assert_terminal_safe("stdout", &out);
    assert_terminal_safe("stderr", &err);
    assert!(
        out.contains(&format!("{escaped}\t")),
        "the category id, escaped: {out}"
    );
    assert!(err.contains(&format!("{escaped}2.txt")), "{err}");
    assert!(!err.lines().any(|l| l.starts_with("y: error")), "{err}");
    // JSON is data: the names as they are.
    let (_, json, _) = run(&[
        Path::new("chalearn-ce"),
        Path::new("--gt"),
        &gt,
        Path::new("--pred"),
        &res,
        Path::new("--format=json"),
    ]);
    let v: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["items"][0]["id"].as_str(), Some(evil));
    // The scoring program's messages too.
    let out_dir = d.join("output");
    let (code, _, err) = run(&[
        Path::new("score"),
        &d.join("input"),
        &out_dir,
        Path::new("--protocol=chalearn-ce"),
    ]);
    assert_eq!(code, 0, "{err}");
    assert_terminal_safe("score's stderr", &err);
    assert!(err.contains(&format!("res/{escaped}2.txt")), "{err}");
}

/// `dropscore score` on `d/input` into `d/output` with `extra` arguments: (exit, stderr), within 60 s.
fn score_with(d: &Path, extra: &[&str]) -> (i32, String) {
    let input = d.join("input");
    let out = d.join("output");
    let mut args: Vec<&Path> = vec![Path::new("score"), &input, &out];
    args.extend(extra.iter().map(Path::new));
    let (code, _, err) = run(&args);
    (code, err)
}

/// Writes the chalearn-ce manifest of the fixture's ground truth to `to`.
fn make_manifest(to: &Path) {
    let (code, _, err) = run(&[
        Path::new("manifest"),
        Path::new("chalearn-ce"),
        Path::new("--gt"),
        &data(GT),
        Path::new("--out"),
        to,
    ]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn organizer_files_are_regular_files_read_within_a_cap_and_never_through_a_link() {
    let t = Instant::now();
    // --config a FIFO: refused at once, never waiting for a writer.
    let d = fresh("cfg-fifo");
    mkfifo(&d.join("cfg.toml"));
    let cfg = d.join("cfg.toml");
    let (code, err) = score_with(&d, &["--config", cfg.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("a FIFO (named pipe), not a regular file"),
        "{err}"
    );
    let (code, _, err) = run(&[Path::new("config"), &cfg]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("FIFO"), "{err}");
    // --config a link to a valid config: refused.
    std::fs::write(d.join("real.toml"), "protocol = \"chalearn-ce\"\n").unwrap();
    symlink(d.join("real.toml"), d.join("link.toml")).unwrap();
    let (code, err) = score_with(&d, &["--config", d.join("link.toml").to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("a symbolic link: links are never followed"),
        "{err}"
    );
    // A config past the cap (a sparse 100 MiB file): refused from its size, without reading it.
    let big = d.join("big.toml");
    std::fs::File::create(&big)
        .unwrap()
        .set_len(100 << 20)
        .unwrap();
    let (code, _, err) = run(&[Path::new("config"), &big]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("over the limit of 64 MiB"), "{err}");

    // The config's manifest: a FIFO, a link, /dev/zero through `..`; the competition.yaml at /dev/zero.
    let ref_dir = d.join("input/ref");
    std::fs::copy(data(RES), d.join("input/res/La_Tomatina.txt")).unwrap();
    let real = d.join("manifest.json");
    make_manifest(&real);
    let cases: [(&str, &str); 4] = [
        ("fifo.json", "a FIFO (named pipe), not a regular file"),
        ("link.json", "a symbolic link: links are never followed"),
        ("../../../../../../../../dev/zero", "name a file inside"),
        ("sub/m.json", "is a symbolic link; links are never followed"),
    ];
    mkfifo(&ref_dir.join("fifo.json"));
    symlink(&real, ref_dir.join("link.json")).unwrap();
    symlink(&d, ref_dir.join("sub")).unwrap();
    std::fs::copy(&real, d.join("m.json")).unwrap();
    for (manifest, says) in cases {
        let config = format!("protocol = \"chalearn-ce\"\nmanifest = \"{manifest}\"\n");
        std::fs::write(ref_dir.join("dropscore.toml"), config).unwrap();
        let (code, err) = score_with(&d, &[]);
        assert_eq!(code, 2, "{manifest}: {err}");
        assert!(err.contains(says), "{manifest}: {err}");
        assert!(!d.join("output/scores.json").exists());
    }
    std::fs::write(
        ref_dir.join("dropscore.toml"),
        "protocol = \"chalearn-ce\"\n[leaderboard]\ncompetition_yaml = \"/dev/zero\"\n",
    )
    .unwrap();
    let (code, err) = score_with(&d, &[]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("name a file inside"), "{err}");
    let (code, _, err) = run(&[Path::new("config"), &ref_dir.join("dropscore.toml")]);
    assert_eq!(code, 1, "{err}");
    // --manifest: a link and a device are refused, for score and check alike; the real file works.
    std::fs::remove_file(ref_dir.join("dropscore.toml")).unwrap();
    for (m, says) in [
        (ref_dir.join("link.json"), "a symbolic link"),
        (PathBuf::from("/dev/zero"), "a device, not a regular file"),
    ] {
        let (code, err) = score_with(
            &d,
            &["--protocol=chalearn-ce", "--manifest", m.to_str().unwrap()],
        );
        assert_eq!(code, 2, "{err}");
        assert!(err.contains(says), "{err}");
        let (code, _, err) = run(&[
            Path::new("check"),
            Path::new("chalearn-ce"),
            Path::new("--manifest"),
            &m,
            Path::new("--pred"),
            &d.join("input/res"),
        ]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains(says), "{err}");
    }
    std::fs::remove_file(ref_dir.join("link.json")).unwrap();
    std::fs::remove_file(ref_dir.join("fifo.json")).unwrap();
    std::fs::remove_file(ref_dir.join("sub")).unwrap();
    let (code, err) = score_with(
        &d,
        &[
            "--protocol=chalearn-ce",
            "--manifest",
            real.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert!(t.elapsed() < Duration::from_secs(30), "{:?}", t.elapsed());
}

#[test]
fn outputs_replace_a_planted_link_instead_of_writing_through_it() {
    let d = fresh("planted");
    std::fs::copy(data(RES), d.join("input/res/La_Tomatina.txt")).unwrap();
    let out = d.join("output");
    std::fs::create_dir_all(&out).unwrap();
    let victim = d.join("victim.txt");
    std::fs::write(&victim, "precious\n").unwrap();
    for name in ["scores.json", "scores.txt", "detailed_results.html"] {
        symlink(&victim, out.join(name)).unwrap();
    }
    let (code, err) = score_with(&d, &["--protocol=chalearn-ce"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
    for name in ["scores.json", "scores.txt", "detailed_results.html"] {
        let m = std::fs::symlink_metadata(out.join(name)).unwrap();
        assert!(m.is_file(), "{name} is a regular file now");
    }
    assert_eq!(
        std::fs::read_to_string(out.join("scores.txt")).unwrap(),
        "mAP: 0.7222222222222223\n"
    );
    // --out of the scoring command and of `manifest`.
    let link = d.join("out.json");
    symlink(&victim, &link).unwrap();
    let (code, _, err) = run(&[
        Path::new("chalearn-ce"),
        Path::new("--gt"),
        &data(GT),
        Path::new("--pred"),
        &data(RES),
        Path::new("--format=json"),
        Path::new("--out"),
        &link,
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
    assert!(std::fs::read_to_string(&link)
        .unwrap()
        .starts_with("{\"schema\":1"));
    std::fs::remove_file(&link).unwrap();
    symlink(&victim, &link).unwrap();
    make_manifest(&link);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
    assert!(std::fs::symlink_metadata(&link).unwrap().is_file());
    // No temporary file is left beside the outputs.
    let left: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".dropscore-"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}
