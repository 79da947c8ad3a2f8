//! The shared journal on PostgreSQL: a desk of clerks on several computers writes to one
//! journal, so a reference claimed on one computer is claimed on all of them.
//!
//! The journal's logic is the same as for the SQLite file (see `db.rs`); what is
//! PostgreSQL's is here: connecting (TLS through rustls and the platform's verifier,
//! the password never in the address), the layout, and one writer at a time through the
//! journal's advisory lock — the claim and the chain's next link are decided under it,
//! as SQLite's immediate transaction does for one file.
//!
//! tokio-postgres is driven by a thread of its own (its connection task on a small
//! runtime); each call waits on the client's channels with a plain executor, so the
//! journal can be used from async code (the CLI) and from blocking threads alike, as the
//! SQLite journal is.

use super::db::{Db, DbError, DbRow, Val, dollar_placeholders};
use super::store::Trouble;
use futures_util::{StreamExt, pin_mut};
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;
use tokio_postgres::types::{IsNull, ToSql, Type, to_sql_checked};

/// The layout this program writes; a database with a newer one is refused.
pub(super) const LAYOUT: i64 = 1;

/// The journal's advisory lock ("invoice-desk journal", any fixed number).
const LOCK: i64 = 0x4944_4a4f_5552_4e4c;

/// The shared journal's tables, as of [`LAYOUT`] (the SQLite file's latest layout, with
/// PostgreSQL's types). `entries` is the record: clerks may add to it and read it,
/// never change it (see [`grants`]).
const SCHEMA: &str = r#"
CREATE TABLE IF NOT EXISTS journal_layout (version BIGINT NOT NULL);
CREATE TABLE IF NOT EXISTS entries (
    seq BIGINT PRIMARY KEY,
    kind TEXT NOT NULL,
    intent_seq BIGINT,
    time TEXT NOT NULL,
    "user" TEXT NOT NULL,
    profile TEXT NOT NULL,
    base_url TEXT NOT NULL,
    action TEXT NOT NULL,
    customer TEXT,
    amount TEXT,
    currency_code TEXT,
    account_last4 TEXT,
    external_id TEXT,
    invoice_id TEXT,
    outcome TEXT,
    error_kind TEXT,
    error_code TEXT,
    file_name TEXT,
    rows BIGINT,
    checked BOOLEAN NOT NULL DEFAULT false,
    prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL,
    service TEXT,
    due_date TEXT,
    decision TEXT
);
CREATE INDEX IF NOT EXISTS entries_intent ON entries(intent_seq);
CREATE INDEX IF NOT EXISTS entries_time ON entries(kind, time);
CREATE INDEX IF NOT EXISTS entries_reference ON entries(external_id);
CREATE INDEX IF NOT EXISTS entries_look_alike ON entries(customer, amount)
    WHERE kind = 'intent' AND action = 'create';
CREATE TABLE IF NOT EXISTS customers (
    id TEXT PRIMARY KEY,
    name TEXT,
    rut TEXT,
    notes TEXT,
    search TEXT NOT NULL,
    updated TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS bulk_runs (
    id BIGSERIAL PRIMARY KEY,
    path TEXT NOT NULL,
    file_id TEXT NOT NULL,
    profile TEXT NOT NULL,
    base_url TEXT NOT NULL,
    rows BIGINT NOT NULL,
    started TEXT NOT NULL,
    finished TEXT,
    mapping TEXT
);
CREATE TABLE IF NOT EXISTS pushed (
    origin TEXT PRIMARY KEY,
    seq BIGINT NOT NULL,
    pushed_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS claims (
    scope TEXT NOT NULL,
    key TEXT NOT NULL,
    intent_seq BIGINT NOT NULL,
    PRIMARY KEY (scope, key)
);
"#;

/// What the clerks' role may do: add to the record and read it, never change or remove
/// a row of it; keep the claims, runs and directory (bookkeeping beside the record).
pub fn grants(role: &str) -> String {
    let role = quote_ident(role);
    format!(
        "REVOKE ALL ON entries, claims, bulk_runs, customers, journal_layout, pushed FROM PUBLIC;\n\
         GRANT SELECT, INSERT ON entries, pushed TO {role};\n\
         GRANT SELECT, INSERT, UPDATE ON claims, bulk_runs, customers TO {role};\n\
         GRANT USAGE ON SEQUENCE bulk_runs_id_seq TO {role};\n\
         GRANT SELECT ON journal_layout TO {role};\n"
    )
}

/// A role's name as an SQL identifier.
fn quote_ident(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// Whether `text` names a PostgreSQL database rather than a file.
pub fn is_database_url(text: &str) -> bool {
    let t = text.trim().to_ascii_lowercase();
    t.starts_with("postgres://") || t.starts_with("postgresql://")
}

/// The address as it may be shown and kept: any password in it taken out.
pub fn without_password(url: &str) -> String {
    let url = url.trim();
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let (authority, tail) = match rest.find(['/', '?']) {
        Some(i) => rest.split_at(i),
        None => (rest, ""),
    };
    match authority.rsplit_once('@') {
        Some((user, host)) => {
            let user = user.split(':').next().unwrap_or("");
            format!("{scheme}://{user}@{host}{tail}")
        }
        None => url.to_string(),
    }
}

/// An open connection to the shared journal.
pub(crate) struct Pg {
    client: tokio_postgres::Client,
    statements: Mutex<HashMap<String, tokio_postgres::Statement>>,
    /// Drives the connection; it ends when the client is dropped.
    _driver: std::thread::JoinHandle<()>,
}

impl Pg {
    /// Connects to `url` with `password` (the address must not hold one: addresses are
    /// shown and kept, passwords never).
    pub fn connect(url: &str, password: Option<&str>) -> Result<Pg, DbError> {
        // rustls always checks the server's certificate and name: `verify-full` is what
        // `require` gets here, so both are read as `require`.
        let url = url
            .replace("sslmode=verify-full", "sslmode=require")
            .replace("sslmode=verify-ca", "sslmode=require");
        let mut config: tokio_postgres::Config = url
            .parse()
            .map_err(|e| DbError::said(format!("the address cannot be read ({e})")))?;
        if config.get_password().is_some() {
            return Err(DbError::said(
                "the address holds a password: give it in INVOICE_DESK_JOURNAL_PASSWORD (or the keyring), never in the address",
            ));
        }
        if let Some(p) = password {
            config.password(p);
        }
        config.application_name("invoice-desk");
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(Duration::from_secs(10));
        }
        config.keepalives_idle(Duration::from_secs(30));
        let tls = LazyTls;
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
                rt.block_on(async move {
                    match config.connect(tls).await {
                        Ok((client, connection)) => {
                            let _ = sent.send(Ok(client));
                            let _ = connection.await;
                        }
                        Err(e) => {
                            let _ = sent.send(Err(DbError::from(e)));
                        }
                    }
                });
            })
            .map_err(|e| DbError::said(e.to_string()))?;
        let client = got
            .recv()
            .map_err(|_| DbError::said("the connection's thread stopped"))??;
        Ok(Pg {
            client,
            statements: Mutex::new(HashMap::new()),
            _driver: driver,
        })
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

    /// Creates the tables (under the lock: two computers starting at once make them once).
    pub fn create_layout(&self) -> Result<(), DbError> {
        self.write(|db| {
            if self.layout()?.is_none() {
                self.batch(SCHEMA)?;
                db.exec(
                    "INSERT INTO journal_layout (version) VALUES (?1)",
                    &[Val::Int(LAYOUT)],
                )?;
            }
            Ok(())
        })
    }

    /// Runs statements that take no parameters.
    pub fn batch(&self, sql: &str) -> Result<(), DbError> {
        block(self.client.batch_execute(sql)).map_err(DbError::from)
    }

    /// Runs `f` in one transaction holding the journal's advisory lock: one writer at a
    /// time on every computer, from the first read to the commit.
    pub fn write<R>(&self, f: impl FnOnce(&dyn Db) -> Result<R, DbError>) -> Result<R, DbError> {
        self.batch("BEGIN")?;
        let done = self
            .exec("SELECT pg_advisory_xact_lock(?1)", &[Val::Int(LOCK)])
            .and_then(|_| f(self));
        match done {
            Ok(r) => {
                self.batch("COMMIT")?;
                Ok(r)
            }
            Err(e) => {
                let _ = self.batch("ROLLBACK");
                Err(e)
            }
        }
    }

    fn statement(&self, sql: &str) -> Result<tokio_postgres::Statement, DbError> {
        if let Ok(cache) = self.statements.lock()
            && let Some(s) = cache.get(sql)
        {
            return Ok(s.clone());
        }
        let stmt = block(self.client.prepare(&dollar_placeholders(sql)))?;
        if let Ok(mut cache) = self.statements.lock() {
            cache.insert(sql.to_string(), stmt.clone());
        }
        Ok(stmt)
    }
}

impl Db for Pg {
    fn exec(&self, sql: &str, params: &[Val]) -> Result<u64, DbError> {
        let stmt = self.statement(sql)?;
        block(self.client.execute_raw(&stmt, params.iter())).map_err(DbError::from)
    }

    fn each(
        &self,
        sql: &str,
        params: &[Val],
        f: &mut dyn FnMut(DbRow) -> Result<bool, DbError>,
    ) -> Result<(), DbError> {
        let stmt = self.statement(sql)?;
        block(async {
            let rows = self.client.query_raw(&stmt, params.iter()).await?;
            pin_mut!(rows);
            while let Some(row) = rows.next().await {
                if !f(read_row(&row?)?)? {
                    break;
                }
            }
            Ok(())
        })
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
            why,
        }
    }
}

/// Whether the connection failed because rustls refused the server's certificate
/// (read by type, through the error's sources).
fn refused_certificate(e: &tokio_postgres::Error) -> bool {
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        let tls = s.downcast_ref::<rustls::Error>().or_else(|| {
            s.downcast_ref::<std::io::Error>()
                .and_then(|io| io.get_ref())
                .and_then(|inner| inner.downcast_ref::<rustls::Error>())
        });
        if matches!(
            tls,
            Some(rustls::Error::InvalidCertificate(_) | rustls::Error::NoCertificatesPresented)
        ) {
            return true;
        }
        source = s.source();
    }
    false
}

/// Waits for a future that needs no runtime of its own (the client's channels).
fn block<F: std::future::Future>(f: F) -> F::Output {
    futures_executor::block_on(f)
}

/// rustls with the platform's certificate verifier, as the API layer uses.
fn tls() -> Result<tokio_postgres_rustls::MakeRustlsConnect, String> {
    let provider = std::sync::Arc::new(rustls::crypto::aws_lc_rs::default_provider());
    let verifier = rustls_platform_verifier::Verifier::new(provider.clone())
        .map_err(|e| format!("the certificate store cannot be used ({e})"))?;
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?
        .dangerous()
        .with_custom_certificate_verifier(std::sync::Arc::new(verifier))
        .with_no_client_auth();
    Ok(tokio_postgres_rustls::MakeRustlsConnect::new(config))
}

/// The stream TLS gives the shared journal.
type TlsStream =
    <tokio_postgres_rustls::MakeRustlsConnect as tokio_postgres::tls::MakeTlsConnect<
        tokio_postgres::Socket,
    >>::Stream;

/// TLS for the shared journal, made only once the server has agreed to it. The system's
/// certificate store (a file and a folder of some 140 certificates, read and parsed) is
/// loaded by the verifier when it is made: every CLI process paid for it, even with
/// `sslmode=prefer` (the default) against a server that speaks plain.
#[derive(Clone, Copy)]
struct LazyTls;

impl tokio_postgres::tls::MakeTlsConnect<tokio_postgres::Socket> for LazyTls {
    type Stream = TlsStream;
    type TlsConnect = LazyConnect;
    type Error = std::convert::Infallible;

    fn make_tls_connect(&mut self, domain: &str) -> Result<LazyConnect, Self::Error> {
        Ok(LazyConnect(domain.to_string()))
    }
}

/// [`LazyTls`] for one server name.
struct LazyConnect(String);

impl tokio_postgres::tls::TlsConnect<tokio_postgres::Socket> for LazyConnect {
    type Stream = TlsStream;
    type Error = Box<dyn std::error::Error + Send + Sync>;
    type Future =
        std::pin::Pin<Box<dyn std::future::Future<Output = Result<TlsStream, Self::Error>> + Send>>;

    fn connect(self, stream: tokio_postgres::Socket) -> Self::Future {
        use tokio_postgres::tls::MakeTlsConnect;
        Box::pin(async move {
            let mut make = tls()?;
            let Ok(connect) =
                MakeTlsConnect::<tokio_postgres::Socket>::make_tls_connect(&mut make, &self.0);
            Ok(connect.connect(stream).await?)
        })
    }
}
