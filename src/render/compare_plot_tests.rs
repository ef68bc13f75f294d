use super::*;
use crate::report::Mode;
use crate::stats::units::{Replicate, Slot, Units};
use std::any::Any;

/// Units whose own scores are the given values.
struct Scores(Vec<f64>);
impl Replicate for Scores {
    fn metrics(&self) -> Vec<String> {
        Vec::new()
    }
    fn values(&self, _: &[u32]) -> Vec<Option<f64>> {
        Vec::new()
    }
    fn unit_scores(&self) -> Option<Vec<f64>> {
        Some(self.0.clone())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

fn report(scores: Vec<f64>, ids: Vec<String>) -> Report {
    let mut r = Report::new("toy", Mode::Official);
    let n = scores.len();
    r.units = Slot::new(Units::plain("image", n, Box::new(Scores(scores))).with_ids(ids));
    r
}

#[test]
fn one_point_per_distinct_pair_coloured_as_compare_counts() {
    let ids: Vec<String> = ["a", "b", "c", "d", "e"].map(String::from).to_vec();
    let a = report(vec![1.0, 0.0, 0.5, 1.0, 0.25], ids.clone());
    let b = report(vec![0.0, 0.0, 0.75, 0.0, 0.25], ids);
    let s = unit_scatter(&a, &b).unwrap();
    // (1, 0) twice, (0, 0), (0.5, 0.75), (0.25, 0.25): four points for five units.
    assert_eq!(s.points, 4);
    let drawn: Vec<usize> = s.spec.series.iter().map(|l| l.points.len()).collect();
    assert_eq!(drawn, vec![1, 2, 1, 2]);
    assert_eq!(s.spec.series[0].label, "A better (2 images)");
    assert_eq!(s.spec.series[1].label, "tie (2 images)");
    assert_eq!(s.spec.series[2].label, "B better (1 images)");
    assert_eq!(
        s.spec.series[0].markers,
        vec!["image a and 1 more images: A 1, B 0"]
    );
    assert_eq!(s.spec.series[3].style, "dashed");
    assert_eq!(
        s.spec.series[3].points,
        vec![Some([0.0, 0.0]), Some([1.0, 1.0])]
    );
    assert_eq!(s.spec.data.rows.len(), 4);
    assert_eq!(
        s.note,
        "5 images, 4 distinct pairs of scores, each drawn once"
    );
    // Both axes span the same scores.
    assert_eq!((s.spec.x.lo, s.spec.x.hi), (s.spec.y.lo, s.spec.y.hi));
    assert_eq!(s.spec.x.ticks, s.spec.y.ticks);
    assert_eq!(s.spec.y.label, "B's score per image");
}

#[test]
fn many_distinct_pairs_are_sampled_in_unit_order() {
    let n = 5 * MAX_POINTS + 3;
    let a = report((0..n).map(|i| i as f64).collect(), Vec::new());
    let b = report((0..n).map(|i| (n - i) as f64).collect(), Vec::new());
    let s = unit_scatter(&a, &b).unwrap();
    assert!(
        s.points <= MAX_POINTS && s.points > MAX_POINTS / 2,
        "{}",
        s.points
    );
    let drawn: usize = s.spec.series[..3].iter().map(|l| l.points.len()).sum();
    assert_eq!(drawn, s.points);
    assert!(
        s.note.contains("one in every 6 distinct pairs"),
        "{}",
        s.note
    );
    assert_eq!(s.spec.data.rows[1][0], "image #7");
    assert_eq!((s.spec.x.lo, s.spec.x.hi), (s.spec.y.lo, s.spec.y.hi));
    // The counts in the legend are those of every unit, not of the drawn ones.
    let units: usize = s.spec.series[..3]
        .iter()
        .map(|l| {
            l.label
                .rsplit('(')
                .next()
                .unwrap()
                .split(' ')
                .next()
                .unwrap()
                .parse::<usize>()
                .unwrap()
        })
        .sum();
    assert_eq!(units, n);
}

#[test]
fn no_scatter_without_unit_scores_or_on_other_units() {
    let a = report(vec![1.0, 2.0], Vec::new());
    let b = report(vec![1.0], Vec::new());
    assert!(unit_scatter(&a, &b).is_none());
    let none = Report::new("toy", Mode::Official);
    assert!(unit_scatter(&a, &none).is_none());
}
