//! The desk's four eyes in words: what a request would do, where it stands, who asked
//! and who decided (the role first, as everywhere on a desk).

use crate::journal::approvals::{Request, State, Summary, What};
use crate::tr;

/// What a request would do: "anular in_…", "emitir la factura R-1 a cus_… por
/// $6.000.000", "emitir 120 facturas de enero.csv ($12.345.678)".
pub fn approval_what(what: What, s: &Summary) -> String {
    let esc =
        |t: &Option<String>| crate::text::escape_controls(t.as_deref().unwrap_or("?")).into_owned();
    let totals = s
        .totals
        .iter()
        .map(
            |(code, amount)| match amount.parse::<rust_decimal::Decimal>() {
                Ok(a) => crate::api::money::format_amount(
                    a,
                    Some(code.as_str()).filter(|c| !c.is_empty()),
                ),
                Err(_) => crate::text::escape_controls(amount).into_owned(),
            },
        )
        .collect::<Vec<_>>()
        .join(" + ");
    match what {
        What::Void if !s.totals.is_empty() => tr!(
            "ap-what-void-of",
            invoice = esc(&s.invoice),
            customer = esc(&s.customer),
            amount = totals
        ),
        What::Void if s.customer.is_some() => tr!(
            "ap-what-void-of-customer",
            invoice = esc(&s.invoice),
            customer = esc(&s.customer)
        ),
        What::Void => tr!("ap-what-void", invoice = esc(&s.invoice)),
        What::Create => tr!(
            "ap-what-create",
            reference = esc(&s.reference),
            customer = esc(&s.customer),
            amount = totals
        ),
        What::Run => match &s.file {
            Some(_) => tr!(
                "ap-what-run-file",
                count = s.rows.unwrap_or(0),
                file = esc(&s.file),
                amount = totals
            ),
            None => tr!("ap-what-run", count = s.rows.unwrap_or(0), amount = totals),
        },
        What::Mail => tr!(
            "ap-what-mail",
            count = s.rows.unwrap_or(0),
            month = esc(&s.month)
        ),
    }
}

/// Where a request stands: "pendiente hasta el 29-11-2026 10:42", "aprobado por rol
/// beto · Beto el …", "rechazado por … el …: no corresponde", "venció".
pub fn approval_state(r: &Request) -> String {
    let note = |n: &Option<String>| {
        n.as_deref()
            .map(|n| format!(": {}", crate::text::escape_controls(n)))
            .unwrap_or_default()
    };
    match &r.state {
        State::Pending => tr!("ap-pending", until = super::moment(&r.expires)),
        State::Approved { by, time, note: n } => {
            let approved = format!(
                "{}{}",
                tr!(
                    "ap-approved",
                    who = super::writer_by(by),
                    when = super::moment(time)
                ),
                note(n)
            );
            // What became of it: carried out (all or part), or past its time unused.
            let after = if r.used > 0 {
                Some(tr!("ap-carried-out", used = r.used, items = r.items))
            } else if r.lapsed {
                Some(tr!("ap-lapsed", when = super::moment(&r.expires)))
            } else {
                None
            };
            match after {
                Some(a) => format!("{approved} · {a}"),
                None => approved,
            }
        }
        State::Rejected { by, time, note: n } => format!(
            "{}{}",
            tr!(
                "ap-rejected",
                who = super::writer_by(by),
                when = super::moment(time)
            ),
            note(n)
        ),
        State::Expired => tr!("ap-expired", when = super::moment(&r.expires)),
    }
}

/// Who approved what an entry carried out: "aprobado por rol beto · Beto (pedido 12)".
pub fn approved_by(a: &crate::journal::approvals::ApprovedBy) -> String {
    tr!(
        "ap-approved-entry",
        who = super::writer_by(&a.approved_by),
        id = a.request
    )
}

/// A request on one line: "12 · anular in_… · pidió rol ana · Ana el … · pendiente …".
pub fn approval_line(r: &Request) -> String {
    tr!(
        "ap-line",
        id = r.id,
        what = approval_what(r.what, &r.summary),
        who = super::writer_by(&r.by),
        when = super::moment(&r.time),
        state = approval_state(r)
    )
}

/// Where a request that holds something back is said: each says what to do next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AskedIn {
    /// The command line (run the same command).
    Cli,
    /// Lookup's Anular (press it again).
    Void,
    /// The new invoice's Emitir, or a run's (press it again).
    Issue,
}

/// Why nothing was sent: request `r` waits for another clerk (asked now or earlier), or
/// was rejected (who, when, why).
pub fn not_approved(r: &Request, asked_in: AskedIn) -> String {
    let what = approval_what(r.what, &r.summary);
    if r.state != State::Pending {
        return tr!(
            "ap-refused",
            id = r.id,
            what = what,
            state = approval_state(r)
        );
    }
    match asked_in {
        AskedIn::Cli => tr!("cli-ap-asked", id = r.id, what = what),
        AskedIn::Void => tr!("lk-approval-asked", id = r.id, what = what),
        AskedIn::Issue => tr!("cr-approval-asked", id = r.id, what = what),
    }
}
