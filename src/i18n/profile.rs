//! Profiles, the keyring, the sender's details, the mail server and templates.

use super::*;
use crate::tr;

/// A keyring's name in the clerk's language.
pub fn keyring_name(kind: &crate::profile::secrets::KeyringKind) -> String {
    match kind {
        crate::profile::secrets::KeyringKind::SecretService => tr!("store-secret-service"),
        crate::profile::secrets::KeyringKind::Keychain => tr!("store-keychain"),
        crate::profile::secrets::KeyringKind::WindowsCredentials => tr!("store-windows"),
        crate::profile::secrets::KeyringKind::Other(v) => v.clone(),
    }
}

/// A profile problem in the clerk's language.
pub fn profile_error(e: &ProfileError) -> String {
    match e {
        ProfileError::NoName => tr!("pr-no-name"),
        ProfileError::Input(e) => error_text(e),
        ProfileError::Exists(n) => tr!("pr-exists", name = n),
        ProfileError::Unreadable { path, .. } => tr!("pr-unreadable", path = path.display()),
        ProfileError::Unsaved { path, .. } => tr!("pr-unsaved", path = path.display()),
        ProfileError::KeyringRead(_) => tr!("pr-keyring-read"),
        ProfileError::Sender(p) => sender_problem(p),
    }
}

/// What is wrong with the sender's details, in the clerk's language.
pub fn sender_problem(p: &crate::profile::SenderError) -> String {
    use crate::profile::SenderError as P;
    match p {
        P::BadRut(r) => tr!("sender-bad-rut", rut = crate::text::escape_controls(r)),
        P::BadEmail(e) => tr!("sender-bad-email", email = crate::text::escape_controls(e)),
        P::TooLong(what, max) => tr!("sender-too-long", what = tr_field(what), max = *max),
        P::LogoUnreadable(path, _) => tr!("sender-logo-unreadable", path = shown(path)),
        P::LogoTooLarge(path, _) => tr!(
            "sender-logo-too-large",
            path = shown(path),
            max = crate::profile::sender::LOGO_MAX_BYTES / 1024
        ),
        P::LogoTooManyPixels(path, w, h) => tr!(
            "sender-logo-too-many-pixels",
            path = shown(path),
            width = *w,
            height = *h,
            max = crate::profile::sender::LOGO_MAX_SIDE
        ),
    }
}

/// What is wrong with the mail settings, in the clerk's language.
pub fn mail_problem(p: &crate::profile::mail::MailError) -> String {
    use crate::profile::mail::MailError as P;
    let esc = |s: &str| crate::text::escape_controls(s).into_owned();
    match p {
        P::NoServer => tr!("mail-no-server"),
        P::BadServer(s) => tr!("mail-bad-server", server = esc(s)),
        P::BadAddress(field, s) => tr!(
            "mail-bad-address",
            field = match *field {
                "from" => tr!("mail-f-from"),
                "reply-to" => tr!("mail-f-reply-to"),
                _ => tr!("mail-f-copy-to"),
            },
            address = esc(s)
        ),
        P::PlainNotLocal(s) => tr!("mail-plain-not-local", server = esc(s)),
        P::BadRate(n) => tr!(
            "mail-bad-rate",
            rate = *n,
            max = crate::profile::mail::MAX_PER_MINUTE
        ),
        P::CaUnreadable(path, why) => tr!("mail-ca-unreadable", path = shown(path), why = esc(why)),
    }
}

/// A mail rate as a clerk reads and types it: "30", or "servidor" (the server's pace).
pub fn mail_rate_text(per_minute: u32) -> String {
    if per_minute == crate::profile::mail::SERVER_PACE {
        tr!("mail-rate-server")
    } else {
        per_minute.to_string()
    }
}

/// A mail rate as typed: a number, or the word for the server's pace (in the clerk's
/// language, or "server"); `None` when it is neither.
pub fn mail_rate_of(text: &str) -> Option<u32> {
    let t = text.trim();
    if t.eq_ignore_ascii_case(&tr!("mail-rate-server")) || t.eq_ignore_ascii_case("server") {
        return Some(crate::profile::mail::SERVER_PACE);
    }
    t.parse()
        .ok()
        .filter(|n| *n != crate::profile::mail::SERVER_PACE)
}

/// What is wrong with a clerk's e-mail template, in the clerk's language.
pub fn template_problem(p: &crate::profile::mail::TemplateError) -> String {
    use crate::profile::mail::TemplateError as P;
    match p {
        P::Unreadable(path, why) => tr!(
            "mail-template-unreadable",
            path = shown(path),
            why = crate::text::escape_controls(why)
        ),
        P::NoSubject(path) => tr!("mail-template-no-subject", path = shown(path)),
        P::UnknownPlaceholder(path, name) => tr!(
            "mail-template-placeholder",
            path = shown(path),
            name = crate::text::escape_controls(name)
        ),
    }
}

/// A path as a message may show it (control characters escaped).
pub(super) fn shown(path: &std::path::Path) -> String {
    crate::text::escape_controls(&path.display().to_string()).into_owned()
}

/// A sender's field named in the clerk's language.
pub(super) fn tr_field(what: &str) -> String {
    match what {
        "name" => tr!("sender-f-organization"),
        "address" => tr!("sender-f-address"),
        "e-mail" => tr!("sender-f-email"),
        "phone" => tr!("sender-f-phone"),
        _ => tr!("sender-f-payment"),
    }
}
