//! Geometry on the Earth shared by the map, the track, the basemap and the
//! sandbox: positions, great-circle distances and bearings, and Web
//! Mercator (`x`, `y` in 0..1, `y` down, as map tiles are).

/// Mean Earth radius (IUGG), metres.
pub const EARTH_RADIUS_M: f64 = 6_371_008.8;

/// A position in degrees.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LatLon {
    pub lat: f64,
    pub lon: f64,
}

impl LatLon {
    pub const fn new(lat: f64, lon: f64) -> Self {
        Self { lat, lon }
    }

    /// The point `east_m`, `north_m` metres away (local flat approximation,
    /// fine within a region of ~100 km).
    pub fn offset_m(self, east_m: f64, north_m: f64) -> Self {
        let dlat = north_m / EARTH_RADIUS_M;
        let dlon = east_m / (EARTH_RADIUS_M * self.lat.to_radians().cos());
        Self {
            lat: self.lat + dlat.to_degrees(),
            lon: self.lon + dlon.to_degrees(),
        }
    }

    /// The point a fraction `f` of the way to `to` (linear in degrees).
    pub fn lerp(self, to: Self, f: f64) -> Self {
        Self {
            lat: self.lat + (to.lat - self.lat) * f,
            lon: self.lon + (to.lon - self.lon) * f,
        }
    }
}

/// Web Mercator of a position: `x`, `y` in 0..1 (`y` down). Latitudes are
/// clamped to the projection's limit; non-finite input gives `None`.
pub fn mercator(lat_deg: f64, lon_deg: f64) -> Option<[f64; 2]> {
    if !lat_deg.is_finite() || !lon_deg.is_finite() {
        return None;
    }
    let lat = lat_deg.clamp(-85.051_128_78, 85.051_128_78).to_radians();
    let x = (lon_deg.clamp(-180.0, 180.0) + 180.0) / 360.0;
    let y = (1.0 - (lat.tan() + 1.0 / lat.cos()).ln() / std::f64::consts::PI) / 2.0;
    Some([x, y])
}

/// The inverse of [`mercator`]: latitude and longitude in degrees.
pub fn unmercator(p: [f64; 2]) -> (f64, f64) {
    let lon = p[0] * 360.0 - 180.0;
    let n = std::f64::consts::PI * (1.0 - 2.0 * p[1]);
    let lat = n.sinh().atan().to_degrees();
    (lat, lon)
}

/// Great-circle distance in metres.
pub fn haversine_m(a: LatLon, b: LatLon) -> f64 {
    let (p1, p2) = (a.lat.to_radians(), b.lat.to_radians());
    let dp = p2 - p1;
    let dl = (b.lon - a.lon).to_radians();
    let h = (dp / 2.0).sin().powi(2) + p1.cos() * p2.cos() * (dl / 2.0).sin().powi(2);
    2.0 * EARTH_RADIUS_M * h.sqrt().min(1.0).asin()
}

/// Initial bearing from `a` to `b`, degrees in [0, 360).
pub fn bearing_deg(a: LatLon, b: LatLon) -> f64 {
    let (p1, p2) = (a.lat.to_radians(), b.lat.to_radians());
    let dl = (b.lon - a.lon).to_radians();
    let y = dl.sin() * p2.cos();
    let x = p1.cos() * p2.sin() - p1.sin() * p2.cos() * dl.cos();
    y.atan2(x).to_degrees().rem_euclid(360.0)
}

/// An axis-aligned box in Mercator units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MercRect {
    pub min: [f64; 2],
    pub max: [f64; 2],
}

impl Default for MercRect {
    fn default() -> Self {
        Self::EMPTY
    }
}

impl MercRect {
    pub const EMPTY: MercRect = MercRect {
        min: [f64::INFINITY; 2],
        max: [f64::NEG_INFINITY; 2],
    };

    pub fn extend(&mut self, p: [f64; 2]) {
        self.min = [self.min[0].min(p[0]), self.min[1].min(p[1])];
        self.max = [self.max[0].max(p[0]), self.max[1].max(p[1])];
    }

    pub fn intersects(&self, o: &MercRect) -> bool {
        self.min[0] <= o.max[0]
            && o.min[0] <= self.max[0]
            && self.min[1] <= o.max[1]
            && o.min[1] <= self.max[1]
    }

    pub fn is_empty(&self) -> bool {
        !(self.min[0] <= self.max[0] && self.min[1] <= self.max[1])
    }

    pub fn center(&self) -> [f64; 2] {
        [
            (self.min[0] + self.max[0]) / 2.0,
            (self.min[1] + self.max[1]) / 2.0,
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mercator_round_trips() {
        for (lat, lon) in [(0.0, 0.0), (45.75, 4.85), (-33.9, 151.2), (60.0, -179.0)] {
            let p = mercator(lat, lon).expect("finite");
            let (la, lo) = unmercator(p);
            assert!((la - lat).abs() < 1e-9 && (lo - lon).abs() < 1e-9);
        }
        assert_eq!(mercator(0.0, 0.0), Some([0.5, 0.5]));
        assert_eq!(mercator(f64::NAN, 0.0), None);
        let pole = mercator(90.0, 0.0).expect("clamped");
        assert!(pole[1].abs() < 1e-6);
    }

    #[test]
    fn distances_and_bearings_are_sane() {
        let lyon = LatLon::new(45.75, 4.85);
        let north = lyon.offset_m(0.0, 1000.0);
        assert!((haversine_m(lyon, north) - 1000.0).abs() < 1.0);
        assert!(bearing_deg(lyon, north) < 0.1 || bearing_deg(lyon, north) > 359.9);
        let east = lyon.offset_m(1000.0, 0.0);
        assert!((bearing_deg(lyon, east) - 90.0).abs() < 0.1);
        assert_eq!(haversine_m(lyon, lyon), 0.0);
        let mid = lyon.lerp(north, 0.5);
        assert!((haversine_m(lyon, mid) - 500.0).abs() < 1.0);
    }
}
