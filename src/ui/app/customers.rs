//! Customer invoices: listed, filtered, exported, its statement made or e-mailed; the directory imported and suggested.

use super::handle::import_directory;
use super::{Command, InvoiceDeskApp, Tab};
use crate::tr;

impl InvoiceDeskApp {
    /// Carries out one of this area's commands (the others never come here).
    pub(super) fn handle_customers(&mut self, cmd: Command) {
        match cmd {
            Command::SuggestCustomers(text) => {
                if self.suggesting.as_ref().is_some_and(|(t, _)| *t == text)
                    || self.suggestions.asked == text
                {
                    return;
                }
                let journal = self.journal.clone();
                let asked = text.clone();
                let task = self
                    .spawner
                    .spawn(async move { journal.read(move |j| j.find_customers(&asked, 8)).await });
                self.suggesting = Some((text, task));
            }
            Command::WantNames(ids) => {
                if self.naming.is_some() {
                    // One lookup at a time; what is still missing is asked next frame.
                    return;
                }
                let journal = self.journal.clone();
                let asked = ids.clone();
                let task = self.spawner.spawn(async move {
                    journal
                        .read(move |j| {
                            let refs: Vec<&str> = asked.iter().map(String::as_str).collect();
                            j.customer_names(&refs)
                        })
                        .await
                });
                self.naming = Some((ids, task));
            }
            Command::ImportCustomers => {
                if self.importing.is_some() {
                    return;
                }
                let journal = self.journal.clone();
                self.customers.directory_note = None;
                self.importing = Some(self.spawner.spawn(async move {
                    let Some(file) = rfd::AsyncFileDialog::new()
                        .set_title(tr!("dir-dialog-title"))
                        .add_filter(tr!("dir-filter"), &["csv", "xlsx"])
                        .pick_file()
                        .await
                    else {
                        // No file chosen, or no dialog could be shown: a path can be typed.
                        return Ok(None);
                    };
                    import_directory(journal, file.path().to_path_buf())
                        .await
                        .map(Some)
                }));
            }
            Command::ImportCustomersFrom(path) => {
                if self.importing.is_some() {
                    return;
                }
                let journal = self.journal.clone();
                self.customers.directory_note = None;
                self.importing = Some(
                    self.spawner
                        .spawn(async move { import_directory(journal, path).await.map(Some) }),
                );
            }
            Command::PrepareStatementEmail => {
                let templates = self.templates_dir();
                self.customers.prepare_email(
                    &self.spawner,
                    &self.journal,
                    self.session.as_deref(),
                    templates,
                    self.uf.day(),
                )
            }
            Command::SendStatementEmail => self.customers.send_email(
                &self.spawner,
                &self.journal,
                self.connector.secrets.clone(),
            ),
            Command::OpenCustomer(id) => {
                self.customers.set_customer_id(&id);
                self.saved.tab = Tab::Customers;
                self.handle(Command::LoadCustomer);
            }
            Command::StatementPdf => self.customers.statement_pdf(
                &self.spawner,
                &self.journal,
                self.session.as_deref(),
                self.opener.clone(),
                self.documents.clone(),
                self.uf.day(),
            ),
            Command::ExportShortcut => {
                self.saved.tab = Tab::Customers;
                if self.customers.can_export() {
                    self.handle(Command::ExportCsv(None));
                } else {
                    // Nothing to export yet: the shortcut leads to the customer field.
                    self.customers.request_focus();
                }
            }
            Command::LoadCustomer => match self.session.clone() {
                Some(s) => self.customers.start(s, &self.spawner, self.journal.clone()),
                None => self.customers.refused(self.not_connected()),
            },
            Command::CancelLoad => self.customers.cancel(),
            Command::CancelExport => self.customers.cancel_export(),
            Command::RefreshCustomerView => self.customers.refresh_view(&self.spawner),
            Command::ExportCsv(target) => self.customers.export_csv(
                target,
                &self.spawner,
                &self.journal,
                self.session.as_deref(),
            ),
            Command::CustomerBucket(b) => self.customers.set_bucket(b, &self.spawner),
            _ => {}
        }
    }
}
