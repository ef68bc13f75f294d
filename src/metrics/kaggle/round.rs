//! Python's `round(x, ndigits)` for a float (CPython 3.12 `Objects/floatobject.c`, `double_round`): the decimal
//! of `ndigits` places nearest to the exact binary value of `x`, ties to even (`_Py_dg_dtoa` mode 3), read back
//! as the nearest double (`_Py_dg_strtod`). Competitions' metric code ends with it (`return round(score, 4)`).

/// `round(x, ndigits)` for `ndigits` ≥ 0; NaN and infinities are returned unchanged, as Python does.
pub fn python_round(x: f64, ndigits: u32) -> f64 {
    // Beyond 323 places every double is already its own rounding (CPython's NDIGITS_MAX shortcut).
    if !x.is_finite() || ndigits > 323 {
        return x;
    }
    // Rust's fixed-precision formatting is exact: the decimal nearest to the binary value, ties to even.
    let text = format!("{:.*}", ndigits as usize, x);
    let v: f64 = text.parse().unwrap_or(x);
    // round(-0.4) is -0.0 in Python: the sign of x is kept.
    if v == 0.0 {
        0.0f64.copysign(x)
    } else {
        v
    }
}

#[cfg(test)]
mod tests {
    use super::python_round;

    /// Values from CPython 3.11: `round(x, n)`.
    #[test]
    fn as_python_rounds() {
        let cases: &[(f64, u32, f64)] = &[
            (0.125, 2, 0.12),
            (0.375, 2, 0.38),
            (2.675, 2, 2.67),
            (0.5, 0, 0.0),
            (1.5, 0, 2.0),
            (2.5, 0, 2.0),
            (-2.5, 0, -2.0),
            (0.123456789, 4, 0.1235),
            (1e300, 2, 1e300),
            (5e-324, 400, 5e-324),
            (0.8765432109876543, 15, 0.876543210987654),
        ];
        for &(x, n, want) in cases {
            let got = python_round(x, n);
            assert_eq!(
                got.to_bits(),
                want.to_bits(),
                "round({x}, {n}) = {got}, want {want}"
            );
        }
        assert!(python_round(-0.4, 0).is_sign_negative());
    }
}
