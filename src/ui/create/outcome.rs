//! What came of a create, under the form: issued, refused, unknown (and the check),
//! and the look-alike's dialog.

use super::*;

impl CreatePanel {
    /// What became of the last create: issued earlier, in progress elsewhere, refused,
    /// unknown (with "Check whether it was created"), or created (its details).
    pub(super) fn outcome(
        &mut self,
        ui: &mut Ui,
        rows: &Rows<'_>,
        names: &widgets::Names,
        commands: &mut Vec<Command>,
    ) {
        if let Some(e) = &self.issued {
            let r = ui.label(
                RichText::new(tr!(
                    "cr-already-issued",
                    id = safe(e.invoice_id.as_deref().unwrap_or("?")),
                    who = crate::i18n::writer(e),
                    when = crate::i18n::moment(&e.time)
                ))
                .strong(),
            );
            widgets::announce(ui, &r, false);
        }
        if let Some((inv, e)) = &self.missing {
            let r = ui.label(
                RichText::new(tr!(
                    "cr-issued-missing",
                    reference = safe(e.external_id.as_deref().unwrap_or("?")),
                    id = safe(e.invoice_id.as_deref().unwrap_or("?")),
                    who = crate::i18n::writer(e),
                    when = crate::i18n::moment(&e.time)
                ))
                .strong(),
            );
            widgets::announce(ui, &r, false);
            let mut decided = None;
            ui.horizontal(|ui| {
                if ui.button(tr!("cr-reissue-missing")).clicked() {
                    decided = Some(true);
                }
                if ui.button(tr!("cancel")).clicked() {
                    decided = Some(false);
                }
            });
            match decided {
                Some(true) => {
                    commands.push(Command::issue(IssueCommand::CreateInvoice {
                        invoice: inv.clone(),
                        allow_similar: false,
                        reissue_missing: Some(e.invoice_id.clone().unwrap_or_default()),
                    }));
                    self.missing = None;
                }
                Some(false) => self.missing = None,
                None => {}
            }
        }
        if let Some(e) = &self.held_by
            && self.unknown.is_some()
            && self.error.is_none()
        {
            widgets::error_text(
                ui,
                &tr!(
                    "cr-in-progress",
                    who = crate::i18n::writer(e),
                    when = crate::i18n::moment(&e.time)
                ),
            );
        }
        // An error shown beside its field is not repeated here.
        if let Some(e) = &self.error
            && rows.not_found.is_none()
        {
            widgets::api_error(ui, "create", e);
        }
        if self.unknown.is_some() {
            ui.horizontal(|ui| {
                let busy = self.check.is_some();
                if ui
                    .add_enabled(
                        !busy && rows.session.is_some(),
                        egui::Button::new(tr!("cr-check")),
                    )
                    .clicked()
                    && let Some(sent) = self.unknown.clone()
                {
                    commands.push(Command::issue(IssueCommand::CheckCreated(sent)));
                }
                if busy {
                    crate::ui::widgets::busy(ui);
                    ui.label(tr!("cr-checking"));
                }
            });
            if let Some(inv) = self
                .unknown
                .as_ref()
                .filter(|u| u.invoice_external_id.is_none())
                && ui.button(tr!("cr-send-again")).clicked()
            {
                // The clerk's decision is journaled (the entry stops being "to check"); the
                // form unlocks when the app takes the command, not while drawing.
                commands.push(Command::issue(IssueCommand::ClerkCheckedNotCreated(
                    inv.clone(),
                )));
            }
        }
        if let Some(e) = &self.check_error {
            widgets::api_error(ui, "check", e);
        }
        match &self.check_note {
            Some(Ok(n)) => {
                let r = ui.label(RichText::new(n).strong());
                widgets::announce(ui, &r, false);
            }
            Some(Err(n)) => widgets::error_text(ui, n),
            None => {}
        }
        if let Some(inv) = &self.created {
            ui.separator();
            let r = ui.label(RichText::new(tr!("cr-created", id = safe(&inv.id))).strong());
            widgets::announce(ui, &r, false);
            let wanted = names.missing(inv.customer.as_deref());
            if !wanted.is_empty() {
                commands.push(Command::Customers(CustomersCommand::WantNames(wanted)));
            }
            widgets::invoice_details(ui, "created", inv, self.clock.today(), names, rows.uf);
        }
    }

    /// "Looks repeated: in_… issued on 24-11-2026. Issue it anyway?"
    pub(super) fn similar_dialog(&mut self, ui: &mut Ui, commands: &mut Vec<Command>) {
        let Some((inv, earlier, now)) = &self.similar else {
            return;
        };
        // Who issued it, and where it stands now when the service said.
        let who = crate::i18n::writer(earlier);
        let about = match now.filter(|s| *s != crate::api::InvoiceStatus::Unknown) {
            Some(status) => tr!(
                "cr-similar-by-now",
                who = who,
                status = widgets::status_word(status).to_lowercase()
            ),
            None => tr!("cr-similar-by", who = who),
        };
        let text = crate::i18n::looks_like(
            earlier
                .invoice_id
                .as_deref()
                .or(earlier.external_id.as_deref()),
            Some(&earlier.time),
            false,
            earlier.due_date.is_some(),
        );
        let mut close = false;
        let modal = egui::Modal::new(egui::Id::unique("create_similar")).show(ui.ctx(), |ui| {
            ui.set_max_width(460.0);
            let title = ui.heading(tr!("cr-similar-title"));
            widgets::announce(ui, &title, true);
            ui.label(RichText::new(text).strong());
            ui.label(about);
            ui.label(tr!("cr-similar-question"));
            ui.horizontal(|ui| {
                if ui.button(tr!("cr-issue-anyway")).clicked() {
                    commands.push(Command::issue(IssueCommand::CreateInvoice {
                        invoice: inv.clone(),
                        allow_similar: true,
                        reissue_missing: None,
                    }));
                    close = true;
                }
                if ui.button(tr!("cancel")).clicked() {
                    close = true;
                }
            });
        });
        if close || modal.should_close() {
            self.similar = None;
        }
    }
}
