//! The other cells of a Kaggle CSV: space-separated lists (predicted items, tags: Python's `str.split()` on
//! ASCII whitespace) and image sizes.

/// The items of a space-separated list, in order (repeats kept).
pub fn list(cell: &str) -> Vec<String> {
    cell.split_ascii_whitespace().map(str::to_string).collect()
}

/// An image side (`width`, `height`): a whole number from 1 to 65,535 (`3.0` reads as 3, as pandas reads an
/// integer column with a float in it).
pub fn side(cell: &str) -> Option<u32> {
    let v: f64 = cell.trim().parse().ok()?;
    (v.fract() == 0.0 && (1.0..=65535.0).contains(&v)).then_some(v as u32)
}
