//! `invoice-desk uf`: the UF's value in pesos on a day (kept in the journal, else
//! fetched from the CMF and kept), a file of values imported, the CMF key kept.

use super::{Failure, UfCommand, settings};
use crate::text::escape_controls;
use crate::tr;
use crate::uf::{Source, UfError};
use secrecy::SecretString;

/// The source: INVOICE_DESK_CMF_URL and INVOICE_DESK_CMF_KEY when set (scripts, the
/// sandbox), else what the settings and the keyring say.
fn source() -> Result<Source, UfError> {
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
    let journal = match super::journal_cmd::open_journal() {
        Ok(j) => j,
        Err(f) => {
            note!("{}", f.message);
            return None;
        }
    };
    match crate::uf::value_on(&journal, source, day).await {
        Ok((uf, _)) => Some(uf),
        Err(e) => {
            note!("{}", crate::i18n::uf_error(&e, day));
            None
        }
    }
}

pub(super) async fn uf_command(c: UfCommand) -> Result<(), Failure> {
    match c {
        UfCommand::Show { date, amount } => {
            let day = date.unwrap_or_else(|| chrono::Local::now().date_naive());
            let amount = amount
                .map(|a| {
                    crate::api::money::parse_amount_input(&a, Some(crate::api::Currency::CLF))
                        .map_err(|e| Failure::usage(crate::i18n::amount_error(&e)))
                })
                .transpose()?;
            let journal = super::journal_cmd::open_journal()?;
            let (uf, source) = crate::uf::value_on(&journal, source, day)
                .await
                .map_err(|e| Failure {
                    code: uf_exit(&e),
                    message: crate::i18n::uf_error(&e, day),
                })?;
            say!("{}", crate::i18n::uf_value(&uf, &source));
            if let Some(a) = amount {
                say!("{}", crate::i18n::uf_amount(a, Some(&uf)));
            }
            Ok(())
        }
        UfCommand::Import { file, year } => {
            let days = crate::uf::file::read(&file, year).map_err(|e| Failure {
                code: 2,
                message: crate::i18n::uf_error(&e, chrono::Local::now().date_naive()),
            })?;
            let name = file
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let pairs: Vec<_> = days.iter().map(|d| (d.date, d.value)).collect();
            let mut journal = super::journal_cmd::journal_before_sending()?;
            let (added, differing) = journal.put_uf_values(&pairs, &name).map_err(|e| Failure {
                code: 1,
                message: crate::i18n::journal_error(&e),
            })?;
            say!(
                "{}",
                tr!(
                    "cli-uf-imported",
                    count = pairs.len(),
                    added = added,
                    file = escape_controls(&name),
                    first = crate::i18n::date(&days[0].date.to_string()),
                    last = crate::i18n::date(&days[days.len() - 1].date.to_string())
                )
            );
            if !differing.is_empty() {
                let list: Vec<String> = differing
                    .iter()
                    .take(10)
                    .map(|d| crate::i18n::date(&d.to_string()))
                    .collect();
                note!(
                    "{}",
                    tr!(
                        "cli-uf-differ",
                        count = differing.len(),
                        days = list.join(", ")
                    )
                );
            }
            Ok(())
        }
        UfCommand::Key { address } => {
            let path = settings::profiles_path()?;
            let mut profiles = crate::profile::Profiles::load(&path)?;
            if let Some(a) = &address {
                crate::uf::checked_address(a).map_err(|e| {
                    Failure::usage(crate::i18n::uf_error(&e, chrono::Local::now().date_naive()))
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
fn uf_exit(e: &UfError) -> u8 {
    match e {
        UfError::NoKey | UfError::BadAddress(_) | UfError::SecretInAddress => 2,
        UfError::Journal(_) => 1,
        UfError::KeyRefused(_) | UfError::Keyring(_) => 3,
        UfError::Unreachable(_) => 5,
        UfError::NotPublished(_) | UfError::Bad(_) => 4,
    }
}
