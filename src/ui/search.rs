//! The search box in the tab row (Ctrl/Cmd+F): what is typed is searched as it is
//! typed (`Command::Search(SearchCommand::Search)`), the answer drops down below it — customers, invoices with
//! their customer, amount, status, due day and where and when they were seen, and for an
//! id nothing here knows, a line that asks the service (Lookup) — ↑ ↓ choose, Enter
//! opens, Esc closes. It draws and pushes commands; the app does the searching.

use super::command::Command;
use crate::search::{Answer, could_be_id};
use crate::tr;
use crate::ui::command::{CustomersCommand, LookupCommand, SearchCommand};
use egui::{Key, Modifiers, Ui};

/// What a line of the answer opens.
#[derive(Clone, Debug, PartialEq)]
enum Pick {
    /// An invoice, in Lookup.
    Invoice(String),
    /// A customer, in Customer invoices.
    Customer(String),
}

/// The box's state.
#[derive(Default)]
pub struct SearchBox {
    /// What is typed.
    pub text: String,
    answer: Option<Answer>,
    error: Option<String>,
    /// The line chosen with the arrows.
    selected: usize,
    /// The answer is shown (closed by Esc, a pick, or a click elsewhere).
    open: bool,
    /// Put the keyboard focus in the box on the next frame.
    focus: bool,
    /// The arrows moved the choice this frame: its line is scrolled into view.
    moved: bool,
    /// The profile whose service was searched (the answer says so).
    profile: String,
}

/// The box's id (tests and the focus).
pub const ID: &str = "search_box";

/// The narrowest the box is drawn (its hint's start stays readable).
pub const MIN_WIDTH: f32 = 180.0;

impl SearchBox {
    /// Puts the keyboard in the box (Ctrl/Cmd+F), its text selected to be typed over.
    pub fn focus(&mut self) {
        self.focus = true;
        self.open = true;
    }

    /// What a search found (or why it could not): shown when it is for what is typed now.
    /// `profile`: whose service's invoices were searched.
    pub fn answered(&mut self, result: Result<Answer, String>, profile: String) {
        self.profile = profile;
        match result {
            Ok(a) if a.text == self.asked() => {
                self.answer = Some(a);
                self.error = None;
                self.selected = 0;
            }
            Ok(_) => {}
            Err(e) => self.error = Some(e),
        }
    }

    /// What is typed, as searched.
    fn asked(&self) -> String {
        self.text
            .trim()
            .chars()
            .take(crate::search::MAX_QUERY)
            .collect()
    }

    /// What each line opens, in the order shown.
    fn picks(&self) -> Vec<Pick> {
        let Some(a) = &self.answer else {
            return Vec::new();
        };
        let mut picks: Vec<Pick> = a
            .invoices
            .iter()
            .map(|h| Pick::Invoice(h.id.clone()))
            .collect();
        picks.extend(a.customers.iter().map(|c| Pick::Customer(c.id.clone())));
        if a.ask_service {
            picks.push(Pick::Invoice(a.text.clone()));
        }
        picks
    }

    fn open_pick(&mut self, pick: Pick, commands: &mut Vec<Command>) {
        self.open = false;
        commands.push(match pick {
            Pick::Invoice(id) => Command::Lookup(LookupCommand::OpenInLookup {
                id,
                from_list: false,
            }),
            Pick::Customer(id) => Command::Customers(CustomersCommand::OpenCustomer(id)),
        });
    }

    /// Draws the box, and its answer below it while open.
    pub fn show(&mut self, ui: &mut Ui, today: chrono::NaiveDate, commands: &mut Vec<Command>) {
        let width = ui.available_width().clamp(MIN_WIDTH, 280.0);
        let field = ui.add(
            egui::TextEdit::singleline(&mut self.text)
                .id(egui::Id::unique(ID))
                .hint_text(tr!("search-hint"))
                .desired_width(width),
        );
        let field = field.on_hover_text(tr!("search-hint-long"));
        if std::mem::take(&mut self.focus) {
            field.request_focus();
            // What was searched before is selected: typing replaces it.
            if let Some(mut state) = egui::TextEdit::load_state(ui.ctx(), field.id) {
                state.cursor.set_char_range(Some(
                    egui::text_selection::CCursorRange::select_all_str(&self.text),
                ));
                state.store(ui.ctx(), field.id);
            }
        }
        if field.changed() {
            self.open = true;
            commands.push(Command::Search(SearchCommand::Search(self.asked())));
        }
        let typing = field.has_focus();
        if typing {
            self.open = true;
            let count = self.picks().len();
            if ui.input_mut(|i| i.consume_key(Modifiers::NONE, Key::ArrowDown)) && count > 0 {
                self.selected = (self.selected + 1).min(count - 1);
                self.moved = true;
            }
            if ui.input_mut(|i| i.consume_key(Modifiers::NONE, Key::ArrowUp)) {
                self.selected = self.selected.saturating_sub(1);
                self.moved = true;
            }
        }
        if field.lost_focus() && ui.input(|i| i.key_pressed(Key::Escape)) {
            self.open = false;
        }
        // The keyboard moved on (Tab): the answer no longer covers the form (#68). A
        // pointer press is the popup's to take (a line clicked) or closes it below.
        if field.lost_focus() && !ui.input(|i| i.key_pressed(Key::Enter) || i.pointer.any_pressed())
        {
            self.open = false;
        }
        if field.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter)) {
            let picks = self.picks();
            let current = self.answer.as_ref().is_some_and(|a| a.text == self.asked());
            if current && let Some(p) = picks.get(self.selected).cloned() {
                self.open_pick(p, commands);
            } else if could_be_id(&self.asked()) {
                // Not answered yet (or nothing here): an id goes to Lookup, which asks
                // the service.
                let id = self.asked();
                self.open_pick(Pick::Invoice(id), commands);
            }
        }
        if self.open && !self.asked().is_empty() {
            self.answer_below(ui, &field, typing, today, commands);
        }
        self.moved = false;
    }

    fn answer_below(
        &mut self,
        ui: &mut Ui,
        field: &egui::Response,
        typing: bool,
        today: chrono::NaiveDate,
        commands: &mut Vec<Command>,
    ) {
        let screen = ui.ctx().content_rect();
        let width = (screen.width() - 16.0).min(620.0);
        let left = (field.rect.right() - width).max(screen.left() + 8.0);
        let area = egui::Area::new(egui::Id::unique("search_answer"))
            .order(egui::Order::Foreground)
            .fixed_pos(egui::pos2(left, field.rect.bottom() + 4.0))
            .show(ui.ctx(), |ui| {
                egui::Frame::popup(ui.style()).show(ui, |ui| {
                    ui.set_width(width - 16.0);
                    let mut picked = None;
                    self.lines(ui, today, &mut picked);
                    if let Some(p) = picked {
                        self.open_pick(p, commands);
                    }
                });
            });
        // A click anywhere else closes it (the box keeps what was typed).
        let clicked_elsewhere = ui.input(|i| {
            i.pointer.any_pressed()
                && i.pointer
                    .interact_pos()
                    .is_some_and(|p| !area.response.rect.contains(p) && !field.rect.contains(p))
        });
        if clicked_elsewhere && !typing {
            self.open = false;
        }
    }

    fn lines(&self, ui: &mut Ui, today: chrono::NaiveDate, picked: &mut Option<Pick>) {
        let asked = self.asked();
        if let Some(e) = &self.error {
            ui.colored_label(ui.visuals().error_fg_color, e);
            return;
        }
        let Some(a) = self.answer.as_ref().filter(|a| a.text == asked) else {
            ui.label(tr!("search-searching"));
            return;
        };
        let picks = self.picks();
        if picks.is_empty() {
            ui.label(tr!(
                "search-none",
                text = crate::text::escape_controls(&a.text),
                profile = crate::text::escape_controls(&self.profile)
            ));
            return;
        }
        // How much was found, first: the list below may hold more than the window shows.
        let found = ui.label(
            egui::RichText::new(tr!(
                "search-found",
                invoices = a.invoices.len(),
                customers = a.customers.len()
            ))
            .strong(),
        );
        crate::ui::widgets::announce(ui, &found, false);
        let line_height = ui.text_style_height(&egui::TextStyle::Body) * 2.6;
        let shown = (ui.ctx().content_rect().height() * 0.6).max(line_height * 3.0);
        let list = egui::ScrollArea::vertical()
            .max_height(shown)
            .auto_shrink([false, true])
            .show(ui, |ui| {
                let mut n = 0;
                for hit in &a.invoices {
                    let first = format!(
                        "{} · {} · {}",
                        crate::i18n::search_customer(hit),
                        crate::i18n::search_amount(hit),
                        crate::i18n::search_status(hit, today)
                    );
                    let mut second = vec![crate::text::escape_controls(&hit.id).into_owned()];
                    if let Some(r) = &hit.reference {
                        second.push(crate::text::escape_controls(r).into_owned());
                    }
                    let due = crate::i18n::search_due(hit);
                    if !due.is_empty() {
                        second.push(due);
                    }
                    second.push(crate::i18n::search_source(hit));
                    self.line(ui, n, &first, &second.join(" · "), &picks, picked);
                    n += 1;
                }
                for c in &a.customers {
                    let first = tr!(
                        "search-customer",
                        name = crate::text::escape_controls(c.name.as_deref().unwrap_or(&c.id))
                    );
                    let second = crate::text::escape_controls(&c.line()).into_owned();
                    self.line(ui, n, &first, &second, &picks, picked);
                    n += 1;
                }
                if a.ask_service {
                    let first = tr!(
                        "search-ask-service",
                        text = crate::text::escape_controls(&a.text)
                    );
                    self.line(ui, n, &first, "", &picks, picked);
                }
            });
        if list.content_size.y > list.inner_rect.height() + 1.0 {
            // Not all in sight: say that the list scrolls.
            ui.weak(tr!("search-scrolls"));
        }
        if a.more {
            ui.weak(tr!("search-more"));
        }
        ui.weak(tr!("search-help"));
    }

    fn line(
        &self,
        ui: &mut Ui,
        n: usize,
        first: &str,
        second: &str,
        picks: &[Pick],
        picked: &mut Option<Pick>,
    ) {
        let mut job = egui::text::LayoutJob::default();
        let body = egui::TextStyle::Body.resolve(ui.style());
        let small = egui::TextStyle::Small.resolve(ui.style());
        job.append(
            first,
            0.0,
            egui::TextFormat::simple(body, ui.visuals().strong_text_color()),
        );
        if !second.is_empty() {
            job.append(
                &format!("\n{second}"),
                0.0,
                // Readable on the chosen line's colour too (a weak grey is not).
                egui::TextFormat::simple(small, ui.visuals().text_color()),
            );
        }
        let selected = n == self.selected;
        let row = ui.add(egui::Button::selectable(selected, job).wrap());
        if selected && self.moved {
            row.scroll_to_me(None);
        }
        if row.clicked() {
            *picked = picks.get(n).cloned();
        }
    }
}
