//! The desk's shared journal: its address tested and saved, this computer's directory brought to it.

use super::{InvoiceDeskApp, JournalAim};
use crate::tr;
use crate::ui::command::DeskCommand;

impl InvoiceDeskApp {
    /// Carries out one of this area's commands (the others never come here).
    pub(super) fn handle_desk(&mut self, cmd: DeskCommand) {
        match cmd {
            DeskCommand::TestJournal { address, password } => {
                if let Err(why) = self.journal_address_ok(&address) {
                    return self.credentials.journal.refused(why);
                }
                self.journal_setting_start(JournalAim::Test, address, password, false);
            }
            DeskCommand::SaveJournal {
                address,
                password,
                clerk,
            } => {
                if self.in_flight() {
                    return self.credentials.journal.refused(tr!("sj-wait-in-flight"));
                }
                let aim = JournalAim::Save {
                    address: address.clone(),
                    clerk,
                };
                if address.is_empty() {
                    // This computer's own file: nothing to reach first.
                    self.credentials.journal.started();
                    return self.journal_switch(aim, Ok(Default::default()));
                }
                if let Err(why) = self.journal_address_ok(&address) {
                    return self.credentials.journal.refused(why);
                }
                self.journal_setting_start(aim, address, password, true);
            }
            DeskCommand::PushEntries => {
                let (Some(local), None) = (self.local_journal_file(), &self.pushing) else {
                    return;
                };
                let to = self.journal.clone();
                self.credentials.journal.pushing();
                self.pushing = Some(self.spawner.spawn(async move {
                    let said = |e: crate::journal::JournalError| crate::i18n::journal_error(&e);
                    let to = to.shared().await.map_err(said)?;
                    // Each entry in a transaction of its own, claims with it: a push cut
                    // short is taken up by the next one, nothing copied twice.
                    to.run(move |to| crate::journal::Journal::open(&local)?.push_into(to))
                        .await
                        .map_err(said)
                }));
            }
            DeskCommand::BringDirectory => {
                let (Some(from), None) = (self.directory_source.clone(), &self.bringing_directory)
                else {
                    return;
                };
                let to = self.journal.clone();
                self.credentials.journal.bringing();
                self.bringing_directory = Some(self.spawner.spawn(async move {
                    let said = |e: crate::journal::JournalError| crate::i18n::journal_error(&e);
                    let from = from.shared().await.map_err(said)?;
                    let to = to.shared().await.map_err(said)?;
                    let customers = from.run(|j| j.directory_to_bring()).await.map_err(said)?;
                    to.run(move |j| j.bring_customers(&customers))
                        .await
                        .map_err(said)
                }));
            }
        }
    }
}
