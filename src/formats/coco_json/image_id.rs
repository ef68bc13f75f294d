//! Image ids as pycocotools keeps them: dict keys (`COCO.createIndex`: `imgs[img['id']]`,
//! `imgToAnns[ann['image_id']]`), so a JSON integer or a JSON string. Two ids are the same key when they are
//! equal in Python: `1` and `"1"` are different images (`loadRes` then refuses a result whose id is not a GT
//! key: "Results do not correspond to current coco set"). The evaluation walks the images in
//! `sorted(cocoGt.getImgIds())` order: integers by value, strings by code point (which is UTF-8 byte order, the
//! order of `str`'s `Ord`); a ground truth mixing both is a `TypeError` there, reported by the caller.

use super::python::is_py_literal;
use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use std::fmt;

/// An image id: a JSON integer or a JSON string (module doc). The derived order sorts integers by value and
/// strings by code point, as Python's `sorted` does within one type.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ImageId {
    Int(i64),
    Str(String),
}

impl ImageId {
    /// The Python type name, for the mixed-types diagnostic.
    pub fn type_name(&self) -> &'static str {
        match self {
            ImageId::Int(_) => "int",
            ImageId::Str(_) => "str",
        }
    }
    /// Written as in the JSON file: `42`, `"2299"`.
    pub fn json_text(&self) -> String {
        match self {
            ImageId::Int(v) => v.to_string(),
            ImageId::Str(s) => serde_json::Value::from(s.as_str()).to_string(),
        }
    }
}

impl From<i64> for ImageId {
    fn from(v: i64) -> Self {
        ImageId::Int(v)
    }
}

/// The id as a label: the integer, or the string itself.
impl fmt::Display for ImageId {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            ImageId::Int(v) => write!(f, "{v}"),
            ImageId::Str(s) => f.write_str(s),
        }
    }
}

/// In JSON as it was read: a number or a string.
impl Serialize for ImageId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            ImageId::Int(v) => s.serialize_i64(*v),
            ImageId::Str(v) => s.serialize_str(v),
        }
    }
}

impl<'de> Deserialize<'de> for ImageId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = ImageId;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an integer or a string")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<ImageId, E> {
                Ok(ImageId::Int(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<ImageId, E> {
                i64::try_from(v)
                    .map(ImageId::Int)
                    .map_err(|_| E::invalid_value(de::Unexpected::Unsigned(v), &"an i64"))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<ImageId, E> {
                // Python's NaN / Infinity literals (stand-in strings while the file is read) are floats.
                if is_py_literal(v) {
                    return Err(E::invalid_type(de::Unexpected::Str(v), &self));
                }
                Ok(ImageId::Str(v.to_string()))
            }
        }
        d.deserialize_any(V)
    }
}

#[cfg(test)]
mod tests {
    use super::ImageId;

    #[test]
    fn reads_integers_and_strings_and_sorts_as_python() {
        let ids: Vec<ImageId> = serde_json::from_str(r#"[10, "10", "9", 9, "é", "z"]"#).unwrap();
        let mut strs: Vec<&ImageId> = ids.iter().filter(|i| i.type_name() == "str").collect();
        strs.sort();
        // sorted(["10", "9", "é", "z"]) in Python: code point order.
        let shown: Vec<String> = strs.iter().map(|i| i.to_string()).collect();
        assert_eq!(shown, ["10", "9", "z", "é"]);
        assert_ne!(ids[0], ids[1], "1 and \"1\" are different dict keys");
        assert!(ids[3] < ids[0]);
        assert_eq!(
            serde_json::to_string(&ids).unwrap(),
            r#"[10,"10","9",9,"é","z"]"#
        );
        assert_eq!(ids[1].json_text(), "\"10\"");
        assert!(serde_json::from_str::<ImageId>("1.5").is_err());
        assert!(serde_json::from_str::<ImageId>("null").is_err());
        assert!(serde_json::from_str::<ImageId>("18446744073709551615").is_err());
    }
}
