//! Columnar time series: rows of any data kind decoded straight into
//! columns (D7), and merged across chunks.
//!
//! The client must not depend on row shapes: every numeric field, nested or
//! not, becomes a channel; booleans become 0/1 step channels; strings become
//! labelled events (or times, when they are dates); `unit`/`*Unit` strings
//! become the units of their sibling values; an `estimated` flag is kept per
//! sample on the values of its object.
//!
//! Where to look: `channel.rs` holds [`Series`] and [`Channel`];
//! `extract.rs` decodes rows (the serde walk) and `builder.rs` turns their
//! fields into channels; `plot.rs` holds [`PlotSeries`] (sorted, indexed).
//! For drawing: [`minmax`] aggregates a channel to a few points per pixel
//! column (M4), `columns.rs` keeps a line's M4 columns between frames
//! ([`CachedLine`]) and `drawn.rs` turns them into lines and bands, [`gaps`] finds where a line must break, [`names`]
//! says what a kind's channels are called, [`track`] simplifies positions
//! per zoom level.

mod builder;
mod channel;
mod columns;
mod drawn;
mod extract;
pub mod gaps;
pub(crate) mod minmax;
pub mod names;
mod plot;
pub mod track;

pub use channel::{Channel, ChannelKind, ESTIMATED_NO, ESTIMATED_UNKNOWN, ESTIMATED_YES, Series};
pub use columns::{CachedLine, LineKey};
pub use extract::{DecodeError, EnvelopeInfo, decode_envelope, decode_rows};
pub use minmax::{Lattice, M4Column, MinMaxIndex, m4_columns, m4_lattice};
pub use plot::PlotSeries;
pub use track::{Segment, Track, TrackPiece, TrackPoint, TrackSample};
