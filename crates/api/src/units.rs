//! The service's units read into the app's (litres, kilometres, kilograms),
//! and the app's shown in the system the user chose (metric or imperial).
//! A unit the app does not know gives no value: a figure is never summed
//! from numbers in units it cannot tell apart, nor shown under a unit it
//! is not in.

use serde::{Deserialize, Serialize};

const LITRES_PER_US_GALLON: f64 = 3.785_411_784;
const LITRES_PER_IMPERIAL_GALLON: f64 = 4.546_09;
const METRES_PER_MILE: f64 = 1_609.344;
const KG_PER_LB: f64 = 0.453_592_37;

fn norm(unit: &str) -> String {
    unit.trim().to_ascii_lowercase()
}

/// A volume in litres.
pub fn litres(value: f64, unit: &str) -> Option<f64> {
    let factor = match norm(unit).as_str() {
        "l" | "litre" | "litres" | "liter" | "liters" => 1.0,
        "ml" => 0.001,
        "gal" | "gallon" | "gallons" | "us gal" | "usgal" | "gal_us" => LITRES_PER_US_GALLON,
        "imp gal" | "gal_imp" | "imperial gallon" => LITRES_PER_IMPERIAL_GALLON,
        _ => return None,
    };
    value.is_finite().then_some(value * factor)
}

/// A distance in kilometres.
pub fn kilometres(value: f64, unit: &str) -> Option<f64> {
    let factor = match norm(unit).as_str() {
        "km" | "kilometre" | "kilometres" | "kilometer" | "kilometers" => 1.0,
        "m" | "metre" | "metres" | "meter" | "meters" => 0.001,
        "mi" | "mile" | "miles" => METRES_PER_MILE / 1000.0,
        _ => return None,
    };
    value.is_finite().then_some(value * factor)
}

/// A mass in kilograms.
pub fn kilograms(value: f64, unit: &str) -> Option<f64> {
    let factor = match norm(unit).as_str() {
        "kg" | "kilogram" | "kilograms" => 1.0,
        "g" | "gram" | "grams" => 0.001,
        "t" | "tonne" | "tonnes" | "metric ton" => 1000.0,
        "lb" | "lbs" | "pound" | "pounds" => KG_PER_LB,
        _ => return None,
    };
    value.is_finite().then_some(value * factor)
}

/// A speed in km/h.
pub(crate) fn kmh(value: f64, unit: &str) -> Option<f64> {
    let factor = match norm(unit).as_str() {
        "km/h" | "kmh" | "kph" | "km/hr" | "kilometers per hour" | "kilometres per hour" => 1.0,
        "m/s" => 3.6,
        "mph" | "mi/h" | "miles per hour" => METRES_PER_MILE / 1000.0,
        _ => return None,
    };
    value.is_finite().then_some(value * factor)
}

/// A temperature in °C.
pub(crate) fn celsius(value: f64, unit: &str) -> Option<f64> {
    let c = match norm(unit).as_str() {
        "c" | "°c" | "degc" | "celsius" | "deg c" => value,
        "f" | "°f" | "degf" | "fahrenheit" | "deg f" => (value - 32.0) / 1.8,
        "k" | "kelvin" => value - 273.15,
        _ => return None,
    };
    value.is_finite().then_some(c)
}

/// A length in metres (altitudes, short distances).
pub(crate) fn metres(value: f64, unit: &str) -> Option<f64> {
    let factor = match norm(unit).as_str() {
        "m" | "metre" | "metres" | "meter" | "meters" => 1.0,
        "ft" | "feet" | "foot" => METRES_PER_FOOT,
        "km" => 1000.0,
        _ => return None,
    };
    value.is_finite().then_some(value * factor)
}

const METRES_PER_FOOT: f64 = 0.3048;

/// What a number measures, for the units it is shown in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quantity {
    /// Kilometres or miles.
    Distance,
    /// Litres or US gallons.
    Volume,
    /// Litres or US gallons an hour.
    VolumeRate,
    /// km/h or mph.
    Speed,
    /// °C or °F.
    Temperature,
    /// Kilograms or pounds.
    Mass,
    /// Metres or feet (altitude).
    Length,
}

impl Quantity {
    /// The app's own (metric) value of `value` given in the service's
    /// `unit`, if it is a unit of this quantity.
    pub fn from_service(self, value: f64, unit: &str) -> Option<f64> {
        match self {
            Quantity::Distance => kilometres(value, unit),
            Quantity::Volume => litres(value, unit),
            Quantity::VolumeRate => {
                let per_hour = norm(unit);
                let volume = per_hour
                    .strip_suffix("/h")
                    .or(per_hour.strip_suffix("ph"))?;
                litres(value, volume)
            }
            Quantity::Speed => kmh(value, unit),
            Quantity::Temperature => celsius(value, unit),
            Quantity::Mass => kilograms(value, unit),
            Quantity::Length => metres(value, unit),
        }
    }

    /// What a service's unit measures, if the app knows it.
    pub fn of_unit(unit: &str) -> Option<Quantity> {
        [
            Quantity::Speed,
            Quantity::VolumeRate,
            Quantity::Temperature,
            Quantity::Volume,
            Quantity::Mass,
            // "m" is a length (altitude) before a distance; "km" a distance.
            Quantity::Length,
            Quantity::Distance,
        ]
        .into_iter()
        .find(|q| {
            q.from_service(1.0, unit).is_some() && !(*q == Quantity::Length && norm(unit) == "km")
        })
    }
}

/// The units values are shown in: metric (the default) or imperial (miles,
/// US gallons, mph, °F, pounds, feet).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum UnitSystem {
    #[default]
    Metric,
    Imperial,
}

impl UnitSystem {
    pub const ALL: [UnitSystem; 2] = [UnitSystem::Metric, UnitSystem::Imperial];

    pub fn label(self) -> &'static str {
        match self {
            UnitSystem::Metric => "Metric (km, L, °C, kg)",
            UnitSystem::Imperial => "Imperial (mi, US gal, °F, lb)",
        }
    }

    /// The unit a quantity is shown in.
    pub fn unit(self, q: Quantity) -> &'static str {
        use Quantity as Q;
        match (self, q) {
            (UnitSystem::Metric, Q::Distance) => "km",
            (UnitSystem::Metric, Q::Volume) => "L",
            (UnitSystem::Metric, Q::VolumeRate) => "L/h",
            (UnitSystem::Metric, Q::Speed) => "km/h",
            (UnitSystem::Metric, Q::Temperature) => "°C",
            (UnitSystem::Metric, Q::Mass) => "kg",
            (UnitSystem::Metric, Q::Length) => "m",
            (UnitSystem::Imperial, Q::Distance) => "mi",
            (UnitSystem::Imperial, Q::Volume) => "gal",
            (UnitSystem::Imperial, Q::VolumeRate) => "gal/h",
            (UnitSystem::Imperial, Q::Speed) => "mph",
            (UnitSystem::Imperial, Q::Temperature) => "°F",
            (UnitSystem::Imperial, Q::Mass) => "lb",
            (UnitSystem::Imperial, Q::Length) => "ft",
        }
    }

    /// A metric value (km, L, L/h, km/h, °C, kg, m) in this system.
    pub fn from_metric(self, q: Quantity, metric: f64) -> f64 {
        use Quantity as Q;
        match self {
            UnitSystem::Metric => metric,
            UnitSystem::Imperial => match q {
                Q::Distance | Q::Speed => metric * 1000.0 / METRES_PER_MILE,
                Q::Volume | Q::VolumeRate => metric / LITRES_PER_US_GALLON,
                Q::Temperature => metric * 1.8 + 32.0,
                Q::Mass => metric / KG_PER_LB,
                Q::Length => metric / METRES_PER_FOOT,
            },
        }
    }

    /// How values in the service's `unit` convert to their quantity's unit
    /// in this system, and that unit; `None` for a unit the app does not
    /// know.
    pub fn conversion(self, unit: &str) -> Option<(Conversion, &'static str)> {
        let q = Quantity::of_unit(unit)?;
        let shown = |v: f64| Some(self.from_metric(q, q.from_service(v, unit)?));
        let (zero, one) = (shown(0.0)?, shown(1.0)?);
        Some((
            Conversion {
                factor: one - zero,
                offset: zero,
            },
            self.unit(q),
        ))
    }

    /// A value given in the service's `unit`, in this system, with the
    /// unit it is then in; a unit the app does not know stays as given.
    pub fn from_service(self, value: f64, unit: &str) -> (f64, String) {
        match Quantity::of_unit(unit).and_then(|q| Some((q, q.from_service(value, unit)?))) {
            Some((q, metric)) => (self.from_metric(q, metric), self.unit(q).to_owned()),
            None => (value, unit.trim().to_owned()),
        }
    }
}

/// A conversion between units: a factor and an offset (every one the app
/// makes is affine; °F has the offset), so a min and a max stay a min and
/// a max, and a difference takes the factor alone.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Conversion {
    pub(crate) factor: f64,
    pub(crate) offset: f64,
}

impl Conversion {
    pub const SAME: Conversion = Conversion {
        factor: 1.0,
        offset: 0.0,
    };

    pub fn apply(self, v: f64) -> f64 {
        v * self.factor + self.offset
    }

    /// A difference of two values.
    pub fn apply_to_change(self, d: f64) -> f64 {
        d * self.factor
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn imperial_values_are_the_metric_ones_converted() {
        let i = UnitSystem::Imperial;
        let close = |a: f64, b: f64| (a - b).abs() < 1e-9 * b.abs().max(1.0);
        assert!(close(i.from_metric(Quantity::Distance, 1.609_344), 1.0));
        assert!(close(
            i.from_metric(Quantity::Speed, 100.0),
            62.137_119_223_733_4
        ));
        assert!(close(i.from_metric(Quantity::Volume, 3.785_411_784), 1.0));
        assert!(close(
            i.from_metric(Quantity::VolumeRate, 37.854_117_84),
            10.0
        ));
        assert!(close(i.from_metric(Quantity::Temperature, 100.0), 212.0));
        assert!(close(i.from_metric(Quantity::Temperature, -40.0), -40.0));
        assert!(close(i.from_metric(Quantity::Mass, 0.453_592_37), 1.0));
        assert!(close(i.from_metric(Quantity::Length, 0.3048), 1.0));
        for q in [Quantity::Distance, Quantity::Temperature, Quantity::Mass] {
            assert_eq!(UnitSystem::Metric.from_metric(q, 12.5), 12.5);
        }
    }

    #[test]
    fn a_conversion_is_a_factor_and_an_offset() {
        let (c, unit) = UnitSystem::Imperial.conversion("km/h").expect("known");
        assert_eq!(unit, "mph");
        assert!((c.apply(100.0) - 62.137_119_223_733_4).abs() < 1e-9);
        let (c, unit) = UnitSystem::Imperial.conversion("°C").expect("known");
        assert_eq!(unit, "°F");
        assert!((c.apply(100.0) - 212.0).abs() < 1e-9 && (c.apply(0.0) - 32.0).abs() < 1e-9);
        assert!(
            (c.apply_to_change(10.0) - 18.0).abs() < 1e-9,
            "a difference: no offset"
        );
        assert_eq!(
            UnitSystem::Metric.conversion("L"),
            Some((Conversion::SAME, "L"))
        );
        assert_eq!(UnitSystem::Imperial.conversion("%"), None);
        assert_eq!(UnitSystem::Imperial.conversion(""), None);
    }

    #[test]
    fn the_services_units_are_read_never_assumed() {
        let (m, i) = (UnitSystem::Metric, UnitSystem::Imperial);
        assert_eq!(m.from_service(12.0, "km"), (12.0, "km".to_owned()));
        let (v, u) = i.from_service(16.093_44, "km");
        assert!((v - 10.0).abs() < 1e-9 && u == "mi");
        // Already in miles: shown as miles, or as km.
        assert_eq!(i.from_service(10.0, "mi"), (10.0, "mi".to_owned()));
        let (v, u) = m.from_service(10.0, "mi");
        assert!((v - 16.093_44).abs() < 1e-9 && u == "km");
        assert_eq!(i.from_service(0.0, "C").1, "°F");
        assert!((i.from_service(0.0, "°C").0 - 32.0).abs() < 1e-9);
        assert_eq!(m.from_service(2.0, "L/h"), (2.0, "L/h".to_owned()));
        assert_eq!(i.from_service(1.0, "m").1, "ft", "an altitude");
        // A unit the app does not know stays as the service gave it.
        assert_eq!(i.from_service(3.0, "furlong"), (3.0, "furlong".to_owned()));
        assert_eq!(i.from_service(3.0, "%"), (3.0, "%".to_owned()));
    }

    #[test]
    fn known_units_convert_and_unknown_ones_give_nothing() {
        assert_eq!(litres(12.5, "L"), Some(12.5));
        assert_eq!(litres(2.0, " Litres "), Some(2.0));
        assert!((litres(1.0, "gal").unwrap() - 3.785_411_784).abs() < 1e-12);
        assert_eq!(litres(1.0, "barrel"), None);
        assert_eq!(litres(1.0, ""), None);
        assert_eq!(litres(f64::NAN, "L"), None);
        assert_eq!(kilometres(1500.0, "m"), Some(1.5));
        assert!((kilometres(1.0, "mi").unwrap() - 1.609_344).abs() < 1e-12);
        assert_eq!(kilograms(2.0, "t"), Some(2000.0));
        assert_eq!(kilograms(2.0, "kg"), Some(2.0));
        assert_eq!(kilograms(2.0, "furlong"), None);
    }
}
