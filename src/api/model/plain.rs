//! An invoice of the usual listing, read straight from the answer's text and borrowed
//! from it: every known field plain (text without escapes, a boolean, a plain amount,
//! a flat object of such text written compactly, null) and at most [`MAX_PLAIN_OTHERS`] other fields of plain text. An export to
//! CSV writes its rows from these, with no owned copy of each field in between (copying
//! into [`Invoice`]s was a third of an export's CPU). What is not plain is never guessed
//! at here: the whole page is then decoded into [`Invoice`]s as before (see
//! `fast::plain_page`). [`PlainInvoice::to_invoice`] is what decoding makes of it; a
//! proptest checks the two agree.

use super::fields::{KNOWN_FIELDS, Known, at};
use super::invoice::{Invoice, InvoiceStatus, status_of};
use rust_decimal::Decimal;
use serde_json::Value;

/// The most other (not known) fields a plain invoice has: more, and its page is decoded.
pub const MAX_PLAIN_OTHERS: usize = 4;

/// One known field's plain value.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) enum Slot<'a> {
    /// Absent or null.
    #[default]
    Absent,
    Text(&'a str),
    Flag(bool),
    Amount(Decimal),
    /// A flat object of text written compactly (`{}` and most metadata): its own compact
    /// JSON.
    Json(&'a str),
}

/// See the module's comment.
#[derive(Clone, Copy, Debug, Default)]
pub struct PlainInvoice<'a> {
    /// Indexed as [`KNOWN_FIELDS`]; `id` is always text.
    pub(super) known: [Slot<'a>; KNOWN_FIELDS.len()],
    /// Other fields, in the order received, each a name and its text.
    pub(super) others: [(&'a str, &'a str); MAX_PLAIN_OTHERS],
    pub(super) other_count: usize,
}

/// What an export reads of an invoice, decoded ([`Invoice`]) or plain
/// ([`PlainInvoice`]): one writer of rows for both.
pub trait InvoiceData {
    /// The value of the known field `KNOWN_FIELDS[i]`, if the invoice has it.
    fn known(&self, i: usize) -> Option<Known<'_>>;
    /// Open, paid, void or unknown.
    fn status(&self) -> InvoiceStatus;
    /// The names of the other fields, in the order received.
    fn other_names(&self) -> impl Iterator<Item = &str>;
    /// Another field's value.
    fn other(&self, name: &str) -> Option<Other<'_>>;
    /// `currency_code` as sent.
    fn currency_code(&self) -> Option<&str> {
        match self.known(at::CURRENCY_CODE) {
            Some(Known::Text(s)) => Some(s),
            _ => None,
        }
    }
}

/// Another field's value: text, or any JSON.
#[derive(Clone, Copy, Debug)]
pub enum Other<'a> {
    /// A string.
    Text(&'a str),
    /// Any other JSON.
    Json(&'a Value),
}

impl PlainInvoice<'_> {
    fn text(&self, i: usize) -> Option<&str> {
        match self.known[i] {
            Slot::Text(s) => Some(s),
            _ => None,
        }
    }

    fn flag(&self, i: usize) -> Option<bool> {
        match self.known[i] {
            Slot::Flag(b) => Some(b),
            _ => None,
        }
    }

    fn others(&self) -> &[(&str, &str)] {
        &self.others[..self.other_count]
    }

    /// The invoice decoding makes of the same text.
    pub fn to_invoice(&self) -> Invoice {
        let text = |i: usize| self.text(i).map(str::to_string);
        let mut inv = Invoice::empty();
        inv.id = text(at::ID).unwrap_or_default();
        inv.customer = text(at::CUSTOMER);
        inv.product_id = text(at::PRODUCT_ID);
        inv.due_date = text(at::DUE_DATE);
        inv.amount = match self.known[at::AMOUNT] {
            Slot::Amount(a) => Some(a),
            _ => None,
        };
        inv.currency_code = text(at::CURRENCY_CODE);
        inv.is_paid = self.flag(at::IS_PAID);
        inv.is_void = self.flag(at::IS_VOID);
        inv.status_text = text(at::STATUS);
        inv.link_payment = text(at::LINK_PAYMENT);
        inv.invoice_external_id = text(at::INVOICE_EXTERNAL_ID);
        inv.metadata = match self.known[at::METADATA] {
            Slot::Json(s) => serde_json::from_str(s).ok(),
            _ => None,
        };
        for (k, v) in self.others() {
            inv.extra
                .insert(k.to_string(), Value::String(v.to_string()));
        }
        inv
    }
}

impl InvoiceData for PlainInvoice<'_> {
    fn known(&self, i: usize) -> Option<Known<'_>> {
        match *self.known.get(i)? {
            Slot::Absent => None,
            Slot::Text(s) => Some(Known::Text(s)),
            Slot::Flag(b) => Some(Known::Flag(b)),
            Slot::Amount(a) => Some(Known::Amount(a)),
            Slot::Json(s) => Some(Known::CompactJson(s)),
        }
    }

    fn status(&self) -> InvoiceStatus {
        status_of(
            self.flag(at::IS_PAID),
            self.flag(at::IS_VOID),
            self.text(at::STATUS),
        )
    }

    fn other_names(&self) -> impl Iterator<Item = &str> {
        self.others().iter().map(|(k, _)| *k)
    }

    fn other(&self, name: &str) -> Option<Other<'_>> {
        self.others()
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| Other::Text(v))
    }
}

impl InvoiceData for Invoice {
    fn known(&self, i: usize) -> Option<Known<'_>> {
        Invoice::known(self, i)
    }

    fn status(&self) -> InvoiceStatus {
        Invoice::status(self)
    }

    fn other_names(&self) -> impl Iterator<Item = &str> {
        self.extra.keys().map(String::as_str)
    }

    fn other(&self, name: &str) -> Option<Other<'_>> {
        self.extra.get(name).map(|v| match v {
            Value::String(s) => Other::Text(s),
            v => Other::Json(v),
        })
    }

    fn currency_code(&self) -> Option<&str> {
        self.currency_code.as_deref()
    }
}
