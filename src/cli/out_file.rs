//! Output files (`OUTPUT_DIR/scores.*`, `detailed_results.html`, `--out FILE`) written without following a
//! link planted at their name: the bytes go to a fresh file in the same folder (created, never opened if it
//! exists), which is then renamed over the name. A symbolic link at the name is replaced, never written
//! through; a reader never sees a half-written file.

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Writes `path` with `fill`, through a fresh temporary file renamed in place.
pub fn write_with(path: &Path, fill: impl FnOnce(&mut File) -> io::Result<()>) -> io::Result<()> {
    let (tmp, mut file) = fresh_beside(path)?;
    let done = fill(&mut file)
        .and_then(|()| file.flush())
        .and_then(|()| std::fs::rename(&tmp, path));
    if done.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    done
}

/// Writes `bytes` to `path`, through a fresh temporary file renamed in place.
pub fn write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_with(path, |f| f.write_all(bytes))
}

/// A new file beside `path` (`.NAME.dropscore-PID-N`), created exclusively.
fn fresh_beside(path: &Path) -> io::Result<(PathBuf, File)> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path
        .file_name()
        .map_or_else(|| "out".into(), |n| n.to_string_lossy().into_owned());
    let mut last = None;
    for n in 0..100u32 {
        let tmp = dir.join(format!(".{name}.dropscore-{}-{n}", std::process::id()));
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
        {
            Ok(f) => return Ok((tmp, f)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| io::Error::other("no temporary name left")))
}
