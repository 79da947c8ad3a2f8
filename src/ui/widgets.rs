//! Small widgets shared by the panels: labelled fields, errors with details, status chips,
//! an invoice's fields.

use crate::api::{ApiError, Invoice, InvoiceStatus};
use crate::tr;
use egui::{Color32, RichText, Ui};

/// Red for errors, readable on light and dark backgrounds.
pub fn error_color(ui: &Ui) -> Color32 {
    ui.visuals().error_fg_color
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
                        .desired_width(320.0),
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
                .desired_width(320.0),
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
    match status {
        InvoiceStatus::Open => tr!("status-open"),
        InvoiceStatus::Paid => tr!("status-paid"),
        InvoiceStatus::Void => tr!("status-void"),
        InvoiceStatus::Unknown => tr!("status-unknown"),
    }
}

/// "Open", "Paid", "Void" in a colour.
pub fn status_chip(ui: &mut Ui, status: InvoiceStatus) {
    let color = match status {
        InvoiceStatus::Open => Color32::from_rgb(0x1f, 0x6f, 0xc5),
        InvoiceStatus::Paid => Color32::from_rgb(0x1e, 0x84, 0x49),
        InvoiceStatus::Void => Color32::from_rgb(0xb0, 0x3a, 0x2e),
        InvoiceStatus::Unknown => Color32::GRAY,
    };
    let text = status_word(status);
    egui::Frame::new()
        .fill(color)
        .corner_radius(4.0)
        .inner_margin(egui::Margin::symmetric(6, 2))
        .show(ui, |ui| {
            ui.label(RichText::new(text).color(Color32::WHITE).strong())
        });
}

/// Every field of an invoice: the headline (amount, status, currency), then all fields,
/// unknown ones included.
pub fn invoice_details(ui: &mut Ui, id_salt: &str, inv: &Invoice) {
    ui.horizontal(|ui| {
        ui.heading(&inv.id);
        status_chip(ui, inv.status());
    });
    ui.horizontal(|ui| {
        let r = ui.label(RichText::new(inv.amount_display()).size(20.0).strong());
        if let Some(code) = &inv.currency_code {
            r.on_hover_text(code.as_str());
        }
        match &inv.currency_code {
            Some(c) => ui.label(tr!("currency-label", code = c)),
            None => ui.label(RichText::new(tr!("currency-missing")).color(error_color(ui))),
        };
    });
    egui::Grid::new(("invoice_fields", id_salt))
        .num_columns(2)
        .striped(true)
        .show(ui, |ui| {
            for (k, v) in inv.fields() {
                ui.label(RichText::new(k).strong());
                ui.add(egui::Label::new(v).wrap());
                ui.end_row();
            }
        });
}
