//! The rows of the file, with each row's problems or status.

use super::*;

impl BulkPanel {
    pub(super) fn table(&mut self, ui: &mut Ui) {
        use egui_extras::Column;
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
                widgets::grid(
                    ui,
                    &tr!("bulk-table"),
                    shown.len(),
                    width + 2,
                    false,
                    |ui, grid| {
                        // The status column keeps room for a problem in words; the file's
                        // columns share the rest (resizable; the table scrolls sideways).
                        let each = ((ui.available_width() - 48.0 - 400.0) / width.max(1) as f32)
                            .clamp(70.0, 160.0);
                        let mut t = widgets::table(ui, row_height)
                            .id_salt("bulk_table")
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
                                let mut h = grid.header(&mut h);
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
                                    let mut row = grid.row(&mut row);
                                    row.col(|ui| {
                                        ui.label(number.to_string());
                                    });
                                    for c in 0..width {
                                        let bad = problems.is_some_and(|ps| {
                                            ps.iter().any(|&i| l.plan.problems[i].col == Some(c))
                                        });
                                        let raw = cells.and_then(|r| r.get(c)).unwrap_or("");
                                        // An amount and due date as the clerk reads them
                                        // where they did read; the file's text otherwise.
                                        let text = l
                                            .shown_value(number, c)
                                            .unwrap_or_else(|| safe(raw).into_owned());
                                        row.col(|ui| {
                                            if bad {
                                                ui.label(
                                                    RichText::new(text).color(red).underline(),
                                                );
                                            } else {
                                                ui.label(text);
                                            }
                                        });
                                    }
                                    row.col(|ui| {
                                        status_column(
                                            ui,
                                            l,
                                            number,
                                            progress.as_deref(),
                                            allow,
                                            run_ended,
                                            red,
                                        )
                                    });
                                });
                            });
                    },
                );
            });
    }
}

/// A row's last column: its problems, or what became of it (the clerk ticks a look-alike
/// to issue it anyway once the run ended).
fn status_column(
    ui: &mut Ui,
    l: &Loaded,
    number: usize,
    progress: Option<&Progress>,
    allow: &mut HashSet<usize>,
    run_ended: bool,
    red: egui::Color32,
) {
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
        (None | Some(None), Some(k)) => {
            let status = match &k.by {
                Some(by) => tr!("bulk-st-existing-by", who = crate::i18n::writer_by(by)),
                None => tr!("bulk-st-existing"),
            };
            ui.label(tr!(
                "bulk-st-with-id",
                status = status,
                id = safe(k.entry.invoice_id.as_deref().unwrap_or("?"))
            ));
        }
        (None, None) => {
            ui.label(tr!("bulk-st-ready"));
        }
        (Some(None), None) => {
            ui.weak(tr!("bulk-st-waiting"));
        }
        (Some(Some(s @ Status::PossibleDuplicate(_))), _) if run_ended => {
            // The clerk decides, row by row, with the earlier
            // invoice in view.
            let mut tick = allow.contains(&number);
            if ui.checkbox(&mut tick, tr!("bulk-allow-similar")).changed() {
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
}

pub(super) fn status_cell(ui: &mut Ui, s: &Status, red: egui::Color32) {
    let (word, why) = crate::i18n::bulk_status(s);
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
