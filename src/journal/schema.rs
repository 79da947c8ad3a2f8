//! The journal file's layout: each schema change in order (`PRAGMA user_version` counts
//! those applied). The bottom of the journal module: it knows only the service identity,
//! which one change needs.

use super::identity;
use rusqlite::params;
use std::collections::HashMap;

/// One schema change: SQL, or code (for what SQL cannot work out, such as a service's
/// canonical address).
pub(super) enum Step {
    Sql(&'static str),
    Code(fn(&rusqlite::Transaction<'_>) -> rusqlite::Result<()>),
}

/// Schema changes, in order; `PRAGMA user_version` says how many were applied.
pub(super) const MIGRATIONS: &[Step] = &[
    // 1: the rows.
    Step::Sql(
        "CREATE TABLE entries (
        seq INTEGER PRIMARY KEY,
        kind TEXT NOT NULL,
        intent_seq INTEGER,
        time TEXT NOT NULL,
        user TEXT NOT NULL,
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
        rows INTEGER,
        checked INTEGER NOT NULL DEFAULT 0,
        prev_hash TEXT NOT NULL,
        hash TEXT NOT NULL
    );",
    ),
    // 2: finding an intent's outcomes, and listing by day, stay fast at 100,000 rows.
    Step::Sql(
        "CREATE INDEX entries_intent ON entries(intent_seq);
     CREATE INDEX entries_time ON entries(kind, time);",
    ),
    // 3: the customer directory (not part of the chain: it is a notebook, not a record).
    // `search` is name, RUT digits and id, lowercase and without accents.
    Step::Sql(
        "CREATE TABLE customers (
        id TEXT PRIMARY KEY,
        name TEXT,
        rut TEXT,
        notes TEXT,
        search TEXT NOT NULL,
        updated TEXT NOT NULL
    );",
    ),
    // 4: finding a create by its reference (bulk runs never issue a row twice).
    Step::Sql("CREATE INDEX entries_reference ON entries(external_id);"),
    // 5: billing runs started and not yet finished, so an interrupted one is offered
    // again (bookkeeping, not part of the chain: every row's request is in `entries`).
    Step::Sql(
        "CREATE TABLE bulk_runs (
        id INTEGER PRIMARY KEY,
        path TEXT NOT NULL,
        file_id TEXT NOT NULL,
        profile TEXT NOT NULL,
        base_url TEXT NOT NULL,
        rows INTEGER NOT NULL,
        started TEXT NOT NULL,
        finished TEXT
    );",
    ),
    // 6: references and void ids are claimed (a unique key decides who sends); intents
    // say which service identity they were for, the due date (look-alikes are found by
    // it) and the clerk's decision when one was taken. Older intents' claims are filled
    // in from what they recorded.
    Step::Sql(
        "ALTER TABLE entries ADD COLUMN service TEXT;
         ALTER TABLE entries ADD COLUMN due_date TEXT;
         ALTER TABLE entries ADD COLUMN decision TEXT;
         CREATE TABLE claims (
            scope TEXT NOT NULL,
            key TEXT NOT NULL,
            intent_seq INTEGER NOT NULL,
            PRIMARY KEY (scope, key)
         );
         CREATE INDEX entries_look_alike ON entries(customer, amount)
            WHERE kind = 'intent' AND action = 'create';
         ALTER TABLE bulk_runs ADD COLUMN mapping TEXT;",
    ),
    Step::Code(claim_earlier_intents),
    // 8: an intent's anchor on a clock that cannot step (see `clock.rs`), and the
    // database role that wrote a row (a shared journal's server stamps it; a file has
    // none), so both stores answer one listing.
    Step::Sql(
        "ALTER TABLE entries ADD COLUMN clock TEXT;
         ALTER TABLE entries ADD COLUMN db_user TEXT;",
    ),
    // 9: where a customer's statements, invoices and reminders are e-mailed.
    Step::Sql("ALTER TABLE customers ADD COLUMN emails TEXT;"),
    // 10: the UF's value per day as fetched or read from a file (one row a day, the
    // first kept), so a day's value is fetched once.
    Step::Sql(
        "CREATE TABLE uf_values (
            day TEXT PRIMARY KEY,
            value TEXT NOT NULL,
            source TEXT NOT NULL,
            stored TEXT NOT NULL
         );",
    ),
    // 11: a row copied from another journal keeps the time it says it was recorded
    // beside its own (the shared journal's layout 5 has it; a file's rows never do), so
    // both stores answer one listing.
    Step::Sql("ALTER TABLE entries ADD COLUMN copied_time TEXT;"),
    // 12: the UF's values keyed by day and source (a file's value beside the CMF's,
    // the CMF's used), who stored each; the values the CMF contradicted, kept.
    Step::Sql(
        "CREATE TABLE uf_values_by_source (
            day TEXT NOT NULL,
            value TEXT NOT NULL,
            source TEXT NOT NULL,
            stored TEXT NOT NULL,
            stored_by TEXT,
            PRIMARY KEY (day, source)
         );
         INSERT INTO uf_values_by_source (day, value, source, stored)
            SELECT day, value, source, stored FROM uf_values;
         DROP TABLE uf_values;
         ALTER TABLE uf_values_by_source RENAME TO uf_values;
         CREATE TABLE uf_corrections (
            id INTEGER PRIMARY KEY,
            day TEXT NOT NULL,
            source TEXT NOT NULL,
            old_value TEXT NOT NULL,
            old_stored_by TEXT,
            new_value TEXT NOT NULL,
            corrected_by TEXT NOT NULL,
            corrected_at TEXT NOT NULL
         );",
    ),
    // 13: the contracts' events (repeating invoices), added, never changed: a contract
    // is what its events made it.
    Step::Sql(
        "CREATE TABLE contract_events (
            id INTEGER PRIMARY KEY,
            contract TEXT NOT NULL,
            kind TEXT NOT NULL,
            body TEXT NOT NULL,
            time TEXT NOT NULL,
            \"user\" TEXT NOT NULL,
            db_user TEXT
         );
         CREATE INDEX contract_events_contract ON contract_events(contract, id);",
    ),
];

/// Layout 6's second step: the intents of an older journal claim their references and
/// invoice ids, under the scopes such journals can name (the service by its address,
/// the account by the last 4 characters it recorded). Of several intents for one, the
/// one done wins, then one not known, then the latest.
pub(super) fn claim_earlier_intents(tx: &rusqlite::Transaction<'_>) -> rusqlite::Result<()> {
    let mut stmt = tx.prepare(
        "SELECT i.seq, i.action, i.base_url, i.account_last4, i.external_id, i.invoice_id,
                coalesce(o.outcome, 'unknown')
         FROM entries i
         LEFT JOIN entries o ON o.seq = (SELECT max(seq) FROM entries WHERE intent_seq = i.seq)
         WHERE i.kind = 'intent' AND i.action IN ('create', 'void') ORDER BY i.seq",
    )?;
    let mut best: HashMap<(String, String), (u8, i64)> = HashMap::new();
    let rows = stmt.query_map([], |r| {
        Ok((
            r.get::<_, i64>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, String>(2)?,
            r.get::<_, Option<String>>(3)?,
            r.get::<_, Option<String>>(4)?,
            r.get::<_, Option<String>>(5)?,
            r.get::<_, String>(6)?,
        ))
    })?;
    for row in rows {
        let (seq, action, base_url, last4, reference, invoice, outcome) = row?;
        let place = match action.as_str() {
            "create" => reference.filter(|r| !r.trim().is_empty()).map(|r| {
                (
                    identity::legacy_create_scope(&base_url, last4.as_deref()),
                    r,
                )
            }),
            _ => invoice.map(|id| (identity::void_scope(&base_url), id)),
        };
        let Some(place) = place else { continue };
        let rank = match outcome.as_str() {
            "done" => 2,
            "refused" => 0,
            _ => 1,
        };
        let e = best.entry(place).or_insert((rank, seq));
        if rank >= e.0 {
            *e = (rank, seq);
        }
    }
    drop(stmt);
    let mut insert =
        tx.prepare("INSERT INTO claims (scope, key, intent_seq) VALUES (?1, ?2, ?3)")?;
    for ((scope, key), (_, seq)) in best {
        insert.execute(params![scope, key, seq])?;
    }
    Ok(())
}
