//! Customer invoices: listed, filtered, exported, its statement made or e-mailed; the directory imported and suggested.

use super::handle::import_directory;
use super::{Command, InvoiceDeskApp, Tab};
use crate::tr;
use crate::ui::command::CustomersCommand;

impl InvoiceDeskApp {
    /// Carries out one of this area's commands (the others never come here).
    pub(super) fn handle_customers(&mut self, cmd: CustomersCommand) {
        match cmd {
            CustomersCommand::SuggestCustomers(text) => {
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
            CustomersCommand::WantNames(ids) => {
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
            CustomersCommand::ImportCustomers => {
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
            CustomersCommand::ImportCustomersFrom(path) => {
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
            CustomersCommand::PrepareStatementEmail => {
                let templates = self.templates_dir();
                self.customers.prepare_email(
                    &self.spawner,
                    &self.journal,
                    self.session.as_deref(),
                    templates,
                    self.uf.day(),
                )
            }
            CustomersCommand::SendStatementEmail => self.customers.send_email(
                &self.spawner,
                &self.journal,
                self.connector.secrets.clone(),
            ),
            CustomersCommand::OpenCustomer(id) => {
                self.customers.set_customer_id(&id);
                self.saved.tab = Tab::Customers;
                self.handle(Command::Customers(CustomersCommand::LoadCustomer));
            }
            CustomersCommand::StatementPdf => self.customers.statement_pdf(
                &self.spawner,
                &self.journal,
                self.session.as_deref(),
                self.opener.clone(),
                self.documents.clone(),
                self.uf.day(),
            ),
            CustomersCommand::ExportShortcut => {
                self.saved.tab = Tab::Customers;
                if self.customers.can_export() {
                    self.handle(Command::Customers(CustomersCommand::ExportCsv(None)));
                } else {
                    // Nothing to export yet: the shortcut leads to the customer field.
                    self.customers.request_focus();
                }
            }
            CustomersCommand::LoadCustomer => match self.session.clone() {
                Some(s) => self.customers.start(s, &self.spawner, self.journal.clone()),
                None => self.customers.refused(self.not_connected()),
            },
            CustomersCommand::CancelLoad => self.customers.cancel(),
            CustomersCommand::CancelExport => self.customers.cancel_export(),
            CustomersCommand::RefreshCustomerView => self.customers.refresh_view(&self.spawner),
            CustomersCommand::ExportCsv(target) => self.customers.export_csv(
                target,
                &self.spawner,
                &self.journal,
                self.session.as_deref(),
            ),
            CustomersCommand::CustomerBucket(b) => self.customers.set_bucket(b, &self.spawner),
        }
    }
}
