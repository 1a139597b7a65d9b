//! The basemap's outlines: Natural Earth land and country borders,
//! embedded in the binary as gzipped TopoJSON (1:50m and 1:10m), decoded
//! into Web Mercator rings with their boxes.

use std::collections::HashMap;
use std::io::Read;
use std::sync::OnceLock;

use serde::de::{IgnoredAny, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};

use fleetview_api::geo::{MercRect, mercator};

const COUNTRIES_50M: &[u8] =
    include_bytes!("../../../../assets/natural-earth/countries-50m.json.gz");
const COUNTRIES_10M: &[u8] =
    include_bytes!("../../../../assets/natural-earth/countries-10m.json.gz");

#[derive(Debug, thiserror::Error)]
pub enum BasemapError {
    #[error("the embedded basemap could not be unpacked: {0}")]
    Gzip(#[from] std::io::Error),
    #[error("the embedded basemap is not the expected TopoJSON: {0}")]
    Json(#[from] serde_json::Error),
    #[error("the basemap has no object named {0:?}")]
    MissingObject(&'static str),
}

/// A closed ring in Mercator units, with its box.
#[derive(Debug, Clone, PartialEq)]
pub struct Ring {
    pub(crate) points: Vec<[f64; 2]>,
    pub(crate) bounds: MercRect,
}

/// A polygon: its outer ring then its holes (filled even-odd).
#[derive(Debug, Clone, PartialEq)]
pub struct Polygon {
    pub(crate) rings: Vec<Ring>,
    pub(crate) bounds: MercRect,
}

/// Land to fill, country outlines to stroke.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Outlines {
    pub(crate) land: Vec<Polygon>,
    pub(crate) borders: Vec<Ring>,
}

// ---------------------------------------------------------------- TopoJSON

#[derive(Deserialize)]
struct Topology {
    objects: HashMap<String, Collection>,
    arcs: Vec<Vec<Position>>,
    transform: Option<Transform>,
}

#[derive(Deserialize)]
struct Transform {
    scale: [f64; 2],
    translate: [f64; 2],
}

#[derive(Deserialize)]
struct Collection {
    #[serde(default)]
    geometries: Vec<Geometry>,
}

#[derive(Deserialize)]
#[serde(tag = "type")]
enum Geometry {
    Polygon {
        arcs: Vec<Vec<i64>>,
    },
    MultiPolygon {
        arcs: Vec<Vec<Vec<i64>>>,
    },
    #[serde(other)]
    Other,
}

/// A TopoJSON position: its first two numbers (any more are ignored;
/// `None` with fewer). Read in place: a `Vec` per point made the 1:10m
/// file's decoding peak at about 60 MB.
struct Position(Option<[f64; 2]>);

impl<'de> Deserialize<'de> for Position {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Numbers;
        impl<'de> Visitor<'de> for Numbers {
            type Value = Position;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a position (an array of numbers)")
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Position, A::Error> {
                let x = seq.next_element::<f64>()?;
                let y = match x {
                    Some(_) => seq.next_element::<f64>()?,
                    None => None,
                };
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Position(x.zip(y).map(|(x, y)| [x, y])))
            }
        }
        d.deserialize_seq(Numbers)
    }
}

/// Arcs decoded to Mercator points.
struct Arcs(Vec<Vec<[f64; 2]>>);

impl Arcs {
    fn decode(topo: &Topology) -> Self {
        let (scale, translate) = topo
            .transform
            .as_ref()
            .map_or(([1.0, 1.0], [0.0, 0.0]), |t| (t.scale, t.translate));
        let quantized = topo.transform.is_some();
        Arcs(
            topo.arcs
                .iter()
                .map(|arc| {
                    let (mut x, mut y) = (0.0, 0.0);
                    arc.iter()
                        .filter_map(|p| p.0)
                        .filter_map(|p| {
                            // Quantized arcs are delta-encoded.
                            if quantized {
                                x += p[0];
                                y += p[1];
                            } else {
                                (x, y) = (p[0], p[1]);
                            }
                            let lon = x * scale[0] + translate[0];
                            let lat = y * scale[1] + translate[1];
                            mercator(lat, lon)
                        })
                        .collect()
                })
                .collect(),
        )
    }

    /// A ring from arc references (`!i` is arc `i` reversed).
    fn ring(&self, refs: &[i64]) -> Option<Ring> {
        let mut points: Vec<[f64; 2]> = Vec::new();
        for &r in refs {
            let (idx, reversed) = if r >= 0 {
                (r as usize, false)
            } else {
                ((!r) as usize, true)
            };
            let arc = self.0.get(idx)?;
            let skip = usize::from(!points.is_empty());
            if reversed {
                points.extend(arc.iter().rev().skip(skip));
            } else {
                points.extend(arc.iter().skip(skip));
            }
        }
        if points.len() < 3 {
            return None;
        }
        let mut bounds = MercRect::EMPTY;
        for p in &points {
            bounds.extend(*p);
        }
        Some(Ring { points, bounds })
    }

    fn polygon(&self, rings: &[Vec<i64>]) -> Option<Polygon> {
        let rings: Vec<Ring> = rings.iter().filter_map(|r| self.ring(r)).collect();
        let bounds = rings.first()?.bounds;
        Some(Polygon { rings, bounds })
    }
}

fn polygons(arcs: &Arcs, collection: &Collection) -> Vec<Polygon> {
    let mut out = Vec::new();
    for g in &collection.geometries {
        match g {
            Geometry::Polygon { arcs: rings } => out.extend(arcs.polygon(rings)),
            Geometry::MultiPolygon { arcs: polys } => {
                out.extend(polys.iter().filter_map(|p| arcs.polygon(p)))
            }
            Geometry::Other => {}
        }
    }
    out
}

impl Outlines {
    /// Decodes gzipped TopoJSON with a `land` and a `countries` object.
    pub(crate) fn from_topojson_gz(bytes: &[u8]) -> Result<Self, BasemapError> {
        let mut json = Vec::new();
        flate2::read::GzDecoder::new(bytes).read_to_end(&mut json)?;
        let topo: Topology = serde_json::from_slice(&json)?;
        let arcs = Arcs::decode(&topo);
        let land = topo
            .objects
            .get("land")
            .ok_or(BasemapError::MissingObject("land"))?;
        let countries = topo
            .objects
            .get("countries")
            .ok_or(BasemapError::MissingObject("countries"))?;
        let land = polygons(&arcs, land);
        let borders = polygons(&arcs, countries)
            .into_iter()
            .flat_map(|p| p.rings)
            .collect();
        Ok(Self { land, borders })
    }

    /// The coarse (1:50m) outlines.
    pub fn coarse() -> Result<Self, BasemapError> {
        Self::from_topojson_gz(COUNTRIES_50M)
    }

    /// The detailed (1:10m) outlines.
    pub(crate) fn detailed() -> Result<Self, BasemapError> {
        Self::from_topojson_gz(COUNTRIES_10M)
    }

    /// The detailed outlines, decoded once per process (about 15 MB), the
    /// first time a map is zoomed in to them. Empty if they cannot be read.
    /// Nothing to draw: the fallback when the outlines could not be
    /// decoded (sea alone).
    pub fn is_empty(&self) -> bool {
        self.land.is_empty() && self.borders.is_empty()
    }

    pub fn detailed_shared() -> &'static Self {
        static DETAILED: OnceLock<Outlines> = OnceLock::new();
        DETAILED.get_or_init(|| {
            Self::detailed().unwrap_or_else(|e| {
                tracing::warn!("{e}");
                Self::default()
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_outlines_decode() {
        let coarse = Outlines::coarse().expect("coarse outlines");
        assert!(
            coarse.land.len() > 100,
            "{} land polygons",
            coarse.land.len()
        );
        assert!(coarse.borders.len() > 200);
        let detailed = Outlines::detailed().expect("detailed outlines");
        assert!(detailed.land.len() > coarse.land.len());
        assert_eq!(Outlines::detailed_shared(), &detailed);
    }

    #[test]
    fn positions_take_two_numbers_and_skip_the_rest() {
        let arcs: Vec<Position> =
            serde_json::from_str("[[1, 2], [3, 4, 5], [6], []]").expect("positions");
        let read: Vec<_> = arcs.into_iter().map(|p| p.0).collect();
        assert_eq!(read, [Some([1.0, 2.0]), Some([3.0, 4.0]), None, None]);
        assert!(serde_json::from_str::<Position>("[1, \"x\"]").is_err());
    }
}
