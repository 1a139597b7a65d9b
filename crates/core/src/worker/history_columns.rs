//! A settled piece of a history kept decoded, as columns: read back with
//! copies instead of a parse. A start of the app reads every machine's
//! settled month from the cache; as the service's JSON that is tens of
//! megabytes to parse again each time, as columns a few to copy (see
//! docs/decisions.md, "Settled history kept as columns").
//!
//! The layout (little-endian): the magic, the JSON of the piece without
//! its three long pages (the machine's names, its faults and daily
//! usages: few rows), then the positions, fuel levels and engine
//! conditions, each as its total and its columns, and a CRC-32 of all
//! that: a settled piece is never fetched again, so a copy damaged in
//! place must not read back as another history.

use fleetview_api::model::{
    DailyUsageRow, EngineConditionRow, EngineEvent, EquipmentHistory, FuelRemainingRow,
    HistoryFaultRow, HistoryPositionRow, Page,
};
use fleetview_api::time::Timestamp;
use serde::{Deserialize, Serialize};

/// Changes whenever the layout does: an older copy is unreadable, read
/// again from the service's JSON.
const MAGIC: &[u8; 8] = b"FVHCOL01";

/// Why a kept copy could not be read back.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ColumnsError {
    #[error("not a history kept as columns (or of another version)")]
    Magic,
    #[error("a history kept as columns ends early")]
    Truncated,
    #[error("a history kept as columns has bytes after its end")]
    Trailing,
    #[error("a history kept as columns does not match its checksum")]
    Checksum,
    #[error("a history kept as columns holds a value no history has")]
    Value,
    #[error("the history's names, faults and daily usages: {0}")]
    Rest(#[from] serde_json::Error),
}

/// What is not a long page, borrowed to be written.
#[derive(Serialize)]
struct RestOut<'a> {
    id: i64,
    name: &'a str,
    make: &'a str,
    model: &'a str,
    serial_number: &'a str,
    pin: Option<&'a str>,
    vin: Option<&'a str>,
    fault_codes: &'a Page<HistoryFaultRow>,
    daily_usages: &'a Page<DailyUsageRow>,
}

/// [`RestOut`] read back.
#[derive(Deserialize)]
struct RestIn {
    id: i64,
    name: String,
    make: String,
    model: String,
    serial_number: String,
    pin: Option<String>,
    vin: Option<String>,
    fault_codes: Page<HistoryFaultRow>,
    daily_usages: Page<DailyUsageRow>,
}

/// The piece as columns.
pub(crate) fn encode(h: &EquipmentHistory) -> Vec<u8> {
    let rest = RestOut {
        id: h.id,
        name: &h.name,
        make: &h.make,
        model: &h.model,
        serial_number: &h.serial_number,
        pin: h.pin.as_deref(),
        vin: h.vin.as_deref(),
        fault_codes: &h.fault_codes,
        daily_usages: &h.daily_usages,
    };
    // Plain data with string keys: writing it cannot fail.
    let rest = serde_json::to_vec(&rest).unwrap_or_default();
    let (p, f, e) = (
        &h.positions.rows,
        &h.fuel_remainings.rows,
        &h.engine_conditions.rows,
    );
    let mut out = Vec::with_capacity(
        MAGIC.len() + 8 + rest.len() + 48 + p.len() * 26 + f.len() * 18 + e.len() * 11,
    );
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&(rest.len() as u64).to_le_bytes());
    out.extend_from_slice(&rest);
    let mut out = columns_page(out, h.positions.total, p.iter().map(|r| r.date));
    p.iter()
        .for_each(|r| out.extend_from_slice(&r.latitude.to_le_bytes()));
    p.iter()
        .for_each(|r| out.extend_from_slice(&r.longitude.to_le_bytes()));
    let mut out = columns_page(out, h.fuel_remainings.total, f.iter().map(|r| r.date));
    f.iter()
        .for_each(|r| out.extend_from_slice(&r.percent.to_le_bytes()));
    let mut out = columns_page(out, h.engine_conditions.total, e.iter().map(|r| r.date));
    out.extend(e.iter().map(|r| u8::from(r.is_start())));
    let crc = crc32fast::hash(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    out
}

/// A page's total, its length and its dates' columns, after `out`.
fn columns_page(
    mut out: Vec<u8>,
    total: i64,
    dates: impl ExactSizeIterator<Item = Timestamp> + Clone,
) -> Vec<u8> {
    out.extend_from_slice(&total.to_le_bytes());
    out.extend_from_slice(&(dates.len() as u64).to_le_bytes());
    dates
        .clone()
        .for_each(|d| out.extend_from_slice(&d.secs().to_le_bytes()));
    dates.for_each(|d| out.extend_from_slice(&d.subsec_millis().to_le_bytes()));
    out
}

/// A piece kept by [`encode`], read back; an error, never a panic, on
/// any other bytes (nothing allocated for lengths the bytes do not hold).
pub(crate) fn decode(bytes: &[u8]) -> Result<EquipmentHistory, ColumnsError> {
    if bytes.get(..MAGIC.len()) != Some(MAGIC.as_slice()) {
        return Err(ColumnsError::Magic);
    }
    let (body, crc) = bytes
        .split_last_chunk::<4>()
        .ok_or(ColumnsError::Truncated)?;
    if crc32fast::hash(body) != u32::from_le_bytes(*crc) {
        return Err(ColumnsError::Checksum);
    }
    let mut r = Reader { bytes: body };
    r.take(MAGIC.len())?;
    let rest_len = r.len()?;
    let rest: RestIn = serde_json::from_slice(r.take(rest_len)?)?;
    let (total, dates) = r.dates()?;
    let latitudes = r.f64s(dates.len())?;
    let longitudes = r.f64s(dates.len())?;
    let positions = Page {
        total,
        rows: dates
            .into_iter()
            .zip(latitudes.zip(longitudes))
            .map(|(date, (latitude, longitude))| HistoryPositionRow {
                latitude,
                longitude,
                date,
            })
            .collect(),
    };
    let (total, dates) = r.dates()?;
    let percents = r.f64s(dates.len())?;
    let fuel_remainings = Page {
        total,
        rows: dates
            .into_iter()
            .zip(percents)
            .map(|(date, percent)| FuelRemainingRow { percent, date })
            .collect(),
    };
    let (total, dates) = r.dates()?;
    let starts = r.take(dates.len())?;
    let engine_conditions = Page {
        total,
        rows: dates
            .into_iter()
            .zip(starts)
            .map(|(date, &start)| match start {
                1 => Ok(EngineConditionRow::new(EngineEvent::Started, date)),
                0 => Ok(EngineConditionRow::new(EngineEvent::Stopped, date)),
                _ => Err(ColumnsError::Value),
            })
            .collect::<Result<_, _>>()?,
    };
    if !r.bytes.is_empty() {
        return Err(ColumnsError::Trailing);
    }
    Ok(EquipmentHistory {
        id: rest.id,
        name: rest.name,
        make: rest.make,
        model: rest.model,
        serial_number: rest.serial_number,
        pin: rest.pin,
        vin: rest.vin,
        positions,
        fault_codes: rest.fault_codes,
        fuel_remainings,
        engine_conditions,
        daily_usages: rest.daily_usages,
    })
}

/// The bytes not read yet.
struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], ColumnsError> {
        if n > self.bytes.len() {
            return Err(ColumnsError::Truncated);
        }
        let (head, tail) = self.bytes.split_at(n);
        self.bytes = tail;
        Ok(head)
    }

    fn word(&mut self) -> Result<[u8; 8], ColumnsError> {
        self.take(8)?
            .first_chunk::<8>()
            .copied()
            .ok_or(ColumnsError::Truncated)
    }

    fn len(&mut self) -> Result<usize, ColumnsError> {
        usize::try_from(u64::from_le_bytes(self.word()?)).map_err(|_| ColumnsError::Truncated)
    }

    /// `len` values of `size` bytes each, if the bytes hold them.
    fn column(&mut self, len: usize, size: usize) -> Result<&'a [u8], ColumnsError> {
        self.take(len.checked_mul(size).ok_or(ColumnsError::Truncated)?)
    }

    fn f64s(&mut self, len: usize) -> Result<impl Iterator<Item = f64> + 'a, ColumnsError> {
        Ok(self.column(len, 8)?.chunks_exact(8).map(|c| {
            c.first_chunk::<8>()
                .map_or(f64::NAN, |a| f64::from_le_bytes(*a))
        }))
    }

    /// A page's total and its rows' dates.
    fn dates(&mut self) -> Result<(i64, Vec<Timestamp>), ColumnsError> {
        let total = i64::from_le_bytes(self.word()?);
        let len = self.len()?;
        let secs = self.column(len, 8)?;
        let millis = self.column(len, 2)?;
        let dates = secs
            .chunks_exact(8)
            .zip(millis.chunks_exact(2))
            .map(|(s, m)| {
                let s = s.first_chunk::<8>().map_or(0, |a| i64::from_le_bytes(*a));
                let m = m.first_chunk::<2>().map_or(0, |a| u16::from_le_bytes(*a));
                // As kept by `from_parts`: never more than 999.
                (m <= 999)
                    .then(|| Timestamp::from_parts(s, m))
                    .ok_or(ColumnsError::Value)
            })
            .collect::<Result<_, _>>()?;
        Ok((total, dates))
    }
}

#[cfg(test)]
#[path = "history_columns_tests.rs"]
mod tests;
