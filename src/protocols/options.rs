//! Protocol options: declared once per protocol (name, type, defaults per mode, help), set with
//! `--set NAME=VALUE` or the page's form, resolved into effective values that the report lists.

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

/// Effective option values for one run. Protocol code reads them by name; a name the protocol's table does not
/// declare reads as `""` and is recorded ([`Options::unknown_names`]): the shell turns it into the error
/// diagnostic `internal.unknown_option`, so a misspelled name fails every test that reaches it, and never panics.
#[derive(Debug)]
pub struct Options {
    values: Vec<(&'static str, String)>,
    specs: &'static [OptionSpec],
    unknown: std::sync::Mutex<Vec<String>>,
}

impl Clone for Options {
    fn clone(&self) -> Self {
        Options {
            values: self.values.clone(),
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
        let mut errors = Vec::new();
        for (name, value) in set {
            match specs.iter().position(|s| s.name == name) {
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
                specs,
                unknown: Default::default(),
            })
        } else {
            Err(errors.join("\n"))
        }
    }

    pub fn get(&self, name: &str) -> &str {
        match self.values.iter().find(|(n, _)| *n == name) {
            Some((_, v)) => v.as_str(),
            None => {
                self.record_unknown(name);
                ""
            }
        }
    }
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
        self.specs.iter().any(|s| s.name == name)
    }
    /// A `bool` option.
    pub fn flag(&self, name: &str) -> bool {
        self.typed(name, &["bool"]) == "true"
    }
    /// An `int` (or `int?`) option; `None` for `none`.
    pub fn int(&self, name: &str) -> Option<i64> {
        self.typed(name, &["int", "int?"]).parse().ok()
    }
    /// A `number` option.
    pub fn number(&self, name: &str) -> Option<f64> {
        self.typed(name, &["number"]).parse().ok()
    }
    /// A comma-separated option, trimmed, empty parts dropped.
    pub fn list(&self, name: &str) -> Vec<String> {
        self.get(name)
            .split(',')
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect()
    }
    /// The value of `name`, recording a misuse when the option's declared type is not one of `kinds`.
    fn typed(&self, name: &str, kinds: &[&str]) -> &str {
        if let Some(spec) = self.specs.iter().find(|s| s.name == name) {
            if !kinds.contains(&spec.kind) {
                self.record_unknown(&format!(
                    "{name} (read as {}, declared {})",
                    kinds[0], spec.kind
                ));
            }
        }
        self.get(name)
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
        allowed => {
            if allowed.split('|').any(|a| a == v) {
                Ok(v.to_string())
            } else {
                bad(&format!("one of {}", allowed.replace('|', ", ")))
            }
        }
    }
}
