//! Per-item rows held column-wise: the metric families' millions of rows (one per CSV line) without one
//! `Item` (a string, a map and a vector) each. An [`ItemTable`] serialises to exactly the JSON the `Item`s it
//! stands for would give, row by row, so the report is byte-identical either way; consumers that want rows
//! read them through [`crate::report::Report::item`] and friends.

use crate::report::{Item, Scores};
use serde::ser::{SerializeMap, SerializeSeq, SerializeStruct};
use serde::{Serialize, Serializer};
use serde_json::{Map, Value};

/// Rows `ids.get(order[k])`, k = 0, 1, …: each an item with no group, one score per [`ScoreColumn`] (in
/// order) and one detail entry per [`DetailColumn`] (in order, absent where the column says so).
pub struct ItemTable {
    pub ids: Ids,
    /// Row indices in display order.
    pub order: Vec<u32>,
    pub scores: Vec<ScoreColumn>,
    pub detail: Vec<DetailColumn>,
}

/// Ids stored once, in insertion order: one text arena and, once two lengths differ, the end of each id in it.
/// While every id has the same length (`id00000001`, …), an id's bytes are found from its index alone,
/// without reading `ends`. The GT readers' id table (`formats::id_index::IdIndex`) finds ids in these.
#[derive(Default)]
pub struct Ids {
    arena: String,
    /// The end of each id in the arena, kept only once the ids' lengths differ (while `uniform`, empty).
    ends: Vec<u64>,
    len: usize,
    /// The common length of all ids so far (`None` once two lengths differ, or when empty).
    uniform: Option<usize>,
}

impl Ids {
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn get(&self, i: usize) -> &str {
        let (s, e) = self.span(i);
        self.arena.get(s..e).unwrap_or("")
    }
    /// Every id, one after another (for a check of their characters at once).
    pub fn text(&self) -> &str {
        &self.arena
    }
    /// The common length of all ids, while they have one.
    #[inline]
    pub fn uniform(&self) -> Option<usize> {
        self.uniform
    }
    #[inline]
    fn span(&self, i: usize) -> (usize, usize) {
        if let Some(l) = self.uniform {
            return (i * l, (i + 1) * l);
        }
        let s = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        (s, self.ends[i] as usize)
    }
    /// The bytes of id `i` (a valid index).
    #[inline]
    pub fn bytes(&self, i: usize) -> &[u8] {
        let (s, e) = self.span(i);
        &self.arena.as_bytes()[s..e]
    }
    /// Appends `id` and returns its index (no check for duplicates: the caller's table does that).
    #[inline]
    pub fn push(&mut self, id: &str) -> usize {
        let i = self.len;
        if i == 0 {
            self.uniform = Some(id.len());
        } else if let Some(l) = self.uniform.filter(|&l| l != id.len()) {
            self.uniform = None;
            self.ends = (1..=i).map(|j| (j * l) as u64).collect();
        }
        self.arena.push_str(id);
        if self.uniform.is_none() {
            self.ends.push(self.arena.len() as u64);
        }
        self.len += 1;
        i
    }
}

/// One score per row; a non-finite value is JSON `null` (as `Scores` stores it).
pub struct ScoreColumn {
    pub key: String,
    pub values: Vec<f64>,
}

pub struct DetailColumn {
    pub key: String,
    pub values: DetailValues,
}

pub enum DetailValues {
    /// A string per row: `names[codes[row]]`, JSON `null` where the code is [`NULL_CODE`].
    Names { names: Vec<String>, codes: Vec<u32> },
    /// `true` on the rows that are set; the key is absent from the others.
    TrueOrAbsent(Vec<bool>),
}

/// The code of a JSON `null` in [`DetailValues::Names`].
pub const NULL_CODE: u32 = u32::MAX;

impl ItemTable {
    pub fn len(&self) -> usize {
        self.order.len()
    }
    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }
    /// The item shown at position `k` (built: for pages of rows, not for whole reports).
    pub fn item(&self, k: usize) -> Item {
        let r = self.order[k] as usize;
        let fin = |v: f64| Some(v).filter(|x| x.is_finite());
        let scores = Scores(
            self.scores
                .iter()
                .map(|c| (c.key.clone(), fin(c.values[r])))
                .collect(),
        );
        let mut detail = Map::new();
        for c in &self.detail {
            match &c.values {
                DetailValues::Names { names, codes } => {
                    let v = names
                        .get(codes[r] as usize)
                        .map_or(Value::Null, |s| Value::String(s.clone()));
                    detail.insert(c.key.clone(), v);
                }
                DetailValues::TrueOrAbsent(set) => {
                    if set[r] {
                        detail.insert(c.key.clone(), Value::Bool(true));
                    }
                }
            }
        }
        Item {
            id: self.ids.get(r).to_string(),
            group: None,
            scores,
            detail,
        }
    }
    /// Whether any id or detail string satisfies `needs` (e.g. holds a terminal control character).
    pub fn any_text(&self, needs: impl Fn(&str) -> bool) -> bool {
        // The ids' bytes at once: their concatenation holds the characters they hold.
        needs(self.ids.text())
            || self.detail.iter().any(|c| match &c.values {
                DetailValues::Names { names, .. } => names.iter().any(|s| needs(s)),
                DetailValues::TrueOrAbsent(_) => false,
            })
            || self.scores.iter().any(|c| needs(&c.key))
            || self.detail.iter().any(|c| needs(&c.key))
    }
}

impl std::fmt::Debug for ItemTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ItemTable")
            .field("rows", &self.len())
            .field(
                "scores",
                &self.scores.iter().map(|c| &c.key).collect::<Vec<_>>(),
            )
            .field(
                "detail",
                &self.detail.iter().map(|c| &c.key).collect::<Vec<_>>(),
            )
            .finish()
    }
}

/// Equal when every row is.
impl PartialEq for ItemTable {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && (0..self.len()).all(|k| self.item(k) == other.item(k))
    }
}

impl Serialize for ItemTable {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.len()))?;
        for &r in &self.order {
            seq.serialize_element(&Row {
                t: self,
                r: r as usize,
            })?;
        }
        seq.end()
    }
}

/// One row as the `Item` it stands for, serialised without building it.
struct Row<'a> {
    t: &'a ItemTable,
    r: usize,
}

struct RowScores<'a>(&'a Row<'a>);
struct RowDetail<'a>(&'a Row<'a>);

impl Serialize for Row<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Item", 4)?;
        st.serialize_field("id", self.t.ids.get(self.r))?;
        st.serialize_field("group", &None::<&str>)?;
        st.serialize_field("scores", &RowScores(self))?;
        st.serialize_field("detail", &RowDetail(self))?;
        st.end()
    }
}

impl Serialize for RowScores<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let Row { t, r } = *self.0;
        let mut m = s.serialize_map(Some(t.scores.len()))?;
        for c in &t.scores {
            let v = c.values[r];
            m.serialize_entry(&c.key, &Some(v).filter(|x| x.is_finite()))?;
        }
        m.end()
    }
}

impl Serialize for RowDetail<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let Row { t, r } = *self.0;
        let mut m = s.serialize_map(None)?;
        for c in &t.detail {
            match &c.values {
                DetailValues::Names { names, codes } => {
                    m.serialize_entry(&c.key, &names.get(codes[r] as usize))?;
                }
                DetailValues::TrueOrAbsent(set) => {
                    if set[r] {
                        m.serialize_entry(&c.key, &true)?;
                    }
                }
            }
        }
        m.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> ItemTable {
        let mut ids = Ids::default();
        for id in ["b\"2", "a/1", "ç\u{202e}", "a/10", ""] {
            ids.push(id);
        }
        ItemTable {
            ids,
            order: vec![1, 3, 0, 4, 2],
            scores: vec![
                ScoreColumn {
                    key: "x".into(),
                    values: vec![0.1, f64::NAN, 1e300, -0.0, f64::INFINITY],
                },
                ScoreColumn {
                    key: "y\n".into(),
                    values: vec![1.0, 2.5, 3.0, 4.0, 5.0],
                },
            ],
            detail: vec![
                DetailColumn {
                    key: "truth".into(),
                    values: DetailValues::Names {
                        names: vec!["cat".into(), "\"dog\"".into()],
                        codes: vec![0, 1, NULL_CODE, 1, 0],
                    },
                },
                DetailColumn {
                    key: "missing".into(),
                    values: DetailValues::TrueOrAbsent(vec![true, false, false, true, false]),
                },
            ],
        }
    }

    #[test]
    fn serialises_as_the_items_it_stands_for() {
        let t = table();
        let rows: Vec<Item> = (0..t.len()).map(|k| t.item(k)).collect();
        assert_eq!(
            serde_json::to_string(&t).unwrap(),
            serde_json::to_string(&rows).unwrap()
        );
        assert_eq!(rows[0].id, "a/1");
        assert_eq!(rows[0].scores.get("x"), None); // NaN
        assert_eq!(rows[2].detail.get("missing"), Some(&Value::Bool(true)));
        assert_eq!(rows[1].detail.get("missing"), Some(&Value::Bool(true)));
        assert_eq!(rows[4].detail.get("truth"), Some(&Value::Null));
    }

    #[test]
    fn a_report_with_a_table_serialises_as_one_with_rows() {
        let mut a = crate::report::Report::new("p", crate::report::Mode::Official);
        a.item_table = Some(std::sync::Arc::new(table()));
        let b = a.with_rows();
        assert!(b.item_table.is_none() && b.items.len() == 5);
        assert_eq!(a.to_json(), b.to_json());
        let mut out = Vec::new();
        a.write_json(&mut out).unwrap();
        assert_eq!(out, b.to_json().into_bytes());
        assert_eq!(a.item_count(), 5);
        assert_eq!(a.item(3).into_owned(), b.items[3]);
    }
}
