//! `dropscore compare <protocol> --gt GT --pred A... --vs B...` (docs/specs/statistics.md section 3): both
//! submissions scored on the same ground truth, then Δ, its paired interval, the paired bootstrap and
//! randomization p-values, per-unit wins/ties/losses and the verdict. `--format json` gives A's report with a
//! `compare` object (and `compare_all` with `--set compare_all=true`).

use super::{assets, inputs, parse_set, usage};
use clap::Parser;
use dropscore::input::{FileSet, Limits, Role};
use dropscore::protocols::compare_run::{self, json_text, own_options, Own};
pub(super) use dropscore::protocols::compare_run::{headline_metric, options_of};
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
    let c = match Shared::parse(&a.mode, &a.format, &a.set) {
        Ok(c) => c,
        Err(e) => return usage(&e),
    };
    let score = |pred: &[String]| c.score(&a.protocol, &a.gt, pred);
    let (ra, rb) = match score(&a.pred).and_then(|ra| Ok((ra, score(&a.vs)?))) {
        Ok(r) => r,
        Err(e) => return usage(&e),
    };
    if !a.quiet {
        print_diagnostics(&[("A", &ra), ("B", &rb)]);
    }
    let done = match compare_run::run(&a.protocol, c.mode, &ra, &rb, &c.set, &c.own) {
        Ok(Ok(done)) => done,
        Ok(Err(e)) => {
            eprintln!("dropscore compare: {e}");
            return 1;
        }
        Err(e) => return usage(&e),
    };
    let out = if c.json {
        json_text(&ra, &done, c.own.all)
    } else {
        text(&ra, &done)
    };
    print!("{out}");
    i32::from(ra.has_errors() || rb.has_errors())
}

/// What `compare` and `rank` read alike from their arguments: the mode, the output format, the options for the
/// protocol and the comparison's own options (taken out of `--set`).
pub(super) struct Shared {
    pub mode: Mode,
    pub json: bool,
    pub set: Vec<(String, String)>,
    pub own: Own,
}

impl Shared {
    pub fn parse(mode: &str, format: &str, set: &[String]) -> Result<Shared, String> {
        let mut set = parse_set(set)?;
        let own = own_options(&mut set)?;
        let mode = Mode::parse(mode)
            .ok_or_else(|| format!("--mode must be official or corrected, not `{mode}`"))?;
        let json = match format {
            "json" => true,
            "text" => false,
            f => return Err(format!("--format must be text or json, not `{f}`")),
        };
        Ok(Shared {
            mode,
            json,
            set,
            own,
        })
    }

    /// One submission scored on the ground truth, its units kept for the paired statistics.
    pub fn score(&self, protocol: &str, gt: &[String], pred: &[String]) -> Result<Report, String> {
        let mut inputs = Vec::new();
        let mut walked = Vec::new();
        inputs::load(gt, Role::Gt, &mut inputs, &mut walked)?;
        inputs::load(pred, Role::Pred, &mut inputs, &mut walked)?;
        protocols::option_files::add(protocol, &self.set, &mut inputs);
        let mut files = FileSet::build(inputs, &Limits::from_set(&self.set));
        files.diagnostics.splice(0..0, walked);
        let mut req = Request::new(self.mode);
        req.set = self.set.clone();
        req.keep_units = true;
        assets::load(protocol, &[("lemmas", None)], &mut req)?;
        protocols::score(protocol, &files, &req, &mut Quiet).map_err(|e| e.0)
    }
}

/// Each report's diagnostics on standard error, prefixed with the name of its submission.
pub(super) fn print_diagnostics(named: &[(&str, &Report)]) {
    let mut err = std::io::stderr().lock();
    for (who, r) in named {
        for d in &r.diagnostics {
            let _ = write!(err, "{who}: {}", render::diagnostic(d));
        }
    }
}

fn cell(v: Option<f64>) -> String {
    v.map_or("null".into(), |x| format!("{x:.6}"))
}

fn count(v: Option<u64>) -> String {
    v.map_or("-".into(), |x| x.to_string())
}

/// The text output: one block per metric compared, the verdict last.
fn text(a: &Report, done: &[Comparison]) -> String {
    let mut s = String::new();
    if let Some(st) = &a.statistics {
        s.push_str(&format!(
            "paired bootstrap: {} replicates of the {}s (seed {}), confidence {}\n",
            st.bootstrap, st.unit, st.seed, st.confidence
        ));
    }
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
