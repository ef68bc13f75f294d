//! Inputs named by path, as the command line and the Python binding take them: a named path is followed when it
//! is a link (the user chose it); a folder is walked by [`super::disk`], its links and special files reported and
//! skipped, never followed nor opened.

use super::disk::{self, io_words, Kind};
use super::{DiskFile, Input, Role};
use crate::diag::Diagnostic;
use std::path::Path;
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

/// The ground truth's files with paths relative to the dropped roots: a folder `a/b/ref` gives `ref/…`, a
/// file gives its name (the manifest holds no absolute path).
pub fn load_relative(roots: &[String]) -> Result<Vec<Input>, String> {
    let mut out = Vec::new();
    for root in roots {
        let mut one = Vec::new();
        let mut walked = Vec::new();
        load(std::slice::from_ref(root), Role::Gt, &mut one, &mut walked)?;
        let path = Path::new(root);
        let parent = if path.is_dir() { path.parent() } else { None };
        for mut i in one {
            let rel = match parent {
                Some(p) if !p.as_os_str().is_empty() => Path::new(&i.path)
                    .strip_prefix(p)
                    .map(|r| r.to_string_lossy().replace('\\', "/"))
                    .unwrap_or_else(|_| i.path.clone()),
                Some(_) => i.path.clone(),
                None => path
                    .file_name()
                    .map_or(i.path.clone(), |n| n.to_string_lossy().into_owned()),
            };
            i.path = rel.trim_start_matches("./").to_string();
            out.push(i);
        }
    }
    Ok(out)
}
