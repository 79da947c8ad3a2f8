//! The contracts' events (see `crate::contracts`): added, never changed or removed. On a
//! desk the server's own function adds each (`journal_contract_event`), stamping its time
//! and the database role that asks: a clerk's role cannot write one under another's
//! name or time. Rows are read back as hostile as any: one whose body is not an event is
//! left out and said in the support log.

use super::db::{DbError, vals};
use super::store::{read_error, write_error};
use super::{Journal, JournalError};
use crate::contracts::{Event, Kept};

/// The most bytes an event's body may take.
const MAX_BODY: usize = 16 * 1024;

impl Journal {
    /// Every contract event, oldest first.
    pub fn contract_events(&self) -> Result<Vec<Kept>, JournalError> {
        let read = read_error(&self.path);
        let rows = self
            .db()
            .query(
                "SELECT id, contract, body, time, \"user\", db_user FROM contract_events ORDER BY id",
                &[],
            )
            .map_err(&read)?;
        let mut out = Vec::with_capacity(rows.len());
        for r in rows {
            let body = r.text(2).map_err(&read)?;
            match serde_json::from_str::<Event>(&body) {
                Ok(event) if body.len() <= MAX_BODY => out.push(Kept {
                    id: r.int(0).map_err(&read)?,
                    contract: r.text(1).map_err(&read)?,
                    event,
                    time: r.text(3).map_err(&read)?,
                    user: r.text(4).map_err(&read)?,
                    db_user: r.opt_text(5).map_err(&read)?,
                }),
                _ => {
                    tracing::warn!(id = ?r.int(0).ok(), "a contract event that is not one: left out")
                }
            }
        }
        Ok(out)
    }

    /// Adds `events` (contract id, event) in one transaction: all or none.
    pub fn add_contract_events(&mut self, events: &[(String, Event)]) -> Result<(), JournalError> {
        let path = self.path.clone();
        let who = self.who().to_string();
        let bodies: Vec<(String, &'static str, String)> = events
            .iter()
            .map(|(id, e)| {
                (
                    id.clone(),
                    e.kind(),
                    serde_json::to_string(e).unwrap_or_default(),
                )
            })
            .collect();
        self.write(|tx| {
            for (id, kind, body) in &bodies {
                if body.len() > MAX_BODY || id.is_empty() {
                    return Err(DbError::said("a contract event too large to keep"));
                }
                if tx.shared() {
                    tx.exec(
                        "SELECT journal_contract_event(?1, ?2, ?3, ?4)",
                        &vals![id.as_str(), *kind, body.as_str(), who.as_str()],
                    )?;
                } else {
                    tx.exec(
                        "INSERT INTO contract_events (contract, kind, body, time, \"user\")
                         VALUES (?1, ?2, ?3, ?4, ?5)",
                        &vals![
                            id.as_str(),
                            *kind,
                            body.as_str(),
                            super::store::now(),
                            who.as_str()
                        ],
                    )?;
                }
            }
            Ok(())
        })
        .map_err(write_error(&path))
    }
}
