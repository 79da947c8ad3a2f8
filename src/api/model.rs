//! The invoice as we send it (strict) and as we receive it (tolerant).

use super::error::{ApiError, ErrorKind, InputProblem};
use super::money::{self, Currency};
use rust_decimal::Decimal;
use serde::Deserialize;
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
            return Err(ApiError::invalid(InputProblem::NoCustomer));
        }
        if self.amount <= Decimal::ZERO {
            return Err(ApiError::invalid(InputProblem::AmountNotPositive));
        }
        if let Some(c) = self.currency.currency() {
            let scale = self.amount.normalize().scale();
            if scale > c.minor_units() {
                return Err(ApiError::invalid(InputProblem::TooManyDecimals {
                    currency: c.code().to_string(),
                    max: c.minor_units(),
                }));
            }
        }
        if let Some(due) = &self.due_date
            && !due.trim().is_empty()
            && chrono::NaiveDate::parse_from_str(due.trim(), "%Y-%m-%d").is_err()
        {
            return Err(ApiError::invalid(InputProblem::BadDueDate(due.clone())));
        }
        for key in self.extra.keys() {
            if RESERVED.contains(&key.as_str()) {
                return Err(ApiError::invalid(InputProblem::ReservedField(key.clone())));
            }
            if key.trim().is_empty() {
                return Err(ApiError::invalid(InputProblem::UnnamedField));
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
        Invoice::deserialize(value).map_err(|e| decode_error(&e.to_string()))
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

impl NextPage {
    /// The form kept to detect a cycle: long cursors and URLs by a digest only, so that
    /// remembering thousands of them stays small.
    pub fn remembered(&self) -> NextPage {
        use std::hash::{Hash, Hasher};
        let digest = |s: &str| {
            let mut h = std::collections::hash_map::DefaultHasher::new();
            s.hash(&mut h);
            format!("#{:016x}:{}", h.finish(), s.len())
        };
        match self {
            NextPage::Cursor(c) if c.len() > 64 => NextPage::Cursor(digest(c)),
            NextPage::Url(u) if u.len() > 64 => NextPage::Url(digest(u)),
            other => other.clone(),
        }
    }
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
        Page::deserialize(value).map_err(|e| decode_error(&e.to_string()))
    }

    /// As [`Page::from_value`], straight from the bytes of the answer (no JSON tree).
    /// Text that is not valid UTF-8 (one bad byte in one invoice) is read lossily: the
    /// bad bytes show as U+FFFD "�" in that field instead of failing the whole page.
    pub fn from_slice(bytes: &[u8]) -> Result<Page, ApiError> {
        match serde_json::from_slice(bytes) {
            Ok(page) => Ok(page),
            Err(e) if std::str::from_utf8(bytes).is_err() => {
                let text = String::from_utf8_lossy(bytes);
                serde_json::from_str(&text).map_err(|_| decode_error(&e.to_string()))
            }
            Err(e) => Err(decode_error(&e.to_string())),
        }
    }
}

/// How to go on, from the listing's paging fields.
fn next_page(meta: &Map<String, Value>) -> Option<NextPage> {
    let ident = |k: &str| match meta.get(k) {
        Some(Value::String(s)) if !s.is_empty() => Some(s.clone()),
        Some(Value::Number(n)) => Some(n.to_string()),
        _ => None,
    };
    let has_more = meta.get("has_more").and_then(Value::as_bool);
    if has_more == Some(false) {
        None
    } else if let Some(c) = ident("next_cursor") {
        Some(NextPage::Cursor(c))
    } else if let Some(n) = ident("next") {
        if n.starts_with("http://") || n.starts_with("https://") || n.starts_with('/') {
            Some(NextPage::Url(n))
        } else if let Ok(num) = n.parse::<u64>() {
            Some(NextPage::Number(num))
        } else {
            Some(NextPage::Cursor(n))
        }
    } else if let Some(n) = meta.get("next_page").and_then(as_u64) {
        Some(NextPage::Number(n))
    } else if let Some(page) = meta.get("page").and_then(as_u64) {
        let last = ["total_pages", "pages", "last_page"]
            .iter()
            .find_map(|k| meta.get(*k).and_then(as_u64));
        match (last, has_more) {
            (Some(last), _) if page < last => Some(NextPage::Number(page + 1)),
            (None, Some(true)) => Some(NextPage::Number(page + 1)),
            _ => None,
        }
    } else {
        None
    }
}

fn as_u64(v: &Value) -> Option<u64> {
    match v {
        Value::Number(n) => n.as_u64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

// ---- Decoding: JSON is streamed into typed fields; unknown fields are kept. ----
//
// Each known field is read as a small `Value` first, so that any shape is accepted; a
// shape that does not fit stays visible in `extra` instead of failing the invoice.

/// A field of the invoice object.
enum Field {
    Id,
    Customer,
    CustomerId,
    ProductId,
    DueDate,
    Amount,
    CurrencyCode,
    IsPaid,
    IsVoid,
    Status,
    LinkPayment,
    ExternalId,
    Metadata,
    Other(String),
}

impl Field {
    fn known(k: &str) -> Option<Field> {
        Some(match k {
            "id" => Field::Id,
            "customer" => Field::Customer,
            "customer_id" => Field::CustomerId,
            "product_id" => Field::ProductId,
            "due_date" => Field::DueDate,
            "amount" => Field::Amount,
            "currency_code" => Field::CurrencyCode,
            "is_paid" => Field::IsPaid,
            "is_void" => Field::IsVoid,
            "status" => Field::Status,
            "link_payment" => Field::LinkPayment,
            "invoice_external_id" => Field::ExternalId,
            "metadata" => Field::Metadata,
            _ => return None,
        })
    }
}

impl<'de> serde::Deserialize<'de> for Field {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Field;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a field name")
            }
            fn visit_str<E: serde::de::Error>(self, k: &str) -> Result<Field, E> {
                Ok(Field::known(k).unwrap_or_else(|| Field::Other(k.to_string())))
            }
            fn visit_string<E: serde::de::Error>(self, k: String) -> Result<Field, E> {
                Ok(Field::known(&k).unwrap_or(Field::Other(k)))
            }
        }
        d.deserialize_identifier(V)
    }
}

#[derive(Default)]
struct InvoiceBuilder {
    id: Option<Value>,
    customer: Option<Value>,
    customer_id: Option<Value>,
    product_id: Option<Value>,
    due_date: Option<Value>,
    amount: Option<Value>,
    currency_code: Option<Value>,
    is_paid: Option<Value>,
    is_void: Option<Value>,
    status: Option<Value>,
    link_payment: Option<Value>,
    external_id: Option<Value>,
    metadata: Option<Value>,
    extra: Map<String, Value>,
}

impl InvoiceBuilder {
    fn put(&mut self, f: Field, v: Value) {
        let slot = match f {
            Field::Other(k) => {
                self.extra.insert(k, v);
                return;
            }
            Field::Id => &mut self.id,
            Field::Customer => &mut self.customer,
            Field::CustomerId => &mut self.customer_id,
            Field::ProductId => &mut self.product_id,
            Field::DueDate => &mut self.due_date,
            Field::Amount => &mut self.amount,
            Field::CurrencyCode => &mut self.currency_code,
            Field::IsPaid => &mut self.is_paid,
            Field::IsVoid => &mut self.is_void,
            Field::Status => &mut self.status,
            Field::LinkPayment => &mut self.link_payment,
            Field::ExternalId => &mut self.external_id,
            Field::Metadata => &mut self.metadata,
        };
        *slot = Some(v);
    }

    fn finish(self) -> Result<Invoice, &'static str> {
        let mut extra = self.extra;
        let id = self.id.and_then(id_text).ok_or("an invoice has no id")?;
        // Text or number as text; null as absent; another shape stays visible in `extra`.
        let mut ident = |key: &str, v: Option<Value>| match v {
            Some(v @ (Value::String(_) | Value::Number(_))) => id_text(v),
            None | Some(Value::Null) => None,
            Some(other) => {
                extra.insert(key.to_string(), other);
                None
            }
        };
        // `customer_id` is read only when `customer` is absent; otherwise it is kept as is.
        let (customer, unused_customer_id) = match ident("customer", self.customer) {
            Some(c) => (Some(c), self.customer_id),
            None => (ident("customer_id", self.customer_id), None),
        };
        let product_id = ident("product_id", self.product_id);
        let invoice_external_id = ident("invoice_external_id", self.external_id);
        let mut text = |key: &str, v: Option<Value>| match v {
            Some(Value::String(s)) => Some(s),
            None | Some(Value::Null) => None,
            Some(other) => {
                extra.insert(key.to_string(), other);
                None
            }
        };
        let due_date = text("due_date", self.due_date);
        let currency_code = text("currency_code", self.currency_code);
        let status_text = text("status", self.status);
        let link_payment = text("link_payment", self.link_payment);
        let mut flag = |key: &str, v: Option<Value>| match v {
            Some(Value::Bool(b)) => Some(b),
            Some(Value::String(s)) if s.eq_ignore_ascii_case("true") => Some(true),
            Some(Value::String(s)) if s.eq_ignore_ascii_case("false") => Some(false),
            Some(Value::Number(n)) if n.to_string() == "1" => Some(true),
            Some(Value::Number(n)) if n.to_string() == "0" => Some(false),
            None | Some(Value::Null) => None,
            Some(other) => {
                extra.insert(key.to_string(), other);
                None
            }
        };
        let is_paid = flag("is_paid", self.is_paid);
        let is_void = flag("is_void", self.is_void);
        let (amount, amount_unreadable) = match self.amount {
            None | Some(Value::Null) => (None, None),
            Some(v) => match money::from_json(&v) {
                Some(a) => (Some(a), None),
                None => (None, Some(compact(&v))),
            },
        };
        let metadata = self.metadata.filter(|v| !v.is_null());
        if let Some(v) = unused_customer_id {
            extra.insert("customer_id".into(), v);
        }
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
            extra,
        })
    }
}

impl<'de> serde::Deserialize<'de> for Invoice {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Invoice;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an invoice (a JSON object)")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Invoice, A::Error> {
                let mut b = InvoiceBuilder::default();
                while let Some(field) = map.next_key::<Field>()? {
                    let v: Value = map.next_value()?;
                    b.put(field, v);
                }
                b.finish().map_err(serde::de::Error::custom)
            }
        }
        d.deserialize_map(V)
    }
}

/// The invoice list of a listing object: `Some` for an array, `None` for any other shape.
struct MaybeList(Option<Vec<Invoice>>);

impl<'de> serde::Deserialize<'de> for MaybeList {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = MaybeList;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a list of invoices")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<MaybeList, A::Error> {
                let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
                while let Some(i) = seq.next_element::<Invoice>()? {
                    items.push(i);
                }
                Ok(MaybeList(Some(items)))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<MaybeList, A::Error> {
                while map
                    .next_entry::<serde::de::IgnoredAny, serde::de::IgnoredAny>()?
                    .is_some()
                {}
                Ok(MaybeList(None))
            }
            fn visit_bool<E>(self, _: bool) -> Result<MaybeList, E> {
                Ok(MaybeList(None))
            }
            fn visit_i64<E>(self, _: i64) -> Result<MaybeList, E> {
                Ok(MaybeList(None))
            }
            fn visit_u64<E>(self, _: u64) -> Result<MaybeList, E> {
                Ok(MaybeList(None))
            }
            fn visit_f64<E>(self, _: f64) -> Result<MaybeList, E> {
                Ok(MaybeList(None))
            }
            fn visit_str<E>(self, _: &str) -> Result<MaybeList, E> {
                Ok(MaybeList(None))
            }
            fn visit_unit<E>(self) -> Result<MaybeList, E> {
                Ok(MaybeList(None))
            }
            fn visit_none<E>(self) -> Result<MaybeList, E> {
                Ok(MaybeList(None))
            }
        }
        d.deserialize_any(V)
    }
}

impl<'de> serde::Deserialize<'de> for Page {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Page;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a listing: an array, or an object with items, data or results")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, seq: A) -> Result<Page, A::Error> {
                let list =
                    MaybeList::deserialize(serde::de::value::SeqAccessDeserializer::new(seq))?;
                Ok(Page {
                    items: list.0.unwrap_or_default(),
                    next: None,
                    total: None,
                })
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Page, A::Error> {
                let mut items = None;
                let mut meta = Map::new();
                while let Some(key) = map.next_key::<String>()? {
                    match key.as_str() {
                        "items" | "data" | "results" | "invoices" if items.is_none() => {
                            items = map.next_value::<MaybeList>()?.0
                        }
                        "next_cursor" | "next" | "next_page" | "page" | "total_pages" | "pages"
                        | "last_page" | "has_more" | "total" | "count" => {
                            let v: Value = map.next_value()?;
                            meta.insert(key, v);
                        }
                        _ => {
                            map.next_value::<serde::de::IgnoredAny>()?;
                        }
                    }
                }
                let items = items.ok_or_else(|| {
                    serde::de::Error::custom("the listing has no items, data or results array")
                })?;
                let total = meta
                    .get("total")
                    .or_else(|| meta.get("count"))
                    .and_then(as_u64);
                Ok(Page {
                    items,
                    next: next_page(&meta),
                    total,
                })
            }
        }
        d.deserialize_any(V)
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
