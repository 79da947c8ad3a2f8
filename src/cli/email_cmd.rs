//! `email statements`, `email invoice`, `email template`: customers' e-mails through the
//! profile's mail server, each claimed in the journal (`mail::Outbox`).

use super::{CliError, EmailCommand, EmailStatementsArgs, settings};
use crate::api::Client;
use crate::journal::SharedJournal;
use crate::mail::documents::{Desk, NotMade};
use crate::mail::month::{Ended, Month, MonthError, Turn};
use crate::mail::{Again, Draft, Kind, Mailer, Outbox, Sent};
use crate::text::escape_controls;
use crate::tr;
use secrecy::SecretString;
use std::io::IsTerminal;

pub(super) async fn email_command(
    cmd: EmailCommand,
    profile: Option<&str>,
) -> Result<(), CliError> {
    if let EmailCommand::Template { kind, write } = &cmd {
        return template(kind, *write);
    }
    let resolved = settings::resolve(profile)?;
    if resolved.sender.organization.trim().is_empty() {
        return Err(CliError::usage(tr!("cli-mail-no-sender")));
    }
    let checked = resolved
        .mail
        .check()
        .map_err(|e| CliError::usage(crate::i18n::mail_problem(&e)))?;
    let password = match (&checked.user, std::env::var("INVOICE_DESK_SMTP_PASSWORD")) {
        (None, _) => None,
        (Some(_), Ok(p)) if !p.is_empty() => Some(SecretString::from(p)),
        (Some(_), _) => Some(
            settings::secret_store()
                .get(
                    &resolved.profile_name,
                    crate::profile::SecretKind::MailPassword,
                )
                .map_err(CliError::from)?
                .ok_or_else(|| CliError::usage(tr!("cli-mail-no-password")))?,
        ),
    };
    let mut mailer = Mailer::new(checked, password).map_err(|why| CliError {
        code: super::Exit::Network,
        message: tr!("cli-mail-unusable", why = why),
    })?;
    if let Some(s) = env_secs("INVOICE_DESK_MAIL_TIMEOUT") {
        mailer.step_timeout = s;
    }
    let base_url = resolved.config.base_url.clone();
    let client = Client::new(resolved.config).map_err(CliError::from)?;
    let journal = SharedJournal::new(super::journal_open::journal_before_sending()?);
    let desk = Desk {
        sender: resolved.sender.clone(),
        lang: crate::i18n::current(),
        templates: settings::config_dir().map(|d| d.join("templates")),
        reply_address: mailer.settings().from.email.to_string(),
        reply_to: mailer
            .settings()
            .reply_to
            .as_ref()
            .map(|r| r.email.to_string()),
        uf: None,
    };
    let mut outbox = Outbox::new(journal, &mailer, &resolved.profile_name, &base_url);
    if let Some(b) = env_secs("INVOICE_DESK_MAIL_BACKOFF") {
        outbox.backoff = b;
    }
    let mut tally = Tally::default();
    // The journal's server gone (a restart, a failover): said as the wait begins, and
    // when it answers again.
    let down = outbox.journal_down();
    let watch = tokio::spawn(async move {
        let mut said = false;
        loop {
            let since = down.lock().ok().and_then(|d| *d);
            match (since, said) {
                (Some(t), false) => {
                    note!("{}", super::output::journal_down(t));
                    said = true;
                }
                (None, true) => {
                    note!("{}", tr!("cli-journal-back-mail"));
                    said = false;
                }
                _ => {}
            }
            tokio::time::sleep(std::time::Duration::from_millis(250)).await;
        }
    });
    let _stop_watching = crate::api::client::AbortOnDrop(watch);
    match cmd {
        EmailCommand::Statements(a) => {
            statements(&client, &desk, &mut outbox, &a, &mut tally).await?
        }
        EmailCommand::Invoice { id, again, preview } => {
            invoice(&client, &desk, &mut outbox, &id, again, preview, &mut tally).await?
        }
        EmailCommand::Template { .. } => {}
    }
    tally.finish()
}

/// A duration in seconds from the environment (tests shorten the waits).
fn env_secs(name: &str) -> Option<std::time::Duration> {
    std::env::var(name)
        .ok()
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s >= 0.0 && *s <= 3600.0)
        .map(std::time::Duration::from_secs_f64)
}

/// What a run came to, for its last line and exit code: counted customer by customer as
/// the app counts (`mail::month::Tally`).
#[derive(Default)]
struct Tally {
    counted: crate::mail::month::Tally,
    stopped: Option<String>,
}

impl Tally {
    fn finish(self) -> Result<(), CliError> {
        let t = &self.counted;
        if t.previewed > 0 {
            say!("{}", tr!("cli-mail-previewed", count = t.previewed));
        } else {
            say!(
                "{}",
                tr!(
                    "cli-mail-summary",
                    sent = t.sent,
                    before = t.before,
                    unknown = t.unknown.len(),
                    none = t.no_address.len(),
                    refused = t.not_sent()
                )
            );
            if !t.refused_addresses.is_empty() {
                say!(
                    "{}",
                    tr!(
                        "cli-mail-addresses-refused",
                        count = t.refused_addresses.len()
                    )
                );
            }
        }
        if let Some(why) = self.stopped {
            return Err(CliError {
                code: super::Exit::Network,
                message: tr!("cli-mail-stopped", why = why),
            });
        }
        if !t.unknown.is_empty() {
            return Err(CliError {
                code: super::Exit::Unknown,
                message: tr!("cli-mail-unknown-hint"),
            });
        }
        if t.not_sent() > 0 {
            return Err(CliError {
                code: super::Exit::Refused,
                message: String::new(),
            });
        }
        Ok(())
    }

    /// Counts and says customer `who`'s turn; `true`: the run stops (the server cannot
    /// be used).
    fn turn(&mut self, who: &str, turn: &Turn) -> bool {
        self.counted.count(who, turn);
        tell(who, turn);
        match turn {
            Turn::Sent { sent, .. } => match crate::mail::month::setup_why(sent) {
                Some(why) => {
                    self.stopped = Some(why.to_string());
                    true
                }
                None => false,
            },
            _ => false,
        }
    }
}

/// Today for the desk (`Journal::today`): what an e-mail's month is decided by.
async fn desk_today(outbox: &Outbox<'_>) -> Result<chrono::NaiveDate, CliError> {
    outbox
        .journal()
        .run(|j| j.today())
        .await
        .map_err(super::journal_open::not_recorded)
}

async fn statements(
    client: &Client,
    desk: &Desk,
    outbox: &mut Outbox<'_>,
    a: &EmailStatementsArgs,
    tally: &mut Tally,
) -> Result<(), CliError> {
    desk.sender
        .check_logo()
        .map_err(|e| CliError::usage(crate::i18n::sender_problem(&e)))?;
    // The desk's day (the server's clock in the desk's time zone): its month is the
    // e-mails', the same on every clerk's computer whatever its clock or zone.
    let as_of = match a.as_of {
        Some(d) => d,
        None => desk_today(outbox).await?,
    };
    // The line in pesos, on that day's UF, when asked for (said when there is none).
    let with_uf;
    let desk = if a.uf_pesos {
        with_uf = Desk {
            uf: super::uf_cmd::value_or_warning(as_of).await,
            ..desk.clone()
        };
        &with_uf
    } else {
        desk
    };
    let ids: Vec<String> = if let Some(file) = &a.customers {
        super::statement_cmd::read_ids(file)?
    } else if a.all_known {
        outbox
            .journal()
            .run(|j| j.known_customers(super::statement_cmd::MAX_CUSTOMERS as u64))
            .await
            .map_err(super::journal_open::not_recorded)?
            .into_iter()
            .map(|c| c.id)
            .collect()
    } else {
        for c in &a.customer {
            crate::api::checked_customer_id(c).map_err(|_| {
                CliError::usage(tr!("cli-contacts-bad-id", id = escape_controls(c)))
            })?;
        }
        a.customer.clone()
    };
    if ids.is_empty() {
        return Err(CliError::usage(tr!("cli-customers-none")));
    }
    // The desk's four eyes: a run to more customers than its limit asks first.
    outbox.four_eyes = super::approvals_cmd::mail_clearance(outbox, &ids, as_of).await?;
    let again = match (a.again, a.again_all) {
        (_, true) => Again::All,
        (true, false) => Again::InDoubt,
        (false, false) => Again::No,
    };
    let month = Month {
        client,
        desk,
        as_of,
        all: a.all,
        reminders: a.reminders,
        again,
        preview: a.preview,
    };
    let (stop, ctrl_c) = super::stop_on_ctrl_c();
    let total = ids.len();
    let progress = std::io::stderr().is_terminal() && !a.preview;
    let ended = crate::mail::month::run(&month, outbox, &ids, &stop, |n, who, turn| {
        tally.turn(who, turn);
        if progress {
            note_part!(
                "\r{}   ",
                tr!("cli-statements-progress", done = n + 1, total = total)
            );
        }
    })
    .await;
    ctrl_c.abort();
    match ended {
        Ok(Ended::Whole | Ended::Setup(_)) => {}
        Ok(Ended::Stopped { done }) => {
            tally.stopped = Some(tr!("cli-statements-stopped", done = done, total = total));
        }
        Err(MonthError::Journal(e)) => return Err(super::journal_open::not_recorded(e)),
        Err(MonthError::Template(t)) => {
            return Err(CliError::usage(crate::i18n::template_problem(&t)));
        }
    }
    Ok(())
}

/// The directory's entry for `id` (only the id when it has none).
async fn directory_entry(
    outbox: &Outbox<'_>,
    id: &str,
) -> Result<crate::journal::Customer, CliError> {
    let wanted = id.to_string();
    outbox
        .journal()
        .run(move |j| j.customer_or_id(&wanted))
        .await
        .map_err(super::journal_open::not_recorded)
}

/// Says customer `who`'s turn, as it goes.
fn tell(who: &str, turn: &Turn) {
    match turn {
        Turn::NotMade(NotMade::NoAddress) => {
            note!("{}", tr!("cli-mail-no-address", customer = who));
        }
        Turn::NotMade(NotMade::NothingOwed) => {}
        Turn::NotMade(why) => {
            note!(
                "{}",
                tr!("cli-mail-not-made", customer = who, why = why.why_words())
            );
        }
        Turn::Previewed { draft, holder } => previewed(who, draft, holder.as_ref()),
        Turn::Sent { draft, sent } => said(sent, who, draft),
    }
}

async fn invoice(
    client: &Client,
    desk: &Desk,
    outbox: &mut Outbox<'_>,
    id: &str,
    again: bool,
    preview: bool,
    tally: &mut Tally,
) -> Result<(), CliError> {
    desk.sender
        .check_logo()
        .map_err(|e| CliError::usage(crate::i18n::sender_problem(&e)))?;
    let inv = client.get_invoice(id).await?;
    let customer = inv.customer.clone().unwrap_or_default();
    let known = directory_entry(outbox, &customer).await?;
    let who = escape_controls(known.name.as_deref().unwrap_or(&customer)).into_owned();
    let as_of = desk_today(outbox).await?;
    let d = desk.clone();
    let made = tokio::task::spawn_blocking(move || d.invoice(&known, &inv, as_of))
        .await
        .unwrap_or_else(|e| Err(NotMade::worker_lost(e)));
    let turn = match made {
        Err(NotMade::Template(t)) => {
            return Err(CliError::usage(crate::i18n::template_problem(&t)));
        }
        Err(why) => Turn::NotMade(why),
        Ok(draft) => {
            // One invoice named: asked again, it goes again.
            let again = if again { Again::All } else { Again::No };
            if preview {
                let (_, holder) = outbox
                    .key_for(&draft, again)
                    .await
                    .map_err(super::journal_open::not_recorded)?;
                Turn::Previewed { draft, holder }
            } else {
                let sent = outbox
                    .send(&draft, again)
                    .await
                    .map_err(super::journal_open::not_recorded)?;
                Turn::Sent { draft, sent }
            }
        }
    };
    tally.turn(&who, &turn);
    Ok(())
}

/// Says what a previewed e-mail would be: to whom, its subject, attachments and text,
/// and whether it was sent before.
fn previewed(who: &str, draft: &Draft, holder: Option<&crate::journal::Entry>) {
    let to: Vec<String> = draft.to.iter().map(|a| a.to_string()).collect();
    let to = escape_controls(&to.join(", ")).into_owned();
    say!("{}", tr!("cli-mail-preview-to", customer = who, to = to));
    say!(
        "{}",
        tr!(
            "cli-mail-preview-subject",
            subject = escape_controls(&draft.texts.subject)
        )
    );
    for a in &draft.attachments {
        say!(
            "{}",
            tr!(
                "cli-mail-preview-attachment",
                name = escape_controls(&a.name),
                kb = a.bytes.len().div_ceil(1024)
            )
        );
    }
    say!("");
    for line in draft.texts.body.lines() {
        say!("    {}", escape_controls(line));
    }
    say!("");
    match holder {
        Some(h) if h.outcome == crate::journal::Outcome::Done => say!(
            "{}",
            tr!(
                "cli-mail-preview-sent-before",
                when = crate::i18n::moment(&h.time),
                by = crate::i18n::writer(h)
            )
        ),
        Some(h) if h.outcome == crate::journal::Outcome::Unknown => say!(
            "{}",
            tr!(
                "cli-mail-preview-in-doubt",
                when = crate::i18n::moment(&h.time),
                by = crate::i18n::writer(h)
            )
        ),
        _ => {}
    }
}

/// Says what came of sending `draft` to customer `who` (counted by `mail::month::Tally`).
fn said(sent: &Sent, who: &str, draft: &Draft) {
    match sent {
        Sent::Sent { reply, refused, .. } => {
            // Only the addresses that took it.
            let took: Vec<String> = draft
                .to
                .iter()
                .map(|a| a.to_string())
                .filter(|a| !refused.iter().any(|(r, _)| r == a))
                .collect();
            let to = escape_controls(&took.join(", ")).into_owned();
            say!(
                "{}",
                tr!("cli-mail-sent", customer = who, to = to, reply = reply)
            );
            refused_one_by_one(refused);
        }
        Sent::AgainTo { before, results } => {
            said(&Sent::Already(before.clone()), who, draft);
            for (address, r) in results {
                match r {
                    Sent::Sent { reply, .. } => say!(
                        "{}",
                        tr!(
                            "cli-mail-sent-to-refused",
                            customer = who,
                            address = escape_controls(address),
                            reply = reply
                        )
                    ),
                    Sent::Refused { refused, reply } if refused.is_empty() => {
                        refused_one_by_one(&[(address.clone(), reply.clone())]);
                    }
                    Sent::Refused { refused, .. } => refused_one_by_one(refused),
                    other => {
                        let one = Draft {
                            to: draft
                                .to
                                .iter()
                                .filter(|a| a.to_string() == *address)
                                .cloned()
                                .collect(),
                            again_to: Some(address.clone()),
                            ..draft.clone()
                        };
                        said(other, who, &one);
                    }
                }
            }
        }
        Sent::Already(e) => say!(
            "{}",
            tr!(
                "cli-mail-already",
                customer = who,
                when = crate::i18n::moment(&e.time),
                by = escape_controls(&e.user)
            )
        ),
        // Its sender is connected to the shared journal and handing it over now.
        Sent::OnItsWay(e) => say!(
            "{}",
            tr!(
                "cli-mail-on-its-way",
                customer = who,
                by = crate::i18n::writer(e)
            )
        ),
        Sent::Unknown(e) => note!(
            "{}",
            tr!(
                "cli-mail-unknown",
                customer = who,
                when = crate::i18n::moment(&e.time),
                seq = e.seq
            )
        ),
        Sent::NoAddress => note!("{}", tr!("cli-mail-no-address", customer = who)),
        Sent::Refused { reply, refused } => {
            note!("{}", tr!("cli-mail-refused", customer = who, reply = reply));
            refused_one_by_one(refused);
        }
        Sent::Later { reply } => {
            note!("{}", tr!("cli-mail-later", customer = who, reply = reply));
        }
        Sent::Lost { seq, why } => note!(
            "{}",
            tr!("cli-mail-lost", customer = who, why = why, seq = seq)
        ),
        // Said by the run's end (`cli-mail-stopped`).
        Sent::Setup { .. } => {}
    }
}

/// The addresses the server refused one by one, each on a line.
fn refused_one_by_one(refused: &[(String, String)]) {
    for (address, answer) in refused {
        note!(
            "{}",
            tr!(
                "cli-mail-recipient-refused",
                address = escape_controls(address),
                reply = answer
            )
        );
    }
}

/// `email template KIND [--write]`.
fn template(kind: &str, write: bool) -> Result<(), CliError> {
    let Some(kind) = Kind::parse(kind.trim()) else {
        return Err(CliError::usage(tr!(
            "cli-mail-no-such-template",
            kind = escape_controls(kind)
        )));
    };
    let lang = crate::i18n::current();
    let text = crate::mail::compose::default_template(kind, lang);
    let dir = settings::config_dir()
        .map(|d| d.join("templates"))
        .ok_or_else(|| CliError::usage(tr!("cli-no-config-folder")))?;
    let path = crate::mail::compose::template_path(&dir, kind, lang);
    if !write {
        if path.is_file() {
            note!("{}", tr!("cli-mail-template-used", path = path.display()));
            let own = std::fs::read_to_string(&path).map_err(|e| CliError::usage(e.to_string()))?;
            say_part!("{}", escape_controls(&own));
        } else {
            note!(
                "{}",
                tr!("cli-mail-template-builtin", path = path.display())
            );
            say_part!("{text}");
        }
        return Ok(());
    }
    if path.exists() {
        return Err(CliError::usage(tr!(
            "cli-mail-template-exists",
            path = path.display()
        )));
    }
    std::fs::create_dir_all(&dir)
        .and_then(|_| std::fs::write(&path, text))
        .map_err(|e| CliError {
            code: super::Exit::Failed,
            message: tr!(
                "cli-write-failed",
                path = path.display(),
                why = crate::i18n::io_words(&e)
            ),
        })?;
    say!(
        "{}",
        tr!("cli-mail-template-written", path = path.display())
    );
    Ok(())
}
