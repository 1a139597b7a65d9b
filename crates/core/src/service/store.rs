//! The service book: the app's own SQLite file in its data folder (not the
//! cache: never evicted, never cleared with it). Its schema is versioned
//! (`user_version`) and migrated forward; every write is one transaction,
//! committed (synchronous, rollback journal) before it returns, so what
//! the app said was saved survives a crash. A file it cannot read, or one
//! a newer fleetview wrote, is opened read-only and never written.
//!
//! Plans and services done are kept per service (the scope of its cache:
//! equipment ids are each service's own).

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use rusqlite::{Connection, OpenFlags, params};

use super::import::Imported;
use super::plan::{
    Day, DoneRecord, LastDone, Plan, PlanId, PlanScope, PlanUnit, ServiceBook, StoredPlan,
};

/// Each step of the schema, from version `i` to `i + 1`.
const MIGRATIONS: [&str; 1] = [r"
    CREATE TABLE plans (
        id INTEGER PRIMARY KEY,
        service TEXT NOT NULL,
        scope_kind TEXT NOT NULL CHECK (scope_kind IN ('machine', 'category')),
        scope TEXT NOT NULL,
        task TEXT NOT NULL,
        task_key TEXT NOT NULL,
        every REAL NOT NULL CHECK (every > 0),
        unit TEXT NOT NULL CHECK (unit IN ('h', 'km', 'days')),
        last_done_day INTEGER,
        last_done_meter REAL,
        UNIQUE (service, scope_kind, scope, task_key)
    );
    CREATE TABLE done (
        id INTEGER PRIMARY KEY,
        service TEXT NOT NULL,
        equipment INTEGER NOT NULL,
        task TEXT NOT NULL,
        unit TEXT NOT NULL CHECK (unit IN ('h', 'km', 'days')),
        day INTEGER NOT NULL,
        meter REAL,
        recorded_at INTEGER NOT NULL
    );
    CREATE INDEX done_by_machine ON done (service, equipment);
"];

/// The schema this build writes.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// A file name in the data folder.
pub const FILE_NAME: &str = "service.sqlite";

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// Opened read-only (why): nothing is written.
    #[error("the service book is read-only: {0}")]
    ReadOnly(String),
    #[error("a plan for {task:?} on {scope} exists already")]
    Duplicate { scope: String, task: String },
    #[error("the service book could not be read or written: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("the service book's folder could not be made: {0}")]
    Io(#[from] std::io::Error),
}

/// What an import did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ImportCount {
    pub added: usize,
    /// Plans of the same scope and task, replaced.
    pub replaced: usize,
}

#[derive(Debug)]
pub struct ServiceStore {
    conn: Mutex<Connection>,
    path: PathBuf,
    /// Why it is read-only; `None`: writable.
    read_only: Option<String>,
}

fn task_key(task: &str) -> String {
    task.trim().to_lowercase()
}

fn scope_cols(scope: &PlanScope) -> (&'static str, String) {
    match scope {
        PlanScope::Machine(id) => ("machine", id.to_string()),
        PlanScope::Category(c) => ("category", c.trim().to_owned()),
    }
}

impl ServiceStore {
    /// `service.sqlite` in the user's data folder.
    pub fn default_path() -> Option<PathBuf> {
        dirs::data_dir().map(|d| d.join("fleetview").join(FILE_NAME))
    }

    /// Opens (or makes) the file. One it cannot use is opened read-only,
    /// with why; one it cannot open at all is an error.
    pub fn open(path: &Path) -> Result<Self, StoreError> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let conn = Connection::open(path)?;
        match Self::checked(&conn) {
            Ok(()) => {
                conn.execute_batch("PRAGMA journal_mode = DELETE; PRAGMA synchronous = FULL;")?;
                migrate(&conn)?;
                Ok(Self {
                    conn: Mutex::new(conn),
                    path: path.to_owned(),
                    read_only: None,
                })
            }
            Err(why) => {
                drop(conn);
                tracing::warn!(path = %path.display(), %why, "service book opened read-only");
                let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY)?;
                Ok(Self {
                    conn: Mutex::new(conn),
                    path: path.to_owned(),
                    read_only: Some(why),
                })
            }
        }
    }

    /// Whether the file may be written: an SQLite database, whole, of a
    /// schema this build knows.
    fn checked(conn: &Connection) -> Result<(), String> {
        // SQLite's own words go to the log; the user is told what it means.
        let damaged = |e: rusqlite::Error| {
            tracing::warn!(error = %e, "the service book could not be checked");
            "the file is damaged or not a service book".to_owned()
        };
        let version: i64 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .map_err(damaged)?;
        let check: String = conn
            .query_row("PRAGMA quick_check", [], |r| r.get(0))
            .map_err(damaged)?;
        if check != "ok" {
            tracing::warn!(%check, "the service book's check failed");
            return Err("the file is damaged".to_owned());
        }
        if version > SCHEMA_VERSION {
            return Err(format!(
                "it was written by a newer fleetview (schema {version}; this one knows {SCHEMA_VERSION})"
            ));
        }
        Ok(())
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Why nothing can be written, if so.
    pub fn read_only(&self) -> Option<&str> {
        self.read_only.as_deref()
    }

    fn writable(&self) -> Result<std::sync::MutexGuard<'_, Connection>, StoreError> {
        if let Some(why) = &self.read_only {
            return Err(StoreError::ReadOnly(why.clone()));
        }
        Ok(self.lock())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Connection> {
        // A panic while holding it left no transaction open (rusqlite
        // rolls back on drop): the connection is still good.
        self.conn.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Everything kept for `service`.
    pub fn book(&self, service: &str) -> Result<ServiceBook, StoreError> {
        let conn = self.lock();
        let mut plans = Vec::new();
        let mut stmt = conn.prepare(
            "SELECT id, scope_kind, scope, task, every, unit, last_done_day, last_done_meter
             FROM plans WHERE service = ?1 ORDER BY scope_kind DESC, scope, task_key",
        )?;
        let rows = stmt.query_map(params![service], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, f64>(4)?,
                r.get::<_, String>(5)?,
                r.get::<_, Option<i64>>(6)?,
                r.get::<_, Option<f64>>(7)?,
            ))
        })?;
        for row in rows {
            let (id, kind, scope, task, every, unit, day, meter) = row?;
            let scope = match (kind.as_str(), scope.parse::<i64>()) {
                ("machine", Ok(id)) => PlanScope::Machine(id),
                ("machine", Err(_)) => continue,
                _ => PlanScope::Category(scope),
            };
            let Some(unit) = PlanUnit::from_key(&unit) else {
                continue;
            };
            plans.push(StoredPlan {
                id: PlanId(id),
                plan: Plan {
                    scope,
                    task,
                    every,
                    unit,
                    last_done: day.map(|d| LastDone { day: Day(d), meter }),
                },
            });
        }
        let mut stmt = conn.prepare(
            "SELECT equipment, task, unit, day, meter, recorded_at FROM done
             WHERE service = ?1 ORDER BY day, recorded_at, id",
        )?;
        let rows = stmt.query_map(params![service], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, i64>(3)?,
                r.get::<_, Option<f64>>(4)?,
                r.get::<_, i64>(5)?,
            ))
        })?;
        let mut done = Vec::new();
        for row in rows {
            let (equipment, task, unit, day, meter, recorded_at) = row?;
            let Some(unit) = PlanUnit::from_key(&unit) else {
                continue;
            };
            done.push(DoneRecord {
                equipment,
                task,
                unit,
                done: LastDone {
                    day: Day(day),
                    meter,
                },
                recorded_at,
            });
        }
        Ok(ServiceBook { plans, done })
    }

    /// A new plan (`id` none) or a plan changed; committed on return.
    pub fn save_plan(
        &self,
        service: &str,
        id: Option<PlanId>,
        plan: &Plan,
    ) -> Result<PlanId, StoreError> {
        let conn = self.writable()?;
        let (kind, scope) = scope_cols(&plan.scope);
        let (day, meter) = (
            plan.last_done.map(|l| l.day.0),
            plan.last_done.and_then(|l| l.meter),
        );
        let result = match id {
            None => insert_plan(&conn, service, plan).map(|_| PlanId(conn.last_insert_rowid())),
            Some(id) => conn
                .execute(
                    "UPDATE plans SET scope_kind = ?2, scope = ?3, task = ?4, task_key = ?5, every = ?6,
                     unit = ?7, last_done_day = ?8, last_done_meter = ?9 WHERE id = ?1 AND service = ?10",
                    params![id.0, kind, scope, plan.task.trim(), task_key(&plan.task), plan.every, plan.unit.key(), day, meter, service],
                )
                .map(|_| id),
        };
        result.map_err(|e| duplicate(e, plan))
    }

    pub fn delete_plan(&self, service: &str, id: PlanId) -> Result<(), StoreError> {
        let conn = self.writable()?;
        conn.execute(
            "DELETE FROM plans WHERE id = ?1 AND service = ?2",
            params![id.0, service],
        )?;
        Ok(())
    }

    /// A service done; committed on return.
    pub fn record_done(&self, service: &str, record: &DoneRecord) -> Result<(), StoreError> {
        let conn = self.writable()?;
        insert_done(&conn, service, record)?;
        Ok(())
    }

    /// Everything read from a file, in one transaction: plans replace
    /// those of the same scope and task, services done are added.
    pub fn import(&self, service: &str, imported: &Imported) -> Result<ImportCount, StoreError> {
        let mut conn = self.writable()?;
        let tx = conn.transaction()?;
        let mut count = ImportCount::default();
        match imported {
            Imported::Plans(rows) => {
                for (_, plan) in rows {
                    let (kind, scope) = scope_cols(&plan.scope);
                    let gone = tx.execute(
                        "DELETE FROM plans WHERE service = ?1 AND scope_kind = ?2 AND scope = ?3 AND task_key = ?4",
                        params![service, kind, scope, task_key(&plan.task)],
                    )?;
                    if gone > 0 {
                        count.replaced += 1;
                    } else {
                        count.added += 1;
                    }
                    insert_plan(&tx, service, plan)?;
                }
            }
            Imported::Done(rows) => {
                for (_, r) in rows {
                    insert_done(&tx, service, r)?;
                    count.added += 1;
                }
            }
        }
        tx.commit()?;
        Ok(count)
    }
}

fn insert_plan(conn: &Connection, service: &str, plan: &Plan) -> rusqlite::Result<usize> {
    let (kind, scope) = scope_cols(&plan.scope);
    conn.execute(
        "INSERT INTO plans (service, scope_kind, scope, task, task_key, every, unit,
         last_done_day, last_done_meter) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        params![
            service,
            kind,
            scope,
            plan.task.trim(),
            task_key(&plan.task),
            plan.every,
            plan.unit.key(),
            plan.last_done.map(|l| l.day.0),
            plan.last_done.and_then(|l| l.meter)
        ],
    )
}

fn insert_done(conn: &Connection, service: &str, r: &DoneRecord) -> rusqlite::Result<usize> {
    conn.execute(
        "INSERT INTO done (service, equipment, task, unit, day, meter, recorded_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![
            service,
            r.equipment,
            r.task.trim(),
            r.unit.key(),
            r.done.day.0,
            r.done.meter,
            r.recorded_at
        ],
    )
}

fn duplicate(e: rusqlite::Error, plan: &Plan) -> StoreError {
    match e {
        rusqlite::Error::SqliteFailure(f, _)
            if f.code == rusqlite::ErrorCode::ConstraintViolation =>
        {
            StoreError::Duplicate {
                scope: match &plan.scope {
                    PlanScope::Machine(id) => format!("machine {id}"),
                    PlanScope::Category(c) => format!("category {c}"),
                },
                task: plan.task.trim().to_owned(),
            }
        }
        e => StoreError::Sqlite(e),
    }
}

/// Brings the file's schema up to this build's, one step per transaction.
fn migrate(conn: &Connection) -> rusqlite::Result<()> {
    let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    for (i, step) in MIGRATIONS.iter().enumerate().skip(version.max(0) as usize) {
        conn.execute_batch(&format!(
            "BEGIN; {step} PRAGMA user_version = {}; COMMIT;",
            i + 1
        ))?;
    }
    Ok(())
}
