//! Contracts in the reader's words: why a row of a contracts file is refused, why a
//! contract bills nothing in a run, how often and in what it bills.

use crate::contracts::import::{Column, ImportError, ImportWhy};
use crate::contracts::{BillIn, Contract, Every, Skip};
use crate::tr;

fn esc(s: &str) -> String {
    crate::text::escape_controls(s).into_owned()
}

/// A column of a contracts file by the name the clerk's language gives it.
pub fn contract_column(c: Column) -> String {
    match super::current() {
        super::Lang::En => c.name().to_string(),
        super::Lang::Es => match c {
            Column::Contract => "contrato",
            Column::Customer => "cliente",
            Column::Amount => "monto",
            Column::Currency => "moneda",
            Column::BillIn => "facturar_en",
            Column::Every => "cada",
            Column::Day => "dia",
            Column::DueDays => "dias_vencimiento",
            Column::Start => "desde",
            Column::End => "hasta",
            Column::Reference => "referencia",
            Column::Description => "glosa",
        }
        .to_string(),
    }
}

/// Why a row of a contracts file is refused.
pub fn contract_import_why(w: &ImportWhy) -> String {
    match w {
        ImportWhy::Unreadable(e) => super::sheet_error(e),
        ImportWhy::Empty => tr!("ct-why-empty"),
        ImportWhy::MissingColumn(c) => tr!("ct-why-missing-column", column = contract_column(*c)),
        ImportWhy::UnknownColumns(c) => tr!("ct-why-unknown-columns", columns = c.join(", ")),
        ImportWhy::TwiceNamed(c) => tr!("ct-why-twice", column = contract_column(*c)),
        ImportWhy::EmptyCell(_) => tr!("ct-why-empty-cell"),
        ImportWhy::BadId => tr!("ct-why-bad-id"),
        ImportWhy::Duplicate(id) => tr!("ct-why-duplicate", id = esc(id)),
        ImportWhy::Customer(w) | ImportWhy::Amount(w) => super::bulk_why(w),
        ImportWhy::Currency(t) => tr!("ct-why-currency", text = esc(t)),
        ImportWhy::PesosNeedUf => tr!("ct-why-pesos-need-uf"),
        ImportWhy::BillIn(t) => tr!("ct-why-bill-in", text = esc(t)),
        ImportWhy::Every(t) => tr!("ct-why-every", text = esc(t)),
        ImportWhy::Day(t) => tr!("ct-why-day", text = esc(t)),
        ImportWhy::DueDays(t) => tr!("ct-why-due-days", text = esc(t)),
        ImportWhy::Period(t) => tr!("ct-why-period", text = esc(t)),
        ImportWhy::EndBeforeStart => tr!("ct-why-end-before-start"),
        ImportWhy::Reference(t) => tr!("ct-why-reference", text = esc(t)),
        ImportWhy::Exists(id) => tr!("ct-why-exists", id = esc(id)),
    }
}

/// A refused row as the CLI says it: "fila 3, columna monto: …".
pub fn contract_problem(p: &ImportError) -> String {
    let what = contract_import_why(&p.why);
    if p.column.is_empty() {
        tr!("cli-row", row = p.row, what = what)
    } else {
        tr!(
            "cli-row-cell",
            row = p.row,
            column = esc(&p.column),
            what = what
        )
    }
}

/// How often a contract bills: "mensual".
pub fn every_word(e: Every) -> String {
    match e {
        Every::Month => tr!("ct-every-month"),
        Every::Quarter => tr!("ct-every-quarter"),
        Every::Year => tr!("ct-every-year"),
    }
}

/// What it bills in: "UF" or "pesos a la UF del día".
pub fn bill_in_word(b: BillIn, currency: &str) -> String {
    match b {
        BillIn::Contract => super::currency_label(currency),
        BillIn::PesosAtUf => tr!("ct-bill-in-pesos"),
    }
}

/// Why a contract, or a period of it, bills nothing in a run.
pub fn contract_skip(id: &str, s: &Skip) -> String {
    let id = esc(id);
    match s {
        Skip::NotStarted(p) => tr!("ct-skip-not-started", id = id, period = p.to_string()),
        Skip::Ended(p) => tr!("ct-skip-ended", id = id, period = p.to_string()),
        Skip::Paused { period, since } => tr!(
            "ct-skip-paused",
            id = id,
            period = period.to_string(),
            since = since.to_string()
        ),
        Skip::NoUf { period, why } => tr!(
            "ct-skip-no-uf",
            id = id,
            period = period.to_string(),
            why = esc(why)
        ),
        Skip::Currency { period, code } => tr!(
            "ct-skip-currency",
            id = id,
            period = period.to_string(),
            code = esc(code)
        ),
    }
}

/// Where a contract stands when `now` is the current period: active, paused, ended.
pub fn contract_state(c: &Contract, now: crate::contracts::Period) -> String {
    if c.end.is_some_and(|e| e < now) {
        tr!("ct-state-ended")
    } else if c.is_paused(now) {
        tr!("ct-state-paused")
    } else if c.start > now {
        tr!("ct-state-not-started")
    } else {
        tr!("ct-state-active")
    }
}

/// What a contract event did: "condiciones cambiadas desde 2027-08: $400.000".
pub fn contract_event(e: &crate::contracts::Event) -> String {
    use crate::contracts::Event;
    let amount =
        |t: &crate::contracts::Terms| crate::api::money::format_amount(t.amount, Some(&t.currency));
    match e {
        Event::Create { .. } => tr!("cli-ct-event-create"),
        Event::Change { from, terms } => tr!(
            "cli-ct-event-change",
            period = from.to_string(),
            amount = amount(terms)
        ),
        Event::End { after: Some(p) } => tr!("cli-ct-event-end", period = p.to_string()),
        Event::End { after: None } => tr!("cli-ct-event-no-end"),
        Event::Pause { from } => tr!("cli-ct-event-pause", period = from.to_string()),
        Event::Resume { from } => tr!("cli-ct-event-resume", period = from.to_string()),
    }
}

/// A contract event as Activity lists it: when, who, which contract, what.
pub fn contract_event_line(k: &crate::contracts::Kept) -> String {
    tr!(
        "act-contract-change",
        time = super::moment(&k.time),
        who = super::writer_of(&k.user, k.db_user.as_deref()),
        id = esc(&k.contract),
        what = contract_event(&k.event)
    )
}

/// The panel's field for a column of the one-row file its form makes ("amount" → "Monto").
pub fn contract_field(column: &str) -> String {
    let key = match column {
        "contract" => "ctp-f-id",
        "customer" => "ctp-f-customer",
        "amount" => "ctp-f-amount",
        "currency" | "bill_in" => "ctp-f-currency",
        "every" => "ctp-f-every",
        "day" => "ctp-f-day",
        "due_days" => "ctp-f-due-days",
        "start" => "ctp-f-start",
        "end" => "ctp-f-end",
        _ => "ctp-f-description",
    };
    super::text(key)
}

/// A plan's totals per currency, joined: "$1.200.000 + UF 45,0000 ≈ $1.783.842 al
/// 28-11-2026" (the UF's pesos when the plan has the day's value).
pub fn plan_totals(plan: &crate::contracts::Plan) -> String {
    let day = plan.uf.map(|(date, value)| crate::uf::UfDay {
        date,
        value,
        from: crate::uf::UfFrom::of(crate::journal::uf::CMF),
    });
    plan.totals()
        .iter()
        .map(|(code, (_, sum))| match code.as_str() {
            "CLF" => super::uf_amount(*sum, day.as_ref()),
            _ => crate::api::money::format_amount(*sum, Some(code)),
        })
        .collect::<Vec<_>>()
        .join(" + ")
}
