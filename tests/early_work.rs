//! When a family CSV is tokenised ahead, the tokenising thread also works out each record's id tag and number
//! (src/formats/csv_records.rs `Early`, src/formats/id_index.rs `early_tags`). Here, both families' readers give
//! the same tables, values and diagnostics whether a file is read ahead (with that early work) or in turn
//! (without it): over many blocks, a shuffled submission, rows in GT order, and every located mistake a row can
//! have.

use dropscore::budget::Budget;
use dropscore::diag::Diags;
use dropscore::formats::id_csv::CsvIn;
use dropscore::formats::{classification_csv as cls, regression_csv as reg};

const N: usize = 30_000;

fn rng(seed: u64) -> impl FnMut() -> u64 {
    let mut x = seed;
    move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    }
}

/// GT rows `id,<value>`, with a repeated id and a bad value, and a submission: most rows shuffled, a run in GT
/// order, and an unknown id, a repeat, a non-numeric, non-finite and empty value, a short row, a blank line and
/// invalid UTF-8 in the id, with `value` giving each row's value text.
fn tables(header: &str, value: &mut dyn FnMut(usize) -> String) -> (Vec<u8>, Vec<u8>) {
    let mut next = rng(0x5eed_0021);
    let mut gt = String::from("id,target\n");
    for i in 0..N {
        gt.push_str(&format!("r{i:05}, {}\n", value(i)));
        if i == 777 {
            gt.push_str("r00003,1\n");
        }
    }
    let mut order: Vec<usize> = (0..N).collect();
    for i in (1..N - 5000).rev() {
        order.swap(i, (next() % (i as u64 + 1)) as usize);
    }
    let mut pred = format!("{header}\n").into_bytes();
    for (k, &i) in order.iter().enumerate() {
        let line = match k {
            100 => "nobody,1\n".to_string(),
            200 => format!("r{:05},2\n", order[150]),
            300 => format!("r{i:05},abc\n"),
            400 => format!("r{i:05},inf\n"),
            500 => format!("r{i:05},\n"),
            600 => "short\n\n".to_string(),
            _ => format!(" r{i:05} ,{}\n", value(i + k)),
        };
        pred.extend_from_slice(line.as_bytes());
        if k == 700 {
            pred.extend_from_slice(b"r\xff1,1\n");
        }
    }
    (gt.into_bytes(), pred)
}

fn both<'a>(b: &'a [u8]) -> [CsvIn<'a>; 2] {
    [CsvIn::Stream(Box::new(b)), CsvIn::Ahead(Box::new(b))]
}

fn texts(d: Diags) -> Vec<String> {
    d.finish().iter().map(|x| format!("{x:?}")).collect()
}

#[test]
fn regression_reads_the_same_ahead() {
    let (gt, pred) = tables("id,prediction", &mut |i| format!("{}.{}", i % 997, i % 13));
    let mut seen = Vec::new();
    for (g, p) in both(&gt).into_iter().zip(both(&pred)) {
        let mut d = Diags::new();
        let t = reg::read_gt(
            "gt.csv",
            g,
            gt.len() as u64,
            b',',
            "",
            "",
            Budget::default(),
            &mut d,
        )
        .unwrap();
        let s = reg::read_submission(&t, "pred.csv", p, b',', "", "", &mut d).unwrap();
        let ids: Vec<String> = (0..t.ids.len()).map(|i| t.ids.get(i).to_string()).collect();
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        seen.push((
            ids,
            bits(&t.targets),
            t.lines,
            bits(&s.preds),
            s.seen,
            texts(d),
        ));
    }
    assert_eq!(seen[0].0.len(), N);
    assert!(seen[0].5.len() >= 8, "{:?}", seen[0].5);
    assert_eq!(seen[0], seen[1]);
}

#[test]
fn classification_reads_the_same_ahead() {
    let classes = ["0", "1", "2"];
    let header = "id,0,1,2";
    let (gt, _) = tables(header, &mut |i| classes[i % 3].to_string());
    let (_, pred) = tables(header, &mut |i| {
        format!("0.{},0.{},0.{}", i % 7, (i / 7) % 9, (i / 63) % 5)
    });
    let (_, labels) = tables("id,label", &mut |i| classes[(i / 3) % 3].to_string());
    for sub in [&pred, &labels] {
        let mut seen = Vec::new();
        for (g, p) in both(&gt).into_iter().zip(both(sub)) {
            let mut d = Diags::new();
            let t = cls::read_gt(
                "gt.csv",
                g,
                gt.len() as u64,
                b',',
                "",
                "",
                Budget::default(),
                &mut d,
            )
            .unwrap();
            let s = cls::read_submission(
                &t,
                "pred.csv",
                p,
                b',',
                ("", ""),
                false,
                Budget::default(),
                &mut d,
            )
            .unwrap();
            let ids: Vec<String> = (0..t.ids.len()).map(|i| t.ids.get(i).to_string()).collect();
            let scores: Vec<u64> = s.scores.iter().map(|x| x.to_bits()).collect();
            seen.push((
                ids,
                t.labels,
                t.lines,
                s.pred,
                scores,
                s.seen,
                s.bad_values,
                texts(d),
            ));
        }
        assert_eq!(seen[0].0.len(), N);
        assert!(seen[0].7.len() >= 6, "{:?}", seen[0].7);
        assert_eq!(seen[0], seen[1]);
    }
}
