//! One calendar for the desk: the day that decides what is sent (the month of a
//! statement or a reminder e-mailed, the day overdue days are counted on) is the desk's,
//! never each computer's. Two computers a few minutes or a time zone apart around
//! midnight at a month's end would otherwise each send "their" month.
//!
//! On a shared journal it is the database server's clock in the desk's time zone (the
//! owner's setting, `journal init --time-zone`; America/Santiago unless set): one clock,
//! one zone, for every clerk. On a file, this computer's clock in the same zone
//! (`INVOICE_DESK_TIME_ZONE`, else America/Santiago), whatever time zone the computer
//! itself is set to.

use super::db::{DbError, vals};
use super::{Journal, JournalError, Trouble};
use chrono::NaiveDate;

/// The desk's time zone unless one is set: Chile's.
pub const DEFAULT_ZONE: &str = "America/Santiago";

/// A time zone by its IANA name, for a journal on this computer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LocalZone(chrono_tz::Tz);

impl LocalZone {
    /// `INVOICE_DESK_TIME_ZONE`, else [`DEFAULT_ZONE`]; the name when it is no zone.
    pub fn from_env() -> Result<LocalZone, String> {
        match std::env::var("INVOICE_DESK_TIME_ZONE") {
            Ok(name) if !name.trim().is_empty() => LocalZone::named(name.trim()),
            _ => LocalZone::named(DEFAULT_ZONE),
        }
    }

    /// The zone named `name` (`America/Santiago`); the name when it is none.
    pub fn named(name: &str) -> Result<LocalZone, String> {
        name.parse::<chrono_tz::Tz>()
            .map(LocalZone)
            .map_err(|_| name.to_string())
    }

    /// The day it is in this zone at `now`.
    pub fn day_at(self, now: chrono::DateTime<chrono::Utc>) -> NaiveDate {
        now.with_timezone(&self.0).date_naive()
    }
}

impl Journal {
    /// Today for the desk (see the module's words): what decides a month's e-mails and
    /// the day overdue days are counted on.
    pub fn today(&self) -> Result<NaiveDate, JournalError> {
        if !self.is_shared() {
            let zone = LocalZone::from_env().map_err(|name| JournalError::Read {
                path: self.path.clone(),
                trouble: Trouble::Other,
                why: format!(
                    "INVOICE_DESK_TIME_ZONE names no time zone ({}); write it as America/Santiago",
                    crate::text::escape_controls(&name)
                ),
            })?;
            return Ok(zone.day_at(chrono::Utc::now()));
        }
        let read = super::store::read_error(&self.path);
        let day = self
            .db()
            .one(
                "SELECT to_char(clock_timestamp() AT TIME ZONE coalesce(
                    (SELECT value FROM desk_settings WHERE key = 'time_zone'), ?1), 'YYYY-MM-DD')",
                &vals![DEFAULT_ZONE],
            )
            .and_then(|r| {
                r.map(|r| r.text(0))
                    .transpose()?
                    .ok_or_else(|| DbError::said("the server gave no day"))
            })
            .map_err(&read)?;
        NaiveDate::parse_from_str(&day, "%Y-%m-%d").map_err(|_| {
            read(DbError::said(format!(
                "the server's day is not a date: {day}"
            )))
        })
    }
}

/// Sets the desk's time zone (the owner, `journal init --time-zone`): the server checks
/// it names a zone it knows.
pub(super) fn set_desk_zone(pg: &super::pg::Pg, zone: &str) -> Result<(), DbError> {
    use super::db::Db;
    pg.one("SELECT now() AT TIME ZONE ?1", &vals![zone])?;
    pg.exec(
        "INSERT INTO desk_settings (key, value) VALUES ('time_zone', ?1)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value, set_by = session_user,
            set_at = clock_timestamp()",
        &vals![zone],
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_desks_day_is_chiles_whatever_this_computers_zone() {
        let at = |t: &str| chrono::DateTime::parse_from_rfc3339(t).unwrap().to_utc();
        let chile = LocalZone::named(DEFAULT_ZONE).unwrap();
        // 02:30 UTC on 1 December is 23:30 on 30 November in Santiago (summer, UTC-3).
        assert_eq!(
            chile.day_at(at("2026-12-01T02:30:00Z")),
            NaiveDate::from_ymd_opt(2026, 11, 30).unwrap()
        );
        assert_eq!(
            chile.day_at(at("2026-12-01T03:00:00Z")),
            NaiveDate::from_ymd_opt(2026, 12, 1).unwrap()
        );
        assert!(LocalZone::named("Marte/Olympus").is_err());
    }
}
