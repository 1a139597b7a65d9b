//! The diagnostic codes machines report, by drivetrain, and the level label
//! of each severity (D9).

/// A diagnostic code with its description and severity (D9: -1 unknown,
/// 0 information, 1 warning, 2 error).
#[derive(Debug)]
pub(crate) struct FaultCode {
    pub(crate) identifier: &'static str,
    pub(crate) description: &'static str,
    pub(crate) severity: i64,
}

pub(crate) static DIESEL_FAULTS: &[FaultCode] = &[
    FaultCode {
        identifier: "SPN 100 FMI 1",
        description: "Engine oil pressure low: below normal operating range, most severe",
        severity: 2,
    },
    FaultCode {
        identifier: "SPN 110 FMI 0",
        description: "Engine coolant temperature high: above normal operating range, most severe",
        severity: 2,
    },
    FaultCode {
        identifier: "SPN 110 FMI 15",
        description: "Engine coolant temperature slightly high",
        severity: 1,
    },
    FaultCode {
        identifier: "SPN 1761 FMI 18",
        description: "Aftertreatment DEF tank level low: moderately severe",
        severity: 1,
    },
    FaultCode {
        identifier: "SPN 3719 FMI 16",
        description: "Diesel particulate filter soot load high: regeneration required",
        severity: 1,
    },
    FaultCode {
        identifier: "SPN 168 FMI 1",
        description: "Battery potential (voltage) low",
        severity: 1,
    },
    FaultCode {
        identifier: "SPN 97 FMI 15",
        description: "Water in fuel indicator: slightly above normal",
        severity: 1,
    },
    FaultCode {
        identifier: "SPN 94 FMI 1",
        description: "Fuel delivery pressure low: most severe",
        severity: 2,
    },
    FaultCode {
        identifier: "SPN 190 FMI 0",
        description: "Engine speed above normal operating range",
        severity: 2,
    },
    FaultCode {
        identifier: "SPN 639 FMI 14",
        description: "J1939 network #1: special instructions",
        severity: 0,
    },
    FaultCode {
        identifier: "SPN 1569 FMI 31",
        description: "Engine protection torque derate active",
        severity: 0,
    },
    FaultCode {
        identifier: "SPN 5246 FMI 0",
        description: "SCR operator inducement severity high",
        severity: 2,
    },
    FaultCode {
        identifier: "SPN 520192 FMI 31",
        description: "Manufacturer specific: service interval reminder",
        severity: -1,
    },
];

pub(crate) static ELECTRIC_FAULTS: &[FaultCode] = &[
    FaultCode {
        identifier: "SPN 5919 FMI 0",
        description: "High-voltage battery temperature above normal",
        severity: 2,
    },
    FaultCode {
        identifier: "SPN 5920 FMI 17",
        description: "High-voltage battery state of charge slightly low",
        severity: 1,
    },
    FaultCode {
        identifier: "SPN 7895 FMI 31",
        description: "Charger communication interrupted",
        severity: 1,
    },
    FaultCode {
        identifier: "SPN 4077 FMI 14",
        description: "Isolation monitoring: special instructions",
        severity: 0,
    },
    FaultCode {
        identifier: "SPN 520210 FMI 31",
        description: "Manufacturer specific: software update available",
        severity: -1,
    },
];

/// The level label that matches a severity (D9).
pub(crate) const fn level_label(severity: i64) -> &'static str {
    match severity {
        0 => "information",
        1 => "warning",
        2 => "error",
        _ => "unknown",
    }
}
