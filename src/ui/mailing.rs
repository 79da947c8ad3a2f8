//! E-mailing a document from a panel: made and shown first (to whom, subject, text,
//! attachment, and whether it was sent before), then sent once through the profile's
//! mail server and the app's journal (`mail::Outbox`), off the UI thread. What came of
//! it is said in the clerk's words.

use super::journal::AppJournal;
use super::task::{Task, take_finished};
use super::widgets;
use crate::api::Invoice;
use crate::journal::{Entry, Outcome, identity};
use crate::mail::documents::{Desk, NotMade};
use crate::mail::{Again, Draft, Mailer, Outbox, Sent};
use crate::profile::{Profile, SecretKind, SecretStore};
use crate::text::escape_controls as safe;
use crate::tr;
use egui::{RichText, Ui};
use std::path::PathBuf;
use std::sync::Arc;

/// An e-mail made and ready to be shown, then sent.
#[derive(Clone, Debug)]
pub struct Prepared {
    /// What would be sent.
    pub draft: Draft,
    /// The customer as the clerk knows them (name, else id).
    pub who: String,
    /// The addresses, as shown.
    pub to: String,
    /// An earlier send of the same e-mail (done, or not known), if any.
    pub before: Option<Entry>,
    profile: Profile,
}

/// What came of a send: the words, and whether they say a problem.
pub type Said = (String, bool);

/// What must hold before an e-mail is made: a mail server and the sender's organization.
fn usable(profile: &Profile) -> Result<crate::mail::Checked, String> {
    if profile.sender.organization.trim().is_empty() {
        return Err(tr!("mail-no-sender"));
    }
    profile
        .mail
        .check()
        .map_err(|e| crate::i18n::mail_problem(&e))
}

fn desk(
    profile: &Profile,
    checked: &crate::mail::Checked,
    templates: Option<PathBuf>,
    uf: Option<crate::uf::UfDay>,
) -> Desk {
    Desk {
        sender: profile.sender.clone(),
        lang: crate::i18n::current(),
        templates,
        reply_address: checked.from.email.to_string(),
        reply_to: checked.reply_to.as_ref().map(|r| r.email.to_string()),
        uf,
    }
}

/// `as_of` when given (a fixed day: tests), else the desk's today (`Journal::today`:
/// the server's clock in the desk's time zone), whose month an e-mail is claimed under.
async fn desk_day(
    journal: &AppJournal,
    as_of: Option<chrono::NaiveDate>,
) -> Result<chrono::NaiveDate, String> {
    match as_of {
        Some(d) => Ok(d),
        None => journal.read(|j| j.today()).await,
    }
}

/// Makes invoice `inv`'s e-mail (its PDF, the texts: the clerk's own from `templates`
/// when there) for the clerk to see.
pub async fn prepare_invoice(
    inv: Invoice,
    profile: Profile,
    journal: AppJournal,
    as_of: Option<chrono::NaiveDate>,
    templates: Option<PathBuf>,
) -> Result<Prepared, String> {
    let checked = usable(&profile)?;
    let as_of = desk_day(&journal, as_of).await?;
    let customer = inv.customer.clone().unwrap_or_default();
    let known = journal.read(move |j| j.customer_or_id(&customer)).await?;
    let who = known.name.clone().unwrap_or_else(|| known.id.clone());
    let d = desk(&profile, &checked, templates, None);
    let draft = tokio::task::spawn_blocking(move || d.invoice(&known, &inv, as_of))
        .await
        .unwrap_or_else(|e| Err(NotMade::worker_lost(e)))
        .map_err(|e| not_made(&e, &who))?;
    shown(draft, who, profile, journal).await
}

/// Makes customer `customer`'s statement e-mail from the invoices listed, for the clerk
/// to see.
pub async fn prepare_statement(
    customer: String,
    invoices: Vec<Invoice>,
    profile: Profile,
    journal: AppJournal,
    as_of: Option<chrono::NaiveDate>,
    templates: Option<PathBuf>,
    uf: Option<crate::uf::UfDay>,
) -> Result<Prepared, String> {
    let checked = usable(&profile)?;
    let as_of = desk_day(&journal, as_of).await?;
    let known = journal.read(move |j| j.customer_or_id(&customer)).await?;
    let who = known.name.clone().unwrap_or_else(|| known.id.clone());
    let d = desk(&profile, &checked, templates, uf);
    let draft = tokio::task::spawn_blocking(move || {
        let listed =
            crate::receivables::Listing::of(&invoices, as_of, crate::receivables::Keep::Owed);
        d.statement(&known, listed, false)
    })
    .await
    .unwrap_or_else(|e| Err(NotMade::worker_lost(e)))
    .map_err(|e| not_made(&e, &who))?;
    shown(draft, who, profile, journal).await
}

/// How many customers a month's sample tries before saying none would get an e-mail.
const SAMPLE_TRIES: usize = 20;

/// The e-mail the first customer of `ids` would get in a month's run (the first with an
/// address who owes, or is late enough for a reminder), made as the run makes it, for
/// the clerk to read before sending to everyone. Nothing is sent or claimed.
pub async fn month_sample(
    session: Arc<super::session::Session>,
    ids: Vec<String>,
    as_of: Option<chrono::NaiveDate>,
    reminders: bool,
    journal: AppJournal,
    templates: Option<PathBuf>,
    uf: Option<crate::uf::UfDay>,
) -> Result<Prepared, String> {
    let profile = &session.profile;
    let checked = usable(profile)?;
    let as_of = desk_day(&journal, as_of).await?;
    let d = desk(profile, &checked, templates, uf);
    for id in ids.into_iter().take(SAMPLE_TRIES) {
        let known = journal.read(move |j| j.customer_or_id(&id)).await?;
        let who = known.name.clone().unwrap_or_else(|| known.id.clone());
        match d
            .statement_listed(&session.client, known, as_of, false, reminders)
            .await
        {
            Ok(draft) => return shown(draft, who, profile.clone(), journal).await,
            Err(NotMade::NoAddress | NotMade::NothingOwed) => continue,
            Err(e) => return Err(not_made(&e, &who)),
        }
    }
    Err(tr!("rv-mail-sample-none", count = SAMPLE_TRIES))
}

/// `draft` with what the dialog shows beside it: the customer, the addresses, an
/// earlier send of the same e-mail.
async fn shown(
    draft: Draft,
    who: String,
    profile: Profile,
    journal: AppJournal,
) -> Result<Prepared, String> {
    let scope = identity::mail_scope(&profile.base_url);
    let key = draft.key();
    let before = journal
        .read(move |j| j.claim_holder(&scope, &key))
        .await?
        .filter(|e| e.outcome != Outcome::Refused);
    let to = draft
        .to
        .iter()
        .map(|a| a.to_string())
        .collect::<Vec<_>>()
        .join(", ");
    Ok(Prepared {
        draft,
        who: crate::text::escape_controls(&who).into_owned(),
        to: crate::text::escape_controls(&to).into_owned(),
        before,
        profile,
    })
}

fn not_made(e: &NotMade, who: &str) -> String {
    let who = crate::text::escape_controls(who).into_owned();
    match e {
        NotMade::NoAddress => tr!("lk-mail-no-address", customer = who),
        NotMade::NothingOwed => tr!("lk-mail-nothing-owed", customer = who),
        NotMade::Listing(_) | NotMade::Pdf(_) | NotMade::TooLarge { .. } => {
            tr!("lk-mail-not-made", why = e.why_words())
        }
        NotMade::Template(t) => crate::i18n::template_problem(t),
    }
}

/// The profile's mail server, with its password from the keyring when it asks for a
/// login.
async fn mailer(
    profile: &Profile,
    secrets: &Arc<tokio::sync::OnceCell<Arc<SecretStore>>>,
) -> Result<Mailer, String> {
    let checked = usable(profile)?;
    let password = match &checked.user {
        None => None,
        Some(_) => {
            let store = super::session::get_secrets(secrets).await;
            let name = profile.name.clone();
            tokio::task::spawn_blocking(move || store.get(&name, SecretKind::MailPassword))
                .await
                .map_err(|e| e.to_string())?
                .map_err(|e| crate::i18n::profile_error(&e))?
                .map(Some)
                .ok_or_else(|| tr!("lk-mail-no-password"))?
        }
    };
    Mailer::new(checked, password).map_err(|why| tr!("lk-mail-setup", why = why))
}

/// Sends `p` (again, when the clerk said so), claimed in the app's journal.
pub async fn send(
    p: Prepared,
    again: bool,
    journal: AppJournal,
    secrets: Arc<tokio::sync::OnceCell<Arc<SecretStore>>>,
) -> Result<Said, String> {
    let mailer = mailer(&p.profile, &secrets).await?;
    let shared = journal
        .shared()
        .await
        .map_err(|e| crate::i18n::journal_not_sent(&e))?;
    let mut outbox = Outbox::new(shared, &mailer, &p.profile.name, &p.profile.base_url);
    // One e-mail the clerk looks at: asked again (the box ticked), it goes again.
    let again = if again { Again::All } else { Again::No };
    let sent = outbox
        .send(&p.draft, again)
        .await
        .map_err(|e| crate::i18n::journal_not_sent(&e))?;
    let who = p.who.clone();
    Ok(match sent {
        Sent::Sent { refused, .. } if refused.is_empty() => {
            (tr!("lk-mail-sent", customer = who, to = p.to), false)
        }
        Sent::Sent { refused, .. } => {
            let refused: Vec<String> = refused
                .into_iter()
                .map(|(a, r)| format!("{a} ({r})"))
                .collect();
            (
                tr!(
                    "lk-mail-sent-some-refused",
                    customer = who,
                    refused = refused.join(", ")
                ),
                true,
            )
        }
        Sent::Already(e) => (
            tr!(
                "lk-mail-already",
                when = crate::i18n::moment(&e.time),
                by = e.user
            ),
            false,
        ),
        // Its sender is connected to the shared journal and handing it over now.
        Sent::OnItsWay(e) => (
            tr!("lk-mail-on-its-way", by = crate::i18n::writer(&e)),
            false,
        ),
        Sent::AgainTo { results, .. } => {
            let (took, not) = again_to(results);
            if not.is_empty() {
                (
                    tr!(
                        "lk-mail-sent-some-refused",
                        customer = who,
                        refused = not.join(", ")
                    ),
                    true,
                )
            } else {
                (
                    tr!(
                        "lk-mail-sent-again-to",
                        customer = who,
                        to = took.join(", ")
                    ),
                    false,
                )
            }
        }
        Sent::Unknown(_) | Sent::Lost { .. } => (tr!("lk-mail-unknown", customer = who), true),
        Sent::NoAddress => (tr!("lk-mail-no-address", customer = who), true),
        Sent::Refused { reply, .. } => (tr!("lk-mail-refused", reply = reply), true),
        Sent::Later { reply } => (tr!("lk-mail-later", reply = reply), true),
        Sent::Setup { why } => (tr!("lk-mail-setup", why = why), true),
    })
}

/// What a month's e-mail run from Cartera came to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Customer by customer (the CLI's run counts the same way).
    pub counted: crate::mail::month::Tally,
    /// Why the run stopped before the end (the server unusable, or the clerk).
    pub stopped: Option<String>,
    /// Whether it sent reminders (its summary says so), not statements.
    pub reminders: bool,
}

/// What a month's run needs besides the customers.
pub struct MonthRun {
    /// The connection (its profile's mail server, sender and service).
    pub session: Arc<super::session::Session>,
    /// The day the statements are made on; its month is the e-mails'. `None`: the
    /// desk's today (`Journal::today`: the server's clock in the desk's time zone).
    pub as_of: Option<chrono::NaiveDate>,
    /// Reminders (30/60/90 days) instead of statements.
    pub reminders: bool,
    /// The app's journal.
    pub journal: AppJournal,
    /// The keyring (the mail server's password).
    pub secrets: Arc<tokio::sync::OnceCell<Arc<SecretStore>>>,
    /// The clerk's templates folder.
    pub templates: Option<PathBuf>,
    /// The UF's value for the statements' line in pesos, when the clerk chose it.
    pub uf: Option<crate::uf::UfDay>,
}

/// E-mails each customer of `ids` their statement (or reminder) of the month, once
/// (`mail::month::run`, the loop the CLI runs too): `done` counts the customers, `stop`
/// ends the run before the next one.
pub async fn month(
    run: MonthRun,
    ids: Vec<String>,
    done: Arc<std::sync::atomic::AtomicUsize>,
    stop: Arc<std::sync::atomic::AtomicBool>,
    repaint: egui::Context,
) -> Result<Tally, String> {
    use crate::mail::month::{Ended, Month, MonthError};
    let profile = &run.session.profile;
    let mailer = mailer(profile, &run.secrets).await?;
    let desk = desk(profile, mailer.settings(), run.templates.clone(), run.uf);
    let shared = run
        .journal
        .shared()
        .await
        .map_err(|e| crate::i18n::journal_not_sent(&e))?;
    let as_of = desk_day(&run.journal, run.as_of).await?;
    let mut outbox = Outbox::new(shared, &mailer, &profile.name, &profile.base_url);
    // The desk's four eyes: a run to more customers than its limit asks first.
    let scope = outbox.scope();
    outbox.four_eyes = crate::ui::approvals::cleared(
        crate::journal::approvals::mail_four_eyes(outbox.journal(), &scope, &ids, as_of).await,
    )?;
    let month = Month {
        client: &run.session.client,
        desk: &desk,
        as_of,
        all: false,
        reminders: run.reminders,
        again: Again::No,
        preview: false,
    };
    let mut tally = Tally {
        reminders: run.reminders,
        ..Tally::default()
    };
    let ended = crate::mail::month::run(&month, &mut outbox, &ids, &stop, |n, who, turn| {
        tally.counted.count(who, turn);
        done.store(n + 1, std::sync::atomic::Ordering::Relaxed);
        repaint.request_repaint();
    })
    .await
    .map_err(|e| match e {
        MonthError::Journal(e) => crate::i18n::journal_not_sent(&e),
        MonthError::Template(t) => crate::i18n::template_problem(&t),
    })?;
    tally.stopped = match ended {
        Ended::Whole => None,
        Ended::Stopped { .. } => Some(tr!("rv-made-stopped")),
        Ended::Setup(why) => Some(tr!("lk-mail-setup", why = why)),
    };
    Ok(tally)
}

/// What came of an e-mail sent again to the addresses that had refused it: those that
/// took it now, and the others with the server's answer ("malo@… (550 …)").
fn again_to(results: Vec<(String, Sent)>) -> (Vec<String>, Vec<String>) {
    let safe = |t: &str| crate::text::escape_controls(t).into_owned();
    let mut took = Vec::new();
    let mut not = Vec::new();
    for (address, sent) in results {
        match sent {
            Sent::Sent { .. } | Sent::Already(_) => took.push(safe(&address)),
            Sent::Refused { reply, .. } | Sent::Later { reply } => {
                not.push(format!("{} ({})", safe(&address), safe(&reply)));
            }
            _ => not.push(safe(&address)),
        }
    }
    (took, not)
}

/// A month's run in the clerk's words; whether it says a problem.
pub fn tally_words(t: &Tally) -> Said {
    let reminders = t.reminders;
    let stopped = &t.stopped;
    let t = &t.counted;
    let not_sent: Vec<String> = [&t.refused, &t.failed, &t.refused_addresses]
        .into_iter()
        .flatten()
        .cloned()
        .collect();
    let mut words = if reminders {
        tr!(
            "rv-mail-done-reminders",
            sent = t.sent,
            before = t.before,
            nothing = t.nothing_owed
        )
    } else {
        tr!(
            "rv-mail-done",
            sent = t.sent,
            before = t.before,
            nothing = t.nothing_owed
        )
    };
    let named = [
        (
            &t.no_address,
            tr!(
                "rv-mail-no-address",
                count = t.no_address.len(),
                names = t.no_address.join(", ")
            ),
        ),
        (
            &not_sent,
            tr!(
                "rv-mail-not-sent",
                count = not_sent.len(),
                names = not_sent.join("; ")
            ),
        ),
        (
            &t.unknown,
            tr!(
                "rv-mail-unknown",
                count = t.unknown.len(),
                names = t.unknown.join(", ")
            ),
        ),
    ];
    for (who, said) in named {
        if !who.is_empty() {
            words.push(' ');
            words.push_str(&said);
        }
    }
    if let Some(s) = stopped {
        words.push(' ');
        words.push_str(s);
    }
    let problem = !not_sent.is_empty() || !t.unknown.is_empty() || stopped.is_some();
    (words, problem)
}

/// A panel's e-mail of one document: made (off the UI thread), shown for the clerk to
/// send or not, sent, and what came of it.
#[derive(Default)]
pub struct OneEmail {
    prepare: Option<Task<Result<Prepared, String>>>,
    preview: Option<Prepared>,
    /// The clerk ticked "send it again" (it was sent before).
    again: bool,
    send: Option<Task<Result<Said, String>>>,
    said: Option<Said>,
}

impl OneEmail {
    /// Whether an e-mail is being made or sent.
    pub fn busy(&self) -> bool {
        self.prepare.is_some() || self.send.is_some()
    }

    /// Another document is shown (another customer loaded): what was said of the last
    /// one, and an e-mail being made or shown, go. One being sent goes on (its outcome
    /// is journaled) and says what came of it, naming its customer.
    pub fn forget(&mut self) {
        self.prepare = None;
        self.preview = None;
        self.again = false;
        self.said = None;
    }

    /// Starts showing the e-mail `task` makes.
    pub fn preparing(&mut self, task: Task<Result<Prepared, String>>) {
        self.said = None;
        self.again = false;
        self.prepare = Some(task);
    }

    /// Sends the e-mail shown (once; again only when the clerk ticked it).
    pub fn send(
        &mut self,
        spawner: &super::task::Spawner,
        journal: &AppJournal,
        secrets: Arc<tokio::sync::OnceCell<Arc<SecretStore>>>,
    ) {
        let Some(p) = self.preview.take() else {
            return;
        };
        let again = std::mem::take(&mut self.again);
        self.send = Some(spawner.spawn(send(p, again, journal.clone(), secrets)));
    }

    /// Takes finished work.
    pub fn poll(&mut self) {
        if let Some(r) = take_finished(&mut self.prepare) {
            match crate::ui::task::flat(r) {
                Ok(p) => self.preview = Some(p),
                Err(why) => self.said = Some((why, true)),
            }
        }
        if let Some(r) = take_finished(&mut self.send) {
            self.said = Some(match crate::ui::task::flat(r) {
                Ok(said) => said,
                Err(why) => (why, true),
            });
        }
    }

    /// The panel's button (`label`, `hint`), and beside it what is being done; whether
    /// it was clicked.
    pub fn button(&self, ui: &mut Ui, can: bool, label: &str, hint: &str) -> bool {
        let clicked = ui
            .add_enabled(can && !self.busy(), egui::Button::new(label))
            .on_hover_text(hint)
            .clicked();
        if self.busy() {
            widgets::busy(ui);
            ui.label(if self.send.is_some() {
                tr!("lk-mail-sending")
            } else {
                tr!("lk-mail-making")
            });
        }
        clicked
    }

    /// What came of the last e-mail, under the buttons (a problem in the error colour).
    pub fn said(&self, ui: &mut Ui) {
        let Some((words, problem)) = &self.said else {
            // Its line kept blank: what comes to be said moves nothing below it (#68).
            ui.label(" ");
            return;
        };
        let text = if *problem {
            RichText::new(words).color(ui.visuals().error_fg_color)
        } else {
            RichText::new(words)
        };
        let r = ui.label(text);
        widgets::announce(ui, &r, false);
    }

    /// The e-mail shown before it is sent: to whom, subject, attachment, the text, and
    /// an earlier send (then "send it again" must be ticked). Whether Send was clicked.
    pub fn dialog(&mut self, ui: &mut Ui, heading: &str) -> bool {
        let Some(p) = &self.preview else {
            return false;
        };
        let (mut close, mut send) = (false, false);
        let modal = egui::Modal::new(egui::Id::unique("mail_preview")).show(ui.ctx(), |ui| {
            ui.set_max_width(560.0);
            let title = ui.heading(heading);
            widgets::announce(ui, &title, true);
            contents(ui, p);
            ui.add_space(4.0);
            let mut can = true;
            if let Some(e) = &p.before {
                let when = crate::i18n::moment(&e.time);
                let words = if e.outcome == Outcome::Done {
                    tr!("lk-mail-sent-before", when = when, by = safe(&e.user))
                } else {
                    tr!("lk-mail-unknown-before", when = when, by = safe(&e.user))
                };
                ui.label(RichText::new(words).color(ui.visuals().warn_fg_color));
                ui.checkbox(&mut self.again, tr!("lk-mail-again"));
                can = self.again;
            }
            ui.horizontal(|ui| {
                if ui
                    .add_enabled(can, egui::Button::new(tr!("lk-mail-send")))
                    .clicked()
                {
                    send = true;
                }
                if ui.button(tr!("cancel")).clicked() {
                    close = true;
                }
            });
        });
        if close || modal.should_close() {
            self.preview = None;
            self.again = false;
        }
        send
    }
}

/// What an e-mail shown says: to whom, subject, attachments, and the text (scrolled).
pub fn contents(ui: &mut Ui, p: &Prepared) {
    egui::Grid::new("mail_summary")
        .num_columns(2)
        .show(ui, |ui| {
            ui.label(tr!("lk-mail-to"));
            ui.label(RichText::new(format!("{} · {}", p.who, p.to)).strong());
            ui.end_row();
            ui.label(tr!("lk-mail-subject"));
            ui.label(RichText::new(safe(&p.draft.texts.subject)).strong());
            ui.end_row();
            for a in &p.draft.attachments {
                ui.label(tr!("lk-mail-attachment"));
                ui.label(format!(
                    "{} ({} KB)",
                    safe(&a.name),
                    a.bytes.len().div_ceil(1024)
                ));
                ui.end_row();
            }
        });
    ui.add_space(4.0);
    egui::ScrollArea::vertical()
        .max_height(220.0)
        .show(ui, |ui| {
            // Line by line: the text's own line breaks stay, anything else that could
            // steer the screen is escaped.
            let body: Vec<String> = p
                .draft
                .texts
                .body
                .lines()
                .map(|l| safe(l).into_owned())
                .collect();
            ui.label(body.join("\n"));
        });
}
