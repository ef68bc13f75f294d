//! Opening `.zip` archives with the `zip` crate (central directory only; members are inflated lazily by
//! the entry's own stream). Stored and deflate members are supported; names are UTF-8 or CP437.

use super::{Blob, BlobReader, FileSet, Limits, Role, Source};
use crate::budget::human;
use crate::diag::Diagnostic;
use std::io::Read;
use std::rc::Rc;

type Archive = zip::ZipArchive<BlobReader>;

/// A member to add: its path (`archive!member`), where its bytes are, and its decompressed size.
struct Member {
    path: String,
    source: Source,
    size: u64,
}

/// Where a member's bytes lie in the archive (local header to end of data), and its path.
type Span = (u64, u64, String);

/// What the central directory says of one member.
enum Listed {
    /// A member that cannot be read (its error is already reported).
    Skipped,
    /// A directory entry: its path (`archive!name/`).
    Folder(String),
    /// Over the per-file limit or the ratio rule: the refusal, reported unless the whole archive is refused.
    Refused(Span, Diagnostic),
    Kept(Span, Member),
}

/// Adds the members of the zip archive `source` (named `path`) to `set`, or the archive as one entry when it
/// is an Office document; refusals (too many members, members that share bytes, sizes over the limits) are
/// diagnostics.
pub(super) fn expand(
    set: &mut FileSet,
    path: &str,
    role: Option<Role>,
    source: Source,
    limits: &Limits,
    depth: u32,
) {
    let Some(blob) = random_access(set, path, &source, limits) else {
        return;
    };
    // The archive's file stays open while its directory is read (many small reads), and closes after.
    let _held = super::blob::Held::new(&*blob);
    let Some(mut archive) = open_archive(set, path, &blob) else {
        return;
    };
    if is_office_document(&archive) {
        let size = blob.len();
        set.push_entry(
            path.to_string(),
            role,
            size,
            Source::Plain(blob.clone()),
            limits,
        );
        return;
    }
    if archive.len() > limits.max_entries {
        set.diagnostics.push(
            Diagnostic::error(
                "input.limit",
                format!(
                    "zip has {} entries (limit {})",
                    archive.len(),
                    limits.max_entries
                ),
            )
            .file(path),
        );
        return;
    }
    let mut members = Vec::new();
    // Where each member's bytes lie, to find members that share bytes.
    let mut spans: Vec<Span> = Vec::new();
    // Members refused by size, reported unless the whole archive is refused.
    let mut refusals = Vec::new();
    let mut folders = Vec::new();
    for i in 0..archive.len() {
        match list_member(set, &mut archive, i, path, &blob, limits) {
            Listed::Skipped => {}
            Listed::Folder(f) => folders.push(f),
            Listed::Refused(span, why) => {
                spans.push(span);
                refusals.push(why);
            }
            Listed::Kept(span, member) => {
                spans.push(span);
                members.push(member);
            }
        }
    }
    if let Some(refusal) = overlap_refusal(&mut spans, path) {
        set.diagnostics.push(refusal);
        return;
    }
    set.diagnostics.extend(refusals);
    // Directory entries with no member below them are the archive's empty folders.
    for f in folders {
        let prefix = format!("{}/", f.trim_end_matches('/'));
        if !spans.iter().any(|s| s.2.starts_with(&prefix)) {
            set.add_empty_folder(prefix, role);
        }
    }
    add_members(set, members, role, limits, depth);
}

/// The archive's bytes, random-access: a plain blob as it is, or (a zip nested in a zip or in a `.gz`) the
/// member inflated into memory, up to [`Limits::max_nested_zip`]. `None` (reported) when it cannot be had.
fn random_access(
    set: &mut FileSet,
    path: &str,
    source: &Source,
    limits: &Limits,
) -> Option<Rc<dyn Blob>> {
    if let Source::Plain(b) = source {
        return Some(b.clone());
    }
    let mut v = Vec::new();
    let res = source
        .open()
        .and_then(|r| r.take(limits.max_nested_zip + 1).read_to_end(&mut v));
    if let Err(e) = res {
        set.diagnostics.push(Diagnostic::read_error(path, e));
        return None;
    }
    if v.len() as u64 > limits.max_nested_zip {
        set.diagnostics.push(
            Diagnostic::error(
                "input.limit",
                format!(
                    "nested zip larger than {} MiB not opened",
                    limits.max_nested_zip >> 20
                ),
            )
            .file(path)
            .hint("Unzip the inner archive and drop its files."),
        );
        return None;
    }
    Some(Rc::new(v))
}

/// The archive's central directory, or `None` (reported) when it is not a readable zip.
fn open_archive(set: &mut FileSet, path: &str, blob: &Rc<dyn Blob>) -> Option<Archive> {
    match zip::ZipArchive::new(BlobReader::new(blob.clone())) {
        Ok(a) => Some(a),
        Err(e) => {
            set.diagnostics.push(
                Diagnostic::error(
                    "input.zip.invalid",
                    format!("not a readable zip archive: {e}"),
                )
                .file(path)
                .hint("Re-create the archive with a standard zip tool (stored or deflate)."),
            );
            None
        }
    }
}

/// An Office document (or OpenDocument file) is a zip, but the user gave one file: it is kept whole, so that
/// it is named for what it is, not opened as `report.docx![Content_Types].xml`.
fn is_office_document(archive: &Archive) -> bool {
    archive.index_for_name("[Content_Types].xml").is_some()
        || archive.index_for_name("mimetype").is_some()
            && archive.index_for_name("content.xml").is_some()
}

/// Member `i` of the archive at `path`, as its central directory describes it. Problems that skip the member
/// (unreadable, unsupported method, encrypted) are reported here.
fn list_member(
    set: &mut FileSet,
    archive: &mut Archive,
    i: usize,
    path: &str,
    blob: &Rc<dyn Blob>,
    limits: &Limits,
) -> Listed {
    let f = match archive.by_index_raw(i) {
        Ok(f) => f,
        Err(e) => {
            set.diagnostics.push(
                Diagnostic::error("input.zip.invalid", format!("entry {i} unreadable: {e}"))
                    .file(path),
            );
            return Listed::Skipped;
        }
    };
    let name = match f.name() {
        Ok(n) => n.replace('\\', "/"),
        Err(e) => {
            set.diagnostics.push(
                Diagnostic::error("input.zip.invalid", format!("entry {i}: bad name: {e}"))
                    .file(path),
            );
            return Listed::Skipped;
        }
    };
    let member_path = format!("{path}!{name}");
    if f.is_dir() {
        return Listed::Folder(member_path);
    }
    let Some(method) = readable_method(set, f.compression(), f.encrypted(), &member_path) else {
        return Listed::Skipped;
    };
    let clen = f.compressed_size();
    let Some(start) = f.data_start() else {
        set.diagnostics.push(
            Diagnostic::error("input.zip.invalid", "entry data not found").file(&member_path),
        );
        return Listed::Skipped;
    };
    let span = (
        f.header_start(),
        start.saturating_add(clen),
        member_path.clone(),
    );
    let ulen = f.size();
    if let Some(why) = size_refusal(&member_path, clen, ulen, limits) {
        return Listed::Refused(span, why);
    }
    let source = Source::Member {
        blob: blob.clone(),
        start,
        clen,
        method,
        limit: ulen,
    };
    Listed::Kept(
        span,
        Member {
            path: member_path,
            source,
            size: ulen,
        },
    )
}

/// A member's compression method as its source reads it (0 stored, 8 deflate), or `None` (reported) when its
/// bytes cannot be read: another method, or encrypted.
fn readable_method(
    set: &mut FileSet,
    method: zip::CompressionMethod,
    encrypted: bool,
    member_path: &str,
) -> Option<u16> {
    let method = match method {
        zip::CompressionMethod::Stored => 0u16,
        zip::CompressionMethod::Deflated => 8u16,
        m => {
            set.diagnostics.push(
                Diagnostic::error("input.zip.unsupported_method", format!("compression method {m:?} not supported"))
                    .file(member_path)
                    .expected("stored or deflate")
                    .found(format!("{m:?}"))
                    .hint("Re-create the archive with deflate compression (the default of every zip tool)."),
            );
            return None;
        }
    };
    if encrypted {
        set.diagnostics.push(
            Diagnostic::error(
                "input.zip.encrypted",
                "encrypted zip entries cannot be read",
            )
            .file(member_path)
            .hint("Re-create the archive without a password."),
        );
        return None;
    }
    Some(method)
}

/// The refusal of a member of `ulen` bytes compressed to `clen`: over the per-file limit, or inflating by more
/// than the ratio rule allows (a possible zip bomb).
fn size_refusal(member_path: &str, clen: u64, ulen: u64, limits: &Limits) -> Option<Diagnostic> {
    let ratio = ulen > limits.ratio_floor && ulen / clen.max(1) > limits.max_ratio;
    if ulen <= limits.max_entry_bytes && !ratio {
        return None;
    }
    let why = if ulen > limits.max_entry_bytes {
        limits.entry_refusal("the entry is", ulen)
    } else {
        format!(
            "the entry inflates {} to {} (over {}:1 above {}): refused as a possible zip bomb; drop the file uncompressed if it is genuine",
            human(clen),
            human(ulen),
            limits.max_ratio,
            human(limits.ratio_floor)
        )
    };
    Some(
        Diagnostic::error("input.limit", why)
            .file(member_path)
            .expected(format!(
                "at most {} per file, ratio at most {}:1",
                human(limits.max_entry_bytes),
                limits.max_ratio
            ))
            .found(format!("{ulen} bytes from {clen}"))
            .hint("Drop the uncompressed files instead."),
    )
}

/// Members whose bytes overlap: a zip bomb that repeats one member many times (a real archive never shares
/// bytes between members). The whole archive is refused before anything is inflated. Sorts `spans`.
fn overlap_refusal(spans: &mut [Span], path: &str) -> Option<Diagnostic> {
    spans.sort_unstable_by_key(|s| (s.0, s.1));
    let w = spans.windows(2).find(|w| w[1].0 < w[0].1)?;
    let count = spans.windows(2).filter(|w| w[1].0 < w[0].1).count() + 1;
    Some(
        Diagnostic::error(
            "input.zip.overlap",
            format!(
                "{count} entries of this zip share their bytes with another entry (`{}` and `{}`): refused \
                 as a zip bomb, nothing in it is read",
                w[0].2, w[1].2
            ),
        )
        .file(path)
        .expected("entries that do not overlap")
        .hint("Re-create the archive with a standard zip tool."),
    )
}

/// Adds the kept members, in the archive's order: archives, `.gz` and junk go through [`FileSet::add`]
/// (opened one level deeper, or dropped with an info), the others are entries.
fn add_members(
    set: &mut FileSet,
    members: Vec<Member>,
    role: Option<Role>,
    limits: &Limits,
    depth: u32,
) {
    for Member { path, source, size } in members {
        // Deflate members inflate: their sizes count against the run's total. Stored members are read in
        // place from the archive, which is already counted.
        if matches!(source, Source::Member { method: 8, .. }) && !set.charge(&path, size, limits) {
            continue;
        }
        let lower = path.to_ascii_lowercase();
        if lower.ends_with(".zip") || lower.ends_with(".gz") || super::junk(&path).is_some() {
            set.add(path, role, source, limits, depth + 1);
        } else {
            set.push_entry(path, role, size, source, limits);
        }
    }
}
