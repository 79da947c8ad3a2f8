//! The sandbox's data: organizations, accounts, customers and invoices, deterministic seed
//! data, and the JSON file it can be kept in.

use crate::api::money::{self, Currency};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::HashMap;

use super::big::Drawn;
pub use super::big::{BigCustomer, Scratch};

/// A small deterministic random generator (SplitMix64): the same seed gives the same data.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Self {
        Rng(seed ^ 0x5DEE_CE66_D1CE_4E5B)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }

    /// True with probability `percent` %.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    /// `len` characters from `alphabet`.
    pub fn text(&mut self, alphabet: &[u8], len: usize) -> String {
        (0..len)
            .map(|_| alphabet[self.below(alphabet.len() as u64) as usize] as char)
            .collect()
    }
}

pub(super) const ID_CHARS: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
const KEY_CHARS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// An organization: OAuth credentials, or an API key.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Org {
    /// Identifier, carried in tokens as `org`.
    pub id: String,
    /// Display name.
    pub name: String,
    /// OAuth enabled: tokens accepted, the API key refused.
    pub oauth_enabled: bool,
    /// OAuth client id.
    pub client_id: String,
    /// OAuth client secret.
    pub client_secret: String,
    /// API key (refused once OAuth is enabled).
    pub api_key: String,
}

/// An account: has a currency, identified by `x-account-key`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Account {
    /// The `x-account-key` value.
    pub key: String,
    /// Owning organization.
    pub org: String,
    /// The account's currency, applied when `currency_code` is left out.
    pub currency: Currency,
    /// Display name.
    pub name: String,
}

/// A customer.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Customer {
    /// Identifier (`cus_…`).
    pub id: String,
    /// Name, with accents.
    pub name: String,
    /// Chilean tax id, with its check digit.
    pub rut: String,
}

/// A stored invoice.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct StoredInvoice {
    /// Identifier (`in_…`).
    pub id: String,
    /// Owning organization (not shown).
    pub org: String,
    /// The account it was issued on.
    pub account: String,
    /// Customer id.
    pub customer: String,
    /// Product id.
    pub product_id: Option<String>,
    /// Due date.
    pub due_date: Option<String>,
    /// Exact amount, kept as text in the file.
    #[serde(with = "decimal_text")]
    pub amount: Decimal,
    /// Currency applied.
    pub currency_code: Currency,
    /// Paid.
    pub is_paid: bool,
    /// Void.
    pub is_void: bool,
    /// Payment link.
    pub link_payment: String,
    /// Caller's reference.
    pub invoice_external_id: Option<String>,
    /// Metadata.
    pub metadata: Option<Map<String, Value>>,
    /// Creation time, RFC 3339.
    pub created_at: String,
    /// Other fields the caller sent, echoed back.
    #[serde(default)]
    pub extra: Map<String, Value>,
}

mod decimal_text {
    use rust_decimal::Decimal;
    use serde::{Deserialize, Deserializer, Serializer};
    use std::str::FromStr;

    pub fn serialize<S: Serializer>(d: &Decimal, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&d.to_string())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Decimal, D::Error> {
        let s = String::deserialize(d)?;
        Decimal::from_str(&s).map_err(serde::de::Error::custom)
    }
}

impl StoredInvoice {
    /// The invoice's JSON as the API shows it (exact amount, `currency_code` always
    /// present), appended to `out`.
    pub fn write_json(&self, out: &mut Vec<u8>) {
        InvoiceJson {
            id: &self.id,
            customer: &self.customer,
            product_id: self.product_id.as_deref(),
            due_date: self.due_date.as_deref(),
            amount: self.amount,
            currency: self.currency_code,
            is_paid: self.is_paid,
            is_void: self.is_void,
            link_payment: &self.link_payment,
            external: self.invoice_external_id.as_deref(),
            metadata: Metadata::Map(self.metadata.as_ref()),
            created_at: &self.created_at,
            extra: Some(&self.extra),
        }
        .write(out);
    }

    /// The invoice as the API shows it, as a JSON value.
    pub fn to_json(&self) -> Value {
        let mut out = Vec::with_capacity(512);
        self.write_json(&mut out);
        serde_json::from_slice(&out).unwrap_or(Value::Null)
    }
}

/// An invoice's metadata: a stored object, or the one pair a generated invoice may have.
pub enum Metadata<'a> {
    /// Stored (absent: `{}`).
    Map(Option<&'a Map<String, Value>>),
    /// Generated (absent: `{}`).
    Pair(Option<(&'static str, &'static str)>),
}

/// An invoice as the API shows it, borrowed, written straight into a response buffer:
/// no JSON tree per invoice (a listing page of 1,000 costs well under 2 ms).
pub struct InvoiceJson<'a> {
    /// `id`.
    pub id: &'a str,
    /// `customer`.
    pub customer: &'a str,
    /// `product_id`.
    pub product_id: Option<&'a str>,
    /// `due_date`.
    pub due_date: Option<&'a str>,
    /// `amount`, written with its exact digits.
    pub amount: Decimal,
    /// `currency_code`.
    pub currency: Currency,
    /// `is_paid`.
    pub is_paid: bool,
    /// `is_void`.
    pub is_void: bool,
    /// `link_payment`.
    pub link_payment: &'a str,
    /// `invoice_external_id`.
    pub external: Option<&'a str>,
    /// `metadata`.
    pub metadata: Metadata<'a>,
    /// `created_at`.
    pub created_at: &'a str,
    /// Other fields the caller sent, echoed back after the known ones.
    pub extra: Option<&'a Map<String, Value>>,
}

/// The fields [`InvoiceJson`] writes itself; an echoed field never repeats one.
const WRITTEN: [&str; 12] = [
    "id",
    "customer",
    "product_id",
    "due_date",
    "amount",
    "currency_code",
    "is_paid",
    "is_void",
    "link_payment",
    "invoice_external_id",
    "metadata",
    "created_at",
];

impl InvoiceJson<'_> {
    /// Appends the JSON object to `out`.
    pub fn write(&self, out: &mut Vec<u8>) {
        use std::io::Write as _;
        fn text(out: &mut Vec<u8>, s: &str) {
            // Writing to a Vec cannot fail.
            let _ = serde_json::to_writer(&mut *out, s);
        }
        fn key(out: &mut Vec<u8>, k: &str) {
            if out.last() != Some(&b'{') {
                out.push(b',');
            }
            text(out, k);
            out.push(b':');
        }
        fn opt(out: &mut Vec<u8>, k: &str, v: Option<&str>) {
            key(out, k);
            match v {
                Some(v) => text(out, v),
                None => out.extend_from_slice(b"null"),
            }
        }
        fn flag(out: &mut Vec<u8>, k: &str, v: bool) {
            key(out, k);
            out.extend_from_slice(if v { b"true" } else { b"false" });
        }
        out.push(b'{');
        opt(out, "id", Some(self.id));
        opt(out, "customer", Some(self.customer));
        opt(out, "product_id", self.product_id);
        opt(out, "due_date", self.due_date);
        key(out, "amount");
        let _ = write!(out, "{}", self.amount.normalize());
        opt(out, "currency_code", Some(self.currency.code()));
        flag(out, "is_paid", self.is_paid);
        flag(out, "is_void", self.is_void);
        opt(out, "link_payment", Some(self.link_payment));
        opt(out, "invoice_external_id", self.external);
        key(out, "metadata");
        match &self.metadata {
            Metadata::Map(Some(m)) => {
                let _ = serde_json::to_writer(&mut *out, m);
            }
            Metadata::Pair(Some((k, v))) => {
                out.push(b'{');
                text(out, k);
                out.push(b':');
                text(out, v);
                out.push(b'}');
            }
            Metadata::Map(None) | Metadata::Pair(None) => out.extend_from_slice(b"{}"),
        }
        opt(out, "created_at", Some(self.created_at));
        for (k, v) in self.extra.into_iter().flatten() {
            if !WRITTEN.contains(&k.as_str()) {
                key(out, k);
                let _ = serde_json::to_writer(&mut *out, v);
            }
        }
        out.push(b'}');
    }
}

/// Everything the sandbox holds.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Data {
    /// The seed it was made from.
    pub seed: u64,
    /// Organizations.
    pub orgs: Vec<Org>,
    /// Accounts.
    pub accounts: Vec<Account>,
    /// Customers.
    pub customers: Vec<Customer>,
    /// Invoices in creation order.
    pub invoices: Vec<StoredInvoice>,
    /// Generator state for new ids.
    pub rng: Rng,
    /// Index: invoice id → position.
    #[serde(skip)]
    pub by_id: HashMap<String, usize>,
    /// Index: customer id → positions, in creation order.
    #[serde(skip)]
    pub by_customer: HashMap<String, Vec<usize>>,
    /// The big customer's invoices: generated, only their changes kept.
    #[serde(default)]
    pub big: BigCustomer,
    /// The file's format: files before 2 hold the big customer's invoices themselves.
    #[serde(default)]
    pub format: u32,
}

/// The current [`Data::format`].
const FORMAT: u32 = 2;

/// Where an invoice is: stored, or generated for the big customer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Loc {
    /// Position in [`Data::invoices`].
    Stored(usize),
    /// Position among the big customer's generated invoices.
    Big(usize),
}

/// The big customer's id, present when the size knob asks for one.
pub const BIG_CUSTOMER: &str = "cus_big";

/// Organization ids.
pub const ORG_OAUTH: &str = "org_oauth";
/// Organization that still uses an API key.
pub const ORG_KEY: &str = "org_apikey";

const NAMES: [&str; 12] = [
    "José Muñoz Pérez",
    "María Fernanda Núñez Soto",
    "Comercial Ñuñoa Ltda.",
    "Sofía Araya Díaz",
    "Ferretería Los Ángeles SpA",
    "Benjamín Rojas Cárcamo",
    "Constructora Peñalolén S.A.",
    "Valentina Castillo Vásquez",
    "Panadería La Espiga de Ñuble",
    "Martín González Fuentes",
    "Librería Cervantes y Cía.",
    "Catalina Espinoza Contreras",
];

/// Whether a name of [`NAMES`] is a company's (a legal form in it, or a shop's name).
fn is_company(name: &str) -> bool {
    ["Ltda.", "SpA", "S.A.", "Cía.", "Panadería"]
        .iter()
        .any(|w| name.contains(w))
}

pub(super) const PRODUCTS: [&str; 5] = [
    "prod_asesoria",
    "prod_arriendo",
    "prod_mantencion",
    "prod_licencia",
    "prod_capacitacion",
];

pub use crate::rut::check_digit as rut_check_digit;

/// A RUT as the SII gives them: a person's below 50.000.000, a company's from 76.000.000
/// (one draw either way, so the rest of the data is the same whichever).
fn rut(rng: &mut Rng, company: bool) -> String {
    let drawn = rng.below(25_000_000);
    let n = if company {
        76_000_000 + drawn % 2_000_000
    } else {
        5_000_000 + drawn
    };
    let digits = money::format_es_cl(Decimal::from(n), 0);
    format!("{digits}-{}", rut_check_digit(n))
}

impl Data {
    /// Seed data from `seed`; `big_customer` invoices for [`BIG_CUSTOMER`] (0: none).
    pub fn seeded(seed: u64, big_customer: usize) -> Data {
        let mut rng = Rng::new(seed);
        let orgs = vec![
            Org {
                id: ORG_OAUTH.into(),
                name: "Servicios Andinos SpA (OAuth)".into(),
                oauth_enabled: true,
                client_id: format!("sbx_client_{}", rng.text(ID_CHARS, 10)),
                client_secret: format!("sbx_secret_{}", rng.text(KEY_CHARS, 32)),
                api_key: rng.text(KEY_CHARS, 43),
            },
            Org {
                id: ORG_KEY.into(),
                name: "Comercializadora del Pacífico Ltda. (API key)".into(),
                oauth_enabled: false,
                client_id: format!("sbx_client_{}", rng.text(ID_CHARS, 10)),
                client_secret: format!("sbx_secret_{}", rng.text(KEY_CHARS, 32)),
                api_key: rng.text(KEY_CHARS, 43),
            },
        ];
        let accounts = vec![
            Account {
                key: "acc_oauth_clp".into(),
                org: ORG_OAUTH.into(),
                currency: Currency::CLP,
                name: "Cuenta pesos".into(),
            },
            Account {
                key: "acc_oauth_clf".into(),
                org: ORG_OAUTH.into(),
                currency: Currency::CLF,
                name: "Cuenta UF".into(),
            },
            Account {
                key: "acc_key_clp".into(),
                org: ORG_KEY.into(),
                currency: Currency::CLP,
                name: "Cuenta pesos".into(),
            },
            Account {
                key: "acc_key_clf".into(),
                org: ORG_KEY.into(),
                currency: Currency::CLF,
                name: "Cuenta UF".into(),
            },
        ];
        let customers: Vec<Customer> = NAMES
            .iter()
            .map(|name| Customer {
                id: format!("cus_{}", rng.text(ID_CHARS, 10)),
                name: (*name).into(),
                rut: rut(&mut rng, is_company(name)),
            })
            .collect();
        let mut data = Data {
            seed,
            orgs,
            accounts,
            customers,
            invoices: Vec::new(),
            rng,
            by_id: HashMap::new(),
            by_customer: HashMap::new(),
            big: BigCustomer::default(),
            format: FORMAT,
        };
        let regular: Vec<String> = data
            .customers
            .iter()
            .filter(|c| c.id != BIG_CUSTOMER)
            .map(|c| c.id.clone())
            .collect();
        for (i, customer) in regular.iter().enumerate() {
            let n = 6 + data.rng.below(30) as usize;
            for _ in 0..n {
                // Most invoices belong to the OAuth organization; a few to the API-key one.
                let org_key = if i % 4 == 3 { "acc_key" } else { "acc_oauth" };
                data.seed_invoice(customer, org_key);
            }
        }
        data.reindex();
        data.set_big_customer(big_customer);
        data
    }

    /// Adds `count` customers (`cus_m00000`…) with `each` invoices apiece, unless they
    /// are there already (a data file keeps them).
    pub fn add_customers(&mut self, count: usize, each: usize) {
        let mut rng = Rng::new(self.seed ^ 0xC0FFEE);
        let mut added = false;
        for i in 0..count {
            let id = format!("cus_m{i:05}");
            if self.customer(&id).is_some() {
                continue;
            }
            self.customers.push(Customer {
                id: id.clone(),
                name: format!("Cliente de prueba {i}"),
                rut: rut(&mut rng, false),
            });
            for _ in 0..each {
                self.seed_invoice(&id, "acc_oauth");
            }
            added = true;
        }
        if added {
            self.reindex();
        }
    }

    /// Gives the big customer `count` generated invoices (0: none), keeping the changes
    /// recorded for them. A file from before generated invoices holds them itself: it
    /// keeps those.
    pub fn set_big_customer(&mut self, count: usize) {
        let held = self.format < FORMAT && self.by_customer.contains_key(BIG_CUSTOMER);
        self.big.count = if held { 0 } else { count };
        self.big.seed = self.seed;
        if self.big.count > 0 && self.customer(BIG_CUSTOMER).is_none() {
            let mut rng = Rng::new(self.seed ^ 0xB16);
            self.customers.push(Customer {
                id: BIG_CUSTOMER.into(),
                name: "Distribuidora Grande del Sur S.A.".into(),
                rut: rut(&mut rng, true),
            });
        }
    }

    /// Where the invoice with this id is.
    pub fn locate(&self, id: &str) -> Option<Loc> {
        match self.by_id.get(id) {
            Some(&i) => Some(Loc::Stored(i)),
            None => self.big.position(id).map(Loc::Big),
        }
    }

    /// The organization an invoice belongs to.
    pub fn org_of(&self, loc: Loc) -> &str {
        match loc {
            Loc::Stored(i) => &self.invoices[i].org,
            Loc::Big(_) => ORG_OAUTH,
        }
    }

    /// Whether an invoice is (paid, void).
    pub fn paid_void(&self, loc: Loc) -> (bool, bool) {
        match loc {
            Loc::Stored(i) => (self.invoices[i].is_paid, self.invoices[i].is_void),
            Loc::Big(p) => {
                let inv = self.big.invoice(p);
                (inv.is_paid, inv.is_void)
            }
        }
    }

    /// Marks an invoice void (or not, to undo).
    pub fn set_void(&mut self, loc: Loc, void: bool) {
        match loc {
            Loc::Stored(i) => self.invoices[i].is_void = void,
            Loc::Big(p) if void => _ = self.big.voided.insert(p),
            Loc::Big(p) => _ = self.big.voided.remove(&p),
        }
    }

    /// Marks an invoice paid.
    pub fn set_paid(&mut self, loc: Loc) {
        match loc {
            Loc::Stored(i) => self.invoices[i].is_paid = true,
            Loc::Big(p) => _ = self.big.paid.insert(p),
        }
    }

    /// An invoice's JSON, appended to `out`.
    pub fn write_invoice(&self, loc: Loc, scratch: &mut Scratch, out: &mut Vec<u8>) {
        match loc {
            Loc::Stored(i) => self.invoices[i].write_json(out),
            Loc::Big(p) => self.big.invoice(p).write_json(scratch, out),
        }
    }

    /// How many invoices a customer has (all organizations).
    pub fn invoice_count(&self, customer: &str) -> usize {
        let big = if customer == BIG_CUSTOMER {
            self.big.count
        } else {
            0
        };
        big + self.by_customer.get(customer).map_or(0, Vec::len)
    }

    /// Appends up to `page_size` of `org`'s invoices of `customer`, from position `start`
    /// on, to `out`, comma-separated; returns the position the next page starts at, if
    /// there is one. Positions are in creation order (the big customer's generated
    /// invoices first), so pages stay stable while invoices are added at the end.
    pub fn write_page(
        &self,
        customer: &str,
        org: &str,
        start: usize,
        page_size: usize,
        out: &mut Vec<u8>,
    ) -> Option<usize> {
        let big = if customer == BIG_CUSTOMER {
            self.big.count
        } else {
            0
        };
        let stored = self
            .by_customer
            .get(customer)
            .map_or(&[][..], Vec::as_slice);
        let total = big + stored.len();
        let mut scratch = Scratch::default();
        let mut written = 0;
        let mut pos = start;
        while pos < total {
            if pos < big && org != ORG_OAUTH {
                pos = big;
                continue;
            }
            let loc = if pos < big {
                Loc::Big(pos)
            } else {
                Loc::Stored(stored[pos - big])
            };
            if self.org_of(loc) == org {
                if written == page_size {
                    return Some(pos);
                }
                if written > 0 {
                    out.push(b',');
                }
                self.write_invoice(loc, &mut scratch, out);
                written += 1;
            }
            pos += 1;
        }
        None
    }

    fn seed_invoice(&mut self, customer: &str, account_prefix: &str) {
        let mut id = String::new();
        let d = Drawn::draw(&mut self.rng, |rng| {
            id = format!("in_{}", rng.text(ID_CHARS, 14));
        });
        let account = format!(
            "{account_prefix}_{}",
            d.currency.code().to_ascii_lowercase()
        );
        let org = if account_prefix == "acc_key" {
            ORG_KEY
        } else {
            ORG_OAUTH
        };
        let due = d.due.format("%Y-%m-%d").to_string();
        let metadata = d.centro.map(|c| {
            let mut m = Map::new();
            m.insert("centro_costo".into(), Value::String(c.into()));
            m
        });
        let created = d.due - chrono::Days::new(30);
        self.invoices.push(StoredInvoice {
            link_payment: format!("https://pay.sandbox.invalid/{id}"),
            id,
            org: org.into(),
            account,
            customer: customer.into(),
            product_id: Some(d.product.to_string()),
            invoice_external_id: d.external.map(|n| format!("ERP-{}-{n:06}", &due[..4])),
            due_date: Some(due),
            amount: d.amount,
            currency_code: d.currency,
            is_paid: d.paid,
            is_void: d.void,
            metadata,
            created_at: format!("{}T12:00:00Z", created.format("%Y-%m-%d")),
            extra: Map::new(),
        });
    }

    /// Rebuilds the indexes (after loading from a file).
    pub fn reindex(&mut self) {
        self.by_id.clear();
        self.by_customer.clear();
        for (i, inv) in self.invoices.iter().enumerate() {
            self.by_id.insert(inv.id.clone(), i);
            self.by_customer
                .entry(inv.customer.clone())
                .or_default()
                .push(i);
        }
    }

    /// A fresh invoice id.
    pub fn new_invoice_id(&mut self) -> String {
        loop {
            let id = format!("in_{}", self.rng.text(ID_CHARS, 14));
            if self.locate(&id).is_none() {
                return id;
            }
        }
    }

    /// Stores a new invoice and indexes it.
    pub fn push(&mut self, inv: StoredInvoice) {
        let i = self.invoices.len();
        self.by_id.insert(inv.id.clone(), i);
        self.by_customer
            .entry(inv.customer.clone())
            .or_default()
            .push(i);
        self.invoices.push(inv);
    }

    /// The organization of an OAuth client id.
    pub fn org_by_client(&self, client_id: &str) -> Option<&Org> {
        self.orgs.iter().find(|o| o.client_id == client_id)
    }

    /// An account by key.
    pub fn account(&self, key: &str) -> Option<&Account> {
        self.accounts.iter().find(|a| a.key == key)
    }

    /// A customer by id.
    pub fn customer(&self, id: &str) -> Option<&Customer> {
        self.customers.iter().find(|c| c.id == id)
    }

    /// Writes the data to `path` atomically: a temporary file beside it, synced, renamed.
    pub fn save(&self, path: &std::path::Path) -> std::io::Result<()> {
        crate::fsutil::write_atomic_with(path, |w| {
            serde_json::to_writer(w, self).map_err(std::io::Error::other)
        })
    }

    /// Reads data written by [`Data::save`]; the big customer gets `big_customer`
    /// generated invoices, with the changes the file recorded for them.
    pub fn load(path: &std::path::Path, big_customer: usize) -> std::io::Result<Data> {
        let bytes = std::fs::read(path)?;
        let mut data: Data = serde_json::from_slice(&bytes).map_err(std::io::Error::other)?;
        data.reindex();
        data.set_big_customer(big_customer);
        Ok(data)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn extra_customers_are_added_once_with_their_invoices() {
        let mut d = super::Data::seeded(1, 0);
        let before = d.customers.len();
        d.add_customers(3, 5);
        d.add_customers(3, 5);
        assert_eq!(d.customers.len(), before + 3, "added once");
        for i in 0..3 {
            assert_eq!(d.invoice_count(&format!("cus_m{i:05}")), 5);
        }
    }

    use super::*;

    #[test]
    fn invoice_json_is_written_exactly_and_escaped() {
        let mut d = Data::seeded(3, 0);
        let inv = &mut d.invoices[0];
        inv.invoice_external_id = Some("a\"b\\c\u{1}\u{202e}ñ".into());
        inv.amount = "12.3400".parse().unwrap();
        inv.extra
            .insert("zeta".into(), serde_json::json!([1, {"x": null}]));
        inv.extra.insert("id".into(), Value::from("not twice"));
        let mut out = Vec::new();
        inv.write_json(&mut out);
        let text = String::from_utf8(out).unwrap();
        let v: Value = serde_json::from_str(&text).unwrap();
        let keys: Vec<_> = v.as_object().unwrap().keys().cloned().collect();
        assert_eq!(keys.len(), 13, "{keys:?}");
        assert_eq!(keys.last().unwrap(), "zeta");
        assert_eq!(v["id"], inv.id.as_str());
        assert_eq!(v["invoice_external_id"], "a\"b\\c\u{1}\u{202e}ñ");
        assert!(text.contains("\"amount\":12.34,"), "{text}");
        assert_eq!(v, inv.to_json());
    }

    #[test]
    fn seed_is_deterministic_and_varied() {
        let a = Data::seeded(7, 10);
        let b = Data::seeded(7, 10);
        assert_eq!(
            serde_json::to_string(&a).unwrap(),
            serde_json::to_string(&b).unwrap()
        );
        assert_ne!(
            a.orgs[0].client_secret,
            Data::seeded(8, 0).orgs[0].client_secret
        );
        assert!(a.invoices.iter().any(|i| i.is_void) && a.invoices.iter().any(|i| i.is_paid));
        assert!(a.invoices.iter().any(|i| i.currency_code == Currency::CLF));
        assert_eq!(a.invoice_count(BIG_CUSTOMER), 10);
    }
}
