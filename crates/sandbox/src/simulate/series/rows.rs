//! The shapes a data-kind request answers with: [`Rows`], and [`KindRow`]
//! for the kinds of a single value, with the rounding every value gets.

use std::ops::ControlFlow;

use serde::ser::{Serialize, SerializeMap, Serializer};

use crate::simulate::machine::round_to;
use fleetview_api::model::{ActivityRow, DailyUsageRow, PositionRow, Timestamp};

/// What a consumer of rows answers to each: go on, or stop (its reader
/// has gone), so a long window is not generated for nobody.
pub type Flow = ControlFlow<()>;

/// One value of a data-kind row.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Val {
    F(f64),
    OptF(Option<f64>),
    I(i64),
    B(bool),
    S(&'static str),
}

/// A data-kind row: `date` and up to three named values, serialised as a
/// flat JSON object without building a `serde_json::Value`.
#[derive(Debug, Clone, PartialEq)]
pub struct KindRow {
    pub(crate) date: i64,
    fields: [(&'static str, Val); 3],
    len: u8,
}

impl KindRow {
    pub(super) fn new(date: i64) -> Self {
        Self {
            date,
            fields: [("", Val::I(0)); 3],
            len: 0,
        }
    }

    pub(super) fn with(mut self, name: &'static str, v: Val) -> Self {
        if (self.len as usize) < self.fields.len() {
            self.fields[self.len as usize] = (name, v);
            self.len += 1;
        }
        self
    }

    pub(crate) fn fields(&self) -> &[(&'static str, Val)] {
        &self.fields[..self.len as usize]
    }

    pub(crate) fn get(&self, name: &str) -> Option<Val> {
        self.fields().iter().find(|f| f.0 == name).map(|f| f.1)
    }
}

impl Serialize for KindRow {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(1 + self.len as usize))?;
        map.serialize_entry("date", &Timestamp::from_secs(self.date))?;
        for (name, v) in self.fields() {
            match v {
                Val::F(x) => map.serialize_entry(name, x)?,
                Val::OptF(x) => map.serialize_entry(name, x)?,
                Val::I(x) => map.serialize_entry(name, x)?,
                Val::B(x) => map.serialize_entry(name, x)?,
                Val::S(x) => map.serialize_entry(name, x)?,
            }
        }
        map.end()
    }
}

/// The rows of one `{dataKind}` request.
#[derive(Debug)]
pub enum Rows {
    Positions(Vec<PositionRow>),
    Activities(Vec<ActivityRow>),
    DailyUsages(Vec<DailyUsageRow>),
    Values(Vec<KindRow>),
}

pub(super) fn r1(v: f64) -> f64 {
    round_to(v, 10.0)
}

pub(super) fn r2(v: f64) -> f64 {
    round_to(v, 100.0)
}

pub(super) fn hours(secs: i64) -> f64 {
    r2(secs as f64 / 3600.0)
}
