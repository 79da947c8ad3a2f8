//! Writes that met in time committed in one transaction (a billing run's workers, as on a
//! journal file): each in a savepoint of its own, so one that fails is undone alone and
//! the others stand; one commit, one wait for the disk, for all. A lone write
//! ([`Pg::write`]) is a group of one.
//!
//! A savepoint is said with the write's first statement, in the same round trip (the
//! client pipelines them), and released with the next write's: each statement on the
//! desk's journal is a round trip between two processes, and a billing run's row took
//! fourteen of them.

use super::{Pg, Trouble};
use crate::journal::db::{Db, DbError, vals};
use std::sync::atomic::Ordering;

/// The savepoints not yet said to the server.
#[derive(Default)]
pub(super) struct Savepoints {
    /// A write began: its savepoint goes with its first statement.
    open: bool,
    /// The last write's savepoint stands, to be released (a commit releases it too).
    release: bool,
}

/// `statement`'s answer, `said` (a savepoint to open or release) sent before it in the
/// same round trip when there is one: the client sends both before waiting.
pub(super) async fn after<T>(
    client: &tokio_postgres::Client,
    said: Option<&'static str>,
    statement: impl std::future::Future<Output = Result<T, tokio_postgres::Error>>,
) -> Result<T, tokio_postgres::Error> {
    let before = async {
        match said {
            Some(sql) => client.batch_execute(sql).await,
            None => Ok(()),
        }
    };
    let (before, answer) = futures_util::future::join(before, statement).await;
    before.and(answer)
}

/// The customer ids a handle taught the directory (a billing run's rows name one
/// customer again and again: each lesson is a round trip to the server, #71), and those
/// to teach it once the transaction under way commits: then, each on its own, so that a
/// colleague teaching the same new customer at the same moment waits for one statement,
/// never for a whole group's transaction (a lock timeout or a deadlock there undid the
/// intents and stopped the run, 8 to 32 clerks on one file).
#[derive(Default)]
pub(super) struct Taught {
    known: std::collections::HashSet<String>,
    pending: Vec<(String, String)>,
}

/// A customer taught the directory.
const LEARN: &str = "SELECT journal_customer_learn(?1, ?2)";

/// How many ids are remembered (a run's customers; past it, all are forgotten).
const TAUGHT: usize = 10_000;

impl Taught {
    pub(super) fn teach_later(&mut self, id: &str, search: String) {
        if !self.known.contains(id) && !self.pending.iter().any(|(p, _)| p == id) {
            self.pending.push((id.to_owned(), search));
        }
    }

    /// What the transaction that just committed is to teach.
    fn committed(&mut self) -> Vec<(String, String)> {
        std::mem::take(&mut self.pending)
    }

    /// The transaction (or a write of it) was undone: it teaches nothing.
    fn undone(&mut self) {
        self.pending.clear();
    }

    fn learnt(&mut self, id: String) {
        if self.known.len() >= TAUGHT {
            self.known.clear();
        }
        self.known.insert(id);
    }

    pub(super) fn forget(&mut self) {
        *self = Taught::default();
    }
}

impl Pg {
    pub(super) fn taught(&self) -> std::sync::MutexGuard<'_, Taught> {
        // A set and a list: nothing is left half-changed by a panic.
        self.taught
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn savepoints(&self) -> std::sync::MutexGuard<'_, Savepoints> {
        // Two flags: nothing is left half-changed by a panic.
        self.savepoints
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// What to say before the next statement: the write's savepoint (after releasing the
    /// last one), once.
    pub(super) fn savepoint_to_say(&self) -> Option<&'static str> {
        let mut s = self.savepoints();
        if !s.open {
            return None;
        }
        s.open = false;
        Some(if std::mem::take(&mut s.release) {
            "RELEASE SAVEPOINT w; SAVEPOINT w"
        } else {
            "SAVEPOINT w"
        })
    }

    /// Begins the transaction of a group (a write that would fail for want of it fails
    /// here, before anything is run): this handle still writes (no failover lost its
    /// rows), holds its writer's advisory lock, and a connection found closed is made anew.
    pub fn begin_group(&self, durable: bool) -> Result<(), DbError> {
        self.not_rewound()?;
        if !self.alive.load(Ordering::SeqCst)
            && let Ok(conn) = self.conn()
            && conn.say_alive(self.alive_key).unwrap_or(false)
        {
            self.alive.store(true, Ordering::SeqCst);
        }
        self.appended.store(0, Ordering::SeqCst);
        *self.savepoints() = Savepoints::default();
        self.taught().undone();
        self.durable.store(durable, Ordering::SeqCst);
        // Said with the BEGIN, in the same round trip.
        let begin = if durable {
            "BEGIN"
        } else {
            "BEGIN; SET LOCAL synchronous_commit = off"
        };
        if let Err(e) = self.batch(begin) {
            // A connection whose server went away is found closed by its first
            // statement: a transaction not yet begun begins on a new one.
            if e.trouble != Trouble::Unreachable {
                return Err(e);
            }
            self.forget();
            self.batch(begin)?;
        }
        if let Err(e) = self.not_rewound() {
            let _ = self.batch("ROLLBACK");
            return Err(e);
        }
        self.in_transaction.store(true, Ordering::SeqCst);
        Ok(())
    }

    /// Runs one write of a group in a savepoint of its own: undone alone when it fails
    /// (said with who holds a lock it waited for too long).
    pub fn in_savepoint<R>(
        &self,
        f: impl FnOnce(&dyn Db) -> Result<R, DbError>,
    ) -> Result<R, DbError> {
        let before = self.appended.load(Ordering::SeqCst);
        self.savepoints().open = true;
        let done = f(self);
        let mut s = self.savepoints();
        // Still to be said: the write sent nothing, so it has no savepoint.
        let opened = !std::mem::take(&mut s.open);
        match done {
            Ok(r) => {
                s.release |= opened;
                Ok(r)
            }
            Err(e) => {
                drop(s);
                if opened {
                    // Its rows are gone: the newest this writer committed is not among
                    // them (and the group's customers to teach are left to later intents).
                    self.appended.store(before, Ordering::SeqCst);
                    self.taught().undone();
                    self.batch("ROLLBACK TO SAVEPOINT w; RELEASE SAVEPOINT w")?;
                }
                Err(self.who_holds(e))
            }
        }
    }

    /// Ends a group: committed (`commit`), or undone.
    pub fn end_group(&self, commit: bool) -> Result<(), DbError> {
        *self.savepoints() = Savepoints::default();
        let done = if commit {
            self.batch("COMMIT").map(|()| {
                if self.durable.load(Ordering::SeqCst) {
                    self.committed
                        .fetch_max(self.appended.load(Ordering::SeqCst), Ordering::SeqCst);
                }
            })
        } else {
            self.batch("ROLLBACK")
        };
        let lessons = if commit && done.is_ok() {
            self.taught().committed()
        } else {
            self.taught().undone();
            Vec::new()
        };
        for (id, search) in lessons {
            // A convenience, tried once a customer: one that fails (a colleague's open
            // write holding the same new customer, until the lock wait) is not worth
            // another wait at each of the customer's rows.
            let _ = self.exec(LEARN, &vals![&id, &search]);
            self.taught().learnt(id);
        }
        if done.is_err() && commit {
            let _ = self.batch("ROLLBACK");
        }
        self.in_transaction.store(false, Ordering::SeqCst);
        done
    }

    /// Runs `f` in a transaction that is then undone whatever it did, the directory's
    /// lessons `f` asked for taught inside it: a new connection's server reads the
    /// journal's tables and compiles its functions at their first call (4–5 ms of a
    /// fresh session's first intent, #71), which a rehearsal does while the command
    /// waits for something else (the service's token). Nothing of it stays but a
    /// sequence number skipped; a rehearsal's customer must be its own (its lesson's row
    /// is held until the undoing).
    pub fn rehearse(&self, f: impl FnOnce(&dyn Db) -> Result<(), DbError>) -> Result<(), DbError> {
        self.begin_group(true)?;
        let done = f(self).and_then(|()| {
            let lessons = std::mem::take(&mut self.taught().pending);
            for (id, search) in lessons {
                self.exec(LEARN, &vals![&id, &search])?;
            }
            Ok(())
        });
        self.end_group(false).and(done)
    }
}

#[cfg(test)]
mod tests {
    use super::Taught;

    /// A customer is taught once its intent's transaction committed, and then once only;
    /// one undone is taught by a later transaction that commits.
    #[test]
    fn a_customer_is_taught_after_a_commit_and_once() {
        let mut t = Taught::default();
        t.teach_later("cus_a", "cus_a".into());
        t.teach_later("cus_a", "cus_a".into());
        t.undone();
        assert!(t.committed().is_empty(), "taught though undone");
        t.teach_later("cus_a", "cus_a".into());
        t.teach_later("cus_a", "cus_a".into());
        let lessons = t.committed();
        assert_eq!(lessons, [("cus_a".to_string(), "cus_a".to_string())]);
        t.learnt("cus_a".into());
        t.teach_later("cus_a", "cus_a".into());
        assert!(t.committed().is_empty(), "taught twice");
        t.forget();
        t.teach_later("cus_a", "cus_a".into());
        assert_eq!(t.committed().len(), 1, "not taught again to another server");
    }
}
