//! The contracts' events (the contracts module reads their bodies): added, never
//! changed or removed. On a desk the server's own function adds each
//! (`journal_contract_event`), stamping its time and the database role that asks: a
//! clerk's role cannot write one under another's name or time.

use super::db::{DbError, vals};
use super::store::{read_error, write_error};
use super::{Journal, JournalError};

/// The most bytes an event's body may take.
pub const MAX_CONTRACT_EVENT: usize = 16 * 1024;

/// One contract event as kept: its body is the contract module's to read (a row whose
/// body is not an event is left out there, and said).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContractEventRow {
    /// Its number, in the order written.
    pub id: i64,
    /// The contract's id.
    pub contract: String,
    /// The body (JSON).
    pub body: String,
    /// When, RFC 3339 UTC (the server's on a desk).
    pub time: String,
    /// Who (the journal's writer).
    pub user: String,
    /// On a desk, the database role that wrote it.
    pub db_user: Option<String>,
}

/// The shared journal's layout that keeps contracts.
const CONTRACTS_LAYOUT: i64 = 7;

impl Journal {
    /// A desk's journal whose owner has not yet brought it to the layout that keeps
    /// contracts is said as such (a clerk's role cannot bring it up to date).
    fn keeps_contracts(&self) -> Result<(), JournalError> {
        match self.shared_layout().map_err(read_error(&self.path))? {
            Some(found) if found < CONTRACTS_LAYOUT => Err(JournalError::OlderLayout {
                path: self.path.clone(),
                found,
            }),
            _ => Ok(()),
        }
    }

    /// Every contract event, oldest first.
    pub fn contract_event_rows(&self) -> Result<Vec<ContractEventRow>, JournalError> {
        self.keeps_contracts()?;
        let read = read_error(&self.path);
        let rows = self
            .db()
            .query(
                "SELECT id, contract, body, time, \"user\", db_user FROM contract_events ORDER BY id",
                &[],
            )
            .map_err(&read)?;
        rows.into_iter()
            .map(|r| {
                Ok(ContractEventRow {
                    id: r.int(0)?,
                    contract: r.text(1)?,
                    body: r.text(2)?,
                    time: r.text(3)?,
                    user: r.text(4)?,
                    db_user: r.opt_text(5)?,
                })
            })
            .collect::<Result<_, DbError>>()
            .map_err(&read)
    }

    /// Adds events (contract id, kind, body) in one transaction: all or none.
    pub fn add_contract_event_rows(
        &mut self,
        events: &[(String, &'static str, String)],
    ) -> Result<(), JournalError> {
        self.keeps_contracts()?;
        let path = self.path.clone();
        let who = self.who().to_string();
        self.write(|tx| {
            for (id, kind, body) in events {
                if body.len() > MAX_CONTRACT_EVENT || id.is_empty() {
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
