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

/// The book in pesos (see `receivables::in_pesos`): "En pesos, con la UF del
/// 26-11-2026 ($39.643,59): $81.234.567 adeudado, $12.000.000 vencido (1–30 días …)".
pub fn book_in_pesos(pesos: &[Decimal; 6], others: bool, day: &UfDay) -> String {
    use crate::api::money::format_amount;
    let clp = |d: Decimal| format_amount(d, Some("CLP"));
    let overdue = pesos[1..5].iter().copied().sum::<Decimal>();
    let buckets: Vec<String> = [
        "aging-current",
        "aging-1-30",
        "aging-31-60",
        "aging-61-90",
        "aging-over-90",
    ]
    .iter()
    .zip(pesos)
    .map(|(key, p)| format!("{} {}", super::text(key), clp(*p)))
    .collect();
    let mut line = tr!(
        "uf-book-pesos",
        date = super::date(&day.date.to_string()),
        value = format!("${}", crate::api::money::format_es_cl(day.value, 2)),
        owed = clp(pesos[5]),
        overdue = clp(overdue),
        buckets = buckets.join(" · ")
    );
    if others {
        line.push(' ');
        line.push_str(&tr!("uf-book-others"));
    }
    line
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
        UfError::SecretInAddress => tr!("uf-secret-in-address"),
        UfError::Keyring(e) => super::profile_error(e),
        UfError::Bad(bad) => tr!(
            "uf-bad",
            why = uf_bad(bad),
            date = super::date(&day.to_string())
        ),
    }
}

/// Why an answer or file is not a table of UF values, in the reader's words (with its
/// row, when in one).
pub fn uf_bad(bad: &crate::uf::Bad) -> String {
    use crate::uf::Why;
    let esc = |s: &str| crate::text::escape_controls(s).into_owned();
    let why = match &bad.why {
        Why::NotAValue(t) => tr!("uf-why-not-a-value", text = esc(t)),
        Why::NotADate(t) => tr!("uf-why-not-a-date", text = esc(t)),
        Why::NotADay(t) => tr!("uf-why-not-a-day", text = esc(t)),
        Why::NoSuchDay { month, day, year } => tr!(
            "uf-why-no-such-day",
            day = *day,
            month = super::month_name(*month),
            year = *year
        ),
        Why::TooLarge(kb) => tr!("uf-why-too-large", kb = *kb),
        Why::TooMany(n) => tr!("uf-why-too-many", count = super::count(*n)),
        Why::TwoValues { date, a, b } => tr!(
            "uf-why-two-values",
            date = super::date(&date.to_string()),
            a = format!("${}", crate::api::money::format_es_cl(*a, 2)),
            b = format!("${}", crate::api::money::format_es_cl(*b, 2))
        ),
        Why::NotCmfJson => tr!("uf-why-not-cmf-json"),
        Why::NoColumns => tr!("uf-why-no-columns"),
        Why::NoYear => tr!("uf-why-no-year"),
        Why::NoValues => tr!("uf-why-no-values"),
        Why::Status(s) => tr!("uf-why-status", status = *s),
        Why::Sheet(e) => super::sheet_error(e),
        Why::Unreadable(std::io::ErrorKind::NotFound) => tr!("uf-why-no-file"),
        Why::Unreadable(std::io::ErrorKind::PermissionDenied) => tr!("uf-why-denied"),
        Why::Unreadable(_) => tr!("uf-why-unreadable"),
        Why::NoPath => tr!("uf-why-no-path"),
    };
    match bad.row {
        Some(row) => tr!("uf-why-row", row = row, why = why),
        None => why,
    }
}
