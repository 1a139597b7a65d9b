//! The job sites and depots machines work from: where they are, their
//! climate, and the streets and roads that make up addresses.

/// A job site or depot. Machines of a site work within a few hundred metres
/// of it; road trucks range over the roads around it.
#[derive(Debug)]
pub(crate) struct Site {
    pub(crate) city: &'static str,
    pub(crate) country: &'static str,
    pub(crate) postcode: &'static str,
    pub(crate) lat: f64,
    pub(crate) lon: f64,
    pub(crate) altitude_m: f64,
    /// Offset of local time from UTC, hours (standard time; good enough for
    /// the air temperature's daily swing).
    pub(crate) utc_offset_h: f64,
    /// The site's time zone as a POSIX TZ string (its IANA name in the
    /// table's comment), so that shifts do not depend on the computer's
    /// time zone database.
    pub(crate) posix_tz: &'static str,
    /// Mean annual air temperature, °C, and its seasonal swing.
    pub(crate) mean_temp_c: f64,
    pub(crate) season_amp_c: f64,
    pub(crate) streets: &'static [&'static str],
    pub(crate) roads: &'static [&'static str],
    /// Where the region's roads may lie, as seen from the site: bearings
    /// from the first, clockwise over the second, in degrees (keeps trucks
    /// out of the sea next to a port or a lakeside site).
    pub(crate) land_deg: (f64, f64),
    /// The contractor that owns most machines working from the site.
    pub(crate) company: &'static str,
}

pub(crate) static SITES: &[Site] = &[
    Site {
        city: "Lyon",
        country: "France",
        postcode: "69007",
        lat: 45.7296,
        lon: 4.8302,
        altitude_m: 168.0,
        utc_offset_h: 1.0,
        // Europe/Paris
        posix_tz: "CET-1CEST,M3.5.0,M10.5.0/3",
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
        land_deg: (0.0, 360.0),
        company: "Rhône Terrassement SA",
    },
    Site {
        city: "Hamburg",
        country: "Germany",
        postcode: "21129",
        lat: 53.5320,
        lon: 9.9000,
        altitude_m: 6.0,
        utc_offset_h: 1.0,
        // Europe/Berlin
        posix_tz: "CET-1CEST,M3.5.0,M10.5.0/3",
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
        land_deg: (0.0, 360.0),
        company: "Elbe Tiefbau GmbH",
    },
    Site {
        city: "Rotterdam",
        country: "Netherlands",
        postcode: "3198",
        lat: 51.9480,
        lon: 4.1400,
        altitude_m: 2.0,
        utc_offset_h: 1.0,
        // Europe/Amsterdam
        posix_tz: "CET-1CEST,M3.5.0,M10.5.0/3",
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
        land_deg: (45.0, 120.0),
        company: "Maas Grondwerken B.V.",
    },
    Site {
        city: "Manchester",
        country: "United Kingdom",
        postcode: "M17",
        lat: 53.4690,
        lon: -2.3200,
        altitude_m: 35.0,
        utc_offset_h: 0.0,
        // Europe/London
        posix_tz: "GMT0BST,M3.5.0/1,M10.5.0",
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
        land_deg: (300.0, 300.0),
        company: "Pennine Civils Ltd",
    },
    Site {
        city: "Madrid",
        country: "Spain",
        postcode: "28051",
        lat: 40.3700,
        lon: -3.6150,
        altitude_m: 640.0,
        utc_offset_h: 1.0,
        // Europe/Madrid
        posix_tz: "CET-1CEST,M3.5.0,M10.5.0/3",
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
        land_deg: (0.0, 360.0),
        company: "Obras Castellanas S.L.",
    },
    Site {
        city: "Chicago",
        country: "United States",
        postcode: "IL 60638",
        lat: 41.7900,
        lon: -87.7700,
        altitude_m: 185.0,
        utc_offset_h: -6.0,
        // America/Chicago
        posix_tz: "CST6CDT,M3.2.0,M11.1.0",
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
        land_deg: (185.0, 160.0),
        company: "Lakeshore Earthworks Inc.",
    },
];
