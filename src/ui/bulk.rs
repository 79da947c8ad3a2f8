//! Bulk issue: a month's invoices from a spreadsheet. The file is read and every row
//! checked off the UI thread; the clerk sees the column mapping (and may change it), the
//! rows with their problems beside the cells, the totals per currency, and confirms
//! exactly what will be issued. Sending is `bulk::run`'s (journal first, never twice);
//! the table shows each row's status as it settles, with pause, resume and stop. The
//! results are saved beside the file, as CSV or Excel. A run cut short (closed window,
//! crash) is offered again at the next start.

pub use super::command::BulkCommand;
use super::journal::AppJournal;
use super::session::Session;
use super::task::{Spawner, Task, take_finished};
use super::widgets;
use crate::api::{Currency, money};
use crate::bulk::run::{AllowSimilar, Control, Counts, Held, Runner, Status};
use crate::bulk::{ColumnUse, Field, Plan};
use crate::journal::BulkRunRecord;
use crate::text::escape_controls as safe;
use crate::tr;
use egui::{RichText, Ui};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

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
    known: HashMap<usize, crate::journal::Entry>,
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
                self.start_loading(path, None, None, &deps);
            }
            BulkCommand::Remap => {
                if self.is_running() {
                    return;
                }
                let Some(l) = &self.loaded else { return };
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
                    let _ = journal.read(move |j| j.finish_run(id)).await;
                });
            }
        }
    }

    fn start_loading(
        &mut self,
        path: PathBuf,
        again: Option<Reread>,
        resumed_mapping: Option<String>,
        deps: &BulkDeps<'_>,
    ) {
        if let Some(old) = self.loading.take() {
            old.cancel();
        }
        self.error = None;
        self.confirm = false;
        self.save_note = None;
        // A resumed run's file is read with the columns as they were mapped then; the
        // run stays the one being resumed while its columns are remapped.
        if again.is_none() {
            self.resuming = None;
        }
        let saved_mapping = resumed_mapping;
        // Reading the same layout again keeps the columns as the clerk mapped them.
        let previous = self
            .loaded
            .as_ref()
            .map(|l| (l.header.clone(), l.mapping.clone()));
        if again.is_none() {
            self.loaded = None;
            self.running = None;
            self.allow_similar.clear();
        }
        // Who the rows would be sent as: the journal says which are issued already.
        let sender = deps.session.as_ref().map(|s| {
            (
                s.profile.name.clone(),
                s.profile.base_url.clone(),
                Some(s.profile.account_key.trim().to_string()).filter(|k| !k.is_empty()),
            )
        });
        let journal = deps.journal.clone();
        let currencies = deps.currencies.clone();
        let account_currency = deps.account_currency;
        self.loading = Some(deps.spawner.spawn(async move {
            let (rows, file_id, mapping) = match again {
                Some(a) => a,
                None => {
                    let p = path.clone();
                    let read =
                        tokio::task::spawn_blocking(move || crate::sheet::read_rows(&p, None))
                            .await
                            .map_err(|e| e.to_string())?;
                    let sheet = read.map_err(|e| {
                        tr!(
                            "bulk-unreadable-why",
                            path = path.display(),
                            why = crate::ui::i18n::sheet_error(&e)
                        )
                    })?;
                    let (rows, file_id) = (sheet.rows, sheet.digest);
                    if rows.len() < 2 {
                        return Err(tr!("bulk-empty-file", path = path.display()));
                    }
                    let header = rows.header();
                    let resumed = saved_mapping
                        .as_deref()
                        .and_then(|m| crate::bulk::mapping_for(m, &header));
                    let mapping = match (resumed, previous) {
                        (Some(m), _) => m,
                        (None, Some((h, mapping))) if h == header => mapping,
                        _ => crate::bulk::detect_all(&header),
                    };
                    (Arc::new(rows), file_id, mapping)
                }
            };
            let (r, id, m) = (rows.clone(), file_id.clone(), mapping.clone());
            let (plan, known) = journal
                .read(move |j| {
                    let resolve = |text: &str| crate::bulk::resolve_customer(j, text);
                    let plan = crate::bulk::plan(
                        &r,
                        &crate::bulk::PlanInput {
                            file_id: &id,
                            currencies: &currencies,
                            reading: account_currency,
                            resolve: &resolve,
                            mapping: Some(&m),
                            ignore_unknown_columns: false,
                        },
                    );
                    let mut known = HashMap::new();
                    if let Some((profile, base_url, account)) = &sender {
                        for (i, row) in plan.rows.iter().enumerate() {
                            let account = row.account_key.as_deref().or(account.as_deref());
                            let intent = crate::journal::Intent::for_create(
                                profile,
                                base_url,
                                account,
                                &row.invoice,
                            );
                            let aliases: Vec<String> =
                                row.legacy_reference.iter().cloned().collect();
                            if let Some(e) =
                                j.holder(crate::journal::Action::Create, &intent, &aliases)?
                                && e.outcome == crate::journal::Outcome::Done
                            {
                                known.insert(i, e);
                            }
                        }
                    }
                    Ok((plan, known))
                })
                .await?;
            Ok(Loaded::new(
                path,
                rows,
                file_id,
                mapping,
                plan,
                account_currency,
                known,
            ))
        }));
    }

    fn start(&mut self, deps: BulkDeps<'_>) {
        self.confirm = false;
        if self.is_running() {
            return;
        }
        let Some(l) = &self.loaded else { return };
        let Some(session) = deps.session else {
            self.error = Some(tr!("connect-first"));
            return;
        };
        if l.plan.rows.is_empty() || (!l.problems.is_empty() && !self.skip_invalid) {
            return;
        }
        self.save_note = None;
        let allow = AllowSimilar::Rows(Arc::new(self.allow_similar.clone()));
        let mapping = Some(crate::bulk::mapping_text(&l.header, &l.mapping));
        let control = Arc::new(Control::default());
        let total = l.plan.rows.len();
        let progress = Arc::new(Mutex::new(Progress {
            statuses: vec![None; total],
            counts: Counts::default(),
        }));
        let journal = deps.journal.clone();
        let plan = l.plan.clone();
        let (path, file_id) = (l.path.clone(), l.file_id.clone());
        let concurrency = usize::from(self.concurrency);
        let (c, p) = (control.clone(), progress.clone());
        let ctx = deps.spawner.ctx.clone();
        let task = deps.spawner.spawn(async move {
            let shared = match journal.shared().await {
                Ok(s) => s,
                Err(why) => {
                    // Nothing can be sent without the journal: no row was.
                    let held = Status::NotSent(Held::Journal(crate::journal::JournalError::Open {
                        path: PathBuf::new(),
                        why,
                    }));
                    if let Ok(mut p) = p.lock() {
                        p.statuses.fill(Some(held.clone()));
                        let mut counts = Counts::default();
                        for s in p.statuses.iter().flatten() {
                            counts.add(s);
                        }
                        p.counts = counts;
                    }
                    return Err(tr!("journal-not-sent"));
                }
            };
            let profile = &session.profile;
            let runner = Runner {
                client: session.client.clone(),
                journal: shared,
                base_url: profile.base_url.trim().to_string(),
                profile: profile.name.clone(),
                profile_account: Some(profile.account_key.trim().to_string())
                    .filter(|k| !k.is_empty()),
                control: c,
                allow_similar: allow,
            };
            runner
                .run_file(
                    &path,
                    &file_id,
                    mapping,
                    plan.rows.clone(),
                    concurrency,
                    |i, status| {
                        if let Ok(mut p) = p.lock() {
                            p.counts.add(&status);
                            p.statuses[i] = Some(status);
                        }
                        // Progress is drawn a few times a second, not once per row.
                        ctx.request_repaint_after(Duration::from_millis(150));
                    },
                )
                .await;
            journal.count().await;
            Ok(())
        });
        self.running = Some(Running {
            control,
            progress,
            total,
            started: Instant::now(),
            ended: None,
            task: Some(task),
        });
    }

    fn save(&mut self, excel: bool, spawner: &Spawner, journal: &AppJournal) {
        if self.saving.is_some() {
            return;
        }
        let (Some(l), Some(r)) = (&self.loaded, &self.running) else {
            return;
        };
        let lines = self.result_lines(l, r, excel);
        let (input, suffix) = (l.path.clone(), tr!("bulk-results-suffix"));
        let header = [
            tr!("bulk-col-row"),
            tr!("bulk-col-reference"),
            tr!("bulk-col-status"),
            tr!("bulk-col-invoice"),
            tr!("bulk-col-problem"),
            tr!("bulk-col-customer"),
            tr!("bulk-col-name"),
            tr!("bulk-col-amount"),
            tr!("bulk-col-currency"),
        ];
        let sheet = tr!("bulk-sheet-name");
        let journal = journal.clone();
        self.save_note = None;
        self.saving = Some(spawner.spawn(async move {
            // The directory's names beside the ids, so the clerk reads who each row bills;
            // a directory that cannot be read leaves the names out, not the file.
            let mut ids: Vec<String> = lines.iter().map(|l| l.customer.clone()).collect();
            ids.sort();
            ids.dedup();
            ids.retain(|id| !id.is_empty());
            let names = journal
                .read(move |j| {
                    let refs: Vec<&str> = ids.iter().map(String::as_str).collect();
                    j.customer_names(&refs)
                })
                .await
                .unwrap_or_default();
            let mut lines = lines;
            for l in &mut lines {
                if let Some(name) = names.get(&l.customer) {
                    l.customer_name = name.clone();
                }
            }
            tokio::task::spawn_blocking(move || {
                // Looking for a free name reads the folder: not on the UI thread.
                let target = crate::export::report::beside(
                    &input,
                    &suffix,
                    if excel { "xlsx" } else { "csv" },
                    chrono::Local::now().naive_local(),
                );
                let shown = target.clone();
                let checked = crate::fsutil::check_destination(&target)
                    .map_err(|e| crate::ui::i18n::destination_error(&e))?;
                let header: [&str; 9] = std::array::from_fn(|i| header[i].as_str());
                let written = if excel {
                    crate::export::report::write_xlsx(&checked, &sheet, header, &lines)
                } else {
                    crate::export::report::write_csv(&checked, &lines)
                };
                written
                    .map(|()| target)
                    .map_err(|_| tr!("bulk-save-failed", path = shown.display()))
            })
            .await
            .map_err(|e| e.to_string())?
        }));
    }

    /// One line per row of the file: CSV in the report's words (for programs), Excel in
    /// the clerk's.
    fn result_lines(
        &self,
        l: &Loaded,
        r: &Running,
        words: bool,
    ) -> Vec<crate::export::report::Line> {
        use crate::export::report::Line;
        let progress = r.progress.lock();
        let statuses = progress.as_ref().map(|p| &p.statuses).ok();
        let mut lines = Vec::with_capacity(l.all_rows.len());
        for &row in &l.all_rows {
            if let Some(why) = l.problems_text(row) {
                let mut line = Line::of(row, "", &Status::SkippedInvalid, why.join("; "));
                if words {
                    line.status = tr!("bulk-st-invalid");
                }
                lines.push(line);
                continue;
            }
            let Some(&i) = l.valid.get(&row) else {
                continue;
            };
            let reference = l.plan.rows[i]
                .invoice
                .invoice_external_id
                .clone()
                .unwrap_or_default();
            let status = statuses
                .and_then(|s| s.get(i).cloned().flatten())
                .unwrap_or(Status::NotSent(Held::Cancelled));
            let (word, why) = crate::ui::i18n::bulk_status(&status);
            let mut line = Line::of(row, &reference, &status, why.unwrap_or_default())
                .about(&l.plan.rows[i].invoice, None);
            if words {
                line.status = word;
            }
            lines.push(line);
        }
        lines
    }

    /// Takes finished work (called by the app every frame).
    pub fn poll(&mut self) {
        if let Some(r) = take_finished(&mut self.choosing)
            && let Ok(Some(path)) = r
        {
            self.path = path.display().to_string();
            self.pending_read = true;
        }
        if let Some(r) = take_finished(&mut self.loading) {
            match r.map_err(|e| e.to_string()).and_then(|r| r) {
                // A changed file is no risk: rows are known by what they issue.
                Ok(l) => self.loaded = Some(l),
                Err(e) => self.error = Some(e),
            }
        }
        if let Some(r) = &mut self.running
            && let Some(result) = take_finished(&mut r.task)
        {
            r.ended = Some(Instant::now());
            if let Err(e) = result.map_err(|e| e.to_string()).and_then(|r| r) {
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
                r.map_err(|e| e.to_string())
                    .and_then(|r| r)
                    .map(|p| tr!("bulk-saved", path = p.display())),
            );
        }
        if let Some(r) = take_finished(&mut self.interrupted_task) {
            self.interrupted = r.ok().and_then(Result::ok).unwrap_or_default();
        }
    }
}

impl Loaded {
    fn new(
        path: PathBuf,
        rows: Arc<crate::sheet::Rows>,
        file_id: String,
        mapping: Vec<ColumnUse>,
        plan: Plan,
        account_currency: Option<Currency>,
        known: HashMap<usize, crate::journal::Entry>,
    ) -> Loaded {
        let mut problems: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for (i, p) in plan.problems.iter().enumerate() {
            if p.row > 1 {
                problems.entry(p.row).or_default().push(i);
            }
        }
        let valid = plan
            .rows
            .iter()
            .enumerate()
            .map(|(i, r)| (r.row, i))
            .collect();
        let all_rows = rows
            .iter()
            .enumerate()
            .skip(1)
            .filter(|(_, cells)| !cells.is_blank())
            .map(|(i, _)| i + 1)
            .collect();
        let header = rows.header();
        let problem_rows = problems.keys().copied().collect();
        Loaded {
            path,
            rows,
            header,
            file_id,
            mapping,
            plan: Arc::new(plan),
            problems,
            valid,
            all_rows,
            problem_rows,
            account_currency,
            known,
        }
    }

    /// How many valid rows are still to issue: not issued already (the journal says), nor
    /// settled by the last run (issued, found issued, invalid), nor a possible duplicate
    /// the clerk did not tick.
    fn to_issue(&self, progress: Option<&Progress>, allowed: &HashSet<usize>) -> usize {
        (0..self.plan.rows.len())
            .filter(|i| !self.known.contains_key(i))
            .filter(
                |&i| match progress.and_then(|p| p.statuses.get(i).cloned().flatten()) {
                    Some(
                        Status::Created(_) | Status::SkippedExisting(_) | Status::SkippedInvalid,
                    ) => false,
                    Some(Status::PossibleDuplicate(_)) => allowed.contains(&self.plan.rows[i].row),
                    _ => true,
                },
            )
            .count()
    }

    /// What a valid row (index `i` in the plan) shows in column `c` when that column is
    /// its amount or its due date: the value read, written as the clerk reads it.
    fn shown_value(&self, i: usize, c: usize) -> Option<String> {
        let inv = &self.plan.rows.get(i)?.invoice;
        match self.mapping.get(c)? {
            ColumnUse::Field(Field::Amount) => {
                let currency = inv.currency.currency().or(self.account_currency);
                Some(money::format_amount(
                    inv.amount,
                    currency.map(Currency::code),
                ))
            }
            ColumnUse::Field(Field::Due) => inv.due_date.as_deref().map(crate::ui::i18n::date),
            _ => None,
        }
    }

    /// The problems of spreadsheet row `row` in the clerk's words (`None`: it has none).
    fn problems_text(&self, row: usize) -> Option<Vec<String>> {
        let ps = self.problems.get(&row)?;
        Some(
            ps.iter()
                .map(|&i| crate::ui::i18n::bulk_problem(&self.plan.problems[i]))
                .collect(),
        )
    }

    /// The totals per currency in words: "$48.213.000 y UF 1.234,5678".
    fn totals_text(&self) -> String {
        let parts: Vec<String> = self
            .plan
            .totals()
            .iter()
            .map(|(code, (_, sum))| {
                if code.is_empty() {
                    match self.account_currency {
                        Some(c) => money::format_amount(*sum, Some(c.code())),
                        None => tr!(
                            "bulk-in-account-currency",
                            amount = money::format_amount(*sum, None)
                        ),
                    }
                } else {
                    money::format_amount(*sum, Some(code))
                }
            })
            .collect();
        match parts.as_slice() {
            [] => String::new(),
            [one] => one.clone(),
            [rest @ .., last] => format!("{} {} {last}", rest.join(", "), tr!("bulk-and")),
        }
    }
}

fn use_word(u: ColumnUse) -> String {
    match u {
        ColumnUse::Field(f) => crate::ui::i18n::bulk_field(f),
        ColumnUse::Ignore => tr!("bulk-use-none"),
        ColumnUse::Unrecognised => "—".to_string(),
    }
}

fn duration_words(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 120 {
        format!("{} min", s.div_ceil(60))
    } else {
        format!("{} s", s.max(1))
    }
}

impl BulkPanel {
    /// The notice of runs left unfinished (drawn above every panel).
    pub fn interrupted_ui(
        &self,
        ui: &mut Ui,
        profiles: &crate::profile::Profiles,
        commands: &mut Vec<super::command::Command>,
    ) {
        use super::command::Command;
        for run in self.interrupted_to_offer() {
            egui::Frame::group(ui.style()).show(ui, |ui| {
                let file = run.path.file_name().map_or_else(
                    || run.path.display().to_string(),
                    |n| n.to_string_lossy().into_owned(),
                );
                let when = chrono::DateTime::parse_from_rfc3339(&run.started)
                    .map(|t| {
                        let local = t.with_timezone(&chrono::Local);
                        format!(
                            "{} {}",
                            crate::ui::i18n::date(&local.format("%Y-%m-%d").to_string()),
                            local.format("%H:%M")
                        )
                    })
                    .unwrap_or_default();
                ui.horizontal_wrapped(|ui| {
                    widgets::chip(
                        ui,
                        &tr!(
                            "bulk-resume-offer",
                            file = safe(&file),
                            profile = if run.profile == crate::journal::ENVIRONMENT_PROFILE {
                                tr!("bulk-profile-environment")
                            } else {
                                safe(&run.profile).into_owned()
                            },
                            when = when
                        ),
                        widgets::CHIP_COLORS[2],
                    );
                    if ui.button(tr!("bulk-resume-open")).clicked() {
                        // Resumed with the profile (so the service) it was sent with.
                        if profiles.active.as_deref() != Some(run.profile.as_str())
                            && profiles.get(&run.profile).is_some()
                        {
                            commands.push(Command::Activate(run.profile.clone()));
                        }
                        commands.push(Command::Show(super::command::Tab::Bulk));
                        commands.push(Command::Bulk(BulkCommand::OpenInterrupted(run.id)));
                    }
                    if ui.button(tr!("bulk-resume-dismiss")).clicked() {
                        commands.push(Command::Bulk(BulkCommand::AskForget(run.id)));
                    }
                });
                ui.label(tr!("bulk-resume-hint"));
            });
        }
        let Some(id) = self.forget_asking else { return };
        let Some(run) = self.interrupted.iter().find(|r| r.id == id) else {
            return;
        };
        let file = run.path.file_name().map_or_else(
            || run.path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        let modal = egui::Modal::new(egui::Id::unique("forget_run")).show(ui.ctx(), |ui| {
            ui.set_max_width(460.0);
            let title = ui.heading(tr!("bulk-forget-title"));
            widgets::announce(ui, &title, true);
            ui.label(tr!("bulk-forget-body", file = safe(&file)));
            ui.horizontal(|ui| {
                if ui
                    .button(RichText::new(tr!("bulk-forget-keep")).strong())
                    .clicked()
                {
                    commands.push(Command::Bulk(BulkCommand::KeepInterrupted));
                }
                if widgets::danger_button(ui, &tr!("bulk-forget-yes")).clicked() {
                    commands.push(Command::Bulk(BulkCommand::Forget(id)));
                }
            });
        });
        if modal.should_close() {
            commands.push(Command::Bulk(BulkCommand::KeepInterrupted));
        }
    }

    /// Draws the panel.
    pub fn ui(
        &mut self,
        ui: &mut Ui,
        connected: bool,
        commands: &mut Vec<super::command::Command>,
    ) {
        use super::command::Command;
        let cmd = |c: BulkCommand| Command::Bulk(c);
        ui.heading(tr!("bulk-title"));
        ui.add_space(4.0);
        let running = self.is_running();
        ui.horizontal(|ui| {
            let l = ui.label(tr!("bulk-file"));
            let r = ui
                .add_enabled(
                    !running,
                    egui::TextEdit::singleline(&mut self.path)
                        .hint_text(tr!("bulk-file-hint"))
                        .desired_width((ui.available_width() - 260.0).clamp(200.0, 640.0)),
                )
                .labelled_by(l.id);
            let enter = r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            if ui
                .add_enabled(
                    !running && self.choosing.is_none(),
                    egui::Button::new(tr!("bulk-choose")),
                )
                .clicked()
            {
                commands.push(cmd(BulkCommand::Choose));
            }
            let can_read = !running && !self.path.trim().is_empty();
            if (ui
                .add_enabled(can_read, egui::Button::new(tr!("bulk-read")))
                .clicked()
                || enter)
                && can_read
            {
                commands.push(cmd(BulkCommand::Read));
            }
        });
        if self.loading.is_some() {
            ui.horizontal(|ui| {
                widgets::busy(ui);
                ui.label(tr!("bulk-reading"));
            });
        }
        if let Some(e) = &self.error {
            widgets::error_text(ui, e);
        }
        let Some(l) = &self.loaded else { return };
        // The mapping: each column of the file and the field it fills in.
        let mut mapping = l.mapping.clone();
        ui.add_space(4.0);
        egui::CollapsingHeader::new(tr!("bulk-columns"))
            .default_open(true)
            .show(ui, |ui| {
                // One small block per column (its header, its use), wrapping onto the
                // next line when the window is narrow: every combo is whole and in
                // sight, never cut to "Ve…" nor hidden past the right edge.
                ui.horizontal_wrapped(|ui| {
                    ui.spacing_mut().item_spacing.x = 10.0;
                    // A block of known size, so that the wrapping layout can put it on
                    // the next line (a plain vertical group never wraps).
                    let block = egui::vec2(200.0, 2.0 * ui.spacing().interact_size.y + 4.0);
                    for (c, h) in l.header.iter().enumerate() {
                        ui.allocate_ui_with_layout(
                            block,
                            egui::Layout::top_down(egui::Align::Min),
                            |ui| {
                                ui.set_width(200.0);
                                let label = ui.strong(safe(h)).id;
                                let current = mapping[c];
                                ui.add_enabled_ui(!running, |ui| {
                                    egui::ComboBox::from_id_salt(("bulk_map", c))
                                        .width(200.0)
                                        .selected_text(use_word(current))
                                        .show_ui(ui, |ui| {
                                            for f in Field::ALL {
                                                ui.selectable_value(
                                                    &mut mapping[c],
                                                    ColumnUse::Field(f),
                                                    use_word(ColumnUse::Field(f)),
                                                );
                                            }
                                            ui.selectable_value(
                                                &mut mapping[c],
                                                ColumnUse::Ignore,
                                                use_word(ColumnUse::Ignore),
                                            );
                                        })
                                        .response
                                        .labelled_by(label);
                                });
                                if current == ColumnUse::Unrecognised {
                                    ui.label(
                                        RichText::new(tr!("bulk-col-unrecognised"))
                                            .small()
                                            .color(widgets::error_color(ui)),
                                    );
                                }
                            },
                        );
                    }
                });
            });
        if mapping != l.mapping {
            if let Some(l) = &mut self.loaded {
                l.mapping = mapping;
            }
            commands.push(cmd(BulkCommand::Remap));
            return;
        }
        for p in l.plan.problems.iter().filter(|p| p.row == 1) {
            widgets::error_text(ui, &crate::ui::i18n::bulk_why(&p.why));
        }
        // What would be issued.
        ui.add_space(4.0);
        let n = l.plan.rows.len();
        if n > 0 {
            ui.label(
                RichText::new(tr!(
                    "bulk-summary",
                    count = n,
                    customers = l.plan.customers(),
                    totals = l.totals_text()
                ))
                .strong(),
            );
        } else if !l.plan.header_refused() {
            widgets::error_text(ui, &tr!("bulk-nothing-valid"));
        }
        if !l.known.is_empty() {
            ui.label(tr!("bulk-already-known", count = l.known.len()));
        }
        let with_problems = l.problem_rows.len();
        if with_problems > 0 {
            ui.horizontal_wrapped(|ui| {
                ui.label(
                    RichText::new(tr!("bulk-problem-rows", count = with_problems))
                        .color(widgets::error_color(ui)),
                );
                ui.checkbox(&mut self.only_problems, tr!("bulk-only-problems"));
                ui.add_enabled(
                    !running,
                    egui::Checkbox::new(&mut self.skip_invalid, tr!("bulk-skip-invalid")),
                );
            });
            if !self.skip_invalid && self.running.is_none() {
                ui.label(tr!("bulk-fix-first"));
            }
        }
        // Only the rows still to issue are counted (and confirmed).
        let progress = self.running.as_ref().map(|r| r.progress.clone());
        let to_issue = {
            let p = progress.as_ref().and_then(|p| p.lock().ok());
            l.to_issue(p.as_deref(), &self.allow_similar)
        };
        let can_send = to_issue > 0 && (with_problems == 0 || self.skip_invalid);
        if let Some(r) = &self.running {
            self.progress_ui(ui, r, commands);
        }
        let ended = self.running.as_ref().is_none_or(|r| r.task.is_none());
        if to_issue > 0 && ended {
            ui.horizontal(|ui| {
                let l2 = ui.label(tr!("bulk-concurrency"));
                ui.add(egui::DragValue::new(&mut self.concurrency).range(1..=16))
                    .labelled_by(l2.id);
                if ui
                    .add_enabled(
                        can_send && connected,
                        egui::Button::new(
                            RichText::new(tr!("bulk-issue", count = to_issue)).strong(),
                        ),
                    )
                    .clicked()
                {
                    self.confirm = true;
                }
                if !connected {
                    ui.label(tr!("connect-first"));
                }
            });
        }
        ui.separator();
        self.table(ui);
        if self.confirm {
            self.confirm_ui(ui, to_issue, commands);
        }
    }

    fn progress_ui(&self, ui: &mut Ui, r: &Running, commands: &mut Vec<super::command::Command>) {
        use super::command::Command;
        let counts = r.progress.lock().map(|p| p.counts).unwrap_or_default();
        let done = counts.done();
        let elapsed = r.ended.unwrap_or_else(Instant::now) - r.started;
        let text = match crate::bulk::run::pace(done, r.total, elapsed) {
            Some((rate, left)) if r.ended.is_none() => tr!(
                "bulk-progress",
                done = done,
                total = r.total,
                rate = format!("{rate:.0}"),
                left = duration_words(left)
            ),
            _ => tr!("bulk-progress-start", done = done, total = r.total),
        };
        ui.add(
            egui::ProgressBar::new(done as f32 / r.total.max(1) as f32)
                .text(text)
                .desired_width(ui.available_width().min(720.0)),
        );
        if r.task.is_some() {
            ui.horizontal(|ui| {
                let cancelled = r.control.is_cancelled();
                if r.control.is_paused() {
                    if ui
                        .add_enabled(!cancelled, egui::Button::new(tr!("bulk-resume")))
                        .clicked()
                    {
                        commands.push(Command::Bulk(BulkCommand::Resume));
                    }
                } else if ui
                    .add_enabled(!cancelled, egui::Button::new(tr!("bulk-pause")))
                    .clicked()
                {
                    commands.push(Command::Bulk(BulkCommand::Pause));
                }
                if widgets::danger_button(ui, &tr!("bulk-cancel")).clicked() && !cancelled {
                    commands.push(Command::Bulk(BulkCommand::Cancel));
                }
                if cancelled {
                    ui.label(tr!("bulk-cancelling"));
                } else if r.control.is_paused() {
                    ui.label(tr!("bulk-paused"));
                }
            });
            if let Some(until) = r.control.waiting_until() {
                // The service's 429: said as it happens, and when sending resumes.
                ui.label(
                    RichText::new(tr!(
                        "bulk-rate-waiting",
                        time = crate::ui::i18n::clock(until)
                    ))
                    .color(ui.visuals().warn_fg_color),
                );
                ui.ctx().request_repaint_after(Duration::from_secs(1));
            }
            return;
        }
        ui.label(
            RichText::new(tr!(
                "bulk-finished",
                created = counts.created,
                existing = counts.existing,
                refused = counts.refused,
                unknown = counts.unknown,
                similar = counts.similar,
                notsent = counts.not_sent
            ))
            .strong(),
        );
        if counts.found_at_service > 0 {
            ui.label(tr!("bulk-finished-found", count = counts.found_at_service));
        }
        if let Some(until) = counts.waiting_until {
            ui.label(tr!(
                "bulk-finished-waiting",
                count = counts.waiting,
                time = crate::ui::i18n::clock(until)
            ));
        }
        if counts.similar > 0 {
            ui.label(
                RichText::new(tr!("bulk-finished-similar", count = counts.similar))
                    .color(ui.visuals().warn_fg_color),
            );
        }
        if counts.unknown + counts.not_sent > 0 {
            ui.label(tr!("bulk-finished-again"));
        }
        ui.horizontal(|ui| {
            let saving = self.saving.is_some();
            if ui
                .add_enabled(!saving, egui::Button::new(tr!("bulk-save-xlsx")))
                .clicked()
            {
                commands.push(Command::Bulk(BulkCommand::Save(true)));
            }
            if ui
                .add_enabled(!saving, egui::Button::new(tr!("bulk-save-csv")))
                .clicked()
            {
                commands.push(Command::Bulk(BulkCommand::Save(false)));
            }
            if saving {
                widgets::busy(ui);
            }
        });
        match &self.save_note {
            Some(Ok(t)) => {
                ui.label(t.as_str());
            }
            Some(Err(e)) => widgets::error_text(ui, e),
            None => {}
        }
    }

    fn confirm_ui(
        &mut self,
        ui: &mut Ui,
        to_issue: usize,
        commands: &mut Vec<super::command::Command>,
    ) {
        let Some(l) = &self.loaded else { return };
        let text = tr!(
            "bulk-confirm",
            count = to_issue,
            totals = l.totals_text(),
            customers = l.plan.customers()
        );
        let skipped = l.problem_rows.len();
        let modal = egui::Modal::new(egui::Id::unique("confirm_bulk")).show(ui.ctx(), |ui| {
            ui.set_max_width(480.0);
            let title = ui.heading(tr!("bulk-confirm-title"));
            widgets::announce(ui, &title, true);
            ui.label(RichText::new(text).strong());
            if skipped > 0 {
                ui.label(tr!("bulk-confirm-skipped", count = skipped));
            }
            ui.label(tr!("bulk-confirm-note"));
            ui.horizontal(|ui| {
                if ui
                    .button(RichText::new(tr!("bulk-confirm-yes")).strong())
                    .clicked()
                {
                    commands.push(super::command::Command::Bulk(BulkCommand::Start));
                    self.confirm = false;
                }
                if ui.button(tr!("cancel")).clicked() {
                    self.confirm = false;
                }
            });
        });
        if modal.should_close() {
            self.confirm = false;
        }
    }

    fn table(&mut self, ui: &mut Ui) {
        use egui_extras::{Column, TableBuilder};
        let Some(l) = &self.loaded else { return };
        let allow = &mut self.allow_similar;
        let run_ended = self.running.as_ref().is_none_or(|r| r.task.is_none());
        let shown = if self.only_problems {
            &l.problem_rows
        } else {
            &l.all_rows
        };
        let progress = self.running.as_ref().map(|r| r.progress.clone());
        let progress = progress.as_ref().and_then(|p| p.lock().ok());
        let width = l.header.len();
        let row_height = ui.text_style_height(&egui::TextStyle::Body) + 6.0;
        let red = widgets::error_color(ui);
        egui::ScrollArea::horizontal()
            .id_salt("bulk_table_scroll")
            .show(ui, |ui| {
                // The status column keeps room for a problem in words; the file's
                // columns share the rest (resizable; the table scrolls sideways).
                let each = ((ui.available_width() - 48.0 - 400.0) / width.max(1) as f32)
                    .clamp(70.0, 160.0);
                let min_height = widgets::table_min_height(ui, row_height);
                let mut t = TableBuilder::new(ui)
                    .id_salt("bulk_table")
                    .striped(true)
                    .min_scrolled_height(min_height)
                    .max_scroll_height(f32::INFINITY)
                    .cell_layout(egui::Layout::left_to_right(egui::Align::Center))
                    .column(Column::exact(48.0));
                for _ in 0..width {
                    t = t.column(
                        Column::initial(each)
                            .at_least(50.0)
                            .clip(true)
                            .resizable(true),
                    );
                }
                t.column(Column::remainder().at_least(320.0).clip(true))
                    .header(row_height + 4.0, |mut h| {
                        h.col(|ui| {
                            ui.strong(tr!("bulk-col-row"));
                        });
                        for c in &l.header {
                            h.col(|ui| {
                                ui.strong(safe(c));
                            });
                        }
                        h.col(|ui| {
                            ui.strong(tr!("bulk-col-status"));
                        });
                    })
                    .body(|body| {
                        body.rows(row_height, shown.len(), |mut row| {
                            let number = shown[row.index()];
                            let cells = l.rows.get(number - 1);
                            let problems = l.problems.get(&number);
                            row.col(|ui| {
                                ui.label(number.to_string());
                            });
                            for c in 0..width {
                                let bad = problems.is_some_and(|ps| {
                                    ps.iter().any(|&i| l.plan.problems[i].col == Some(c))
                                });
                                let raw = cells.and_then(|r| r.get(c)).unwrap_or("");
                                // A valid row's amount and due date as the clerk reads
                                // them (`$1.341.000`, `UF 33,0956`, `31-12-2026`); the
                                // file's text otherwise.
                                let text = l
                                    .valid
                                    .get(&number)
                                    .and_then(|&i| l.shown_value(i, c))
                                    .unwrap_or_else(|| safe(raw).into_owned());
                                row.col(|ui| {
                                    if bad {
                                        ui.label(RichText::new(text).color(red).underline());
                                    } else {
                                        ui.label(text);
                                    }
                                });
                            }
                            row.col(|ui| {
                                if let Some(why) = l.problems_text(number) {
                                    let text = if progress.is_some() {
                                        tr!(
                                            "bulk-st-with-why",
                                            status = tr!("bulk-st-invalid"),
                                            why = why.join("; ")
                                        )
                                    } else {
                                        why.join("; ")
                                    };
                                    ui.label(RichText::new(text).color(red))
                                        .on_hover_text(why.join("\n"));
                                    return;
                                }
                                let Some(&i) = l.valid.get(&number) else {
                                    return;
                                };
                                let status = progress
                                    .as_ref()
                                    .map(|p| p.statuses.get(i).cloned().flatten());
                                let known = l.known.get(&i);
                                match (status, known) {
                                    (None | Some(None), Some(e)) => {
                                        ui.label(tr!(
                                            "bulk-st-with-id",
                                            status = tr!("bulk-st-existing"),
                                            id = safe(e.invoice_id.as_deref().unwrap_or("?"))
                                        ));
                                    }
                                    (None, None) => {
                                        ui.label(tr!("bulk-st-ready"));
                                    }
                                    (Some(None), None) => {
                                        ui.weak(tr!("bulk-st-waiting"));
                                    }
                                    (Some(Some(s @ Status::PossibleDuplicate(_))), _)
                                        if run_ended =>
                                    {
                                        // The clerk decides, row by row, with the earlier
                                        // invoice in view.
                                        let mut tick = allow.contains(&number);
                                        if ui
                                            .checkbox(&mut tick, tr!("bulk-allow-similar"))
                                            .changed()
                                        {
                                            if tick {
                                                allow.insert(number);
                                            } else {
                                                allow.remove(&number);
                                            }
                                        }
                                        status_cell(ui, &s, red);
                                    }
                                    (Some(Some(s)), _) => status_cell(ui, &s, red),
                                }
                            });
                        });
                    });
            });
    }
}

fn status_cell(ui: &mut Ui, s: &Status, red: egui::Color32) {
    let (word, why) = crate::ui::i18n::bulk_status(s);
    let text = match (s.invoice_id(), &why) {
        (Some(id), _) => tr!("bulk-st-with-id", status = word, id = safe(id)),
        (None, Some(w)) => tr!("bulk-st-with-why", status = word, why = w),
        (None, None) => word,
    };
    let rich = RichText::new(text);
    let r = match s {
        Status::Refused(_) => ui.label(rich.color(red)),
        Status::Unknown(_) => ui.label(rich.color(ui.visuals().warn_fg_color).strong()),
        Status::NotSent(_) | Status::SkippedInvalid => ui.weak(rich.text().to_string()),
        Status::PossibleDuplicate(_) => ui.label(rich.color(ui.visuals().warn_fg_color).strong()),
        _ => ui.label(rich),
    };
    if let Some(w) = why {
        r.on_hover_text(w);
    }
}
