//! `dropscore rank` (docs/specs/statistics.md section 5) against a NumPy computation: three regression
//! submissions on 40 rows, mean absolute error, B = 1000 draws of `numpy.random.default_rng(0)`, R = 10,000
//! randomization rounds of `default_rng(1)`. The expected values were computed with NumPy 2.4 by the script in
//! this file's last comment (each replicate the MAE of the drawn rows; ranks 1 + the number strictly better;
//! `numpy.percentile` for the intervals; Holm's adjustment; groups against each group's best).

mod common;
use common::cli::run_in;
use serde_json::Value;
use std::path::PathBuf;

/// id, target, then the predictions of a.csv, b.csv, c.csv.
const TABLE: &[&str] = &[
    "h0,11.1,11.893,9.034,11.215",
    "h1,43.537,42.905,45.23,42.319",
    "h2,10.336,10.33,12.34,12.376",
    "h3,45.931,45.83,45.461,45.227",
    "h4,24.421,24.369,23.14,18.582",
    "h5,30.587,30.836,29.05,27.669",
    "h6,38.295,38.493,39.255,39.439",
    "h7,25.921,27.256,25.699,31.516",
    "h8,14.84,14.753,14.182,11.137",
    "h9,9.386,10.948,9.118,9.344",
    "h10,4.037,3.731,6.334,7.664",
    "h11,36.922,36.444,37.304,38.439",
    "h12,22.065,22.166,22.885,21.126",
    "h13,7.915,8.27,8.77,4.36",
    "h14,43.997,44.267,45.117,39.544",
    "h15,13.704,14.996,14.871,11.834",
    "h16,20.712,21.851,19.93,19.791",
    "h17,14.804,15.298,14.567,9.181",
    "h18,31.439,31.103,30.602,27.205",
    "h19,28.992,28.891,28.21,29.751",
    "h20,29.996,31.409,31.252,28.974",
    "h21,13.291,13.512,12.739,11.404",
    "h22,14.234,12.923,14.147,13.215",
    "h23,12.679,11.989,11.917,10.647",
    "h24,16.378,15.8,15.725,18.697",
    "h25,7.208,8.36,8.075,11.308",
    "h26,8.281,8.174,7.791,13.465",
    "h27,48.197,50.457,47.667,49.971",
    "h28,48.011,48.668,48.554,49.879",
    "h29,9.421,9.546,9.972,13.079",
    "h30,1.215,0.779,2.087,5.561",
    "h31,10.228,11.2,10.416,13.891",
    "h32,34.992,34.751,33.063,38.023",
    "h33,38.976,38.152,39.669,37.389",
    "h34,1.147,1.715,1.695,-2.852",
    "h35,28.883,28.896,30.003,31.076",
    "h36,0.082,1.271,-0.849,-0.153",
    "h37,25.774,25.7,28.547,25.635",
    "h38,31.99,29.13,30.634,29.766",
    "h39,49.281,50.07,50.081,46.029",
];

fn staged(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dropscore-rank-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    let mut files = vec![String::from("id,target\n")];
    files.extend((0..3).map(|_| String::from("id,prediction\n")));
    for line in TABLE {
        let f: Vec<&str> = line.split(',').collect();
        for (k, text) in files.iter_mut().enumerate() {
            *text += &format!("{},{}\n", f[0], f[k + 1]);
        }
    }
    for (name, text) in ["gt.csv", "a.csv", "b.csv", "c.csv"].iter().zip(&files) {
        std::fs::write(d.join(name), text).unwrap();
    }
    d
}

fn close(got: &Value, want: f64, what: &str) {
    let g = got.as_f64().unwrap_or_else(|| panic!("{what}: {got}"));
    assert!(
        (g - want).abs() <= 1e-12 * want.abs().max(1.0),
        "{what}: {g} != {want}"
    );
}

#[test]
fn rank_equals_numpy() {
    let dir = staged("numpy");
    let args = [
        "rank",
        "regression",
        "--gt",
        "gt.csv",
        "--pred",
        "c.csv",
        "b.csv",
        "a.csv",
        "--set",
        "metric=mean_absolute_error",
        "--format",
        "json",
        "-q",
    ];
    let (code, out, err) = run_in(&dir, &args);
    assert_eq!(code, 0, "{err}");
    let r: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(r["metric"], "mean_absolute_error");
    assert_eq!(r["lower_is_better"], true);
    assert_eq!(r["statistics"]["bootstrap"], 1000);
    // (submission, value, low, high, se, rank, rank_low, rank_high, group, p, p_holm) from NumPy.
    type Row = (
        &'static str,
        f64,
        f64,
        f64,
        f64,
        u64,
        f64,
        f64,
        u64,
        Option<f64>,
    );
    let want: [Row; 3] = [
        (
            "a.csv",
            0.6591749999999997,
            0.4720462499999999,
            0.8762056249999999,
            0.10030062270426018,
            1,
            1.0,
            2.0,
            1,
            None,
        ),
        (
            "b.csv",
            0.9484749999999996,
            0.7591318749999993,
            1.127935,
            0.0970487951923968,
            2,
            1.0,
            2.0,
            1,
            Some(0.062493750624937505),
        ),
        (
            "c.csv",
            2.5086999999999997,
            2.0150674999999993,
            3.0104531249999993,
            0.2573129420663336,
            3,
            3.0,
            3.0,
            2,
            None,
        ),
    ];
    let rows = r["submissions"].as_array().unwrap();
    assert_eq!(rows.len(), 3);
    for (row, w) in rows.iter().zip(&want) {
        assert_eq!(row["submission"], w.0);
        close(&row["value"], w.1, "value");
        close(&row["low"], w.2, "low");
        close(&row["high"], w.3, "high");
        close(&row["se"], w.4, "se");
        assert_eq!(row["rank"], w.5);
        assert_eq!(row["rank_low"].as_f64(), Some(w.6));
        assert_eq!(row["rank_high"].as_f64(), Some(w.7));
        assert_eq!(row["group"], w.8, "{}", w.0);
        assert_eq!(row["p_holm"].as_f64(), w.9, "{}", w.0);
    }
    // The same draws as the score's own intervals.
    let (_, one, _) = run_in(
        &dir,
        &[
            "regression",
            "--gt",
            "gt.csv",
            "--pred",
            "b.csv",
            "--set",
            "metric=mean_absolute_error",
            "--set",
            "bootstrap=1000",
            "--format",
            "json",
            "-q",
        ],
    );
    let one: Value = serde_json::from_str(&one).unwrap();
    assert_eq!(
        one["intervals"]["mean_absolute_error"]["low"],
        rows[1]["low"]
    );
    assert_eq!(
        one["intervals"]["mean_absolute_error"]["high"],
        rows[1]["high"]
    );
    // The text output: one line per submission in leaderboard order.
    let (code, text, err) = run_in(&dir, &args[..args.len() - 3]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with("mean_absolute_error: 1000 bootstrap replicates of the rows (seed 0)"),
        "{text}"
    );
    assert!(
        lines[2].starts_with("1\t1\ta.csv\t0.659175 [0.472046, 0.876206]\t[1.0, 2.0]\t-"),
        "{text}"
    );
    assert!(lines[3].starts_with("2\t1\tb.csv\t"), "{text}");
    assert!(lines[3].ends_with("\t0.0625"), "{text}");
    assert!(lines[4].starts_with("3\t2\tc.csv\t"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn rank_needs_two_submissions_on_one_protocol() {
    let dir = staged("two");
    let (code, _, err) = run_in(
        &dir,
        &["rank", "regression", "--gt", "gt.csv", "--pred", "a.csv"],
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("at least two"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/*
The NumPy reference (NumPy 2.4.6), run on the same table:

import numpy as np, json
rs = np.random.RandomState(5)
n = 40
t = np.round(rs.uniform(0, 50, n), 3)
preds = {
  'a.csv': np.round(t + rs.normal(0, 1.0, n), 3),
  'b.csv': np.round(t + rs.normal(0, 1.1, n), 3),
  'c.csv': np.round(t + rs.normal(0, 2.5, n), 3),
}
rows = [f"h{i},{float(t[i])!r},{float(preds['a.csv'][i])!r},{float(preds['b.csv'][i])!r},{float(preds['c.csv'][i])!r}" for i in range(n)]
open('table.txt','w').write("\n".join(rows)+"\n")
# Re-read as text, the way the CLI will.
tab = [r.split(',') for r in open('table.txt').read().split()]
t = np.array([float(r[1]) for r in tab])
names = ['a.csv','b.csv','c.csv']
E = {nm: np.abs(t - np.array([float(r[2+k]) for r in tab])) for k, nm in enumerate(names)}
B, R, seed, conf = 1000, 10000, 0, 0.95
draws = np.random.default_rng(seed).integers(0, n, size=(B, n))
full = {nm: np.mean(E[nm]) for nm in names}
rep = {nm: np.array([np.mean(E[nm][d]) for d in draws]) for nm in names}
def near(a, b): return a == b or abs(a-b) <= 1e-12*max(abs(a), abs(b))
def ranks(vals):  # lower is better
    return [1 + sum(1 for o in vals if not near(o, v) and o < v) for v in vals]
rank_rep = np.array([ranks([rep[nm][r] for nm in names]) for r in range(B)])
flips = np.random.default_rng(seed+1).integers(0, 2, size=(R, n)) == 1
def p_rand(x, y):
    d = abs(np.mean(E[x]) - np.mean(E[y]))
    ex, ey = E[x], E[y]
    a = np.where(flips, ey, ex).mean(axis=1); b = np.where(flips, ex, ey).mean(axis=1)
    dj = np.abs(a - b)
    cnt = sum(1 for v in dj if v >= d or near(v, d))
    return (1 + cnt) / (1 + R)
def holm(p):
    m = len(p); order = np.argsort(p, kind='stable'); adj = [0]*m; run = 0
    for r, i in enumerate(order):
        run = max(run, min((m - r)*p[i], 1.0)); adj[i] = run
    return adj
out = {}
fr = ranks([full[nm] for nm in names])
for k, nm in enumerate(names):
    lo, hi = np.percentile(rep[nm], [2.5, 97.5])
    rlo, rhi = np.percentile(rank_rep[:, k], [2.5, 97.5])
    out[nm] = dict(value=full[nm], low=lo, high=hi, se=np.std(rep[nm], ddof=1), rank=fr[k], rank_low=rlo, rank_high=rhi)
# groups
left = sorted(range(3), key=lambda k: (fr[k], k)); g = 0
while left:
    g += 1; lead, rest = left[0], left[1:]
    out[names[lead]]['group'] = g
    p = [p_rand(names[lead], names[k]) for k in rest]; adj = holm(p); nxt = []
    for j, k in enumerate(rest):
        if adj[j] >= 0.05: out[names[k]].update(group=g, p_value=p[j], p_holm=adj[j])
        else: nxt.append(k)
    left = nxt
for nm in names: print(nm, {k: (float(v) if not isinstance(v, int) else v) for k, v in out[nm].items()})

*/
