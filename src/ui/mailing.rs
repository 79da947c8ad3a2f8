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

/// Sends `p` (again, when the clerk said so), claimed in the app's journal.
pub async fn send(
    p: Prepared,
    again: bool,
    journal: AppJournal,
    secrets: Arc<tokio::sync::OnceCell<Arc<SecretStore>>>,
) -> Result<Said, String> {
    let checked = usable(&p.profile)?;
    let password = match &checked.user {
        None => None,
        Some(_) => {
            let store = super::session::get_secrets(&secrets).await;
            let name = p.profile.name.clone();
            tokio::task::spawn_blocking(move || store.get(&name, SecretKind::MailPassword))
                .await
                .map_err(|e| e.to_string())?
                .map_err(|e| crate::i18n::profile_error(&e))?
                .map(Some)
                .ok_or_else(|| tr!("lk-mail-no-password"))?
        }
    };
    let mailer = Mailer::new(checked, password).map_err(|why| tr!("lk-mail-setup", why = why))?;
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
