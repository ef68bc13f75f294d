//! The binding's inputs: paths read as the command line reads its arguments ([`crate::input::paths`]), and
//! in-memory files.

use super::PyInput;
use crate::diag::Diagnostic;
use crate::input::{paths, Input, Role};
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
            None if relative => out.extend(paths::load_relative(std::slice::from_ref(&path))?),
            None => paths::load(std::slice::from_ref(&path), role, &mut out, &mut diags)?,
        }
    }
    Ok((out, diags))
}
