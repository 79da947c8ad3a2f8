//! Lookup and void: an invoice looked up, voided (journal first), printed or e-mailed.

use super::{Command, InvoiceDeskApp, Tab};
use crate::journal::{Action, Guard, Intent};
use crate::ui::command::LookupCommand;
use crate::ui::journal::Found;

impl InvoiceDeskApp {
    /// Carries out one of this area's commands (the others never come here).
    pub(super) fn handle_lookup(&mut self, cmd: LookupCommand) {
        match cmd {
            LookupCommand::PrintInvoice => self.lookup.print(
                &self.spawner,
                &self.journal,
                self.session.as_deref(),
                self.opener.clone(),
                self.documents.clone(),
            ),
            LookupCommand::PrepareInvoiceEmail => {
                let templates = self.templates_dir();
                self.lookup.prepare_email(
                    &self.spawner,
                    &self.journal,
                    self.session.as_deref(),
                    templates,
                )
            }
            LookupCommand::SendInvoiceEmail => {
                self.lookup
                    .send_email(&self.spawner, &self.journal, self.connector.secrets.clone())
            }
            LookupCommand::OpenInLookup { id, from_list } => {
                self.saved.tab = Tab::Lookup;
                self.lookup.id = id;
                self.lookup.from_list = from_list;
                self.lookup.focus_action = true;
                self.handle(Command::Lookup(LookupCommand::LookUp));
            }
            LookupCommand::LookUp => self.fetch_lookup(),
            LookupCommand::RecheckVoid(id) => {
                // Read from the service the void was sent to.
                let Some(s) = self
                    .lookup
                    .void_sent_with()
                    .or_else(|| self.session.clone())
                else {
                    return self.lookup.refused(self.not_connected());
                };
                self.lookup.id = id.clone();
                let journal = self.journal.clone();
                let task = self.spawner.spawn(async move {
                    // Checked through the journal, which records what was found.
                    let found = match journal.check(&s, Action::Void, id.clone()).await? {
                        Some(found) => found,
                        None => {
                            let inv = s.client.get_invoice(&id).await?;
                            if inv.status() == crate::api::InvoiceStatus::Void {
                                Found::Done(id.clone(), Some(Box::new(inv)))
                            } else {
                                return Ok((Found::NotDone, Some(inv)));
                            }
                        }
                    };
                    let inv = match &found {
                        Found::Done(_, Some(inv)) => Some(inv.as_ref().clone()),
                        _ => s.client.get_invoice(&id).await.ok(),
                    };
                    Ok((found, inv))
                });
                self.lookup.rechecking(task);
            }
            LookupCommand::Void(id) => {
                let Some(s) = self.session.clone() else {
                    return self.lookup.refused(self.not_connected());
                };
                if let Err(e) = crate::api::checked_invoice_id(&id) {
                    // Nothing is journaled that could not be sent.
                    return self.lookup.refused(e);
                }
                let with = s.clone();
                let journal = self.journal.clone();
                let p = &s.profile;
                let mut intent = Intent::for_void(
                    &p.name,
                    &p.base_url,
                    Some(p.account_key.as_str()),
                    &id,
                    None,
                );
                // Its customer and amount, when it is the invoice on screen.
                if let Some(inv) = self.lookup.shown(&id) {
                    intent = intent.seen_as(inv);
                }
                let task = self.spawner.spawn(async move {
                    // The desk's four eyes first: an approval carried out, or nothing sent.
                    let guard = Guard {
                        approval: journal.clearance(Action::Void, &intent).await?,
                        ..Guard::default()
                    };
                    let send = s.client.void_invoice(&id);
                    journal
                        .write_ahead(Action::Void, intent, guard, send, |v| Some(v.id.clone()))
                        .await
                });
                self.lookup.voiding(with, task);
            }
        }
    }
}
