//! The top bar (profile switch, token state, Help and View menus, the tab row) and the
//! keyboard shortcuts. Both only read state and push commands.

use super::{Command, InvoiceDeskApp, SHORTCUTS, Tab, ThemeChoice};
use crate::api::TokenState;
use crate::i18n::Lang;
use crate::tr;
use crate::ui::command::{
    CustomersCommand, IssueCommand, ProfilesCommand, SearchCommand, WindowCommand,
};
use crate::ui::session::ProfileCheck;

impl InvoiceDeskApp {
    /// Keyboard shortcuts, read before the panels draw.
    pub(super) fn shortcuts(&self, ui: &mut egui::Ui, commands: &mut Vec<Command>) {
        use egui::{Key, Modifiers};
        let pressed =
            |ui: &mut egui::Ui, key: Key| ui.input_mut(|i| i.consume_key(Modifiers::COMMAND, key));
        // Ctrl/Cmd+Q quits cleanly (state saved), on every platform; it asks first when
        // something is on its way.
        if pressed(ui, Key::Q) {
            commands.push(Command::Window(WindowCommand::Quit));
        }
        if pressed(ui, Key::N) {
            commands.push(Command::Window(WindowCommand::Focus(Tab::Create)));
        }
        if pressed(ui, Key::F) {
            commands.push(Command::Search(SearchCommand::FocusSearch));
        }
        if pressed(ui, Key::L) {
            commands.push(Command::Window(WindowCommand::Focus(Tab::Lookup)));
        }
        if pressed(ui, Key::E) {
            commands.push(Command::Customers(CustomersCommand::ExportShortcut));
        }
        if pressed(ui, Key::Enter) {
            commands.push(Command::Window(WindowCommand::SubmitCurrent));
        }
    }

    pub(super) fn top_bar(&mut self, ui: &mut egui::Ui, commands: &mut Vec<Command>) {
        // Wraps on a small screen or zoomed in: nothing is drawn over anything else.
        ui.horizontal_wrapped(|ui| {
            ui.heading("invoice-desk");
            ui.separator();
            let label = ui.label(tr!("top-profile"));
            let active = self
                .profiles
                .active
                .clone()
                .unwrap_or_else(|| tr!("top-no-profile"));
            egui::ComboBox::from_id_salt("profile_switch")
                .selected_text(&active)
                .show_ui(ui, |ui| {
                    for p in &self.profiles.profiles {
                        if crate::ui::widgets::choice_label(
                            ui,
                            self.profiles.active.as_deref() == Some(&p.name),
                            &p.name,
                        )
                        .clicked()
                        {
                            commands
                                .push(Command::Profiles(ProfilesCommand::Activate(p.name.clone())));
                        }
                    }
                })
                .response
                .labelled_by(label.id);
            self.token_badge(ui);
            self.journal_badge(ui, commands);
            // The menus on the right when they fit there, else on a line of their own.
            // (Before wrap: in a wrapping row `available_width` is the whole row's.)
            if ui.available_size_before_wrap().x < 160.0 {
                ui.end_row();
            }
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                ui.menu_button(tr!("menu-help"), |ui| {
                    ui.label(egui::RichText::new(tr!("menu-shortcuts")).strong());
                    egui::Grid::new("shortcuts").num_columns(2).show(ui, |ui| {
                        for (keys, what) in SHORTCUTS {
                            ui.label(egui::RichText::new(keys).monospace());
                            ui.label(crate::i18n::text(what));
                            ui.end_row();
                        }
                    });
                    ui.label(tr!("menu-tab-hint"));
                    ui.separator();
                    if ui.button(tr!("menu-diagnostics")).clicked() {
                        commands.push(Command::Window(WindowCommand::Diagnostics));
                        ui.close();
                    }
                });
                ui.menu_button(tr!("menu-view"), |ui| {
                    ui.label(egui::RichText::new(tr!("menu-theme")).strong());
                    let mut theme = self.saved.theme;
                    ui.radio_value(&mut theme, ThemeChoice::System, tr!("theme-system"));
                    ui.radio_value(&mut theme, ThemeChoice::Light, tr!("theme-light"));
                    ui.radio_value(&mut theme, ThemeChoice::Dark, tr!("theme-dark"));
                    if theme != self.saved.theme {
                        commands.push(Command::Window(WindowCommand::SetTheme(theme)));
                    }
                    ui.separator();
                    ui.label(egui::RichText::new(tr!("menu-language")).strong());
                    let mut lang = self.saved.lang;
                    ui.radio_value(&mut lang, Some(Lang::Es), "Español (Chile)");
                    ui.radio_value(&mut lang, Some(Lang::En), "English");
                    if lang != self.saved.lang
                        && let Some(l) = lang
                    {
                        commands.push(Command::Window(WindowCommand::SetLanguage(l)));
                    }
                });
            });
        });
        ui.horizontal_wrapped(|ui| {
            let mut last_right = ui.min_rect().left();
            for (tab, name) in [
                (Tab::Credentials, tr!("tab-credentials")),
                (Tab::Create, tr!("tab-create")),
                (Tab::Lookup, tr!("tab-lookup")),
                (Tab::Customers, tr!("tab-customers")),
                (Tab::Receivables, tr!("tab-receivables")),
                (Tab::Activity, tr!("tab-activity")),
                (Tab::Bulk, tr!("tab-bulk")),
                (Tab::Contracts, tr!("tab-contracts")),
            ] {
                let t = ui.selectable_label(self.saved.tab == tab, name);
                if t.clicked() {
                    commands.push(Command::Window(WindowCommand::Show(tab)));
                }
                last_right = t.rect.right();
            }
            // The search box at the row's end when it fits there whole, else on a line
            // of its own (squeezed beside the tabs it covered one when zoomed).
            let room = ui.max_rect().right() - last_right - ui.spacing().item_spacing.x;
            if room < crate::ui::search::MIN_WIDTH {
                ui.end_row();
            }
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                self.search.show(ui, self.clock.today(), commands)
            });
        });
    }

    /// Help → Diagnostics: the self-check's report, with Copy for support.
    pub(super) fn diagnostics_window(&self, ui: &mut egui::Ui, commands: &mut Vec<Command>) {
        if !self.diagnostics_open {
            return;
        }
        // Esc closes it, as every dialog.
        if ui.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::Escape)) {
            commands.push(Command::Window(WindowCommand::CloseDiagnostics));
            return;
        }
        let mut open = true;
        egui::Window::new(tr!("diag-title"))
            .open(&mut open)
            .collapsible(false)
            .default_width(560.0)
            .show(ui.ctx(), |ui| match &self.diagnostics_report {
                None => {
                    ui.horizontal(|ui| {
                        crate::ui::widgets::busy(ui);
                        ui.label(tr!("diag-running"));
                    });
                }
                Some(report) => {
                    egui::Grid::new("diagnostics")
                        .num_columns(3)
                        .show(ui, |ui| {
                            for c in &report.checks {
                                let mark = if c.ok {
                                    tr!("doc-ok")
                                } else {
                                    tr!("doc-problem")
                                };
                                let mark = egui::RichText::new(mark).strong();
                                ui.label(if c.ok {
                                    mark
                                } else {
                                    mark.color(crate::ui::widgets::error_color(ui))
                                });
                                ui.label(egui::RichText::new(&c.what).strong());
                                ui.vertical(|ui| {
                                    ui.add(egui::Label::new(&c.found).wrap());
                                    // The system's own words, for support: folded away.
                                    if let Some(d) = &c.detail {
                                        ui.collapsing(tr!("details"), |ui| {
                                            ui.label(egui::RichText::new(d).monospace());
                                        });
                                    }
                                });
                                ui.end_row();
                            }
                        });
                    ui.separator();
                    ui.horizontal(|ui| {
                        if ui.button(tr!("diag-copy")).clicked() {
                            ui.ctx().copy_text(report.text());
                        }
                        if ui.button(tr!("diag-close")).clicked() {
                            commands.push(Command::Window(WindowCommand::CloseDiagnostics));
                        }
                    });
                }
            });
        if !open {
            commands.push(Command::Window(WindowCommand::CloseDiagnostics));
        }
    }

    /// Outcomes still unknown in the journal, on every panel, with "Check now".
    fn journal_badge(&self, ui: &mut egui::Ui, commands: &mut Vec<Command>) {
        if let Some(since) = self.journal.down_since() {
            ui.separator();
            crate::ui::widgets::chip(
                ui,
                &tr!("journal-down-since", time = crate::i18n::clock(since)),
                crate::ui::widgets::CHIP_COLORS[2],
            )
            .on_hover_text(tr!("journal-down-hint"));
        }
        let n = self.journal.to_check().unwrap_or(0);
        if n > 0 {
            ui.separator();
            crate::ui::widgets::chip(
                ui,
                &tr!("journal-to-check", count = n),
                crate::ui::widgets::CHIP_COLORS[2],
            )
            .on_hover_text(if self.journal.is_shared() {
                tr!("journal-to-check-hint-shared")
            } else {
                tr!("journal-to-check-hint")
            });
            let checking = self.journal_check.is_some();
            if checking {
                crate::ui::widgets::busy(ui);
            }
            if ui
                .add_enabled(
                    !checking && self.session.is_some(),
                    egui::Button::new(tr!("journal-check-now")),
                )
                .clicked()
            {
                commands.push(Command::issue(IssueCommand::CheckJournal));
            }
        }
        match &self.journal_checked {
            Some(Ok(c)) if self.journal_check.is_none() => {
                let left = c.waiting + c.unreachable;
                if c.settled + left == 0 {
                    ui.label(tr!("journal-checked-nothing"));
                } else {
                    ui.label(tr!("journal-checked", settled = c.settled, left = left));
                }
                // Why an entry still waits, in words.
                if let Some(until) = c.waiting_until {
                    ui.label(tr!(
                        "journal-checked-waiting",
                        count = c.waiting,
                        time = crate::i18n::clock(until)
                    ));
                }
                if c.unreachable > 0 {
                    crate::ui::widgets::error_text(
                        ui,
                        &tr!("journal-checked-unreachable", count = c.unreachable),
                    );
                }
            }
            Some(Err(_)) if self.journal_check.is_none() => {
                crate::ui::widgets::error_text(ui, &tr!("journal-check-failed"));
            }
            _ => {}
        }
    }

    fn token_badge(&self, ui: &mut egui::Ui) {
        if self.connecting.is_some() {
            crate::ui::widgets::busy(ui);
            ui.label(tr!("top-connecting"));
            return;
        }
        if let Some(e) = &self.session_error {
            crate::ui::widgets::error_text(ui, e);
            return;
        }
        let Some(session) = &self.session else {
            ui.label(tr!("top-not-connected"));
            return;
        };
        // What this session learnt of the profile first: a failure a moment ago is not
        // forgotten by switching away and back.
        let check = self.checks.get(&session.profile.name);
        let line = crate::ui::credentials::check_line(check);
        match (check, session.client.token_state()) {
            (Some(ProfileCheck::Failed { why, at }), _) => {
                // Short in the bar; why on hover and in Credentials.
                let r = ui.label(
                    egui::RichText::new(tr!(
                        "check-failed-short",
                        time = at.format("%H:%M").to_string()
                    ))
                    .color(crate::ui::widgets::error_color(ui)),
                );
                r.on_hover_text(why.as_str());
                return;
            }
            (Some(ProfileCheck::Working { .. }), TokenState::NotUsed) => {
                ui.label(line);
                return;
            }
            _ => {}
        }
        match session.client.token_state() {
            TokenState::NotUsed => ui.label(tr!("token-api-key")),
            TokenState::None => ui.label(tr!("token-none")),
            TokenState::Fetching => ui.label(tr!("token-fetching")),
            TokenState::Valid {
                expires_at: Some(t),
            } => {
                let left = (t - chrono::Utc::now()).to_std().unwrap_or_default();
                // Repaint when the badge must change, not before.
                ui.ctx().request_repaint_after(left);
                ui.label(tr!("token-valid-until", time = crate::i18n::expiry(t)))
            }
            TokenState::Valid { expires_at: None } => ui.label(tr!("token-valid")),
            TokenState::Failed { reason } => {
                let r = ui.label(
                    egui::RichText::new(tr!("token-failed"))
                        .color(crate::ui::widgets::error_color(ui)),
                );
                r.on_hover_text(crate::i18n::error_text(&reason))
            }
        };
    }
}
