//! Files of the wrong kind, named in plain words before any parser sees them: "`report.docx` is a Word
//! document; the prediction side expects …". Each protocol says which kinds it reads
//! ([`Protocol::accepts`](super::Protocol::accepts)); an empty file is called empty.

use super::shell::AnyProtocol;
use crate::diag::Diagnostic;
use crate::input::kind::Kind;
use crate::input::{Entry, Role};

/// The error for an entry of kind `kind` that protocol `p` does not read in its role, or `None` when it does.
pub fn refusal(p: &dyn AnyProtocol, e: &Entry, kind: Kind) -> Option<Diagnostic> {
    if p.accepts(kind, e.role) {
        return None;
    }
    let info = p.info();
    let (side, expects) = match e.role {
        Some(Role::Gt) => ("ground-truth side", info.gt_files),
        Some(Role::Pred) => ("prediction side", info.pred_files),
        None => ("protocol", info.pred_files),
    };
    let name = e.name();
    let hint = match kind {
        Kind::Empty => "Check that the file was saved or exported completely, then drop it again.".to_string(),
        Kind::Jpeg if p.accepts(Kind::Png, e.role) => {
            "JPEG is lossy and changes colours: save predictions as PNG.".to_string()
        }
        Kind::Word | Kind::Excel | Kind::PowerPoint | Kind::OpenDocument | Kind::Pdf => {
            "A document is not read: export the data itself (for example as CSV or plain text) and drop that file."
                .to_string()
        }
        Kind::Binary => {
            "This is not text: check that it is the right file, saved as UTF-8 text.".to_string()
        }
        Kind::Utf16 => {
            "Save the file as UTF-8 (in a spreadsheet: \"CSV UTF-8\", not \"Unicode text\")."
                .to_string()
        }
        _ => format!("Drop the {side}'s files here, not this one."),
    };
    let (code, message) = if kind == Kind::Utf16 {
        (
            "input.wrong_kind",
            format!("`{name}` is UTF-16 text: save the file as UTF-8"),
        )
    } else if kind == Kind::Empty {
        (
            "input.empty",
            format!("`{name}` is empty (0 bytes); the {side} expects a file with content"),
        )
    } else {
        (
            "input.wrong_kind",
            format!(
                "`{name}` is {}; the {side} expects other files",
                kind.describe()
            ),
        )
    };
    Some(
        Diagnostic::error(code, message)
            .file(&e.path)
            .expected(expects)
            .found(kind.describe())
            .hint(hint),
    )
}
