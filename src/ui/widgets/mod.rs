//! Small widgets shared by the panels: labelled fields, errors with details, status chips,
//! an invoice's fields.

mod date;

pub use date::{date_row, order as date_order, written as date_written};

use crate::api::{ApiError, Invoice, InvoiceStatus};
use crate::text::escape_controls as safe;
use crate::tr;
use egui::{Color32, RichText, Ui};

/// The error red of each theme, chosen for a WCAG AA contrast (at least 4.5:1) on the
/// theme's panel background: egui's pure red is only about 4:1 on the light theme.
pub const ERROR_RED_LIGHT: Color32 = Color32::from_rgb(0xB0, 0x00, 0x20);
/// The dark theme's error red.
pub const ERROR_RED_DARK: Color32 = Color32::from_rgb(0xFF, 0x6B, 0x6B);

/// Status chip backgrounds (white text on them): open, paid, void, unknown.
pub const CHIP_COLORS: [Color32; 4] = [
    Color32::from_rgb(0x1f, 0x6f, 0xc5),
    Color32::from_rgb(0x1e, 0x84, 0x49),
    Color32::from_rgb(0xb0, 0x3a, 0x2e),
    Color32::from_rgb(0x5f, 0x63, 0x68),
];

/// Sets the readable error colour in both themes, and a steady text cursor: a blinking
/// one repaints the whole window twice a second, which costs real CPU on the software
/// rendering of virtual machines and remote desktops.
pub fn install_colors(ctx: &egui::Context) {
    ctx.style_mut_of(egui::Theme::Light, |s| {
        s.visuals.error_fg_color = ERROR_RED_LIGHT;
        s.visuals.text_cursor.blink = false;
    });
    ctx.style_mut_of(egui::Theme::Dark, |s| {
        s.visuals.error_fg_color = ERROR_RED_DARK;
        s.visuals.text_cursor.blink = false;
    });
}

/// How often a busy indicator moves: 4 times a second. egui's spinner repaints every
/// frame, which on software GL keeps a core (or more) busy while the app only waits.
const BUSY_STEP: std::time::Duration = std::time::Duration::from_millis(250);

/// "Working": a small arc that turns a step at a bounded rate (see [`BUSY_STEP`]).
pub fn busy(ui: &mut Ui) {
    let size = ui.text_style_height(&egui::TextStyle::Body);
    let (rect, _) = ui.allocate_exact_size(egui::vec2(size, size), egui::Sense::hover());
    if ui.is_rect_visible(rect) {
        let step = (ui.input(|i| i.time) / BUSY_STEP.as_secs_f64()) as u64 % 8;
        let start = step as f32 * std::f32::consts::TAU / 8.0;
        let radius = rect.height() / 2.0 - 2.0;
        let points: Vec<egui::Pos2> = (0..=12)
            .map(|k| {
                let a = start + k as f32 * (std::f32::consts::TAU * 0.6) / 12.0;
                rect.center() + radius * egui::vec2(a.cos(), a.sin())
            })
            .collect();
        let stroke = egui::Stroke::new(2.0, ui.visuals().strong_text_color());
        ui.painter().add(egui::Shape::line(points, stroke));
        ui.ctx().request_repaint_after(BUSY_STEP);
    }
}

/// WCAG contrast ratio of two colours (1 to 21).
pub fn contrast(a: Color32, b: Color32) -> f32 {
    let lum = |c: Color32| {
        let ch = |v: u8| {
            let v = v as f32 / 255.0;
            if v <= 0.03928 {
                v / 12.92
            } else {
                ((v + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * ch(c.r()) + 0.7152 * ch(c.g()) + 0.0722 * ch(c.b())
    };
    let (x, y) = (lum(a), lum(b));
    (x.max(y) + 0.05) / (x.min(y) + 0.05)
}

/// Red for errors, readable on light and dark backgrounds.
pub fn error_color(ui: &Ui) -> Color32 {
    ui.visuals().error_fg_color
}

/// The dark orange of "overdue": text on light backgrounds, and the chip's background
/// under white text (contrast above 6:1 both ways).
const OVERDUE_DARK: Color32 = Color32::from_rgb(170, 55, 0);

/// The colour of "overdue": a dark orange on light backgrounds, a light one on dark ones
/// (contrast above 6:1 on both), always beside words that say the same.
pub fn overdue_color(ui: &Ui) -> Color32 {
    if ui.visuals().dark_mode {
        Color32::from_rgb(255, 150, 90)
    } else {
        OVERDUE_DARK
    }
}

/// The width of a form's text fields: wider on a wide window (up to 640 points), never
/// below 320, so a form uses a large screen instead of sitting in a corner.
pub fn field_width(ui: &Ui) -> f32 {
    (ui.available_width() - 40.0).clamp(320.0, 640.0)
}

/// A form row in a two-column grid: the label, then a single-line text field named by it.
/// Ends the grid row.
pub fn field_row(
    ui: &mut Ui,
    label: &str,
    value: &mut String,
    hint: &str,
    problem: Option<&str>,
) -> egui::Response {
    let l = ui.label(label);
    let r = ui
        .vertical(|ui| {
            let r = ui
                .add(
                    egui::TextEdit::singleline(value)
                        .hint_text(hint)
                        .desired_width(field_width(ui)),
                )
                .labelled_by(l.id);
            if let Some(p) = problem {
                ui.label(RichText::new(p).color(error_color(ui)));
            }
            r
        })
        .inner;
    ui.end_row();
    r
}

/// A single-line field named by the label `label`; takes the keyboard focus when `focus`
/// is set (a shortcut asked for it), and clears it.
pub fn focus_field(
    ui: &mut Ui,
    label: egui::Id,
    value: &mut String,
    hint: &str,
    width: f32,
    focus: &mut bool,
) -> egui::Response {
    let r = ui
        .add(
            egui::TextEdit::singleline(value)
                .hint_text(hint)
                .desired_width(width),
        )
        .labelled_by(label);
    if std::mem::take(focus) {
        r.request_focus();
    }
    r
}

/// As [`field_row`], for a secret: masked.
pub fn secret_row(ui: &mut Ui, label: &str, value: &mut String, hint: &str) -> egui::Response {
    let l = ui.label(label);
    let r = ui
        .add(
            egui::TextEdit::singleline(value)
                .password(true)
                .hint_text(hint)
                .desired_width(field_width(ui)),
        )
        .labelled_by(l.id);
    ui.end_row();
    r
}

/// An error in words, with a "Details" expander for engineers.
pub fn api_error(ui: &mut Ui, id_salt: &str, err: &ApiError) {
    let r = ui.label(RichText::new(super::i18n::error_text(err)).color(error_color(ui)));
    announce(ui, &r, true);
    egui::CollapsingHeader::new(tr!("details"))
        .id_salt(("details", id_salt))
        .show(ui, |ui| {
            ui.label(RichText::new(err.details()).monospace());
        });
}

/// A plain error sentence.
pub fn error_text(ui: &mut Ui, text: &str) {
    let r = ui.label(RichText::new(text).color(error_color(ui)));
    announce(ui, &r, true);
}

/// Makes a screen reader announce this text when it appears or changes (an AccessKit live
/// region): at once (`urgent`, errors and confirmations) or when idle (results).
pub fn announce(ui: &Ui, r: &egui::Response, urgent: bool) {
    let live = if urgent {
        egui::accesskit::Live::Assertive
    } else {
        egui::accesskit::Live::Polite
    };
    ui.ctx().accesskit_node_builder(r.id, |n| n.set_live(live));
}

/// The status in words.
pub fn status_word(status: InvoiceStatus) -> String {
    super::i18n::status_kind(status.into())
}

/// "Open", "Paid", "Void" in a colour.
pub fn status_chip(ui: &mut Ui, status: InvoiceStatus) {
    let color = match status {
        InvoiceStatus::Open => CHIP_COLORS[0],
        InvoiceStatus::Paid => CHIP_COLORS[1],
        InvoiceStatus::Void => CHIP_COLORS[2],
        InvoiceStatus::Unknown => CHIP_COLORS[3],
    };
    chip(ui, &status_word(status), color);
}

/// White bold text on a coloured rounded background (colours from [`CHIP_COLORS`]).
pub fn chip(ui: &mut Ui, text: &str, color: Color32) -> egui::Response {
    egui::Frame::new()
        .fill(color)
        .corner_radius(4.0)
        .inner_margin(egui::Margin::symmetric(6, 2))
        .show(ui, |ui| {
            ui.label(RichText::new(text).color(Color32::WHITE).strong())
        })
        .inner
}

/// A button for an action that cannot be undone (delete, void): white on red, so it is
/// never mistaken for an ordinary one.
pub fn danger_button(ui: &mut Ui, text: &str) -> egui::Response {
    ui.add(
        egui::Button::new(RichText::new(text).color(Color32::WHITE).strong()).fill(CHIP_COLORS[2]),
    )
}

/// Every field of an invoice: the headline (amount, status, currency), then all fields,
/// unknown ones included.
pub fn invoice_details(ui: &mut Ui, id_salt: &str, inv: &Invoice, today: chrono::NaiveDate) {
    ui.horizontal(|ui| {
        ui.heading(safe(&inv.id));
        match crate::statement::Standing::of(inv, today) {
            // Words and colour: "Overdue · 43 days" on dark orange.
            crate::statement::Standing::Overdue(days) => {
                chip(ui, &tr!("overdue-days", days = days), OVERDUE_DARK)
                    .on_hover_text(tr!("overdue-hint"));
            }
            _ => status_chip(ui, inv.status()),
        }
    });
    ui.horizontal(|ui| {
        let r = ui.label(
            RichText::new(super::i18n::amount_text(inv))
                .size(20.0)
                .strong(),
        );
        if let Some(code) = &inv.currency_code {
            r.on_hover_text(safe(code));
        }
        match &inv.currency_code {
            // A code that is not ISO 4217 is kept as sent, and flagged.
            Some(c) if crate::api::Currency::from_code(c).is_none() => ui.label(
                RichText::new(tr!("currency-not-iso", code = safe(c))).color(error_color(ui)),
            ),
            Some(c) => ui.label(tr!("currency-label", code = safe(c))),
            None => ui.label(RichText::new(tr!("currency-missing")).color(error_color(ui))),
        };
    });
    egui::Grid::new(("invoice_fields", id_salt))
        .num_columns(2)
        .striped(true)
        .show(ui, |ui| {
            // Known fields by their names in the clerk's language; the others as the
            // service named them.
            for (i, f) in crate::api::model::KNOWN_FIELDS.iter().enumerate() {
                let Some(v) = inv.known(i) else { continue };
                ui.label(RichText::new(super::i18n::field_name(f.name)).strong());
                ui.add(egui::Label::new(super::i18n::known_value(inv, f.name, v)).wrap());
                ui.end_row();
            }
            for (k, v) in &inv.extra {
                ui.label(RichText::new(safe(k)).strong());
                ui.add(egui::Label::new(safe(&crate::api::model::value_text(v))).wrap());
                ui.end_row();
            }
        });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_colours_meet_wcag_aa_in_both_themes() {
        let light = egui::Visuals::light();
        let dark = egui::Visuals::dark();
        for bg in [light.panel_fill, light.extreme_bg_color, light.window_fill] {
            assert!(
                contrast(ERROR_RED_LIGHT, bg) >= 4.5,
                "light error red on {bg:?}: {}",
                contrast(ERROR_RED_LIGHT, bg)
            );
        }
        for bg in [dark.panel_fill, dark.extreme_bg_color, dark.window_fill] {
            assert!(
                contrast(ERROR_RED_DARK, bg) >= 4.5,
                "dark error red on {bg:?}: {}",
                contrast(ERROR_RED_DARK, bg)
            );
        }
        for chip in CHIP_COLORS {
            assert!(
                contrast(Color32::WHITE, chip) >= 4.5,
                "white on chip {chip:?}: {}",
                contrast(Color32::WHITE, chip)
            );
        }
        assert!(
            contrast(Color32::from_rgb(255, 0, 0), light.panel_fill) < 4.5,
            "why egui's red was replaced"
        );
        assert!((contrast(Color32::WHITE, Color32::BLACK) - 21.0).abs() < 0.01);
    }
}

/// What the customer directory found for a text typed in a customer field.
#[derive(Clone, Debug, Default)]
pub struct Suggestions {
    /// The text they are for.
    pub asked: String,
    /// The customers found (named ones first).
    pub found: Vec<crate::journal::Customer>,
}

/// Under a customer field: the directory's customers whose name, RUT or id contain what
/// was typed (click one to put its id in the field), or the name of the id typed.
pub fn customer_suggestions(
    ui: &mut Ui,
    value: &mut String,
    suggestions: &Suggestions,
    commands: &mut Vec<super::command::Command>,
) {
    let typed = value.trim().to_string();
    if typed.chars().count() < 2 {
        return;
    }
    if suggestions.asked != typed {
        commands.push(super::command::Command::SuggestCustomers(typed));
        return;
    }
    if let Some(exact) = suggestions.found.iter().find(|c| c.id == typed) {
        if let Some(name) = &exact.name {
            ui.label(format!("= {}", crate::text::escape_controls(name)));
        }
        return;
    }
    for c in suggestions.found.iter().take(5) {
        let line = crate::text::escape_controls(&c.line()).into_owned();
        if ui
            .add(egui::Button::new(line).small().frame(false))
            .on_hover_text(crate::tr!("dir-pick"))
            .clicked()
        {
            *value = c.id.clone();
        }
    }
}
