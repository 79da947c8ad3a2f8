//! The work the panel's commands start: reading and checking the file, sending the
//! run, saving the results.

use super::*;

impl BulkPanel {
    pub(super) fn start_loading(
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
                            why = crate::i18n::sheet_error(&e)
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
                            let aliases: Vec<String> = row.aliases();
                            if let Some(e) =
                                j.holder(crate::journal::Action::Create, &intent, &aliases)?
                                && e.outcome == crate::journal::Outcome::Done
                            {
                                let by = (e.user != j.who()).then(|| e.written_by());
                                known.insert(i, Known { entry: e, by });
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

    pub(super) fn start(&mut self, deps: BulkDeps<'_>) {
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
                Err(e) => {
                    // Nothing can be sent without the journal: no row was.
                    let said = crate::i18n::journal_not_sent(&e);
                    let held = Status::NotSent(Held::Journal(e));
                    if let Ok(mut p) = p.lock() {
                        p.statuses.fill(Some(held.clone()));
                        let mut counts = Counts::default();
                        for s in p.statuses.iter().flatten() {
                            counts.add(s);
                        }
                        p.counts = counts;
                    }
                    return Err(said);
                }
            };
            let mut runner = session.runner(shared, c, allow);
            // The desk's four eyes first: the rows carry out an approval, or nothing
            // is sent and the request is said.
            let file = path.file_name().map(|n| n.to_string_lossy().into_owned());
            crate::ui::approvals::clear_run(&mut runner, &plan.rows, file).await?;
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

    pub(super) fn save(&mut self, excel: bool, spawner: &Spawner, journal: &AppJournal) {
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
                    .map_err(|e| crate::i18n::destination_error(&e))?;
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
    pub(super) fn result_lines(
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
            let (word, why) = crate::i18n::bulk_status(&status);
            let mut line = Line::of(row, &reference, &status, why.unwrap_or_default())
                .about(&l.plan.rows[i].invoice, None);
            if words {
                line.status = word;
                // "UF" where a clerk reads it; the CSV keeps the code for programs.
                if !line.currency.is_empty() {
                    line.currency = crate::i18n::currency_label(&line.currency);
                }
            }
            lines.push(line);
        }
        lines
    }
}
