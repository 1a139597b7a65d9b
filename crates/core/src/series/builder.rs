//! The column builder behind the decoder: each field path met in the rows
//! gets its channels (numeric, boolean, label or time); `unit`/`xUnit`
//! strings and `estimated` flags attach to their sibling values; a member
//! read as `{value, unit}` is one channel named for the member; a row's
//! time is its `date` (or `dateStart`) with its milliseconds, and a row
//! without one is dropped and counted. AEMP placeholders are no values: a
//! year-1 date (no time: the row is dropped and counted), a capacity of 0,
//! a word such as `missing`. Keys are resolved by predicting the next one,
//! as rows repeat their shape.

use std::collections::HashMap;

use super::channel::{Channel, ChannelKind, ESTIMATED_UNKNOWN, Series};
use fleetview_api::Timestamp;
use fleetview_api::placeholder::{
    is_capacity_field, is_placeholder_date, known_capacity, known_text,
};
use fleetview_api::time::{DateParser, parse_instant};

#[derive(Debug, Clone, PartialEq)]
enum Role {
    Field,
    /// `date` of a row: the row's time.
    RowTime,
    /// `dateStart` of a row: its time when it has no `date`.
    RowTimeFallback,
    /// `unit` (for all sibling values) or `xUnit` (for sibling `x`).
    Unit(Option<Box<str>>),
    /// `estimated`: flags the sibling values of this row.
    Estimated,
}

#[derive(Debug)]
struct Node {
    parent: usize,
    key: Box<str>,
    path: String,
    role: Role,
    children: Vec<usize>,
    /// Index in `children` of the key expected next.
    cursor: usize,
    numeric: Option<usize>,
    boolean: Option<usize>,
    label: Option<usize>,
    time: Option<usize>,
    unit_value: Option<String>,
    /// Object nodes: this row's `estimated` flag, and whether one was seen.
    est_row: u8,
    has_est: bool,
    /// A capacity (`tankCapacity`, or the `value` of one): 0 is unknown.
    capacity: bool,
    /// A `value` in a member (`fuelUsed.value`): the member it is the
    /// reading of, which it shares its channels with.
    reading_of: Option<usize>,
    /// A member's `value` child, which it shares its channels with.
    reading: Option<usize>,
}

impl Node {
    fn new(parent: usize, key: &str, path: String, role: Role) -> Self {
        Self {
            parent,
            key: key.into(),
            path,
            role,
            children: Vec::new(),
            cursor: 0,
            numeric: None,
            boolean: None,
            label: None,
            time: None,
            unit_value: None,
            est_row: ESTIMATED_UNKNOWN,
            has_est: false,
            capacity: false,
            reading_of: None,
            reading: None,
        }
    }

    fn slot(&self, kind: ChannelKind) -> Option<usize> {
        match kind {
            ChannelKind::Numeric => self.numeric,
            ChannelKind::Boolean => self.boolean,
            ChannelKind::Label => self.label,
            ChannelKind::Time => self.time,
        }
    }

    fn slot_mut(&mut self, kind: ChannelKind) -> &mut Option<usize> {
        match kind {
            ChannelKind::Numeric => &mut self.numeric,
            ChannelKind::Boolean => &mut self.boolean,
            ChannelKind::Label => &mut self.label,
            ChannelKind::Time => &mut self.time,
        }
    }
}

#[derive(Debug)]
pub(super) struct Builder {
    series: Series,
    nodes: Vec<Node>,
    labels: Vec<HashMap<Box<str>, u32>>,
    /// Index of the row being read.
    row: usize,
    row_time: Option<Timestamp>,
    row_time_fallback: Option<Timestamp>,
    dates: DateParser,
    /// Capacity given to each new column.
    reserve_rows: usize,
}

impl Default for Builder {
    fn default() -> Self {
        Self {
            series: Series::default(),
            nodes: vec![Node::new(0, "", String::new(), Role::Field)],
            labels: Vec::new(),
            row: 0,
            row_time: None,
            row_time_fallback: None,
            dates: DateParser::default(),
            reserve_rows: 0,
        }
    }
}

pub(super) const ROOT: usize = 0;

/// Rows are rarely under ~100 bytes of JSON: reserve columns for that many
/// up front (bounded), instead of growing them row by row.
const MIN_ROW_BYTES: usize = 100;
const MAX_RESERVED_ROWS: usize = 4 << 20;

/// Field names are short: an inline compare beats a call to `memcmp`.
#[inline]
fn same_key(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
}

impl Builder {
    pub(super) fn for_body(body_len: usize) -> Self {
        let mut b = Self {
            reserve_rows: (body_len / MIN_ROW_BYTES).min(MAX_RESERVED_ROWS),
            ..Self::default()
        };
        b.series.times.reserve(b.reserve_rows);
        b
    }

    #[inline]
    pub(super) fn resolve(&mut self, parent: usize, key: &str) -> usize {
        let p = &self.nodes[parent];
        let n = p.children.len();
        if n > 0 {
            let at = if p.cursor >= n { 0 } else { p.cursor };
            let guess = p.children[at];
            if same_key(&self.nodes[guess].key, key) {
                self.nodes[parent].cursor = at + 1;
                return guess;
            }
            if let Some(i) = p.children.iter().position(|c| &*self.nodes[*c].key == key) {
                let found = p.children[i];
                self.nodes[parent].cursor = i + 1;
                return found;
            }
        }
        let role = match key {
            "date" if parent == ROOT => Role::RowTime,
            "dateStart" if parent == ROOT => Role::RowTimeFallback,
            "unit" => Role::Unit(None),
            "estimated" => Role::Estimated,
            k if k.len() > 4 && k.ends_with("Unit") => Role::Unit(Some(k[..k.len() - 4].into())),
            _ => Role::Field,
        };
        let path = if parent == ROOT {
            key.to_owned()
        } else {
            format!("{}.{key}", self.nodes[parent].path)
        };
        // `{"fuelUsed": {"value": 12.5, "unit": "L"}}` is a reading of
        // `fuelUsed` (some feeds nest them), not a field of its own.
        let reading_of = (key == "value" && parent != ROOT).then_some(parent);
        let capacity = role == Role::Field
            && (is_capacity_field(key) || reading_of.is_some_and(|m| self.nodes[m].capacity));
        let id = self.nodes.len();
        let mut node = Node::new(parent, key, path, role);
        node.capacity = capacity;
        node.reading_of = reading_of;
        self.nodes.push(node);
        if reading_of.is_some() {
            self.nodes[parent].reading = Some(id);
        }
        let p = &mut self.nodes[parent];
        p.children.push(id);
        p.cursor = p.children.len();
        id
    }

    fn channel(&mut self, node: usize, kind: ChannelKind) -> usize {
        if let Some(c) = self.nodes[node].slot(kind) {
            return c;
        }
        // A member and its reading are one channel, whichever way a row
        // writes it (`"fuelUsed": 12.5` or `"fuelUsed": {"value": 12.5}`).
        let n = &self.nodes[node];
        let twin = n.reading_of.or(n.reading);
        if let Some(c) = twin.and_then(|t| self.nodes[t].slot(kind)) {
            *self.nodes[node].slot_mut(kind) = Some(c);
            return c;
        }
        let path = match n.reading_of {
            Some(member) => &self.nodes[member].path,
            None => &n.path,
        };
        // Another kind of channel under this name (the twin's too): this
        // one says what it is.
        let taken = [Some(node), twin].into_iter().flatten().any(|i| {
            let n = &self.nodes[i];
            n.numeric.is_some() || n.boolean.is_some() || n.label.is_some() || n.time.is_some()
        });
        let name = if taken {
            let suffix = match kind {
                ChannelKind::Numeric => "number",
                ChannelKind::Boolean => "flag",
                ChannelKind::Label => "text",
                ChannelKind::Time => "time",
            };
            format!("{path} ({suffix})")
        } else {
            path.clone()
        };
        let idx = self.series.channels.len();
        let mut ch = Channel::new(name, kind);
        ch.values.reserve(self.reserve_rows);
        if kind == ChannelKind::Time {
            ch.unit = Some("s".into());
        }
        self.series.channels.push(ch);
        self.labels.push(HashMap::new());
        *self.nodes[node].slot_mut(kind) = Some(idx);
        idx
    }

    #[inline]
    fn put(&mut self, ch: usize, v: f64) {
        let values = &mut self.series.channels[ch].values;
        let row = self.row;
        if values.len() == row {
            values.push(v);
            return;
        }
        if values.len() > row {
            // A key repeated within one row: the last value wins.
            values.truncate(row);
        }
        values.resize(row, f64::NAN);
        values.push(v);
    }

    #[inline]
    pub(super) fn number(&mut self, node: usize, v: f64) {
        let n = &self.nodes[node];
        if n.capacity && known_capacity(v).is_none() {
            return;
        }
        let ch = match n.numeric {
            Some(c) => c,
            None => self.channel(node, ChannelKind::Numeric),
        };
        self.put(ch, v);
    }

    pub(super) fn boolean(&mut self, node: usize, v: bool) {
        if self.nodes[node].role == Role::Estimated {
            let parent = self.nodes[node].parent;
            let p = &mut self.nodes[parent];
            p.has_est = true;
            p.est_row = u8::from(v);
            return;
        }
        let ch = self.channel(node, ChannelKind::Boolean);
        self.put(ch, if v { 1.0 } else { 0.0 });
    }

    pub(super) fn null(&mut self, node: usize) {
        if self.nodes[node].role == Role::Estimated {
            let parent = self.nodes[node].parent;
            self.nodes[parent].has_est = true;
        }
    }

    pub(super) fn string(&mut self, node: usize, s: &str) {
        match &self.nodes[node].role {
            Role::RowTime => {
                self.row_time = self.row_date(s);
                return;
            }
            Role::RowTimeFallback => {
                self.row_time_fallback = self.row_date(s);
                return;
            }
            Role::Unit(_) => {
                let n = &mut self.nodes[node];
                if n.unit_value.is_none() && !s.is_empty() {
                    n.unit_value = Some(s.to_owned());
                }
                return;
            }
            Role::Field | Role::Estimated => {}
        }
        let b = s.as_bytes();
        if b.len() >= 20
            && b[10] == b'T'
            && let Ok(t) = parse_instant(s)
        {
            if !is_placeholder_date(t.0) {
                let ch = self.channel(node, ChannelKind::Time);
                self.put(ch, t.0 as f64 + f64::from(t.subsec_millis()) / 1000.0);
            }
            return;
        }
        if known_text(s).is_none() {
            // Blank, or a feed's word for nothing (`missing`): no event.
            return;
        }
        let ch = self.channel(node, ChannelKind::Label);
        let dict = &mut self.labels[ch];
        let id = match dict.get(s) {
            Some(id) => *id,
            None => {
                let labels = &mut self.series.channels[ch].labels;
                let id = labels.len() as u32;
                labels.push(s.to_owned());
                dict.insert(s.into(), id);
                id
            }
        };
        self.put(ch, f64::from(id));
    }

    /// A row's date; a placeholder date is none.
    fn row_date(&mut self, s: &str) -> Option<Timestamp> {
        self.dates
            .parse(s)
            .ok()
            .filter(|t| !is_placeholder_date(t.0))
    }

    /// End of an object: its `estimated` flag goes onto the values set in it.
    pub(super) fn end_object(&mut self, node: usize) {
        if !self.nodes[node].has_est {
            return;
        }
        let flag = self.nodes[node].est_row;
        self.nodes[node].est_row = ESTIMATED_UNKNOWN;
        let row = self.row;
        for i in 0..self.nodes[node].children.len() {
            let child = self.nodes[node].children[i];
            if let Some(ch) = self.nodes[child].numeric {
                let c = &mut self.series.channels[ch];
                if c.values.len() == row + 1 {
                    let est = c.estimated.get_or_insert_with(Vec::new);
                    est.resize(row, ESTIMATED_UNKNOWN);
                    est.push(flag);
                }
            }
        }
    }

    /// Something that is not a row (not an object): counted as skipped.
    pub(super) fn skip_row(&mut self) {
        self.series.skipped_rows += 1;
    }

    pub(super) fn end_row(&mut self) {
        self.end_object(ROOT);
        match self.row_time.take().or(self.row_time_fallback.take()) {
            Some(t) => {
                self.series.times.push(t.0);
                let ms = t.subsec_millis();
                if ms != 0 || !self.series.subsec_ms.is_empty() {
                    // Only once a row has milliseconds are they kept.
                    let subsec = &mut self.series.subsec_ms;
                    subsec.resize(self.row, 0);
                    subsec.push(ms);
                }
                self.row += 1;
            }
            None => {
                // No date: drop what this row wrote, and count it.
                let row = self.row;
                for c in &mut self.series.channels {
                    c.values.truncate(row);
                    if let Some(e) = &mut c.estimated {
                        e.truncate(row);
                    }
                }
                self.series.skipped_rows += 1;
            }
        }
        self.row_time_fallback = None;
    }

    pub(super) fn finish(mut self) -> Series {
        let rows = self.series.times.len();
        for c in &mut self.series.channels {
            c.values.resize(rows, f64::NAN);
            if let Some(e) = &mut c.estimated {
                e.resize(rows, ESTIMATED_UNKNOWN);
            }
        }
        // Units: `unit` applies to sibling values, `xUnit` to sibling `x`.
        for i in 0..self.nodes.len() {
            let (Role::Unit(target), Some(unit)) = (&self.nodes[i].role, &self.nodes[i].unit_value)
            else {
                continue;
            };
            let parent = self.nodes[i].parent;
            for &sib in &self.nodes[parent].children {
                let n = &self.nodes[sib];
                let matches = match target {
                    Some(t) => *n.key == **t,
                    None => n.role == Role::Field,
                };
                if let (true, Some(ch)) = (matches, n.numeric) {
                    let c = &mut self.series.channels[ch];
                    // A specific `xUnit` wins over a general `unit`.
                    if c.unit.is_none() || target.is_some() {
                        c.unit = Some(unit.clone());
                    }
                }
            }
        }
        self.series
    }
}
