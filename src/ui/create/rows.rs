//! New invoice's fields, a row each: the customer (with the directory's suggestions),
//! the amount (with its pesos), the currency, the reference and the rest.

use super::*;

impl CreatePanel {
    /// The customer: the field (with the sandbox's customers), the directory's
    /// suggestions over the form, and the line that says whom it names or why not.
    pub(super) fn customer_row(
        &mut self,
        ui: &mut Ui,
        rows: &Rows<'_>,
        suggestions: &widgets::Suggestions,
        commands: &mut Vec<Command>,
    ) {
        let sent_customer = self
            .sent_customer
            .clone()
            .unwrap_or_else(|| self.form.customer.trim().to_string());
        let customer_problem = rows
            .refused
            .about("customer")
            .or_else(|| {
                (rows.not_found == Some(NotFound::Customer))
                    .then(|| tr!("cr-no-such-customer", id = safe(&sent_customer)))
            })
            .or(rows.problems.customer.clone().filter(|_| rows.typed));
        let l = ui.label(tr!("f-customer-id"));
        ui.vertical(|ui| {
            let field = ui.horizontal(|ui| {
                let field = widgets::focus_field(
                    ui,
                    l.id,
                    &mut self.form.customer,
                    "cus_…",
                    240.0,
                    &mut self.focus_request,
                );
                if let Some(s) = rows.session.filter(|s| !s.sandbox_customers.is_empty()) {
                    egui::ComboBox::from_id_salt("sandbox_customers")
                        .selected_text(tr!("cr-sandbox-customers"))
                        .show_ui(ui, |ui| {
                            for (id, name) in &s.sandbox_customers {
                                if widgets::choice_label(
                                    ui,
                                    self.form.customer == *id,
                                    format!("{name} ({id})"),
                                )
                                .clicked()
                                {
                                    self.form.customer = id.clone();
                                }
                            }
                        })
                        .response
                        .on_hover_text(tr!("cr-sandbox-customers-hint"));
                }
                field
            });
            widgets::customer_suggestions(
                ui,
                &field.inner,
                &mut self.form.customer,
                suggestions,
                commands,
            );
            let pick = widgets::pick_customer(&self.form.customer, suggestions);
            widgets::customer_reading(ui, &pick, customer_problem.as_deref());
        });
        ui.end_row();
    }

    /// The amount, and under it how it reads ("= $1.234.567 (the account's currency,
    /// CLP)") or what is wrong with it.
    pub(super) fn amount_row(&mut self, ui: &mut Ui, rows: &Rows<'_>) {
        widgets::field_row(
            ui,
            &tr!("f-amount"),
            &mut self.form.amount,
            &tr!("f-amount-hint"),
            None,
        );
        ui.label("");
        ui.vertical(|ui| {
            let reading = self.reading_currency(rows.session);
            let mut pesos_drawn = false;
            match (&rows.built, &rows.problems.amount) {
                (_, Some(p)) if rows.typed => widgets::error_text(ui, p),
                (_, Some(_)) => {
                    ui.label(tr!("cr-amount-help"));
                }
                (Some(inv), None) => {
                    let code = reading.map(Currency::code);
                    let amount = money::format_amount(inv.amount, code);
                    let text = match reading {
                        Some(c) if self.form.currency == CurrencyChoice::AccountDefault => {
                            tr!("cr-reads-account", amount = amount, code = c)
                        }
                        Some(c) => tr!("cr-reads-code", amount = amount, code = c),
                        None => tr!("cr-reads-unknown", amount = amount),
                    };
                    ui.label(RichText::new(text).strong());
                    if reading == Some(Currency::CLF) {
                        rows.uf.pesos_line(ui, inv.amount);
                        pesos_drawn = true;
                    }
                }
                (None, None) => {
                    if let Ok(a) = money::parse_amount_input(&self.form.amount, reading) {
                        ui.label(format!(
                            "= {}",
                            money::format_amount(a, reading.map(Currency::code))
                        ));
                        if reading == Some(Currency::CLF) {
                            rows.uf.pesos_line(ui, a);
                            pesos_drawn = true;
                        }
                    }
                }
            }
            // Where UF can be chosen, the line of its pesos is kept (blank) for any
            // amount: choosing UF, or typing one, moves nothing below (#68).
            let offers_uf = rows
                .session
                .is_none_or(|s| s.profile.currencies.contains(&Currency::CLF));
            if offers_uf && !pesos_drawn {
                ui.label(" ");
            }
            if let Some(p) = rows.refused.about("amount") {
                widgets::error_text(ui, &p);
            }
        });
        ui.end_row();
    }

    /// The currency: the account's (the default, `currency_code` left out) or one of the
    /// profile's.
    pub(super) fn currency_row(&mut self, ui: &mut Ui, rows: &Rows<'_>) {
        let l = ui.label(tr!("f-currency"));
        ui.vertical(|ui| {
            let account = rows
                .session
                .and_then(|s| s.profile.account_currency)
                .map_or_else(
                    || tr!("cr-account-currency"),
                    |c| tr!("cr-account-currency-code", code = c),
                );
            let text = match self.form.currency {
                CurrencyChoice::AccountDefault => account.clone(),
                CurrencyChoice::Code(c) => crate::i18n::currency_name(c),
            };
            let mut picked = false;
            let combo = egui::ComboBox::from_id_salt("currency_choice")
                .selected_text(text)
                .show_ui(ui, |ui| {
                    picked |= widgets::choice(
                        ui,
                        &mut self.form.currency,
                        CurrencyChoice::AccountDefault,
                        account,
                    )
                    .clicked();
                    // The profile's currencies (CLP and CLF unless IT added one the
                    // service has started to accept).
                    let offered = rows.session.map_or_else(
                        || Currency::DEFAULT_OFFERED.to_vec(),
                        |s| s.profile.currencies.clone(),
                    );
                    for c in offered {
                        picked |= widgets::choice(
                            ui,
                            &mut self.form.currency,
                            CurrencyChoice::Code(c),
                            crate::i18n::currency_name(c),
                        )
                        .clicked();
                    }
                })
                .response
                .labelled_by(l.id);
            // The pick leaves the focus on the list (its ring shown, Space opens it
            // again), not on an item that is gone.
            if picked {
                combo.request_focus();
            }
            if let Some(p) = rows.refused.about("currency_code") {
                widgets::error_text(ui, &p);
            }
        });
        ui.end_row();
    }

    /// The external reference (prefilled fresh; "New reference" makes another).
    pub(super) fn reference_row(&mut self, ui: &mut Ui, rows: &Rows<'_>) {
        let l = ui.label(tr!("f-external-ref"));
        // Locked on an invoice made from the form: that invoice's reference (read-only).
        let made_with = self.made_with.as_deref().filter(|_| self.is_locked());
        ui.vertical(|ui| {
            ui.horizontal(|ui| {
                // A copy (a `&str` would be drawn without the field's frame); the row is
                // disabled while locked, so nothing is typed into it.
                let mut used = made_with.map(str::to_string);
                let field = match &mut used {
                    Some(used) => egui::TextEdit::singleline(used),
                    None => egui::TextEdit::singleline(&mut self.form.external_id),
                };
                ui.add(field.desired_width(240.0)).labelled_by(l.id);
                if ui.button(tr!("cr-new-reference")).clicked() {
                    self.form.external_id = fresh_reference();
                }
            });
            if made_with.is_none() && self.form.external_id.trim().is_empty() {
                widgets::error_text(ui, &tr!("cr-no-reference"));
            }
            if let Some(p) = rows.refused.about("invoice_external_id") {
                widgets::error_text(ui, &p);
            }
        });
        ui.end_row();
    }

    /// Other fields, `name=value` per line (`metadata.name=value` for metadata).
    pub(super) fn extra_row(&mut self, ui: &mut Ui, rows: &Rows<'_>) {
        let l = ui.label(tr!("f-extra"));
        ui.vertical(|ui| {
            ui.add(
                egui::TextEdit::multiline(&mut self.form.extra)
                    .hint_text(tr!("f-extra-hint"))
                    .desired_rows(3)
                    .desired_width(widgets::field_width(ui)),
            )
            .labelled_by(l.id);
            if let Some(p) = rows
                .problems
                .extra
                .as_ref()
                .or(rows.refused.about("metadata").as_ref())
            {
                widgets::error_text(ui, p);
            }
        });
        ui.end_row();
    }
}
