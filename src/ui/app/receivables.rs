//! Cartera: the book reviewed, the month's statements made, its e-mails sent.

use super::{Command, InvoiceDeskApp};

impl InvoiceDeskApp {
    /// Carries out one of this area's commands (the others never come here).
    pub(super) fn handle_receivables(&mut self, cmd: Command) {
        match cmd {
            Command::ReviewReceivables => {
                if let Some(s) = self.session.clone() {
                    self.receivables
                        .start(s, &self.spawner, self.journal.clone());
                }
            }
            Command::StopReceivables => self.receivables.stop(),
            Command::StatementsForShown => {
                if let Some(s) = self.session.clone() {
                    self.receivables.statements(
                        s,
                        &self.spawner,
                        self.journal.clone(),
                        self.uf.day(),
                    );
                }
            }
            Command::StopStatements => self.receivables.stop_statements(),
            Command::ReceivablesWorkbook => self.receivables.workbook(&self.spawner),
            Command::EmailShown => {
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
            Command::StopEmail => self.receivables.stop_email(),
            Command::EmailSample => {
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
            _ => {}
        }
    }
}
