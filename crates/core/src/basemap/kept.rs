//! Rendered tiles kept on disk, so that a start renders none it rendered
//! before: a tile takes milliseconds of a core to rasterise, and a start
//! with a full cache shows about thirty of them while every machine's
//! figures are read (docs/decisions.md, "Rendered tiles kept on disk").
//!
//! One file a tile, its pixels compressed with zlib (a tile of sea and
//! land is a few kilobytes; its checksum catches a file damaged in
//! place), under a folder named for the renderer's version: another
//! version's tiles are never read, and go when the folder is trimmed.

use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use super::render::{Palette, TILE_SIZE};

/// Bumped when the drawing changes without the app's version changing.
const RENDER_VERSION: u32 = 1;
/// A tile's pixels: premultiplied RGBA.
const TILE_BYTES: usize = TILE_SIZE as usize * TILE_SIZE as usize * 4;
/// What the kept tiles may take on disk; past it the least recently
/// used go, down to three quarters of it.
pub const DEFAULT_KEPT_TILE_BYTES: u64 = 64 << 20;

/// The rendered tiles kept in a folder.
#[derive(Debug, Clone)]
pub struct KeptTiles {
    dir: PathBuf,
}

impl KeptTiles {
    /// Tiles kept in this version's folder under `root`.
    pub fn new(root: &Path) -> Self {
        let version = format!("rendered-{}-{RENDER_VERSION}", env!("CARGO_PKG_VERSION"));
        Self {
            dir: root.join(version),
        }
    }

    fn path(&self, x: u32, y: u32, zoom: u8, palette: Palette) -> PathBuf {
        let hex: String = [palette.water, palette.land, palette.border]
            .iter()
            .flatten()
            .map(|b| format!("{b:02x}"))
            .collect();
        self.dir
            .join(hex)
            .join(zoom.to_string())
            .join(format!("{x}-{y}.rgba.z"))
    }

    /// The tile's pixels if kept and whole, marked used (the home's tiles,
    /// read at every start, are the last to go); a damaged file is
    /// removed (the tile is rendered again).
    pub fn get(&self, x: u32, y: u32, zoom: u8, palette: Palette) -> Option<Vec<u8>> {
        let path = self.path(x, y, zoom, palette);
        let file = fs::File::options()
            .read(true)
            .write(true)
            .open(&path)
            .ok()?;
        let mut rgba = Vec::with_capacity(TILE_BYTES);
        // One byte more than a tile: a longer file is not one.
        let read = flate2::read::ZlibDecoder::new(&file)
            .take(TILE_BYTES as u64 + 1)
            .read_to_end(&mut rgba);
        if read.is_ok() && rgba.len() == TILE_BYTES {
            let _ = file.set_modified(SystemTime::now());
            return Some(rgba);
        }
        tracing::debug!("a kept tile is damaged: {}", path.display());
        let _ = fs::remove_file(&path);
        None
    }

    /// Keeps a tile's pixels: written aside, then renamed, so no reader
    /// ever finds half a tile; the bytes written. A failure is logged,
    /// never said: the tile is rendered again next time.
    pub fn put(&self, x: u32, y: u32, zoom: u8, palette: Palette, rgba: &[u8]) -> u64 {
        if rgba.len() != TILE_BYTES {
            return 0;
        }
        let path = self.path(x, y, zoom, palette);
        match write_tile(&path, rgba) {
            Ok(bytes) => bytes,
            Err(e) => {
                tracing::debug!("a rendered tile was not kept ({}): {e}", path.display());
                0
            }
        }
    }

    /// Removes the least recently written tiles past `cap_bytes` (down to
    /// three quarters of it), and other versions' folders. Reads the
    /// whole folder: for the render thread, never the UI's.
    pub fn trim(&self, cap_bytes: u64) {
        if let Some(root) = self.dir.parent() {
            let others = fs::read_dir(root).into_iter().flatten().flatten();
            for entry in others {
                let name = entry.file_name();
                let name = name.to_string_lossy();
                if name.starts_with("rendered-") && entry.path() != self.dir {
                    let _ = fs::remove_dir_all(entry.path());
                }
            }
        }
        let mut files = Vec::new();
        collect_files(&self.dir, &mut files);
        let mut total: u64 = files.iter().map(|(_, len, _)| len).sum();
        if total <= cap_bytes {
            return;
        }
        files.sort_by_key(|(_, _, written)| *written);
        for (path, len, _) in files {
            if total <= cap_bytes / 4 * 3 {
                break;
            }
            if fs::remove_file(&path).is_ok() {
                total = total.saturating_sub(len);
            }
        }
    }
}

fn write_tile(path: &Path, rgba: &[u8]) -> std::io::Result<u64> {
    let dir = path
        .parent()
        .ok_or_else(|| std::io::Error::other("a tile's path without a folder"))?;
    fs::create_dir_all(dir)?;
    let mut aside = tempfile::NamedTempFile::new_in(dir)?;
    {
        let mut z = flate2::write::ZlibEncoder::new(&mut aside, flate2::Compression::fast());
        z.write_all(rgba)?;
        z.finish()?;
    }
    let bytes = aside.as_file().metadata()?.len();
    aside.persist(path).map_err(|e| e.error)?;
    Ok(bytes)
}

/// Every file under `dir`: its path, length and when it was written.
fn collect_files(dir: &Path, out: &mut Vec<(PathBuf, u64, SystemTime)>) {
    for entry in fs::read_dir(dir).into_iter().flatten().flatten() {
        let Ok(meta) = entry.metadata() else { continue };
        if meta.is_dir() {
            collect_files(&entry.path(), out);
        } else {
            let written = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
            out.push((entry.path(), meta.len(), written));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::basemap::{Outlines, render_tile};

    #[test]
    fn a_kept_tile_reads_back_as_rendered() {
        let dir = tempfile::tempdir().expect("tempdir");
        let kept = KeptTiles::new(dir.path());
        let outlines = Outlines::coarse().expect("outlines");
        let rgba = render_tile(&outlines, 8, 5, 4, Palette::LIGHT);
        assert!(
            kept.get(8, 5, 4, Palette::LIGHT).is_none(),
            "nothing kept yet"
        );
        kept.put(8, 5, 4, Palette::LIGHT, &rgba);
        assert!(
            kept.get(8, 5, 4, Palette::LIGHT) == Some(rgba),
            "read back as rendered"
        );
        assert!(
            kept.get(8, 5, 4, Palette::DARK).is_none(),
            "kept per palette"
        );
        assert!(kept.get(5, 8, 4, Palette::LIGHT).is_none(), "kept per tile");
    }

    #[test]
    fn a_damaged_or_cut_tile_is_removed_and_not_read() {
        let dir = tempfile::tempdir().expect("tempdir");
        let kept = KeptTiles::new(dir.path());
        let rgba = vec![7u8; TILE_BYTES];
        assert!(kept.put(1, 2, 3, Palette::DARK, &rgba) > 0);
        let path = kept.path(1, 2, 3, Palette::DARK);
        let whole = fs::read(&path).expect("kept");
        fs::write(&path, &whole[..whole.len() / 2]).expect("cut");
        assert!(
            kept.get(1, 2, 3, Palette::DARK).is_none(),
            "a cut tile read"
        );
        assert!(!path.exists(), "removed");
        // A byte changed in place, the length the same: the checksum (of
        // varied pixels: in a flat tile a changed back-reference can read
        // the same bytes).
        let varied: Vec<u8> = (0..TILE_BYTES).map(|i| (i % 251) as u8).collect();
        kept.put(1, 2, 3, Palette::DARK, &varied);
        let mut changed = fs::read(&path).expect("kept");
        let at = changed.len() / 2;
        changed[at] ^= 0x01;
        fs::write(&path, &changed).expect("changed");
        assert!(
            kept.get(1, 2, 3, Palette::DARK).is_none(),
            "a changed tile read"
        );
        assert!(!path.exists(), "removed");
        fs::write(&path, b"not deflate at all").expect("garble");
        assert!(
            kept.get(1, 2, 3, Palette::DARK).is_none(),
            "a garbled tile read"
        );
        // A tile of another size is not one.
        assert_eq!(kept.put(1, 2, 3, Palette::DARK, &rgba[..100]), 0);
        assert!(!path.exists());
    }

    #[test]
    fn trimming_keeps_the_newest_tiles_within_the_cap_and_drops_other_versions() {
        let dir = tempfile::tempdir().expect("tempdir");
        let kept = KeptTiles::new(dir.path());
        let old = dir.path().join("rendered-0.0.1-1");
        fs::create_dir_all(&old).expect("an old version's folder");
        // Tiles of noise: they do not deflate, each about a tile's bytes.
        for i in 0..8u32 {
            let noise: Vec<u8> = (0..TILE_BYTES)
                .map(|j| ((j as u32).wrapping_mul(2_654_435_761).wrapping_add(i * 97) >> 13) as u8)
                .collect();
            kept.put(i, 0, 5, Palette::LIGHT, &noise);
            let t = SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_000 + u64::from(i));
            fs::File::options()
                .write(true)
                .open(kept.path(i, 0, 5, Palette::LIGHT))
                .and_then(|f| f.set_modified(t))
                .expect("dated");
        }
        // The oldest read since: used, so kept.
        assert!(kept.get(0, 0, 5, Palette::LIGHT).is_some());
        let cap = 4 * TILE_BYTES as u64;
        kept.trim(cap);
        assert!(!old.exists(), "another version's tiles are gone");
        let left: Vec<u32> = (0..8)
            .filter(|&i| kept.path(i, 0, 5, Palette::LIGHT).exists())
            .collect();
        let mut files = Vec::new();
        collect_files(&kept.dir, &mut files);
        let total: u64 = files.iter().map(|(_, len, _)| len).sum();
        assert!(total <= cap / 4 * 3, "{total} bytes kept");
        assert!(left.len() >= 2, "some kept: {left:?}");
        assert!(left.contains(&0), "the one read kept: {left:?}");
        let written = left.len() as u32 - 1;
        assert!(
            left.iter().all(|&i| i == 0 || i >= 8 - written),
            "the newest written kept: {left:?}"
        );
    }
}
