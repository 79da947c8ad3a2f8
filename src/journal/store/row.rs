//! One row of the journal as stored: its columns in the order they are hashed, its hash,
//! and appending it after the last one (chained here in a file; by the server's own
//! function on a desk).

use super::*;

/// One stored row, every column but the hash, in the order they are hashed.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub(in crate::journal) struct Row {
    pub(super) seq: i64,
    pub(super) kind: String,
    pub(super) intent_seq: Option<i64>,
    pub(super) time: String,
    pub(super) user: String,
    pub(super) profile: String,
    pub(super) base_url: String,
    pub(super) action: String,
    pub(super) customer: Option<String>,
    pub(super) amount: Option<String>,
    pub(super) currency_code: Option<String>,
    pub(super) account_last4: Option<String>,
    pub(super) external_id: Option<String>,
    pub(super) invoice_id: Option<String>,
    pub(super) outcome: Option<String>,
    pub(super) error_kind: Option<String>,
    pub(super) error_code: Option<String>,
    pub(super) file_name: Option<String>,
    pub(super) rows: Option<i64>,
    pub(super) checked: bool,
    pub(super) prev_hash: String,
    pub(super) service: Option<String>,
    pub(super) due_date: Option<String>,
    pub(super) decision: Option<String>,
    /// An intent's anchor on a clock that cannot step (`clock.rs`; a file's rows only).
    pub(super) clock: Option<String>,
    /// Copied from another journal (`journal push`): its time is kept as recorded.
    #[serde(skip)]
    pub(super) copied: bool,
}

pub(super) const COLUMNS: &str = "seq, kind, intent_seq, time, \"user\", profile, base_url, action, customer, amount, \
     currency_code, account_last4, external_id, invoice_id, outcome, error_kind, error_code, \
     file_name, rows, checked, prev_hash, service, due_date, decision, clock";

impl Row {
    /// SHA-256 of the previous hash and this row's canonical content (a JSON array of
    /// its columns in a fixed order), as hex.
    pub(super) fn hash(&self) -> String {
        let columns = (
            self.seq,
            &self.kind,
            self.intent_seq,
            &self.time,
            &self.user,
            &self.profile,
            &self.base_url,
            &self.action,
            (&self.customer, &self.amount, &self.currency_code),
            (&self.account_last4, &self.external_id, &self.invoice_id),
            (&self.outcome, &self.error_kind, &self.error_code),
            (&self.file_name, self.rows, self.checked),
        );
        // Rows written before layout 6 have none of its columns: they hash as they did.
        let later = (&self.service, &self.due_date, &self.decision);
        // Likewise rows without an anchor (before layout 8, or where the system has none).
        let canonical = match (&self.clock, later == (&None, &None, &None)) {
            (None, true) => serde_json::to_vec(&columns),
            (None, false) => serde_json::to_vec(&(columns, later)),
            (Some(clock), _) => serde_json::to_vec(&(columns, later, clock)),
        }
        .unwrap_or_default();
        let mut h = Sha256::new();
        h.update(self.prev_hash.as_bytes());
        h.update(b"\n");
        h.update(&canonical);
        h.finalize()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    }

    pub(super) fn from_db(r: &DbRow) -> Result<(Row, String), DbError> {
        Ok((
            Row {
                seq: r.int(0)?,
                kind: r.text(1)?,
                intent_seq: r.opt_int(2)?,
                time: r.text(3)?,
                user: r.text(4)?,
                profile: r.text(5)?,
                base_url: r.text(6)?,
                action: r.text(7)?,
                customer: r.opt_text(8)?,
                amount: r.opt_text(9)?,
                currency_code: r.opt_text(10)?,
                account_last4: r.opt_text(11)?,
                external_id: r.opt_text(12)?,
                invoice_id: r.opt_text(13)?,
                outcome: r.opt_text(14)?,
                error_kind: r.opt_text(15)?,
                error_code: r.opt_text(16)?,
                file_name: r.opt_text(17)?,
                rows: r.opt_int(18)?,
                checked: r.flag(19)?,
                prev_hash: r.text(20)?,
                service: r.opt_text(21)?,
                due_date: r.opt_text(22)?,
                decision: r.opt_text(23)?,
                clock: r.opt_text(24)?,
                copied: false,
            },
            r.text(25)?,
        ))
    }
}

/// A row's content columns, in the order [`Row::content`] gives them (and the shared
/// journal's `journal_append` takes them): what the writer says; the number, time,
/// chain and anchor are added by the store.
pub(super) const CONTENT: &str = "kind, intent_seq, \"user\", profile, base_url, action, customer, amount, \
     currency_code, account_last4, external_id, invoice_id, outcome, error_kind, error_code, \
     file_name, rows, checked, service, due_date, decision";

impl Row {
    /// The values of [`CONTENT`].
    pub(super) fn content(&self) -> Vec<Val> {
        vals![
            &self.kind,
            self.intent_seq,
            &self.user,
            &self.profile,
            &self.base_url,
            &self.action,
            &self.customer,
            &self.amount,
            &self.currency_code,
            &self.account_last4,
            &self.external_id,
            &self.invoice_id,
            &self.outcome,
            &self.error_kind,
            &self.error_code,
            &self.file_name,
            self.rows,
            self.checked,
            &self.service,
            &self.due_date,
            &self.decision,
        ]
        .to_vec()
    }

    /// Entry `e`'s intent as it is copied into another journal (`journal push`): its
    /// time and content as recorded, written by `who`.
    pub(in crate::journal) fn copied_intent(e: &Entry, who: &str) -> Row {
        Row {
            kind: "intent".into(),
            time: e.time.clone(),
            user: who.to_string(),
            profile: e.profile.clone(),
            base_url: e.base_url.clone(),
            action: e.action.as_str().into(),
            customer: e.customer.clone(),
            amount: e.amount.clone(),
            currency_code: e.currency_code.clone(),
            account_last4: e.account_last4.clone(),
            external_id: e.external_id.clone(),
            // A void names its invoice from the start; a create learns it from its outcome.
            invoice_id: (e.action == Action::Void)
                .then(|| e.invoice_id.clone())
                .flatten(),
            file_name: e.file_name.clone(),
            service: e.service.clone(),
            due_date: e.due_date.clone(),
            decision: e.decision.clone(),
            copied: true,
            ..Row::default()
        }
    }

    /// Entry `e`'s latest outcome as it is copied, for the intent now numbered `intent`.
    pub(in crate::journal) fn copied_outcome(e: &Entry, intent: i64, who: &str) -> Row {
        Row {
            kind: "outcome".into(),
            intent_seq: Some(intent),
            time: e.settled_time.clone().unwrap_or_else(|| e.time.clone()),
            user: who.to_string(),
            profile: e.profile.clone(),
            base_url: e.base_url.clone(),
            action: e.action.as_str().into(),
            invoice_id: e.invoice_id.clone(),
            outcome: Some(e.outcome.as_str().into()),
            error_kind: e.error_kind.clone(),
            error_code: e.error_code.clone(),
            rows: e.rows.map(|n| i64::try_from(n).unwrap_or(i64::MAX)),
            checked: e.checked,
            copied: true,
            ..Row::default()
        }
    }
}

pub(in crate::journal) fn now() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

/// An intent's row, before it is chained.
pub(in crate::journal) fn intent_row(action: Action, intent: &Intent, who: &str) -> Row {
    Row {
        kind: "intent".into(),
        time: now(),
        user: who.to_string(),
        profile: intent.profile.clone(),
        // Never a user name, password, query or fragment: they may hold secrets.
        base_url: crate::journal::identity::canonical_url(&intent.base_url),
        action: action.as_str().into(),
        customer: intent.customer.clone(),
        amount: intent.amount.clone(),
        currency_code: intent.currency_code.clone(),
        account_last4: intent.account_last4.clone(),
        external_id: intent.external_id.clone(),
        invoice_id: intent.invoice_id.clone(),
        file_name: intent.file_name.clone(),
        rows: intent.rows.and_then(|n| i64::try_from(n).ok()),
        service: Some(intent.service.clone()).filter(|s| !s.is_empty()),
        due_date: intent.due_date.clone(),
        decision: intent.decision.clone(),
        clock: crate::journal::clock::anchor_now(),
        ..Row::default()
    }
}

/// Appends `row` after the last one in `tx`, chained to its hash; its sequence number.
/// On the shared journal the server appends it (`journal_append`: its number, time,
/// writer and chain are the server's), from the row's content only.
pub(in crate::journal) fn append_in(tx: &dyn Db, mut row: Row) -> Result<i64, DbError> {
    let seq = if tx.shared() {
        append_shared(tx, &row)?
    } else {
        append_chained(tx, &mut row)?
    };
    if let (Some(c), "intent") = (&row.customer, row.kind.as_str()) {
        // The directory learns the id in the same commit (one disk sync an intent);
        // it is a convenience, never a reason to refuse the intent.
        let _ = crate::journal::directory::learn_in(tx, c);
    }
    Ok(seq)
}

/// Appends what came of intent `seq` in the transaction `tx` (see
/// [`Journal::record_outcome`]): nothing when `only_if_unknown` and it is settled already.
pub(in crate::journal) fn outcome_in(
    tx: &dyn Db,
    who: &str,
    seq: i64,
    settled: &Settled,
    only_if_unknown: bool,
    known: Option<OutcomeOf>,
) -> Result<Option<i64>, DbError> {
    let intent = match known {
        Some(o) => Some((o.profile, o.base_url, o.action.as_str().into())),
        None => tx
            .one(
                "SELECT profile, base_url, action FROM entries WHERE seq = ?1 AND kind = 'intent'",
                &vals![seq],
            )?
            .map(|r| Ok::<_, DbError>((r.text(0)?, r.text(1)?, r.text(2)?)))
            .transpose()?,
    };
    let Some((profile, base_url, action)) = intent else {
        return Err(DbError::said(format!("there is no entry {seq}")));
    };
    if only_if_unknown {
        let latest = tx
            .one(
                "SELECT outcome FROM entries WHERE intent_seq = ?1 ORDER BY seq DESC LIMIT 1",
                &vals![seq],
            )?
            .map(|r| r.text(0))
            .transpose()?;
        if latest.is_some_and(|o| o != Outcome::Unknown.as_str()) {
            return Ok(None);
        }
    }
    append_in(
        tx,
        Row {
            kind: "outcome".into(),
            intent_seq: Some(seq),
            time: now(),
            user: who.to_string(),
            profile,
            base_url,
            action,
            invoice_id: settled.invoice_id.clone(),
            outcome: Some(settled.outcome.as_str().into()),
            error_kind: settled.error_kind.clone(),
            error_code: settled.error_code.clone(),
            rows: settled.rows.map(|n| i64::try_from(n).unwrap_or(i64::MAX)),
            checked: settled.checked,
            ..Row::default()
        },
    )
    .map(Some)
}

/// [`append_in`] on a file: numbered and chained here, after the last row.
fn append_chained(tx: &dyn Db, row: &mut Row) -> Result<i64, DbError> {
    let last = tx
        .one(
            "SELECT seq, hash FROM entries ORDER BY seq DESC LIMIT 1",
            &[],
        )?
        .map(|r| Ok::<_, DbError>((r.int(0)?, r.text(1)?)))
        .transpose()?;
    let (last_seq, prev) = last.unwrap_or((0, GENESIS.to_string()));
    row.seq = last_seq + 1;
    row.prev_hash = prev;
    let hash = row.hash();
    let mut values = row.content();
    values.extend(vals![row.seq, &row.time, &row.prev_hash, &row.clock, hash]);
    tx.exec(
        &format!(
            "INSERT INTO entries ({CONTENT}, seq, time, prev_hash, clock, hash) VALUES ({})",
            placeholders(1..=values.len())
        ),
        &values,
    )?;
    Ok(row.seq)
}

/// [`append_in`] on the shared journal: the server numbers, stamps (time, database
/// role, writer) and chains the row; a row copied from another journal keeps its own
/// time beside the server's.
fn append_shared(tx: &dyn Db, row: &Row) -> Result<i64, DbError> {
    let mut values = row.content();
    values.push(Val::from(row.copied.then(|| row.time.clone())));
    let seq = tx
        .one(
            &format!("SELECT journal_append({})", placeholders(1..=values.len())),
            &values,
        )?
        .ok_or_else(|| DbError::said("the server appended no row"))?
        .int(0)?;
    tx.appended(seq);
    Ok(seq)
}

/// `?a, …, ?b` for the parameters numbered `a..=b`.
pub(in crate::journal) fn placeholders(numbers: std::ops::RangeInclusive<usize>) -> String {
    numbers
        .map(|i| format!("?{i}"))
        .collect::<Vec<_>>()
        .join(", ")
}
