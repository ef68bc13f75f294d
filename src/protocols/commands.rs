//! A protocol's own commands on the command line, `dropscore <id> <name> --flag VALUE …` (kws's `convert`),
//! declared in its [`super::views::Extras`]: the flags as a table, which the command line parses (and documents
//! under `--help`) without knowing the protocol, and a function of their values.

use crate::diag::Diagnostic;

/// One command of a protocol.
pub struct Command {
    /// `dropscore <protocol id> <name> …`
    pub name: &'static str,
    /// One line for its `--help`.
    pub about: &'static str,
    /// A few words for `dropscore --help`'s list of other commands.
    pub summary: &'static str,
    pub flags: &'static [Flag],
    /// Runs with the flags' values. `Ok`: the problems found in the inputs (the command line prints them and exits
    /// 1 on an error); `Err`: a usage error (exit 2).
    pub run: fn(&Args) -> Result<Vec<Diagnostic>, String>,
}

/// A flag `--<long> VALUE` (`name` with `-` for `_`).
pub struct Flag {
    /// The value's name (`out_qrels`; the flag is `--out-qrels`).
    pub name: &'static str,
    pub help: &'static str,
    pub default: Option<&'static str>,
}

/// The values of a command's flags: the given value, else the default, else none.
#[derive(Debug, Default)]
pub struct Args {
    values: Vec<(&'static str, String)>,
}

impl Args {
    /// Records `name`'s value.
    pub fn set(&mut self, name: &'static str, value: String) {
        self.values.push((name, value));
    }

    /// `name`'s value, if it has one.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.values
            .iter()
            .rev()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
    }
}
