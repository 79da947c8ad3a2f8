//! Profiles: chosen, saved (secrets to the keyring), removed, tested; the sandbox offered.

use super::{InvoiceDeskApp, Tab};
use crate::profile::{SANDBOX_PROFILE, SecretKind};
use crate::tr;
use crate::ui::command::ProfilesCommand;
use crate::ui::session::{get_secrets, sandbox_profile};

impl InvoiceDeskApp {
    /// Carries out one of this area's commands (the others never come here).
    pub(super) fn handle_profiles(&mut self, cmd: ProfilesCommand) {
        match cmd {
            ProfilesCommand::Activate(name) => {
                let previous = self.profiles.active.replace(name.clone());
                if let Err(e) = self.save_profiles() {
                    self.profiles_error = Some(e);
                }
                self.switched_profile(previous);
            }
            ProfilesCommand::SaveUfKey { address, key } => {
                let address = if address.is_empty() {
                    crate::uf::CMF_ADDRESS.to_string()
                } else {
                    address
                };
                if let Err(e) = crate::uf::checked_address(&address) {
                    let today = self.uf_day();
                    self.credentials
                        .uf
                        .ended(Err(crate::i18n::uf_error(&e, today)));
                    return;
                }
                // The CMF's own address is the default, not a setting.
                self.profiles.uf_address = Some(address.clone())
                    .filter(|a| a.trim_end_matches('/') != crate::uf::CMF_ADDRESS);
                if let Err(e) = self.save_profiles() {
                    self.credentials
                        .uf
                        .ended(Err(crate::i18n::profile_error(&e)));
                    return;
                }
                let store = self.connector.secrets.clone();
                self.credentials.uf.started();
                self.uf_key_saving = Some(self.spawner.spawn(async move {
                    let store = get_secrets(&store).await;
                    tokio::task::spawn_blocking(move || match &key {
                        Some(k) => store.set(&address, SecretKind::CmfKey, k),
                        None => store.status(),
                    })
                    .await
                    .map_err(|e| e.to_string())
                }));
            }
            ProfilesCommand::ChooseUfFile => self.import_uf_file(None),
            ProfilesCommand::ImportUfFile(path) => self.import_uf_file(Some(path)),
            ProfilesCommand::SaveProfile {
                previous,
                profile,
                secret,
                mail_password,
            } => {
                let name = profile.name.clone();
                if let Err(e) = self
                    .profiles
                    .upsert(previous.as_deref(), (*profile).clone())
                    .and_then(|()| self.save_profiles())
                {
                    self.credentials
                        .show_result(None, Err(crate::i18n::profile_error(&e)));
                    return;
                }
                let store = self.connector.secrets.clone();
                let kind = profile.auth.secret_kind();
                let renamed_from = previous.filter(|p| *p != name);
                let secret_name = name.clone();
                self.credentials.start_save(self.spawner.spawn(async move {
                    let store = get_secrets(&store).await;
                    tokio::task::spawn_blocking(move || {
                        // What was typed first, then the renamed profile's other
                        // secrets move with its name (the mail password too).
                        if let Some(p) = &mail_password {
                            store.set(&secret_name, SecretKind::MailPassword, p);
                        }
                        let status = match &secret {
                            Some(s) => store.set(&secret_name, kind, s),
                            None => store.status(),
                        };
                        if let Some(old) = &renamed_from {
                            store.rename(old, &secret_name, &[kind, SecretKind::MailPassword]);
                        }
                        status
                    })
                    .await
                    .map_err(|e| e.to_string())
                }));
                self.credentials.select(&name);
                if self.profiles.active.as_deref() == Some(&name) {
                    // Reconnected once the secret is stored (drain_finished).
                    self.pending_reconnect = true;
                }
            }
            ProfilesCommand::DeleteProfile(name) => {
                let previous_active = self.profiles.active.clone();
                let kind = self.profiles.get(&name).map(|p| p.auth.secret_kind());
                self.profiles.remove(&name);
                if let Err(e) = self.save_profiles() {
                    self.profiles_error = Some(e);
                }
                if let Some(kind) = kind {
                    let store = self.connector.secrets.clone();
                    let n = name.clone();
                    self.spawner.spawn(async move {
                        let store = get_secrets(&store).await;
                        let _ = tokio::task::spawn_blocking(move || {
                            store.delete(&n, kind);
                            store.delete(&n, SecretKind::MailPassword);
                        })
                        .await;
                    });
                }
                // Deleting the active profile switches to another one (or none).
                if previous_active.as_deref() == Some(name.as_str()) {
                    self.switched_profile(previous_active);
                }
            }
            ProfilesCommand::TestConnection => {
                let Some(session) = self.session.clone() else {
                    let msg = self
                        .session_error
                        .clone()
                        .unwrap_or_else(|| tr!("msg-choose-profile"));
                    self.credentials
                        .show_result(self.profiles.active.clone(), Err(msg));
                    return;
                };
                let name = session.profile.name.clone();
                self.credentials.testing(&name);
                let task = self
                    .spawner
                    .spawn(async move { session.client.check_connection().await });
                self.test = Some((name, task));
            }
            ProfilesCommand::TrySandbox => {
                let _ = self.profiles.upsert(None, sandbox_profile());
                self.profiles.active = Some(SANDBOX_PROFILE.to_string());
                if let Err(e) = self.save_profiles() {
                    self.profiles_error = Some(e);
                }
                // Practice is kept in the sandbox's journal of its own, from the start.
                self.follow_profiles_journal();
                self.connect(SANDBOX_PROFILE);
                self.pending_sandbox_welcome = true;
                self.saved.tab = Tab::Create;
            }
        }
    }

    /// Keeps a file of UF values in the journal, all or nothing: the one at `chosen`, or
    /// one picked in a dialog.
    fn import_uf_file(&mut self, chosen: Option<std::path::PathBuf>) {
        if self.uf_importing.is_some() {
            return;
        }
        let journal = self.journal.clone();
        let today = self.uf_day();
        self.credentials.uf.importing();
        self.uf_importing = Some(self.spawner.spawn(async move {
            let path = match chosen {
                Some(p) => p,
                None => {
                    let picked = rfd::AsyncFileDialog::new()
                        .set_title(tr!("ufs-file-dialog"))
                        .add_filter(tr!("ufs-file-filter"), &["csv", "xlsx", "json"])
                        .pick_file()
                        .await;
                    // No file chosen, or no dialog could be shown: a path can be typed.
                    picked?.path().to_path_buf()
                }
            };
            let j = match journal.shared().await {
                Ok(j) => j,
                Err(e) => {
                    let e = crate::uf::UfError::Journal(e);
                    return Some(Err(crate::i18n::uf_error(&e, today)));
                }
            };
            let imported = j
                .run(move |j| Ok(crate::uf::file::import(j, &path, None)))
                .await
                .unwrap_or_else(|e| Err(crate::uf::UfError::Journal(e)));
            Some(match imported {
                Ok(i) => crate::i18n::uf_imported(&i).map(|(summary, notes)| {
                    std::iter::once(summary)
                        .chain(notes)
                        .collect::<Vec<_>>()
                        .join("\n")
                }),
                Err(e) => Err(crate::i18n::uf_error(&e, today)),
            })
        }));
    }
}
