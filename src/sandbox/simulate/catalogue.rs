//! Static tables of the simulated fleet: sites, machine models, fault codes.
//! Figures follow published values for mixed construction fleets (DESIGN.md).

/// A job site or depot. Machines of a site work within `radius_m` of it;
/// road trucks range over `region_km`.
#[derive(Debug)]
pub struct Site {
    pub city: &'static str,
    pub country: &'static str,
    pub postcode: &'static str,
    pub lat: f64,
    pub lon: f64,
    pub altitude_m: f64,
    /// Offset of local time from UTC, hours (standard time; good enough to
    /// place shifts in the day).
    pub utc_offset_h: f64,
    /// Mean annual air temperature, °C, and its seasonal swing.
    pub mean_temp_c: f64,
    pub season_amp_c: f64,
    pub streets: &'static [&'static str],
    pub roads: &'static [&'static str],
}

pub static SITES: &[Site] = &[
    Site {
        city: "Lyon",
        country: "France",
        postcode: "69007",
        lat: 45.7296,
        lon: 4.8302,
        altitude_m: 168.0,
        utc_offset_h: 1.0,
        mean_temp_c: 12.5,
        season_amp_c: 9.5,
        streets: &[
            "Rue de Gerland",
            "Avenue Tony Garnier",
            "Rue Marcel Mérieux",
            "Allée Pierre de Coubertin",
            "Boulevard Chambaud de la Bruyère",
        ],
        roads: &["A7", "N7", "A46", "D307"],
    },
    Site {
        city: "Hamburg",
        country: "Germany",
        postcode: "21129",
        lat: 53.5320,
        lon: 9.9000,
        altitude_m: 6.0,
        utc_offset_h: 1.0,
        mean_temp_c: 9.5,
        season_amp_c: 8.5,
        streets: &[
            "Waltershofer Damm",
            "Köhlbranddeich",
            "Finkenwerder Straße",
            "Hafenrandstraße",
            "Am Ballinkai",
        ],
        roads: &["A7", "A1", "B73", "A26"],
    },
    Site {
        city: "Rotterdam",
        country: "Netherlands",
        postcode: "3198",
        lat: 51.9480,
        lon: 4.1400,
        altitude_m: 2.0,
        utc_offset_h: 1.0,
        mean_temp_c: 10.5,
        season_amp_c: 7.5,
        streets: &[
            "Europaweg",
            "Maasvlakteweg",
            "Yangtzekanaalweg",
            "Prinses Amaliahavenweg",
            "Missouriweg",
        ],
        roads: &["A15", "N15", "A4", "N57"],
    },
    Site {
        city: "Manchester",
        country: "United Kingdom",
        postcode: "M17",
        lat: 53.4690,
        lon: -2.3200,
        altitude_m: 35.0,
        utc_offset_h: 0.0,
        mean_temp_c: 10.0,
        season_amp_c: 6.5,
        streets: &[
            "Trafford Park Road",
            "Westinghouse Road",
            "Mosley Road",
            "Ashburton Road West",
            "Barton Dock Road",
        ],
        roads: &["M60", "M62", "A57", "M602"],
    },
    Site {
        city: "Madrid",
        country: "Spain",
        postcode: "28051",
        lat: 40.3700,
        lon: -3.6150,
        altitude_m: 640.0,
        utc_offset_h: 1.0,
        mean_temp_c: 15.0,
        season_amp_c: 10.5,
        streets: &[
            "Avenida del Ensanche de Vallecas",
            "Calle de la Gavia",
            "Camino de Valderribas",
            "Avenida de la Democracia",
            "Calle Peñaranda de Bracamonte",
        ],
        roads: &["M-40", "A-3", "M-50", "R-3"],
    },
    Site {
        city: "Chicago",
        country: "United States",
        postcode: "IL 60638",
        lat: 41.7900,
        lon: -87.7700,
        altitude_m: 185.0,
        utc_offset_h: -6.0,
        mean_temp_c: 10.0,
        season_amp_c: 14.0,
        streets: &[
            "S Cicero Ave",
            "W 59th St",
            "S Harlem Ave",
            "W 55th St",
            "S Central Ave",
        ],
        roads: &["I-55", "I-294", "IL-171", "I-90"],
    },
];

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
    pub const fn code(self) -> &'static str {
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

    /// Machines of this class report a VIN (road vehicles) rather than a PIN.
    pub const fn has_vin(self) -> bool {
        matches!(self, Class::RoadTruck)
    }

    /// Typical travel speed of a move, km/h (low, high).
    pub const fn move_speed_kmh(self) -> (f64, f64) {
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
    pub const fn moves_per_day(self) -> (u64, u64) {
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
    pub const fn engine_hours(self) -> (f64, f64) {
        match self {
            Class::Generator => (8.0, 13.0),
            Class::RoadTruck => (6.0, 9.5),
            Class::CompactElectric => (3.0, 6.0),
            _ => (5.0, 8.0),
        }
    }

    /// Fraction of working (non-idle) time that drives the power take-off.
    pub const fn pto_fraction(self) -> f64 {
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
pub static CLASS_CYCLE: [Class; 20] = [
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
    pub class: Class,
    pub make: &'static str,
    pub model: &'static str,
    /// Three letters the make's serial numbers start with.
    pub serial_prefix: &'static str,
    /// Data source code of the make's telematics feed.
    pub source: &'static str,
    /// Fuel burn while working and idling, L/h (0 for electric machines).
    pub work_lph: f64,
    pub idle_lph: f64,
    /// Fuel burn at continuous rated output, L/h (the load factor's base).
    pub rated_lph: f64,
    pub tank_l: f64,
    /// Diesel exhaust fluid tank, L; 0 where there is no SCR system.
    pub def_tank_l: f64,
    /// Whether the feed reports fuel; when not, fuel and CO2 are estimated.
    pub fuel_telemetry: bool,
    /// Electric machines: battery capacity, kWh, and draw while working, kW.
    pub battery_kwh: f64,
    pub work_kw: f64,
    /// Loaders and haulers: loads per working hour and tonnes per load.
    pub loads_per_hour: f64,
    pub payload_t: f64,
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
pub fn is_tracker_source(code: &str) -> bool {
    matches!(code, "GEOTAB" | "SAMSARA")
}

/// A diagnostic code with its description and severity (D9: -1 unknown,
/// 0 information, 1 warning, 2 error).
#[derive(Debug)]
pub struct FaultCode {
    pub identifier: &'static str,
    pub description: &'static str,
    pub severity: i64,
}

pub static DIESEL_FAULTS: &[FaultCode] = &[
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

pub static ELECTRIC_FAULTS: &[FaultCode] = &[
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
pub const fn level_label(severity: i64) -> &'static str {
    match severity {
        0 => "information",
        1 => "warning",
        2 => "error",
        _ => "unknown",
    }
}
