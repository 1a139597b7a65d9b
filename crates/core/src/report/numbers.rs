//! Numbers as the reports write them: in the units chosen, rounded to the
//! step of what they measure (`export::round`), whole for counts, `None`
//! (null, an empty cell, a dash) where the data give none.

use serde_json::{Value, json};

use crate::analysis::{Figure, Figures, UnitSystem};
use crate::export::round::{Measure, round_opt};

/// What a figure measures, which fixes its rounding step.
pub(crate) fn measure(figure: Figure) -> Measure {
    use Figure::*;
    match figure {
        EngineHours | WorkingHours | IdleHours | ExpectedHours => Measure::Hours,
        IdlePercent | Utilisation | FuelEstimated | Co2Estimated => Measure::Percent,
        FuelUsed | IdleFuel => Measure::Volume,
        FuelPerEngineHour | WorkingFuelPerHour | IdleFuelPerHour => Measure::Rate,
        Co2 => Measure::Mass,
        Distance => Measure::Distance,
        // Counts: whole already.
        Activities | Stops => Measure::Other,
    }
}

/// A figure's metric value in `units`, rounded.
pub(crate) fn figure_in(figure: Figure, metric: Option<f64>, units: UnitSystem) -> Option<f64> {
    round_opt(measure(figure), metric.map(|v| figure.value_in(units, v)))
}

/// A figure of `f` in `units`, rounded.
pub(crate) fn value_in(f: &Figures, figure: Figure, units: UnitSystem) -> Option<f64> {
    figure_in(figure, f.value(figure), units)
}

/// A rounded value as JSON: a count as a whole number, null for none.
pub(crate) fn number_json(figure: Figure, v: Option<f64>) -> Value {
    match v {
        Some(v) if figure.decimals() == 0 && v >= 0.0 => json!(v as u64),
        Some(v) => json!(v),
        None => Value::Null,
    }
}

/// A rounded value as a CSV cell: empty for none.
pub(crate) fn number_cell(figure: Figure, v: Option<f64>) -> String {
    match v {
        Some(v) if figure.decimals() == 0 && v >= 0.0 => (v as u64).to_string(),
        Some(v) => v.to_string(),
        None => String::new(),
    }
}

/// Decimals shown: those the value was rounded to, the same as in JSON
/// and CSV (a count has none).
pub(crate) fn decimals(figure: Figure) -> usize {
    match figure.decimals() {
        0 => 0,
        _ => usize::try_from(measure(figure).decimals()).unwrap_or(0),
    }
}

/// A rounded value for people: its decimals, its unit if asked, a dash
/// for none.
pub(crate) fn shown(figure: Figure, v: Option<f64>, with_unit: bool, units: UnitSystem) -> String {
    let Some(v) = v else {
        return "—".to_owned();
    };
    let decimals = decimals(figure);
    let mut s = format!("{v:.decimals$}");
    let unit = figure.unit_in(units);
    if with_unit && !unit.is_empty() {
        s.push(' ');
        s.push_str(unit);
    }
    s
}

/// A figure's header for people: its label and unit, `Fuel used (gal)`.
pub(crate) fn header(figure: Figure, units: UnitSystem) -> String {
    match figure.unit_in(units) {
        "" => figure.label().to_owned(),
        unit => format!("{} ({unit})", figure.label()),
    }
}

/// An event's value, by its key: `_percent` a percent, litres or gallons
/// a volume, coordinates degrees, seconds whole, anything else 0.001.
pub(crate) fn event_number(key: &str, v: f64) -> Option<f64> {
    let m = if key.ends_with("_percent") {
        Measure::Percent
    } else if key.ends_with("_l") || key.ends_with("_gal") {
        Measure::Volume
    } else if key == "latitude" || key == "longitude" {
        Measure::Degrees
    } else if key.ends_with("_s") {
        return v.is_finite().then(|| v.round());
    } else {
        Measure::Other
    };
    crate::export::round::round(m, v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_round_to_what_they_mean_in_the_units_chosen() {
        assert_eq!(
            figure_in(
                Figure::EngineHours,
                Some(23.009999999999998),
                UnitSystem::Metric
            ),
            Some(23.01)
        );
        // 119.14 L is 31.473... gal.
        assert_eq!(
            figure_in(Figure::FuelUsed, Some(119.14), UnitSystem::Imperial),
            Some(31.5)
        );
        assert_eq!(
            figure_in(Figure::IdlePercent, Some(12.345), UnitSystem::Metric),
            Some(12.3)
        );
        assert_eq!(figure_in(Figure::Distance, None, UnitSystem::Metric), None);
        assert_eq!(number_json(Figure::Stops, Some(3.0)), json!(3));
        assert_eq!(number_cell(Figure::Co2, None), "");
        assert_eq!(
            header(Figure::FuelUsed, UnitSystem::Imperial),
            "Fuel used (gal)"
        );
        assert_eq!(event_number("change_l", 328.04), Some(328.0));
        assert_eq!(event_number("duration_s", 59.6), Some(60.0));
        assert_eq!(event_number("latitude", 45.123_456_78), Some(45.123_457));
    }
}
