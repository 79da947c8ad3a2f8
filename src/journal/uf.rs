//! The UF's value per day, kept so that a day's value is fetched once (on a desk, once
//! for every clerk): one row a day, the first kept. Rows are read back as hostile as
//! any: a row that is not a day and a number is left out, and said in the support log
//! (whether the number is a value a UF can be, `uf::value_on` decides).

use super::db::vals;
use super::store::write_error;
use super::{Journal, JournalError};
use chrono::NaiveDate;
use rust_decimal::Decimal;

/// A value kept: the day, pesos per UF, where it came from ("CMF", a file's name).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UfKept {
    /// The day.
    pub day: NaiveDate,
    /// Pesos per UF.
    pub value: Decimal,
    /// Where it came from.
    pub source: String,
}

impl Journal {
    /// The values kept from `from` to `to`, by day.
    pub fn uf_values(&self, from: NaiveDate, to: NaiveDate) -> Result<Vec<UfKept>, JournalError> {
        let rows = self
            .db()
            .query(
                "SELECT day, value, source FROM uf_values WHERE day >= ?1 AND day <= ?2
                 ORDER BY day LIMIT 40000",
                &vals![iso(from), iso(to)],
            )
            .map_err(|e| write_error(&self.path)(e))?;
        let mut out = Vec::with_capacity(rows.len());
        for r in &rows {
            let (Ok(day), Ok(value), Ok(source)) = (r.text(0), r.text(1), r.text(2)) else {
                continue;
            };
            let day = NaiveDate::parse_from_str(&day, "%Y-%m-%d").ok();
            let value = value.parse::<Decimal>().ok();
            match (day, value) {
                (Some(day), Some(value)) => out.push(UfKept {
                    day,
                    value,
                    source: crate::text::escape_controls(&source)
                        .chars()
                        .take(100)
                        .collect(),
                }),
                _ => tracing::warn!("a UF row in the journal is not a day and a value: left out"),
            }
        }
        Ok(out)
    }

    /// Keeps these values from `source`: a day already kept keeps its value. How many
    /// were new, and the days kept with another value than these (to be said: two
    /// sources disagree).
    pub fn put_uf_values(
        &mut self,
        days: &[(NaiveDate, Decimal)],
        source: &str,
    ) -> Result<(usize, Vec<NaiveDate>), JournalError> {
        let path = self.path.clone();
        let source: String = crate::text::escape_controls(source)
            .chars()
            .take(100)
            .collect();
        let now = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
        self.write(|tx| {
            let mut added = 0;
            let mut differing = Vec::new();
            for &(day, value) in days {
                let text = value.normalize().to_string();
                let new = if tx.shared() {
                    tx.one(
                        "SELECT journal_uf_put(?1, ?2, ?3)",
                        &vals![iso(day), &text, &source],
                    )?
                    .map(|r| r.flag(0))
                    .transpose()?
                    .unwrap_or(false)
                } else {
                    tx.exec(
                        "INSERT INTO uf_values (day, value, source, stored) VALUES (?1, ?2, ?3, ?4)
                         ON CONFLICT(day) DO NOTHING",
                        &vals![iso(day), &text, &source, &now],
                    )? == 1
                };
                if new {
                    added += 1;
                    continue;
                }
                let kept = tx
                    .one(
                        "SELECT value FROM uf_values WHERE day = ?1",
                        &vals![iso(day)],
                    )?
                    .map(|r| r.text(0))
                    .transpose()?;
                if kept.and_then(|k| k.parse::<Decimal>().ok()) != Some(value) {
                    differing.push(day);
                }
            }
            Ok((added, differing))
        })
        .map_err(write_error(&path))
    }
}

fn iso(d: NaiveDate) -> String {
    d.format("%Y-%m-%d").to_string()
}
