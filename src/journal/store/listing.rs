//! Listing the journal's entries: an intent with its latest outcome, filtered (a day, an
//! action, an outcome, a clerk, text), newest or oldest first, a page at a time.

use super::*;

/// [`list_on`]'s statement and its arguments.
pub(in crate::journal) fn list_sql(
    filter: &Filter,
    newest_first: bool,
    offset: u64,
    limit: u64,
) -> (String, Vec<Val>) {
    let (clause, args) = where_clause(filter);
    let limit = limit.min(i64::MAX as u64);
    let sql = format!(
        "SELECT i.seq, i.time, i.\"user\", i.profile, i.base_url, i.action, i.customer, i.amount,
                i.currency_code, i.account_last4, i.external_id,
                coalesce(o.invoice_id, i.invoice_id), coalesce(o.outcome, 'unknown'),
                o.error_kind, o.error_code, i.file_name, o.rows, o.time, coalesce(o.checked, false),
                i.due_date, i.decision, i.service, i.db_user, i.copied_time,
                o.\"user\", o.db_user
         FROM entries i
         LEFT JOIN entries o ON o.seq = (SELECT max(seq) FROM entries WHERE intent_seq = i.seq)
         WHERE i.kind = 'intent' {clause}
         ORDER BY i.seq {} LIMIT {limit} OFFSET {offset}",
        if newest_first { "DESC" } else { "ASC" }
    );
    (sql, args)
}

/// [`Journal::list`] on a connection (or a transaction in progress).
pub(in crate::journal) fn list_on(
    db: &dyn Db,
    filter: &Filter,
    newest_first: bool,
    offset: u64,
    limit: u64,
) -> Result<Vec<Entry>, DbError> {
    let (sql, args) = list_sql(filter, newest_first, offset, limit);
    let rows = db.query(&sql, &args)?;
    rows.iter()
        .map(|r| {
            let action = r.text(5)?;
            let outcome = r.text(12)?;
            let settled_db_user = r.opt_text(25)?;
            Ok(Entry {
                seq: r.int(0)?,
                time: r.text(1)?,
                user: r.text(2)?,
                profile: r.text(3)?,
                base_url: r.text(4)?,
                action: Action::parse(&action).unwrap_or(Action::Export),
                customer: r.opt_text(6)?,
                amount: r.opt_text(7)?,
                currency_code: r.opt_text(8)?,
                account_last4: r.opt_text(9)?,
                external_id: r.opt_text(10)?,
                invoice_id: r.opt_text(11)?,
                outcome: Outcome::parse(&outcome).unwrap_or(Outcome::Unknown),
                error_kind: r.opt_text(13)?,
                error_code: r.opt_text(14)?,
                file_name: r.opt_text(15)?,
                rows: r.opt_int(16)?.map(|n| n.max(0) as u64),
                settled_time: r.opt_text(17)?,
                checked: r.flag(18)?,
                due_date: r.opt_text(19)?,
                decision: r.opt_text(20)?,
                service: r.opt_text(21)?,
                db_user: r.opt_text(22)?,
                copied_time: r.opt_text(23)?,
                settled_by: r.opt_text(24)?.map(|user| crate::journal::WrittenBy {
                    user,
                    db_user: settled_db_user,
                    copied_time: None,
                }),
            })
        })
        .collect::<Result<Vec<_>, DbError>>()
}

/// The `WHERE` additions and their parameters for a filter (`i`: intent, `o`: outcome).
pub(super) fn where_clause(filter: &Filter) -> (String, Vec<Val>) {
    let mut clause = String::new();
    let mut args = Vec::new();
    if let Some(d) = filter.since {
        args.push(Val::Text(local_day_start(d)));
        clause.push_str(&format!(" AND i.time >= ?{}", args.len()));
    }
    if let Some(d) = filter.until.and_then(|d| d.succ_opt()) {
        args.push(Val::Text(local_day_start(d)));
        clause.push_str(&format!(" AND i.time < ?{}", args.len()));
    }
    if let Some(seq) = filter.seq {
        args.push(Val::Int(seq));
        clause.push_str(&format!(" AND i.seq = ?{}", args.len()));
    }
    if let Some(after) = filter.changed_after {
        args.push(Val::Int(after));
        let n = args.len();
        clause.push_str(&format!(
            " AND (i.seq > ?{n} OR i.seq IN (SELECT intent_seq FROM entries WHERE seq > ?{n}))"
        ));
    }
    if let Some(r) = &filter.reference {
        args.push(Val::from(r));
        clause.push_str(&format!(" AND i.external_id = ?{}", args.len()));
    }
    if let Some(u) = &filter.user {
        args.push(Val::from(u));
        clause.push_str(&format!(" AND i.\"user\" = ?{}", args.len()));
    }
    if let Some(a) = filter.action {
        args.push(Val::from(a.as_str()));
        clause.push_str(&format!(" AND i.action = ?{}", args.len()));
    }
    if let Some(o) = filter.outcome {
        args.push(Val::from(o.as_str()));
        clause.push_str(&format!(
            " AND coalesce(o.outcome, 'unknown') = ?{}",
            args.len()
        ));
    }
    if let Some(t) = filter
        .text
        .as_deref()
        .map(str::trim)
        .filter(|t| !t.is_empty())
    {
        // LIKE with the wildcards of the text itself escaped.
        let escaped = t
            .replace('\\', "\\\\")
            .replace('%', "\\%")
            .replace('_', "\\_");
        args.push(Val::Text(format!("%{escaped}%")));
        let n = args.len();
        clause.push_str(&format!(
            " AND (i.customer LIKE ?{n} ESCAPE '\\' OR i.external_id LIKE ?{n} ESCAPE '\\' \
             OR coalesce(o.invoice_id, i.invoice_id) LIKE ?{n} ESCAPE '\\' \
             OR i.\"user\" LIKE ?{n} ESCAPE '\\')"
        ));
    }
    (clause, args)
}
