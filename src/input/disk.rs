//! Files and folders on disk (native only), read without leaving them. A folder is walked without following
//! symbolic links, and nothing but regular files is opened: a link or a special file (FIFO, device, socket)
//! found in a folder is reported as a warning (`input.link_skipped`, `input.special_file_skipped`) with its
//! path and skipped, so a submission cannot make the scorer read outside it, and a FIFO cannot hang it.
//! Messages are plain words, never Rust's "(os error N)".

use super::DiskFile;
pub use crate::diag::io_words;
use crate::diag::Diagnostic;
use std::io;
use std::path::{Path, PathBuf};

/// What a path on disk is, its symbolic links not followed.
#[derive(Debug)]
pub enum Kind {
    File,
    Dir,
    /// A symbolic link, with its target as written (`None` when it cannot be read).
    Link(Option<PathBuf>),
    /// A FIFO, socket or device: the words that name it ("a FIFO (named pipe)").
    Special(&'static str),
}

fn kind_of(path: &Path, ft: std::fs::FileType) -> Kind {
    if ft.is_symlink() {
        Kind::Link(std::fs::read_link(path).ok())
    } else if ft.is_dir() {
        Kind::Dir
    } else if ft.is_file() {
        Kind::File
    } else {
        Kind::Special(special_words(ft))
    }
}

#[cfg(unix)]
fn special_words(ft: std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if ft.is_fifo() {
        "a FIFO (named pipe)"
    } else if ft.is_socket() {
        "a socket"
    } else if ft.is_block_device() {
        "a block device"
    } else if ft.is_char_device() {
        "a character device"
    } else {
        "a special file"
    }
}

#[cfg(not(unix))]
fn special_words(_: std::fs::FileType) -> &'static str {
    "a special file"
}

/// What `path` is, without following it when it is a link; `Err` when it does not exist or cannot be
/// examined.
pub fn kind(path: &Path) -> io::Result<Kind> {
    Ok(kind_of(path, std::fs::symlink_metadata(path)?.file_type()))
}

/// What `path` is after following links (a path the user named on the command line).
pub fn kind_followed(path: &Path) -> io::Result<Kind> {
    Ok(kind_of(path, std::fs::metadata(path)?.file_type()))
}

/// The warning for a link or special file at `shown`, skipped; `None` for files and folders.
pub fn skipped(kind: &Kind, shown: &str) -> Option<Diagnostic> {
    Some(match kind {
        Kind::File | Kind::Dir => return None,
        Kind::Link(target) => {
            let to = target
                .as_ref()
                .map_or(String::new(), |t| format!(" (to {})", t.display()));
            Diagnostic::warning(
                "input.link_skipped",
                format!("a symbolic link{to}: links are not followed, skipped"),
            )
            .file(shown)
            .hint("Put the file itself in the folder: links are never followed, so nothing outside the submission is read.")
        }
        Kind::Special(what) => Diagnostic::warning(
            "input.special_file_skipped",
            format!("{what}, not a regular file: skipped"),
        )
        .file(shown)
        .hint("Only regular files are read."),
    })
}

/// The error for a file or folder that cannot be read, in plain words.
pub fn unreadable(shown: &str, what: &str, e: &io::Error) -> Diagnostic {
    Diagnostic::error(
        "input.read_error",
        format!("cannot read the {what}: {}", io_words(e)),
    )
    .file(shown)
}

/// The regular files under `dir`, recursively, sorted by path. Links and special files are skipped with a
/// warning, unreadable folders with an error; `shown` names a path in those diagnostics, which come sorted
/// by path too. Links are never followed, so the walk stays inside `dir` and ends.
pub fn walk(
    dir: &Path,
    shown: &dyn Fn(&Path) -> String,
    diags: &mut Vec<Diagnostic>,
) -> Vec<PathBuf> {
    walk_with_folders(dir, shown, diags).0
}

/// [`walk`], and the folders in which it found neither a file nor a folder (sorted): empty folders, which a
/// protocol may expect files in.
pub fn walk_with_folders(
    dir: &Path,
    shown: &dyn Fn(&Path) -> String,
    diags: &mut Vec<Diagnostic>,
) -> (Vec<PathBuf>, Vec<PathBuf>) {
    let mut files = Vec::new();
    let mut empty = Vec::new();
    let mut notes: Vec<(PathBuf, Diagnostic)> = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        let entries = match std::fs::read_dir(&d) {
            Ok(r) => r,
            Err(e) => {
                notes.push((d.clone(), unreadable(&shown(&d), "folder", &e)));
                continue;
            }
        };
        let before = (files.len(), todo.len());
        for e in entries {
            let e = match e {
                Ok(e) => e,
                Err(err) => {
                    notes.push((d.clone(), unreadable(&shown(&d), "folder", &err)));
                    break;
                }
            };
            let p = e.path();
            // `DirEntry::file_type` does not follow links.
            let k = match e.file_type() {
                Ok(ft) => kind_of(&p, ft),
                Err(err) => {
                    notes.push((p.clone(), unreadable(&shown(&p), "file", &err)));
                    continue;
                }
            };
            match k {
                Kind::File => files.push(p),
                Kind::Dir => todo.push(p),
                other => {
                    if let Some(n) = skipped(&other, &shown(&p)) {
                        notes.push((p, n));
                    }
                }
            }
        }
        if (files.len(), todo.len()) == before {
            empty.push(d);
        }
    }
    files.sort();
    empty.sort();
    notes.sort_by(|a, b| a.0.cmp(&b.0));
    diags.extend(notes.into_iter().map(|n| n.1));
    (files, empty)
}

/// The inputs of folder `dir`: its regular files (those `keep` accepts) opened as [`walk`] and
/// [`open_found`] do, shown as `shown` names them, and its empty folders ([`Input::empty_folder`]); refusals
/// go to `diags`.
pub fn folder_inputs(
    dir: &Path,
    shown: &dyn Fn(&Path) -> String,
    role: Option<super::Role>,
    keep: &dyn Fn(&Path) -> bool,
    diags: &mut Vec<Diagnostic>,
) -> Vec<super::Input> {
    let (files, empty) = walk_with_folders(dir, shown, diags);
    let mut out = Vec::with_capacity(files.len() + empty.len());
    for f in files.iter().filter(|f| keep(f)) {
        match open_found(f, &shown(f)) {
            Ok(blob) => out.push(super::Input {
                path: shown(f),
                role,
                blob: std::rc::Rc::new(blob),
            }),
            Err(d) => diags.push(*d),
        }
    }
    for d in &empty {
        out.push(super::Input::empty_folder(&shown(d), role));
    }
    out
}

/// Opens a file the walk found, refusing a link (one may have replaced the file since it was listed) or a
/// special file; the refusal is the diagnostic to report.
pub fn open_found(path: &Path, shown: &str) -> Result<DiskFile, Box<Diagnostic>> {
    DiskFile::open_no_follow(path).map_err(|e| {
        Box::new(match kind(path) {
            Ok(k @ (Kind::Link(_) | Kind::Special(_))) => {
                skipped(&k, shown).unwrap_or_else(|| unreadable(shown, "file", &e))
            }
            _ => unreadable(shown, "file", &e),
        })
    })
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn plain_words() {
        let e = io::Error::from_raw_os_error(2);
        assert_eq!(io_words(&e), "no such file or directory");
        let e = io::Error::new(io::ErrorKind::InvalidInput, "not a regular file");
        assert_eq!(io_words(&e), "not a regular file");
    }

    #[test]
    fn walk_skips_links_and_fifos() {
        let d = std::env::temp_dir().join(format!("dropscore-walk-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(d.join("sub")).unwrap();
        std::fs::write(d.join("a.txt"), "a").unwrap();
        std::fs::write(d.join("sub/b.txt"), "b").unwrap();
        std::os::unix::fs::symlink("/etc/passwd", d.join("passwd")).unwrap();
        std::os::unix::fs::symlink("..", d.join("sub/up")).unwrap();
        std::os::unix::fs::symlink("nowhere", d.join("dangling")).unwrap();
        let fifo = std::ffi::CString::new(d.join("pipe").to_str().unwrap()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
        let mut diags = Vec::new();
        let shown = |p: &Path| p.strip_prefix(&d).unwrap().display().to_string();
        let files = walk(&d, &shown, &mut diags);
        assert_eq!(files, vec![d.join("a.txt"), d.join("sub/b.txt")]);
        let got: Vec<(String, String)> = diags
            .iter()
            .map(|x| (x.code.clone(), x.file.clone().unwrap()))
            .collect();
        let want = [
            ("input.link_skipped", "dangling"),
            ("input.link_skipped", "passwd"),
            ("input.special_file_skipped", "pipe"),
            ("input.link_skipped", "sub/up"),
        ];
        let want: Vec<(String, String)> = want
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        assert_eq!(got, want);
        assert!(
            DiskFile::open(&d.join("pipe")).is_err(),
            "a FIFO is refused, without waiting"
        );
        let e = open_found(&d.join("passwd"), "passwd").err().unwrap();
        assert_eq!(e.code, "input.link_skipped");
        assert!(
            DiskFile::open(&d.join("passwd")).is_ok(),
            "a named path follows its link"
        );
        let _ = std::fs::remove_dir_all(&d);
    }
}
