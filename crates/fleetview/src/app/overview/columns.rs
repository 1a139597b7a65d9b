//! Which of the Fleet table's columns show, and in what order: the
//! attention columns before the figures by default; Name always first and
//! always shown (it stays in place while the rest scrolls sideways).
//!
//! Saved by name, read leniently: a name this version does not know (a
//! newer version's column, a typo) is dropped, a column the file does not
//! name (added since) comes back at its default place, so odd settings
//! never cost the rest of the settings nor a panic.

use serde::de::{self, Deserializer, IgnoredAny, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};

use super::rows::Column;

/// The columns in the order shown, and those hidden.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "SavedColumns", into = "SavedColumns")]
pub struct ColumnLayout {
    /// Every column once, Name first.
    order: Vec<Column>,
    /// Never Name.
    hidden: Vec<Column>,
}

/// Attention first (state, flags, the worst fault, idle), then the
/// figures, then what names the machine.
const DEFAULT_ORDER: [Column; 15] = [
    Column::Name,
    Column::State,
    Column::Flags,
    Column::Faults,
    Column::IdlePercent,
    Column::LastReport,
    Column::Service,
    Column::WindowHours,
    Column::EngineHours,
    Column::Fuel,
    Column::Category,
    Column::Make,
    Column::Model,
    Column::Serial,
    Column::Source,
];

impl Default for ColumnLayout {
    fn default() -> Self {
        Self {
            order: DEFAULT_ORDER.to_vec(),
            hidden: Vec::new(),
        }
    }
}

impl ColumnLayout {
    /// Every column in order, with whether it shows (for the menu).
    pub fn all(&self) -> impl Iterator<Item = (Column, bool)> + '_ {
        self.order.iter().map(|c| (*c, !self.hidden.contains(c)))
    }

    /// The columns shown, in order, Name first.
    pub fn shown(&self) -> impl Iterator<Item = Column> + '_ {
        self.all().filter(|(_, shown)| *shown).map(|(c, _)| c)
    }

    /// With `column` shown or hidden (Name always shows).
    pub fn with_shown(&self, column: Column, shown: bool) -> Self {
        let mut out = self.clone();
        out.hidden.retain(|c| *c != column);
        if !shown && column != Column::Name {
            out.hidden.push(column);
        }
        out
    }

    /// With `column` one place earlier (`up`) or later; never before Name,
    /// and Name never moves.
    pub fn moved(&self, column: Column, up: bool) -> Self {
        let mut out = self.clone();
        let Some(i) = out.order.iter().position(|c| *c == column) else {
            return out;
        };
        let j = if up { i.checked_sub(1) } else { Some(i + 1) };
        if let Some(j) = j.filter(|j| *j >= 1 && *j < out.order.len())
            && i >= 1
        {
            out.order.swap(i, j);
        }
        out
    }

    /// Whether `column` can move that way.
    pub fn can_move(&self, column: Column, up: bool) -> bool {
        self.moved(column, up) != *self
    }

    /// A layout from what a file named: known columns once each, in the
    /// file's order, Name first; those it did not name at their default
    /// place (after the column they follow by default).
    fn from_names(order: &[Option<Column>], hidden: &[Option<Column>]) -> Self {
        let mut out: Vec<Column> = vec![Column::Name];
        for c in order.iter().flatten() {
            if !out.contains(c) {
                out.push(*c);
            }
        }
        for (k, c) in DEFAULT_ORDER.iter().enumerate() {
            if out.contains(c) {
                continue;
            }
            let before = DEFAULT_ORDER[..k]
                .iter()
                .rev()
                .find_map(|p| out.iter().position(|o| o == p))
                .map_or(out.len(), |i| i + 1);
            out.insert(before, *c);
        }
        let mut hidden_known: Vec<Column> = Vec::new();
        for c in hidden.iter().flatten() {
            if *c != Column::Name && !hidden_known.contains(c) {
                hidden_known.push(*c);
            }
        }
        Self {
            order: out,
            hidden: hidden_known,
        }
    }
}

impl Column {
    /// The column's name in the settings file (stable across versions,
    /// whatever its label says).
    pub fn key(self) -> &'static str {
        match self {
            Column::Name => "Name",
            Column::Category => "Category",
            Column::Make => "Make",
            Column::Model => "Model",
            Column::Serial => "Serial",
            Column::State => "State",
            Column::LastReport => "LastReport",
            Column::EngineHours => "EngineHours",
            Column::WindowHours => "WindowHours",
            Column::IdlePercent => "IdlePercent",
            Column::Fuel => "Fuel",
            Column::Faults => "Faults",
            Column::Flags => "Flags",
            Column::Source => "Source",
            Column::Service => "Service",
        }
    }

    pub fn from_key(key: &str) -> Option<Column> {
        Column::ALL.into_iter().find(|c| c.key() == key)
    }
}

/// The layout as saved: column names.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
struct SavedColumns {
    order: Vec<SavedName>,
    hidden: Vec<SavedName>,
}

/// A column's name as read: `None` for anything this version does not
/// know (an unknown name, or not a name at all).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct SavedName(Option<Column>);

impl Serialize for SavedName {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.0.map_or("", Column::key))
    }
}

impl<'de> Deserialize<'de> for SavedName {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(NameVisitor)
    }
}

struct NameVisitor;

impl<'de> Visitor<'de> for NameVisitor {
    type Value = SavedName;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a column's name")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<SavedName, E> {
        Ok(SavedName(Column::from_key(v)))
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<SavedName, E> {
        Ok(SavedName(None))
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<SavedName, E> {
        Ok(SavedName(None))
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<SavedName, E> {
        Ok(SavedName(None))
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<SavedName, E> {
        Ok(SavedName(None))
    }
    fn visit_unit<E: de::Error>(self) -> Result<SavedName, E> {
        Ok(SavedName(None))
    }
    fn visit_none<E: de::Error>(self) -> Result<SavedName, E> {
        Ok(SavedName(None))
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<SavedName, D::Error> {
        d.deserialize_any(NameVisitor)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<SavedName, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(SavedName(None))
    }
    fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<SavedName, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(SavedName(None))
    }
}

impl From<SavedColumns> for ColumnLayout {
    fn from(s: SavedColumns) -> Self {
        let names = |v: &[SavedName]| v.iter().map(|n| n.0).collect::<Vec<_>>();
        ColumnLayout::from_names(&names(&s.order), &names(&s.hidden))
    }
}

impl From<ColumnLayout> for SavedColumns {
    fn from(l: ColumnLayout) -> Self {
        let names = |v: &[Column]| v.iter().map(|c| SavedName(Some(*c))).collect();
        SavedColumns {
            order: names(&l.order),
            hidden: names(&l.hidden),
        }
    }
}

#[cfg(test)]
#[path = "columns_tests.rs"]
mod tests;
