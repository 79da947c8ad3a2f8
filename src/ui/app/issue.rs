//! New invoice: issued (journal first), an unknown outcome checked, the journal verified.

use super::InvoiceDeskApp;
use crate::api::{ApiError, InputError};
use crate::journal::{Action, Guard, Intent, Similar};
use crate::tr;
use crate::ui::command::IssueCommand;
use crate::ui::journal::{Found, NotDone};

impl InvoiceDeskApp {
    /// Carries out one of this area's commands (the others never come here).
    pub(super) fn handle_issue(&mut self, cmd: IssueCommand) {
        match cmd {
            IssueCommand::CreateInvoice {
                invoice: inv,
                allow_similar,
                reissue_missing,
            } => {
                if self.create.is_locked() {
                    // Never a second send while one is out or unresolved.
                    return;
                }
                let Some(s) = self.session.clone() else {
                    return self.create.refused(self.not_connected());
                };
                let sent = inv.clone();
                let with = s.clone();
                let journal = self.journal.clone();
                let p = &s.profile;
                let intent =
                    Intent::for_create(&p.name, &p.base_url, Some(p.account_key.as_str()), &inv);
                let guard = Guard {
                    similar: Similar {
                        allow: allow_similar,
                        ..Similar::default()
                    },
                    missing: reissue_missing,
                    ..Guard::default()
                };
                let task = self.spawner.spawn(async move {
                    // The desk's four eyes first: an approval carried out, or nothing sent.
                    let guard = Guard {
                        approval: journal.clearance(Action::Create, &intent).await?,
                        ..guard
                    };
                    let send = s.client.create_invoice(&inv, None);
                    let done = journal
                        .write_ahead(Action::Create, intent, guard, send, |c| Some(c.id.clone()))
                        .await;
                    match done {
                        // Where the earlier invoice stands now (paid, void), for the
                        // clerk deciding whether this one repeats it.
                        Err(NotDone::LooksLike { earlier, now: None }) => {
                            let now = match earlier.invoice_id.as_deref() {
                                Some(id) => s.client.get_invoice(id).await.ok().map(|i| i.status()),
                                None => None,
                            };
                            Err(NotDone::LooksLike { earlier, now })
                        }
                        // The journal has it as issued: is that invoice at the service?
                        Err(NotDone::Blocked(b)) => match *b {
                            crate::journal::Blocked::Done(e) if e.action == Action::Create => {
                                let reference = inv.invoice_external_id.clone().unwrap_or_default();
                                match crate::journal::missing_at_service(
                                    &s.client,
                                    &e,
                                    &inv.customer,
                                    &reference,
                                )
                                .await
                                {
                                    Some(_) => Err(NotDone::Missing(Box::new(e))),
                                    None => Err(NotDone::Blocked(Box::new(
                                        crate::journal::Blocked::Done(e),
                                    ))),
                                }
                            }
                            b => Err(NotDone::Blocked(Box::new(b))),
                        },
                        done => done,
                    }
                });
                self.create.started(sent, with, task);
            }
            IssueCommand::ClerkCheckedNotCreated(inv) => {
                self.create.clerk_checked();
                let journal = self.journal.clone();
                let (customer, amount) = (inv.customer.clone(), inv.amount.normalize().to_string());
                self.spawner.spawn(async move {
                    journal.clerk_says_not_created(customer, amount).await;
                });
            }
            IssueCommand::CheckCreated(sent) => {
                // Checked with the service it was sent to, whichever profile is active.
                let Some(s) = self.create.sent_with().or_else(|| self.session.clone()) else {
                    return self.create.refused(self.not_connected());
                };
                let journal = self.journal.clone();
                let task = self.spawner.spawn(async move {
                    let Some(reference) = sent.invoice_external_id.clone() else {
                        return Err(ApiError::invalid(InputError::Said(tr!(
                            "cr-no-reference-check"
                        ))));
                    };
                    match journal.check(&s, Action::Create, reference).await? {
                        Some(found) => Ok(found),
                        // Not in this journal (sent before it was kept): the service is
                        // asked directly.
                        None => Ok(match crate::ui::create::find_created(&s, &sent).await? {
                            Some(inv) => Found::Done(inv.id.clone(), Some(Box::new(inv))),
                            None => Found::NotDone,
                        }),
                    }
                });
                self.create.checking(task);
            }
            IssueCommand::CheckJournal => {
                let Some(s) = self.session.clone() else {
                    return;
                };
                if self.journal_check.is_some() {
                    return;
                }
                let journal = self.journal.clone();
                self.journal_checked = None;
                self.journal_check = Some(
                    self.spawner
                        .spawn(async move { journal.check_now(&s).await }),
                );
            }
        }
    }
}
