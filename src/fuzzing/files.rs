//! Structure-aware targets of the input layer: zips built from fuzz bytes (sizes, methods, lies, overlaps,
//! nesting, `.gz` members) to reach the memory budget's limits, `.gz` files, and folders on disk walked as
//! the CLI and the scoring program walk them (files, nested folders, links incl. loops and dangling ones,
//! a FIFO, hostile names).

use super::{build, request, score, small_limits, Bytes, SMALL_BUDGET};
use crate::input::{FileSet, Role};
use crate::Mode;
use std::io::Write;

/// The protocol a built input is scored with: the registry's protocol that the byte `b` picks, so that a
/// protocol added to the registry is fuzzed without editing this file.
fn pick(b: u8) -> &'static str {
    let all = crate::protocols::PROTOCOLS;
    all[b as usize % all.len()].info().id
}

/// Member and file names: what protocols look for, junk, traversal, control characters and bidi overrides.
const NAMES: &[&str] = &[
    "res/La_Tomatina.txt",
    "ref/La_Tomatina_test.txt",
    "gt.xml",
    "res.xml",
    "pred.csv",
    "gt.csv",
    "results.json",
    "instances.json",
    "x.qrels",
    "x.run",
    "inner.zip",
    "a.txt.gz",
    "__MACOSX/._a.txt",
    "../../etc/passwd",
    "dir/",
    "pred/scene_1.png",
    "gt/001.png",
    "textqa_pred.json",
    "pred.npy",
    "\u{1b}[2J\u{1b}]0;x\u{7}a.txt",
    "r\u{202e}txt.csv",
    "",
];

fn deflate(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::fast());
    let _ = e.write_all(data);
    e.finish().unwrap_or_default()
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    let _ = e.write_all(data);
    e.finish().unwrap_or_default()
}

fn crc(data: &[u8]) -> u32 {
    let mut c = flate2::Crc::new();
    c.update(data);
    c.sum()
}

/// One member of a built zip, as written.
struct Member {
    name: Vec<u8>,
    method: u16,
    crc: u32,
    csize: u32,
    usize: u32,
    offset: u32,
}

/// A zip archive written by hand from `(name, method, data, declared size, crc, overlap)`: local headers,
/// central directory, end record. `overlap` points the central entry at the previous member's header.
struct ZipOut {
    out: Vec<u8>,
    central: Vec<Member>,
}

impl ZipOut {
    fn new() -> Self {
        ZipOut {
            out: Vec::new(),
            central: Vec::new(),
        }
    }
    fn add(&mut self, name: &[u8], method: u16, raw: &[u8], lie: Option<u32>, overlap: bool) {
        let body = if method == 8 {
            deflate(raw)
        } else {
            raw.to_vec()
        };
        let usize = lie.unwrap_or(raw.len() as u32);
        let m = Member {
            name: name.to_vec(),
            method,
            crc: crc(raw),
            csize: body.len() as u32,
            usize,
            offset: self.out.len() as u32,
        };
        if overlap && !self.central.is_empty() {
            let prev = &self.central[self.central.len() - 1];
            let dup = Member {
                name: name.to_vec(),
                ..*prev
            };
            self.central.push(dup);
            return;
        }
        let o = &mut self.out;
        o.extend_from_slice(&0x0403_4b50u32.to_le_bytes());
        o.extend_from_slice(&20u16.to_le_bytes());
        o.extend_from_slice(&0u16.to_le_bytes());
        o.extend_from_slice(&m.method.to_le_bytes());
        o.extend_from_slice(&[0, 0, 0x21, 0]);
        o.extend_from_slice(&m.crc.to_le_bytes());
        o.extend_from_slice(&m.csize.to_le_bytes());
        o.extend_from_slice(&m.usize.to_le_bytes());
        o.extend_from_slice(&(m.name.len() as u16).to_le_bytes());
        o.extend_from_slice(&0u16.to_le_bytes());
        o.extend_from_slice(&m.name);
        o.extend_from_slice(&body);
        self.central.push(m);
    }
    fn finish(mut self) -> Vec<u8> {
        let start = self.out.len() as u32;
        let o = &mut self.out;
        for m in &self.central {
            o.extend_from_slice(&0x0201_4b50u32.to_le_bytes());
            o.extend_from_slice(&20u16.to_le_bytes());
            o.extend_from_slice(&20u16.to_le_bytes());
            o.extend_from_slice(&0u16.to_le_bytes());
            o.extend_from_slice(&m.method.to_le_bytes());
            o.extend_from_slice(&[0, 0, 0x21, 0]);
            o.extend_from_slice(&m.crc.to_le_bytes());
            o.extend_from_slice(&m.csize.to_le_bytes());
            o.extend_from_slice(&m.usize.to_le_bytes());
            o.extend_from_slice(&(m.name.len() as u16).to_le_bytes());
            o.extend_from_slice(&[0; 12]);
            o.extend_from_slice(&m.offset.to_le_bytes());
            o.extend_from_slice(&m.name);
        }
        let size = o.len() as u32 - start;
        let n = self.central.len() as u16;
        o.extend_from_slice(&0x0605_4b50u32.to_le_bytes());
        o.extend_from_slice(&[0; 4]);
        o.extend_from_slice(&n.to_le_bytes());
        o.extend_from_slice(&n.to_le_bytes());
        o.extend_from_slice(&size.to_le_bytes());
        o.extend_from_slice(&start.to_le_bytes());
        o.extend_from_slice(&0u16.to_le_bytes());
        self.out
    }
}

/// Largest member content a recipe makes: over the small budget's 8 MiB per-entry limit.
const MAX_CONTENT: usize = 10 << 20;

/// A member's content from the recipe: literal bytes, or a pattern repeated (a long line, many lines, a
/// bomb when deflated).
fn content(b: &mut Bytes) -> Vec<u8> {
    let flags = b.u8();
    let len = b.u8() as usize;
    let pattern = b.take(len).to_vec();
    if flags & 1 == 0 || pattern.is_empty() {
        return pattern;
    }
    let scale = if flags & 2 != 0 { 256 } else { 1 };
    let reps = (usize::from(b.u16()) * scale).min(MAX_CONTENT / pattern.len());
    pattern.repeat(reps)
}

/// A zip built from the recipe in `b`: up to 6 members, each with a name, a method (stored, deflate, a
/// `.gz` inside, a nested zip), a content, and optionally a wrong declared size, a wrong CRC or a central
/// entry overlapping the previous member.
pub fn recipe_zip(b: &mut Bytes, depth: u32) -> Vec<u8> {
    let n = 1 + b.u8() as usize % 6;
    let mut z = ZipOut::new();
    for _ in 0..n {
        let flags = b.u8();
        let mut name = NAMES[b.u8() as usize % NAMES.len()].as_bytes().to_vec();
        let mut raw = content(b);
        match (flags >> 1) & 3 {
            2 => {
                raw = gzip(&raw);
                name.extend_from_slice(b".gz");
            }
            3 if depth == 0 => {
                raw = recipe_zip(&mut Bytes { data: &raw }, depth + 1);
                name = b"inner.zip".to_vec();
            }
            _ => {}
        }
        let method = if flags & 1 != 0 { 8 } else { 0 };
        let lie = (flags & 0x20 != 0).then(|| u32::from(b.u16()) << (b.u8() % 17));
        z.add(&name, method, &raw, lie, flags & 0x40 != 0);
        if flags & 0x80 != 0 {
            if let Some(m) = z.central.last_mut() {
                m.crc ^= 0xdead_beef;
            }
        }
    }
    z.finish()
}

/// Zips built from a recipe (see [`recipe_zip`]), dropped with no role and as predictions next to nothing
/// else, under the small budget (16 MiB: 8 MiB per entry, 32 MiB inflated, 512 KiB per line), every entry
/// read, then scored by the protocol the first byte picks, in both modes.
pub fn zip_built(data: &[u8]) {
    let mut b = Bytes { data };
    let id = pick(b.u8());
    let zip = recipe_zip(&mut b, 0);
    let set = [("max_memory", SMALL_BUDGET)];
    let files = build(vec![("sub.zip", None, zip.clone())], &small_limits());
    for mode in [Mode::Official, Mode::Corrected] {
        score(id, &files, &request(mode, &set));
    }
    let files = build(vec![("res.zip", Some(Role::Pred), zip)], &small_limits());
    score(id, &files, &request(Mode::Corrected, &set));
}

const CE_GT: &[u8] =
    include_bytes!("../../tests/data/chalearn-ce/ap_example/input/ref/La_Tomatina_test.txt");

/// `.gz` files: the rest of the bytes as a `.gz` file as is, and gzip-compressed (repeated when the first
/// byte is odd, up to 10 MiB, over the small budget's per-entry limit), as a chalearn-ce submission next to
/// the fixture GT, or as a TREC run next to the fixture qrels; default and small budgets, both modes.
pub fn input_gz(data: &[u8]) {
    let Some((&k, rest)) = data.split_first() else {
        return;
    };
    let payload = if k & 1 != 0 && !rest.is_empty() {
        let reps = (1 + (k as usize >> 2) * 2000).min(MAX_CONTENT / rest.len());
        rest.repeat(reps)
    } else {
        rest.to_vec()
    };
    let (id, name, other_name, other): (&str, &str, &str, &[u8]) = if k & 2 == 0 {
        (
            "chalearn-ce",
            "res/La_Tomatina.txt.gz",
            "ref/La_Tomatina_test.txt",
            CE_GT,
        )
    } else {
        ("kws", "x.run.gz", "x.qrels", super::kws::QRELS)
    };
    for (bytes, small) in [(rest.to_vec(), false), (gzip(&payload), true)] {
        let limits = if small {
            small_limits()
        } else {
            crate::input::Limits::default()
        };
        let files = build(
            vec![
                (name, Some(Role::Pred), bytes),
                (other_name, Some(Role::Gt), other.to_vec()),
            ],
            &limits,
        );
        let set: &[(&str, &str)] = if small {
            &[("max_memory", SMALL_BUDGET)]
        } else {
            &[]
        };
        super::both_modes(id, &files, set);
    }
}

#[cfg(unix)]
mod tree {
    use super::{Bytes, NAMES};
    use crate::input::disk;
    use crate::input::{Input, Role};
    use crate::Diagnostic;
    use std::path::{Path, PathBuf};
    use std::rc::Rc;
    use std::sync::atomic::{AtomicU64, Ordering};

    static SERIAL: AtomicU64 = AtomicU64::new(0);

    /// Where links point: the parent, the folder itself, outside the tree, nowhere, a sibling, a file of
    /// the other side (`res/x -> ../ref/...`, a cheat), themselves (a loop; the name is patched in).
    const TARGETS: &[&str] = &[
        "..",
        ".",
        "../..",
        "/etc/passwd",
        "/",
        "nowhere",
        "a.txt",
        "../ref/La_Tomatina_test.txt",
        "SELF",
        "sub",
    ];

    /// Top-level and folder names (a path of [`NAMES`] keeps its last part).
    const DIRS: &[&str] = &["ref", "res", "sub", "__MACOSX", "gt", "pred", "a.txt"];

    /// Creates a new regular file at `p` and writes `data`; never through a link or into a FIFO (a path
    /// that exists, whatever it is, is left alone).
    fn create(p: &Path, data: &[u8]) {
        use std::os::unix::fs::OpenOptionsExt;
        if let Ok(mut f) = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
            .open(p)
        {
            let _ = std::io::Write::write_all(&mut f, data);
        }
    }

    fn name(b: &mut Bytes) -> String {
        let n = NAMES[b.u8() as usize % NAMES.len()];
        let n = n.rsplit('/').find(|p| !p.is_empty()).unwrap_or("a.txt");
        if n == ".." || n == "." {
            "dots".into()
        } else {
            n.into()
        }
    }

    /// A fresh temporary folder holding the tree the bytes describe: up to 48 operations, each one byte
    /// (then its arguments): write a file (name, up to 255 bytes of content), make a folder and enter it,
    /// leave it, link (to one of [`TARGETS`]), make a FIFO, write a fixture-like file, link to `.`, or name a
    /// file with raw bytes (control characters).
    pub fn make(b: &mut Bytes) -> Option<PathBuf> {
        let root = std::env::temp_dir().join(format!(
            "dropscore-fuzz-walk-{}-{}",
            std::process::id(),
            SERIAL.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(&root).ok()?;
        let mut stack = vec![root.clone()];
        for _ in 0..48 {
            if b.is_empty() {
                break;
            }
            let here = stack.last().cloned().unwrap_or_else(|| root.clone());
            match b.u8() % 8 {
                0 => {
                    let n = name(b);
                    let len = b.u8() as usize;
                    create(&here.join(n), b.take(len));
                }
                1 => {
                    let d = here.join(DIRS[b.u8() as usize % DIRS.len()]);
                    // Entered only when made here: a link of that name is never entered.
                    if std::fs::create_dir(&d).is_ok() && stack.len() < 6 {
                        stack.push(d);
                    }
                }
                2 => {
                    if stack.len() > 1 {
                        stack.pop();
                    }
                }
                3 => {
                    let n = name(b);
                    let t = TARGETS[b.u8() as usize % TARGETS.len()];
                    let t = if t == "SELF" { n.as_str() } else { t };
                    let _ = std::os::unix::fs::symlink(t, here.join(&n));
                }
                4 => {
                    let p = here.join(name(b));
                    if let Ok(c) = std::ffi::CString::new(p.as_os_str().as_encoded_bytes()) {
                        // SAFETY: a valid NUL-terminated path; mkfifo only creates a file.
                        unsafe { libc::mkfifo(c.as_ptr(), 0o600) };
                    }
                }
                5 => {
                    let d = here.join(DIRS[b.u8() as usize % DIRS.len()]);
                    let _ = std::os::unix::fs::symlink(".", d);
                }
                6 => {
                    let n = name(b);
                    create(&here.join(n), super::CE_GT);
                }
                _ => {
                    let len = 1 + b.u8() as usize % 12;
                    let raw: Vec<u8> = b
                        .take(len)
                        .iter()
                        .map(|&c| if c == b'/' || c == 0 { b'_' } else { c })
                        .collect();
                    let n = <std::ffi::OsStr as std::os::unix::ffi::OsStrExt>::from_bytes(&raw);
                    create(&here.join(n), b"x 0.5\n");
                }
            }
        }
        Some(root)
    }

    /// Lists `dir` as the scoring program lists `ref/` and `res/` (named `sub/...`, `metadata` skipped) or
    /// as the CLI lists a named folder (`sub` empty): walked without following links, each file opened
    /// with `open_found`, refusals kept as diagnostics.
    pub fn load(
        dir: &Path,
        sub: &str,
        role: Option<Role>,
        inputs: &mut Vec<Input>,
        diags: &mut Vec<Diagnostic>,
    ) {
        let shown = |f: &Path| {
            let rel = f.strip_prefix(dir).unwrap_or(f).to_string_lossy();
            if sub.is_empty() {
                rel.into_owned()
            } else {
                format!("{sub}/{rel}")
            }
        };
        for f in disk::walk(dir, &shown, diags) {
            if f.strip_prefix(dir)
                .is_ok_and(|r| r == Path::new("metadata"))
            {
                continue;
            }
            match disk::open_found(&f, &shown(&f)) {
                Ok(blob) => inputs.push(Input {
                    path: shown(&f),
                    role,
                    blob: Rc::new(blob),
                }),
                Err(d) => diags.push(*d),
            }
        }
    }
}

/// Folders on disk: the bytes build a small tree in a fresh temporary folder (see [`tree::make`]: files,
/// nested folders, links to `..`, `/etc/passwd`, themselves, nowhere, a FIFO, hostile names), which is then
/// walked as the scoring program walks `ref/` and `res/` and as the CLI walks a named folder
/// (`input::disk::walk`, `open_found`), built into a file set and scored by the protocol the first byte
/// picks. Links must never be followed and the FIFO never opened (a hang is a fuzzer timeout).
pub fn disk_walk(data: &[u8]) {
    #[cfg(unix)]
    {
        let mut b = Bytes { data };
        let id = pick(b.u8());
        let Some(root) = tree::make(&mut b) else {
            return;
        };
        let mut inputs = Vec::new();
        let mut diags = Vec::new();
        for (sub, role) in [
            ("ref", Some(Role::Gt)),
            ("res", Some(Role::Pred)),
            ("", None),
        ] {
            let dir = root.join(sub);
            if !matches!(
                crate::input::disk::kind(&dir),
                Ok(crate::input::disk::Kind::Dir)
            ) {
                continue;
            }
            tree::load(&dir, sub, role, &mut inputs, &mut diags);
        }
        let mut files: FileSet = FileSet::build(inputs, &small_limits());
        files.diagnostics.extend(diags);
        super::read_entries(&files);
        super::both_modes(id, &files, &[("max_memory", SMALL_BUDGET)]);
        let _ = std::fs::remove_dir_all(&root);
    }
    #[cfg(not(unix))]
    let _ = data;
}
