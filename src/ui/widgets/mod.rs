//! Small widgets shared by the panels: labelled fields, errors with details, status chips,
//! an invoice's fields.

mod date;
mod grid;

pub use date::{date_row, order as date_order, written as date_written};

use crate::api::{ApiError, Invoice, InvoiceStatus};
use crate::text::escape_controls as safe;
use crate::tr;
use egui::{Color32, RichText, Ui};
pub use grid::{Grid, GridRow, grid};

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

/// Sets the readable error colour in both themes, a steady text cursor and no
/// animations: a blinking cursor repaints the whole window twice a second, and an
/// animation (a scroll bar fading in or out, a section opening) every frame while it
/// lasts, which costs real CPU on the software rendering of virtual machines and remote
/// desktops. Three 100,000-invoice listings drew 28–32 frames with animations and 11
/// without: the panel's scroll bar faded out when Enter cleared the table and in as it
/// filled, while the listing needed that CPU.
pub fn install_colors(ctx: &egui::Context) {
    for (theme, red) in [
        (egui::Theme::Light, ERROR_RED_LIGHT),
        (egui::Theme::Dark, ERROR_RED_DARK),
    ] {
        ctx.style_mut_of(theme, |s| {
            s.visuals.error_fg_color = red;
            s.visuals.text_cursor.blink = false;
            s.animation_time = 0.0;
        });
    }
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
    let r = ui.label(RichText::new(crate::i18n::error_text(err)).color(error_color(ui)));
    announce(ui, &r, true);
    egui::CollapsingHeader::new(tr!("details"))
        .id_salt(("details", id_salt))
        .show(ui, |ui| {
            ui.label(RichText::new(crate::i18n::error_details(err)).monospace());
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

/// What came of a panel's last action: a sentence, announced to screen readers, or a
/// failure in the error colour.
pub fn outcome(ui: &mut Ui, note: Option<&Result<String, String>>) {
    match note {
        Some(Ok(m)) => {
            let r = ui.label(m);
            announce(ui, &r, false);
        }
        Some(Err(m)) => error_text(ui, m),
        None => {}
    }
}

/// The status in words.
pub fn status_word(status: InvoiceStatus) -> String {
    crate::i18n::status_kind(status.into())
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

/// Today's UF value as the panels show it beside UF amounts: the value and where it
/// came from, or why there is none (UF amounts are then shown alone).
#[derive(Clone, Debug, Default)]
pub struct UfShown {
    /// The day's value, where it came from and who stored it.
    pub value: Option<crate::uf::UfFound>,
    /// Why there is no value, in words (`None` while it is being read).
    pub missing: Option<String>,
}

impl UfShown {
    /// The day's value, if there is one.
    pub fn day(&self) -> Option<&crate::uf::UfDay> {
        self.value.as_ref().map(|f| &f.uf)
    }

    /// Under a UF amount: its pesos on the day ("≈ $919.454 al 26-11-2026"), or why
    /// there are none, in a quieter line.
    pub fn pesos_line(&self, ui: &mut Ui, amount: rust_decimal::Decimal) {
        match (self.day(), &self.missing) {
            (Some(day), _) => {
                ui.label(crate::i18n::uf_pesos(amount, Some(day)));
            }
            (None, Some(why)) => {
                ui.label(RichText::new(why).weak().small());
            }
            (None, None) => {}
        }
    }
}

/// One choice in a drop-down list ([`egui::ComboBox`]). Picked by keyboard (Enter or
/// Space) as by pointer, it closes the list: egui closes one on a pointer click only, and
/// a list left open after Enter hid the form below it.
pub fn choice<V: PartialEq>(
    ui: &mut Ui,
    current: &mut V,
    value: V,
    text: impl Into<egui::WidgetText>,
) -> egui::Response {
    let selected = *current == value;
    let r = ui.selectable_value(current, value, text);
    // A list opens on its current choice, as a list does (#68): the keyboard's Down
    // then moves to the next one, not to the first of the list.
    if selected && !focus_in(ui) {
        r.request_focus();
    }
    if r.clicked() {
        ui.close();
    }
    r
}

/// Whether the keyboard's focus is on a widget of `ui`'s layer (a list just opened has
/// it still on its button).
fn focus_in(ui: &Ui) -> bool {
    ui.ctx()
        .memory(|m| m.focused())
        .and_then(|f| ui.ctx().read_response(f))
        .is_some_and(|f| f.layer_id == ui.layer_id())
}

/// [`choice`] for a list whose pick is acted on by the caller (`clicked()`).
pub fn choice_label(
    ui: &mut Ui,
    selected: bool,
    text: impl Into<egui::WidgetText>,
) -> egui::Response {
    let r = ui.selectable_label(selected, text);
    if r.clicked() {
        ui.close();
    }
    r
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
/// The customer directory's names of the ids the app has shown, looked up as they appear
/// (an id the directory does not name is remembered as such).
#[derive(Clone, Debug, Default)]
pub struct Names {
    known: std::collections::HashMap<String, Option<String>>,
}

impl Names {
    /// The name of `id`, when the directory has one.
    pub fn get(&self, id: &str) -> Option<&str> {
        self.known.get(id).and_then(|n| n.as_deref())
    }

    /// `id` as a clerk reads it: "Comercial Ñuñoa Ltda. (cus_k3a…)", or the id alone.
    pub fn label(&self, id: &str) -> String {
        match self.get(id) {
            Some(name) => format!("{} ({})", safe(name), safe(id)),
            None => safe(id).into_owned(),
        }
    }

    /// Of `ids`, those not looked up yet.
    pub fn missing<'a>(&self, ids: impl IntoIterator<Item = &'a str>) -> Vec<String> {
        let mut out: Vec<String> = ids
            .into_iter()
            .filter(|id| !id.is_empty() && !self.known.contains_key(*id))
            .map(str::to_string)
            .collect();
        out.sort();
        out.dedup();
        out
    }

    /// What the directory said of `asked`: the names found; the others have none.
    pub fn learn(&mut self, asked: &[String], found: std::collections::HashMap<String, String>) {
        for id in asked {
            self.known.insert(id.clone(), found.get(id).cloned());
        }
    }

    /// Forgets every name (the directory changed).
    pub fn clear(&mut self) {
        self.known.clear();
    }
}

/// Every field of an invoice: known ones by name in the clerk's language (the customer by
/// its name from the directory, metadata as "key: value" lines, the creation time local),
/// the others as the service named them.
pub fn invoice_details(
    ui: &mut Ui,
    id_salt: &str,
    inv: &Invoice,
    today: chrono::NaiveDate,
    names: &Names,
    uf: &UfShown,
) {
    ui.horizontal(|ui| {
        ui.heading(safe(&inv.id));
        match crate::receivables::aging::Standing::of(inv, today) {
            // Words and colour: "Overdue · 43 days" on dark orange.
            crate::receivables::aging::Standing::Overdue(days) => {
                chip(ui, &tr!("overdue-days", days = days), OVERDUE_DARK)
                    .on_hover_text(tr!("overdue-hint"));
            }
            _ => status_chip(ui, inv.status()),
        }
    });
    ui.horizontal(|ui| {
        let r = ui.label(
            RichText::new(crate::i18n::amount_text(inv))
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
            // "UF" as a clerk says it, not "CLF"; "Pesos (CLP)"; another by its code.
            Some(c) => match crate::i18n::currency_said(c) {
                name if name != *c => ui.label(name),
                _ => ui.label(tr!("currency-label", code = safe(c))),
            },
            None => ui.label(RichText::new(tr!("currency-missing")).color(error_color(ui))),
        };
    });
    // A UF invoice's pesos on today's value, its day said (never stored, never sent).
    if inv.currency_code.as_deref() == Some("CLF")
        && let Some(amount) = inv.amount
    {
        uf.pesos_line(ui, amount);
    }
    egui::Grid::new(("invoice_fields", id_salt))
        .num_columns(2)
        .striped(true)
        .show(ui, |ui| {
            // Known fields by their names in the clerk's language; the others as the
            // service named them.
            for (i, f) in crate::api::model::KNOWN_FIELDS.iter().enumerate() {
                let Some(v) = inv.known(i) else { continue };
                ui.label(RichText::new(crate::i18n::field_name(f.name)).strong());
                let text = match (f.name, &v) {
                    ("customer", crate::api::model::Known::Text(id)) => names.label(id),
                    ("metadata", crate::api::model::Known::Json(j)) => key_value_lines(j),
                    // "UF", as a clerk says it (#68).
                    ("currency_code", crate::api::model::Known::Text(c)) => {
                        crate::i18n::currency_said(c)
                    }
                    _ => crate::i18n::known_value(inv, f.name, v),
                };
                ui.add(egui::Label::new(text).wrap());
                ui.end_row();
            }
            for (k, v) in &inv.extra {
                if k == "created_at"
                    && let Some(t) = v.as_str()
                    && chrono::DateTime::parse_from_rfc3339(t).is_ok()
                {
                    ui.label(RichText::new(tr!("field-created-at")).strong());
                    ui.label(crate::i18n::moment(t));
                    ui.end_row();
                    continue;
                }
                ui.label(RichText::new(safe(k)).strong());
                ui.add(egui::Label::new(safe(&crate::api::model::value_text(v))).wrap());
                ui.end_row();
            }
        });
}

/// A JSON object as "key: value" lines (texts without quotes); anything else as JSON.
fn key_value_lines(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::Object(m) if !m.is_empty() => m
            .iter()
            .map(|(k, v)| {
                let v = match v {
                    serde_json::Value::String(s) => s.clone(),
                    other => crate::api::model::value_text(other),
                };
                format!("{}: {}", safe(k), safe(&v))
            })
            .collect::<Vec<_>>()
            .join("\n"),
        serde_json::Value::Object(_) => "—".into(),
        other => safe(&crate::api::model::value_text(other)).into_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Nothing in either theme repaints on its own: no blinking cursor, no animation
    /// (see [`install_colors`]).
    #[test]
    fn neither_theme_animates() {
        let ctx = egui::Context::default();
        install_colors(&ctx);
        for theme in [egui::Theme::Light, egui::Theme::Dark] {
            let style = ctx.style_of(theme);
            assert_eq!(style.animation_time, 0.0, "{theme:?}");
            assert!(!style.visuals.text_cursor.blink, "{theme:?}");
        }
    }

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

    #[test]
    fn a_typed_customer_is_the_one_it_names_or_nobody() {
        let customer = |id: &str, name: &str, rut: Option<&str>| crate::journal::Customer {
            id: id.into(),
            name: Some(name.into()),
            rut: rut.map(Into::into),
            notes: None,
            emails: Vec::new(),
        };
        let found = |asked: &str, found: Vec<crate::journal::Customer>| Suggestions {
            asked: asked.into(),
            found,
            unread: None,
        };
        let nunoa = customer("cus_1", "Comercial Ñuñoa Ltda.", Some("76.086.428-5"));
        let falabella = customer("cus_2", "Falabella", None);
        // An id is sent as typed, with its name when the directory has one.
        assert_eq!(
            pick_customer("cus_1", &found("cus_1", vec![nunoa.clone()])),
            CustomerPick::Id("cus_1".into(), Some("Comercial Ñuñoa Ltda.".into()))
        );
        // A name without accents, a one-word name, a RUT: the one customer named.
        for (typed, want) in [
            ("comercial nunoa ltda.", "cus_1"),
            ("Falabella", "cus_2"),
            ("76086428-5", "cus_1"),
        ] {
            let pick = pick_customer(typed, &found(typed, vec![nunoa.clone(), falabella.clone()]));
            assert!(
                matches!(&pick, CustomerPick::Found(id, _) if id == want),
                "{typed}: {pick:?}"
            );
        }
        // Nobody, or two: not sent.
        assert_eq!(
            pick_customer("Nadie Conocido", &found("Nadie Conocido", vec![])),
            CustomerPick::NotFound("Nadie Conocido".into())
        );
        let two = pick_customer(
            "Comercial",
            &found(
                "Comercial",
                vec![nunoa.clone(), customer("cus_3", "Comercial Sur", None)],
            ),
        );
        assert!(
            matches!(two, CustomerPick::Ambiguous(ref l) if l.len() == 2),
            "{two:?}"
        );
        // Not looked up yet: waits.
        assert_eq!(
            pick_customer("Comercial Nunoa", &Suggestions::default()),
            CustomerPick::Looking
        );
        // The directory out of reach (#68): a word or a name is not sent as an id, and
        // says why; what has an id's shape is.
        let unread = |asked: &str| Suggestions {
            asked: asked.into(),
            found: Vec::new(),
            unread: Some("El registro no responde.".into()),
        };
        for typed in ["nunoa", "Comercial Nunoa"] {
            assert_eq!(
                pick_customer(typed, &unread(typed)),
                CustomerPick::Unread("El registro no responde.".into()),
                "{typed}"
            );
        }
        assert_eq!(
            pick_customer("cus_1", &unread("cus_1")),
            CustomerPick::Id("cus_1".into(), None)
        );
    }
}

/// What the customer directory found for a text typed in a customer field.
#[derive(Clone, Debug, Default)]
pub struct Suggestions {
    /// The text they are for.
    pub asked: String,
    /// The customers found (named ones first).
    pub found: Vec<crate::journal::Customer>,
    /// The directory could not be read for it (the journal out of reach): why.
    pub unread: Option<String>,
}

/// What the text of a customer field names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CustomerPick {
    /// Nothing typed.
    Empty,
    /// An id as typed (the directory may know its name).
    Id(String, Option<String>),
    /// A name or RUT the directory resolves to one customer: its id and how it reads.
    Found(String, String),
    /// The directory is being asked about the text.
    Looking,
    /// No customer of the directory is named so: an id cannot hold spaces.
    NotFound(String),
    /// Several customers match: the first few, as they read.
    Ambiguous(Vec<String>),
    /// A word that may be a name, and the directory could not be read to tell (why):
    /// not sent as an id (#68: "nunoa" was, while the database was down).
    Unread(String),
}

impl CustomerPick {
    /// The id to send, when there is one.
    pub fn id(&self) -> Option<&str> {
        match self {
            CustomerPick::Id(id, _) | CustomerPick::Found(id, _) => Some(id),
            _ => None,
        }
    }
}

/// What `typed` names, by what the directory found for it: an id as written (no spaces,
/// not a RUT); else the one customer whose name or RUT is exactly it, or — when the search
/// found only one — that one; else not found, or several to choose from.
pub fn pick_customer(typed: &str, suggestions: &Suggestions) -> CustomerPick {
    let typed = typed.trim();
    if typed.is_empty() {
        return CustomerPick::Empty;
    }
    let looked_up = suggestions.asked == typed;
    let rut = crate::rut::Rut::parse(typed).ok().map(|r| r.to_string());
    let id_like = !typed.contains(char::is_whitespace) && rut.is_none();
    let read = |c: &crate::journal::Customer| crate::text::escape_controls(&c.line()).into_owned();
    if id_like {
        let found = suggestions.found.iter().filter(|_| looked_up);
        if let Some(c) = found.clone().find(|c| c.id == typed) {
            return CustomerPick::Id(typed.to_string(), c.name.clone());
        }
        // A one-word name ("Falabella") is the customer it names, not an id, when the
        // directory names exactly one customer so.
        let wanted = crate::journal::fold(typed);
        let named: Vec<_> = found
            .filter(|c| {
                c.name
                    .as_deref()
                    .is_some_and(|n| crate::journal::fold(n) == wanted)
            })
            .collect();
        if let [one] = named.as_slice() {
            return CustomerPick::Found(one.id.clone(), read(one));
        }
        // A plain word (no digit, no "_", as ids have) that only names customers is a
        // name to choose from, not an id to send.
        let word = !typed.contains(|c: char| c == '_' || c.is_ascii_digit());
        if let Some(why) = suggestions.unread.as_ref().filter(|_| looked_up && word) {
            return CustomerPick::Unread(why.clone());
        }
        let names_some = suggestions.found.iter().filter(|_| looked_up).any(|c| {
            c.name
                .as_deref()
                .is_some_and(|n| crate::journal::fold(n).contains(&wanted))
        });
        if !(word && names_some) {
            return CustomerPick::Id(typed.to_string(), None);
        }
    }
    if !looked_up {
        return CustomerPick::Looking;
    }
    if let Some(why) = &suggestions.unread {
        return CustomerPick::Unread(why.clone());
    }
    let wanted = crate::journal::fold(typed);
    let exact: Vec<&crate::journal::Customer> = suggestions
        .found
        .iter()
        .filter(|c| {
            c.name
                .as_deref()
                .is_some_and(|n| crate::journal::fold(n) == wanted)
                || (rut.is_some() && c.rut == rut)
        })
        .collect();
    match (exact.as_slice(), suggestions.found.as_slice()) {
        ([one], _) => CustomerPick::Found(one.id.clone(), read(one)),
        ([], [one]) => CustomerPick::Found(one.id.clone(), read(one)),
        ([], []) => CustomerPick::NotFound(typed.to_string()),
        (many, _) if !many.is_empty() => {
            CustomerPick::Ambiguous(many.iter().take(3).map(|c| read(c)).collect())
        }
        (_, found) => CustomerPick::Ambiguous(found.iter().take(3).map(read).collect()),
    }
}

/// The directory's customers whose name, RUT or id contain what was typed in `field`,
/// in a list that opens over the form under the field (nothing moves): Down and Up choose,
/// Enter or Tab take the one chosen, a click takes one, Esc closes it.
pub fn customer_suggestions(
    ui: &mut Ui,
    field: &egui::Response,
    value: &mut String,
    suggestions: &Suggestions,
    commands: &mut Vec<super::command::Command>,
) {
    let typed = value.trim().to_string();
    if typed.chars().count() < 2 {
        return;
    }
    if suggestions.asked != typed {
        commands.push(super::command::Command::Customers(
            super::command::CustomersCommand::SuggestCustomers(typed),
        ));
        return;
    }
    let offered: Vec<&crate::journal::Customer> = suggestions
        .found
        .iter()
        .filter(|c| c.id != typed)
        .take(5)
        .collect();
    let state_id = field.id.with("suggestion");
    let closed_id = field.id.with("suggestions_closed");
    if field.changed() {
        ui.data_mut(|d| {
            d.remove::<usize>(state_id);
            d.remove::<String>(closed_id);
        });
    }
    let closed = ui.data(|d| d.get_temp::<String>(closed_id)) == Some(typed.clone());
    // Enter and Tab take the focus from the field in the same frame they are pressed:
    // the list still answers them.
    let focused = field.has_focus() || field.lost_focus();
    if offered.is_empty() || !focused || closed {
        return;
    }
    let mut chosen: Option<usize> = ui.data(|d| d.get_temp(state_id));
    let (down, up, enter, tab, escape) = ui.input_mut(|i| {
        (
            i.consume_key(egui::Modifiers::NONE, egui::Key::ArrowDown),
            i.consume_key(egui::Modifiers::NONE, egui::Key::ArrowUp),
            chosen.is_some() && i.consume_key(egui::Modifiers::NONE, egui::Key::Enter),
            chosen.is_some() && i.consume_key(egui::Modifiers::NONE, egui::Key::Tab),
            i.consume_key(egui::Modifiers::NONE, egui::Key::Escape),
        )
    });
    let take = enter || tab;
    // Enter took the focus from the field, to no one: it stays in the field (the next
    // Tab goes on from there, not from the top of the window).
    if enter {
        field.request_focus();
    }
    if escape {
        ui.data_mut(|d| d.insert_temp(closed_id, typed));
        return;
    }
    if down {
        chosen = Some(chosen.map_or(0, |c| (c + 1).min(offered.len() - 1)));
    }
    if up {
        chosen = chosen.and_then(|c| c.checked_sub(1));
    }
    let mut picked = None;
    if take {
        picked = chosen.and_then(|c| offered.get(c)).map(|c| c.id.clone());
    }
    egui::Area::new(field.id.with("suggestions_popup"))
        .order(egui::Order::Foreground)
        .fixed_pos(field.rect.left_bottom() + egui::vec2(0.0, 2.0))
        .show(ui.ctx(), |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                for (i, c) in offered.iter().enumerate() {
                    let line = crate::text::escape_controls(&c.line()).into_owned();
                    let r = ui
                        .add(egui::Button::selectable(chosen == Some(i), line).small())
                        .on_hover_text(crate::tr!("dir-pick"));
                    if r.clicked() {
                        picked = Some(c.id.clone());
                    }
                }
            });
        });
    match picked {
        Some(id) => {
            *value = id;
            ui.data_mut(|d| d.remove::<usize>(state_id));
        }
        None => ui.data_mut(|d| match chosen {
            Some(c) => {
                d.insert_temp(state_id, c);
            }
            None => d.remove::<usize>(state_id),
        }),
    }
}

/// The line under a customer field: what the text reads as, or why it cannot be sent; a
/// blank line when there is nothing to say, so the form never moves.
pub fn customer_reading(ui: &mut Ui, pick: &CustomerPick, problem: Option<&str>) {
    let text = match (problem, pick) {
        (Some(p), _) => {
            error_text(ui, p);
            return;
        }
        (None, CustomerPick::Id(_, Some(name))) => {
            format!("= {}", crate::text::escape_controls(name))
        }
        (None, CustomerPick::Found(_, read)) => format!("= {read}"),
        (None, CustomerPick::Looking) => crate::tr!("cust-looking"),
        (None, CustomerPick::NotFound(t)) => {
            error_text(
                ui,
                &crate::tr!("cust-not-found", text = crate::text::escape_controls(t)),
            );
            return;
        }
        (None, CustomerPick::Unread(why)) => {
            error_text(ui, &crate::tr!("cust-unread", why = why.clone()));
            return;
        }
        (None, CustomerPick::Ambiguous(lines)) => {
            error_text(
                ui,
                &crate::tr!("cust-did-you-mean", names = lines.join(" / ")),
            );
            return;
        }
        _ => " ".to_string(),
    };
    ui.label(text);
}

/// The height a table's body keeps at least however little room is left (the panel
/// scrolls to it): ten rows and a little, so ten rows are always there to read.
fn table_min_height(ui: &egui::Ui, row_height: f32) -> f32 {
    (row_height + ui.spacing().item_spacing.y) * 10.5
}

/// A table as the app's tables are: striped, cells centred vertically, at least ten rows
/// tall ([`table_min_height`]) and as tall as the room left.
pub fn table(ui: &mut Ui, row_height: f32) -> egui_extras::TableBuilder<'_> {
    let min_height = table_min_height(ui, row_height);
    egui_extras::TableBuilder::new(ui)
        .striped(true)
        .min_scrolled_height(min_height)
        .max_scroll_height(f32::INFINITY)
        .cell_layout(egui::Layout::left_to_right(egui::Align::Center))
}
