//! The invoice as we send it (strict) and as we receive it (tolerant).

use super::error::{ApiError, ErrorKind};
use super::money::{self, Currency};
use rust_decimal::Decimal;
use serde_json::{Map, Value};

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

impl NewInvoice {
    /// Checks the invoice and builds the exact JSON body of `POST /invoices`.
    /// "Account currency" leaves `currency_code` out entirely (not null).
    pub fn to_json(&self) -> Result<Value, ApiError> {
        let customer = self.customer.trim();
        if customer.is_empty() {
            return Err(ApiError::invalid("Enter the customer id."));
        }
        if self.amount <= Decimal::ZERO {
            return Err(ApiError::invalid("The amount must be greater than zero."));
        }
        if let Some(c) = self.currency.currency() {
            let scale = self.amount.normalize().scale();
            if scale > c.minor_units() {
                return Err(ApiError::invalid(format!(
                    "{c} amounts can have at most {} decimals.",
                    c.minor_units()
                )));
            }
        }
        if let Some(due) = &self.due_date
            && !due.trim().is_empty()
            && chrono::NaiveDate::parse_from_str(due.trim(), "%Y-%m-%d").is_err()
        {
            return Err(ApiError::invalid(format!(
                "The due date \"{due}\" is not a date of the form YYYY-MM-DD."
            )));
        }
        for key in self.extra.keys() {
            if RESERVED.contains(&key.as_str()) {
                return Err(ApiError::invalid(format!(
                    "The extra field \"{key}\" has its own place in the form; remove it from the extra fields."
                )));
            }
            if key.trim().is_empty() {
                return Err(ApiError::invalid("An extra field has no name."));
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

/// Extra fields and metadata for a new invoice.
pub type ExtraFields = (Map<String, Value>, Option<Map<String, Value>>);

/// Reads `name=value` assignments (blank ones skipped); `metadata.name=value` goes into
/// metadata. Values are text. The error names the assignment at fault.
pub fn parse_assignments<'a>(
    items: impl IntoIterator<Item = &'a str>,
) -> Result<ExtraFields, String> {
    let mut extra = Map::new();
    let mut metadata = Map::new();
    for item in items {
        let item = item.trim();
        if item.is_empty() {
            continue;
        }
        let Some((k, v)) = item.split_once('=') else {
            return Err(format!("\"{item}\": write name=value."));
        };
        let (k, v) = (k.trim(), v.trim());
        if k.is_empty() {
            return Err(format!("\"{item}\": the field has no name."));
        }
        match k.strip_prefix("metadata.") {
            Some(mk) if !mk.is_empty() => {
                if v.chars().count() > 256 {
                    return Err(format!(
                        "\"{k}\": metadata values are limited to 256 characters."
                    ));
                }
                metadata.insert(mk.to_string(), Value::String(v.to_string()));
            }
            _ => {
                extra.insert(k.to_string(), Value::String(v.to_string()));
            }
        }
    }
    Ok((extra, (!metadata.is_empty()).then_some(metadata)))
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
#[derive(Clone, Debug, PartialEq)]
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
        let text = self
            .status_text
            .as_deref()
            .map(|s| s.trim().to_ascii_uppercase());
        let text_is = |words: &[&str]| text.as_deref().is_some_and(|t| words.contains(&t));
        if self.is_void == Some(true) || text_is(&["VOID", "VOIDED", "CANCELLED", "CANCELED"]) {
            InvoiceStatus::Void
        } else if self.is_paid == Some(true) || text_is(&["PAID"]) {
            InvoiceStatus::Paid
        } else if self.is_paid.is_some()
            || self.is_void.is_some()
            || text_is(&["OPEN", "PENDING", "UNPAID", "ISSUED"])
        {
            InvoiceStatus::Open
        } else {
            InvoiceStatus::Unknown
        }
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
        match value {
            Value::Object(map) => Self::from_map(map),
            _ => Err(decode_error("an invoice is not a JSON object")),
        }
    }

    /// As [`Invoice::from_value`], from an object.
    pub fn from_map(mut map: Map<String, Value>) -> Result<Invoice, ApiError> {
        let id = map
            .shift_remove("id")
            .and_then(id_text)
            .ok_or_else(|| decode_error("an invoice has no id"))?;
        let customer = take_id(&mut map, "customer").or_else(|| take_id(&mut map, "customer_id"));
        let product_id = take_id(&mut map, "product_id");
        let due_date = take_text(&mut map, "due_date");
        let (amount, amount_unreadable) = match map.shift_remove("amount") {
            None | Some(Value::Null) => (None, None),
            Some(v) => match money::from_json(&v) {
                Some(a) => (Some(a), None),
                None => (None, Some(compact(&v))),
            },
        };
        let currency_code = take_text(&mut map, "currency_code");
        let is_paid = take_bool(&mut map, "is_paid");
        let is_void = take_bool(&mut map, "is_void");
        let status_text = take_text(&mut map, "status");
        let link_payment = take_text(&mut map, "link_payment");
        let invoice_external_id = take_id(&mut map, "invoice_external_id");
        let metadata = map.shift_remove("metadata").filter(|v| !v.is_null());
        Ok(Invoice {
            id,
            customer,
            product_id,
            due_date,
            amount,
            amount_unreadable,
            currency_code,
            is_paid,
            is_void,
            status_text,
            link_payment,
            invoice_external_id,
            metadata,
            extra: map,
        })
    }

    /// The invoice as JSON again: known fields (amount exact), then the rest as received.
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        m.insert("id".into(), Value::String(self.id.clone()));
        let mut put = |k: &str, v: Option<Value>| {
            if let Some(v) = v {
                m.insert(k.to_string(), v);
            }
        };
        put("customer", self.customer.clone().map(Value::String));
        put("product_id", self.product_id.clone().map(Value::String));
        put("due_date", self.due_date.clone().map(Value::String));
        put(
            "amount",
            self.amount
                .map(|a| Value::Number(money::to_json_number(a)))
                .or_else(|| self.amount_unreadable.clone().map(Value::String)),
        );
        put(
            "currency_code",
            self.currency_code.clone().map(Value::String),
        );
        put("is_paid", self.is_paid.map(Value::Bool));
        put("is_void", self.is_void.map(Value::Bool));
        put("status", self.status_text.clone().map(Value::String));
        put("link_payment", self.link_payment.clone().map(Value::String));
        put(
            "invoice_external_id",
            self.invoice_external_id.clone().map(Value::String),
        );
        put("metadata", self.metadata.clone());
        for (k, v) in &self.extra {
            m.entry(k.clone()).or_insert_with(|| v.clone());
        }
        Value::Object(m)
    }

    /// Every field as (name, text) in a stable order: known fields first, then the rest.
    /// Nested values are compact JSON.
    pub fn fields(&self) -> Vec<(String, String)> {
        let mut out = vec![("id".to_string(), self.id.clone())];
        let mut push = |k: &str, v: Option<String>| {
            if let Some(v) = v {
                out.push((k.to_string(), v));
            }
        };
        push("customer", self.customer.clone());
        push("product_id", self.product_id.clone());
        push("due_date", self.due_date.clone());
        push(
            "amount",
            self.amount
                .map(|a| a.to_string())
                .or_else(|| self.amount_unreadable.clone()),
        );
        push("currency_code", self.currency_code.clone());
        push("is_paid", self.is_paid.map(|b| b.to_string()));
        push("is_void", self.is_void.map(|b| b.to_string()));
        push("status", self.status_text.clone());
        push("link_payment", self.link_payment.clone());
        push("invoice_external_id", self.invoice_external_id.clone());
        push("metadata", self.metadata.as_ref().map(compact));
        for (k, v) in &self.extra {
            out.push((k.clone(), value_text(v)));
        }
        out
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

fn compact(v: &Value) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

fn decode_error(what: &str) -> ApiError {
    ApiError::new(ErrorKind::Decode).with_cause(what)
}

fn id_text(v: Value) -> Option<String> {
    match v {
        Value::String(s) if !s.trim().is_empty() => Some(s),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

fn take_id(map: &mut Map<String, Value>, key: &str) -> Option<String> {
    match map.get(key) {
        Some(Value::String(_) | Value::Number(_)) => map.shift_remove(key).and_then(id_text),
        Some(Value::Null) => {
            map.shift_remove(key);
            None
        }
        // An unexpected shape stays visible in `extra` rather than being dropped.
        _ => None,
    }
}

fn take_text(map: &mut Map<String, Value>, key: &str) -> Option<String> {
    match map.get(key) {
        Some(Value::String(_)) => match map.shift_remove(key) {
            Some(Value::String(s)) => Some(s),
            _ => None,
        },
        Some(Value::Null) => {
            map.shift_remove(key);
            None
        }
        _ => None,
    }
}

fn take_bool(map: &mut Map<String, Value>, key: &str) -> Option<bool> {
    let b = match map.get(key)? {
        Value::Bool(b) => Some(*b),
        Value::String(s) if s.eq_ignore_ascii_case("true") => Some(true),
        Value::String(s) if s.eq_ignore_ascii_case("false") => Some(false),
        Value::Number(n) if n.to_string() == "1" => Some(true),
        Value::Number(n) if n.to_string() == "0" => Some(false),
        Value::Null => None,
        _ => return None,
    };
    map.shift_remove(key);
    b
}

/// How to ask for the next page of a customer listing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NextPage {
    /// Send `cursor=<value>`.
    Cursor(String),
    /// Fetch this URL (must be on the service's own origin).
    Url(String),
    /// Send `page=<n>`.
    Number(u64),
}

/// One page of a customer listing.
#[derive(Debug, PartialEq)]
pub struct Page {
    /// The invoices on it.
    pub items: Vec<Invoice>,
    /// How to get the next one; `None` at the end.
    pub next: Option<NextPage>,
    /// How many invoices in all, when the service says.
    pub total: Option<u64>,
}

impl Page {
    /// Decodes a listing answer: a bare array, or an object with `items`/`data`/`results`
    /// (or `invoices`) and a cursor (`next_cursor`, `next`) or page number.
    pub fn from_value(value: Value) -> Result<Page, ApiError> {
        let (list, mut obj) = match value {
            Value::Array(a) => (a, Map::new()),
            Value::Object(mut o) => {
                let list = ["items", "data", "results", "invoices"]
                    .iter()
                    .find_map(|k| match o.get(*k) {
                        Some(Value::Array(_)) => match o.shift_remove(*k) {
                            Some(Value::Array(a)) => Some(a),
                            _ => None,
                        },
                        _ => None,
                    })
                    .ok_or_else(|| {
                        decode_error("the listing has no items, data or results array")
                    })?;
                (list, o)
            }
            _ => {
                return Err(decode_error(
                    "the listing is neither an array nor an object",
                ));
            }
        };
        let items = list
            .into_iter()
            .map(Invoice::from_value)
            .collect::<Result<Vec<_>, _>>()?;
        let has_more = obj.get("has_more").and_then(Value::as_bool);
        let total = obj
            .get("total")
            .or_else(|| obj.get("count"))
            .and_then(as_u64);
        let next = if has_more == Some(false) {
            None
        } else if let Some(c) = take_id(&mut obj, "next_cursor").filter(|c| !c.is_empty()) {
            Some(NextPage::Cursor(c))
        } else if let Some(n) = take_id(&mut obj, "next").filter(|c| !c.is_empty()) {
            if n.starts_with("http://") || n.starts_with("https://") || n.starts_with('/') {
                Some(NextPage::Url(n))
            } else if let Ok(num) = n.parse::<u64>() {
                Some(NextPage::Number(num))
            } else {
                Some(NextPage::Cursor(n))
            }
        } else if let Some(n) = obj.get("next_page").and_then(as_u64) {
            Some(NextPage::Number(n))
        } else if let Some(page) = obj.get("page").and_then(as_u64) {
            let last = ["total_pages", "pages", "last_page"]
                .iter()
                .find_map(|k| obj.get(*k).and_then(as_u64));
            match (last, has_more) {
                (Some(last), _) if page < last => Some(NextPage::Number(page + 1)),
                (None, Some(true)) => Some(NextPage::Number(page + 1)),
                _ => None,
            }
        } else {
            None
        };
        Ok(Page { items, next, total })
    }
}

fn as_u64(v: &Value) -> Option<u64> {
    match v {
        Value::Number(n) => n.as_u64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
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
            currency: CurrencyChoice::Code(Currency::Clf),
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
                currency: CurrencyChoice::Code(Currency::Clp),
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
    fn assignments() {
        let (e, m) = parse_assignments("nota = hola\nmetadata.centro=Ñuñoa\n\n".lines()).unwrap();
        assert_eq!(e.get("nota"), Some(&json!("hola")));
        assert_eq!(m.unwrap().get("centro"), Some(&json!("Ñuñoa")));
        assert!(parse_assignments(["sin igual"]).is_err());
        assert!(parse_assignments(["=x"]).is_err());
        let long = format!("metadata.x={}", "a".repeat(257));
        assert!(parse_assignments([long.as_str()]).is_err());
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
    }
}
