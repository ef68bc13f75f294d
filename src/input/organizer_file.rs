//! The organizer's own files: the competition config (`dropscore.toml` / `.json`), the pre-flight manifest and
//! a Codabench `competition.yaml`. Each is read whole, so each read is bounded (a size cap, named in the
//! refusal), of a regular file only (a FIFO or a device is refused before it is read, and a FIFO is opened
//! without waiting for a writer), never through a symbolic link, and, for a path the config names, inside the
//! config's folder (`ref/` in the scoring program).

use std::io::Read;
use std::path::{Component, Path, PathBuf};

/// Largest config or competition.yaml read: 64 MiB (a config of 100,000 leaderboard columns is 6 MB).
pub const CONFIG_MAX: u64 = 64 << 20;

/// Reads the organizer's file at `path` as UTF-8 text, at most `max` bytes. The error is one sentence that
/// starts with the path.
pub fn read_text(path: &Path, max: u64) -> Result<String, String> {
    let shown = path.display();
    let refused = |why: String| format!("{shown}: {why}");
    let meta =
        std::fs::symlink_metadata(path).map_err(|e| refused(crate::input::disk::io_words(&e)))?;
    let ft = meta.file_type();
    if ft.is_symlink() {
        return Err(refused(
            "a symbolic link: links are never followed; name the file itself".into(),
        ));
    }
    if !ft.is_file() {
        return Err(refused(format!(
            "{}, not a regular file: refused",
            not_a_file(&ft)
        )));
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // Between the look above and the open, the name may have been replaced: never follow a link, never
        // wait on a FIFO.
        options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    let file = options
        .open(path)
        .map_err(|e| refused(crate::input::disk::io_words(&e)))?;
    let meta = file
        .metadata()
        .map_err(|e| refused(crate::input::disk::io_words(&e)))?;
    if !meta.is_file() {
        return Err(refused(format!(
            "{}, not a regular file: refused",
            not_a_file(&meta.file_type())
        )));
    }
    let over = |size: u64| {
        refused(format!(
            "{} bytes or more, over the limit of {} for this file: refused",
            size,
            crate::budget::human(max)
        ))
    };
    if meta.len() > max {
        return Err(over(meta.len()));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(max.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| refused(crate::input::disk::io_words(&e)))?;
    if bytes.len() as u64 > max {
        return Err(over(bytes.len() as u64));
    }
    String::from_utf8(bytes).map_err(|e| {
        refused(format!(
            "not UTF-8 text (invalid bytes at offset {}); save it as UTF-8",
            e.utf8_error().valid_up_to()
        ))
    })
}

/// What a file type that is not a regular file is, in words.
fn not_a_file(ft: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if ft.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if ft.is_socket() {
            return "a socket";
        }
        if ft.is_block_device() || ft.is_char_device() {
            return "a device";
        }
    }
    if ft.is_dir() {
        "a folder"
    } else {
        "a special file"
    }
}

/// The file `named` (a path the config gives, relative to the config's folder `base`) inside `base`: no `..`,
/// no absolute path, and no folder on the way that is a symbolic link. `key` names the config key in the
/// refusal.
pub fn inside(base: &Path, named: &str, key: &str) -> Result<PathBuf, String> {
    let rel = Path::new(named);
    let mut at = base.to_path_buf();
    for c in rel.components() {
        match c {
            Component::Normal(part) => {
                if at != base
                    && std::fs::symlink_metadata(&at).is_ok_and(|m| m.file_type().is_symlink())
                {
                    return Err(format!(
                        "{key} = \"{named}\": {} is a symbolic link; links are never followed",
                        at.display()
                    ));
                }
                at.push(part);
            }
            Component::CurDir => {}
            _ => {
                return Err(format!(
                    "{key} = \"{named}\": name a file inside {} (the config's folder), without `..` or a drive",
                    base.display()
                ))
            }
        }
    }
    if at == base {
        return Err(format!("{key} = \"{named}\": names no file"));
    }
    Ok(at)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_stay_inside_the_config_folder() {
        let base = Path::new("/in/ref");
        assert_eq!(
            inside(base, "m.json", "manifest").unwrap(),
            PathBuf::from("/in/ref/m.json")
        );
        assert_eq!(
            inside(base, "./sub/m.json", "manifest").unwrap(),
            PathBuf::from("/in/ref/sub/m.json")
        );
        for bad in [
            "../../../../dev/zero",
            "a/../../x",
            "",
            "/",
            ".",
            "/dev/zero",
        ] {
            assert!(inside(base, bad, "manifest").is_err(), "{bad}");
        }
    }
}
