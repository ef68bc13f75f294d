//! The command line's inputs on disk: the paths of `--gt`/`--pred`, and the `ref/` and `res/` folders of the
//! scoring program. Folders are walked by [`dropscore::input::disk`]: links and special files inside them are
//! never followed nor opened, only reported (warnings) and skipped.

use dropscore::input::disk::{self, io_words, Kind};
use dropscore::input::{Input, Role};
use dropscore::Diagnostic;
use std::path::{Path, PathBuf};

pub use dropscore::input::paths::load;

/// Lists a Codabench input folder (`ref/` or `res/`) as inputs named `ref/...` / `res/...`, skipping the
/// config files in `ref/` and Codalab's `metadata` file at the top of either folder. The folder itself is not
/// followed either: when it is a link (dangling, or `res -> ..`), it is reported and read as empty. A missing
/// folder is a usage error.
pub fn list_dir(
    root: &Path,
    name: &str,
    role: Role,
    skip: &[PathBuf],
    out: &mut Vec<Input>,
    diags: &mut Vec<Diagnostic>,
) -> Result<(), String> {
    let dir = root.join(name);
    match disk::kind(&dir) {
        Ok(Kind::Dir) => {}
        Ok(Kind::File) => return Err(no_folder(&dir)),
        Ok(other) => {
            diags.extend(disk::skipped(&other, name));
            return Ok(());
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(no_folder(&dir)),
        Err(e) => return Err(format!("{}: {}", dir.display(), io_words(&e))),
    }
    let shown = |f: &Path| {
        let rel = f.strip_prefix(&dir).unwrap_or(f);
        format!("{name}/{}", rel.to_string_lossy().replace('\\', "/"))
    };
    let keep = |f: &Path| {
        let rel = f.strip_prefix(&dir).unwrap_or(f);
        !skip.contains(&f.to_path_buf()) && rel != Path::new("metadata")
    };
    out.extend(disk::folder_inputs(&dir, &shown, Some(role), &keep, diags));
    Ok(())
}

fn no_folder(dir: &Path) -> String {
    format!(
        "{}: no such folder (a scoring program's input has ref/ and res/)",
        dir.display()
    )
}
