//! The Rust types of option values ([`OptionValue`]): what a protocol's typed options read from the values
//! the shell validated (`crate::protocols::options`).

/// The Rust type of an option value. `KIND` is its name in the option table (the JSON `type` of
/// `dropscore list --format json` and the page's form); [`read`](OptionValue::read) gets the value the shell
/// has validated against that kind (or the declared default, which may be `n/a` or `none`).
pub trait OptionValue: Sized {
    const KIND: &'static str;
    fn read(value: &str) -> Self;
}

impl OptionValue for bool {
    const KIND: &'static str = "bool";
    fn read(value: &str) -> Self {
        value == "true"
    }
}

impl OptionValue for i64 {
    const KIND: &'static str = "int";
    fn read(value: &str) -> Self {
        value.parse().unwrap_or_default()
    }
}

/// An `int` option with its text as given (`+3`, `03`), for messages that quote it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Int {
    pub value: i64,
    pub text: String,
}

impl OptionValue for Int {
    const KIND: &'static str = "int";
    fn read(value: &str) -> Self {
        Int {
            value: value.parse().unwrap_or_default(),
            text: value.to_string(),
        }
    }
}

/// `int?`: a non-negative integer, or `none`.
impl OptionValue for Option<u64> {
    const KIND: &'static str = "int?";
    fn read(value: &str) -> Self {
        value.parse().ok()
    }
}

/// `number`: a finite number; `None` for a default that is not one (`n/a`).
impl OptionValue for Option<f64> {
    const KIND: &'static str = "number";
    fn read(value: &str) -> Self {
        value.parse().ok()
    }
}

/// `text`: the value as given.
impl OptionValue for String {
    const KIND: &'static str = "text";
    fn read(value: &str) -> Self {
        value.to_string()
    }
}

/// A comma-separated option (`list`): its text as given, and its parts.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct List(pub String);

impl List {
    /// The parts, trimmed, empty parts dropped.
    pub fn items(&self) -> Vec<String> {
        self.0
            .split(',')
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect()
    }
    /// The text as given.
    pub fn text(&self) -> &str {
        &self.0
    }
}

impl OptionValue for List {
    const KIND: &'static str = "list";
    fn read(value: &str) -> Self {
        List(value.to_string())
    }
}

/// A file option (`file`): a dropped file's name or, on the CLI, a path; `none` or empty when not given.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FileName(pub String);

/// Several file options (`files`), comma-separated.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FileNames(pub String);

impl FileNames {
    /// The names, trimmed, empty parts dropped.
    pub fn items(&self) -> Vec<String> {
        List(self.0.clone()).items()
    }
}

impl OptionValue for FileName {
    const KIND: &'static str = "file";
    fn read(value: &str) -> Self {
        FileName(value.to_string())
    }
}

impl OptionValue for FileNames {
    const KIND: &'static str = "files";
    fn read(value: &str) -> Self {
        FileNames(value.to_string())
    }
}
