//! The one table of the invoice fields the app knows by name. Decoding (`decode.rs`),
//! `Invoice::fields`, `Invoice::to_json` and the CSV columns all follow it.
//!
//! To add a field: a row in the `known_fields!` table below and a typed member of
//! `Invoice` (its type says how it is read and stored; see `Slot`).

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

/// Position of the first optional CSV column.
pub const FIRST_OPTIONAL_COLUMN: u8 = 9;

/// Writes the table, its indices, the name lookup and the typed access from one list,
/// so that adding a field is a row here and a member of `Invoice` (nothing else).
/// A row: its index's name, its name on the wire, its [`Shape`], its CSV column, and
/// `=> member` (the `Invoice` member that keeps it) or `=> member, alias` (read into
/// another field's member, never listed on its own).
macro_rules! known_fields {
    ($($at:ident $name:literal $shape:ident $csv:expr => $member:ident $(, $alias:ident)?;)*) => {
        /// The known fields, in the order `fields()` and `to_json()` list them. The CSV's
        /// `status` column (position 5) is derived from several fields (see
        /// `Invoice::status`).
        pub const KNOWN_FIELDS: [KnownField; [$($name),*].len()] = [
            $(KnownField { name: $name, shape: Shape::$shape, csv: $csv },)*
        ];

        /// The indices of the known fields in [`KNOWN_FIELDS`]: `known`, `set_known` and
        /// the decoder dispatch on these numbers rather than comparing names, field by
        /// field, row by row.
        pub(super) mod at {
            #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
            enum Index { $($at,)* }
            $(pub const $at: usize = Index::$at as usize;)*
        }

        /// The index of a known field's name.
        pub fn known_index(name: &str) -> Option<usize> {
            // A `match` on the text compiles to a test of its length first: most names
            // are settled by one comparison, where a scan of the table would make up to
            // thirteen.
            Some(match name {
                $($name => at::$at,)*
                _ => return None,
            })
        }

        impl Invoice {
            /// The value of the known field `KNOWN_FIELDS[i]`, if the invoice has it (an
            /// alias has none of its own).
            pub fn known(&self, i: usize) -> Option<Known<'_>> {
                match i {
                    $(at::$at => known_fields!(@get self $member $($alias)?),)*
                    _ => None,
                }
            }

            /// Where the text of the known field `KNOWN_FIELDS[i]` is kept, for the fields
            /// that are optional text (identifiers included; not the required `id`).
            pub(super) fn text_slot(&mut self, i: usize) -> Option<&mut Option<String>> {
                match i {
                    $(at::$at => known_fields!(@text self $member),)*
                    _ => None,
                }
            }

            /// Stores a decoded value of the known field `KNOWN_FIELDS[i]`; `None` clears
            /// it.
            pub(super) fn set_known(&mut self, i: usize, v: Option<Decoded>) {
                match i {
                    $(at::$at => known_fields!(@set self v $member),)*
                    _ => {}
                }
            }
        }
    };
    (@get $s:ident $member:ident alias) => { None };
    // The amount is kept in two members: the number, or the text of one not usable.
    (@get $s:ident amount) => {
        match ($s.amount, &$s.amount_unreadable) {
            (Some(a), _) => Some(Known::Amount(a)),
            (None, raw) => raw.as_deref().map(Known::Unreadable),
        }
    };
    (@get $s:ident $member:ident) => { Slot::get(&$s.$member) };
    (@text $s:ident amount) => { None };
    (@text $s:ident $member:ident) => { Slot::text_slot(&mut $s.$member) };
    (@set $s:ident $v:ident amount) => {
        ($s.amount, $s.amount_unreadable) = match $v {
            Some(Decoded::Amount(Ok(a))) => (Some(a), None),
            Some(Decoded::Amount(Err(raw))) => (None, Some(raw)),
            _ => (None, None),
        }
    };
    (@set $s:ident $v:ident $member:ident) => { Slot::set(&mut $s.$member, $v) };
}

known_fields! {
    ID "id" Id Some(("id", 0)) => id;
    CUSTOMER "customer" Ident Some(("customer", 1)) => customer;
    // Read as the customer when `customer` is absent (some services name it so).
    CUSTOMER_ID "customer_id" Ident None => customer, alias;
    PRODUCT_ID "product_id" Ident Some(("product_id", 9)) => product_id;
    DUE_DATE "due_date" Text Some(("due_date", 2)) => due_date;
    AMOUNT "amount" Amount Some(("amount", 3)) => amount;
    CURRENCY_CODE "currency_code" Text Some(("currency_code", 4)) => currency_code;
    IS_PAID "is_paid" Flag Some(("is_paid", 6)) => is_paid;
    IS_VOID "is_void" Flag Some(("is_void", 7)) => is_void;
    STATUS "status" Text Some(("service_status", 12)) => status_text;
    LINK_PAYMENT "link_payment" Text Some(("link_payment", 10)) => link_payment;
    INVOICE_EXTERNAL_ID "invoice_external_id" Ident Some(("invoice_external_id", 8)) => invoice_external_id;
    METADATA "metadata" Json Some(("metadata", 11)) => metadata;
}

/// How a member of `Invoice` keeps a known field's value, by its type: the table above
/// names the member, its type says how it is read and stored.
trait Slot {
    fn get(&self) -> Option<Known<'_>>;
    fn set(&mut self, v: Option<Decoded>);
    fn text_slot(&mut self) -> Option<&mut Option<String>> {
        None
    }
}

fn decoded_text(v: Option<Decoded>) -> Option<String> {
    match v {
        Some(Decoded::Text(s)) => Some(s),
        _ => None,
    }
}

/// The required id.
impl Slot for String {
    fn get(&self) -> Option<Known<'_>> {
        Some(Known::Text(self))
    }
    fn set(&mut self, v: Option<Decoded>) {
        *self = decoded_text(v).unwrap_or_default();
    }
}

impl Slot for Option<String> {
    fn get(&self) -> Option<Known<'_>> {
        self.as_deref().map(Known::Text)
    }
    fn set(&mut self, v: Option<Decoded>) {
        *self = decoded_text(v);
    }
    fn text_slot(&mut self) -> Option<&mut Option<String>> {
        Some(self)
    }
}

impl Slot for Option<bool> {
    fn get(&self) -> Option<Known<'_>> {
        self.map(Known::Flag)
    }
    fn set(&mut self, v: Option<Decoded>) {
        *self = match v {
            Some(Decoded::Flag(b)) => Some(b),
            _ => None,
        };
    }
}

impl Slot for Option<Value> {
    fn get(&self) -> Option<Known<'_>> {
        self.as_ref().map(Known::Json)
    }
    fn set(&mut self, v: Option<Decoded>) {
        *self = match v {
            Some(Decoded::Json(j)) => Some(j),
            _ => None,
        };
    }
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
            let mut inv = Invoice::default();
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
