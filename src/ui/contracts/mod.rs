//! Contratos: the contracts the journal keeps (imported from a spreadsheet), and a
//! period's run: what each contract owes through the period (missed periods too, each
//! said), with totals, then issued with the billing runs' machinery — each (contract,
//! period) once, with progress and Detener. What a contract is and how a run is planned
//! is `crate::contracts`'s; this panel only shows it and starts the work.

use super::bulk::BulkDeps;
use super::widgets;
use crate::bulk::run::{AllowSimilar, Control, Counts, Status};
use crate::contracts::Period;
use crate::text::escape_controls as safe;
use crate::tr;
use crate::ui::command::{Command, ContractsCommand};
use crate::ui::task::{Task, take_finished};
use egui::{RichText, Ui};

mod form;
pub use form::{Change, Draft};
use std::sync::{Arc, Mutex};

/// One contract as the list shows it: id, customer, how often, amount, billed in, from,
/// to, state.
type Row = [String; 8];

/// A period's plan, as shown and as it will be sent.
struct Preview {
    period: Period,
    lines: Vec<[String; 6]>,
    said: Vec<String>,
    summary: String,
    rows: Arc<crate::bulk::Plan>,
    contracts: usize,
}

struct Running {
    control: Arc<Control>,
    progress: Arc<Mutex<(usize, Counts)>>,
    total: usize,
    task: Task<Result<(), String>>,
}

/// The panel's state.
#[derive(Default)]
pub struct ContractsPanel {
    /// The contract being written.
    pub draft: Draft,
    /// The change being written.
    pub change: Change,
    saving: Option<Task<Result<String, String>>>,
    draft_note: Option<Result<String, String>>,
    list: Option<Vec<Row>>,
    listing: Option<Task<Result<Vec<Row>, String>>>,
    filter: String,
    file: String,
    importing: Option<Task<Result<String, String>>>,
    note: Option<Result<String, String>>,
    /// The period typed; `None` until first drawn (then the current one).
    period: Option<String>,
    planning: Option<Task<Result<Preview, String>>>,
    preview: Option<Preview>,
    confirm: bool,
    running: Option<Running>,
    result: Option<Result<String, String>>,
}

/// Why a contracts file was refused, every row said.
fn refused(problems: &[crate::contracts::import::ImportError]) -> String {
    let lines: Vec<String> = problems
        .iter()
        .take(20)
        .map(crate::i18n::contract_problem)
        .collect();
    format!(
        "{}\n{}",
        tr!("ctp-import-refused", count = problems.len()),
        lines.join("\n")
    )
}

impl ContractsPanel {
    /// Whether a run is sending.
    pub fn is_running(&self) -> bool {
        self.running.is_some()
    }

    /// Whether anything is being read or planned (tests wait for it).
    pub fn is_busy(&self) -> bool {
        self.listing.is_some() || self.importing.is_some() || self.planning.is_some()
    }

    /// Carries out one of the panel's commands.
    pub fn handle(&mut self, cmd: ContractsCommand, deps: BulkDeps<'_>) {
        match cmd {
            ContractsCommand::Refresh => {
                let journal = deps.journal.clone();
                self.listing = Some(
                    deps.spawner
                        .spawn(async move { journal.read(rows_of).await }),
                );
            }
            ContractsCommand::Import => {
                let path = std::path::PathBuf::from(self.file.trim());
                if self.file.trim().is_empty() || self.importing.is_some() {
                    return;
                }
                self.note = None;
                let journal = deps.journal.clone();
                let currencies = deps.currencies.clone();
                self.importing = Some(deps.spawner.spawn(async move {
                    journal
                        .write(move |j| Ok(import_into(j, &path, &currencies)))
                        .await?
                }));
            }
            ContractsCommand::Preview => {
                let Some(period) = self.period.as_deref().and_then(Period::parse) else {
                    self.result = Some(Err(tr!("ctp-not-a-period")));
                    return;
                };
                let Some(session) = deps.session.clone() else {
                    self.result = Some(Err(tr!("connect-first")));
                    return;
                };
                if self.is_running() {
                    return;
                }
                self.preview = None;
                self.result = None;
                let journal = deps.journal.clone();
                let currencies = deps.currencies.clone();
                self.planning = Some(deps.spawner.spawn(async move {
                    let shared = journal
                        .shared()
                        .await
                        .map_err(|e| crate::i18n::journal_error(&e))?;
                    let today = shared
                        .run(|j| j.today())
                        .await
                        .map_err(|e| crate::i18n::journal_error(&e))?;
                    // The UF of the day, as the journal keeps it (the app reads it at
                    // start); without it, contracts billed in pesos at it are said.
                    let uf = match crate::uf::kept_on(&shared, today).await {
                        Ok(Some(found)) => Ok(found.uf.value),
                        Ok(None) => Err(tr!("ctp-no-uf-kept")),
                        Err(e) => Err(crate::i18n::uf_error(&e, today)),
                    };
                    let profile = &session.profile;
                    let scope = crate::journal::identity::create_scope(
                        profile.base_url.trim(),
                        Some(profile.account_key.trim()).filter(|k| !k.is_empty()),
                    );
                    shared
                        .run(move |j| {
                            let contracts = crate::contracts::contracts_in(j)?;
                            let (plan, names) = crate::contracts::plan_on(
                                j,
                                &contracts,
                                period,
                                today,
                                &currencies,
                                &scope,
                                uf,
                            );
                            Ok(preview_of(period, plan, &names))
                        })
                        .await
                        .map_err(|e| crate::i18n::journal_error(&e))
                }));
            }
            ContractsCommand::Ask => self.confirm = self.preview.is_some(),
            ContractsCommand::Issue => {
                self.confirm = false;
                let (Some(p), Some(session)) = (&self.preview, deps.session.clone()) else {
                    return;
                };
                if self.is_running() || p.rows.rows.is_empty() {
                    return;
                }
                let control = Arc::new(Control::default());
                let progress = Arc::new(Mutex::new((0usize, Counts::default())));
                let (c, pr) = (control.clone(), progress.clone());
                let rows = p.rows.clone();
                let total = rows.rows.len();
                let journal = deps.journal.clone();
                let ctx = deps.spawner.ctx.clone();
                let task = deps.spawner.spawn(async move {
                    let shared = journal
                        .shared()
                        .await
                        .map_err(|e| crate::i18n::journal_not_sent(&e))?;
                    // A period is told apart by its reference (see the CLI's run).
                    let mut runner = session.runner(shared, c, AllowSimilar::All);
                    crate::ui::approvals::clear_run(&mut runner, &rows.rows, None).await?;
                    runner
                        .run(rows.rows.clone(), 4, |_, status: Status| {
                            if let Ok(mut p) = pr.lock() {
                                p.0 += 1;
                                p.1.add(&status);
                            }
                            ctx.request_repaint_after(std::time::Duration::from_millis(150));
                        })
                        .await;
                    journal.count().await;
                    Ok(())
                });
                self.running = Some(Running {
                    control,
                    progress,
                    total,
                    task,
                });
                self.result = None;
            }
            ContractsCommand::Stop => {
                if let Some(r) = &self.running {
                    r.control.cancel();
                }
            }
            ContractsCommand::Save => self.start_save(deps),
            ContractsCommand::Apply(what) => self.start_apply(what, deps),
        }
    }

    /// Takes finished work into the panel (called every frame).
    pub fn finished(&mut self) -> bool {
        let mut refresh = false;
        if let Some(r) = take_finished(&mut self.listing) {
            match crate::ui::task::flat(r) {
                Ok(rows) => self.list = Some(rows),
                Err(e) => self.note = Some(Err(e)),
            }
        }
        if let Some(r) = take_finished(&mut self.saving) {
            let r = crate::ui::task::flat(r);
            if r.is_ok() {
                self.draft = Draft::default();
                self.change.amount.clear();
            }
            self.draft_note = Some(r);
            refresh = true;
        }
        if let Some(r) = take_finished(&mut self.importing) {
            self.note = Some(crate::ui::task::flat(r));
            refresh = true;
        }
        if let Some(r) = take_finished(&mut self.planning) {
            match crate::ui::task::flat(r) {
                Ok(p) => self.preview = Some(p),
                Err(e) => self.result = Some(Err(e)),
            }
        }
        if let Some(mut run) = self.running.take() {
            match run.task.try_take() {
                Ok(r) => {
                    let counts = run.progress.lock().map(|p| p.1).unwrap_or_default();
                    self.result =
                        Some(crate::ui::task::flat(r).map(|()| crate::i18n::run_finished(&counts)));
                    self.preview = None;
                    refresh = true;
                }
                Err(task) => {
                    run.task = task;
                    self.running = Some(run);
                }
            }
        }
        refresh
    }

    /// Draws the panel.
    pub fn ui(
        &mut self,
        ui: &mut Ui,
        connected: bool,
        today: chrono::NaiveDate,
        commands: &mut Vec<Command>,
    ) {
        if self.list.is_none() && self.listing.is_none() {
            commands.push(Command::Contracts(ContractsCommand::Refresh));
        }
        if self.period.is_none() {
            self.period = Some(Period::of_day(today).to_string());
        }
        ui.heading(tr!("ctp-title"));
        ui.label(tr!("ctp-intro"));
        ui.add_space(4.0);
        ui.horizontal(|ui| {
            let l = ui.label(tr!("ctp-file"));
            ui.add(
                egui::TextEdit::singleline(&mut self.file)
                    .desired_width(360.0)
                    .hint_text("contratos.xlsx"),
            )
            .labelled_by(l.id);
            if ui
                .add_enabled(
                    !self.file.trim().is_empty() && self.importing.is_none(),
                    egui::Button::new(tr!("ctp-import")),
                )
                .clicked()
            {
                commands.push(Command::Contracts(ContractsCommand::Import));
            }
            if self.importing.is_some() {
                widgets::busy(ui);
            }
        });
        widgets::outcome(ui, self.note.as_ref());
        self.draft_ui(ui, commands);
        ui.separator();
        self.list_ui(ui);
        ui.separator();
        self.period_ui(ui, connected, commands);
    }

    fn list_ui(&mut self, ui: &mut Ui) {
        let Some(list) = &self.list else {
            ui.horizontal(|ui| {
                widgets::busy(ui);
                ui.label(tr!("ctp-loading"));
            });
            return;
        };
        if list.is_empty() {
            ui.label(tr!("ctp-none"));
            return;
        }
        ui.horizontal(|ui| {
            let l = ui.label(tr!("ctp-filter"));
            ui.add(egui::TextEdit::singleline(&mut self.filter).desired_width(200.0))
                .labelled_by(l.id);
        });
        let wanted = crate::journal::fold(&self.filter);
        let shown: Vec<&Row> = list
            .iter()
            .filter(|r| {
                wanted.is_empty()
                    || crate::journal::fold(&format!("{} {}", r[0], r[1])).contains(&wanted)
            })
            .collect();
        let heads = [
            "ctp-col-contract",
            "ctp-col-customer",
            "ctp-col-every",
            "ctp-col-amount",
            "ctp-col-bill-in",
            "ctp-col-from",
            "ctp-col-to",
            "ctp-col-state",
        ];
        text_table(ui, &tr!("ctp-table"), "contracts_table", &heads, &shown);
    }

    fn period_ui(&mut self, ui: &mut Ui, connected: bool, commands: &mut Vec<Command>) {
        ui.horizontal(|ui| {
            let l = ui.label(tr!("ctp-period"));
            let period = self.period.get_or_insert_with(String::new);
            ui.add(egui::TextEdit::singleline(period).desired_width(80.0))
                .labelled_by(l.id);
            let can = connected && self.planning.is_none() && !self.is_running();
            if ui
                .add_enabled(can, egui::Button::new(tr!("ctp-preview")))
                .on_disabled_hover_text(tr!("connect-first"))
                .clicked()
            {
                commands.push(Command::Contracts(ContractsCommand::Preview));
            }
            if self.planning.is_some() {
                widgets::busy(ui);
            }
        });
        if let Some(p) = &self.preview {
            for s in &p.said {
                ui.label(RichText::new(s).weak());
            }
            ui.label(RichText::new(&p.summary).strong());
            if !p.lines.is_empty() {
                let heads = [
                    "ctp-col-contract",
                    "ctp-col-period",
                    "ctp-col-customer",
                    "ctp-col-amount",
                    "ctp-col-due",
                    "ctp-col-note",
                ];
                let lines: Vec<&[String; 6]> = p.lines.iter().collect();
                text_table(ui, &tr!("ctp-plan-table"), "contracts_plan", &heads, &lines);
                if !self.is_running()
                    && ui
                        .button(tr!("bulk-issue", count = p.rows.rows.len()))
                        .clicked()
                {
                    commands.push(Command::Contracts(ContractsCommand::Ask));
                }
            }
        }
        if let Some(r) = &self.running {
            let (done, _) = r.progress.lock().map(|p| (p.0, ())).unwrap_or((0, ()));
            ui.horizontal(|ui| {
                ui.add(
                    egui::ProgressBar::new(done as f32 / r.total.max(1) as f32)
                        .desired_width(240.0)
                        .text(tr!("bulk-progress-start", done = done, total = r.total)),
                );
                if ui.button(tr!("bulk-cancel")).clicked() {
                    commands.push(Command::Contracts(ContractsCommand::Stop));
                }
            });
        }
        widgets::outcome(ui, self.result.as_ref());
        self.confirm_ui(ui, commands);
    }

    fn confirm_ui(&mut self, ui: &mut Ui, commands: &mut Vec<Command>) {
        let Some(p) = &self.preview else {
            self.confirm = false;
            return;
        };
        if !self.confirm {
            return;
        }
        let modal = egui::Modal::new(egui::Id::unique("confirm_contracts")).show(ui.ctx(), |ui| {
            ui.set_max_width(480.0);
            let title = ui.heading(tr!("ctp-confirm-title"));
            widgets::announce(ui, &title, true);
            ui.label(
                RichText::new(tr!(
                    "ctp-confirm",
                    count = p.rows.rows.len(),
                    contracts = p.contracts,
                    period = p.period.to_string()
                ))
                .strong(),
            );
            ui.label(&p.summary);
            ui.label(tr!("ctp-confirm-note"));
            ui.horizontal(|ui| {
                if ui
                    .button(RichText::new(tr!("bulk-confirm-yes")).strong())
                    .clicked()
                {
                    commands.push(Command::Contracts(ContractsCommand::Issue));
                }
                if ui.button(tr!("cancel")).clicked() {
                    self.confirm = false;
                }
            });
        });
        if modal.should_close() {
            self.confirm = false;
        }
    }
}

/// The contracts the journal keeps, as the list shows them on `today`.
fn rows_of(j: &mut crate::journal::Journal) -> Result<Vec<Row>, crate::journal::JournalError> {
    let today = j.today()?;
    let contracts = crate::contracts::contracts_in(j)?;
    let ids: Vec<&str> = contracts.iter().map(|c| c.customer.as_str()).collect();
    let names = j.customer_names(&ids).unwrap_or_default();
    let now = Period::of_day(today);
    Ok(contracts
        .iter()
        .map(|c| {
            let t = c.terms_at(now.max(c.start));
            [
                safe(&c.id).into_owned(),
                safe(names.get(&c.customer).unwrap_or(&c.customer)).into_owned(),
                crate::i18n::every_word(c.every),
                crate::api::money::format_amount(t.amount, Some(&t.currency)),
                crate::i18n::bill_in_word(t.bill_in, &t.currency),
                c.start.to_string(),
                c.end.map(|e| e.to_string()).unwrap_or_default(),
                crate::i18n::contract_state(c, now),
            ]
        })
        .collect())
}

/// Reads the file at `path` and keeps its new contracts: what was done, or every
/// problem (nothing kept).
fn import_into(
    j: &mut crate::journal::Journal,
    path: &std::path::Path,
    currencies: &[crate::api::Currency],
) -> Result<String, String> {
    let rows = crate::sheet::read_rows(path, None)
        .map_err(|e| crate::i18n::sheet_error(&e))?
        .rows;
    use crate::contracts::import::NotKept;
    match crate::contracts::import::import_rows(j, &rows, currencies) {
        Ok((add, same)) => Ok(tr!("cli-ct-imported", added = add.len(), same = same)),
        Err(NotKept::Rows(p)) => Err(refused(&p)),
        Err(NotKept::Journal(e)) => Err(crate::i18n::journal_error(&e)),
    }
}

/// A plan as the panel shows it.
fn preview_of(
    period: Period,
    plan: crate::contracts::Plan,
    names: &std::collections::HashMap<String, String>,
) -> Preview {
    let lines = plan
        .due
        .iter()
        .map(|d| {
            let code = d.invoice.currency.currency().map_or("CLP", |c| c.code());
            let mut note = Vec::new();
            if d.catch_up {
                note.push(tr!("ctp-note-catch-up"));
            }
            if let Some(p) = &d.pesos {
                note.push(tr!(
                    "ctp-note-uf",
                    uf = crate::api::money::format_amount(d.amount, Some("CLF")),
                    value = crate::i18n::peso_value(p.value),
                    day = crate::i18n::date(&p.day.to_string())
                ));
            }
            [
                safe(&d.contract).into_owned(),
                d.period.to_string(),
                safe(
                    names
                        .get(&d.invoice.customer)
                        .unwrap_or(&d.invoice.customer),
                )
                .into_owned(),
                crate::api::money::format_amount(d.invoice.amount, Some(code)),
                crate::i18n::date(&d.due.to_string()),
                note.join(" · "),
            ]
        })
        .collect();
    let mut said: Vec<String> = plan
        .skipped
        .iter()
        .map(|(id, s)| crate::i18n::contract_skip(id, s))
        .collect();
    if plan.billed > 0 {
        said.push(tr!("cli-ct-billed-before", count = plan.billed));
    }
    let contracts = plan
        .due
        .iter()
        .map(|d| d.contract.as_str())
        .collect::<std::collections::HashSet<_>>()
        .len();
    let summary = if plan.due.is_empty() {
        tr!("cli-ct-plan-empty", period = period.to_string())
    } else {
        tr!(
            "cli-ct-plan",
            period = period.to_string(),
            count = plan.due.len(),
            contracts = contracts,
            totals = format!(": {}", crate::i18n::plan_totals(&plan))
        )
    };
    Preview {
        period,
        lines,
        said,
        summary,
        rows: Arc::new(crate::bulk::Plan {
            rows: plan.rows(),
            ..Default::default()
        }),
        contracts,
    }
}

/// A table of text (`heads`: the columns' Fluent keys) a screen reader reads as a table,
/// each row of `N` cells.
fn text_table<const N: usize>(
    ui: &mut Ui,
    label: &str,
    salt: &str,
    heads: &[&str; N],
    rows: &[&[String; N]],
) {
    let heads = heads.map(crate::i18n::text);
    widgets::grid(ui, label, rows.len(), N, false, |ui, grid| {
        use egui_extras::Column;
        let mut t = widgets::table(ui, 22.0).id_salt(salt);
        for _ in 0..N {
            t = t.column(Column::auto().at_least(60.0).clip(true));
        }
        t.max_scroll_height(220.0)
            .header(24.0, |mut h| {
                let mut h = grid.header(&mut h);
                for name in &heads {
                    h.col(|ui| {
                        ui.strong(name);
                    });
                }
            })
            .body(|body| {
                body.rows(22.0, rows.len(), |mut row| {
                    let cells = rows[row.index()];
                    let mut row = grid.row(&mut row);
                    for text in cells {
                        row.col_said(text, |ui| {
                            ui.label(text.as_str());
                        });
                    }
                    let _ = row.finish();
                });
            });
    });
}

/// What the contracts `j` keeps bill through the period after `today`'s (missed periods
/// included), in words for Cartera; `None` when there is nothing to bill (or no
/// contract, or a desk's journal older than contracts).
pub fn next_period_line(
    j: &crate::journal::Journal,
    profile: &crate::profile::Profile,
    today: chrono::NaiveDate,
) -> Option<String> {
    let contracts = crate::contracts::contracts_in(j).ok()?;
    if contracts.is_empty() {
        return None;
    }
    let next = Period::of_day(today).plus(1);
    let scope = crate::journal::identity::create_scope(
        profile.base_url.trim(),
        Some(profile.account_key.trim()).filter(|k| !k.is_empty()),
    );
    let uf = j
        .uf_values(today, today)
        .ok()
        .and_then(|v| v.into_iter().find(|k| crate::uf::is_plausible(k.value)))
        .map(|k| k.value)
        .ok_or_else(|| tr!("ctp-no-uf-kept"));
    let (plan, _) = crate::contracts::plan_on(j, &contracts, next, today, &[], &scope, uf);
    if plan.due.is_empty() {
        return None;
    }
    let totals: Vec<String> = plan
        .totals()
        .iter()
        .map(|(code, (_, sum))| crate::api::money::format_amount(*sum, Some(code)))
        .collect();
    Some(tr!(
        "rv-contracts-next",
        count = plan.due.len(),
        period = next.to_string(),
        totals = totals.join(" + ")
    ))
}
