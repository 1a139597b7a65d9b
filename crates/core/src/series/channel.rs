//! Series and their channels: rows as columns, one `f64` per row and
//! channel (`NaN` where the field was missing), with the labels, units and
//! `estimated` flags that go with them; and how chunks of one merge.

use fleetview_api::Timestamp;

/// What a channel holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ChannelKind {
    /// Plain numbers.
    Numeric,
    /// 0 or 1, drawn as steps.
    Boolean,
    /// An index into [`Channel::labels`], drawn as labelled events.
    Label,
    /// Another date of the row (e.g. `dateStop`), in Unix seconds.
    Time,
}

/// `estimated` flags per sample.
pub const ESTIMATED_NO: u8 = 0;
pub const ESTIMATED_YES: u8 = 1;
pub const ESTIMATED_UNKNOWN: u8 = 2;

/// One column. `values` has one entry per row of its [`Series`]; `NaN` marks
/// a row where the field was missing or null.
#[derive(Debug, Clone, PartialEq)]
pub struct Channel {
    /// The field's path in the row, e.g. `percent` or `operatingHours.hour`.
    pub name: String,
    pub unit: Option<String>,
    pub kind: ChannelKind,
    pub values: Vec<f64>,
    /// Dictionary of a `Label` channel.
    pub labels: Vec<String>,
    /// Per-sample `estimated` flags, when the value's object carries one.
    pub estimated: Option<Vec<u8>>,
}

impl Channel {
    pub(super) fn new(name: String, kind: ChannelKind) -> Self {
        Self {
            name,
            unit: None,
            kind,
            values: Vec::new(),
            labels: Vec::new(),
            estimated: None,
        }
    }

    /// The label of row `i` of a `Label` channel.
    pub fn label_at(&self, i: usize) -> Option<&str> {
        let v = *self.values.get(i)?;
        if v.is_nan() {
            return None;
        }
        self.labels.get(v as usize).map(String::as_str)
    }

    pub fn estimated_at(&self, i: usize) -> Option<bool> {
        match *self.estimated.as_ref()?.get(i)? {
            ESTIMATED_YES => Some(true),
            ESTIMATED_NO => Some(false),
            _ => None,
        }
    }

    /// Name with unit, e.g. `operatingHours.hour (h)`.
    pub(crate) fn title(&self) -> String {
        match &self.unit {
            Some(u) if !u.is_empty() => format!("{} ({u})", self.name),
            _ => self.name.clone(),
        }
    }
}

/// Rows as columns: `times[i]` is row i's date (whole seconds), each
/// channel's `values[i]` its field.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Series {
    pub times: Vec<i64>,
    /// The milliseconds into `times[i]`'s second of a row whose date had
    /// some; empty when every row is on a whole second (the documented
    /// format), so those cost nothing.
    pub subsec_ms: Vec<u16>,
    pub channels: Vec<Channel>,
    /// Rows dropped because they had no readable date (or a placeholder).
    pub skipped_rows: usize,
}

impl Series {
    pub fn len(&self) -> usize {
        self.times.len()
    }

    /// Row `i`'s date with its milliseconds, as the service gave it.
    pub fn instant(&self, i: usize) -> Timestamp {
        Timestamp::from_parts(
            self.times.get(i).copied().unwrap_or_default(),
            self.subsec_ms.get(i).copied().unwrap_or_default(),
        )
    }

    /// Row `i`'s date in milliseconds since the epoch.
    pub fn time_ms(&self, i: usize) -> i64 {
        self.instant(i).millis()
    }

    /// Appends the sub-second parts of rows `range` of another series (just
    /// appended to `times`): kept empty while neither series has any.
    fn extend_subsec(&mut self, other: &[u16], range: std::ops::Range<usize>) {
        if self.subsec_ms.is_empty() && other.is_empty() {
            return;
        }
        let n_old = self.times.len() - range.len();
        self.subsec_ms.resize(n_old, 0);
        if other.is_empty() {
            self.subsec_ms.resize(n_old + range.len(), 0);
        } else {
            self.subsec_ms.extend_from_slice(&other[range]);
        }
    }

    pub fn is_empty(&self) -> bool {
        self.times.is_empty()
    }

    pub fn channel(&self, name: &str) -> Option<&Channel> {
        self.channels.iter().find(|c| c.name == name)
    }

    /// Appends `other` (a later chunk): channels are matched by name, and
    /// rows at or before this series' last time are dropped, so chunks that
    /// overlap at a seam do not duplicate rows.
    pub(crate) fn append(&mut self, mut other: Series) {
        let start = match self.times.len() {
            0 => 0,
            n => {
                let last = self.instant(n - 1);
                let mut start = other.times.partition_point(|t| *t < last.0);
                while start < other.times.len() && other.instant(start) <= last {
                    start += 1;
                }
                start
            }
        };
        let n_old = self.times.len();
        let n_new = other.times.len() - start;
        self.skipped_rows += other.skipped_rows;
        if n_new == 0 {
            return;
        }
        self.times.extend_from_slice(&other.times[start..]);
        self.extend_subsec(&other.subsec_ms, start..start + n_new);
        for mut oc in other.channels.drain(..) {
            let idx = match self.channels.iter().position(|c| c.name == oc.name) {
                Some(i) => i,
                None => {
                    let mut c = Channel::new(oc.name.clone(), oc.kind);
                    c.values = vec![f64::NAN; n_old];
                    self.channels.push(c);
                    self.channels.len() - 1
                }
            };
            let c = &mut self.channels[idx];
            if c.unit.is_none() {
                c.unit = oc.unit.take();
            }
            let values = &oc.values[start..];
            if oc.kind == ChannelKind::Label {
                // Re-index labels into this channel's dictionary.
                for v in values {
                    let mapped = if v.is_nan() {
                        f64::NAN
                    } else {
                        let label = &oc.labels[*v as usize];
                        match c.labels.iter().position(|l| l == label) {
                            Some(i) => i as f64,
                            None => {
                                c.labels.push(label.clone());
                                (c.labels.len() - 1) as f64
                            }
                        }
                    };
                    c.values.push(mapped);
                }
            } else {
                c.values.extend_from_slice(values);
            }
            if let Some(est) = oc.estimated.take() {
                let mine = c
                    .estimated
                    .get_or_insert_with(|| vec![ESTIMATED_UNKNOWN; n_old]);
                mine.extend_from_slice(&est[start..]);
            }
        }
        // Channels the new chunk lacks, and flags it did not carry.
        for c in &mut self.channels {
            c.values.resize(n_old + n_new, f64::NAN);
            if let Some(est) = &mut c.estimated {
                est.resize(n_old + n_new, ESTIMATED_UNKNOWN);
            }
        }
    }

    /// Puts rows in time order (stable: duplicates keep their order). Rows
    /// from the service come sorted; this guards against those that do not.
    pub(crate) fn sort_by_time(&mut self) {
        let sorted = if self.subsec_ms.is_empty() {
            self.times.is_sorted()
        } else {
            (1..self.len()).all(|i| self.instant(i - 1) <= self.instant(i))
        };
        if sorted {
            return;
        }
        let mut order: Vec<usize> = (0..self.times.len()).collect();
        order.sort_by_key(|i| self.instant(*i));
        self.times = order.iter().map(|i| self.times[*i]).collect();
        if !self.subsec_ms.is_empty() {
            self.subsec_ms = order.iter().map(|i| self.subsec_ms[*i]).collect();
        }
        for c in &mut self.channels {
            c.values = order.iter().map(|i| c.values[*i]).collect();
            if let Some(est) = &mut c.estimated {
                *est = order.iter().map(|i| est[*i]).collect();
            }
        }
    }

    /// Frees the room left over from building the columns.
    pub(crate) fn shrink_to_fit(&mut self) {
        self.times.shrink_to_fit();
        self.subsec_ms.shrink_to_fit();
        for c in &mut self.channels {
            c.values.shrink_to_fit();
            if let Some(est) = &mut c.estimated {
                est.shrink_to_fit();
            }
        }
    }

    /// Keeps rows with `since <= time <= until`.
    pub(crate) fn retain_window(&mut self, since: i64, until: i64) {
        let lo = self.times.partition_point(|t| *t < since);
        let hi = self.times.partition_point(|t| *t <= until);
        if lo == 0 && hi == self.times.len() {
            return;
        }
        self.times = self.times[lo..hi].to_vec();
        if !self.subsec_ms.is_empty() {
            self.subsec_ms = self.subsec_ms[lo..hi].to_vec();
        }
        for c in &mut self.channels {
            c.values = c.values[lo..hi].to_vec();
            if let Some(est) = &mut c.estimated {
                *est = est[lo..hi].to_vec();
            }
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// One numeric channel over `times` (shared with the plot's tests).
    pub(crate) fn series(times: &[i64], name: &str, values: &[f64]) -> Series {
        let mut c = Channel::new(name.into(), ChannelKind::Numeric);
        c.values = values.to_vec();
        Series {
            times: times.to_vec(),
            channels: vec![c],
            ..Series::default()
        }
    }

    #[test]
    fn milliseconds_follow_their_rows_through_append_sort_and_window() {
        let mut a = series(&[1, 2], "x", &[1.0, 2.0]);
        let mut b = series(&[2, 2, 3], "x", &[20.0, 21.0, 30.0]);
        b.subsec_ms = vec![0, 500, 0];
        a.append(b);
        // The seam drops 2.000 (already there), keeps 2.500.
        assert_eq!(a.times, vec![1, 2, 2, 3]);
        assert_eq!(a.subsec_ms, vec![0, 0, 500, 0]);
        assert_eq!(a.channels[0].values, vec![1.0, 2.0, 21.0, 30.0]);
        assert_eq!(a.time_ms(2), 2_500);
        assert_eq!(a.instant(2).to_string(), "1970-01-01T00:00:02.500Z");

        let mut s = series(&[5, 5, 4], "x", &[5.9, 5.1, 4.0]);
        s.subsec_ms = vec![900, 100, 0];
        s.sort_by_time();
        assert_eq!(
            (s.times.clone(), s.subsec_ms.clone()),
            (vec![4, 5, 5], vec![0, 100, 900])
        );
        assert_eq!(s.channels[0].values, vec![4.0, 5.1, 5.9]);
        s.retain_window(5, 5);
        assert_eq!(
            (s.times.clone(), s.subsec_ms.clone()),
            (vec![5, 5], vec![100, 900])
        );

        // Whole seconds only: nothing is kept for them.
        let mut whole = series(&[1], "x", &[1.0]);
        whole.append(series(&[2], "x", &[2.0]));
        assert!(whole.subsec_ms.is_empty());
        assert_eq!(whole.instant(1).to_string(), "1970-01-01T00:00:02Z");
    }

    #[test]
    fn append_drops_the_seam_and_aligns_channels() {
        let mut a = series(&[1, 2, 3], "x", &[1.0, 2.0, 3.0]);
        let mut b = series(&[3, 4], "y", &[30.0, 40.0]);
        b.channels[0].estimated = Some(vec![ESTIMATED_YES, ESTIMATED_NO]);
        a.append(b);
        assert_eq!(a.times, vec![1, 2, 3, 4]);
        let x = a.channel("x").expect("x");
        assert_eq!(x.values.len(), 4);
        assert!(x.values[3].is_nan());
        let y = a.channel("y").expect("y");
        assert!(y.values[..3].iter().all(|v| v.is_nan()));
        assert_eq!(y.values[3], 40.0);
        assert_eq!(y.estimated_at(3), Some(false));
        assert_eq!(y.estimated_at(0), None);
    }

    #[test]
    fn retain_window_is_inclusive() {
        let mut s = series(&[1, 2, 3, 4], "x", &[1.0, 2.0, 3.0, 4.0]);
        s.retain_window(2, 3);
        assert_eq!(s.times, vec![2, 3]);
        assert_eq!(s.channels[0].values, vec![2.0, 3.0]);
    }
}
