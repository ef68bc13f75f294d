//! Opening `.zip` archives with the `zip` crate (central directory only; members are inflated lazily by
//! the entry's own stream). Stored and deflate members are supported; names are UTF-8 or CP437.

use super::{BlobReader, FileSet, Limits, Role, Source};
use crate::budget::human;
use crate::diag::Diagnostic;
use std::io::Read;
use std::rc::Rc;

pub(super) fn expand(
    set: &mut FileSet,
    path: &str,
    role: Option<Role>,
    source: Source,
    limits: &Limits,
    depth: u32,
) {
    // The archive must be random-access: a plain blob, or (nested) a member inflated into memory.
    let blob: Rc<dyn super::Blob> = match &source {
        Source::Plain(b) => b.clone(),
        other => {
            let mut v = Vec::new();
            let res = other
                .open()
                .and_then(|r| r.take(limits.max_nested_zip + 1).read_to_end(&mut v));
            if let Err(e) = res {
                set.diagnostics.push(Diagnostic::read_error(path, e));
                return;
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
                return;
            }
            Rc::new(v)
        }
    };
    let mut archive = match zip::ZipArchive::new(BlobReader::new(blob.clone())) {
        Ok(a) => a,
        Err(e) => {
            set.diagnostics.push(
                Diagnostic::error(
                    "input.zip.invalid",
                    format!("not a readable zip archive: {e}"),
                )
                .file(path)
                .hint("Re-create the archive with a standard zip tool (stored or deflate)."),
            );
            return;
        }
    };
    // An Office document (or OpenDocument file) is a zip, but the user gave one file: keep it whole, so that
    // it is named for what it is, not opened as `report.docx![Content_Types].xml`.
    if archive.index_for_name("[Content_Types].xml").is_some()
        || archive.index_for_name("mimetype").is_some()
            && archive.index_for_name("content.xml").is_some()
    {
        let size = blob.len();
        set.push_entry(path.to_string(), role, size, Source::Plain(blob), limits);
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
    // Where each member's bytes lie (local header to end of data), to find members that share bytes.
    let mut spans: Vec<(u64, u64, String)> = Vec::new();
    // Members refused by size, reported unless the whole archive is refused.
    let mut refusals = Vec::new();
    for i in 0..archive.len() {
        let f = match archive.by_index_raw(i) {
            Ok(f) => f,
            Err(e) => {
                set.diagnostics.push(
                    Diagnostic::error("input.zip.invalid", format!("entry {i} unreadable: {e}"))
                        .file(path),
                );
                continue;
            }
        };
        if f.is_dir() {
            continue;
        }
        let name = match f.name() {
            Ok(n) => n.replace('\\', "/"),
            Err(e) => {
                set.diagnostics.push(
                    Diagnostic::error("input.zip.invalid", format!("entry {i}: bad name: {e}"))
                        .file(path),
                );
                continue;
            }
        };
        let member_path = format!("{path}!{name}");
        let method = match f.compression() {
            zip::CompressionMethod::Stored => 0u16,
            zip::CompressionMethod::Deflated => 8u16,
            m => {
                set.diagnostics.push(
                    Diagnostic::error("input.zip.unsupported_method", format!("compression method {m:?} not supported"))
                        .file(&member_path)
                        .expected("stored or deflate")
                        .found(format!("{m:?}"))
                        .hint("Re-create the archive with deflate compression (the default of every zip tool)."),
                );
                continue;
            }
        };
        if f.encrypted() {
            set.diagnostics.push(
                Diagnostic::error(
                    "input.zip.encrypted",
                    "encrypted zip entries cannot be read",
                )
                .file(&member_path)
                .hint("Re-create the archive without a password."),
            );
            continue;
        }
        let clen = f.compressed_size();
        let Some(start) = f.data_start() else {
            set.diagnostics.push(
                Diagnostic::error("input.zip.invalid", "entry data not found").file(&member_path),
            );
            continue;
        };
        spans.push((
            f.header_start(),
            start.saturating_add(clen),
            member_path.clone(),
        ));
        let (clen, ulen) = (f.compressed_size(), f.size());
        let ratio = ulen > limits.ratio_floor && ulen / clen.max(1) > limits.max_ratio;
        if ulen > limits.max_entry_bytes || ratio {
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
            refusals.push(
                Diagnostic::error("input.limit", why)
                    .file(&member_path)
                    .expected(format!(
                        "at most {} per file, ratio at most {}:1",
                        human(limits.max_entry_bytes),
                        limits.max_ratio
                    ))
                    .found(format!("{ulen} bytes from {clen}"))
                    .hint("Drop the uncompressed files instead."),
            );
            continue;
        }
        members.push((
            member_path,
            Source::Member {
                blob: blob.clone(),
                start,
                clen,
                method,
                limit: ulen,
            },
            ulen,
        ));
    }
    // Members whose bytes overlap: a zip bomb that repeats one member many times (a real archive never
    // shares bytes between members). The whole archive is refused before anything is inflated.
    spans.sort_unstable_by_key(|s| (s.0, s.1));
    if let Some(w) = spans.windows(2).find(|w| w[1].0 < w[0].1) {
        let count = spans.windows(2).filter(|w| w[1].0 < w[0].1).count() + 1;
        set.diagnostics.push(
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
        );
        return;
    }
    set.diagnostics.extend(refusals);
    for (member_path, src, ulen) in members {
        // Deflate members inflate: their sizes count against the run's total. Stored members are read in
        // place from the archive, which is already counted.
        if matches!(src, Source::Member { method: 8, .. })
            && !set.charge(&member_path, ulen, limits)
        {
            continue;
        }
        let lower = member_path.to_ascii_lowercase();
        // Archives, .gz and junk go through `add` (opened one level deeper, or dropped with an info).
        if lower.ends_with(".zip") || lower.ends_with(".gz") || super::junk(&member_path).is_some()
        {
            set.add(member_path, role, src, limits, depth + 1);
        } else {
            set.push_entry(member_path, role, ulen, src, limits);
        }
    }
}
