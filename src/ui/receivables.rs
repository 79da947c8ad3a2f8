//! The Cartera (receivables) panel: what every customer the directory knows owes today,
//! listed a few customers at a time with progress and a stop, filtered and sorted by the
//! clerk; a click opens that customer's invoices. A customer whose invoices could not be
//! listed is said as such, never as owing nothing.

use super::command::Command;
use super::task::{Spawner, Task};
use super::widgets;
use crate::receivables::aging::Total;
use crate::receivables::{Only, Row, totals};
use crate::tr;
use crate::ui::command::{CustomersCommand, ReceivablesCommand, WindowCommand};
use egui::Ui;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// Customers listed at once.
const AT_ONCE: usize = 8;
/// The most customers one review takes.
const MAX_CUSTOMERS: u64 = 100_000;

/// Which customers are shown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Show {
    /// Everyone.
    #[default]
    All,
    /// Only those with something overdue.
    Overdue,
    /// Only those with something more than 60 days overdue.
    Over60,
    /// Only those with something more than 90 days overdue.
    Over90,
}

impl Show {
    fn only(self) -> Only {
        match self {
            Show::All => Only::default(),
            Show::Overdue => Only {
                overdue: true,
                older_than: None,
            },
            Show::Over60 => Only {
                overdue: true,
                older_than: Some(60),
            },
            Show::Over90 => Only {
                overdue: true,
                older_than: Some(90),
            },
        }
    }

    fn word(self) -> String {
        match self {
            Show::All => tr!("rv-show-all"),
            Show::Overdue => tr!("rv-show-overdue"),
            Show::Over60 => tr!("rv-show-60"),
            Show::Over90 => tr!("rv-show-90"),
        }
    }
}

/// How the rows are ordered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Order {
    /// The oldest overdue first.
    #[default]
    Oldest,
    /// The most owed in pesos first.
    OwedClp,
    /// The most owed in UF first.
    OwedClf,
    /// By name (the id when none is known).
    Name,
}

impl Order {
    fn word(self) -> String {
        match self {
            Order::Oldest => tr!("rv-order-oldest"),
            Order::OwedClp => tr!("rv-order-clp"),
            Order::OwedClf => tr!("rv-order-clf"),
            Order::Name => tr!("rv-order-name"),
        }
    }
}

/// What each customer owes, invoice by invoice (for the workbook).
type Owed = Vec<(String, Vec<crate::receivables::Line>)>;

/// A review under way: rows arrive here as customers are listed.
struct Review {
    task: Task<Result<(), String>>,
    arrived: Arc<Mutex<Vec<Row>>>,
    arrived_owed: Arc<Mutex<Owed>>,
    total: Arc<AtomicUsize>,
    stop: Arc<AtomicBool>,
}

/// Statements being made for the customers shown.
struct Making {
    task: Task<Result<MadeAll, String>>,
    done: Arc<AtomicUsize>,
    total: usize,
    stop: Arc<AtomicBool>,
}

/// The month's e-mails being sent to the customers shown.
struct Mailing {
    task: Task<Result<super::mailing::Tally, String>>,
    done: Arc<AtomicUsize>,
    total: usize,
    stop: Arc<AtomicBool>,
}

/// What a statements run made: PDFs, customers owing nothing, failures, the summary.
type MadeAll = (usize, usize, usize, std::path::PathBuf);

/// The panel's state.
#[derive(Default)]
pub struct ReceivablesPanel {
    /// The folder statements are written into (as typed).
    pub folder: String,
    /// The statements say the UF owed in pesos on the day's value (a line under it).
    pub uf_in_pesos: bool,
    making: Option<Making>,
    made_note: Option<Result<String, String>>,
    /// A default folder was offered.
    folder_offered: bool,
    /// The folder of the last run (for "Abrir carpeta").
    made_in: Option<std::path::PathBuf>,
    rows: Vec<Row>,
    /// The invoices each customer reviewed owes (at most `receivables::MAX_LINES` each).
    owed: Owed,
    review: Option<Review>,
    /// The book being written as a workbook; then where it went, or why not.
    book: Option<Task<Result<std::path::PathBuf, String>>>,
    book_note: Option<Result<std::path::PathBuf, String>>,
    /// How many customers the last review had to list.
    total: usize,
    note: Option<Result<String, String>>,
    /// What is shown, and in which order.
    pub show: Show,
    /// The order.
    pub order: Order,
    /// A fixed "today" (tests).
    fixed_today: Option<chrono::NaiveDate>,
    /// The confirmation before the month's e-mails is shown.
    mail_confirm: bool,
    /// Reminders (30/60/90 days) instead of statements.
    pub mail_reminders: bool,
    mailing: Option<Mailing>,
    mail_note: Option<super::mailing::Said>,
    /// The first customer's e-mail, being made or made, shown in the confirmation.
    mail_sample: Option<Task<Result<super::mailing::Prepared, String>>>,
    mail_sample_shown: Option<Result<super::mailing::Prepared, String>>,
}

impl ReceivablesPanel {
    /// A panel counting overdue days to `today` (tests), else the computer's date.
    pub fn new(today: Option<chrono::NaiveDate>) -> ReceivablesPanel {
        ReceivablesPanel {
            fixed_today: today,
            ..Default::default()
        }
    }

    /// The customers reviewed so far.
    pub fn rows(&self) -> &[Row] {
        &self.rows
    }

    /// True while customers are being listed.
    pub fn is_running(&self) -> bool {
        self.review.is_some()
    }

    /// Lists every customer the directory knows, a few at a time.
    pub fn start(
        &mut self,
        session: Arc<super::session::Session>,
        spawner: &Spawner,
        journal: super::journal::AppJournal,
    ) {
        if self.review.is_some() {
            return;
        }
        self.rows.clear();
        self.owed.clear();
        self.book_note = None;
        self.note = None;
        let as_of = self
            .fixed_today
            .unwrap_or_else(|| chrono::Local::now().date_naive());
        let arrived: Arc<Mutex<Vec<Row>>> = Arc::default();
        let arrived_owed: Arc<Mutex<Owed>> = Arc::default();
        let total = Arc::new(AtomicUsize::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let (into, count, halt) = (arrived.clone(), total.clone(), stop.clone());
        let into_owed = arrived_owed.clone();
        let ctx = spawner.ctx.clone();
        let index_place = crate::search::index::place_for(journal.place());
        let task = spawner.spawn(async move {
            let known = journal.read(|j| j.known_customers(MAX_CUSTOMERS)).await?;
            let at = chrono::Utc::now();
            let mut seen = Vec::new();
            count.store(known.len(), Ordering::Relaxed);
            use futures_util::StreamExt;
            let client = &session.client;
            let halted = &halt;
            let mut work = futures_util::stream::iter(known)
                .map(|c| async move {
                    // The invoices owed are kept, for the workbook (not the others).
                    let keep = crate::receivables::Keep::Owed;
                    // Stopped mid-listing too: a big customer's takes a while.
                    let go = |_| !halted.load(Ordering::Relaxed);
                    let listed = crate::pdf::batch::listed(client, &c.id, as_of, keep, go).await;
                    (c, listed)
                })
                .buffered(AT_ONCE);
            while let Some((c, listed)) = work.next().await {
                if halt.load(Ordering::Relaxed) {
                    break;
                }
                let summary = match listed {
                    Ok(l) => {
                        // What is owed is kept for the search box too.
                        seen.extend(
                            l.lines
                                .iter()
                                .take(crate::search::KEPT_PER_LISTING)
                                .map(|line| crate::search::Seen::of_line(&c.id, line, at)),
                        );
                        if !l.lines.is_empty()
                            && let Ok(mut o) = into_owed.lock()
                        {
                            o.push((c.id.clone(), l.lines));
                        }
                        Ok(l.summary)
                    }
                    Err(e) => Err(crate::i18n::error_text(&e)),
                };
                let row = Row {
                    summary,
                    customer: c.id,
                    name: c.name,
                    rut: c.rut,
                };
                if let Ok(mut a) = into.lock() {
                    a.push(row);
                }
                ctx.request_repaint();
            }
            let base_url = session.profile.base_url.clone();
            crate::search::keep_listed_in_background(index_place, base_url, seen);
            Ok(())
        });
        self.review = Some(Review {
            task,
            arrived,
            arrived_owed,
            total,
            stop,
        });
    }

    /// Writes the book shown (the customers "Mostrar" keeps, in the order shown, and
    /// every invoice they owe) as an Excel workbook into the panel's folder (made if
    /// missing), under a name no file has yet: `cartera-2026-11-26.xlsx`, then `-2`….
    pub fn workbook(&mut self, spawner: &Spawner) {
        if self.book.is_some() || self.review.is_some() || self.folder.trim().is_empty() {
            return;
        }
        let shown = self.shown();
        let rows: Vec<Row> = shown.iter().map(|&i| self.rows[i].clone()).collect();
        let kept: std::collections::HashSet<&str> =
            rows.iter().map(|r| r.customer.as_str()).collect();
        let owed: Owed = self
            .owed
            .iter()
            .filter(|(c, _)| kept.contains(c.as_str()))
            .cloned()
            .collect();
        let folder = std::path::PathBuf::from(self.folder.trim());
        let day = self
            .fixed_today
            .unwrap_or_else(|| chrono::Local::now().date_naive());
        let stem = format!("{}-{}", tr!("rv-book-stem"), day.format("%Y-%m-%d"));
        let lang = crate::i18n::current();
        self.book_note = None;
        self.book = Some(spawner.spawn(async move {
            tokio::task::spawn_blocking(move || {
                std::fs::create_dir_all(&folder)
                    .map_err(|e| tr!("rv-folder-failed", path = folder.display(), why = e))?;
                let refs: Vec<&Row> = rows.iter().collect();
                // Never over a file (the next free name, as the statements' summary).
                crate::export::xlsx::receivables_bytes(&refs, &owed, lang)
                    .and_then(|book| crate::fsutil::write_new(&folder, &stem, "xlsx", &book))
                    .map_err(|e| tr!("cli-write-failed", path = folder.display(), why = e))
            })
            .await
            .map_err(|e| e.to_string())?
        }));
    }

    /// The customers shown who owe something (the statements run's customers).
    fn owing_shown(&self) -> Vec<crate::pdf::batch::Customer> {
        self.owing_of(&self.shown())
            .map(|r| crate::pdf::batch::Customer {
                id: r.customer.clone(),
                name: r.name.clone(),
                rut: r.rut.clone(),
            })
            .collect()
    }

    /// Of the rows `shown`, those who owe something.
    fn owing_of<'a>(&'a self, shown: &'a [usize]) -> impl Iterator<Item = &'a Row> + 'a {
        shown
            .iter()
            .map(|&i| &self.rows[i])
            .filter(|r| r.summary.as_ref().is_ok_and(|s| !s.aging.is_empty()))
    }

    /// Makes the statements of the customers shown who owe something, into the folder
    /// typed (made if missing): one PDF each, never over a file, and a summary; the run
    /// is journaled as the CLI's is.
    pub fn statements(
        &mut self,
        session: Arc<super::session::Session>,
        spawner: &Spawner,
        journal: super::journal::AppJournal,
        uf: Option<&crate::uf::UfDay>,
    ) {
        let uf = uf.filter(|_| self.uf_in_pesos).cloned();
        if self.making.is_some() || self.review.is_some() {
            return;
        }
        let customers = self.owing_shown();
        let folder = std::path::PathBuf::from(self.folder.trim());
        if customers.is_empty() || self.folder.trim().is_empty() {
            return;
        }
        self.made_note = None;
        let as_of = self
            .fixed_today
            .unwrap_or_else(|| chrono::Local::now().date_naive());
        let lang = crate::i18n::current();
        let done = Arc::new(AtomicUsize::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let total = customers.len();
        let (counted, halt) = (done.clone(), stop.clone());
        let ctx = spawner.ctx.clone();
        self.made_in = Some(folder.clone());
        let task = spawner.spawn(async move {
            let dir = folder.clone();
            tokio::task::spawn_blocking(move || std::fs::create_dir_all(&dir))
                .await
                .map_err(|e| e.to_string())?
                .map_err(|e| tr!("rv-folder-failed", path = folder.display(), why = e))?;
            let intent = crate::journal::Intent {
                customer: None,
                ..crate::journal::Intent::for_export(
                    &session.profile.name,
                    &session.profile.base_url,
                    "",
                    Some(format!("{} ({total})", folder.display())),
                )
            };
            let seq = journal
                .write(move |j| j.record_intent(crate::journal::Action::Export, &intent))
                .await?;
            let batch = crate::pdf::batch::Batch {
                client: &session.client,
                sender: &session.profile.sender,
                as_of,
                all: false,
                lang,
                out: &folder,
                // As the exports' default: Excel in Spanish for a Spanish clerk.
                dialect: match lang {
                    crate::i18n::Lang::Es => crate::export::Dialect::ExcelEs,
                    crate::i18n::Lang::En => crate::export::Dialect::Standard,
                },
                uf,
            };
            let made = crate::pdf::batch::run(&batch, customers, &halt, |n| {
                counted.store(n, Ordering::Relaxed);
                ctx.request_repaint();
            })
            .await;
            let summary = crate::pdf::batch::write_summary(&batch, &made);
            let pdfs = made.iter().filter(|d| d.file.is_some()).count();
            let failed = made.iter().filter(|d| d.failed.is_some()).count();
            let settled = crate::journal::Settled {
                rows: Some(pdfs as u64),
                ..crate::journal::Settled::done(None)
            };
            let _ = journal
                .write(move |j| j.record_outcome(seq, &settled))
                .await;
            let summary =
                summary.map_err(|e| tr!("rv-folder-failed", path = folder.display(), why = e))?;
            Ok((pdfs, made.len() - pdfs - failed, failed, summary))
        });
        self.making = Some(Making {
            task,
            done,
            total,
            stop,
        });
    }

    /// E-mails the customers shown who owe something their statement (or reminder) of
    /// the month, each once.
    pub fn email(
        &mut self,
        session: Arc<super::session::Session>,
        spawner: &Spawner,
        journal: super::journal::AppJournal,
        secrets: Arc<tokio::sync::OnceCell<Arc<crate::profile::SecretStore>>>,
        templates: Option<std::path::PathBuf>,
        uf: Option<&crate::uf::UfDay>,
    ) {
        self.mail_confirm = false;
        if self.mailing.is_some() || self.review.is_some() {
            return;
        }
        let ids: Vec<String> = self.owing_shown().into_iter().map(|c| c.id).collect();
        if ids.is_empty() {
            return;
        }
        self.mail_note = None;
        let run = super::mailing::MonthRun {
            session,
            as_of: self.fixed_today,
            reminders: self.mail_reminders,
            journal,
            secrets,
            templates,
            // "Con los pesos de la UF" applies to the e-mailed statements too.
            uf: uf.filter(|_| self.uf_in_pesos).cloned(),
        };
        let done = Arc::new(AtomicUsize::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let total = ids.len();
        let task = spawner.spawn(super::mailing::month(
            run,
            ids,
            done.clone(),
            stop.clone(),
            spawner.ctx.clone(),
        ));
        self.mailing = Some(Mailing {
            task,
            done,
            total,
            stop,
        });
    }

    /// Makes the e-mail the first customer of the month's run would get, to show it in
    /// the confirmation (nothing is sent).
    pub fn email_sample(
        &mut self,
        session: Arc<super::session::Session>,
        spawner: &Spawner,
        journal: super::journal::AppJournal,
        templates: Option<std::path::PathBuf>,
        uf: Option<&crate::uf::UfDay>,
    ) {
        if self.mail_sample.is_some() {
            return;
        }
        let ids: Vec<String> = self.owing_shown().into_iter().map(|c| c.id).collect();
        self.mail_sample_shown = None;
        self.mail_sample = Some(spawner.spawn(super::mailing::month_sample(
            session,
            ids,
            self.fixed_today,
            self.mail_reminders,
            journal,
            templates,
            uf.filter(|_| self.uf_in_pesos).cloned(),
        )));
    }

    /// Stops the e-mails before the next customer.
    pub fn stop_email(&mut self) {
        if let Some(m) = &self.mailing {
            m.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Stops the statements run before its next customer.
    pub fn stop_statements(&mut self) {
        if let Some(m) = &self.making {
            m.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Stops the review (what was listed stays).
    pub fn stop(&mut self) {
        if let Some(r) = &self.review {
            r.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Takes what arrived (called by the app every frame).
    pub fn poll(&mut self) {
        if let Some(r) = crate::ui::task::take_finished(&mut self.book) {
            self.book_note = Some(r.map_err(|e| e.to_string()).and_then(|r| r));
        }
        if let Some(r) = crate::ui::task::take_finished(&mut self.mail_sample) {
            self.mail_sample_shown = Some(r.map_err(|e| e.to_string()).and_then(|r| r));
        }
        if let Some(m) = self.mailing.take() {
            match m.task.try_take() {
                Err(task) => self.mailing = Some(Mailing { task, ..m }),
                Ok(r) => {
                    self.mail_note = Some(match r.map_err(|e| e.to_string()).and_then(|r| r) {
                        Ok(t) => super::mailing::tally_words(&t),
                        Err(e) => (e, true),
                    });
                }
            }
        }
        if let Some(m) = self.making.take() {
            match m.task.try_take() {
                Err(task) => self.making = Some(Making { task, ..m }),
                Ok(r) => {
                    self.made_note = Some(match r.map_err(|e| e.to_string()).and_then(|r| r) {
                        Ok((pdfs, nothing, failed, summary)) => {
                            let mut words = tr!(
                                "rv-made",
                                pdfs = pdfs,
                                nothing = nothing,
                                summary = summary.display()
                            );
                            if failed > 0 {
                                words =
                                    format!("{words} {}", tr!("rv-made-failed", count = failed));
                            }
                            if m.stop.load(Ordering::Relaxed) {
                                words = format!("{words} {}", tr!("rv-made-stopped"));
                            }
                            Ok(words)
                        }
                        Err(e) => Err(e),
                    });
                }
            }
        }
        self.poll_review();
    }

    fn poll_review(&mut self) {
        let Some(r) = self.review.take() else { return };
        let Review {
            task,
            arrived,
            arrived_owed,
            total,
            stop,
        } = r;
        if let Ok(mut a) = arrived.lock() {
            self.rows.append(&mut a);
        }
        if let Ok(mut o) = arrived_owed.lock() {
            self.owed.append(&mut o);
        }
        self.total = total.load(Ordering::Relaxed);
        let result = match task.try_take() {
            Err(task) => {
                self.review = Some(Review {
                    task,
                    arrived,
                    arrived_owed,
                    total,
                    stop,
                });
                return;
            }
            Ok(result) => result,
        };
        if let Ok(mut a) = arrived.lock() {
            self.rows.append(&mut a);
        }
        if let Ok(mut o) = arrived_owed.lock() {
            self.owed.append(&mut o);
        }
        let stopped = stop.load(Ordering::Relaxed);
        self.note = Some(match result.map_err(|e| e.to_string()).and_then(|x| x) {
            Err(e) => Err(e),
            Ok(()) if stopped => Ok(tr!(
                "rv-stopped",
                done = self.rows.len(),
                total = self.total
            )),
            Ok(()) if self.total == 0 => Err(tr!("rv-no-customers")),
            Ok(()) => Ok(tr!("rv-done", count = self.rows.len())),
        });
    }

    /// The rows shown, in order (indices into the rows).
    fn shown(&self) -> Vec<usize> {
        let only = self.show.only();
        let mut v: Vec<usize> = (0..self.rows.len())
            .filter(|&i| only.keeps(&self.rows[i]))
            .collect();
        let owed = |r: &Row, code: &str| {
            r.summary
                .as_ref()
                .ok()
                .and_then(|s| s.owed.get(code))
                .and_then(|t| t.value())
                .unwrap_or_default()
        };
        let oldest = |r: &Row| {
            r.summary
                .as_ref()
                .map(|s| s.oldest_overdue.map_or(0, |d| i64::from(d) + 1))
                // Not listed: first, whatever the order (it may owe the most).
                .unwrap_or(i64::MAX)
        };
        let rows = &self.rows;
        let name = |r: &Row| crate::journal::fold(r.name.as_deref().unwrap_or(&r.customer));
        match self.order {
            Order::Oldest => v.sort_by_key(|&i| std::cmp::Reverse(oldest(&rows[i]))),
            Order::OwedClp => v.sort_by_key(|&i| std::cmp::Reverse(owed(&rows[i], "CLP"))),
            Order::OwedClf => v.sort_by_key(|&i| std::cmp::Reverse(owed(&rows[i], "CLF"))),
            Order::Name => v.sort_by_key(|&i| name(&rows[i])),
        }
        v
    }

    /// Draws the panel.
    pub fn ui(
        &mut self,
        ui: &mut Ui,
        connected: bool,
        uf: &widgets::UfShown,
        commands: &mut Vec<Command>,
    ) {
        ui.heading(tr!("rv-title"));
        ui.label(tr!("rv-explain"));
        ui.horizontal(|ui| {
            let running = self.review.is_some();
            if ui
                .add_enabled(connected && !running, egui::Button::new(tr!("rv-review")))
                .on_disabled_hover_text(tr!("connect-first"))
                .clicked()
            {
                commands.push(Command::Receivables(ReceivablesCommand::ReviewReceivables));
            }
            if running {
                widgets::busy(ui);
                ui.label(tr!(
                    "rv-progress",
                    done = self.rows.len(),
                    total = self.total
                ));
                if ui.button(tr!("rv-stop")).clicked() {
                    commands.push(Command::Receivables(ReceivablesCommand::StopReceivables));
                }
            }
        });
        widgets::outcome(ui, self.note.as_ref());
        if self.rows.is_empty() {
            return;
        }
        ui.horizontal(|ui| {
            let l = ui.label(tr!("rv-show"));
            egui::ComboBox::from_id_salt("rv-show")
                .selected_text(self.show.word())
                .show_ui(ui, |ui| {
                    for s in [Show::All, Show::Overdue, Show::Over60, Show::Over90] {
                        widgets::choice(ui, &mut self.show, s, s.word());
                    }
                })
                .response
                .labelled_by(l.id);
            let l = ui.label(tr!("rv-order"));
            egui::ComboBox::from_id_salt("rv-order")
                .selected_text(self.order.word())
                .show_ui(ui, |ui| {
                    for o in [Order::Oldest, Order::OwedClp, Order::OwedClf, Order::Name] {
                        widgets::choice(ui, &mut self.order, o, o.word());
                    }
                })
                .response
                .labelled_by(l.id);
        });
        // The totals of the customers shown (what "Mostrar" keeps), per currency: never
        // added together; each currency by the name a clerk reads ("UF (CLF)").
        // What is shown is worked out once a frame: the totals, both bars and the table
        // read it.
        let shown = self.shown();
        let book = totals(shown.iter().map(|&i| &self.rows[i]));
        for (code, t) in book.clone() {
            let overdue: Total = t[1..5].iter().fold(Total::default(), |mut acc, x| {
                match x.value() {
                    Some(v) => acc.add(v),
                    None => acc.overflowed = true,
                }
                acc
            });
            ui.label(
                egui::RichText::new(tr!(
                    "rv-total",
                    currency = crate::api::Currency::from_code(&code)
                        .map(crate::i18n::currency_name)
                        .unwrap_or_else(|| crate::text::escape_controls(&code).into_owned()),
                    owed = money(t[5], &code),
                    overdue = money(overdue, &code)
                ))
                .strong(),
            );
            // The book's UF in pesos on today's value, its day said.
            if code == "CLF"
                && let Some(owed) = t[5].value()
            {
                uf.pesos_line(ui, owed);
            }
        }
        // The whole book in pesos, per bucket, on the day's UF value (said).
        if let Some(day) = uf.day()
            && book.contains_key("CLF")
            && let Some((pesos, others)) = crate::receivables::in_pesos(&book, day)
        {
            ui.label(crate::i18n::book_in_pesos(&pesos, others, day));
        }
        let failed = self.rows.iter().filter(|r| r.summary.is_err()).count();
        if failed > 0 {
            widgets::error_text(ui, &tr!("rv-failed", count = failed));
        }
        let owing = self.owing_of(&shown).count();
        self.statements_bar(ui, connected, owing, !shown.is_empty(), commands);
        self.email_bar(ui, connected, owing, commands);
        self.table(ui, &shown, commands);
    }

    /// "Estados de cuenta" for the customers shown who owe something, into a folder.
    fn statements_bar(
        &mut self,
        ui: &mut Ui,
        connected: bool,
        owing: usize,
        any_shown: bool,
        commands: &mut Vec<Command>,
    ) {
        // A default once; an emptied field stays empty (the clerk is typing another).
        if !std::mem::replace(&mut self.folder_offered, true) && self.folder.is_empty() {
            let day = self
                .fixed_today
                .unwrap_or_else(|| chrono::Local::now().date_naive());
            let dir = directories::UserDirs::new()
                .and_then(|u| {
                    u.document_dir()
                        .map(|d| d.to_path_buf())
                        .or_else(|| Some(u.home_dir().to_path_buf()))
                })
                .unwrap_or_else(|| std::path::PathBuf::from("."));
            self.folder = dir
                .join(format!("{}-{}", tr!("st-file-stem"), day.format("%Y-%m")))
                .display()
                .to_string();
        }
        ui.horizontal(|ui| {
            let l = ui.label(tr!("rv-folder"));
            ui.add(
                egui::TextEdit::singleline(&mut self.folder)
                    .desired_width(widgets::field_width(ui)),
            )
            .labelled_by(l.id);
        });
        // The buttons on a line of their own, wrapped: beside the folder they ran off a
        // narrow window ("Estados de cuenta de estos (10)" cut at 1024 px).
        ui.horizontal_wrapped(|ui| {
            let can = connected
                && owing > 0
                && self.making.is_none()
                && self.review.is_none()
                && !self.folder.trim().is_empty();
            if ui
                .add_enabled(can, egui::Button::new(tr!("rv-statements", count = owing)))
                .on_hover_text(tr!("rv-statements-hint"))
                .clicked()
            {
                commands.push(Command::Receivables(ReceivablesCommand::StatementsForShown));
            }
            ui.checkbox(&mut self.uf_in_pesos, tr!("st-uf-pesos-choice"))
                .on_hover_text(tr!("st-uf-pesos-hint"));
            let can_book = any_shown
                && self.book.is_none()
                && self.review.is_none()
                && !self.folder.trim().is_empty();
            if ui
                .add_enabled(can_book, egui::Button::new(tr!("rv-book")))
                .on_hover_text(tr!("rv-book-hint"))
                .clicked()
            {
                commands.push(Command::Receivables(
                    ReceivablesCommand::ReceivablesWorkbook,
                ));
            }
            if let Some(m) = &self.making {
                widgets::busy(ui);
                ui.label(tr!(
                    "rv-making",
                    done = m.done.load(Ordering::Relaxed),
                    total = m.total
                ));
                if ui.button(tr!("rv-stop")).clicked() {
                    commands.push(Command::Receivables(ReceivablesCommand::StopStatements));
                }
            }
        });
        match &self.book_note {
            Some(Ok(path)) => {
                ui.horizontal_wrapped(|ui| {
                    let r = ui.label(tr!("rv-book-written", path = path.display()));
                    widgets::announce(ui, &r, false);
                    if ui.button(tr!("cu-open-folder")).clicked()
                        && let Some(dir) = path.parent()
                    {
                        commands.push(Command::Window(WindowCommand::OpenExternal(
                            super::external::External::Folder(dir.to_path_buf()),
                        )));
                    }
                });
            }
            Some(Err(m)) => widgets::error_text(ui, m),
            None => {}
        }
        match &self.made_note {
            Some(Ok(m)) => {
                ui.horizontal_wrapped(|ui| {
                    let r = ui.label(m);
                    widgets::announce(ui, &r, false);
                    if let Some(dir) = &self.made_in
                        && ui.button(tr!("cu-open-folder")).clicked()
                    {
                        commands.push(Command::Window(WindowCommand::OpenExternal(
                            super::external::External::Folder(dir.clone()),
                        )));
                    }
                });
            }
            Some(Err(m)) => widgets::error_text(ui, m),
            None => {}
        }
    }

    /// "Enviar por correo a estos (N)…": the month's statements (or reminders) e-mailed
    /// to the customers shown who owe something, after a confirmation.
    fn email_bar(
        &mut self,
        ui: &mut Ui,
        connected: bool,
        owing: usize,
        commands: &mut Vec<Command>,
    ) {
        ui.horizontal(|ui| {
            let can = connected
                && owing > 0
                && self.mailing.is_none()
                && self.making.is_none()
                && self.review.is_none();
            if ui
                .add_enabled(can, egui::Button::new(tr!("rv-mail", count = owing)))
                .on_hover_text(tr!("rv-mail-hint"))
                .clicked()
            {
                self.mail_confirm = true;
            }
            if let Some(m) = &self.mailing {
                widgets::busy(ui);
                ui.label(tr!(
                    "rv-mailing",
                    done = m.done.load(Ordering::Relaxed),
                    total = m.total
                ));
                if ui.button(tr!("rv-stop")).clicked() {
                    commands.push(Command::Receivables(ReceivablesCommand::StopEmail));
                }
            }
        });
        if let Some((words, problem)) = &self.mail_note {
            if *problem {
                widgets::error_text(ui, words);
            } else {
                let r = ui.label(words);
                widgets::announce(ui, &r, false);
            }
        }
        if !self.mail_confirm {
            return;
        }
        let month = self
            .fixed_today
            .unwrap_or_else(|| chrono::Local::now().date_naive())
            .format("%m-%Y")
            .to_string();
        let mut close = false;
        let modal = egui::Modal::new(egui::Id::unique("mail_month")).show(ui.ctx(), |ui| {
            ui.set_max_width(480.0);
            let title = ui.heading(if self.mail_reminders {
                tr!("rv-mail-title-reminders")
            } else {
                tr!("rv-mail-title")
            });
            widgets::announce(ui, &title, true);
            if ui
                .checkbox(&mut self.mail_reminders, tr!("rv-mail-reminders"))
                .changed()
            {
                // The sample shown was of the other kind.
                self.mail_sample_shown = None;
            }
            ui.label(if self.mail_reminders {
                tr!(
                    "rv-mail-what-reminders",
                    count = owing,
                    month = month.clone()
                )
            } else {
                tr!("rv-mail-what", count = owing, month = month.clone())
            });
            ui.label(tr!("rv-mail-once"));
            // The first customer's e-mail, to read before it goes to everyone.
            match (&self.mail_sample, &self.mail_sample_shown) {
                (Some(_), _) => {
                    ui.horizontal(|ui| {
                        widgets::busy(ui);
                        ui.label(tr!("rv-mail-sample-making"));
                    });
                }
                (None, Some(Ok(p))) => {
                    ui.separator();
                    ui.label(egui::RichText::new(tr!("rv-mail-sample-title")).strong());
                    super::mailing::contents(ui, p);
                    ui.separator();
                }
                (None, Some(Err(e))) => {
                    let r = ui.label(egui::RichText::new(e).color(ui.visuals().error_fg_color));
                    widgets::announce(ui, &r, false);
                }
                (None, None) => {
                    if ui.button(tr!("rv-mail-sample")).clicked() {
                        commands.push(Command::Receivables(ReceivablesCommand::EmailSample));
                    }
                }
            }
            ui.horizontal(|ui| {
                if ui.button(tr!("lk-mail-send")).clicked() {
                    commands.push(Command::Receivables(ReceivablesCommand::EmailShown));
                }
                if ui.button(tr!("cancel")).clicked() {
                    close = true;
                }
            });
        });
        if close || modal.should_close() {
            self.mail_confirm = false;
            self.mail_sample_shown = None;
        }
    }

    fn table(&self, ui: &mut Ui, shown: &[usize], commands: &mut Vec<Command>) {
        use egui_extras::Column;
        let row_height = ui.text_style_height(&egui::TextStyle::Body) + 6.0;
        let safe = |t: &str| crate::text::escape_controls(t).into_owned();
        widgets::table(ui, row_height)
            .sense(egui::Sense::click())
            .column(Column::initial(260.0).at_least(120.0).clip(true))
            .column(Column::initial(110.0).at_least(80.0).clip(true))
            .column(Column::initial(130.0).at_least(90.0).clip(true))
            .column(Column::initial(130.0).at_least(90.0).clip(true))
            .column(Column::initial(110.0).at_least(70.0).clip(true))
            .column(Column::initial(100.0).at_least(80.0).clip(true))
            .column(Column::remainder().at_least(160.0).clip(true))
            // Two lines for the column names: a long one ("Vencida más antigua") wraps
            // whole in a narrow window instead of being cut.
            .header(2.0 * row_height, |mut h| {
                for name in [
                    tr!("rv-col-customer"),
                    tr!("rv-col-rut"),
                    tr!("rv-col-clp"),
                    tr!("rv-col-clf"),
                    tr!("rv-col-oldest"),
                    tr!("rv-col-last"),
                    tr!("rv-col-buckets"),
                ] {
                    h.col(|ui| {
                        ui.add(egui::Label::new(egui::RichText::new(name).strong()).wrap());
                    });
                }
            })
            .body(|body| {
                body.rows(row_height, shown.len(), |mut row| {
                    let r = &self.rows[shown[row.index()]];
                    let cell = |ui: &mut Ui, text: &str| {
                        ui.add(egui::Label::new(text).selectable(false));
                    };
                    let who = match &r.name {
                        Some(n) => format!("{} · {}", safe(n), safe(&r.customer)),
                        None => safe(&r.customer),
                    };
                    row.col(|ui| cell(ui, &who));
                    row.col(|ui| cell(ui, &safe(r.rut.as_deref().unwrap_or(""))));
                    match &r.summary {
                        Err(why) => {
                            row.col(|ui| {
                                widgets::error_text(ui, &tr!("rv-not-listed", why = why.clone()))
                            });
                            for _ in 0..4 {
                                row.col(|_| {});
                            }
                        }
                        Ok(s) => {
                            for code in ["CLP", "CLF"] {
                                let t = s.owed.get(code).copied();
                                row.col(|ui| {
                                    cell(ui, &t.map(|t| money(t, code)).unwrap_or_default())
                                });
                            }
                            let oldest = s
                                .oldest_overdue
                                .map(|d| tr!("rv-days", days = d))
                                .unwrap_or_else(|| tr!("rv-none-overdue"));
                            row.col(|ui| {
                                if s.has_overdue() {
                                    ui.add(
                                        egui::Label::new(
                                            egui::RichText::new(oldest)
                                                .color(widgets::overdue_color(ui)),
                                        )
                                        .selectable(false),
                                    );
                                } else {
                                    cell(ui, &oldest);
                                }
                            });
                            let last = s
                                .last_invoice
                                .map(|d| crate::i18n::date(&d.format("%Y-%m-%d").to_string()))
                                .unwrap_or_default();
                            row.col(|ui| cell(ui, &last));
                            // What is owed in each bucket, per currency, those not empty.
                            let buckets: Vec<String> = s
                                .owed
                                .keys()
                                .flat_map(|code| {
                                    crate::receivables::cells(s, code)
                                        .into_iter()
                                        .zip(crate::receivables::aging::Bucket::ALL)
                                        .filter_map(|(t, b)| {
                                            t.map(|t| {
                                                format!(
                                                    "{}: {}",
                                                    crate::i18n::bucket(b),
                                                    money(t, code)
                                                )
                                            })
                                        })
                                        .collect::<Vec<_>>()
                                })
                                .collect();
                            row.col(|ui| cell(ui, &buckets.join(" · ")));
                        }
                    }
                    let resp = row.response();
                    if resp.clicked() {
                        commands.push(Command::Customers(CustomersCommand::OpenCustomer(
                            r.customer.clone(),
                        )));
                    }
                    resp.on_hover_text(tr!("rv-open-row"));
                });
            });
    }
}

/// An amount owed as the app writes it, or that it was too large to add.
fn money(t: Total, code: &str) -> String {
    match t.value() {
        Some(v) => crate::api::money::format_amount(v, Some(code)),
        None => tr!("rv-too-large"),
    }
}
