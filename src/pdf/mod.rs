//! Statements of account as PDF: what a customer owes on a day, from the sender whose
//! details the profile keeps, with each invoice's payment link as a link and a QR code.
//!
//! `plan` decides what is said and on which page, without drawing (tested alone);
//! `draw` puts it on paper with krilla (fonts embedded and subset, text as real text);
//! `qr` makes the codes. Why krilla: it is kept by the Typst project, writes subset
//! TrueType fonts with their Unicode maps (so text is searchable and copyable), link
//! annotations and images, in safe Rust, with no external program.

pub mod batch;
mod draw;
mod fonts;
mod plan;
mod qr;
mod workbook;

pub use plan::{PDF_LINES, PageSpec, Plan, paginate};

use crate::api::Invoice;
use crate::i18n::Lang;
use crate::profile::Sender;
use crate::receivables::{Keep, Listing, MAX_LINES};
use chrono::NaiveDate;

/// One customer's statement, as asked for.
pub struct Statement<'a> {
    /// Its language (words, dates).
    pub lang: Lang,
    /// Who it is from.
    pub sender: &'a Sender,
    /// The customer's id.
    pub customer: &'a str,
    /// The customer's name and RUT, from the directory, when known.
    pub name: Option<&'a str>,
    /// The customer's RUT.
    pub rut: Option<&'a str>,
    /// The day it is made for (overdue days count to it).
    pub as_of: NaiveDate,
    /// The UF's value of a day, to say under the UF owed what it is in pesos (the
    /// optional line); `None`: UF alone.
    pub uf: Option<&'a crate::uf::UfDay>,
}

/// A statement made.
pub struct Made {
    /// The PDF file's bytes.
    pub pdf: Vec<u8>,
    /// Its pages.
    pub pages: usize,
    /// The workbook of every invoice listed, sent with a statement too long to print
    /// whole (more than [`PDF_LINES`]).
    pub workbook: Option<Vec<u8>>,
    /// What it lists and owes.
    pub plan: Plan,
}

/// Why a statement could not be made.
#[derive(Debug)]
pub enum PdfError {
    /// The sender's logo cannot be used.
    Logo(crate::profile::SenderError),
    /// The PDF library refused (a bug: said for engineers).
    Render(String),
    /// The customer has more invoices to list than a statement holds ([`MAX_LINES`]).
    TooMany,
}

impl PdfError {
    /// In the clerk's language.
    pub fn words(&self) -> String {
        match self {
            PdfError::Logo(p) => crate::i18n::sender_problem(p),
            PdfError::Render(why) => crate::tr!("st-render-failed", why = why),
            PdfError::TooMany => crate::tr!("st-too-many", limit = crate::i18n::count(MAX_LINES)),
        }
    }
}

crate::engineers_text!(PdfError);
impl std::error::Error for PdfError {}

/// What the document is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A statement of account: what is owed, its aging, the invoices owed.
    Statement,
    /// One invoice, to print ("Imprimir" in Lookup): its line, link and QR code.
    Invoice,
}

/// Makes the statement's PDF of the customer's `invoices`, as listed: with `all`, paid
/// and void ones too (else only what is owed). The logo, if the sender has one, is read
/// now.
pub fn statement_pdf(s: &Statement<'_>, invoices: &[Invoice], all: bool) -> Result<Made, PdfError> {
    let keep = if all { Keep::All } else { Keep::Owed };
    make(s, Listing::of(invoices, s.as_of, keep), Kind::Statement)
}

/// The statement of the invoices `listed` as they were listed: a listing folded page by
/// page, never held whole.
pub fn listed_statement_pdf(s: &Statement<'_>, listed: Listing) -> Result<Made, PdfError> {
    make(s, listed, Kind::Statement)
}

/// One invoice's PDF, to print (paid and void shown as such).
pub fn invoice_pdf(s: &Statement<'_>, invoice: &Invoice) -> Result<Made, PdfError> {
    make(
        s,
        Listing::of(std::slice::from_ref(invoice), s.as_of, Keep::All),
        Kind::Invoice,
    )
}

fn make(s: &Statement<'_>, listed: Listing, kind: Kind) -> Result<Made, PdfError> {
    if listed.too_many {
        return Err(PdfError::TooMany);
    }
    let logo = match &s.sender.logo {
        Some(p) => Some(crate::profile::sender::read_logo(p).map_err(PdfError::Logo)?),
        None => None,
    };
    let plan = plan::plan(s, listed, kind);
    let pdf = draw::draw(s, &plan, logo.as_ref())?;
    let workbook = if plan.shown < plan.lines.len() {
        Some(workbook::statement(s, &plan).map_err(|e| PdfError::Render(e.to_string()))?)
    } else {
        None
    };
    Ok(Made {
        pdf,
        pages: plan.pages.len(),
        plan,
        workbook,
    })
}

/// The workbook's file name beside a statement's PDF file name (`….xlsx`).
pub fn workbook_name(pdf_name: &str) -> String {
    format!("{}.xlsx", pdf_name.strip_suffix(".pdf").unwrap_or(pdf_name))
}

/// The file name a statement is saved under: `estado-de-cuenta-<customer>-<date>.pdf`
/// (`statement-…` in English), named by the customer's name when it is known (what a
/// clerk looks for in a folder, and what a customer sees attached), else by its id;
/// made safe for every file system.
pub fn file_name(lang: Lang, customer: &str, name: Option<&str>, as_of: NaiveDate) -> String {
    let safe = name
        .and_then(crate::fsutil::name_part)
        .unwrap_or_else(|| crate::fsutil::id_part(customer));
    let stem = crate::tr_in!(lang, "st-file-stem");
    format!("{stem}-{safe}-{}.pdf", as_of.format("%Y-%m-%d"))
}

/// The file name an invoice is printed from: `factura-<id>.pdf` (`invoice-…` in English).
pub fn invoice_file_name(lang: Lang, id: &str) -> String {
    let safe = crate::fsutil::id_part(id);
    format!("{}-{safe}.pdf", crate::tr_in!(lang, "st-invoice-stem"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_statement_is_named_by_the_customers_name_made_safe() {
        let day = NaiveDate::from_ymd_opt(2026, 11, 24).unwrap();
        assert_eq!(
            file_name(Lang::Es, "cus_1", Some("Comercial Ñuñoa Ltda."), day),
            "estado-de-cuenta-Comercial-Ñuñoa-Ltda-2026-11-24.pdf"
        );
        assert_eq!(
            file_name(Lang::Es, "cus_1", Some("a/../../b:c*?\"<>|\u{202e}"), day),
            "estado-de-cuenta-a-b-c-2026-11-24.pdf"
        );
        // Nothing usable in the name: the id.
        assert_eq!(
            file_name(Lang::En, "cus_1", Some(" / "), day),
            "statement-cus_1-2026-11-24.pdf"
        );
        assert_eq!(
            file_name(Lang::Es, "cus_1", Some(&"x".repeat(500)), day).len(),
            "estado-de-cuenta--2026-11-24.pdf".len() + 60
        );
    }
}
