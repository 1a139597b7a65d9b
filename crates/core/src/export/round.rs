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
