//! The one table of the invoice fields the app knows by name. Decoding (`decode.rs`),
//! `Invoice::fields`, `Invoice::to_json` and the CSV columns all follow it.
//!
//! To add a field: a row in [`KNOWN_FIELDS`], its index in [`at`], a typed member of
//! `Invoice`, and one arm each in [`known_index`], [`Invoice::known`] and
//! [`Invoice::text_slot`] (text) or [`Invoice::set_known`] (any other shape) below.

use super::invoice::{Invoice, compact};
use crate::api::money;
use rust_decimal::Decimal;
use serde_json::Value;

/// How a known field is read from what the service sends. A value whose shape does not
/// fit is kept in `extra` under its name instead of failing the invoice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// The invoice's id: text or a number (kept as its text); required.
    Id,
    /// An identifier: text or a number kept as its text.
    Ident,
    /// Text.
    Text,
    /// A boolean (also "true"/"false", 1/0).
    Flag,
    /// An exact amount (a number or its text); an unreadable one is kept as sent.
    Amount,
    /// Any JSON (an object, for metadata).
    Json,
}

/// One known field.
#[derive(Clone, Copy, Debug)]
pub struct KnownField {
    /// Its name on the wire.
    pub name: &'static str,
    /// How it is read.
    pub shape: Shape,
    /// Its CSV column and position: fixed columns (0–8) are always written, optional ones
    /// (9–12) when any row has the field. `None`: no column of its own (an alias).
    pub csv: Option<(&'static str, u8)>,
}

const fn field(name: &'static str, shape: Shape, csv: Option<(&'static str, u8)>) -> KnownField {
    KnownField { name, shape, csv }
}

/// Position of the first optional CSV column.
pub const FIRST_OPTIONAL_COLUMN: u8 = 9;

/// The known fields, in the order `fields()` and `to_json()` list them. The CSV's
/// `status` column (position 5) is derived from several fields (see `Invoice::status`).
pub const KNOWN_FIELDS: [KnownField; 13] = [
    field("id", Shape::Id, Some(("id", 0))),
    field("customer", Shape::Ident, Some(("customer", 1))),
    // Read as the customer when `customer` is absent (some services name it so).
    field("customer_id", Shape::Ident, None),
    field("product_id", Shape::Ident, Some(("product_id", 9))),
    field("due_date", Shape::Text, Some(("due_date", 2))),
    field("amount", Shape::Amount, Some(("amount", 3))),
    field("currency_code", Shape::Text, Some(("currency_code", 4))),
    field("is_paid", Shape::Flag, Some(("is_paid", 6))),
    field("is_void", Shape::Flag, Some(("is_void", 7))),
    field("status", Shape::Text, Some(("service_status", 12))),
    field("link_payment", Shape::Text, Some(("link_payment", 10))),
    field(
        "invoice_external_id",
        Shape::Ident,
        Some(("invoice_external_id", 8)),
    ),
    field("metadata", Shape::Json, Some(("metadata", 11))),
];

/// The indices of the known fields in [`KNOWN_FIELDS`]: `known`, `set_known` and the
/// decoder dispatch on these numbers rather than comparing names, field by field, row
/// by row (a test checks that they match the table).
pub(super) mod at {
    pub const ID: usize = 0;
    pub const CUSTOMER: usize = 1;
    pub const CUSTOMER_ID: usize = 2;
    pub const PRODUCT_ID: usize = 3;
    pub const DUE_DATE: usize = 4;
    pub const AMOUNT: usize = 5;
    pub const CURRENCY_CODE: usize = 6;
    pub const IS_PAID: usize = 7;
    pub const IS_VOID: usize = 8;
    pub const STATUS: usize = 9;
    pub const LINK_PAYMENT: usize = 10;
    pub const INVOICE_EXTERNAL_ID: usize = 11;
    pub const METADATA: usize = 12;
}

/// The index of a known field's name.
pub fn known_index(name: &str) -> Option<usize> {
    // A `match` on the text compiles to a test of its length first: most names are
    // settled by one comparison, where a scan of the table would make up to thirteen.
    Some(match name {
        "id" => at::ID,
        "customer" => at::CUSTOMER,
        "customer_id" => at::CUSTOMER_ID,
        "product_id" => at::PRODUCT_ID,
        "due_date" => at::DUE_DATE,
        "amount" => at::AMOUNT,
        "currency_code" => at::CURRENCY_CODE,
        "is_paid" => at::IS_PAID,
        "is_void" => at::IS_VOID,
        "status" => at::STATUS,
        "link_payment" => at::LINK_PAYMENT,
        "invoice_external_id" => at::INVOICE_EXTERNAL_ID,
        "metadata" => at::METADATA,
        _ => return None,
    })
}

/// A known field's value, borrowed from an invoice.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Known<'a> {
    /// Text (identifiers included).
    Text(&'a str),
    /// A boolean.
    Flag(bool),
    /// An exact amount.
    Amount(Decimal),
    /// An amount that was sent but is not a usable number, as sent (compact JSON).
    Unreadable(&'a str),
    /// Any JSON.
    Json(&'a Value),
}

impl Known<'_> {
    /// As JSON again (amounts exact).
    pub fn to_json(self) -> Value {
        match self {
            Known::Text(s) | Known::Unreadable(s) => Value::String(s.to_string()),
            Known::Flag(b) => Value::Bool(b),
            Known::Amount(a) => Value::Number(money::to_json_number(a)),
            Known::Json(v) => v.clone(),
        }
    }

    /// As text: amounts in plain digits, JSON compact.
    pub fn text(self) -> String {
        match self {
            Known::Text(s) | Known::Unreadable(s) => s.to_string(),
            Known::Flag(b) => b.to_string(),
            Known::Amount(a) => a.to_string(),
            Known::Json(v) => compact(v),
        }
    }
}

/// A decoded value for [`Invoice::set_known`].
pub enum Decoded {
    /// Text.
    Text(String),
    /// A boolean.
    Flag(bool),
    /// An exact amount, or the text of one that is not usable.
    Amount(Result<Decimal, String>),
    /// Any JSON.
    Json(Value),
}

impl Invoice {
    /// The value of the known field `KNOWN_FIELDS[i]`, if the invoice has it.
    pub fn known(&self, i: usize) -> Option<Known<'_>> {
        fn text(v: &Option<String>) -> Option<Known<'_>> {
            v.as_deref().map(Known::Text)
        }
        match i {
            at::ID => Some(Known::Text(&self.id)),
            at::CUSTOMER => text(&self.customer),
            at::PRODUCT_ID => text(&self.product_id),
            at::DUE_DATE => text(&self.due_date),
            at::AMOUNT => match (self.amount, &self.amount_unreadable) {
                (Some(a), _) => Some(Known::Amount(a)),
                (None, raw) => raw.as_deref().map(Known::Unreadable),
            },
            at::CURRENCY_CODE => text(&self.currency_code),
            at::IS_PAID => self.is_paid.map(Known::Flag),
            at::IS_VOID => self.is_void.map(Known::Flag),
            at::STATUS => text(&self.status_text),
            at::LINK_PAYMENT => text(&self.link_payment),
            at::INVOICE_EXTERNAL_ID => text(&self.invoice_external_id),
            at::METADATA => self.metadata.as_ref().map(Known::Json),
            // customer_id is an alias: read into `customer`.
            _ => None,
        }
    }

    /// Where the text of the known field `KNOWN_FIELDS[i]` is kept, for the fields that
    /// are optional text (identifiers included; not the required `id`).
    pub(super) fn text_slot(&mut self, i: usize) -> Option<&mut Option<String>> {
        Some(match i {
            at::CUSTOMER | at::CUSTOMER_ID => &mut self.customer,
            at::PRODUCT_ID => &mut self.product_id,
            at::DUE_DATE => &mut self.due_date,
            at::CURRENCY_CODE => &mut self.currency_code,
            at::STATUS => &mut self.status_text,
            at::LINK_PAYMENT => &mut self.link_payment,
            at::INVOICE_EXTERNAL_ID => &mut self.invoice_external_id,
            _ => return None,
        })
    }

    /// Stores a decoded value of the known field `KNOWN_FIELDS[i]`; `None` clears it.
    pub(super) fn set_known(&mut self, i: usize, v: Option<Decoded>) {
        let text = |v: Option<Decoded>| match v {
            Some(Decoded::Text(s)) => Some(s),
            _ => None,
        };
        let flag = |v: Option<Decoded>| match v {
            Some(Decoded::Flag(b)) => Some(b),
            _ => None,
        };
        if let Some(slot) = self.text_slot(i) {
            *slot = text(v);
            return;
        }
        match (i, v) {
            (at::ID, v) => self.id = text(v).unwrap_or_default(),
            (at::AMOUNT, v) => {
                (self.amount, self.amount_unreadable) = match v {
                    Some(Decoded::Amount(Ok(a))) => (Some(a), None),
                    Some(Decoded::Amount(Err(raw))) => (None, Some(raw)),
                    _ => (None, None),
                };
            }
            (at::IS_PAID, v) => self.is_paid = flag(v),
            (at::IS_VOID, v) => self.is_void = flag(v),
            (at::METADATA, v) => {
                self.metadata = match v {
                    Some(Decoded::Json(j)) => Some(j),
                    _ => None,
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_known_field_is_stored_and_read_back() {
        let csv_positions: std::collections::BTreeSet<u8> = KNOWN_FIELDS
            .iter()
            .filter_map(|f| f.csv.map(|c| c.1))
            .collect();
        // 0..=12 but 5, the derived status.
        assert_eq!(csv_positions.len(), 12);
        assert!(!csv_positions.contains(&5));
        for (i, f) in KNOWN_FIELDS.iter().enumerate() {
            let mut inv = Invoice::empty();
            let v = match f.shape {
                Shape::Id | Shape::Ident | Shape::Text => Decoded::Text("x".into()),
                Shape::Flag => Decoded::Flag(true),
                Shape::Amount => Decoded::Amount(Ok(Decimal::ONE)),
                Shape::Json => Decoded::Json(serde_json::json!({"a": 1})),
            };
            assert_eq!(known_index(f.name), Some(i), "{} is at {i}", f.name);
            inv.set_known(i, Some(v));
            if f.csv.is_some() {
                assert!(inv.known(i).is_some(), "{} is read back", f.name);
            }
        }
    }
}
