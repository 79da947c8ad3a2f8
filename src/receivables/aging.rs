//! A customer's statement on a given day: where each invoice stands (open, overdue by so
//! many days, paid, void), the aging of what is still owed per currency, and totals by
//! month. No drawing and no clock: "today" is always passed in, so the app, the Excel
//! workbook and the tests agree on the same day.

use crate::api::{Invoice, InvoiceStatus};
use chrono::{Datelike, NaiveDate};
use rust_decimal::Decimal;
use std::collections::BTreeMap;

/// The due date, when the service sent a real `YYYY-MM-DD` day (anything else: `None`).
pub fn due_day(inv: &Invoice) -> Option<NaiveDate> {
    parse_iso_day(inv.due_date.as_deref()?)
}

/// `YYYY-MM-DD` read by hand: it runs for every row on each filter, and chrono's parser
/// costs ten times more.
pub fn parse_iso_day(s: &str) -> Option<NaiveDate> {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let num = |r: std::ops::Range<usize>| -> Option<u32> {
        b[r].iter().try_fold(0u32, |n, c| {
            c.is_ascii_digit().then(|| n * 10 + u32::from(c - b'0'))
        })
    };
    NaiveDate::from_ymd_opt(num(0..4)? as i32, num(5..7)?, num(8..10)?)
}

/// Where an invoice stands on a day.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Standing {
    /// Not paid, not void, and not past its due date (or with no due date).
    Open,
    /// Not paid, not void, and due this many days ago (at least 1).
    Overdue(u32),
    /// Paid.
    Paid,
    /// Void.
    Void,
    /// The service did not say.
    Unknown,
}

/// How many days an open invoice due on `due` is past it on `today` (one due today is
/// not overdue yet); `None` when it is not past due or has no due day.
pub fn days_overdue(due: Option<NaiveDate>, today: NaiveDate) -> Option<u32> {
    let due = due.filter(|d| *d < today)?;
    Some(u32::try_from((today - due).num_days()).unwrap_or(u32::MAX))
}

impl Standing {
    /// Where `inv` stands on `today`. An invoice due today is not overdue yet.
    pub fn of(inv: &Invoice, today: NaiveDate) -> Standing {
        Standing::of_due(inv, today, due_day(inv))
    }

    /// [`Standing::of`] with the due day already read.
    pub fn of_due(inv: &Invoice, today: NaiveDate, due: Option<NaiveDate>) -> Standing {
        match inv.status() {
            InvoiceStatus::Paid => Standing::Paid,
            InvoiceStatus::Void => Standing::Void,
            InvoiceStatus::Unknown => Standing::Unknown,
            InvoiceStatus::Open => {
                days_overdue(due, today).map_or(Standing::Open, Standing::Overdue)
            }
        }
    }

    /// Its kind, without the days.
    pub fn kind(self) -> StatusKind {
        match self {
            Standing::Open => StatusKind::Open,
            Standing::Overdue(_) => StatusKind::Overdue,
            Standing::Paid => StatusKind::Paid,
            Standing::Void => StatusKind::Void,
            Standing::Unknown => StatusKind::Unknown,
        }
    }

    /// The aging bucket of an invoice still owed; `None` for paid, void and unknown.
    pub fn bucket(self) -> Option<Bucket> {
        match self {
            Standing::Open => Some(Bucket::Current),
            Standing::Overdue(d) => Some(Bucket::of_days(d)),
            _ => None,
        }
    }
}

/// A status to filter by (and the status column's word).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum StatusKind {
    /// Open, not yet due.
    Open,
    /// Open and past due.
    Overdue,
    /// Paid.
    Paid,
    /// Void.
    Void,
    /// Not said by the service.
    Unknown,
}

impl From<InvoiceStatus> for StatusKind {
    /// The kind of a status read without a day (never overdue).
    fn from(s: InvoiceStatus) -> StatusKind {
        match s {
            InvoiceStatus::Open => StatusKind::Open,
            InvoiceStatus::Paid => StatusKind::Paid,
            InvoiceStatus::Void => StatusKind::Void,
            InvoiceStatus::Unknown => StatusKind::Unknown,
        }
    }
}

impl StatusKind {
    /// The kinds a clerk filters by.
    pub const FILTERS: [StatusKind; 4] = [
        StatusKind::Open,
        StatusKind::Overdue,
        StatusKind::Paid,
        StatusKind::Void,
    ];
}

/// An aging bucket: how long an invoice still owed is past due.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Bucket {
    /// Not past due.
    Current,
    /// 1 to 30 days.
    Days1To30,
    /// 31 to 60 days.
    Days31To60,
    /// 61 to 90 days.
    Days61To90,
    /// More than 90 days.
    Over90,
}

impl Bucket {
    /// All buckets, youngest first.
    pub const ALL: [Bucket; 5] = [
        Bucket::Current,
        Bucket::Days1To30,
        Bucket::Days31To60,
        Bucket::Days61To90,
        Bucket::Over90,
    ];

    /// The bucket of an invoice `days` past due (0: current).
    pub fn of_days(days: u32) -> Bucket {
        match days {
            0 => Bucket::Current,
            1..=30 => Bucket::Days1To30,
            31..=60 => Bucket::Days31To60,
            61..=90 => Bucket::Days61To90,
            _ => Bucket::Over90,
        }
    }

    /// Its position in [`Bucket::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }
}

/// An exact sum that says when it grew too large for exact arithmetic (a hostile
/// service can send amounts whose sum does not fit) instead of panicking.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Total {
    /// The sum so far (meaningless once `overflowed`).
    pub sum: Decimal,
    /// The sum did not fit.
    pub overflowed: bool,
}

impl Total {
    /// Adds an amount.
    pub fn add(&mut self, a: Decimal) {
        match self.sum.checked_add(a) {
            Some(s) => self.sum = s,
            None => self.overflowed = true,
        }
    }

    /// The sum, unless it overflowed.
    pub fn value(self) -> Option<Decimal> {
        (!self.overflowed).then_some(self.sum)
    }
}

/// How many invoices and how much.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CountTotal {
    /// Invoices.
    pub count: u64,
    /// Their amounts (invoices with no readable amount are counted, not summed).
    pub total: Total,
}

impl CountTotal {
    fn add(&mut self, amount: Option<Decimal>) {
        self.count += 1;
        if let Some(a) = amount {
            self.total.add(a);
        }
    }
}

/// The currency code an invoice is summed under (`?` when the service left it out).
pub fn currency_key(inv: &Invoice) -> &str {
    inv.currency_code.as_deref().unwrap_or("?")
}

/// Applies `f` to the value of `code` in a per-currency map, made on first use: the
/// key is allocated only for a currency not seen yet (this runs for every row).
pub fn with_currency<V: Default>(
    map: &mut BTreeMap<String, V>,
    code: &str,
    f: impl FnOnce(&mut V),
) {
    if let Some(v) = map.get_mut(code) {
        return f(v);
    }
    f(map.entry(code.to_string()).or_default());
}

/// What is still owed, per currency and bucket.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Aging {
    /// Per currency code, one cell per bucket of [`Bucket::ALL`].
    pub by_currency: BTreeMap<String, [CountTotal; 5]>,
}

impl Aging {
    /// Adds an invoice standing so (paid, void and unknown ones are not owed).
    pub fn add(&mut self, inv: &Invoice, standing: Standing) {
        let Some(b) = standing.bucket() else { return };
        with_currency(&mut self.by_currency, currency_key(inv), |cells| {
            cells[b.index()].add(inv.amount)
        });
    }

    /// True when nothing is owed.
    pub fn is_empty(&self) -> bool {
        self.by_currency.is_empty()
    }
}

/// A month, as (year, month 1–12).
pub type Month = (i32, u32);

/// The month of a day.
pub fn month_of(d: NaiveDate) -> Month {
    (d.year(), d.month())
}

/// The month `n` months before `m`.
pub fn months_before(m: Month, n: u32) -> Month {
    let index = m.0 as i64 * 12 + (m.1 as i64 - 1) - n as i64;
    (index.div_euclid(12) as i32, index.rem_euclid(12) as u32 + 1)
}

/// One month's totals in one currency.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MonthTotals {
    /// Everything not void that falls due in the month.
    pub invoiced: Total,
    /// Of it, what is paid.
    pub paid: Total,
    /// Of it, what is still owed (open or overdue).
    pub open: Total,
}

/// Totals per currency and month of the due date (the one date the service gives). Void
/// invoices are left out; invoices with no readable due date or amount too.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Monthly {
    /// Per currency code, per month.
    pub by_currency: BTreeMap<String, BTreeMap<Month, MonthTotals>>,
}

impl Monthly {
    /// Adds an invoice standing so, due on `due` (read once per row by the caller, see
    /// [`due_day`]).
    pub fn add(&mut self, inv: &Invoice, standing: Standing, due: Option<NaiveDate>) {
        let (Some(due), Some(a)) = (due, inv.amount) else {
            return;
        };
        if standing == Standing::Void {
            return;
        }
        with_currency(&mut self.by_currency, currency_key(inv), |months| {
            let t = months.entry(month_of(due)).or_default();
            t.invoiced.add(a);
            match standing {
                Standing::Paid => t.paid.add(a),
                Standing::Open | Standing::Overdue(_) => t.open.add(a),
                _ => {}
            }
        });
    }

    /// The `n` months up to and including `last`, oldest first, with their totals in
    /// `currency` (zero for a month with none).
    pub fn window(&self, currency: &str, last: Month, n: u32) -> Vec<(Month, MonthTotals)> {
        let months = self.by_currency.get(currency);
        (0..n)
            .rev()
            .map(|back| {
                let m = months_before(last, back);
                let t = months
                    .and_then(|ms| ms.get(&m))
                    .copied()
                    .unwrap_or_default();
                (m, t)
            })
            .collect()
    }
}

/// What the table shows beyond the text filter: each part is optional and they all
/// apply together.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    /// Only invoices standing so.
    pub status: Option<StatusKind>,
    /// Due on or after.
    pub due_from: Option<NaiveDate>,
    /// Due on or before.
    pub due_to: Option<NaiveDate>,
    /// Amount at least (in the invoice's own currency).
    pub amount_min: Option<Decimal>,
    /// Amount at most.
    pub amount_max: Option<Decimal>,
    /// Only this aging bucket in this currency (a click on the aging table).
    pub bucket: Option<(String, Bucket)>,
}

impl Filter {
    /// True when nothing is filtered.
    pub fn is_empty(&self) -> bool {
        *self == Filter::default()
    }

    /// True when the due date and amount ranges keep `inv` (the parts the aging table
    /// follows: it shows every bucket, so the status and bucket parts are left out).
    pub fn ranges_keep(&self, inv: &Invoice) -> bool {
        if self.due_from.is_some() || self.due_to.is_some() {
            let Some(due) = due_day(inv) else {
                return false;
            };
            if self.due_from.is_some_and(|f| due < f) || self.due_to.is_some_and(|t| due > t) {
                return false;
            }
        }
        if self.amount_min.is_some() || self.amount_max.is_some() {
            let Some(a) = inv.amount else { return false };
            if self.amount_min.is_some_and(|m| a < m) || self.amount_max.is_some_and(|m| a > m) {
                return false;
            }
        }
        true
    }

    /// True when the status and bucket parts keep an invoice standing so.
    pub fn standing_keeps(&self, inv: &Invoice, standing: Standing) -> bool {
        if self.status.is_some_and(|s| s != standing.kind()) {
            return false;
        }
        match &self.bucket {
            Some((code, b)) => standing.bucket() == Some(*b) && currency_key(inv) == code,
            None => true,
        }
    }

    /// True when every part keeps `inv`.
    pub fn keeps(&self, inv: &Invoice, today: NaiveDate) -> bool {
        self.ranges_keep(inv) && self.standing_keeps(inv, Standing::of(inv, today))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn day(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
    }

    fn inv(due: &str, amount: &str, currency: &str, paid: bool, void: bool) -> Invoice {
        let v = serde_json::json!({
            "id": format!("in_{due}_{amount}"), "due_date": due, "amount": amount,
            "currency_code": currency, "is_paid": paid, "is_void": void,
        });
        Invoice::from_value(v).unwrap()
    }

    const TODAY: &str = "2026-11-23";

    fn standing_days_before(days: u64) -> Standing {
        let due = day(TODAY) - chrono::Days::new(days);
        let i = inv(
            &due.format("%Y-%m-%d").to_string(),
            "1000",
            "CLP",
            false,
            false,
        );
        Standing::of(&i, day(TODAY))
    }

    #[test]
    fn due_today_is_not_overdue_and_the_day_after_is() {
        assert_eq!(standing_days_before(0), Standing::Open);
        assert_eq!(standing_days_before(1), Standing::Overdue(1));
        let tomorrow = inv("2026-11-24", "1", "CLP", false, false);
        assert_eq!(Standing::of(&tomorrow, day(TODAY)), Standing::Open);
    }

    #[test]
    fn buckets_at_their_boundaries() {
        let bucket = |d| standing_days_before(d).bucket().unwrap();
        assert_eq!(bucket(0), Bucket::Current);
        for (days, b) in [
            (1, Bucket::Days1To30),
            (30, Bucket::Days1To30),
            (31, Bucket::Days31To60),
            (60, Bucket::Days31To60),
            (61, Bucket::Days61To90),
            (90, Bucket::Days61To90),
            (91, Bucket::Over90),
            (4000, Bucket::Over90),
        ] {
            assert_eq!(bucket(days), b, "{days} days");
            assert_eq!(standing_days_before(days), Standing::Overdue(days as u32));
        }
    }

    #[test]
    fn paid_void_and_undated_invoices() {
        let today = day(TODAY);
        assert_eq!(
            Standing::of(&inv("2020-01-01", "1", "CLP", true, false), today),
            Standing::Paid
        );
        assert_eq!(
            Standing::of(&inv("2020-01-01", "1", "CLP", true, true), today),
            Standing::Void
        );
        assert_eq!(Standing::Paid.bucket(), None);
        // No readable due date: owed, but not overdue.
        for bad in ["", "2020-13-01", "01-01-2020", "2020-1-1", "２０２０-01-01"] {
            let i = inv(bad, "1", "CLP", false, false);
            assert_eq!(Standing::of(&i, today), Standing::Open, "{bad:?}");
        }
    }

    #[test]
    fn iso_days_are_read_strictly() {
        assert_eq!(parse_iso_day("2024-02-29"), Some(day("2024-02-29")));
        for bad in [
            "2023-02-29",
            "2024-2-29",
            "2024/02/29",
            "+024-02-29",
            "2024-02-29 ",
        ] {
            assert_eq!(parse_iso_day(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn aging_counts_and_sums_exactly_per_currency() {
        let today = day(TODAY);
        let rows = [
            inv("2026-11-23", "1000", "CLP", false, false),
            inv("2026-11-22", "0.1", "CLF", false, false),
            inv("2026-10-24", "0.2", "CLF", false, false),
            inv("2026-10-23", "2500", "CLP", false, false),
            inv("2026-08-01", "99", "CLP", true, false),
            inv("2026-08-01", "77", "CLP", false, true),
        ];
        let mut aging = Aging::default();
        for r in &rows {
            aging.add(r, Standing::of(r, today));
        }
        let clf = &aging.by_currency["CLF"];
        assert_eq!(clf[Bucket::Days1To30.index()].count, 2);
        assert_eq!(
            clf[Bucket::Days1To30.index()].total.value(),
            Some(Decimal::from_str("0.3").unwrap())
        );
        let clp = &aging.by_currency["CLP"];
        assert_eq!(clp[Bucket::Current.index()].count, 1);
        assert_eq!(clp[Bucket::Days31To60.index()].count, 1);
        assert_eq!(clp.iter().map(|c| c.count).sum::<u64>(), 2);
    }

    #[test]
    fn sums_that_do_not_fit_say_so() {
        let mut t = Total::default();
        t.add(Decimal::MAX);
        t.add(Decimal::MAX);
        assert_eq!(t.value(), None);
    }

    #[test]
    fn monthly_totals_and_the_window() {
        let today = day(TODAY);
        let rows = [
            inv("2026-11-02", "1000", "CLP", true, false),
            inv("2026-11-30", "500", "CLP", false, false),
            inv("2026-11-15", "300", "CLP", false, true),
            inv("2024-12-01", "7", "CLP", false, false),
            inv("2024-11-30", "8", "CLP", false, false),
            inv("2026-11-01", "1.5", "CLF", false, false),
        ];
        let mut m = Monthly::default();
        for r in &rows {
            m.add(r, Standing::of(r, today), due_day(r));
        }
        let w = m.window("CLP", month_of(today), 24);
        assert_eq!(w.len(), 24);
        assert_eq!(w[0].0, (2024, 12));
        assert_eq!(w[23].0, (2026, 11));
        let nov = w[23].1;
        assert_eq!(nov.invoiced.value(), Some(Decimal::from(1500)));
        assert_eq!(nov.paid.value(), Some(Decimal::from(1000)));
        assert_eq!(nov.open.value(), Some(Decimal::from(500)));
        assert_eq!(w[0].1.open.value(), Some(Decimal::from(7)));
        // November 2024 is outside the window; CLF is never added to CLP.
        assert_eq!(
            w.iter().map(|x| x.1.invoiced.sum).sum::<Decimal>(),
            Decimal::from(1507)
        );
        assert_eq!(months_before((2026, 1), 1), (2025, 12));
        assert_eq!(months_before((2026, 1), 13), (2024, 12));
    }

    #[test]
    fn filters_combine() {
        let today = day(TODAY);
        let late = inv("2026-09-01", "5000", "CLP", false, false);
        let paid = inv("2026-09-01", "5000", "CLP", true, false);
        let f = Filter {
            status: Some(StatusKind::Overdue),
            ..Filter::default()
        };
        assert!(f.keeps(&late, today) && !f.keeps(&paid, today));
        let f = Filter {
            due_from: Some(day("2026-09-01")),
            due_to: Some(day("2026-09-01")),
            amount_min: Some(Decimal::from(5000)),
            amount_max: Some(Decimal::from(5000)),
            ..Filter::default()
        };
        assert!(f.keeps(&late, today) && f.keeps(&paid, today));
        let f = Filter {
            amount_max: Some(Decimal::from(4999)),
            ..Filter::default()
        };
        assert!(!f.keeps(&late, today));
        let f = Filter {
            bucket: Some(("CLP".into(), Bucket::Days61To90)),
            ..Filter::default()
        };
        assert!(f.keeps(&late, today), "83 days");
        let f = Filter {
            bucket: Some(("CLF".into(), Bucket::Days61To90)),
            ..Filter::default()
        };
        assert!(!f.keeps(&late, today), "another currency");
    }
}
