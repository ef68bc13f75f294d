//! Hostile inputs of the metric families: CSVs whose tables would outgrow the memory budget are
//! refused before the tables are allocated, located, naming the limit and how to raise it, under the peak
//! bound of tests/hostile.rs. Run with `cargo test --release --test suite hostile_families::`.

mod common;
mod hostile_common;
use hostile_common::{refused, run, write};

#[test]
fn family_csvs_are_refused_before_their_tables_are_allocated() {
    // 100,000 GT classes in 1.3 MB: a confusion matrix would be 74.5 GiB (it aborted asking for 80 GB, then was
    // refused); the label metrics read per-class counts, so it is scored within the default budget.
    let rows = |f: &dyn Fn(usize) -> String| (0..100_000).map(f).collect::<String>();
    let g = write(
        "cls_gt.csv",
        format!("id,label\n{}", rows(&|i| format!("i{i},c{i}\n"))).as_bytes(),
    );
    let p = write(
        "cls_pred.csv",
        format!(
            "id,label\n{}",
            rows(&|i| format!("i{i},c{}\n", (i + 1) % 100_000))
        )
        .as_bytes(),
    );
    let o = run(&[
        "classification",
        "--gt",
        &g,
        "--pred",
        &p,
        "--format",
        "json",
    ]);
    assert_eq!(o.code, 0, "{}\n{}", o.stdout, o.stderr);
    let r: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(r["scores"]["f1_macro"], 0.0);
    assert!(
        o.peak_kb.is_none_or(|kb| kb < 512 << 10),
        "peak {:?} KiB",
        o.peak_kb
    );
    // A score table of 3,000 rows × 3,000 class columns under a 32 MiB budget: refused at the header.
    let g = write(
        "wide_gt.csv",
        format!(
            "id,label\n{}",
            (0..3000)
                .map(|i| format!("i{i},c{i}\n"))
                .collect::<String>()
        )
        .as_bytes(),
    );
    let head = (0..3000).map(|j| format!(",c{j}")).collect::<String>();
    let p = write(
        "wide_pred.csv",
        format!("id{head}\ni0{}\n", ",0.5".repeat(3000)).as_bytes(),
    );
    let o = run(&[
        "classification",
        "--gt",
        &g,
        "--pred",
        &p,
        "--format",
        "json",
        "--set",
        "max_memory=32MiB",
    ]);
    refused(&o, "input.limit", "wide_pred.csv");
    // 400,000 tiny GT rows under a 16 MiB budget: refused at the row that crosses it.
    let g = write(
        "reg_gt.csv",
        format!(
            "id,target\n{}",
            (0..400_000).map(|i| format!("{i},1\n")).collect::<String>()
        )
        .as_bytes(),
    );
    let o = run(&[
        "regression",
        "--gt",
        &g,
        "--pred",
        &g,
        "--format",
        "json",
        "--set",
        "max_memory=16MiB",
    ]);
    refused(&o, "input.limit", "reg_gt.csv");
    let r: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
    assert!(r["diagnostics"][0]["line"]
        .as_u64()
        .is_some_and(|l| l > 100_000 && l < 200_000));
}
