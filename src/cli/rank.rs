//! `dropscore rank <protocol> --gt GT --pred P1 P2 …` (docs/specs/statistics.md section 5): N submissions scored
//! on one ground truth with the same bootstrap draws; each one's metric and interval, its rank interval and the
//! groups the Holm-corrected paired randomization test does not separate
//! ([`dropscore::protocols::contract_rank`]). `--format json` gives the leaderboard as one JSON object.

use super::compare::{headline_metric, options_of, print_diagnostics, Shared};
use super::usage;
use clap::Parser;
use dropscore::protocols::contract_compare::CompareSettings;
use dropscore::protocols::contract_rank::{rank, Leaderboard};
use dropscore::{render, Report};

#[derive(Parser, Debug)]
#[command(
    name = "dropscore rank",
    about = "A leaderboard with uncertainty: N submissions on one ground truth, the same bootstrap draws, rank \
             intervals and groups the paired test does not separate (docs/specs/statistics.md)."
)]
struct RankArgs {
    /// Protocol id (see `dropscore list`).
    protocol: String,
    /// Ground-truth files, folders or zips.
    #[arg(long, num_args = 1.., required = true)]
    gt: Vec<String>,
    /// The submissions: one file, folder or zip each (`--pred a.csv b.csv` or `--pred a.csv --pred b.csv`).
    #[arg(long, num_args = 1.., required = true)]
    pred: Vec<String>,
    /// official (default) or corrected.
    #[arg(long, default_value = "official")]
    mode: String,
    /// Option NAME=VALUE (repeatable); besides the protocol's: bootstrap (default 1000 here), seed,
    /// confidence, permutations (default 10000).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    set: Vec<String>,
    /// text (default) or json.
    #[arg(long, default_value = "text")]
    format: String,
    /// Do not print diagnostics on standard error.
    #[arg(long, short)]
    quiet: bool,
}

pub fn rank_cmd(args: &[String]) -> i32 {
    let argv = std::iter::once("dropscore rank".to_string()).chain(args.iter().cloned());
    let a = match RankArgs::try_parse_from(argv) {
        Ok(a) => a,
        Err(e) => return super::exit_clap(e),
    };
    let mut shared = match Shared::parse(&a.mode, &a.format, &a.set) {
        Ok(c) if c.own.all => return usage("option `compare_all` is for dropscore compare"),
        Ok(c) => c,
        Err(e) => return usage(&e),
    };
    if a.pred.len() < 2 {
        return usage("rank needs at least two submissions (--pred A B …)");
    }
    // Replicates are the point: B = 1000 unless set.
    if !shared.set.iter().any(|(k, _)| k == "bootstrap") {
        shared
            .set
            .push(("bootstrap".to_string(), "1000".to_string()));
    }
    let mut reports = Vec::with_capacity(a.pred.len());
    for p in &a.pred {
        match shared.score(&a.protocol, &a.gt, std::slice::from_ref(p)) {
            Ok(r) => reports.push(r),
            Err(e) => return usage(&e),
        }
    }
    if !a.quiet {
        let named: Vec<(&str, &Report)> = a.pred.iter().map(String::as_str).zip(&reports).collect();
        print_diagnostics(&named);
    }
    let settings = match options_of(&a.protocol, shared.mode, &shared.set) {
        Ok(s) => CompareSettings {
            bootstrap: s,
            permutations: shared.own.permutations,
        },
        Err(e) => return usage(&e),
    };
    let metric = headline_metric(&reports[0]);
    let board = match rank(&reports, &a.pred, &metric, &settings) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("dropscore rank: {e}");
            return 1;
        }
    };
    let out = if shared.json {
        json_text(&a.protocol, &reports[0], &board)
    } else {
        text(&reports[0], &board, settings.bootstrap.confidence)
    };
    print!("{out}");
    i32::from(reports.iter().any(Report::has_errors))
}

/// The leaderboard as JSON: the protocol, the bootstrap's settings, the metric and one object per submission.
fn json_text(protocol: &str, first: &Report, board: &Leaderboard) -> String {
    let v = serde_json::json!({
        "protocol": protocol,
        "statistics": first.statistics,
        "metric": board.metric,
        "lower_is_better": board.lower_is_better,
        "submissions": board.rows,
    });
    format!("{}\n", serde_json::to_string(&v).unwrap_or_default())
}

fn cell(v: Option<f64>, decimals: usize) -> String {
    v.map_or("null".into(), |x| format!("{x:.decimals$}"))
}

/// The text output: a header line, then one line per submission in leaderboard order.
fn text(first: &Report, board: &Leaderboard, confidence: f64) -> String {
    let mut s = String::new();
    if let Some(st) = &first.statistics {
        s.push_str(&format!(
            "{}: {} bootstrap replicates of the {}s (seed {}), confidence {}; groups: Holm-corrected paired \
             randomization tests against each group's best\n",
            board.metric, st.bootstrap, st.unit, st.seed, confidence
        ));
    }
    s.push_str("rank\tgroup\tsubmission\tvalue [low, high]\trank interval\tp (Holm)\n");
    for r in &board.rows {
        s.push_str(&format!(
            "{}\t{}\t{}\t{} [{}, {}]\t[{}, {}]\t{}\n",
            r.rank,
            r.group,
            render::terminal(&r.submission),
            cell(r.value, 6),
            cell(r.low, 6),
            cell(r.high, 6),
            cell(r.rank_low, 1),
            cell(r.rank_high, 1),
            r.p_holm.map_or("-".into(), |p| format!("{p:.4}"))
        ));
    }
    s
}
