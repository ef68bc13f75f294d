//! The command line's inputs on disk: the paths of `--gt`/`--pred`, and the `ref/` and `res/` folders of the
//! scoring program. Folders are walked by [`dropscore::input::disk`]: links and special files inside them are
//! never followed nor opened, only reported (warnings) and skipped.

use dropscore::input::disk::{self, io_words, Kind};
use dropscore::input::{DiskFile, Input, Role};
use dropscore::Diagnostic;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// Files and folders (recursively, sorted) as inputs; a folder's files are shown as the folder's path joined
/// with theirs. A path named on the command line is followed when it is a link (the user chose it), and is a
/// usage error (`Err`) when it does not exist; a named special file, and links and special files inside a
/// folder, are skipped with a warning in `diags`.
pub fn load(
    paths: &[String],
    role: Role,
    inputs: &mut Vec<Input>,
    diags: &mut Vec<Diagnostic>,
) -> Result<(), String> {
    for p in paths {
        let path = Path::new(p);
        match disk::kind_followed(path).map_err(|e| format!("{p}: {}", io_words(&e)))? {
            Kind::Dir => {
                let shown = |f: &Path| f.to_string_lossy().replace('\\', "/");
                inputs.extend(disk::folder_inputs(
                    path,
                    &shown,
                    Some(role),
                    &|_| true,
                    diags,
                ));
            }
            Kind::File => {
                let blob = DiskFile::open(path).map_err(|e| format!("{p}: {}", io_words(&e)))?;
                inputs.push(Input {
                    path: p.clone(),
                    role: Some(role),
                    blob: Rc::new(blob),
                });
            }
            other => diags.extend(disk::skipped(&other, p)),
        }
    }
    Ok(())
}

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
