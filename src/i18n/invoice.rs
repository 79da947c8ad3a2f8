//! An invoice's words: its fields' names and values, amounts, statuses, aging buckets,
//! currencies, and what a clerk typed that could not be read.

use super::*;
use crate::{tr, tr_in};

/// A known invoice field's name in the clerk's language (`field-due-date`, …).
pub fn field_name(name: &str) -> String {
    field_name_in(current(), name)
}

/// [`field_name`] in `lang`.
pub fn field_name_in(lang: Lang, name: &str) -> String {
    text_in(lang, &format!("field-{}", name.replace('_', "-")))
}

/// A known field's value as the clerk reads it: dates in the language's form, yes/no,
/// amounts formatted; service text escaped.
pub fn known_value(
    inv: &crate::api::Invoice,
    name: &str,
    v: crate::api::model::Known<'_>,
) -> String {
    use crate::api::model::Known;
    match v {
        Known::Text(t) if name == "due_date" => crate::text::escape_controls(&date(t)).into_owned(),
        Known::Text(t) => crate::text::escape_controls(t).into_owned(),
        Known::Flag(true) => tr!("yes"),
        Known::Flag(false) => tr!("no"),
        Known::Amount(_) | Known::Unreadable(_) => amount_text(inv),
        Known::Json(j) => {
            crate::text::escape_controls(&crate::api::model::value_text(j)).into_owned()
        }
    }
}

/// An invoice's amount as the clerk reads it (es-CL money), or what the service sent
/// when it is not a usable number.
pub fn amount_text(inv: &crate::api::Invoice) -> String {
    match (inv.amount, &inv.amount_unreadable) {
        (Some(a), _) => crate::text::escape_controls(&crate::api::money::format_amount(
            a,
            inv.currency_code.as_deref(),
        ))
        .into_owned(),
        (None, Some(raw)) => tr!("amount-unreadable", raw = crate::text::escape_controls(raw)),
        (None, None) => "—".to_string(),
    }
}

/// A status in words ("Open", "Overdue", …): the table, the filter, the workbook.
pub fn status_kind(k: crate::receivables::aging::StatusKind) -> String {
    status_kind_in(current(), k)
}

/// [`status_kind`] in `lang`.
pub fn status_kind_in(lang: Lang, k: crate::receivables::aging::StatusKind) -> String {
    use crate::receivables::aging::StatusKind as K;
    match k {
        K::Open => tr_in!(lang, "status-open"),
        K::Overdue => tr_in!(lang, "status-overdue"),
        K::Paid => tr_in!(lang, "status-paid"),
        K::Void => tr_in!(lang, "status-void"),
        K::Unknown => tr_in!(lang, "status-unknown"),
    }
}

/// An aging bucket's name ("Current", "1–30 days", …).
pub fn bucket(b: crate::receivables::aging::Bucket) -> String {
    bucket_in(current(), b)
}

/// [`bucket`] in `lang`.
pub fn bucket_in(lang: Lang, b: crate::receivables::aging::Bucket) -> String {
    use crate::receivables::aging::Bucket as B;
    match b {
        B::Current => tr_in!(lang, "aging-current"),
        B::Days1To30 => tr_in!(lang, "aging-1-30"),
        B::Days31To60 => tr_in!(lang, "aging-31-60"),
        B::Days61To90 => tr_in!(lang, "aging-61-90"),
        B::Over90 => tr_in!(lang, "aging-over-90"),
    }
}

/// A refused date in the clerk's language.
pub fn date_error(e: &crate::input::DateError) -> String {
    use crate::input::DateError as D;
    match e {
        D::Format(t) => {
            let t = crate::text::escape_controls(t).into_owned();
            match current() {
                Lang::Es => tr!("date-format-es", text = t),
                Lang::En => tr!("date-format-en", text = t),
            }
        }
        D::NoSuchDay { day, month, year } => {
            if (1..=12).contains(month) {
                tr!(
                    "date-no-such-day",
                    day = day,
                    month = month_name(*month),
                    year = year
                )
            } else {
                tr!("date-no-such-month", month = month)
            }
        }
        D::Year(y) => tr!("date-year", year = y),
    }
}

/// A field of the service's 422 answers, named as the form names it (unknown ones as
/// the service named them).
pub fn field_label(field: &str) -> String {
    match field {
        "customer" | "customer_id" => tr!("f-customer-id"),
        "amount" => tr!("f-amount"),
        "currency_code" => tr!("f-currency"),
        "due_date" => tr!("f-due-date"),
        "product_id" => tr!("f-product-id"),
        "invoice_external_id" => tr!("f-external-ref"),
        "metadata" => tr!("f-extra"),
        "id" => tr!("f-invoice-id"),
        other => crate::text::escape_controls(other).into_owned(),
    }
}

/// A refused extra-field line in the clerk's language.
pub fn assignment_error(e: &crate::input::AssignmentError) -> String {
    use crate::input::AssignmentError as A;
    match e {
        A::NoEquals(i) => tr!("as-no-equals", item = i),
        A::NoName(i) => tr!("as-no-name", item = i),
        A::MetadataTooLong(k) => tr!("as-metadata-long", name = k),
    }
}

/// A refused amount in the clerk's language.
pub fn amount_error(e: &AmountError) -> String {
    // What was typed may be a spreadsheet's cell: its control characters never reach a
    // terminal or a label as they are.
    let esc = |s: &str| crate::text::escape_controls(s).into_owned();
    match e {
        AmountError::Empty => tr!("amount-empty"),
        AmountError::NotANumber(t) => tr!("amount-not-a-number", text = esc(t)),
        AmountError::Ambiguous { text, a, b } => {
            // The whole number is grouped as the language groups it ("12,345" in
            // English); the decimal reading then needs the language's point too, or
            // English read "12,345 or 12,345".
            let b = match current() {
                Lang::En => b.replace(',', "."),
                Lang::Es => b.clone(),
            };
            tr!(
                "amount-ambiguous",
                text = esc(text),
                a = count(esc(a)),
                b = esc(&b)
            )
        }
        AmountError::BadGrouping(t) => tr!("amount-bad-grouping", text = esc(t)),
        AmountError::TooPrecise {
            text,
            currency,
            max,
            got,
        } => {
            tr!(
                "amount-too-precise",
                currency = currency,
                max = max,
                text = esc(text),
                got = got
            )
        }
        AmountError::NotPositive => tr!("amount-not-positive"),
        AmountError::TooLarge => tr!("amount-too-large"),
    }
}

/// A currency code where a clerk reads it beside amounts (a column, a row of totals):
/// "UF" for CLF, which no clerk calls by its code; any other code as sent, escaped.
pub fn currency_label(code: &str) -> String {
    currency_label_in(current(), code)
}

/// [`currency_label`] in `lang`.
pub fn currency_label_in(lang: Lang, code: &str) -> String {
    match code {
        "CLF" => tr_in!(lang, "cur-short-clf"),
        code => crate::text::escape_controls(code).into_owned(),
    }
}

/// A currency as a clerk reads it beside an amount: "UF" (never "CLF"), "Pesos (CLP)",
/// else its code (controls escaped).
pub fn currency_said(code: &str) -> String {
    match code {
        "CLF" => currency_label(code),
        _ => crate::api::Currency::from_code(code)
            .map(currency_name)
            .unwrap_or_else(|| crate::text::escape_controls(code).into_owned()),
    }
}

/// A currency as the picker names it: "UF (CLF)", "Pesos (CLP)", else its code.
pub fn currency_name(c: crate::api::Currency) -> String {
    currency_name_in(current(), c)
}

/// [`currency_name`] in `lang`.
pub fn currency_name_in(lang: Lang, c: crate::api::Currency) -> String {
    match c.code() {
        "CLF" => tr_in!(lang, "cur-clf"),
        "CLP" => tr_in!(lang, "cur-clp"),
        code => code.to_string(),
    }
}
