//! The app: its state (this file), the one place state changes (`handle.rs`: commands in,
//! background work out, finished work drained in `logic`), and the top bar with its
//! menus and shortcuts (`top_bar.rs`). Panels draw from state and push commands.

mod customers;
mod desk;
mod handle;
mod issue;
mod lookup;
mod profiles;
mod receivables;
mod search;
mod top_bar;

pub use super::command::{Command, Tab, ThemeChoice};
use super::create::CreatePanel;
use super::credentials::CredentialsPanel;
use super::customers::CustomersPanel;
use super::lookup::LookupPanel;
pub use super::session::Session;
use super::session::{Connector, get_secrets};
use super::task::{Spawner, Task};
use crate::profile::{Profiles, SecretStore};
use crate::ui::command::WindowCommand;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::sync::Arc;
use tokio::sync::OnceCell;

/// What the app needs from outside: the runtime, where profiles live, the secret store.
pub struct AppDeps {
    /// The tokio runtime all work runs on.
    pub runtime: tokio::runtime::Handle,
    /// The profiles file; `None` keeps profiles in memory (tests).
    pub profiles_path: Option<PathBuf>,
    /// The secret store, filled lazily off the UI thread (the platform keyring) or given
    /// ready (the mock store in tests).
    pub secrets: Arc<OnceCell<Arc<SecretStore>>>,
    /// Where the built-in sandbox keeps its data (`None`: memory only).
    pub sandbox_data: Option<PathBuf>,
    /// The journal's file (`None`: kept in memory, for tests), used unless the desk's
    /// shared journal is chosen in the Credentials panel.
    pub journal: Option<PathBuf>,
    /// `INVOICE_DESK_JOURNAL` chose `journal`: the Credentials panel cannot change it.
    pub journal_fixed: bool,
    /// Force a language (tests); `None` uses the saved one, or the OS's at first start.
    pub language: Option<crate::i18n::Lang>,
    /// The app's "today" (tests fix it; else the computer's date).
    pub clock: super::Clock,
    /// How links and folders are opened (`None`: the system's browser and file manager).
    pub opener: Option<super::external::Opener>,
    /// Where the statements and invoices the clerk opens are written (`None`: an
    /// `invoice-desk` folder in the user's Documents, see [`super::external::documents`]).
    pub documents: Option<PathBuf>,
}

impl AppDeps {
    /// For tests: an in-memory setup with the given secret store.
    pub fn for_tests(runtime: tokio::runtime::Handle, secrets: SecretStore) -> AppDeps {
        AppDeps {
            runtime,
            profiles_path: None,
            secrets: Arc::new(OnceCell::new_with(Some(Arc::new(secrets)))),
            sandbox_data: None,
            journal: None,
            journal_fixed: false,
            language: Some(crate::i18n::Lang::En),
            clock: super::Clock::default(),
            // A test opens nothing outside itself unless it says what to do instead.
            opener: Some(Arc::new(|_: &super::external::External| {
                Err("tests open nothing outside the app".into())
            })),
            // Not the Documents of whoever runs the tests.
            documents: Some(std::env::temp_dir().join("invoice-desk-tests")),
        }
    }
}

/// The keyboard shortcuts and the translation key of what they do (Help menu).
pub const SHORTCUTS: [(&str, &str); 8] = [
    ("Ctrl/Cmd+N", "sc-new"),
    ("Ctrl/Cmd+F", "sc-search"),
    ("Ctrl/Cmd+L", "sc-lookup"),
    ("Ctrl/Cmd+E", "sc-export"),
    ("Ctrl/Cmd+Enter", "sc-submit"),
    ("Esc", "sc-close"),
    ("Ctrl/Cmd + / -", "sc-zoom"),
    ("Ctrl/Cmd+Q", "sc-quit"),
];

/// What is saved between runs (never a secret).
#[derive(Default, Serialize, Deserialize)]
#[serde(default)]
struct Saved {
    version: u32,
    tab: Tab,
    create: super::create::CreateForm,
    lookup_id: String,
    customers: super::customers::CustomersSaved,
    bulk: super::bulk::BulkSaved,
    theme: ThemeChoice,
    /// The UI language; `None` until the first start picks the OS's.
    lang: Option<crate::i18n::Lang>,
}

/// The invoice-desk application.
pub struct InvoiceDeskApp {
    saved: Saved,
    spawner: Spawner,
    profiles_path: Option<PathBuf>,
    profiles: Profiles,
    profiles_error: Option<crate::profile::ProfileError>,
    connector: Connector,
    secrets_task: Option<Task<()>>,
    session: Option<Arc<Session>>,
    /// What this session learnt of each profile's connection.
    checks: std::collections::HashMap<String, super::session::ProfileCheck>,
    /// The self-check running, or its report on screen (Help → Diagnostics).
    diagnostics: Option<Task<crate::doctor::Report>>,
    diagnostics_report: Option<crate::doctor::Report>,
    diagnostics_open: bool,
    /// A connection test running, and the profile it tests.
    test: Option<(
        String,
        Task<Result<crate::api::ConnectionReport, crate::api::ApiError>>,
    )>,
    connecting: Option<Task<Result<Session, String>>>,
    session_error: Option<String>,
    pending_reconnect: bool,
    pending_sandbox_welcome: bool,
    first_frame_done: bool,
    /// `INVOICE_DESK_TRACE`: frames still to trace after a listing ended (the last
    /// picture of it), and whether one was arriving in the frame before.
    traced_after_listing: u8,
    was_listing: bool,
    journal: super::journal::AppJournal,
    /// This computer's journal (the file, or what `INVOICE_DESK_JOURNAL` says).
    journal_local: Option<PathBuf>,
    /// The widget with the keyboard focus last frame (one newly focused is scrolled to).
    last_focus: Option<egui::Id>,
    /// `INVOICE_DESK_JOURNAL` chose the journal: the setting cannot change it.
    journal_fixed: bool,
    /// Testing (or testing, then switching to) a journal setting.
    journal_setting: Option<(JournalAim, Task<super::shared_journal::Tested>)>,
    /// Counting the journal's unknown outcomes at start.
    journal_counting: Option<Task<()>>,
    /// When the journal's server was last asked again while out of reach.
    journal_probed: Option<std::time::Instant>,
    /// The journal used before a switch to the shared one: its directory may be brought.
    directory_source: Option<super::journal::AppJournal>,
    /// Whether that journal's directory has anything to bring (looked at before offering).
    directory_check: Option<Task<Result<bool, String>>>,
    /// Bringing that directory: how many customers came.
    bringing_directory: Option<Task<Result<usize, String>>>,
    /// How many entries of this computer's own journal the shared one lacks (looked at
    /// whenever the shared journal comes into use).
    push_check: Option<Task<Result<u64, String>>>,
    /// Copying them: how many were copied, how many had been before.
    pushing: Option<Task<Result<crate::journal::Pushed, String>>>,
    /// The built-in sandbox's customers going into the directory.
    seeding_directory: Option<Task<()>>,
    /// Today's UF value beside UF amounts, and its reading (kept, else from the CMF).
    uf: super::widgets::UfShown,
    uf_loading: Option<Task<Result<crate::uf::UfFound, crate::uf::UfError>>>,
    /// The kept value read again (another clerk's import, a CLI's fetch, a
    /// correction), and when it last was.
    uf_rereading: Option<Task<Result<Option<crate::uf::UfFound>, crate::uf::UfError>>>,
    uf_reread_at: Option<std::time::Instant>,
    /// A file of UF values being kept (`None` inside: no file was chosen).
    uf_importing: Option<Task<Option<Result<String, String>>>>,
    /// The CMF key being kept in the keyring.
    uf_key_saving: Option<Task<Result<crate::profile::StoreStatus, String>>>,
    /// The app's one clock: today, for the UF's value (tests fix it).
    clock: crate::ui::Clock,
    /// "Check now": running, or what it found.
    journal_check: Option<Task<Result<super::journal::Checked, String>>>,
    journal_checked: Option<Result<super::journal::Checked, String>>,
    credentials: CredentialsPanel,
    create: CreatePanel,
    lookup: LookupPanel,
    customers: CustomersPanel,
    receivables: super::receivables::ReceivablesPanel,
    /// Contracts and a period's run.
    contracts: super::contracts::ContractsPanel,
    activity: super::activity::ActivityPanel,
    bulk: super::bulk::BulkPanel,
    /// What the customer directory found for the text in a customer field.
    suggestions: super::widgets::Suggestions,
    /// The directory's names of the customer ids shown, and the lookup under way.
    names: super::widgets::Names,
    naming: Option<(Vec<String>, Naming)>,
    suggesting: Option<(String, Suggesting)>,
    importing: Option<Importing>,
    /// The search box in the tab row, the search under way, and the text typed since.
    search: super::search::SearchBox,
    searching: Option<Task<Result<crate::search::Answer, String>>>,
    search_next: Option<String>,
    /// Opens links and folders.
    opener: super::external::Opener,
    /// Where opened documents are written.
    documents: PathBuf,
    /// Something being opened outside the app, and how it went.
    opening: Option<(super::external::External, Task<Result<(), String>>)>,
    /// The window was asked to close while something is on its way: the clerk is asked.
    quit_asking: bool,
    /// The clerk said to close anyway.
    quit_confirmed: bool,
}

/// What a journal setting's test is for.
enum JournalAim {
    /// Only to say whether it works.
    Test,
    /// To switch to it when it works: its address (empty: this computer's file) and
    /// the clerk's name.
    Save { address: String, clerk: String },
}

/// Looking names up in the directory.
type Naming = Task<Result<std::collections::HashMap<String, String>, String>>;

/// Looking customers up in the directory.
type Suggesting = Task<Result<Vec<crate::journal::Customer>, String>>;

/// Importing the customer directory: `None` when the dialog was closed, else how many
/// were imported or each problem in words.
type Importing = Task<Result<Option<Result<usize, Vec<String>>>, String>>;

const STORAGE_KEY: &str = "invoice-desk-state";

/// How often the journal's server is asked again while it does not answer: a server
/// back is seen within this (and the connection's own set-up).
pub(super) const JOURNAL_RETRY: std::time::Duration = std::time::Duration::from_secs(2);

/// How often the day's kept UF value is read again (one small query): a value stored
/// by another clerk or the command line shows within this.
pub(super) const UF_REREAD: std::time::Duration = std::time::Duration::from_secs(5);

impl InvoiceDeskApp {
    /// Builds the app; restores what was saved; starts connecting to the active profile.
    pub fn new(cc: &eframe::CreationContext<'_>, deps: AppDeps) -> Self {
        let saved: Saved = cc
            .storage
            .and_then(|s| eframe::get_value(s, STORAGE_KEY))
            .unwrap_or_default();
        let deps_language = deps.language;
        let (profiles, profiles_error) = match &deps.profiles_path {
            Some(p) => match Profiles::load(p) {
                Ok(ps) => (ps, None),
                Err(e) => (Profiles::default(), Some(e)),
            },
            None => (Profiles::default(), None),
        };
        let mut app = InvoiceDeskApp {
            create: CreatePanel::new(saved.create.clone(), deps.clock),
            lookup: LookupPanel::new(saved.lookup_id.clone(), deps.clock),
            customers: CustomersPanel::new(saved.customers.clone(), deps.clock),
            contracts: Default::default(),
            receivables: super::receivables::ReceivablesPanel::new(
                deps.clock,
                deps.documents
                    .clone()
                    .unwrap_or_else(super::external::documents),
            ),
            activity: Default::default(),
            bulk: super::bulk::BulkPanel::restored(saved.bulk.clone()),
            suggestions: Default::default(),
            names: Default::default(),
            naming: None,
            suggesting: None,
            importing: None,
            search: Default::default(),
            searching: None,
            uf_key_saving: None,
            search_next: None,
            credentials: CredentialsPanel::default(),
            saved,
            spawner: Spawner {
                rt: deps.runtime,
                ctx: cc.egui_ctx.clone(),
            },
            profiles_path: deps.profiles_path,
            profiles,
            profiles_error,
            connector: Connector {
                secrets: deps.secrets,
                #[cfg(feature = "sandbox")]
                sandbox: Arc::new(OnceCell::new()),
                sandbox_data: deps.sandbox_data,
            },
            secrets_task: None,
            session: None,
            checks: Default::default(),
            test: None,
            diagnostics: None,
            diagnostics_report: None,
            diagnostics_open: false,
            connecting: None,
            session_error: None,
            pending_reconnect: false,
            pending_sandbox_welcome: false,
            first_frame_done: false,
            traced_after_listing: 0,
            was_listing: false,
            journal: super::journal::AppJournal::new(None),
            journal_local: deps.journal,
            last_focus: None,
            journal_fixed: deps.journal_fixed,
            journal_setting: None,
            journal_counting: None,
            journal_probed: None,
            directory_source: None,
            directory_check: None,
            push_check: None,
            pushing: None,
            bringing_directory: None,
            seeding_directory: None,
            uf: Default::default(),
            uf_loading: None,
            uf_rereading: None,
            uf_reread_at: None,
            uf_importing: None,
            clock: deps.clock,
            journal_check: None,
            journal_checked: None,
            opener: deps
                .opener
                .clone()
                .unwrap_or_else(super::external::system_opener),
            documents: deps
                .documents
                .clone()
                .unwrap_or_else(super::external::documents),
            opening: None,
            quit_asking: false,
            quit_confirmed: false,
        };
        app.journal = app.chosen_journal();
        if app.profiles.profiles.is_empty() {
            app.saved.tab = Tab::Credentials;
        }
        cc.egui_ctx.set_theme(app.saved.theme.preference());
        super::widgets::install_colors(&cc.egui_ctx);
        let lang = deps_language
            .or(app.saved.lang)
            .unwrap_or_else(crate::i18n::Lang::from_os);
        app.saved.lang = Some(lang);
        crate::i18n::set(lang);
        // The saved filter's dates are read the language's way (there are no rows yet).
        app.customers.read_filter();
        // The keyring may take a moment (or prompt): open it off the UI thread.
        let cell = app.connector.secrets.clone();
        app.secrets_task = Some(app.spawner.spawn(async move {
            get_secrets(&cell).await;
        }));
        if let Some(name) = app.profiles.active.clone() {
            app.connect(&name);
        }
        // The badge's count: outcomes left unknown by an earlier run are not forgotten.
        let journal = app.journal.clone();
        app.journal_counting = Some(app.spawner.spawn(async move { journal.count().await }));
        if app.saved.tab == Tab::Activity {
            app.handle(Command::Window(WindowCommand::ActivityRefresh));
        }
        // A billing run cut short (crash, closed window) is offered again.
        app.bulk.look_for_interrupted(&app.journal, &app.spawner);
        // A restored form whose reference was used opens locked: it is never sent again.
        let reference = app.create.form.external_id.trim().to_string();
        if !reference.is_empty() {
            let journal = app.journal.clone();
            app.create.restoring(app.spawner.spawn(async move {
                journal
                    .latest(crate::journal::Action::Create, reference)
                    .await
            }));
        }
        app
    }

    /// The panel on screen, below the notices that concern every panel.
    fn central(&mut self, ui: &mut egui::Ui, commands: &mut Vec<Command>) {
        if let Some(e) = &self.profiles_error {
            super::widgets::error_text(ui, &crate::i18n::profile_error(e));
        }
        let session = self.session.as_deref();
        let secrets_status = self.connector.secrets.get().map(|s| s.status());
        match self.saved.tab {
            Tab::Credentials => {
                let place = self
                    .journal
                    .place()
                    .map(|p| p.display().to_string())
                    .unwrap_or_else(|| crate::tr!("sj-in-memory"));
                let in_use = super::shared_journal::InUse {
                    place: &place,
                    shared: self.journal.is_shared(),
                    fixed: self.journal_fixed,
                    saved_address: self.profiles.shared_journal.as_deref().unwrap_or(""),
                    saved_clerk: self.profiles.clerk_name.as_deref().unwrap_or(""),
                    in_flight: self.in_flight(),
                };
                let shown = super::credentials::Shown {
                    profiles: &self.profiles,
                    store: secrets_status.as_ref(),
                    session,
                    checks: &self.checks,
                    journal: &in_use,
                    uf: &self.uf,
                };
                self.credentials.ui(ui, &shown, commands)
            }
            Tab::Create => self.create.ui(
                ui,
                session,
                &self.suggestions,
                &self.names,
                &self.uf,
                commands,
            ),
            Tab::Lookup => self.lookup.ui(ui, session, &self.names, &self.uf, commands),
            Tab::Customers => self
                .customers
                .ui(ui, session, &self.suggestions, &self.uf, commands),
            Tab::Activity => self.activity.ui(
                ui,
                self.journal_check.is_some(),
                session.is_some(),
                &super::activity::Words {
                    names: &self.names,
                    profiles: &self.profiles,
                    shared: self.journal.is_shared(),
                },
                commands,
            ),
            Tab::Bulk => self.bulk.ui(ui, session.is_some(), self.uf.day(), commands),
            Tab::Receivables => self
                .receivables
                .ui(ui, session.is_some(), &self.uf, commands),
            Tab::Contracts => {
                let today = self.clock.today();
                self.contracts.ui(ui, session.is_some(), today, commands)
            }
        }
    }

    /// The journal the settings choose: the practice journal while the built-in
    /// sandbox's profile is active; else `INVOICE_DESK_JOURNAL` when it is set, else the
    /// desk's shared journal when one is saved, else this computer's file.
    fn chosen_journal(&self) -> super::journal::AppJournal {
        if self.profiles.active_profile().is_some_and(|p| p.sandbox) {
            // Practice is apart from real money: the sandbox's journal of its own.
            return super::journal::AppJournal::practice(crate::journal::practice_file(
                self.journal_local.as_deref(),
            ));
        }
        let shared = self
            .profiles
            .shared_journal
            .as_deref()
            .map(str::trim)
            .filter(|a| !a.is_empty() && !self.journal_fixed);
        super::journal::AppJournal::with_settings(
            shared
                .map(PathBuf::from)
                .or_else(|| self.journal_local.clone()),
            self.connector.secrets.clone(),
            self.profiles.clerk_name.clone(),
        )
    }

    /// True while a billing run sends, or a create or void waits for its answer.
    pub fn in_flight(&self) -> bool {
        self.bulk.is_running() || self.create.is_sending() || self.lookup.is_sending()
    }

    /// "Close invoice-desk?" while something is on its way.
    fn quit_dialog(&self, ui: &mut egui::Ui, commands: &mut Vec<Command>) {
        if !self.quit_asking {
            return;
        }
        let modal = egui::Modal::new(egui::Id::unique("confirm_quit")).show(ui.ctx(), |ui| {
            ui.set_max_width(460.0);
            let title = ui.heading(crate::tr!("quit-title"));
            super::widgets::announce(ui, &title, true);
            if self.bulk.is_running() {
                ui.label(crate::tr!("quit-bulk"));
            }
            if self.create.is_sending() || self.lookup.is_sending() {
                ui.label(crate::tr!("quit-create"));
            }
            ui.horizontal(|ui| {
                if ui
                    .button(egui::RichText::new(crate::tr!("quit-stay")).strong())
                    .clicked()
                {
                    commands.push(Command::Window(WindowCommand::ConfirmQuit(false)));
                }
                if super::widgets::danger_button(ui, &crate::tr!("quit-anyway")).clicked() {
                    commands.push(Command::Window(WindowCommand::ConfirmQuit(true)));
                }
            });
        });
        if modal.should_close() {
            commands.push(Command::Window(WindowCommand::ConfirmQuit(false)));
        }
    }

    /// Outcomes still to check in the journal (`None`: not counted yet).
    pub fn journal_to_check(&self) -> Option<u64> {
        self.journal.to_check()
    }

    /// The active session, if connected.
    pub fn session(&self) -> Option<&Arc<Session>> {
        self.session.as_ref()
    }

    /// The panel on screen.
    pub fn tab(&self) -> Tab {
        self.saved.tab
    }

    /// The profiles as the app holds them.
    pub fn profiles(&self) -> &Profiles {
        &self.profiles
    }

    /// The customer list's sort column and direction (ascending = true).
    pub fn customer_sort(&self) -> (super::customers::SortKey, bool) {
        self.customers.sort()
    }

    /// True while a profile is being connected.
    pub fn is_connecting(&self) -> bool {
        self.connecting.is_some()
    }

    /// True while the app looks at whether this computer's directory has anything to
    /// bring to the desk's journal (tests wait for it).
    pub fn directory_checking(&self) -> bool {
        self.directory_check.is_some()
    }

    /// True while the app counts, or copies, what this computer's journal has that the
    /// desk's lacks (tests wait for it).
    pub fn pushing(&self) -> bool {
        self.push_check.is_some() || self.pushing.is_some()
    }

    /// The invoice Lookup shows (tests wait for it).
    pub fn looked_up(&self) -> Option<&crate::api::Invoice> {
        self.lookup.invoice()
    }

    /// True while a customer listing is arriving.
    pub fn customers_loading(&self) -> bool {
        self.customers.is_loading()
    }

    /// True while the customer list is re-sorted on a worker.
    pub fn customer_view_pending(&self) -> bool {
        self.customers.view_pending()
    }

    /// The New invoice panel (tests read its form).
    pub fn create(&self) -> &super::create::CreatePanel {
        &self.create
    }

    /// The Bulk issue panel (tests read its plan and counts).
    pub fn bulk(&self) -> &super::bulk::BulkPanel {
        &self.bulk
    }

    /// The Cartera panel (tests read its rows).
    pub fn receivables(&self) -> &super::receivables::ReceivablesPanel {
        &self.receivables
    }

    /// The customer list's rows and view.
    pub fn customer_rows(&self) -> (&super::customers::Rows, &super::customers::View) {
        self.customers.data()
    }
}

impl eframe::App for InvoiceDeskApp {
    fn logic(&mut self, ctx: &egui::Context, _frame: &mut eframe::Frame) {
        // Finished work is taken here, whichever panel is on screen.
        let began = std::time::Instant::now();
        self.drain_finished();
        if self.journal.down_since().is_some() {
            // Nothing else may wake the app while the server is away: its next try.
            ctx.request_repaint_after(JOURNAL_RETRY);
        }
        if self.uf_reread_at.is_some() {
            ctx.request_repaint_after(UF_REREAD);
        }
        if began.elapsed() >= std::time::Duration::from_millis(2) {
            super::trace_line!(
                "finished work taken in {:.1} ms unix_ms={}",
                began.elapsed().as_secs_f64() * 1000.0,
                super::unix_ms()
            );
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        if !self.first_frame_done {
            self.first_frame_done = true;
            // The first pass only guesses sizes (panels, right-to-left menus): lay it out
            // again before anything is painted, so the first picture is the whole window.
            ui.ctx()
                .request_discard("the first frame's sizes are guesses");
            super::trace_line!("first-frame unix_ms={}", super::unix_ms());
        }
        // What the UI thread does while a listing arrives and in the frames that show its
        // end (#51): when each frame began, the one before's CPU, what asked for it.
        let listing = self.customers.is_loading();
        if std::mem::replace(&mut self.was_listing, listing) && !listing {
            self.traced_after_listing = 3;
        }
        let traced = super::trace_enabled() && (listing || self.traced_after_listing > 0) && {
            super::trace_line!(
                "frame while listing unix_ms={} last_frame_cpu_ms={:.1} causes={:?}",
                super::unix_ms(),
                frame.info().cpu_usage.unwrap_or(0.0) * 1000.0,
                ui.ctx().repaint_causes()
            );
            self.traced_after_listing = self.traced_after_listing.saturating_sub(1);
            true
        };
        let began = std::time::Instant::now();
        let mut commands = Vec::new();
        if ui.ctx().input(|i| i.viewport().close_requested())
            && !self.quit_confirmed
            && self.in_flight()
        {
            // Nothing on its way is left behind without the clerk saying so.
            ui.ctx()
                .send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.quit_asking = true;
        }
        self.shortcuts(ui, &mut commands);
        egui::Panel::top("top_bar").show(ui, |ui| {
            ui.add_space(4.0);
            self.top_bar(ui, &mut commands);
            ui.add_space(2.0);
        });
        // Runs cut short are offered at the bottom: a notice that comes or goes never
        // moves what is under the pointer.
        if !self.bulk.interrupted_to_offer().is_empty() {
            egui::Panel::bottom("notices").show(ui, |ui| {
                self.bulk.interrupted_ui(ui, &self.profiles, &mut commands);
            });
        }
        egui::CentralPanel::default_margins().show(ui, |ui| {
            if self.saved.tab == Tab::Credentials {
                // The profiles panel has its own side list and scrolling.
                self.central(ui, &mut commands);
            } else {
                // Every other panel scrolls both ways as a whole: on a small screen or
                // zoomed in, every control and the tables' rows stay reachable.
                let width = ui.available_width();
                egui::ScrollArea::both()
                    .id_salt(("panel", self.saved.tab))
                    .auto_shrink([false, false])
                    .show(ui, |ui| {
                        // Text and rows wrap at the window's width, as without the
                        // scroll area; only what cannot be narrower (a table's columns,
                        // a zoomed form) makes the panel scroll sideways.
                        ui.set_max_width(width);
                        self.central(ui, &mut commands);
                        // A widget the keyboard moved to (Tab) is brought into view, once:
                        // off-screen at 1024x640 zoomed, "Anular…" was focused unseen.
                        let focus = ui.ctx().memory(|m| m.focused());
                        if focus != self.last_focus
                            && let Some(r) = focus.and_then(|id| ui.ctx().read_response(id))
                        {
                            ui.scroll_to_rect(r.rect, None);
                        }
                        self.last_focus = focus;
                    });
            }
        });
        self.diagnostics_window(ui, &mut commands);
        self.quit_dialog(ui, &mut commands);
        for cmd in commands {
            self.handle(cmd);
        }
        if traced {
            super::trace_line!(
                "frame built in {:.1} ms, listing {}",
                began.elapsed().as_secs_f64() * 1000.0,
                if self.customers.is_loading() {
                    "on its way"
                } else {
                    "ended"
                }
            );
        }
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        self.saved.version = 1;
        self.saved.create = self.create.form.clone();
        self.saved.lookup_id = self.lookup.id.clone();
        self.saved.customers = self.customers.saved();
        self.saved.bulk = self.bulk.saved();
        eframe::set_value(storage, STORAGE_KEY, &self.saved);
    }

    fn auto_save_interval(&self) -> std::time::Duration {
        // What the clerk typed survives a crash, not just a clean exit.
        std::time::Duration::from_secs(5)
    }
}
