//! Spanish (Chile) and English: every UI text comes from `assets/locales/*/main.ftl`
//! (Fluent). The language follows the OS at first start and can be changed in View.
//! Engineer details (status, body, service codes) stay untranslated.
//!
//! Here: the runtime (the language, `tr!`, numbers and dates); each area's words in a
//! file of its own (invoice.rs, errors.rs, profile.rs, bulk.rs, journal.rs), all reached
//! as `crate::i18n::…`.

use crate::api::{
    Action, AmountError, ApiError, CertError, ErrorKind, InputError, Resource, Setting,
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

// The command line's help in Spanish (the English is clap's, from the doc comments):
// apart, as it has no English keys to pair with.
fluent_templates::static_loader! {
    static HELP = {
        locales: "./assets/help",
        fallback_language: "en-US",
        customise: |bundle| bundle.set_use_isolating(false),
    };
}

/// The command line's help text of `key` in `lang`, if there is one (see `cli::help`).
pub fn help_text(lang: Lang, key: &str) -> Option<String> {
    HELP.try_lookup(&lang.id(), key)
}

/// [`help_text`] with its arguments.
pub fn help_text_args(lang: Lang, key: &str, args: &[(&'static str, String)]) -> Option<String> {
    let map: HashMap<Cow<'static, str>, FluentValue> = args
        .iter()
        .map(|(k, v)| (Cow::Borrowed(*k), FluentValue::from(v.clone())))
        .collect();
    HELP.try_lookup_with_args(&lang.id(), key, &map)
}

mod approvals;
mod bulk;
mod contracts;
mod errors;
mod invoice;
mod journal;
mod profile;
mod search;
mod uf;

pub use approvals::*;
pub use bulk::*;
pub use contracts::*;
pub use errors::*;
pub use invoice::*;
pub use journal::*;
pub use profile::*;
pub use search::*;
pub use uf::*;

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
    let typed: Vec<(&'static str, &dyn Arg)> =
        args.iter().map(|(k, v)| (*k, v as &dyn Arg)).collect();
    text_typed_in(lang, key, &typed)
}

/// A message's argument, typed: a whole number is a number (plural rules apply; four
/// digits or more grouped as the language writes them, "100.000", unless its name says
/// it is a year, a day, a code or a port); text is text, never regrouped (a reference
/// "100234" stays "100234").
pub trait Arg {
    /// As Fluent takes it, in `lang`.
    fn fluent(&self, lang: Lang, name: &str) -> FluentValue<'static>;
}

macro_rules! whole_numbers {
    ($($t:ty),*) => {$(
        impl Arg for $t {
            fn fluent(&self, lang: Lang, name: &str) -> FluentValue<'static> {
                let v = self.to_string();
                match grouped(lang, name, &v) {
                    Some(g) => FluentValue::from(g),
                    None => fluent_value(&v),
                }
            }
        }
    )*};
}
whole_numbers!(u8, u16, u32, u64, usize, i8, i16, i32, i64, isize);

impl Arg for str {
    /// Text; a plain whole number in it is a number for plural rules ("1 fila"), shown
    /// as written (never regrouped: a reference "100234" stays "100234").
    fn fluent(&self, _: Lang, _: &str) -> FluentValue<'static> {
        fluent_value(self)
    }
}

impl Arg for String {
    fn fluent(&self, lang: Lang, name: &str) -> FluentValue<'static> {
        self.as_str().fluent(lang, name)
    }
}

impl Arg for Cow<'_, str> {
    fn fluent(&self, lang: Lang, name: &str) -> FluentValue<'static> {
        self.as_ref().fluent(lang, name)
    }
}

/// Values shown as their text (never regrouped, never a number).
macro_rules! as_text {
    ($($t:ty),*) => {$(
        impl Arg for $t {
            fn fluent(&self, _: Lang, _: &str) -> FluentValue<'static> {
                FluentValue::from(self.to_string())
            }
        }
    )*};
}
as_text!(
    std::path::Display<'_>,
    std::io::Error,
    rust_decimal::Decimal,
    crate::api::money::Currency,
    tokio::task::JoinError
);

impl<I: Iterator<Item = chrono::format::Item<'static>> + Clone> Arg
    for chrono::format::DelayedFormat<I>
{
    fn fluent(&self, _: Lang, _: &str) -> FluentValue<'static> {
        FluentValue::from(self.to_string())
    }
}

impl Arg for char {
    fn fluent(&self, _: Lang, _: &str) -> FluentValue<'static> {
        FluentValue::from(self.to_string())
    }
}

impl<T: Arg + ?Sized> Arg for &T {
    fn fluent(&self, lang: Lang, name: &str) -> FluentValue<'static> {
        (**self).fluent(lang, name)
    }
}

/// The text of `key` with its typed arguments (see [`Arg`]), in `lang`.
pub fn text_typed_in(lang: Lang, key: &str, args: &[(&'static str, &dyn Arg)]) -> String {
    let map: HashMap<Cow<'static, str>, FluentValue> = args
        .iter()
        .map(|(k, v)| (Cow::Borrowed(*k), v.fluent(lang, k)))
        .collect();
    LOCALES.lookup_with_args(&lang.id(), key, &map)
}

/// [`text_typed_in`] in the language in use.
pub fn text_typed(key: &str, args: &[(&'static str, &dyn Arg)]) -> String {
    text_typed_in(current(), key, args)
}

/// `tr!(KEY)` or `tr!(KEY, name = value, …)` with KEY a string literal: the translated
/// text, each value typed ([`Arg`]): numbers as numbers, text as text.
#[macro_export]
macro_rules! tr {
    ($key:literal) => {
        $crate::i18n::text($key)
    };
    ($key:literal, $($name:ident = $value:expr),+ $(,)?) => {
        $crate::i18n::text_typed($key, &[$((stringify!($name), &$value as &dyn $crate::i18n::Arg)),+])
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
        $crate::i18n::text_typed_in(
            $lang,
            $key,
            &[$((stringify!($name), &$value as &dyn $crate::i18n::Arg)),+],
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

/// When a token expires, in words: the time alone if today or within the next 12 hours
/// (a token fetched at 23:36 is valid "until 00:36"), else the date and time (a token may
/// live for days).
pub fn expiry(t: chrono::DateTime<chrono::Utc>) -> String {
    expiry_in(current(), t, chrono::Utc::now())
}

/// [`expiry`] in `lang`, seen at `now`.
pub fn expiry_in(
    lang: Lang,
    t: chrono::DateTime<chrono::Utc>,
    now: chrono::DateTime<chrono::Utc>,
) -> String {
    let local = t.with_timezone(&chrono::Local);
    let time = local.format("%H:%M").to_string();
    let today = local.date_naive() == now.with_timezone(&chrono::Local).date_naive();
    // Within half a day the time alone cannot be read as another day's: the bar's words
    // stay short (the date made them wrap under the menus, late in the day, #49).
    if today || (t >= now && t - now < chrono::TimeDelta::hours(12)) {
        crate::tr_in!(lang, "expiry-today", time = time)
    } else {
        crate::tr_in!(
            lang,
            "expiry-day",
            date = date_in(lang, &local.format("%Y-%m-%d").to_string()),
            time = time
        )
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

#[cfg(test)]
mod tests {
    use super::*;

    /// #67 (4): a reference of digits is printed as written, in both languages; counts
    /// are grouped, years are not; plural rules still see numbers.
    #[test]
    fn words_are_typed_a_reference_of_digits_stays_as_written() {
        for lang in [Lang::Es, Lang::En] {
            let said = crate::tr_in!(
                lang,
                "cli-blocked-issued",
                reference = "100234",
                who = "ana",
                when = "26-11-2026",
                id = "in_1"
            );
            assert!(said.contains("100234"), "{said}");
            let owned = "100234".to_string();
            let said = crate::tr_in!(
                lang,
                "cli-at-service",
                reference = owned,
                id = "in_1",
                created = ""
            );
            assert!(said.contains("100234"), "{said}");
        }
        let grouped = crate::tr_in!(Lang::Es, "uf-why-too-many", count = 40_000usize);
        assert!(grouped.contains("40.000"), "{grouped}");
        let year = crate::tr_in!(
            Lang::Es,
            "uf-why-no-such-day",
            day = 30u32,
            month = "febrero",
            year = 2026i32
        );
        assert!(year.contains("2026") && !year.contains("2.026"), "{year}");
        let one = crate::tr_in!(
            Lang::Es,
            "uf-imported",
            count = 1usize,
            added = "1",
            file = "f",
            first = "a",
            last = "b"
        );
        assert!(one.contains("1 nuevo)"), "{one}");
    }

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
    fn a_writer_is_its_database_role_first_and_a_copied_row_says_so() {
        // Language-neutral: the role leads, what the computer said follows, a copied
        // row names the time it claims.
        let said = who("Ana Pérez (ana@PC-CAJA-2)");
        let shown = writer_parts("Ana Pérez (ana@PC-CAJA-2)", Some("beto"), None);
        let (role_at, said_at) = (shown.find("beto"), shown.find(&said));
        assert!(
            role_at.is_some() && said_at.is_some() && role_at < said_at,
            "{shown}"
        );
        assert_eq!(writer_parts("ana@PC", None, None), who("ana@PC"));
        let copied = writer_parts("ana@PC", Some("beto"), Some("2020-01-01T00:00:00Z"));
        assert!(
            copied.starts_with(&writer_of("ana@PC", Some("beto"))),
            "{copied}"
        );
        assert!(copied.contains("2020"), "{copied}");
        // A role's controls are escaped like any other text.
        assert!(writer_of("x", Some("b\u{1b}[31m")).contains("\\x1b"));
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

    /// #68: what the system said of a file, in words, never "(os error 2)".
    #[test]
    fn a_files_trouble_is_said_in_words() {
        let gone = std::fs::read("/no/such/file/anywhere").unwrap_err();
        assert_eq!(
            io_words_in(Lang::Es, &gone),
            "el archivo o la carpeta no existe"
        );
        assert_eq!(
            io_words_in(Lang::En, &gone),
            "the file or folder does not exist"
        );
        let odd = std::io::Error::from_raw_os_error(71);
        assert!(!io_words_in(Lang::Es, &odd).contains("os error"));
    }

    /// #68: no "1 páginas" — a count is never written before a plural noun outside a
    /// selector that says the one form (`[one] 1 página`).
    #[test]
    fn a_count_before_a_noun_says_one_in_the_singular() {
        let nouns = [
            "facturas",
            "páginas",
            "filas",
            "clientes",
            "registros",
            "correos",
            "invoices",
            "pages",
            "rows",
            "customers",
            "entries",
            "e-mails",
        ];
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/locales");
        let mut bare = Vec::new();
        for lang in ["es-CL", "en-US"] {
            for file in ["main.ftl", "cli.ftl", "mail.ftl"] {
                let text = std::fs::read_to_string(root.join(lang).join(file)).unwrap();
                for line in text.lines() {
                    // A variant's own text is the selector's form already.
                    let t = line.trim_start();
                    if t.starts_with('[') || t.starts_with("*[") || t.starts_with('#') {
                        continue;
                    }
                    for part in line.split("{ $").skip(1) {
                        if let Some((_, after)) = part.split_once(" } ")
                            && nouns.iter().any(|n| after.starts_with(n))
                            && !part.contains("->")
                        {
                            bare.push(format!("{lang}/{file}: {line}"));
                        }
                    }
                }
            }
        }
        assert!(
            bare.is_empty(),
            "counts before plural nouns:\n{}",
            bare.join("\n")
        );
        let one = |lang| {
            text_typed_in(
                lang,
                "cli-export-progress",
                &[("items", &1u64), ("pages", &1u64)],
            )
        };
        assert_eq!(one(Lang::Es), "1 factura (1 página)…");
        assert_eq!(one(Lang::En), "1 invoice (1 page)…");
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

    /// The token's expiry in the top bar: a token fetched late in the day says the time
    /// alone (its date made the bar wrap under its menus, and the tests that looked at it
    /// failed after 23:00 UTC); one that lives for days says its day.
    #[test]
    fn a_tokens_expiry_is_the_time_within_half_a_day_else_the_day_too() {
        use chrono::TimeZone;
        let at = |d: u32, h: u32, m: u32| {
            chrono::Local
                .with_ymd_and_hms(2026, 11, d, h, m, 0)
                .unwrap()
                .with_timezone(&chrono::Utc)
        };
        let (es, en) = (Lang::Es, Lang::En);
        let late = at(27, 23, 36);
        assert_eq!(expiry_in(es, at(28, 0, 36), late), "las 00:36");
        assert_eq!(expiry_in(en, at(28, 0, 36), late), "00:36");
        assert_eq!(expiry_in(es, at(27, 23, 50), late), "las 23:50");
        // A day's token: the same minute tomorrow.
        assert_eq!(
            expiry_in(es, at(28, 23, 36), late),
            "el 28-11-2026 a las 23:36"
        );
        assert_eq!(expiry_in(en, at(28, 23, 36), late), "2026-11-28 23:36");
        let morning = at(27, 9, 0);
        assert_eq!(
            expiry_in(es, at(28, 8, 0), morning),
            "el 28-11-2026 a las 08:00"
        );
    }

    #[test]
    fn a_run_sending_fewer_at_once_says_one_or_many_in_both_languages() {
        let (es, en) = (Lang::Es, Lang::En);
        assert_eq!(
            tr_in!(es, "bulk-slowed", now = 1),
            "El servicio está respondiendo lento: se envía una factura a la vez hasta que vuelva a responder rápido."
        );
        assert_eq!(
            tr_in!(es, "cli-slowed", now = 3),
            "El servicio está respondiendo lento: se envían 3 facturas a la vez hasta que vuelva a responder rápido."
        );
        assert_eq!(
            tr_in!(en, "bulk-slowed", now = 1),
            "The service is answering slowly: one invoice is sent at a time until it answers quickly again."
        );
        assert_eq!(
            tr_in!(en, "cli-slowed", now = 12),
            "The service is answering slowly: 12 invoices are sent at a time until it answers quickly again."
        );
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
        let es = include_str!("../../assets/locales/es-CL/main.ftl");
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
