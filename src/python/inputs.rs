//! The binding's inputs as the command line reads its arguments (src/cli/inputs.rs: a named path is followed, a
//! folder is walked with links and special files skipped and reported), plus in-memory files.

use super::PyInput;
use crate::diag::Diagnostic;
use crate::input::disk::{self, io_words, Kind};
use crate::input::{DiskFile, Input, Role};
use crate::protocols;
use std::path::Path;
use std::rc::Rc;

/// The inputs, and the walk's diagnostics. `relative`: paths relative to each root (a folder `a/b/ref` gives
/// `ref/…`, a file its name), as `dropscore manifest` names them.
pub fn load(inputs: Vec<PyInput>, relative: bool) -> Result<(Vec<Input>, Vec<Diagnostic>), String> {
    let mut out = Vec::new();
    let mut diags = Vec::new();
    for (role, path, data) in inputs {
        let role =
            Role::parse(&role).ok_or_else(|| format!("role must be gt or pred, not `{role}`"))?;
        match data {
            Some(bytes) => out.push(Input {
                path,
                role: Some(role),
                blob: Rc::new(bytes.to_vec()),
            }),
            None => {
                let start = out.len();
                from_disk(&path, role, &mut out, &mut diags)?;
                if relative {
                    make_relative(&path, &mut out[start..]);
                }
            }
        }
    }
    Ok((out, diags))
}

fn from_disk(
    p: &str,
    role: Role,
    out: &mut Vec<Input>,
    diags: &mut Vec<Diagnostic>,
) -> Result<(), String> {
    let path = Path::new(p);
    match disk::kind_followed(path).map_err(|e| format!("{p}: {}", io_words(&e)))? {
        Kind::Dir => {
            let shown = |f: &Path| f.to_string_lossy().replace('\\', "/");
            for f in disk::walk(path, &shown, diags) {
                match disk::open_found(&f, &shown(&f)) {
                    Ok(blob) => out.push(Input {
                        path: shown(&f),
                        role: Some(role),
                        blob: Rc::new(blob),
                    }),
                    Err(d) => diags.push(*d),
                }
            }
        }
        Kind::File => {
            let blob = DiskFile::open(path).map_err(|e| format!("{p}: {}", io_words(&e)))?;
            out.push(Input {
                path: p.to_string(),
                role: Some(role),
                blob: Rc::new(blob),
            });
        }
        other => diags.extend(disk::skipped(&other, p)),
    }
    Ok(())
}

fn make_relative(root: &str, inputs: &mut [Input]) {
    let path = Path::new(root);
    let parent = if path.is_dir() { path.parent() } else { None };
    for i in inputs {
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
    }
}

/// Options of type `file`/`files` name files; a value that is a file on disk and not already an input is added
/// as an input without a role (the protocol finds it by name), as the command line does.
pub fn with_option_files(
    protocol: &str,
    set: &[(String, String)],
    mut inputs: Vec<Input>,
) -> Vec<Input> {
    let Some(info) = protocols::info(protocol) else {
        return inputs;
    };
    for (k, v) in set {
        let Some(spec) = info.options.iter().find(|o| o.name == k) else {
            continue;
        };
        if spec.kind != "file" && spec.kind != "files" {
            continue;
        }
        for p in v.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            if inputs.iter().any(|i| i.path == p) || !Path::new(p).is_file() {
                continue;
            }
            if let Ok(blob) = DiskFile::open(Path::new(p)) {
                inputs.push(Input {
                    path: p.to_string(),
                    role: None,
                    blob: Rc::new(blob),
                });
            }
        }
    }
    inputs
}
