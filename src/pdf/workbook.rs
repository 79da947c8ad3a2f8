//! The workbook sent with a statement too long to print whole: every invoice it lists,
//! written as the exports' workbooks are (one table writer serves both).

use super::{Plan, Statement};

/// The workbook's bytes: its title names the statement, the customer and the day, as
/// the PDF's later pages do.
pub(super) fn statement(
    s: &Statement<'_>,
    plan: &Plan,
) -> Result<Vec<u8>, rust_xlsxwriter::XlsxError> {
    let lang = s.lang;
    let who = s.name.unwrap_or(s.customer);
    let title = format!(
        "{} · {} · {}",
        crate::tr_in!(lang, "st-title"),
        crate::text::escape_controls(who),
        crate::i18n::date_in(lang, &s.as_of.format("%Y-%m-%d").to_string())
    );
    crate::export::xlsx::statement_book(lang, &title, &plan.lines)
}
