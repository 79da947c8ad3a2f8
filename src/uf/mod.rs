//! The UF's value in pesos, one per day: published by the Banco Central, served by the
//! CMF's public API (a free key per user), kept in the journal's database (on a desk,
//! one fetch a day serves every clerk), or read from a file of the published table for
//! a computer without that access. A UF amount is shown beside its pesos on one day's
//! value, that day always said; a conversion is never stored as if the service had sent
//! it.
//!
//! Strict about what comes back: a value per date, es-CL text ("39.643,59"), within
//! what a UF can be; a day without a value is "no value", never the day before's.

pub mod file;

use chrono::{Datelike, NaiveDate};
use rust_decimal::{Decimal, RoundingStrategy};
use secrecy::{ExposeSecret, SecretString};

/// The CMF's API, where `/uf/…` is read.
pub const CMF_ADDRESS: &str = "https://api.cmfchile.cl/api-sbifv3/recursos_api";

/// The most an answer may hold (a year of values is about 15 KB).
pub const MAX_ANSWER: usize = 256 * 1024;

/// The most values one answer or file may give (a century of days).
pub const MAX_VALUES: usize = 40_000;

/// The UF's value on one day, in pesos (two decimals, as published).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UfDay {
    /// The day.
    pub date: NaiveDate,
    /// Pesos per UF.
    pub value: Decimal,
    /// Where the value was read: what a statement says of it.
    pub from: UfFrom,
}

/// Where a value was read, as a customer may be told: the CMF's publication, or a
/// table a clerk imported.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UfFrom {
    /// The CMF's API (the Banco Central's value as the CMF publishes it).
    Cmf,
    /// A file of values (the Banco Central's or the SII's table, or a saved answer).
    Table,
}

pub use crate::journal::uf::{CMF, CONTINUITY, continuous};

impl UfFrom {
    /// Of a kept value's source label.
    pub fn of(source: &str) -> UfFrom {
        if source == CMF {
            UfFrom::Cmf
        } else {
            UfFrom::Table
        }
    }
}

/// A kept value as it is used: the day's value, and who stored it, when and from where
/// (said beside it wherever a clerk sees it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UfFound {
    /// The value.
    pub uf: UfDay,
    /// "CMF", or the file's name.
    pub source: String,
    /// Who stored it: the database role on a desk, the computer's user on a file
    /// journal (`None` on a row older than the column).
    pub stored_by: Option<String>,
    /// When, as the journal's clock said it (ISO, UTC).
    pub stored: Option<String>,
}

/// A value refused for breaking continuity: the day, its value, and the day and value
/// it breaks with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Breaks {
    /// The day refused.
    pub date: NaiveDate,
    /// Its value.
    pub value: Decimal,
    /// The nearest day it was compared with.
    pub near: NaiveDate,
    /// That day's value.
    pub near_value: Decimal,
}

/// The values of one answer or file that hold together: the longest chain of days
/// (by date, stepping over at most [`SIFT_REACH`]` - 1` days at a time) each continuous
/// with the one before; every other day is refused with the nearest day of that chain.
/// (Whether the chain is continuous with what is kept, the journal decides, day by
/// day.)
pub fn sift(mut days: Vec<UfDay>) -> (Vec<UfDay>, Vec<Breaks>) {
    days.sort_by_key(|d| d.date);
    let n = days.len();
    // longest[j]: the longest chain ending at day j; from[j]: the day before it there.
    let mut longest = vec![1usize; n];
    let mut from = vec![None; n];
    for j in 0..n {
        for i in j.saturating_sub(SIFT_REACH)..j {
            let apart = (days[j].date - days[i].date).num_days();
            if longest[i] + 1 > longest[j] && continuous(days[j].value, days[i].value, apart) {
                longest[j] = longest[i] + 1;
                from[j] = Some(i);
            }
        }
    }
    let mut held = vec![false; n];
    let mut at = (0..n).max_by_key(|&j| (longest[j], std::cmp::Reverse(j)));
    while let Some(j) = at {
        held[j] = true;
        at = from[j];
    }
    let run: Vec<UfDay> = days
        .iter()
        .zip(&held)
        .filter(|(_, h)| **h)
        .map(|(d, _)| *d)
        .collect();
    let refused = days
        .iter()
        .zip(&held)
        .filter(|(_, h)| !**h)
        .filter_map(|(d, _)| {
            let near = run
                .iter()
                .min_by_key(|r| (r.date - d.date).num_days().abs())?;
            Some(Breaks {
                date: d.date,
                value: d.value,
                near: near.date,
                near_value: near.value,
            })
        })
        .collect();
    (run, refused)
}

/// How many days back a day of an answer or file may join a chain (see [`sift`]): a
/// few wrong days in a row are stepped over.
pub const SIFT_REACH: usize = 8;

impl UfDay {
    /// `amount` UF in pesos on this day's value, rounded to the peso half up (the SII's
    /// rule); `None` if it cannot be held.
    pub fn pesos(&self, amount: Decimal) -> Option<Decimal> {
        amount
            .checked_mul(self.value)
            .map(|p| p.round_dp_with_strategy(0, RoundingStrategy::MidpointAwayFromZero))
    }
}

/// Why there is no value.
#[derive(Clone, Debug, thiserror::Error)]
pub enum UfError {
    /// The journal could not be read (where values are kept).
    #[error("{0}")]
    Journal(crate::journal::JournalError),
    /// No CMF key is kept for this address.
    #[error("no CMF key")]
    NoKey,
    /// The source has no value for that day (not yet published, or not there).
    #[error("no value for {0}")]
    NotPublished(NaiveDate),
    /// The CMF refused the key (HTTP status).
    #[error("the key was refused ({0})")]
    KeyRefused(u16),
    /// The CMF could not be reached (what the connection said, no address in it).
    #[error("unreachable: {0}")]
    Unreachable(String),
    /// The address set is not an https address (or http on this computer).
    #[error("not an address: {0}")]
    BadAddress(String),
    /// The address holds what may be a secret (a query, a user or password, a
    /// fragment): never kept, never repeated.
    #[error("an address with a query, a user or a fragment")]
    SecretInAddress,
    /// The keyring that keeps the key could not be read.
    #[error("the keyring: {0}")]
    Keyring(crate::profile::ProfileError),
    /// The answer or file is not a table of values (why, worded by i18n).
    #[error("not a table of UF values: {0:?}")]
    Bad(Bad),
    /// The day's value breaks continuity with the days around it: not believed.
    #[error("{} breaks continuity with {}", .0.date, .0.near)]
    Breaks(Breaks),
}

/// Why an answer or a file is not a table of UF values, and in which row of a file.
#[derive(Clone, Debug, PartialEq)]
pub struct Bad {
    /// The file's row (1 is its header), when the reason is in one.
    pub row: Option<usize>,
    /// What is wrong.
    pub why: Why,
}

/// What is wrong with an answer or file of UF values (each said in the reader's words).
#[derive(Clone, Debug, PartialEq)]
pub enum Why {
    /// This text is not a UF value (es-CL `39.643,59`, 1.000 to 1.000.000 pesos).
    NotAValue(String),
    /// This text is not a date.
    NotADate(String),
    /// This text is not a day of a month (1–31).
    NotADay(String),
    /// That day does not exist (30 February).
    NoSuchDay {
        /// 1–12.
        month: u32,
        /// 1–31.
        day: u32,
        /// The year.
        year: i32,
    },
    /// Larger than this many KB.
    TooLarge(usize),
    /// More than this many values.
    TooMany(usize),
    /// Two values for one day.
    TwoValues {
        /// The day.
        date: NaiveDate,
        /// One value.
        a: Decimal,
        /// The other.
        b: Decimal,
    },
    /// Not the CMF's JSON (`{"UFs": [{"Valor": …, "Fecha": …}]}`).
    NotCmfJson,
    /// Neither Fecha and Valor columns nor the SII's Día and months.
    NoColumns,
    /// The SII's table of a year, and no year in its name nor given.
    NoYear,
    /// No values at all.
    NoValues,
    /// The source answered with this HTTP status.
    Status(u16),
    /// The file could not be read as a spreadsheet.
    Sheet(crate::sheet::SheetError),
    /// The file could not be read (the system's reason).
    Unreadable(std::io::ErrorKind),
    /// The sandbox's address cannot hold the CMF's path.
    NoPath,
}

impl Why {
    /// In no particular row.
    pub fn bad(self) -> Bad {
        Bad {
            row: None,
            why: self,
        }
    }

    /// In the file's row `row`.
    pub fn at(self, row: usize) -> Bad {
        Bad {
            row: Some(row),
            why: self,
        }
    }
}

impl From<Bad> for UfError {
    fn from(b: Bad) -> UfError {
        UfError::Bad(b)
    }
}

/// Where values are fetched from: the CMF's address (or the sandbox's) and its key.
pub struct Source {
    /// The API's address, without `/uf`.
    pub address: url::Url,
    /// The key (`apikey=`): never logged, never stored outside the keyring.
    pub key: SecretString,
}

/// The key the built-in sandbox's CMF routes take: not a secret, as the sandbox's
/// credentials are not.
pub const SANDBOX_KEY: &str = "sandbox-cmf";

/// Where this computer reads the UF: the built-in sandbox's routes when the active
/// profile is the sandbox's; else the address set (the CMF's by default) with the key
/// the keyring keeps for it.
pub fn source_for(
    profiles: &crate::profile::Profiles,
    secrets: &crate::profile::secrets::SecretStore,
) -> Result<Source, UfError> {
    if let Some(p) = profiles.active_profile().filter(|p| p.sandbox) {
        let mut address =
            url::Url::parse(&p.base_url).map_err(|_| UfError::BadAddress(p.base_url.clone()))?;
        address
            .path_segments_mut()
            .map_err(|()| UfError::Bad(Why::NoPath.bad()))?
            .pop_if_empty()
            .push("cmf");
        return Ok(Source {
            address,
            key: SecretString::from(SANDBOX_KEY),
        });
    }
    let address = address_of(profiles);
    let url = checked_address(&address)?;
    let key = secrets
        .get(&address, crate::profile::secrets::SecretKind::CmfKey)
        .map_err(UfError::Keyring)?
        .ok_or(UfError::NoKey)?;
    Ok(Source { address: url, key })
}

/// `text` as the CMF API's address: https (or http on this computer), and nothing in it
/// that may be a secret — a query (`?apikey=…`), a user or password, a fragment: the key
/// goes to the keyring, and an address is kept and shown. Said without repeating it.
pub fn checked_address(text: &str) -> Result<url::Url, UfError> {
    let url = crate::api::http::check_url(text, crate::api::Setting::BaseUrl)
        .map_err(|_| UfError::BadAddress(shown_address(text)))?;
    if url.query().is_some()
        || url.fragment().is_some()
        || !url.username().is_empty()
        || url.password().is_some()
    {
        return Err(UfError::SecretInAddress);
    }
    Ok(url)
}

/// An address as it may be shown: what follows a `?` or `#`, and a `user:password@`,
/// left out.
fn shown_address(text: &str) -> String {
    let text = text.trim();
    let text = text.split(['?', '#']).next().unwrap_or("");
    match text.split_once("://") {
        Some((scheme, rest)) => match rest.split_once('/') {
            Some((authority, path)) => format!(
                "{scheme}://{}/{path}",
                authority.rsplit('@').next().unwrap_or(authority)
            ),
            None => format!("{scheme}://{}", rest.rsplit('@').next().unwrap_or(rest)),
        },
        None => text.to_string(),
    }
}

/// The CMF API's address set, else the CMF's own.
pub fn address_of(profiles: &crate::profile::Profiles) -> String {
    profiles
        .uf_address
        .clone()
        .filter(|a| !a.trim().is_empty())
        .unwrap_or_else(|| CMF_ADDRESS.to_string())
}

/// The last day whose value is published on `today`: the Banco Central publishes on
/// the 9th the values from the 10th to the 9th of the next month.
pub fn published_through(today: NaiveDate) -> NaiveDate {
    let ninth = |d: NaiveDate| d.with_day(9).unwrap_or(d);
    if today.day() >= 9 {
        ninth(
            today
                .checked_add_months(chrono::Months::new(1))
                .unwrap_or(today),
        )
    } else {
        ninth(today)
    }
}

/// Whether `v` is a value a UF can be: pesos with at most two decimals, between
/// 1.000 and 1.000.000. Every value read (an answer, a file, a journal's row) is held
/// to it.
pub fn is_plausible(v: Decimal) -> bool {
    v.scale() <= 2 && v >= Decimal::from(1_000) && v <= Decimal::from(1_000_000)
}

/// A value as the CMF writes it, es-CL: `39.643,59` (thousands with ".", two decimals
/// after ","). Between 1.000,00 and 1.000.000,00 pesos (what a UF can be).
pub fn parse_valor(text: &str) -> Result<Decimal, Why> {
    let bad = || Why::NotAValue(text.to_string());
    let t = text.trim();
    let (int, frac) = t.split_once(',').ok_or_else(bad)?;
    if frac.len() != 2 || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    let mut digits = String::with_capacity(int.len() + 3);
    for (i, group) in int.split('.').enumerate() {
        let ok = group.bytes().all(|b| b.is_ascii_digit())
            && if i == 0 {
                (1..=3).contains(&group.len())
            } else {
                group.len() == 3
            };
        if !ok {
            return Err(bad());
        }
        digits.push_str(group);
    }
    if digits.len() > 7 {
        return Err(bad());
    }
    digits.push('.');
    digits.push_str(frac);
    let v: Decimal = digits.parse().map_err(|_| bad())?;
    if !is_plausible(v) {
        return Err(bad());
    }
    Ok(v)
}

/// The CMF's answer, `{"UFs": [{"Valor": "39.643,59", "Fecha": "2026-11-26"}]}`: every
/// value, by day. Other fields are left; a date twice with two values is refused.
pub fn parse_cmf(body: &[u8]) -> Result<Vec<UfDay>, Why> {
    if body.len() > MAX_ANSWER {
        return Err(Why::TooLarge(MAX_ANSWER / 1024));
    }
    read_cmf(body)
}

/// [`parse_cmf`] without its size bound: a saved answer may hold several years (its
/// reader bounds it).
pub(crate) fn read_cmf(body: &[u8]) -> Result<Vec<UfDay>, Why> {
    #[derive(serde::Deserialize)]
    struct Answer {
        #[serde(rename = "UFs")]
        ufs: Vec<Raw>,
    }
    #[derive(serde::Deserialize)]
    struct Raw {
        #[serde(rename = "Valor")]
        valor: String,
        #[serde(rename = "Fecha")]
        fecha: String,
    }
    let answer: Answer = serde_json::from_slice(body).map_err(|_| Why::NotCmfJson)?;
    if answer.ufs.len() > MAX_VALUES {
        return Err(Why::TooMany(MAX_VALUES));
    }
    let days = answer
        .ufs
        .iter()
        .map(|r| {
            let date = NaiveDate::parse_from_str(r.fecha.trim(), "%Y-%m-%d")
                .map_err(|_| Why::NotADate(r.fecha.clone()))?;
            Ok(UfDay {
                date,
                value: parse_valor(&r.valor)?,
                from: UfFrom::Cmf,
            })
        })
        .collect::<Result<Vec<_>, Why>>()?;
    one_per_day(days)
}

/// The values by day, each day once (the same value twice is one; two values for a
/// day is refused: which would be the UF?).
pub fn one_per_day(mut days: Vec<UfDay>) -> Result<Vec<UfDay>, Why> {
    days.sort_by_key(|d| d.date);
    days.dedup();
    if let Some(w) = days.windows(2).find(|w| w[0].date == w[1].date) {
        return Err(Why::TwoValues {
            date: w[0].date,
            a: w[0].value,
            b: w[1].value,
        });
    }
    Ok(days)
}

/// Every value the source has published for `year`-`month` (none: an empty list). A
/// day of another month in the answer is left out: only what was asked is believed.
pub async fn fetch_month(
    http: &reqwest::Client,
    source: &Source,
    year: i32,
    month: u32,
) -> Result<Vec<UfDay>, UfError> {
    let mut url = source.address.clone();
    url.path_segments_mut()
        .map_err(|()| UfError::Bad(Why::NoPath.bad()))?
        .pop_if_empty()
        .extend(["uf", &year.to_string(), &format!("{month:02}")]);
    url.query_pairs_mut()
        .append_pair("apikey", source.key.expose_secret())
        .append_pair("formato", "json");
    let resp = http
        .get(url)
        .timeout(std::time::Duration::from_secs(20))
        .send()
        .await
        // Never the request's address in a message: it holds the key.
        .map_err(|e| UfError::Unreachable(crate::api::http::without_url(&e)))?;
    let status = resp.status().as_u16();
    let body = crate::api::http::read_capped(resp, MAX_ANSWER)
        .await
        .map_err(|e| match e {
            crate::api::http::BodyError::TooLarge => {
                UfError::Bad(Why::TooLarge(MAX_ANSWER / 1024).bad())
            }
            crate::api::http::BodyError::Transport(e) => {
                UfError::Unreachable(crate::api::http::without_url(&e))
            }
        })?;
    match status {
        200 => {
            let mut days = parse_cmf(&body).map_err(|w| UfError::Bad(w.bad()))?;
            let asked = |d: &UfDay| d.date.year() == year && d.date.month() == month;
            if days.iter().any(|d| !asked(d)) {
                tracing::warn!(
                    year,
                    month,
                    "the CMF's answer named days of another month: left out"
                );
                days.retain(asked);
            }
            Ok(days)
        }
        // The CMF's "no information for that date".
        404 => Ok(Vec::new()),
        401 | 403 => Err(UfError::KeyRefused(status)),
        other => Err(UfError::Bad(Why::Status(other).bad())),
    }
}

/// A day's value: kept in the journal (the CMF's first), else fetched from `source`
/// (its whole month offered to the journal, for the next time and the desk), else why
/// there is none. The source is asked for only when needed (a keyring read). With it,
/// who stored it, when and from where.
pub async fn value_on(
    journal: &crate::journal::SharedJournal,
    source: impl FnOnce() -> Result<Source, UfError>,
    day: NaiveDate,
) -> Result<UfFound, UfError> {
    if let Some(found) = kept_on(journal, day).await? {
        return Ok(found);
    }
    let source = source()?;
    let http = reqwest::Client::new();
    let month = fetch_month(&http, &source, day.year(), day.month()).await?;
    let (held, refused) = sift(month);
    if let Some(b) = refused.iter().find(|b| b.date == day) {
        return Err(UfError::Breaks(*b));
    }
    let pairs: Vec<(NaiveDate, Decimal)> = held.iter().map(|d| (d.date, d.value)).collect();
    if !pairs.is_empty() {
        match journal
            .run(move |j| j.put_uf_values(&pairs, CMF, false))
            .await
        {
            Ok(said) => {
                if let Some((_, crate::journal::UfPut::Breaks { near, value })) =
                    said.each.iter().find(|(d, _)| *d == day)
                {
                    let fetched = held.iter().find(|d| d.date == day).map(|d| d.value);
                    return Err(UfError::Breaks(Breaks {
                        date: day,
                        value: fetched.unwrap_or_default(),
                        near: *near,
                        near_value: *value,
                    }));
                }
                // What the journal keeps now (the CMF's, or what it was corrected to).
                if let Some(found) = kept_on(journal, day).await? {
                    return Ok(found);
                }
            }
            // A journal that refuses costs a fetch, not the value.
            Err(e) => tracing::warn!(why = %e, "the UF's values were not kept"),
        }
    }
    held.into_iter()
        .find(|d| d.date == day)
        .map(|uf| UfFound {
            uf,
            source: CMF.to_string(),
            stored_by: None,
            stored: None,
        })
        .ok_or(UfError::NotPublished(day))
}

/// The value kept for `day`, the CMF's first (one that is not a UF left out).
pub async fn kept_on(
    journal: &crate::journal::SharedJournal,
    day: NaiveDate,
) -> Result<Option<UfFound>, UfError> {
    let kept = journal
        .run(move |j| j.uf_values(day, day))
        .await
        .map_err(UfError::Journal)?;
    Ok(kept
        .into_iter()
        .find(|k| is_plausible(k.value))
        .map(|k| UfFound {
            uf: UfDay {
                date: k.day,
                value: k.value,
                from: UfFrom::of(&k.source),
            },
            source: k.source,
            stored_by: k.stored_by,
            stored: k.stored,
        }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn d(s: &str) -> Decimal {
        Decimal::from_str(s).unwrap()
    }

    #[test]
    fn values_are_read_as_the_cmf_writes_them() {
        assert_eq!(parse_valor("39.643,59"), Ok(d("39643.59")));
        assert_eq!(parse_valor("1.000,00"), Ok(d("1000.00")));
        for bad in [
            "39643,59",
            "39.643,5",
            "39.643.59",
            "39,643.59",
            "39.64,59",
            "",
            ",59",
            "-39.643,59",
            "999,99",
            "1.000.000,01",
            "39.643,59x",
            "3\u{1b}9.643,59",
        ] {
            assert!(parse_valor(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn the_cmf_answer_is_read_strictly() {
        let ok = br#"{"UFs": [{"Valor": "39.643,59", "Fecha": "2026-11-26"},
                              {"Valor": "39.650,12", "Fecha": "2026-11-27", "Otro": 1}]}"#;
        let days = parse_cmf(ok).unwrap();
        assert_eq!(days.len(), 2);
        assert_eq!(days[0].value, d("39643.59"));
        for bad in [
            &br#"{"UFs": [{"Valor": "39.643,59", "Fecha": "26-11-2026"}]}"#[..],
            br#"{"UFs": [{"Valor": 39643.59, "Fecha": "2026-11-26"}]}"#,
            br#"{"UFs": [{"Valor": "39.643,59", "Fecha": "2026-11-26"},
                         {"Valor": "39.643,60", "Fecha": "2026-11-26"}]}"#,
            br#"{"Dolares": []}"#,
            b"<xml/>",
        ] {
            assert!(parse_cmf(bad).is_err(), "{}", String::from_utf8_lossy(bad));
        }
        let big = vec![b' '; MAX_ANSWER + 1];
        assert!(parse_cmf(&big).is_err());
    }

    /// Pesos to the peso, half up, exact: UF 23,1930 at 39.643,59 is 919.453,78… → 919.454.
    #[test]
    fn pesos_are_exact_to_the_peso() {
        let day = UfDay {
            date: NaiveDate::from_ymd_opt(2026, 11, 26).unwrap(),
            value: d("39643.59"),
            from: UfFrom::Cmf,
        };
        assert_eq!(day.pesos(d("23.1930")), Some(d("919454")));
        assert_eq!(day.pesos(d("1")), Some(d("39644")));
        // Half a peso goes up: 0.5 UF at 1.000,01 is 500,005 → 500.
        let half = UfDay {
            value: d("1000.01"),
            ..day
        };
        assert_eq!(half.pesos(d("0.5")), Some(d("500")));
        let up = UfDay {
            value: d("1001.00"),
            ..day
        };
        assert_eq!(up.pesos(d("0.5")), Some(d("501")));
        assert_eq!(up.pesos(d("0.0005")), Some(d("1")));
    }

    /// A wrong day inside a month is stepped over, not taken for where the month breaks;
    /// two in a row too; a lone value with nothing to hold to is kept.
    #[test]
    fn a_wrong_day_is_sifted_out_of_the_days_around_it() {
        let on = |day: u32, v: &str| UfDay {
            date: NaiveDate::from_ymd_opt(2026, 11, day).unwrap(),
            value: d(v),
            from: UfFrom::Cmf,
        };
        let month: Vec<UfDay> = (1..=30)
            .map(|day| match day {
                15 => on(day, "45000.00"),
                20 | 21 => on(day, "1000.00"),
                _ => on(day, &format!("{}.00", 39_500 + 4 * day)),
            })
            .collect();
        let (held, refused) = sift(month);
        assert_eq!(held.len(), 27);
        let days: Vec<u32> = refused.iter().map(|b| b.date.day()).collect();
        assert_eq!(days, [15, 20, 21]);
        assert_eq!(refused[0].near.day(), 14);
        let (held, refused) = sift(vec![on(3, "39600.00")]);
        assert_eq!((held.len(), refused.len()), (1, 0));
        assert!(continuous(d("39600"), d("39700"), 1));
        assert!(!continuous(d("39600"), d("39900"), 1));
        assert!(continuous(d("39600"), d("39900"), 2));
        assert!(!continuous(d("1000"), d("39620"), 24));
    }

    #[test]
    fn values_are_published_through_the_ninth_of_next_month() {
        let on = |y, m, day| NaiveDate::from_ymd_opt(y, m, day).unwrap();
        assert_eq!(published_through(on(2026, 11, 26)), on(2026, 12, 9));
        assert_eq!(published_through(on(2026, 11, 9)), on(2026, 12, 9));
        assert_eq!(published_through(on(2026, 11, 8)), on(2026, 11, 9));
        assert_eq!(published_through(on(2026, 12, 31)), on(2027, 1, 9));
    }
}
