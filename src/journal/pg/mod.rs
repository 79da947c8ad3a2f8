//! The shared journal on PostgreSQL: a desk of clerks on several computers writes to one
//! journal, so a reference claimed on one computer is claimed on all of them.
//!
//! The journal's logic is the same as for the SQLite file (see `db.rs`); what is
//! PostgreSQL's is here: connecting (TLS through rustls and the platform's verifier,
//! the password never in the address; time limits on every lock, statement and idle
//! transaction, TCP keepalives both ways), and the layout. From layout 2 the clerks'
//! role writes nothing directly: it reads, and calls the journal's functions
//! (`SECURITY DEFINER`, owned by the journal's owner), which number each row, stamp it
//! with the server's clock and the database role (`session_user`), chain it to the row
//! before it of the same writer (one connection: per-writer chains, so no global lock
//! serialises the desk), and allow only the changes the design allows: a claim is taken
//! by a unique key, taken over only from an intent whose latest outcome is "refused";
//! a request's answer is recorded by the writer that sent it, anyone else only records
//! what a check found, and another role's "not created" only after the in-flight floor
//! on the server's clock.
//!
//! tokio-postgres is driven by a thread of its own (its connection task on a small
//! runtime); each call waits on the client's channels with a plain executor, under a
//! time limit kept by that runtime's timer, so the journal can be used from async code
//! (the CLI) and from blocking threads alike, as the SQLite journal is.

use super::db::{Db, DbError, DbRow, Val, dollar_placeholders};
use super::error::Trouble;
use futures_util::{StreamExt, pin_mut};
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;
use tokio_postgres::types::{IsNull, ToSql, Type, to_sql_checked};

mod address;
mod approvals_sql;
mod group;
mod layout;
mod tls;

pub use address::{is_database_url, without_password};
pub use layout::grants;
use layout::{SCHEMA_1, UPGRADE_2, UPGRADE_3, UPGRADE_4, UPGRADE_5, UPGRADE_6, UPGRADE_7, fill};

/// The layout this program writes; a database with a newer one is refused.
pub(super) const LAYOUT: i64 = 8;

/// The oldest layout a clerk's role goes on working with when it cannot bring it up to
/// date itself (only the owner can): everything but contracts, which need layout 7 and
/// say so.
pub(super) const LAYOUT_WORKING: i64 = 6;

/// The journal's advisory lock ("invoice-desk journal", any fixed number): held only
/// while the layout is made or brought up to date, never on the write path.
const LOCK: i64 = 0x4944_4a4f_5552_4e4c;

/// How long a write waits for a row another transaction holds before saying who holds
/// it (a colleague claiming the same reference commits in milliseconds; longer means a
/// computer that stopped mid-write, which the server ends after [`IDLE_LIMIT`]).
pub(super) const LOCK_WAIT: Duration = Duration::from_secs(2);

/// How long the server keeps a transaction whose client went quiet (a dead laptop's
/// claim): then it is ended and its locks freed; its intent was never committed.
const IDLE_LIMIT: Duration = Duration::from_secs(10);

/// How long a write that met a colleague's open transaction is tried again before the
/// journal is said to be busy: past the server's [`IDLE_LIMIT`] (when a stalled
/// laptop's transaction is ended and its locks freed) and one more lock wait.
pub const BUSY_PATIENCE: Duration =
    Duration::from_secs(IDLE_LIMIT.as_secs() + 2 * LOCK_WAIT.as_secs() + 1);

/// After a connection that could not be made, how long until the next is tried: a
/// server back is found within it (and its connection's own time).
const RECONNECT_PAUSE: Duration = Duration::from_secs(2);

/// How long a connection may take to be made, start-up and password included.
const CONNECT_LIMIT: Duration = Duration::from_secs(10);

/// How long one statement may run on the server.
const STATEMENT_LIMIT: Duration = Duration::from_secs(30);

/// How long this side waits for any answer (a server or proxy that stalls): a little
/// more than the server's own limit.
const ANSWER_LIMIT: Duration = Duration::from_secs(40);

/// The in-flight floor the server keeps for "not created" recorded by another database
/// role than the one that sent the request: the default window (the 30 s request limit
/// and the 90 s margin). A role's own processes use their own window.
const IN_FLIGHT_FLOOR_SECONDS: i64 = 120;

/// The shared journal's connection, made again when the server went away.
///
/// Why tokio-postgres driven from a thread of its own, not the `postgres` crate (which
/// wraps the same client in the same way): every answer here is bounded by
/// [`ANSWER_LIMIT`] — each call, and each row of a long walk — and a connection whose
/// server stopped answering is marked broken and never used again. The `postgres`
/// crate's blocking calls take no such limit: a stalled server or network would hold a
/// clerk's run until the operating system gave up on the connection (Linux's 30 s user
/// timeout; minutes elsewhere), which the stalled-network test
/// (`tests/shared_journal.rs`) forbids.
///
/// A server restarts, fails over to its standby, or a laptop's Wi-Fi drops: a
/// connection found closed or broken is made anew at the next call that does not
/// belong to a transaction begun on it (a transaction never goes on on another
/// connection: its beginning was lost with the old one). It names the same writer
/// secret, so the computer goes on with its own chain and may record the answers to the
/// requests it sent before.
pub(crate) struct Pg {
    /// How to connect (the writer's secret among its options).
    config: tokio_postgres::Config,
    /// The connection in use.
    conn: Mutex<std::sync::Arc<Conn>>,
    /// A transaction was begun on the connection in use: it is not replaced until the
    /// transaction ends.
    in_transaction: std::sync::atomic::AtomicBool,
    /// A new connection could not be made: none is tried again before then (each try
    /// may take [`CONNECT_LIMIT`] on a stalled network), and calls fail at once with
    /// why the last one failed.
    retry: Mutex<Option<(std::time::Instant, DbError)>>,
    /// This writer's newest row appended in the transaction under way, and the newest
    /// one committed: a server found without it (a failover to a standby that had not
    /// received it) has lost what this computer was told was written.
    appended: std::sync::atomic::AtomicI64,
    committed: std::sync::atomic::AtomicI64,
    /// The transaction under way waits for the server's disk at its commit: only such a
    /// commit's rows count as committed (an outcome's, not waited for, may be lost in a
    /// crash, and leaves its intent "to check").
    durable: std::sync::atomic::AtomicBool,
    /// The server came back without rows this writer had committed, or another server
    /// took over from one that confirmed commits without a standby: no more writes.
    rewound: std::sync::atomic::AtomicBool,
    /// The server connected to (its address and port as it sees them) and whether it
    /// confirms a commit only once a standby has it (`synchronous_standby_names`).
    server: Mutex<Option<ServerSeen>>,
    /// The advisory lock this writer's connection holds while it lives (two int4s made
    /// from its secret's SHA-256, as `writers.token_hash` begins): a colleague's run asks
    /// `pg_locks`, which every role may read, whether the writer of a claim with no
    /// outcome is still connected ([`Journal::writer_alive`]).
    alive_key: (i32, i32),
    /// This connection holds it (a new connection takes it at its first write when the
    /// server still gave it to the old one).
    alive: std::sync::atomic::AtomicBool,
    /// The savepoints of a group's writes still to be said: sent with the next statement,
    /// in the same round trip ([`group`]).
    savepoints: Mutex<group::Savepoints>,
    /// The customer ids this handle taught the directory, and those to teach it after
    /// the transaction under way ([`Db::learn_after_commit`]).
    taught: Mutex<group::Taught>,
}

/// What a connection found of its server.
#[derive(Clone, Debug, PartialEq, Eq)]
struct ServerSeen {
    /// `inet_server_addr():inet_server_port()` (empty over a local socket).
    place: String,
    /// A commit is confirmed once a standby has it.
    synchronous: bool,
}

impl ServerSeen {
    /// Asks the server over a new connection `conn` what it is, and takes this writer's
    /// advisory lock `key` there (see [`Conn::say_alive`]): one round trip at start-up;
    /// whether the lock was taken.
    fn greet(conn: &Conn, key: (i32, i32)) -> Result<(ServerSeen, bool), DbError> {
        let stmt = conn.statement(
            "SELECT coalesce(host(inet_server_addr()), '') || ':' || coalesce(inet_server_port()::text, ''),
                    current_setting('synchronous_standby_names') <> ''
                    AND current_setting('synchronous_commit') NOT IN ('off', 'local'),
                    pg_try_advisory_lock($1::int4, $2::int4)",
        )?;
        let rows = conn.block(conn.client.query(&stmt, &[&key.0, &key.1]))?;
        let row = rows
            .first()
            .ok_or_else(|| DbError::said("the server said nothing of itself"))?;
        Ok((
            ServerSeen {
                place: row.try_get(0)?,
                synchronous: row.try_get(1)?,
            },
            row.try_get(2)?,
        ))
    }
}

/// One connection to the server.
struct Conn {
    client: tokio_postgres::Client,
    statements: Mutex<HashMap<String, tokio_postgres::Statement>>,
    /// The connection thread's runtime: its timer keeps [`ANSWER_LIMIT`].
    runtime: tokio::runtime::Handle,
    /// An answer did not come within [`ANSWER_LIMIT`]: the connection is not used again
    /// (each later call would wait as long), every call on it fails at once.
    broken: std::sync::atomic::AtomicBool,
    /// Drives the connection; it ends when the client is dropped.
    _driver: std::thread::JoinHandle<()>,
}

/// The advisory lock's two keys for writer `secret`: the first 8 bytes of its SHA-256,
/// as `('x' || substr(token_hash, 1, 8))::bit(32)::int` and the next 8 hex digits read.
fn alive_key(secret: &str) -> (i32, i32) {
    use sha2::Digest;
    let d = sha2::Sha256::digest(secret.as_bytes());
    (
        i32::from_be_bytes([d[0], d[1], d[2], d[3]]),
        i32::from_be_bytes([d[4], d[5], d[6], d[7]]),
    )
}

/// A writer's secret: 64 random hex digits (two v4 UUIDs' 244 random bits), named by
/// every connection of this journal's handle and known to no other session.
fn writer_secret() -> String {
    format!(
        "{}{}",
        uuid::Uuid::new_v4().simple(),
        uuid::Uuid::new_v4().simple()
    )
}

impl Pg {
    /// Connects to `url` with `password` (the address must not hold one: addresses are
    /// shown and kept, passwords never); `who` names this writer to colleagues who wait
    /// on it (the server's own role name is said beside it).
    pub fn connect(url: &str, password: Option<&str>, who: &str) -> Result<Pg, DbError> {
        // rustls always checks the server's certificate and name: `verify-full` is what
        // `require` gets here, so both are read as `require`.
        let url = url
            .replace("sslmode=verify-full", "sslmode=require")
            .replace("sslmode=verify-ca", "sslmode=require");
        // The parser's own words may repeat what it could not read: never said.
        let mut config: tokio_postgres::Config = url.parse().map_err(|_| {
            DbError::said("the address cannot be read as a PostgreSQL address (postgres://user@host:port/database, or host=… dbname=… user=…)")
        })?;
        if config.get_password().is_some() {
            return Err(DbError::said(
                "the address holds a password: give it in INVOICE_DESK_JOURNAL_PASSWORD (or the keyring), never in the address",
            ));
        }
        if let Some(p) = password {
            config.password(p);
        }
        let secret = writer_secret();
        let alive_key = alive_key(&secret);
        let name: String = format!("invoice-desk {who}")
            .chars()
            .filter(|c| !c.is_control())
            .take(60)
            .collect();
        config.application_name(name);
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(Duration::from_secs(10));
        }
        // Never frozen: a lock waited for says who holds it, a transaction left open by
        // a computer that died is ended by the server, a statement is bounded; the
        // server notices a vanished client and this side a vanished server. The
        // writer's secret names this computer's chain on every connection it makes.
        config.options(format!(
            "-c lock_timeout={} -c idle_in_transaction_session_timeout={} -c statement_timeout={} \
             -c tcp_keepalives_idle=10 -c tcp_keepalives_interval=5 -c tcp_keepalives_count=3 \
             -c invoice_desk.writer={}",
            LOCK_WAIT.as_millis(),
            IDLE_LIMIT.as_millis(),
            STATEMENT_LIMIT.as_millis(),
            secret
        ));
        config.keepalives(true);
        config.keepalives_idle(Duration::from_secs(10));
        config.keepalives_interval(Duration::from_secs(5));
        config.keepalives_retries(3);
        #[cfg(target_os = "linux")]
        config.tcp_user_timeout(Duration::from_secs(30));
        let conn = Conn::open(config.clone())?;
        let (server, alive) = ServerSeen::greet(&conn, alive_key)?;
        Ok(Pg {
            config,
            conn: Mutex::new(std::sync::Arc::new(conn)),
            in_transaction: std::sync::atomic::AtomicBool::new(false),
            retry: Mutex::new(None),
            appended: std::sync::atomic::AtomicI64::new(0),
            committed: std::sync::atomic::AtomicI64::new(0),
            durable: std::sync::atomic::AtomicBool::new(true),
            rewound: std::sync::atomic::AtomicBool::new(false),
            server: Mutex::new(Some(server)),
            alive_key,
            alive: std::sync::atomic::AtomicBool::new(alive),
            savepoints: Mutex::default(),
            taught: Mutex::default(),
        })
    }

    /// The connection to use now: the one in use while it works (or while a
    /// transaction was begun on it), else a new one.
    fn conn(&self) -> Result<std::sync::Arc<Conn>, DbError> {
        let mut current = self
            .conn
            .lock()
            .map_err(|_| DbError::said("the connection's lock was poisoned"))?;
        let gone =
            current.broken.load(std::sync::atomic::Ordering::SeqCst) || current.client.is_closed();
        if gone
            && !self
                .in_transaction
                .load(std::sync::atomic::Ordering::SeqCst)
        {
            let mut retry = self
                .retry
                .lock()
                .map_err(|_| DbError::said("the connection's lock was poisoned"))?;
            if let Some((at, why)) = retry.as_ref()
                && std::time::Instant::now() < *at
            {
                return Err(why.clone());
            }
            match Conn::open(self.config.clone()) {
                Ok(conn) => {
                    *retry = None;
                    let (server, alive) = ServerSeen::greet(&conn, self.alive_key)?;
                    self.check_not_rewound(&conn, server)?;
                    self.alive.store(alive, std::sync::atomic::Ordering::SeqCst);
                    // Another server (a failover) may not have what this one was taught.
                    self.taught().forget();
                    *current = std::sync::Arc::new(conn);
                }
                Err(e) => {
                    *retry = Some((std::time::Instant::now() + RECONNECT_PAUSE, e.clone()));
                    return Err(e);
                }
            }
        }
        Ok(current.clone())
    }

    /// On a connection made anew: whether the server still has this writer's newest
    /// committed row. A failover to an asynchronous standby may lose the last moments'
    /// rows; a claim lost so would let the reference be sent again on this run's word.
    /// Then nothing more is written through this handle (a new run, or the app's journal
    /// opened again, asks the service before it sends).
    ///
    /// Another server taking over (a failover: another address or port) from one that
    /// confirmed commits without waiting for a standby may lack the last moments' rows
    /// of any clerk: a run here could take a colleague's lost claim for free. That too
    /// ends writing through this handle.
    fn check_not_rewound(&self, conn: &Conn, now: ServerSeen) -> Result<(), DbError> {
        use std::sync::atomic::Ordering;
        if let Ok(mut server) = self.server.lock() {
            if let Some(before) = server.as_ref()
                && before.place != now.place
                && !before.synchronous
            {
                self.rewound.store(true, Ordering::SeqCst);
            }
            *server = Some(now);
        }
        let committed = self.committed.load(Ordering::SeqCst);
        if committed == 0 {
            return Ok(());
        }
        let stmt = conn.statement(
            "SELECT coalesce(max(e.seq), 0) FROM entries e JOIN writers w ON w.id = e.writer
             WHERE w.token_hash = encode(sha256(convert_to(current_setting('invoice_desk.writer'), 'UTF8')), 'hex')",
        )?;
        let rows = conn.block(conn.client.query(&stmt, &[]))?;
        let found: i64 = rows.first().map_or(Ok(0), |r| r.try_get(0))?;
        if found < committed {
            self.rewound.store(true, Ordering::SeqCst);
        }
        Ok(())
    }

    /// Refuses a write once the server was found without this writer's rows.
    fn not_rewound(&self) -> Result<(), DbError> {
        if self.rewound.load(std::sync::atomic::Ordering::SeqCst) {
            return Err(DbError {
                trouble: Trouble::Rewound,
                why: "the journal's server came back without the newest rows this computer had written, or another server took over from one that did not wait for a standby (a failover that may have lost the last moments' rows)".into(),
                unique: false,
                lock_timeout: false,
                deadlock: false,
            });
        }
        Ok(())
    }

    /// Marks the connection in use as gone: the next call makes a new one.
    fn forget(&self) {
        if let Ok(current) = self.conn.lock() {
            current
                .broken
                .store(true, std::sync::atomic::Ordering::SeqCst);
        }
    }

    /// The layout recorded, if the tables exist.
    pub fn layout(&self) -> Result<Option<i64>, DbError> {
        let exists = self
            .one("SELECT to_regclass('journal_layout') IS NOT NULL", &[])?
            .map(|r| r.flag(0))
            .transpose()?
            .unwrap_or(false);
        if !exists {
            return Ok(None);
        }
        self.one("SELECT max(version) FROM journal_layout", &[])?
            .map(|r| r.opt_int(0))
            .transpose()
            .map(Option::flatten)
    }

    /// Makes the tables and functions, or brings an older layout up to date, under the
    /// journal's advisory lock (two computers starting at once do it once). Only the
    /// journal's owner (or a role that may create in its schema) can.
    pub fn prepare_layout(&self) -> Result<(), DbError> {
        self.locked(|db| {
            let found = self.layout()?;
            if found.is_none() {
                self.batch(SCHEMA_1)?;
                db.exec(
                    "INSERT INTO journal_layout (version) SELECT ?1
                     WHERE NOT EXISTS (SELECT 1 FROM journal_layout)",
                    &[Val::Int(1)],
                )?;
            }
            let schema = self.schema()?;
            for (layout, sql) in [
                (2, UPGRADE_2),
                (3, UPGRADE_3),
                (4, UPGRADE_4),
                (5, UPGRADE_5),
                (6, UPGRADE_6),
                (7, UPGRADE_7),
                (8, approvals_sql::UPGRADE_8),
            ] {
                if found.unwrap_or(1) < layout {
                    self.batch(&fill(sql, &schema))?;
                }
            }
            Ok(())
        })
    }

    /// The schema the journal's tables are in.
    fn schema(&self) -> Result<String, DbError> {
        self.one("SELECT current_schema()", &[])?
            .map(|r| r.text(0))
            .transpose()?
            .ok_or_else(|| DbError::said("the database has no schema to make it in"))
    }

    /// Runs statements that take no parameters.
    pub fn batch(&self, sql: &str) -> Result<(), DbError> {
        let conn = self.conn()?;
        conn.block(conn.client.batch_execute(sql))
    }

    /// Runs `f` in one transaction. No lock is taken for the journal as a whole: claims
    /// are decided by unique keys and row locks, each writer's chain by its own row.
    /// A row lock held by another computer for longer than [`LOCK_WAIT`] ends the
    /// transaction with a word of who holds it. The whole transaction runs on one
    /// connection: one lost midway fails it (nothing of it was committed).
    pub fn write<R>(&self, f: impl FnOnce(&dyn Db) -> Result<R, DbError>) -> Result<R, DbError> {
        self.write_synced(true, f)
    }

    /// [`Pg::write`]; `durable: false` commits without waiting for the server's disk
    /// (`synchronous_commit = off` for this transaction alone), as the file's journal
    /// commits an outcome: one lost in the server's crash leaves its intent "to check",
    /// never sent again; the server's later commits carry it in order.
    pub fn write_synced<R>(
        &self,
        durable: bool,
        f: impl FnOnce(&dyn Db) -> Result<R, DbError>,
    ) -> Result<R, DbError> {
        self.begin_group(durable)?;
        match f(self) {
            Ok(r) => self.end_group(true).map(|()| r),
            Err(e) => {
                let _ = self.end_group(false);
                Err(self.who_holds(e))
            }
        }
    }

    /// How many statements the connection in use has prepared (a test's view of what a
    /// rehearsal warmed).
    #[cfg(test)]
    pub fn statements_prepared(&self) -> usize {
        self.conn()
            .ok()
            .and_then(|c| c.statements.lock().ok().map(|s| s.len()))
            .unwrap_or(0)
    }

    /// Runs `f` in one transaction begun once the journal's advisory lock is held (the
    /// layout): begun after, so it sees what the previous holder made (a transaction
    /// begun before may not see a table made meanwhile).
    fn locked<R>(&self, f: impl FnOnce(&dyn Db) -> Result<R, DbError>) -> Result<R, DbError> {
        self.exec("SELECT pg_advisory_lock(?1)", &[Val::Int(LOCK)])?;
        let done = self.write(f);
        let _ = self.exec("SELECT pg_advisory_unlock(?1)", &[Val::Int(LOCK)]);
        done
    }

    /// A lock waited for too long, said with who holds a write open on the journal now
    /// (their database role and program), so a waiting clerk knows whom to ask.
    fn who_holds(&self, e: DbError) -> DbError {
        if !e.lock_timeout {
            return e;
        }
        let holders = self
            .query(
                "SELECT DISTINCT a.usename::text, coalesce(a.application_name, '')
                 FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
                 WHERE l.locktype = 'transactionid' AND l.mode = 'ExclusiveLock' AND l.granted
                   AND a.datname = current_database() AND a.pid <> pg_backend_pid()
                 ORDER BY 1, 2 LIMIT 5",
                &[],
            )
            .unwrap_or_default();
        let names: Vec<String> = holders
            .iter()
            .filter_map(|r| {
                let role = r.text(0).ok()?;
                let app = r.text(1).unwrap_or_default();
                let app = app
                    .strip_prefix("invoice-desk ")
                    .unwrap_or(&app)
                    .to_string();
                Some(crate::text::escape_controls(&format!("{app} (role {role})")).into_owned())
            })
            .collect();
        let who = if names.is_empty() {
            "another computer".to_string()
        } else {
            names.join(", ")
        };
        DbError {
            why: format!(
                "waited {} s for {who}, whose write on the journal holds this row; the server ends a write left open for {} s",
                LOCK_WAIT.as_secs(),
                IDLE_LIMIT.as_secs()
            ),
            ..e
        }
    }
}

impl Conn {
    /// Connects with `config`, from a thread of its own that drives the connection.
    fn open(config: tokio_postgres::Config) -> Result<Conn, DbError> {
        let tls = tls::LazyTls;
        let (sent, got) = std::sync::mpsc::channel();
        let driver = std::thread::Builder::new()
            .name("shared-journal".into())
            .spawn(move || {
                let rt = match tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                {
                    Ok(rt) => rt,
                    Err(e) => {
                        let _ = sent.send(Err(DbError::said(e.to_string())));
                        return;
                    }
                };
                let handle = rt.handle().clone();
                rt.block_on(async move {
                    // tokio-postgres bounds the socket's connection only: a server or
                    // network that takes the connection and then stalls (a half-dead
                    // Wi-Fi, a proxy) would hold the start-up and the password for ever.
                    match tokio::time::timeout(CONNECT_LIMIT, config.connect(tls)).await {
                        Ok(Ok((client, connection))) => {
                            let _ = sent.send(Ok((client, handle)));
                            let _ = connection.await;
                        }
                        Ok(Err(e)) => {
                            let _ = sent.send(Err(DbError::from(e)));
                        }
                        Err(_) => {
                            let _ = sent.send(Err(DbError {
                                trouble: Trouble::Unreachable,
                                why: format!(
                                    "the server did not answer the connection within {} s",
                                    CONNECT_LIMIT.as_secs()
                                ),
                                unique: false,
                                lock_timeout: false,
                                deadlock: false,
                            }));
                        }
                    }
                });
            })
            .map_err(|e| DbError::said(e.to_string()))?;
        let (client, runtime) = got
            .recv()
            .map_err(|_| DbError::said("the connection's thread stopped"))??;
        Ok(Conn {
            client,
            statements: Mutex::new(HashMap::new()),
            runtime,
            broken: std::sync::atomic::AtomicBool::new(false),
            _driver: driver,
        })
    }

    /// Takes this writer's advisory lock for the session (never waits: a server that
    /// still gives it to this writer's previous connection says no); whether it holds it.
    fn say_alive(&self, key: (i32, i32)) -> Result<bool, DbError> {
        let stmt = self.statement("SELECT pg_try_advisory_lock($1::int4, $2::int4)")?;
        let rows = self.block(self.client.query(&stmt, &[&key.0, &key.1]))?;
        Ok(rows
            .first()
            .map(|r| r.try_get(0))
            .transpose()?
            .unwrap_or(false))
    }

    fn statement(&self, sql: &str) -> Result<tokio_postgres::Statement, DbError> {
        if let Ok(cache) = self.statements.lock()
            && let Some(s) = cache.get(sql)
        {
            return Ok(s.clone());
        }
        let stmt = self.block(self.client.prepare(&dollar_placeholders(sql)))?;
        if let Ok(mut cache) = self.statements.lock() {
            cache.insert(sql.to_string(), stmt.clone());
        }
        Ok(stmt)
    }

    /// Waits for a call's answer, at most [`ANSWER_LIMIT`] (see [`within`]).
    fn block<T, E, F>(&self, f: F) -> Result<T, DbError>
    where
        F: std::future::Future<Output = Result<T, E>>,
        DbError: From<E>,
    {
        self.usable()?;
        futures_executor::block_on(within(&self.runtime, f))
            .inspect_err(|_| self.broken.store(true, std::sync::atomic::Ordering::SeqCst))?
            .map_err(DbError::from)
    }

    /// Fails at once on a connection whose server stopped answering earlier.
    fn usable(&self) -> Result<(), DbError> {
        if self.broken.load(std::sync::atomic::Ordering::SeqCst) {
            return Err(DbError {
                trouble: Trouble::Unreachable,
                why: format!(
                    "the server stopped answering earlier (nothing came within {} s)",
                    ANSWER_LIMIT.as_secs()
                ),
                unique: false,
                lock_timeout: false,
                deadlock: false,
            });
        }
        Ok(())
    }
}

/// `f`'s result, unless no answer came within [`ANSWER_LIMIT`]: the connection thread's
/// timer wakes the wait, so a server or network that stalls is said, not waited on for
/// ever.
async fn within<T>(
    runtime: &tokio::runtime::Handle,
    f: impl std::future::Future<Output = T>,
) -> Result<T, DbError> {
    let limit = {
        let _in = runtime.enter();
        tokio::time::sleep(ANSWER_LIMIT)
    };
    pin_mut!(f);
    pin_mut!(limit);
    match futures_util::future::select(f, limit).await {
        futures_util::future::Either::Left((r, _)) => Ok(r),
        futures_util::future::Either::Right(_) => Err(DbError {
            trouble: Trouble::Unreachable,
            why: format!(
                "the server did not answer within {} s",
                ANSWER_LIMIT.as_secs()
            ),
            unique: false,
            lock_timeout: false,
            deadlock: false,
        }),
    }
}

impl Db for Pg {
    fn exec(&self, sql: &str, params: &[Val]) -> Result<u64, DbError> {
        let conn = self.conn()?;
        let stmt = conn.statement(sql)?;
        let said = self.savepoint_to_say();
        conn.block(group::after(
            &conn.client,
            said,
            conn.client.execute_raw(&stmt, params.iter()),
        ))
    }

    fn each(
        &self,
        sql: &str,
        params: &[Val],
        f: &mut dyn FnMut(DbRow) -> Result<bool, DbError>,
    ) -> Result<(), DbError> {
        let conn = self.conn()?;
        conn.usable()?;
        let stmt = conn.statement(sql)?;
        let rt = &conn.runtime;
        let broken = || conn.broken.store(true, std::sync::atomic::Ordering::SeqCst);
        // The limit is per answer (the first rows, then each next one): a long walk
        // (`journal verify`) goes on as long as rows keep coming.
        let said = self.savepoint_to_say();
        futures_executor::block_on(async {
            let first = group::after(
                &conn.client,
                said,
                conn.client.query_raw(&stmt, params.iter()),
            );
            let rows = within(rt, first).await.inspect_err(|_| broken())??;
            pin_mut!(rows);
            while let Some(row) = within(rt, rows.next()).await.inspect_err(|_| broken())? {
                if !f(read_row(&row?)?)? {
                    break;
                }
            }
            Ok(())
        })
    }

    fn shared(&self) -> bool {
        true
    }

    fn appended(&self, seq: i64) {
        self.appended
            .fetch_max(seq, std::sync::atomic::Ordering::SeqCst);
    }

    fn learn_after_commit(&self, id: &str, search: String) {
        self.taught().teach_later(id, search);
    }
}

/// A row's values by their column types.
fn read_row(row: &tokio_postgres::Row) -> Result<DbRow, DbError> {
    let mut out = Vec::with_capacity(row.len());
    for (i, c) in row.columns().iter().enumerate() {
        let v = match *c.type_() {
            Type::INT8 => row.try_get::<_, Option<i64>>(i)?.map(Val::Int),
            Type::INT4 => row
                .try_get::<_, Option<i32>>(i)?
                .map(|n| Val::Int(n.into())),
            Type::INT2 => row
                .try_get::<_, Option<i16>>(i)?
                .map(|n| Val::Int(n.into())),
            Type::BOOL => row.try_get::<_, Option<bool>>(i)?.map(Val::Bool),
            _ => row.try_get::<_, Option<String>>(i)?.map(Val::Text),
        };
        out.push(v.unwrap_or(Val::Null));
    }
    Ok(DbRow(out))
}

impl ToSql for Val {
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut bytes::BytesMut,
    ) -> Result<IsNull, Box<dyn std::error::Error + Sync + Send>> {
        match self {
            Val::Null => Ok(IsNull::Yes),
            Val::Int(n) => match *ty {
                Type::INT4 => i32::try_from(*n)?.to_sql(ty, out),
                Type::INT2 => i16::try_from(*n)?.to_sql(ty, out),
                Type::BOOL => (*n != 0).to_sql(ty, out),
                Type::TEXT | Type::VARCHAR => n.to_string().to_sql(ty, out),
                _ => n.to_sql(ty, out),
            },
            Val::Text(t) => match *ty {
                Type::INT8 => t.parse::<i64>()?.to_sql(ty, out),
                _ => t.as_str().to_sql(ty, out),
            },
            Val::Bool(b) => match *ty {
                Type::INT8 => i64::from(*b).to_sql(ty, out),
                _ => b.to_sql(ty, out),
            },
        }
    }

    fn accepts(_: &Type) -> bool {
        true
    }

    to_sql_checked!();
}

/// Whether the server asked for a password the connection did not have (tokio-postgres
/// says so only in words, as the source of a configuration error).
fn password_missing(e: &tokio_postgres::Error) -> bool {
    let mut source: Option<&dyn std::error::Error> = Some(e);
    while let Some(s) = source {
        if s.to_string().contains("password missing") {
            return true;
        }
        source = s.source();
    }
    false
}

impl From<tokio_postgres::Error> for DbError {
    fn from(e: tokio_postgres::Error) -> DbError {
        use tokio_postgres::error::SqlState;
        let code = e.code();
        let trouble = match code {
            Some(c) if *c == SqlState::DISK_FULL => Trouble::DiskFull,
            // The desk's four eyes (layout 8's functions): what the claim lacks, or why
            // the server did not take a decision.
            Some(c) if c.code() == "IDA01" => Trouble::NeedsApproval,
            Some(c) if c.code().starts_with("IDA") => Trouble::ApprovalRefused,
            Some(c)
                if *c == SqlState::INSUFFICIENT_PRIVILEGE
                    || *c == SqlState::READ_ONLY_SQL_TRANSACTION =>
            {
                Trouble::ReadOnly
            }
            Some(c)
                if *c == SqlState::LOCK_NOT_AVAILABLE || *c == SqlState::T_R_DEADLOCK_DETECTED =>
            {
                Trouble::Busy
            }
            Some(c) if *c == SqlState::DATA_CORRUPTED || *c == SqlState::INDEX_CORRUPTED => {
                Trouble::Corrupt
            }
            Some(c)
                if *c == SqlState::INVALID_PASSWORD
                    || *c == SqlState::INVALID_AUTHORIZATION_SPECIFICATION =>
            {
                Trouble::Denied
            }
            Some(c) if *c == SqlState::INVALID_CATALOG_NAME => Trouble::NoDatabase,
            // The server is shutting down, restarting or still starting (a restart or
            // a failover): out of reach for now, not a refusal.
            // So is a transaction the server ended because this computer left it open
            // (it slept or was stopped mid-claim, #68): nothing in it was written, and
            // the connection is gone — connected again, as after a restart.
            Some(c)
                if *c == SqlState::ADMIN_SHUTDOWN
                    || *c == SqlState::CRASH_SHUTDOWN
                    || *c == SqlState::CANNOT_CONNECT_NOW
                    || *c == SqlState::IDLE_IN_TRANSACTION_SESSION_TIMEOUT =>
            {
                Trouble::Unreachable
            }
            Some(_) => Trouble::Other,
            // The server asked for a password and none was given (the keyring lost it,
            // or it was never saved): a refusal, not a server out of reach.
            None if password_missing(&e) => Trouble::Denied,
            // A certificate this computer does not trust: said as such, never as "down".
            None if refused_certificate(&e) => Trouble::Untrusted,
            // No answer from the server at all: it cannot be reached, or went away.
            None => Trouble::Unreachable,
        };
        // The server's own words, when it said something; else the connection's.
        let why = match e.as_db_error() {
            Some(d) => d.message().to_string(),
            None => {
                let mut why = e.to_string();
                let mut source = std::error::Error::source(&e);
                while let Some(s) = source {
                    why = format!("{why}: {s}");
                    source = s.source();
                }
                why
            }
        };
        DbError {
            trouble,
            unique: code == Some(&SqlState::UNIQUE_VIOLATION),
            lock_timeout: code == Some(&SqlState::LOCK_NOT_AVAILABLE),
            deadlock: code == Some(&SqlState::T_R_DEADLOCK_DETECTED),
            why,
        }
    }
}

/// Whether the connection failed because rustls refused the server's certificate
/// (read by type, through the error's sources).
fn refused_certificate(e: &tokio_postgres::Error) -> bool {
    matches!(
        std::error::Error::source(e).and_then(crate::api::http::tls_error),
        Some(rustls::Error::InvalidCertificate(_) | rustls::Error::NoCertificatesPresented)
    )
}
