//! The PAGE XML view's data (docs/specs/text.md 3, "a PAGE XML page shows its lines with their errors"): for
//! the `page` layout, the pages with their character error counts and CER, and one page's lines in the order
//! of its PAGE XML file, each with its line id, its CER (jiwer 4.0's rate of the line alone) and its alignment
//! as runs for `www/views/text-page.js` to colour. Everything here is computed in Rust; the view only draws.

use super::inputs::Pairs;
use crate::formats::text_input::Layout;
use crate::metrics::edit::{self, Counts};
use crate::metrics::text::jiwer;
use serde_json::{json, Value};

/// Lines of one page sent at most (a page of a few thousand lines is a scan of a table; the rest are counted).
pub const MAX_LINES: usize = 2000;

/// The page stem and line id of an item of the `page` layout (`<page stem>/<line id>`).
fn split_id(id: &str) -> (&str, &str) {
    id.rsplit_once('/').unwrap_or(("", id))
}

/// The character counts of item `i` (its first reference).
fn counts(p: &Pairs, i: usize) -> Counts {
    let r = jiwer::chars(p.refs[i].first().map_or("", String::as_str));
    let h = jiwer::chars(&p.hyps[i]);
    edit::counts(&r, &h)
}

/// jiwer 4.0's rate of `c` alone (an empty reference: the number of insertions).
fn rate(c: &Counts) -> f64 {
    jiwer::rate(c)
}

/// `{"pages": [{page, lines, errors, chars, cer}], "page": stem, "lines": [{id, item, cer, runs}],
/// "more": n}`; `{"pages": []}` for other layouts.
pub fn pages(p: &Pairs, asked: Option<&str>) -> Value {
    if p.layout != Some(Layout::Page) {
        return json!({ "pages": [] });
    }
    // Pages in the order their first line appears; each page's items in their order.
    let mut order: Vec<&str> = Vec::new();
    let mut members: Vec<Vec<usize>> = Vec::new();
    let mut index: rustc_hash::FxHashMap<&str, usize> = Default::default();
    for (i, id) in p.ids.iter().enumerate() {
        let stem = split_id(id).0;
        let k = *index.entry(stem).or_insert_with(|| {
            order.push(stem);
            members.push(Vec::new());
            order.len() - 1
        });
        members[k].push(i);
    }
    let mut summary = Vec::new();
    for (stem, items) in order.iter().zip(&members) {
        let mut total = Counts::default();
        for &i in items {
            total.add(&counts(p, i));
        }
        let chars = total.hits + total.substitutions + total.deletions;
        summary.push(json!({
            "page": stem,
            "lines": items.len(),
            "errors": total.errors(),
            "chars": chars,
            "cer": rate(&total),
        }));
    }
    let at = asked
        .and_then(|a| order.iter().position(|s| *s == a))
        .unwrap_or(0);
    let lines: Vec<Value> = members
        .get(at)
        .map(|items| {
            items
                .iter()
                .take(MAX_LINES)
                .map(|&i| {
                    let runs = super::view::runs(p, &p.ids[i]).unwrap_or(Value::Null);
                    json!({
                        "id": split_id(&p.ids[i]).1,
                        "item": p.ids[i],
                        "cer": rate(&counts(p, i)),
                        "runs": runs["runs"],
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    let more = members
        .get(at)
        .map_or(0, |m| m.len().saturating_sub(MAX_LINES));
    json!({ "pages": summary, "page": order.get(at), "lines": lines, "more": more })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(items: &[(&str, &str, &str)], layout: Layout) -> Pairs {
        Pairs {
            ids: items.iter().map(|x| x.0.to_string()).collect(),
            refs: items.iter().map(|x| vec![x.1.to_string()]).collect(),
            hyps: items.iter().map(|x| x.2.to_string()).collect(),
            layout: Some(layout),
            ..Pairs::default()
        }
    }

    /// Pages in the order of their first line, lines in file order with their ids, CER and runs.
    #[test]
    fn pages_and_their_lines() {
        let p = pairs(
            &[
                ("p2/l1", "abcd", "abed"),
                ("p1/a", "xy", "xy"),
                ("p2/l2", "ef", "e"),
            ],
            Layout::Page,
        );
        let v = pages(&p, None);
        assert_eq!(v["pages"][0]["page"], "p2");
        assert_eq!(v["pages"][0]["lines"], 2);
        assert_eq!(v["pages"][0]["errors"], 2);
        assert_eq!(v["pages"][0]["cer"], 2.0 / 6.0);
        assert_eq!(v["pages"][1]["cer"], 0.0);
        assert_eq!(v["page"], "p2");
        assert_eq!(v["lines"][0]["id"], "l1");
        assert_eq!(v["lines"][0]["cer"], 0.25);
        assert_eq!(
            v["lines"][0]["runs"],
            json!([
                ["equal", "ab", "ab"],
                ["substitute", "c", "e"],
                ["equal", "d", "d"]
            ])
        );
        assert_eq!(v["lines"][1]["id"], "l2");
        assert_eq!(v["lines"][1]["runs"][1], json!(["delete", "f", ""]));
        let v = pages(&p, Some("p1"));
        assert_eq!(v["page"], "p1");
        assert_eq!(v["lines"][0]["item"], "p1/a");
        assert_eq!(
            pages(&pairs(&[("a", "b", "c")], Layout::Table), None),
            json!({"pages": []})
        );
    }
}
