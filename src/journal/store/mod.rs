//! The SQLite file: opening (WAL, full sync, busy timeout), migrations, appending with
//! the hash chain, listing, verifying.

use super::db::{Db, DbError, DbRow, Val, vals};
pub use super::error::{JournalError, Trouble};
use super::schema::{MIGRATIONS, Step};
use super::{Action, Entry, Filter, Intent, Outcome, OutcomeOf, Settled, os_user};
use rusqlite::config::DbConfig;
use rusqlite::{Connection, TransactionBehavior};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::time::Duration;

mod listing;
mod row;
mod verify;

pub(super) use listing::list_on;
#[cfg(test)]
pub(super) use listing::list_sql;
use listing::where_clause;
use row::COLUMNS;
pub(super) use row::{Row, append_in, intent_row, now, outcome_in, placeholders};

/// How long a write waits for another process's (SQLite's busy timeout).
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// The hash before the first row.
const GENESIS: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// How many layout versions this program knows.
#[cfg(test)]
pub(super) const LAYOUT: usize = MIGRATIONS.len();

/// Turns a store's error into a read error on the journal at `path`.
pub(super) fn read_error(path: &Path) -> impl Fn(DbError) -> JournalError + '_ {
    move |e| match e.trouble {
        Trouble::Corrupt => JournalError::Damaged {
            path: path.to_path_buf(),
            why: e.why,
        },
        trouble => JournalError::Read {
            path: path.to_path_buf(),
            trouble,
            why: e.why,
        },
    }
}

/// Turns a store's error into a write error on the journal at `path`.
pub(super) fn write_error(path: &Path) -> impl Fn(DbError) -> JournalError + '_ {
    move |e| JournalError::Write {
        path: path.to_path_buf(),
        trouble: e.trouble,
        why: e.why,
    }
}

/// The first row whose hash does not match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Broken {
    /// Its sequence number.
    pub seq: i64,
    /// What does not match.
    pub why: String,
}

/// The journal, open.
pub struct Journal {
    pub(super) store: Store,
    /// The file, or the shared database's address (never with a password).
    pub(super) path: PathBuf,
    /// Who writes: the OS user, and on a shared journal the computer too.
    pub(super) who: String,
    /// Inside a group commit ([`Journal::commit_together`]): each write is a savepoint of
    /// the group's one transaction.
    pub(super) grouped: bool,
}

/// A write waiting for the journal's next group commit (see
/// [`Journal::commit_together`]).
pub(crate) struct GroupedWrite {
    /// It must be on disk before its caller goes on (an intent: yes; an outcome: no, a
    /// later commit or the checkpoint at close carries it).
    pub durable: bool,
    /// Runs it inside the group's transaction; gives back how to tell its caller once
    /// the commit's fate is known (`None`: committed; else why not).
    pub run: Box<dyn FnOnce(&mut Journal) -> Deliver + Send>,
}

impl GroupedWrite {
    /// The write `f`, whose result (or the failed commit's error) goes to `answer` once
    /// the commit's fate is known.
    pub(crate) fn new<R: Send + 'static>(
        durable: bool,
        f: impl FnOnce(&mut Journal) -> Result<R, JournalError> + Send + 'static,
        answer: impl FnOnce(Result<R, JournalError>) + Send + 'static,
    ) -> GroupedWrite {
        GroupedWrite {
            durable,
            run: Box::new(move |j| {
                let r = f(j);
                Box::new(move |failed: Option<&JournalError>| {
                    answer(match failed {
                        Some(e) => Err(e.clone()),
                        None => r,
                    })
                })
            }),
        }
    }
}

/// Where a test may stop the program dead inside a group commit.
#[derive(Clone, Copy, PartialEq, Eq)]
enum CrashAt {
    /// Its writes run, its transaction not committed.
    BeforeCommit,
    /// Committed, its writers not told yet.
    BeforeTelling,
}

/// Tests only (debug builds): `INVOICE_DESK_TEST_ABORT_AT_GROUP=N:before-commit` (or
/// `:before-telling`) aborts the process at that point of its Nth group commit of
/// intents, as a `kill -9` or a power cut would stop it there.
#[cfg(debug_assertions)]
fn crash_point(at: CrashAt, durable: bool) {
    use std::sync::atomic::{AtomicU64, Ordering};
    if !durable {
        return;
    }
    static GROUPS: AtomicU64 = AtomicU64::new(0);
    let Ok(spec) = std::env::var("INVOICE_DESK_TEST_ABORT_AT_GROUP") else {
        return;
    };
    let Some((n, point)) = spec.split_once(':') else {
        return;
    };
    let wanted = match point {
        "before-commit" => CrashAt::BeforeCommit,
        "before-telling" => CrashAt::BeforeTelling,
        _ => return,
    };
    if at == CrashAt::BeforeCommit {
        GROUPS.fetch_add(1, Ordering::SeqCst);
    }
    if at == wanted && n.parse().ok() == Some(GROUPS.load(Ordering::SeqCst)) {
        std::process::abort();
    }
}

#[cfg(not(debug_assertions))]
fn crash_point(_: CrashAt, _: bool) {}

/// Tells a grouped write's caller how its commit went.
pub(crate) type Deliver = Box<dyn FnOnce(Option<&JournalError>) + Send>;

/// Where the journal is kept.
pub(super) enum Store {
    /// The embedded SQLite file (a clerk alone; the default).
    Lite(Connection),
    /// A PostgreSQL database shared by a desk of clerks.
    Shared(Box<super::pg::Pg>),
}

/// Connects to the shared journal at `url` as `who` and checks its layout: a newer one
/// is refused, missing tables are created and an older layout brought up to date when
/// the role may (`on_create` says why they could not be). The connection and the
/// address as it may be shown (no password).
pub(super) fn connect_shared(
    url: &str,
    password: Option<&str>,
    who: &str,
    on_create: impl Fn(DbError, &Path) -> JournalError,
) -> Result<(super::pg::Pg, PathBuf), JournalError> {
    let shown = PathBuf::from(super::pg::without_password(url));
    let fail = |e| shared_open_error(&shown)(e);
    let pg = super::pg::Pg::connect(url.trim(), password, who).map_err(fail)?;
    match pg.layout().map_err(fail)? {
        Some(found) if found > super::pg::LAYOUT => {
            return Err(JournalError::TooNew {
                path: shown,
                found,
                known: super::pg::LAYOUT,
            });
        }
        Some(super::pg::LAYOUT) => {}
        // A desk whose owner has not yet brought the journal to this version's layout:
        // tried (the owner's own computer does it), else worked with as it is.
        Some(found) if found >= super::pg::LAYOUT_WORKING => {
            if let Err(e) = pg.prepare_layout() {
                tracing::info!(found, why = %e.why, "the shared journal's layout stays as it is until its owner brings it up to date");
            }
        }
        _ => pg.prepare_layout().map_err(|e| on_create(e, &shown))?,
    }
    Ok((pg, shown))
}

/// Turns a store's error met while opening the shared journal shown as `shown`.
pub(super) fn shared_open_error(shown: &Path) -> impl Fn(DbError) -> JournalError + '_ {
    move |e| JournalError::Open {
        path: shown.to_path_buf(),
        trouble: e.trouble,
        why: e.why,
    }
}

/// A clerk's display name as it is written: one line, no control or bidi characters, no
/// parentheses (they set it apart from the account), at most 60 characters.
pub fn clerk_name(name: &str) -> String {
    name.chars()
        .map(|c| if crate::text::is_unsafe(c) { ' ' } else { c })
        .filter(|c| !matches!(c, '(' | ')'))
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
        .take(60)
        .collect()
}

/// The shared journal's password: from the environment (the CLI; the app keeps it in
/// the keyring), never from the address.
pub fn shared_password() -> Option<String> {
    std::env::var("INVOICE_DESK_JOURNAL_PASSWORD")
        .ok()
        .filter(|p| !p.is_empty())
}

/// The UTC time text of a local day's first instant (for filters by day).
pub(super) fn local_day_start(day: chrono::NaiveDate) -> String {
    use chrono::TimeZone;
    let midnight = day.and_hms_opt(0, 0, 0).unwrap_or_default();
    let utc = chrono::Local
        .from_local_datetime(&midnight)
        .earliest()
        .map(|t| t.with_timezone(&chrono::Utc))
        .unwrap_or_else(|| midnight.and_utc());
    utc.to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

impl Journal {
    /// Opens (or creates) the journal at `path`, bringing its layout up to date. Another
    /// process opening or writing it at the same moment is waited for (up to the busy
    /// timeout), not reported as "locked".
    pub fn open(path: &Path) -> Result<Journal, JournalError> {
        Journal::open_with(path, shared_password().as_deref())
    }

    /// [`Journal::open`], with the shared journal's password given (the app reads it
    /// from the keyring; a file ignores it).
    pub fn open_with(path: &Path, password: Option<&str>) -> Result<Journal, JournalError> {
        let text = path.to_string_lossy();
        if super::pg::is_database_url(&text) {
            return Journal::open_shared(&text, password);
        }
        if text.trim().is_empty() || text == ":memory:" || text.starts_with("file:") {
            // SQLite reads these as a database in memory (or a URI that may be one):
            // nothing would be kept, yet every create and void must be.
            return Err(JournalError::Open {
                path: path.to_path_buf(),
                why: "it is not a file on disk, so nothing would be kept (set INVOICE_DESK_JOURNAL to a file's path)".into(),
                trouble: Trouble::Other,
            });
        }
        if path.file_name().is_some_and(|n| {
            let n = n.to_string_lossy().to_lowercase();
            ["", "-wal", "-shm"]
                .iter()
                .any(|s| n == format!("{}{s}", super::INDEX_FILE))
        }) {
            // The search index, a cache, is kept under that name beside the journal and
            // may be started again: the journal must never be taken for it.
            return Err(JournalError::Open {
                path: path.to_path_buf(),
                why: format!(
                    "it is named like the search index ({}), a cache beside the journal that may be started again: give the journal another name",
                    super::INDEX_FILE
                ),
                trouble: Trouble::Other,
            });
        }
        let started = std::time::Instant::now();
        loop {
            match Journal::open_once(path) {
                Err(JournalError::Open {
                    trouble: Trouble::Busy,
                    ..
                }) if started.elapsed() < BUSY_TIMEOUT => {
                    // Switching a new file to WAL, or its first migration, met another
                    // process doing the same: SQLite does not wait for that by itself.
                    std::thread::sleep(Duration::from_millis(20));
                }
                other => return other,
            }
        }
    }

    fn open_once(path: &Path) -> Result<Journal, JournalError> {
        let fail = |e: std::io::Error| JournalError::Open {
            path: path.to_path_buf(),
            trouble: match e.kind() {
                std::io::ErrorKind::PermissionDenied | std::io::ErrorKind::ReadOnlyFilesystem => {
                    Trouble::ReadOnly
                }
                std::io::ErrorKind::StorageFull | std::io::ErrorKind::QuotaExceeded => {
                    Trouble::DiskFull
                }
                _ => Trouble::Other,
            },
            why: e.to_string(),
        };
        let sqlite = open_error(path);
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(fail)?;
        }
        // A new journal is readable by its owner only (SQLite gives its -wal and -shm
        // files the same permissions); an existing one keeps its own.
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            match std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(0o600)
                .open(path)
            {
                Ok(_) => {}
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(fail(e)),
            }
        }
        let mut conn = Connection::open_with_flags(
            path,
            rusqlite::OpenFlags::SQLITE_OPEN_READ_WRITE
                | rusqlite::OpenFlags::SQLITE_OPEN_CREATE
                | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(&sqlite)?;
        // The app, a second window and the CLI may write at once: WAL lets readers go on,
        // the busy timeout makes writers wait their turn; FULL sync: a recorded intent
        // survives a power cut.
        conn.busy_timeout(BUSY_TIMEOUT).map_err(&sqlite)?;
        // A billing row's claim, outcome and checks use more statements than rusqlite
        // keeps prepared (16): each was parsed again every row.
        conn.set_prepared_statement_cache_capacity(64);
        // One plan per statement, whatever values are bound. Otherwise SQLite compiles a
        // statement again whenever a value it planned around changes: an entry read by
        // its number (the outcome's subquery) was compiled anew at each read, a third of
        // a billing run's CPU at C = 64 (#51). The journal's plans do not depend on the
        // values: keys and numbers through indexes, its LIKEs start with a wildcard.
        conn.set_db_config(DbConfig::SQLITE_DBCONFIG_ENABLE_QPSG, true)
            .map_err(&sqlite)?;
        // No checkpoint when a connection closes: the write-ahead log stays beside the
        // file and the next program goes on with it. A one-shot create was 5 syncs of
        // the disk (a new log's header and its folder, the intent, the checkpoint's log
        // and file), now 1, the intent's (#71); SQLite checkpoints every 1,000 pages, and
        // `journal verify` folds the log into the file (a copy of the file alone is then
        // whole).
        conn.set_db_config(DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, true)
            .map_err(&sqlite)?;
        let _: String = conn
            .query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))
            .map_err(&sqlite)?;
        conn.pragma_update(None, "synchronous", "FULL")
            .map_err(&sqlite)?;
        migrate(&mut conn, path)?;
        Ok(Journal {
            store: Store::Lite(conn),
            path: path.to_path_buf(),
            who: os_user(),
            grouped: false,
        })
    }

    /// The desk's shared journal at the PostgreSQL address `url`, creating its tables
    /// on first use when the role may (else `invoice-desk journal init` by the owner).
    /// Never falls back to a local file: when it cannot be opened, nothing is sent.
    pub fn open_shared(url: &str, password: Option<&str>) -> Result<Journal, JournalError> {
        let who = format!("{}@{}", os_user(), super::host_name());
        let (pg, shown) = connect_shared(url, password, &who, |e, shown| match e.trouble {
            Trouble::ReadOnly => JournalError::Open {
                path: shown.to_path_buf(),
                trouble: Trouble::ReadOnly,
                why: format!(
                    "the journal's tables are not there, or are of an older layout, and this role may \
                     not make them: the database's owner runs `invoice-desk journal init` ({})",
                    e.why
                ),
            },
            _ => shared_open_error(shown)(e),
        })?;
        Ok(Journal {
            store: Store::Shared(Box::new(pg)),
            path: shown,
            who,
            grouped: false,
        })
    }

    /// A journal in memory only (tests, and an app told to keep none on disk).
    pub fn open_in_memory() -> Result<Journal, JournalError> {
        let path = PathBuf::from(":memory:");
        let mut conn = Connection::open_in_memory().map_err(|e| JournalError::Open {
            path: path.clone(),
            trouble: Trouble::of(&e),
            why: e.to_string(),
        })?;
        migrate(&mut conn, &path)?;
        Ok(Journal {
            store: Store::Lite(conn),
            path,
            who: os_user(),
            grouped: false,
        })
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn read_err(&self, e: DbError) -> JournalError {
        read_error(&self.path)(e)
    }

    /// The store, to run statements on (reads, or writes that need no transaction).
    pub(super) fn db(&self) -> &dyn Db {
        match &self.store {
            Store::Lite(c) => c,
            Store::Shared(p) => &**p,
        }
    }

    /// The SQLite connection of a journal file (not of a shared journal).
    #[cfg(test)]
    pub(super) fn lite(&self) -> Option<&Connection> {
        match &self.store {
            Store::Lite(c) => Some(c),
            Store::Shared(_) => None,
        }
    }

    /// Who writes its entries: the OS user, and on a shared journal the computer
    /// ("ana@PC-CAJA-2").
    pub fn who(&self) -> &str {
        &self.who
    }

    /// Writes its entries under the clerk's own name too ("Ana Pérez (ana@PC-CAJA-2)"),
    /// so the desk's Activity reads as people, not accounts. An empty name changes nothing.
    pub fn set_clerk_name(&mut self, name: &str) {
        let name = clerk_name(name);
        if !name.is_empty() {
            self.who = format!("{name} ({})", self.who);
        }
    }

    /// A desk's shared journal's layout (`None`: a file, whose layout is always this
    /// program's).
    pub(in crate::journal) fn shared_layout(&self) -> Result<Option<i64>, DbError> {
        match &self.store {
            Store::Lite(_) => Ok(None),
            Store::Shared(pg) => pg.layout(),
        }
    }

    /// Whether this is a desk's shared journal.
    pub fn is_shared(&self) -> bool {
        matches!(self.store, Store::Shared(_))
    }

    /// Whether the journal answers: a shared journal's server is asked (a read that
    /// costs one round trip); a file always does.
    pub fn ping(&self) -> Result<(), JournalError> {
        if self.is_shared() {
            self.db()
                .one("SELECT 1", &[])
                .map_err(read_error(&self.path))?;
        }
        Ok(())
    }

    /// Runs `f` in one write transaction holding the journal's write lock from its first
    /// read to the commit (SQLite: an immediate transaction; PostgreSQL: the journal's
    /// advisory lock), so a claim and the chain's next link are decided by one writer at
    /// a time, on every computer.
    pub(super) fn write<R>(
        &mut self,
        f: impl FnOnce(&dyn Db) -> Result<R, DbError>,
    ) -> Result<R, DbError> {
        self.write_synced(true, f)
    }

    /// [`Journal::write`]; `durable: false` commits without waiting for the disk (SQLite's
    /// WAL keeps commits in order, so the next durable commit, or the checkpoint at
    /// close, carries it): for outcomes, whose loss in a power cut leaves the entry "to
    /// check", never sent again.
    pub(super) fn write_synced<R>(
        &mut self,
        durable: bool,
        f: impl FnOnce(&dyn Db) -> Result<R, DbError>,
    ) -> Result<R, DbError> {
        match &mut self.store {
            Store::Lite(conn) if self.grouped => {
                // Its own savepoint: a write that fails leaves the group's others intact.
                let sp = conn.savepoint()?;
                let r = f(&*sp)?;
                sp.commit()?;
                Ok(r)
            }
            Store::Lite(conn) => {
                if !durable {
                    conn.pragma_update(None, "synchronous", "NORMAL")?;
                }
                let done = (|| {
                    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
                    let r = f(&*tx)?;
                    tx.commit()?;
                    Ok(r)
                })();
                if !durable {
                    conn.pragma_update(None, "synchronous", "FULL")?;
                }
                done
            }
            // A write of a group: its own savepoint in the group's transaction.
            Store::Shared(pg) if self.grouped => pg.in_savepoint(f),
            Store::Shared(pg) => pg.write_synced(durable, f),
        }
    }

    /// Runs writes that met in time in one transaction and one commit (one sync of the
    /// disk for all), then tells each its result: none is told before the commit, so an
    /// intent is on disk before its request can be sent. A write that fails is undone
    /// alone (its savepoint); a commit that fails fails them all. On the shared journal
    /// too: one transaction and one commit on the server for the group, as here (each
    /// write alone was a transaction and a wait for the server's disk of its own, and a
    /// clerk on the desk ran a billing run at a third of a lone clerk's pace). A lone
    /// write runs on its own.
    /// Gives how long the commit took when it was one synced group.
    pub(crate) fn commit_together(&mut self, writes: Vec<GroupedWrite>) -> Option<Duration> {
        let durable = writes.iter().any(|w| w.durable);
        let alone = writes.len() == 1;
        if alone || !self.begin_group(durable) {
            let began = std::time::Instant::now();
            for w in writes {
                // On its own: its own transaction, as durable as the write asks.
                ((w.run)(self))(None);
            }
            return durable.then(|| began.elapsed());
        }
        self.grouped = true;
        let told: Vec<Deliver> = writes.into_iter().map(|w| (w.run)(self)).collect();
        self.grouped = false;
        crash_point(CrashAt::BeforeCommit, durable);
        let began = std::time::Instant::now();
        let committed = self.end_group(durable);
        let took = began.elapsed();
        crash_point(CrashAt::BeforeTelling, durable);
        for deliver in told {
            deliver(committed.as_ref().err());
        }
        (durable && committed.is_ok()).then_some(took)
    }

    /// Begins a group's transaction; false if it could not be (each write then runs,
    /// and fails, on its own). The sync level may not change inside a transaction, so a
    /// group of outcomes only is told before.
    fn begin_group(&mut self, durable: bool) -> bool {
        let conn = match &mut self.store {
            Store::Lite(conn) => conn,
            Store::Shared(pg) => return pg.begin_group(durable).is_ok(),
        };
        if !durable && conn.pragma_update(None, "synchronous", "NORMAL").is_err() {
            return false;
        }
        let begun = conn.execute_batch("BEGIN IMMEDIATE").is_ok();
        if !begun && !durable {
            let _ = conn.pragma_update(None, "synchronous", "FULL");
        }
        begun
    }

    /// Commits a group's transaction (synced to disk when `durable`), or undoes it.
    fn end_group(&mut self, durable: bool) -> Result<(), JournalError> {
        let path = self.path.clone();
        let conn = match &mut self.store {
            Store::Lite(conn) => conn,
            Store::Shared(pg) => return pg.end_group(true).map_err(write_error(&path)),
        };
        let committed = conn.execute_batch("COMMIT").map_err(|e| {
            let _ = conn.execute_batch("ROLLBACK");
            write_error(&path)(DbError::from(e))
        });
        if !durable {
            // Back to FULL: the next intent must be on disk at its commit.
            conn.pragma_update(None, "synchronous", "FULL")
                .map_err(|e| write_error(&path)(DbError::from(e)))?;
        }
        committed
    }

    /// Records what is about to be sent; its sequence number. If this fails, the
    /// request must not be sent. (Chained in one transaction that holds the write lock
    /// from reading the last hash to the commit.)
    pub fn record_intent(&mut self, action: Action, intent: &Intent) -> Result<i64, JournalError> {
        let row = intent_row(action, intent, &self.who);
        let path = self.path.clone();
        self.write(|tx| append_in(tx, row))
            .map_err(write_error(&path))
    }

    /// Records what came of the intent `seq`.
    pub fn record_outcome(&mut self, seq: i64, settled: &Settled) -> Result<i64, JournalError> {
        self.record_outcome_when(seq, settled, false, None)
            .map(|s| s.unwrap_or_default())
    }

    /// [`Journal::record_outcome`] of an intent just claimed here (`of`: copied, not read
    /// back: on the desk's journal a read is a round trip to the server).
    pub fn record_answer(
        &mut self,
        seq: i64,
        of: OutcomeOf,
        settled: &Settled,
    ) -> Result<i64, JournalError> {
        self.record_outcome_when(seq, settled, false, Some(of))
            .map(|s| s.unwrap_or_default())
    }

    /// Records what a check found of intent `seq`, unless its outcome is already known
    /// (another clerk's check, or the request's own answer, came first): a check's result
    /// is recorded once. `Some(seq)` when recorded.
    pub fn record_checked(&mut self, seq: i64, s: &Settled) -> Result<Option<i64>, JournalError> {
        self.record_outcome_when(seq, s, true, None)
    }

    fn record_outcome_when(
        &mut self,
        seq: i64,
        settled: &Settled,
        only_if_unknown: bool,
        known: Option<OutcomeOf>,
    ) -> Result<Option<i64>, JournalError> {
        let path = self.path.clone();
        let who = self.who.clone();
        let settled = settled.clone();
        // "Unknown" adds nothing to a settled entry: a colleague's check may have settled
        // it while this computer waited (frozen) for an answer that never came.
        let only_if_unknown = only_if_unknown || settled.outcome == Outcome::Unknown;
        // Not waited on the disk: an outcome lost in a power cut leaves its intent "to
        // check" (looked for at the service, never sent again); the next intent's commit
        // or the close syncs it.
        let written = self.write_synced(false, move |tx| {
            outcome_in(tx, &who, seq, &settled, only_if_unknown, known)
        });
        match written {
            // Settled on the desk's server between this check's read and its row (the
            // writer's own answer came meanwhile): the check came second, as when its
            // read saw it settled. Its transaction or savepoint was undone.
            Err(e) if only_if_unknown && e.settled_first() => Ok(None),
            other => other.map_err(write_error(&path)),
        }
    }

    /// How long ago intent `seq` was recorded, never more than really passed: on the
    /// shared journal by the server's clock (it stamped the row), in a file from the
    /// intent's anchor on a clock that cannot step (`clock.rs`). What decides whether a
    /// request may still be on its way.
    pub fn age(&self, seq: i64) -> Result<chrono::Duration, JournalError> {
        if self.is_shared() {
            let ms = self
                .db()
                .one(
                    "SELECT (extract(epoch FROM clock_timestamp() - coalesce(server_time, time::timestamptz)) * 1000)::bigint
                     FROM entries WHERE seq = ?1",
                    &vals![seq],
                )
                .and_then(|r| r.map(|r| r.int(0)).transpose())
                .map_err(|e| self.read_err(e))?;
            return Ok(chrono::Duration::milliseconds(ms.unwrap_or(0).max(0)));
        }
        let row = self
            .db()
            .one(
                "SELECT clock, time FROM entries WHERE seq = ?1",
                &vals![seq],
            )
            .and_then(|r| {
                r.map(|r| Ok::<_, DbError>((r.opt_text(0)?, r.text(1)?)))
                    .transpose()
            })
            .map_err(|e| self.read_err(e))?;
        Ok(row
            .map(|(anchor, time)| super::clock::age(anchor.as_deref(), &time))
            .unwrap_or_else(chrono::Duration::zero))
    }

    /// Entries (each intent with its latest outcome) matching `filter`, newest first or
    /// oldest first, `limit` of them from `offset`.
    pub fn list(
        &self,
        filter: &Filter,
        newest_first: bool,
        offset: u64,
        limit: u64,
    ) -> Result<Vec<Entry>, JournalError> {
        list_on(self.db(), filter, newest_first, offset, limit).map_err(|e| self.read_err(e))
    }

    /// The newest entry's sequence number (0 when empty), and the first entry's hash
    /// (which journal this is: another file at the same place has another): whether
    /// anything was written since a reader last looked.
    pub fn last_seq(&self) -> Result<(i64, String), JournalError> {
        self.db()
            .one(
                "SELECT coalesce(max(seq), 0),
                        coalesce((SELECT hash FROM entries ORDER BY seq LIMIT 1), '')
                 FROM entries",
                &[],
            )
            .and_then(|r| r.map_or(Ok((0, String::new())), |r| Ok((r.int(0)?, r.text(1)?))))
            .map_err(|e| self.read_err(e))
    }

    /// Who wrote entries in it (the clerks of a shared journal), in order; at most
    /// `limit` of them.
    pub fn clerks(&self, limit: u64) -> Result<Vec<String>, JournalError> {
        let limit = Val::Int(limit.min(i64::MAX as u64) as i64);
        self.db()
            .query(
                "SELECT DISTINCT \"user\" FROM entries WHERE kind = 'intent' ORDER BY 1 LIMIT ?1",
                &[limit],
            )
            .and_then(|rows| {
                rows.iter()
                    .filter_map(|r| r.opt_text(0).transpose())
                    .collect()
            })
            .map_err(|e| self.read_err(e))
    }

    /// How many entries match `filter`.
    pub fn count(&self, filter: &Filter) -> Result<u64, JournalError> {
        let (clause, args) = where_clause(filter);
        let sql = format!(
            "SELECT count(*) FROM entries i
             LEFT JOIN entries o ON o.seq = (SELECT max(seq) FROM entries WHERE intent_seq = i.seq)
             WHERE i.kind = 'intent' {clause}"
        );
        self.db()
            .one(&sql, &args)
            .and_then(|r| r.map_or(Ok(0), |r| r.int(0)))
            .map(|n| n.max(0) as u64)
            .map_err(|e| self.read_err(e))
    }

    /// The entry of intent `seq`, with its latest outcome.
    pub fn entry(&self, seq: i64) -> Result<Option<Entry>, JournalError> {
        let filter = Filter {
            seq: Some(seq),
            ..Filter::default()
        };
        Ok(self.list(&filter, true, 0, 1)?.into_iter().next())
    }

    /// Entries whose outcome is still unknown, oldest first.
    pub fn unknown(&self) -> Result<Vec<Entry>, JournalError> {
        let filter = Filter {
            outcome: Some(Outcome::Unknown),
            ..Filter::default()
        };
        self.list(&filter, false, 0, u64::MAX >> 1)
    }
}

/// An SQLite error that means the file is damaged (truncated, overwritten, not a
/// database any more), not that it could not be reached.
pub fn is_damage(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error_code(),
        Some(rusqlite::ErrorCode::DatabaseCorrupt | rusqlite::ErrorCode::NotADatabase)
    )
}

/// Turns a SQLite error met while opening the file at `path` into the journal's: damage
/// said as damage, anything else as "cannot open" with its kind.
fn open_error(path: &Path) -> impl Fn(rusqlite::Error) -> JournalError + '_ {
    move |e| {
        if is_damage(&e) {
            JournalError::Damaged {
                path: path.to_path_buf(),
                why: e.to_string(),
            }
        } else {
            JournalError::Open {
                path: path.to_path_buf(),
                trouble: Trouble::of(&e),
                why: e.to_string(),
            }
        }
    }
}

fn migrate(conn: &mut Connection, path: &Path) -> Result<(), JournalError> {
    let fail = open_error(path);
    let known = MIGRATIONS.len() as i64;
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(&fail)?;
    let version: i64 = tx
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .map_err(&fail)?;
    if version > known {
        return Err(JournalError::TooNew {
            path: path.to_path_buf(),
            found: version,
            known,
        });
    }
    for (i, step) in MIGRATIONS.iter().enumerate().skip(version.max(0) as usize) {
        match step {
            Step::Sql(sql) => tx.execute_batch(sql),
            Step::Code(f) => f(&tx),
        }
        .map_err(&fail)?;
        tx.pragma_update(None, "user_version", i as i64 + 1)
            .map_err(&fail)?;
    }
    tx.commit().map_err(&fail)
}

#[cfg(test)]
pub(super) fn migrate_to(path: &Path, version: usize) {
    let mut conn = Connection::open(path).unwrap();
    let tx = conn.transaction().unwrap();
    for (i, step) in MIGRATIONS.iter().enumerate().take(version) {
        match step {
            Step::Sql(sql) => tx.execute_batch(sql).unwrap(),
            Step::Code(f) => f(&tx).unwrap(),
        }
        tx.pragma_update(None, "user_version", i as i64 + 1)
            .unwrap();
    }
    tx.commit().unwrap();
}

#[cfg(test)]
impl Journal {
    /// Runs SQL directly (tests that tamper with the file).
    pub(super) fn raw(&self, sql: &str) {
        match &self.store {
            Store::Lite(c) => c.execute_batch(sql).unwrap(),
            Store::Shared(p) => p.batch(sql).unwrap(),
        }
    }
}
