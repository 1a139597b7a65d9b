//! Room in the cache file: the least recently used windows go, to keep it
//! under its cap, or when the disk is full before a write is tried again.

use rusqlite::Connection;

use super::{Cache, CacheError};

impl Cache {
    /// The disk is full: drops the least recently used windows, at least
    /// twice `needed` bytes of rows (room for this write and the next), in
    /// one transaction. Returns the bytes dropped.
    pub(super) fn make_room(&self, needed: usize) -> Result<u64, CacheError> {
        let conn = self.conn();
        // What was read since counts as used; a failure to mark it (the
        // disk is full) only makes the order less exact.
        let _ = self.mark_touched(&conn);
        let goal = 2 * needed as u64;
        let (held, left) = drop_least_used(&conn, |held| held.saturating_sub(goal))?;
        let freed = held - left;
        if freed > 0 {
            tracing::info!(
                "the local cache's disk is full: {freed} bytes of the least used windows dropped"
            );
        }
        Ok(freed)
    }
}

/// Drops the least recently used windows (marked used in `used`, or when
/// stored), in one transaction, until those left hold at most
/// `target(held)` bytes of rows, `held` being what they all hold now.
/// Returns what they held and what is left.
pub(super) fn drop_least_used(
    conn: &Connection,
    target: impl FnOnce(u64) -> u64,
) -> Result<(u64, u64), CacheError> {
    let tx = conn.unchecked_transaction()?;
    let victims: Vec<(i64, i64)> = {
        let mut stmt = tx.prepare(
            "SELECT w.id, LENGTH(w.rows) FROM windows w LEFT JOIN used u ON u.id = w.id
                 ORDER BY MAX(w.last_used, COALESCE(u.last_used, 0)), w.id",
        )?;
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<Result<_, _>>()?
    };
    let held: u64 = victims.iter().map(|v| v.1.max(0) as u64).sum();
    let target = target(held);
    let mut left = held;
    {
        let mut delete = tx.prepare("DELETE FROM windows WHERE id = ?1")?;
        for (id, len) in victims {
            if left <= target {
                break;
            }
            delete.execute([id])?;
            left = left.saturating_sub(len.max(0) as u64);
        }
    }
    tx.commit()?;
    Ok((held, left))
}
