//! The whole book: what every customer owes on a day, per currency and days overdue,
//! the oldest overdue invoice and the last one issued. A customer whose invoices could
//! not be listed is kept as such, never counted as owing nothing. No drawing, no network:
//! the CLI (and a panel) list the customers and hand the invoices in.

pub mod aging;
mod listed;

pub use listed::listed;

use crate::api::Invoice;
use aging::{Aging, Bucket, Standing, Total, currency_key, due_day, with_currency};
use chrono::NaiveDate;
use std::collections::BTreeMap;

/// One customer's receivables.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    /// Invoices listed.
    pub invoices: usize,
    /// What is owed, per currency and bucket.
    pub aging: Aging,
    /// What is owed in all, per currency (never added across currencies).
    pub owed: BTreeMap<String, Total>,
    /// The most days any invoice is overdue.
    pub oldest_overdue: Option<u32>,
    /// The latest day an invoice was issued (its `created_at`), when the service says.
    pub last_invoice: Option<NaiveDate>,
}

impl Summary {
    /// Where `invoices` stand on `as_of`.
    pub fn of(invoices: &[Invoice], as_of: NaiveDate) -> Summary {
        let mut s = Summary::default();
        for inv in invoices {
            s.add(inv, as_of);
        }
        s
    }

    /// Counts one more invoice, as listed (a listing is folded a page at a time, never
    /// held whole); where it stands on `as_of`.
    pub fn add(&mut self, inv: &Invoice, as_of: NaiveDate) -> Standing {
        let s = self;
        s.invoices += 1;
        let standing = Standing::of_due(inv, as_of, due_day(inv));
        s.aging.add(inv, standing);
        if standing.bucket().is_some()
            && let Some(a) = inv.amount
        {
            with_currency(&mut s.owed, currency_key(inv), |t| t.add(a));
        }
        if let Standing::Overdue(d) = standing {
            s.oldest_overdue = Some(s.oldest_overdue.map_or(d, |o| o.max(d)));
        }
        let issued = inv
            .created_at()
            .and_then(|t| t.get(..10))
            .and_then(crate::receivables::aging::parse_iso_day);
        if issued > s.last_invoice {
            s.last_invoice = issued;
        }
        standing
    }

    /// Something is overdue.
    pub fn has_overdue(&self) -> bool {
        self.oldest_overdue.is_some()
    }
}

/// One invoice a statement lists (and its workbook, and the book's invoices owed).
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// Its id (escaped).
    pub id: String,
    /// Its reference (escaped), when it has one.
    pub reference: Option<String>,
    /// Its due day, when the service sent a real one.
    pub due: Option<chrono::NaiveDate>,
    /// The day it was issued, when the service said.
    pub issued: Option<chrono::NaiveDate>,
    /// Where it stands on the statement's day.
    pub standing: Standing,
    /// Its amount as written (`$1.234`, `UF 12,3456`), or what the service sent: set by
    /// the statement's plan, in its language.
    pub amount: String,
    /// What the service sent for an amount that could not be read (escaped).
    pub unreadable: Option<String>,
    /// Its amount as a number, when the service sent one (the workbook's cell).
    pub value: Option<rust_decimal::Decimal>,
    /// Its currency code, as the service sent it (escaped).
    pub currency: Option<String>,
    /// The payment link, when the app trusts it.
    pub link: Option<String>,
    /// The link fits in a QR code, drawn beside it (a longer one is given as a link
    /// only): set by the statement's plan.
    pub qr: bool,
}

/// The most invoices one statement lists (every one in its workbook): what a listing
/// keeps is bounded, whatever the service sends. Past it the statement is not made and
/// the clerk is told to export the customer's invoices instead.
pub const MAX_LINES: usize = 100_000;

/// A customer's invoices folded as they are listed, a page at a time: what they owe
/// (per currency and bucket) and the lines a statement lists, at most [`MAX_LINES`];
/// the service's invoices themselves are not kept.
#[derive(Clone, Debug)]
pub struct Listing {
    as_of: chrono::NaiveDate,
    keep: Keep,
    /// What they owe, per currency and bucket; how many were listed.
    pub summary: crate::receivables::Summary,
    /// The lines kept, in the order listed.
    pub lines: Vec<Line>,
    /// More lines than [`MAX_LINES`] were to be kept (the listing may stop).
    pub too_many: bool,
    /// The listing was stopped before its end (by the clerk): nothing may be made of
    /// it.
    pub stopped: bool,
}

/// Which invoices a listing keeps as lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keep {
    /// None: only what is owed is counted.
    Nothing,
    /// Those still owed.
    Owed,
    /// Every one, paid and void too.
    All,
}

impl Keep {
    /// What a statement keeps: every invoice (`all`), or what is owed.
    pub fn of(all: bool) -> Keep {
        if all { Keep::All } else { Keep::Owed }
    }
}

impl Listing {
    /// An empty listing for a statement on `as_of`.
    pub fn new(as_of: chrono::NaiveDate, keep: Keep) -> Listing {
        Listing {
            as_of,
            keep,
            summary: crate::receivables::Summary::default(),
            lines: Vec::new(),
            too_many: false,
            stopped: false,
        }
    }

    /// `invoices` folded at once (those in hand already).
    pub fn of(invoices: &[crate::api::Invoice], as_of: chrono::NaiveDate, keep: Keep) -> Listing {
        let mut l = Listing::new(as_of, keep);
        for inv in invoices {
            l.add(inv);
        }
        l
    }

    /// The day it is listed for.
    pub fn as_of(&self) -> chrono::NaiveDate {
        self.as_of
    }

    /// Folds one more invoice in; false once it keeps too many (the caller stops
    /// listing).
    pub fn add(&mut self, inv: &crate::api::Invoice) -> bool {
        let standing = self.summary.add(inv, self.as_of);
        let owing = standing.bucket().is_some();
        let kept = match self.keep {
            Keep::Nothing => false,
            Keep::Owed => owing,
            Keep::All => true,
        };
        if !kept {
            return !self.too_many;
        }
        if self.lines.len() >= MAX_LINES {
            self.too_many = true;
            return false;
        }
        let esc = |t: &str| crate::text::escape_controls(t).into_owned();
        // A void or paid invoice cannot be paid: no link for it, as in the app.
        let link = inv
            .link_payment
            .as_deref()
            .filter(|_| owing)
            .and_then(crate::api::safe_payment_link)
            .map(|u| u.to_string());
        self.lines.push(Line {
            id: esc(&inv.id),
            // Only a reference the clerk wrote: one the app made is of no use to a
            // customer.
            reference: inv
                .invoice_external_id
                .as_deref()
                .filter(|r| !crate::bulk::is_made_reference(r))
                .map(esc),
            due: due_day(inv),
            issued: inv
                .created_at()
                .and_then(|t| chrono::DateTime::parse_from_rfc3339(t).ok())
                .map(|t| t.date_naive()),
            standing,
            // Written by the statement's plan, in its language.
            amount: String::new(),
            unreadable: inv.amount_unreadable.as_deref().map(esc),
            value: inv.amount,
            currency: inv.currency_code.as_deref().map(esc),
            link,
            // Decided by the statement's plan (whether it fits in a QR code).
            qr: false,
        });
        true
    }
}

/// A customer in the book: who, and what they owe or why that is not known.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The customer's id.
    pub customer: String,
    /// Name and RUT, from the directory.
    pub name: Option<String>,
    /// RUT.
    pub rut: Option<String>,
    /// What they owe, or why their invoices could not be listed (in words).
    pub summary: Result<Summary, String>,
}

/// The book's totals per currency: each bucket of [`Bucket::ALL`], then the total owed.
pub fn totals<'a>(rows: impl IntoIterator<Item = &'a Row>) -> BTreeMap<String, [Total; 6]> {
    let mut out: BTreeMap<String, [Total; 6]> = BTreeMap::new();
    for s in rows.into_iter().filter_map(|r| r.summary.as_ref().ok()) {
        for (code, cells) in &s.aging.by_currency {
            with_currency(&mut out, code, |t| {
                for (i, c) in cells.iter().enumerate() {
                    match c.total.value() {
                        Some(v) => t[i].add(v),
                        None => t[i].overflowed = true,
                    }
                }
            });
        }
        for (code, owed) in &s.owed {
            with_currency(&mut out, code, |t| match owed.value() {
                Some(v) => t[5].add(v),
                None => t[5].overflowed = true,
            });
        }
    }
    out
}

/// The book in pesos: per bucket of [`Bucket::ALL`] and the total owed, the pesos plus
/// the UF converted on `uf`'s day, and whether other currencies were left out. The
/// total is the exact sum rounded half up to the peso (as the UF's total alone is
/// said); the buckets are rounded so that they add up to it (largest remainder: each
/// rounded down, the pesos left go to those that lost the most), or a line would say
/// "$836 owed, $835 overdue, $0 current". `None` without pesos or UF, or when a sum
/// overflowed.
pub fn in_pesos(
    totals: &BTreeMap<String, [Total; 6]>,
    uf: &crate::uf::UfDay,
) -> Option<([rust_decimal::Decimal; 6], bool)> {
    use rust_decimal::{Decimal, RoundingStrategy};
    let (clp, clf) = (totals.get("CLP"), totals.get("CLF"));
    if clp.is_none() && clf.is_none() {
        return None;
    }
    // Each cell exact, not rounded yet.
    let mut exact = [Decimal::ZERO; 6];
    for (i, cell) in exact.iter_mut().enumerate() {
        if let Some(t) = clp {
            *cell = cell.checked_add(t[i].value()?)?;
        }
        if let Some(t) = clf {
            *cell = cell.checked_add(t[i].value()?.checked_mul(uf.value)?)?;
        }
    }
    let mut out = [Decimal::ZERO; 6];
    out[5] = exact[5].round_dp_with_strategy(0, RoundingStrategy::MidpointAwayFromZero);
    for i in 0..5 {
        out[i] = exact[i].floor();
    }
    let floors: Decimal = out[..5].iter().copied().sum();
    let left = out[5].checked_sub(floors)?;
    if left >= Decimal::ZERO && left <= Decimal::from(5) {
        let mut order: Vec<usize> = (0..5).collect();
        order.sort_by(|&a, &b| (exact[b] - out[b]).cmp(&(exact[a] - out[a])));
        for &i in order
            .iter()
            .take(rust_decimal::prelude::ToPrimitive::to_usize(&left).unwrap_or(0))
        {
            out[i] += Decimal::ONE;
        }
    } else {
        // The buckets do not make the total (they always do: both count what is
        // owed); each is then rounded on its own.
        for i in 0..5 {
            out[i] = exact[i].round_dp_with_strategy(0, RoundingStrategy::MidpointAwayFromZero);
        }
    }
    let others = totals.keys().any(|c| c != "CLP" && c != "CLF");
    Some((out, others))
}

/// Which rows a clerk wants to see.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Only {
    /// Only customers with something overdue.
    pub overdue: bool,
    /// Only customers with something overdue more than this many days.
    pub older_than: Option<u32>,
}

impl Only {
    /// Whether `row` is kept (a customer whose listing failed always is: it may owe).
    pub fn keeps(&self, row: &Row) -> bool {
        let Ok(s) = &row.summary else { return true };
        if self.overdue && !s.has_overdue() {
            return false;
        }
        match self.older_than {
            Some(days) => s.oldest_overdue.is_some_and(|d| d > days),
            None => true,
        }
    }
}

/// The bucket cells of `currency` in a summary (zeros when it owes none in it).
pub fn cells(s: &Summary, currency: &str) -> [Option<Total>; 5] {
    let mut out = [None; 5];
    if let Some(c) = s.aging.by_currency.get(currency) {
        for b in Bucket::ALL {
            let cell = c[b.index()];
            if cell.count > 0 {
                out[b.index()] = Some(cell.total);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inv(id: &str, amount: &str, currency: &str, due: &str, paid: bool) -> Invoice {
        serde_json::from_value(serde_json::json!({
            "id": id, "amount": amount, "currency_code": currency, "due_date": due,
            "is_paid": paid, "is_void": false, "created_at": format!("{due}T10:00:00Z")
        }))
        .unwrap()
    }

    #[test]
    fn the_book_in_pesos_adds_the_uf_on_the_days_value_exact_to_the_peso() {
        let d = |s: &str| s.parse::<rust_decimal::Decimal>().unwrap();
        let cells = |values: [&str; 6]| {
            let mut t = [Total::default(); 6];
            for (cell, v) in t.iter_mut().zip(values) {
                cell.add(d(v));
            }
            t
        };
        let uf = crate::uf::UfDay {
            date: NaiveDate::from_ymd_opt(2026, 11, 26).unwrap(),
            value: d("39643.59"),
            from: crate::uf::UfFrom::Cmf,
        };
        let mut book = BTreeMap::new();
        book.insert(
            "CLP".to_string(),
            cells(["1000", "0", "0", "0", "2000", "3000"]),
        );
        book.insert(
            "CLF".to_string(),
            cells(["23.193", "0", "0", "1", "0", "24.193"]),
        );
        let (pesos, others) = in_pesos(&book, &uf).unwrap();
        // Owed: 3.000 + 24,193 × 39.643,59 = 962.097,37… → 962.097 (half up). The
        // buckets add up to it: 920.453,78… and 39.643,59 rounded down leave a peso,
        // which goes to the larger remainder (,78).
        assert_eq!(pesos[5], d("962097"));
        assert_eq!(pesos[0], d("920454"));
        assert_eq!(pesos[3], d("39643"));
        assert_eq!(pesos[4], d("2000"));
        assert_eq!(
            pesos[..5].iter().copied().sum::<rust_decimal::Decimal>(),
            pesos[5]
        );
        assert!(!others);
        book.insert("USD".to_string(), cells(["1", "0", "0", "0", "0", "1"]));
        assert!(in_pesos(&book, &uf).unwrap().1, "other currencies said");
        // An overflowed sum: no pesos at all rather than a wrong one.
        let mut over = cells(["1", "0", "0", "0", "0", "1"]);
        over[5].overflowed = true;
        book.insert("CLF".to_string(), over);
        assert!(in_pesos(&book, &uf).is_none());
    }

    #[test]
    fn a_customers_book_per_currency_never_added_across() {
        let day = NaiveDate::from_ymd_opt(2026, 11, 24).unwrap();
        let s = Summary::of(
            &[
                inv("a", "1000", "CLP", "2026-12-01", false),
                inv("b", "2000", "CLP", "2026-08-01", false),
                inv("c", "12.3456", "CLF", "2026-11-01", false),
                inv("d", "5000", "CLP", "2026-01-01", true),
            ],
            day,
        );
        assert_eq!(s.owed["CLP"].value(), Some(3000.into()));
        assert_eq!(s.owed["CLF"].value(), Some("12.3456".parse().unwrap()));
        assert_eq!(s.oldest_overdue, Some(115));
        assert_eq!(s.last_invoice, NaiveDate::from_ymd_opt(2026, 12, 1));
        let rows = vec![
            Row {
                customer: "cus_1".into(),
                name: None,
                rut: None,
                summary: Ok(s.clone()),
            },
            Row {
                customer: "cus_2".into(),
                name: None,
                rut: None,
                summary: Err("listing failed".into()),
            },
        ];
        let t = totals(&rows);
        assert_eq!(t["CLP"][5].value(), Some(3000.into()));
        assert_eq!(t["CLP"][Bucket::Over90.index()].value(), Some(2000.into()));
        // A failed listing is kept by every filter (it may owe), a customer with nothing
        // overdue only when overdue is not asked for.
        let only = Only {
            older_than: Some(200),
            ..Only::default()
        };
        assert!(!only.keeps(&rows[0]) && only.keeps(&rows[1]));
        assert!(
            Only {
                older_than: Some(60),
                overdue: true
            }
            .keeps(&rows[0])
        );
    }
}
