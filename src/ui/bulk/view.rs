//! The panel on screen: the interrupted-run notices, the file and its columns, the
//! progress of a run, the confirmation.

use super::loaded::{duration_words, use_word};
use super::*;
use crate::ui::command::{ProfilesCommand, WindowCommand};

impl BulkPanel {
    /// The notice of runs left unfinished (drawn above every panel).
    pub fn interrupted_ui(
        &self,
        ui: &mut Ui,
        profiles: &crate::profile::Profiles,
        commands: &mut Vec<crate::ui::command::Command>,
    ) {
        use crate::ui::command::Command;
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
                            crate::i18n::date(&local.format("%Y-%m-%d").to_string()),
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
                            commands.push(Command::Profiles(ProfilesCommand::Activate(
                                run.profile.clone(),
                            )));
                        }
                        commands.push(Command::Window(WindowCommand::Show(
                            crate::ui::command::Tab::Bulk,
                        )));
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

    /// The file's row: its path (typed or chosen), Choose…, Read.
    fn file_row(
        &mut self,
        ui: &mut Ui,
        running: bool,
        commands: &mut Vec<crate::ui::command::Command>,
    ) {
        let cmd = crate::ui::command::Command::Bulk;
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
            if r.changed() {
                self.chose_nothing = false;
            }
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
    }

    /// Draws the panel.
    pub fn ui(
        &mut self,
        ui: &mut Ui,
        connected: bool,
        uf: Option<&crate::uf::UfDay>,
        commands: &mut Vec<crate::ui::command::Command>,
    ) {
        use crate::ui::command::Command;
        let cmd = |c: BulkCommand| Command::Bulk(c);
        ui.heading(tr!("bulk-title"));
        ui.add_space(4.0);
        let running = self.is_running();
        self.file_row(ui, running, commands);
        if self.chose_nothing {
            ui.label(tr!("bulk-chose-nothing"));
        }
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
        mapping_ui(ui, &l.header, &mut mapping, running);
        if mapping != l.mapping {
            commands.push(cmd(BulkCommand::Remap(mapping)));
            return;
        }
        for p in l.plan.problems.iter().filter(|p| p.row == 1) {
            widgets::error_text(ui, &crate::i18n::bulk_why(&p.why));
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
                    totals = l.totals_text(0..n, uf)
                ))
                .strong(),
            );
        } else if !l.plan.header_refused() {
            widgets::error_text(ui, &tr!("bulk-nothing-valid"));
        }
        if !l.known.is_empty() {
            let others = l.known.values().filter(|k| k.by.is_some()).count();
            if others > 0 {
                ui.label(format!(
                    "{} {}",
                    tr!("bulk-already-known", count = l.known.len()),
                    tr!("bulk-already-known-others", count = others)
                ));
            } else {
                ui.label(tr!("bulk-already-known", count = l.known.len()));
            }
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
            // One line either way: ticking the box moves nothing below it.
            if self.running.is_none() {
                ui.label(if self.skip_invalid {
                    tr!("bulk-skipping")
                } else {
                    tr!("bulk-fix-first")
                });
            }
        }
        // Only the rows still to issue are counted (and confirmed).
        let progress = self.running.as_ref().map(|r| r.progress.clone());
        let issuing = {
            let p = progress.as_ref().and_then(|p| p.lock().ok());
            l.to_issue(p.as_deref(), &self.allow_similar)
        };
        let to_issue = issuing.len();
        let can_send = to_issue > 0 && (with_problems == 0 || self.skip_invalid);
        if let Some(r) = &self.running {
            self.progress_ui(ui, r, commands);
        }
        let ended = self.running.as_ref().is_none_or(|r| r.task.is_none());
        if to_issue > 0 && ended {
            ui.horizontal(|ui| {
                let l2 = ui.label(tr!("bulk-concurrency"));
                ui.add(
                    egui::DragValue::new(&mut self.concurrency)
                        .range(1..=crate::bulk::run::MAX_CONCURRENCY as u8),
                )
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
            self.confirm_ui(ui, &issuing, uf, commands);
        }
    }

    pub(super) fn progress_ui(
        &self,
        ui: &mut Ui,
        r: &Running,
        commands: &mut Vec<crate::ui::command::Command>,
    ) {
        use crate::ui::command::Command;
        let counts = r.progress.lock().map(|p| p.counts).unwrap_or_default();
        let done = counts.done();
        // The pace counts from when rows could be sent (the service's listings read).
        let since = r.control.sending_since().unwrap_or(r.started);
        let elapsed = r
            .ended
            .unwrap_or_else(Instant::now)
            .saturating_duration_since(since);
        let checking = r.control.checking().filter(|_| r.ended.is_none());
        // Waits that send nothing say what they wait for, and for how long; no time
        // left for the run beside them (it cannot be known).
        let in_flight = r.control.in_flight_wait().filter(|_| r.ended.is_none());
        let text = match crate::bulk::run::pace(done, r.total, elapsed) {
            _ if let Some((read, of)) = checking => tr!("bulk-checking", read = read, of = of),
            Some((rate, left)) if r.ended.is_none() && in_flight.is_none() => tr!(
                "bulk-progress",
                done = done,
                total = r.total,
                rate = format!("{rate:.0}"),
                left = duration_words(left)
            ),
            _ => tr!("bulk-progress-start", done = done, total = r.total),
        };
        // The whole run's progress: rows colleagues issue count as done here too.
        let text = if counts.by_others > 0 {
            format!(
                "{text} · {}",
                tr!("bulk-progress-others", count = counts.by_others)
            )
        } else {
            text
        };
        ui.add(
            egui::ProgressBar::new(done as f32 / r.total.max(1) as f32)
                .text(text)
                .desired_width(ui.available_width().min(720.0)),
        );
        if let Some(w) = &in_flight {
            ui.label(crate::i18n::in_flight_wait(w, Instant::now()));
        }
        if r.ended.is_none() && (checking.is_some() || in_flight.is_some()) {
            ui.ctx().request_repaint_after(Duration::from_millis(250));
        }
        if r.task.is_some() {
            run_controls(ui, r, commands);
            return;
        }
        ui.label(RichText::new(crate::i18n::run_finished(&counts)).strong());
        if counts.found_at_service > 0 {
            ui.label(tr!("bulk-finished-found", count = counts.found_at_service));
        }
        if let Some(until) = counts.waiting_until {
            ui.label(tr!(
                "bulk-finished-waiting",
                count = counts.waiting,
                time = crate::i18n::clock(until)
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

    pub(super) fn confirm_ui(
        &mut self,
        ui: &mut Ui,
        issuing: &[usize],
        uf: Option<&crate::uf::UfDay>,
        commands: &mut Vec<crate::ui::command::Command>,
    ) {
        let Some(l) = &self.loaded else { return };
        // What this run issues: after a resume, fewer rows than the file has.
        let text = tr!(
            "bulk-confirm",
            count = issuing.len(),
            totals = l.totals_text(issuing.iter().copied(), uf),
            customers = l.plan.customers_of(issuing.iter().copied())
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
                    commands.push(crate::ui::command::Command::Bulk(BulkCommand::Start));
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
}

/// The mapping: each column of the file (`header`) and the field it fills in, chosen
/// in `mapping` (fixed while a run goes).
fn mapping_ui(ui: &mut Ui, header: &[String], mapping: &mut [ColumnUse], running: bool) {
    egui::CollapsingHeader::new(tr!("bulk-columns"))
        .default_open(true)
        .show(ui, |ui| {
            // One small block per column (its header, its use), wrapping onto the
            // next line when the window is narrow: every combo is whole and in
            // sight, never cut to "Ve…" nor hidden past the right edge. Top-aligned:
            // a block taller for its "not recognised" note moves no other (#68).
            let wrapped = egui::Layout::left_to_right(egui::Align::Min).with_main_wrap(true);
            ui.with_layout(wrapped, |ui| {
                ui.spacing_mut().item_spacing.x = 10.0;
                // A block of known size, so that the wrapping layout can put it on
                // the next line (a plain vertical group never wraps).
                let block = egui::vec2(200.0, 2.0 * ui.spacing().interact_size.y + 4.0);
                for (c, h) in header.iter().enumerate() {
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
                                            widgets::choice(
                                                ui,
                                                &mut mapping[c],
                                                ColumnUse::Field(f),
                                                use_word(ColumnUse::Field(f)),
                                            );
                                        }
                                        widgets::choice(
                                            ui,
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
}

/// While a run goes: Pause or Resume, Stop, and what it waits for (the desk's server,
/// slow answers, the service's rate).
fn run_controls(ui: &mut Ui, r: &Running, commands: &mut Vec<crate::ui::command::Command>) {
    use crate::ui::command::Command;
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
    if let Some(since) = r.control.journal_down_since() {
        // The desk's server gone: the rows wait, nothing is sent, until it answers.
        ui.label(
            RichText::new(tr!("journal-down-since", time = crate::i18n::clock(since)))
                .color(ui.visuals().warn_fg_color),
        );
    }
    if let Some(now) = r.control.slowed() {
        // Slow answers: the run sends fewer at once, and says so.
        ui.label(RichText::new(tr!("bulk-slowed", now = now)).color(ui.visuals().warn_fg_color));
    }
    if let Some(until) = r.control.waiting_until() {
        // The service's 429: said as it happens, and when sending resumes.
        ui.label(
            RichText::new(tr!("bulk-rate-waiting", time = crate::i18n::clock(until)))
                .color(ui.visuals().warn_fg_color),
        );
        ui.ctx().request_repaint_after(Duration::from_secs(1));
    }
}
