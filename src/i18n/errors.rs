//! The service's answers in the clerk's words (the service's own stay under Details),
//! and what was refused before sending.

use super::*;
use crate::tr;

pub(super) fn wait(d: &Option<std::time::Duration>) -> String {
    match d {
        Some(d) if d.as_secs() >= 120 => tr!("wait-minutes", minutes = d.as_secs().div_ceil(60)),
        Some(d) => tr!("wait-seconds", seconds = d.as_secs().max(1)),
        None => tr!("wait-moment"),
    }
}

pub(super) fn action(a: Action) -> String {
    match a {
        Action::Create => tr!("action-create"),
        Action::Void => tr!("action-void"),
    }
}

/// An API error's details for whoever helps the clerk — status, the service's code and
/// message, the cause, the answer's start — one per line, labelled in `lang` (what the
/// service said stays in its own words, escaped when it was kept).
pub fn error_details_in(lang: Lang, e: &ApiError) -> String {
    use crate::api::Detail as D;
    let parts = e.detail_parts();
    if parts.is_empty() {
        return format!("{:?}", e.kind);
    }
    parts
        .into_iter()
        .map(|(d, v)| match d {
            D::Status => crate::tr_in!(lang, "det-http-status", status = v),
            D::ServiceCode => crate::tr_in!(lang, "det-service-code", code = v),
            D::ServiceMessage => crate::tr_in!(lang, "det-service-message", message = v),
            D::Cause => crate::tr_in!(lang, "det-cause", cause = v),
            D::Body => crate::tr_in!(lang, "det-body", body = v),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// [`error_details_in`] in the clerk's language.
pub fn error_details(e: &ApiError) -> String {
    error_details_in(current(), e)
}

/// An API error in the clerk's language. What the service said (in its own words,
/// usually English) is not part of it: it is under Details (`ApiError::details`).
pub fn error_text(e: &ApiError) -> String {
    match &e.kind {
        ErrorKind::InvalidInput(p) => input_problem(p),
        ErrorKind::InsecureUrl(u) => tr!("err-insecure-url", url = u),
        ErrorKind::CredentialsRejected { .. } => tr!("err-credentials-rejected"),
        ErrorKind::WrongAudience { .. } => tr!("err-wrong-audience"),
        ErrorKind::TokenRequestRejected { .. } => tr!("err-token-rejected"),
        ErrorKind::TokenRateLimited { retry_after } => {
            format!("{} {}", tr!("err-token-rate-limited"), wait(retry_after))
        }
        ErrorKind::TokenEndpointFailed => tr!("err-token-failed"),
        ErrorKind::TokenEndpointUnreachable => tr!("err-token-unreachable"),
        ErrorKind::TokenEndpointTimeout { secs } => tr!("err-token-timeout", seconds = secs),
        ErrorKind::CertificateUntrusted { reason } => {
            let reason = match reason {
                CertError::UnknownIssuer => tr!("cert-unknown-issuer"),
                CertError::Expired => tr!("cert-expired"),
                CertError::WrongName => tr!("cert-wrong-name"),
                CertError::Other(r) => r.clone(),
            };
            tr!("err-certificate", reason = reason)
        }
        ErrorKind::Unauthorized => tr!("err-unauthorized"),
        ErrorKind::Forbidden => tr!("err-forbidden"),
        ErrorKind::NotFound(resource) => {
            let what = match resource {
                Resource::Invoice(id) => tr!("nf-invoice", id = crate::text::escape_controls(id)),
                Resource::Customer(id) => {
                    tr!("nf-customer", id = crate::text::escape_controls(id))
                }
                Resource::Account => tr!("nf-account"),
                Resource::Other => tr!("nf-other"),
            };
            tr!("err-not-found", what = what)
        }
        ErrorKind::Conflict => match e.service_code.as_deref() {
            Some("TK10601") => tr!("err-already-void"),
            Some("TK10602") => tr!("err-paid-cannot-void"),
            _ => tr!("err-conflict"),
        },
        ErrorKind::Validation { fields } if fields.is_empty() => tr!("err-validation"),
        ErrorKind::Validation { fields } => {
            let mut names: Vec<String> = fields.iter().map(|f| field_label(&f.field)).collect();
            names.dedup();
            tr!("err-validation-fields", fields = names.join(", "))
        }
        ErrorKind::RateLimited { retry_after } => {
            format!("{} {}", tr!("err-rate-limited"), wait(retry_after))
        }
        ErrorKind::ServerError => tr!("err-server"),
        ErrorKind::UnexpectedStatus => {
            tr!(
                "err-unexpected",
                status = e.status.map_or_else(|| "?".to_string(), |s| s.to_string())
            )
        }
        ErrorKind::Timeout => tr!("err-timeout"),
        ErrorKind::Connection => tr!("err-connection"),
        ErrorKind::ConnectionLost => tr!("err-connection-lost"),
        ErrorKind::OutcomeUnknown(a) => tr!("err-outcome-unknown", action = action(*a)),
        ErrorKind::DoneUnreadable(a) => tr!("err-done-unreadable", action = action(*a)),
        ErrorKind::Decode => tr!("err-decode"),
        ErrorKind::TooLarge => tr!("err-too-large"),
        ErrorKind::ListingRunaway { pages } => tr!("err-listing-runaway", pages = pages),
        ErrorKind::ListingTooLong { cap } => {
            tr!("err-listing-too-long", cap = cap)
        }
        ErrorKind::Cancelled => tr!("err-cancelled"),
    }
}

pub(super) fn setting(s: Setting) -> String {
    match s {
        Setting::BaseUrl => tr!("set-base-url"),
        Setting::AuthUrl => tr!("set-auth-url"),
        Setting::ClientId => tr!("set-client-id"),
        Setting::ClientSecret => tr!("set-client-secret"),
        Setting::Audience => tr!("set-audience"),
        Setting::ApiKey => tr!("set-api-key"),
        Setting::InvoiceId => tr!("set-invoice-id"),
        Setting::CustomerId => tr!("set-customer-id"),
    }
}

/// Something refused before sending, in the clerk's language.
pub fn input_problem(p: &InputError) -> String {
    let esc = |s: &str| crate::text::escape_controls(s).into_owned();
    match p {
        InputError::Missing(s) => tr!("in-missing", what = setting(*s)),
        InputError::NotValid(s) => tr!("in-not-valid", what = setting(*s)),
        InputError::BadAddress { what, text } => {
            tr!("in-bad-address", what = setting(*what), text = esc(text))
        }
        InputError::WrongScheme { what, scheme } => {
            tr!(
                "in-wrong-scheme",
                what = setting(*what),
                scheme = esc(scheme)
            )
        }
        InputError::BadHeaderName(h) => tr!("in-bad-header", name = esc(h)),
        InputError::UnsendableKey => tr!("in-unsendable-key"),
        InputError::NoCertificateStore(_) => tr!("in-no-certificate-store"),
        InputError::NoCustomer => tr!("cr-enter-customer"),
        InputError::AmountNotPositive => tr!("amount-not-positive"),
        InputError::TooManyDecimals { currency, max } => {
            tr!("in-too-many-decimals", currency = currency, max = max)
        }
        InputError::BadDueDate(d) => tr!("in-bad-due-date", date = esc(d)),
        InputError::ReservedField(k) => tr!("in-reserved-field", name = esc(k)),
        InputError::UnnamedField => tr!("in-unnamed-field"),
        InputError::TooLong { field, max } => {
            tr!("in-too-long", what = field_label(field), max = max)
        }
        InputError::ExtraTooLarge { max } => tr!("in-extra-too-large", kb = max / 1024),
        InputError::Said(m) => m.clone(),
    }
}

/// Why a file cannot be written there, in the clerk's language.
pub fn destination_error(e: &crate::fsutil::DestinationError) -> String {
    use crate::fsutil::DestinationError as D;
    match e {
        D::IsFolder(p) => tr!("dest-is-folder", path = p.display()),
        D::NoFolder(p) => tr!("dest-no-folder", path = p.display()),
        D::ReadOnly(p) => tr!("dest-read-only", path = p.display()),
        D::NotWritable(p, _) => tr!("dest-not-writable", path = p.display()),
        D::Special(p) => tr!("dest-special", path = p.display()),
    }
}

/// What the system said of a file or a stream, in the clerk's language: its kind in
/// words ("no existe", "sin permiso"), never the system's English "(os error 2)". An
/// error of our own making keeps its text (controls escaped).
pub fn io_words(e: &std::io::Error) -> String {
    io_words_in(super::current(), e)
}

/// [`io_words`] in `lang`.
pub fn io_words_in(lang: super::Lang, e: &std::io::Error) -> String {
    use std::io::ErrorKind as K;
    match e.kind() {
        K::NotFound => crate::tr_in!(lang, "io-not-found"),
        K::PermissionDenied => crate::tr_in!(lang, "io-permission"),
        K::AlreadyExists => crate::tr_in!(lang, "io-exists"),
        K::StorageFull | K::QuotaExceeded | K::FileTooLarge => crate::tr_in!(lang, "io-full"),
        K::ReadOnlyFilesystem => crate::tr_in!(lang, "io-read-only"),
        K::IsADirectory => crate::tr_in!(lang, "io-is-folder"),
        K::NotADirectory => crate::tr_in!(lang, "io-not-folder"),
        K::InvalidData => crate::tr_in!(lang, "io-invalid-data"),
        K::TimedOut => crate::tr_in!(lang, "io-timed-out"),
        K::Interrupted => crate::tr_in!(lang, "io-interrupted"),
        K::BrokenPipe => crate::tr_in!(lang, "io-broken-pipe"),
        _ if e.raw_os_error().is_some() => {
            crate::tr_in!(
                lang,
                "io-system",
                code = e.raw_os_error().unwrap_or_default()
            )
        }
        _ => crate::text::escape_controls(&e.to_string()).into_owned(),
    }
}

/// A service error code with its meaning, when it is one the clerk meets
/// ("TK20400" → "el cliente no existe").
pub fn service_code_words(code: &str) -> Option<String> {
    Some(match code {
        "TK20400" => tr!("code-tk20400"),
        "TK20100" => tr!("code-tk20100"),
        "TK20600" => tr!("code-tk20600"),
        "TK10601" => tr!("code-tk10601"),
        "TK10602" => tr!("code-tk10602"),
        "TK30000" => tr!("code-tk30000"),
        _ => return None,
    })
}
