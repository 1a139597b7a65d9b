use super::*;

use fleetview_api::model::{Envelope, FuelUsed, Hours};
use proptest::prelude::*;

fn at(secs: i64, ms: u16) -> Timestamp {
    Timestamp::from_parts(secs, ms)
}

/// A piece with every kind of row, odd values among them: a date before
/// 1970, milliseconds, names with quotes and non-Latin letters, totals
/// that are not the rows' count, an unknown severity.
fn piece() -> EquipmentHistory {
    EquipmentHistory {
        id: 42,
        name: "Pelle \"Nord\" 挖掘机".to_owned(),
        make: "Volvo".to_owned(),
        model: "EC220E".to_owned(),
        serial_number: "SN-1".to_owned(),
        pin: None,
        vin: Some("VIN\n2".to_owned()),
        positions: Page {
            total: 5,
            rows: vec![
                HistoryPositionRow {
                    latitude: 45.123_456_789,
                    longitude: -0.000_001,
                    date: at(1_750_000_000, 999),
                },
                HistoryPositionRow {
                    latitude: -89.999,
                    longitude: 179.999_999,
                    date: at(-86_400, 1),
                },
            ],
        },
        fault_codes: Page {
            total: 1,
            rows: vec![HistoryFaultRow {
                level_label: None,
                severity: None,
                identifier: "P0001".to_owned(),
                description: "d\u{e9}faut".to_owned(),
                date: at(1_750_000_100, 0),
            }],
        },
        fuel_remainings: Page::of(vec![FuelRemainingRow {
            percent: 12.5,
            date: at(1_750_000_200, 500),
        }]),
        engine_conditions: Page::of(vec![
            EngineConditionRow::started_at(1_750_000_300),
            EngineConditionRow::stopped_at(1_750_000_400),
        ]),
        daily_usages: Page::of(vec![DailyUsageRow {
            operating_hours: Some(Hours { hour: Some(7.25) }),
            fuel_used: Some(FuelUsed {
                fuel_used: None,
                unit: "l".to_owned(),
                estimated: Some(true),
            }),
            ..daily_usage(at(1_749_945_600, 0))
        }]),
    }
}

/// `bytes` changed in place, its checksum made to match again (as a
/// writer of the layout would): what only the values' checks catch.
fn resealed(mut bytes: Vec<u8>) -> Vec<u8> {
    bytes.truncate(bytes.len() - 4);
    let crc = crc32fast::hash(&bytes);
    bytes.extend_from_slice(&crc.to_le_bytes());
    bytes
}

/// Where the positions' page starts: after the magic, the rest's length
/// and the rest.
fn positions_at(bytes: &[u8]) -> usize {
    let rest_len = u64::from_le_bytes(bytes[8..16].try_into().expect("8 bytes")) as usize;
    16 + rest_len
}

/// A daily usage row of `date` and nothing else.
fn daily_usage(date: Timestamp) -> DailyUsageRow {
    serde_json::from_value(serde_json::json!({ "date": date })).expect("a daily usage row")
}

#[test]
fn a_piece_reads_back_as_it_was() {
    let piece = piece();
    assert_eq!(decode(&encode(&piece)).expect("read back"), piece);
}

#[test]
fn a_piece_of_no_rows_reads_back() {
    let mut empty = piece();
    empty.positions = Page::of(Vec::new());
    empty.fault_codes = Page::of(Vec::new());
    empty.fuel_remainings = Page::of(Vec::new());
    empty.engine_conditions = Page::of(Vec::new());
    empty.daily_usages = Page::of(Vec::new());
    assert_eq!(decode(&encode(&empty)).expect("read back"), empty);
}

#[test]
fn every_cut_short_copy_is_an_error() {
    let bytes = encode(&piece());
    for len in 0..bytes.len() {
        assert!(
            decode(&bytes[..len]).is_err(),
            "{len} of {} bytes read",
            bytes.len()
        );
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(decode(&longer).is_err());
    let mut longer = bytes[..bytes.len() - 4].to_vec();
    longer.push(0);
    longer.extend_from_slice(&[0; 4]);
    assert!(matches!(
        decode(&resealed(longer)),
        Err(ColumnsError::Trailing)
    ));
}

#[test]
fn the_service_s_json_or_another_layout_is_not_read_as_columns() {
    let json = br#"{"data":{"id":1}}"#;
    assert!(matches!(decode(json), Err(ColumnsError::Magic)));
    let mut older = encode(&piece());
    older[7] = b'0';
    assert!(matches!(decode(&older), Err(ColumnsError::Magic)));
}

#[test]
fn a_length_the_bytes_do_not_hold_is_refused_before_it_is_allocated() {
    let mut bytes = encode(&piece());
    // The positions' length, after their total.
    let at = positions_at(&bytes) + 8;
    bytes[at..at + 8].copy_from_slice(&u64::MAX.to_le_bytes());
    let bytes = resealed(bytes);
    assert!(matches!(decode(&bytes), Err(ColumnsError::Truncated)));
    let mut bytes = bytes;
    bytes[at..at + 8].copy_from_slice(&(u64::MAX / 8).to_le_bytes());
    assert!(matches!(
        decode(&resealed(bytes)),
        Err(ColumnsError::Truncated)
    ));
}

/// A settled piece is never fetched again: a copy damaged in place (a
/// bad sector, another program) must not read back as another history.
#[test]
fn a_copy_damaged_in_place_is_an_error() {
    let bytes = encode(&piece());
    for at in 0..bytes.len() {
        let mut damaged = bytes.clone();
        damaged[at] ^= 0x10;
        assert!(
            decode(&damaged).is_err(),
            "byte {at} of {} changed",
            bytes.len()
        );
    }
}

#[test]
fn values_no_history_holds_are_errors_even_with_a_matching_checksum() {
    let bytes = encode(&piece());
    // The last engine condition's flag: the last byte before the checksum.
    let mut flag = bytes.clone();
    let at = flag.len() - 5;
    assert_eq!(flag[at], 0, "the last condition is a stop");
    flag[at] = 2;
    assert!(matches!(decode(&resealed(flag)), Err(ColumnsError::Value)));
    // The first position's milliseconds: after its page's total, length
    // and two dates' seconds.
    let mut millis = bytes;
    let at = positions_at(&millis) + 16 + 2 * 8;
    assert_eq!(millis[at..at + 2], 999u16.to_le_bytes());
    millis[at..at + 2].copy_from_slice(&1000u16.to_le_bytes());
    assert!(matches!(
        decode(&resealed(millis)),
        Err(ColumnsError::Value)
    ));
}

#[test]
fn positions_take_under_half_their_json() {
    let mut long = piece();
    long.positions = Page::of(
        (0..10_000)
            .map(|i| HistoryPositionRow {
                latitude: 45.0 + f64::from(i) * 1e-5,
                longitude: 6.0 - f64::from(i) * 1e-5,
                date: at(1_750_000_000 + i64::from(i) * 30, 0),
            })
            .collect(),
    );
    let json = serde_json::to_vec(&Envelope { data: long.clone() }).expect("json");
    let columns = encode(&long);
    assert!(
        columns.len() * 2 < json.len(),
        "{} bytes as columns, {} as JSON",
        columns.len(),
        json.len()
    );
    assert_eq!(decode(&columns).expect("read back"), long);
}

proptest! {
    #[test]
    fn any_rows_read_back(
        positions in prop::collection::vec((-90.0f64..90.0, -180.0f64..180.0, any::<i32>(), 0u16..1000), 0..50),
        fuel in prop::collection::vec((0.0f64..100.0, any::<i32>()), 0..20),
        engine in prop::collection::vec((any::<bool>(), any::<i32>()), 0..20),
        totals in (any::<i64>(), any::<i64>(), any::<i64>()),
    ) {
        let mut h = piece();
        h.positions = Page {
            total: totals.0,
            rows: positions
                .into_iter()
                .map(|(latitude, longitude, secs, ms)| HistoryPositionRow {
                    latitude,
                    longitude,
                    date: at(i64::from(secs), ms),
                })
                .collect(),
        };
        h.fuel_remainings = Page {
            total: totals.1,
            rows: fuel
                .into_iter()
                .map(|(percent, secs)| FuelRemainingRow { percent, date: at(i64::from(secs), 0) })
                .collect(),
        };
        h.engine_conditions = Page {
            total: totals.2,
            rows: engine
                .into_iter()
                .map(|(start, secs)| {
                    let event = if start { EngineEvent::Started } else { EngineEvent::Stopped };
                    EngineConditionRow::new(event, at(i64::from(secs), 0))
                })
                .collect(),
        };
        prop_assert_eq!(decode(&encode(&h)).expect("read back"), h);
    }

    /// Bytes of a real copy changed, its checksum made to match: lengths,
    /// the rest's JSON and the columns all reached.
    #[test]
    fn any_copy_changed_is_an_error_or_a_history_never_a_panic(
        changes in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8),
    ) {
        let mut bytes = encode(&piece());
        let body = bytes.len() - 4;
        for (at, value) in changes {
            bytes[at.index(body)] = value;
        }
        let _ = decode(&resealed(bytes));
    }
}
