//! Counter resets (D16): a cumulative counter that goes down.

use super::types::{CounterSeries, Event, EventDetail, EventKind};

/// Relative float noise a counter may go down by without a reset.
const NOISE: f64 = 1e-9;

/// Each sample lower than the one before it (numbers only; `samples` in
/// time order), dated at the lower sample, if in `since..=until`.
pub(crate) fn resets(counter: &CounterSeries<'_>, since: i64, until: i64) -> Vec<Event> {
    let mut out = Vec::new();
    let mut prev: Option<f64> = None;
    for &(t, v) in counter.samples.iter().filter(|(_, v)| v.is_finite()) {
        if let Some(p) = prev
            && v < p - NOISE * p.abs()
            && (since..=until).contains(&t)
        {
            out.push(Event {
                kind: EventKind::CounterReset,
                start: t,
                end: None,
                position: None,
                detail: EventDetail::CounterReset {
                    counter: counter.name.to_owned(),
                    before: p,
                    after: v,
                },
            });
        }
        prev = Some(v);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_counter_going_down_is_a_reset() {
        let samples = [
            (0, 100.0),
            (10, 100.5),
            (20, 100.5 * (1.0 - 1e-12)), // float noise
            (30, f64::NAN),
            (40, 3.0),
            (50, 4.0),
        ];
        let c = CounterSeries {
            name: "cumulative operating hours",
            samples: &samples,
        };
        let got = resets(&c, 0, 100);
        assert_eq!(got.len(), 1);
        assert_eq!((got[0].start, got[0].end), (40, None));
        assert_eq!(
            got[0].detail,
            EventDetail::CounterReset {
                counter: "cumulative operating hours".to_owned(),
                before: 100.5 * (1.0 - 1e-12),
                after: 3.0
            }
        );
        assert!(resets(&c, 41, 100).is_empty());
        let one = CounterSeries {
            name: "x",
            samples: &[(0, 1.0)],
        };
        assert!(resets(&one, 0, 10).is_empty());
    }
}
