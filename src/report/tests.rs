use super::*;

#[test]
fn prefix_skip_keeps_the_order() {
    let alphabet = b"c/0019x";
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = || crate::xorshift64(&mut seed);
    for _ in 0..200_000 {
        let (n, m) = (next(), next());
        let mk = |r: u64| -> String {
            (0..r % 23)
                .map(|k| alphabet[(r.rotate_left(7 * k as u32) % 7) as usize] as char)
                .collect()
        };
        let (a, b) = (mk(n), mk(m));
        let b = match m % 4 {
            0 => format!("{a}{b}"),
            // `a` with one byte changed: a long common prefix, then one difference.
            1 if !a.is_empty() => {
                let k = (m >> 20) as usize % a.len();
                let c = alphabet[(m >> 40) as usize % 7] as char;
                format!(
                    "{}{c}{}{}",
                    &a[..k],
                    &a[k + 1..],
                    &b[..(m >> 50) as usize % (b.len() + 1)]
                )
            }
            2 => format!("{}{b}", a.repeat(3)),
            _ => b,
        };
        assert_eq!(
            natural_cmp(&a, &b),
            natural_cmp_from(&a, &b, 0), // from the first byte: no common-prefix skip
            "{a:?} {b:?}"
        );
    }
}

#[test]
fn natural_order() {
    let mut v = vec!["q10", "q2", "q1", "a", "q02"];
    v.sort_by(|a, b| natural_cmp(a, b));
    assert_eq!(v, vec!["a", "q1", "q02", "q2", "q10"]);
    let mut w = vec![
        "c/12346", "c/12345", "c/1234", "c/012345", "c/12345a", "c/9", "c/123x45",
    ];
    w.sort_by(|a, b| natural_cmp(a, b));
    assert_eq!(
        w,
        vec!["c/9", "c/123x45", "c/1234", "c/012345", "c/12345", "c/12345a", "c/12346"]
    );
}

#[test]
fn nan_becomes_null() {
    let s = Scores::new().with("a", Some(f64::NAN)).with("b", Some(0.5));
    assert_eq!(serde_json::to_string(&s).unwrap(), r#"{"a":null,"b":0.5}"#);
}
