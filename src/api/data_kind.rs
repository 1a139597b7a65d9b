//! The `{dataKind}` path parameter: every value the service lists, spelled
//! exactly, plus `dailyFuel` (named only in a response description, D6).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

macro_rules! data_kinds {
    ($($variant:ident => $wire:literal, $name:literal, $unit:literal;)*) => {
        /// One data kind of the `/v2/fleet/equipments/{id}/{dataKind}` operation.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum DataKind {
            $($variant,)*
        }

        impl DataKind {
            /// Every kind, in the service's listed order, `DailyFuel` last.
            pub const ALL: &'static [DataKind] = &[$(DataKind::$variant,)*];

            /// The exact wire string (the path segment before URL encoding).
            pub const fn wire(self) -> &'static str {
                match self {
                    $(DataKind::$variant => $wire,)*
                }
            }

            /// A short human-readable name.
            pub const fn display_name(self) -> &'static str {
                match self {
                    $(DataKind::$variant => $name,)*
                }
            }

            /// The unit of the kind's main value, empty when it has none
            /// (counts, states, or kinds with structured rows).
            pub const fn unit(self) -> &'static str {
                match self {
                    $(DataKind::$variant => $unit,)*
                }
            }
        }

        impl FromStr for DataKind {
            type Err = UnknownDataKind;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                match s {
                    $($wire => Ok(DataKind::$variant),)*
                    other => Err(UnknownDataKind(other.to_owned())),
                }
            }
        }
    };
}

data_kinds! {
    Activities => "activities", "Activities", "";
    AverageDailyEngineLoadFactor => "averageDailyEngineLoadFactor", "Average daily engine load factor", "%";
    BatteryLevel => "batteryLevel", "Battery level", "%";
    BatteryVoltage => "batteryVoltage", "Battery voltage", "V";
    CumulativeActiveRegenerationHours => "cumulativeActiveRegenerationHours", "Cumulative active regeneration hours", "h";
    CumulativeDistance => "cumulativeDistance", "Cumulative distance", "km";
    CumulativeFuel => "cumulativeFuel", "Cumulative fuel used", "L";
    CumulativeIdleFuel => "cumulativeIdleFuel", "Cumulative idle fuel", "L";
    CumulativeIdleHours => "cumulativeIdleHours", "Cumulative idle hours", "h";
    CumulativeLoadCount => "cumulativeLoadCount", "Cumulative load count", "";
    CumulativeOperatingHours => "cumulativeOperatingHours", "Cumulative operating hours", "h";
    CumulativePayloadTotal => "cumulativePayloadTotal", "Cumulative payload", "t";
    CumulativePowerTakeOffHours => "cumulativePowerTakeOffHours", "Cumulative power take-off hours", "h";
    DailyCo2 => "dailyCO2", "Daily CO2", "kg";
    DailyDistance => "dailyDistance", "Daily distance", "km";
    DailyEvEnergyUsed => "dailyEvEnergyUsed", "Daily EV energy used", "kWh";
    DailyIdleFuel => "dailyIdleFuel", "Daily idle fuel", "L";
    DailyLoadCount => "dailyLoadCount", "Daily load count", "";
    DailyPayload => "dailyPayload", "Daily payload", "t";
    DailyUsages => "dailyUsages", "Daily usages", "";
    DefRemainingRatio => "defRemainingRatio", "DEF remaining", "%";
    DeviceBatteryLevel => "deviceBatteryLevel", "Device battery level", "%";
    DeviceBatteryVoltage => "deviceBatteryVoltage", "Device battery voltage", "V";
    EngineCondition => "engineCondition", "Engine condition", "";
    EngineCoolantTemperature => "engineCoolantTemperature", "Engine coolant temperature", "°C";
    EngineLoadPercentage => "engineLoadPercentage", "Engine load", "%";
    EvBatteryChargeCyclesCount => "evBatteryChargeCyclesCount", "EV battery charge cycles", "";
    EvBatteryCurrent => "evBatteryCurrent", "EV battery current", "A";
    EvBatteryHealth => "evBatteryHealth", "EV battery health", "%";
    EvBatteryLevel => "evBatteryLevel", "EV battery level", "%";
    EvBatteryTemperature => "evBatteryTemperature", "EV battery temperature", "°C";
    EvBatteryVoltage => "evBatteryVoltage", "EV battery voltage", "V";
    EvChargingRate => "evChargingRate", "EV charging rate", "kW";
    EvChargingState => "evChargingState", "EV charging state", "";
    EvDischargingRate => "evDischargingRate", "EV discharging rate", "kW";
    EvEnergyCharged => "evEnergyCharged", "EV energy charged", "kWh";
    EvEnergyUsedFaults => "evEnergyUsed faults", "EV energy used", "kWh";
    FuelRemaining => "fuelRemaining", "Fuel remaining", "%";
    PeakDailySpeed => "peakDailySpeed", "Peak daily speed", "km/h";
    Positions => "positions", "Positions", "";
    SensorBoolean => "sensorBoolean", "Sensor (boolean)", "";
    Temperature => "temperature", "Ambient temperature", "°C";
    DailyFuel => "dailyFuel", "Daily fuel used", "L";
}

impl DataKind {
    /// Kinds that only an electric machine reports.
    pub const fn is_ev(self) -> bool {
        matches!(
            self,
            DataKind::DailyEvEnergyUsed
                | DataKind::EvBatteryChargeCyclesCount
                | DataKind::EvBatteryCurrent
                | DataKind::EvBatteryHealth
                | DataKind::EvBatteryLevel
                | DataKind::EvBatteryTemperature
                | DataKind::EvBatteryVoltage
                | DataKind::EvChargingRate
                | DataKind::EvChargingState
                | DataKind::EvDischargingRate
                | DataKind::EvEnergyCharged
                | DataKind::EvEnergyUsedFaults
        )
    }

    /// Kinds with one row per day (dated 00:00:00Z).
    pub const fn is_daily(self) -> bool {
        matches!(
            self,
            DataKind::AverageDailyEngineLoadFactor
                | DataKind::DailyCo2
                | DataKind::DailyDistance
                | DataKind::DailyEvEnergyUsed
                | DataKind::DailyIdleFuel
                | DataKind::DailyLoadCount
                | DataKind::DailyPayload
                | DataKind::DailyUsages
                | DataKind::PeakDailySpeed
                | DataKind::EvEnergyCharged
                | DataKind::DailyFuel
        )
    }

    /// The path segment, percent-encoded (only the space of
    /// `evEnergyUsed faults` needs it).
    pub fn path_segment(self) -> String {
        self.wire().replace(' ', "%20")
    }
}

impl fmt::Display for DataKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.wire())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown data kind '{0}'")]
pub struct UnknownDataKind(pub String);

impl Serialize for DataKind {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.wire())
    }
}

impl<'de> Deserialize<'de> for DataKind {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The list as printed in the service description, in order.
    const LISTED: &str = "activities, averageDailyEngineLoadFactor, batteryLevel, batteryVoltage, \
        cumulativeActiveRegenerationHours, cumulativeDistance, cumulativeFuel, cumulativeIdleFuel, \
        cumulativeIdleHours, cumulativeLoadCount, cumulativeOperatingHours, cumulativePayloadTotal, \
        cumulativePowerTakeOffHours, dailyCO2, dailyDistance, dailyEvEnergyUsed, dailyIdleFuel, \
        dailyLoadCount, dailyPayload, dailyUsages, defRemainingRatio, deviceBatteryLevel, \
        deviceBatteryVoltage, engineCondition, engineCoolantTemperature, engineLoadPercentage, \
        evBatteryChargeCyclesCount, evBatteryCurrent, evBatteryHealth, evBatteryLevel, \
        evBatteryTemperature, evBatteryVoltage, evChargingRate, evChargingState, \
        evDischargingRate, evEnergyCharged, evEnergyUsed faults, fuelRemaining, peakDailySpeed, \
        positions, sensorBoolean, temperature";

    #[test]
    fn every_listed_kind_is_spelled_exactly_and_in_order() {
        let listed: Vec<&str> = LISTED.split(", ").collect();
        assert_eq!(listed.len(), 42);
        let ours: Vec<&str> = DataKind::ALL.iter().map(|k| k.wire()).collect();
        assert_eq!(&ours[..42], &listed[..]);
        assert_eq!(ours[42], "dailyFuel");
        assert_eq!(ours.len(), 43);
    }

    #[test]
    fn round_trips_through_wire_string_and_serde() {
        for &kind in DataKind::ALL {
            assert_eq!(kind.wire().parse::<DataKind>(), Ok(kind));
            let json = serde_json::to_string(&kind).unwrap_or_default();
            assert_eq!(json, format!("\"{}\"", kind.wire()));
            assert_eq!(serde_json::from_str::<DataKind>(&json).ok(), Some(kind));
            assert!(!kind.display_name().is_empty());
        }
    }

    #[test]
    fn near_misses_are_rejected() {
        for bad in [
            "evEnergyUsed",
            "evEnergyUsedFaults",
            "dailyco2",
            "Positions",
            "faults",
            "",
        ] {
            assert!(bad.parse::<DataKind>().is_err(), "{bad}");
        }
        assert_eq!(
            DataKind::EvEnergyUsedFaults.path_segment(),
            "evEnergyUsed%20faults"
        );
    }
}
