//! The service's units read into the app's (litres, kilometres, kilograms).
//! A unit the app does not know gives no value: a figure is never summed
//! from numbers in units it cannot tell apart.

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

#[cfg(test)]
mod tests {
    use super::*;

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
