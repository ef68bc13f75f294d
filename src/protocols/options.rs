//! Protocol options: declared once per protocol with [`options!`](crate::options) (name, Rust type, defaults
//! per mode, help), set with `--set NAME=VALUE` or the page's form, validated once by the shell against the
//! declared table ([`OptionSpec`], what `dropscore list`, the page and the config validator read) and handed
//! to the protocol as its typed struct ([`OptionSet`]): protocol code reads fields, so a misspelled option is
//! a compile error. The effective values, as text, are what the report lists ([`Options`]).

pub use super::option_values::{FileName, FileNames, Int, List, OptionValue};
use crate::report::Mode;
use serde::Serialize;
use serde_json::{Map, Value};

#[derive(Clone, Debug, Serialize)]
pub struct OptionSpec {
    pub name: &'static str,
    /// `bool`, `int`, `number`, `list`, `text`, `file` (a dropped file or, on the CLI, a path), `files` (comma-separated
    /// `file`s), or the allowed values joined by `|`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub default_official: &'static str,
    pub default_corrected: &'static str,
    pub help: &'static str,
}

/// Options of the shell itself, accepted by every protocol (`--set max_memory=4GiB`), listed by `dropscore
/// list`, and never written into `report.options` (reports of the same input stay byte-identical whatever
/// the budget, unless the budget refuses something).
pub const SHELL_OPTIONS: &[OptionSpec] = &[OptionSpec {
    name: "max_memory",
    kind: "size",
    default_official: crate::budget::DEFAULT_TEXT,
    default_corrected: crate::budget::DEFAULT_TEXT,
    help: "memory budget of the run (README, \"Limits and the memory budget\"): inputs, lines and tables that would exceed it are refused with a located diagnostic",
}, OptionSpec {
    name: "bootstrap",
    kind: "int",
    default_official: "0",
    default_corrected: "0",
    help: "bootstrap replicates B of every interval (docs/specs/statistics.md), e.g. 1000; 0 (the default for a score: replicates cost many times one score for now) turns statistics off; `dropscore compare` uses 1000 unless set",
}, OptionSpec {
    name: "seed",
    kind: "int",
    default_official: "0",
    default_corrected: "0",
    help: "seed of the bootstrap's draws: numpy.random.default_rng(seed).integers(0, n, size=(B, n))",
}, OptionSpec {
    name: "confidence",
    kind: "number",
    default_official: "0.95",
    default_corrected: "0.95",
    help: "confidence of the percentile intervals (between 0 and 1)",
}, OptionSpec {
    name: "intervals_in_scores",
    kind: "bool",
    default_official: "false",
    default_corrected: "false",
    help: "the scoring program writes each leaderboard value's interval into scores.json and scores.txt as <key>_ci_low and <key>_ci_high (with bootstrap = 1000 unless bootstrap is set)",
}, OptionSpec {
    name: "split",
    kind: "file",
    default_official: "none",
    default_corrected: "none",
    help: "public/private parts (docs/specs/statistics.md section 4): a file of `id<TAB>Public|Private|Ignored` lines, one per unit (row, image, query, item… as the protocol names them); the report then holds each part's scores under `parts`, Ignored units scored nowhere",
}, OptionSpec {
    name: "split_file",
    kind: "file",
    default_official: "none",
    default_corrected: "none",
    help: "the same as `split`, for a protocol whose own option is named `split` (fest's dataset split)",
}, OptionSpec {
    name: "part",
    kind: "all|public|private",
    default_official: "all",
    default_corrected: "all",
    help: "with a split (a `split` file or the GT's usage column): what the headline, the scores and the leaderboard show: every unit not Ignored (all), or one part; with public, the private part's values are absent from the report",
}, OptionSpec {
    name: "usage_column",
    kind: "text",
    default_official: "Usage",
    default_corrected: "Usage",
    help: "CSV ground truths (classification, regression, kaggle, text tables): the column giving each row's part, Public, Private or Ignored (any case), as Kaggle's solution files do; a GT without it has no parts",
}];

/// The part the headline and the leaderboard show (shell option `part`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PartChoice {
    All,
    Public,
    Private,
}

/// The public/private split's options (`split`, `part`, `usage_column`).
#[derive(Clone, Debug, PartialEq)]
pub struct PartSettings {
    /// The split file's name (empty: none).
    pub split: String,
    pub part: PartChoice,
    pub usage_column: String,
}

/// Effective option values for one run, as text: what the report lists (`options`, `deviations`) and what the
/// typed struct of [`options!`](crate::options) is read from. Protocol code reads the typed struct, never a
/// name; the few calls that name an option ([`Options::set`], [`Options::deviations_among`]) take the typed
/// struct's name constants, and a name the table does not declare is recorded ([`Options::unknown_names`]):
/// the shell turns it into the error diagnostic `internal.unknown_option`, and never panics.
#[derive(Debug)]
pub struct Options {
    values: Vec<(&'static str, String)>,
    /// Values of the [`SHELL_OPTIONS`] (not in `to_json`, not deviations).
    shell: Vec<(&'static str, String)>,
    specs: &'static [OptionSpec],
    unknown: std::sync::Mutex<Vec<String>>,
}

impl Clone for Options {
    fn clone(&self) -> Self {
        Options {
            values: self.values.clone(),
            shell: self.shell.clone(),
            specs: self.specs,
            unknown: std::sync::Mutex::new(self.unknown_names()),
        }
    }
}

impl Options {
    /// Resolves user settings against the specs; unknown names and ill-typed values are usage errors.
    pub fn resolve(
        specs: &'static [OptionSpec],
        mode: Mode,
        set: &[(String, String)],
    ) -> Result<Options, String> {
        let mut values: Vec<(&'static str, String)> = specs
            .iter()
            .map(|s| {
                (
                    s.name,
                    if mode == Mode::Official {
                        s.default_official
                    } else {
                        s.default_corrected
                    }
                    .to_string(),
                )
            })
            .collect();
        let mut shell: Vec<(&'static str, String)> = SHELL_OPTIONS
            .iter()
            .map(|s| (s.name, s.default_official.to_string()))
            .collect();
        let mut errors = Vec::new();
        for (name, value) in set {
            let shell_at = SHELL_OPTIONS.iter().position(|s| s.name == name);
            match specs.iter().position(|s| s.name == name) {
                None if shell_at.is_some() => {
                    let i = shell_at.unwrap_or_default();
                    match check(&SHELL_OPTIONS[i], value.trim()) {
                        Ok(v) => shell[i].1 = v,
                        Err(e) => errors.push(e),
                    }
                }
                None => errors.push(format!(
                    "unknown option `{name}`; valid: {}",
                    specs.iter().map(|s| s.name).collect::<Vec<_>>().join(", ")
                )),
                Some(i) => match check(&specs[i], value.trim()) {
                    Ok(v) => values[i].1 = v,
                    Err(e) => errors.push(e),
                },
            }
        }
        if errors.is_empty() {
            Ok(Options {
                values,
                shell,
                specs,
                unknown: Default::default(),
            })
        } else {
            Err(errors.join("\n"))
        }
    }

    /// The effective value of a declared option, as text (`""` for a name not declared); what the typed
    /// reader of [`options!`](crate::options) reads.
    pub fn value_of(&self, name: &str) -> &str {
        self.values
            .iter()
            .find(|(n, _)| *n == name)
            .map_or("", |(_, v)| v.as_str())
    }

    /// Sets a declared option's effective value (what the report lists), e.g. the preset the files picked;
    /// `name` is the typed struct's constant ([`options!`](crate::options)). An undeclared name is recorded.
    pub fn set(&mut self, name: &'static str, value: &str) {
        match self.values.iter_mut().find(|(n, _)| *n == name) {
            Some(slot) => slot.1 = value.to_string(),
            None => self.record_unknown(name),
        }
    }
    fn record_unknown(&self, name: &str) {
        if let Ok(mut u) = self.unknown.lock() {
            if !u.iter().any(|n| n == name) {
                u.push(name.to_string());
            }
        }
    }
    /// Names looked up that the protocol's option table does not declare (a bug in protocol code).
    pub fn unknown_names(&self) -> Vec<String> {
        self.unknown.lock().map(|u| u.clone()).unwrap_or_default()
    }
    /// Whether `name` is declared (for code that probes optional names on purpose).
    pub fn declares(&self, name: &str) -> bool {
        self.specs
            .iter()
            .chain(SHELL_OPTIONS)
            .any(|s| s.name == name)
    }
    /// The bootstrap's settings (the shell options `bootstrap`, `seed`, `confidence`); a usage error for a
    /// negative B or seed or a confidence outside (0, 1).
    pub fn statistics(&self) -> Result<crate::stats::units::Settings, String> {
        let get = |name: &str| {
            self.shell
                .iter()
                .find(|(n, _)| *n == name)
                .map_or("", |(_, v)| v.as_str())
        };
        let asked = matches!(get("intervals_in_scores"), "true" | "1" | "yes" | "on");
        let replicates = match get("bootstrap").parse::<i64>().unwrap_or(0) {
            // Intervals asked for the leaderboard need replicates: B = 1000 then.
            0 if asked => 1000,
            b => b,
        };
        let seed = get("seed").parse::<i64>().unwrap_or(0);
        let confidence = get("confidence").parse::<f64>().unwrap_or(0.95);
        if !(0..=1_000_000).contains(&replicates) {
            return Err(format!(
                "option `bootstrap`: expected an integer from 0 to 1000000, found `{replicates}`"
            ));
        }
        if seed < 0 {
            return Err(format!(
                "option `seed`: expected a non-negative integer, found `{seed}`"
            ));
        }
        if !(confidence > 0.0 && confidence < 1.0) {
            return Err(format!(
                "option `confidence`: expected a number between 0 and 1, found `{confidence}`"
            ));
        }
        Ok(crate::stats::units::Settings {
            replicates: replicates as usize,
            seed: seed as u64,
            confidence,
        })
    }

    /// The public/private split's settings (shell options `split`, `part`, `usage_column`).
    pub fn parts(&self) -> PartSettings {
        let get = |name: &str| {
            self.shell
                .iter()
                .find(|(n, _)| *n == name)
                .map_or("", |(_, v)| v.as_str())
        };
        let named = |name: &str| Some(get(name).trim()).filter(|v| !v.is_empty() && *v != "none");
        let split = named("split_file").or(named("split")).unwrap_or_default();
        PartSettings {
            split: split.to_string(),
            part: match get("part") {
                "public" => PartChoice::Public,
                "private" => PartChoice::Private,
                _ => PartChoice::All,
            },
            usage_column: get("usage_column").trim().to_string(),
        }
    }

    /// The run's memory budget (the shell option `max_memory`).
    pub fn budget(&self) -> crate::budget::Budget {
        let text = self
            .shell
            .iter()
            .find(|(n, _)| *n == "max_memory")
            .map_or("", |(_, v)| v.as_str());
        crate::budget::parse_size(text)
            .map(crate::budget::Budget::new)
            .unwrap_or_default()
    }

    /// Every option with its effective value, typed for JSON.
    pub fn to_json(&self) -> Map<String, Value> {
        let mut m = Map::new();
        for (spec, (name, v)) in self.specs.iter().zip(&self.values) {
            let j = match spec.kind {
                "bool" => Value::Bool(v == "true"),
                "int" => v.parse::<i64>().map(Value::from).unwrap_or(Value::Null),
                "number" => v
                    .parse::<f64>()
                    .ok()
                    .and_then(|x| serde_json::Number::from_f64(x).map(Value::Number))
                    .unwrap_or(Value::Null),
                _ if v.is_empty() || v == "none" => Value::Null,
                _ => Value::String(v.clone()),
            };
            m.insert(name.to_string(), j);
        }
        m
    }

    /// One line per option whose value differs from the official default.
    pub fn deviations(&self) -> Vec<String> {
        self.deviations_among(&self.specs.iter().map(|s| s.name).collect::<Vec<_>>())
    }

    /// [`Options::deviations`] restricted to the named options (those that apply to the input at hand).
    pub fn deviations_among(&self, names: &[&str]) -> Vec<String> {
        for n in names {
            if !self.declares(n) {
                self.record_unknown(n);
            }
        }
        self.specs
            .iter()
            .zip(&self.values)
            .filter(|(s, (_, v))| {
                names.contains(&s.name) && s.default_official != "n/a" && *v != s.default_official
            })
            .map(|(s, (n, v))| format!("{n} = {v} deviates from official ({})", s.default_official))
            .collect()
    }
}

/// A protocol's typed options: the struct [`options!`](crate::options) declares, its table, and how it reads
/// the effective values the shell resolved.
pub trait OptionSet: Sized + Send + Sync + 'static {
    /// The option table (names, kinds, defaults per mode, help), in declaration order.
    const SPECS: &'static [OptionSpec];
    /// The typed values of resolved options (see [`Options::resolve`]).
    fn read(opts: &Options) -> Self;
    /// Resolves `set` against [`OptionSet::SPECS`] in `mode` and reads the result; a bad name or value is
    /// the usage error's text.
    fn resolve(mode: Mode, set: &[(String, String)]) -> Result<Self, String> {
        Options::resolve(Self::SPECS, mode, set).map(|o| Self::read(&o))
    }
}

/// Declares a protocol's options once: the struct with one public field per option, its table
/// ([`OptionSet::SPECS`]: what `dropscore list`, the page's form and the config validator read) and its
/// reader. Each field reads `name: Type = ("official default", "corrected default"), "help";` where `Type`
/// is an [`OptionValue`] (`bool`, `i64`, [`Int`], `Option<u64>`, `Option<f64>`, `String`, [`List`], [`FileName`],
/// [`FileNames`], or an enum of [`choice!`](crate::choice)). Also one associated `&str` constant per field,
/// named as the field, for the few places that name an option (deviations, a value the report records).
///
/// ```ignore
/// options! {
///     /// The options of the toy protocol.
///     pub struct ToyOptions {
///         case_sensitive: bool = ("true", "false"), "Compare lines with their case.";
///     }
/// }
/// ```
#[macro_export]
macro_rules! options {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $( $field:ident : $ty:ty = ($official:expr, $corrected:expr), $help:expr; )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug)]
        $vis struct $name {
            $( pub $field: $ty, )*
        }

        // The name constants exist for the few places that name an option; most protocols use none.
        #[allow(non_upper_case_globals, dead_code)]
        impl $name {
            $(
                #[doc = concat!("The option name `", stringify!($field), "`.")]
                pub const $field: &'static str = stringify!($field);
            )*
        }

        impl $crate::protocols::options::OptionSet for $name {
            const SPECS: &'static [$crate::protocols::options::OptionSpec] = &[
                $( $crate::protocols::options::OptionSpec {
                    name: stringify!($field),
                    kind: <$ty as $crate::protocols::options::OptionValue>::KIND,
                    default_official: $official,
                    default_corrected: $corrected,
                    help: $help,
                }, )*
            ];
            fn read(opts: &$crate::protocols::options::Options) -> Self {
                $name {
                    $( $field: <$ty as $crate::protocols::options::OptionValue>::read(
                        opts.value_of(stringify!($field)),
                    ), )*
                }
            }
        }
    };
}

/// Declares the allowed values of an option as an enum: `choice! { pub enum Preset { Auto = "auto", Trec =
/// "trec" } }`. Its [`OptionValue::KIND`] is the values joined by `|` (the table's notation); the first
/// variant stands for a value that is none of them (never the case after the shell's validation).
#[macro_export]
macro_rules! choice {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident { $first:ident = $first_text:literal $(, $variant:ident = $text:literal)* $(,)? }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        $vis enum $name {
            $first,
            $( $variant, )*
        }

        impl $name {
            /// The value as the option table spells it.
            pub fn as_str(self) -> &'static str {
                match self {
                    $name::$first => $first_text,
                    $( $name::$variant => $text, )*
                }
            }
        }

        impl $crate::protocols::options::OptionValue for $name {
            const KIND: &'static str = concat!($first_text $(, "|", $text)*);
            fn read(value: &str) -> Self {
                match value {
                    $( $text => $name::$variant, )*
                    _ => $name::$first,
                }
            }
        }
    };
}

fn check(spec: &OptionSpec, v: &str) -> Result<String, String> {
    let bad = |what: &str| {
        Err(format!(
            "option `{}`: expected {what}, found `{v}`",
            spec.name
        ))
    };
    match spec.kind {
        "bool" => match v.to_ascii_lowercase().as_str() {
            "true" | "1" | "yes" | "on" => Ok("true".into()),
            "false" | "0" | "no" | "off" => Ok("false".into()),
            _ => bad("true or false"),
        },
        "int" => v
            .parse::<i64>()
            .map(|_| v.to_string())
            .or_else(|_| bad("an integer")),
        "int?" => {
            if v.is_empty() || v == "none" {
                Ok("none".into())
            } else {
                v.parse::<u64>()
                    .map(|_| v.to_string())
                    .or_else(|_| bad("a non-negative integer or none"))
            }
        }
        "number" => match v.parse::<f64>() {
            Ok(x) if x.is_finite() => Ok(v.to_string()),
            _ => bad("a number"),
        },
        "list" | "text" | "file" | "files" => Ok(v.to_string()),
        "size" => crate::budget::parse_size(v)
            .map(|_| v.to_string())
            .map_err(|e| format!("option `{}`: {e}", spec.name)),
        allowed => {
            if allowed.split('|').any(|a| a == v) {
                Ok(v.to_string())
            } else {
                bad(&format!("one of {}", allowed.replace('|', ", ")))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{List, OptionSet, Options};
    use crate::report::Mode;

    crate::choice! {
        /// A choice of the test table.
        enum Colour { Red = "red", Green = "green" }
    }

    crate::options! {
        /// A table of each kind.
        struct Sample {
            flag: bool = ("true", "false"), "a flag";
            count: i64 = ("3", "4"), "a count";
            depth: Option<u64> = ("none", "7"), "a depth";
            ratio: Option<f64> = ("n/a", "0.5"), "a ratio";
            names: List = ("a, b,", "c"), "a list";
            colour: Colour = ("red", "green"), "a colour";
        }
    }

    #[test]
    fn the_macro_declares_the_table_and_reads_typed_values() {
        let kinds: Vec<&str> = Sample::SPECS.iter().map(|s| s.kind).collect();
        assert_eq!(
            kinds,
            ["bool", "int", "int?", "number", "list", "red|green"]
        );
        assert_eq!(Sample::colour, "colour");
        let o = Sample::resolve(Mode::Official, &[]).unwrap();
        assert!(o.flag && o.count == 3 && o.depth.is_none() && o.ratio.is_none());
        assert_eq!(
            (o.names.items(), o.colour),
            (vec!["a".to_string(), "b".to_string()], Colour::Red)
        );
        let set = [
            ("colour".to_string(), "green".to_string()),
            ("depth".to_string(), "9".to_string()),
        ];
        let o = Sample::resolve(Mode::Official, &set).unwrap();
        assert_eq!((o.colour, o.depth), (Colour::Green, Some(9)));
        let c = Sample::resolve(Mode::Corrected, &[]).unwrap();
        assert_eq!((c.flag, c.count, c.ratio), (false, 4, Some(0.5)));
        assert_eq!(c.colour.as_str(), "green");
        // The shell's messages, unchanged.
        let bad = [("colour".to_string(), "blue".to_string())];
        assert_eq!(
            Sample::resolve(Mode::Official, &bad).unwrap_err(),
            "option `colour`: expected one of red, green, found `blue`"
        );
        let typo = [("colour_".to_string(), "red".to_string())];
        assert!(Options::resolve(Sample::SPECS, Mode::Official, &typo)
            .unwrap_err()
            .starts_with("unknown option `colour_`; valid: flag, count,"));
    }
}
