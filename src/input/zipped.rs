//! Opening `.zip` archives with the `zip` crate (central directory only; members are inflated lazily by
//! the entry's own stream). Stored and deflate members are supported; names are UTF-8 or CP437.

use super::{BlobReader, FileSet, Limits, Role, Source};
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
        set.push_entry(path.to_string(), role, size, Source::Plain(blob));
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
        let (clen, ulen) = (f.compressed_size(), f.size());
        if ulen > limits.max_entry_bytes
            || (ulen > limits.ratio_floor && ulen / clen.max(1) > limits.max_ratio)
        {
            set.diagnostics.push(
                Diagnostic::error(
                    "input.limit",
                    format!("entry inflates {clen} bytes to {ulen} bytes: refused as a possible zip bomb"),
                )
                .file(&member_path)
                .expected(format!("at most {} bytes, ratio at most {}:1", limits.max_entry_bytes, limits.max_ratio))
                .found(format!("{ulen} bytes"))
                .hint("Drop the uncompressed files instead."),
            );
            continue;
        }
        let Some(start) = f.data_start() else {
            set.diagnostics.push(
                Diagnostic::error("input.zip.invalid", "entry data not found").file(&member_path),
            );
            continue;
        };
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
    for (member_path, src, ulen) in members {
        let lower = member_path.to_ascii_lowercase();
        // Archives, .gz and junk go through `add` (opened one level deeper, or dropped with an info).
        if lower.ends_with(".zip") || lower.ends_with(".gz") || super::junk(&member_path).is_some()
        {
            set.add(member_path, role, src, limits, depth + 1);
        } else {
            set.push_entry(member_path, role, ulen, src);
        }
    }
}
