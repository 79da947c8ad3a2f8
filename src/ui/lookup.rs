//! Lookup and void: every field of an invoice, its status and currency; void after a
//! confirmation that shows what will be voided; a lost answer is re-checked by reading.

use super::app::Session;
use super::task::{Task, take_finished};
use super::widgets;
use crate::api::{ApiError, Invoice, InvoiceStatus};
use crate::text::escape_controls as safe;
use crate::tr;
use egui::{RichText, Ui};
use std::sync::Arc;

/// The panel's state.
pub struct LookupPanel {
    /// The id typed (saved).
    pub id: String,
    /// Put the keyboard focus in the id field on the next frame (Ctrl/Cmd+F).
    pub focus_request: bool,
    /// Look up on the next frame (Ctrl/Cmd+Enter).
    pub submit_request: bool,
    fetch: Option<Task<Result<Invoice, ApiError>>>,
    invoice: Option<Invoice>,
    error: Option<ApiError>,
    confirm: bool,
    void_task: Option<Task<Result<Invoice, ApiError>>>,
    /// The id whose void has an unknown outcome.
    void_unknown: Option<String>,
    /// Reading the invoice to learn whether a lost void went through.
    rechecking: bool,
    notice: Option<String>,
}

impl LookupPanel {
    /// A panel with a restored id.
    pub fn new(id: String) -> Self {
        LookupPanel {
            id,
            focus_request: false,
            submit_request: false,
            fetch: None,
            invoice: None,
            error: None,
            confirm: false,
            void_task: None,
            void_unknown: None,
            rechecking: false,
            notice: None,
        }
    }

    /// Shows the invoice `id` (from the customer list or after creating).
    pub fn open(
        &mut self,
        id: String,
        session: Option<Arc<Session>>,
        rt: &tokio::runtime::Handle,
        ctx: &egui::Context,
    ) {
        self.id = id;
        self.start_fetch(session, rt, ctx);
    }

    fn start_fetch(
        &mut self,
        session: Option<Arc<Session>>,
        rt: &tokio::runtime::Handle,
        ctx: &egui::Context,
    ) {
        let Some(s) = session else {
            self.error = Some(ApiError::invalid(tr!("connect-first")));
            return;
        };
        if let Some(old) = self.fetch.take() {
            old.cancel();
        }
        self.error = None;
        self.notice = None;
        let id = self.id.trim().to_string();
        self.fetch = Some(Task::spawn(rt, ctx, async move {
            s.client.get_invoice(&id).await
        }));
    }

    fn poll(&mut self) {
        if let Some(r) = take_finished(&mut self.fetch) {
            match r {
                Ok(Ok(inv)) => {
                    if self.rechecking {
                        self.notice = Some(if inv.status() == InvoiceStatus::Void {
                            tr!("lk-void-went-through")
                        } else {
                            tr!("lk-void-did-not")
                        });
                        self.void_unknown = None;
                    }
                    self.invoice = Some(inv);
                    self.error = None;
                }
                Ok(Err(e)) => {
                    if !self.rechecking {
                        self.invoice = None;
                    }
                    self.error = Some(e);
                }
                Err(e) if e == "cancelled" => {}
                Err(e) => self.error = Some(ApiError::invalid(e)),
            }
            self.rechecking = false;
        }
        if let Some(r) = take_finished(&mut self.void_task) {
            match r {
                Ok(Ok(inv)) => {
                    self.notice = Some(tr!("lk-voided", id = safe(&inv.id)));
                    self.invoice = Some(inv);
                    self.error = None;
                }
                Ok(Err(e)) => {
                    if e.is_outcome_unknown() {
                        self.void_unknown = self.invoice.as_ref().map(|i| i.id.clone());
                    }
                    self.error = Some(e);
                }
                Err(e) => {
                    self.void_unknown = self.invoice.as_ref().map(|i| i.id.clone());
                    self.error = Some(ApiError::invalid(tr!("lk-void-maybe", error = e)));
                }
            }
        }
    }

    /// Draws the panel.
    pub fn ui(&mut self, ui: &mut Ui, session: Option<Arc<Session>>, rt: &tokio::runtime::Handle) {
        self.poll();
        ui.heading(tr!("tab-lookup"));
        ui.horizontal(|ui| {
            let l = ui.label(tr!("f-invoice-id"));
            let r = widgets::focus_field(
                ui,
                l.id,
                &mut self.id,
                "in_…",
                280.0,
                &mut self.focus_request,
            );
            let enter = (r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)))
                || std::mem::take(&mut self.submit_request);
            let can = !self.id.trim().is_empty() && self.void_task.is_none();
            if (ui
                .add_enabled(can, egui::Button::new(tr!("lk-look-up")))
                .clicked()
                || (enter && can))
                && self.fetch.is_none()
            {
                self.invoice = None;
                self.rechecking = false;
                self.start_fetch(session.clone(), rt, ui.ctx());
            }
            if self.fetch.is_some() {
                ui.spinner();
                ui.label(tr!("lk-looking-up"));
            }
        });
        ui.add_space(6.0);
        if let Some(n) = &self.notice {
            let r = ui.label(RichText::new(n).strong());
            widgets::announce(ui, &r, false);
        }
        if let Some(e) = &self.error {
            widgets::api_error(ui, "lookup", e);
        }
        if let Some(id) = self.void_unknown.clone() {
            let busy = self.fetch.is_some();
            if ui
                .add_enabled(!busy, egui::Button::new(tr!("lk-check")))
                .clicked()
            {
                self.id = id;
                self.rechecking = true;
                self.start_fetch(session.clone(), rt, ui.ctx());
            }
        }
        let Some(inv) = &self.invoice else { return };
        ui.separator();
        egui::ScrollArea::vertical().show(ui, |ui| {
            widgets::invoice_details(ui, "lookup", inv);
            ui.add_space(8.0);
            let status = inv.status();
            let can_void = matches!(status, InvoiceStatus::Open | InvoiceStatus::Unknown)
                && self.void_task.is_none()
                && self.void_unknown.is_none()
                && session.is_some();
            let b = ui.add_enabled(can_void, egui::Button::new(tr!("lk-void")));
            let b = match status {
                InvoiceStatus::Void => b.on_disabled_hover_text(tr!("lk-already-void")),
                InvoiceStatus::Paid => b.on_disabled_hover_text(tr!("lk-paid")),
                _ => b,
            };
            if b.clicked() {
                self.confirm = true;
            }
            if self.void_task.is_some() {
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label(tr!("lk-voiding"));
                });
            }
        });
        if self.confirm {
            let inv = inv.clone();
            let modal = egui::Modal::new(egui::Id::unique("confirm_void")).show(ui.ctx(), |ui| {
                ui.set_max_width(420.0);
                let title = ui.heading(tr!("lk-confirm-title"));
                widgets::announce(ui, &title, true);
                egui::Grid::new("void_summary")
                    .num_columns(2)
                    .show(ui, |ui| {
                        ui.label(tr!("lk-invoice"));
                        ui.label(RichText::new(safe(&inv.id)).strong());
                        ui.end_row();
                        ui.label(tr!("lk-customer"));
                        ui.label(
                            RichText::new(safe(inv.customer.as_deref().unwrap_or("—"))).strong(),
                        );
                        ui.end_row();
                        ui.label(tr!("lk-amount"));
                        ui.label(RichText::new(safe(&inv.amount_display())).strong());
                        ui.end_row();
                    });
                ui.label(tr!("lk-cannot-undo"));
                ui.horizontal(|ui| {
                    if ui.button(tr!("lk-void-invoice")).clicked()
                        && let Some(s) = session.clone()
                    {
                        let id = inv.id.clone();
                        self.error = None;
                        self.notice = None;
                        self.void_task = Some(Task::spawn(rt, ui.ctx(), async move {
                            s.client.void_invoice(&id).await
                        }));
                        self.confirm = false;
                    }
                    if ui.button(tr!("cancel")).clicked() {
                        self.confirm = false;
                    }
                });
            });
            if modal.should_close() {
                self.confirm = false;
            }
        }
    }
}
