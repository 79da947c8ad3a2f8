//! Cartera: the book reviewed, the month's statements made, its e-mails sent.

use super::InvoiceDeskApp;
use crate::ui::command::ReceivablesCommand;

impl InvoiceDeskApp {
    /// Carries out one of this area's commands (the others never come here).
    pub(super) fn handle_receivables(&mut self, cmd: ReceivablesCommand) {
        match cmd {
            ReceivablesCommand::ReviewReceivables => {
                if let Some(s) = self.session.clone() {
                    self.receivables
                        .start(s, &self.spawner, self.journal.clone());
                }
            }
            ReceivablesCommand::StopReceivables => self.receivables.stop(),
            ReceivablesCommand::StatementsForShown => {
                if let Some(s) = self.session.clone() {
                    self.receivables.statements(
                        s,
                        &self.spawner,
                        self.journal.clone(),
                        self.uf.day(),
                    );
                }
            }
            ReceivablesCommand::StopStatements => self.receivables.stop_statements(),
            ReceivablesCommand::ReceivablesWorkbook => self.receivables.workbook(&self.spawner),
            ReceivablesCommand::EmailShown => {
                if let Some(s) = self.session.clone() {
                    let templates = self.templates_dir();
                    self.receivables.email(
                        s,
                        &self.spawner,
                        self.journal.clone(),
                        self.connector.secrets.clone(),
                        templates,
                        self.uf.day(),
                    );
                }
            }
            ReceivablesCommand::StopEmail => self.receivables.stop_email(),
            ReceivablesCommand::EmailSample => {
                if let Some(s) = self.session.clone() {
                    let templates = self.templates_dir();
                    self.receivables.email_sample(
                        s,
                        &self.spawner,
                        self.journal.clone(),
                        templates,
                        self.uf.day(),
                    );
                }
            }
        }
    }
}
