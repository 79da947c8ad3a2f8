//! Activity: the journal on screen. Newest first (today's on top), filtered by day range,
//! action, outcome and a search; the outcomes still unknown above, with Check now; a row
//! with an invoice opens it in Lookup; export to CSV. The journal is read off the UI
//! thread a page at a time, and only the visible rows are drawn: it stays fast at
//! 100,000 entries.

use super::command::Command;
use super::journal::AppJournal;
use super::task::{Spawner, Task, take_finished};
use super::widgets;
use crate::journal::{Action, Entry, Filter, Outcome};
use crate::text::escape_controls as safe;
use crate::tr;
use crate::ui::command::{CustomersCommand, IssueCommand, LookupCommand, WindowCommand};
use egui::{RichText, Ui};
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

/// Rows read from the journal at a time.
const PAGE: u64 = 200;
/// The most clerks the clerk filter offers (a desk is a few dozen at most).
const CLERKS_LISTED: u64 = 200;

/// Reading the journal: the count of entries matching, and the outcomes still unknown.
/// What a refresh reads: the count, the entries to check, the clerks, and the latest
/// contract changes (their lines).
type Query = Task<Result<Read, String>>;

/// What a query reads besides the pages: the total, the unknowns, the clerks, the
/// latest contract changes, the desk's requests for approval.
type Read = (
    u64,
    Vec<Entry>,
    Vec<String>,
    Vec<String>,
    Vec<crate::journal::approvals::Request>,
    HashMap<i64, crate::journal::approvals::ApprovedBy>,
);

/// The contract changes Activity lists, newest first.
const CONTRACT_CHANGES_LISTED: usize = 50;
/// Reading one page: (query generation, page number, its rows).
type PageTask = (u64, u64, Task<Result<Vec<Entry>, String>>);
/// Exporting: the file and the rows written (`None`: the dialog was closed).
type Export = Task<Result<Option<(PathBuf, u64)>, String>>;

/// The filters as typed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ActivityFilters {
    /// First day (as typed, the language's way).
    pub since: String,
    /// Last day.
    pub until: String,
    /// Only this action.
    pub action: Option<Action>,
    /// Only this outcome.
    pub outcome: Option<Outcome>,
    /// Customer, invoice id or reference contains this.
    pub text: String,
    /// Only this clerk's entries (as the journal names them).
    pub clerk: Option<String>,
}

/// The Activity panel.
#[derive(Default)]
pub struct ActivityPanel {
    /// The filters.
    pub filters: ActivityFilters,
    /// Bumped by every new query: pages of an older one are dropped.
    generation: u64,
    query: Option<Query>,
    total: Option<u64>,
    unknown: Vec<Entry>,
    pages: HashMap<u64, Vec<Entry>>,
    /// The "who" column's width for the pages read (measured once when they change, not
    /// every frame).
    who_width: Option<f32>,
    /// Who wrote entries in the journal, for the clerk filter.
    clerks: Vec<String>,
    /// The latest contract changes, newest first (lines in the clerk's words).
    contract_changes: Vec<String>,
    /// Customers of the entries just read, whose names are to be looked up.
    fresh_customers: Vec<String>,
    requested: HashSet<u64>,
    page_tasks: Vec<PageTask>,
    error: Option<String>,
    export: Option<Export>,
    export_note: Option<Result<String, String>>,
    /// The desk's requests for approval ("Por aprobar").
    pub approvals: crate::ui::approvals::Approvals,
}

impl ActivityPanel {
    /// The journal filter the typed filters make; `Err`: what is wrong with a date.
    fn filter(&self) -> Result<Filter, String> {
        let day = |text: &str| -> Result<Option<chrono::NaiveDate>, String> {
            let t = text.trim();
            if t.is_empty() {
                return Ok(None);
            }
            crate::input::parse_date(t, widgets::date_order())
                .map(Some)
                .map_err(|_| tr!("act-bad-date", text = safe(t)))
        };
        Ok(Filter {
            since: day(&self.filters.since)?,
            until: day(&self.filters.until)?,
            action: self.filters.action,
            outcome: self.filters.outcome,
            text: Some(self.filters.text.trim().to_string()).filter(|t| !t.is_empty()),
            user: self.filters.clerk.clone(),
            ..Filter::default()
        })
    }

    /// Reads the journal again from the top (the filters changed, or it did).
    pub fn refresh(&mut self, journal: &AppJournal, spawner: &Spawner) {
        self.generation += 1;
        self.pages.clear();
        self.who_width = None;
        self.requested.clear();
        self.page_tasks.clear();
        let filter = match self.filter() {
            Ok(f) => f,
            Err(e) => {
                self.error = Some(e);
                self.total = Some(0);
                return;
            }
        };
        self.error = None;
        let journal = journal.clone();
        self.query = Some(spawner.spawn(async move {
            journal
                .read(move |j| {
                    let total = j.count(&filter)?;
                    let unknown = j.unknown()?;
                    let clerks = j.clerks(CLERKS_LISTED)?;
                    // A desk's journal older than contracts has none to list.
                    let changes = crate::contracts::kept_in(j)
                        .unwrap_or_default()
                        .iter()
                        .rev()
                        .take(CONTRACT_CHANGES_LISTED)
                        .map(crate::i18n::contract_event_line)
                        .collect();
                    // A desk's journal older than approvals has none to list.
                    let mut requests = j
                        .approval_requests(crate::journal::approvals::Which::All)
                        .unwrap_or_default();
                    requests.truncate(crate::ui::approvals::LISTED);
                    let used = j.approvals_used().unwrap_or_default();
                    Ok((total, unknown, clerks, changes, requests, used))
                })
                .await
        }));
    }

    /// Reads the page `page` (of [`PAGE`] rows, newest first).
    pub fn load_page(&mut self, page: u64, journal: &AppJournal, spawner: &Spawner) {
        let Ok(filter) = self.filter() else { return };
        if !self.requested.insert(page) {
            return;
        }
        let journal = journal.clone();
        let task = spawner.spawn(async move {
            journal
                .read(move |j| j.list(&filter, true, page * PAGE, PAGE))
                .await
        });
        self.page_tasks.push((self.generation, page, task));
    }

    /// Exports the entries the filters select, through the save dialog.
    pub fn export_csv(&mut self, journal: &AppJournal, spawner: &Spawner) {
        let Ok(filter) = self.filter() else { return };
        if self.export.is_some() {
            return;
        }
        self.export_note = None;
        let journal = journal.clone();
        let name = format!("{}.csv", tr!("act-file-name"));
        self.export = Some(spawner.spawn(async move {
            let Some(file) = rfd::AsyncFileDialog::new()
                .set_title(tr!("act-dialog-title"))
                .set_file_name(&name)
                .add_filter("CSV", &["csv"])
                .save_file()
                .await
            else {
                return Ok(None);
            };
            let path = file.path().to_path_buf();
            let target = crate::fsutil::check_destination(&path)
                .map_err(|e| crate::i18n::destination_error(&e))?;
            let shown = path.clone();
            let n = journal
                .read(move |j| {
                    crate::journal::export_csv(j, &filter, &target).map_err(|e| {
                        crate::journal::JournalError::Write {
                            path: target.clone(),
                            why: e.to_string(),
                            trouble: crate::journal::Trouble::Other,
                        }
                    })
                })
                .await
                .map_err(|_| tr!("act-export-failed", path = shown.display()))?;
            Ok(Some((path, n)))
        }));
    }

    /// Draws the panel.
    pub fn ui(
        &mut self,
        ui: &mut Ui,
        checking: bool,
        connected: bool,
        words: &Words<'_>,
        commands: &mut Vec<Command>,
    ) {
        ui.heading(if words.shared {
            tr!("act-title-shared")
        } else {
            tr!("act-title")
        });
        ui.add_space(4.0);
        let before = self.filters.clone();
        self.filters_ui(ui);
        if self.filters != before {
            commands.push(Command::Window(WindowCommand::ActivityRefresh));
        }
        if let Some(e) = &self.error {
            widgets::error_text(ui, e);
        }
        if !self.unknown.is_empty() {
            self.unknown_ui(ui, checking, connected, words, commands);
        }
        self.approvals.ui(ui, commands);
        if std::mem::take(&mut self.approvals.changed) {
            commands.push(Command::Window(WindowCommand::ActivityRefresh));
        }
        ui.horizontal(|ui| {
            match self.total {
                Some(n) => ui.label(tr!("act-count", count = n)),
                None => {
                    widgets::busy(ui);
                    ui.label(tr!("act-reading"))
                }
            };
            let exporting = self.export.is_some();
            if ui
                .add_enabled(
                    !exporting && self.total.is_some_and(|n| n > 0),
                    egui::Button::new(tr!("act-export")),
                )
                .clicked()
            {
                commands.push(Command::Window(WindowCommand::ActivityExport));
            }
            if exporting {
                widgets::busy(ui);
            }
            match &self.export_note {
                Some(Ok(t)) => {
                    ui.label(t.as_str());
                }
                Some(Err(e)) => widgets::error_text(ui, e),
                None => {}
            }
        });
        if !self.contract_changes.is_empty() {
            egui::CollapsingHeader::new(tr!(
                "act-contract-changes",
                count = self.contract_changes.len()
            ))
            .id_salt("act_contract_changes")
            .show(ui, |ui| {
                egui::ScrollArea::vertical()
                    .id_salt("act_contract_changes_list")
                    .max_height(120.0)
                    .show(ui, |ui| {
                        for line in &self.contract_changes {
                            ui.label(line.as_str());
                        }
                    });
            });
        }
        ui.separator();
        // The names of the customers on the pages just read (looked up once each).
        let fresh = std::mem::take(&mut self.fresh_customers);
        let wanted = words.names.missing(fresh.iter().map(String::as_str));
        if !wanted.is_empty() {
            commands.push(Command::Customers(CustomersCommand::WantNames(wanted)));
        }
        self.table(ui, words, commands);
    }

    fn filters_ui(&mut self, ui: &mut Ui) {
        egui::Grid::new("activity_filters")
            .num_columns(2)
            .spacing([12.0, 6.0])
            .show(ui, |ui| {
                ui.label(tr!("act-days"));
                ui.horizontal(|ui| {
                    for (value, hint, name) in [
                        (
                            &mut self.filters.since,
                            tr!("act-since-hint"),
                            tr!("act-since"),
                        ),
                        (
                            &mut self.filters.until,
                            tr!("act-until-hint"),
                            tr!("act-until"),
                        ),
                    ] {
                        let n = ui.label(name);
                        ui.add(
                            egui::TextEdit::singleline(value)
                                .hint_text(hint)
                                .desired_width(110.0),
                        )
                        .labelled_by(n.id);
                    }
                    if ui.small_button(tr!("act-today")).clicked() {
                        let today = widgets::date_written(chrono::Local::now().date_naive());
                        self.filters.since = today.clone();
                        self.filters.until = today;
                    }
                    if ui.small_button(tr!("act-all-days")).clicked() {
                        self.filters.since.clear();
                        self.filters.until.clear();
                    }
                });
                ui.end_row();
                any_of(
                    ui,
                    &tr!("act-action"),
                    &mut self.filters.action,
                    &[Action::Create, Action::Void, Action::Export],
                    crate::i18n::action_word,
                );
                any_of(
                    ui,
                    &tr!("act-outcome"),
                    &mut self.filters.outcome,
                    &[Outcome::Done, Outcome::Refused, Outcome::Unknown],
                    crate::i18n::outcome_word,
                );
                if self.clerks.len() > 1 || self.filters.clerk.is_some() {
                    let l = ui.label(tr!("act-clerk"));
                    let clerk = &mut self.filters.clerk;
                    let shown = clerk
                        .as_deref()
                        .map_or_else(|| tr!("act-any"), crate::i18n::who);
                    egui::ComboBox::from_id_salt("act-clerk")
                        .selected_text(shown)
                        .show_ui(ui, |ui| {
                            widgets::choice(ui, clerk, None, tr!("act-any"));
                            for c in &self.clerks {
                                widgets::choice(ui, clerk, Some(c.clone()), crate::i18n::who(c));
                            }
                        })
                        .response
                        .labelled_by(l.id);
                    ui.end_row();
                }
                let l = ui.label(tr!("act-search"));
                ui.add(
                    egui::TextEdit::singleline(&mut self.filters.text)
                        .hint_text(tr!("act-search-hint"))
                        .desired_width(widgets::field_width(ui)),
                )
                .labelled_by(l.id);
                ui.end_row();
            });
    }

    fn unknown_ui(
        &self,
        ui: &mut Ui,
        checking: bool,
        connected: bool,
        words: &Words<'_>,
        commands: &mut Vec<Command>,
    ) {
        egui::Frame::group(ui.style()).show(ui, |ui| {
            ui.horizontal(|ui| {
                widgets::chip(
                    ui,
                    &tr!("journal-to-check", count = self.unknown.len()),
                    widgets::CHIP_COLORS[2],
                );
                ui.label(tr!("journal-to-check-hint"));
            });
            ui.horizontal(|ui| {
                if ui
                    .add_enabled(
                        !checking && connected,
                        egui::Button::new(tr!("journal-check-now")),
                    )
                    .clicked()
                {
                    commands.push(Command::issue(IssueCommand::CheckJournal));
                }
                if checking {
                    widgets::busy(ui);
                }
                if !connected {
                    ui.label(tr!("act-connect-to-check"));
                }
            });
            // Usually a handful; at most the first 20 here, all in the table below.
            for e in self.unknown.iter().rev().take(20) {
                ui.label(format!(
                    "{}  ·  {}  ·  {}  ·  {}  ·  {}",
                    local_time(&e.time),
                    crate::i18n::action_word(e.action),
                    words.customer(e.customer.as_deref()),
                    words.amount(e),
                    safe(&reference(e)),
                ));
            }
        });
    }

    fn table(&mut self, ui: &mut Ui, words: &Words<'_>, commands: &mut Vec<Command>) {
        use egui_extras::Column;
        let total = self.total.unwrap_or(0);
        let row_height = ui.text_style_height(&egui::TextStyle::Body) + 6.0;
        let mut wanted = Vec::new();
        let open_hint = tr!("act-open-row");
        let who_width = *self.who_width.get_or_insert_with(|| {
            // The widest "who" of the first 200 entries read (enough to size it, and
            // the same every frame: no column that jitters).
            let font = egui::TextStyle::Body.resolve(ui.style());
            let mut read: Vec<u64> = self.pages.keys().copied().collect();
            read.sort_unstable();
            read.iter()
                .flat_map(|k| &self.pages[k])
                .take(200)
                .map(|e| {
                    ui.fonts_mut(|f| {
                        f.layout_no_wrap(who(e), font.clone(), egui::Color32::WHITE)
                            .size()
                            .x
                    })
                })
                .fold(180.0_f32, f32::max)
                .min(380.0)
                + 8.0
        });
        widgets::grid(
            ui,
            &tr!("act-table"),
            total as usize,
            7,
            true,
            |ui, grid| {
                crate::ui::widgets::table(ui, row_height)
                    // A click opens the row; Tab stops at the row, not at each cell.
                    .sense(egui::Sense::CLICK)
                    // Every column clips: a long text never pushes the next column aside.
                    .column(Column::initial(125.0).at_least(100.0).clip(true))
                    // Who: as wide as what it says (a role, a name, a computer and the profile),
                    // up to a limit; past it, the whole text on hover (#68: it was cut at 180).
                    .column(Column::exact(who_width).clip(true))
                    .column(Column::initial(95.0).at_least(70.0).clip(true))
                    .column(Column::initial(190.0).at_least(80.0).clip(true))
                    .column(Column::initial(120.0).at_least(90.0).clip(true))
                    .column(Column::initial(200.0).at_least(100.0).clip(true))
                    .column(Column::remainder().at_least(120.0).clip(true))
                    .header(row_height + 4.0, |mut h| {
                        let mut h = grid.header(&mut h);
                        for name in [
                            tr!("act-col-time"),
                            tr!("act-col-who"),
                            tr!("act-col-action"),
                            tr!("act-col-customer"),
                            tr!("act-col-amount"),
                            tr!("act-col-what"),
                            tr!("act-col-outcome"),
                        ] {
                            h.col(|ui| {
                                ui.strong(name);
                            });
                        }
                    })
                    .body(|body| {
                        body.rows(row_height, total as usize, |mut row| {
                            let i = row.index() as u64;
                            let mut row = grid.row(&mut row);
                            let Some(e) = self
                                .pages
                                .get(&(i / PAGE))
                                .and_then(|p| p.get((i % PAGE) as usize))
                            else {
                                wanted.push(i / PAGE);
                                row.col(|ui| {
                                    ui.label("…");
                                });
                                return;
                            };
                            // Plain (non-selectable) text, so a click anywhere opens the row.
                            // The whole text on hover, for one the column cuts.
                            let cell = |ui: &mut Ui, text: &str| {
                                let r = ui.add(egui::Label::new(text).selectable(false));
                                if r.rect.width() >= ui.max_rect().width() - 1.0 {
                                    r.on_hover_text(text);
                                }
                            };
                            for text in [
                                local_time(&e.time),
                                who(e),
                                crate::i18n::action_word(e.action),
                                words.customer(e.customer.as_deref()),
                                words.amount(e),
                                match self.approvals.used.get(&e.seq) {
                                    Some(a) => format!(
                                        "{}, {}",
                                        safe(&reference(e)),
                                        crate::i18n::approved_by(a)
                                    ),
                                    None => safe(&reference(e)).into_owned(),
                                },
                            ] {
                                row.col_said(&text, |ui| cell(ui, &text));
                            }
                            row.col_said(&outcome_words(e), |ui| {
                                outcome_cell(ui, e);
                            });
                            let (r, open) = row.finish();
                            if let Some(id) = e
                                .invoice_id
                                .as_deref()
                                .filter(|_| e.action != Action::Export)
                            {
                                r.on_hover_text(&open_hint);
                                if open {
                                    commands.push(Command::Lookup(LookupCommand::OpenInLookup {
                                        id: id.to_string(),
                                        from_list: false,
                                    }));
                                }
                            }
                        });
                    });
            },
        );
        wanted.sort_unstable();
        wanted.dedup();
        for p in wanted {
            if !self.requested.contains(&p) {
                commands.push(Command::Window(WindowCommand::ActivityPage(p)));
            }
        }
    }
}

/// A filter row: "Any" or one of `choices`, in words. Ends the grid row.
fn any_of<T: Copy + PartialEq>(
    ui: &mut Ui,
    label: &str,
    value: &mut Option<T>,
    choices: &[T],
    word: fn(T) -> String,
) {
    let l = ui.label(label);
    egui::ComboBox::from_id_salt(label)
        .selected_text(value.map_or_else(|| tr!("act-any"), word))
        .show_ui(ui, |ui| {
            widgets::choice(ui, value, None, tr!("act-any"));
            for c in choices {
                widgets::choice(ui, value, Some(*c), word(*c));
            }
        })
        .response
        .labelled_by(l.id);
    ui.end_row();
}

/// Who wrote an entry, and through which profile (a desk's clerks use several).
fn who(e: &Entry) -> String {
    format!("{} · {}", crate::i18n::writer(e), safe(&e.profile))
}

fn outcome_cell(ui: &mut Ui, e: &Entry) {
    let color = match e.outcome {
        Outcome::Done => widgets::CHIP_COLORS[1],
        Outcome::Refused => widgets::CHIP_COLORS[3],
        Outcome::Unknown => widgets::CHIP_COLORS[2],
    };
    widgets::chip(ui, &crate::i18n::outcome_word(e.outcome), color);
    if let Some(code) = service_code_text(e) {
        ui.add(egui::Label::new(code).selectable(false));
    }
    if e.checked {
        ui.add(egui::Label::new(RichText::new(tr!("act-checked")).weak()).selectable(false));
    }
}

/// The service's code with its meaning: "TK20400 · el cliente no existe".
fn service_code_text(e: &Entry) -> Option<String> {
    let code = e.error_code.as_ref()?;
    Some(match crate::i18n::service_code_words(code) {
        Some(w) => format!("{} · {w}", safe(code)),
        None => safe(code).into_owned(),
    })
}

/// What [`outcome_cell`] shows, in words (the focused row's name).
fn outcome_words(e: &Entry) -> String {
    let mut words = vec![crate::i18n::outcome_word(e.outcome)];
    words.extend(service_code_text(e));
    if e.checked {
        words.push(tr!("act-checked"));
    }
    words.join(" · ")
}

fn local_time(rfc3339: &str) -> String {
    let format = match crate::i18n::current() {
        crate::i18n::Lang::Es => "%d-%m-%Y %H:%M",
        crate::i18n::Lang::En => "%Y-%m-%d %H:%M",
    };
    chrono::DateTime::parse_from_rfc3339(rfc3339)
        .map(|t| t.with_timezone(&chrono::Local).format(format).to_string())
        .unwrap_or_else(|_| safe(rfc3339).into_owned())
}

/// What the Activity panel reads its entries with: the directory's names, and each
/// profile's account currency (an entry that left the currency to the account is shown
/// in it: "$450.000").
pub struct Words<'a> {
    /// The directory's names.
    pub names: &'a widgets::Names,
    /// The profiles, for their account currency.
    pub profiles: &'a crate::profile::Profiles,
    /// The journal is the desk's shared one (its entries are everybody's).
    pub shared: bool,
}

impl Words<'_> {
    fn customer(&self, id: Option<&str>) -> String {
        id.map(|id| self.names.label(id)).unwrap_or_default()
    }

    fn amount(&self, e: &Entry) -> String {
        let Some(a) = e.amount.as_deref() else {
            return e
                .rows
                .map(|n| tr!("act-rows", count = n))
                .unwrap_or_default();
        };
        let account = self
            .profiles
            .get(&e.profile)
            .and_then(|p| p.account_currency)
            .map(|c| c.code().to_string());
        match crate::api::money::parse_plain_decimal(a) {
            Some(d) => match e.currency_code.as_ref().or(account.as_ref()) {
                Some(c) => crate::api::money::format_amount(d, Some(c)),
                None => tr!(
                    "act-account-currency",
                    amount = crate::api::money::format_es_cl(d, 0)
                ),
            },
            None => safe(a).into_owned(),
        }
    }
}

fn reference(e: &Entry) -> String {
    match e.action {
        Action::Create => match (&e.external_id, &e.invoice_id) {
            (Some(r), Some(id)) => format!("{r} · {id}"),
            (Some(r), None) => r.clone(),
            (None, Some(id)) => id.clone(),
            (None, None) => String::new(),
        },
        Action::Void => e.invoice_id.clone().unwrap_or_default(),
        Action::Export => e.file_name.clone().unwrap_or_default(),
        Action::Email => e
            .external_id
            .as_deref()
            .map(|k| crate::mail::key_words_in(crate::i18n::current(), k))
            .unwrap_or_default(),
    }
}

impl crate::ui::Panel for ActivityPanel {
    /// Takes finished work (called by the app every frame).
    fn poll(&mut self) {
        if let Some(r) = take_finished(&mut self.query) {
            match crate::ui::task::flat(r) {
                Ok((total, unknown, clerks, changes, requests, used)) => {
                    self.total = Some(total);
                    self.approvals.requests = requests;
                    self.approvals.used = used;
                    self.clerks = clerks;
                    self.contract_changes = changes;
                    self.fresh_customers
                        .extend(unknown.iter().filter_map(|e| e.customer.clone()));
                    self.unknown = unknown;
                }
                Err(e) => self.error = Some(e),
            }
        }
        self.approvals.poll();
        let generation = self.generation;
        let mut still = Vec::new();
        for (g, page, task) in std::mem::take(&mut self.page_tasks) {
            match task.try_take() {
                Ok(r) if g == generation => match crate::ui::task::flat(r) {
                    Ok(rows) => {
                        self.fresh_customers
                            .extend(rows.iter().filter_map(|e| e.customer.clone()));
                        self.pages.insert(page, rows);
                        self.who_width = None;
                    }
                    Err(e) => self.error = Some(e),
                },
                Ok(_) => {}
                Err(task) => still.push((g, page, task)),
            }
        }
        self.page_tasks = still;
        if let Some(r) = take_finished(&mut self.export) {
            self.export_note = match crate::ui::task::flat(r) {
                Ok(Some((p, n))) => Some(Ok(tr!("act-exported", count = n, path = p.display()))),
                Ok(None) => None,
                Err(e) => Some(Err(e)),
            };
        }
    }
}
