//! The one place the app's state changes: [`InvoiceDeskApp::handle`] takes a command,
//! changes state and starts background work; [`InvoiceDeskApp::drain_finished`] (called
//! from `eframe::App::logic`) takes finished work into state, whichever panel is shown.

use super::{Command, InvoiceDeskApp, JournalAim, Tab};
use crate::api::{ApiError, ConnectionReport, InputError, TokenState};
use crate::tr;
use crate::ui::command::{CustomersCommand, LookupCommand, ReceivablesCommand, WindowCommand};
use crate::ui::credentials::TestOutcome;
use crate::ui::session::ProfileCheck;
use crate::ui::session::get_secrets;
use crate::ui::task::{TaskError, take_finished};
use std::sync::Arc;

impl InvoiceDeskApp {
    /// The clerk's e-mail templates: beside the profiles, as the CLI's are.
    pub(super) fn templates_dir(&self) -> Option<std::path::PathBuf> {
        self.profiles_path
            .as_deref()
            .and_then(std::path::Path::parent)
            .map(|d| d.join("templates"))
    }

    pub(super) fn connect(&mut self, name: &str) {
        let Some(profile) = self.profiles.get(name).cloned() else {
            return;
        };
        if let Some(old) = self.connecting.take() {
            old.cancel();
        }
        self.session = None;
        self.session_error = None;
        let connector = self.connector.clone();
        self.connecting = Some(self.spawner.spawn(connector.connect(profile)));
    }

    /// Every change of the active profile ends here. A different profile clears what the
    /// panels showed (it came from the previous profile's service) and connects; the
    /// same one only reconnects when it is not connected.
    pub(super) fn switched_profile(&mut self, previous: Option<String>) {
        let now = self.profiles.active.clone();
        self.follow_profiles_journal();
        if now != previous {
            self.create.profile_changed();
            self.lookup.profile_changed();
            self.customers.profile_changed();
            self.bulk.profile_changed();
        }
        match now {
            None => {
                if let Some(old) = self.connecting.take() {
                    old.cancel();
                }
                self.session = None;
            }
            Some(name) => {
                // The same profile again: reconnect only when neither connected nor
                // connecting.
                let changed = previous.as_deref() != Some(name.as_str());
                if changed || (self.session.is_none() && self.connecting.is_none()) {
                    self.connect(&name);
                }
            }
        }
    }

    pub(super) fn save_profiles(&self) -> Result<(), crate::profile::ProfileError> {
        match &self.profiles_path {
            Some(p) => self.profiles.save(p),
            None => Ok(()),
        }
    }

    /// "Connect first", as an error for the panel that needed a connection.
    pub(super) fn not_connected(&self) -> ApiError {
        ApiError::invalid(InputError::Said(
            self.session_error
                .clone()
                .unwrap_or_else(|| tr!("connect-first")),
        ))
    }

    /// Carries out one command: each area's enum goes whole to a handler of its own
    /// (profiles.rs, desk.rs, issue.rs, lookup.rs, customers.rs, receivables.rs,
    /// search.rs; the window's and the billing panel's here), as rerun splits its
    /// commands; every match is exhaustive.
    pub(super) fn handle(&mut self, cmd: Command) {
        match cmd {
            Command::Profiles(c) => self.handle_profiles(c),
            Command::Desk(c) => self.handle_desk(c),
            Command::Issue(c) => self.handle_issue(*c),
            Command::Lookup(c) => self.handle_lookup(c),
            Command::Customers(c) => self.handle_customers(c),
            Command::Receivables(c) => self.handle_receivables(c),
            Command::Search(c) => self.handle_search(c),
            Command::Window(c) => self.handle_window(c),
            Command::Bulk(c) => self.handle_bulk(c),
            Command::Contracts(c) => self.handle_contracts(c),
        }
    }

    /// Billing runs: the panel carries them out with what it needs of the app.
    fn handle_bulk(&mut self, c: crate::ui::bulk::BulkCommand) {
        let deps = run_deps(&self.spawner, &self.journal, &self.session, &self.profiles);
        self.bulk.handle(c, deps);
    }

    /// Contracts: the panel carries them out with what a billing run needs of the app.
    fn handle_contracts(&mut self, c: crate::ui::command::ContractsCommand) {
        let deps = run_deps(&self.spawner, &self.journal, &self.session, &self.profiles);
        self.contracts.handle(c, deps);
    }

    /// The window, the tabs, the theme and language, diagnostics, quitting.
    fn handle_window(&mut self, cmd: WindowCommand) {
        match cmd {
            WindowCommand::Show(tab) => {
                self.saved.tab = tab;
                if tab == Tab::Activity {
                    // Fresh on every visit: the CLI or another window may have written.
                    self.handle(Command::Window(WindowCommand::ActivityRefresh));
                }
            }
            WindowCommand::Focus(tab) => {
                self.saved.tab = tab;
                match tab {
                    Tab::Create => self.create.request_focus(),
                    Tab::Lookup => self.lookup.request_focus(),
                    Tab::Customers => self.customers.request_focus(),
                    Tab::Credentials
                    | Tab::Activity
                    | Tab::Bulk
                    | Tab::Receivables
                    | Tab::Contracts => {}
                }
            }
            WindowCommand::SubmitCurrent => match self.saved.tab {
                Tab::Create => self.create.request_submit(),
                Tab::Lookup => self.handle(Command::Lookup(LookupCommand::LookUp)),
                Tab::Customers => self.handle(Command::Customers(CustomersCommand::LoadCustomer)),
                Tab::Bulk => self.handle(Command::Bulk(crate::ui::bulk::BulkCommand::Read)),
                Tab::Receivables => {
                    self.handle(Command::Receivables(ReceivablesCommand::ReviewReceivables))
                }
                Tab::Contracts => self.handle(Command::Contracts(
                    crate::ui::command::ContractsCommand::Preview,
                )),
                Tab::Credentials | Tab::Activity => {}
            },
            WindowCommand::ActivityRefresh => self.activity.refresh(&self.journal, &self.spawner),
            WindowCommand::OpenExternal(what) => {
                let opener = self.opener.clone();
                let target = what.clone();
                let task = self.spawner.spawn(async move {
                    tokio::task::spawn_blocking(move || opener(&target))
                        .await
                        .map_err(|e| e.to_string())?
                });
                self.opening = Some((what, task));
            }
            WindowCommand::ActivityPage(p) => {
                self.activity.load_page(p, &self.journal, &self.spawner)
            }
            WindowCommand::ActivityExport => self.activity.export_csv(&self.journal, &self.spawner),
            WindowCommand::DecideApproval { id, approve } => {
                self.activity
                    .approvals
                    .decide(&self.journal, &self.spawner, id, approve)
            }
            WindowCommand::SetTheme(t) => {
                self.saved.theme = t;
                self.spawner.ctx.set_theme(t.preference());
            }
            WindowCommand::SetLanguage(l) => {
                self.saved.lang = Some(l);
                crate::i18n::set(l);
                // Typed dates are read the new language's way.
                if self.customers.read_filter() {
                    self.customers.refresh_view(&self.spawner);
                }
            }
            WindowCommand::Diagnostics => {
                self.diagnostics_open = true;
                self.diagnostics_report = None;
                let secrets = self.connector.secrets.clone();
                let profiles = self.profiles_path.clone();
                let data = self.connector.sandbox_data.clone();
                self.diagnostics = Some(self.spawner.spawn(async move {
                    let store = get_secrets(&secrets).await;
                    tokio::task::spawn_blocking(move || {
                        crate::doctor::run(&store, profiles.as_deref(), data.as_deref())
                    })
                    .await
                    .unwrap_or_else(|e| crate::doctor::Report {
                        checks: vec![crate::doctor::Check {
                            what: tr!("diag-title"),
                            ok: false,
                            found: e.to_string(),
                            detail: None,
                        }],
                    })
                }));
            }
            WindowCommand::CloseDiagnostics => self.diagnostics_open = false,
            WindowCommand::Quit => self
                .spawner
                .ctx
                .send_viewport_cmd(egui::ViewportCommand::Close),
            WindowCommand::ConfirmQuit(close) => {
                self.quit_asking = false;
                if close {
                    self.quit_confirmed = true;
                    self.spawner
                        .ctx
                        .send_viewport_cmd(egui::ViewportCommand::Close);
                }
            } // Each area's own commands went to its handler above.
        }
    }

    fn connect_failed(&mut self, why: String) {
        if let Some(name) = self.profiles.active.clone() {
            self.checks.insert(
                name,
                ProfileCheck::Failed {
                    why: why.clone(),
                    at: chrono::Local::now(),
                },
            );
        }
        self.session_error = Some(why);
    }

    /// A connection test of `name` ended: remembered for the session, shown in the panel.
    fn tested(
        &mut self,
        name: String,
        result: Result<Result<ConnectionReport, ApiError>, TaskError>,
    ) {
        let now = chrono::Local::now();
        let outcome = match result {
            Ok(Ok(report)) if report.service_ok => {
                let how = match report.token {
                    TokenState::Valid {
                        expires_at: Some(t),
                    } => tr!("cred-token-issued", time = crate::i18n::expiry(t)),
                    TokenState::NotUsed => tr!("cred-key-accepted"),
                    _ => String::new(),
                };
                self.checks
                    .insert(name.clone(), ProfileCheck::Working { at: now });
                TestOutcome::Works(
                    format!("{} {how}", tr!("cred-connection-works"))
                        .trim_end()
                        .to_string(),
                )
            }
            Ok(Ok(_)) => {
                self.checks.insert(
                    name.clone(),
                    ProfileCheck::Failed {
                        why: tr!("cred-connection-unsure"),
                        at: now,
                    },
                );
                TestOutcome::Unsure
            }
            Ok(Err(e)) => {
                self.checks.insert(
                    name.clone(),
                    ProfileCheck::Failed {
                        why: crate::i18n::error_text(&e),
                        at: now,
                    },
                );
                TestOutcome::Failed(e)
            }
            Err(e) => TestOutcome::NotRun(e.words()),
        };
        self.credentials.tested(name, outcome);
    }

    pub(super) fn fetch_lookup(&mut self) {
        let Some(s) = self.session.clone() else {
            return self.lookup.refused(self.not_connected());
        };
        let id = self.lookup.id.trim().to_string();
        if id.is_empty() {
            return;
        }
        let place = crate::search::index::place_for(self.journal.place());
        let task = self.spawner.spawn(async move {
            let found = s.client.get_invoice(&id).await;
            if let Ok(inv) = &found {
                // What was looked up is found by the search box later.
                let seen = vec![crate::search::Seen::of_invoice(inv, chrono::Utc::now())];
                crate::search::keep_listed_in_background(place, s.profile.base_url.clone(), seen);
            }
            found
        });
        self.lookup.fetching(task);
    }

    /// Why `address` cannot be a shared journal's, in the clerk's words.
    pub(super) fn journal_address_ok(&self, address: &str) -> Result<(), String> {
        if !crate::journal::is_database_url(address) {
            return Err(tr!("sj-not-an-address"));
        }
        if crate::journal::without_password(address) != address.trim() {
            return Err(tr!("sj-password-in-address"));
        }
        Ok(())
    }

    /// Opens the journal at `address` off the UI thread, for `aim`.
    pub(super) fn journal_setting_start(
        &mut self,
        aim: JournalAim,
        address: String,
        password: Option<secrecy::SecretString>,
        keep: bool,
    ) {
        self.credentials.journal.started();
        let secrets = self.connector.secrets.clone();
        let task = self.spawner.spawn(crate::ui::journal::try_place(
            address, password, secrets, keep,
        ));
        self.journal_setting = Some((aim, task));
    }

    /// A journal setting's test ended: a save that opened is stored and used from now
    /// on (unless something started sending meanwhile).
    pub(super) fn journal_switch(
        &mut self,
        aim: JournalAim,
        tested: crate::ui::shared_journal::Tested,
    ) {
        let JournalAim::Save { address, clerk } = aim else {
            return self.credentials.journal.ended(tested, false, false);
        };
        if tested.is_err() {
            return self.credentials.journal.ended(tested, false, false);
        }
        if self.in_flight() {
            return self.credentials.journal.refused(tr!("sj-wait-in-flight"));
        }
        let before = (
            self.profiles.shared_journal.clone(),
            self.profiles.clerk_name.clone(),
        );
        self.profiles.shared_journal = Some(address).filter(|a| !a.is_empty());
        self.profiles.clerk_name =
            Some(crate::journal::clerk_name(&clerk)).filter(|c| !c.is_empty());
        if let Err(e) = self.save_profiles() {
            (self.profiles.shared_journal, self.profiles.clerk_name) = before;
            return self
                .credentials
                .journal
                .refused(crate::i18n::profile_error(&e));
        }
        let chosen = self.chosen_journal();
        let before = std::mem::replace(&mut self.journal, chosen);
        let shared = self.journal.is_shared();
        self.credentials.journal.ended(tested, true, shared);
        // From this computer's file to the desk's journal: the directory stays behind
        // unless the clerk brings it (offered, never done silently).
        self.directory_source = (shared && !before.is_shared()).then_some(before);
        // Offered only when it has something to bring (#68): looked at off the UI thread.
        self.credentials.journal.offer_directory(false);
        self.directory_check = self.directory_source.clone().map(|from| {
            self.spawner.spawn(async move {
                from.read(|j| j.directory_to_bring().map(|c| !c.is_empty()))
                    .await
            })
        });
        self.journal_changed();
    }

    /// The journal follows the active profile: the built-in sandbox's (practice) has one
    /// of its own, every real profile the computer's or the desk's.
    pub(super) fn follow_profiles_journal(&mut self) {
        let chosen = self.chosen_journal();
        if chosen.is_practice() == self.journal.is_practice()
            && chosen.place() == self.journal.place()
        {
            return;
        }
        self.journal = chosen;
        self.journal_changed();
    }

    /// Everything that reads the journal reads the new one.
    fn journal_changed(&mut self) {
        let journal = self.journal.clone();
        self.journal_counting = Some(self.spawner.spawn(async move { journal.count().await }));
        self.journal_checked = None;
        self.handle(Command::Window(WindowCommand::ActivityRefresh));
        self.bulk.look_for_interrupted(&self.journal, &self.spawner);
        self.look_for_unpushed();
    }

    /// On the desk's journal, whether this computer's own file holds entries the desk's
    /// lacks (#68: offered as a button, as `journal push` does it).
    pub(super) fn look_for_unpushed(&mut self) {
        self.credentials.journal.offer_push(None);
        self.push_check = None;
        let Some(local) = self.local_journal_file() else {
            return;
        };
        let shared = self.journal.clone();
        self.push_check = Some(self.spawner.spawn(async move {
            let shared = shared
                .shared()
                .await
                .map_err(|e| crate::i18n::journal_error(&e))?;
            shared
                .run(move |to| crate::journal::Journal::open(&local)?.unpushed(to))
                .await
                .map_err(|e| crate::i18n::journal_error(&e))
        }));
    }

    /// This computer's own journal file, when the desk's journal is in use and that file
    /// exists (a push has something to copy from).
    pub(super) fn local_journal_file(&self) -> Option<std::path::PathBuf> {
        if !self.journal.is_shared() || self.journal.is_practice() {
            return None;
        }
        self.journal_local.clone().filter(|p| p.is_file())
    }

    /// Takes finished background work into state (called every frame from `logic`, so a
    /// result is taken even when its panel is not on screen).
    pub(super) fn drain_finished(&mut self) {
        self.search_finished();
        self.uf_finished();
        if self.contracts.finished() {
            self.handle(Command::Contracts(
                crate::ui::command::ContractsCommand::Refresh,
            ));
        }
        if let Some((aim, task)) = self.journal_setting.take() {
            match task.try_take() {
                Ok(r) => self.journal_switch(aim, crate::ui::task::flat(r)),
                Err(task) => self.journal_setting = Some((aim, task)),
            }
        }
        self.connection_finished();
        if let Some((name, task)) = self.test.take() {
            match task.try_take() {
                Ok(result) => self.tested(name, result),
                Err(task) => self.test = Some((name, task)),
            }
        }
        let _ = take_finished(&mut self.journal_counting);
        // The desk's server out of reach (a restart, a failover, the network): asked
        // again every few seconds until it answers, so the app goes on by itself.
        if self.journal.down_since().is_some()
            && self.journal_counting.is_none()
            && self
                .journal_probed
                .is_none_or(|at| at.elapsed() >= super::JOURNAL_RETRY)
        {
            self.journal_probed = Some(std::time::Instant::now());
            let journal = self.journal.clone();
            self.journal_counting = Some(self.spawner.spawn(async move { journal.count().await }));
        }
        let _ = take_finished(&mut self.seeding_directory);
        if let Some(r) = take_finished(&mut self.directory_check) {
            // A directory that could not be read is offered: bringing it says why.
            let worth = !matches!(r, Ok(Ok(false)));
            if worth && self.directory_source.is_some() {
                self.credentials.journal.offer_directory(true);
            } else {
                self.directory_source = None;
            }
        }
        if let Some(r) = take_finished(&mut self.push_check) {
            // Unreadable: not offered (the desk's journal being down is said elsewhere).
            let r = crate::ui::task::flat(r);
            self.credentials
                .journal
                .offer_push(r.ok().filter(|n| *n > 0));
        }
        if let Some(r) = take_finished(&mut self.pushing) {
            let r = crate::ui::task::flat(r);
            let done = r.is_ok();
            self.credentials.journal.pushed(r);
            if done {
                self.handle(Command::Window(WindowCommand::ActivityRefresh));
            }
        }
        if let Some(r) = take_finished(&mut self.bringing_directory) {
            let r = crate::ui::task::flat(r);
            if r.is_ok() {
                self.directory_source = None;
            }
            self.credentials.journal.brought(r);
        }
        if let Some(r) = take_finished(&mut self.journal_check) {
            self.journal_checked = Some(crate::ui::task::flat(r));
            if self.saved.tab == Tab::Activity {
                self.handle(Command::Window(WindowCommand::ActivityRefresh));
            }
        }
        self.typing_finished();
        if let Some(r) = take_finished(&mut self.importing) {
            self.customers.directory_note = match crate::ui::task::flat(r) {
                Ok(None) => {
                    self.customers.offer_import_path();
                    None
                }
                Ok(Some(Ok(n))) => Some(Ok(tr!("dir-imported", count = n))),
                Ok(Some(Err(lines))) => Some(Err(lines)),
                Err(e) => Some(Err(vec![e])),
            };
            // What was typed is looked up again in the new directory, names too.
            self.suggestions = Default::default();
            self.names.clear();
        }
        if let Some(Ok(report)) = take_finished(&mut self.diagnostics) {
            self.diagnostics_report = Some(report);
        }
        if take_finished(&mut self.secrets_task).is_some() {
            self.spawner.ctx.request_repaint();
        }
        let panels: [&mut dyn crate::ui::Panel; 7] = [
            &mut self.activity,
            &mut self.receivables,
            &mut self.credentials,
            &mut self.create,
            &mut self.lookup,
            &mut self.customers,
            &mut self.bulk,
        ];
        let mut answered = false;
        for panel in panels {
            panel.poll();
            answered |= panel.service_answered();
        }
        // An invoice issued or looked up: the profile's connection works, whether or
        // not the clerk tested it (#68).
        if answered && let Some(s) = &self.session {
            self.checks.insert(
                s.profile.name.clone(),
                ProfileCheck::Working {
                    at: chrono::Local::now(),
                },
            );
        }
        if self.pending_reconnect
            && !self.credentials.is_saving()
            && let Some(a) = self.profiles.active.clone()
        {
            self.pending_reconnect = false;
            self.connect(&a);
        }
        if self.bulk.take_pending_read() {
            self.handle(Command::Bulk(crate::ui::bulk::BulkCommand::Read));
        }
    }

    /// The connection to the active profile's service: made (the session, and the
    /// sandbox's customers in the directory), or why not.
    fn connection_finished(&mut self) {
        if let Some(result) = take_finished(&mut self.connecting) {
            match result {
                Ok(Ok(session)) => {
                    crate::ui::trace_line!("connected");
                    let session = Arc::new(session);
                    if std::mem::take(&mut self.pending_sandbox_welcome) {
                        self.create.prefill_for_sandbox(&session);
                    }
                    if !session.sandbox_directory.is_empty() {
                        // The sandbox's customers, by name and RUT, in the directory
                        // (those it knows by name already are left as they are).
                        let (journal, directory) =
                            (self.journal.clone(), session.sandbox_directory.clone());
                        self.seeding_directory = Some(self.spawner.spawn(async move {
                            if let Ok(j) = journal.shared().await {
                                let _ = j.run(move |j| j.bring_customers(&directory)).await;
                            }
                        }));
                    }
                    self.session = Some(session);
                    self.read_uf();
                }
                Err(TaskError::Cancelled) => {}
                Ok(Err(e)) => self.connect_failed(e),
                Err(e) => self.connect_failed(e.words()),
            }
        }
    }

    /// What the typing asked for off the UI thread: customers' names, suggestions, a link
    /// or folder opened.
    fn typing_finished(&mut self) {
        if let Some((asked, task)) = self.naming.take() {
            match task.try_take() {
                Ok(found) => {
                    let found = crate::ui::task::flat(found);
                    self.names.learn(&asked, found.unwrap_or_default());
                }
                Err(task) => self.naming = Some((asked, task)),
            }
        }
        if let Some((text, task)) = self.suggesting.take() {
            match task.try_take() {
                Ok(found) => {
                    // The directory out of reach is said under the field, not an
                    // empty list (#68: the suggestions vanished silently).
                    let (found, unread) = match crate::ui::task::flat(found) {
                        Ok(found) => (found, None),
                        Err(why) => (Vec::new(), Some(why)),
                    };
                    self.suggestions = crate::ui::widgets::Suggestions {
                        asked: text,
                        found,
                        unread,
                    };
                }
                Err(task) => self.suggesting = Some((text, task)),
            }
        }
        if let Some((what, task)) = self.opening.take() {
            match task.try_take() {
                Ok(result) => {
                    let result = crate::ui::task::flat(result);
                    if let (crate::ui::external::External::Link(url), Err(_)) = (&what, &result) {
                        // The clerk can paste it in a browser.
                        self.spawner.ctx.copy_text(url.clone());
                    }
                    match what {
                        crate::ui::external::External::Link(url) => {
                            self.lookup.link_opened(&url, result)
                        }
                        crate::ui::external::External::Folder(dir)
                        | crate::ui::external::External::File(dir) => {
                            self.customers.folder_opened(&dir, result)
                        }
                    }
                }
                Err(task) => self.opening = Some((what, task)),
            }
        }
    }
}

/// Imports the customer directory from `path`, off the UI thread: how many customers, or
/// each problem in the clerk's words.
pub(super) async fn import_directory(
    journal: crate::ui::journal::AppJournal,
    path: std::path::PathBuf,
) -> Result<Result<usize, Vec<String>>, String> {
    let rows = tokio::task::spawn_blocking(move || crate::journal::read_import(&path))
        .await
        .map_err(|e| e.to_string())?;
    match rows {
        Err(problems) => Ok(Err(problems
            .iter()
            .take(10)
            .map(crate::i18n::import_problem)
            .collect())),
        Ok(rows) => journal
            .write(move |j| j.import_customers(&rows))
            .await
            .map(Ok),
    }
}

impl InvoiceDeskApp {
    /// The day whose UF value is shown: today (the tests' fixed day).
    pub(super) fn uf_day(&self) -> chrono::NaiveDate {
        self.clock.today()
    }

    /// The UF's work taken into state: the CMF key kept, a file of values kept, today's
    /// value read, and read again (see [`Self::reread_uf`]).
    fn uf_finished(&mut self) {
        if let Some(r) = crate::ui::task::take_finished(&mut self.uf_key_saving) {
            use crate::profile::StoreStatus;
            self.credentials.uf.ended(match crate::ui::task::flat(r) {
                Ok(StoreStatus::Keyring(kind)) => {
                    Ok(tr!("ufs-saved", store = crate::i18n::keyring_name(&kind)))
                }
                Ok(StoreStatus::SessionOnly(_)) => Err(tr!("cred-saved-session")),
                Err(e) => Err(tr!("cred-secret-not-saved", error = e)),
            });
            // Read again with what was kept.
            self.read_uf();
        }
        if let Some(r) = crate::ui::task::take_finished(&mut self.uf_importing) {
            match r {
                Ok(Some(said)) => {
                    self.credentials.uf.imported(said);
                    // A value kept for today shows now.
                    self.read_uf();
                }
                Ok(None) => self.credentials.uf.imported_nothing(),
                Err(e) => self.credentials.uf.imported(Err(e.words())),
            }
        }
        if let Some(result) = take_finished(&mut self.uf_loading) {
            let today = self.uf_day();
            self.uf = match result {
                Ok(Ok(found)) => crate::ui::widgets::UfShown {
                    value: Some(found),
                    missing: None,
                },
                Ok(Err(e)) => crate::ui::widgets::UfShown {
                    value: None,
                    missing: Some(crate::i18n::uf_error(&e, today)),
                },
                Err(e) => crate::ui::widgets::UfShown {
                    value: None,
                    missing: Some(e.words()),
                },
            };
        }
        self.reread_uf();
    }

    /// Reads the day's kept UF value again every [`super::UF_REREAD`] once it has been
    /// read: a value stored since (another clerk's import, a fetch on the command line,
    /// a correction) replaces what is shown; a new day is read whole.
    fn reread_uf(&mut self) {
        if let Some(Ok(Ok(Some(found)))) = take_finished(&mut self.uf_rereading)
            && self.uf.value.as_ref() != Some(&found)
            && found.uf.date == self.uf_day()
        {
            self.uf = crate::ui::widgets::UfShown {
                value: Some(found),
                missing: None,
            };
        }
        let due = self
            .uf_reread_at
            .is_some_and(|at| at.elapsed() >= super::UF_REREAD);
        if !due || self.uf_loading.is_some() || self.uf_rereading.is_some() {
            return;
        }
        let day = self.uf_day();
        if self.uf.day().is_some_and(|d| d.date != day) {
            self.read_uf();
            return;
        }
        self.uf_reread_at = Some(std::time::Instant::now());
        let journal = self.journal.clone();
        self.uf_rereading = Some(self.spawner.spawn(async move {
            let j = journal
                .shared()
                .await
                .map_err(crate::uf::UfError::Journal)?;
            crate::uf::kept_on(&j, day).await
        }));
    }

    /// Reads today's UF value (kept, else from the CMF or the built-in sandbox) for the
    /// panels to show UF amounts in pesos; what was shown goes until then.
    pub(super) fn read_uf(&mut self) {
        self.uf_reread_at = Some(std::time::Instant::now());
        let day = self.uf_day();
        let journal = self.journal.clone();
        let mut profiles = self.profiles.clone();
        // The built-in sandbox's profile says "built-in": its CMF routes are at the
        // address the sandbox runs at, which the connection knows.
        if let Some(s) = self.session.as_ref().filter(|s| s.profile.sandbox) {
            let name = s.profile.name.clone();
            if let Some(p) = profiles.profiles.iter_mut().find(|p| p.name == name) {
                p.base_url = s.client.config().base_url.to_string();
            }
        }
        let secrets = self.connector.secrets.clone();
        self.uf = Default::default();
        self.uf_loading = Some(self.spawner.spawn(async move {
            let j = journal
                .shared()
                .await
                .map_err(crate::uf::UfError::Journal)?;
            let source = move || match secrets.get() {
                Some(store) => crate::uf::source_for(&profiles, store),
                None => Err(crate::uf::UfError::NoKey),
            };
            crate::uf::value_on(&j, source, day).await
        }));
    }
}

/// What a billing run needs of the app (the Bulk and Contracts panels'): the fields it
/// borrows, so that the panel itself may be borrowed beside them.
fn run_deps<'a>(
    spawner: &'a crate::ui::task::Spawner,
    journal: &'a crate::ui::journal::AppJournal,
    session: &Option<std::sync::Arc<crate::ui::session::Session>>,
    profiles: &crate::profile::Profiles,
) -> crate::ui::bulk::BulkDeps<'a> {
    let profile = profiles.active_profile();
    crate::ui::bulk::BulkDeps {
        spawner,
        journal,
        session: session.clone(),
        currencies: profile.map_or_else(
            || crate::api::Currency::DEFAULT_OFFERED.to_vec(),
            |p| p.currencies.clone(),
        ),
        account_currency: profile.and_then(|p| p.account_currency),
    }
}
