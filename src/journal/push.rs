//! Moving to the shared journal: a computer's local journal copied into the desk's, each
//! entry keeping who wrote it, when and on which computer, and the references it claimed
//! claimed there too (so nobody on the desk issues them again). Running it again copies
//! nothing twice: each copied entry is noted by its origin (the local journal's identity,
//! its first link's hash, and the entry's number there).

use super::db::{DbError, vals};
use super::store::{Row, append_in, now, write_error};
use super::{Action, Entry, Filter, Journal, JournalError, Outcome};

/// What a push did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pushed {
    /// Entries copied now.
    pub copied: u64,
    /// Entries copied by an earlier push.
    pub already: u64,
}

impl Journal {
    /// This journal's identity: the hash of its first link (unique to the file), or
    /// `None` while it is empty.
    fn identity(&self) -> Result<Option<String>, JournalError> {
        self.db()
            .one("SELECT hash FROM entries WHERE seq = 1", &[])
            .and_then(|r| r.map(|r| r.text(0)).transpose())
            .map_err(super::store::read_error(&self.path))
    }

    /// How many entries of this (local) journal `shared` has not had copied yet: what a
    /// push would copy (the app offers it only then).
    pub fn unpushed(&self, shared: &Journal) -> Result<u64, JournalError> {
        let Some(identity) = self.identity()? else {
            return Ok(0);
        };
        let count = |j: &Journal, sql: &str, args: &[super::db::Val]| {
            j.db()
                .one(sql, args)
                .and_then(|r| r.map(|r| r.int(0)).transpose())
                .map(|n| u64::try_from(n.unwrap_or(0)).unwrap_or(0))
                .map_err(super::store::read_error(&j.path))
        };
        let here = count(
            self,
            "SELECT count(*) FROM entries WHERE kind = 'intent'",
            &[],
        )?;
        // Origins are "<identity>#<seq>": '$' is the character after '#', so the range
        // holds exactly this journal's (no LIKE, whose wildcards the hash cannot hold
        // but a changed file could).
        let there = count(
            shared,
            "SELECT count(*) FROM pushed WHERE origin > ?1 AND origin < ?2",
            &vals![format!("{identity}#"), format!("{identity}$")],
        )?;
        Ok(here.saturating_sub(there))
    }

    /// Copies every entry of this (local) journal into `shared`, oldest first, each
    /// once however often it is run.
    pub fn push_into(&self, shared: &mut Journal) -> Result<Pushed, JournalError> {
        let mut pushed = Pushed::default();
        let Some(identity) = self.identity()? else {
            return Ok(pushed);
        };
        let host = super::host_name();
        let mut offset = 0;
        loop {
            let page = self.list(&Filter::default(), false, offset, 500)?;
            if page.is_empty() {
                break;
            }
            offset += page.len() as u64;
            for e in page {
                let origin = format!("{identity}#{}", e.seq);
                let shared_path = shared.path.clone();
                let copied = shared
                    .write(|tx| copy_in(tx, &e, &origin, &host))
                    .map_err(write_error(&shared_path))?;
                if copied {
                    pushed.copied += 1;
                } else {
                    pushed.already += 1;
                }
            }
        }
        Ok(pushed)
    }
}

/// Copies entry `e` (intent and, when known, its outcome) unless `origin` was copied
/// before; whether it was copied now.
fn copy_in(tx: &dyn super::db::Db, e: &Entry, origin: &str, host: &str) -> Result<bool, DbError> {
    if tx
        .one("SELECT 1 FROM pushed WHERE origin = ?1", &vals![origin])?
        .is_some()
    {
        return Ok(false);
    }
    // Who wrote it, and where: the local journal's user, on the computer pushing it.
    let who = if e.user.contains('@') {
        e.user.clone()
    } else {
        format!("{}@{host}", e.user)
    };
    let intent = Row::copied_intent(e, &who);
    let seq = append_in(tx, intent)?;
    if e.outcome != Outcome::Unknown || e.settled_time.is_some() {
        append_in(tx, Row::copied_outcome(e, seq, &who))?;
    }
    // The claim comes along (a holder already on the desk keeps it).
    let key = match e.action {
        Action::Create | Action::Email => e.external_id.as_deref(),
        Action::Void => e.invoice_id.as_deref(),
        Action::Export => None,
    };
    if let (Some(scope), Some(key)) = (e.service.as_deref(), key.filter(|k| !k.trim().is_empty())) {
        if tx.shared() {
            tx.exec(
                "SELECT journal_claim(?1, ?2, ?3, NULL, true)",
                &vals![scope, key.trim(), seq],
            )?;
        } else {
            tx.exec(
                "INSERT INTO claims (scope, key, intent_seq) VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING",
                &vals![scope, key.trim(), seq],
            )?;
        }
    }
    if tx.shared() {
        tx.exec("SELECT journal_pushed(?1, ?2)", &vals![origin, seq])?;
    } else {
        tx.exec(
            "INSERT INTO pushed (origin, seq, pushed_at) VALUES (?1, ?2, ?3)",
            &vals![origin, seq, now()],
        )?;
    }
    Ok(true)
}
