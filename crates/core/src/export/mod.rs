//! Pure writers: what was fetched or shown, as files for scripts and other
//! tools. CSV tables of series (`table`), their text cells made safe for
//! spreadsheets (`cell`, D14), JSON and whole files (`file`), GPX and
//! GeoJSON of positions (`geo`), the one GeoJSON writer, feature by
//! feature (`geojson`), and what the app's panels show (`shown`). Every
//! writer streams to its `Write`. Nothing here fetches: the command line
//! and the worker hand the data in.

mod cell;
mod error;
mod file;
pub mod fleet;
pub mod geo;
pub mod geojson;
pub mod round;
pub mod shown;
mod table;
pub(crate) mod units;

pub use cell::{is_formula, text_cell};
pub use error::ExportError;
pub use file::{
    FileError, JsonArrayWriter, Replace, write_file, write_file_with, write_json, write_stream,
};
pub use table::{write_csv, write_daily_csv};
pub use units::in_units;
