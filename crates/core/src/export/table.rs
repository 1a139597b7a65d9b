//! A series as a CSV table: `date`, then one column per channel with its
//! unit in the header (`fuelUsed (L)`), and the `estimated` flags where the
//! rows carry them. Names and labels from the service are made safe for
//! spreadsheets (D14).

use std::io::Write;

use super::cell::text_cell;
use super::error::ExportError;
use super::round::{measure_of, number_cell};
use crate::series::{Channel, ChannelKind, Series, names};
use fleetview_api::time::format_instant;

/// Writes a series as CSV, one line per row.
pub fn write_csv(series: &Series, out: impl Write) -> Result<(), ExportError> {
    write_csv_named(series, out, |c| {
        // A time column holds instants, whatever unit its values were
        // read in.
        let title = if c.kind == ChannelKind::Time {
            c.name.clone()
        } else {
            c.title()
        };
        (c.name.clone(), title)
    })
}

/// The daily history's table (D7's daily usage rows): each column named as
/// people read it, with its unit (`Operating hours (h)`, `Total fuel used
/// (L)`), never the field path.
pub fn write_daily_csv(series: &Series, out: impl Write) -> Result<(), ExportError> {
    write_csv_named(series, out, |c| {
        let name = names::daily_name(&c.name);
        let unit = c
            .unit
            .clone()
            .filter(|u| !u.is_empty())
            .or_else(|| names::implied_unit(&c.name).map(str::to_owned));
        let title = names::with_unit(&name, unit.as_deref().unwrap_or_default());
        (name, title)
    })
}

/// A channel's value at `row` as a CSV cell: empty where the row has
/// none, numbers rounded to what they measure (by the channel's unit or
/// name) and flags as the app writes them, labels from the service made
/// safe for spreadsheets (D14).
pub(super) fn value_cell(c: &Channel, row: usize) -> String {
    let v = c.values.get(row).copied().unwrap_or(f64::NAN);
    match c.kind {
        _ if v.is_nan() => String::new(),
        ChannelKind::Numeric => number_cell(measure_of(&c.name, c.unit.as_deref()), v),
        ChannelKind::Boolean => (v != 0.0).to_string(),
        ChannelKind::Label => text_cell(c.label_at(row).unwrap_or_default()).into_owned(),
        ChannelKind::Time => time_cell(v),
    }
}

/// A time channel's value (seconds, with the milliseconds as a fraction)
/// as its instant in UTC.
fn time_cell(v: f64) -> String {
    let ms = (v * 1000.0).round();
    // Beyond what an i64 of milliseconds holds, the second is still written.
    if ms.abs() < 9e18 {
        let ms = ms as i64;
        format_instant(ms.div_euclid(1000), ms.rem_euclid(1000) as u16)
    } else {
        format_instant(v as i64, 0)
    }
}

/// `name_of` gives a channel's name (for its "estimated" column) and its
/// header.
fn write_csv_named(
    series: &Series,
    out: impl Write,
    name_of: impl Fn(&Channel) -> (String, String),
) -> Result<(), ExportError> {
    let mut w = csv::Writer::from_writer(out);
    let flagged: Vec<usize> = (0..series.channels.len())
        .filter(|i| series.channels[*i].estimated.is_some())
        .collect();
    let mut header = vec!["date".to_owned()];
    for (i, c) in series.channels.iter().enumerate() {
        let (name, title) = name_of(c);
        header.push(text_cell(&title).into_owned());
        if flagged.contains(&i) {
            header.push(if flagged.len() == 1 {
                "estimated".to_owned()
            } else {
                text_cell(&format!("{name} estimated")).into_owned()
            });
        }
    }
    w.write_record(&header)?;
    let mut record: Vec<String> = Vec::with_capacity(header.len());
    for row in 0..series.len() {
        record.clear();
        record.push(series.instant(row).to_string());
        for (i, c) in series.channels.iter().enumerate() {
            record.push(value_cell(c, row));
            if flagged.contains(&i) {
                record.push(
                    c.estimated_at(row)
                        .map(|e| e.to_string())
                        .unwrap_or_default(),
                );
            }
        }
        w.write_record(&record)?;
    }
    w.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::series::decode_rows;

    proptest::proptest! {
        /// Channel names, units and labels come from the service: none of
        /// them reaches a cell or a header as a formula (D14); the app's
        /// numbers stay numbers.
        #[test]
        fn no_cell_or_header_is_a_formula(
            name in "[=+@\\-\t]?[a-zA-Z]{1,8}", unit in "[=+@\\-]?[a-zA-Z()|]{0,8}",
            label in proptest::prelude::any::<String>(), value in -1e6f64..1e6,
        ) {
            let rows = serde_json::json!([
                {"date": "2024-01-01T00:00:00Z", name.clone(): value, "unit": unit, "estimated": true, "state": label},
            ]);
            let s = decode_rows(rows.to_string().as_bytes())
                .map_err(|e| proptest::test_runner::TestCaseError::fail(e.to_string()))?;
            for daily in [false, true] {
                let mut out = Vec::new();
                if daily {
                    write_daily_csv(&s, &mut out).expect("csv");
                } else {
                    write_csv(&s, &mut out).expect("csv");
                }
                let mut r = csv::ReaderBuilder::new().has_headers(false).from_reader(out.as_slice());
                for record in r.records() {
                    let record = record.expect("record");
                    for cell in &record {
                        proptest::prop_assert!(
                            !crate::export::is_formula(cell) || cell.parse::<f64>().is_ok(),
                            "formula cell {:?}", cell
                        );
                    }
                }
                // The app's number is written as a number, negative or not,
                // rounded to what it measures (at most 0.1: a volume, a
                // mass).
                let text = String::from_utf8_lossy(&out);
                let numbers: Vec<f64> = text
                    .split([',', '\n'])
                    .filter_map(|c| c.parse::<f64>().ok())
                    .collect();
                proptest::prop_assert!(
                    numbers.iter().any(|n| (n - value).abs() <= 0.05 + 1e-9 * value.abs().max(1.0)),
                    "{} not in {:?}", value, text
                );
            }
        }
    }

    #[test]
    fn csv_has_units_in_headers_and_an_estimated_column() {
        let s = decode_rows(
            br#"[{"date":"2024-01-01T00:00:00Z","fuelUsed":80.5,"unit":"L","estimated":true,"state":"a, b"},
                 {"date":"2024-01-02T00:00:00Z","fuelUsed":null,"unit":"L","estimated":false,"state":"c"}]"#,
        )
        .expect("rows");
        let mut out = Vec::new();
        write_csv(&s, &mut out).expect("csv");
        let text = String::from_utf8(out).expect("utf8");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "date,fuelUsed (L),estimated,state");
        assert_eq!(lines[1], "2024-01-01T00:00:00Z,80.5,true,\"a, b\"");
        // No value, so nothing to flag as estimated.
        assert_eq!(lines[2], "2024-01-02T00:00:00Z,,,c");
        assert_eq!(lines.len(), 3);
    }

    #[test]
    fn dates_are_written_in_utc_to_the_millisecond_when_they_have_one() {
        let s = decode_rows(
            br#"[{"date":"2025-08-20T09:48:10.721Z","x":1,"dateStop":"2025-08-20T09:50:00.25Z"},
                 {"date":"2025-08-20T12:00:00+02:00","x":2,"dateStop":"2025-08-20T12:30:00+02:00"}]"#,
        )
        .expect("rows");
        let mut out = Vec::new();
        write_csv(&s, &mut out).expect("csv");
        let text = String::from_utf8(out).expect("utf8");
        let lines: Vec<&str> = text.lines().collect();
        // The stop is an instant, not a number of seconds.
        assert_eq!(lines[0], "date,x,dateStop");
        assert_eq!(
            lines[1],
            "2025-08-20T09:48:10.721Z,1,2025-08-20T09:50:00.250Z"
        );
        assert_eq!(lines[2], "2025-08-20T10:00:00Z,2,2025-08-20T10:30:00Z");
    }
}
