//! The protocols' assets on the command line and in the scoring program (src/protocols/views.rs [`Asset`]):
//! each asset the protocol declares is loaded from the first file found of `--<flag> FILE`, `$<ENV>`, its file
//! name next to the executable, then the repository's `www/assets/`. None found is not an error (scoring says
//! what it missed); a file named with the flag must exist, and a file found must load.

use dropscore::protocols::views::Asset;
use dropscore::protocols::{self, Request};
use std::path::PathBuf;

/// Where `asset` may be, in order, keeping those that exist; `explicit` is its flag's value.
fn candidates(asset: &Asset, explicit: Option<&str>) -> Vec<PathBuf> {
    let mut c: Vec<PathBuf> = explicit.map(PathBuf::from).into_iter().collect();
    c.extend(
        std::env::var_os(asset.env)
            .filter(|e| !e.is_empty())
            .map(PathBuf::from),
    );
    if let Some(dir) = std::env::current_exe()
        .ok()
        .and_then(|p| p.parent().map(PathBuf::from))
    {
        c.push(dir.join(asset.file));
    }
    c.push(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("www/assets")
            .join(asset.file),
    );
    c.into_iter().filter(|p| p.is_file()).collect()
}

/// Loads every asset of `protocol` into `req`. `flags` are the command line's asset options as (flag, value);
/// an asset whose flag is not among them is looked for without one. Errors name the file, in plain words.
pub fn load(
    protocol: &str,
    flags: &[(&str, Option<&str>)],
    req: &mut Request,
) -> Result<(), String> {
    let Some(p) = protocols::get(protocol) else {
        return Ok(());
    };
    for asset in p.extras().assets {
        let explicit = flags
            .iter()
            .find(|(f, _)| *f == asset.cli_flag)
            .and_then(|(_, v)| *v);
        if let Some(e) = explicit.filter(|e| !std::path::Path::new(e).is_file()) {
            return Err(format!("--{} {e}: no such file", asset.cli_flag));
        }
        let Some(path) = candidates(asset, explicit).into_iter().next() else {
            continue;
        };
        let shown = path.display();
        let bytes = std::fs::read(&path)
            .map_err(|e| format!("{shown}: {}", dropscore::input::disk::io_words(&e)))?;
        (asset.load)(&bytes, req).map_err(|e| format!("{shown}: {e}"))?;
    }
    Ok(())
}
