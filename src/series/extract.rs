//! Decodes rows of any shape straight into columns, through serde visitors:
//! no `serde_json::Value` is built per row. Field names are resolved to
//! column slots by predicting the next key (rows repeat their shape), so a
//! row costs little more than parsing its numbers.

use std::collections::HashMap;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use super::{Channel, ChannelKind, ESTIMATED_UNKNOWN, Series};
use crate::api::time::{DateParser, parse_lenient};

#[derive(Debug, thiserror::Error)]
pub enum DecodeError {
    #[error("the body is not valid JSON of the expected shape: {0}")]
    Json(#[from] serde_json::Error),
}

/// The envelope fields around the rows.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct EnvelopeInfo {
    pub total: Option<i64>,
    pub id: Option<i64>,
    pub serial_number: Option<String>,
    pub since: Option<i64>,
    pub until: Option<i64>,
}

/// Decodes `{"data": {"rows": [...], "total", "id", "serialNumber", "since", "until"}}`.
pub fn decode_envelope(bytes: &[u8]) -> Result<(EnvelopeInfo, Series), DecodeError> {
    let mut builder = Builder::for_body(bytes.len());
    let mut info = EnvelopeInfo::default();
    let mut de = serde_json::Deserializer::from_slice(bytes);
    EnvelopeSeed {
        b: &mut builder,
        info: &mut info,
    }
    .deserialize(&mut de)?;
    de.end()?;
    Ok((info, builder.finish()))
}

/// Decodes a bare JSON array of rows.
pub fn decode_rows(bytes: &[u8]) -> Result<Series, DecodeError> {
    let mut builder = Builder::for_body(bytes.len());
    let mut de = serde_json::Deserializer::from_slice(bytes);
    RowsSeed { b: &mut builder }.deserialize(&mut de)?;
    de.end()?;
    Ok(builder.finish())
}

// ------------------------------------------------------------------ builder

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
        }
    }
}

#[derive(Debug)]
struct Builder {
    series: Series,
    nodes: Vec<Node>,
    labels: Vec<HashMap<Box<str>, u32>>,
    /// Index of the row being read.
    row: usize,
    row_time: Option<i64>,
    row_time_fallback: Option<i64>,
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

const ROOT: usize = 0;

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
    fn for_body(body_len: usize) -> Self {
        let mut b = Self {
            reserve_rows: (body_len / MIN_ROW_BYTES).min(MAX_RESERVED_ROWS),
            ..Self::default()
        };
        b.series.times.reserve(b.reserve_rows);
        b
    }

    #[inline]
    fn resolve(&mut self, parent: usize, key: &str) -> usize {
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
        let id = self.nodes.len();
        self.nodes.push(Node::new(parent, key, path, role));
        let p = &mut self.nodes[parent];
        p.children.push(id);
        p.cursor = p.children.len();
        id
    }

    fn channel(&mut self, node: usize, kind: ChannelKind) -> usize {
        let existing = match kind {
            ChannelKind::Numeric => self.nodes[node].numeric,
            ChannelKind::Boolean => self.nodes[node].boolean,
            ChannelKind::Label => self.nodes[node].label,
            ChannelKind::Time => self.nodes[node].time,
        };
        if let Some(c) = existing {
            return c;
        }
        let n = &self.nodes[node];
        let taken =
            n.numeric.is_some() || n.boolean.is_some() || n.label.is_some() || n.time.is_some();
        let name = if taken {
            let suffix = match kind {
                ChannelKind::Numeric => "number",
                ChannelKind::Boolean => "flag",
                ChannelKind::Label => "text",
                ChannelKind::Time => "time",
            };
            format!("{} ({suffix})", n.path)
        } else {
            n.path.clone()
        };
        let idx = self.series.channels.len();
        let mut ch = Channel::new(name, kind);
        ch.values.reserve(self.reserve_rows);
        if kind == ChannelKind::Time {
            ch.unit = Some("s".into());
        }
        self.series.channels.push(ch);
        self.labels.push(HashMap::new());
        let n = &mut self.nodes[node];
        match kind {
            ChannelKind::Numeric => n.numeric = Some(idx),
            ChannelKind::Boolean => n.boolean = Some(idx),
            ChannelKind::Label => n.label = Some(idx),
            ChannelKind::Time => n.time = Some(idx),
        }
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
    fn number(&mut self, node: usize, v: f64) {
        let ch = match self.nodes[node].numeric {
            Some(c) => c,
            None => self.channel(node, ChannelKind::Numeric),
        };
        self.put(ch, v);
    }

    fn boolean(&mut self, node: usize, v: bool) {
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

    fn null(&mut self, node: usize) {
        if self.nodes[node].role == Role::Estimated {
            let parent = self.nodes[node].parent;
            self.nodes[parent].has_est = true;
        }
    }

    fn string(&mut self, node: usize, s: &str) {
        match &self.nodes[node].role {
            Role::RowTime => {
                self.row_time = self.dates.parse(s).ok();
                return;
            }
            Role::RowTimeFallback => {
                self.row_time_fallback = self.dates.parse(s).ok();
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
            && let Ok(t) = parse_lenient(s)
        {
            let ch = self.channel(node, ChannelKind::Time);
            self.put(ch, t as f64);
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

    /// End of an object: its `estimated` flag goes onto the values set in it.
    fn end_object(&mut self, node: usize) {
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

    fn end_row(&mut self) {
        self.end_object(ROOT);
        match self.row_time.take().or(self.row_time_fallback.take()) {
            Some(t) => {
                self.series.times.push(t);
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

    fn finish(mut self) -> Series {
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

// -------------------------------------------------------------------- seeds

struct EnvelopeSeed<'b> {
    b: &'b mut Builder,
    info: &'b mut EnvelopeInfo,
}

impl<'de> DeserializeSeed<'de> for EnvelopeSeed<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for EnvelopeSeed<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object with `data`")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut seen = false;
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            if key == "data" {
                map.next_value_seed(DataSeed {
                    b: &mut *self.b,
                    info: &mut *self.info,
                })?;
                seen = true;
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        if !seen {
            return Err(de::Error::missing_field("data"));
        }
        Ok(())
    }
}

struct DataSeed<'b> {
    b: &'b mut Builder,
    info: &'b mut EnvelopeInfo,
}

impl<'de> DeserializeSeed<'de> for DataSeed<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for DataSeed<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a time-series envelope object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut rows = false;
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            match &*key {
                "rows" => {
                    map.next_value_seed(RowsSeed { b: &mut *self.b })?;
                    rows = true;
                }
                "total" => self.info.total = map.next_value::<Option<i64>>()?,
                "id" => self.info.id = map.next_value::<Option<i64>>()?,
                "serialNumber" => self.info.serial_number = map.next_value::<Option<String>>()?,
                "since" => {
                    let s = map.next_value::<Option<String>>()?;
                    self.info.since = s.and_then(|s| parse_lenient(&s).ok());
                }
                "until" => {
                    let s = map.next_value::<Option<String>>()?;
                    self.info.until = s.and_then(|s| parse_lenient(&s).ok());
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        if !rows {
            return Err(de::Error::missing_field("rows"));
        }
        Ok(())
    }
}

struct RowsSeed<'b> {
    b: &'b mut Builder,
}

impl<'de> DeserializeSeed<'de> for RowsSeed<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for RowsSeed<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array of rows")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq
            .next_element_seed(RowSeed { b: &mut *self.b })?
            .is_some()
        {}
        Ok(())
    }
}

struct RowSeed<'b> {
    b: &'b mut Builder,
}

impl<'de> DeserializeSeed<'de> for RowSeed<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for RowSeed<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a row object")
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<(), A::Error> {
        object_fields(self.b, ROOT, map)?;
        self.b.end_row();
        Ok(())
    }
    // Anything but an object is not a row: count it as skipped.
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        self.b.series.skipped_rows += 1;
        Ok(())
    }
    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        self.b.series.skipped_rows += 1;
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        self.b.series.skipped_rows += 1;
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        self.b.series.skipped_rows += 1;
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        self.b.series.skipped_rows += 1;
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        self.b.series.skipped_rows += 1;
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        self.b.series.skipped_rows += 1;
        Ok(())
    }
}

fn object_fields<'de, A: MapAccess<'de>>(
    b: &mut Builder,
    node: usize,
    mut map: A,
) -> Result<(), A::Error> {
    while let Some(child) = map.next_key_seed(KeySeed {
        b: &mut *b,
        parent: node,
    })? {
        map.next_value_seed(ValueSeed {
            b: &mut *b,
            node: child,
        })?;
    }
    Ok(())
}

struct KeySeed<'b> {
    b: &'b mut Builder,
    parent: usize,
}

impl<'de> DeserializeSeed<'de> for KeySeed<'_> {
    type Value = usize;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<usize, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeySeed<'_> {
    type Value = usize;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a field name")
    }
    fn visit_str<E>(self, key: &str) -> Result<usize, E> {
        Ok(self.b.resolve(self.parent, key))
    }
}

struct ValueSeed<'b> {
    b: &'b mut Builder,
    node: usize,
}

impl<'de> DeserializeSeed<'de> for ValueSeed<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ValueSeed<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a value")
    }
    fn visit_f64<E>(self, v: f64) -> Result<(), E> {
        self.b.number(self.node, v);
        Ok(())
    }
    fn visit_i64<E>(self, v: i64) -> Result<(), E> {
        self.b.number(self.node, v as f64);
        Ok(())
    }
    fn visit_u64<E>(self, v: u64) -> Result<(), E> {
        self.b.number(self.node, v as f64);
        Ok(())
    }
    fn visit_bool<E>(self, v: bool) -> Result<(), E> {
        self.b.boolean(self.node, v);
        Ok(())
    }
    fn visit_str<E>(self, v: &str) -> Result<(), E> {
        self.b.string(self.node, v);
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        self.b.null(self.node);
        Ok(())
    }
    fn visit_none<E>(self) -> Result<(), E> {
        self.b.null(self.node);
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<(), A::Error> {
        object_fields(self.b, self.node, map)?;
        self.b.end_object(self.node);
        Ok(())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        // Arrays inside rows carry no plottable value; skip them.
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::series::{ESTIMATED_NO, ESTIMATED_YES};
    use proptest::prelude::*;

    fn decode(json: &str) -> Series {
        decode_rows(json.as_bytes()).expect("decodes")
    }

    #[test]
    fn numeric_nested_boolean_label_and_time_fields_become_channels() {
        let s = decode(
            r#"[
            {"date":"2024-01-01T00:00:00Z","operatingHours":{"hour":7.5},"running":true,"state":"charging",
             "dateStop":"2024-01-01T01:00:00Z"},
            {"date":"2024-01-01T00:10:00Z","operatingHours":{"hour":null},"running":false,"state":"idle"}
        ]"#,
        );
        assert_eq!(s.times, vec![1_704_067_200, 1_704_067_800]);
        let h = s.channel("operatingHours.hour").expect("nested channel");
        assert_eq!(h.values[0], 7.5);
        assert!(h.values[1].is_nan());
        let r = s.channel("running").expect("boolean");
        assert_eq!(
            (r.kind, r.values.clone()),
            (ChannelKind::Boolean, vec![1.0, 0.0])
        );
        let st = s.channel("state").expect("label");
        assert_eq!(
            (st.label_at(0), st.label_at(1)),
            (Some("charging"), Some("idle"))
        );
        let stop = s.channel("dateStop").expect("time");
        assert_eq!(stop.kind, ChannelKind::Time);
        assert_eq!(stop.values[0], 1_704_070_800.0);
        assert!(stop.values[1].is_nan());
    }

    #[test]
    fn units_attach_to_their_values_and_estimated_is_per_sample() {
        let s = decode(
            r#"[
            {"date":"2024-01-01T00:00:00Z","fuelUsed":{"fuelUsed":80,"unit":"L","estimated":true},
             "DEFRemainingRatio":{"percent":50,"tankCapacity":40,"tankCapacityUnit":"L"},
             "payload":3,"payloadUnit":"t"},
            {"date":"2024-01-02T00:00:00Z","fuelUsed":{"unit":"L","estimated":false,"fuelUsed":60}},
            {"date":"2024-01-03T00:00:00Z","fuelUsed":{"fuelUsed":1,"unit":"L","estimated":null}}
        ]"#,
        );
        let f = s.channel("fuelUsed.fuelUsed").expect("fuel");
        assert_eq!(f.unit.as_deref(), Some("L"));
        assert_eq!(
            f.estimated,
            Some(vec![ESTIMATED_YES, ESTIMATED_NO, ESTIMATED_UNKNOWN])
        );
        assert_eq!(f.values, vec![80.0, 60.0, 1.0]);
        assert_eq!(
            s.channel("DEFRemainingRatio.tankCapacity")
                .and_then(|c| c.unit.clone()),
            Some("L".into())
        );
        assert_eq!(
            s.channel("DEFRemainingRatio.percent")
                .and_then(|c| c.unit.clone()),
            None
        );
        assert_eq!(
            s.channel("payload").and_then(|c| c.unit.clone()),
            Some("t".into())
        );
        assert!(s.channel("fuelUsed.unit").is_none() && s.channel("fuelUsed.estimated").is_none());
    }

    #[test]
    fn rows_without_a_date_are_counted_not_kept() {
        let s = decode(
            r#"[{"x":1},{"date":"2024-01-01T00:00:00Z","x":2},{"date":"nope","x":3},7,null]"#,
        );
        assert_eq!(s.times.len(), 1);
        assert_eq!(s.channel("x").map(|c| c.values.clone()), Some(vec![2.0]));
        assert_eq!(s.skipped_rows, 4);
    }

    #[test]
    fn activities_use_date_start_as_row_time() {
        let s = decode(
            r#"[{"dateStart":"2024-01-01T00:00:00Z","dateStop":"2024-01-01T00:05:00Z","distanceMeters":120.5}]"#,
        );
        assert_eq!(s.times, vec![1_704_067_200]);
        assert!(s.channel("dateStart").is_none());
        assert_eq!(
            s.channel("distanceMeters").map(|c| c.values[0]),
            Some(120.5)
        );
    }

    #[test]
    fn envelope_fields_are_read() {
        let (info, s) = decode_envelope(
            br#"{"data":{"total":1,"rows":[{"date":"2024-01-01T00:00:00Z","percent":5}],"id":7,
                 "serialNumber":"S","since":"2024-01-01T00:00:00Z","until":"2024-01-02T00:00:00Z","extra":[1]}}"#,
        )
        .expect("decodes");
        assert_eq!(info.total, Some(1));
        assert_eq!(info.id, Some(7));
        assert_eq!(info.serial_number.as_deref(), Some("S"));
        assert_eq!(info.until, Some(1_704_153_600));
        assert_eq!(s.len(), 1);
        assert!(decode_envelope(br#"{"data":{"total":1}}"#).is_err());
        assert!(decode_envelope(br#"{"data":{"rows":[}}"#).is_err());
    }

    /// Arbitrary JSON values, rows of which are mostly objects.
    fn json_value() -> impl Strategy<Value = serde_json::Value> {
        use serde_json::Value;
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<f64>()
                .prop_filter("finite", |f| f.is_finite())
                .prop_map(|f| serde_json::json!(f)),
            any::<i64>().prop_map(|i| serde_json::json!(i)),
            "[a-zA-Z ]{0,8}".prop_map(Value::String),
            Just(Value::String("2024-01-01T00:00:00Z".into())),
            Just(Value::String("2024-13-01T00:00:00Z".into())),
        ];
        leaf.prop_recursive(4, 32, 6, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4).prop_map(serde_json::Value::Array),
                proptest::collection::btree_map(
                    prop_oneof![
                        Just("date".to_string()),
                        Just("unit".to_string()),
                        Just("estimated".to_string()),
                        Just("dateStart".to_string()),
                        Just("xUnit".to_string()),
                        "[a-z]{1,4}"
                    ],
                    inner,
                    0..6
                )
                .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #[test]
        fn never_panics_and_columns_stay_aligned(rows in proptest::collection::vec(json_value(), 0..20)) {
            let bytes = serde_json::to_vec(&rows).unwrap_or_default();
            let s = decode_rows(&bytes).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(s.times.len() + s.skipped_rows, rows.len());
            for c in &s.channels {
                prop_assert_eq!(c.values.len(), s.times.len(), "{}", c.name);
                if let Some(e) = &c.estimated {
                    prop_assert_eq!(e.len(), s.times.len());
                }
                if c.kind == ChannelKind::Label {
                    for i in 0..s.times.len() {
                        prop_assert!(c.values[i].is_nan() || c.label_at(i).is_some());
                    }
                }
            }
        }

        #[test]
        fn arbitrary_bytes_are_an_error_not_a_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
            let _ = decode_rows(&bytes);
            let _ = decode_envelope(&bytes);
        }
    }
}
