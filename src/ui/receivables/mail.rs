//! Cartera's e-mail run: the month's statements (or reminders) to the customers shown,
//! each once, with a sample first; its bar and dialog.

use super::*;

impl ReceivablesPanel {
    /// E-mails the customers shown who owe something their statement (or reminder) of
    /// the month, each once.
    pub fn email(
        &mut self,
        session: Arc<crate::ui::session::Session>,
        spawner: &Spawner,
        journal: crate::ui::journal::AppJournal,
        secrets: Arc<tokio::sync::OnceCell<Arc<crate::profile::SecretStore>>>,
        templates: Option<std::path::PathBuf>,
        uf: Option<&crate::uf::UfDay>,
    ) {
        self.mail_confirm = false;
        if self.mailing.is_some() || self.review.is_some() {
            return;
        }
        let ids: Vec<String> = self.owing_shown().into_iter().map(|c| c.id).collect();
        if ids.is_empty() {
            return;
        }
        self.mail_note = None;
        let run = crate::ui::mailing::MonthRun {
            session,
            as_of: self.clock.fixed_day(),
            reminders: self.mail_reminders,
            journal,
            secrets,
            templates,
            // "Con los pesos de la UF" applies to the e-mailed statements too.
            uf: uf.filter(|_| self.uf_in_pesos).cloned(),
        };
        let done = Arc::new(AtomicUsize::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let total = ids.len();
        let task = spawner.spawn(crate::ui::mailing::month(
            run,
            ids,
            done.clone(),
            stop.clone(),
            spawner.ctx.clone(),
        ));
        self.mailing = Some(Mailing {
            task,
            done,
            total,
            stop,
        });
    }

    /// Makes the e-mail the first customer of the month's run would get, to show it in
    /// the confirmation (nothing is sent).
    pub fn email_sample(
        &mut self,
        session: Arc<crate::ui::session::Session>,
        spawner: &Spawner,
        journal: crate::ui::journal::AppJournal,
        templates: Option<std::path::PathBuf>,
        uf: Option<&crate::uf::UfDay>,
    ) {
        if self.mail_sample.is_some() {
            return;
        }
        let ids: Vec<String> = self.owing_shown().into_iter().map(|c| c.id).collect();
        self.mail_sample_shown = None;
        self.mail_sample = Some(spawner.spawn(crate::ui::mailing::month_sample(
            session,
            ids,
            self.clock.fixed_day(),
            self.mail_reminders,
            journal,
            templates,
            uf.filter(|_| self.uf_in_pesos).cloned(),
        )));
    }

    /// Stops the e-mails before the next customer.
    pub fn stop_email(&mut self) {
        if let Some(m) = &self.mailing {
            m.stop.store(true, Ordering::Relaxed);
        }
    }

    /// "Enviar por correo a estos (N)…": the month's statements (or reminders) e-mailed
    /// to the customers shown who owe something, after a confirmation.
    pub(super) fn email_bar(
        &mut self,
        ui: &mut Ui,
        connected: bool,
        owing: usize,
        commands: &mut Vec<Command>,
    ) {
        ui.horizontal(|ui| {
            let can = connected
                && owing > 0
                && self.mailing.is_none()
                && self.making.is_none()
                && self.review.is_none();
            if ui
                .add_enabled(can, egui::Button::new(tr!("rv-mail", count = owing)))
                .on_hover_text(tr!("rv-mail-hint"))
                .clicked()
            {
                self.mail_confirm = true;
            }
            if let Some(m) = &self.mailing {
                widgets::busy(ui);
                ui.label(tr!(
                    "rv-mailing",
                    done = m.done.load(Ordering::Relaxed),
                    total = m.total
                ));
                if ui.button(tr!("rv-stop")).clicked() {
                    commands.push(Command::Receivables(ReceivablesCommand::StopEmail));
                }
            }
        });
        if let Some((words, problem)) = &self.mail_note {
            if *problem {
                widgets::error_text(ui, words);
            } else {
                let r = ui.label(words);
                widgets::announce(ui, &r, false);
            }
        }
        if !self.mail_confirm {
            return;
        }
        let month = self.clock.today().format("%m-%Y").to_string();
        let mut close = false;
        let modal = egui::Modal::new(egui::Id::unique("mail_month")).show(ui.ctx(), |ui| {
            ui.set_max_width(480.0);
            let title = ui.heading(if self.mail_reminders {
                tr!("rv-mail-title-reminders")
            } else {
                tr!("rv-mail-title")
            });
            widgets::announce(ui, &title, true);
            if ui
                .checkbox(&mut self.mail_reminders, tr!("rv-mail-reminders"))
                .changed()
            {
                // The sample shown was of the other kind.
                self.mail_sample_shown = None;
            }
            ui.label(if self.mail_reminders {
                tr!(
                    "rv-mail-what-reminders",
                    count = owing,
                    month = month.clone()
                )
            } else {
                tr!("rv-mail-what", count = owing, month = month.clone())
            });
            ui.label(tr!("rv-mail-once"));
            // The first customer's e-mail, to read before it goes to everyone.
            match (&self.mail_sample, &self.mail_sample_shown) {
                (Some(_), _) => {
                    ui.horizontal(|ui| {
                        widgets::busy(ui);
                        ui.label(tr!("rv-mail-sample-making"));
                    });
                }
                (None, Some(Ok(p))) => {
                    ui.separator();
                    ui.label(egui::RichText::new(tr!("rv-mail-sample-title")).strong());
                    crate::ui::mailing::contents(ui, p);
                    ui.separator();
                }
                (None, Some(Err(e))) => {
                    let r = ui.label(egui::RichText::new(e).color(ui.visuals().error_fg_color));
                    widgets::announce(ui, &r, false);
                }
                (None, None) => {
                    if ui.button(tr!("rv-mail-sample")).clicked() {
                        commands.push(Command::Receivables(ReceivablesCommand::EmailSample));
                    }
                }
            }
            ui.horizontal(|ui| {
                if ui.button(tr!("lk-mail-send")).clicked() {
                    commands.push(Command::Receivables(ReceivablesCommand::EmailShown));
                }
                if ui.button(tr!("cancel")).clicked() {
                    close = true;
                }
            });
        });
        if close || modal.should_close() {
            self.mail_confirm = false;
            self.mail_sample_shown = None;
        }
    }
}
