//! A position's time zone, offline: the zone boundaries bundled with
//! `tzf-rs`, the zone's rules from jiff's database (bundled too, so a
//! machine without a system copy still finds them).

use std::sync::OnceLock;

use jiff::tz::TimeZone;

use fleetview_api::geo::LatLon;

/// The finder is costly to build (it reads every boundary): built once,
/// on first use.
fn finder() -> &'static tzf_rs::DefaultFinder {
    static FINDER: OnceLock<tzf_rs::DefaultFinder> = OnceLock::new();
    FINDER.get_or_init(tzf_rs::DefaultFinder::new)
}

/// Builds the finder now (off the threads a person waits on), so the
/// first figures do not pay for it.
pub fn prepare_time_zones() {
    finder();
}

/// The time zone at `p`, `None` for a point that is not a place (not a
/// number, out of range) or a zone the database does not know.
pub fn time_zone_at(p: LatLon) -> Option<TimeZone> {
    if !(p.lat.is_finite() && p.lon.is_finite()) || p.lat.abs() > 90.0 || p.lon.abs() > 180.0 {
        return None;
    }
    let name = finder().get_tz_name(p.lon, p.lat);
    if name.is_empty() {
        return None;
    }
    jiff::tz::db().get(name).ok()
}

/// The time zone of the last position that has one (where the machine is
/// now); `positions` in time order.
pub fn time_zone_of(positions: &[(i64, LatLon)]) -> Option<TimeZone> {
    positions
        .iter()
        .rev()
        .take(16)
        .find_map(|(_, p)| time_zone_at(*p))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn zone(lat: f64, lon: f64) -> Option<String> {
        time_zone_at(LatLon { lat, lon }).and_then(|tz| tz.iana_name().map(str::to_owned))
    }

    #[test]
    fn sites_find_their_zones() {
        assert_eq!(zone(45.73, 4.85).as_deref(), Some("Europe/Paris")); // Lyon
        assert_eq!(zone(41.79, -87.6).as_deref(), Some("America/Chicago"));
        assert_eq!(zone(53.48, -2.24).as_deref(), Some("Europe/London")); // Manchester
        assert_eq!(zone(40.42, -3.70).as_deref(), Some("Europe/Madrid"));
        assert_eq!(zone(53.55, 9.99).as_deref(), Some("Europe/Berlin")); // Hamburg
        assert_eq!(zone(51.92, 4.48).as_deref(), Some("Europe/Amsterdam")); // Rotterdam
        assert_eq!(zone(f64::NAN, 4.0), None);
        assert_eq!(zone(95.0, 4.0), None);
    }

    #[test]
    fn the_zone_of_a_track_is_where_it_ends() {
        let p = |lat, lon| (0, LatLon { lat, lon });
        let track = [p(45.73, 4.85), p(f64::NAN, 0.0)];
        assert_eq!(
            time_zone_of(&track)
                .and_then(|tz| tz.iana_name().map(str::to_owned))
                .as_deref(),
            Some("Europe/Paris")
        );
        assert!(time_zone_of(&[]).is_none());
    }
}
