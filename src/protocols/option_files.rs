//! Options of type `file`/`files` that name files on disk (a lookup table, …): the command line and the
//! Python binding add each named file as an input without a role, and the protocol finds it by name.

use crate::input::{DiskFile, Input};
use std::path::Path;
use std::rc::Rc;

/// Options of type `file`/`files` name files; a value that is a path on disk and not already an input is
/// added as an input without a role (the protocol finds it by name).
pub fn add(protocol: &str, set: &[(String, String)], inputs: &mut Vec<Input>) {
    let Some(info) = super::info(protocol) else {
        return;
    };
    for (k, v) in set {
        let Some(spec) = info
            .options
            .iter()
            .chain(super::options::SHELL_OPTIONS)
            .find(|o| o.name == k)
        else {
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
}
