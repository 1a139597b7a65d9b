//! A series in the units chosen: each numeric channel whose unit the app
//! knows is converted from the service's unit, and its unit renamed, so a
//! table's header says what its cells are in (`fuelUsed (gal)`).

use std::borrow::Cow;

use crate::series::{ChannelKind, Series};
use fleetview_api::units::{Conversion, UnitSystem};

/// `series` with its values in `units`; borrowed when no number changes
/// (metric chosen and metric units, or no unit the app knows).
pub fn in_units(series: &Series, units: UnitSystem) -> Cow<'_, Series> {
    // The same numbers (a metric unit, metric chosen): written as the
    // service gave them, its unit's spelling too.
    let converts = |unit: &str| {
        units
            .conversion(unit)
            .filter(|(c, _)| *c != Conversion::SAME)
    };
    let plan: Vec<Option<(Conversion, &str)>> = series
        .channels
        .iter()
        .map(|c| match (&c.kind, c.unit.as_deref()) {
            (ChannelKind::Numeric, Some(u)) => converts(u),
            _ => None,
        })
        .collect();
    if plan.iter().all(Option::is_none) {
        return Cow::Borrowed(series);
    }
    let mut out = series.clone();
    for (c, p) in out.channels.iter_mut().zip(plan) {
        if let Some((conversion, unit)) = p {
            for v in &mut c.values {
                // NaN (no value) stays NaN.
                *v = conversion.apply(*v);
            }
            c.unit = Some(unit.to_owned());
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::series::decode_rows;

    #[test]
    fn known_units_convert_and_are_renamed_the_rest_stays() {
        let rows = br#"[
            {"date":"2025-06-01T00:00:00Z","fuelUsed":{"fuelUsed":37.854117840,"unit":"L"},"dailyDistance":{"odometer":16.09344,"unit":"km"},"percent":50,"temperature":{"value":100,"unit":"C"}},
            {"date":"2025-06-02T00:00:00Z","fuelUsed":{"fuelUsed":null,"unit":"L"},"dailyDistance":{"odometer":0,"unit":"km"},"percent":20,"temperature":{"value":0,"unit":"C"}}
        ]"#;
        let series = decode_rows(rows).expect("rows");
        assert!(matches!(
            in_units(&series, UnitSystem::Metric),
            Cow::Borrowed(_)
        ));
        let imperial = in_units(&series, UnitSystem::Imperial);
        let channel = |name: &str| {
            imperial
                .channels
                .iter()
                .find(|c| c.name == name)
                .unwrap_or_else(|| {
                    panic!(
                        "{name} in {:?}",
                        imperial
                            .channels
                            .iter()
                            .map(|c| &c.name)
                            .collect::<Vec<_>>()
                    )
                })
        };
        let fuel = channel("fuelUsed.fuelUsed");
        assert_eq!(fuel.unit.as_deref(), Some("gal"));
        assert!((fuel.values[0] - 10.0).abs() < 1e-9 && fuel.values[1].is_nan());
        let km = channel("dailyDistance.odometer");
        assert_eq!(km.unit.as_deref(), Some("mi"));
        assert!((km.values[0] - 10.0).abs() < 1e-9 && km.values[1] == 0.0);
        let t = channel("temperature");
        assert_eq!(t.unit.as_deref(), Some("°F"));
        assert!((t.values[0] - 212.0).abs() < 1e-9 && (t.values[1] - 32.0).abs() < 1e-9);
        assert_eq!(channel("percent").values, [50.0, 20.0], "no unit: as given");
    }
}
