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

mod mail;
mod statements;
mod table;
use table::money;

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
    /// What the contracts bill through next period, being worked out, then in words.
    contracts_next: Option<Task<Result<Option<String>, String>>>,
    contracts_next_said: Option<String>,
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
    /// The app's one clock (`AppDeps::clock`).
    clock: crate::ui::Clock,
    /// Where the app writes documents (the statements' folder is offered in it).
    documents: std::path::PathBuf,
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
    /// A panel counting overdue days to `clock`'s today, offering its statements a folder
    /// in `documents`.
    pub fn new(clock: crate::ui::Clock, documents: std::path::PathBuf) -> ReceivablesPanel {
        ReceivablesPanel {
            clock,
            documents,
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
        let as_of = self.clock.today();
        // Beside the book: what the contracts will bill next period.
        let (j, profile) = (journal.clone(), session.profile.clone());
        self.contracts_next_said = None;
        self.contracts_next = Some(spawner.spawn(async move {
            j.read(move |j| Ok(super::contracts::next_period_line(j, &profile, as_of)))
                .await
        }));
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
                    let listed = crate::receivables::listed(client, &c.id, as_of, keep, go).await;
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
        let day = self.clock.today();
        let stem = format!("{}-{}", tr!("rv-book-stem"), day.format("%Y-%m-%d"));
        let lang = crate::i18n::current();
        self.book_note = None;
        self.book = Some(spawner.spawn(async move {
            tokio::task::spawn_blocking(move || {
                std::fs::create_dir_all(&folder).map_err(|e| {
                    tr!(
                        "rv-folder-failed",
                        path = folder.display(),
                        why = crate::i18n::io_words(&e)
                    )
                })?;
                let refs: Vec<&Row> = rows.iter().collect();
                // Never over a file (the next free name, as the statements' summary).
                crate::export::xlsx::receivables_bytes(&refs, &owed, lang)
                    .and_then(|book| crate::fsutil::write_new(&folder, &stem, "xlsx", &book))
                    .map_err(|e| {
                        tr!(
                            "cli-write-failed",
                            path = folder.display(),
                            why = crate::i18n::io_words(&e)
                        )
                    })
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

    /// Stops the review (what was listed stays).
    pub fn stop(&mut self) {
        if let Some(r) = &self.review {
            r.stop.store(true, Ordering::Relaxed);
        }
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
        self.note = Some(match crate::ui::task::flat(result) {
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
        // What the contracts will bill, whatever the book holds.
        if let Some(line) = &self.contracts_next_said {
            ui.label(line.as_str());
        }
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
        // added together; each currency by the name a clerk reads ("UF", "Pesos (CLP)").
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
                    currency = crate::i18n::currency_said(&code),
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
}

impl crate::ui::Panel for ReceivablesPanel {
    /// Takes what arrived (called by the app every frame).
    fn poll(&mut self) {
        if let Some(r) = crate::ui::task::take_finished(&mut self.contracts_next) {
            // Unreadable: the book is said without it.
            self.contracts_next_said = crate::ui::task::flat(r).ok().flatten();
        }
        if let Some(r) = crate::ui::task::take_finished(&mut self.book) {
            self.book_note = Some(crate::ui::task::flat(r));
        }
        if let Some(r) = crate::ui::task::take_finished(&mut self.mail_sample) {
            self.mail_sample_shown = Some(crate::ui::task::flat(r));
        }
        if let Some(m) = self.mailing.take() {
            match m.task.try_take() {
                Err(task) => self.mailing = Some(Mailing { task, ..m }),
                Ok(r) => {
                    self.mail_note = Some(match crate::ui::task::flat(r) {
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
                    self.made_note = Some(match crate::ui::task::flat(r) {
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
}
