//! Exporting the customer list to CSV: the export bar, the native save dialog or a typed
//! path, on a worker.

use super::CustomersPanel;
use crate::export::Dialect;
use crate::tr;
use crate::ui::command::Command;
use crate::ui::task::Spawner;
use crate::ui::widgets;
use egui::Ui;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

impl CustomersPanel {
    /// Exports the rows shown, in the order shown: to `target`, or through the save
    /// dialog.
    pub fn export_csv(&mut self, target: Option<PathBuf>, spawner: &Spawner) {
        if !self.can_export() {
            return;
        }
        let rows = self.rows.clone();
        let order = self.view.order.clone();
        let dialect = self.saved.dialect;
        let cancel = Arc::new(AtomicBool::new(false));
        self.export_cancel = cancel.clone();
        self.export_note = None;
        let name = format!("invoices-{}.csv", sanitize(&self.loaded_for));
        self.export = Some(spawner.spawn(async move {
            let path = match target {
                Some(p) => p,
                None => match rfd::AsyncFileDialog::new()
                    .set_title(tr!("cu-dialog-title"))
                    .set_file_name(&name)
                    .add_filter("CSV", &["csv"])
                    .save_file()
                    .await
                {
                    Some(f) => f.path().to_path_buf(),
                    None => return Ok(None),
                },
            };
            tokio::task::spawn_blocking(move || {
                let iter = order.iter().map(|&i| rows.get(i));
                crate::export::write_file(&path, iter, dialect, &cancel)
                    .map(|n| Some((path.clone(), n)))
                    .map_err(|e| {
                        if e.kind() == std::io::ErrorKind::Interrupted {
                            tr!("cu-export-cancelled")
                        } else {
                            tr!("cu-export-failed", path = path.display(), error = e)
                        }
                    })
            })
            .await
            .map_err(|e| e.to_string())?
        }));
    }

    pub(super) fn export_bar(&mut self, ui: &mut Ui, commands: &mut Vec<Command>) {
        ui.horizontal(|ui| {
            let l = ui.label(tr!("cu-csv-format"));
            egui::ComboBox::from_id_salt("csv_dialect")
                .selected_text(dialect_name(self.saved.dialect))
                .show_ui(ui, |ui| {
                    for d in [Dialect::ExcelEs, Dialect::Standard] {
                        ui.selectable_value(&mut self.saved.dialect, d, dialect_name(d));
                    }
                })
                .response
                .labelled_by(l.id);
            let can = self.can_export();
            let label = tr!("cu-export", count = self.view.order.len());
            if ui.add_enabled(can, egui::Button::new(label)).clicked() {
                commands.push(Command::ExportCsv(None));
            }
            if self.export.is_some() {
                ui.spinner();
                if ui.button(tr!("cu-cancel-export")).clicked() {
                    self.export_cancel
                        .store(true, std::sync::atomic::Ordering::Relaxed);
                }
            }
            if ui.small_button(tr!("cu-save-to-path")).clicked() {
                self.show_path_export = !self.show_path_export;
            }
        });
        if self.show_path_export {
            ui.horizontal(|ui| {
                if self.saved.export_path.is_empty() {
                    self.saved.export_path = default_export_path(&self.loaded_for);
                }
                let l = ui.label(tr!("cu-file"));
                ui.add(
                    egui::TextEdit::singleline(&mut self.saved.export_path).desired_width(360.0),
                )
                .labelled_by(l.id);
                let can = !self.view.order.is_empty()
                    && self.export.is_none()
                    && self.loading.is_none()
                    && !self.saved.export_path.trim().is_empty();
                if ui
                    .add_enabled(can, egui::Button::new(tr!("cu-save-csv")))
                    .clicked()
                {
                    let p = PathBuf::from(self.saved.export_path.trim());
                    commands.push(Command::ExportCsv(Some(p)));
                }
            });
        }
        match &self.export_note {
            Some(Ok(m)) => {
                ui.label(m);
            }
            Some(Err(m)) => widgets::error_text(ui, m),
            None => {}
        }
    }
}

fn dialect_name(d: Dialect) -> String {
    match d {
        Dialect::ExcelEs => tr!("dialect-excel"),
        Dialect::Standard => tr!("dialect-standard"),
    }
}

fn sanitize(s: &str) -> String {
    let t: String = s
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if t.is_empty() { "customer".into() } else { t }
}

fn default_export_path(customer: &str) -> String {
    let dir = directories::UserDirs::new()
        .and_then(|u| {
            u.document_dir()
                .map(|d| d.to_path_buf())
                .or_else(|| Some(u.home_dir().to_path_buf()))
        })
        .unwrap_or_else(|| PathBuf::from("."));
    dir.join(format!("invoices-{}.csv", sanitize(customer)))
        .display()
        .to_string()
}
