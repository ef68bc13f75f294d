//! The page view's request (`www/views/text.js`): `alignment`, the character alignment of one item as
//! rapidfuzz's `opcodes` gives it to jiwer ([`crate::metrics::edit::alignment`]), as runs of equal,
//! substituted, deleted and inserted text, for the view to colour. The pairs are read once per session and
//! options ([`crate::protocols::views::Cache`]).

use super::inputs::Pairs;
use super::{read_pairs, TextOptions};
use crate::diag::Diags;
use crate::metrics::edit::{alignment, Op};
use crate::metrics::text::jiwer;
use crate::protocols::options::OptionSet;
use crate::protocols::views::{Extras, View, ViewCall, ViewOut};
use crate::protocols::Options;
use serde_json::{json, Value};

pub static EXTRAS: Extras = Extras {
    page_view: true,
    views: &[
        View {
            name: "alignment",
            run: |call: &mut ViewCall| align(call).map(ViewOut::from),
        },
        View {
            name: "page_lines",
            run: |call: &mut ViewCall| page_lines(call).map(ViewOut::from),
        },
    ],
    ..Extras::NONE
};

/// `{"id", "reference", "hypothesis", "runs": [[kind, ref text, hyp text], …]}` for `{"id": …}`; `kind` is
/// `equal`, `substitute`, `delete` or `insert`.
fn align(call: &mut ViewCall) -> Result<Value, String> {
    let id = call.text("id")?.to_string();
    let pairs = pairs_of(call)?;
    runs(pairs, &id).ok_or_else(|| format!("no item `{id}`"))
}

/// The session's pairs for the call's options, read once.
fn pairs_of<'c>(call: &'c mut ViewCall) -> Result<&'c Pairs, String> {
    let key = call.options_key();
    let (files, req) = (call.files, call.req);
    call.cache.keyed(key, || {
        let resolved = Options::resolve(TextOptions::SPECS, req.mode, &req.set)?;
        let opts = TextOptions::read(&resolved);
        let mut diags = Diags::new();
        read_pairs(files, &opts, &mut diags)
            .map_err(|e| e.0)?
            .ok_or_else(|| "the inputs could not be read".to_string())
    })
}

/// `page_lines` (`{"page": stem}`, optional): for the `page` layout, every page (stem, lines, character
/// errors, reference characters, CER) and the lines of the asked page (default the first), in the order of
/// its PAGE XML, each with its line id, CER and alignment runs. Other layouts: `{"pages": []}`.
fn page_lines(call: &mut ViewCall) -> Result<Value, String> {
    let asked = call
        .args
        .get("page")
        .and_then(Value::as_str)
        .map(str::to_string);
    let p = pairs_of(call)?;
    Ok(super::page_view::pages(p, asked.as_deref()))
}

/// The runs of item `id`'s alignment (first reference).
pub fn runs(p: &Pairs, id: &str) -> Option<Value> {
    let i = p.ids.iter().position(|x| x == id)?;
    let r = jiwer::chars(p.refs[i].first()?);
    let h = jiwer::chars(&p.hyps[i]);
    let mut out: Vec<(&str, String, String)> = Vec::new();
    for (op, a, b) in alignment(&r, &h) {
        let (kind, x, y) = match op {
            Op::Equal => ("equal", Some(r[a]), Some(h[b])),
            Op::Replace => ("substitute", Some(r[a]), Some(h[b])),
            Op::Delete => ("delete", Some(r[a]), None),
            Op::Insert => ("insert", None, Some(h[b])),
        };
        if out.last().is_none_or(|l| l.0 != kind) {
            out.push((kind, String::new(), String::new()));
        }
        if let Some(l) = out.last_mut() {
            l.1.extend(x);
            l.2.extend(y);
        }
    }
    let runs: Vec<Value> = out.into_iter().map(|(k, a, b)| json!([k, a, b])).collect();
    Some(
        json!({ "id": id, "reference": p.refs[i].join(super::rows::REF_SEPARATOR), "hypothesis": p.hyps[i], "runs": runs }),
    )
}
