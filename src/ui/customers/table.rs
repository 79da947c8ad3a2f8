//! The customer table: sortable headers and only the visible rows drawn.

use super::CustomersPanel;
use super::model::SortKey;
use crate::api::InvoiceStatus;
use crate::receivables::aging::Standing;
use crate::text::escape_controls as safe;
use crate::tr;
use crate::ui::command::Command;
use crate::ui::command::LookupCommand;
use egui::Ui;

impl CustomersPanel {
    /// Draws the table; returns the column the clerk asked to sort by.
    pub(super) fn table(&mut self, ui: &mut Ui, commands: &mut Vec<Command>) -> Option<SortKey> {
        use egui_extras::Column;
        let mut resort = None;
        let row_height = ui.text_style_height(&egui::TextStyle::Body) + 6.0;
        // Scrolls sideways when the window (or the zoom) leaves no room for every column;
        // keeps ten rows tall at least (the panel scrolls to them).
        let rows = self.view.order.len();
        egui::ScrollArea::horizontal().show(ui, |ui| {
            crate::ui::widgets::grid(ui, &tr!("cu-table"), rows, 6, true, |ui, grid| {
                crate::ui::widgets::table(ui, row_height)
                    // A click opens the row; the keyboard's Tab stops at the row (one
                    // stop), not at each of its cells.
                    .sense(egui::Sense::CLICK)
                    .column(Column::initial(170.0).at_least(90.0).clip(true))
                    .column(Column::initial(100.0).at_least(80.0))
                    .column(Column::initial(140.0).at_least(90.0))
                    .column(Column::initial(70.0).at_least(60.0))
                    .column(Column::initial(160.0).at_least(60.0).clip(true))
                    .column(Column::remainder().at_least(100.0).clip(true))
                    .header(row_height + 4.0, |mut h| {
                        let mut h = grid.header(&mut h);
                        for (key, name) in [
                            (SortKey::Id, tr!("col-invoice")),
                            (SortKey::Due, tr!("col-due")),
                            (SortKey::Amount, tr!("col-amount")),
                            (SortKey::Currency, tr!("col-currency")),
                            (SortKey::Status, tr!("col-status")),
                            (SortKey::External, tr!("col-external")),
                        ] {
                            h.col(|ui| sort_header(ui, self.wanted_sort, key, &name, &mut resort));
                        }
                    })
                    .body(|mut body| {
                        // Texts shared by all rows: looked up once per frame, not once per row.
                        let open_hint = tr!("cu-open-row");
                        let missing = tr!("cu-currency-missing");
                        let words = [
                            InvoiceStatus::Open,
                            InvoiceStatus::Paid,
                            InvoiceStatus::Void,
                            InvoiceStatus::Unknown,
                        ]
                        .map(crate::ui::widgets::status_word);
                        let word = |s: Standing| match s {
                            Standing::Open | Standing::Overdue(_) => &words[0],
                            Standing::Paid => &words[1],
                            Standing::Void => &words[2],
                            Standing::Unknown => &words[3],
                        };
                        let overdue_open_hint = tr!("cu-open-row-overdue");
                        let overdue = crate::ui::widgets::overdue_color(body.ui_mut());
                        let today = self.view.settings.today;
                        body.rows(row_height, self.view.order.len(), |mut row| {
                            let inv = self.rows.get(self.view.order[row.index()]);
                            let mut row = grid.row(&mut row);
                            // Plain (non-selectable) text, so a click anywhere opens the row.
                            // Service text is shown escaped: a bidi override or a control
                            // character cannot reorder or break the row.
                            let cell = |ui: &mut Ui, text: &str| {
                                ui.add(egui::Label::new(safe(text)).selectable(false));
                            };
                            row.col_said(&safe(&inv.id), |ui| cell(ui, &inv.id));
                            let due = inv
                                .due_date
                                .as_deref()
                                .map_or_else(|| "—".to_string(), crate::i18n::date);
                            row.col_said(&due, |ui| cell(ui, &due));
                            let amount = crate::i18n::amount_text(inv);
                            row.col_said(&amount.clone(), |ui| {
                                ui.with_layout(
                                    egui::Layout::right_to_left(egui::Align::Center),
                                    |ui| {
                                        // No tooltip of its own (the currency has its
                                        // column): one tooltip at a time, the row's.
                                        ui.add(egui::Label::new(amount).selectable(false));
                                    },
                                );
                            });
                            // "UF", as a clerk says it, not "CLF".
                            let currency = inv
                                .currency_code
                                .as_deref()
                                .map_or_else(|| missing.clone(), crate::i18n::currency_label);
                            row.col_said(&currency, |ui| cell(ui, &currency));
                            let standing = Standing::of(inv, today);
                            let standing_words = match standing {
                                Standing::Overdue(days) => tr!("overdue-days", days = days),
                                _ => word(standing).clone(),
                            };
                            row.col_said(&standing_words, |ui| match standing {
                                // Colour and words: "Overdue · 43 days", never colour alone.
                                Standing::Overdue(_) => {
                                    ui.add(
                                        egui::Label::new(
                                            egui::RichText::new(standing_words.as_str())
                                                .color(overdue)
                                                .strong(),
                                        )
                                        .selectable(false),
                                    );
                                }
                                _ => cell(ui, word(standing)),
                            });
                            let reference = inv.invoice_external_id.as_deref().unwrap_or("");
                            row.col_said(&safe(reference), |ui| cell(ui, reference));
                            // One tooltip for the whole row (a cell's own would show beside
                            // it): what a click does, and what "overdue" means when it is.
                            let hint = match standing {
                                Standing::Overdue(_) => &overdue_open_hint,
                                _ => &open_hint,
                            };
                            let (response, open) = row.finish();
                            response.on_hover_text(hint.as_str());
                            if open {
                                commands.push(Command::Lookup(LookupCommand::OpenInLookup {
                                    id: inv.id.clone(),
                                    from_list: true,
                                }));
                            }
                        });
                    });
            });
        });
        resort
    }
}

/// A column's title: a button that sorts by it (again: the other way), with a painted
/// triangle on the column sorted by. `wanted`: the key sorted by and whether upwards.
fn sort_header(
    ui: &mut Ui,
    wanted: (SortKey, bool),
    key: SortKey,
    name: &str,
    resort: &mut Option<SortKey>,
) {
    let mut hint = match (wanted.0 == key, wanted.1) {
        (true, true) => tr!("cu-sorted-asc"),
        (true, false) => tr!("cu-sorted-desc"),
        (false, _) => tr!("cu-sort-by"),
    };
    if key == SortKey::Amount {
        // Pesos and UF are not comparable: say how the order is made.
        hint = format!("{hint}\n{}", tr!("cu-sort-amount-hint"));
    }
    let r = ui.button(name).on_hover_text(hint);
    if wanted.0 == key {
        // A painted triangle: the bundled fonts have no arrow glyphs.
        let (rect, _) = ui.allocate_exact_size(egui::vec2(10.0, 10.0), egui::Sense::hover());
        let c = rect.center();
        let points = if wanted.1 {
            vec![
                c + egui::vec2(-4.0, 3.0),
                c + egui::vec2(4.0, 3.0),
                c + egui::vec2(0.0, -3.0),
            ]
        } else {
            vec![
                c + egui::vec2(-4.0, -3.0),
                c + egui::vec2(4.0, -3.0),
                c + egui::vec2(0.0, 3.0),
            ]
        };
        let color = ui.visuals().strong_text_color();
        ui.painter().add(egui::Shape::convex_polygon(
            points,
            color,
            egui::Stroke::NONE,
        ));
    }
    if r.clicked() {
        *resort = Some(key);
    }
}
