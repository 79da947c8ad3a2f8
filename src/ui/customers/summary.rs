//! The statement above the customer table: the filters (text, voided, status, due date
//! and amount ranges, an aging bucket), the aging of what is owed per currency (a click
//! filters the table) and the chart of the last 24 months per currency.

use super::CustomersPanel;
use crate::api::money;
use crate::receivables::aging::{Bucket, MonthTotals, StatusKind, Total, month_of};
use crate::text::escape_controls as safe;
use crate::tr;
use crate::ui::command::Command;
use crate::ui::command::CustomersCommand;
use crate::ui::widgets;
use egui::{RichText, Ui};
use rust_decimal::Decimal;

/// How many months the chart shows.
const CHART_MONTHS: u32 = 24;

/// A total as the clerk reads it.
pub(super) fn total_text(t: Total, code: &str) -> String {
    match t.value() {
        Some(v) => safe(&money::format_amount(v, Some(code))).into_owned(),
        None => tr!("xl-too-large"),
    }
}

impl CustomersPanel {
    /// Reads the typed ranges and the status into the filter in force (again after the
    /// language changed: dates are read and problems worded its way). A range that does
    /// not read keeps its previous value and says why. True when the filter changed.
    pub fn read_filter(&mut self) -> bool {
        let mut problems = Vec::new();
        let mut next = self.filter.clone();
        next.status = self.saved.status;
        let order = widgets::date_order();
        let example = widgets::date_written(self.today());
        for (text, slot) in [
            (&self.saved.due_from, &mut next.due_from),
            (&self.saved.due_to, &mut next.due_to),
        ] {
            let t = text.trim();
            if t.is_empty() {
                *slot = None;
            } else {
                match crate::input::parse_date(t, order) {
                    Ok(d) => *slot = Some(d),
                    Err(_) => problems.push(tr!("cu-bad-date", text = t, example = &example)),
                }
            }
        }
        for (text, slot) in [
            (&self.saved.amount_from, &mut next.amount_min),
            (&self.saved.amount_to, &mut next.amount_max),
        ] {
            let t = text.trim();
            if t.is_empty() {
                *slot = None;
            } else {
                match money::parse_amount_input(t, None) {
                    Ok(a) => *slot = Some(a),
                    Err(_) => problems.push(tr!("cu-bad-amount", text = t)),
                }
            }
        }
        self.filter_problems = problems;
        let changed = next != self.filter;
        self.filter = next;
        changed
    }

    /// Takes everything off: text, status, ranges, bucket (voided stay as chosen).
    fn clear_filters(&mut self) {
        self.saved.filter.clear();
        self.saved.status = None;
        self.saved.due_from.clear();
        self.saved.due_to.clear();
        self.saved.amount_from.clear();
        self.saved.amount_to.clear();
        self.filter.bucket = None;
        self.read_filter();
    }

    /// The filter rows.
    pub(super) fn filter_rows(&mut self, ui: &mut Ui, commands: &mut Vec<Command>) {
        let mut refresh = false;
        ui.horizontal_wrapped(|ui| {
            let l = ui.label(tr!("cu-filter"));
            let f = ui
                .add(
                    egui::TextEdit::singleline(&mut self.saved.filter)
                        .hint_text(tr!("cu-filter-hint"))
                        .desired_width(200.0),
                )
                .labelled_by(l.id);
            let h = ui.checkbox(&mut self.saved.hide_void, tr!("cu-hide-void"));
            refresh |= f.changed() || h.changed();
            let l = ui.label(tr!("cu-status-filter"));
            let before = self.saved.status;
            let shown = self
                .saved
                .status
                .map_or_else(|| tr!("cu-status-any"), crate::i18n::status_kind);
            egui::ComboBox::from_id_salt("cu_status")
                .selected_text(shown)
                .show_ui(ui, |ui| {
                    widgets::choice(ui, &mut self.saved.status, None, tr!("cu-status-any"));
                    for k in StatusKind::FILTERS {
                        widgets::choice(
                            ui,
                            &mut self.saved.status,
                            Some(k),
                            crate::i18n::status_kind(k),
                        );
                    }
                })
                .response
                .labelled_by(l.id);
            if self.saved.status != before {
                refresh |= self.read_filter();
            }
            ui.separator();
            ui.label(tr!(
                "cu-shown",
                shown = self.view.order.len(),
                total = self.rows.len()
            ));
            if self.pending_view.is_some() {
                widgets::busy(ui);
                ui.label(tr!("cu-sorting"));
            }
        });
        ui.horizontal_wrapped(|ui| {
            let range = |ui: &mut Ui, label: String, value: &mut String, hint: String| {
                let l = ui.label(label);
                let r = ui
                    .add(
                        egui::TextEdit::singleline(value)
                            .hint_text(hint)
                            .desired_width(92.0),
                    )
                    .labelled_by(l.id);
                // Read when the clerk leaves the field or presses Enter, not at every
                // key: "05-0" is not a date yet.
                r.lost_focus()
            };
            let date_hint = tr!("f-due-date-hint");
            let mut left = false;
            left |= range(
                ui,
                tr!("cu-due-from"),
                &mut self.saved.due_from,
                date_hint.clone(),
            );
            left |= range(ui, tr!("cu-due-to"), &mut self.saved.due_to, date_hint);
            ui.add_space(8.0);
            left |= range(
                ui,
                tr!("cu-amount-from"),
                &mut self.saved.amount_from,
                String::new(),
            );
            left |= range(
                ui,
                tr!("cu-amount-to"),
                &mut self.saved.amount_to,
                String::new(),
            );
            if left {
                refresh |= self.read_filter();
            }
            let any = !self.filter.is_empty()
                || !self.saved.filter.trim().is_empty()
                || !self.filter_problems.is_empty();
            if ui
                .add_enabled(any, egui::Button::new(tr!("cu-clear-filters")))
                .clicked()
            {
                self.clear_filters();
                refresh = true;
            }
        });
        for p in &self.filter_problems {
            widgets::error_text(ui, p);
        }
        if let Some((code, b)) = &self.filter.bucket {
            ui.horizontal(|ui| {
                let words = tr!(
                    "cu-bucket-only",
                    bucket = crate::i18n::bucket(*b),
                    currency = safe(code)
                );
                ui.label(RichText::new(words).strong());
                if ui.button(tr!("cu-bucket-clear")).clicked() {
                    commands.push(Command::Customers(CustomersCommand::CustomerBucket(None)));
                }
            });
        }
        if refresh {
            commands.push(Command::Customers(CustomersCommand::RefreshCustomerView));
        }
    }

    /// The aging table and the chart, from the rows shown; nothing while there are none.
    pub(super) fn statement(&mut self, ui: &mut Ui, commands: &mut Vec<Command>) {
        if self.rows.is_empty() {
            return;
        }
        egui::CollapsingHeader::new(tr!("cu-statement"))
            .id_salt("cu_statement")
            .default_open(true)
            .show(ui, |ui| {
                // Side by side when there is room, one under the other when not.
                let wide = ui.available_width() >= 900.0;
                let layout = if wide {
                    egui::Layout::left_to_right(egui::Align::Min)
                } else {
                    egui::Layout::top_down(egui::Align::Min)
                };
                ui.with_layout(layout, |ui| {
                    ui.vertical(|ui| self.aging(ui, commands));
                    ui.add_space(24.0);
                    ui.vertical(|ui| self.chart(ui));
                });
            });
    }

    fn aging(&mut self, ui: &mut Ui, commands: &mut Vec<Command>) {
        ui.label(RichText::new(tr!("cu-aging-title")).strong());
        if self.view.aging.is_empty() {
            ui.label(tr!("cu-aging-none"));
            return;
        }
        let hint = tr!("cu-aging-hint");
        egui::Grid::new("cu_aging")
            .striped(true)
            .spacing([10.0, 2.0])
            .show(ui, |ui| {
                ui.label("");
                for b in Bucket::ALL {
                    ui.label(RichText::new(crate::i18n::bucket(b)).small());
                }
                ui.end_row();
                for (code, cells) in &self.view.aging.by_currency {
                    ui.label(crate::i18n::currency_label(code));
                    for b in Bucket::ALL {
                        let cell = cells[b.index()];
                        if cell.count == 0 {
                            ui.label("—");
                            continue;
                        }
                        let amount = total_text(cell.total, code);
                        let count = tr!("cu-aging-count", count = cell.count);
                        let chosen = self.filter.bucket.as_ref() == Some(&(code.clone(), b));
                        let mut text = RichText::new(format!("{amount}\n{count}"));
                        if b != Bucket::Current {
                            text = text.color(widgets::overdue_color(ui));
                        }
                        let r = ui.add(egui::Button::selectable(chosen, text));
                        // One name for a screen reader: bucket, currency, count and total.
                        let name = format!(
                            "{} {}: {count}, {amount}",
                            crate::i18n::bucket(b),
                            safe(code)
                        );
                        r.widget_info(|| {
                            egui::WidgetInfo::selected(
                                egui::Role::Button,
                                true,
                                chosen,
                                name.clone(),
                            )
                        });
                        if r.on_hover_text(hint.as_str()).clicked() {
                            let next = (!chosen).then(|| (code.clone(), b));
                            commands
                                .push(Command::Customers(CustomersCommand::CustomerBucket(next)));
                        }
                    }
                    ui.end_row();
                }
            });
    }

    fn chart(&mut self, ui: &mut Ui) {
        ui.label(RichText::new(tr!("cu-chart-title")).strong());
        let codes: Vec<String> = self.view.monthly.by_currency.keys().cloned().collect();
        let Some(first) = codes.first() else {
            ui.label(tr!("cu-chart-none"));
            return;
        };
        // Pesos first when there are any: the clerk's own currency.
        let code = match &self.chart_currency {
            Some(c) if codes.contains(c) => c.clone(),
            _ if codes.iter().any(|c| c == "CLP") => "CLP".to_string(),
            _ => first.clone(),
        };
        if codes.len() > 1 {
            ui.horizontal(|ui| {
                let l = ui.label(tr!("cu-chart-currency"));
                for c in &codes {
                    let r = ui.selectable_label(*c == code, crate::i18n::currency_label(c));
                    if r.clicked() {
                        self.chart_currency = Some(c.clone());
                    }
                    r.labelled_by(l.id);
                }
            });
        }
        let today = self.view.settings.today;
        let window = self
            .view
            .monthly
            .window(&code, month_of(today), CHART_MONTHS);
        if window.iter().all(|(_, t)| *t == MonthTotals::default()) {
            ui.label(tr!("cu-chart-none"));
            return;
        }
        chart_plot(ui, &code, window);
    }
}

/// One series of the chart: its name, its value in a month, its colour.
type Series = (String, fn(&MonthTotals) -> Total, egui::Color32);

/// The three series of a month.
fn series(ui: &Ui) -> [Series; 3] {
    let dark = ui.visuals().dark_mode;
    let pick = |light: [u8; 3], dark_c: [u8; 3]| {
        let c = if dark { dark_c } else { light };
        egui::Color32::from_rgb(c[0], c[1], c[2])
    };
    [
        (
            tr!("chart-invoiced"),
            |t| t.invoiced,
            pick([40, 90, 180], [120, 170, 255]),
        ),
        (
            tr!("chart-paid"),
            |t| t.paid,
            pick([30, 130, 60], [110, 210, 130]),
        ),
        (
            tr!("chart-open"),
            |t| t.open,
            pick([180, 70, 0], [255, 150, 80]),
        ),
    ]
}

fn month_label(m: (i32, u32)) -> String {
    let name: String = crate::i18n::month_name(m.1).chars().take(3).collect();
    format!("{name} {}", m.0)
}

fn chart_plot(ui: &mut Ui, code: &str, window: Vec<((i32, u32), MonthTotals)>) {
    use egui_plot::{HoverPosition, Legend, Line, Plot, PlotPoints};
    let series = series(ui);
    let tick_months: Vec<(i32, u32)> = window.iter().map(|(m, _)| *m).collect();
    let exact: Vec<[Total; 3]> = window
        .iter()
        .map(|(_, t)| [series[0].1(t), series[1].1(t), series[2].1(t)])
        .collect();
    let names: Vec<String> = series.iter().map(|s| s.0.clone()).collect();
    let hover_code = code.to_string();
    let hover_months = tick_months.clone();
    let axis_code = code.to_string();
    Plot::new(("cu_chart", code))
        .height(140.0)
        .width((ui.available_width() - 8.0).clamp(260.0, 720.0))
        .legend(Legend::default())
        .allow_zoom(false)
        .allow_drag(false)
        .allow_scroll(false)
        .allow_boxed_zoom(false)
        .allow_double_click_reset(false)
        .show_x(true)
        .show_y(false)
        .include_y(0.0)
        .y_axis_min_width(96.0)
        .x_axis_formatter(move |mark, _| {
            let i = mark.value.round();
            if (mark.value - i).abs() > 1e-6 || i < 0.0 {
                return String::new();
            }
            tick_months
                .get(i as usize)
                .map(|m| month_label(*m))
                .unwrap_or_default()
        })
        // About four labelled lines, at 1, 2 or 5 times a power of ten.
        .y_grid_spacer(egui_plot::uniform_grid_spacer(|input| {
            let span = (input.bounds.1 - input.bounds.0).abs().max(1e-4);
            let raw = span / 4.0;
            let magnitude = 10f64.powf(raw.log10().floor());
            let step = [1.0, 2.0, 5.0, 10.0]
                .into_iter()
                .map(|m| m * magnitude)
                .find(|s| *s >= raw)
                .unwrap_or(10.0 * magnitude);
            [step / 5.0, step, step * 5.0]
        }))
        .y_axis_formatter(move |mark, _| {
            // The axis is a guide; the exact amounts are in the hover and the table.
            let Ok(d) = Decimal::try_from(mark.value) else {
                return String::new();
            };
            let text = money::format_amount(d.round_dp(4).normalize(), Some(&axis_code));
            match text.split_once(',') {
                Some((whole, decimals)) if decimals.trim_end_matches('0').is_empty() => {
                    whole.to_string()
                }
                _ => text,
            }
        })
        .label_formatter(move |pos| match pos {
            HoverPosition::NearDataPoint {
                plot_name, index, ..
            } => {
                let s = names.iter().position(|n| n == plot_name)?;
                let month = hover_months.get(*index)?;
                let total = exact.get(*index)?[s];
                Some(format!(
                    "{}\n{plot_name}: {}",
                    month_label(*month),
                    total_text(total, &hover_code)
                ))
            }
            HoverPosition::Elsewhere { .. } => None,
        })
        .show(ui, |plot| {
            for (name, get, color) in &series {
                let points: PlotPoints = window
                    .iter()
                    .enumerate()
                    .map(|(i, (_, t))| {
                        let v = get(t).value().unwrap_or_default();
                        [i as f64, f64::try_from(v).unwrap_or(0.0)]
                    })
                    .collect();
                plot.line(Line::new(name.clone(), points).color(*color).width(2.0));
            }
        });
}
