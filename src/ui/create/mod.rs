//! New invoice panel: the form, live reading of the amount, one-click create with no
//! double submit, 422 details beside their fields, and the "outcome unknown" check.

use super::command::Command;
use super::journal::{Found, NotDone};
use super::session::Session;
use super::task::{Task, TaskError, take_finished};
use super::widgets;
use crate::api::{
    ApiError, Currency, CurrencyChoice, ErrorKind, FieldError, Invoice, NewInvoice, money,
};
use crate::input::{fresh_reference, parse_assignments};
use crate::text::escape_controls as safe;
use crate::tr;
use crate::ui::command::{CustomersCommand, IssueCommand, LookupCommand};
use egui::{RichText, Ui};
use serde::{Deserialize, Serialize};
use serde_json::Map;
use std::sync::Arc;

mod outcome;
mod rows;

/// What the clerk typed; saved between runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CreateForm {
    /// Customer id.
    pub customer: String,
    /// Product id.
    pub product_id: String,
    /// Due date, YYYY-MM-DD.
    pub due_date: String,
    /// Amount as typed.
    pub amount: String,
    /// Account currency, CLP or CLF.
    pub currency: CurrencyChoice,
    /// The external reference that lets a retry be recognised.
    pub external_id: String,
    /// Extra fields, one `name=value` per line (`metadata.name=value` for metadata).
    pub extra: String,
}

impl Default for CreateForm {
    fn default() -> Self {
        CreateForm {
            customer: String::new(),
            product_id: String::new(),
            due_date: String::new(),
            amount: String::new(),
            currency: CurrencyChoice::AccountDefault,
            external_id: fresh_reference(),
            extra: String::new(),
        }
    }
}

/// Problems found before sending, per field.
#[derive(Default, Debug)]
struct Problems {
    customer: Option<String>,
    amount: Option<String>,
    due_date: Option<String>,
    extra: Option<String>,
    /// The due date as read, for the live reading under the field.
    due_reading: Option<chrono::NaiveDate>,
    /// The customer field names no one customer yet (said under the field).
    customer_unresolved: bool,
}

impl Problems {
    fn any(&self) -> bool {
        self.customer_unresolved
            || self.customer.is_some()
            || self.amount.is_some()
            || self.due_date.is_some()
            || self.extra.is_some()
    }
}

/// The panel's state.
pub struct CreatePanel {
    /// The form (saved).
    pub form: CreateForm,
    /// Put the keyboard focus in the first field on the next frame (Ctrl/Cmd+N).
    focus_request: bool,
    /// Send the form on the next frame if it can be sent (Ctrl/Cmd+Enter).
    submit_request: bool,
    /// Put the keyboard focus on the result's "Open in Lookup" on the next frame.
    focus_result: bool,
    pending: Option<Task<Result<Invoice, NotDone>>>,
    sent: Option<NewInvoice>,
    /// The form's reference was issued already (the journal refused to send it again,
    /// or said so of a restored form): its entry.
    issued: Option<crate::journal::Entry>,
    /// The invoice looks like an earlier one: the dialog asks before it is sent.
    similar: Option<(
        NewInvoice,
        crate::journal::Entry,
        Option<crate::api::InvoiceStatus>,
    )>,
    /// The entry holding the reference while its outcome is unknown (another process, or
    /// an earlier start of the app).
    held_by: Option<crate::journal::Entry>,
    /// The journal has the reference as issued (this entry) but the service has no such
    /// invoice: the invoice as it would go, offered to issue with the clerk's decision.
    missing: Option<(NewInvoice, crate::journal::Entry)>,
    /// Reading the journal about a restored form's reference.
    restoring: Option<Task<Option<crate::journal::Entry>>>,
    /// The form as last drawn: an error about it goes when it changes.
    form_seen: Option<CreateForm>,
    /// The customer of the last send (named in a "no such customer" beside the field).
    sent_customer: Option<String>,
    /// The connection the invoice was sent with: an unknown outcome is checked there,
    /// even after the clerk switched profile.
    sent_with: Option<Arc<Session>>,
    created: Option<Invoice>,
    /// The reference the invoice the form is locked on was made with: shown in its row
    /// while locked, as the form itself already holds a fresh one for the next.
    made_with: Option<String>,
    error: Option<ApiError>,
    unknown: Option<NewInvoice>,
    check: Option<Task<Result<Found, ApiError>>>,
    check_note: Option<Result<String, String>>,
    check_error: Option<ApiError>,
    /// The app's one clock (`AppDeps::clock`).
    clock: crate::ui::Clock,
    /// The service answered a create since the app last asked.
    answered: bool,
}

impl CreatePanel {
    /// A panel with a restored form; `clock` says the day dates are read against.
    pub fn new(mut form: CreateForm, clock: crate::ui::Clock) -> Self {
        if form.external_id.trim().is_empty() {
            form.external_id = fresh_reference();
        }
        CreatePanel {
            form,
            focus_request: false,
            submit_request: false,
            focus_result: false,
            pending: None,
            sent: None,
            issued: None,
            similar: None,
            held_by: None,
            missing: None,
            restoring: None,
            sent_customer: None,
            form_seen: None,
            sent_with: None,
            created: None,
            made_with: None,
            error: None,
            unknown: None,
            check: None,
            check_note: None,
            check_error: None,
            clock,
            answered: false,
        }
    }

    /// After "Try the sandbox": a sample customer and product, so the first invoice is a
    /// click away.
    pub fn prefill_for_sandbox(&mut self, session: &Session) {
        if self.form.customer.trim().is_empty()
            && let Some((id, _)) = session.sandbox_customers.first()
        {
            self.form.customer = id.clone();
        }
        if self.form.product_id.trim().is_empty() {
            self.form.product_id = "prod_asesoria".into();
        }
    }

    /// Puts the keyboard focus in the first field on the next frame.
    pub fn request_focus(&mut self) {
        self.focus_request = true;
    }

    /// Sends the form on the next frame, if it can be sent.
    pub fn request_submit(&mut self) {
        self.submit_request = true;
    }

    /// The clerk checked an unknown create without a reference and says it was not
    /// created: the form unlocks (the decision goes to the journal).
    pub fn clerk_checked(&mut self) {
        self.unknown = None;
        self.error = None;
    }

    /// True while an invoice is on its way, or its outcome is unknown, or it was just
    /// created, or its reference was issued already, or the clerk is asked about a
    /// look-alike: no other may be sent until the clerk has seen the result.
    pub fn is_locked(&self) -> bool {
        self.pending.is_some()
            || self.unknown.is_some()
            || self.created.is_some()
            || self.issued.is_some()
            || self.similar.is_some()
            || self.missing.is_some()
    }

    /// True while a create is on its way (closing the app asks first).
    pub fn is_sending(&self) -> bool {
        self.pending.is_some()
    }

    /// The restored form's reference is being looked up in the journal: found used, the
    /// form locks. (Sent before the answer comes, its claim refuses it just the same.)
    pub fn restoring(&mut self, task: Task<Option<crate::journal::Entry>>) {
        self.restoring = Some(task);
    }

    /// The invoice `sent` is on its way through `session`.
    pub fn started(
        &mut self,
        sent: NewInvoice,
        session: Arc<Session>,
        task: Task<Result<Invoice, NotDone>>,
    ) {
        self.error = None;
        self.check_note = None;
        self.similar = None;
        self.sent_customer = Some(sent.customer.clone());
        self.sent = Some(sent);
        self.sent_with = Some(session);
        self.pending = Some(task);
    }

    /// The connection the last invoice was sent with.
    pub fn sent_with(&self) -> Option<Arc<Session>> {
        self.sent_with.clone()
    }

    /// The clerk switched profile: what was shown about the previous one goes. An
    /// invoice on its way or with an unknown outcome stays, locked, to be checked with
    /// the profile it was sent with.
    pub fn profile_changed(&mut self) {
        if self.pending.is_none() && self.unknown.is_none() {
            self.error = None;
            self.check_note = None;
            self.check_error = None;
            self.similar = None;
            self.created = None;
            self.made_with = None;
        }
    }

    /// The form's reference made an invoice: the form (and what is saved of it) never
    /// holds it again, and it is kept to be shown while the form is locked on that invoice.
    fn reference_used(&mut self) {
        self.made_with = Some(std::mem::replace(
            &mut self.form.external_id,
            fresh_reference(),
        ));
    }

    /// Unlocks the form for a new invoice: a fresh reference, the amount cleared.
    fn new_invoice(&mut self) {
        self.created = None;
        self.made_with = None;
        self.issued = None;
        self.check_note = None;
        self.error = None;
        self.form.amount.clear();
        self.form.external_id = fresh_reference();
    }

    /// A check for an invoice whose creation had an unknown outcome is running.
    pub fn checking(&mut self, task: Task<Result<Found, ApiError>>) {
        self.check_error = None;
        self.check = Some(task);
    }

    /// Nothing could be sent (not connected).
    pub fn refused(&mut self, e: ApiError) {
        self.error = Some(e);
    }

    /// The form as an invoice, or (when it no longer reads) what the journal recorded of
    /// `e`: what a check looks for.
    fn built_or(&self, e: &crate::journal::Entry) -> NewInvoice {
        let (built, _) = self.build(None, &widgets::Suggestions::default());
        built.unwrap_or_else(|| NewInvoice {
            customer: e.customer.clone().unwrap_or_default(),
            amount: e
                .amount
                .as_deref()
                .and_then(|a| a.parse().ok())
                .unwrap_or_default(),
            invoice_external_id: e.external_id.clone(),
            ..NewInvoice::default()
        })
    }

    /// The currency the amount is read in: the chosen one, else the account's if known.
    fn reading_currency(&self, session: Option<&Session>) -> Option<Currency> {
        self.form
            .currency
            .currency()
            .or_else(|| session.and_then(|s| s.profile.account_currency))
    }

    fn build(
        &self,
        session: Option<&Session>,
        suggestions: &widgets::Suggestions,
    ) -> (Option<NewInvoice>, Problems) {
        let f = &self.form;
        let mut p = Problems::default();
        // A name or RUT is sent as the id of the one customer it names; anything else
        // that is not an id is not sent (the line under the field says why).
        let pick = widgets::pick_customer(&f.customer, suggestions);
        let customer = pick.id().map(str::to_string);
        if f.customer.trim().is_empty() {
            p.customer = Some(tr!("cr-enter-customer"));
        } else if customer.is_none() {
            p.customer_unresolved = true;
        }
        let amount = match money::parse_amount_input(&f.amount, self.reading_currency(session)) {
            Ok(a) => Some(a),
            Err(e) => {
                p.amount = Some(crate::i18n::amount_error(&e));
                None
            }
        };
        if !f.due_date.trim().is_empty() {
            // Read as the clerk writes it; always sent as ISO.
            match crate::input::parse_date(&f.due_date, widgets::date_order()) {
                Ok(d) => p.due_reading = Some(d),
                Err(e) => p.due_date = Some(crate::i18n::date_error(&e)),
            }
        }
        let (extra, metadata) = match parse_assignments(f.extra.lines()) {
            Ok(x) => x,
            Err(e) => {
                p.extra = Some(crate::i18n::assignment_error(&e));
                (Map::new(), None)
            }
        };
        let inv = amount.filter(|_| !p.any()).map(|amount| NewInvoice {
            customer: customer.clone().unwrap_or_default(),
            amount,
            currency: f.currency,
            product_id: Some(f.product_id.trim().to_string()).filter(|s| !s.is_empty()),
            due_date: p.due_reading.map(|d| d.format("%Y-%m-%d").to_string()),
            invoice_external_id: Some(f.external_id.trim().to_string()).filter(|s| !s.is_empty()),
            metadata,
            extra,
        });
        if let Some(i) = &inv
            && let Err(e) = i.to_json()
        {
            p.extra = Some(crate::i18n::error_text(&e));
            return (None, p);
        }
        (inv, p)
    }

    /// Draws the panel.
    pub fn ui(
        &mut self,
        ui: &mut Ui,
        session: Option<&Session>,
        suggestions: &widgets::Suggestions,
        names: &widgets::Names,
        uf: &widgets::UfShown,
        commands: &mut Vec<Command>,
    ) {
        if self.form_seen.as_ref().is_some_and(|f| *f != self.form) && !self.is_locked() {
            // The clerk changed the form: what the service said about the old one goes.
            self.error = None;
            self.check_note = None;
        }
        self.form_seen = Some(self.form.clone());
        let not_found = self.error.as_ref().and_then(not_found_target);
        self.heading(ui, session, not_found);
        let (built, problems) = self.build(session, suggestions);
        let rows = Rows {
            session,
            refused: Refused(
                self.error
                    .as_ref()
                    .map(|e| e.field_errors().to_vec())
                    .unwrap_or_default(),
            ),
            problems,
            built,
            typed: !self.form.amount.trim().is_empty(),
            not_found,
            uf,
        };
        let locked = self.is_locked();
        // The app scrolls the whole panel (not this part alone).
        ui.vertical(|ui| {
            ui.add_enabled_ui(!locked, |ui| {
                egui::Grid::new("create_form")
                    .num_columns(2)
                    .spacing([12.0, 8.0])
                    .show(ui, |ui| {
                        self.customer_row(ui, &rows, suggestions, commands);
                        widgets::field_row(
                            ui,
                            &tr!("f-product-id"),
                            &mut self.form.product_id,
                            "prod_…",
                            rows.refused.about("product_id").as_deref(),
                        );
                        let due_problem = rows
                            .refused
                            .about("due_date")
                            .or(rows.problems.due_date.clone());
                        let today = self.clock.today();
                        widgets::date_row(
                            ui,
                            &tr!("f-due-date"),
                            &mut self.form.due_date,
                            rows.problems.due_reading,
                            due_problem.as_deref(),
                            today,
                        );
                        self.amount_row(ui, &rows);
                        self.currency_row(ui, &rows);
                        self.reference_row(ui, &rows);
                        self.extra_row(ui, &rows);
                    });
            });
            ui.add_space(8.0);
            self.actions(ui, &rows, commands);
            ui.add_space(8.0);
            self.outcome(ui, &rows, names, commands);
        });
        self.similar_dialog(ui, commands);
    }

    /// The title, the profile issuing, and an account the service does not know.
    fn heading(&self, ui: &mut Ui, session: Option<&Session>, not_found: Option<NotFound>) {
        ui.heading(tr!("tab-create"));
        match session {
            Some(s) => {
                let key = if s.profile.account_key.is_empty() {
                    tr!("cr-no-account-key")
                } else {
                    tr!("cr-account-key", key = s.profile.account_key)
                };
                ui.label(tr!("cr-issuing-with", profile = s.profile.name, key = key));
                if not_found == Some(NotFound::Account) {
                    widgets::error_text(
                        ui,
                        &tr!("cr-no-such-account", key = s.profile.account_key),
                    );
                }
            }
            None => widgets::error_text(ui, &tr!("connect-first")),
        }
        ui.add_space(6.0);
    }

    /// Create (or why it is off), then what comes after a result: another invoice, open
    /// it in Lookup.
    fn actions(&mut self, ui: &mut Ui, rows: &Rows<'_>, commands: &mut Vec<Command>) {
        let locked = self.is_locked();
        ui.horizontal(|ui| {
            let can_send = rows.session.is_some() && rows.built.is_some() && !locked;
            let submit = std::mem::take(&mut self.submit_request);
            if (ui
                .add_enabled(can_send, egui::Button::new(tr!("cr-create")))
                .clicked()
                || (submit && can_send))
                && let Some(inv) = rows.built.clone()
            {
                commands.push(Command::issue(IssueCommand::CreateInvoice {
                    invoice: inv,
                    allow_similar: false,
                    reissue_missing: None,
                }));
            }
            if self.pending.is_some() {
                crate::ui::widgets::busy(ui);
                ui.label(tr!("cr-sending"));
            }
            if let Some(inv) = &self.created {
                let another = ui.button(tr!("cr-another"));
                let open = ui.button(tr!("open-in-lookup"));
                if std::mem::take(&mut self.focus_result) {
                    // The keyboard goes on from the result, not from nowhere.
                    open.request_focus();
                }
                if another.clicked() {
                    self.new_invoice();
                } else if open.clicked() {
                    commands.push(Command::Lookup(LookupCommand::OpenInLookup {
                        id: inv.id.clone(),
                        from_list: false,
                    }));
                }
            } else if self.issued.is_some() {
                if ui.button(tr!("cr-new-invoice")).clicked() {
                    self.new_invoice();
                }
            } else if !can_send && !locked && rows.session.is_some() {
                // Say why the button is off.
                let f = &self.form;
                let mut missing = Vec::new();
                if f.customer.trim().is_empty() {
                    missing.push(tr!("f-customer-id"));
                }
                if f.amount.trim().is_empty() {
                    missing.push(tr!("f-amount"));
                }
                let why = if missing.is_empty() {
                    tr!("cr-fix-marked")
                } else {
                    tr!("cr-missing", fields = missing.join(", "))
                };
                ui.label(RichText::new(why).weak());
            }
        });
    }
}

/// What one frame of the form works from: the session, what the service refused, the
/// form as built (or its problems).
struct Rows<'a> {
    session: Option<&'a Session>,
    refused: Refused,
    problems: Problems,
    built: Option<NewInvoice>,
    /// An amount was typed (problems are shown once the clerk has started).
    typed: bool,
    not_found: Option<NotFound>,
    /// Today's UF value, for a UF amount's pesos.
    uf: &'a widgets::UfShown,
}

/// The fields the service refused. Its own words (usually English) stay under Details;
/// beside the field the clerk reads which value was refused.
struct Refused(Vec<FieldError>);

impl Refused {
    fn about(&self, field: &str) -> Option<String> {
        self.0
            .iter()
            .any(|f| f.field == field)
            .then(|| tr!("cr-service-refused"))
    }
}

/// What a create's "not found" was about, as the API layer read it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum NotFound {
    Customer,
    Account,
}

fn not_found_target(e: &ApiError) -> Option<NotFound> {
    match &e.kind {
        ErrorKind::NotFound(crate::api::Resource::Customer(_)) => Some(NotFound::Customer),
        ErrorKind::NotFound(crate::api::Resource::Account) => Some(NotFound::Account),
        _ => None,
    }
}

/// Looks for the sent invoice among the customer's invoices, by external reference.
pub async fn find_created(s: &Session, sent: &NewInvoice) -> Result<Option<Invoice>, ApiError> {
    let Some(reference) = &sent.invoice_external_id else {
        return Err(ApiError::invalid(crate::api::InputError::Said(tr!(
            "cr-no-reference-check"
        ))));
    };
    s.client.find_by_reference(&sent.customer, reference).await
}

impl crate::ui::Panel for CreatePanel {
    fn service_answered(&mut self) -> bool {
        std::mem::take(&mut self.answered)
    }

    /// Takes finished work (called by the app every frame).
    fn poll(&mut self) {
        if let Some(r) = take_finished(&mut self.restoring) {
            let busy = self.pending.is_some() || self.created.is_some() || self.unknown.is_some();
            let form_reference = self.form.external_id.trim().to_string();
            let same =
                |e: &crate::journal::Entry| e.external_id.as_deref() == Some(&form_reference);
            match r.ok().flatten().filter(|e| !busy && same(e)) {
                Some(e) if e.outcome == crate::journal::Outcome::Done => self.issued = Some(e),
                Some(e) if e.outcome == crate::journal::Outcome::Unknown => {
                    self.unknown = Some(self.built_or(&e));
                    self.check_note = Some(Ok(tr!("cr-restored-unknown")));
                    self.held_by = Some(e);
                }
                _ => {}
            }
        }
        if let Some(r) = take_finished(&mut self.pending) {
            match r {
                Ok(Ok(inv)) => {
                    self.created = Some(inv);
                    self.answered = true;
                    self.focus_result = true;
                    self.sent = None;
                    self.error = None;
                    self.reference_used();
                }
                Ok(Err(NotDone::LooksLike { earlier, now })) => {
                    if let Some(inv) = self.sent.take() {
                        self.similar = Some((inv, *earlier, now));
                    }
                }
                Ok(Err(NotDone::Missing(e))) => {
                    if let Some(inv) = self.sent.take() {
                        self.missing = Some((inv, *e));
                    }
                }
                Ok(Err(NotDone::Approval(r))) => {
                    // Nothing sent: the form keeps what was typed, its reference unused,
                    // and the same Issue carries it out once approved.
                    self.sent = None;
                    let said = crate::i18n::not_approved(&r, crate::i18n::AskedIn::Issue);
                    self.error = Some(ApiError::invalid(crate::api::InputError::Said(said)));
                }
                Ok(Err(NotDone::Blocked(b))) => {
                    use crate::journal::Blocked;
                    let sent = self.sent.take();
                    match *b {
                        Blocked::Done(e) => self.issued = Some(e),
                        Blocked::Pending(e) => {
                            self.unknown = sent;
                            self.held_by = Some(e);
                        }
                        Blocked::LooksLike(e) => {
                            if let Some(inv) = sent {
                                self.similar = Some((inv, e, None));
                            }
                        }
                        Blocked::Journal(e) => {
                            self.error = Some(
                                ApiError::invalid(crate::api::InputError::Said(
                                    crate::i18n::journal_not_sent(&e),
                                ))
                                .with_cause(crate::i18n::journal_details(&e)),
                            )
                        }
                    }
                }
                Ok(Err(NotDone::Api(e))) if e.is_outcome_unknown() => {
                    self.unknown = self.sent.take();
                    self.error = Some(e);
                }
                Ok(Err(NotDone::Api(e))) => {
                    self.sent = None;
                    self.error = Some(e);
                }
                Err(e @ (TaskError::Cancelled | TaskError::Crashed(_))) => {
                    // The task itself failed: we cannot know what happened.
                    self.unknown = self.sent.take();
                    self.error = Some(
                        ApiError::new(ErrorKind::OutcomeUnknown(crate::api::Action::Create))
                            .with_cause(e),
                    );
                }
            }
        }
        if let Some(r) = take_finished(&mut self.check) {
            match r {
                Ok(Ok(Found::Done(id, inv))) => {
                    self.check_note = Some(Ok(tr!("cr-was-created", id = safe(&id))));
                    match inv {
                        Some(inv) => self.created = Some(*inv),
                        None => {
                            self.issued = self.held_by.clone().map(|e| crate::journal::Entry {
                                invoice_id: Some(id.clone()),
                                ..e
                            });
                        }
                    }
                    self.unknown = None;
                    self.held_by = None;
                    self.error = None;
                    self.reference_used();
                }
                Ok(Ok(Found::NotDone)) => {
                    self.check_note = Some(Ok(tr!("cr-not-created")));
                    self.unknown = None;
                    self.held_by = None;
                    self.error = None;
                }
                Ok(Ok(Found::Waiting(until))) => {
                    self.check_note = Some(Ok(tr!(
                        "cr-check-waiting",
                        time = crate::i18n::clock(until)
                    )));
                }
                Ok(Err(e)) => self.check_error = Some(e),
                Err(e) => self.check_note = Some(Err(e.words())),
            }
        }
    }
}
