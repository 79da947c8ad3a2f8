//! Customer invoices: the listing arrives page by page into a table that draws only the
//! visible rows; sort, filter, hide voided, totals per currency, open a row in Lookup,
//! export to CSV.

use super::command::Command;
use super::session::Session;
use super::task::{Spawner, Task, take_finished};
use super::widgets;
use crate::api::{ApiError, Invoice, InvoiceStatus, ListProgress, money};
use crate::export::Dialect;
use crate::text::escape_controls as safe;
use crate::tr;
use egui::{RichText, Ui};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc;

/// What is saved between runs.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CustomersSaved {
    /// Last customer id.
    pub customer_id: String,
    /// Filter text.
    pub filter: String,
    /// Hide voided invoices.
    pub hide_void: bool,
    /// The CSV flavour last used.
    pub dialect: Dialect,
    /// The last path typed for "save to a path".
    pub export_path: String,
}

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
        SortKey::Amount => x
            .amount
            .cmp(&y.amount)
            .then_with(|| x.currency_code.cmp(&y.currency_code)),
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

/// Where the file went and how many rows, `None` when no file was chosen.
type ExportOutcome = Result<Option<(PathBuf, u64)>, String>;

enum ListEvent {
    Page(Vec<Invoice>, ListProgress),
    Done(Result<ListProgress, ApiError>),
}

struct Loading {
    started: std::time::Instant,
    rx: mpsc::Receiver<ListEvent>,
    abort: tokio::task::AbortHandle,
}

/// The panel's state.
pub struct CustomersPanel {
    /// Put the keyboard focus in the customer field on the next frame.
    focus_request: bool,
    saved: CustomersSaved,
    loaded_for: String,
    rows: Rows,
    view: View,
    loading: Option<Loading>,
    progress: Option<ListProgress>,
    outcome: Option<Result<String, ApiError>>,
    export: Option<Task<ExportOutcome>>,
    export_cancel: Arc<AtomicBool>,
    export_note: Option<Result<String, String>>,
    show_path_export: bool,
    /// A sort/filter of many rows running on a worker, and how many rows it covers.
    pending_view: Option<(Task<View>, usize)>,
    /// The sort asked for (shown in the header while a worker sorts).
    wanted_sort: (SortKey, bool),
}

/// Above this many rows, sorting and filtering run on a worker so no frame waits.
pub const BACKGROUND_VIEW_ROWS: usize = 20_000;

impl CustomersPanel {
    /// A panel with restored settings.
    pub fn new(saved: CustomersSaved) -> Self {
        CustomersPanel {
            focus_request: false,
            saved,
            loaded_for: String::new(),
            rows: Rows::default(),
            view: View::default(),
            loading: None,
            progress: None,
            outcome: None,
            export: None,
            export_cancel: Arc::new(AtomicBool::new(false)),
            export_note: None,
            show_path_export: false,
            pending_view: None,
            wanted_sort: (SortKey::Received, true),
        }
    }

    /// Puts the keyboard focus in the customer field on the next frame.
    pub fn request_focus(&mut self) {
        self.focus_request = true;
    }

    /// True when there are rows to export and nothing else is running.
    pub fn can_export(&self) -> bool {
        !self.view.order.is_empty() && self.export.is_none() && self.loading.is_none()
    }

    /// Nothing could be sent (not connected).
    pub fn refused(&mut self, e: ApiError) {
        self.outcome = Some(Err(e));
    }

    /// Sorts and filters again with the current settings.
    pub fn refresh_view(&mut self, spawner: &Spawner) {
        let (sort, ascending) = self.wanted_sort;
        self.request_view(sort, ascending, spawner);
    }

    /// True while a listing is arriving.
    pub fn is_loading(&self) -> bool {
        self.loading.is_some()
    }

    /// The sort column and direction asked for.
    pub fn sort(&self) -> (SortKey, bool) {
        self.wanted_sort
    }

    /// True while a worker re-sorts or re-filters the rows.
    pub fn view_pending(&self) -> bool {
        self.pending_view.is_some()
    }

    /// Recomputes the view for new settings: here for small lists, on a worker for large
    /// ones (the table keeps showing the old order until the new one is ready).
    fn request_view(&mut self, sort: SortKey, ascending: bool, spawner: &Spawner) {
        self.wanted_sort = (sort, ascending);
        if let Some((old, _)) = self.pending_view.take() {
            old.cancel();
        }
        if self.rows.len() <= BACKGROUND_VIEW_ROWS {
            self.view.rebuild(
                &self.rows,
                sort,
                ascending,
                &self.saved.filter,
                self.saved.hide_void,
            );
            return;
        }
        let rows = self.rows.clone();
        let n = rows.len();
        let (filter, hide_void) = (self.saved.filter.clone(), self.saved.hide_void);
        let work = async move {
            tokio::task::spawn_blocking(move || {
                let mut v = View::default();
                v.rebuild(&rows, sort, ascending, &filter, hide_void);
                v
            })
            .await
            .unwrap_or_default()
        };
        self.pending_view = Some((spawner.spawn(work), n));
    }

    /// What to save between runs.
    pub fn saved(&self) -> CustomersSaved {
        self.saved.clone()
    }

    /// The rows and the current view (for tests and benchmarks).
    pub fn data(&self) -> (&Rows, &View) {
        (&self.rows, &self.view)
    }

    /// Starts loading the customer in the field, page by page.
    pub fn start(&mut self, session: Arc<Session>, spawner: &Spawner) {
        let id = self.saved.customer_id.trim().to_string();
        if id.is_empty() {
            return;
        }
        self.cancel();
        self.loaded_for = id.clone();
        self.rows = Rows::default();
        self.view.rebuild(
            &self.rows,
            self.view.sort,
            self.view.ascending,
            &self.saved.filter,
            self.saved.hide_void,
        );
        self.outcome = None;
        self.progress = Some(ListProgress::default());
        self.export_note = None;
        let (tx, rx) = mpsc::channel();
        let ctx = spawner.ctx.clone();
        let work = spawner.rt.spawn(async move {
            let (pages, repaint) = (tx.clone(), ctx.clone());
            let result = session
                .client
                .list_customer_invoices(&id, move |items, p| {
                    let _ = pages.send(ListEvent::Page(items, *p));
                    repaint.request_repaint();
                    ControlFlow::Continue(())
                })
                .await;
            let _ = tx.send(ListEvent::Done(result));
            ctx.request_repaint();
        });
        self.loading = Some(Loading {
            started: std::time::Instant::now(),
            rx,
            abort: work.abort_handle(),
        });
    }

    /// Stops the listing; what arrived stays.
    pub fn cancel(&mut self) {
        if let Some(l) = self.loading.take() {
            l.abort.abort();
            let n = self.rows.len();
            self.outcome = Some(Ok(tr!("cu-stopped", count = n)));
        }
    }

    /// Takes finished work (called by the app every frame).
    pub fn poll(&mut self) {
        if let Some(r) = take_finished(&mut self.export) {
            self.export_note = Some(match r.map_err(|e| e.to_string()).and_then(|r| r) {
                Ok(Some((p, n))) => Ok(tr!("cu-exported", count = n, path = p.display())),
                Ok(None) => Err(tr!("cu-no-file")),
                Err(e) => Err(e),
            });
            if matches!(self.export_note, Some(Err(_))) {
                self.show_path_export = true;
            }
        }
        if let Some((task, n)) = self.pending_view.take() {
            match task.try_take() {
                Ok(Ok(view)) => {
                    self.view = view;
                    // Pages that arrived while the worker sorted are merged in.
                    if self.rows.len() > n {
                        self.view
                            .append(&self.rows, n as u32..self.rows.len() as u32);
                    }
                }
                Ok(Err(_)) => {}
                Err(task) => self.pending_view = Some((task, n)),
            }
        }
        let Some(loading) = &self.loading else { return };
        let mut done = None;
        while let Ok(ev) = loading.rx.try_recv() {
            match ev {
                ListEvent::Page(items, p) => {
                    let new = self.rows.push_page(items);
                    self.view.append(&self.rows, new);
                    self.progress = Some(p);
                }
                ListEvent::Done(r) => done = Some(r),
            }
        }
        if let Some(r) = done {
            if let (Some(l), true) = (&self.loading, super::trace_enabled()) {
                eprintln!(
                    "invoice-desk trace: listing {} invoices in {} ms",
                    self.rows.len(),
                    l.started.elapsed().as_millis()
                );
            }
            self.loading = None;
            self.outcome =
                Some(r.map(|p| tr!("cu-done", count = p.items, customer = self.loaded_for)));
        }
    }

    /// Exports the rows shown, in the order shown: to `target`, or through the save
    /// dialog.
    pub fn export_csv(&mut self, target: Option<PathBuf>, spawner: &Spawner) {
        if !self.can_export() {
            return;
        }
        let rows = self.rows.clone();
        let order = self.view.order.clone();
        let dialect = self.saved.dialect;
        let cancel = Arc::new(AtomicBool::new(false));
        self.export_cancel = cancel.clone();
        self.export_note = None;
        let name = format!("invoices-{}.csv", sanitize(&self.loaded_for));
        self.export = Some(spawner.spawn(async move {
            let path = match target {
                Some(p) => p,
                None => match rfd::AsyncFileDialog::new()
                    .set_title(tr!("cu-dialog-title"))
                    .set_file_name(&name)
                    .add_filter("CSV", &["csv"])
                    .save_file()
                    .await
                {
                    Some(f) => f.path().to_path_buf(),
                    None => return Ok(None),
                },
            };
            tokio::task::spawn_blocking(move || {
                let iter = order.iter().map(|&i| rows.get(i));
                crate::export::write_file(&path, iter, dialect, &cancel)
                    .map(|n| Some((path.clone(), n)))
                    .map_err(|e| {
                        if e.kind() == std::io::ErrorKind::Interrupted {
                            tr!("cu-export-cancelled")
                        } else {
                            tr!("cu-export-failed", path = path.display(), error = e)
                        }
                    })
            })
            .await
            .map_err(|e| e.to_string())?
        }));
    }

    /// Draws the panel.
    pub fn ui(&mut self, ui: &mut Ui, session: Option<&Session>, commands: &mut Vec<Command>) {
        ui.heading(tr!("tab-customers"));
        ui.horizontal(|ui| {
            let l = ui.label(tr!("f-customer-id"));
            let r = widgets::focus_field(
                ui,
                l.id,
                &mut self.saved.customer_id,
                "cus_…",
                240.0,
                &mut self.focus_request,
            );
            let enter = r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            let can = session.is_some() && !self.saved.customer_id.trim().is_empty();
            if ui
                .add_enabled(can, egui::Button::new(tr!("cu-load")))
                .clicked()
                || (enter && can)
            {
                commands.push(Command::LoadCustomer);
            }
            if self.loading.is_some() {
                ui.spinner();
                let p = self.progress.unwrap_or_default();
                ui.label(tr!("cu-loading", pages = p.pages, count = p.items));
                if ui.button(tr!("cancel")).clicked() {
                    commands.push(Command::CancelLoad);
                }
            }
        });
        if session.is_none() {
            widgets::error_text(ui, &tr!("connect-first"));
        }
        match &self.outcome {
            Some(Ok(m)) => {
                ui.label(m);
            }
            Some(Err(e)) => {
                widgets::api_error(ui, "listing", e);
                if !self.rows.is_empty() {
                    ui.label(tr!("cu-partial", count = self.rows.len()));
                }
            }
            None => {}
        }
        ui.horizontal(|ui| {
            let l = ui.label(tr!("cu-filter"));
            let f = ui
                .add(
                    egui::TextEdit::singleline(&mut self.saved.filter)
                        .hint_text(tr!("cu-filter-hint"))
                        .desired_width(220.0),
                )
                .labelled_by(l.id);
            let h = ui.checkbox(&mut self.saved.hide_void, tr!("cu-hide-void"));
            if f.changed() || h.changed() {
                commands.push(Command::RefreshCustomerView);
            }
            ui.separator();
            ui.label(tr!(
                "cu-shown",
                shown = self.view.order.len(),
                total = self.rows.len()
            ));
            if self.pending_view.is_some() {
                ui.spinner();
                ui.label(tr!("cu-sorting"));
            }
        });
        ui.horizontal_wrapped(|ui| {
            ui.label(tr!("cu-totals"));
            if self.view.totals.is_empty() {
                ui.label("—");
            }
            for (code, total) in &self.view.totals {
                ui.label(RichText::new(safe(&money::format_amount(*total, Some(code)))).strong())
                    .on_hover_text(safe(code));
            }
        });
        self.export_bar(ui, commands);
        ui.separator();
        if let Some(key) = self.table(ui, commands) {
            let (sort, ascending) = self.wanted_sort;
            let ascending = if sort == key { !ascending } else { true };
            // The header shows the wanted sort at once; the rows follow.
            self.wanted_sort = (key, ascending);
            commands.push(Command::RefreshCustomerView);
        }
    }

    fn export_bar(&mut self, ui: &mut Ui, commands: &mut Vec<Command>) {
        ui.horizontal(|ui| {
            let l = ui.label(tr!("cu-csv-format"));
            egui::ComboBox::from_id_salt("csv_dialect")
                .selected_text(dialect_name(self.saved.dialect))
                .show_ui(ui, |ui| {
                    for d in [Dialect::ExcelEs, Dialect::Standard] {
                        ui.selectable_value(&mut self.saved.dialect, d, dialect_name(d));
                    }
                })
                .response
                .labelled_by(l.id);
            let can = self.can_export();
            let label = tr!("cu-export", count = self.view.order.len());
            if ui.add_enabled(can, egui::Button::new(label)).clicked() {
                commands.push(Command::ExportCsv(None));
            }
            if self.export.is_some() {
                ui.spinner();
                if ui.button(tr!("cu-cancel-export")).clicked() {
                    self.export_cancel
                        .store(true, std::sync::atomic::Ordering::Relaxed);
                }
            }
            if ui.small_button(tr!("cu-save-to-path")).clicked() {
                self.show_path_export = !self.show_path_export;
            }
        });
        if self.show_path_export {
            ui.horizontal(|ui| {
                if self.saved.export_path.is_empty() {
                    self.saved.export_path = default_export_path(&self.loaded_for);
                }
                let l = ui.label(tr!("cu-file"));
                ui.add(
                    egui::TextEdit::singleline(&mut self.saved.export_path).desired_width(360.0),
                )
                .labelled_by(l.id);
                let can = !self.view.order.is_empty()
                    && self.export.is_none()
                    && self.loading.is_none()
                    && !self.saved.export_path.trim().is_empty();
                if ui
                    .add_enabled(can, egui::Button::new(tr!("cu-save-csv")))
                    .clicked()
                {
                    let p = PathBuf::from(self.saved.export_path.trim());
                    commands.push(Command::ExportCsv(Some(p)));
                }
            });
        }
        match &self.export_note {
            Some(Ok(m)) => {
                ui.label(m);
            }
            Some(Err(m)) => widgets::error_text(ui, m),
            None => {}
        }
    }

    /// Draws the table; returns the column the clerk asked to sort by.
    fn table(&mut self, ui: &mut Ui, commands: &mut Vec<Command>) -> Option<SortKey> {
        use egui_extras::{Column, TableBuilder};
        let mut resort = None;
        let row_height = ui.text_style_height(&egui::TextStyle::Body) + 6.0;
        let header = |ui: &mut Ui,
                      wanted: (SortKey, bool),
                      key: SortKey,
                      name: &str,
                      resort: &mut Option<SortKey>| {
            let hint = match (wanted.0 == key, wanted.1) {
                (true, true) => tr!("cu-sorted-asc"),
                (true, false) => tr!("cu-sorted-desc"),
                (false, _) => tr!("cu-sort-by"),
            };
            let r = ui.button(name).on_hover_text(hint);
            if wanted.0 == key {
                // A painted triangle: the bundled fonts have no arrow glyphs.
                let (rect, _) =
                    ui.allocate_exact_size(egui::vec2(10.0, 10.0), egui::Sense::hover());
                let c = rect.center();
                let points = if wanted.1 {
                    vec![
                        c + egui::vec2(-4.0, 3.0),
                        c + egui::vec2(4.0, 3.0),
                        c + egui::vec2(0.0, -3.0),
                    ]
                } else {
                    vec![
                        c + egui::vec2(-4.0, -3.0),
                        c + egui::vec2(4.0, -3.0),
                        c + egui::vec2(0.0, 3.0),
                    ]
                };
                let color = ui.visuals().strong_text_color();
                ui.painter().add(egui::Shape::convex_polygon(
                    points,
                    color,
                    egui::Stroke::NONE,
                ));
            }
            if r.clicked() {
                *resort = Some(key);
            }
        };
        TableBuilder::new(ui)
            .striped(true)
            .sense(egui::Sense::click())
            .cell_layout(egui::Layout::left_to_right(egui::Align::Center))
            .column(Column::initial(170.0).at_least(90.0).clip(true))
            .column(Column::initial(100.0).at_least(80.0))
            .column(Column::initial(140.0).at_least(90.0))
            .column(Column::initial(70.0).at_least(60.0))
            .column(Column::initial(80.0).at_least(60.0))
            .column(Column::remainder().at_least(100.0).clip(true))
            .header(row_height + 4.0, |mut h| {
                h.col(|ui| {
                    header(
                        ui,
                        self.wanted_sort,
                        SortKey::Id,
                        &tr!("col-invoice"),
                        &mut resort,
                    )
                });
                h.col(|ui| {
                    header(
                        ui,
                        self.wanted_sort,
                        SortKey::Due,
                        &tr!("col-due"),
                        &mut resort,
                    )
                });
                h.col(|ui| {
                    header(
                        ui,
                        self.wanted_sort,
                        SortKey::Amount,
                        &tr!("col-amount"),
                        &mut resort,
                    )
                });
                h.col(|ui| {
                    header(
                        ui,
                        self.wanted_sort,
                        SortKey::Currency,
                        &tr!("col-currency"),
                        &mut resort,
                    )
                });
                h.col(|ui| {
                    header(
                        ui,
                        self.wanted_sort,
                        SortKey::Status,
                        &tr!("col-status"),
                        &mut resort,
                    )
                });
                h.col(|ui| {
                    header(
                        ui,
                        self.wanted_sort,
                        SortKey::External,
                        &tr!("col-external"),
                        &mut resort,
                    )
                });
            })
            .body(|body| {
                // Texts shared by all rows: looked up once per frame, not once per row.
                let open_hint = tr!("cu-open-row");
                let missing = tr!("cu-currency-missing");
                let words = [
                    InvoiceStatus::Open,
                    InvoiceStatus::Paid,
                    InvoiceStatus::Void,
                    InvoiceStatus::Unknown,
                ]
                .map(widgets::status_word);
                let word = |s: InvoiceStatus| match s {
                    InvoiceStatus::Open => &words[0],
                    InvoiceStatus::Paid => &words[1],
                    InvoiceStatus::Void => &words[2],
                    InvoiceStatus::Unknown => &words[3],
                };
                body.rows(row_height, self.view.order.len(), |mut row| {
                    let inv = self.rows.get(self.view.order[row.index()]);
                    // Plain (non-selectable) text, so a click anywhere opens the row.
                    // Service text is shown escaped: a bidi override or a control
                    // character cannot reorder or break the row.
                    let cell = |ui: &mut Ui, text: &str| {
                        ui.add(egui::Label::new(safe(text)).selectable(false));
                    };
                    row.col(|ui| cell(ui, &inv.id));
                    row.col(|ui| {
                        cell(
                            ui,
                            &inv.due_date
                                .as_deref()
                                .map_or_else(|| "—".to_string(), super::i18n::date),
                        )
                    });
                    row.col(|ui| {
                        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                            let r = ui.add(
                                egui::Label::new(safe(&inv.amount_display())).selectable(false),
                            );
                            if let Some(code) = &inv.currency_code {
                                r.on_hover_text(safe(code));
                            }
                        });
                    });
                    row.col(|ui| cell(ui, inv.currency_code.as_deref().unwrap_or(&missing)));
                    row.col(|ui| cell(ui, word(inv.status())));
                    row.col(|ui| cell(ui, inv.invoice_external_id.as_deref().unwrap_or("")));
                    if row.response().on_hover_text(open_hint.as_str()).clicked() {
                        commands.push(Command::OpenInLookup(inv.id.clone()));
                    }
                });
            });
        resort
    }
}

fn dialect_name(d: Dialect) -> String {
    match d {
        Dialect::ExcelEs => tr!("dialect-excel"),
        Dialect::Standard => tr!("dialect-standard"),
    }
}

fn sanitize(s: &str) -> String {
    let t: String = s
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if t.is_empty() { "customer".into() } else { t }
}

fn default_export_path(customer: &str) -> String {
    let dir = directories::UserDirs::new()
        .and_then(|u| {
            u.document_dir()
                .map(|d| d.to_path_buf())
                .or_else(|| Some(u.home_dir().to_path_buf()))
        })
        .unwrap_or_else(|| PathBuf::from("."));
    dir.join(format!("invoices-{}.csv", sanitize(customer)))
        .display()
        .to_string()
}
