//! What people call a kind's channels: `Fuel remaining`, `CO2`,
//! `Distance`, `Operating hours`, never the field paths the decoder names
//! them by (`percent`, `weight`, `cumulativeDistance.odometer`). One place,
//! for the plots' legends and axes and the exports' menus.

use fleetview_api::DataKind;

/// Field names that hold a row's value rather than say what it is (D7):
/// such a field is named after its kind, or after the member holding it.
const VALUE_FIELDS: [&str; 20] = [
    "percent",
    "voltage",
    "temperature",
    "current",
    "energy",
    "power",
    "state",
    "value",
    "hour",
    "hours",
    "fuelUsed",
    "odometer",
    "weight",
    "payload",
    "count",
    "speed",
    "rate",
    "level",
    "running",
    "ratio",
];

/// What a kind's main value is called: its name without "Daily" or
/// "Cumulative" (the kind says that), a few made shorter.
pub fn value_name(kind: DataKind) -> String {
    match kind {
        DataKind::EngineCoolantTemperature => return "Coolant temperature".to_owned(),
        DataKind::EngineCondition => return "Engine".to_owned(),
        DataKind::AverageDailyEngineLoadFactor => return "Engine load factor".to_owned(),
        DataKind::PeakDailySpeed => return "Peak speed".to_owned(),
        DataKind::SensorBoolean => return "Sensor".to_owned(),
        _ => {}
    }
    let name = kind.display_name();
    let short = name
        .strip_prefix("Daily ")
        .or_else(|| name.strip_prefix("Cumulative "))
        .unwrap_or(name);
    capitalised(short)
}

/// What a channel (a field path such as `percent` or
/// `operatingHours.hour`) of `kind` is called.
pub fn channel_name(kind: DataKind, path: &str) -> String {
    let segments: Vec<&str> = path.split('.').filter(|s| !s.is_empty()).collect();
    match segments.as_slice() {
        [] => value_name(kind),
        [only] if is_value_field(only) => value_name(kind),
        [only] => words(only),
        [.., member, last] if is_value_field(last) => member_name(member),
        [.., last] => words(last),
    }
}

/// Whether `path` is the kind's main value (named like the kind itself).
pub(crate) fn is_main_value(kind: DataKind, path: &str) -> bool {
    channel_name(kind, path) == value_name(kind)
}

/// A channel named with its kind, for a menu or a message: the kind's
/// own value by the kind's name (`Fuel remaining`, `Daily CO2`), another
/// after it (`Cumulative operating hours: Usage hours`).
pub fn titled(kind: DataKind, path: &str) -> String {
    if is_main_value(kind, path) {
        kind.display_name().to_owned()
    } else {
        format!("{}: {}", kind.display_name(), channel_name(kind, path))
    }
}

/// A channel's name with its unit: `Fuel remaining (%)`, `Engine`.
pub fn with_unit(name: &str, unit: &str) -> String {
    if unit.is_empty() {
        name.to_owned()
    } else {
        format!("{name} ({unit})")
    }
}

/// A daily usage column (`operatingHours.hour`, `cumulativeFuelUsed.fuelUsed`)
/// as people read it: `Operating hours`, `Total fuel used`.
pub(crate) fn daily_name(path: &str) -> String {
    let segments: Vec<&str> = path.split('.').filter(|s| !s.is_empty()).collect();
    let field = match segments.as_slice() {
        // The service's `DEFRemainingRatio` holds a percent: named as one
        // (its unit says %), never as a ratio.
        [.., member, "percent"] => member.strip_suffix("Ratio").unwrap_or(member),
        [.., member, last] if is_value_field(last) => member,
        // The DEF tank's capacity, not the fuel tank's.
        [.., member, "tankCapacity"] if member.starts_with("DEF") => {
            return "DEF tank capacity".to_owned();
        }
        [.., last] => last,
        [] => return path.to_owned(),
    };
    if field.eq_ignore_ascii_case("co2") {
        return "CO2".to_owned();
    }
    match field.strip_prefix("cumulative").filter(|r| !r.is_empty()) {
        Some(rest) => format!("Total {}", words(rest).to_lowercase()),
        None => member_name(field),
    }
}

/// The unit a field's name implies when the row gives none: hours, named
/// `hour` or `hours` (real rows use both, D7) or `...Hours` (`usageHours`).
pub fn implied_unit(path: &str) -> Option<&'static str> {
    let last = path.rsplit('.').next().unwrap_or(path);
    let hours =
        matches!(last, "hour" | "hours") || last.ends_with("Hours") || last.ends_with("Hour");
    if hours {
        Some("h")
    } else if last == "percent" {
        // A percent, whatever its kind calls it (`DEFRemainingRatio`).
        Some("%")
    } else {
        None
    }
}

fn is_value_field(field: &str) -> bool {
    VALUE_FIELDS.contains(&field)
}

/// A daily-usage member (`cumulativeFuelUsed`, `operatingHours`): its
/// words, a running total said as such.
fn member_name(member: &str) -> String {
    if let Some(rest) = member.strip_prefix("cumulative").filter(|r| !r.is_empty()) {
        return format!("{} (total)", words(rest));
    }
    let name = words(member);
    for (prefix, keep) in [
        ("Daily ", ""),
        ("Average daily ", ""),
        ("Peak daily ", "Peak "),
    ] {
        if let Some(rest) = name.strip_prefix(prefix) {
            return capitalised(&format!("{keep}{rest}"));
        }
    }
    name
}

/// `usageHours` as `Usage hours`, `CO2` and `EV` kept in capitals.
fn words(field: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut word = String::new();
    let chars: Vec<char> = field.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        let next_lower = chars.get(i + 1).is_some_and(|n| n.is_lowercase());
        let prev_lower = i > 0 && (chars[i - 1].is_lowercase() || chars[i - 1].is_ascii_digit());
        // A word starts at a capital after a small letter (`usageHours`), or
        // at the last capital of a run followed by small ones (`EVBattery`).
        if c.is_uppercase() && !word.is_empty() && (prev_lower || next_lower) {
            out.push(std::mem::take(&mut word));
        }
        if c == '_' || c == ' ' {
            if !word.is_empty() {
                out.push(std::mem::take(&mut word));
            }
            continue;
        }
        word.push(c);
    }
    if !word.is_empty() {
        out.push(word);
    }
    let words: Vec<String> = out
        .into_iter()
        .map(|w| {
            if w.len() > 1 && w.chars().all(|c| c.is_uppercase() || c.is_ascii_digit()) {
                w // an acronym: CO2, EV, PTO
            } else {
                w.to_lowercase()
            }
        })
        .collect();
    capitalised(&words.join(" "))
}

fn capitalised(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn daily_columns_read_as_words_with_their_unit() {
        assert_eq!(daily_name("operatingHours.hour"), "Operating hours");
        assert_eq!(daily_name("cumulativeFuelUsed.fuelUsed"), "Total fuel used");
        assert_eq!(daily_name("dailyDistance.odometer"), "Distance");
        assert_eq!(daily_name("co2.weight"), "CO2");
        assert_eq!(implied_unit("idleHours.hour"), Some("h"));
        assert_eq!(implied_unit("fuelUsed.fuelUsed"), None);
    }

    #[test]
    fn percents_read_as_percents_not_ratios() {
        // The service's `DEFRemainingRatio` holds a percent (86.5).
        assert_eq!(daily_name("DEFRemainingRatio.percent"), "DEF remaining");
        assert_eq!(implied_unit("DEFRemainingRatio.percent"), Some("%"));
        assert_eq!(
            daily_name("DEFRemainingRatio.tankCapacity"),
            "DEF tank capacity"
        );
        assert_eq!(
            implied_unit("averageDailyEngineLoadFactor.percent"),
            Some("%")
        );
        assert_eq!(implied_unit("percent"), Some("%"));
    }

    use super::*;

    #[test]
    fn main_values_are_named_after_their_kind() {
        assert_eq!(
            channel_name(DataKind::FuelRemaining, "percent"),
            "Fuel remaining"
        );
        assert_eq!(channel_name(DataKind::DailyCo2, "weight"), "CO2");
        assert_eq!(
            channel_name(DataKind::CumulativeDistance, "odometer"),
            "Distance"
        );
        assert_eq!(
            channel_name(DataKind::DailyDistance, "odometer"),
            "Distance"
        );
        assert_eq!(
            channel_name(DataKind::EngineCoolantTemperature, "temperature"),
            "Coolant temperature"
        );
        assert_eq!(
            channel_name(DataKind::BatteryVoltage, "voltage"),
            "Battery voltage"
        );
        assert_eq!(
            channel_name(DataKind::CumulativeFuel, "fuelUsed"),
            "Fuel used"
        );
        assert_eq!(
            channel_name(DataKind::CumulativeIdleHours, "hours"),
            "Idle hours"
        );
        assert_eq!(channel_name(DataKind::EngineCondition, "running"), "Engine");
        assert_eq!(
            channel_name(DataKind::EvChargingState, "state"),
            "EV charging state"
        );
        assert!(is_main_value(DataKind::DailyCo2, "weight"));
    }

    #[test]
    fn other_fields_and_members_read_as_words() {
        let k = DataKind::CumulativeOperatingHours;
        assert_eq!(channel_name(k, "hour"), "Operating hours");
        assert_eq!(channel_name(k, "usageHours"), "Usage hours");
        assert!(!is_main_value(k, "usageHours"));
        let d = DataKind::DailyUsages;
        assert_eq!(channel_name(d, "operatingHours.hour"), "Operating hours");
        assert_eq!(channel_name(d, "fuelUsed.fuelUsed"), "Fuel used");
        assert_eq!(channel_name(d, "dailyDistance.odometer"), "Distance");
        assert_eq!(
            channel_name(d, "cumulativeFuelUsed.fuelUsed"),
            "Fuel used (total)"
        );
        assert_eq!(
            channel_name(d, "cumulativeDistance.odometer"),
            "Distance (total)"
        );
        assert_eq!(channel_name(d, "peakDailySpeed.speed"), "Peak speed");
        assert_eq!(
            channel_name(d, "averageDailyEngineLoadFactor.percent"),
            "Engine load factor"
        );
        assert_eq!(channel_name(d, "dailyCO2.weight"), "CO2");
        assert_eq!(channel_name(d, "someEVThing"), "Some EV thing");
        assert_eq!(channel_name(d, "a.b.weirdField"), "Weird field");
        assert_eq!(channel_name(d, ""), "Usages");
    }

    #[test]
    fn hour_and_hours_read_alike() {
        for (kind, path, name) in [
            (
                DataKind::CumulativeOperatingHours,
                "hour",
                "Operating hours",
            ),
            (
                DataKind::CumulativeOperatingHours,
                "hours",
                "Operating hours",
            ),
            (DataKind::CumulativeIdleHours, "hours", "Idle hours"),
            (DataKind::CumulativeIdleHours, "hour", "Idle hours"),
            (
                DataKind::CumulativeActiveRegenerationHours,
                "hours",
                "Active regeneration hours",
            ),
            (
                DataKind::CumulativePowerTakeOffHours,
                "hours",
                "Power take-off hours",
            ),
        ] {
            assert_eq!(channel_name(kind, path), name, "{kind:?} {path}");
            assert!(is_main_value(kind, path));
        }
        for path in ["hour", "hours", "usageHours", "idleHours.hour"] {
            assert_eq!(implied_unit(path), Some("h"), "{path}");
        }
        assert_eq!(implied_unit("count"), None);
    }

    #[test]
    fn titles_name_the_kind_once() {
        assert_eq!(titled(DataKind::FuelRemaining, "percent"), "Fuel remaining");
        assert_eq!(titled(DataKind::DailyCo2, "weight"), "Daily CO2");
        assert_eq!(
            titled(DataKind::CumulativeOperatingHours, "usageHours"),
            "Cumulative operating hours: Usage hours"
        );
    }

    #[test]
    fn names_take_their_unit() {
        assert_eq!(with_unit("Fuel remaining", "%"), "Fuel remaining (%)");
        assert_eq!(with_unit("Engine", ""), "Engine");
    }
}
