//! What a profile keeps of its mail server (never the password: that is in the
//! keyring), and the check that makes it usable.

use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// How the connection to the server is protected.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Security {
    /// Plain connection upgraded with STARTTLS (port 587); refused if the server does
    /// not offer it.
    #[default]
    StartTls,
    /// TLS from the first byte (port 465).
    Tls,
    /// No encryption: only to a server on this computer (127.0.0.1, ::1, localhost),
    /// where nothing crosses a network.
    None,
}

impl Security {
    /// The usual port.
    pub fn default_port(self) -> u16 {
        match self {
            Security::StartTls => 587,
            Security::Tls => 465,
            Security::None => 25,
        }
    }

    /// The name stored and typed (`starttls`, `tls`, `none`).
    pub fn as_str(self) -> &'static str {
        match self {
            Security::StartTls => "starttls",
            Security::Tls => "tls",
            Security::None => "none",
        }
    }
}

/// A profile's mail server and sender addresses.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    /// The server's host name.
    #[serde(default)]
    pub server: String,
    /// Its port (default: the security's usual one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub port: Option<u16>,
    /// STARTTLS, TLS or none.
    #[serde(default)]
    pub security: Security,
    /// The login, when the server asks for one (its password is in the keyring).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user: Option<String>,
    /// Who the e-mails are from: `Cobranzas ACME <cobranzas@acme.cl>` or an address.
    #[serde(default)]
    pub from: String,
    /// Where customers' answers go, when not to `from`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reply_to: Option<String>,
    /// The desk's copy of every e-mail (sent as a blind copy).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub copy_to: Option<String>,
    /// At most this many e-mails a minute (the provider's limit); [`SERVER_PACE`] (0):
    /// as fast as the server takes them (its "try later" answers are waited out).
    #[serde(default = "default_per_minute")]
    pub per_minute: u32,
    /// A certificate authority to trust besides the system's (a desk's own server), PEM.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ca_file: Option<PathBuf>,
}

fn default_per_minute() -> u32 {
    30
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            server: String::new(),
            port: None,
            security: Security::default(),
            user: None,
            from: String::new(),
            reply_to: None,
            copy_to: None,
            per_minute: default_per_minute(),
            ca_file: None,
        }
    }
}

/// The largest rate taken: a desk's own relay can take thousands a minute (#71).
pub const MAX_PER_MINUTE: u32 = 100_000;

/// `per_minute` for "the server's pace": nothing is paced here, and the server's own
/// "try later" answers (4xx) are waited out as always. For a desk's own relay; 30 a
/// minute stays the default for a server not known.
pub const SERVER_PACE: u32 = 0;

/// What is wrong with the mail settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MailError {
    /// The profile has no mail server.
    NoServer,
    /// The server's name is not one (spaces, control characters, too long).
    BadServer(String),
    /// A field is not an e-mail address (which field: from, reply-to, copy-to).
    BadAddress(&'static str, String),
    /// Security "none" to a server that is not this computer.
    PlainNotLocal(String),
    /// The rate is 0 or above [`MAX_PER_MINUTE`].
    BadRate(u32),
    /// The certificate authority file cannot be read or holds no certificate.
    CaUnreadable(PathBuf, String),
}

crate::engineers_text!(MailError);

/// Settings checked: what a delivery needs, parsed once.
#[derive(Clone, Debug)]
pub struct Checked {
    /// The server's host name.
    pub server: String,
    /// Its port.
    pub port: u16,
    /// How the connection is protected.
    pub security: Security,
    /// The login.
    pub user: Option<String>,
    /// The From mailbox.
    pub from: lettre::message::Mailbox,
    /// Reply-To.
    pub reply_to: Option<lettre::message::Mailbox>,
    /// The desk's blind copy.
    pub copy_to: Option<lettre::Address>,
    /// E-mails a minute.
    pub per_minute: u32,
    /// Extra trusted authority certificates (PEM).
    pub ca_pem: Option<Vec<u8>>,
}

impl Settings {
    /// Whether nothing is set (the profile sends no e-mail).
    pub fn is_empty(&self) -> bool {
        self.server.trim().is_empty() && self.from.trim().is_empty()
    }

    /// Checks every field; the first problem found.
    pub fn check(&self) -> Result<Checked, MailError> {
        let server = self.server.trim();
        if server.is_empty() {
            return Err(MailError::NoServer);
        }
        if server.len() > 253
            || server
                .chars()
                .any(|c| c.is_whitespace() || c.is_control() || "/@:?#".contains(c))
        {
            return Err(MailError::BadServer(server.to_string()));
        }
        if self.security == Security::None
            && !matches!(server, "127.0.0.1" | "::1" | "localhost" | "[::1]")
        {
            return Err(MailError::PlainNotLocal(server.to_string()));
        }
        if self.per_minute > MAX_PER_MINUTE {
            return Err(MailError::BadRate(self.per_minute));
        }
        let from =
            mailbox(&self.from).ok_or_else(|| MailError::BadAddress("from", self.from.clone()))?;
        let reply_to = match self
            .reply_to
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            Some(r) => {
                Some(mailbox(r).ok_or_else(|| MailError::BadAddress("reply-to", r.to_string()))?)
            }
            None => None,
        };
        let copy_to = match self
            .copy_to
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            Some(c) => Some(
                crate::address::parse_address(c)
                    .ok_or_else(|| MailError::BadAddress("copy-to", c.to_string()))?,
            ),
            None => None,
        };
        let ca_pem = match &self.ca_file {
            Some(p) => Some(read_ca(p)?),
            None => None,
        };
        Ok(Checked {
            server: server.to_string(),
            port: self.port.unwrap_or(self.security.default_port()),
            security: self.security,
            user: self.user.clone().filter(|u| !u.trim().is_empty()),
            from,
            reply_to,
            copy_to,
            per_minute: self.per_minute,
            ca_pem,
        })
    }
}

/// `Name <address>` or a bare address, checked as [`crate::address::parse_address`] does.
pub fn mailbox(text: &str) -> Option<lettre::message::Mailbox> {
    let t = text.trim();
    if t.chars().any(char::is_control) || t.len() > 320 {
        return None;
    }
    let mb: lettre::message::Mailbox = t.parse().ok()?;
    crate::address::parse_address(mb.email.as_ref())?;
    Some(mb)
}

/// The largest authority file read.
const MAX_CA_BYTES: u64 = 1024 * 1024;

fn read_ca(path: &std::path::Path) -> Result<Vec<u8>, MailError> {
    use std::io::Read;
    let bad = |why: String| MailError::CaUnreadable(path.to_path_buf(), why);
    let file = std::fs::File::open(path).map_err(|e| bad(e.to_string()))?;
    let mut bytes = Vec::new();
    file.take(MAX_CA_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| bad(e.to_string()))?;
    if bytes.len() as u64 > MAX_CA_BYTES {
        return Err(bad("larger than 1 MB".into()));
    }
    if lettre::transport::smtp::client::Certificate::from_pem(&bytes).is_err() {
        return Err(bad("no PEM certificate in it".into()));
    }
    Ok(bytes)
}

/// What is wrong with a clerk's template file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TemplateError {
    /// It cannot be read, or is larger than 64 KB.
    Unreadable(PathBuf, String),
    /// Its first line is not `Subject: …` / `Asunto: …`, or no blank line follows.
    NoSubject(PathBuf),
    /// It names a placeholder that does not exist (a typo would reach the customer).
    UnknownPlaceholder(PathBuf, String),
}

crate::engineers_text!(TemplateError);

#[cfg(test)]
mod tests {
    use super::*;

    fn ok() -> Settings {
        Settings {
            server: "smtp.acme.cl".into(),
            from: "Cobranzas ACME <cobranzas@acme.cl>".into(),
            per_minute: 30,
            ..Settings::default()
        }
    }

    #[test]
    fn settings_are_checked_field_by_field() {
        let c = ok().check().unwrap();
        assert_eq!(c.port, 587);
        assert_eq!(c.from.email.to_string(), "cobranzas@acme.cl");
        let with = |f: fn(&mut Settings)| {
            let mut s = ok();
            f(&mut s);
            s.check().unwrap_err()
        };
        assert_eq!(with(|s| s.server.clear()), MailError::NoServer);
        assert!(matches!(
            with(|s| s.server = "smtp acme".into()),
            MailError::BadServer(_)
        ));
        assert!(matches!(
            with(|s| s.from = "cobranzas".into()),
            MailError::BadAddress("from", _)
        ));
        assert!(matches!(
            with(|s| s.reply_to = Some("x@y".into())),
            MailError::BadAddress("reply-to", _)
        ));
        assert!(matches!(
            with(|s| s.copy_to = Some("mesa".into())),
            MailError::BadAddress("copy-to", _)
        ));
        assert!(matches!(
            with(|s| s.security = Security::None),
            MailError::PlainNotLocal(_)
        ));
        assert_eq!(
            with(|s| s.per_minute = MAX_PER_MINUTE + 1),
            MailError::BadRate(MAX_PER_MINUTE + 1)
        );
        let mut server_paced = ok();
        server_paced.per_minute = SERVER_PACE;
        assert!(server_paced.check().is_ok());
        assert!(matches!(
            with(|s| s.ca_file = Some("/nonexistent/ca.pem".into())),
            MailError::CaUnreadable(..)
        ));
        let mut local = ok();
        local.server = "127.0.0.1".into();
        local.security = Security::None;
        assert_eq!(local.check().unwrap().port, 25);
    }
}
