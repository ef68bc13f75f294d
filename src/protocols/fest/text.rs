//! The official script's text output (spec 8): per image `Calculating metrics...` and five `Name:  value` lines,
//! values as Python's `str()` prints them; then the per-manuscript means and the leaderboard value.

use crate::report::Report;

const NAMES: [(&str, &str); 5] = [
    ("pixel_iu", "Pixel IU"),
    ("line_iu", "Line IU"),
    ("dr", "Detection Rate"),
    ("ra", "Recognition Accuracy"),
    ("fm", "F-measure"),
];

pub use crate::pycompat::float_repr as py_float;

pub fn render_text(report: &Report) -> String {
    let mut out = String::new();
    let mut items: Vec<&crate::report::Item> = report.items.iter().collect();
    items.sort_by_key(|i| {
        i.detail
            .get("order")
            .and_then(|v| v.as_u64())
            .unwrap_or(u64::MAX)
    });
    let official = report.mode == crate::report::Mode::Official;
    let mut stopped = false;
    for it in items {
        let scored = it.detail.contains_key("n1");
        if official && (!scored || it.scores.get("ra").is_none()) {
            let why = report
                .diagnostics
                .iter()
                .find(|d| d.is_error())
                .map_or(String::new(), |d| {
                    format!(": {} {}", d.code, d.file.clone().unwrap_or_default())
                });
            if scored {
                out.push_str("Calculating metrics...\n");
            }
            out.push_str(&format!(
                "# the official script stops here ({}{why})\n",
                it.id
            ));
            stopped = true;
            break;
        }
        if !scored {
            out.push_str(&format!("# {}: not scored\n", it.id));
            continue;
        }
        out.push_str("Calculating metrics...\n");
        let zero: Vec<&str> = it
            .detail
            .get("int_zero")
            .and_then(|v| v.as_array())
            .map(|a| a.iter().filter_map(|x| x.as_str()).collect())
            .unwrap_or_default();
        for (id, name) in NAMES {
            let v = if zero.contains(&id) {
                "0".to_string()
            } else {
                it.scores.get(id).map_or("None".into(), py_float)
            };
            out.push_str(&format!("{name}:  {v}\n"));
        }
    }
    if stopped {
        return out;
    }
    for g in &report.groups {
        out.push_str(&format!("Manuscript {}:\n", g.id));
        for (id, name) in NAMES {
            out.push_str(&format!(
                "{name}:  {}\n",
                g.scores.get(id).map_or("nan".into(), py_float)
            ));
        }
    }
    out.push_str(&format!(
        "Leaderboard Line IU:  {}\n",
        report.scores.get("line_iu").map_or("nan".into(), py_float)
    ));
    out
}
