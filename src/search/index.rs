//! The search index: a SQLite file of every invoice this computer has seen — in a
//! customer's listing (Customer invoices, Cartera, the CLI's `list`) or in the journal
//! (every create and void) — with a trigram full-text table over its id, reference and
//! customer. A cache: deleting it loses nothing, and a damaged one is started again —
//! but only ever its own file: a file at its place that is not an index (the journal
//! itself, by a name or a link) is never written, and a damaged one is set aside
//! (renamed), never removed, since it might be someone's journal.

use super::{Seen, Status, grams};
use rusqlite::{Connection, OptionalExtension, params};
use rust_decimal::Decimal;
use std::path::{Path, PathBuf};

/// The most invoices kept; past it the least recently seen go first.
pub const MAX_ROWS: u64 = 1_000_000;

/// The longest id, reference or customer kept: the service's fields are bounded at 255
/// when we send them; a longer one is not kept at all (an invoice with a longer id is
/// left out), never cut.
const MAX_FIELD: usize = 255;

/// Whether what was seen of a row (parameters 3 to 9 of [`Index::put`]'s statements)
/// is news to the row kept: a field said that differs, or a newer status.
macro_rules! news {
    () => {
        "(coalesce(?3, customer) IS NOT customer
          OR coalesce(?4, reference) IS NOT reference
          OR coalesce(?5, amount) IS NOT amount
          OR coalesce(?6, currency) IS NOT currency
          OR coalesce(?9, due) IS NOT due
          OR (?8 >= status_at AND ?7 IS NOT status))"
    };
}

/// Whether the row kept was last seen (listed: ?10, journaled: ?11) before ?12, a day
/// before now: when it was seen is then written anew.
macro_rules! seen_anew {
    () => {
        "((?10 IS NOT NULL AND (listed IS NULL OR listed < ?12))
          OR (?11 IS NOT NULL AND (journaled IS NULL OR journaled < ?12)))"
    };
}

/// A row not kept yet ([`Index::put`]).
const INSERT: &str = "INSERT INTO invoices (service, id, customer, reference, amount, currency,
    status, status_at, due, listed, journaled)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)";

/// A row kept, with news ([`Index::put`]): its rowid, then what was seen (customer,
/// reference, amount, currency, status, when, due, listed, journaled).
const NEWS: &str = "UPDATE invoices SET
    customer = coalesce(?2, customer),
    reference = coalesce(?3, reference),
    amount = coalesce(?4, amount),
    currency = coalesce(?5, currency),
    due = coalesce(?8, due),
    status = CASE WHEN ?7 >= status_at THEN ?6 ELSE status END,
    status_at = max(?7, status_at),
    listed = CASE WHEN listed IS NULL OR ?9 > listed THEN ?9 ELSE listed END,
    journaled = CASE WHEN journaled IS NULL OR ?10 > journaled THEN ?10 ELSE journaled END
    WHERE rowid = ?1";

/// The layout of the index's tables (`PRAGMA user_version`). 2: services by number,
/// times in seconds, days as numbers, the words not kept but made from the columns, the
/// full-text table without positions, no index of references (#71: 1,088 bytes an
/// invoice at 1,000,000, now about 210). A file of an earlier layout is started again.
const LAYOUT: i32 = 2;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS services (
    n   INTEGER PRIMARY KEY,
    url TEXT NOT NULL UNIQUE
);
-- Times are seconds since 1970 (UTC); due is days since 1970-01-01.
CREATE TABLE IF NOT EXISTS invoices (
    service   INTEGER NOT NULL,
    id        TEXT NOT NULL,
    customer  TEXT,
    reference TEXT,
    amount    TEXT,
    currency  TEXT,
    status    TEXT NOT NULL,
    status_at INTEGER NOT NULL,
    due       INTEGER,
    listed    INTEGER,
    journaled INTEGER,
    UNIQUE (service, id)
);
CREATE INDEX IF NOT EXISTS invoices_customer ON invoices(service, customer, due);
CREATE INDEX IF NOT EXISTS invoices_amount ON invoices(service, amount);
-- When rows were seen is not indexed: every row of a listing read a day later moved in
-- that index (half of the time it took to keep, #71), and only the bound reads it, once
-- in a hundredth of the bound's new rows (`trim`: a walk of the table, 0.13 s at a
-- million). Dropped from a file made with it (nothing is written when it is gone).
DROP INDEX IF EXISTS invoices_seen;
-- The words the full-text table indexes, made from the row (kept once, not twice).
CREATE VIEW IF NOT EXISTS invoices_words (n, words) AS
    SELECT rowid, id || ' ' || coalesce(reference, '') || ' ' || coalesce(customer, '')
    FROM invoices;
-- Which rows hold each trigram, not where in them (detail=none: less than half the
-- size); a text is then checked in the row itself (`Index::find`).
CREATE VIRTUAL TABLE IF NOT EXISTS invoices_text
    USING fts5(words, content='invoices_words', content_rowid='n', tokenize='trigram',
               detail=none, columnsize=0);
CREATE TRIGGER IF NOT EXISTS invoices_ai AFTER INSERT ON invoices BEGIN
    INSERT INTO invoices_text(rowid, words) VALUES (new.rowid,
        new.id || ' ' || coalesce(new.reference, '') || ' ' || coalesce(new.customer, ''));
END;
CREATE TRIGGER IF NOT EXISTS invoices_ad AFTER DELETE ON invoices BEGIN
    INSERT INTO invoices_text(invoices_text, rowid, words) VALUES ('delete', old.rowid,
        old.id || ' ' || coalesce(old.reference, '') || ' ' || coalesce(old.customer, ''));
END;
-- Only words that changed are indexed again: listing a customer again brings every
-- invoice's words back unchanged.
CREATE TRIGGER IF NOT EXISTS invoices_words AFTER UPDATE OF id, reference, customer
    ON invoices WHEN old.reference IS NOT new.reference OR old.customer IS NOT new.customer
                  OR old.id IS NOT new.id BEGIN
    INSERT INTO invoices_text(invoices_text, rowid, words) VALUES ('delete', old.rowid,
        old.id || ' ' || coalesce(old.reference, '') || ' ' || coalesce(old.customer, ''));
    INSERT INTO invoices_text(rowid, words) VALUES (new.rowid,
        new.id || ' ' || coalesce(new.reference, '') || ' ' || coalesce(new.customer, ''));
END;
-- How many invoices it keeps (a count(*) of a million rows is a walk of an index:
-- it was read on every put to trim the index).
CREATE TABLE IF NOT EXISTS invoices_size (n INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS journals (
    place    TEXT PRIMARY KEY,
    last_seq INTEGER NOT NULL
);
";

/// What an index of an earlier layout held, dropped before [`SCHEMA`] makes it anew.
const EARLIER: &str = "
DROP TABLE IF EXISTS invoices_text;
DROP VIEW IF EXISTS invoices_words;
DROP TABLE IF EXISTS invoices;
DROP TABLE IF EXISTS invoices_size;
DROP TABLE IF EXISTS journals;
DROP TABLE IF EXISTS services;
";

/// A put of this many invoices gives its log's space back at once ([`Index::put`]).
const BIG_PUT: usize = 5_000;

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
    /// The index at this place was laid out by a newer build: left as it is.
    Newer(PathBuf),
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
        Self::ready(conn).map_err(|e| match e {
            IndexError::Newer(_) => IndexError::Newer(path.to_path_buf()),
            e => e,
        })
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
                || n == "services"
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

    fn ready(mut conn: Connection) -> Result<Index, IndexError> {
        Self::wait_for_others(&conn)?;
        Self::write_ahead(&conn)?;
        Self::lay_out(&mut conn)?;
        add_folded_contains(&conn)?;
        // The log is cut to this after it was written back (its pages are reused, so
        // one big put would otherwise leave it as big as itself for good).
        conn.query_row("PRAGMA journal_size_limit = 4194304", [], |_| Ok(()))
            .map_err(IndexError::Sql)?;
        // A cache: in WAL mode NORMAL never leaves it damaged, and a put lost to a power
        // cut is read again; each put's sync of the log is saved (the journal, which is
        // no cache, keeps its own setting).
        conn.execute_batch("PRAGMA synchronous = NORMAL")
            .map_err(IndexError::Sql)?;
        Ok(Index {
            conn,
            max_rows: MAX_ROWS,
        })
    }

    /// Makes the tables of [`LAYOUT`]. A file of an earlier layout is started again: a
    /// cache, what the journal knows is read into it at the next search and a listing
    /// when it is read again (copying a million rows over would hold the first search
    /// for a minute). One of a later layout, a newer build's, is left as it is.
    fn lay_out(conn: &mut Connection) -> Result<(), IndexError> {
        let layout: i32 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .map_err(IndexError::Sql)?;
        if layout == LAYOUT {
            // Nothing is written when every table is there: an opener never waits for
            // a put under way (the app keeps a listing while the clerk searches).
            return conn.execute_batch(SCHEMA).map_err(IndexError::Sql);
        }
        // Immediate: two openers of an earlier file at once lay it out once.
        let tx = conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(IndexError::Sql)?;
        let layout: i32 = tx
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .map_err(IndexError::Sql)?;
        if layout > LAYOUT {
            return Err(IndexError::Newer(PathBuf::new()));
        }
        let earlier = layout < LAYOUT
            && tx
                .query_row(
                    "SELECT count(*) FROM sqlite_master WHERE name = 'invoices'",
                    [],
                    |r| r.get::<_, i64>(0),
                )
                .map_err(IndexError::Sql)?
                > 0;
        if earlier {
            tx.execute_batch(EARLIER).map_err(IndexError::Sql)?;
        }
        tx.execute_batch(SCHEMA).map_err(IndexError::Sql)?;
        if layout != LAYOUT {
            tx.execute_batch(&format!("PRAGMA user_version = {LAYOUT}"))
                .map_err(IndexError::Sql)?;
        }
        tx.commit().map_err(IndexError::Sql)?;
        if earlier {
            // The earlier rows' pages back to the disk. Another reader at this moment
            // makes it fail: the file then keeps its size, its free pages used again
            // as the index fills.
            let _ = conn.execute_batch("VACUUM");
        }
        Ok(())
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
        let service = service_number(&tx, service)?;
        let mut unchanged: Vec<String> = Vec::new();
        {
            // Each row is looked up once and written only as it must be, by its rowid:
            // new, with news, seen anew (a day or more since), or not at all. (An upsert
            // first and an update after it looked each row up twice: a listing read a
            // day later took ×3.4–3.8 its decoding at 1,000,000, #71.)
            let mut known = tx
                .prepare_cached(concat!(
                    "SELECT rowid, ",
                    news!(),
                    ", ",
                    seen_anew!(),
                    " FROM invoices WHERE service = ?1 AND id = ?2"
                ))
                .map_err(IndexError::Sql)?;
            // A row of a listing read a day later, most often seen anew without news:
            // then one statement finds and writes it (tried first while the row before
            // was such a row).
            let mut only_seen_anew = tx
                .prepare_cached(concat!(
                    "UPDATE invoices
                     SET listed = coalesce(?10, listed), journaled = coalesce(?11, journaled)
                     WHERE service = ?1 AND id = ?2 AND NOT ",
                    news!(),
                    " AND ",
                    seen_anew!()
                ))
                .map_err(IndexError::Sql)?;
            let mut insert = tx.prepare_cached(INSERT).map_err(IndexError::Sql)?;
            let mut news = tx.prepare_cached(NEWS).map_err(IndexError::Sql)?;
            // When a row without news was seen, kept to the day (what the bound forgets
            // first): those columns alone, so that only the row is written (all its
            // columns set, every index of them was written again: ×10 the listing's time
            // at 1,000,000, #71).
            let mut seen_anew = tx
                .prepare_cached(
                    "UPDATE invoices
                     SET listed = coalesce(?2, listed), journaled = coalesce(?3, journaled)
                     WHERE rowid = ?1",
                )
                .map_err(IndexError::Sql)?;
            let mut anew_before = false;
            for s in seen {
                let Some(id) = bounded(Some(&s.id)) else {
                    continue;
                };
                let at = s.at.timestamp();
                let day_before = at - 24 * 60 * 60;
                let (listed, journaled) = match s.from {
                    super::Source::Listing => (Some(at), None),
                    super::Source::Journal => (None, Some(at)),
                };
                let customer = bounded(s.customer.as_deref());
                let reference = bounded(s.reference.as_deref());
                let amount = s.amount.map(|a| a.normalize().to_string());
                let currency = bounded(s.currency.as_deref());
                let status = s.status.as_str();
                let due = s.due.map(day_number);
                let what = params![
                    service, id, customer, reference, amount, currency, status, at, due, listed,
                    journaled, day_before
                ];
                if anew_before && only_seen_anew.execute(what).map_err(IndexError::Sql)? == 1 {
                    continue;
                }
                let found: Option<(i64, bool, bool)> = known
                    .query_row(what, |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
                    .optional()
                    .map_err(IndexError::Sql)?;
                anew_before = matches!(found, Some((_, false, true)));
                match found {
                    None => insert
                        .execute(params![
                            service, id, customer, reference, amount, currency, status, at, due,
                            listed, journaled
                        ])
                        .map(drop),
                    Some((rowid, true, _)) => news
                        .execute(params![
                            rowid, customer, reference, amount, currency, status, at, due, listed,
                            journaled
                        ])
                        .map(drop),
                    Some((rowid, false, true)) => seen_anew
                        .execute(params![rowid, listed, journaled])
                        .map(drop),
                    // Known, with nothing new, seen within the day: seen now all the
                    // same, for the bound (`trim`).
                    Some((_, false, false)) => {
                        unchanged.push(id);
                        Ok(())
                    }
                }
                .map_err(IndexError::Sql)?;
            }
        }
        let added = top(&tx)? - before;
        super::bound::trim(&tx, self.max_rows, added, (service, &unchanged))
            .map_err(IndexError::Sql)?;
        tx.commit().map_err(IndexError::Sql)?;
        if seen.len() >= BIG_PUT {
            // The log of a big put is as big as what it wrote, and stays that size
            // until the next write: given back now (a reader at this moment keeps it,
            // and the next write then cuts it to the limit set at opening).
            let _ = self
                .conn
                .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()));
        }
        Ok(())
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

    /// The number `url` has in this file, if it was ever kept.
    fn service_known(&self, url: &str) -> Result<Option<i64>, IndexError> {
        self.conn
            .query_row("SELECT n FROM services WHERE url = ?1", params![url], |r| {
                r.get(0)
            })
            .optional()
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

    /// The largest rowid (tests: a row added anew takes a larger one).
    #[cfg(test)]
    pub(crate) fn top_rowid(&self) -> i64 {
        self.conn
            .query_row("SELECT coalesce(max(rowid), 0) FROM invoices", [], |r| {
                r.get(0)
            })
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
        let Some(service) = self.service_known(service)? else {
            return Ok(Vec::new());
        };
        let mut hits: Vec<super::Hit> = Vec::new();
        // A text's rows, read once for its reference and its text (at 1,000,000
        // invoices each read of the full-text table is most of a search).
        let mut by_text: Option<(String, Vec<(bool, super::Hit)>)> = None;
        for way in ways {
            let found: Vec<super::Hit> = match way {
                Way::Reference(t) | Way::Text(t) if grams::trigrams(t).is_some() => {
                    if by_text.as_ref().is_none_or(|(k, _)| k != t) {
                        by_text = Some((t.clone(), self.by_text(service, t, limit)?));
                    }
                    let rows = by_text.as_ref().map_or(&[][..], |(_, r)| &r[..]);
                    let exact_only = matches!(way, Way::Reference(_));
                    rows.iter()
                        .filter(|(exact, _)| *exact || !exact_only)
                        .take(limit)
                        .map(|(_, h)| h.clone())
                        .collect()
                }
                _ => self.by_column(service, way, limit)?,
            };
            for hit in found {
                if !hits.iter().any(|h| h.id == hit.id) {
                    hits.push(hit);
                }
            }
        }
        Ok(hits)
    }

    /// The rows whose id, reference or customer holds `text` (any case): those whose
    /// reference is `text` first (flagged), then the others, each part the latest due
    /// first; `limit` of each at most.
    fn by_text(
        &self,
        service: i64,
        text: &str,
        limit: usize,
    ) -> Result<Vec<(bool, super::Hit)>, IndexError> {
        let Some(grams) = grams::trigrams(text) else {
            return Ok(Vec::new());
        };
        let query = self.rare_grams(&grams)?;
        // The rows holding each trigram (all the full-text table knows), then the text
        // itself looked for in their words. `+service`: the rows the text matches are
        // looked up one by one; without it SQLite walked the service's whole index
        // (161–184 ms a query at 1,000,000 invoices, #71).
        let sql = format!(
            "SELECT {COLUMNS}, reference IS ?4 AS exact FROM invoices
             WHERE rowid IN (SELECT rowid FROM invoices_text WHERE invoices_text MATCH ?2)
               AND +service = ?1
               AND folded_contains(id || ' ' || coalesce(reference, '') || ' '
                                   || coalesce(customer, ''), ?5)
             ORDER BY exact DESC, due DESC, rowid DESC LIMIT ?3"
        );
        let both = i64::try_from(limit.saturating_mul(2)).unwrap_or(i64::MAX);
        let mut stmt = self.conn.prepare_cached(&sql).map_err(IndexError::Sql)?;
        let rows = stmt
            .query_map(
                params![service, query, both, text, text.to_lowercase()],
                |r| Ok((r.get::<_, bool>(9)?, hit_of(r)?)),
            )
            .map_err(IndexError::Sql)?;
        let mut found = Vec::new();
        let mut others = 0;
        for row in rows {
            let (exact, hit) = row.map_err(IndexError::Sql)?;
            if !exact {
                others += 1;
                if others > limit {
                    break;
                }
            }
            found.push((exact, hit));
        }
        Ok(found)
    }

    /// The full-text query for `grams`: each counted first, up to [`grams::COMMON`] rows
    /// (as many rowids read at most), the common ones then left out while a rarer one is
    /// there (see [`grams`]). A lone trigram is asked for as it is: counting it would
    /// only read its rows twice.
    fn rare_grams(&self, grams: &[String]) -> Result<String, IndexError> {
        if let [lone] = grams {
            return Ok(lone.clone());
        }
        let mut count = self
            .conn
            .prepare_cached(
                "SELECT count(*) FROM (SELECT rowid FROM invoices_text
                 WHERE invoices_text MATCH ?1 LIMIT ?2)",
            )
            .map_err(IndexError::Sql)?;
        let counted = grams
            .iter()
            .map(|g| {
                count
                    .query_row(params![g, grams::COMMON], |r| r.get::<_, i64>(0))
                    .map(|n| (n, g.clone()))
            })
            .collect::<Result<Vec<_>, _>>()
            .map_err(IndexError::Sql)?;
        Ok(grams::query(&grams::chosen(&counted)))
    }

    /// The rows `way` finds by a column (id, reference, amount, customer): `limit` at
    /// most, the latest due first.
    fn by_column(
        &self,
        service: i64,
        way: &Way,
        limit: usize,
    ) -> Result<Vec<super::Hit>, IndexError> {
        let (sql, arg): (String, String) = match way {
            Way::Id(id) => (
                format!("SELECT {COLUMNS} FROM invoices WHERE service = ?1 AND id = ?2 LIMIT ?3"),
                id.clone(),
            ),
            // One of one or two characters, too short for a trigram: looked for row by
            // row (there is no index of references: the index's size, #71).
            Way::Reference(r) => (
                format!(
                    "SELECT {COLUMNS} FROM invoices WHERE service = ?1 AND reference = ?2
                     LIMIT ?3"
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
            // Too short for a trigram: found by none of its characters alone.
            Way::Text(_) => return Ok(Vec::new()),
        };
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let mut stmt = self.conn.prepare_cached(&sql).map_err(IndexError::Sql)?;
        let rows = stmt
            .query_map(params![service, arg, limit], hit_of)
            .map_err(IndexError::Sql)?;
        rows.collect::<Result<_, _>>().map_err(IndexError::Sql)
    }
}

/// The columns a hit is read from ([`hit_of`]).
const COLUMNS: &str = "id, customer, reference, amount, currency, status, due, listed, journaled";

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
        Ok(r.get::<_, Option<i64>>(i)?
            .and_then(|t| chrono::DateTime::from_timestamp(t, 0)))
    };
    let amount: Option<String> = r.get(3)?;
    let status: String = r.get(5)?;
    let due: Option<i64> = r.get(6)?;
    Ok(super::Hit {
        id: r.get(0)?,
        customer: r.get(1)?,
        customer_name: None,
        reference: r.get(2)?,
        amount: amount.and_then(|a| a.parse().ok()),
        currency: r.get(4)?,
        status: Status::parse(&status),
        due: due.and_then(day_of),
        listed: time(7)?,
        journaled: time(8)?,
    })
}

/// A day as kept: days since 1970-01-01.
fn day_number(day: chrono::NaiveDate) -> i64 {
    (day - chrono::NaiveDate::default()).num_days()
}

/// The day kept as [`day_number`] (none for a number no day has).
fn day_of(n: i64) -> Option<chrono::NaiveDate> {
    chrono::NaiveDate::default().checked_add_signed(chrono::TimeDelta::try_days(n)?)
}

/// The number `url` has in this file, given one if it has none.
fn service_number(tx: &rusqlite::Transaction<'_>, url: &str) -> Result<i64, IndexError> {
    tx.execute(
        "INSERT INTO services (url) VALUES (?1) ON CONFLICT (url) DO NOTHING",
        params![url],
    )
    .map_err(IndexError::Sql)?;
    tx.query_row("SELECT n FROM services WHERE url = ?1", params![url], |r| {
        r.get(0)
    })
    .map_err(IndexError::Sql)
}

/// `folded_contains(words, text)`: whether `text` (lower case) is in `words`, case
/// folded as the full-text table folds it (SQL's own `lower` folds only ASCII: "Ñ").
fn add_folded_contains(conn: &Connection) -> Result<(), IndexError> {
    conn.create_scalar_function(
        "folded_contains",
        2,
        rusqlite::functions::FunctionFlags::SQLITE_UTF8
            | rusqlite::functions::FunctionFlags::SQLITE_DETERMINISTIC,
        |ctx| {
            let words = ctx.get_raw(0).as_str().unwrap_or("");
            let text = ctx.get_raw(1).as_str().unwrap_or("");
            Ok(words.to_lowercase().contains(text))
        },
    )
    .map_err(IndexError::Sql)
}
