//! Numbers rounded to what they mean, the same in every export and report:
//! a figure is written to the step a reader can use (hours to 0.01 h, a
//! percent to 0.1), never with float noise such as `23.009999999999998`.
//! Values are rounded in the unit they are written in, after conversion.

/// What a number measures, which fixes its step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Measure {
    /// Hours (engine, working, idle): 0.01 h.
    Hours,
    /// A percent (0..100): 0.1.
    Percent,
    /// A ratio (0..1): 0.001, the same resolution as its percent.
    Ratio,
    /// A volume (litres or gallons): 0.1.
    Volume,
    /// A distance (km or miles): 0.01.
    Distance,
    /// A mass (kg CO2): 0.1.
    Mass,
    /// A rate such as litres per hour or km/h: 0.1.
    Rate,
    /// A temperature: 0.1 degree.
    Temperature,
    /// A coordinate in degrees: 1e-6 (about 0.1 m).
    Degrees,
    /// Anything else read from the service: 0.001.
    Other,
}

impl Measure {
    /// Decimal places written for this measure.
    pub fn decimals(self) -> i32 {
        match self {
            Measure::Percent
            | Measure::Volume
            | Measure::Mass
            | Measure::Rate
            | Measure::Temperature => 1,
            Measure::Hours | Measure::Distance => 2,
            Measure::Ratio | Measure::Other => 3,
            Measure::Degrees => 6,
        }
    }
}

/// `v` rounded to its measure's step; not-finite values are `None` (an
/// export writes no number rather than `NaN`).
pub fn round(measure: Measure, v: f64) -> Option<f64> {
    if !v.is_finite() {
        return None;
    }
    let scale = 10f64.powi(measure.decimals());
    let r = (v * scale).round() / scale;
    // -0.0 reads as a sign error in a spreadsheet.
    Some(if r == 0.0 { 0.0 } else { r })
}

/// `round` over an optional value.
pub fn round_opt(measure: Measure, v: Option<f64>) -> Option<f64> {
    v.and_then(|v| round(measure, v))
}

/// What a column of numbers measures, by the unit it is written in (after
/// conversion) or, with none, its field's name (`latitude`, `hour`,
/// `percent`): what the exports round a table's or a row's value to.
pub fn measure_of(field: &str, unit: Option<&str>) -> Measure {
    use fleetview_api::units::Quantity;
    let last = field.rsplit('.').next().unwrap_or(field);
    let is = |name: &str| last.eq_ignore_ascii_case(name);
    if is("latitude") || is("longitude") || is("lat") || is("lon") {
        return Measure::Degrees;
    }
    let unit = unit
        .map(str::trim)
        .filter(|u| !u.is_empty())
        .or_else(|| crate::series::names::implied_unit(field));
    match unit {
        Some("h") => Measure::Hours,
        Some("%") => Measure::Percent,
        Some(u) => match Quantity::of_unit(u) {
            Some(Quantity::Distance) => Measure::Distance,
            Some(Quantity::Volume) => Measure::Volume,
            Some(Quantity::VolumeRate | Quantity::Speed) => Measure::Rate,
            Some(Quantity::Temperature) => Measure::Temperature,
            Some(Quantity::Mass) => Measure::Mass,
            Some(Quantity::Length) | None => Measure::Other,
        },
        None => Measure::Other,
    }
}

/// A number as a CSV cell: rounded to its measure, empty when not a
/// number.
pub fn number_cell(measure: Measure, v: f64) -> String {
    round(measure, v).map(|v| v.to_string()).unwrap_or_default()
}

/// A number as JSON: rounded to its measure, `null` when not a number.
pub fn number_json(measure: Measure, v: f64) -> serde_json::Value {
    round(measure, v).map_or(serde_json::Value::Null, serde_json::Value::from)
}

/// Every fractional number of a JSON document (the service's rows, as
/// `fleetview export` writes them) rounded to what its field measures, by
/// the field's name and its object's unit (`unit`, `speedUnit`, ...).
/// Whole numbers (ids, counts, severities) stay as they are.
pub fn round_json(v: &mut serde_json::Value) {
    use serde_json::Value;
    match v {
        Value::Object(o) => {
            // A value's unit is beside it: `unit`, or `speedUnit` for
            // `speed`, `payloadUnit` for `payload`.
            let units: Vec<(String, String)> = o
                .iter()
                .filter_map(|(k, u)| {
                    let u = u.as_str()?;
                    let of = if k == "unit" {
                        ""
                    } else {
                        k.strip_suffix("Unit")?
                    };
                    Some((of.to_owned(), u.to_owned()))
                })
                .collect();
            let unit_of = |k: &str| {
                units
                    .iter()
                    .find(|(of, _)| of == k)
                    .or_else(|| units.iter().find(|(of, _)| of.is_empty()))
                    .map(|(_, u)| u.as_str())
            };
            for (k, child) in o.iter_mut() {
                match child {
                    Value::Number(n) if n.is_f64() => {
                        let x = n.as_f64().unwrap_or(f64::NAN);
                        *child = number_json(measure_of(k, unit_of(k)), x);
                    }
                    _ => round_json(child),
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(round_json),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn float_noise_is_gone() {
        assert_eq!(round(Measure::Hours, 23.009999999999998), Some(23.01));
        assert_eq!(round(Measure::Volume, 31.473458317949806), Some(31.5));
        assert_eq!(round(Measure::Percent, 12.345), Some(12.3));
        assert_eq!(round(Measure::Distance, 0.004), Some(0.0));
        assert_eq!(round(Measure::Ratio, 0.12345), Some(0.123));
        assert_eq!(
            round(Measure::Hours, -0.001).map(f64::to_bits),
            Some(0f64.to_bits())
        );
        assert_eq!(round(Measure::Hours, f64::NAN), None);
        assert_eq!(round(Measure::Hours, f64::INFINITY), None);
    }

    #[test]
    fn columns_are_rounded_by_their_unit_or_their_name() {
        assert_eq!(measure_of("Fuel used", Some("gal")), Measure::Volume);
        assert_eq!(
            measure_of("dailyDistance.odometer", Some("mi")),
            Measure::Distance
        );
        assert_eq!(measure_of("operatingHours.hour", None), Measure::Hours);
        assert_eq!(
            measure_of("DEFRemainingRatio.percent", None),
            Measure::Percent
        );
        assert_eq!(measure_of("latitude", None), Measure::Degrees);
        assert_eq!(measure_of("temperature", Some("°F")), Measure::Temperature);
        assert_eq!(measure_of("speed", Some("mph")), Measure::Rate);
        assert_eq!(measure_of("heading", None), Measure::Other);
        let mut rows = serde_json::json!([
            {"date": "2026-11-20T00:00:00Z", "fuelUsed": {"fuelUsed": 31.473458317949806, "unit": "gallon", "estimated": false}},
            {"operatingHours": {"hour": 23.009999999999998}, "peakDailySpeed": {"speed": 73.04, "speedUnit": "km/h"}},
            {"latitude": 53.4680821, "longitude": -2.3220784, "severity": 2, "count": 17}
        ]);
        round_json(&mut rows);
        assert_eq!(
            rows,
            serde_json::json!([
                {"date": "2026-11-20T00:00:00Z", "fuelUsed": {"fuelUsed": 31.5, "unit": "gallon", "estimated": false}},
                {"operatingHours": {"hour": 23.01}, "peakDailySpeed": {"speed": 73.0, "speedUnit": "km/h"}},
                {"latitude": 53.468082, "longitude": -2.322078, "severity": 2, "count": 17}
            ])
        );
    }

    proptest! {
        /// Written as JSON or with `{}`, a rounded value has at most its
        /// measure's decimals, and it is within half a step of the value.
        #[test]
        fn rounded_values_print_short_and_stay_close(v in -1.0e7f64..1.0e7) {
            for m in [Measure::Hours, Measure::Percent, Measure::Ratio, Measure::Volume, Measure::Degrees] {
                let r = round(m, v).unwrap();
                let step = 10f64.powi(-m.decimals());
                prop_assert!((r - v).abs() <= step / 2.0 + 1e-9 * v.abs().max(1.0));
                let text = format!("{r}");
                let decimals = text.split('.').nth(1).map_or(0, str::len);
                prop_assert!(decimals as i32 <= m.decimals(), "{text} for {m:?}");
            }
        }
    }
}
