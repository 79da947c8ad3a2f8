//! The journal setting in the Credentials panel: this computer's file or the desk's
//! shared journal (a PostgreSQL address), its password (kept in the keyring), the
//! clerk's name, and a "Test" that opens it as the app would.

use super::command::Command;
use super::widgets;
use crate::tr;
use crate::ui::command::DeskCommand;
use egui::Ui;
use secrecy::SecretString;

/// What the app tells the section about the journal in use.
pub struct InUse<'a> {
    /// Where it is: a file's path or the shared journal's address.
    pub place: &'a str,
    /// It is the desk's shared journal.
    pub shared: bool,
    /// `INVOICE_DESK_JOURNAL` chose it: the setting cannot.
    pub fixed: bool,
    /// The saved address (empty: this computer's file).
    pub saved_address: &'a str,
    /// The saved clerk's name (may be empty).
    pub saved_clerk: &'a str,
    /// A create, void or billing run is on its way: the journal is not switched now.
    pub in_flight: bool,
}

/// What a test or a save found: the journal answers and holds so many entries, or why
/// not in the clerk's words.
pub type Tested = Result<super::journal::Opened, String>;

/// The section's state: what is typed, and the last result.
#[derive(Default)]
pub struct JournalSetting {
    /// What is typed; `None` until first drawn (then filled from the saved setting).
    address: Option<String>,
    password: String,
    clerk: Option<String>,
    /// A test or save running.
    busy: bool,
    /// The last test's or save's words, and whether it worked.
    result: Option<Result<String, String>>,
    /// Just switched to the desk's journal from this computer's: its directory may be
    /// brought along.
    directory_offered: bool,
    /// Bringing it now.
    directory_busy: bool,
    /// What bringing it came to.
    directory_result: Option<Result<String, String>>,
    /// On the desk's journal: how many entries this computer's own file holds that the
    /// desk's lacks (offered to copy when some).
    push_offered: Option<u64>,
    /// Copying them now.
    push_busy: bool,
    /// What copying them came to.
    push_result: Option<Result<String, String>>,
}

impl JournalSetting {
    /// A test or a save started.
    pub fn started(&mut self) {
        self.busy = true;
        self.result = None;
    }

    /// A test or save ended: `saved` when the setting was stored and is in use now.
    pub fn ended(&mut self, tested: Tested, saved: bool, shared: bool) {
        self.busy = false;
        self.result = Some(match tested {
            Ok(o) => {
                let mut words = if saved && shared {
                    tr!("sj-saved-shared", entries = o.entries)
                } else if saved {
                    tr!("sj-saved-local")
                } else {
                    tr!("sj-works", entries = o.entries)
                };
                if o.session_only {
                    words = format!("{words} {}", tr!("sj-password-session-only"));
                }
                Ok(words)
            }
            Err(e) => Err(e),
        });
        if saved {
            self.password.clear();
        }
    }

    /// Offers (or stops offering) to bring this computer's directory along.
    pub fn offer_directory(&mut self, offered: bool) {
        self.directory_offered = offered;
        self.directory_busy = false;
        self.directory_result = None;
    }

    /// Offers (or, with `None`, stops offering) to copy this computer's entries.
    pub fn offer_push(&mut self, entries: Option<u64>) {
        self.push_offered = entries;
        if entries.is_some() {
            self.push_result = None;
        }
    }

    /// Copying this computer's entries started.
    pub fn pushing(&mut self) {
        self.push_busy = true;
        self.push_result = None;
    }

    /// Copying ended: how many came, or why not (what was copied stays copied; a
    /// second press copies the rest).
    pub fn pushed(&mut self, result: Result<crate::journal::Pushed, String>) {
        self.push_busy = false;
        if result.is_ok() {
            self.push_offered = None;
        }
        self.push_result =
            Some(result.map(|p| tr!("sj-pushed", copied = p.copied, already = p.already)));
    }

    /// Bringing the directory started.
    pub fn bringing(&mut self) {
        self.directory_busy = true;
        self.directory_result = None;
    }

    /// Bringing the directory ended: how many customers came, or why not.
    pub fn brought(&mut self, result: Result<usize, String>) {
        self.directory_busy = false;
        if result.is_ok() {
            self.directory_offered = false;
        }
        self.directory_result = Some(result.map(|n| tr!("sj-brought", count = n)));
    }

    /// Says why nothing was done (bad address, work on its way).
    pub fn refused(&mut self, why: String) {
        self.busy = false;
        self.result = Some(Err(why));
    }

    /// Draws the section.
    pub fn ui(&mut self, ui: &mut Ui, now: &InUse<'_>, commands: &mut Vec<Command>) {
        let address = self
            .address
            .get_or_insert_with(|| now.saved_address.to_string());
        let clerk = self
            .clerk
            .get_or_insert_with(|| now.saved_clerk.to_string());
        ui.heading(tr!("sj-title"));
        let place = crate::text::escape_controls(now.place);
        if now.shared {
            ui.label(tr!("sj-now-shared", place = place.as_ref()));
        } else {
            ui.label(tr!("sj-now-local", place = place.as_ref()));
        }
        if now.fixed {
            ui.label(tr!("sj-fixed"));
            return;
        }
        ui.label(tr!("sj-explain"));
        egui::Grid::new("shared_journal_form")
            .num_columns(2)
            .spacing([12.0, 8.0])
            .show(ui, |ui| {
                widgets::field_row(
                    ui,
                    &tr!("sj-address"),
                    address,
                    "postgres://ana@servidor/registro?sslmode=verify-full",
                    None,
                );
                widgets::secret_row(
                    ui,
                    &tr!("sj-password"),
                    &mut self.password,
                    &tr!("sj-password-hint"),
                );
                widgets::field_row(ui, &tr!("sj-clerk"), clerk, &tr!("sj-clerk-hint"), None);
            });
        ui.add_space(4.0);
        let typed = address.trim().to_string();
        let changed = typed != now.saved_address.trim()
            || clerk.trim() != now.saved_clerk.trim()
            || !self.password.is_empty();
        ui.horizontal(|ui| {
            let password = || {
                Some(self.password.clone())
                    .filter(|p| !p.is_empty())
                    .map(SecretString::from)
            };
            let test = ui.add_enabled(
                !self.busy && !typed.is_empty(),
                egui::Button::new(tr!("sj-test")),
            );
            if test.clicked() {
                commands.push(Command::Desk(DeskCommand::TestJournal {
                    address: typed.clone(),
                    password: password(),
                }));
            }
            let save = ui
                .add_enabled(
                    !self.busy && changed && !now.in_flight,
                    egui::Button::new(tr!("sj-save")),
                )
                .on_disabled_hover_text(if now.in_flight {
                    tr!("sj-wait-in-flight")
                } else {
                    tr!("sj-nothing-changed")
                });
            if save.clicked() {
                commands.push(Command::Desk(DeskCommand::SaveJournal {
                    address: typed.clone(),
                    password: password(),
                    clerk: clerk.trim().to_string(),
                }));
            }
            if self.busy {
                widgets::busy(ui);
                ui.label(tr!("sj-testing"));
            }
        });
        widgets::outcome(ui, self.result.as_ref());
        if self.directory_offered || self.directory_result.is_some() {
            ui.add_space(4.0);
            if self.directory_offered {
                ui.label(tr!("sj-bring-directory-hint"));
            }
            ui.horizontal(|ui| {
                if self.directory_offered
                    && ui
                        .add_enabled(
                            !self.directory_busy,
                            egui::Button::new(tr!("sj-bring-directory")),
                        )
                        .clicked()
                {
                    commands.push(Command::Desk(DeskCommand::BringDirectory));
                }
                if self.directory_busy {
                    widgets::busy(ui);
                }
            });
            widgets::outcome(ui, self.directory_result.as_ref());
        }
        if let Some(entries) = self.push_offered.filter(|_| now.shared) {
            ui.add_space(4.0);
            ui.label(tr!("sj-push-offer", entries = entries));
            ui.horizontal(|ui| {
                if ui
                    .add_enabled(!self.push_busy, egui::Button::new(tr!("sj-push")))
                    .clicked()
                {
                    commands.push(Command::Desk(DeskCommand::PushEntries));
                }
                if self.push_busy {
                    widgets::busy(ui);
                }
            });
        } else if !now.shared && !typed.is_empty() {
            ui.label(tr!("sj-push-hint"));
        }
        widgets::outcome(ui, self.push_result.as_ref());
    }
}
