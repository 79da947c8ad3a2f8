//! An invoice as the service sends it: known fields typed (see `fields.rs`), every other
//! field kept as received.

use super::decode_error;
use super::fields::KNOWN_FIELDS;
use crate::api::error::ApiError;
use crate::api::money::{self, Currency};
use rust_decimal::Decimal;
use serde::Deserialize;
use serde_json::{Map, Value};

/// A value of a field not in [`KNOWN_FIELDS`]: text, or any other JSON.
#[derive(Clone, Copy, Debug)]
pub enum Other<'a> {
    /// A string.
    Text(&'a str),
    /// Any other JSON.
    Json(&'a Value),
}

/// Where an invoice stands, derived from `is_void`, `is_paid` and `status`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum InvoiceStatus {
    /// Issued, not paid, not void.
    Open,
    /// Paid.
    Paid,
    /// Voided (treated as deleted by the service).
    Void,
    /// The service did not say.
    Unknown,
}

impl InvoiceStatus {
    /// A short lowercase word for tables and CSV.
    pub fn as_str(self) -> &'static str {
        match self {
            InvoiceStatus::Open => "open",
            InvoiceStatus::Paid => "paid",
            InvoiceStatus::Void => "void",
            InvoiceStatus::Unknown => "unknown",
        }
    }
}

/// An invoice as the service returned it. Known fields are typed; every other field is
/// kept in `extra`, in the order received.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Invoice {
    /// Identifier (`in_…`); a numeric id is kept as its text.
    pub id: String,
    /// Customer id.
    pub customer: Option<String>,
    /// Product id.
    pub product_id: Option<String>,
    /// Due date as sent (`YYYY-MM-DD` expected).
    pub due_date: Option<String>,
    /// The amount, exactly; `None` when absent or not a number.
    pub amount: Option<Decimal>,
    /// The amount's text when it was present but not a number.
    pub amount_unreadable: Option<String>,
    /// `currency_code` as sent; `None` means the service left it out (it should not).
    pub currency_code: Option<String>,
    /// `is_paid`.
    pub is_paid: Option<bool>,
    /// `is_void`.
    pub is_void: Option<bool>,
    /// A `status` string, when the service sends one.
    pub status_text: Option<String>,
    /// Payment link.
    pub link_payment: Option<String>,
    /// The caller's reference.
    pub invoice_external_id: Option<String>,
    /// Metadata as sent.
    pub metadata: Option<Value>,
    /// Every other field.
    pub extra: Map<String, Value>,
}

impl Invoice {
    /// `created_at` as the service sent it, when it sends one as text.
    pub fn created_at(&self) -> Option<&str> {
        self.extra.get("created_at").and_then(|v| v.as_str())
    }

    /// True when the answer lacked `currency_code`, which the interface says is always
    /// present: the UI marks such invoices.
    pub fn currency_missing(&self) -> bool {
        self.currency_code.is_none()
    }

    /// The currency, if it is one we know.
    pub fn currency(&self) -> Option<Currency> {
        self.currency_code.as_deref().and_then(Currency::from_code)
    }

    /// Open, paid, void or unknown. Void wins over paid.
    pub fn status(&self) -> InvoiceStatus {
        status_of(self.is_paid, self.is_void, self.status_text.as_deref())
    }

    /// The names of the fields not in [`KNOWN_FIELDS`], in the order received.
    pub fn other_names(&self) -> impl Iterator<Item = &str> {
        self.extra.keys().map(String::as_str)
    }

    /// The value of a field not in [`KNOWN_FIELDS`].
    pub fn other(&self, name: &str) -> Option<Other<'_>> {
        self.extra.get(name).map(|v| match v {
            Value::String(s) => Other::Text(s),
            v => Other::Json(v),
        })
    }

    /// The amount formatted es-CL with its currency, or the unreadable text.
    pub fn amount_display(&self) -> String {
        match (self.amount, &self.amount_unreadable) {
            (Some(a), _) => money::format_amount(a, self.currency_code.as_deref()),
            (None, Some(raw)) => format!("{raw} (unreadable)"),
            (None, None) => "—".to_string(),
        }
    }

    /// Decodes one invoice object, tolerating missing, renamed and extra fields.
    pub fn from_value(value: Value) -> Result<Invoice, ApiError> {
        Invoice::deserialize(value).map_err(|e| decode_error(&e.to_string()))
    }

    /// The invoice as JSON again: known fields (amount exact), then the rest as received.
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        for (i, f) in KNOWN_FIELDS.iter().enumerate() {
            if let Some(v) = self.known(i) {
                m.insert(f.name.to_string(), v.to_json());
            }
        }
        for (k, v) in &self.extra {
            m.entry(k.clone()).or_insert_with(|| v.clone());
        }
        Value::Object(m)
    }

    /// Every field as (name, text) in a stable order: known fields first, then the rest.
    /// Nested values are compact JSON.
    pub fn fields(&self) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = KNOWN_FIELDS
            .iter()
            .enumerate()
            .filter_map(|(i, f)| Some((f.name.to_string(), self.known(i)?.text())))
            .collect();
        for (k, v) in &self.extra {
            out.push((k.clone(), value_text(v)));
        }
        out
    }
}

/// Open, paid, void or unknown, from `is_paid`, `is_void` and a `status` text. Void wins
/// over paid.
pub(super) fn status_of(
    is_paid: Option<bool>,
    is_void: Option<bool>,
    status_text: Option<&str>,
) -> InvoiceStatus {
    let text = status_text.map(|s| s.trim().to_ascii_uppercase());
    let text_is = |words: &[&str]| text.as_deref().is_some_and(|t| words.contains(&t));
    if is_void == Some(true) || text_is(&["VOID", "VOIDED", "CANCELLED", "CANCELED"]) {
        InvoiceStatus::Void
    } else if is_paid == Some(true) || text_is(&["PAID"]) {
        InvoiceStatus::Paid
    } else if is_paid.is_some()
        || is_void.is_some()
        || text_is(&["OPEN", "PENDING", "UNPAID", "ISSUED"])
    {
        InvoiceStatus::Open
    } else {
        InvoiceStatus::Unknown
    }
}

/// A string as itself, anything else as compact JSON.
pub fn value_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => compact(other),
    }
}

pub(super) fn compact(v: &Value) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

pub(super) fn id_text(v: Value) -> Option<String> {
    match v {
        Value::String(s) if !s.trim().is_empty() => Some(s),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// A payment link the app offers to open, copy or print: an `https` address with a host
/// and no user name or password in it (`https://bank.cl@evil.example` would read as the
/// bank's), nothing but the address; normalised as a browser would read it.
pub fn safe_payment_link(link: &str) -> Option<url::Url> {
    if link.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return None;
    }
    let url = url::Url::parse(link).ok()?;
    let plain = url.scheme() == "https"
        && url.host_str().is_some_and(|h| !h.is_empty())
        && url.username().is_empty()
        && url.password().is_none();
    plain.then_some(url)
}
