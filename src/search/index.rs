//! The search index: a SQLite file of every invoice this computer has seen — in a
//! customer's listing (Customer invoices, Cartera, the CLI's `list`) or in the journal
//! (every create and void) — with a trigram full-text table over its id, reference and
//! customer. A cache: deleting it loses nothing, and a damaged one is started again —
//! but only ever its own file: a file at its place that is not an index (the journal
//! itself, by a name or a link) is never written, and a damaged one is set aside
//! (renamed), never removed, since it might be someone's journal.

use super::{Seen, Status};
use rusqlite::{Connection, OptionalExtension, params};
use rust_decimal::Decimal;
use std::path::{Path, PathBuf};

/// The most invoices kept; past it the least recently seen go first.
pub const MAX_ROWS: u64 = 1_000_000;

/// The longest id, reference or customer kept: the service's fields are bounded at 255
/// when we send them; a longer one is not kept at all (an invoice with a longer id is
/// left out), never cut.
const MAX_FIELD: usize = 255;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS invoices (
    service   TEXT NOT NULL,
    id        TEXT NOT NULL,
    customer  TEXT,
    reference TEXT,
    amount    TEXT,
    currency  TEXT,
    status    TEXT NOT NULL,
    status_at TEXT NOT NULL,
    due       TEXT,
    listed    TEXT,
    journaled TEXT,
    words     TEXT NOT NULL,
    UNIQUE (service, id)
);
CREATE INDEX IF NOT EXISTS invoices_customer ON invoices(service, customer, due);
CREATE INDEX IF NOT EXISTS invoices_amount ON invoices(service, amount);
CREATE INDEX IF NOT EXISTS invoices_reference ON invoices(service, reference);
CREATE INDEX IF NOT EXISTS invoices_seen ON invoices(max(coalesce(listed, ''), coalesce(journaled, '')));
CREATE VIRTUAL TABLE IF NOT EXISTS invoices_text
    USING fts5(words, content='invoices', content_rowid='rowid', tokenize='trigram');
CREATE TRIGGER IF NOT EXISTS invoices_ai AFTER INSERT ON invoices BEGIN
    INSERT INTO invoices_text(rowid, words) VALUES (new.rowid, new.words);
END;
CREATE TRIGGER IF NOT EXISTS invoices_ad AFTER DELETE ON invoices BEGIN
    INSERT INTO invoices_text(invoices_text, rowid, words) VALUES ('delete', old.rowid, old.words);
END;
-- Only words that changed are indexed again: listing a customer again brings every
-- invoice's words back unchanged, and rewriting them took a second of CPU a listing.
-- (invoices_au, which rewrote them always, is dropped from files made before.)
DROP TRIGGER IF EXISTS invoices_au;
CREATE TRIGGER IF NOT EXISTS invoices_words AFTER UPDATE OF words ON invoices
    WHEN old.words IS NOT new.words BEGIN
    INSERT INTO invoices_text(invoices_text, rowid, words) VALUES ('delete', old.rowid, old.words);
    INSERT INTO invoices_text(rowid, words) VALUES (new.rowid, new.words);
END;
-- How many invoices it keeps (a count(*) of a million rows is a walk of an index:
-- it was read on every put to trim the index).
CREATE TABLE IF NOT EXISTS invoices_size (n INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS journals (
    place    TEXT PRIMARY KEY,
    last_seq INTEGER NOT NULL
);
";

/// The index's mark in its file's header (`PRAGMA application_id`, "IDSX"): a file
/// without it is not written unless it holds nothing but an index's tables.
const APPLICATION_ID: i32 = 0x4944_5358;

/// Why the index could not be read or written (it is a cache: the search says so and
/// goes on with what the journal knows).
#[derive(Debug)]
pub enum IndexError {
    /// SQLite's error reading or writing it.
    Sql(rusqlite::Error),
    /// The file at the index's place is another database (the journal, by its name or
    /// a link to it): left as it is.
    NotAnIndex(PathBuf),
}

/// The index's file, opened.
pub struct Index {
    conn: Connection,
    max_rows: u64,
}

/// Where the index is kept: beside a journal file (so a test's or a script's journal
/// has its own), in this computer's data folder for a desk's shared journal (each
/// computer its own: it holds what this computer read); none for a journal in memory
/// (an index in memory then serves each search).
pub fn place_for(journal: Option<&Path>) -> Option<PathBuf> {
    let journal = journal?;
    let text = journal.to_string_lossy();
    if text == ":memory:" {
        return None;
    }
    if !crate::journal::is_database_url(&text) {
        return journal.parent().map(|d| d.join(crate::journal::INDEX_FILE));
    }
    // A desk's journal: this computer's own index, in INVOICE_DESK_CONFIG_DIR when a
    // script or a test sets it (as the log is), else the data folder.
    match std::env::var_os("INVOICE_DESK_CONFIG_DIR") {
        Some(d) if !d.is_empty() => Some(PathBuf::from(d).join(crate::journal::INDEX_FILE)),
        _ => crate::journal::default_file()?
            .parent()
            .map(|d| d.join(crate::journal::INDEX_FILE)),
    }
}

/// The index at `place`, or one in memory when there is none.
pub fn open_at(place: Option<&Path>) -> Result<Index, IndexError> {
    match place {
        Some(p) => Index::open(p),
        None => Index::open_in_memory(),
    }
}

/// A field as kept: whole, never empty; one longer than [`MAX_FIELD`] is not kept (cut,
/// two ids would become one, and a cut id opened would be another invoice's or none).
fn bounded(text: Option<&str>) -> Option<String> {
    let t = text?.trim();
    (!t.is_empty() && t.chars().count() <= MAX_FIELD).then(|| t.to_string())
}

impl Index {
    /// Opens (or makes) the index at `path`. A damaged file is set aside (renamed, with
    /// its `-wal` and `-shm`) and the index started again: it only ever holds what can be
    /// read again. A readable database that is not an index is never written.
    pub fn open(path: &Path) -> Result<Index, IndexError> {
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        match Self::open_at(path) {
            Ok(index) => Ok(index),
            Err(IndexError::Sql(e)) if crate::journal::is_damage(&e) => {
                for suffix in ["", "-wal", "-shm"] {
                    let mut from = path.as_os_str().to_owned();
                    from.push(suffix);
                    let mut to = path.as_os_str().to_owned();
                    to.push(".damaged");
                    to.push(suffix);
                    // A rename moves a link, never what it points to; a file is kept.
                    let _ = std::fs::rename(PathBuf::from(from), PathBuf::from(to));
                }
                Self::open_at(path)
            }
            Err(e) => Err(e),
        }
    }

    fn open_at(path: &Path) -> Result<Index, IndexError> {
        let conn = Connection::open(path).map_err(IndexError::Sql)?;
        // Before the file is first read: another opener may be making or marking it
        // (without the wait, "database is locked" at once).
        Self::wait_for_others(&conn)?;
        Self::own(&conn, path)?;
        Self::ready(conn)
    }

    /// Makes sure the file is the index's own before anything is written: marked as the
    /// index, or holding nothing but an index's tables (one made before the mark, or a
    /// new file), which is then marked.
    fn own(conn: &Connection, path: &Path) -> Result<(), IndexError> {
        let id: i32 = conn
            .query_row("PRAGMA application_id", [], |r| r.get(0))
            .map_err(IndexError::Sql)?;
        if id == APPLICATION_ID {
            return Ok(());
        }
        let mut tables = conn
            .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
            .map_err(IndexError::Sql)?;
        let names: Vec<String> = tables
            .query_map([], |r| r.get(0))
            .map_err(IndexError::Sql)?
            .collect::<Result<_, _>>()
            .map_err(IndexError::Sql)?;
        let ours = |n: &str| {
            n == "invoices"
                || n == "journals"
                || n == "invoices_size"
                || n.starts_with("invoices_text")
                || n.starts_with("sqlite_")
        };
        if id != 0 || !names.iter().all(|n| ours(n)) {
            return Err(IndexError::NotAnIndex(path.to_path_buf()));
        }
        conn.execute_batch(&format!("PRAGMA application_id = {APPLICATION_ID}"))
            .map_err(IndexError::Sql)
    }

    /// An index in memory (a journal in memory has no folder to keep one in).
    pub fn open_in_memory() -> Result<Index, IndexError> {
        Self::ready(Connection::open_in_memory().map_err(IndexError::Sql)?)
    }

    /// The file in WAL mode (readers never wait for the writer). Switching takes an
    /// exclusive lock SQLite does not wait for (no busy handler there): another opener
    /// of a new file at the same moment is waited for here, as long as the busy wait.
    fn write_ahead(conn: &Connection) -> Result<(), IndexError> {
        let until = std::time::Instant::now() + std::time::Duration::from_secs(5);
        loop {
            match conn.query_row("PRAGMA journal_mode = WAL", [], |r| r.get::<_, String>(0)) {
                Ok(_) => return Ok(()),
                Err(rusqlite::Error::SqliteFailure(e, _))
                    if e.code == rusqlite::ErrorCode::DatabaseBusy
                        && std::time::Instant::now() < until =>
                {
                    std::thread::sleep(std::time::Duration::from_millis(10));
                }
                Err(e) => return Err(IndexError::Sql(e)),
            }
        }
    }

    /// The app and the CLI may write at once: each waits for the other briefly.
    fn wait_for_others(conn: &Connection) -> Result<(), IndexError> {
        conn.busy_timeout(std::time::Duration::from_secs(5))
            .map_err(IndexError::Sql)
    }

    fn ready(conn: Connection) -> Result<Index, IndexError> {
        Self::wait_for_others(&conn)?;
        Self::write_ahead(&conn)?;
        conn.execute_batch(SCHEMA).map_err(IndexError::Sql)?;
        Ok(Index {
            conn,
            max_rows: MAX_ROWS,
        })
    }

    /// Keeps at most `rows` invoices (tests of the bound).
    pub fn with_max_rows(mut self, rows: u64) -> Index {
        self.max_rows = rows.max(1);
        self
    }

    /// Keeps what was seen of these invoices at `service` (a listing read at `at`, or
    /// the journal's entries): what is new is added, what is known is brought up to
    /// date (the status only by a newer word than the one kept).
    pub fn put(&mut self, service: &str, seen: &[Seen]) -> Result<(), IndexError> {
        // Immediate: the write lock is taken (waited for) at the start. A transaction that
        // reads first and then writes cannot wait for another writer: SQLite refuses it at
        // once ("database is locked"), as waiting could deadlock.
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(IndexError::Sql)?;
        // A new row's rowid is the largest one plus one: the rows added are the growth
        // of the largest (an update keeps its row's).
        let top = |tx: &rusqlite::Transaction<'_>| -> Result<i64, IndexError> {
            tx.query_row("SELECT coalesce(max(rowid), 0) FROM invoices", [], |r| {
                r.get(0)
            })
            .map_err(IndexError::Sql)
        };
        let before = top(&tx)?;
        {
            let mut insert = tx
                .prepare_cached(
                    "INSERT INTO invoices (service, id, customer, reference, amount, currency,
                        status, status_at, due, listed, journaled, words)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11,
                        ?2 || ' ' || coalesce(?4, '') || ' ' || coalesce(?3, ''))
                     ON CONFLICT (service, id) DO UPDATE SET
                        customer = coalesce(excluded.customer, customer),
                        reference = coalesce(excluded.reference, reference),
                        amount = coalesce(excluded.amount, amount),
                        currency = coalesce(excluded.currency, currency),
                        due = coalesce(excluded.due, due),
                        status = CASE WHEN excluded.status_at >= status_at
                                      THEN excluded.status ELSE status END,
                        status_at = max(excluded.status_at, status_at),
                        listed = CASE WHEN listed IS NULL OR excluded.listed > listed
                                      THEN excluded.listed ELSE listed END,
                        journaled = CASE WHEN journaled IS NULL OR excluded.journaled > journaled
                                         THEN excluded.journaled ELSE journaled END,
                        words = excluded.id || ' ' || coalesce(excluded.reference, reference, '')
                                || ' ' || coalesce(excluded.customer, customer, '')
                     -- Only a row with news is written: a listing read again the same day
                     -- changes nothing but when it was seen (a 20,000-row listing rewrote
                     -- every row, #71), so when it was seen (what the bound forgets first)
                     -- is kept to the day.
                     WHERE coalesce(excluded.customer, customer) IS NOT customer
                        OR coalesce(excluded.reference, reference) IS NOT reference
                        OR coalesce(excluded.amount, amount) IS NOT amount
                        OR coalesce(excluded.currency, currency) IS NOT currency
                        OR coalesce(excluded.due, due) IS NOT due
                        OR (excluded.status_at >= status_at AND excluded.status IS NOT status)
                        OR (excluded.listed IS NOT NULL AND (listed IS NULL OR listed < ?12))
                        OR (excluded.journaled IS NOT NULL
                            AND (journaled IS NULL OR journaled < ?12))",
                )
                .map_err(IndexError::Sql)?;
            for s in seen {
                let Some(id) = bounded(Some(&s.id)) else {
                    continue;
                };
                let at = s.at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
                let day_before = (s.at - chrono::Duration::days(1))
                    .to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
                let (listed, journaled) = match s.from {
                    super::Source::Listing => (Some(at.as_str()), None),
                    super::Source::Journal => (None, Some(at.as_str())),
                };
                insert
                    .execute(params![
                        service,
                        id,
                        bounded(s.customer.as_deref()),
                        bounded(s.reference.as_deref()),
                        s.amount.map(|a| a.normalize().to_string()),
                        bounded(s.currency.as_deref()),
                        s.status.as_str(),
                        at,
                        s.due.map(|d| d.to_string()),
                        listed,
                        journaled,
                        day_before,
                    ])
                    .map_err(IndexError::Sql)?;
            }
        }
        let added = top(&tx)? - before;
        trim(&tx, self.max_rows, added)?;
        tx.commit().map_err(IndexError::Sql)
    }

    /// The journal's last sequence number read into the index, for the journal at `place`.
    pub fn journal_read_to(&self, place: &str) -> Result<i64, IndexError> {
        self.conn
            .query_row(
                "SELECT last_seq FROM journals WHERE place = ?1",
                params![place],
                |r| r.get(0),
            )
            .optional()
            .map(|n| n.unwrap_or(0))
            .map_err(IndexError::Sql)
    }

    /// Notes that the journal at `place` was read up to `seq`.
    pub fn set_journal_read_to(&mut self, place: &str, seq: i64) -> Result<(), IndexError> {
        self.conn
            .execute(
                "INSERT INTO journals (place, last_seq) VALUES (?1, ?2)
                 ON CONFLICT (place) DO UPDATE SET last_seq = excluded.last_seq",
                params![place, seq],
            )
            .map(|_| ())
            .map_err(IndexError::Sql)
    }

    /// How many invoices it keeps.
    pub fn len(&self) -> Result<u64, IndexError> {
        self.conn
            .query_row("SELECT count(*) FROM invoices", [], |r| r.get::<_, i64>(0))
            .map(|n| u64::try_from(n).unwrap_or(0))
            .map_err(IndexError::Sql)
    }

    /// Rows of the full-text table's own storage (tests: whether words were written).
    #[cfg(test)]
    pub(crate) fn text_rows(&self) -> i64 {
        self.conn
            .query_row("SELECT count(*) FROM invoices_text_data", [], |r| r.get(0))
            .unwrap()
    }

    /// The triggers the file holds (tests: a file made before is brought up to date).
    #[cfg(test)]
    pub(crate) fn triggers(&self) -> Vec<String> {
        let mut q = self
            .conn
            .prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name")
            .unwrap();
        q.query_map([], |r| r.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    }

    /// Whether it keeps none.
    pub fn is_empty(&self) -> Result<bool, IndexError> {
        self.len().map(|n| n == 0)
    }

    /// Invoices at `service` matching one of `ways`, at most `limit` for each way, the
    /// ways in the order given (the best first), each invoice once.
    pub fn find(
        &self,
        service: &str,
        ways: &[Way],
        limit: usize,
    ) -> Result<Vec<super::Hit>, IndexError> {
        const COLUMNS: &str =
            "id, customer, reference, amount, currency, status, due, listed, journaled";
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let mut hits: Vec<super::Hit> = Vec::new();
        for way in ways {
            let (sql, arg): (String, String) = match way {
                Way::Id(id) => (
                    format!(
                        "SELECT {COLUMNS} FROM invoices WHERE service = ?1 AND id = ?2 LIMIT ?3"
                    ),
                    id.clone(),
                ),
                Way::Reference(r) => (
                    format!(
                        "SELECT {COLUMNS} FROM invoices WHERE service = ?1 AND reference = ?2 LIMIT ?3"
                    ),
                    r.clone(),
                ),
                Way::Amount(currency, a) => (
                    format!(
                        "SELECT {COLUMNS} FROM invoices WHERE service = ?1 AND amount = ?2 {}
                         ORDER BY due DESC, rowid DESC LIMIT ?3",
                        // The code is ours, never typed: one of the two known.
                        currency.map_or(String::new(), |c| format!(
                            "AND coalesce(currency, '{}') = '{}'",
                            c.code(),
                            c.code()
                        ))
                    ),
                    a.normalize().to_string(),
                ),
                Way::Customer(c) => (
                    format!(
                        "SELECT {COLUMNS} FROM invoices WHERE service = ?1 AND customer = ?2
                         ORDER BY due DESC, rowid DESC LIMIT ?3"
                    ),
                    c.clone(),
                ),
                Way::Text(t) => (
                    format!(
                        // `+service`: the rows the text matches are looked up one by
                        // one; without it SQLite walked the service's whole index (161–184
                        // ms a query at 1,000,000 invoices, #71).
                        "SELECT {COLUMNS} FROM invoices WHERE rowid IN
                            (SELECT rowid FROM invoices_text WHERE invoices_text MATCH ?2)
                         AND +service = ?1 ORDER BY due DESC, rowid DESC LIMIT ?3"
                    ),
                    // One phrase: the text as typed, its quotes doubled.
                    format!("\"{}\"", t.replace('"', "\"\"")),
                ),
            };
            let mut stmt = self.conn.prepare_cached(&sql).map_err(IndexError::Sql)?;
            let rows = stmt
                .query_map(params![service, arg, limit], hit_of)
                .map_err(IndexError::Sql)?;
            for hit in rows {
                let hit = hit.map_err(IndexError::Sql)?;
                if !hits.iter().any(|h| h.id == hit.id) {
                    hits.push(hit);
                }
            }
        }
        Ok(hits)
    }
}

/// Drops the least recently seen invoices past `max_rows`, the size kept up to date
/// (`added` rows just now; counted once in a file made before it was kept).
fn trim(tx: &rusqlite::Transaction<'_>, max_rows: u64, added: i64) -> Result<(), IndexError> {
    let kept: Option<i64> = tx
        .query_row("SELECT n FROM invoices_size", [], |r| r.get(0))
        .optional()
        .map_err(IndexError::Sql)?;
    let rows = match kept {
        Some(n) => {
            if added != 0 {
                tx.execute("UPDATE invoices_size SET n = n + ?1", params![added])
                    .map_err(IndexError::Sql)?;
            }
            n + added
        }
        None => {
            let n: i64 = tx
                .query_row("SELECT count(*) FROM invoices", [], |r| r.get(0))
                .map_err(IndexError::Sql)?;
            tx.execute("INSERT INTO invoices_size (n) VALUES (?1)", params![n])
                .map_err(IndexError::Sql)?;
            n
        }
    };
    let over = u64::try_from(rows).unwrap_or(0).saturating_sub(max_rows);
    if over > 0 {
        let gone = tx
            .execute(
                "DELETE FROM invoices WHERE rowid IN (SELECT rowid FROM invoices
                    ORDER BY max(coalesce(listed, ''), coalesce(journaled, '')) LIMIT ?1)",
                params![i64::try_from(over).unwrap_or(i64::MAX)],
            )
            .map_err(IndexError::Sql)?;
        tx.execute("UPDATE invoices_size SET n = n - ?1", params![gone as i64])
            .map_err(IndexError::Sql)?;
    }
    Ok(())
}

/// One way an invoice can match what was typed.
#[derive(Clone, Debug, PartialEq)]
pub enum Way {
    /// Its id, exactly.
    Id(String),
    /// Its reference, exactly.
    Reference(String),
    /// Its amount, exactly, in this currency (or one not said); `None`: any.
    Amount(Option<crate::api::money::Currency>, Decimal),
    /// Its customer's id.
    Customer(String),
    /// Text found in its id, reference or customer id (3 characters or more).
    Text(String),
}

/// A row as a hit (a time or day that does not read is left out).
fn hit_of(r: &rusqlite::Row<'_>) -> rusqlite::Result<super::Hit> {
    let time = |i: usize| -> rusqlite::Result<Option<chrono::DateTime<chrono::Utc>>> {
        Ok(r.get::<_, Option<String>>(i)?
            .and_then(|t| chrono::DateTime::parse_from_rfc3339(&t).ok())
            .map(|t| t.with_timezone(&chrono::Utc)))
    };
    let amount: Option<String> = r.get(3)?;
    let status: String = r.get(5)?;
    let due: Option<String> = r.get(6)?;
    Ok(super::Hit {
        id: r.get(0)?,
        customer: r.get(1)?,
        customer_name: None,
        reference: r.get(2)?,
        amount: amount.and_then(|a| a.parse().ok()),
        currency: r.get(4)?,
        status: Status::parse(&status),
        due: due.and_then(|d| d.parse().ok()),
        listed: time(7)?,
        journaled: time(8)?,
    })
}
