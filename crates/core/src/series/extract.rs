//! Decodes rows of any shape straight into columns, through serde visitors:
//! no `serde_json::Value` is built per row. Field names are resolved to
//! column slots by predicting the next key (rows repeat their shape), so a
//! row costs little more than parsing its numbers.
//!
//! This file holds the entry points and the serde seeds that walk the JSON;
//! `builder.rs` what becomes of each field.

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use super::builder::{Builder, ROOT};
use super::channel::Series;
use fleetview_api::time::parse_lenient;

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
    pub(crate) serial_number: Option<String>,
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
        self.b.skip_row();
        Ok(())
    }
    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        self.b.skip_row();
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        self.b.skip_row();
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        self.b.skip_row();
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        self.b.skip_row();
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        self.b.skip_row();
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        self.b.skip_row();
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
    use crate::series::channel::{ChannelKind, ESTIMATED_NO, ESTIMATED_UNKNOWN, ESTIMATED_YES};
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
    fn dates_keep_their_milliseconds_in_utc_and_whole_seconds_cost_nothing() {
        let s = decode(
            r#"[{"date":"2025-08-20T09:48:10.721Z","x":1,"dateStop":"2025-08-20T09:50:00.250Z"},
                {"date":"2025-08-20T12:00:00+02:00","x":2},
                {"date":"2025-08-20T10:00:01Z","x":3}]"#,
        );
        assert_eq!(s.times, vec![1_755_683_290, 1_755_684_000, 1_755_684_001]);
        assert_eq!(s.subsec_ms, vec![721, 0, 0]);
        assert_eq!(s.instant(0).to_string(), "2025-08-20T09:48:10.721Z");
        assert_eq!(s.instant(1).to_string(), "2025-08-20T10:00:00Z");
        assert_eq!(s.time_ms(0), 1_755_683_290_721);
        let stop = s.channel("dateStop").expect("a time channel");
        assert_eq!(stop.values[0], 1_755_683_400.25);
        let whole = decode(
            r#"[{"date":"2025-08-20T10:00:00Z","x":1},{"date":"2025-08-20T10:00:01Z","x":2}]"#,
        );
        assert!(whole.subsec_ms.is_empty());
        // Milliseconds from the second row on: the first is on its second.
        let later = decode(
            r#"[{"date":"2025-08-20T10:00:00Z","x":1},{"date":"2025-08-20T10:00:01.5Z","x":2}]"#,
        );
        assert_eq!(later.subsec_ms, vec![0, 500]);
    }

    #[test]
    fn a_member_read_as_value_and_unit_is_one_channel() {
        let s = decode(
            r#"[{"date":"2024-01-01T00:00:00Z","fuelUsed":{"value":12.5,"unit":"L","estimated":true}},
                {"date":"2024-01-02T00:00:00Z","fuelUsed":13},
                {"date":"2024-01-03T00:00:00Z","fuelUsed":{"value":14.5,"unit":"L"},"value":3}]"#,
        );
        let f = s.channel("fuelUsed").expect("named for the member");
        assert_eq!(f.values, vec![12.5, 13.0, 14.5]);
        assert_eq!(f.unit.as_deref(), Some("L"));
        assert_eq!(f.estimated_at(0), Some(true));
        assert!(s.channel("fuelUsed.value").is_none());
        assert_eq!(
            s.channels.iter().filter(|c| c.name == "fuelUsed").count(),
            1
        );
        // A row's own `value` stays `value`.
        assert_eq!(s.channel("value").map(|c| c.values[2]), Some(3.0));
        // A member that is text in one row and a reading in another: two
        // channels, never two of one name.
        let mixed = decode(
            r#"[{"date":"2024-01-01T00:00:00Z","level":"high"},
                {"date":"2024-01-02T00:00:00Z","level":{"value":3}}]"#,
        );
        let names: Vec<&str> = mixed.channels.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["level", "level (number)"]);
        let daily = decode(
            r#"[{"date":"2024-01-01T00:00:00Z","operatingHours":{"hour":{"value":7.5,"unit":"h"}}}]"#,
        );
        let h = daily.channel("operatingHours.hour").expect("nested member");
        assert_eq!((h.values[0], h.unit.as_deref()), (7.5, Some("h")));
    }

    #[test]
    fn hour_and_hours_are_both_numbers() {
        let s = decode(
            r#"[{"date":"2024-01-01T00:00:00Z","hour":1520.5,"usageHours":1400},
                {"date":"2024-01-01T00:00:00Z","hours":310.25}]"#,
        );
        for (name, v) in [("hour", 1520.5), ("usageHours", 1400.0)] {
            let c = s.channel(name).expect(name);
            assert_eq!((c.kind, c.values[0]), (ChannelKind::Numeric, v), "{name}");
        }
        let hours = s.channel("hours").expect("hours");
        assert_eq!(
            (hours.kind, hours.values[1]),
            (ChannelKind::Numeric, 310.25)
        );
    }

    #[test]
    fn aemp_placeholders_are_no_values() {
        let s = decode(
            r#"[{"date":"0001-01-01T00:00:00Z","percent":50},
                {"date":"2024-01-01T00:00:00Z","percent":61,"tankCapacity":0,"state":"missing",
                 "dateStop":"0001-01-01T00:00:00Z","def":{"tankCapacity":{"value":0,"unit":"L"}}},
                {"date":"2024-01-01T01:00:00Z","percent":60,"tankCapacity":410,"tankCapacityUnit":"L",
                 "state":"charging","def":{"tankCapacity":{"value":40,"unit":"L"}}},
                {"dateStart":"0001-01-01T00:00:00Z","percent":1}]"#,
        );
        assert_eq!(s.len(), 2);
        assert_eq!(
            s.skipped_rows, 2,
            "placeholder dates are rows without a date"
        );
        assert_eq!(
            s.channel("percent").map(|c| c.values.clone()),
            Some(vec![61.0, 60.0])
        );
        let cap = s.channel("tankCapacity").expect("capacity");
        assert!(cap.values[0].is_nan(), "a capacity of 0 is no point");
        assert_eq!((cap.values[1], cap.unit.as_deref()), (410.0, Some("L")));
        let nested = s.channel("def.tankCapacity").expect("nested capacity");
        assert!(nested.values[0].is_nan());
        assert_eq!(nested.values[1], 40.0);
        let state = s.channel("state").expect("labels");
        assert_eq!(
            (state.label_at(0), state.label_at(1)),
            (None, Some("charging"))
        );
        assert_eq!(state.labels, vec!["charging".to_owned()]);
        assert!(
            s.channel("dateStop").is_none(),
            "a placeholder time is no value"
        );
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
            Just(Value::String("2024-01-01T00:00:00.250Z".into())),
            Just(Value::String("0001-01-01T00:00:00Z".into())),
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
            prop_assert!(s.subsec_ms.is_empty() || s.subsec_ms.len() == s.times.len());
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
