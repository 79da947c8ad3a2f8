//! The customer list as data, with no drawing: rows as they arrived (shared pages, never
//! copied) and the view over them (sorted, filtered row numbers and totals per currency).

use crate::api::{Invoice, InvoiceStatus};
use rust_decimal::Decimal;
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

    /// Adds a page; returns the range of new row numbers.
    pub fn push_page(&mut self, page: Vec<Invoice>) -> std::ops::Range<u32> {
        let start = self.index.len() as u32;
        let p = self.pages.len() as u32;
        self.index.extend((0..page.len() as u32).map(|o| (p, o)));
        self.pages.push(Arc::new(page));
        start..self.index.len() as u32
    }
}

/// Sorted, filtered row numbers over [`Rows`], with totals per currency. Recomputed when
/// the rows, the sort or the filter change; never per frame.
#[derive(Clone, Debug, PartialEq)]
pub struct View {
    /// Row numbers in display order.
    pub order: Vec<u32>,
    /// Sum of the amounts shown, per currency, void invoices left out.
    pub totals: BTreeMap<String, Decimal>,
    /// Sort column.
    pub sort: SortKey,
    /// Ascending.
    pub ascending: bool,
    filter: String,
    hide_void: bool,
}

impl Default for View {
    fn default() -> Self {
        View {
            order: Vec::new(),
            totals: BTreeMap::new(),
            sort: SortKey::Received,
            ascending: true,
            filter: String::new(),
            hide_void: false,
        }
    }
}

fn cmp_rows(rows: &Rows, key: SortKey, a: u32, b: u32) -> Ordering {
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
        SortKey::Status => x.status().cmp(&y.status()),
        SortKey::External => x.invoice_external_id.cmp(&y.invoice_external_id),
    };
    // Ties keep the order received, so sorting is stable and repeatable.
    o.then(a.cmp(&b))
}

impl View {
    fn matches(&self, inv: &Invoice) -> bool {
        if self.hide_void && inv.status() == InvoiceStatus::Void {
            return false;
        }
        if self.filter.is_empty() {
            return true;
        }
        let f = &self.filter;
        let has = |s: &str| s.to_lowercase().contains(f);
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

    fn add_total(&mut self, inv: &Invoice) {
        if inv.status() == InvoiceStatus::Void {
            return;
        }
        if let Some(a) = inv.amount {
            *self
                .totals
                .entry(inv.currency_code.clone().unwrap_or_else(|| "?".into()))
                .or_default() += a;
        }
    }

    /// Recomputes everything for new sort/filter settings.
    pub fn rebuild(
        &mut self,
        rows: &Rows,
        sort: SortKey,
        ascending: bool,
        filter: &str,
        hide_void: bool,
    ) {
        self.sort = sort;
        self.ascending = ascending;
        self.filter = filter.trim().to_lowercase();
        self.hide_void = hide_void;
        self.totals.clear();
        self.order = (0..rows.len() as u32)
            .filter(|&i| self.matches(rows.get(i)))
            .collect();
        for i in 0..self.order.len() {
            let inv = rows.get(self.order[i]);
            self.add_total(inv);
        }
        self.sort_order(rows);
    }

    fn sort_order(&mut self, rows: &Rows) {
        let (key, asc) = (self.sort, self.ascending);
        if key == SortKey::Received {
            if !asc {
                self.order.sort_unstable_by(|a, b| b.cmp(a));
            } else {
                self.order.sort_unstable();
            }
            return;
        }
        self.order.sort_unstable_by(|&a, &b| {
            let o = cmp_rows(rows, key, a, b);
            if asc { o } else { o.reverse() }
        });
    }

    /// Adds newly arrived rows: filters and sorts only them, then merges (no full re-sort).
    pub fn append(&mut self, rows: &Rows, new: std::ops::Range<u32>) {
        let mut fresh: Vec<u32> = new.filter(|&i| self.matches(rows.get(i))).collect();
        for &i in &fresh {
            let inv = rows.get(i);
            self.add_total(inv);
        }
        let (key, asc) = (self.sort, self.ascending);
        let cmp = |a: &u32, b: &u32| {
            let o = if key == SortKey::Received {
                a.cmp(b)
            } else {
                cmp_rows(rows, key, *a, *b)
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
