//! The way a machine takes on one move: a straight line about a site, or a
//! route over the site's roads (road trucks).

use super::roads::{Hint, Network, Route};
use fleetview_api::geo::{LatLon, haversine_m};

#[derive(Clone, Copy)]
pub(crate) enum Path {
    /// Straight from `from` to `to` at a fixed heading.
    Line {
        from: LatLon,
        to: LatLon,
        heading_deg: f64,
    },
    /// Along `route` of `network`, from its start to its end.
    Road {
        network: &'static Network,
        route: &'static Route,
    },
}

impl PartialEq for Path {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (
                Path::Line {
                    from,
                    to,
                    heading_deg,
                },
                Path::Line {
                    from: f2,
                    to: t2,
                    heading_deg: h2,
                },
            ) => from == f2 && to == t2 && heading_deg == h2,
            // Routes live in a static network: the same route is the same object.
            (Path::Road { route, .. }, Path::Road { route: r2, .. }) => std::ptr::eq(*route, *r2),
            _ => false,
        }
    }
}

impl std::fmt::Debug for Path {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Path::Line {
                from,
                to,
                heading_deg,
            } => f
                .debug_struct("Line")
                .field("from", from)
                .field("to", to)
                .field("heading_deg", heading_deg)
                .finish(),
            // Not the whole network: the route's ends and roads.
            Path::Road { route, .. } => f
                .debug_struct("Road")
                .field("from", &route.from)
                .field("to", &route.to)
                .field(
                    "roads",
                    &route.legs.iter().map(|l| l.road).collect::<Vec<_>>(),
                )
                .finish(),
        }
    }
}

impl Path {
    pub(crate) fn length_m(&self) -> f64 {
        match self {
            Path::Line { from, to, .. } => haversine_m(*from, *to),
            Path::Road { route, .. } => route.length_m,
        }
    }

    /// Where the machine is a fraction `f` of the way, and its heading;
    /// `hint` speeds up reads at growing `f` (see [`Network::along`]).
    pub(crate) fn at(&self, f: f64, hint: Option<&mut Hint>) -> (LatLon, f64) {
        match self {
            Path::Line {
                from,
                to,
                heading_deg,
            } => (from.lerp(*to, f), *heading_deg),
            Path::Road { network, route } => network.along(route, f * route.length_m, hint),
        }
    }

    /// The end of the way, exactly, and the heading on arrival.
    pub(crate) fn end(&self) -> (LatLon, f64) {
        match self {
            Path::Line {
                to, heading_deg, ..
            } => (*to, *heading_deg),
            Path::Road { network, route } => network.along(route, route.length_m, None),
        }
    }

    /// Distance covered a fraction `f` of the way, metres.
    pub(crate) fn distance_at_m(&self, f: f64) -> f64 {
        match self {
            Path::Line { from, to, .. } => haversine_m(*from, from.lerp(*to, f)),
            Path::Road { route, .. } => f * route.length_m,
        }
    }
}
