//! A protocol's own commands (`dropscore kws convert`), declared in its folder
//! ([`dropscore::protocols::commands`]): their flags become a clap command here, so `--help`, a missing value
//! or an unknown flag read as for every other command.

use super::{exit_clap, usage};
use dropscore::protocols::commands::{Args, Command};
use dropscore::{protocols, render};

/// The command `name` of protocol `id`, if it has one.
pub fn find(id: &str, name: Option<&String>) -> Option<&'static Command> {
    let name = name?;
    protocols::get(id)?
        .extras()
        .commands
        .iter()
        .find(|c| c.name == name)
}

/// Parses `args` (after `dropscore <id> <name>`) with the command's flags and runs it: 0 done, 1 input errors
/// (printed, located), 2 usage errors.
pub fn run(id: &str, c: &Command, args: &[String]) -> i32 {
    // clap takes `'static` names; the process runs one command, so the few built here are leaked.
    let leak = |s: String| -> &'static str { Box::leak(s.into_boxed_str()) };
    let mut cmd = clap::Command::new(leak(format!("dropscore {id} {}", c.name))).about(c.about);
    for f in c.flags {
        let mut arg = clap::Arg::new(f.name)
            .long(leak(f.name.replace('_', "-")))
            .value_name(leak(f.name.to_uppercase()));
        if !f.help.is_empty() {
            arg = arg.help(f.help);
        }
        if let Some(d) = f.default {
            arg = arg.default_value(d);
        }
        cmd = cmd.arg(arg);
    }
    let argv = std::iter::once(format!("dropscore {id} {}", c.name)).chain(args.iter().cloned());
    let matches = match cmd.try_get_matches_from(argv) {
        Ok(m) => m,
        Err(e) => return exit_clap(e),
    };
    let mut values = Args::default();
    for f in c.flags {
        if let Some(v) = matches.get_one::<String>(f.name) {
            values.set(f.name, v.clone());
        }
    }
    match (c.run)(&values) {
        Err(msg) => usage(&msg),
        Ok(diags) => {
            for d in &diags {
                eprint!("{}", render::diagnostic(d));
            }
            i32::from(diags.iter().any(|d| d.is_error()))
        }
    }
}
