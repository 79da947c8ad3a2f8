//! Cartera's statements: the month's PDFs for the customers shown, made in the
//! background, and their bar.

use super::*;

impl ReceivablesPanel {
    /// Makes the statements of the customers shown who owe something, into the folder
    /// typed (made if missing): one PDF each, never over a file, and a summary; the run
    /// is journaled as the CLI's is.
    pub fn statements(
        &mut self,
        session: Arc<crate::ui::session::Session>,
        spawner: &Spawner,
        journal: crate::ui::journal::AppJournal,
        uf: Option<&crate::uf::UfDay>,
    ) {
        let uf = uf.filter(|_| self.uf_in_pesos).cloned();
        if self.making.is_some() || self.review.is_some() {
            return;
        }
        let customers = self.owing_shown();
        let folder = std::path::PathBuf::from(self.folder.trim());
        if customers.is_empty() || self.folder.trim().is_empty() {
            return;
        }
        self.made_note = None;
        let as_of = self.clock.today();
        let lang = crate::i18n::current();
        let done = Arc::new(AtomicUsize::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let total = customers.len();
        let (counted, halt) = (done.clone(), stop.clone());
        let ctx = spawner.ctx.clone();
        self.made_in = Some(folder.clone());
        let task = spawner.spawn(async move {
            let dir = folder.clone();
            tokio::task::spawn_blocking(move || std::fs::create_dir_all(&dir))
                .await
                .map_err(|e| e.to_string())?
                .map_err(|e| {
                    tr!(
                        "rv-folder-failed",
                        path = folder.display(),
                        why = crate::i18n::io_words(&e)
                    )
                })?;
            let intent = crate::journal::Intent {
                customer: None,
                ..crate::journal::Intent::for_export(
                    &session.profile.name,
                    &session.profile.base_url,
                    "",
                    Some(format!("{} ({total})", folder.display())),
                )
            };
            let seq = journal
                .write(move |j| j.record_intent(crate::journal::Action::Export, &intent))
                .await?;
            let batch = crate::pdf::batch::Batch {
                client: &session.client,
                sender: &session.profile.sender,
                as_of,
                all: false,
                lang,
                out: &folder,
                // As the exports' default: Excel in Spanish for a Spanish clerk.
                dialect: match lang {
                    crate::i18n::Lang::Es => crate::export::Dialect::ExcelEs,
                    crate::i18n::Lang::En => crate::export::Dialect::Standard,
                },
                uf,
            };
            let made = crate::pdf::batch::run(&batch, customers, &halt, |n| {
                counted.store(n, Ordering::Relaxed);
                ctx.request_repaint();
            })
            .await;
            let summary = crate::pdf::batch::write_summary(&batch, &made);
            let pdfs = made.iter().filter(|d| d.file.is_some()).count();
            let failed = made.iter().filter(|d| d.failed.is_some()).count();
            let settled = crate::journal::Settled {
                rows: Some(pdfs as u64),
                ..crate::journal::Settled::done(None)
            };
            let _ = journal
                .write(move |j| j.record_outcome(seq, &settled))
                .await;
            let summary = summary.map_err(|e| {
                tr!(
                    "rv-folder-failed",
                    path = folder.display(),
                    why = crate::i18n::io_words(&e)
                )
            })?;
            Ok((pdfs, made.len() - pdfs - failed, failed, summary))
        });
        self.making = Some(Making {
            task,
            done,
            total,
            stop,
        });
    }

    /// Stops the statements run before its next customer.
    pub fn stop_statements(&mut self) {
        if let Some(m) = &self.making {
            m.stop.store(true, Ordering::Relaxed);
        }
    }

    /// "Estados de cuenta" for the customers shown who owe something, into a folder.
    pub(super) fn statements_bar(
        &mut self,
        ui: &mut Ui,
        connected: bool,
        owing: usize,
        any_shown: bool,
        commands: &mut Vec<Command>,
    ) {
        // A default once; an emptied field stays empty (the clerk is typing another).
        if !std::mem::replace(&mut self.folder_offered, true) && self.folder.is_empty() {
            let day = self.clock.today();
            // Where every document the app writes goes (#68), not the home folder.
            self.folder = self
                .documents
                .clone()
                .join(format!("{}-{}", tr!("st-file-stem"), day.format("%Y-%m")))
                .display()
                .to_string();
        }
        ui.horizontal(|ui| {
            let l = ui.label(tr!("rv-folder"));
            ui.add(
                egui::TextEdit::singleline(&mut self.folder)
                    .desired_width(widgets::field_width(ui)),
            )
            .labelled_by(l.id);
        });
        // The buttons on a line of their own, wrapped: beside the folder they ran off a
        // narrow window ("Estados de cuenta de estos (10)" cut at 1024 px).
        ui.horizontal_wrapped(|ui| {
            let can = connected
                && owing > 0
                && self.making.is_none()
                && self.review.is_none()
                && !self.folder.trim().is_empty();
            if ui
                .add_enabled(can, egui::Button::new(tr!("rv-statements", count = owing)))
                .on_hover_text(tr!("rv-statements-hint"))
                .clicked()
            {
                commands.push(Command::Receivables(ReceivablesCommand::StatementsForShown));
            }
            ui.checkbox(&mut self.uf_in_pesos, tr!("st-uf-pesos-choice"))
                .on_hover_text(tr!("st-uf-pesos-hint"));
            let can_book = any_shown
                && self.book.is_none()
                && self.review.is_none()
                && !self.folder.trim().is_empty();
            if ui
                .add_enabled(can_book, egui::Button::new(tr!("rv-book")))
                .on_hover_text(tr!("rv-book-hint"))
                .clicked()
            {
                commands.push(Command::Receivables(
                    ReceivablesCommand::ReceivablesWorkbook,
                ));
            }
            if let Some(m) = &self.making {
                widgets::busy(ui);
                ui.label(tr!(
                    "rv-making",
                    done = m.done.load(Ordering::Relaxed),
                    total = m.total
                ));
                if ui.button(tr!("rv-stop")).clicked() {
                    commands.push(Command::Receivables(ReceivablesCommand::StopStatements));
                }
            }
        });
        match &self.book_note {
            Some(Ok(path)) => {
                ui.horizontal_wrapped(|ui| {
                    let r = ui.label(tr!("rv-book-written", path = path.display()));
                    widgets::announce(ui, &r, false);
                    if ui.button(tr!("cu-open-folder")).clicked()
                        && let Some(dir) = path.parent()
                    {
                        commands.push(Command::Window(WindowCommand::OpenExternal(
                            crate::ui::external::External::Folder(dir.to_path_buf()),
                        )));
                    }
                });
            }
            Some(Err(m)) => widgets::error_text(ui, m),
            None => {}
        }
        match &self.made_note {
            Some(Ok(m)) => {
                ui.horizontal_wrapped(|ui| {
                    let r = ui.label(m);
                    widgets::announce(ui, &r, false);
                    if let Some(dir) = &self.made_in
                        && ui.button(tr!("cu-open-folder")).clicked()
                    {
                        commands.push(Command::Window(WindowCommand::OpenExternal(
                            crate::ui::external::External::Folder(dir.clone()),
                        )));
                    }
                });
            }
            Some(Err(m)) => widgets::error_text(ui, m),
            None => {}
        }
    }
}
