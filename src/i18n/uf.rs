//! The UF's value and pesos in the reader's words: "UF 23,1930 ≈ $919.454 al
//! 26-11-2026", the day always said; why there is no value, in plain words.

use crate::tr;
use crate::uf::{UfDay, UfError};
use chrono::NaiveDate;
use rust_decimal::Decimal;

/// A day's value: "UF al 26-11-2026: $39.643,59 (CMF)".
pub fn uf_value(day: &UfDay, source: &str) -> String {
    tr!(
        "uf-value",
        date = super::date(&day.date.to_string()),
        value = format!("${}", crate::api::money::format_es_cl(day.value, 2)),
        source = crate::text::escape_controls(source)
    )
}

/// The pesos of `amount` UF on `day`: "≈ $919.454 al 26-11-2026" (empty without one).
pub fn uf_pesos(amount: Decimal, day: Option<&UfDay>) -> String {
    let Some(day) = day else {
        return String::new();
    };
    match day.pesos(amount) {
        Some(p) => tr!(
            "uf-pesos",
            pesos = crate::api::money::format_amount(p, Some("CLP")),
            date = super::date(&day.date.to_string())
        ),
        None => String::new(),
    }
}

/// `amount` UF with its pesos: "UF 23,1930 ≈ $919.454 al 26-11-2026"; "UF 23,1930"
/// alone without a value.
pub fn uf_amount(amount: Decimal, day: Option<&UfDay>) -> String {
    let uf = crate::api::money::format_amount(amount, Some("CLF"));
    match uf_pesos(amount, day) {
        p if p.is_empty() => uf,
        p => format!("{uf} {p}"),
    }
}

/// Why there is no value for `day`, and that UF amounts are shown alone.
pub fn uf_error(e: &UfError, day: NaiveDate) -> String {
    let esc = |s: &str| crate::text::escape_controls(s).into_owned();
    match e {
        UfError::NoKey => tr!("uf-no-key"),
        UfError::Journal(e) => super::journal_unreadable(e),
        UfError::NotPublished(d) => tr!("uf-not-published", date = super::date(&d.to_string())),
        UfError::KeyRefused(status) => tr!("uf-key-refused", status = *status),
        UfError::Unreachable(why) => tr!("uf-unreachable", why = esc(why)),
        UfError::BadAddress(a) => tr!("uf-bad-address", address = esc(a)),
        UfError::Bad(why) => tr!(
            "uf-bad",
            why = esc(why),
            date = super::date(&day.to_string())
        ),
    }
}
