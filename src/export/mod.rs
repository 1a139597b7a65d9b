//! Pure writers: what was fetched or shown, as files for scripts and other
//! tools. CSV tables of series (`table`), JSON and whole files (`file`),
//! GPX and GeoJSON of positions (`geo`), and what the app's panels show
//! (`shown`). Nothing here fetches: the command line and the worker hand
//! the data in.

mod error;
mod file;
pub mod geo;
pub mod shown;
mod table;

pub use error::ExportError;
pub use file::{write_file, write_json};
pub use table::{write_csv, write_daily_csv};
