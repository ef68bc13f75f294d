//! Python's behaviour where an official scorer's output depends on it, as CPython 3.11 has it (Unicode 14.0):
//!
//! - [`float_repr`]: `repr(float)` / `str(float)`, the numbers official scripts print;
//! - [`parse_float`]: `float(str)` (and [`parse_int`], `int(str)` of ASCII decimal text);
//! - [`split`], [`strip`], [`is_space`]: `str.split()` / `str.strip()` with no argument, `str.isspace()`;
//! - [`lower`]: `str.lower()`, the full lower-case mapping with the final-sigma rule.
//!
//! Each is tested against CPython on random values by tests/reference/pycompat_diff.py, which drives the
//! hidden command `dropscore pycompat`.

mod float;
mod text;
mod unicode14;

pub use float::{float_repr, parse_float, parse_int};
pub use text::{is_simple_case, is_space, lower, lower_cow, simple_lower, split, strip, Split};
