//! Lookup and void: every field of an invoice, its status and currency; void after a
//! confirmation that shows what will be voided; a lost answer is re-checked by reading.

use super::command::Command;
use super::journal::{Found, NotDone};
use super::session::Session;
use super::task::{Task, TaskError, take_finished};
use super::widgets;
use crate::api::{ApiError, InputError, Invoice, InvoiceStatus};
use crate::text::escape_controls as safe;
use crate::tr;
use crate::ui::command::{CustomersCommand, LookupCommand, WindowCommand};
use egui::{RichText, Ui};

/// Checking whether a lost void went through: what was found, and the invoice as read.
type Rechecking = Task<Result<(Found, Option<Invoice>), ApiError>>;

/// The panel's state.
pub struct LookupPanel {
    /// The id typed (saved).
    pub id: String,
    /// Put the keyboard focus in the id field on the next frame (Ctrl/Cmd+F).
    focus_request: bool,
    /// The invoice was opened from the customer list: offer the way back.
    pub from_list: bool,
    /// Put the keyboard focus on the invoice's first action once it is shown (it was
    /// opened from another panel: the keyboard goes on from there).
    pub focus_action: bool,
    fetch: Option<Task<Result<Invoice, ApiError>>>,
    invoice: Option<Invoice>,
    error: Option<ApiError>,
    confirm: bool,
    void_task: Option<Task<Result<Invoice, NotDone>>>,
    /// The id whose void has an unknown outcome.
    void_unknown: Option<String>,
    /// Checking (through the journal) whether a lost void went through.
    recheck: Option<Rechecking>,
    /// The connection the last void was sent with (a lost one is re-read there).
    void_sent_with: Option<std::sync::Arc<Session>>,
    notice: Option<String>,
    /// The app's one clock (`AppDeps::clock`).
    clock: crate::ui::Clock,
    /// The service answered a lookup since the app last asked.
    answered: bool,
    /// The invoice being printed: its PDF made, then opened in the system's viewer.
    print: Option<Task<super::external::Shown>>,
    /// The invoice's e-mail: made, shown, sent.
    mail: super::mailing::OneEmail,
}

impl LookupPanel {
    /// Invoice `id` as shown, if it is the one shown.
    pub fn shown(&self, id: &str) -> Option<&crate::api::Invoice> {
        self.invoice.as_ref().filter(|inv| inv.id == id)
    }

    /// A panel with a restored id; `clock` says the day overdue days are counted on.
    pub fn new(id: String, clock: crate::ui::Clock) -> Self {
        LookupPanel {
            id,
            focus_request: false,
            from_list: false,
            focus_action: false,
            fetch: None,
            invoice: None,
            error: None,
            confirm: false,
            void_task: None,
            void_unknown: None,
            recheck: None,
            void_sent_with: None,
            notice: None,
            clock,
            answered: false,
            print: None,
            mail: Default::default(),
        }
    }

    /// Puts the keyboard focus in the id field on the next frame.
    pub fn request_focus(&mut self) {
        self.focus_request = true;
    }

    /// A lookup of `self.id` is running.
    pub fn fetching(&mut self, task: Task<Result<Invoice, ApiError>>) {
        if let Some(old) = self.fetch.take() {
            old.cancel();
        }
        // Another invoice: what was said of the last one's e-mail goes (#68).
        if self.invoice.as_ref().is_none_or(|i| i.id != self.id.trim()) {
            self.mail.forget();
        }
        self.invoice = None;
        self.error = None;
        self.notice = None;
        self.fetch = Some(task);
    }

    /// The invoice shown, if any.
    pub fn invoice(&self) -> Option<&Invoice> {
        self.invoice.as_ref()
    }

    /// A check of whether a lost void went through is running (it records what it finds).
    pub fn rechecking(&mut self, task: Rechecking) {
        self.error = None;
        self.notice = None;
        self.recheck = Some(task);
    }

    /// What came of opening the payment link: nothing to say when the browser opened it;
    /// otherwise the link (copied, to paste in a browser) and why.
    pub fn link_opened(&mut self, url: &str, result: Result<(), String>) {
        if result.is_err() {
            self.notice = Some(tr!("lk-link-not-opened", url = safe(url)));
        }
    }

    /// True while a void is on its way (closing the app asks first).
    pub fn is_sending(&self) -> bool {
        self.void_task.is_some()
    }

    /// A void is running, sent through `session`.
    pub fn voiding(
        &mut self,
        session: std::sync::Arc<Session>,
        task: Task<Result<Invoice, NotDone>>,
    ) {
        self.error = None;
        self.notice = None;
        self.confirm = false;
        self.void_sent_with = Some(session);
        self.void_task = Some(task);
    }

    /// The connection the last void was sent with.
    pub fn void_sent_with(&self) -> Option<std::sync::Arc<Session>> {
        self.void_sent_with.clone()
    }

    /// The clerk switched profile: the invoice and messages of the previous one go,
    /// unless a void is running or its outcome is still to be checked.
    pub fn profile_changed(&mut self) {
        if self.void_task.is_none() && self.void_unknown.is_none() {
            if let Some(t) = self.fetch.take() {
                t.cancel();
            }
            self.invoice = None;
            self.error = None;
            self.notice = None;
        }
    }

    /// Nothing could be sent (not connected).
    pub fn refused(&mut self, e: ApiError) {
        self.error = Some(e);
    }

    /// Prints the invoice on screen: its PDF (the profile's sender at the top, its
    /// payment link and QR code) opened in the system's viewer, from which the clerk
    /// prints it; without a viewer, the clerk is told where the file is.
    pub fn print(
        &mut self,
        spawner: &super::task::Spawner,
        journal: &super::journal::AppJournal,
        session: Option<&Session>,
        opener: super::external::Opener,
        folder: std::path::PathBuf,
    ) {
        let (Some(inv), Some(session)) = (self.invoice.clone(), session) else {
            return;
        };
        if self.print.is_some() {
            return;
        }
        let sender = session.profile.sender.clone();
        let as_of = self.clock.today();
        let lang = crate::i18n::current();
        self.notice = None;
        let request = super::external::PdfRequest {
            lang,
            file_name: crate::pdf::invoice_file_name(lang, &inv.id),
            folder,
            sender,
            customer: inv.customer.clone().unwrap_or_default(),
            as_of,
            what: super::external::Printed::Invoice(Box::new(inv)),
            failed: |why| tr!("lk-print-failed", why = why),
            // A printed invoice has no aging table, nor its line in pesos.
            uf: None,
        };
        self.print = Some(spawner.spawn(super::external::make_and_show_pdf(
            request,
            journal.clone(),
            opener,
        )));
    }

    /// Makes the invoice's e-mail to show it first (to whom, subject, text, PDF).
    pub fn prepare_email(
        &mut self,
        spawner: &super::task::Spawner,
        journal: &super::journal::AppJournal,
        session: Option<&Session>,
        templates: Option<std::path::PathBuf>,
    ) {
        let (Some(inv), Some(session)) = (self.invoice.clone(), session) else {
            return;
        };
        if self.mail.busy() {
            return;
        }
        self.mail
            .preparing(spawner.spawn(super::mailing::prepare_invoice(
                inv,
                session.profile.clone(),
                journal.clone(),
                self.clock.fixed_day(),
                templates,
            )));
    }

    /// Sends the e-mail shown (once; again only when the clerk ticked it).
    pub fn send_email(
        &mut self,
        spawner: &super::task::Spawner,
        journal: &super::journal::AppJournal,
        secrets: std::sync::Arc<tokio::sync::OnceCell<std::sync::Arc<crate::profile::SecretStore>>>,
    ) {
        self.mail.send(spawner, journal, secrets);
    }

    /// Draws the panel.
    pub fn ui(
        &mut self,
        ui: &mut Ui,
        session: Option<&Session>,
        names: &widgets::Names,
        uf: &widgets::UfShown,
        commands: &mut Vec<Command>,
    ) {
        ui.horizontal(|ui| {
            ui.heading(tr!("tab-lookup"));
            if self.from_list && ui.button(tr!("lk-back-to-list")).clicked() {
                commands.push(Command::Window(WindowCommand::Show(
                    super::command::Tab::Customers,
                )));
            }
        });
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
            if r.changed() {
                // A message about another id does not stay under this one.
                self.error = None;
                self.notice = None;
                self.from_list = false;
            }
            let enter = r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            let can = !self.id.trim().is_empty() && self.void_task.is_none();
            if (ui
                .add_enabled(can, egui::Button::new(tr!("lk-look-up")))
                .clicked()
                || (enter && can))
                && self.fetch.is_none()
            {
                commands.push(Command::Lookup(LookupCommand::LookUp));
            }
            if self.fetch.is_some() {
                crate::ui::widgets::busy(ui);
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
        if self.notice.is_none() && self.error.is_none() {
            // The message's line, kept blank: one appearing ("The payment link was
            // copied.") moves nothing below it.
            ui.label(RichText::new(" ").strong());
        }
        if let Some(id) = self.void_unknown.clone() {
            // Which invoice it is about, as the create's message names its reference.
            ui.label(tr!(
                "lk-void-unknown-for",
                id = crate::text::escape_controls(&id).into_owned()
            ));
            let busy = self.fetch.is_some() || self.recheck.is_some();
            if ui
                .add_enabled(!busy, egui::Button::new(tr!("lk-check")))
                .clicked()
            {
                commands.push(Command::Lookup(LookupCommand::RecheckVoid(id)));
            }
        }
        let Some(inv) = &self.invoice else { return };
        ui.separator();
        // The app scrolls the whole panel (not this part alone).
        ui.vertical(|ui| {
            let today = self.clock.today();
            let wanted = names.missing(inv.customer.as_deref());
            if !wanted.is_empty() {
                commands.push(Command::Customers(CustomersCommand::WantNames(wanted)));
            }
            widgets::invoice_details(ui, "lookup", inv, today, names, uf);
            // A void invoice cannot be paid: no payment buttons for it.
            if let Some(link) = &inv.link_payment
                && inv.status() != InvoiceStatus::Void
            {
                payment_link(ui, link, &mut self.notice, &mut self.focus_action, commands);
            }
            ui.add_space(4.0);
            ui.horizontal(|ui| {
                if ui
                    .add_enabled(self.print.is_none(), egui::Button::new(tr!("lk-print")))
                    .on_hover_text(tr!("lk-print-hint"))
                    .clicked()
                {
                    commands.push(Command::Lookup(LookupCommand::PrintInvoice));
                }
                if self
                    .mail
                    .button(ui, session.is_some(), &tr!("lk-mail"), &tr!("lk-mail-hint"))
                {
                    commands.push(Command::Lookup(LookupCommand::PrepareInvoiceEmail));
                }
            });
            self.mail.said(ui);
            ui.add_space(8.0);
            let status = inv.status();
            let can_void = matches!(status, InvoiceStatus::Open | InvoiceStatus::Unknown)
                && self.void_task.is_none()
                && self.void_unknown.is_none()
                && session.is_some();
            let b = ui.add_enabled(can_void, egui::Button::new(tr!("lk-void")));
            if std::mem::take(&mut self.focus_action) {
                b.request_focus();
            }
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
                    crate::ui::widgets::busy(ui);
                    ui.label(tr!("lk-voiding"));
                });
            }
        });
        if self.confirm {
            let inv = inv.clone();
            self.confirm_void(ui, &inv, names, commands);
        }
        if self.mail.dialog(ui, &tr!("lk-mail-title")) {
            commands.push(Command::Lookup(LookupCommand::SendInvoiceEmail));
        }
    }

    /// The confirmation before a void: which invoice, whose, how much; it cannot be
    /// undone.
    fn confirm_void(
        &mut self,
        ui: &mut Ui,
        inv: &crate::api::Invoice,
        names: &widgets::Names,
        commands: &mut Vec<Command>,
    ) {
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
                        RichText::new(
                            inv.customer
                                .as_deref()
                                .map_or_else(|| "—".to_string(), |c| names.label(c)),
                        )
                        .strong(),
                    );
                    ui.end_row();
                    ui.label(tr!("lk-amount"));
                    ui.label(RichText::new(crate::i18n::amount_text(inv)).strong());
                    ui.end_row();
                });
            ui.label(tr!("lk-cannot-undo"));
            ui.horizontal(|ui| {
                if widgets::danger_button(ui, &tr!("lk-void-invoice")).clicked() {
                    commands.push(Command::Lookup(LookupCommand::Void(inv.id.clone())));
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

pub use crate::api::safe_payment_link;

/// "Copy payment link" and "Open payment link" (the system browser), or why not.
fn payment_link(
    ui: &mut Ui,
    link: &str,
    notice: &mut Option<String>,
    focus: &mut bool,
    commands: &mut Vec<Command>,
) {
    ui.add_space(4.0);
    match safe_payment_link(link) {
        Some(url) => {
            ui.horizontal(|ui| {
                let copy = ui.button(tr!("lk-copy-link"));
                if std::mem::take(focus) {
                    copy.request_focus();
                }
                if copy.clicked() {
                    ui.ctx().copy_text(url.to_string());
                    *notice = Some(tr!("lk-link-copied"));
                }
                let open = ui
                    .button(tr!("lk-open-link"))
                    .on_hover_text(safe(url.as_str()));
                if open.clicked() {
                    commands.push(Command::Window(WindowCommand::OpenExternal(
                        super::external::External::Link(url.to_string()),
                    )));
                }
            });
        }
        None => {
            ui.label(RichText::new(tr!("lk-link-not-https")).weak());
        }
    }
}

impl crate::ui::Panel for LookupPanel {
    fn service_answered(&mut self) -> bool {
        std::mem::take(&mut self.answered)
    }

    /// Takes finished work (called by the app every frame).
    fn poll(&mut self) {
        self.mail.poll();
        if let Some(r) = take_finished(&mut self.print) {
            self.notice = Some(match crate::ui::task::flat(r) {
                Ok(d) if d.opened.is_ok() => tr!("lk-print-opened", path = d.path.display()),
                Ok(d) => tr!("lk-print-not-opened", path = d.path.display()),
                Err(e) => e,
            });
        }
        if let Some(r) = take_finished(&mut self.fetch) {
            match r {
                Ok(Ok(inv)) => {
                    self.invoice = Some(inv);
                    self.error = None;
                    self.answered = true;
                }
                Ok(Err(e)) => {
                    self.invoice = None;
                    self.error = Some(e);
                }
                Err(TaskError::Cancelled) => {}
                Err(e) => self.error = Some(ApiError::invalid(InputError::Said(e.words()))),
            }
        }
        if let Some(r) = take_finished(&mut self.recheck) {
            match r {
                Ok(Ok((found, inv))) => {
                    match found {
                        Found::Done(..) => {
                            self.notice = Some(tr!("lk-void-went-through"));
                            self.void_unknown = None;
                        }
                        Found::NotDone => {
                            self.notice = Some(tr!("lk-void-did-not"));
                            self.void_unknown = None;
                        }
                        Found::Waiting(until) => {
                            self.notice =
                                Some(tr!("lk-void-waiting", time = crate::i18n::clock(until)));
                        }
                    }
                    if inv.is_some() {
                        self.invoice = inv;
                    }
                }
                Ok(Err(e)) => self.error = Some(e),
                Err(TaskError::Cancelled) => {}
                Err(e) => self.error = Some(ApiError::invalid(InputError::Said(e.words()))),
            }
        }
        if let Some(r) = take_finished(&mut self.void_task) {
            match r {
                Ok(Ok(inv)) => {
                    self.notice = Some(tr!("lk-voided", id = safe(&inv.id)));
                    self.invoice = Some(inv);
                    self.error = None;
                }
                Ok(Err(NotDone::Blocked(b))) => {
                    use crate::journal::Blocked;
                    match *b {
                        Blocked::Done(e) => {
                            self.notice = Some(tr!(
                                "lk-already-voided",
                                id = safe(e.invoice_id.as_deref().unwrap_or("?")),
                                when = crate::i18n::moment(&e.time)
                            ));
                        }
                        Blocked::Pending(e) => {
                            self.void_unknown = e.invoice_id.clone();
                            self.error = Some(ApiError::invalid(InputError::Said(tr!(
                                "lk-void-in-progress",
                                when = crate::i18n::moment(&e.time)
                            ))));
                        }
                        Blocked::LooksLike(_) => {
                            self.error =
                                Some(ApiError::invalid(InputError::Said(tr!("journal-not-sent"))));
                        }
                        Blocked::Journal(e) => {
                            self.error = Some(ApiError::invalid(InputError::Said(
                                crate::i18n::journal_not_sent(&e),
                            )));
                        }
                    }
                }
                Ok(Err(NotDone::Approval(r))) => {
                    // Waiting is news, not an error; a rejection is said as one.
                    let said = crate::i18n::not_approved(&r, crate::i18n::AskedIn::Void);
                    if r.state == crate::journal::approvals::State::Pending {
                        self.error = None;
                        self.notice = Some(said);
                    } else {
                        self.error = Some(ApiError::invalid(InputError::Said(said)));
                    }
                }
                // A void is never a look-alike nor a create whose invoice is missing;
                // said as the journal refusing, if ever.
                Ok(Err(NotDone::LooksLike { .. } | NotDone::Missing(_))) => {
                    self.error = Some(ApiError::invalid(InputError::Said(tr!("journal-not-sent"))));
                }
                Ok(Err(NotDone::Api(e))) => {
                    if e.is_outcome_unknown() {
                        self.void_unknown = self.invoice.as_ref().map(|i| i.id.clone());
                    }
                    self.error = Some(e);
                }
                Err(e) => {
                    self.void_unknown = self.invoice.as_ref().map(|i| i.id.clone());
                    self.error = Some(ApiError::invalid(InputError::Said(tr!(
                        "lk-void-maybe",
                        error = e.words()
                    ))));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::safe_payment_link;

    #[test]
    fn only_plain_https_links_are_offered() {
        // A bidi mark is sent percent-encoded, never as the character.
        assert_eq!(
            safe_payment_link("https://pay.example.cl/\u{202e}x")
                .unwrap()
                .path(),
            "/%E2%80%AEx"
        );
        assert_eq!(
            safe_payment_link("https://pay.example.cl/in_1?x=1").map(|u| u.to_string()),
            Some("https://pay.example.cl/in_1?x=1".into())
        );
        for bad in [
            "http://pay.example.cl/in_1",
            "javascript:alert(1)",
            "file:///etc/passwd",
            "https://bank.cl@evil.example/",
            "https://user:pw@pay.example.cl/",
            "https://pay.example.cl/a b",
            " https://pay.example.cl/",
            "https://",
            "pay.example.cl",
            "",
        ] {
            assert!(safe_payment_link(bad).is_none(), "{bad:?}");
        }
    }
}
