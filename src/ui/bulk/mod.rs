//! Bulk issue: a month's invoices from a spreadsheet. The file is read and every row
//! checked off the UI thread; the clerk sees the column mapping (and may change it), the
//! rows with their problems beside the cells, the totals per currency, and confirms
//! exactly what will be issued. Sending is `bulk::run`'s (journal first, never twice);
//! the table shows each row's status as it settles, with pause, resume and stop. The
//! results are saved beside the file, as CSV or Excel. A run cut short (closed window,
//! crash) is offered again at the next start.

use super::journal::AppJournal;
use super::session::Session;
use super::widgets;
use crate::api::{Currency, money};
use crate::bulk::run::{AllowSimilar, Control, Counts, Held, Status};
use crate::bulk::{ColumnUse, Field, Plan};
use crate::journal::BulkRunRecord;
use crate::text::escape_controls as safe;
use crate::tr;
pub use crate::ui::command::BulkCommand;
use crate::ui::task::{Spawner, Task, take_finished};
use egui::{RichText, Ui};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

mod loaded;
mod table;
mod view;
mod work;

/// A file read and checked.
pub struct Loaded {
    path: PathBuf,
    rows: Arc<crate::sheet::Rows>,
    /// The header row's cells.
    header: Vec<String>,
    file_id: String,
    mapping: Vec<ColumnUse>,
    plan: Arc<Plan>,
    /// Spreadsheet row → its problems (indices in `plan.problems`).
    problems: BTreeMap<usize, Vec<usize>>,
    /// Spreadsheet row → its index in `plan.rows`.
    valid: HashMap<usize, usize>,
    /// The rows shown (not blank), and those with problems.
    all_rows: Vec<usize>,
    problem_rows: Vec<usize>,
    /// The account's currency the amounts were read in.
    account_currency: Option<Currency>,
    /// Rows (indices in `plan.rows`) the journal already has as issued, by the entry that
    /// issued them: shown "Already issued" and not counted as to issue.
    known: HashMap<usize, Known>,
}

/// A row the journal has as issued: its entry, and who issued it when that was not this
/// journal's own writer (a colleague on the shared journal).
struct Known {
    entry: crate::journal::Entry,
    by: Option<crate::journal::WrittenBy>,
}

/// Live progress, written by the run, read by the panel.
#[derive(Default)]
struct Progress {
    statuses: Vec<Option<Status>>,
    counts: Counts,
}

struct Running {
    control: Arc<Control>,
    progress: Arc<Mutex<Progress>>,
    total: usize,
    started: Instant,
    ended: Option<Instant>,
    /// `Err`: why nothing was sent.
    task: Option<Task<Result<(), String>>>,
}

type Loading = Task<Result<Loaded, String>>;

/// A file checked again with another mapping: its rows, digest and the mapping.
type Reread = (Arc<crate::sheet::Rows>, String, Vec<ColumnUse>);

/// The Bulk issue panel.
pub struct BulkPanel {
    /// The file's path as typed (or chosen).
    pub path: String,
    /// Show only the rows with problems.
    pub only_problems: bool,
    /// Send the valid rows even if others have problems.
    pub skip_invalid: bool,
    /// Requests at a time.
    pub concurrency: u8,
    loading: Option<Loading>,
    choosing: Option<Task<Option<PathBuf>>>,
    loaded: Option<Loaded>,
    error: Option<String>,
    confirm: bool,
    running: Option<Running>,
    saving: Option<Task<Result<PathBuf, String>>>,
    save_note: Option<Result<String, String>>,
    /// Runs left unfinished by an earlier start (offered once).
    interrupted: Vec<BulkRunRecord>,
    interrupted_task: Option<Task<Result<Vec<BulkRunRecord>, String>>>,
    /// The run being resumed, to compare the file's digest.
    resuming: Option<BulkRunRecord>,
    /// A file was chosen in the dialog: read it next.
    pending_read: bool,
    /// Rows (spreadsheet numbers) that look like an earlier invoice and that the clerk
    /// ticked to issue anyway.
    allow_similar: HashSet<usize>,
    /// The interrupted run the clerk asked to forget: asked first.
    forget_asking: Option<i64>,
    /// The columns as the clerk mapped them before the app last closed: applied to the
    /// next reading of a file with that header.
    restored_mapping: Option<String>,
    /// The file dialog came back with no file (cancelled, or none could be shown).
    chose_nothing: bool,
}

/// What the Bulk issue panel keeps between runs of the app: the file typed and the
/// columns as mapped (as the journal keeps a run's), never its rows.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct BulkSaved {
    /// The file's path as typed.
    pub path: String,
    /// The mapping of the file last read (`bulk::mapping_text`).
    pub mapping: Option<String>,
}

impl Default for BulkPanel {
    fn default() -> Self {
        BulkPanel {
            path: String::new(),
            only_problems: false,
            skip_invalid: false,
            concurrency: 4,
            loading: None,
            choosing: None,
            loaded: None,
            error: None,
            confirm: false,
            running: None,
            saving: None,
            save_note: None,
            interrupted: Vec::new(),
            interrupted_task: None,
            resuming: None,
            pending_read: false,
            allow_similar: HashSet::new(),
            forget_asking: None,
            restored_mapping: None,
            chose_nothing: false,
        }
    }
}

impl BulkPanel {
    /// The panel as the clerk left it (the file is read again only when asked).
    pub fn restored(saved: BulkSaved) -> BulkPanel {
        BulkPanel {
            path: saved.path,
            restored_mapping: saved.mapping,
            ..BulkPanel::default()
        }
    }

    /// What is kept between runs of the app.
    pub fn saved(&self) -> BulkSaved {
        BulkSaved {
            path: self.path.clone(),
            mapping: self
                .loaded
                .as_ref()
                .map(|l| crate::bulk::mapping_text(&l.header, &l.mapping))
                .or_else(|| self.restored_mapping.clone()),
        }
    }
}

/// What a command needs from the app.
pub struct BulkDeps<'a> {
    /// Starts background work.
    pub spawner: &'a Spawner,
    /// The journal.
    pub journal: &'a AppJournal,
    /// The connection, to send.
    pub session: Option<Arc<Session>>,
    /// The active profile's currencies and account currency, to check.
    pub currencies: Vec<Currency>,
    /// The account's currency.
    pub account_currency: Option<Currency>,
}

impl BulkPanel {
    /// Looks for runs an earlier start left unfinished (called once at start).
    pub fn look_for_interrupted(&mut self, journal: &AppJournal, spawner: &Spawner) {
        let journal = journal.clone();
        self.interrupted_task =
            Some(spawner.spawn(async move { journal.read(|j| j.interrupted_runs()).await }));
    }

    /// Runs left unfinished, for the notice on every panel.
    pub fn interrupted(&self) -> &[BulkRunRecord] {
        if self.is_running() {
            return &[];
        }
        &self.interrupted
    }

    /// The runs the notice offers now (not the one being resumed), at most three.
    pub fn interrupted_to_offer(&self) -> Vec<&BulkRunRecord> {
        let resuming = self.resuming.as_ref().map(|r| r.id);
        self.interrupted()
            .iter()
            .filter(|r| Some(r.id) != resuming)
            .take(3)
            .collect()
    }

    /// A file was chosen in the dialog and should be read now.
    pub fn take_pending_read(&mut self) -> bool {
        std::mem::take(&mut self.pending_read)
    }

    /// True while rows are being sent.
    pub fn is_running(&self) -> bool {
        self.running.as_ref().is_some_and(|r| r.task.is_some())
    }

    /// Rows of the run between the gate and their outcome (see `Control::working`).
    pub fn working(&self) -> usize {
        self.running.as_ref().map_or(0, |r| r.control.working())
    }

    /// True while the run is paused.
    pub fn is_paused(&self) -> bool {
        self.running.as_ref().is_some_and(|r| r.control.is_paused())
    }

    /// The file as read and checked.
    pub fn loaded_plan(&self) -> Option<&Plan> {
        self.loaded.as_ref().map(|l| l.plan.as_ref())
    }

    /// Counts of the run (running or ended).
    pub fn counts(&self) -> Option<Counts> {
        let r = self.running.as_ref()?;
        r.progress.lock().ok().map(|p| p.counts)
    }

    /// The profile changed: what was checked was checked for the other profile.
    pub fn profile_changed(&mut self) {
        if !self.is_running() {
            self.loaded = None;
            self.running = None;
            self.confirm = false;
            self.save_note = None;
        }
    }

    /// Carries out a command (the app's `handle` calls this).
    pub fn handle(&mut self, cmd: BulkCommand, deps: BulkDeps<'_>) {
        match cmd {
            BulkCommand::Choose => {
                if self.choosing.is_some() || self.is_running() {
                    return;
                }
                self.choosing = Some(deps.spawner.spawn(async move {
                    rfd::AsyncFileDialog::new()
                        .set_title(tr!("bulk-dialog-title"))
                        .add_filter(tr!("bulk-filter"), &["csv", "xlsx"])
                        .pick_file()
                        .await
                        .map(|f| f.path().to_path_buf())
                }));
            }
            BulkCommand::Read => {
                let path = PathBuf::from(self.path.trim());
                if self.path.trim().is_empty() || self.is_running() {
                    return;
                }
                // The columns as mapped before the app closed, once (a file with another
                // header is detected afresh).
                let restored = self.restored_mapping.take();
                self.start_loading(path, None, restored, &deps);
            }
            BulkCommand::Remap(mapping) => {
                if self.is_running() {
                    return;
                }
                let Some(l) = &mut self.loaded else { return };
                if mapping.len() != l.mapping.len() {
                    return;
                }
                l.mapping = mapping;
                let (path, again) = (
                    l.path.clone(),
                    Some((l.rows.clone(), l.file_id.clone(), l.mapping.clone())),
                );
                self.start_loading(path, again, None, &deps);
            }
            BulkCommand::Start => self.start(deps),
            BulkCommand::Pause => {
                if let Some(r) = &self.running {
                    r.control.pause();
                }
            }
            BulkCommand::Resume => {
                if let Some(r) = &self.running {
                    r.control.resume();
                }
            }
            BulkCommand::Cancel => {
                if let Some(r) = &self.running {
                    r.control.cancel();
                    // A paused run must wake up to stop.
                    r.control.resume();
                }
            }
            BulkCommand::Save(excel) => self.save(excel, deps.spawner, deps.journal),
            BulkCommand::OpenInterrupted(id) => {
                let Some(run) = self.interrupted.iter().find(|r| r.id == id).cloned() else {
                    return;
                };
                if self.is_running() {
                    return;
                }
                self.path = run.path.display().to_string();
                self.skip_invalid = true;
                self.start_loading(run.path.clone(), None, run.mapping.clone(), &deps);
                self.resuming = Some(run);
            }
            BulkCommand::AskForget(id) => self.forget_asking = Some(id),
            BulkCommand::KeepInterrupted => self.forget_asking = None,
            BulkCommand::Forget(id) => {
                self.forget_asking = None;
                self.interrupted.retain(|r| r.id != id);
                let journal = deps.journal.clone();
                deps.spawner.spawn(async move {
                    let _ = journal.write(move |j| j.finish_run(id)).await;
                });
            }
        }
    }
}

impl crate::ui::Panel for BulkPanel {
    /// Takes finished work (called by the app every frame).
    fn poll(&mut self) {
        if let Some(r) = take_finished(&mut self.choosing) {
            match r {
                Ok(Some(path)) => {
                    self.path = path.display().to_string();
                    self.pending_read = true;
                    self.chose_nothing = false;
                }
                // Never silent: the dialog may not have opened at all.
                _ => self.chose_nothing = true,
            }
        }
        if let Some(r) = take_finished(&mut self.loading) {
            match crate::ui::task::flat(r) {
                // A changed file is no risk: rows are known by what they issue.
                Ok(l) => self.loaded = Some(l),
                Err(e) => self.error = Some(e),
            }
        }
        if let Some(r) = &mut self.running
            && let Some(result) = take_finished(&mut r.task)
        {
            r.ended = Some(Instant::now());
            if let Err(e) = crate::ui::task::flat(result) {
                self.error = Some(e);
            }
            if let Some(run) = self.resuming.take() {
                self.interrupted.retain(|i| i.id != run.id);
            }
            // Any run of the same file replaced an unfinished one of it (the journal
            // says so too): its notice goes.
            if let Some(l) = &self.loaded {
                let file = dunce::canonicalize(&l.path).unwrap_or_else(|_| l.path.clone());
                self.interrupted.retain(|i| i.path != file);
            }
        }
        if let Some(r) = take_finished(&mut self.saving) {
            self.save_note = Some(
                r.map_err(|e| e.words())
                    .and_then(|r| r)
                    .map(|p| tr!("bulk-saved", path = p.display())),
            );
        }
        if let Some(r) = take_finished(&mut self.interrupted_task) {
            self.interrupted = r.ok().and_then(Result::ok).unwrap_or_default();
        }
    }
}
