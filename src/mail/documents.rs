//! A customer's e-mail made from what the service listed and what the directory knows:
//! the PDF, the template's values, the draft. The same for the CLI and the app. Makes a
//! PDF: call it off the async threads.

use super::compose::{Attachment, Draft, Fill, Kind, TemplateError, texts};
use crate::api::Invoice;
use crate::i18n::Lang;
use crate::journal::Customer;
use chrono::NaiveDate;
use std::path::PathBuf;

/// Who sends, in which language, with which templates.
#[derive(Clone, Debug)]
pub struct Desk {
    /// The sender's details (the organization is required).
    pub sender: crate::profile::Sender,
    /// The e-mail's language (its texts and the PDF's).
    pub lang: Lang,
    /// The clerk's templates folder, if any.
    pub templates: Option<PathBuf>,
    /// Where customers may write when the sender has no e-mail (the From address).
    pub reply_address: String,
    /// The profile's Reply-To (where a reply goes): the texts tell customers to write
    /// there rather than to the sender's own e-mail.
    pub reply_to: Option<String>,
    /// The UF's value of a day, for the statements' line in pesos ("Con los pesos de la
    /// UF", `email statements --uf-pesos`); `None`: UF alone.
    pub uf: Option<crate::uf::UfDay>,
}

/// Why a customer gets no e-mail. Typed to the edge: the app and the CLI say it
/// (`i18n::not_made_why`).
#[derive(Debug)]
pub enum NotMade {
    /// The directory has no address for the customer.
    NoAddress,
    /// Nothing is owed (a statement), or nothing 30 days overdue (a reminder).
    NothingOwed,
    /// The customer's invoices could not be listed.
    Listing(crate::api::ApiError),
    /// The PDF could not be made.
    Pdf(crate::pdf::PdfError),
    /// The message would pass [`MAX_MESSAGE_BYTES`]: its size, in whole MB.
    TooLarge {
        /// The message's size, rounded up.
        mb: usize,
    },
    /// The clerk's template cannot be used.
    Template(TemplateError),
}

impl NotMade {
    /// Why, in the clerk's words, when it is not the customer's own case (no address,
    /// nothing owed): those are said with the customer's name by whoever runs the mail.
    pub fn why_words(&self) -> String {
        match self {
            NotMade::Listing(e) => crate::i18n::error_text(e),
            NotMade::Pdf(e) => e.words(),
            NotMade::TooLarge { mb } => crate::tr!(
                "mail-too-large",
                mb = *mb,
                max = MAX_MESSAGE_BYTES / (1024 * 1024)
            ),
            NotMade::NoAddress | NotMade::NothingOwed => String::new(),
            NotMade::Template(t) => crate::i18n::template_problem(t),
        }
    }

    /// A worker that made the document ended without an answer (it panicked: a bug).
    pub fn worker_lost(e: tokio::task::JoinError) -> NotMade {
        NotMade::Pdf(crate::pdf::PdfError::Render(e.to_string()))
    }
}

/// The largest message sent, as it goes over the wire (attachments in base64): what
/// most mail servers take, checked before the message is built.
pub const MAX_MESSAGE_BYTES: usize = 25 * 1024 * 1024;

/// `d`, unless its message would pass [`MAX_MESSAGE_BYTES`] (attachments grow by a third
/// in base64): then not made, said with its size.
fn within_size(d: Draft) -> Result<Draft, NotMade> {
    let attached: usize = d.attachments.iter().map(|a| a.bytes.len()).sum();
    let size = d.texts.subject.len() + d.texts.body.len() + attached.div_ceil(3) * 4;
    if size > MAX_MESSAGE_BYTES {
        return Err(NotMade::TooLarge {
            mb: size.div_ceil(1024 * 1024),
        });
    }
    Ok(d)
}

/// Whether `known` is a person, as its RUT says (without one: a company, written to
/// as its people).
fn is_person(known: &Customer) -> bool {
    known
        .rut
        .as_deref()
        .and_then(|r| crate::rut::Rut::parse(r).ok())
        .is_some_and(|r| r.is_person())
}

/// The customer's addresses the directory has, checked again.
pub fn addresses(known: &Customer) -> Vec<lettre::Address> {
    known
        .emails
        .iter()
        .filter_map(|e| crate::address::parse_address(e))
        .collect()
}

impl Desk {
    /// The sender's part of a template's values.
    fn fill(&self) -> Fill {
        let s = &self.sender;
        // Where a reply goes is where the customer is told to write.
        let email = self.reply_to.as_deref().unwrap_or(&s.email);
        let mut contact: Vec<&str> = [email, s.phone.as_str()]
            .into_iter()
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .collect();
        if email.trim().is_empty() {
            contact.insert(0, &self.reply_address);
        }
        Fill {
            organization: s.organization.trim().to_string(),
            contact: contact.join(" · "),
            ..Fill::default()
        }
    }

    /// The document as `known`'s: the language, the sender, the customer's name.
    fn document<'a>(&'a self, known: &'a Customer, as_of: NaiveDate) -> crate::pdf::Statement<'a> {
        crate::pdf::Statement {
            lang: self.lang,
            sender: &self.sender,
            customer: &known.id,
            name: known.name.as_deref(),
            rut: known.rut.as_deref(),
            as_of,
            // The line in pesos when the clerk chose it for these statements.
            uf: self.uf.as_ref(),
        }
    }

    /// [`Desk::statement`] of customer `known` from its invoices as the service lists
    /// them now, made off the async threads; a customer without an address is not listed.
    pub async fn statement_listed(
        &self,
        client: &crate::api::Client,
        known: Customer,
        as_of: NaiveDate,
        all: bool,
        reminders: bool,
    ) -> Result<Draft, NotMade> {
        if addresses(&known).is_empty() {
            return Err(NotMade::NoAddress);
        }
        let keep = crate::receivables::Keep::of(all);
        let listed = crate::receivables::listed(client, &known.id, as_of, keep, |_| true)
            .await
            .map_err(NotMade::Listing)?;
        let desk = self.clone();
        tokio::task::spawn_blocking(move || desk.statement(&known, listed, reminders))
            .await
            .unwrap_or_else(|e| Err(NotMade::worker_lost(e)))
    }

    /// The statement (or, with `reminders`, the reminder its oldest overdue invoice
    /// calls for) of customer `known` of the invoices `listed`, with its PDF (and the
    /// workbook of a statement too long to print whole).
    pub fn statement(
        &self,
        known: &Customer,
        listed: crate::receivables::Listing,
        reminders: bool,
    ) -> Result<Draft, NotMade> {
        let to = addresses(known);
        if to.is_empty() {
            return Err(NotMade::NoAddress);
        }
        let as_of = listed.as_of();
        let made = crate::pdf::listed_statement_pdf(&self.document(known, as_of), listed)
            .map_err(NotMade::Pdf)?;
        let owed = owed_text(&made);
        if owed.is_empty() {
            return Err(NotMade::NothingOwed);
        }
        let kind = if reminders {
            made.plan
                .oldest_overdue
                .and_then(|d| Kind::reminder_for(i64::from(d)))
                .ok_or(NotMade::NothingOwed)?
        } else {
            Kind::Statement
        };
        let fill = Fill {
            customer: known.name.clone().unwrap_or_else(|| known.id.clone()),
            person: is_person(known),
            date: crate::i18n::date_in(self.lang, &as_of.to_string()),
            owed,
            days: made
                .plan
                .oldest_overdue
                .map(|d| d.to_string())
                .unwrap_or_default(),
            ..self.fill()
        };
        within_size(Draft {
            again_to: None,
            kind,
            customer: known.id.clone(),
            document: as_of.format("%Y-%m").to_string(),
            to,
            texts: texts(kind, self.lang, &fill, self.templates.as_deref())
                .map_err(NotMade::Template)?,
            attachments: {
                let name =
                    crate::pdf::file_name(self.lang, &known.id, known.name.as_deref(), as_of);
                let book = made.workbook.map(|bytes| Attachment {
                    name: crate::pdf::workbook_name(&name),
                    bytes,
                });
                std::iter::once(Attachment {
                    name,
                    bytes: made.pdf,
                })
                .chain(book)
                .collect()
            },
        })
    }

    /// Invoice `inv` of customer `known`, printed on `as_of`.
    pub fn invoice(
        &self,
        known: &Customer,
        inv: &Invoice,
        as_of: NaiveDate,
    ) -> Result<Draft, NotMade> {
        let to = addresses(known);
        if to.is_empty() {
            return Err(NotMade::NoAddress);
        }
        let made =
            crate::pdf::invoice_pdf(&self.document(known, as_of), inv).map_err(NotMade::Pdf)?;
        let fill = Fill {
            customer: known.name.clone().unwrap_or_else(|| known.id.clone()),
            person: is_person(known),
            // The customer knows it by its reference (their order, the ERP's number);
            // the service's id only when it has none.
            invoice: inv
                .invoice_external_id
                .clone()
                .filter(|r| !r.trim().is_empty())
                .unwrap_or_else(|| inv.id.clone()),
            amount: inv.amount_display(),
            due: inv
                .due_date
                .as_deref()
                .map(|d| crate::i18n::date_in(self.lang, d))
                .unwrap_or_default(),
            date: crate::i18n::date_in(self.lang, &as_of.to_string()),
            ..self.fill()
        };
        within_size(Draft {
            again_to: None,
            kind: Kind::Invoice,
            customer: known.id.clone(),
            document: inv.id.clone(),
            to,
            texts: texts(Kind::Invoice, self.lang, &fill, self.templates.as_deref())
                .map_err(NotMade::Template)?,
            attachments: vec![Attachment {
                name: crate::pdf::invoice_file_name(self.lang, &inv.id),
                bytes: made.pdf,
            }],
        })
    }
}

/// What a statement says is owed, pesos first (what a Chilean reads first): "$1.234.567
/// · UF 12,3456" (empty: nothing).
fn owed_text(made: &crate::pdf::Made) -> String {
    let mut owed: Vec<(&String, rust_decimal::Decimal)> = made
        .plan
        .owed
        .iter()
        .filter_map(|(code, t)| t.value().filter(|v| !v.is_zero()).map(|v| (code, v)))
        .collect();
    owed.sort_by_key(|(code, _)| {
        (
            code.as_str() != "CLP",
            code.as_str() != "CLF",
            code.to_string(),
        )
    });
    owed.iter()
        .map(|(code, v)| crate::api::money::format_amount(*v, Some(code)))
        .collect::<Vec<_>>()
        .join(" · ")
}
