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

/// Python's `repr(float)`: shortest round-trip digits, fixed notation for 1e-4 ≤ |x| < 1e16, otherwise
/// `d.ddde±XX`; always a `.0` on integral values; `nan`, `inf`.
pub fn py_float(x: f64) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf".into() } else { "-inf".into() };
    }
    if x == 0.0 {
        return if x.is_sign_negative() {
            "-0.0".into()
        } else {
            "0.0".into()
        };
    }
    let e = format!("{:e}", x); // shortest digits, e.g. "6.845425867507886e-1"
    let (mant, exp) = e.split_once('e').unwrap_or((&e, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let neg = mant.starts_with('-');
    let digits: String = mant.chars().filter(|c| c.is_ascii_digit()).collect();
    let sign = if neg { "-" } else { "" };
    if (-4..16).contains(&exp) {
        let n = digits.len() as i32;
        let s = if exp < 0 {
            format!("0.{}{}", "0".repeat((-exp - 1) as usize), digits)
        } else if exp + 1 >= n {
            format!("{}{}.0", digits, "0".repeat((exp + 1 - n) as usize))
        } else {
            let (a, b) = digits.split_at((exp + 1) as usize);
            format!("{a}.{b}")
        };
        format!("{sign}{s}")
    } else {
        let (a, b) = digits.split_at(1);
        let m = if b.is_empty() {
            a.to_string()
        } else {
            format!("{a}.{b}")
        };
        let es = if exp < 0 { "-" } else { "+" };
        format!("{sign}{m}e{es}{:02}", exp.abs())
    }
}

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

#[cfg(test)]
mod tests {
    use super::py_float;

    #[test]
    fn python_repr() {
        assert_eq!(py_float(0.6845425867507886), "0.6845425867507886");
        assert_eq!(py_float(1.0 / 3.0), "0.3333333333333333");
        assert_eq!(py_float(0.2), "0.2");
        assert_eq!(py_float(1.0), "1.0");
        assert_eq!(py_float(0.0), "0.0");
        assert_eq!(py_float(1e-5), "1e-05");
        assert_eq!(py_float(1.5e-5), "1.5e-05");
        assert_eq!(py_float(0.0001), "0.0001");
        assert_eq!(py_float(0.00012345), "0.00012345");
        assert_eq!(py_float(123.5), "123.5");
        assert_eq!(py_float(1e16), "1e+16");
        assert_eq!(py_float(0.20000000000000004), "0.20000000000000004");
    }
}
