//! A `PredictionString` cell of a Kaggle detection competition: space-separated boxes, each a fixed number of
//! tokens, `[class] [confidence] x y w h` (Global Wheat Detection writes `conf x y w h`, the submissions of
//! VinBigData and Open Images `class conf xmin ymin xmax ymax`; a solution omits the confidence). Read as
//! Python's `str.split()` then `float()` per number; an empty cell holds no box. Refused, each with its token
//! position: a token count that is not a multiple of the box's, a number that is not a finite float, a box
//! of negative width or height.

/// How the boxes of a cell are written.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    /// A class token first.
    pub class: bool,
    /// A confidence token (after the class).
    pub conf: bool,
    /// The four numbers are `xmin ymin xmax ymax` (else `x y w h`).
    pub xyxy: bool,
}

impl Layout {
    /// Tokens per box.
    pub fn stride(self) -> usize {
        4 + self.class as usize + self.conf as usize
    }
    /// The box's fields, in order, for the messages.
    pub fn fields(self) -> String {
        let mut f = Vec::new();
        if self.class {
            f.push("class");
        }
        if self.conf {
            f.push("confidence");
        }
        f.extend(if self.xyxy {
            ["xmin", "ymin", "xmax", "ymax"]
        } else {
            ["x", "y", "width", "height"]
        });
        f.join(" ")
    }
}

/// One box: its class token (`""` without classes), confidence (0 without) and `[x, y, w, h]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Box<'a> {
    pub class: &'a str,
    pub conf: f64,
    pub bbox: [f64; 4],
}

/// Why a cell is not a list of boxes, in words for the participant.
#[derive(Clone, Debug, PartialEq)]
pub struct BoxError {
    /// `pstring_count`, `pstring_number`, `pstring_negative`: the diagnostic code's last part.
    pub what: &'static str,
    /// The 1-based position of the token at fault (0 for the count).
    pub token: usize,
    pub message: String,
}

/// The boxes of `cell`.
pub fn parse(cell: &str, layout: Layout) -> Result<Vec<Box<'_>>, BoxError> {
    let stride = layout.stride();
    let tokens: Vec<&str> = cell.split_ascii_whitespace().collect();
    if !tokens.len().is_multiple_of(stride) {
        return Err(BoxError {
            what: "pstring_count",
            token: 0,
            message: format!(
                "{} tokens, not a multiple of {stride}: each box is `{}`",
                tokens.len(),
                layout.fields()
            ),
        });
    }
    let mut out = Vec::with_capacity(tokens.len() / stride);
    for (b, chunk) in tokens.chunks(stride).enumerate() {
        let first = b * stride;
        let skip = layout.class as usize;
        let mut v = [0f64; 5];
        let nums = &chunk[skip..];
        for (j, t) in nums.iter().enumerate() {
            v[j] = number(t, first + skip + j + 1)?;
        }
        let (conf, c) = if layout.conf {
            (v[0], [v[1], v[2], v[3], v[4]])
        } else {
            (0.0, [v[0], v[1], v[2], v[3]])
        };
        let bbox = if layout.xyxy {
            [c[0], c[1], c[2] - c[0], c[3] - c[1]]
        } else {
            c
        };
        if bbox[2] < 0.0 || bbox[3] < 0.0 {
            let side = if bbox[2] < 0.0 { "width" } else { "height" };
            return Err(BoxError {
                what: "pstring_negative",
                token: first + 1,
                message: format!(
                    "box {} (tokens {}–{}) has a negative {side}{}",
                    b + 1,
                    first + 1,
                    first + stride,
                    if layout.xyxy {
                        " (xmax < xmin or ymax < ymin)"
                    } else {
                        ""
                    }
                ),
            });
        }
        out.push(Box {
            class: if layout.class { chunk[0] } else { "" },
            conf,
            bbox,
        });
    }
    Ok(out)
}

/// Token `pos` (1-based) as a finite float, as Python's `float()` reads it.
fn number(t: &str, pos: usize) -> Result<f64, BoxError> {
    match t.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        _ => Err(BoxError {
            what: "pstring_number",
            token: pos,
            message: format!(
                "token {pos} `{}` is not a finite number",
                crate::diag::excerpt(t)
            ),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WHEAT: Layout = Layout {
        class: false,
        conf: true,
        xyxy: false,
    };
    const VIN: Layout = Layout {
        class: true,
        conf: true,
        xyxy: true,
    };

    #[test]
    fn reads_both_layouts() {
        let b = parse("0.9 1 2 3 4  0.5 0 0 1 1", WHEAT).unwrap();
        assert_eq!(b.len(), 2);
        assert_eq!(b[0].bbox, [1.0, 2.0, 3.0, 4.0]);
        assert_eq!(b[1].conf, 0.5);
        let b = parse("cat 0.7 10 20 15 30", VIN).unwrap();
        assert_eq!(b[0].class, "cat");
        assert_eq!(b[0].bbox, [10.0, 20.0, 5.0, 10.0]);
        assert!(parse("", VIN).unwrap().is_empty());
    }

    #[test]
    fn refusals_name_the_token() {
        assert_eq!(parse("0.9 1 2 3", WHEAT).unwrap_err().what, "pstring_count");
        let e = parse("0.9 1 2 3 4 0.5 0 x 1 1", WHEAT).unwrap_err();
        assert_eq!((e.what, e.token), ("pstring_number", 8));
        let e = parse("0.9 1 2 3 nan", WHEAT).unwrap_err();
        assert_eq!((e.what, e.token), ("pstring_number", 5));
        let e = parse("a 0.9 1 2 3 4 b 0.8 5 5 4 9", VIN).unwrap_err();
        assert_eq!((e.what, e.token), ("pstring_negative", 7));
    }
}
