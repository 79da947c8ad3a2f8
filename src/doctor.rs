//! `invoice-desk doctor` and Help → Diagnostics: a self-check a clerk or IT can run on any
//! machine — the version, the keyring (a test secret written, read back and deleted),
//! where profiles and data live and whether they can be written, and the certificate
//! store. The checks are typed here; the words come from the Fluent files.

use crate::profile::{SecretKind, SecretStore, StoreStatus};
use crate::tr;
use std::path::{Path, PathBuf};

/// The name under which the test secret is written (and deleted at once).
const TEST_PROFILE: &str = "invoice-desk-doctor-check";

/// One check and what it found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Check {
    /// What was checked, in the clerk's language.
    pub what: String,
    /// Whether it is well.
    pub ok: bool,
    /// What was found, in the clerk's language.
    pub found: String,
    /// The technical cause, as the system said it (for support; not translated).
    pub detail: Option<String>,
}

/// The whole report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The checks, in order.
    pub checks: Vec<Check>,
}

impl Report {
    /// True when every check is well.
    pub fn all_well(&self) -> bool {
        self.checks.iter().all(|c| c.ok)
    }

    /// As text, one check a line (for the terminal and the Copy button).
    pub fn text(&self) -> String {
        let mut out: Vec<String> = self
            .checks
            .iter()
            .map(|c| {
                let mark = if c.ok {
                    tr!("doc-ok")
                } else {
                    tr!("doc-problem")
                };
                match &c.detail {
                    // The system's own words (often English), said as such.
                    Some(d) => format!(
                        "[{mark}] {}: {} ({})",
                        c.what,
                        c.found,
                        tr!("doc-detail", detail = d)
                    ),
                    None => format!("[{mark}] {}: {}", c.what, c.found),
                }
            })
            .collect();
        out.push(if self.all_well() {
            tr!("doc-all-well")
        } else {
            tr!("doc-not-well")
        });
        out.join("\n")
    }
}

/// Runs every check. `store` is the secret store the program uses; `profiles` the
/// profiles file; `data` the data folder. May block (the keyring): not on a UI thread.
pub fn run(store: &SecretStore, profiles: Option<&Path>, data: Option<&Path>) -> Report {
    let mut checks = vec![Check {
        what: tr!("doc-version"),
        ok: true,
        found: format!(
            "invoice-desk {} ({} {})",
            env!("CARGO_PKG_VERSION"),
            std::env::consts::OS,
            std::env::consts::ARCH
        ),
        detail: None,
    }];
    checks.push(keyring(store));
    checks.push(folder(tr!("doc-profiles"), profiles));
    checks.push(folder(tr!("doc-data"), data));
    checks.push(match crate::logfile::folder() {
        // (The check writes in the folder of the file it is given.)
        Some(dir) => folder(tr!("doc-log"), Some(&dir.join("invoice-desk.log"))),
        None => Check {
            what: tr!("doc-log"),
            ok: true,
            found: tr!("doc-log-off"),
            detail: None,
        },
    });
    checks.push(match crate::api::http::check_certificate_store() {
        Ok(()) => Check {
            what: tr!("doc-certificates"),
            ok: true,
            found: tr!("doc-certificates-ok"),
            detail: None,
        },
        Err(why) => Check {
            what: tr!("doc-certificates"),
            ok: false,
            found: tr!("doc-certificates-bad"),
            detail: Some(why),
        },
    });
    Report { checks }
}

fn keyring(store: &SecretStore) -> Check {
    let what = tr!("doc-keyring");
    let name = match store.status() {
        StoreStatus::Keyring(kind) => crate::i18n::keyring_name(&kind),
        StoreStatus::SessionOnly(why) => {
            return Check {
                what,
                ok: false,
                found: tr!("doc-keyring-none"),
                detail: Some(why),
            };
        }
    };
    // Write, read back, delete: the only sure test that secrets will be kept.
    let secret = secrecy::SecretString::from(uuid::Uuid::new_v4().to_string());
    let kind = SecretKind::ApiKey;
    let stored = store.set(TEST_PROFILE, kind, &secret);
    let read = store.get(TEST_PROFILE, kind);
    store.delete(TEST_PROFILE, kind);
    let gone = matches!(store.get(TEST_PROFILE, kind), Ok(None));
    use secrecy::ExposeSecret;
    let round_trip = matches!(stored, StoreStatus::Keyring(_))
        && matches!(&read, Ok(Some(s)) if s.expose_secret() == secret.expose_secret());
    match (round_trip, gone, stored) {
        (true, true, _) => Check {
            what,
            ok: true,
            found: tr!("doc-keyring-ok", store = name),
            detail: None,
        },
        (_, _, StoreStatus::SessionOnly(why)) => Check {
            what,
            ok: false,
            found: tr!("doc-keyring-refused", store = name),
            detail: Some(why),
        },
        _ => Check {
            what,
            ok: false,
            found: tr!("doc-keyring-unreliable", store = name),
            detail: None,
        },
    }
}

/// Whether files can be written at `path` (a file whose folder may not exist yet: the
/// nearest existing folder is tried, with a file created and removed at once).
fn folder(what: String, path: Option<&Path>) -> Check {
    let Some(path) = path else {
        return Check {
            what,
            ok: false,
            found: tr!("doc-no-folder"),
            detail: None,
        };
    };
    let shown = path.display().to_string();
    let mut dir: PathBuf = path.parent().unwrap_or(path).to_path_buf();
    while !dir.exists() {
        match dir.parent() {
            Some(p) => dir = p.to_path_buf(),
            None => break,
        }
    }
    match crate::fsutil::probe_write(&dir) {
        Ok(()) => Check {
            what,
            ok: true,
            found: tr!("doc-folder-ok", path = shown),
            detail: None,
        },
        Err(e) => Check {
            what,
            ok: false,
            found: tr!("doc-folder-bad", path = shown),
            detail: Some(e.to_string()),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_working_keyring_and_folders_are_all_well() {
        let dir = tempfile::tempdir().unwrap();
        let store = SecretStore::with_store(keyring_core::mock::Store::new().unwrap());
        let report = run(
            &store,
            Some(&dir.path().join("config/profiles.toml")),
            Some(&dir.path().join("data")),
        );
        let keyring = &report.checks[1];
        assert!(keyring.ok, "{report:?}");
        assert!(
            matches!(store.get(TEST_PROFILE, SecretKind::ApiKey), Ok(None)),
            "the test secret is removed"
        );
        assert!(report.checks[2].ok && report.checks[3].ok, "{report:?}");
        assert!(!dir.path().join("config").exists(), "no folder is created");
    }

    #[test]
    fn no_keyring_is_said_and_is_not_well() {
        let store = SecretStore::session_only("no Secret Service on this bus");
        let report = run(&store, None, None);
        assert!(!report.all_well());
        assert!(!report.checks[1].ok);
        assert!(
            report.text().contains("no Secret Service on this bus"),
            "{}",
            report.text()
        );
    }
}
