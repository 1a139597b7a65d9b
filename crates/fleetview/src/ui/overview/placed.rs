//! The machines of the overview's rows that have a position, as the fleet
//! map places them: the map draws them and the tooltips name them, so they
//! sit apart from both.

use std::collections::HashMap;

use super::cluster::{self, Point};
use super::marks::{self, Shape};
use crate::app::AppState;
use fleetview_api::geo::{MercRect, mercator};

/// The machines of the rows that have a position, made again when the
/// rows change.
#[derive(Debug, Default)]
pub(super) struct Placed {
    pub(super) generation: u64,
    pub(super) points: Vec<Point>,
    /// Each point's row (in `OverviewState::rows`) and shape.
    pub(super) rows: Vec<usize>,
    pub(super) shapes: Vec<Shape>,
    /// The sites and companies the points name.
    pub(super) names: Vec<String>,
    pub(super) bounds: MercRect,
}

impl Placed {
    pub(super) fn of(state: &AppState) -> Self {
        let fleet = &state.fleet().equipments;
        let mut placed = Placed {
            generation: state.overview().generation,
            bounds: MercRect::EMPTY,
            ..Placed::default()
        };
        let mut index: HashMap<String, u32> = HashMap::new();
        let mut shapes: HashMap<Option<&str>, Shape> = HashMap::new();
        let mut intern = |names: &mut Vec<String>, s: &str| {
            *index.entry(s.to_owned()).or_insert_with(|| {
                names.push(s.to_owned());
                names.len() as u32 - 1
            })
        };
        for (k, row) in state.overview().rows().iter().enumerate() {
            let Some(xy) = row.position.and_then(|p| mercator(p.lat, p.lon)) else {
                continue;
            };
            let e = fleet.get(row.index);
            let category = e.and_then(|e| e.category.as_deref());
            let site = e
                .and_then(|e| cluster::site_of(&e.name))
                .map(|s| intern(&mut placed.names, s));
            let company = e
                .and_then(|e| e.entreprise.as_deref())
                .filter(|c| !c.trim().is_empty())
                .map(|c| intern(&mut placed.names, c));
            placed.points.push(Point {
                xy,
                id: row.id,
                state: row.state,
                faulty: row.faulty,
                site,
                company,
            });
            placed.rows.push(k);
            placed.shapes.push(
                *shapes
                    .entry(category)
                    .or_insert_with(|| marks::shape_of(category)),
            );
            placed.bounds.extend(xy);
        }
        placed
    }
}
