//! The UF's value in the Credentials panel: where it is read (the CMF's API by default)
//! and the CMF's key (kept in the keyring), with today's value or why there is none.
//! The computer's, not a profile's: it stands apart, as the journal does.

use super::command::Command;
use super::widgets;
use crate::tr;
use crate::ui::command::ProfilesCommand;
use egui::Ui;
use secrecy::SecretString;

/// What is typed, and the last save's words.
#[derive(Default)]
pub struct UfSetting {
    /// The address typed; `None` until first drawn (then the saved one).
    address: Option<String>,
    key: String,
    /// A save running.
    busy: bool,
    result: Option<Result<String, String>>,
    /// The path of a file of values, typed or chosen.
    file: String,
    /// A file being kept.
    importing: bool,
    /// The last import's words.
    imported: Option<Result<String, String>>,
}

impl UfSetting {
    /// A save started.
    pub fn started(&mut self) {
        self.busy = true;
        self.result = None;
    }

    /// A save ended: its words (the key was kept, or why not).
    pub fn ended(&mut self, result: Result<String, String>) {
        self.busy = false;
        if result.is_ok() {
            self.key.clear();
        }
        self.result = Some(result);
    }

    /// A file of values being kept.
    pub fn importing(&mut self) {
        self.importing = true;
        self.imported = None;
    }

    /// The file was kept (its words) or not (why).
    pub fn imported(&mut self, said: Result<String, String>) {
        self.importing = false;
        self.imported = Some(said);
    }

    /// No file was chosen: the path can be typed.
    pub fn imported_nothing(&mut self) {
        self.importing = false;
    }

    /// Draws the section: `saved` is the address in use, `uf` today's value.
    pub fn ui(
        &mut self,
        ui: &mut Ui,
        saved: &str,
        uf: &widgets::UfShown,
        commands: &mut Vec<Command>,
    ) {
        ui.heading(tr!("ufs-title"));
        match (uf.value.as_ref(), &uf.missing) {
            (Some(found), _) => {
                ui.label(crate::i18n::uf_value(found));
            }
            (None, Some(why)) => widgets::error_text(ui, why),
            (None, None) => {
                ui.horizontal(|ui| {
                    widgets::busy(ui);
                    ui.label(tr!("ufs-reading"));
                });
            }
        }
        ui.label(egui::RichText::new(tr!("ufs-explain")).weak());
        let address = self.address.get_or_insert_with(|| saved.to_string());
        let mut send = false;
        egui::Grid::new("uf_setting").num_columns(2).show(ui, |ui| {
            let l = ui.label(tr!("ufs-address"));
            ui.add(egui::TextEdit::singleline(address).desired_width(420.0))
                .labelled_by(l.id);
            ui.end_row();
            let l = ui.label(tr!("ufs-key"));
            let key = ui
                .add(
                    egui::TextEdit::singleline(&mut self.key)
                        .password(true)
                        .hint_text(tr!("ufs-key-hint"))
                        .desired_width(420.0),
                )
                .labelled_by(l.id);
            send = key.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            ui.end_row();
        });
        ui.horizontal(|ui| {
            let typed = !self.key.trim().is_empty() || address.trim() != saved.trim();
            let save = ui.add_enabled(!self.busy && typed, egui::Button::new(tr!("ufs-save")));
            if (save.clicked() || (send && typed)) && !self.busy {
                commands.push(Command::Profiles(ProfilesCommand::SaveUfKey {
                    address: address.trim().to_string(),
                    key: Some(self.key.trim().to_string())
                        .filter(|k| !k.is_empty())
                        .map(SecretString::from),
                }));
            }
            if self.busy {
                widgets::busy(ui);
            }
        });
        widgets::outcome(ui, self.result.as_ref());
        ui.add_space(6.0);
        ui.label(egui::RichText::new(tr!("ufs-file-explain")).weak());
        ui.horizontal(|ui| {
            let l = ui.label(tr!("ufs-file"));
            let path = ui
                .add(
                    egui::TextEdit::singleline(&mut self.file)
                        .hint_text(tr!("ufs-file-hint"))
                        .desired_width(300.0),
                )
                .labelled_by(l.id);
            let typed = !self.file.trim().is_empty();
            let enter = path.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            let import = ui.add_enabled(
                !self.importing && typed,
                egui::Button::new(tr!("ufs-import")),
            );
            if (import.clicked() || (enter && typed)) && !self.importing {
                commands.push(Command::Profiles(ProfilesCommand::ImportUfFile(
                    std::path::PathBuf::from(self.file.trim()),
                )));
            }
            if ui
                .add_enabled(!self.importing, egui::Button::new(tr!("ufs-choose")))
                .clicked()
            {
                commands.push(Command::Profiles(ProfilesCommand::ChooseUfFile));
            }
            if self.importing {
                widgets::busy(ui);
            }
        });
        widgets::outcome(ui, self.imported.as_ref());
    }
}
