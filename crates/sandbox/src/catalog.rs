//! The integration catalog: data sources (static) and integrations (SQLite).
//!
//! Writes are committed with `synchronous=FULL` before the handler answers,
//! so an integration whose create was answered 200 survives `kill -9`.
//! Credential values are stored (a real service would hand them to its
//! connector) but never returned and never logged (D11).

use std::path::Path;
use std::sync::Mutex;

use rusqlite::{Connection, OptionalExtension, params};

use fleetview_api::model::{Credentials, DataSource, Integration, status};

/// OEM and telematics providers with the credential fields each requires.
pub(crate) fn data_sources() -> Vec<DataSource> {
    const SOURCES: &[(&str, &str, &[&str])] = &[
        (
            "CAT_VISIONLINK",
            "Caterpillar VisionLink",
            &["clientId", "clientSecret", "dealerCode"],
        ),
        (
            "KOMATSU_KOMTRAX",
            "Komatsu Komtrax",
            &["username", "password", "customerNumber"],
        ),
        (
            "VOLVO_ACTIVECARE",
            "Volvo CE ActiveCare Direct",
            &["apiKey", "customerId"],
        ),
        (
            "JOHN_DEERE_JDLINK",
            "John Deere JDLink",
            &["clientId", "clientSecret", "organizationId"],
        ),
        (
            "JCB_LIVELINK",
            "JCB LiveLink",
            &["username", "password", "apiKey"],
        ),
        (
            "LIEBHERR_LIDAT",
            "Liebherr LiDAT",
            &["username", "password", "accountNumber"],
        ),
        (
            "HITACHI_CONSITE",
            "Hitachi ConSite",
            &["accountId", "apiToken"],
        ),
        (
            "AEMP_GENERIC",
            "AEMP 2.0 / ISO 15143-3 feed",
            &["endpointUrl", "username", "password"],
        ),
        (
            "GEOTAB",
            "Geotab MyGeotab",
            &["server", "database", "username", "password"],
        ),
        ("SAMSARA", "Samsara", &["apiToken"]),
    ];
    SOURCES
        .iter()
        .map(|(code, label, creds)| DataSource {
            code: (*code).to_owned(),
            label: (*label).to_owned(),
            credentials: creds.iter().map(|c| (*c).to_owned()).collect(),
        })
        .collect()
}

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("integration {0} not found")]
    NotFound(i64),
    #[error("catalog database: {0}")]
    Db(#[from] rusqlite::Error),
}

/// Integrations in a SQLite file (or in memory for throwaway sandboxes).
#[derive(Debug)]
pub(crate) struct Store {
    conn: Mutex<Connection>,
}

impl Store {
    pub(crate) fn open(path: &Path) -> Result<Self, StoreError> {
        let conn = Connection::open(path)?;
        Self::init(conn)
    }

    pub(crate) fn in_memory() -> Result<Self, StoreError> {
        Self::init(Connection::open_in_memory()?)
    }

    fn init(conn: Connection) -> Result<Self, StoreError> {
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.execute_batch(
            "CREATE TABLE IF NOT EXISTS integrations (
                 id INTEGER PRIMARY KEY AUTOINCREMENT,
                 name TEXT NOT NULL,
                 data_source_code TEXT NOT NULL,
                 status TEXT NOT NULL,
                 credentials TEXT NOT NULL
             );
             CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value BLOB NOT NULL);",
        )?;
        let store = Self {
            conn: Mutex::new(conn),
        };
        store.seed_once()?;
        Ok(store)
    }

    fn conn(&self) -> std::sync::MutexGuard<'_, Connection> {
        // A panic while holding the lock cannot leave SQLite half-written
        // (every write is one statement or transaction), so carry on.
        self.conn.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A new sandbox shows a few integrations, so the catalog is not empty.
    fn seed_once(&self) -> Result<(), StoreError> {
        let conn = self.conn();
        let seeded: Option<Vec<u8>> = conn
            .query_row("SELECT value FROM settings WHERE key = 'seeded'", [], |r| {
                r.get(0)
            })
            .optional()?;
        if seeded.is_some() {
            return Ok(());
        }
        let tx = conn.unchecked_transaction()?;
        for (name, code, st, creds) in [
            (
                "Caterpillar fleet",
                "CAT_VISIONLINK",
                status::RUNNING,
                r#"{"clientId":"demo","clientSecret":"demo","dealerCode":"D123"}"#,
            ),
            (
                "Road trucks",
                "GEOTAB",
                status::RUNNING,
                r#"{"server":"my.geotab.com","database":"demo","username":"demo","password":"demo"}"#,
            ),
            (
                "Volvo CE machines",
                "VOLVO_ACTIVECARE",
                status::STOPPED,
                r#"{"apiKey":"demo","customerId":"C-42"}"#,
            ),
        ] {
            tx.execute(
                "INSERT INTO integrations (name, data_source_code, status, credentials) VALUES (?1, ?2, ?3, ?4)",
                params![name, code, st, creds],
            )?;
        }
        tx.execute(
            "INSERT INTO settings (key, value) VALUES ('seeded', x'01')",
            [],
        )?;
        tx.commit()?;
        Ok(())
    }

    /// A secret kept in the store (the JWT signing key), made on first use.
    pub(crate) fn secret<E: From<StoreError>>(
        &self,
        key: &str,
        make: impl FnOnce() -> Result<Vec<u8>, E>,
    ) -> Result<Vec<u8>, E> {
        let conn = self.conn();
        let found: Option<Vec<u8>> = conn
            .query_row("SELECT value FROM settings WHERE key = ?1", [key], |r| {
                r.get(0)
            })
            .optional()
            .map_err(StoreError::from)?;
        if let Some(v) = found {
            return Ok(v);
        }
        let v = make()?;
        conn.execute(
            "INSERT INTO settings (key, value) VALUES (?1, ?2)",
            params![key, v],
        )
        .map_err(StoreError::from)?;
        Ok(v)
    }

    pub(crate) fn list(&self) -> Result<Vec<Integration>, StoreError> {
        let conn = self.conn();
        let mut stmt = conn.prepare_cached(
            "SELECT id, name, data_source_code, status FROM integrations ORDER BY id",
        )?;
        let rows = stmt.query_map([], |r| {
            Ok(Integration {
                id: r.get(0)?,
                name: r.get(1)?,
                data_source_code: r.get(2)?,
                status: r.get(3)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    pub(crate) fn get(&self, id: i64) -> Result<Integration, StoreError> {
        self.conn()
            .query_row(
                "SELECT id, name, data_source_code, status FROM integrations WHERE id = ?1",
                [id],
                |r| {
                    Ok(Integration {
                        id: r.get(0)?,
                        name: r.get(1)?,
                        data_source_code: r.get(2)?,
                        status: r.get(3)?,
                    })
                },
            )
            .optional()?
            .ok_or(StoreError::NotFound(id))
    }

    pub(crate) fn create(
        &self,
        name: &str,
        source: &str,
        creds: &Credentials,
    ) -> Result<i64, StoreError> {
        let conn = self.conn();
        conn.execute(
            "INSERT INTO integrations (name, data_source_code, status, credentials) VALUES (?1, ?2, ?3, ?4)",
            params![name, source, status::RUNNING, credentials_json(creds)],
        )?;
        Ok(conn.last_insert_rowid())
    }

    pub(crate) fn update(
        &self,
        id: i64,
        name: &str,
        creds: Option<&Credentials>,
    ) -> Result<(), StoreError> {
        let changed = match creds {
            Some(c) => self.conn().execute(
                "UPDATE integrations SET name = ?2, credentials = ?3 WHERE id = ?1",
                params![id, name, credentials_json(c)],
            )?,
            None => self.conn().execute(
                "UPDATE integrations SET name = ?2 WHERE id = ?1",
                params![id, name],
            )?,
        };
        if changed == 0 {
            return Err(StoreError::NotFound(id));
        }
        Ok(())
    }

    pub(crate) fn delete(&self, id: i64) -> Result<(), StoreError> {
        if self
            .conn()
            .execute("DELETE FROM integrations WHERE id = ?1", [id])?
            == 0
        {
            return Err(StoreError::NotFound(id));
        }
        Ok(())
    }

    pub(crate) fn set_status(&self, id: i64, status: &str) -> Result<(), StoreError> {
        if self.conn().execute(
            "UPDATE integrations SET status = ?2 WHERE id = ?1",
            params![id, status],
        )? == 0
        {
            return Err(StoreError::NotFound(id));
        }
        Ok(())
    }
}

fn credentials_json(creds: &Credentials) -> String {
    let map: serde_json::Map<String, serde_json::Value> = creds
        .iter()
        .map(|(k, v)| (k.clone(), serde_json::Value::String(v.expose().to_owned())))
        .collect();
    serde_json::Value::Object(map).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use fleetview_api::model::SecretValue;

    #[test]
    fn every_source_has_distinct_code_and_credentials() {
        let sources = data_sources();
        assert!(sources.len() >= 8);
        let mut codes: Vec<_> = sources.iter().map(|s| &s.code).collect();
        codes.sort();
        codes.dedup();
        assert_eq!(codes.len(), sources.len());
        assert!(sources.iter().all(|s| !s.credentials.is_empty()));
    }

    #[test]
    fn crud_round_trip_in_a_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("catalog.sqlite");
        let store = Store::open(&path).expect("open");
        let seeded = store.list().expect("list").len();
        let mut creds = Credentials::new();
        creds.insert("apiToken".into(), SecretValue::new("s3cr3t"));
        let id = store.create("Trucks", "SAMSARA", &creds).expect("create");
        assert_eq!(store.get(id).expect("get").status, "running");
        store.update(id, "Trucks EU", None).expect("rename");
        store.set_status(id, "stopped").expect("stop");
        drop(store);
        // Reopened: the write is there and seeding did not run twice.
        let store = Store::open(&path).expect("reopen");
        let all = store.list().expect("list");
        assert_eq!(all.len(), seeded + 1);
        let it = store.get(id).expect("get");
        assert_eq!(
            (it.name.as_str(), it.status.as_str()),
            ("Trucks EU", "stopped")
        );
        store.delete(id).expect("delete");
        assert!(matches!(store.delete(id), Err(StoreError::NotFound(_))));
        assert!(matches!(store.get(id), Err(StoreError::NotFound(_))));
    }
}
