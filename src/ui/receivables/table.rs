//! Cartera's table: one row a customer, what it owes by age, its pesos.

use super::*;

impl ReceivablesPanel {
    pub(super) fn table(&self, ui: &mut Ui, shown: &[usize], commands: &mut Vec<Command>) {
        use egui_extras::Column;
        let row_height = ui.text_style_height(&egui::TextStyle::Body) + 6.0;
        let safe = |t: &str| crate::text::escape_controls(t).into_owned();
        widgets::grid(ui, &tr!("rv-table"), shown.len(), 7, true, |ui, grid| {
            widgets::table(ui, row_height)
                // A click opens the row; Tab stops at the row, not at each cell.
                .sense(egui::Sense::CLICK)
                .column(Column::initial(260.0).at_least(120.0).clip(true))
                .column(Column::initial(110.0).at_least(80.0).clip(true))
                .column(Column::initial(130.0).at_least(90.0).clip(true))
                .column(Column::initial(130.0).at_least(90.0).clip(true))
                .column(Column::initial(110.0).at_least(70.0).clip(true))
                .column(Column::initial(100.0).at_least(80.0).clip(true))
                .column(Column::remainder().at_least(160.0).clip(true))
                // Two lines for the column names: a long one ("Vencida más antigua") wraps
                // whole in a narrow window instead of being cut.
                .header(2.0 * row_height, |mut h| {
                    let mut h = grid.header(&mut h);
                    for name in [
                        tr!("rv-col-customer"),
                        tr!("rv-col-rut"),
                        tr!("rv-col-clp"),
                        tr!("rv-col-clf"),
                        tr!("rv-col-oldest"),
                        tr!("rv-col-last"),
                        tr!("rv-col-buckets"),
                    ] {
                        h.col(|ui| {
                            ui.add(egui::Label::new(egui::RichText::new(name).strong()).wrap());
                        });
                    }
                })
                .body(|body| {
                    body.rows(row_height, shown.len(), |mut row| {
                        let r = &self.rows[shown[row.index()]];
                        let mut row = grid.row(&mut row);
                        let cell = |ui: &mut Ui, text: &str| {
                            ui.add(egui::Label::new(text).selectable(false));
                        };
                        let who = match &r.name {
                            Some(n) => format!("{} · {}", safe(n), safe(&r.customer)),
                            None => safe(&r.customer),
                        };
                        row.col_said(&who, |ui| cell(ui, &who));
                        let rut = safe(r.rut.as_deref().unwrap_or(""));
                        row.col_said(&rut, |ui| cell(ui, &rut));
                        match &r.summary {
                            Err(why) => {
                                let why = tr!("rv-not-listed", why = why.clone());
                                row.col_said(&why, |ui| widgets::error_text(ui, &why));
                                for _ in 0..4 {
                                    row.col(|_| {});
                                }
                            }
                            Ok(s) => {
                                for code in ["CLP", "CLF"] {
                                    let t = s.owed.get(code).copied();
                                    let owed = t.map(|t| money(t, code)).unwrap_or_default();
                                    row.col_said(&owed, |ui| cell(ui, &owed));
                                }
                                let oldest = s
                                    .oldest_overdue
                                    .map(|d| tr!("rv-days", days = d))
                                    .unwrap_or_else(|| tr!("rv-none-overdue"));
                                row.col_said(&oldest.clone(), |ui| {
                                    if s.has_overdue() {
                                        ui.add(
                                            egui::Label::new(
                                                egui::RichText::new(oldest)
                                                    .color(widgets::overdue_color(ui)),
                                            )
                                            .selectable(false),
                                        );
                                    } else {
                                        cell(ui, &oldest);
                                    }
                                });
                                let last = s
                                    .last_invoice
                                    .map(|d| crate::i18n::date(&d.format("%Y-%m-%d").to_string()))
                                    .unwrap_or_default();
                                row.col_said(&last, |ui| cell(ui, &last));
                                // What is owed in each bucket, per currency, those not empty.
                                let buckets: Vec<String> = s
                                    .owed
                                    .keys()
                                    .flat_map(|code| {
                                        crate::receivables::cells(s, code)
                                            .into_iter()
                                            .zip(crate::receivables::aging::Bucket::ALL)
                                            .filter_map(|(t, b)| {
                                                t.map(|t| {
                                                    format!(
                                                        "{}: {}",
                                                        crate::i18n::bucket(b),
                                                        money(t, code)
                                                    )
                                                })
                                            })
                                            .collect::<Vec<_>>()
                                    })
                                    .collect();
                                let buckets = buckets.join(" · ");
                                row.col_said(&buckets, |ui| cell(ui, &buckets));
                            }
                        }
                        let (resp, open) = row.finish();
                        if open {
                            commands.push(Command::Customers(CustomersCommand::OpenCustomer(
                                r.customer.clone(),
                            )));
                        }
                        resp.on_hover_text(tr!("rv-open-row"));
                    });
                });
        });
    }
}

/// An amount owed as the app writes it, or that it was too large to add.
pub(super) fn money(t: Total, code: &str) -> String {
    match t.value() {
        Some(v) => crate::api::money::format_amount(v, Some(code)),
        None => tr!("rv-too-large"),
    }
}
