//! The Contratos panel's forms: a new contract written field by field (checked exactly
//! as a row of an imported file is, read back before it is kept), and a kept one changed
//! from a period (its amount, a pause, a resume, its end).

use super::{ContractsPanel, widgets};
use crate::contracts::Period;
use crate::text::escape_controls as safe;
use crate::tr;
use crate::ui::bulk::BulkDeps;
use crate::ui::command::{Command, ContractChange, ContractsCommand};
use egui::{RichText, Ui};

/// A contract being written in the panel: the cells of one row of a contracts file, so
/// that it is checked exactly as an import is.
#[derive(Clone, Debug, Default)]
pub struct Draft {
    /// Contract id.
    pub id: String,
    /// Customer: an id, or a name or RUT the directory knows.
    pub customer: String,
    /// Amount, as written.
    pub amount: String,
    /// Billed in UF (else pesos).
    pub uf: bool,
    /// A UF contract billed in pesos at the day's UF.
    pub pesos_at_uf: bool,
    /// How often: month, quarter, year.
    pub every: crate::contracts::Every,
    /// Day of the month, as written.
    pub day: String,
    /// Days until due, as written.
    pub due_days: String,
    /// First period, YYYY-MM.
    pub start: String,
    /// Last period, YYYY-MM (optional).
    pub end: String,
    /// Description.
    pub description: String,
}

impl Draft {
    /// As one row of a contracts file (header first).
    fn rows(&self) -> crate::sheet::Rows {
        let mut rows = crate::sheet::Rows::default();
        rows.push(crate::sheet::Row::of([
            "contract",
            "customer",
            "amount",
            "currency",
            "bill_in",
            "every",
            "day",
            "due_days",
            "start",
            "end",
            "description",
        ]));
        rows.push(crate::sheet::Row::of([
            self.id.trim(),
            self.customer.trim(),
            self.amount.trim(),
            if self.uf { "CLF" } else { "CLP" },
            if self.uf && self.pesos_at_uf {
                "CLP"
            } else {
                ""
            },
            self.every.code(),
            self.day.trim(),
            self.due_days.trim(),
            self.start.trim(),
            self.end.trim(),
            self.description.trim(),
        ]));
        rows
    }
}

/// A change to one kept contract, from a period.
#[derive(Clone, Debug, Default)]
pub struct Change {
    /// The contract.
    pub id: String,
    /// The period, YYYY-MM.
    pub period: String,
    /// The new amount (for a change of amount).
    pub amount: String,
}

impl ContractsPanel {
    /// Keeps the contract written (off the UI thread).
    pub(super) fn start_save(&mut self, deps: BulkDeps<'_>) {
        if self.saving.is_some() {
            return;
        }
        let rows = self.draft.rows();
        let currencies = deps.currencies.clone();
        let journal = deps.journal.clone();
        self.draft_note = None;
        self.saving = Some(deps.spawner.spawn(async move {
            journal
                .write(move |j| Ok(save_draft(j, &rows, &currencies)))
                .await?
        }));
    }

    /// Changes the contract named from the period typed (off the UI thread).
    pub(super) fn start_apply(&mut self, what: ContractChange, deps: BulkDeps<'_>) {
        if self.saving.is_some() {
            return;
        }
        let change = self.change.clone();
        let journal = deps.journal.clone();
        self.draft_note = None;
        self.saving = Some(
            deps.spawner
                .spawn(async move { journal.write(move |j| Ok(apply(j, &change, what))).await? }),
        );
    }

    /// A new contract written field by field, read back before it is kept; and a kept
    /// one changed from a period.
    pub(super) fn draft_ui(&mut self, ui: &mut Ui, commands: &mut Vec<Command>) {
        egui::CollapsingHeader::new(tr!("ctp-new"))
            .id_salt("ctp_new")
            .show(ui, |ui| {
                let d = &mut self.draft;
                egui::Grid::new("ctp_draft").num_columns(2).show(ui, |ui| {
                    for (key, value) in [
                        ("ctp-f-id", &mut d.id),
                        ("ctp-f-customer", &mut d.customer),
                        ("ctp-f-amount", &mut d.amount),
                    ] {
                        let l = ui.label(crate::i18n::text(key));
                        ui.add(egui::TextEdit::singleline(value).desired_width(220.0))
                            .labelled_by(l.id);
                        ui.end_row();
                    }
                    ui.label(tr!("ctp-f-currency"));
                    ui.horizontal(|ui| {
                        ui.radio_value(&mut d.uf, false, crate::i18n::currency_label("CLP"));
                        ui.radio_value(&mut d.uf, true, crate::i18n::currency_label("CLF"));
                        if d.uf {
                            ui.checkbox(&mut d.pesos_at_uf, tr!("ct-bill-in-pesos"));
                        }
                    });
                    ui.end_row();
                    ui.label(tr!("ctp-f-every"));
                    ui.horizontal(|ui| {
                        for e in [
                            crate::contracts::Every::Month,
                            crate::contracts::Every::Quarter,
                            crate::contracts::Every::Year,
                        ] {
                            ui.radio_value(&mut d.every, e, crate::i18n::every_word(e));
                        }
                    });
                    ui.end_row();
                    for (key, value, hint) in [
                        ("ctp-f-day", &mut d.day, "1"),
                        ("ctp-f-due-days", &mut d.due_days, "30"),
                        ("ctp-f-start", &mut d.start, ""),
                        ("ctp-f-end", &mut d.end, ""),
                        ("ctp-f-description", &mut d.description, ""),
                    ] {
                        let l = ui.label(crate::i18n::text(key));
                        ui.add(
                            egui::TextEdit::singleline(value)
                                .desired_width(220.0)
                                .hint_text(hint),
                        )
                        .labelled_by(l.id);
                        ui.end_row();
                    }
                });
                // What will be kept, read back in words before it is.
                let d = &self.draft;
                if !d.id.trim().is_empty() && !d.amount.trim().is_empty() {
                    let day = match d.day.trim() {
                        "" => "1".to_string(),
                        t => safe(t).into_owned(),
                    };
                    ui.label(
                        RichText::new(tr!(
                            "ctp-read-back",
                            id = safe(d.id.trim()),
                            customer = safe(d.customer.trim()),
                            amount = format!(
                                "{} {}",
                                if d.uf { "UF" } else { "$" },
                                safe(d.amount.trim())
                            ),
                            every = crate::i18n::every_word(d.every),
                            day = day,
                            start = safe(d.start.trim())
                        ))
                        .strong(),
                    );
                }
                if ui
                    .add_enabled(self.saving.is_none(), egui::Button::new(tr!("ctp-save")))
                    .clicked()
                {
                    commands.push(Command::Contracts(ContractsCommand::Save));
                }
            });
        egui::CollapsingHeader::new(tr!("ctp-change"))
            .id_salt("ctp_change")
            .show(ui, |ui| {
                ui.horizontal_wrapped(|ui| {
                    let c = &mut self.change;
                    for (key, value, width) in [
                        ("ctp-f-which", &mut c.id, 120.0),
                        ("ctp-f-from", &mut c.period, 80.0),
                        ("ctp-f-new-amount", &mut c.amount, 100.0),
                    ] {
                        let l = ui.label(crate::i18n::text(key));
                        ui.add(egui::TextEdit::singleline(value).desired_width(width))
                            .labelled_by(l.id);
                    }
                });
                ui.horizontal(|ui| {
                    for (what, key) in [
                        (ContractChange::Amount, "ctp-apply-amount"),
                        (ContractChange::Pause, "ctp-apply-pause"),
                        (ContractChange::Resume, "ctp-apply-resume"),
                        (ContractChange::End, "ctp-apply-end"),
                    ] {
                        let button = egui::Button::new(crate::i18n::text(key));
                        if ui.add_enabled(self.saving.is_none(), button).clicked() {
                            commands.push(Command::Contracts(ContractsCommand::Apply(what)));
                        }
                    }
                });
            });
        if self.saving.is_some() {
            widgets::busy(ui);
        }
        widgets::outcome(ui, self.draft_note.as_ref());
    }
}

/// Keeps the contract of `rows` (one row of a contracts file), checked as an import is:
/// what was done, or every problem (nothing kept).
fn save_draft(
    j: &mut crate::journal::Journal,
    rows: &crate::sheet::Rows,
    currencies: &[crate::api::Currency],
) -> Result<String, String> {
    use crate::contracts::import::NotKept;
    match crate::contracts::import::import_rows(j, rows, currencies) {
        Ok((add, _)) => match add.first() {
            Some((id, _)) => Ok(tr!("ctp-saved", id = safe(id))),
            None => Err(tr!("ctp-kept-already")),
        },
        Err(NotKept::Rows(p)) => Err(said(&p)),
        Err(NotKept::Journal(e)) => Err(crate::i18n::journal_error(&e)),
    }
}

/// A form's problems, each on a line by the field it is about.
fn said(problems: &[crate::contracts::import::ImportError]) -> String {
    problems
        .iter()
        .map(|p| {
            let what = crate::i18n::contract_import_why(&p.why);
            if p.column.is_empty() {
                what
            } else {
                format!("{}: {what}", crate::i18n::contract_field(&p.column))
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Changes kept contract `c.id` from period `c.period` as `what` says.
fn apply(
    j: &mut crate::journal::Journal,
    c: &Change,
    what: ContractChange,
) -> Result<String, String> {
    use crate::contracts::Event;
    let from = Period::parse(&c.period).ok_or_else(|| tr!("ctp-not-a-period"))?;
    let contract = crate::contracts::contracts_in(j)
        .map_err(|e| crate::i18n::journal_error(&e))?
        .into_iter()
        .find(|k| k.id == c.id.trim())
        .ok_or_else(|| tr!("cli-ct-no-such", id = safe(c.id.trim())))?;
    let (event, words) = match what {
        ContractChange::Amount => {
            let mut terms = contract.terms_at(from).clone();
            terms.amount = crate::bulk::read_amount(c.amount.trim(), false, terms.currency())
                .map_err(|w| crate::i18n::bulk_why(&w))?;
            (
                Event::Change { from, terms },
                tr!("cli-ct-what-change", period = from.to_string()),
            )
        }
        ContractChange::Pause => (
            Event::Pause { from },
            tr!("cli-ct-what-pause", period = from.to_string()),
        ),
        ContractChange::Resume => (
            Event::Resume { from },
            tr!("cli-ct-what-resume", period = from.to_string()),
        ),
        ContractChange::End => (
            Event::End { after: Some(from) },
            tr!("cli-ct-what-end", period = from.to_string()),
        ),
    };
    crate::contracts::keep(j, &[(contract.id.clone(), event)])
        .map_err(|e| crate::i18n::journal_error(&e))?;
    Ok(tr!("cli-ct-noted", id = safe(&contract.id), what = words))
}
