//! A full disk: room is made in the cache file (the least recently used
//! windows go) before a write is tried again.

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
        let tx = conn.unchecked_transaction()?;
        let mut freed = 0u64;
        {
            let mut stmt = tx.prepare(
                "SELECT w.id, LENGTH(w.rows) FROM windows w LEFT JOIN used u ON u.id = w.id
                     ORDER BY MAX(w.last_used, COALESCE(u.last_used, 0)), w.id",
            )?;
            let victims: Vec<(i64, i64)> = stmt
                .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect::<Result<_, _>>()?;
            let mut delete = tx.prepare("DELETE FROM windows WHERE id = ?1")?;
            for (id, len) in victims {
                if freed >= goal {
                    break;
                }
                delete.execute([id])?;
                freed += len.max(0) as u64;
            }
        }
        tx.commit()?;
        if freed > 0 {
            tracing::info!(
                "the local cache's disk is full: {freed} bytes of the least used windows dropped"
            );
        }
        Ok(freed)
    }
}
