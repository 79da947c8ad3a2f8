//! Exporting the customer list to CSV: the export bar, the native save dialog or a typed
//! path, on a worker.

use super::CustomersPanel;
use crate::export::Dialect;
use crate::tr;
use crate::ui::command::Command;
use crate::ui::command::{CustomersCommand, WindowCommand};
use crate::ui::task::Spawner;
use crate::ui::widgets;
use egui::Ui;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

impl CustomersPanel {
    /// Stops the export under way (it ends as cancelled, writing nothing).
    pub fn cancel_export(&mut self) {
        self.export_cancel
            .store(true, std::sync::atomic::Ordering::Relaxed);
    }

    /// Exports the rows shown, in the order shown, as the chosen format: to `target` (its
    /// `.xlsx` or `.csv` decides), or through the save dialog.
    pub fn export_csv(
        &mut self,
        target: Option<PathBuf>,
        spawner: &Spawner,
        journal: &crate::ui::journal::AppJournal,
        session: Option<&crate::ui::session::Session>,
    ) {
        if !self.can_export() {
            return;
        }
        let rows = self.rows.clone();
        let order = self.view.order.clone();
        let dialect = self.dialect();
        let cancel = Arc::new(AtomicBool::new(false));
        self.export_cancel = cancel.clone();
        self.export_note = None;
        let workbook = target
            .as_deref()
            .and_then(crate::export::workbook_by_name)
            .unwrap_or(self.saved.workbook);
        let name = file_name(&self.loaded_for, self.customer_name.as_deref(), workbook);
        // Journaled as the CLI's exports are: who exported which customer, to which
        // file, how many rows (Activity shows it).
        let journal = journal.clone();
        let intent_base = session.map(|s| (s.profile.name.clone(), s.profile.base_url.clone()));
        let customer = self.loaded_for.clone();
        let customer_name = self.customer_name.clone();
        let today = self.view.settings.today;
        // The workbook's words in the app's language, fixed when the export starts.
        let lang = crate::i18n::current();
        self.export = Some(spawner.spawn(async move {
            let path = match target {
                Some(p) => p,
                None => {
                    let (title, filter, ext) = if workbook {
                        (tr!("cu-dialog-title-xlsx"), "Excel", "xlsx")
                    } else {
                        (tr!("cu-dialog-title"), "CSV", "csv")
                    };
                    match rfd::AsyncFileDialog::new()
                        .set_title(title)
                        .set_file_name(&name)
                        .add_filter(filter, &[ext])
                        .save_file()
                        .await
                    {
                        Some(f) => f.path().to_path_buf(),
                        None => return Ok(None),
                    }
                }
            };
            let recorded = match &intent_base {
                Some((profile, base_url)) => {
                    let intent = crate::journal::Intent::for_export(
                        profile,
                        base_url,
                        &customer,
                        path.file_name().map(|f| f.to_string_lossy().into_owned()),
                    );
                    journal
                        .write(move |j| j.record_intent(crate::journal::Action::Export, &intent))
                        .await
                        .ok()
                }
                None => None,
            };
            let settle_journal = journal.clone();
            let result = tokio::task::spawn_blocking(move || {
                // As the CLI: no folder is created, a link is written through, an
                // existing file keeps its permissions.
                let target = crate::fsutil::check_destination(&path)
                    .map_err(|e| crate::i18n::destination_error(&e))?;
                let iter = order.iter().map(|&i| rows.get(i));
                let written = if workbook {
                    let about = crate::export::xlsx::About {
                        customer: &customer,
                        customer_name: customer_name.as_deref(),
                        today,
                        lang,
                    };
                    crate::export::xlsx::write_file(&target, iter, &about, &cancel)
                        .map(|w| (w.rows, (w.as_text, w.cut)))
                } else {
                    crate::export::write_file(
                        &target,
                        iter,
                        dialect,
                        &cancel,
                        customer_name.as_deref(),
                    )
                    .map(|n| (n, (0, 0)))
                };
                written
                    .map(|(n, notes)| Some((path.clone(), n, notes)))
                    .map_err(|e| {
                        if e.kind() == std::io::ErrorKind::Interrupted {
                            tr!("cu-export-cancelled")
                        } else {
                            tr!("cu-export-failed", path = path.display(), error = e)
                        }
                    })
            })
            .await
            .map_err(|e| e.to_string())?;
            if let Some(seq) = recorded {
                let settled = match &result {
                    Ok(Some((_, n, _))) => crate::journal::Settled {
                        rows: Some(*n),
                        ..crate::journal::Settled::done(None)
                    },
                    _ => crate::journal::Settled {
                        outcome: crate::journal::Outcome::Refused,
                        error_kind: Some("WriteFailed".into()),
                        ..crate::journal::Settled::done(None)
                    },
                };
                let _ = settle_journal
                    .write(move |j| j.record_outcome(seq, &settled))
                    .await;
            }
            result
        }));
    }

    /// Shows the path row, with a suggested path if none was typed (only when it opens:
    /// the clerk may empty the field to type another).
    pub(super) fn open_path_row(&mut self) {
        self.show_path_export = true;
        if self.saved.export_path.trim().is_empty() {
            self.saved.export_path = default_export_path(
                &self.loaded_for,
                self.customer_name.as_deref(),
                self.saved.workbook,
            );
        }
    }

    /// The CSV flavour: the one chosen, else Excel in Spanish for a Spanish clerk.
    pub(super) fn dialect(&self) -> Dialect {
        self.saved.dialect.unwrap_or(match crate::i18n::current() {
            crate::i18n::Lang::Es => Dialect::ExcelEs,
            crate::i18n::Lang::En => Dialect::Standard,
        })
    }

    pub(super) fn export_bar(&mut self, ui: &mut Ui, commands: &mut Vec<Command>) {
        ui.horizontal(|ui| {
            let l = ui.label(tr!("cu-format"));
            let current = (self.saved.workbook, self.dialect());
            let mut chosen = current;
            egui::ComboBox::from_id_salt("csv_dialect")
                .selected_text(format_name(chosen))
                .show_ui(ui, |ui| {
                    for option in [
                        (true, chosen.1),
                        (false, Dialect::ExcelEs),
                        (false, Dialect::Standard),
                    ] {
                        let name = format_name(option);
                        widgets::choice(ui, &mut chosen, option, name);
                    }
                })
                .response
                .labelled_by(l.id);
            if chosen != current {
                self.saved.workbook = chosen.0;
                if !chosen.0 {
                    self.saved.dialect = Some(chosen.1);
                }
            }
            let can = self.can_export();
            let n = self.view.order.len();
            let label = if self.saved.workbook {
                tr!("cu-export-xlsx", count = n)
            } else {
                tr!("cu-export", count = n)
            };
            if ui.add_enabled(can, egui::Button::new(label)).clicked() {
                commands.push(Command::Customers(CustomersCommand::ExportCsv(None)));
            }
            if self.export.is_some() {
                crate::ui::widgets::busy(ui);
                if ui.button(tr!("cu-cancel-export")).clicked() {
                    commands.push(Command::Customers(CustomersCommand::CancelExport));
                }
            }
            // Opens the path row (for systems where no save window appears).
            if !self.show_path_export && ui.small_button(tr!("cu-save-to-path")).clicked() {
                self.open_path_row();
            }
        });
        // What happened comes first: its advice points at the path row below it.
        match &self.export_note {
            Some(Ok(m)) => {
                ui.horizontal(|ui| {
                    let r = ui.label(m);
                    widgets::announce(ui, &r, false);
                    if let Some(dir) = &self.exported_to
                        && ui.button(tr!("cu-open-folder")).clicked()
                    {
                        commands.push(Command::Window(WindowCommand::OpenExternal(
                            crate::ui::external::External::Folder(dir.clone()),
                        )));
                    }
                });
                // What Excel could not hold as it was sent: said, never silent.
                let (as_text, cut) = self.exported_notes;
                let warn = widgets::overdue_color(ui);
                if as_text > 0 {
                    ui.label(egui::RichText::new(tr!("cu-as-text", count = as_text)).color(warn));
                }
                if cut > 0 {
                    ui.label(egui::RichText::new(tr!("xl-cut-note", count = cut)).color(warn));
                }
            }
            Some(Err(m)) => widgets::error_text(ui, m),
            None => {}
        }
        if self.show_path_export {
            ui.horizontal(|ui| {
                let l = ui.label(tr!("cu-file"));
                ui.add(
                    egui::TextEdit::singleline(&mut self.saved.export_path)
                        .desired_width(widgets::field_width(ui)),
                )
                .labelled_by(l.id);
                let can = !self.view.order.is_empty()
                    && self.export.is_none()
                    && self.loading.is_none()
                    && !self.saved.export_path.trim().is_empty();
                if ui
                    .add_enabled(can, egui::Button::new(tr!("cu-save-file")))
                    .clicked()
                {
                    let p = PathBuf::from(self.saved.export_path.trim());
                    commands.push(Command::Customers(CustomersCommand::ExportCsv(Some(p))));
                }
            });
        }
    }
}

/// An export format's name: the workbook, or CSV in a dialect.
fn format_name((workbook, d): (bool, Dialect)) -> String {
    if workbook {
        return tr!("format-xlsx");
    }
    let dialect = match d {
        Dialect::ExcelEs => tr!("dialect-excel"),
        Dialect::Standard => tr!("dialect-standard"),
    };
    format!("CSV · {dialect}")
}

/// The suggested file name, in the clerk's language, with the customer's name when the
/// directory knows it (`facturas-Comercial-Ñuñoa-Ltda-cus_1.xlsx`, `facturas-cus_1.csv`).
fn file_name(customer: &str, name: Option<&str>, workbook: bool) -> String {
    // The same rule as the statements' names (fsutil::name_part), then the id.
    let id = Some(
        crate::fsutil::id_part(customer)
            .trim_matches('_')
            .to_string(),
    )
    .filter(|i| !i.is_empty());
    let who = match (name.and_then(crate::fsutil::name_part), id) {
        (Some(n), Some(id)) => format!("{n}-{id}"),
        (Some(n), None) => n,
        (None, Some(id)) => id,
        (None, None) => tr!("cu-file-customer"),
    };
    if workbook {
        tr!("cu-file-name-xlsx", customer = who)
    } else {
        tr!("cu-file-name", customer = who)
    }
}

fn default_export_path(customer: &str, name: Option<&str>, workbook: bool) -> String {
    let dir = directories::UserDirs::new()
        .and_then(|u| {
            u.document_dir()
                .map(|d| d.to_path_buf())
                .or_else(|| Some(u.home_dir().to_path_buf()))
        })
        .unwrap_or_else(|| PathBuf::from("."));
    dir.join(file_name(customer, name, workbook))
        .display()
        .to_string()
}
