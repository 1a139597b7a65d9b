//! Machine identity as a pure function of the equipment index, plus the
//! geography every generator shares.

use super::catalogue::models::{CLASS_CYCLE, Class, MODELS, Model, is_tracker_source};
use super::catalogue::sites::{SITES, Site};
pub(crate) use super::random::{Rng, hash2, hash3, mix, unit};
use super::roads;
pub use fleetview_api::geo::{LatLon, bearing_deg, haversine_m};
use fleetview_api::time::{civil_from_days, days_from_civil};

/// Equipment ids start here; the fleet is ids `FIRST_ID..FIRST_ID + size`.
pub const FIRST_ID: i64 = 1001;

// --------------------------------------------------------------- geography

/// A position rounded to 6 decimals (~0.1 m), as positions are reported.
pub(crate) fn rounded(p: LatLon) -> LatLon {
    LatLon {
        lat: round_to(p.lat, 1e6),
        lon: round_to(p.lon, 1e6),
    }
}

#[inline]
pub(crate) fn round_to(v: f64, scale: f64) -> f64 {
    (v * scale).round() / scale
}

/// A readable address near a point: a street number on the nearest site's
/// streets when close to it, otherwise a road and distance from its city.
pub fn address(p: LatLon) -> String {
    let (site, dist_m) = SITES
        .iter()
        .map(|s| {
            (
                s,
                haversine_m(
                    p,
                    LatLon {
                        lat: s.lat,
                        lon: s.lon,
                    },
                ),
            )
        })
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .unwrap_or((&SITES[0], 0.0));
    let cell = hash2(
        (p.lat * 1000.0).round() as i64 as u64,
        (p.lon * 1000.0).round() as i64 as u64,
    );
    if dist_m < 3_000.0 {
        let street = site.streets[(cell % site.streets.len() as u64) as usize];
        let number = 1 + (cell >> 20) % 180;
        format!(
            "{number} {street}, {} {}, {}",
            site.postcode, site.city, site.country
        )
    } else {
        let road = site.roads[(cell % site.roads.len() as u64) as usize];
        let dir = compass(bearing_deg(
            LatLon {
                lat: site.lat,
                lon: site.lon,
            },
            p,
        ));
        format!(
            "{road}, {:.0} km {dir} of {}, {}",
            dist_m / 1000.0,
            site.city,
            site.country
        )
    }
}

fn compass(bearing: f64) -> &'static str {
    const NAMES: [&str; 8] = [
        "north",
        "north-east",
        "east",
        "south-east",
        "south",
        "south-west",
        "west",
        "north-west",
    ];
    NAMES[(((bearing + 22.5) / 45.0) as usize) % 8]
}

// ----------------------------------------------------------------- machine

/// How a machine's feed reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Feed {
    /// An OEM feed (AEMP / ISO 15143-3): a report every `period_secs` while
    /// the engine runs, nothing while it is off.
    Oem { period_secs: i64 },
    /// A GPS tracker: positions every `moving_secs` while running, a
    /// keep-alive every `keepalive_secs` while stopped.
    Tracker {
        moving_secs: i64,
        keepalive_secs: i64,
    },
}

impl Feed {
    /// Period of sensor reports (gauges, counters) while the engine runs.
    pub(crate) fn sensor_period_secs(self) -> i64 {
        match self {
            Feed::Oem { period_secs } => period_secs,
            // Trackers relay the truck's FMS figures every 15 minutes.
            Feed::Tracker { .. } => 900,
        }
    }
}

/// One simulated machine: everything about it is derived from its index.
#[derive(Debug, Clone)]
pub struct Machine {
    pub id: i64,
    pub(crate) seed: u64,
    pub(crate) model: &'static Model,
    pub(crate) site: &'static Site,
    pub name: String,
    pub serial_number: String,
    pub(crate) pin: Option<String>,
    pub(crate) vin: Option<String>,
    /// First day (days since 1970-01-01) with data.
    pub(crate) commissioned_day: i64,
    pub feed: Feed,
    /// Where the machine is parked when it has no other place to be.
    pub(crate) home: LatLon,
    /// Counters at commissioning (machines are sometimes bought used).
    pub(crate) base_hours: f64,
    pub(crate) base_km: f64,
    pub(crate) base_loads: i64,
    pub(crate) base_cycles: f64,
}

/// The company that owns machines at every site and hires them out.
pub(crate) const RENTAL_COMPANY: &str = "Fleetline Equipment Rental";

const VIN_CHARS: &[u8] = b"ABCDEFGHJKLMNPRSTUVWXYZ0123456789";

impl Machine {
    /// The machine with the given id in a fleet of `fleet_size`, if any.
    pub(crate) fn by_id(id: i64, fleet_size: u64) -> Option<Self> {
        let index = id.checked_sub(FIRST_ID)?;
        if index < 0 || index as u64 >= fleet_size {
            return None;
        }
        Some(Self::at_index(index as u64))
    }

    pub fn at_index(index: u64) -> Self {
        let seed = hash2(0xF1EE_7E1E, index);
        // One generator for the whole identity, drawn from in this order:
        // model, site, commissioning day, feed, home, counters.
        let mut rng = Rng::new(seed);
        let class = CLASS_CYCLE[(index % CLASS_CYCLE.len() as u64) as usize];
        let models: Vec<&'static Model> = MODELS.iter().filter(|m| m.class == class).collect();
        let model = models[rng.int(0, models.len() as u64 - 1) as usize];
        let site = &SITES[rng.int(0, SITES.len() as u64 - 1) as usize];
        let (serial_number, pin, vin) = plate_codes(model, seed);
        let name = format!(
            "{}-{:03} {} {} ({})",
            class.code(),
            index + 1,
            model.make,
            model.model,
            site.city
        );

        // Commissioned between 2019-01-01 and 2024-06-30.
        let first = days_from_civil(2019, 1, 1);
        let last = days_from_civil(2024, 6, 30);
        let commissioned_day = first + rng.int(0, (last - first) as u64) as i64;
        let feed = feed_of(model, index, &mut rng);
        let home = home_of(model, site, &mut rng);
        let (base_hours, base_km, base_loads) = base_counters(model, &mut rng);

        Self {
            id: FIRST_ID + index as i64,
            seed,
            model,
            site,
            name,
            serial_number,
            pin,
            vin,
            commissioned_day,
            feed,
            home,
            base_hours,
            base_km,
            base_loads,
            base_cycles: 0.0,
        }
    }

    pub fn class(&self) -> Class {
        self.model.class
    }

    /// The class as the service names it (`category`).
    pub(crate) fn category(&self) -> &'static str {
        self.class().label()
    }

    /// Model year: the year it was commissioned, or the year before; a
    /// machine bought used is a few years older. Drawn from its own hashes,
    /// so the identity drawn before stays as it was.
    pub(crate) fn year(&self) -> i32 {
        let (commissioned, _, _) = civil_from_days(self.commissioned_day);
        let h = hash2(self.seed, 0x7EA2);
        let age = if self.base_hours > 0.0 {
            1 + h % 8
        } else {
            h % 2
        };
        (commissioned - age as i64) as i32
    }

    /// The owning company: the site's contractor, or for one machine in
    /// four the rental company that hires machines out to every site.
    pub(crate) fn entreprise(&self) -> &'static str {
        if unit(hash2(self.seed, 0xC0A1)) < 0.25 {
            RENTAL_COMPANY
        } else {
            self.site.company
        }
    }

    pub(crate) fn is_electric(&self) -> bool {
        self.model.battery_kwh > 0.0
    }

    pub fn centre(&self) -> LatLon {
        LatLon {
            lat: self.site.lat,
            lon: self.site.lon,
        }
    }

    /// Fuel and CO2 are estimated (hours x model rate) when the feed has no
    /// fuel telemetry.
    pub(crate) fn fuel_estimated(&self) -> bool {
        !self.model.fuel_telemetry
    }

    /// The consumption rate used for estimates, L per engine hour.
    pub(crate) fn estimate_lph(&self) -> f64 {
        self.model.work_lph * 0.7 + self.model.idle_lph * 0.3
    }

    /// Altitude of a point near the site, metres: gentle terrain, a few
    /// metres of rise over a few hundred metres (triangle waves: cheap, and
    /// this is on the hot path of every position).
    pub(crate) fn altitude_m(&self, p: LatLon) -> f64 {
        fn tri(x: f64) -> f64 {
            (x - x.floor() - 0.5).abs() * 2.0
        }
        let t = tri(p.lat * 110.0) * 6.0 + tri(p.lon * 85.0) * 4.0;
        round_to(self.site.altitude_m + t - 5.0, 10.0)
    }

    /// Ambient air temperature at a time, °C: season, time of day, weather.
    pub(crate) fn ambient_c(&self, t: i64) -> f64 {
        let day = t.div_euclid(86_400);
        let year_frac = (day.rem_euclid(365) as f64 - 196.0) / 365.0;
        let local_h =
            (t.rem_euclid(86_400) as f64 / 3600.0 + self.site.utc_offset_h).rem_euclid(24.0);
        let season = self.site.season_amp_c * (year_frac * std::f64::consts::TAU).cos();
        let daily = 4.5 * ((local_h - 15.0) / 24.0 * std::f64::consts::TAU).cos();
        let weather = (unit(hash2(self.site.lat.to_bits(), day as u64)) - 0.5) * 6.0;
        round_to(self.site.mean_temp_c + season + daily + weather, 10.0)
    }
}

/// The serial number, and the PIN or (road vehicles) the VIN, drawn from
/// the machine's seed: `(serial_number, pin, vin)`.
fn plate_codes(model: &Model, seed: u64) -> (String, Option<String>, Option<String>) {
    let class = model.class;
    let serial_number = format!(
        "{}0{}{:05}",
        model.serial_prefix,
        class.code(),
        10_000 + (seed % 90_000)
    );
    let code: String = (0..17)
        .map(|i| VIN_CHARS[(hash2(seed, i) % VIN_CHARS.len() as u64) as usize] as char)
        .collect();
    if class.has_vin() {
        (
            serial_number,
            None,
            Some(format!("{}{}", model.serial_prefix, &code[3..])),
        )
    } else {
        let pin = format!("{}0{}{}", model.serial_prefix, &code[4..9], &code[9..]);
        (serial_number, Some(pin), None)
    }
}

/// How the machine reports: a tracker's periods by index block, an OEM
/// feed's period drawn.
fn feed_of(model: &Model, index: u64, rng: &mut Rng) -> Feed {
    if is_tracker_source(model.source) {
        const PERIODS: [i64; 4] = [60, 30, 10, 100];
        Feed::Tracker {
            moving_secs: PERIODS[((index / 20) % 4) as usize],
            keepalive_secs: 1800 + 300 * rng.int(0, 6) as i64,
        }
    } else {
        const PERIODS: [i64; 3] = [900, 1800, 3600];
        Feed::Oem {
            period_secs: PERIODS[rng.int(0, 2) as usize],
        }
    }
}

/// Where the machine parks: a spot near its site's centre, or for road
/// trucks the depot where their roads start. The spot is drawn either way.
fn home_of(model: &Model, site: &'static Site, rng: &mut Rng) -> LatLon {
    let centre = LatLon {
        lat: site.lat,
        lon: site.lon,
    };
    let spot = centre.offset_m(rng.range(-250.0, 250.0), rng.range(-250.0, 250.0));
    if model.class == Class::RoadTruck {
        let network = roads::of_site(site);
        network.nodes[network.depot()].pos
    } else {
        spot
    }
}

/// The counters at commissioning, `(hours, km, loads)`: zero for a machine
/// bought new, drawn for one bought used (three in ten).
fn base_counters(model: &Model, rng: &mut Rng) -> (f64, f64, i64) {
    let used = rng.chance(0.3);
    let base_hours = if used {
        (rng.range(300.0, 6000.0) * 10.0).round() / 10.0
    } else {
        0.0
    };
    let base_km = if model.class == Class::RoadTruck && used {
        rng.range(40_000.0, 400_000.0).round()
    } else {
        0.0
    };
    let base_loads = if model.loads_per_hour > 0.0 && used {
        rng.int(1_000, 60_000) as i64
    } else {
        0
    };
    (base_hours, base_km, base_loads)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identity_is_deterministic_and_well_formed() {
        for i in 0..200 {
            let a = Machine::at_index(i);
            let b = Machine::at_index(i);
            assert_eq!(a.serial_number, b.serial_number);
            assert_eq!(a.name, b.name);
            assert_eq!(a.pin.is_some(), a.vin.is_none());
            if let Some(vin) = &a.vin {
                assert_eq!(vin.len(), 17, "{vin}");
            }
        }
    }

    #[test]
    fn lookups_respect_fleet_size() {
        assert!(Machine::by_id(FIRST_ID, 1).is_some());
        assert!(Machine::by_id(FIRST_ID + 1, 1).is_none());
        assert!(Machine::by_id(FIRST_ID - 1, 10).is_none());
        assert!(Machine::by_id(-5, 10).is_none());
    }

    #[test]
    fn haversine_and_bearing_are_sane() {
        let a = LatLon {
            lat: 45.0,
            lon: 4.0,
        };
        let b = a.offset_m(0.0, 1000.0);
        assert!((haversine_m(a, b) - 1000.0).abs() < 1.0);
        assert!(bearing_deg(a, b) < 0.5 || bearing_deg(a, b) > 359.5);
        let c = a.offset_m(1000.0, 0.0);
        assert!((bearing_deg(a, c) - 90.0).abs() < 0.5);
    }

    #[test]
    fn addresses_name_a_site_or_a_road() {
        let m = Machine::at_index(0);
        let near = address(m.home);
        assert!(near.contains(m.site.city), "{near}");
        let far = address(m.centre().offset_m(0.0, -20_000.0));
        assert!(far.contains("km south of"), "{far}");
    }
}
