//! The loaded customer's statement of account as a PDF: made on a worker from the
//! invoices already listed, written to a temporary file and opened in the system's
//! viewer, from which the clerk prints it, saves it or sends it. If no viewer opens, the
//! clerk is told where the file is.

use super::CustomersPanel;
use crate::tr;
use crate::ui::command::Command;
use crate::ui::command::CustomersCommand;
use crate::ui::task::{Spawner, Task};
use crate::ui::widgets;
use egui::Ui;

/// A statement made: its file, and whether the viewer opened it (why not).
pub(super) type Made = Task<crate::ui::external::Shown>;

impl CustomersPanel {
    /// Makes the statement of the customer on screen (every invoice listed, whatever
    /// the filters) and opens it with `opener`.
    pub fn statement_pdf(
        &mut self,
        spawner: &Spawner,
        journal: &crate::ui::journal::AppJournal,
        session: Option<&crate::ui::session::Session>,
        opener: crate::ui::external::Opener,
        folder: std::path::PathBuf,
        uf: Option<&crate::uf::UfDay>,
    ) {
        if self.statement.is_some() || !self.statement_ready() {
            return;
        }
        let Some(session) = session else { return };
        let sender = session.profile.sender.clone();
        let invoices: Vec<crate::api::Invoice> = (0..self.rows.len() as u32)
            .map(|i| self.rows.get(i).clone())
            .collect();
        let customer = self.loaded_for.clone();
        let as_of = self.view.settings.today;
        let lang = crate::i18n::current();
        self.statement_note = None;
        let request = crate::ui::external::PdfRequest {
            lang,
            file_name: crate::pdf::file_name(lang, &customer, self.customer_name.as_deref(), as_of),
            folder,
            sender,
            customer,
            as_of,
            what: crate::ui::external::Printed::Statement {
                invoices,
                all: false,
            },
            failed: |why| tr!("cu-statement-failed", why = why),
            // The optional line: the UF owed in pesos, when the clerk ticked it.
            uf: uf.filter(|_| self.saved.uf_in_pesos).cloned(),
        };
        self.statement = Some(spawner.spawn(crate::ui::external::make_and_show_pdf(
            request,
            journal.clone(),
            opener,
        )));
    }

    /// Makes the loaded customer's statement e-mail (from every invoice listed) to show
    /// it first.
    pub fn prepare_email(
        &mut self,
        spawner: &Spawner,
        journal: &crate::ui::journal::AppJournal,
        session: Option<&crate::ui::session::Session>,
        templates: Option<std::path::PathBuf>,
        uf: Option<&crate::uf::UfDay>,
    ) {
        if self.mail.busy() || !self.statement_ready() {
            return;
        }
        let Some(session) = session else { return };
        let invoices: Vec<crate::api::Invoice> = (0..self.rows.len() as u32)
            .map(|i| self.rows.get(i).clone())
            .collect();
        self.mail
            .preparing(spawner.spawn(crate::ui::mailing::prepare_statement(
                self.loaded_for.clone(),
                invoices,
                session.profile.clone(),
                journal.clone(),
                self.clock.fixed_day(),
                templates,
                // "Con los pesos de la UF" applies to the e-mailed statement too.
                uf.filter(|_| self.saved.uf_in_pesos).cloned(),
            )));
    }

    /// Sends the statement e-mail shown.
    pub fn send_email(
        &mut self,
        spawner: &Spawner,
        journal: &crate::ui::journal::AppJournal,
        secrets: std::sync::Arc<tokio::sync::OnceCell<std::sync::Arc<crate::profile::SecretStore>>>,
    ) {
        self.mail.send(spawner, journal, secrets);
    }

    /// The statement button and what became of the last one.
    pub(super) fn statement_bar(
        &mut self,
        ui: &mut Ui,
        session: Option<&crate::ui::session::Session>,
        commands: &mut Vec<Command>,
    ) {
        let connected = session.is_some();
        // A statement says who it is from: without the sender's details it would not.
        let no_sender = session.is_some_and(|s| s.profile.sender.organization.trim().is_empty());
        ui.horizontal(|ui| {
            let can = connected && self.statement.is_none() && self.statement_ready();
            if ui
                .add_enabled(can, egui::Button::new(tr!("cu-statement-pdf")))
                .on_hover_text(tr!("cu-statement-pdf-hint"))
                .on_disabled_hover_text(tr!("cu-statement-needs-list"))
                .clicked()
            {
                commands.push(Command::Customers(CustomersCommand::StatementPdf));
            }
            ui.checkbox(&mut self.saved.uf_in_pesos, tr!("st-uf-pesos-choice"))
                .on_hover_text(tr!("st-uf-pesos-hint"));
            if self.statement.is_some() {
                widgets::busy(ui);
                ui.label(tr!("cu-statement-making"));
            }
            let can_mail = connected && self.statement_ready();
            if self
                .mail
                .button(ui, can_mail, &tr!("cu-mail"), &tr!("cu-mail-hint"))
            {
                commands.push(Command::Customers(CustomersCommand::PrepareStatementEmail));
            }
        });
        self.mail.said(ui);
        if self.mail.dialog(ui, &tr!("cu-mail-title")) {
            commands.push(Command::Customers(CustomersCommand::SendStatementEmail));
        }
        // On its own line, wrapped: a long hint beside the button would widen the panel.
        if no_sender && self.statement.is_none() {
            ui.label(egui::RichText::new(tr!("cu-statement-no-sender")).weak());
        }
        widgets::outcome(ui, self.statement_note.as_ref());
    }

    /// Takes the statement made, if it is.
    pub(super) fn poll_statement(&mut self) {
        self.mail.poll();
        if let Some(r) = crate::ui::task::take_finished(&mut self.statement) {
            self.statement_note = Some(match crate::ui::task::flat(r) {
                Ok(d) => {
                    let path = d.path.display();
                    // Made: a note, not a failure (never in the error colour).
                    let mut note = match d.opened {
                        Ok(()) => tr!("cu-statement-opened", path = path),
                        Err(_) => tr!("cu-statement-not-opened", path = path),
                    };
                    if let Some(book) = d.book {
                        note = format!(
                            "{note} {}",
                            tr!("cu-statement-workbook", path = book.display())
                        );
                    }
                    Ok(note)
                }
                Err(e) => Err(e),
            });
        }
    }
}
