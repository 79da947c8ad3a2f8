//! The invoice as we send it (strict: this file) and as we receive it (tolerant:
//! `invoice.rs`, decoded by `decode.rs` along the table of known fields in `fields.rs`),
//! and the pages of a listing (`page.rs`).

mod decode;
mod fields;
mod invoice;
mod page;

pub use fields::{FIRST_OPTIONAL_COLUMN, KNOWN_FIELDS, Known, KnownField, Shape};
pub use invoice::{Invoice, InvoiceStatus, Other, safe_payment_link, value_text};
pub use page::{NextPage, Page, Paging, page_text};

use super::error::{ApiError, ErrorKind, InputError};
use super::money::{self, Currency};
use rust_decimal::Decimal;
use serde_json::{Map, Value};

fn decode_error(what: &str) -> ApiError {
    ApiError::new(ErrorKind::Decode).with_cause(what)
}

/// Which currency a new invoice is issued in.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum CurrencyChoice {
    /// Leave `currency_code` out: the service applies the account's currency.
    #[default]
    AccountDefault,
    /// Send `currency_code` with this value.
    Code(Currency),
}

impl CurrencyChoice {
    /// The explicit currency, if one was chosen.
    pub fn currency(self) -> Option<Currency> {
        match self {
            CurrencyChoice::AccountDefault => None,
            CurrencyChoice::Code(c) => Some(c),
        }
    }
}

impl serde::Serialize for Currency {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.code())
    }
}

impl<'de> serde::Deserialize<'de> for Currency {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Currency::from_code(&s)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown currency {s}")))
    }
}

/// Fields a caller may not set through `extra`, because they have their own place.
const RESERVED: [&str; 7] = [
    "amount",
    "currency_code",
    "customer",
    "product_id",
    "due_date",
    "invoice_external_id",
    "metadata",
];

/// An invoice to create.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NewInvoice {
    /// Customer id (`cus_…`).
    pub customer: String,
    /// The amount, in the invoice's currency.
    pub amount: Decimal,
    /// Explicit currency or the account's.
    pub currency: CurrencyChoice,
    /// Product id.
    pub product_id: Option<String>,
    /// Due date, `YYYY-MM-DD`.
    pub due_date: Option<String>,
    /// The caller's own reference: lets a retry be recognised.
    pub invoice_external_id: Option<String>,
    /// Free-form metadata object.
    pub metadata: Option<Map<String, Value>>,
    /// Further fields, sent as they are.
    pub extra: Map<String, Value>,
}

/// The most characters a reference, customer, product or date sent may have.
pub const MAX_TEXT: usize = 255;

/// The most bytes the extra fields and metadata of one invoice may take, as JSON.
pub const MAX_EXTRA_BYTES: usize = 64 * 1024;

impl NewInvoice {
    /// Checks the invoice and builds the exact JSON body of `POST /invoices`.
    /// "Account currency" leaves `currency_code` out entirely (not null).
    pub fn to_json(&self) -> Result<Value, ApiError> {
        let customer = self.customer.trim();
        if customer.is_empty() {
            return Err(ApiError::invalid(InputError::NoCustomer));
        }
        for (field, text) in [
            ("customer", Some(customer)),
            ("product_id", self.product_id.as_deref()),
            ("invoice_external_id", self.invoice_external_id.as_deref()),
            ("due_date", self.due_date.as_deref()),
        ] {
            if text.is_some_and(|t| t.chars().count() > MAX_TEXT) {
                return Err(ApiError::invalid(InputError::TooLong {
                    field: field.to_string(),
                    max: MAX_TEXT,
                }));
            }
        }
        let extra_size = self
            .metadata
            .as_ref()
            .map_or(0, |m| Value::Object(m.clone()).to_string().len())
            + self
                .extra
                .iter()
                .map(|(k, v)| k.len() + v.to_string().len())
                .sum::<usize>();
        if extra_size > MAX_EXTRA_BYTES {
            return Err(ApiError::invalid(InputError::ExtraTooLarge {
                max: MAX_EXTRA_BYTES,
            }));
        }
        if self.amount <= Decimal::ZERO {
            return Err(ApiError::invalid(InputError::AmountNotPositive));
        }
        if let Some(c) = self.currency.currency() {
            let scale = self.amount.normalize().scale();
            if scale > c.minor_units() {
                return Err(ApiError::invalid(InputError::TooManyDecimals {
                    currency: c.code().to_string(),
                    max: c.minor_units(),
                }));
            }
        }
        if let Some(due) = &self.due_date
            && !due.trim().is_empty()
            && chrono::NaiveDate::parse_from_str(due.trim(), "%Y-%m-%d").is_err()
        {
            return Err(ApiError::invalid(InputError::BadDueDate(due.clone())));
        }
        for key in self.extra.keys() {
            if RESERVED.contains(&key.as_str()) {
                return Err(ApiError::invalid(InputError::ReservedField(key.clone())));
            }
            if key.trim().is_empty() {
                return Err(ApiError::invalid(InputError::UnnamedField));
            }
        }
        let mut body = Map::new();
        body.insert("customer".into(), Value::String(customer.to_string()));
        body.insert(
            "amount".into(),
            Value::Number(money::to_json_number(self.amount)),
        );
        if let Some(c) = self.currency.currency() {
            body.insert("currency_code".into(), Value::String(c.code().to_string()));
        }
        let put = |body: &mut Map<String, Value>, k: &str, v: &Option<String>| {
            if let Some(v) = v.as_deref().map(str::trim).filter(|v| !v.is_empty()) {
                body.insert(k.to_string(), Value::String(v.to_string()));
            }
        };
        put(&mut body, "product_id", &self.product_id);
        put(&mut body, "due_date", &self.due_date);
        put(&mut body, "invoice_external_id", &self.invoice_external_id);
        if let Some(m) = &self.metadata {
            body.insert("metadata".into(), Value::Object(m.clone()));
        }
        for (k, v) in &self.extra {
            body.insert(k.clone(), v.clone());
        }
        Ok(Value::Object(body))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::str::FromStr;

    #[test]
    fn account_currency_omits_the_field() {
        let inv = NewInvoice {
            customer: "cus_1".into(),
            amount: Decimal::from(1000),
            ..Default::default()
        };
        let body = inv.to_json().unwrap();
        assert!(body.get("currency_code").is_none());
        let inv = NewInvoice {
            currency: CurrencyChoice::Code(Currency::CLF),
            amount: Decimal::from_str("12.3456").unwrap(),
            ..inv
        };
        assert_eq!(
            serde_json::to_string(&inv.to_json().unwrap()).unwrap(),
            r#"{"customer":"cus_1","amount":12.3456,"currency_code":"CLF"}"#
        );
    }

    #[test]
    fn refuses_bad_new_invoices() {
        let ok = NewInvoice {
            customer: "cus_1".into(),
            amount: Decimal::ONE,
            ..Default::default()
        };
        assert!(
            NewInvoice {
                customer: " ".into(),
                ..ok.clone()
            }
            .to_json()
            .is_err()
        );
        assert!(
            NewInvoice {
                amount: Decimal::ZERO,
                ..ok.clone()
            }
            .to_json()
            .is_err()
        );
        assert!(
            NewInvoice {
                amount: Decimal::from_str("1.5").unwrap(),
                currency: CurrencyChoice::Code(Currency::CLP),
                ..ok.clone()
            }
            .to_json()
            .is_err()
        );
        assert!(
            NewInvoice {
                due_date: Some("2026-13-01".into()),
                ..ok.clone()
            }
            .to_json()
            .is_err()
        );
        let mut extra = Map::new();
        extra.insert("amount".into(), json!(5));
        assert!(NewInvoice { extra, ..ok }.to_json().is_err());
    }

    #[test]
    fn decodes_tolerantly() {
        let inv = Invoice::from_value(json!({
            "id": 42, "customer": "cus_1", "amount": "1000", "is_paid": false,
            "is_void": false, "surprise": {"a": 1}, "currency_code": "CLP"
        }))
        .unwrap();
        assert_eq!(inv.id, "42");
        assert_eq!(inv.amount, Some(Decimal::from(1000)));
        assert_eq!(inv.status(), InvoiceStatus::Open);
        assert_eq!(inv.extra.get("surprise"), Some(&json!({"a": 1})));
        assert!(!inv.currency_missing());
        let inv =
            Invoice::from_value(json!({"id": "in_1", "amount": [1], "status": "PAID"})).unwrap();
        assert!(inv.currency_missing());
        assert_eq!(inv.amount, None);
        assert_eq!(inv.amount_unreadable.as_deref(), Some("[1]"));
        assert_eq!(inv.status(), InvoiceStatus::Paid);
        assert!(Invoice::from_value(json!({"amount": 1})).is_err());
    }

    #[test]
    fn decodes_pages() {
        let p = Page::from_value(json!([{"id": "in_1"}])).unwrap();
        assert_eq!((p.items.len(), p.next), (1, None));
        let p = Page::from_value(json!({"items": [], "next_cursor": "abc"})).unwrap();
        assert_eq!(p.next, Some(NextPage::Cursor("abc".into())));
        let p = Page::from_value(json!({"data": [], "next_cursor": null})).unwrap();
        assert_eq!(p.next, None);
        let p = Page::from_value(json!({"results": [], "next": "https://x/y?page=2"})).unwrap();
        assert_eq!(p.next, Some(NextPage::Url("https://x/y?page=2".into())));
        let p = Page::from_value(json!({"results": [], "page": 1, "total_pages": 3})).unwrap();
        assert_eq!(p.next, Some(NextPage::Number(2)));
        let p = Page::from_value(json!({"results": [], "page": 3, "total_pages": 3})).unwrap();
        assert_eq!(p.next, None);
        let p =
            Page::from_value(json!({"items": [], "next_cursor": "x", "has_more": false})).unwrap();
        assert_eq!(p.next, None);
        assert!(Page::from_value(json!({"foo": []})).is_err());
        // From the bytes: trailing text is refused, a bad byte is read lossily.
        assert!(Page::from_slice(b"[] x").is_err());
        assert!(Page::from_slice(b"{\"items\": []} {}").is_err());
        let p = Page::from_slice(b"[{\"id\": \"in_\xff\"}] ").unwrap();
        assert_eq!(p.items[0].id, "in_\u{fffd}");
    }
}
