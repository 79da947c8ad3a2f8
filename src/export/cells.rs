//! One cell's text: amounts exact in the dialect's decimal separator, flags and statuses
//! in the dialect's words, nested values as compact JSON, text guarded against formulas.

use super::*;

/// An amount cell: exact digits, at least the currency's decimals, the dialect's decimal
/// separator, no thousands separator (so it stays a number).
pub fn amount_cell(amount: Decimal, currency: Option<&str>, dialect: Dialect) -> String {
    let mut out = String::new();
    push_amount_cell(amount, currency, dialect, &mut out);
    out
}

/// [`amount_cell`], appended to `out` (no allocation of its own: the export calls it for
/// every row).
pub(super) fn push_amount_cell(
    amount: Decimal,
    currency: Option<&str>,
    dialect: Dialect,
    out: &mut String,
) {
    let minor = currency
        .and_then(Currency::from_code)
        .map_or(0, Currency::minor_units);
    let mut d = amount.normalize();
    if d.scale() < minor {
        d.rescale(minor);
    }
    let point = match dialect {
        Dialect::Standard => '.',
        Dialect::ExcelEs => ',',
    };
    crate::api::money::push_plain(d, point, out);
}

/// An amount the service sent that is not a usable number: as sent, but a plain number
/// (too large for exact arithmetic, say) takes the dialect's decimal separator too.
pub(super) fn unreadable_amount_cell(raw: &str, dialect: Dialect) -> String {
    let numeric = !raw.is_empty()
        && raw
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | '-' | '+' | 'e' | 'E'));
    if dialect == Dialect::ExcelEs && numeric {
        guard_text(&raw.replace('.', ",")).into_owned()
    } else {
        guard_text(raw).into_owned()
    }
}

/// The words of a dialect's status and yes/no cells, looked up once (not per row).
pub(super) struct CellWords {
    open: String,
    paid: String,
    void: String,
    unknown: String,
    yes: String,
    no: String,
}

pub(super) fn spanish_words() -> &'static CellWords {
    static WORDS: std::sync::OnceLock<CellWords> = std::sync::OnceLock::new();
    WORDS.get_or_init(|| {
        let es = |key: &str| crate::i18n::text_in(crate::i18n::Lang::Es, key);
        CellWords {
            open: es("status-open"),
            paid: es("status-paid"),
            void: es("status-void"),
            unknown: es("status-unknown"),
            yes: es("yes"),
            no: es("no"),
        }
    })
}

/// The cell of a header column, appended to `out`: a typed column (its index in
/// [`typed_columns`], as [`column_sources`] gives it) or another field by name. Both CSV
/// writers fill their rows through this. True when the cell is one that never needs
/// quotes or escapes (empty, an amount, a flag, a status, `{}`): the streamed writer does
/// not look into it.
pub(super) fn push_column_cell(
    inv: &Invoice,
    source: Result<usize, &str>,
    dialect: Dialect,
    out: &mut String,
) -> bool {
    match source {
        Ok(i) => push_typed_cell(inv, typed_columns()[i].2, dialect, out),
        Err(name) => match inv.other(name) {
            None => true,
            Some(Other::Text(s)) => {
                out.push_str(&guard_text(s));
                false
            }
            Some(Other::Json(v)) => push_value_cell(v, out),
        },
    }
}

/// The cell of a column that comes from the known fields, appended to `out` (no
/// allocation for the common cells). True as [`push_column_cell`] says.
pub(super) fn push_typed_cell(
    inv: &Invoice,
    source: Source,
    dialect: Dialect,
    out: &mut String,
) -> bool {
    let i = match source {
        Source::Status => {
            let status = inv.status();
            out.push_str(match dialect {
                Dialect::Standard => status.as_str(),
                Dialect::ExcelEs => {
                    use crate::api::InvoiceStatus as S;
                    let w = spanish_words();
                    match status {
                        S::Open => &w.open,
                        S::Paid => &w.paid,
                        S::Void => &w.void,
                        S::Unknown => &w.unknown,
                    }
                }
            });
            return true;
        }
        Source::Known(i) => i,
    };
    match inv.known(i) {
        None => return true,
        Some(Known::Text(s)) => out.push_str(&guard_text(s)),
        Some(Known::Flag(b)) => {
            out.push_str(match (dialect, b) {
                (Dialect::Standard, true) => "true",
                (Dialect::Standard, false) => "false",
                (Dialect::ExcelEs, true) => &spanish_words().yes,
                (Dialect::ExcelEs, false) => &spanish_words().no,
            });
            return true;
        }
        // Digits, a sign and the dialect's decimal point, never its delimiter.
        Some(Known::Amount(a)) => {
            push_amount_cell(a, inv.currency_code.as_deref(), dialect, out);
            return true;
        }
        Some(Known::Unreadable(raw)) => out.push_str(&unreadable_amount_cell(raw, dialect)),
        Some(Known::Json(v)) => return push_value_cell(v, out),
    }
    false
}

/// A field's value as a cell: text as itself, null empty, anything else compact JSON;
/// guarded against formulas. True for `{}`, which never needs quotes.
pub(super) fn push_value_cell(v: &serde_json::Value, out: &mut String) -> bool {
    match v {
        serde_json::Value::String(s) => out.push_str(&guard_text(s)),
        // Most invoices' metadata: written without making a String of it.
        serde_json::Value::Object(m) if m.is_empty() => {
            out.push_str("{}");
            return true;
        }
        other => out.push_str(&guard_text(&value_text(other))),
    }
    false
}

pub(super) fn cell_text(s: &str, escape: bool) -> std::borrow::Cow<'_, str> {
    if escape {
        crate::text::escape_controls(s)
    } else {
        std::borrow::Cow::Borrowed(s)
    }
}
