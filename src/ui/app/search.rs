//! The search box's commands: a search on the journal's thread (the index beside the
//! journal), one at a time — the newest text typed meanwhile is searched next.

use super::{Command, InvoiceDeskApp};
use crate::ui::command::SearchCommand;

impl InvoiceDeskApp {
    /// Carries out one of this area's commands (the others never come here).
    pub(super) fn handle_search(&mut self, cmd: SearchCommand) {
        match cmd {
            SearchCommand::FocusSearch => self.search.focus(),
            SearchCommand::Search(text) => {
                if text.is_empty() {
                    self.search_next = None;
                    return;
                }
                if self.searching.is_some() {
                    self.search_next = Some(text);
                    return;
                }
                let base_url = self
                    .searched_profile()
                    .map(|p| p.base_url.clone())
                    .unwrap_or_default();
                let service = crate::search::service_of(&base_url);
                let place = crate::search::index::place_for(self.journal.place());
                let journal = self.journal.clone();
                self.searching = Some(self.spawner.spawn(async move {
                    journal
                        .read(move |j| {
                            Ok(crate::search::find_at(j, place.as_deref(), &service, &text)
                                .map_err(|e| crate::i18n::search_error(&e)))
                        })
                        .await
                        .and_then(|r| r)
                }));
            }
        }
    }

    /// The profile whose service's invoices are searched: the connected one's, else the
    /// active one's (what the journal and listings were read from).
    fn searched_profile(&self) -> Option<&crate::profile::Profile> {
        self.session
            .as_ref()
            .map(|s| &s.profile)
            .or_else(|| self.profiles.active_profile())
    }

    /// A search that finished: its answer shown, the text typed meanwhile searched.
    pub(super) fn search_finished(&mut self) {
        if let Some(result) = crate::ui::task::take_finished(&mut self.searching) {
            let profile = self
                .searched_profile()
                .map(|p| p.name.clone())
                .unwrap_or_default();
            self.search.answered(crate::ui::task::flat(result), profile);
            if let Some(next) = self.search_next.take() {
                self.handle(Command::Search(SearchCommand::Search(next)));
            }
        }
    }
}
