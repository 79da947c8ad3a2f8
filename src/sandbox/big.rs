//! The big customer's invoices, made from the seed when they are asked for instead of kept:
//! a million of them cost no memory and no start-up time, and nothing of them is written
//! to the sandbox's file except what changed (paid or void).
//!
//! An invoice is a pure function of (seed, position); its id encodes its position, so a
//! lookup by id needs no index either.

use super::data::{ID_CHARS, InvoiceJson, ORG_OAUTH, PRODUCTS, Rng};
use crate::api::money::Currency;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::fmt::Write as _;

/// What changed on the big customer's invoices since they were generated.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct BigCustomer {
    /// How many invoices it has (from the configuration, not the file).
    #[serde(skip)]
    pub count: usize,
    /// The seed they are made from (the data's seed).
    #[serde(skip)]
    pub seed: u64,
    /// Positions voided since.
    #[serde(default)]
    pub voided: BTreeSet<usize>,
    /// Positions marked paid since.
    #[serde(default)]
    pub paid: BTreeSet<usize>,
}

/// One generated invoice, borrowed nowhere: every field is a number or a static text.
#[derive(Clone, Debug)]
pub struct BigInvoice {
    id: [u8; 17],
    currency: Currency,
    amount: Decimal,
    due: chrono::NaiveDate,
    /// Paid.
    pub is_paid: bool,
    /// Void.
    pub is_void: bool,
    external: Option<u32>,
    centro: Option<&'static str>,
    product: &'static str,
}

const CENTROS: [&str; 5] = [
    "Santiago",
    "Valparaíso",
    "Concepción",
    "Puerto Montt",
    "Ñuñoa",
];

// An invertible scramble of positions (odd multipliers and a self-inverse xor-shift), so
// that ids look random and still give their position back.
const K1: u64 = 0x9E37_79B9_7F4A_7C15;
const K2: u64 = 0xBF58_476D_1CE4_E5B9;

const fn inverse(k: u64) -> u64 {
    // Newton's iteration for the inverse of an odd number modulo 2^64: k·k ≡ 1 (mod 8),
    // and each step doubles the correct bits (3 → 96).
    let mut inv = k;
    let mut i = 0;
    while i < 5 {
        inv = inv.wrapping_mul(2u64.wrapping_sub(k.wrapping_mul(inv)));
        i += 1;
    }
    inv
}

/// The offset a seed adds to positions: far apart for near seeds.
fn offset(seed: u64) -> u64 {
    Rng::new(seed).next_u64()
}

fn scramble(x: u64, seed: u64) -> u64 {
    let mut x = x.wrapping_add(offset(seed)).wrapping_mul(K1);
    x ^= x >> 32;
    x.wrapping_mul(K2)
}

const K1_INVERSE: u64 = inverse(K1);
const K2_INVERSE: u64 = inverse(K2);

fn unscramble(y: u64, seed: u64) -> u64 {
    let mut x = y.wrapping_mul(K2_INVERSE);
    x ^= x >> 32;
    x.wrapping_mul(K1_INVERSE).wrapping_sub(offset(seed))
}

impl BigCustomer {
    /// The id of the invoice at `pos`: `in_b` and 13 base-36 digits of its scrambled position.
    fn id(&self, pos: usize) -> [u8; 17] {
        let mut id = *b"in_b0000000000000";
        let mut n = scramble(pos as u64, self.seed);
        for slot in id[4..].iter_mut().rev() {
            *slot = ID_CHARS[(n % 36) as usize];
            n /= 36;
        }
        id
    }

    /// The position of the invoice with this id, if it is one of the big customer's.
    pub fn position(&self, id: &str) -> Option<usize> {
        let digits = id.strip_prefix("in_b")?.as_bytes();
        if digits.len() != 13 {
            return None;
        }
        let mut n: u64 = 0;
        for &c in digits {
            let d = ID_CHARS.iter().position(|&x| x == c)? as u64;
            n = n.checked_mul(36)?.checked_add(d)?;
        }
        let pos = usize::try_from(unscramble(n, self.seed)).ok()?;
        (pos < self.count && self.id(pos)[..] == id.as_bytes()[..]).then_some(pos)
    }

    /// The invoice at `pos` (< `count`), with the changes applied.
    pub fn invoice(&self, pos: usize) -> BigInvoice {
        let mut rng = Rng::new(
            self.seed
                .wrapping_add(0xB16)
                .wrapping_add((pos as u64).wrapping_mul(0xD1B5_4A32_D192_ED03)),
        );
        let d = Drawn::draw(&mut rng, |_| {});
        BigInvoice {
            id: self.id(pos),
            currency: d.currency,
            amount: d.amount,
            due: d.due,
            is_paid: d.paid || self.paid.contains(&pos),
            is_void: d.void || self.voided.contains(&pos),
            external: d.external,
            centro: d.centro,
            product: d.product,
        }
    }
}

/// The random part of a seeded invoice, drawn in a fixed order: the same generator gives
/// the same invoice (the stored seed data and the generated big customer alike).
pub(super) struct Drawn {
    pub currency: Currency,
    pub amount: Decimal,
    pub due: chrono::NaiveDate,
    pub void: bool,
    pub paid: bool,
    /// The number in its external reference `ERP-YYYY-NNNNNN`.
    pub external: Option<u32>,
    /// Its metadata's `centro_costo`.
    pub centro: Option<&'static str>,
    pub product: &'static str,
}

impl Drawn {
    /// Draws one; `middle` draws what the caller needs between the flags and the
    /// reference (the stored data's id), so stored seed data stays what it was.
    pub fn draw(rng: &mut Rng, middle: impl FnOnce(&mut Rng)) -> Drawn {
        let start = chrono::NaiveDate::from_ymd_opt(2024, 1, 1).unwrap_or_default();
        let currency = if rng.chance(30) {
            Currency::CLF
        } else {
            Currency::CLP
        };
        let amount = if currency == Currency::CLF {
            Decimal::from_i128_with_scale((10_000 + rng.below(3_000_000)) as i128, 4)
        } else {
            Decimal::from(1_000 * (5 + rng.below(5_000)))
        };
        let due = start + chrono::Days::new(rng.below(1000));
        let void = rng.chance(8);
        let paid = !void && rng.chance(45);
        middle(rng);
        let external = rng.chance(60).then(|| rng.below(1_000_000) as u32);
        let centro = rng
            .chance(30)
            .then(|| CENTROS[rng.below(CENTROS.len() as u64) as usize]);
        let product = PRODUCTS[rng.below(PRODUCTS.len() as u64) as usize];
        Drawn {
            currency,
            amount,
            due,
            void,
            paid,
            external,
            centro,
            product,
        }
    }
}

/// Texts of one generated invoice, reused from one invoice to the next (no allocation
/// per invoice while a page is written).
#[derive(Default)]
pub struct Scratch {
    due: String,
    link: String,
    external: String,
    created: String,
}

impl BigInvoice {
    /// Its id.
    pub fn id(&self) -> &str {
        std::str::from_utf8(&self.id).unwrap_or("in_")
    }

    /// The invoice's JSON, appended to `out`.
    pub fn write_json(&self, scratch: &mut Scratch, out: &mut Vec<u8>) {
        use chrono::Datelike;
        let day = |s: &mut String, d: chrono::NaiveDate| {
            s.clear();
            let _ = write!(s, "{:04}-{:02}-{:02}", d.year(), d.month(), d.day());
        };
        day(&mut scratch.due, self.due);
        day(&mut scratch.created, self.due - chrono::Days::new(30));
        scratch.created.push_str("T12:00:00Z");
        scratch.link.clear();
        scratch.link.push_str("https://pay.sandbox.invalid/");
        scratch.link.push_str(self.id());
        scratch.external.clear();
        if let Some(n) = self.external {
            let _ = write!(scratch.external, "ERP-{:04}-{n:06}", self.due.year());
        }
        let centro = self.centro.map(|c| ("centro_costo", c));
        InvoiceJson {
            id: self.id(),
            customer: super::data::BIG_CUSTOMER,
            product_id: Some(self.product),
            due_date: Some(&scratch.due),
            amount: self.amount,
            currency: self.currency,
            is_paid: self.is_paid,
            is_void: self.is_void,
            link_payment: &scratch.link,
            external: self.external.map(|_| scratch.external.as_str()),
            metadata: super::data::Metadata::Pair(centro),
            created_at: &scratch.created,
            extra: None,
        }
        .write(out);
    }

    /// Its organization.
    pub fn org(&self) -> &'static str {
        ORG_OAUTH
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_give_their_position_back() {
        let big = BigCustomer {
            count: 100_000,
            seed: 7,
            ..Default::default()
        };
        let mut seen = std::collections::HashSet::new();
        for pos in (0..100_000).step_by(97).chain([0, 99_999]) {
            let inv = big.invoice(pos);
            assert_eq!(big.position(inv.id()), Some(pos), "{}", inv.id());
            seen.insert(inv.id().to_string());
        }
        assert!(seen.len() > 1000);
        // Beyond the count, another seed, a changed letter, the wrong length: not found.
        assert_eq!(big.position(big.invoice(5).id()), Some(5));
        let other = BigCustomer {
            seed: 8,
            ..big.clone()
        };
        assert_eq!(other.position(big.invoice(5).id()), None);
        let small = BigCustomer {
            count: 5,
            ..big.clone()
        };
        assert_eq!(small.position(big.invoice(5).id()), None);
        for bad in [
            "in_b",
            "in_bzzzzzzzzzzzzz",
            "in_b000000000000",
            "in_x0000000000000",
        ] {
            assert_eq!(big.position(bad), None, "{bad}");
        }
    }

    #[test]
    fn same_seed_same_invoices_and_changes_apply() {
        let mut big = BigCustomer {
            count: 10,
            seed: 3,
            ..Default::default()
        };
        let mut s = Scratch::default();
        let json = |b: &BigCustomer, s: &mut Scratch, p| {
            let mut out = Vec::new();
            b.invoice(p).write_json(s, &mut out);
            serde_json::from_slice::<serde_json::Value>(&out).unwrap()
        };
        let first = json(&big, &mut s, 4);
        assert_eq!(first, json(&big, &mut s, 4));
        assert_eq!(first["customer"], "cus_big");
        big.voided.insert(4);
        assert_eq!(json(&big, &mut s, 4)["is_void"], true);
    }
}
