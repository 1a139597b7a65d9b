//! Machine classes and models: how each class works a day, and each
//! model's make, telematics feed and consumption figures.

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Class {
    Excavator,
    WheelLoader,
    DumpTruck,
    Telehandler,
    Crane,
    Generator,
    CompactElectric,
    RoadTruck,
}

impl Class {
    pub(crate) const fn code(self) -> &'static str {
        match self {
            Class::Excavator => "EX",
            Class::WheelLoader => "WL",
            Class::DumpTruck => "DT",
            Class::Telehandler => "TH",
            Class::Crane => "CR",
            Class::Generator => "GE",
            Class::CompactElectric => "CE",
            Class::RoadTruck => "RT",
        }
    }

    /// What the service calls the class (an equipment's `category`).
    pub(crate) const fn label(self) -> &'static str {
        match self {
            Class::Excavator => "Excavator",
            Class::WheelLoader => "Wheel loader",
            Class::DumpTruck => "Dump truck",
            Class::Telehandler => "Telehandler",
            Class::Crane => "Crane",
            Class::Generator => "Generator",
            Class::CompactElectric => "Compact excavator",
            Class::RoadTruck => "Road truck",
        }
    }

    /// Machines of this class report a VIN (road vehicles) rather than a PIN.
    pub(crate) const fn has_vin(self) -> bool {
        matches!(self, Class::RoadTruck)
    }

    /// Typical travel speed of a move, km/h (low, high).
    pub(crate) const fn move_speed_kmh(self) -> (f64, f64) {
        match self {
            Class::Excavator => (2.5, 5.0),
            Class::WheelLoader => (8.0, 18.0),
            Class::DumpTruck => (15.0, 32.0),
            Class::Telehandler => (8.0, 20.0),
            Class::Crane => (3.0, 8.0),
            Class::Generator => (0.0, 0.0),
            Class::CompactElectric => (1.5, 4.0),
            Class::RoadTruck => (45.0, 72.0),
        }
    }

    /// Moves per working day (low, high, inclusive).
    pub(crate) const fn moves_per_day(self) -> (u64, u64) {
        match self {
            Class::Excavator => (1, 3),
            Class::WheelLoader => (3, 8),
            Class::DumpTruck => (4, 10),
            Class::Telehandler => (2, 6),
            Class::Crane => (1, 1),
            Class::Generator => (0, 0),
            Class::CompactElectric => (1, 3),
            Class::RoadTruck => (2, 4),
        }
    }

    /// Engine hours on a working day (low, high).
    pub(crate) const fn engine_hours(self) -> (f64, f64) {
        match self {
            Class::Generator => (8.0, 13.0),
            Class::RoadTruck => (6.0, 9.5),
            Class::CompactElectric => (3.0, 6.0),
            _ => (5.0, 8.0),
        }
    }

    /// Fraction of working (non-idle) time that drives the power take-off.
    pub(crate) const fn pto_fraction(self) -> f64 {
        match self {
            Class::Telehandler => 0.45,
            Class::Crane => 0.8,
            Class::RoadTruck => 0.15,
            _ => 0.0,
        }
    }
}

/// The order in which classes are handed out by equipment index: every block
/// of 20 machines holds the whole mix, so even a small fleet is mixed.
pub(crate) static CLASS_CYCLE: [Class; 20] = [
    Class::Excavator,
    Class::WheelLoader,
    Class::RoadTruck,
    Class::Telehandler,
    Class::DumpTruck,
    Class::Excavator,
    Class::CompactElectric,
    Class::WheelLoader,
    Class::Generator,
    Class::RoadTruck,
    Class::Excavator,
    Class::Telehandler,
    Class::Crane,
    Class::WheelLoader,
    Class::DumpTruck,
    Class::Excavator,
    Class::RoadTruck,
    Class::Telehandler,
    Class::CompactElectric,
    Class::Generator,
];

/// A machine model with its consumption figures.
#[derive(Debug)]
pub struct Model {
    pub(crate) class: Class,
    pub make: &'static str,
    pub model: &'static str,
    /// Three letters the make's serial numbers start with.
    pub(crate) serial_prefix: &'static str,
    /// Data source code of the make's telematics feed.
    pub(crate) source: &'static str,
    /// Fuel burn while working and idling, L/h (0 for electric machines).
    pub(crate) work_lph: f64,
    pub(crate) idle_lph: f64,
    /// Fuel burn at continuous rated output, L/h (the load factor's base).
    pub(crate) rated_lph: f64,
    pub tank_l: f64,
    /// Diesel exhaust fluid tank, L; 0 where there is no SCR system.
    pub(crate) def_tank_l: f64,
    /// Whether the feed reports fuel; when not, fuel and CO2 are estimated.
    pub fuel_telemetry: bool,
    /// Electric machines: battery capacity, kWh, and draw while working, kW.
    pub(crate) battery_kwh: f64,
    pub(crate) work_kw: f64,
    /// Loaders and haulers: loads per working hour and tonnes per load.
    pub(crate) loads_per_hour: f64,
    pub(crate) payload_t: f64,
}

// One row of the model table: positional arguments keep the table readable.
#[allow(clippy::too_many_arguments)]
const fn diesel(
    class: Class,
    make: &'static str,
    model: &'static str,
    serial_prefix: &'static str,
    source: &'static str,
    work_lph: f64,
    tank_l: f64,
    def_tank_l: f64,
    fuel_telemetry: bool,
) -> Model {
    Model {
        class,
        make,
        model,
        serial_prefix,
        source,
        work_lph,
        idle_lph: if work_lph < 8.0 { 1.8 } else { 4.0 },
        rated_lph: work_lph * 1.6,
        tank_l,
        def_tank_l,
        fuel_telemetry,
        battery_kwh: 0.0,
        work_kw: 0.0,
        loads_per_hour: 0.0,
        payload_t: 0.0,
    }
}

const fn hauler(base: Model, loads_per_hour: f64, payload_t: f64) -> Model {
    Model {
        loads_per_hour,
        payload_t,
        ..base
    }
}

const fn electric(
    make: &'static str,
    model: &'static str,
    serial_prefix: &'static str,
    source: &'static str,
    battery_kwh: f64,
) -> Model {
    Model {
        class: Class::CompactElectric,
        make,
        model,
        serial_prefix,
        source,
        work_lph: 0.0,
        idle_lph: 0.0,
        rated_lph: 0.0,
        tank_l: 0.0,
        def_tank_l: 0.0,
        fuel_telemetry: false,
        battery_kwh,
        // Sized so that the longest working day uses at most ~80 % of the pack.
        work_kw: battery_kwh * 0.8 / 6.5,
        loads_per_hour: 0.0,
        payload_t: 0.0,
    }
}

pub static MODELS: &[Model] = &[
    diesel(
        Class::Excavator,
        "Caterpillar",
        "320",
        "CAT",
        "CAT_VISIONLINK",
        16.0,
        410.0,
        41.0,
        true,
    ),
    diesel(
        Class::Excavator,
        "Komatsu",
        "PC210LC-11",
        "KMT",
        "KOMATSU_KOMTRAX",
        15.0,
        400.0,
        39.0,
        true,
    ),
    diesel(
        Class::Excavator,
        "Volvo",
        "EC220E",
        "VCE",
        "VOLVO_ACTIVECARE",
        15.5,
        350.0,
        30.0,
        true,
    ),
    diesel(
        Class::Excavator,
        "Hitachi",
        "ZX210LC-7",
        "HCM",
        "HITACHI_CONSITE",
        14.5,
        400.0,
        40.0,
        true,
    ),
    diesel(
        Class::Excavator,
        "John Deere",
        "210G LC",
        "1FF",
        "JOHN_DEERE_JDLINK",
        14.0,
        380.0,
        0.0,
        true,
    ),
    hauler(
        diesel(
            Class::WheelLoader,
            "Caterpillar",
            "950M",
            "CAT",
            "CAT_VISIONLINK",
            18.0,
            350.0,
            21.0,
            true,
        ),
        24.0,
        5.2,
    ),
    hauler(
        diesel(
            Class::WheelLoader,
            "Volvo",
            "L120H",
            "VCE",
            "VOLVO_ACTIVECARE",
            17.0,
            300.0,
            30.0,
            true,
        ),
        26.0,
        4.8,
    ),
    hauler(
        diesel(
            Class::WheelLoader,
            "Liebherr",
            "L 550 XPower",
            "LBH",
            "LIEBHERR_LIDAT",
            14.0,
            340.0,
            40.0,
            true,
        ),
        25.0,
        5.0,
    ),
    hauler(
        diesel(
            Class::DumpTruck,
            "Volvo",
            "A30G",
            "VCE",
            "VOLVO_ACTIVECARE",
            24.0,
            400.0,
            40.0,
            true,
        ),
        3.5,
        28.0,
    ),
    hauler(
        diesel(
            Class::DumpTruck,
            "Caterpillar",
            "730",
            "CAT",
            "CAT_VISIONLINK",
            25.0,
            500.0,
            40.0,
            true,
        ),
        3.2,
        28.0,
    ),
    hauler(
        diesel(
            Class::DumpTruck,
            "Bell",
            "B30E",
            "BLL",
            "AEMP_GENERIC",
            23.0,
            400.0,
            40.0,
            true,
        ),
        3.4,
        28.0,
    ),
    diesel(
        Class::Telehandler,
        "JCB",
        "540-140 Hi-Viz",
        "JCB",
        "JCB_LIVELINK",
        6.0,
        140.0,
        0.0,
        false,
    ),
    diesel(
        Class::Telehandler,
        "Manitou",
        "MT 1840",
        "MAN",
        "AEMP_GENERIC",
        6.5,
        130.0,
        0.0,
        false,
    ),
    diesel(
        Class::Telehandler,
        "Merlo",
        "P40.17",
        "MRL",
        "AEMP_GENERIC",
        5.5,
        125.0,
        0.0,
        false,
    ),
    diesel(
        Class::Crane,
        "Liebherr",
        "LTM 1090-4.2",
        "LBH",
        "LIEBHERR_LIDAT",
        13.0,
        400.0,
        40.0,
        false,
    ),
    diesel(
        Class::Crane,
        "Tadano",
        "AC 4.080-1",
        "TAD",
        "AEMP_GENERIC",
        12.0,
        400.0,
        30.0,
        false,
    ),
    diesel(
        Class::Generator,
        "Atlas Copco",
        "QAS 150",
        "ACP",
        "AEMP_GENERIC",
        21.0,
        430.0,
        0.0,
        true,
    ),
    diesel(
        Class::Generator,
        "Caterpillar",
        "XQ230",
        "CAT",
        "CAT_VISIONLINK",
        24.0,
        560.0,
        0.0,
        true,
    ),
    electric("Volvo", "ECR25 Electric", "VCE", "VOLVO_ACTIVECARE", 20.0),
    electric("JCB", "19C-1E", "JCB", "JCB_LIVELINK", 20.0),
    electric("Bobcat", "E10e", "BOB", "AEMP_GENERIC", 17.3),
    diesel(
        Class::RoadTruck,
        "Volvo",
        "FH 500",
        "YV2",
        "GEOTAB",
        30.0,
        700.0,
        75.0,
        true,
    ),
    diesel(
        Class::RoadTruck,
        "Scania",
        "R 450",
        "YS2",
        "SAMSARA",
        29.0,
        800.0,
        80.0,
        true,
    ),
    diesel(
        Class::RoadTruck,
        "Mercedes-Benz",
        "Arocs 3345",
        "WDB",
        "GEOTAB",
        32.0,
        390.0,
        60.0,
        true,
    ),
    diesel(
        Class::RoadTruck,
        "DAF",
        "XF 480",
        "XLR",
        "SAMSARA",
        28.0,
        845.0,
        90.0,
        true,
    ),
];

/// Sources that are GPS trackers (frequent positions while moving, keep-alives
/// while stopped) rather than OEM feeds (every 15-60 min while running).
pub(crate) fn is_tracker_source(code: &str) -> bool {
    matches!(code, "GEOTAB" | "SAMSARA")
}
