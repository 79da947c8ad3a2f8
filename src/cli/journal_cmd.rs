//! `invoice-desk journal`: list, export, verify, resolve.

use super::journal_open::{failure, open};
use super::{CliError, JournalAction, JournalArgs, JournalCommand, JournalFilter, JournalOutcome};
use crate::journal::{self, Action, Checked, Entry, Filter, Journal, Outcome, SharedJournal};
use crate::text::{escape_controls, escape_json_for_terminal};
use crate::tr;

impl From<journal::JournalError> for CliError {
    fn from(e: journal::JournalError) -> CliError {
        failure(e)
    }
}

fn filter(f: &JournalFilter) -> Filter {
    Filter {
        since: f.since,
        action: f.action.map(|a| match a {
            JournalAction::Create => Action::Create,
            JournalAction::Void => Action::Void,
            JournalAction::Export => Action::Export,
            JournalAction::Email => Action::Email,
        }),
        outcome: f.outcome.map(|o| match o {
            JournalOutcome::Done => Outcome::Done,
            JournalOutcome::Refused => Outcome::Refused,
            JournalOutcome::Unknown => Outcome::Unknown,
        }),
        ..Filter::default()
    }
}

/// Local time, to the second, for people.
fn local_time(rfc3339: &str) -> String {
    chrono::DateTime::parse_from_rfc3339(rfc3339)
        .map(|t| {
            t.with_timezone(&chrono::Local)
                .format("%Y-%m-%d %H:%M:%S")
                .to_string()
        })
        .unwrap_or_else(|_| rfc3339.to_string())
}

fn amount(e: &Entry) -> String {
    match (&e.amount, &e.currency_code) {
        (Some(a), Some(c)) => format!("{a} {c}"),
        (Some(a), None) => format!("{a} {}", tr!("cli-account-currency")),
        _ => String::new(),
    }
}

fn what(e: &Entry) -> String {
    let mut parts = Vec::new();
    match &e.external_id {
        // An e-mail's key, as a clerk reads it ("Recordatorio, 90 días de atraso (2026-11)").
        Some(k) if e.action == Action::Email => {
            parts.push(crate::mail::key_words_in(crate::i18n::current(), k));
        }
        Some(r) => parts.push(tr!("cli-ref", reference = r)),
        None => {}
    }
    if let Some(f) = &e.file_name {
        parts.push(f.clone());
    }
    if let Some(n) = e.rows {
        parts.push(tr!("cli-rows", count = n));
    }
    parts.join(", ")
}

fn outcome(e: &Entry) -> String {
    let mut s = crate::i18n::outcome_word(e.outcome);
    if let Some(k) = &e.error_kind {
        s.push_str(&format!(" ({k}"));
        if let Some(c) = &e.error_code {
            s.push_str(&format!(" {c}"));
        }
        s.push(')');
    }
    if e.checked {
        s.push(' ');
        s.push_str(&tr!("cli-checked"));
    }
    s
}

/// Runs a `journal` command.
pub(super) async fn journal_command(
    args: JournalArgs,
    profile: Option<&str>,
    json: bool,
) -> Result<(), CliError> {
    match args.command {
        None => list(&args.filter, json),
        Some(JournalCommand::List(f)) => list(&f, json),
        Some(JournalCommand::Export { out, filter: f }) => export(&out, &f),
        Some(JournalCommand::Verify) => {
            // A file too damaged to open is damage too (exit 8), not "cannot open".
            let j = match super::settings::journal_choice()?.open() {
                Err(journal::JournalError::Damaged { path, why }) => {
                    return Err(CliError {
                        code: super::Exit::Tampered,
                        message: tr!("cli-journal-damaged", path = path.display(), why = why),
                    });
                }
                other => other.map_err(failure)?,
            };
            match j.verify().map_err(failure)? {
                Ok(n) => {
                    say!("{}", tr!("cli-journal-intact", count = n));
                    Ok(())
                }
                Err(b) => Err(CliError {
                    code: super::Exit::Tampered,
                    message: if b.seq == 0 {
                        tr!("cli-journal-broken", why = b.why)
                    } else {
                        tr!("cli-journal-broken-at", seq = b.seq, why = b.why)
                    },
                }),
            }
        }
        Some(JournalCommand::Init {
            url,
            clerks,
            time_zone,
        }) => init(&url, clerks.as_deref(), time_zone.as_deref()),
        Some(JournalCommand::Push { to, from }) => push(&to, from.as_deref()),
        Some(JournalCommand::Policy {
            url,
            approve_voids,
            approve_runs_over,
            approve_amount_over,
            approval_hours,
            off,
        }) => {
            let change = crate::journal::approvals::PolicyChange {
                voids: approve_voids,
                runs_over: approve_runs_over,
                amount_over: super::approvals_cmd::amount_over(approve_amount_over)?,
                hours: approval_hours,
                off,
            };
            super::approvals_cmd::policy(url.as_deref(), change, json)
        }
        Some(JournalCommand::Resolve { include_recent: _ }) => {
            let resolved = super::settings::resolve(profile)?;
            let base = resolved.config.base_url.clone();
            let client = crate::api::Client::new(resolved.config).map_err(CliError::from)?;
            let shared = SharedJournal::new(open()?);
            let checked = journal::resolve(&shared, &client, &base)
                .await
                .map_err(failure)?;
            let (mut unreachable, mut waiting) = (0, 0);
            let mut until: Option<chrono::DateTime<chrono::Utc>> = None;
            for (e, found) in &checked {
                let what = match found {
                    Checked::Settled(s) => match (s.outcome, &s.invoice_id) {
                        (Outcome::Done, Some(id)) => {
                            tr!("cli-resolved-done", id = escape_controls(id))
                        }
                        (o, _) => format!(
                            "{}{}",
                            o.as_str(),
                            s.error_kind
                                .as_deref()
                                .map(|k| format!(" ({k})"))
                                .unwrap_or_default()
                        ),
                    },
                    Checked::Waiting(t) => {
                        waiting += 1;
                        until = until.max(Some(*t));
                        tr!(
                            "cli-resolved-waiting",
                            time = t.with_timezone(&chrono::Local).format("%H:%M:%S")
                        )
                    }
                    Checked::Unreachable => {
                        unreachable += 1;
                        tr!("cli-resolved-unreachable")
                    }
                };
                say!(
                    "{} {} {} {}: {what}",
                    e.seq,
                    e.action.as_str(),
                    escape_controls(e.customer.as_deref().unwrap_or("")),
                    escape_controls(
                        e.external_id
                            .as_deref()
                            .or(e.invoice_id.as_deref())
                            .unwrap_or("")
                    ),
                );
            }
            if checked.is_empty() {
                say!("{}", tr!("cli-nothing-to-check"));
            }
            if let Some(t) = until {
                say!(
                    "{}",
                    tr!(
                        "cli-entries-wait",
                        count = waiting,
                        time = t.with_timezone(&chrono::Local).format("%H:%M:%S")
                    )
                );
            }
            if unreachable + waiting > 0 {
                return Err(CliError {
                    code: super::Exit::Unknown,
                    message: tr!("cli-still-unknown", count = unreachable + waiting),
                });
            }
            Ok(())
        }
    }
}

/// `journal init URL [--clerks ROLE]`: the shared journal's tables, and what the clerks'
/// role may do with them.
fn init(url: &str, clerks: Option<&str>, time_zone: Option<&str>) -> Result<(), CliError> {
    if !journal::is_database_url(url) {
        return Err(CliError::usage(tr!("cli-init-not-a-database")));
    }
    if let Some(zone) = time_zone
        && journal::LocalZone::named(zone).is_err()
    {
        return Err(CliError::usage(tr!(
            "cli-no-such-time-zone",
            zone = escape_controls(zone)
        )));
    }
    let password = super::settings::journal_password(url)?;
    journal::init_shared(url, password.as_deref(), clerks, time_zone).map_err(failure)?;
    match clerks {
        Some(role) => say!("{}", tr!("cli-init-done-for", role = escape_controls(role))),
        None => {
            say!("{}", tr!("cli-init-done"));
            say!("{}", journal::shared_grants("CLERKS_ROLE"));
        }
    }
    Ok(())
}

/// `journal push --to URL [--from FILE]`.
fn push(to: &str, from: Option<&std::path::Path>) -> Result<(), CliError> {
    if !journal::is_database_url(to) {
        return Err(CliError::usage(tr!("cli-push-not-a-database")));
    }
    let local = match from {
        Some(p) => p.to_path_buf(),
        None => journal::chosen_path(None)
            .filter(|p| !journal::is_database_url(&p.to_string_lossy()))
            .or_else(journal::default_file)
            .ok_or_else(|| CliError::usage(tr!("cli-no-config-folder")))?,
    };
    if !local.is_file() {
        return Err(CliError::usage(tr!(
            "cli-push-no-local",
            path = local.display()
        )));
    }
    let source = Journal::open(&local).map_err(failure)?;
    let password = super::settings::journal_password(to)?;
    let mut shared = Journal::open_shared(to, password.as_deref()).map_err(failure)?;
    let done = source.push_into(&mut shared).map_err(failure)?;
    say!(
        "{}",
        tr!(
            "cli-pushed",
            copied = done.copied,
            already = done.already,
            path = local.display()
        )
    );
    // The directory comes along: on the desk's journal the billing runs find customers
    // by the names and RUTs this computer knew.
    let brought = source.bring_directory_into(&mut shared).map_err(failure)?;
    say!("{}", tr!("cli-pushed-directory", count = brought));
    Ok(())
}

fn list(f: &JournalFilter, json: bool) -> Result<(), CliError> {
    let j = open()?;
    let f = filter(f);
    let mut out = std::io::stdout().lock();
    use std::io::Write;
    let io = |e: std::io::Error| super::write_failure(e);
    if !json {
        let header = tr!("cli-journal-header");
        let h: Vec<&str> = header
            .split('|')
            .chain(std::iter::repeat(""))
            .take(8)
            .collect();
        writeln!(
            out,
            "{:>6}  {:19}  {:20}  {:11}  {:16}  {:24}  {:28}  {}",
            h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7]
        )
        .map_err(io)?;
    }
    // Who approved what (a desk's four eyes): few, read once.
    let approved = j.approvals_used().map_err(failure)?;
    let n = journal::each_entry(&j, &f, |e| {
        let approval = approved.get(&e.seq);
        if json {
            let text = match (serde_json::to_value(e), approval) {
                (Ok(serde_json::Value::Object(mut m)), Some(a)) => {
                    m.insert(
                        "approved".into(),
                        serde_json::to_value(a).unwrap_or_default(),
                    );
                    serde_json::Value::Object(m).to_string()
                }
                _ => serde_json::to_string(e).unwrap_or_default(),
            };
            writeln!(out, "{}", escape_json_for_terminal(&text)).map_err(io)
        } else {
            writeln!(
                out,
                "{:>6}  {:19}  {:20}  {:11}  {:16}  {:24}  {:28}  {}",
                e.seq,
                local_time(&e.time),
                crate::i18n::writer(e),
                crate::i18n::action_word(e.action),
                escape_controls(e.customer.as_deref().unwrap_or("")),
                escape_controls(&amount(e)),
                escape_controls(&match approval {
                    Some(a) => format!("{}, {}", what(e), crate::i18n::approved_by(a)),
                    None => what(e),
                }),
                escape_controls(&outcome(e))
                    + e.invoice_id
                        .as_deref()
                        .map(|i| format!(" {}", escape_controls(i)))
                        .unwrap_or_default()
                        .as_str(),
            )
            .map_err(io)
        }
    })?;
    if !json {
        note!("{}", tr!("cli-entries", count = n));
    }
    Ok(())
}

fn export(out: &std::path::Path, f: &JournalFilter) -> Result<(), CliError> {
    let target = super::destination(out)?;
    let j = open()?;
    let n = journal::export_csv(&j, &filter(f), &target).map_err(|e| CliError {
        code: super::Exit::Failed,
        message: tr!(
            "cli-write-failed",
            path = out.display(),
            why = crate::i18n::io_words(&e)
        ),
    })?;
    note!(
        "{}",
        tr!("cli-journal-exported", count = n, path = out.display())
    );
    Ok(())
}

/// Runs a `customers` command.
pub(super) fn customers_command(cmd: super::CustomersCommand, json: bool) -> Result<(), CliError> {
    match cmd {
        super::CustomersCommand::Import { file } => {
            let rows = journal::read_import(&file).map_err(|problems| {
                let mut message = tr!("cli-not-imported", path = file.display());
                for p in &problems {
                    message.push_str(&format!("\n  {}", crate::i18n::import_problem(p)));
                }
                CliError {
                    code: super::Exit::Usage,
                    message,
                }
            })?;
            let mut j = open()?;
            let n = j.import_customers(&rows).map_err(failure)?;
            say!("{}", tr!("cli-imported", count = n));
            Ok(())
        }
        super::CustomersCommand::Find { text } => {
            let j = open()?;
            let found = j
                .find_customers(text.as_deref().unwrap_or(""), 10_000)
                .map_err(failure)?;
            for c in &found {
                if json {
                    let line = serde_json::to_string(c).unwrap_or_default();
                    say!("{}", escape_json_for_terminal(&line));
                } else {
                    say!("{}", escape_controls(&c.line()));
                }
            }
            note!("{}", tr!("cli-customers", count = found.len()));
            Ok(())
        }
        super::CustomersCommand::Contacts {
            customer,
            emails,
            clear,
        } => {
            crate::api::checked_customer_id(&customer).map_err(|_| {
                CliError::usage(tr!("cli-contacts-bad-id", id = escape_controls(&customer)))
            })?;
            let mut j = open()?;
            if emails.is_empty() && !clear {
                let known = j.customer(&customer).map_err(failure)?.unwrap_or_default();
                if known.emails.is_empty() {
                    note!(
                        "{}",
                        tr!("cli-contacts-none", customer = escape_controls(&customer))
                    );
                }
                for e in &known.emails {
                    say!("{}", escape_controls(e));
                }
                return Ok(());
            }
            let list = crate::address::parse_addresses(&emails.join(" ")).map_err(|bad| {
                CliError::usage(tr!("cli-contacts-bad-email", email = escape_controls(&bad)))
            })?;
            j.set_customer_emails(&customer, &list).map_err(failure)?;
            say!(
                "{}",
                tr!(
                    "cli-contacts-set",
                    customer = escape_controls(&customer),
                    count = list.len()
                )
            );
            Ok(())
        }
    }
}
