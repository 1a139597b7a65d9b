//! Files and documents: a whole file written aside then renamed, and JSON.

use std::io::Write;

use super::error::ExportError;

/// Writes a whole file aside and renames it: an error never leaves half a
/// file, nor replaces a good one.
pub fn write_file(path: &std::path::Path, bytes: &[u8]) -> std::io::Result<()> {
    let partial = path.with_extension("partial");
    std::fs::write(&partial, bytes)?;
    std::fs::rename(&partial, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&partial);
    })
}

/// Writes JSON values as a pretty array (or any value).
pub fn write_json(value: &impl serde::Serialize, mut out: impl Write) -> Result<(), ExportError> {
    serde_json::to_writer_pretty(&mut out, value)?;
    out.write_all(b"\n")?;
    Ok(())
}
