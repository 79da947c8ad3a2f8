//! One way to speak SQL to both stores: the embedded SQLite file and a shared PostgreSQL
//! database. The journal's logic (claims, the chain, listing, runs, the directory) is
//! written once against [`Db`]; each store says how to run a statement.
//!
//! Statements are written in the common subset of both dialects, with SQLite's `?N`
//! placeholders (PostgreSQL's `$N` are made from them) and the `user` column quoted.

use super::error::Trouble;

/// A value going to or coming from a statement.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Val {
    /// NULL.
    Null,
    /// A whole number.
    Int(i64),
    /// Text.
    Text(String),
    /// A flag (SQLite keeps it as 0 or 1).
    Bool(bool),
}

impl From<i64> for Val {
    fn from(v: i64) -> Val {
        Val::Int(v)
    }
}

impl From<bool> for Val {
    fn from(v: bool) -> Val {
        Val::Bool(v)
    }
}

impl From<&str> for Val {
    fn from(v: &str) -> Val {
        Val::Text(v.to_string())
    }
}

impl From<&&str> for Val {
    fn from(v: &&str) -> Val {
        Val::Text((*v).to_string())
    }
}

impl From<String> for Val {
    fn from(v: String) -> Val {
        Val::Text(v)
    }
}

impl From<&String> for Val {
    fn from(v: &String) -> Val {
        Val::Text(v.clone())
    }
}

impl<T: Into<Val>> From<Option<T>> for Val {
    fn from(v: Option<T>) -> Val {
        v.map_or(Val::Null, Into::into)
    }
}

impl From<&Option<String>> for Val {
    fn from(v: &Option<String>) -> Val {
        v.as_deref().map_or(Val::Null, Val::from)
    }
}

/// `[a.into(), b.into(), …]` as statement parameters.
macro_rules! vals {
    ($($v:expr),* $(,)?) => {
        [$($crate::journal::db::Val::from($v)),*]
    };
}
pub(super) use vals;

/// What went wrong running a statement, in the terms the journal decides on.
#[derive(Clone, Debug)]
pub(crate) struct DbError {
    /// Its kind (busy, disk full, read-only, corrupt, other).
    pub trouble: Trouble,
    /// The store's own words.
    pub why: String,
    /// A unique key refused the row (another writer claimed it first).
    pub unique: bool,
    /// A row lock was waited for longer than the shared journal allows (a colleague's
    /// write holds it).
    pub lock_timeout: bool,
    /// The server undid it to end a deadlock with another computer's transaction.
    pub deadlock: bool,
}

impl DbError {
    /// The desk's server refused a check's outcome because the entry is settled already
    /// (`journal_append`'s "entry … is already settled"): its writer's answer, or another
    /// check, was committed after this check read it unknown.
    pub fn settled_first(&self) -> bool {
        self.why.starts_with("entry ") && self.why.ends_with(" is already settled")
    }

    /// An error of our own (not the store's).
    pub fn said(why: impl Into<String>) -> DbError {
        DbError {
            trouble: Trouble::Other,
            why: why.into(),
            unique: false,
            lock_timeout: false,
            deadlock: false,
        }
    }
}

impl std::fmt::Display for DbError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.why)
    }
}

impl From<rusqlite::Error> for DbError {
    fn from(e: rusqlite::Error) -> DbError {
        DbError {
            trouble: Trouble::of(&e),
            unique: matches!(
                &e,
                rusqlite::Error::SqliteFailure(f, _)
                    if f.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY
                        || f.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE
            ),
            why: e.to_string(),
            lock_timeout: false,
            deadlock: false,
        }
    }
}

/// One row of a result, read by column number.
#[derive(Clone, Debug)]
pub(crate) struct DbRow(pub Vec<Val>);

impl DbRow {
    fn at(&self, i: usize) -> Result<&Val, DbError> {
        self.0
            .get(i)
            .ok_or_else(|| DbError::said(format!("no column {i}")))
    }

    /// A whole number.
    pub fn int(&self, i: usize) -> Result<i64, DbError> {
        self.opt_int(i)?
            .ok_or_else(|| DbError::said(format!("column {i} is empty")))
    }

    /// A whole number or NULL.
    pub fn opt_int(&self, i: usize) -> Result<Option<i64>, DbError> {
        match self.at(i)? {
            Val::Null => Ok(None),
            Val::Int(n) => Ok(Some(*n)),
            Val::Bool(b) => Ok(Some(i64::from(*b))),
            Val::Text(t) => t
                .parse()
                .map(Some)
                .map_err(|_| DbError::said(format!("column {i} is not a number"))),
        }
    }

    /// Text.
    pub fn text(&self, i: usize) -> Result<String, DbError> {
        self.opt_text(i)?
            .ok_or_else(|| DbError::said(format!("column {i} is empty")))
    }

    /// Text or NULL.
    pub fn opt_text(&self, i: usize) -> Result<Option<String>, DbError> {
        match self.at(i)? {
            Val::Null => Ok(None),
            Val::Text(t) => Ok(Some(t.clone())),
            Val::Int(n) => Ok(Some(n.to_string())),
            Val::Bool(b) => Ok(Some(b.to_string())),
        }
    }

    /// A flag (a 0/1 number in SQLite, a boolean in PostgreSQL).
    pub fn flag(&self, i: usize) -> Result<bool, DbError> {
        match self.at(i)? {
            Val::Bool(b) => Ok(*b),
            Val::Int(n) => Ok(*n != 0),
            Val::Null => Ok(false),
            Val::Text(t) => Ok(t == "1" || t == "true" || t == "t"),
        }
    }
}

/// A store that runs statements (inside a transaction when the caller began one).
pub(crate) trait Db {
    /// Runs a statement; how many rows it changed.
    fn exec(&self, sql: &str, params: &[Val]) -> Result<u64, DbError>;
    /// Runs a query, handing each row to `f` as it comes until `f` says to stop
    /// (`Ok(false)`): a walk over every entry holds one row at a time.
    fn each(
        &self,
        sql: &str,
        params: &[Val],
        f: &mut dyn FnMut(DbRow) -> Result<bool, DbError>,
    ) -> Result<(), DbError>;

    /// Whether this is the desk's shared journal, whose server appends and stamps rows
    /// through the journal's own functions.
    fn shared(&self) -> bool {
        false
    }

    /// The row numbered `seq` was appended in the transaction under way (the shared
    /// journal remembers its writer's newest committed row, to find rows a failover lost).
    fn appended(&self, _seq: i64) {}

    /// Customer `id` (`search`: its folded text) is to be taught to the directory once
    /// the transaction under way commits (the shared journal: see `pg::group::Taught`).
    fn learn_after_commit(&self, _id: &str, _search: String) {}

    /// Runs a query; its rows.
    fn query(&self, sql: &str, params: &[Val]) -> Result<Vec<DbRow>, DbError> {
        let mut out = Vec::new();
        self.each(sql, params, &mut |r| {
            out.push(r);
            Ok(true)
        })?;
        Ok(out)
    }

    /// The first row, if any.
    fn one(&self, sql: &str, params: &[Val]) -> Result<Option<DbRow>, DbError> {
        let mut first = None;
        self.each(sql, params, &mut |r| {
            first = Some(r);
            Ok(false)
        })?;
        Ok(first)
    }
}

impl rusqlite::ToSql for Val {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        use rusqlite::types::{ToSqlOutput, Value, ValueRef};
        Ok(match self {
            Val::Null => ToSqlOutput::Owned(Value::Null),
            Val::Int(n) => ToSqlOutput::Owned(Value::Integer(*n)),
            Val::Bool(b) => ToSqlOutput::Owned(Value::Integer(i64::from(*b))),
            Val::Text(t) => ToSqlOutput::Borrowed(ValueRef::Text(t.as_bytes())),
        })
    }
}

impl Db for rusqlite::Connection {
    fn exec(&self, sql: &str, params: &[Val]) -> Result<u64, DbError> {
        let mut stmt = self.prepare_cached(sql)?;
        Ok(stmt.execute(rusqlite::params_from_iter(params.iter()))? as u64)
    }

    fn each(
        &self,
        sql: &str,
        params: &[Val],
        f: &mut dyn FnMut(DbRow) -> Result<bool, DbError>,
    ) -> Result<(), DbError> {
        use rusqlite::types::ValueRef;
        let mut stmt = self.prepare_cached(sql)?;
        let n = stmt.column_count();
        let mut rows = stmt.query(rusqlite::params_from_iter(params.iter()))?;
        while let Some(r) = rows.next()? {
            let mut row = Vec::with_capacity(n);
            for i in 0..n {
                row.push(match r.get_ref(i)? {
                    ValueRef::Null => Val::Null,
                    ValueRef::Integer(v) => Val::Int(v),
                    ValueRef::Real(v) => Val::Text(v.to_string()),
                    ValueRef::Text(t) | ValueRef::Blob(t) => {
                        Val::Text(String::from_utf8_lossy(t).into_owned())
                    }
                });
            }
            if !f(DbRow(row))? {
                break;
            }
        }
        Ok(())
    }
}

/// SQLite's `?N` placeholders as PostgreSQL's `$N` (the statements hold no `?` in a
/// string literal).
pub(crate) fn dollar_placeholders(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '?' && chars.peek().is_some_and(char::is_ascii_digit) {
            out.push('$');
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_become_dollars() {
        assert_eq!(
            dollar_placeholders(
                "SELECT a FROM t WHERE b = ?1 AND c IN (?2, ?12) AND d LIKE ?3 ESCAPE '\\'"
            ),
            "SELECT a FROM t WHERE b = $1 AND c IN ($2, $12) AND d LIKE $3 ESCAPE '\\'"
        );
    }

    #[test]
    fn a_shared_journals_address_is_shown_without_its_password() {
        use super::super::pg::without_password;
        assert_eq!(
            without_password("postgres://ana:secreto@db.example.cl:5432/desk?sslmode=require"),
            "postgres://ana@db.example.cl:5432/desk?sslmode=require"
        );
        assert_eq!(
            without_password("postgresql://ana@db/desk"),
            "postgresql://ana@db/desk"
        );
        assert_eq!(without_password("postgres://db/desk"), "postgres://db/desk");
        assert_eq!(
            without_password("postgres://a:b:c@db/x@y"),
            "postgres://a@db/x@y"
        );
        // A password given as a parameter, or in libpq's keyword/value form.
        assert_eq!(
            without_password("postgres://ana@db/desk?password=secreto&sslmode=require"),
            "postgres://ana@db/desk?sslmode=require"
        );
        assert_eq!(
            without_password("postgres://ana@db/desk?PASSWORD=secreto"),
            "postgres://ana@db/desk"
        );
        assert_eq!(
            without_password("host=db.example.cl password=secreto dbname=desk user=ana"),
            "host=db.example.cl dbname=desk user=ana"
        );
        assert_eq!(
            without_password("host=db password = 'se cre\\'to' dbname=desk"),
            "host=db dbname=desk"
        );
    }

    #[test]
    fn a_keyword_address_is_a_database_never_a_file() {
        use super::super::pg::is_database_url;
        for db in [
            "postgres://db/desk",
            "PostgreSQL://db/desk",
            "host=db dbname=desk",
            "  dbname=desk host=db password=secreto",
            "password=secreto host=db",
            "host = db dbname = desk",
        ] {
            assert!(is_database_url(db), "{db}");
        }
        for file in [
            "/home/ana/journal.sqlite3",
            "C:\\Users\\ana\\journal.sqlite3",
            "journal=1.sqlite3",
            "hosts=x",
        ] {
            assert!(!is_database_url(file), "{file}");
        }
    }

    #[test]
    fn sqlite_values_come_back_as_sent() {
        let c = rusqlite::Connection::open_in_memory().unwrap();
        c.exec("CREATE TABLE t (a INTEGER, b TEXT, c INTEGER)", &[])
            .unwrap();
        c.exec(
            "INSERT INTO t VALUES (?1, ?2, ?3)",
            &vals![7i64, "siete", true],
        )
        .unwrap();
        c.exec(
            "INSERT INTO t VALUES (?1, ?2, ?3)",
            &vals![None::<i64>, None::<String>, false],
        )
        .unwrap();
        let rows = c
            .query("SELECT a, b, c FROM t ORDER BY a IS NULL", &[])
            .unwrap();
        assert_eq!(rows[0].int(0).unwrap(), 7);
        assert_eq!(rows[0].text(1).unwrap(), "siete");
        assert!(rows[0].flag(2).unwrap());
        assert_eq!(rows[1].opt_int(0).unwrap(), None);
        assert_eq!(rows[1].opt_text(1).unwrap(), None);
        assert!(!rows[1].flag(2).unwrap());
        let dup = c.exec("CREATE UNIQUE INDEX u ON t(a)", &[]);
        assert!(dup.is_ok());
        let e = c
            .exec(
                "INSERT INTO t VALUES (?1, ?2, ?3)",
                &vals![7i64, "otra", false],
            )
            .unwrap_err();
        assert!(e.unique, "{e}");
    }
}
