//! `invoice-desk uf`: the UF's value in pesos on a day (kept in the journal, else
//! fetched from the CMF and kept), a file of values imported, the CMF key kept.

use super::{CliError, UfCommand, settings};
use crate::tr;
use crate::uf::{Source, UfError};
use secrecy::SecretString;

/// The source: INVOICE_DESK_CMF_URL and INVOICE_DESK_CMF_KEY when set (scripts, the
/// sandbox), else what the settings and the keyring say.
pub(super) fn source() -> Result<Source, UfError> {
    let env = |n: &str| std::env::var(n).ok().filter(|v| !v.trim().is_empty());
    if let Some(address) = env("INVOICE_DESK_CMF_URL") {
        let url = crate::uf::checked_address(&address)?;
        let key = env("INVOICE_DESK_CMF_KEY").ok_or(UfError::NoKey)?;
        return Ok(Source {
            address: url,
            key: SecretString::from(key),
        });
    }
    let profiles = match settings::profiles_path() {
        Ok(p) => crate::profile::Profiles::load(&p).unwrap_or_default(),
        Err(_) => crate::profile::Profiles::default(),
    };
    let mut profiles = profiles;
    // The CLI never runs the built-in sandbox's profile (it has no server to ask).
    if profiles.active_profile().is_some_and(|p| p.sandbox) {
        profiles.active = None;
    }
    crate::uf::source_for(&profiles, &settings::secret_store())
}

/// The UF's value on `day` for a statement's line in pesos; without one, why (a
/// warning on stderr) and `None`: the statement says UF alone.
pub(super) async fn value_or_warning(day: chrono::NaiveDate) -> Option<crate::uf::UfDay> {
    let journal = match super::journal_open::open_journal() {
        Ok(j) => j,
        Err(f) => {
            note!("{}", f.message);
            return None;
        }
    };
    match crate::uf::value_on(&journal, source, day).await {
        Ok(found) => {
            // Said to the clerk, not on the statement: where the value came from and
            // who stored it.
            note!("{}", crate::i18n::uf_value(&found));
            Some(found.uf)
        }
        Err(e) => {
            note!("{}", crate::i18n::uf_error(&e, day));
            None
        }
    }
}

pub(super) async fn uf_command(c: UfCommand) -> Result<(), CliError> {
    match c {
        UfCommand::Show { date, amount } => {
            let day = date.unwrap_or_else(|| chrono::Local::now().date_naive());
            let amount = amount
                .map(|a| {
                    crate::api::money::parse_amount_input(&a, Some(crate::api::Currency::CLF))
                        .map_err(|e| CliError::usage(crate::i18n::amount_error(&e)))
                })
                .transpose()?;
            let journal = super::journal_open::open_journal()?;
            let found = crate::uf::value_on(&journal, source, day)
                .await
                .map_err(|e| CliError {
                    code: uf_exit(&e),
                    message: crate::i18n::uf_error(&e, day),
                })?;
            say!("{}", crate::i18n::uf_value(&found));
            if let Some(a) = amount {
                say!("{}", crate::i18n::uf_amount(a, Some(&found.uf)));
            }
            Ok(())
        }
        UfCommand::Check { from, to } => check(from, to).await,
        UfCommand::Import { file, year } => {
            let today = chrono::Local::now().date_naive();
            let mut journal = super::journal_open::journal_before_sending()?;
            let imported =
                crate::uf::file::import(&mut journal, &file, year).map_err(|e| CliError {
                    code: if matches!(e, UfError::Journal(_)) {
                        super::Exit::Failed
                    } else {
                        super::Exit::Usage
                    },
                    message: crate::i18n::uf_error(&e, today),
                })?;
            match crate::i18n::uf_imported(&imported) {
                Ok((summary, notes)) => {
                    say!("{summary}");
                    for line in notes {
                        note!("{line}");
                    }
                    Ok(())
                }
                Err(message) => Err(CliError::usage(message)),
            }
        }
        UfCommand::Key { address } => {
            let path = settings::profiles_path()?;
            let mut profiles = crate::profile::Profiles::load(&path)?;
            if let Some(a) = &address {
                crate::uf::checked_address(a).map_err(|e| {
                    CliError::usage(crate::i18n::uf_error(&e, chrono::Local::now().date_naive()))
                })?;
                profiles.uf_address = Some(a.trim().to_string());
                profiles.save(&path)?;
            }
            let address = crate::uf::address_of(&profiles);
            let what = tr!("cli-secret-cmf-key");
            let secret = super::profile_cmd::read_secret(&what)?;
            let status = settings::secret_store().set(
                &address,
                crate::profile::secrets::SecretKind::CmfKey,
                &secret,
            );
            super::profile_cmd::said_stored(status, &address, &what, "INVOICE_DESK_CMF_KEY");
            Ok(())
        }
    }
}

/// The exit code for a value not found: 2 bad settings, 3 key refused, 5 unreachable,
/// 4 anything else the CMF answered (no value that day among them).
fn uf_exit(e: &UfError) -> super::Exit {
    use super::Exit;
    match e {
        UfError::NoKey | UfError::BadAddress(_) | UfError::SecretInAddress => Exit::Usage,
        UfError::Journal(_) => Exit::Failed,
        UfError::KeyRefused(_) | UfError::Keyring(_) => Exit::Auth,
        UfError::Unreachable(_) => Exit::Network,
        UfError::NotPublished(_) | UfError::Bad(_) | UfError::Breaks(_) => Exit::Refused,
    }
}

/// `uf check`: the kept values from `from` to `to` (this month and the last by
/// default) read again from the CMF, month by month, offered as the CMF's: what it
/// contradicts is replaced and recorded, each difference said.
async fn check(
    from: Option<chrono::NaiveDate>,
    to: Option<chrono::NaiveDate>,
) -> Result<(), CliError> {
    use chrono::Datelike;
    let today = chrono::Local::now().date_naive();
    let to = to.unwrap_or(today);
    let from = from.unwrap_or_else(|| {
        (today.with_day(1).unwrap_or(today) - chrono::Months::new(1))
            .with_day(1)
            .unwrap_or(today)
    });
    if from > to || (to - from).num_days() > 366 * 5 {
        return Err(CliError::usage(tr!(
            "cli-uf-check-range",
            from = crate::i18n::date(&from.to_string()),
            to = crate::i18n::date(&to.to_string())
        )));
    }
    let src = source().map_err(|e| CliError {
        code: uf_exit(&e),
        message: crate::i18n::uf_error(&e, today),
    })?;
    let journal = super::journal_open::open_journal()?;
    let kept = journal
        .run(move |j| j.uf_values(from, to))
        .await
        .map_err(|e| CliError {
            code: super::Exit::Failed,
            message: crate::i18n::journal_error(&e),
        })?;
    let http = reqwest::Client::new();
    let (mut checked, mut agree, mut unconfirmed) = (0usize, 0usize, Vec::new());
    let mut said = Vec::new();
    let mut month = from.with_day(1).unwrap_or(from);
    while month <= to {
        let fetched = crate::uf::fetch_month(&http, &src, month.year(), month.month())
            .await
            .map_err(|e| CliError {
                code: uf_exit(&e),
                message: crate::i18n::uf_error(&e, month),
            })?;
        let in_range: Vec<_> = fetched
            .into_iter()
            .filter(|d| d.date >= from && d.date <= to)
            .collect();
        let (held, refused) = crate::uf::sift(in_range);
        said.extend(refused.iter().map(crate::i18n::uf_breaks_line));
        let pairs: Vec<_> = held.iter().map(|d| (d.date, d.value)).collect();
        for k in kept
            .iter()
            .filter(|k| k.day.year() == month.year() && k.day.month() == month.month())
        {
            if !pairs.iter().any(|(d, _)| *d == k.day) && !unconfirmed.contains(&k.day) {
                unconfirmed.push(k.day);
            }
        }
        let p = pairs.clone();
        let offered = journal
            .run(move |j| j.put_uf_values(&p, crate::uf::CMF, false))
            .await
            .map_err(|e| CliError {
                code: super::Exit::Failed,
                message: crate::i18n::journal_error(&e),
            })?;
        for (day, put) in &offered.each {
            if kept.iter().any(|k| k.day == *day) {
                checked += 1;
                if matches!(put, crate::journal::UfPut::Same) {
                    agree += 1;
                }
            }
        }
        said.extend(crate::i18n::uf_offered(&offered, &pairs));
        month = month + chrono::Months::new(1);
    }
    for line in &said {
        say!("{line}");
    }
    for day in &unconfirmed {
        say!(
            "{}",
            tr!(
                "cli-uf-unconfirmed",
                date = crate::i18n::date(&day.to_string())
            )
        );
    }
    say!(
        "{}",
        tr!(
            "cli-uf-checked",
            from = crate::i18n::date(&from.to_string()),
            to = crate::i18n::date(&to.to_string()),
            count = checked,
            agree = agree,
            differ = said.len()
        )
    );
    if said.is_empty() {
        Ok(())
    } else {
        Err(CliError {
            code: super::Exit::Refused,
            message: String::new(),
        })
    }
}
