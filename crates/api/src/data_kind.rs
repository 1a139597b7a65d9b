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

/// The packs the platform groups data kinds in (its public reference).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KindPack {
    Essential,
    VehicleConditions,
    EnergyAndFuel,
    Activity,
    UsageHours,
    /// Fault codes are their own operation (`/faults`), not a data kind.
    FaultCodes,
    Others,
}

impl KindPack {
    /// Every pack, in the platform's order.
    pub const ALL: [KindPack; 7] = [
        KindPack::Essential,
        KindPack::VehicleConditions,
        KindPack::EnergyAndFuel,
        KindPack::Activity,
        KindPack::UsageHours,
        KindPack::FaultCodes,
        KindPack::Others,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            KindPack::Essential => "Essential",
            KindPack::VehicleConditions => "Vehicle conditions",
            KindPack::EnergyAndFuel => "Energy and fuel",
            KindPack::Activity => "Activity",
            KindPack::UsageHours => "Usage hours",
            KindPack::FaultCodes => "Fault codes",
            KindPack::Others => "Others",
        }
    }

    /// The kinds of this pack, in the service's listed order.
    pub fn kinds(self) -> impl Iterator<Item = DataKind> {
        DataKind::ALL
            .iter()
            .copied()
            .filter(move |k| k.pack() == self)
    }
}

impl DataKind {
    /// The pack the platform files this kind under.
    pub(crate) const fn pack(self) -> KindPack {
        use DataKind::*;
        match self {
            Positions | EngineCondition | CumulativeDistance | DailyDistance | PeakDailySpeed => {
                KindPack::Essential
            }
            AverageDailyEngineLoadFactor
            | BatteryLevel
            | BatteryVoltage
            | DefRemainingRatio
            | DeviceBatteryLevel
            | DeviceBatteryVoltage
            | EngineCoolantTemperature
            | EngineLoadPercentage
            | Temperature => KindPack::VehicleConditions,
            Activities
            | CumulativeLoadCount
            | CumulativePayloadTotal
            | DailyLoadCount
            | DailyPayload => KindPack::Activity,
            CumulativeOperatingHours
            | CumulativeIdleHours
            | CumulativeActiveRegenerationHours
            | CumulativePowerTakeOffHours
            | DailyUsages => KindPack::UsageHours,
            SensorBoolean => KindPack::Others,
            CumulativeFuel | CumulativeIdleFuel | DailyCo2 | DailyIdleFuel | DailyFuel
            | FuelRemaining => KindPack::EnergyAndFuel,
            // Every EV kind (`evEnergyUsed faults` too: energy, not faults).
            _ => KindPack::EnergyAndFuel,
        }
    }

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
    fn every_kind_is_in_one_pack_and_ev_kinds_are_energy() {
        let mut seen = 0;
        for pack in KindPack::ALL {
            for kind in pack.kinds() {
                assert_eq!(kind.pack(), pack);
                seen += 1;
            }
        }
        assert_eq!(seen, DataKind::ALL.len());
        for kind in DataKind::ALL.iter().filter(|k| k.is_ev()) {
            assert_eq!(kind.pack(), KindPack::EnergyAndFuel, "{kind}");
        }
        assert_eq!(KindPack::FaultCodes.kinds().count(), 0);
        assert_eq!(DataKind::CumulativeIdleHours.pack(), KindPack::UsageHours);
        assert_eq!(DataKind::Positions.pack(), KindPack::Essential);
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
