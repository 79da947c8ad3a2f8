//! Customer invoices: the listing arrives page by page into a table that draws only the
//! visible rows; sort, filter, hide voided, totals per currency, open a row in Lookup,
//! export to CSV.

mod export;
mod model;
mod statement;
mod summary;
mod table;

pub use model::{BACKGROUND_VIEW_ROWS, Rows, Settings, SortKey, View};

use super::command::Command;
use super::session::Session;
use super::task::{Spawner, Task, take_finished};
use super::widgets;
use crate::api::{ApiError, Invoice, ListProgress};
use crate::export::Dialect;
use crate::receivables::aging::{Bucket, Filter, StatusKind};
use crate::text::escape_controls as safe;
use crate::tr;
use crate::ui::command::CustomersCommand;
use chrono::NaiveDate;
use egui::{RichText, Ui};
use serde::{Deserialize, Serialize};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc;

/// How often the progress of a listing is drawn while pages arrive.
const PROGRESS_STEP: std::time::Duration = std::time::Duration::from_millis(150);

/// What is saved between runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CustomersSaved {
    /// Last customer id.
    pub customer_id: String,
    /// Filter text.
    pub filter: String,
    /// Hide voided invoices.
    pub hide_void: bool,
    /// The CSV flavour chosen; `None`: the language's (Excel in Spanish in Spanish).
    pub dialect: Option<Dialect>,
    /// The last path typed for "save to a path".
    pub export_path: String,
    /// Export an Excel workbook (else CSV in `dialect`): the workbook unless the clerk
    /// chose CSV.
    pub workbook: bool,
    /// Only invoices in this status.
    pub status: Option<StatusKind>,
    /// Due from, as typed.
    pub due_from: String,
    /// Due to, as typed.
    pub due_to: String,
    /// Amount from, as typed.
    pub amount_from: String,
    /// Amount to, as typed.
    pub amount_to: String,
    /// A statement says the UF owed in pesos on the day's value (a line under it).
    pub uf_in_pesos: bool,
}

impl Default for CustomersSaved {
    fn default() -> Self {
        CustomersSaved {
            customer_id: String::new(),
            filter: String::new(),
            hide_void: false,
            dialect: None,
            export_path: String::new(),
            // What a clerk opens: an Excel workbook, unless CSV is chosen.
            workbook: true,
            status: None,
            due_from: String::new(),
            due_to: String::new(),
            amount_from: String::new(),
            amount_to: String::new(),
            uf_in_pesos: false,
        }
    }
}

/// Where the file went and how many rows, `None` when no file was chosen.
/// Where the file went, how many rows, and (workbook) how many amounts went as text
/// and how many texts were cut.
type ExportOutcome = Result<Option<(PathBuf, u64, (u64, u64))>, String>;

enum ListEvent {
    /// The customer's name, from the directory.
    Name(Option<String>),
    Page(Vec<Invoice>, ListProgress),
    Done(Result<ListProgress, ApiError>),
}

struct Loading {
    started: std::time::Instant,
    /// When the table last took the pages that had arrived (see [`PROGRESS_STEP`]).
    shown_at: std::time::Instant,
    rx: mpsc::Receiver<ListEvent>,
    abort: tokio::task::AbortHandle,
}

/// The panel's state.
pub struct CustomersPanel {
    /// Put the keyboard focus in the customer field on the next frame.
    focus_request: bool,
    /// The loaded customer's name, from the directory (shown, and in the CSV).
    customer_name: Option<String>,
    /// What the last directory import did: done, or each problem.
    pub directory_note: Option<Result<String, Vec<String>>>,
    saved: CustomersSaved,
    loaded_for: String,
    /// Every page of `loaded_for`'s listing arrived: a statement or its e-mail says
    /// what is owed, so neither is made of a listing that failed part-way.
    listed_whole: bool,
    rows: Rows,
    view: View,
    /// How many of `rows` the view has taken: pages arriving while a listing goes on are
    /// given to the table a few times a second, not each frame (a table growing every
    /// frame has egui's scroll area and grid ask for the next frame at once).
    view_rows: u32,
    loading: Option<Loading>,
    progress: Option<ListProgress>,
    outcome: Option<Result<String, ApiError>>,
    export: Option<Task<ExportOutcome>>,
    export_cancel: Arc<AtomicBool>,
    export_note: Option<Result<String, String>>,
    /// The statement of account being made, and what became of the last one.
    statement: Option<statement::Made>,
    statement_note: Option<Result<String, String>>,
    /// The loaded customer's statement by e-mail: made, shown, sent.
    mail: crate::ui::mailing::OneEmail,
    /// The folder of the last file exported (for "Open folder").
    exported_to: Option<PathBuf>,
    show_path_export: bool,
    /// The directory's import from a typed path (no file dialog appeared): shown, and
    /// the path typed.
    show_import_path: bool,
    import_path: String,
    /// A sort/filter of many rows running on a worker, and how many rows it covers.
    pending_view: Option<(Task<View>, usize)>,
    /// The sort asked for (shown in the header while a worker sorts).
    wanted_sort: (SortKey, bool),
    /// The statement filter in force (the typed ranges as last read without a problem).
    filter: Filter,
    /// What is wrong with the typed ranges (the filter in force stays as it was).
    filter_problems: Vec<String>,
    /// The app's one clock (`AppDeps::clock`).
    clock: crate::ui::Clock,
    /// The currency the chart shows (`None`: the first).
    chart_currency: Option<String>,
    /// Amounts the last workbook wrote as text, and texts it cut.
    exported_notes: (u64, u64),
}

impl CustomersPanel {
    /// A panel with restored settings; `clock` says the day overdue days are counted on.
    pub fn new(saved: CustomersSaved, clock: crate::ui::Clock) -> Self {
        let mut panel = CustomersPanel {
            focus_request: false,
            customer_name: None,
            directory_note: None,
            saved,
            loaded_for: String::new(),
            listed_whole: false,
            rows: Rows::default(),
            view: View::default(),
            view_rows: 0,
            loading: None,
            progress: None,
            outcome: None,
            export: None,
            export_cancel: Arc::new(AtomicBool::new(false)),
            statement: None,
            statement_note: None,
            mail: Default::default(),
            export_note: None,
            exported_to: None,
            show_path_export: false,
            show_import_path: false,
            import_path: String::new(),
            pending_view: None,
            wanted_sort: (SortKey::Received, true),
            filter: Filter::default(),
            filter_problems: Vec::new(),
            clock,
            chart_currency: None,
            exported_notes: (0, 0),
        };
        panel.read_filter();
        panel
    }

    /// The day overdue days are counted on.
    pub fn today(&self) -> NaiveDate {
        self.clock.today()
    }

    /// What the view is made with now.
    fn settings(&self) -> Settings {
        Settings {
            text: self.saved.filter.clone(),
            hide_void: self.saved.hide_void,
            filter: self.filter.clone(),
            today: self.today(),
        }
    }

    /// Shows only one aging bucket of one currency (`None`: every invoice again).
    pub fn set_bucket(&mut self, bucket: Option<(String, Bucket)>, spawner: &Spawner) {
        self.filter.bucket = bucket;
        self.refresh_view(spawner);
    }

    /// No file came from the dialog (cancelled, or no dialog could be shown): the row to
    /// type the file's path opens, and says why.
    pub fn offer_import_path(&mut self) {
        self.show_import_path = true;
        self.directory_note = Some(Ok(tr!("dir-no-file")));
    }

    /// What came of opening the exported file's folder: nothing to say when it opened;
    /// otherwise where the file is.
    pub fn folder_opened(&mut self, dir: &std::path::Path, result: Result<(), String>) {
        if result.is_err() {
            self.export_note = Some(Ok(tr!("cu-folder-not-opened", path = dir.display())));
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

    /// The clerk switched profile: the list came from the previous profile's service
    /// and goes, with its messages.
    pub fn profile_changed(&mut self) {
        if let Some(l) = self.loading.take() {
            l.abort.abort();
        }
        self.clear_rows();
        self.loaded_for.clear();
        self.listed_whole = false;
        self.progress = None;
    }

    /// A statement (or its e-mail) can be made of what is listed: one customer's
    /// listing, whole, and nothing loading.
    fn statement_ready(&self) -> bool {
        self.loading.is_none() && !self.loaded_for.is_empty() && self.listed_whole
    }

    /// No rows, and no messages about the old ones; the sort and filter stay. A worker
    /// still sorting the old rows is stopped (its order would not fit the new ones).
    fn clear_rows(&mut self) {
        if let Some((t, _)) = self.pending_view.take() {
            t.cancel();
        }
        // A listing of 100,000 invoices is a million allocations to free (tens of ms): freed
        // on a thread of its own, not in the frame that answers the clerk's Enter.
        let old = std::mem::take(&mut self.rows);
        if old.len() > 1_000 {
            std::thread::spawn(move || drop(old));
        }
        let settings = self.settings();
        self.view
            .rebuild(&self.rows, self.view.sort, self.view.ascending, &settings);
        self.view_rows = 0;
        self.outcome = None;
        self.export_note = None;
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
        let settings = self.settings();
        if self.rows.len() <= BACKGROUND_VIEW_ROWS {
            self.view.rebuild(&self.rows, sort, ascending, &settings);
            self.view_rows = self.rows.len() as u32;
            return;
        }
        let rows = self.rows.clone();
        let n = rows.len();
        let work = async move {
            tokio::task::spawn_blocking(move || {
                let mut v = View::default();
                v.rebuild(&rows, sort, ascending, &settings);
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

    /// Puts `id` in the customer field (the Cartera panel opens a customer so).
    pub fn set_customer_id(&mut self, id: &str) {
        self.saved.customer_id = id.to_string();
    }

    /// Starts loading the customer in the field, page by page; the end is drawn at once.
    pub fn start(
        &mut self,
        session: Arc<Session>,
        spawner: &Spawner,
        journal: crate::ui::journal::AppJournal,
    ) {
        let id = self.saved.customer_id.trim().to_string();
        if id.is_empty() {
            return;
        }
        self.cancel();
        if id != self.loaded_for {
            // What was said of the last customer's statement and e-mail is not said
            // under this one (#68).
            self.statement_note = None;
            self.mail.forget();
        }
        self.loaded_for = id.clone();
        self.listed_whole = false;
        // A bucket was a click on the previous list's aging; the typed filters stay.
        self.filter.bucket = None;
        self.clear_rows();
        self.progress = Some(ListProgress::default());
        self.customer_name = None;
        super::trace_line!("listing asked for unix_ms={}", super::unix_ms());
        let (tx, rx) = mpsc::channel();
        let ctx = spawner.ctx.clone();
        let index_place = crate::search::index::place_for(journal.place());
        // The listing begins at once: its first page is decoded while the frame that
        // answers Enter is painted. Begun after that frame, the first rows came later
        // (desktop.sh under load, medians 88–104 against 74–90 ms, #51); the earlier
        // figures that favoured waiting were taken by a screen watcher using a core.
        // The emptied table and the spinner are drawn at once, not with the first page.
        ctx.request_repaint();
        let work = spawner.rt.spawn(async move {
            // The name is looked up while the first page is asked for, not before.
            let known = id.clone();
            let names = tx.clone();
            let name = async {
                let name = journal
                    .read(move |j| j.customer_names(&[known.as_str()]))
                    .await
                    .ok()
                    .and_then(|mut names| names.remove(&id));
                let _ = names.send(ListEvent::Name(name));
            };
            let (pages, repaint) = (tx.clone(), ctx.clone());
            // What is listed is kept for the search box (once the listing is whole).
            let at = chrono::Utc::now();
            let mut seen = Vec::new();
            let mut asked: Option<std::time::Instant> = None;
            let list = session.client.list_customer_invoices_with(
                &id,
                crate::api::client::Decoding::TwoAtOnce,
                |items, p| {
                    if p.pages == 1 {
                        super::trace_line!("first page in hand unix_ms={}", super::unix_ms());
                    }
                    crate::search::Seen::keep_page(&mut seen, items, at);
                    let _ = pages.send(ListEvent::Page(std::mem::take(items), *p));
                    // Progress is drawn a few times a second, not once a page: under
                    // software GL a frame costs more than a page of 1,000 invoices. One
                    // repaint asked for at a time (each page asking for one "in 150 ms" had
                    // the window drawn again and again once the first came due): the first
                    // page at once, so the clerk sees rows while the rest arrive, then the
                    // first page after each step.
                    if asked.is_none_or(|t| t.elapsed() >= PROGRESS_STEP) {
                        asked = Some(std::time::Instant::now());
                        repaint.request_repaint();
                    }
                    ControlFlow::Continue(())
                },
            );
            let ((), result) = tokio::join!(name, list);
            if result.is_ok() {
                // The directory learns every customer listed.
                let learnt = id.clone();
                let _ = journal
                    .read(move |j| j.learn_customers([learnt.as_str()]))
                    .await;
                let base_url = session.profile.base_url.clone();
                crate::search::keep_listed_in_background(index_place, base_url, seen);
            }
            let _ = tx.send(ListEvent::Done(result));
            ctx.request_repaint();
        });
        self.loading = Some(Loading {
            started: std::time::Instant::now(),
            shown_at: std::time::Instant::now(),
            rx,
            abort: work.abort_handle(),
        });
    }

    /// The loaded customer: its id, and its name when the directory knows it.
    fn customer_shown(&self) -> String {
        match &self.customer_name {
            Some(n) => format!("{} ({})", safe(n), safe(&self.loaded_for)),
            None => safe(&self.loaded_for).into_owned(),
        }
    }

    /// Gives the table the rows that arrived since it last took them.
    fn show_new_rows(&mut self) {
        let n = self.rows.len() as u32;
        if self.view_rows < n {
            self.view.append(&self.rows, self.view_rows..n);
            self.view_rows = n;
        }
        if let Some(l) = &mut self.loading {
            l.shown_at = std::time::Instant::now();
        }
    }

    /// Stops the listing; what arrived stays.
    pub fn cancel(&mut self) {
        if let Some(l) = self.loading.take() {
            l.abort.abort();
            self.show_new_rows();
            let n = self.rows.len();
            self.outcome = Some(Ok(tr!("cu-stopped", count = n)));
        }
    }

    /// Draws the panel.
    pub fn ui(
        &mut self,
        ui: &mut Ui,
        session: Option<&Session>,
        suggestions: &widgets::Suggestions,
        uf: &widgets::UfShown,
        commands: &mut Vec<Command>,
    ) {
        ui.heading(tr!("tab-customers"));
        let field = ui.horizontal(|ui| {
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
                commands.push(Command::Customers(CustomersCommand::LoadCustomer));
            }
            if self.loading.is_some() {
                crate::ui::widgets::busy(ui);
                let p = self.progress.unwrap_or_default();
                ui.label(tr!("cu-loading", pages = p.pages, count = p.items));
                if ui.button(tr!("cancel")).clicked() {
                    commands.push(Command::Customers(CustomersCommand::CancelLoad));
                }
            }
            r
        });
        widgets::customer_suggestions(
            ui,
            &field.inner,
            &mut self.saved.customer_id,
            suggestions,
            commands,
        );
        ui.horizontal(|ui| {
            if ui.small_button(tr!("dir-import")).clicked() {
                commands.push(Command::Customers(CustomersCommand::ImportCustomers));
            }
            if let Some(note) = &self.directory_note {
                match note {
                    Ok(t) => {
                        ui.label(t.as_str());
                    }
                    Err(lines) => {
                        ui.vertical(|ui| {
                            for l in lines {
                                widgets::error_text(ui, l);
                            }
                        });
                    }
                }
            }
        });
        // Under the button that asked for it: nothing above the pointer moves.
        if self.show_import_path {
            ui.horizontal(|ui| {
                let l = ui.label(tr!("dir-import-path"));
                ui.add(
                    egui::TextEdit::singleline(&mut self.import_path)
                        .hint_text(tr!("dir-import-path-hint"))
                        .desired_width(widgets::field_width(ui)),
                )
                .labelled_by(l.id);
                if ui
                    .add_enabled(
                        !self.import_path.trim().is_empty(),
                        egui::Button::new(tr!("dir-import-from")),
                    )
                    .clicked()
                {
                    commands.push(Command::Customers(CustomersCommand::ImportCustomersFrom(
                        self.import_path.trim().into(),
                    )));
                }
            });
        }
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
        self.filter_rows(ui, commands);
        ui.horizontal_wrapped(|ui| {
            ui.label(tr!("cu-totals"));
            if self.view.totals.is_empty() {
                ui.label("—");
            }
            for (i, (code, total)) in self.view.totals.iter().enumerate() {
                // Each currency's total apart (a UF's pesos stand between them).
                if i > 0 {
                    ui.label("·");
                }
                ui.label(RichText::new(summary::total_text(*total, code)).strong())
                    .on_hover_text(safe(code));
                // The UF's total in pesos on today's value, its day said.
                if code == "CLF"
                    && let Some(v) = total.value()
                {
                    uf.pesos_line(ui, v);
                }
            }
        });
        self.export_bar(ui, commands);
        self.statement_bar(ui, session, commands);
        self.statement(ui, commands);
        ui.separator();
        if let Some(key) = self.table(ui, commands) {
            let (sort, ascending) = self.wanted_sort;
            let ascending = if sort == key { !ascending } else { true };
            // The header shows the wanted sort at once; the rows follow.
            self.wanted_sort = (key, ascending);
            commands.push(Command::Customers(CustomersCommand::RefreshCustomerView));
        }
    }
}

impl crate::ui::Panel for CustomersPanel {
    /// Takes finished work (called by the app every frame).
    fn poll(&mut self) {
        self.poll_statement();
        if let Some(r) = take_finished(&mut self.export) {
            self.exported_to = None;
            self.export_note = Some(match crate::ui::task::flat(r) {
                Ok(Some((p, n, notes))) => {
                    self.exported_to = p.parent().map(|d| d.to_path_buf());
                    self.exported_notes = notes;
                    Ok(tr!("cu-exported", count = n, path = p.display()))
                }
                Ok(None) => Err(tr!("cu-no-file")),
                Err(e) => Err(e),
            });
            if matches!(self.export_note, Some(Err(_))) {
                self.open_path_row();
            }
        }
        if let Some((task, n)) = self.pending_view.take() {
            match task.try_take() {
                Ok(Ok(view)) => {
                    self.view = view;
                    // Pages that arrived while the worker sorted are merged in.
                    self.view_rows = n as u32;
                    self.show_new_rows();
                }
                Ok(Err(_)) => {}
                Err(task) => self.pending_view = Some((task, n)),
            }
        }
        let Some(loading) = &mut self.loading else {
            return;
        };
        let mut done = None;
        while let Ok(ev) = loading.rx.try_recv() {
            match ev {
                ListEvent::Name(n) => self.customer_name = n,
                ListEvent::Page(items, p) => {
                    self.rows.push_page(items);
                    self.progress = Some(p);
                }
                ListEvent::Done(r) => done = Some(r),
            }
        }
        let first_rows = self.view_rows == 0 && !self.rows.is_empty();
        if done.is_some() || first_rows || loading.shown_at.elapsed() >= PROGRESS_STEP {
            self.show_new_rows();
        }
        if let Some(r) = done {
            if let Some(l) = &self.loading {
                super::trace_line!(
                    "listing {} invoices in {} ms unix_ms={}",
                    self.rows.len(),
                    l.started.elapsed().as_millis(),
                    super::unix_ms()
                );
            }
            self.loading = None;
            self.listed_whole = r.is_ok();
            self.outcome =
                Some(r.map(|p| tr!("cu-done", count = p.items, customer = self.customer_shown())));
        }
    }
}
