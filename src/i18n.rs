//! Spanish (Chile) and English: every UI text comes from `assets/locales/*/main.ftl`
//! (Fluent). The language follows the OS at first start and can be changed in View.
//! Engineer details (status, body, service codes) stay untranslated.

use crate::api::{
    Action, AmountError, ApiError, CertProblem, ErrorKind, InputProblem, Resource, Setting,
};
use crate::profile::ProfileError;
use fluent_templates::{Loader, fluent_bundle::FluentValue};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU8, Ordering};

// (Here rather than in ui/: the CLI's doctor report speaks the clerk's language too.)
fluent_templates::static_loader! {
    static LOCALES = {
        locales: "./assets/locales",
        fallback_language: "en-US",
        // No Unicode isolation marks: the bundled fonts cannot draw them.
        customise: |bundle| bundle.set_use_isolating(false),
    };
}

/// A UI language.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Lang {
    /// English.
    #[default]
    En,
    /// Spanish (Chile).
    Es,
}

impl Lang {
    /// Its tag (`en-US`, `es-CL`): the Fluent folder's name, a template file's suffix.
    pub fn tag(self) -> &'static str {
        match self {
            Lang::En => "en-US",
            Lang::Es => "es-CL",
        }
    }

    fn id(self) -> fluent_templates::LanguageIdentifier {
        match self {
            Lang::En => fluent_templates::langid!("en-US"),
            Lang::Es => fluent_templates::langid!("es-CL"),
        }
    }

    /// The operating system's language: Spanish if it is any Spanish, else English.
    pub fn from_os() -> Lang {
        match sys_locale::get_locale() {
            Some(l) if l.to_ascii_lowercase().starts_with("es") => Lang::Es,
            _ => Lang::En,
        }
    }
}

static CURRENT: AtomicU8 = AtomicU8::new(0);

/// Switches the language of everything drawn from now on.
pub fn set(lang: Lang) {
    CURRENT.store(lang as u8, Ordering::Relaxed);
}

/// The language in use.
pub fn current() -> Lang {
    if CURRENT.load(Ordering::Relaxed) == Lang::Es as u8 {
        Lang::Es
    } else {
        Lang::En
    }
}

/// The text of `key` in the language in use.
pub fn text(key: &str) -> String {
    text_in(current(), key)
}

/// The text of `key` in `lang`, whatever the app's language: for files whose language is
/// their format's (the CSV for Excel in Spanish).
pub fn text_in(lang: Lang, key: &str) -> String {
    LOCALES.lookup(&lang.id(), key)
}

/// An argument as Fluent sees it: a plain whole number (no sign, no leading zero) is a
/// number, so that plural rules apply ("1 fila", "2 filas"); anything else is text.
fn fluent_value(v: &str) -> FluentValue<'static> {
    let plain_number = !v.is_empty()
        && v.len() < 16
        && v.bytes().all(|b| b.is_ascii_digit())
        && (v == "0" || !v.starts_with('0'));
    match v.parse::<u64>() {
        Ok(n) if plain_number => FluentValue::from(n),
        _ => FluentValue::from(v.to_string()),
    }
}

/// A whole number of four digits or more, written with the language's thousands separator
/// ("100.000 facturas", "100,000 invoices"). Plural rules still work: 1,000 and above is
/// "other" in both languages. Dates' parts are never grouped.
fn grouped(lang: Lang, name: &str, v: &str) -> Option<String> {
    let plain = v.len() >= 4 && v.bytes().all(|b| b.is_ascii_digit()) && !v.starts_with('0');
    if !plain
        || matches!(
            name,
            "year" | "month" | "day" | "weekday" | "digit" | "code" | "port"
        )
    {
        return None;
    }
    let sep = match lang {
        Lang::Es => '.',
        Lang::En => ',',
    };
    let mut out = String::with_capacity(v.len() + v.len() / 3);
    for (i, c) in v.chars().enumerate() {
        if i > 0 && (v.len() - i).is_multiple_of(3) {
            out.push(sep);
        }
        out.push(c);
    }
    Some(out)
}

/// A count as the language writes it ("100.000"): for texts that show a number without
/// going through a message.
pub fn count(n: impl std::fmt::Display) -> String {
    count_in(current(), n)
}

/// [`count`] in `lang`.
pub fn count_in(lang: Lang, n: impl std::fmt::Display) -> String {
    let v = n.to_string();
    grouped(lang, "count", &v).unwrap_or(v)
}

/// The text of `key` with its arguments filled in, in the language in use.
pub fn text_args(key: &str, args: &[(&'static str, String)]) -> String {
    text_args_in(current(), key, args)
}

/// [`text_args`] in `lang`: for what is written in a language of its own (a workbook for
/// the CLI's user, the CSV for Excel in Spanish), and for tests, which never switch the
/// process's language.
pub fn text_args_in(lang: Lang, key: &str, args: &[(&'static str, String)]) -> String {
    let map: HashMap<Cow<'static, str>, FluentValue> = args
        .iter()
        .map(|(k, v)| {
            let value = match grouped(lang, k, v) {
                Some(g) => FluentValue::from(g),
                None => fluent_value(v),
            };
            (Cow::Borrowed(*k), value)
        })
        .collect();
    LOCALES.lookup_with_args(&lang.id(), key, &map)
}

/// `tr!(KEY)` or `tr!(KEY, name = value, …)` with KEY a string literal: the translated text.
#[macro_export]
macro_rules! tr {
    ($key:literal) => {
        $crate::i18n::text($key)
    };
    ($key:literal, $($name:ident = $value:expr),+ $(,)?) => {
        $crate::i18n::text_args($key, &[$((stringify!($name), ($value).to_string())),+])
    };
}

/// `tr_in!(LANG, KEY)` or `tr_in!(LANG, KEY, name = value, …)`: the text in `LANG`,
/// whatever the process's language.
#[macro_export]
macro_rules! tr_in {
    ($lang:expr, $key:literal) => {
        $crate::i18n::text_in($lang, $key)
    };
    ($lang:expr, $key:literal, $($name:ident = $value:expr),+ $(,)?) => {
        $crate::i18n::text_args_in(
            $lang,
            $key,
            &[$((stringify!($name), ($value).to_string())),+],
        )
    };
}

/// A date `YYYY-MM-DD` as the language expects it (es-CL: dd-mm-aaaa); other text as is.
pub fn date(iso: &str) -> String {
    date_in(current(), iso)
}

/// [`date`] in `lang`.
pub fn date_in(lang: Lang, iso: &str) -> String {
    match (lang, chrono::NaiveDate::parse_from_str(iso, "%Y-%m-%d")) {
        (Lang::Es, Ok(d)) => d.format("%d-%m-%Y").to_string(),
        _ => iso.to_string(),
    }
}

/// A known invoice field's name in the clerk's language (`field-due-date`, …).
pub fn field_name(name: &str) -> String {
    field_name_in(current(), name)
}

/// [`field_name`] in `lang`.
pub fn field_name_in(lang: Lang, name: &str) -> String {
    text_in(lang, &format!("field-{}", name.replace('_', "-")))
}

/// A known field's value as the clerk reads it: dates in the language's form, yes/no,
/// amounts formatted; service text escaped.
pub fn known_value(
    inv: &crate::api::Invoice,
    name: &str,
    v: crate::api::model::Known<'_>,
) -> String {
    use crate::api::model::Known;
    match v {
        Known::Text(t) if name == "due_date" => crate::text::escape_controls(&date(t)).into_owned(),
        Known::Text(t) => crate::text::escape_controls(t).into_owned(),
        Known::Flag(true) => tr!("yes"),
        Known::Flag(false) => tr!("no"),
        Known::Amount(_) | Known::Unreadable(_) => amount_text(inv),
        Known::Json(j) => {
            crate::text::escape_controls(&crate::api::model::value_text(j)).into_owned()
        }
        Known::CompactJson(s) => crate::text::escape_controls(s).into_owned(),
    }
}

/// An invoice's amount as the clerk reads it (es-CL money), or what the service sent
/// when it is not a usable number.
pub fn amount_text(inv: &crate::api::Invoice) -> String {
    match (inv.amount, &inv.amount_unreadable) {
        (Some(a), _) => crate::text::escape_controls(&crate::api::money::format_amount(
            a,
            inv.currency_code.as_deref(),
        ))
        .into_owned(),
        (None, Some(raw)) => tr!("amount-unreadable", raw = crate::text::escape_controls(raw)),
        (None, None) => "—".to_string(),
    }
}

/// A status in words ("Open", "Overdue", …): the table, the filter, the workbook.
pub fn status_kind(k: crate::receivables::aging::StatusKind) -> String {
    status_kind_in(current(), k)
}

/// [`status_kind`] in `lang`.
pub fn status_kind_in(lang: Lang, k: crate::receivables::aging::StatusKind) -> String {
    use crate::receivables::aging::StatusKind as K;
    match k {
        K::Open => tr_in!(lang, "status-open"),
        K::Overdue => tr_in!(lang, "status-overdue"),
        K::Paid => tr_in!(lang, "status-paid"),
        K::Void => tr_in!(lang, "status-void"),
        K::Unknown => tr_in!(lang, "status-unknown"),
    }
}

/// An aging bucket's name ("Current", "1–30 days", …).
pub fn bucket(b: crate::receivables::aging::Bucket) -> String {
    bucket_in(current(), b)
}

/// [`bucket`] in `lang`.
pub fn bucket_in(lang: Lang, b: crate::receivables::aging::Bucket) -> String {
    use crate::receivables::aging::Bucket as B;
    match b {
        B::Current => tr_in!(lang, "aging-current"),
        B::Days1To30 => tr_in!(lang, "aging-1-30"),
        B::Days31To60 => tr_in!(lang, "aging-31-60"),
        B::Days61To90 => tr_in!(lang, "aging-61-90"),
        B::Over90 => tr_in!(lang, "aging-over-90"),
    }
}

/// A month's name (1–12) in the language in use.
pub fn month_name(m: u32) -> String {
    text(&format!("month-{m}"))
}

/// A weekday's short name (1 = Monday … 7 = Sunday).
pub fn weekday_short(d: u32) -> String {
    text(&format!("weekday-short-{d}"))
}

/// A date in words: "martes 5 de enero de 2027", "Tuesday 5 January 2027".
pub fn long_date(d: chrono::NaiveDate) -> String {
    use chrono::Datelike;
    let wd = d.weekday().number_from_monday();
    tr!(
        "date-long",
        weekday = text(&format!("weekday-{wd}")),
        day = d.day(),
        month = month_name(d.month()),
        year = d.year()
    )
}

/// A refused date in the clerk's language.
pub fn date_error(e: &crate::input::DateError) -> String {
    use crate::input::DateError as D;
    match e {
        D::Format(t) => {
            let t = crate::text::escape_controls(t).into_owned();
            match current() {
                Lang::Es => tr!("date-format-es", text = t),
                Lang::En => tr!("date-format-en", text = t),
            }
        }
        D::NoSuchDay { day, month, year } => {
            if (1..=12).contains(month) {
                tr!(
                    "date-no-such-day",
                    day = day,
                    month = month_name(*month),
                    year = year
                )
            } else {
                tr!("date-no-such-month", month = month)
            }
        }
        D::Year(y) => tr!("date-year", year = y),
    }
}

/// When a token expires, in words: the time if today, else the date and time (a token
/// may live for days).
pub fn expiry(t: chrono::DateTime<chrono::Utc>) -> String {
    let local = t.with_timezone(&chrono::Local);
    let time = local.format("%H:%M").to_string();
    if local.date_naive() == chrono::Local::now().date_naive() {
        tr!("expiry-today", time = time)
    } else {
        tr!(
            "expiry-day",
            date = date(&local.format("%Y-%m-%d").to_string()),
            time = time
        )
    }
}

fn wait(d: &Option<std::time::Duration>) -> String {
    match d {
        Some(d) if d.as_secs() >= 120 => tr!("wait-minutes", minutes = d.as_secs().div_ceil(60)),
        Some(d) => tr!("wait-seconds", seconds = d.as_secs().max(1)),
        None => tr!("wait-moment"),
    }
}

fn action(a: Action) -> String {
    match a {
        Action::Create => tr!("action-create"),
        Action::Void => tr!("action-void"),
    }
}

/// A field of the service's 422 answers, named as the form names it (unknown ones as
/// the service named them).
pub fn field_label(field: &str) -> String {
    match field {
        "customer" | "customer_id" => tr!("f-customer-id"),
        "amount" => tr!("f-amount"),
        "currency_code" => tr!("f-currency"),
        "due_date" => tr!("f-due-date"),
        "product_id" => tr!("f-product-id"),
        "invoice_external_id" => tr!("f-external-ref"),
        "metadata" => tr!("f-extra"),
        "id" => tr!("f-invoice-id"),
        other => crate::text::escape_controls(other).into_owned(),
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
                CertProblem::UnknownIssuer => tr!("cert-unknown-issuer"),
                CertProblem::Expired => tr!("cert-expired"),
                CertProblem::WrongName => tr!("cert-wrong-name"),
                CertProblem::Other(r) => r.clone(),
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

fn setting(s: Setting) -> String {
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
pub fn input_problem(p: &InputProblem) -> String {
    let esc = |s: &str| crate::text::escape_controls(s).into_owned();
    match p {
        InputProblem::Missing(s) => tr!("in-missing", what = setting(*s)),
        InputProblem::NotValid(s) => tr!("in-not-valid", what = setting(*s)),
        InputProblem::BadAddress { what, text } => {
            tr!("in-bad-address", what = setting(*what), text = esc(text))
        }
        InputProblem::WrongScheme { what, scheme } => {
            tr!(
                "in-wrong-scheme",
                what = setting(*what),
                scheme = esc(scheme)
            )
        }
        InputProblem::BadHeaderName(h) => tr!("in-bad-header", name = esc(h)),
        InputProblem::UnsendableKey => tr!("in-unsendable-key"),
        InputProblem::NoCertificateStore(_) => tr!("in-no-certificate-store"),
        InputProblem::NoCustomer => tr!("cr-enter-customer"),
        InputProblem::AmountNotPositive => tr!("amount-not-positive"),
        InputProblem::TooManyDecimals { currency, max } => {
            tr!("in-too-many-decimals", currency = currency, max = max)
        }
        InputProblem::BadDueDate(d) => tr!("in-bad-due-date", date = esc(d)),
        InputProblem::ReservedField(k) => tr!("in-reserved-field", name = esc(k)),
        InputProblem::UnnamedField => tr!("in-unnamed-field"),
        InputProblem::TooLong { field, max } => {
            tr!("in-too-long", what = field_label(field), max = max)
        }
        InputProblem::ExtraTooLarge { max } => tr!("in-extra-too-large", kb = max / 1024),
        InputProblem::Said(m) => m.clone(),
    }
}

/// A refused extra-field line in the clerk's language.
pub fn assignment_error(e: &crate::input::AssignmentError) -> String {
    use crate::input::AssignmentError as A;
    match e {
        A::NoEquals(i) => tr!("as-no-equals", item = i),
        A::NoName(i) => tr!("as-no-name", item = i),
        A::MetadataTooLong(k) => tr!("as-metadata-long", name = k),
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
pub fn sender_problem(p: &crate::profile::SenderProblem) -> String {
    use crate::profile::SenderProblem as P;
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
pub fn mail_problem(p: &crate::profile::mail::MailProblem) -> String {
    use crate::profile::mail::MailProblem as P;
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

/// What is wrong with a clerk's e-mail template, in the clerk's language.
pub fn template_problem(p: &crate::profile::mail::TemplateProblem) -> String {
    use crate::profile::mail::TemplateProblem as P;
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
fn shown(path: &std::path::Path) -> String {
    crate::text::escape_controls(&path.display().to_string()).into_owned()
}

/// A sender's field named in the clerk's language.
fn tr_field(what: &str) -> String {
    match what {
        "name" => tr!("sender-f-organization"),
        "address" => tr!("sender-f-address"),
        "e-mail" => tr!("sender-f-email"),
        "phone" => tr!("sender-f-phone"),
        _ => tr!("sender-f-payment"),
    }
}

/// A refused amount in the clerk's language.
pub fn amount_error(e: &AmountError) -> String {
    // What was typed may be a spreadsheet's cell: its control characters never reach a
    // terminal or a label as they are.
    let esc = |s: &str| crate::text::escape_controls(s).into_owned();
    match e {
        AmountError::Empty => tr!("amount-empty"),
        AmountError::NotANumber(t) => tr!("amount-not-a-number", text = esc(t)),
        AmountError::Ambiguous { text, a, b } => {
            tr!("amount-ambiguous", text = esc(text), a = esc(a), b = esc(b))
        }
        AmountError::BadGrouping(t) => tr!("amount-bad-grouping", text = esc(t)),
        AmountError::TooPrecise {
            text,
            currency,
            max,
            got,
        } => {
            tr!(
                "amount-too-precise",
                currency = currency,
                max = max,
                text = esc(text),
                got = got
            )
        }
        AmountError::NotPositive => tr!("amount-not-positive"),
        AmountError::TooLarge => tr!("amount-too-large"),
    }
}

/// A problem with a customer directory file, in the clerk's language.
pub fn import_problem(p: &crate::journal::ImportProblem) -> String {
    use crate::journal::ImportWhy;
    let esc = |s: &str| crate::text::escape_controls(s).into_owned();
    let cell = |what: String| {
        tr!(
            "dir-problem-cell",
            row = p.row,
            column = esc(&p.column),
            what = what
        )
    };
    match &p.why {
        ImportWhy::NoIdColumn => tr!("dir-no-id-column"),
        ImportWhy::Unreadable(e) => tr!("dir-unreadable-why", why = sheet_error(e)),
        ImportWhy::NoId => cell(tr!("dir-no-id")),
        ImportWhy::BadRut(r) => cell(tr!("dir-bad-rut", rut = esc(r))),
        ImportWhy::WrongCheckDigit(r, d) => {
            cell(tr!("dir-check-digit", rut = esc(r), digit = d.to_string()))
        }
        ImportWhy::Duplicate(id) => cell(tr!("dir-duplicate", id = esc(id))),
        ImportWhy::BadEmail(e) => cell(tr!("dir-bad-email", email = esc(e))),
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

/// A currency as the picker names it: "UF (CLF)", "Pesos (CLP)", else its code.
pub fn currency_name(c: crate::api::Currency) -> String {
    currency_name_in(current(), c)
}

/// [`currency_name`] in `lang`.
pub fn currency_name_in(lang: Lang, c: crate::api::Currency) -> String {
    match c.code() {
        "CLF" => tr_in!(lang, "cur-clf"),
        "CLP" => tr_in!(lang, "cur-clp"),
        code => code.to_string(),
    }
}

/// Why a spreadsheet was not read, in the clerk's language (the limit named).
pub fn sheet_error(e: &crate::sheet::SheetError) -> String {
    use crate::sheet::SheetError;
    // Grouped by the message (each language its own separator).
    let thousands = |n: usize| n;
    match e {
        SheetError::Unreadable(_) => tr!("sheet-unreadable"),
        SheetError::NotAFile => tr!("sheet-not-a-file"),
        SheetError::TooLarge(l) => tr!("sheet-too-large", mb = l / (1024 * 1024)),
        SheetError::TooManyRows(l) => tr!("sheet-too-many-rows", limit = thousands(l - 1)),
        SheetError::TooManyColumns { row, limit } => {
            tr!("sheet-too-many-columns", row = row, limit = limit)
        }
        SheetError::TooManyCells(l) => tr!("sheet-too-many-cells", limit = thousands(*l)),
        SheetError::CellTooLong { row: 0, limit, .. } => {
            tr!("sheet-text-too-long", limit = thousands(*limit))
        }
        SheetError::CellTooLong { row, column, limit } => tr!(
            "sheet-cell-too-long",
            row = row,
            column = column,
            limit = thousands(*limit)
        ),
        SheetError::UnclosedQuote(row) => tr!("sheet-unclosed-quote", row = row),
        SheetError::Uncompressed(l) => tr!("sheet-uncompressed", mb = l / (1024 * 1024)),
        SheetError::TooManyParts(l) => tr!("sheet-too-many-parts", limit = thousands(*l)),
        SheetError::NotAWorkbook(_) => tr!("sheet-not-a-workbook"),
        SheetError::NoSuchSheet(s) => tr!(
            "sheet-no-such-sheet",
            name = crate::text::escape_controls(s)
        ),
        SheetError::NoSheet => tr!("sheet-no-sheet"),
        SheetError::SheetOfCsv => tr!("sheet-of-csv"),
    }
}

/// A billing-run field's name in the clerk's language.
pub fn bulk_field(f: crate::bulk::Field) -> String {
    use crate::bulk::Field;
    match f {
        Field::Customer => tr!("bulk-field-customer"),
        Field::Amount => tr!("bulk-field-amount"),
        Field::Currency => tr!("bulk-field-currency"),
        Field::Due => tr!("bulk-field-due"),
        Field::Product => tr!("bulk-field-product"),
        Field::Reference => tr!("bulk-field-reference"),
        Field::Account => tr!("bulk-field-account"),
        Field::Metadata => tr!("bulk-field-metadata"),
    }
}

/// Why a billing-run row (or the header) cannot be sent, in the clerk's language.
pub fn bulk_why(w: &crate::bulk::Why) -> String {
    use crate::bulk::Why;
    let esc = |s: &str| crate::text::escape_controls(s).into_owned();
    match w {
        Why::UnknownColumns(c) => {
            let c: Vec<String> = c.iter().map(|c| esc(c)).collect();
            tr!("bulk-why-unknown-columns", columns = c.join(", "))
        }
        Why::NoCustomerColumn => tr!("bulk-why-no-customer-column"),
        Why::NoAmountColumn => tr!("bulk-why-no-amount-column"),
        Why::TwiceMapped(f) => tr!("bulk-why-twice", field = bulk_field(*f)),
        Why::CustomerEmpty => tr!("bulk-why-customer-empty"),
        Why::CustomerNotFound(t) => tr!("bulk-why-customer-not-found", text = esc(t)),
        Why::DirectoryEmpty(t) => tr!("bulk-why-directory-empty", text = esc(t)),
        Why::CustomerAmbiguous(t, n) => {
            tr!("bulk-why-customer-ambiguous", text = esc(t), count = n)
        }
        Why::DirectoryUnreadable(_) => tr!("bulk-why-directory"),
        Why::AmountEmpty => tr!("bulk-why-amount-empty"),
        Why::Amount(e) => amount_error(e),
        Why::Currency { text, offered } => tr!(
            "bulk-why-currency",
            text = esc(text),
            offered = offered.join(", ")
        ),
        Why::Date(e) => date_error(e),
        Why::DuplicateReference {
            reference,
            first_row,
        } => tr!(
            "bulk-why-duplicate",
            reference = esc(reference),
            row = first_row
        ),
        Why::Invoice(e) => error_text(e),
    }
}

/// A billing-run problem as the status column says it: the column, then why.
pub fn bulk_problem(p: &crate::bulk::Problem) -> String {
    if p.column.is_empty() {
        bulk_why(&p.why)
    } else {
        tr!(
            "bulk-problem-cell",
            column = crate::text::escape_controls(&p.column),
            what = bulk_why(&p.why)
        )
    }
}

/// What became of a billing-run row: its status word and, when it was not issued,
/// why, in the clerk's language.
pub fn bulk_status(s: &crate::bulk::run::Status) -> (String, Option<String>) {
    use crate::bulk::run::{Held, Status, Unsure};
    match s {
        Status::Created(_) => (tr!("bulk-st-created"), None),
        Status::SkippedExisting(e) => (
            match &e.by {
                _ if e.at_service => tr!("bulk-st-existing-service"),
                Some(by) => tr!("bulk-st-existing-by", who = who(by)),
                None => tr!("bulk-st-existing"),
            },
            None,
        ),
        Status::Refused(e) => (tr!("bulk-st-refused"), Some(error_text(e))),
        Status::Unknown(u) => (
            tr!("bulk-st-unknown"),
            Some(match u {
                Unsure::Sent(_) => tr!("bulk-unsure-sent"),
                Unsure::Earlier => tr!("bulk-unsure-earlier"),
                Unsure::Waiting(until) => tr!("bulk-unsure-waiting", time = clock(*until)),
                Unsure::NotRecorded(..) => tr!("bulk-unsure-not-recorded"),
                Unsure::Elsewhere(e) => tr!("bulk-unsure-elsewhere", who = who(&e.user)),
            }),
        ),
        Status::PossibleDuplicate(e) => (
            tr!("bulk-st-similar"),
            Some(looks_like(
                e.id.as_deref(),
                e.time.as_deref(),
                e.at_service,
                e.due,
            )),
        ),
        Status::NotSent(h) => (
            tr!("bulk-st-not-sent"),
            match h {
                Held::Cancelled => None,
                Held::Journal(e) => Some(journal_not_sent(e)),
                Held::RateLimited => Some(tr!("bulk-rate-limited")),
                Held::WaitTooLong(d) => Some(tr!(
                    "bulk-wait-too-long",
                    minutes = d.as_secs().div_ceil(60)
                )),
                Held::Unchecked(e) => Some(tr!("bulk-unchecked", why = error_text(e))),
                Held::Elsewhere(f) => Some(tr!(
                    "bulk-issued-elsewhere",
                    invoice = crate::text::escape_controls(&f.invoice).into_owned(),
                    reference = crate::text::escape_controls(&f.reference).into_owned()
                )),
            },
        ),
        Status::SkippedInvalid => (tr!("bulk-st-invalid"), None),
    }
}

/// "Parece repetida: in_… emitida el 24-11-2026" (found in the journal or the service).
pub fn looks_like(id: Option<&str>, time: Option<&str>, at_service: bool, due: bool) -> String {
    let id = crate::text::escape_controls(id.unwrap_or("?")).into_owned();
    let when = time.map(day).unwrap_or_default();
    let alike = if due {
        tr!("looks-like-due")
    } else {
        tr!("looks-like-same-day")
    };
    if at_service {
        tr!("looks-like-service", id = id, date = when, alike = alike)
    } else {
        tr!("looks-like", id = id, date = when, alike = alike)
    }
}

/// An instant (RFC 3339, or a bare date) as the local day the language writes.
pub fn day(t: &str) -> String {
    match chrono::DateTime::parse_from_rfc3339(t) {
        Ok(t) => date(
            &t.with_timezone(&chrono::Local)
                .format("%Y-%m-%d")
                .to_string(),
        ),
        Err(_) => date(t.get(..10).unwrap_or(t)),
    }
}

/// An instant (RFC 3339) as the local day and minute the language writes
/// ("24-11-2026 10:42").
pub fn moment(t: &str) -> String {
    match chrono::DateTime::parse_from_rfc3339(t) {
        Ok(t) => {
            let local = t.with_timezone(&chrono::Local);
            format!(
                "{} {}",
                date(&local.format("%Y-%m-%d").to_string()),
                local.format("%H:%M")
            )
        }
        Err(_) => crate::text::escape_controls(t).into_owned(),
    }
}

/// A time of today, local, to the minute ("10:44"); another day's with its date.
pub fn clock(t: chrono::DateTime<chrono::Utc>) -> String {
    let local = t.with_timezone(&chrono::Local);
    if local.date_naive() == chrono::Local::now().date_naive() {
        local.format("%H:%M:%S").to_string()
    } else {
        moment(&t.to_rfc3339())
    }
}

/// What kind of journal trouble this is, as a sentence of its own (none for the
/// kinds with no advice to give).
pub fn journal_trouble(t: crate::journal::Trouble) -> Option<String> {
    use crate::journal::Trouble;
    match t {
        Trouble::Busy => Some(tr!("journal-busy")),
        Trouble::DiskFull => Some(tr!("journal-disk-full")),
        Trouble::ReadOnly => Some(tr!("journal-read-only")),
        Trouble::Corrupt => Some(tr!("journal-corrupt")),
        Trouble::Unreachable => Some(tr!("journal-unreachable")),
        Trouble::Untrusted => Some(tr!("journal-untrusted")),
        Trouble::Denied => Some(tr!("journal-denied")),
        Trouble::NoDatabase => Some(tr!("journal-no-database")),
        Trouble::Other => None,
    }
}

fn with_trouble(said: String, e: &crate::journal::JournalError) -> String {
    match journal_trouble(e.trouble()) {
        Some(t) => format!("{said} {t}"),
        None => said,
    }
}

/// Who wrote a journal entry, as a clerk reads it: "ana" or, on a shared journal,
/// "ana en PC-CAJA-2", after the clerk's name when one was given.
pub fn who(user: &str) -> String {
    // A clerk's display name comes first: "Ana Pérez (ana@PC-CAJA-2)".
    if let Some((name, account)) = user
        .strip_suffix(')')
        .and_then(|u| u.rsplit_once(" ("))
        .filter(|(name, _)| !name.is_empty())
    {
        return format!("{} ({})", crate::text::escape_controls(name), who(account));
    }
    let user = crate::text::escape_controls(user);
    if matches!(user.as_ref(), "" | "?") || user.starts_with("?@") {
        return tr!("who-unknown");
    }
    match user.split_once('@') {
        Some((name, host)) if !name.is_empty() && !host.is_empty() => {
            tr!("who-on", user = name, host = host)
        }
        _ => user.into_owned(),
    }
}

/// "Nothing was sent: the journal … cannot be written. The disk is full: …"
pub fn journal_not_sent(e: &crate::journal::JournalError) -> String {
    with_trouble(tr!("journal-not-sent"), e)
}

/// What is wrong with the journal, whatever was being done: "cannot be opened / read /
/// written", "is damaged", "is newer", and what kind of trouble it is.
pub fn journal_error(e: &crate::journal::JournalError) -> String {
    use crate::journal::JournalError as J;
    match e {
        J::Open { .. } => with_trouble(tr!("journal-cannot-open"), e),
        J::Read { .. } => with_trouble(tr!("journal-unreadable"), e),
        J::Write { .. } => with_trouble(tr!("journal-cannot-write"), e),
        J::Damaged { .. } => tr!("journal-damaged"),
        J::TooNew { .. } => tr!("journal-too-new"),
    }
}

/// "The journal cannot be read." and what kind of trouble it is.
pub fn journal_unreadable(e: &crate::journal::JournalError) -> String {
    with_trouble(tr!("journal-unreadable"), e)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(text: &str) -> std::collections::BTreeSet<String> {
        text.lines()
            .filter_map(|l| l.split_once(" =").map(|(k, _)| k.trim()))
            .filter(|k| {
                !k.is_empty()
                    && k.chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
            })
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn who_reads_a_clerks_name_and_the_account_on_its_computer() {
        // Language-neutral: the account reads as it does alone, after the name.
        let account = who("ana@PC-CAJA-2");
        assert!(account.contains("PC-CAJA-2") && !account.contains('@'));
        assert_eq!(
            who("Ana Pérez (ana@PC-CAJA-2)"),
            format!("Ana Pérez ({account})")
        );
        assert_eq!(who("Ana\u{202e} (ana)"), "Ana\\u{202e} (ana)");
    }

    #[test]
    fn every_key_exists_in_both_languages_and_every_used_key_exists() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        // Every .ftl file of a language (the app's main.ftl, the command line's cli.ftl).
        let all = |lang: &str| {
            let mut text = String::new();
            for f in std::fs::read_dir(root.join("assets/locales").join(lang)).unwrap() {
                let path = f.unwrap().path();
                if path.extension().is_some_and(|e| e == "ftl") {
                    text.push_str(&std::fs::read_to_string(path).unwrap());
                    text.push('\n');
                }
            }
            text
        };
        let en = ids(&all("en-US"));
        let es = ids(&all("es-CL"));
        let only_en: Vec<_> = en.difference(&es).collect();
        let only_es: Vec<_> = es.difference(&en).collect();
        assert!(only_en.is_empty(), "missing in Spanish: {only_en:?}");
        assert!(only_es.is_empty(), "missing in English: {only_es:?}");
        let mut missing = Vec::new();
        let mut files = vec![root.join("src")];
        let mut sources = Vec::new();
        while let Some(path) = files.pop() {
            if path.is_dir() {
                files.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
            } else {
                let text = std::fs::read_to_string(&path).unwrap();
                // Tests may name keys that do not exist on purpose.
                let code = text.split("#[cfg(test)]").next().unwrap_or("").to_string();
                sources.push(code);
            }
        }
        for src in sources {
            // `tr!("key"` or, as rustfmt may break it, `tr!(\n    "key"`; and
            // `tr_in!(lang, "key"`.
            let plain = src.split("tr!(").skip(1).map(str::to_string);
            let with_lang = src
                .split("tr_in!(")
                .skip(1)
                .filter_map(|p| p.split_once(',').map(|(_, rest)| rest.to_string()));
            for part in plain.chain(with_lang) {
                let Some(rest) = part.trim_start().strip_prefix('"') else {
                    continue;
                };
                let key = rest.split('"').next().unwrap_or("");
                if !en.contains(key) {
                    missing.push(key.to_string());
                }
            }
        }
        assert!(missing.is_empty(), "used but not defined: {missing:?}");
    }

    #[test]
    fn spanish_and_english_texts_and_dates() {
        // Explicit languages: a test never switches the process's language.
        let es = Lang::Es;
        assert_eq!(text_in(es, "tab-create"), "Nueva factura");
        assert_eq!(date_in(es, "2026-12-31"), "31-12-2026");
        assert_eq!(
            tr_in!(es, "wait-seconds", seconds = 1),
            "Intente de nuevo en 1 segundo."
        );
        assert_eq!(
            tr_in!(es, "wait-seconds", seconds = 5),
            "Intente de nuevo en 5 segundos."
        );
        // Plurals follow the number; counts of four digits and more are grouped, the
        // parts of a date never.
        assert_eq!(
            tr_in!(es, "journal-checked", settled = 1, left = 2),
            "Revisado: 1 resuelta, 2 aún por revisar."
        );
        assert_eq!(
            tr_in!(es, "cu-done", count = 100000, customer = "cus_1"),
            "100.000 facturas del cliente cus_1."
        );
        assert_eq!(count_in(es, 1234567), "1.234.567");
        assert_eq!(count_in(es, 999), "999");
        assert_eq!(tr_in!(es, "act-count", count = 1), "1 registro");
        let en = Lang::En;
        assert_eq!(
            tr_in!(en, "cu-done", count = 2500, customer = "cus_1"),
            "2,500 invoices of customer cus_1."
        );
        assert_eq!(
            tr_in!(en, "wait-seconds", seconds = 1),
            "Try again in 1 second."
        );
        assert_eq!(
            tr_in!(en, "wait-minutes", minutes = 3),
            "Try again in about 3 minutes."
        );
        assert_eq!(text_in(en, "tab-create"), "New invoice");
        assert_eq!(date_in(en, "2026-12-31"), "2026-12-31");
    }

    #[test]
    fn an_errors_details_are_labelled_in_the_clerks_language() {
        let e = ApiError::new(ErrorKind::ServerError)
            .with_status(502)
            .with_service(Some("upstream down"), Some("E502"))
            .with_body(b"{\"error\": \"upstream\"}");
        let es = error_details_in(Lang::Es, &e);
        for said in [
            "Estado HTTP: 502",
            "Código del servicio: E502",
            "Mensaje del servicio: upstream down",
            "Respuesta: {\"error\": \"upstream\"}",
        ] {
            assert!(es.contains(said), "{said:?} in {es}");
        }
        assert!(!es.contains("HTTP status") && !es.contains("Body"), "{es}");
        let en = error_details_in(Lang::En, &e);
        assert!(
            en.contains("HTTP status: 502") && en.contains("Service code: E502"),
            "{en}"
        );
    }

    /// English words a Spanish clerk was shown (#49): none is left in a Spanish text.
    #[test]
    fn no_english_left_in_the_spanish_texts() {
        let es = include_str!("../assets/locales/es-CL/main.ftl");
        for line in es.lines().filter(|l| !l.starts_with('#')) {
            let Some((_, value)) = line.split_once(" = ") else {
                continue;
            };
            for english in [
                "Token",
                "token",
                "Secret Service",
                "Metadata",
                "HTTP status",
                "Body:",
            ] {
                assert!(!value.contains(english), "{english:?} in {line}");
            }
            assert_ne!(value.trim(), "ok", "{line}");
        }
    }
}
