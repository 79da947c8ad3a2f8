//! E-mailing a document from a panel: made and shown first (to whom, subject, text,
//! attachment, and whether it was sent before), then sent once through the profile's
//! mail server and the app's journal (`mail::Outbox`), off the UI thread. What came of
//! it is said in the clerk's words.

use super::journal::AppJournal;
use crate::api::Invoice;
use crate::journal::{Entry, Outcome, identity};
use crate::mail::documents::{Desk, NotMade};
use crate::mail::{Draft, Mailer, Outbox, Sent};
use crate::profile::{Profile, SecretKind, SecretStore};
use crate::tr;
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

fn desk(profile: &Profile, checked: &crate::mail::Checked, templates: Option<PathBuf>) -> Desk {
    Desk {
        sender: profile.sender.clone(),
        lang: crate::i18n::current(),
        templates,
        reply_address: checked.from.email.to_string(),
    }
}

/// Makes invoice `inv`'s e-mail (its PDF, the texts: the clerk's own from `templates`
/// when there) for the clerk to see.
pub async fn prepare_invoice(
    inv: Invoice,
    profile: Profile,
    journal: AppJournal,
    as_of: chrono::NaiveDate,
    templates: Option<PathBuf>,
) -> Result<Prepared, String> {
    let checked = usable(&profile)?;
    let customer = inv.customer.clone().unwrap_or_default();
    let wanted = customer.clone();
    let known =
        journal
            .read(move |j| j.customer(&wanted))
            .await?
            .unwrap_or(crate::journal::Customer {
                id: customer.clone(),
                ..Default::default()
            });
    let who = known.name.clone().unwrap_or_else(|| customer.clone());
    let d = desk(&profile, &checked, templates);
    let draft = tokio::task::spawn_blocking(move || d.invoice(&known, &inv, as_of))
        .await
        .map_err(|e| tr!("lk-mail-not-made", why = e))?
        .map_err(|e| not_made(&e, &who))?;
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
        NotMade::Pdf(why) => tr!("lk-mail-not-made", why = why),
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
        Sent::OnItsWay(e) => (tr!("lk-mail-on-its-way", by = e.user), false),
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
    /// Sent now.
    pub sent: usize,
    /// Sent before (this month), or being sent right now by someone else.
    pub before: usize,
    /// Customers without an address in the directory (named).
    pub no_address: Vec<String>,
    /// Customers owing nothing (or nothing 30 days overdue, for reminders).
    pub nothing: usize,
    /// Not sent: refused, "later", or the statement could not be made (named, with why).
    pub not_sent: Vec<String>,
    /// Sent and never answered: may have arrived (named).
    pub unknown: Vec<String>,
    /// Why the run stopped before the end (the server unusable, or the clerk).
    pub stopped: Option<String>,
}

/// What a month's run needs besides the customers.
pub struct MonthRun {
    /// The connection (its profile's mail server, sender and service).
    pub session: Arc<super::session::Session>,
    /// The day the statements are made on; its month is the e-mails'.
    pub as_of: chrono::NaiveDate,
    /// Reminders (30/60/90 days) instead of statements.
    pub reminders: bool,
    /// The app's journal.
    pub journal: AppJournal,
    /// The keyring (the mail server's password).
    pub secrets: Arc<tokio::sync::OnceCell<Arc<SecretStore>>>,
    /// The clerk's templates folder.
    pub templates: Option<PathBuf>,
}

/// E-mails each customer of `ids` their statement (or reminder) of the month, once:
/// customers are listed one at a time, `done` counts them, `stop` ends the run before
/// the next one.
pub async fn month(
    run: MonthRun,
    ids: Vec<String>,
    done: Arc<std::sync::atomic::AtomicUsize>,
    stop: Arc<std::sync::atomic::AtomicBool>,
    repaint: egui::Context,
) -> Result<Tally, String> {
    use std::sync::atomic::Ordering;
    let profile = &run.session.profile;
    let mailer = mailer(profile, &run.secrets).await?;
    let desk = desk(profile, mailer.settings(), run.templates.clone());
    let shared = run
        .journal
        .shared()
        .await
        .map_err(|e| crate::i18n::journal_not_sent(&e))?;
    let mut outbox = Outbox::new(shared.clone(), &mailer, &profile.name, &profile.base_url);
    let mut tally = Tally::default();
    for (n, id) in ids.iter().enumerate() {
        if stop.load(Ordering::Relaxed) {
            tally.stopped = Some(tr!("rv-made-stopped"));
            break;
        }
        let wanted = id.clone();
        let known = shared
            .run(move |j| j.customer(&wanted))
            .await
            .map_err(|e| crate::i18n::journal_not_sent(&e))?
            .unwrap_or(crate::journal::Customer {
                id: id.clone(),
                ..Default::default()
            });
        let who = crate::text::escape_controls(known.name.as_deref().unwrap_or(id)).into_owned();
        let made = if crate::mail::documents::addresses(&known).is_empty() {
            Err(NotMade::NoAddress)
        } else {
            match crate::pdf::batch::invoices(&run.session.client, id).await {
                Ok(listed) => {
                    let (d, as_of, reminders) = (desk.clone(), run.as_of, run.reminders);
                    tokio::task::spawn_blocking(move || {
                        d.statement(&known, &listed, as_of, false, reminders)
                    })
                    .await
                    .unwrap_or_else(|e| Err(NotMade::Pdf(e.to_string())))
                }
                Err(e) => Err(NotMade::Pdf(crate::i18n::error_text(&e))),
            }
        };
        match made {
            Err(NotMade::NoAddress) => tally.no_address.push(who),
            Err(NotMade::NothingOwed) => tally.nothing += 1,
            Err(NotMade::Template(t)) => return Err(crate::i18n::template_problem(&t)),
            Err(NotMade::Pdf(why)) => tally.not_sent.push(format!("{who} ({why})")),
            Ok(draft) => match outbox
                .send(&draft, false)
                .await
                .map_err(|e| crate::i18n::journal_not_sent(&e))?
            {
                Sent::Sent { refused, .. } => {
                    tally.sent += 1;
                    for (a, r) in refused {
                        tally.not_sent.push(format!("{who}: {a} ({r})"));
                    }
                }
                Sent::Already(_) | Sent::OnItsWay(_) => tally.before += 1,
                Sent::Unknown(_) | Sent::Lost { .. } => tally.unknown.push(who),
                Sent::NoAddress => tally.no_address.push(who),
                Sent::Refused { reply, .. } | Sent::Later { reply } => {
                    tally.not_sent.push(format!("{who} ({reply})"))
                }
                Sent::Setup { why } => {
                    tally.stopped = Some(tr!("lk-mail-setup", why = why));
                    break;
                }
            },
        }
        done.store(n + 1, Ordering::Relaxed);
        repaint.request_repaint();
    }
    Ok(tally)
}

/// A month's run in the clerk's words; whether it says a problem.
pub fn tally_words(t: &Tally) -> Said {
    let mut words = tr!(
        "rv-mail-done",
        sent = t.sent,
        before = t.before,
        nothing = t.nothing
    );
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
            &t.not_sent,
            tr!(
                "rv-mail-not-sent",
                count = t.not_sent.len(),
                names = t.not_sent.join("; ")
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
    if let Some(s) = &t.stopped {
        words.push(' ');
        words.push_str(s);
    }
    let problem = !t.not_sent.is_empty() || !t.unknown.is_empty() || t.stopped.is_some();
    (words, problem)
}
