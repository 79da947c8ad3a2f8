//! The date field: typed the way the clerk's language writes dates (or ISO), read live
//! ("= martes 5 de enero de 2027"), with quick choices and a calendar. A calendar of our
//! own rather than egui_extras' date picker, whose buttons and month names are English.

use crate::i18n::{self, Lang};
use crate::input::{DateOrder, end_of_month};
use crate::tr;
use chrono::{Datelike, NaiveDate};
use egui::{RichText, Ui};

/// How dates are read in the language in use: Spanish also reads day-first dates.
pub fn order() -> DateOrder {
    match i18n::current() {
        Lang::Es => DateOrder::DayFirst,
        Lang::En => DateOrder::IsoOnly,
    }
}

/// A date written the way the language in use shows it (es: `05-01-2027`, en: ISO).
pub fn written(d: NaiveDate) -> String {
    i18n::date(&d.format("%Y-%m-%d").to_string())
}

/// A form row in a two-column grid: the label, the field with its calendar and quick
/// choices, and under it the reading of the date or `problem`. Ends the grid row.
pub fn date_row(
    ui: &mut Ui,
    label: &str,
    value: &mut String,
    reading: Option<NaiveDate>,
    problem: Option<&str>,
    today: NaiveDate,
) {
    // A due date already past, or more than two years ahead, is most likely a typo: said
    // beside its reading (it can still be sent).
    let warning = reading.and_then(|d| {
        if d < today {
            Some(tr!("date-past", days = (today - d).num_days()))
        } else if d > today + chrono::Months::new(24) {
            Some(tr!("date-far"))
        } else {
            None
        }
    });
    let l = ui.label(label);
    ui.vertical(|ui| {
        ui.horizontal(|ui| {
            ui.add(
                egui::TextEdit::singleline(value)
                    .hint_text(tr!("f-due-date-hint"))
                    .desired_width(140.0),
            )
            .labelled_by(l.id);
            let button = ui.button(tr!("date-calendar"));
            let popup_id = egui::Popup::default_response_id(&button);
            egui::Popup::from_toggle_button_response(&button)
                .close_behavior(egui::PopupCloseBehavior::CloseOnClickOutside)
                .show(|ui| {
                    if let Some(d) = calendar(ui, popup_id, reading.unwrap_or(today), today) {
                        *value = written(d);
                        egui::Popup::close_id(ui.ctx(), popup_id);
                    }
                });
            for (name, date) in [
                (tr!("date-plus-30"), today + chrono::Days::new(30)),
                (tr!("date-plus-60"), today + chrono::Days::new(60)),
                (tr!("date-end-of-month"), end_of_month(today)),
            ] {
                if ui
                    .small_button(name)
                    .on_hover_text(i18n::long_date(date))
                    .clicked()
                {
                    *value = written(date);
                }
            }
        });
        // Each case in the same kind of row, so that the line keeps one height: typing a
        // date never pushes the rest of the form down.
        ui.horizontal_wrapped(|ui| match (problem, reading) {
            (Some(p), _) => {
                ui.label(RichText::new(p).color(super::error_color(ui)));
            }
            (None, Some(d)) => {
                ui.label(format!("= {}", i18n::long_date(d)));
                if let Some(w) = &warning {
                    ui.label(RichText::new(w).color(super::overdue_color(ui)).strong());
                }
            }
            (None, None) => {
                ui.label(" ");
            }
        });
    });
    ui.end_row();
}

/// A month grid starting on Monday; returns the day clicked. The month shown is kept in
/// the popup's memory.
fn calendar(
    ui: &mut Ui,
    popup: egui::Id,
    selected: NaiveDate,
    today: NaiveDate,
) -> Option<NaiveDate> {
    let id = popup.with("calendar_month");
    let first_of = |d: NaiveDate| d.with_day(1).unwrap_or(d);
    let mut month: NaiveDate = ui
        .data(|d| d.get_temp(id))
        .unwrap_or_else(|| first_of(selected));
    let mut picked = None;
    ui.horizontal(|ui| {
        if ui
            .button("<")
            .on_hover_text(tr!("date-prev-month"))
            .clicked()
        {
            month = first_of(month - chrono::Days::new(1));
        }
        ui.label(
            RichText::new(format!(
                "{} {}",
                i18n::month_name(month.month()),
                month.year()
            ))
            .strong(),
        );
        if ui
            .button(">")
            .on_hover_text(tr!("date-next-month"))
            .clicked()
        {
            month = end_of_month(month) + chrono::Days::new(1);
        }
    });
    egui::Grid::new(id.with("grid")).show(ui, |ui| {
        for wd in 1..=7 {
            ui.label(RichText::new(i18n::weekday_short(wd)).weak());
        }
        ui.end_row();
        let lead = month.weekday().num_days_from_monday();
        for _ in 0..lead {
            ui.label("");
        }
        let mut day = month;
        while day.month() == month.month() {
            let text = RichText::new(day.day().to_string());
            let text = if day == today { text.underline() } else { text };
            if ui
                .selectable_label(day == selected, text)
                .on_hover_text(i18n::long_date(day))
                .clicked()
            {
                picked = Some(day);
            }
            if day.weekday() == chrono::Weekday::Sun {
                ui.end_row();
            }
            day = day + chrono::Days::new(1);
        }
    });
    ui.data_mut(|d| d.insert_temp(id, month));
    picked
}
