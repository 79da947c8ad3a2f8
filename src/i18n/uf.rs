//! The UF's value and pesos in the reader's words: "UF 23,1930 ≈ $919.454 al
//! 26-11-2026", the day always said; why there is no value, in plain words.

use crate::journal::UfPut;
use crate::tr;
use crate::uf::{UfDay, UfError, UfFound};
use chrono::NaiveDate;
use rust_decimal::Decimal;

/// A day's value with where it came from and who stored it: "UF al 26-11-2026:
/// $39.643,59 (CMF; guardado por ana el 26-11-2026 10:14)".
pub fn uf_value(found: &UfFound) -> String {
    let esc = |s: &str| crate::text::escape_controls(s).into_owned();
    let source = uf_source(&found.source);
    let source = match (&found.stored_by, &found.stored) {
        (Some(who), Some(when)) => tr!(
            "uf-stored-by",
            source = source,
            who = esc(who),
            when = super::moment(when)
        ),
        _ => source,
    };
    tr!(
        "uf-value",
        date = super::date(&found.uf.date.to_string()),
        value = peso_value(found.uf.value),
        source = source
    )
}

/// A kept value's source as a reader says it: "CMF", or "archivo «uf2026.xlsx»".
pub fn uf_source(source: &str) -> String {
    if source == crate::uf::CMF {
        tr!("uf-source-cmf")
    } else {
        tr!(
            "uf-source-file",
            file = crate::text::escape_controls(source)
        )
    }
}

/// Pesos per UF as published: "$39.643,59" (the same in every language: the CMF's
/// figure, as a statement quotes it).
pub fn peso_value(v: Decimal) -> String {
    format!("${}", crate::api::money::format_es_cl(v, 2))
}

/// What a clerk must know of values offered to the journal (refused, corrected,
/// contradicted), a line each.
pub fn uf_offered(
    offered: &crate::journal::UfOffered,
    values: &[(NaiveDate, Decimal)],
) -> Vec<String> {
    offered
        .each
        .iter()
        .filter_map(|(day, put)| {
            let value = values.iter().find(|(d, _)| d == day)?.1;
            uf_put(*day, value, &offered.source, put)
        })
        .collect()
}

/// A file of values imported, in words: what was kept and each thing to know of it;
/// or why nothing was (each day that breaks, at most 20).
pub fn uf_imported(i: &crate::uf::file::Imported) -> Result<(String, Vec<String>), String> {
    let file = crate::text::escape_controls(&i.name).into_owned();
    let breaks: Vec<String> = if i.refused.is_empty() {
        let offered = i.offered.as_ref();
        offered
            .map(|o| uf_offered(o, &i.values))
            .unwrap_or_default()
    } else {
        i.refused.iter().map(uf_breaks_line).collect()
    };
    if !i.kept() {
        let mut lines = vec![tr!("uf-file-refused", file = file)];
        lines.extend(breaks.into_iter().take(20));
        return Err(lines.join("\n"));
    }
    let (Some(first), Some(last)) = (i.values.first(), i.values.last()) else {
        return Err(tr!("uf-why-no-values"));
    };
    let summary = tr!(
        "uf-imported",
        count = i.values.len(),
        added = i.offered.as_ref().map_or(0, |o| o.added()),
        file = file,
        first = super::date(&first.0.to_string()),
        last = super::date(&last.0.to_string())
    );
    Ok((summary, breaks))
}

/// A day refused for breaking continuity: "03-12-2026: $3.963,30 no se guardó: se aleja
/// más de 0,5 % del valor guardado del 02-12-2026 ($39.629,00); …".
pub fn uf_breaks_line(b: &crate::uf::Breaks) -> String {
    tr!(
        "uf-put-breaks",
        date = super::date(&b.date.to_string()),
        value = peso_value(b.value),
        near = super::date(&b.near.to_string()),
        near_value = peso_value(b.near_value)
    )
}

/// What became of one day's value offered to the journal, when a clerk must know
/// (refused, corrected, contradicted); `None` when it was kept or already was.
pub fn uf_put(day: NaiveDate, value: Decimal, source: &str, put: &UfPut) -> Option<String> {
    let esc = |s: &str| crate::text::escape_controls(s).into_owned();
    let date = super::date(&day.to_string());
    match put {
        UfPut::Added | UfPut::Same => None,
        UfPut::Breaks { near, value: v } => Some(uf_breaks_line(&crate::uf::Breaks {
            date: day,
            value,
            near: *near,
            near_value: *v,
        })),
        UfPut::Corrected { was, by } => Some(tr!(
            "uf-put-corrected",
            date = date,
            value = peso_value(value),
            was = peso_value(*was),
            who = by.as_deref().map(esc).unwrap_or_else(|| "?".into())
        )),
        UfPut::Differs {
            other,
            source: theirs,
        } if source == crate::uf::CMF => Some(tr!(
            "uf-put-cmf-differs",
            date = date,
            value = peso_value(value),
            other = peso_value(*other),
            source = uf_source(theirs)
        )),
        UfPut::Differs {
            other,
            source: theirs,
        } if theirs == crate::uf::CMF => Some(tr!(
            "uf-put-differs-cmf",
            date = date,
            value = peso_value(value),
            other = peso_value(*other)
        )),
        UfPut::Differs {
            other,
            source: theirs,
        } => Some(tr!(
            "uf-put-differs",
            date = date,
            value = peso_value(value),
            other = peso_value(*other),
            source = uf_source(theirs)
        )),
    }
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
        value = peso_value(day.value),
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
        UfError::Breaks(b) => tr!(
            "uf-breaks",
            date = super::date(&b.date.to_string()),
            value = peso_value(b.value),
            near = super::date(&b.near.to_string()),
            near_value = peso_value(b.near_value)
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
            a = peso_value(*a),
            b = peso_value(*b)
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
