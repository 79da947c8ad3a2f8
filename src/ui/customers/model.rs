//! The customer list as data, with no drawing: rows as they arrived (shared pages, never
//! copied) and the view over them (sorted, filtered row numbers and totals per currency).

use crate::api::{Invoice, InvoiceStatus};
use crate::receivables::aging::{self, Aging, Filter, Monthly, Standing, Total};
use chrono::NaiveDate;
use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Above this many rows, sorting and filtering run on a worker so no frame waits.
pub const BACKGROUND_VIEW_ROWS: usize = 20_000;

/// A column to sort by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SortKey {
    /// As the service sent them (creation order).
    Received,
    /// Invoice id.
    Id,
    /// Due date.
    Due,
    /// Amount.
    Amount,
    /// Currency.
    Currency,
    /// Status.
    Status,
    /// External reference.
    External,
}

/// Invoices as they arrived: one shared allocation per page, never copied; a row is
/// addressed by (page, offset).
#[derive(Default, Clone)]
pub struct Rows {
    pages: Vec<Arc<Vec<Invoice>>>,
    index: Vec<(u32, u32)>,
}

impl Rows {
    /// How many rows.
    pub fn len(&self) -> usize {
        self.index.len()
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }

    /// Row `i`.
    pub fn get(&self, i: u32) -> &Invoice {
        let (p, o) = self.index[i as usize];
        &self.pages[p as usize][o as usize]
    }

    /// Adds a page (its rows numbered after the ones there).
    pub fn push_page(&mut self, page: Vec<Invoice>) {
        let p = self.pages.len() as u32;
        self.index.extend((0..page.len() as u32).map(|o| (p, o)));
        self.pages.push(Arc::new(page));
    }
}

/// What the view shows: the text filter, voided hidden or not, the statement filter, and
/// the day overdue days are counted on.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Text to look for (lowercased here).
    pub text: String,
    /// Hide voided invoices.
    pub hide_void: bool,
    /// Status, due date and amount ranges, aging bucket.
    pub filter: Filter,
    /// Today (injected: tests and the app agree on the day).
    pub today: NaiveDate,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            text: String::new(),
            hide_void: false,
            filter: Filter::default(),
            today: NaiveDate::from_ymd_opt(2000, 1, 1).unwrap_or_default(),
        }
    }
}

/// Sorted, filtered row numbers over [`Rows`], with totals per currency, the aging of
/// what is owed and the monthly totals. Recomputed when the rows, the sort or the
/// settings change; never per frame.
#[derive(Clone, Debug, PartialEq)]
pub struct View {
    /// Row numbers in display order.
    pub order: Vec<u32>,
    /// Sum of the amounts shown, per currency, void invoices left out.
    pub totals: BTreeMap<String, Total>,
    /// What is owed, per currency and bucket: the rows the text, void and range filters
    /// keep, whatever the status and bucket chosen (so every bucket stays clickable).
    pub aging: Aging,
    /// Totals by month due, of the rows shown.
    pub monthly: Monthly,
    /// Sort column.
    pub sort: SortKey,
    /// Ascending.
    pub ascending: bool,
    /// The settings the view was made with.
    pub settings: Settings,
}

impl Default for View {
    fn default() -> Self {
        View {
            order: Vec::new(),
            totals: BTreeMap::new(),
            aging: Aging::default(),
            monthly: Monthly::default(),
            sort: SortKey::Received,
            ascending: true,
            settings: Settings::default(),
        }
    }
}

fn cmp_rows(rows: &Rows, key: SortKey, today: NaiveDate, a: u32, b: u32) -> Ordering {
    let (x, y) = (rows.get(a), rows.get(b));
    let o = match key {
        SortKey::Received => Ordering::Equal,
        SortKey::Id => x.id.cmp(&y.id),
        SortKey::Due => x.due_date.cmp(&y.due_date),
        // Within each currency: pesos and UF are not comparable amounts.
        SortKey::Amount => x
            .currency_code
            .cmp(&y.currency_code)
            .then_with(|| x.amount.cmp(&y.amount)),
        SortKey::Currency => x.currency_code.cmp(&y.currency_code),
        // Open, then overdue by days, then paid, void, unknown.
        SortKey::Status => Standing::of(x, today).cmp(&Standing::of(y, today)),
        SortKey::External => x.invoice_external_id.cmp(&y.invoice_external_id),
    };
    // Ties keep the order received, so sorting is stable and repeatable.
    o.then(a.cmp(&b))
}

impl View {
    /// True when the text, void and range filters keep `inv` (the rows the aging covers).
    fn base_keeps(&self, inv: &Invoice) -> bool {
        let s = &self.settings;
        if s.hide_void && inv.status() == InvoiceStatus::Void {
            return false;
        }
        if !s.filter.ranges_keep(inv) {
            return false;
        }
        if s.text.is_empty() {
            return true;
        }
        let f = &s.text;
        let has = |t: &str| t.to_lowercase().contains(f);
        has(&inv.id)
            || inv.customer.as_deref().is_some_and(has)
            || inv.invoice_external_id.as_deref().is_some_and(has)
            || inv.due_date.as_deref().is_some_and(has)
            || inv.currency_code.as_deref().is_some_and(has)
            || has(inv.status().as_str())
            || inv
                .amount
                .is_some_and(|a| a.to_string().contains(f.as_str()) || has(&inv.amount_display()))
    }

    /// Takes one row into the sums; true when it is shown.
    fn take(&mut self, inv: &Invoice) -> bool {
        if !self.base_keeps(inv) {
            return false;
        }
        let due = aging::due_day(inv);
        let standing = Standing::of_due(inv, self.settings.today, due);
        self.aging.add(inv, standing);
        if !self.settings.filter.standing_keeps(inv, standing) {
            return false;
        }
        self.monthly.add(inv, standing, due);
        if standing != Standing::Void
            && let Some(a) = inv.amount
        {
            let code = aging::currency_key(inv);
            aging::with_currency(&mut self.totals, code, |t| t.add(a));
        }
        true
    }

    /// Recomputes everything for new sort and settings.
    pub fn rebuild(&mut self, rows: &Rows, sort: SortKey, ascending: bool, settings: &Settings) {
        self.sort = sort;
        self.ascending = ascending;
        self.settings = Settings {
            text: settings.text.trim().to_lowercase(),
            ..settings.clone()
        };
        self.totals.clear();
        self.aging = Aging::default();
        self.monthly = Monthly::default();
        let mut order = Vec::new();
        for i in 0..rows.len() as u32 {
            if self.take(rows.get(i)) {
                order.push(i);
            }
        }
        self.order = order;
        self.sort_order(rows);
    }

    fn sort_order(&mut self, rows: &Rows) {
        let (key, asc, today) = (self.sort, self.ascending, self.settings.today);
        if key == SortKey::Received {
            if !asc {
                self.order.sort_unstable_by(|a, b| b.cmp(a));
            } else {
                self.order.sort_unstable();
            }
            return;
        }
        if key == SortKey::Status {
            // The standing is worked out once per row, not once per comparison.
            let mut keyed: Vec<(Standing, u32)> = self
                .order
                .iter()
                .map(|&i| (Standing::of(rows.get(i), today), i))
                .collect();
            // The same order as `cmp_rows` (ties by arrival, all reversed when descending).
            keyed.sort_unstable_by(|a, b| if asc { a.cmp(b) } else { b.cmp(a) });
            self.order = keyed.into_iter().map(|(_, i)| i).collect();
            return;
        }
        self.order.sort_unstable_by(|&a, &b| {
            let o = cmp_rows(rows, key, today, a, b);
            if asc { o } else { o.reverse() }
        });
    }

    /// Adds newly arrived rows: filters and sorts only them, then merges (no full re-sort).
    pub fn append(&mut self, rows: &Rows, new: std::ops::Range<u32>) {
        let mut fresh: Vec<u32> = new.filter(|&i| self.take(rows.get(i))).collect();
        let (key, asc, today) = (self.sort, self.ascending, self.settings.today);
        let cmp = |a: &u32, b: &u32| {
            let o = if key == SortKey::Received {
                a.cmp(b)
            } else {
                cmp_rows(rows, key, today, *a, *b)
            };
            if asc { o } else { o.reverse() }
        };
        fresh.sort_unstable_by(cmp);
        let old = std::mem::take(&mut self.order);
        let mut merged = Vec::with_capacity(old.len() + fresh.len());
        let (mut i, mut j) = (0, 0);
        while i < old.len() && j < fresh.len() {
            if cmp(&fresh[j], &old[i]) == Ordering::Less {
                merged.push(fresh[j]);
                j += 1;
            } else {
                merged.push(old[i]);
                i += 1;
            }
        }
        merged.extend_from_slice(&old[i..]);
        merged.extend_from_slice(&fresh[j..]);
        self.order = merged;
    }
}
