//! `dropscore compare <protocol> --gt GT --pred A... --vs B...` (docs/specs/statistics.md section 3): both
//! submissions scored on the same ground truth, then Δ, its paired interval, the paired bootstrap and
//! randomization p-values, per-unit wins/ties/losses and the verdict. `--format json` gives A's report with a
//! `compare` object (and `compare_all` with `--set compare_all=true`).

use super::{assets, inputs, parse_set, usage};
use clap::Parser;
use dropscore::input::{FileSet, Limits, Role};
use dropscore::protocols::compare_run::{self, json_text};
pub(super) use dropscore::protocols::compare_run::{headline_metric, options_of, own_options};
use dropscore::protocols::contract_compare::Comparison;
use dropscore::protocols::{self, Quiet, Request};
use dropscore::{render, Mode, Report};
use std::io::Write;

#[derive(Parser, Debug)]
#[command(
    name = "dropscore compare",
    about = "Is submission A better than submission B? Both scored on one ground truth, compared with the same \
             bootstrap draws (docs/specs/statistics.md)."
)]
struct CompareArgs {
    /// Protocol id (see `dropscore list`).
    protocol: String,
    /// Ground-truth files, folders or zips.
    #[arg(long, num_args = 1.., required = true)]
    gt: Vec<String>,
    /// Submission A: prediction files, folders or zips.
    #[arg(long, num_args = 1.., required = true)]
    pred: Vec<String>,
    /// Submission B: prediction files, folders or zips.
    #[arg(long, num_args = 1.., required = true)]
    vs: Vec<String>,
    /// official (default) or corrected.
    #[arg(long, default_value = "official")]
    mode: String,
    /// Option NAME=VALUE (repeatable); besides the protocol's: bootstrap, seed, confidence, permutations
    /// (default 10000), compare_all (true: every metric).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    set: Vec<String>,
    /// text (default) or json.
    #[arg(long, default_value = "text")]
    format: String,
    /// Do not print diagnostics on standard error.
    #[arg(long, short)]
    quiet: bool,
}

pub fn compare_cmd(args: &[String]) -> i32 {
    let argv = std::iter::once("dropscore compare".to_string()).chain(args.iter().cloned());
    let a = match CompareArgs::try_parse_from(argv) {
        Ok(a) => a,
        Err(e) => return super::exit_clap(e),
    };
    let mut set = match parse_set(&a.set) {
        Ok(s) => s,
        Err(e) => return usage(&e),
    };
    let own = match own_options(&mut set) {
        Ok(o) => o,
        Err(e) => return usage(&e),
    };
    let Some(mode) = Mode::parse(&a.mode) else {
        return usage(&format!(
            "--mode must be official or corrected, not `{}`",
            a.mode
        ));
    };
    let json = match a.format.as_str() {
        "json" => true,
        "text" => false,
        f => return usage(&format!("--format must be text or json, not `{f}`")),
    };
    let score = |pred: &[String]| -> Result<Report, String> {
        let mut inputs = Vec::new();
        let mut walked = Vec::new();
        inputs::load(&a.gt, Role::Gt, &mut inputs, &mut walked)?;
        inputs::load(pred, Role::Pred, &mut inputs, &mut walked)?;
        protocols::option_files::add(&a.protocol, &set, &mut inputs);
        let mut files = FileSet::build(inputs, &Limits::from_set(&set));
        files.diagnostics.splice(0..0, walked);
        let mut req = Request::new(mode);
        req.set = set.clone();
        req.keep_units = true;
        assets::load(&a.protocol, &[("lemmas", None)], &mut req)?;
        protocols::score(&a.protocol, &files, &req, &mut Quiet).map_err(|e| e.0)
    };
    let (ra, rb) = match score(&a.pred).and_then(|ra| Ok((ra, score(&a.vs)?))) {
        Ok(r) => r,
        Err(e) => return usage(&e),
    };
    if !a.quiet {
        let mut err = std::io::stderr().lock();
        for (who, r) in [("A", &ra), ("B", &rb)] {
            for d in &r.diagnostics {
                let _ = write!(err, "{who}: {}", render::diagnostic(d));
            }
        }
    }
    let done = match compare_run::run(&a.protocol, mode, &ra, &rb, &set, &own) {
        Ok(Ok(c)) => c,
        Ok(Err(e)) => {
            eprintln!("dropscore compare: {e}");
            return 1;
        }
        Err(e) => return usage(&e),
    };
    let out = if json {
        json_text(&ra, &done, own.all)
    } else {
        text(&ra, &rb, &done)
    };
    print!("{out}");
    i32::from(ra.has_errors() || rb.has_errors())
}

fn cell(v: Option<f64>) -> String {
    v.map_or("null".into(), |x| format!("{x:.6}"))
}

fn count(v: Option<u64>) -> String {
    v.map_or("-".into(), |x| x.to_string())
}

/// The text output: one block per metric compared, the verdict last.
fn text(a: &Report, b: &Report, done: &[Comparison]) -> String {
    let mut s = String::new();
    if let Some(st) = &a.statistics {
        s.push_str(&format!(
            "paired bootstrap: {} replicates of the {}s (seed {}), confidence {}\n",
            st.bootstrap, st.unit, st.seed, st.confidence
        ));
    }
    let _ = b;
    for c in done {
        s.push_str(&format!(
            "{}\tA {}\tB {}\tΔ {} [{}, {}]\tp_bootstrap {}\tp_randomization {}\twins {} ties {} losses {}\n{}\n",
            c.metric,
            cell(c.a),
            cell(c.b),
            cell(c.delta),
            cell(c.low),
            cell(c.high),
            cell(c.p_bootstrap),
            cell(c.p_randomization),
            count(c.wins),
            count(c.ties),
            count(c.losses),
            render::terminal(&c.verdict)
        ));
    }
    s
}
