//! The UF's value per day, kept so that a day's value is fetched once (on a desk, once
//! for every clerk): a row per day and source ("CMF", a file's name), the CMF's used
//! before a file's. A value must hold together with the days kept around it (the UF
//! moves by hundredths of a percent a day, `uf::CONTINUITY`); a CMF value that
//! contradicts the kept one of the CMF replaces it, the old one kept in
//! `uf_corrections`. On a desk, the server's own function (`journal_uf_keep`) decides
//! all of it, so a clerk's role cannot plant what the app would refuse. Rows are read
//! back as hostile as any: a row that is not a day and a number is left out, and said
//! in the support log (whether the number is a value a UF can be, `uf::value_on`
//! decides).

use super::db::{Db, DbError, vals};
use super::store::write_error;
use super::{Journal, JournalError};
use chrono::NaiveDate;
use rust_decimal::Decimal;

/// The source label values fetched from the CMF are kept under; any other label is a
/// file's name.
pub const CMF: &str = "CMF";

/// The most a day's value may differ from the next kept day's, per day between them
/// (0.5 %): the UF moves by hundredths of a percent a day, so more is a wrong value,
/// not the UF. Days far apart are held to as many times it (a gross error still
/// shows: $1.000 beside $39.643 is 97 % off). The server's function says it in SQL
/// (`journal_uf_breaks`).
pub const CONTINUITY: Decimal = Decimal::from_parts(5, 0, 0, false, 3);

/// Whether `a` and `b` (pesos per UF, on days `apart` days apart) are continuous:
/// within [`CONTINUITY`] a day of each other.
pub fn continuous(a: Decimal, b: Decimal, apart: i64) -> bool {
    if b.is_zero() {
        return false;
    }
    ((a - b) / b).abs() <= CONTINUITY * Decimal::from(apart.clamp(1, 36_500))
}

/// A value kept: the day, pesos per UF, where it came from ("CMF", a file's name), who
/// stored it and when.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UfKept {
    /// The day.
    pub day: NaiveDate,
    /// Pesos per UF.
    pub value: Decimal,
    /// Where it came from.
    pub source: String,
    /// Who stored it: the database role on a desk, the computer's user on a file.
    pub stored_by: Option<String>,
    /// When (ISO, UTC, the journal's clock).
    pub stored: Option<String>,
}

/// What became of one day's value offered to the journal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UfPut {
    /// Kept.
    Added,
    /// Already kept, the same.
    Same,
    /// A CMF value replaced the CMF value kept, which it contradicts (the kept one is
    /// in `uf_corrections`, with who had stored it).
    Corrected {
        /// The value replaced.
        was: Decimal,
        /// Who had stored it.
        by: Option<String>,
    },
    /// Another value is kept for that day from `source` (when from the CMF, it is the
    /// one used; a CMF value added beside a file's is journaled as a disagreement).
    Differs {
        /// The other value.
        other: Decimal,
        /// Where it came from.
        source: String,
    },
    /// Refused: it breaks continuity with the value kept for `near`.
    Breaks {
        /// The day it was compared with.
        near: NaiveDate,
        /// That day's value.
        value: Decimal,
    },
}

/// A correction or disagreement: a kept value the CMF contradicts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UfCorrection {
    /// The day.
    pub day: NaiveDate,
    /// The contradicted value's source.
    pub source: String,
    /// The contradicted value.
    pub old_value: Decimal,
    /// Who had stored it.
    pub old_stored_by: Option<String>,
    /// The CMF's value.
    pub new_value: Decimal,
    /// Who found it.
    pub by: String,
    /// When (ISO, UTC).
    pub at: String,
}

impl Journal {
    /// The values kept from `from` to `to`, by day, the CMF's first on each day.
    pub fn uf_values(&self, from: NaiveDate, to: NaiveDate) -> Result<Vec<UfKept>, JournalError> {
        let rows = self
            .db()
            .query(
                "SELECT day, value, source, stored_by, stored FROM uf_values
                 WHERE day >= ?1 AND day <= ?2
                 ORDER BY day, (source = 'CMF') DESC, stored LIMIT 40000",
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
                    source: shown(&source),
                    stored_by: r.opt_text(3).ok().flatten().map(|s| shown(&s)),
                    stored: r.opt_text(4).ok().flatten().map(|s| shown(&s)),
                }),
                _ => tracing::warn!("a UF row in the journal is not a day and a value: left out"),
            }
        }
        Ok(out)
    }

    /// The corrections and disagreements journaled from `from` to `to`, by day.
    pub fn uf_corrections(
        &self,
        from: NaiveDate,
        to: NaiveDate,
    ) -> Result<Vec<UfCorrection>, JournalError> {
        let rows = self
            .db()
            .query(
                "SELECT day, source, old_value, old_stored_by, new_value, corrected_by, corrected_at
                 FROM uf_corrections WHERE day >= ?1 AND day <= ?2 ORDER BY day, corrected_at
                 LIMIT 40000",
                &vals![iso(from), iso(to)],
            )
            .map_err(|e| write_error(&self.path)(e))?;
        Ok(rows
            .iter()
            .filter_map(|r| {
                Some(UfCorrection {
                    day: NaiveDate::parse_from_str(&r.text(0).ok()?, "%Y-%m-%d").ok()?,
                    source: shown(&r.text(1).ok()?),
                    old_value: r.text(2).ok()?.parse().ok()?,
                    old_stored_by: r.opt_text(3).ok()?.map(|s| shown(&s)),
                    new_value: r.text(4).ok()?.parse().ok()?,
                    by: shown(&r.text(5).ok()?),
                    at: shown(&r.text(6).ok()?),
                })
            })
            .collect())
    }

    /// Offers these values from `source` ("CMF", or a file's name): what became of
    /// each (see [`UfPut`]). `whole`: all or nothing — when one is refused for breaking
    /// continuity, nothing is kept (a file a clerk imports); else the others are.
    pub fn put_uf_values(
        &mut self,
        days: &[(NaiveDate, Decimal)],
        source: &str,
        whole: bool,
    ) -> Result<UfOffered, JournalError> {
        let path = self.path.clone();
        let source = shown(source);
        let who = super::os_user();
        let mut days = days.to_vec();
        days.sort_by_key(|d| d.0);
        let mut refused = None;
        let written = self.write(|tx| {
            let mut out = Vec::with_capacity(days.len());
            for &(day, value) in &days {
                let text = value.normalize().to_string();
                let put = if tx.shared() {
                    let said = tx
                        .one(
                            "SELECT journal_uf_keep(?1, ?2, ?3)",
                            &vals![iso(day), &text, &source],
                        )?
                        .map(|r| r.text(0))
                        .transpose()?
                        .unwrap_or_default();
                    read_said(&said)?
                } else {
                    keep_here(tx, day, value, &text, &source, &who)?
                };
                out.push((day, put));
            }
            if whole && out.iter().any(|(_, p)| matches!(p, UfPut::Breaks { .. })) {
                refused = Some(out);
                // Undone: nothing of a file is kept when a day of it is refused.
                return Err(DbError::said("a value breaks continuity"));
            }
            Ok(out)
        });
        match (written, refused) {
            (_, Some(each)) => Ok(UfOffered {
                each,
                kept: false,
                source,
            }),
            (Ok(each), None) => Ok(UfOffered {
                each,
                kept: true,
                source,
            }),
            (Err(e), None) => Err(write_error(&path)(e)),
        }
    }
}

/// What became of values offered to the journal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UfOffered {
    /// Each day's, in order of day.
    pub each: Vec<(NaiveDate, UfPut)>,
    /// Whether they were kept (`false`: all were undone, a day refused).
    pub kept: bool,
    /// Their source, as kept.
    pub source: String,
}

impl UfOffered {
    /// How many were new (a value of another source for the day or not).
    pub fn added(&self) -> usize {
        if !self.kept {
            return 0;
        }
        self.each
            .iter()
            .filter(|(_, p)| match p {
                UfPut::Added => true,
                UfPut::Differs { source, .. } => *source != self.source,
                _ => false,
            })
            .count()
    }
}

/// What `journal_uf_keep` answered: `added`, `same`, `corrected:<old>:<by>`,
/// `differs:<value>:<source>`, `breaks:<day>:<value>`.
fn read_said(said: &str) -> Result<UfPut, DbError> {
    let bad = || DbError::said(format!("journal_uf_keep answered {said:?}"));
    let num = |t: &str| t.parse::<Decimal>().map_err(|_| bad());
    let mut parts = said.splitn(3, ':');
    Ok(match (parts.next(), parts.next(), parts.next()) {
        (Some("added"), None, None) => UfPut::Added,
        (Some("same"), None, None) => UfPut::Same,
        (Some("corrected"), Some(was), Some(by)) => UfPut::Corrected {
            was: num(was)?,
            by: Some(by).filter(|b| !b.is_empty()).map(shown),
        },
        (Some("differs"), Some(other), Some(source)) => UfPut::Differs {
            other: num(other)?,
            source: shown(source),
        },
        (Some("breaks"), Some(day), Some(value)) => UfPut::Breaks {
            near: NaiveDate::parse_from_str(day, "%Y-%m-%d").map_err(|_| bad())?,
            value: num(value)?,
        },
        _ => return Err(bad()),
    })
}

/// `journal_uf_keep`'s rules on this computer's journal (one writer: this program).
fn keep_here(
    tx: &dyn Db,
    day: NaiveDate,
    value: Decimal,
    text: &str,
    source: &str,
    who: &str,
) -> Result<UfPut, DbError> {
    let now = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let kept = tx.one(
        "SELECT value, stored_by FROM uf_values WHERE day = ?1 AND source = ?2",
        &vals![iso(day), source],
    )?;
    if let Some(k) = kept {
        let was: Decimal = k.text(0)?.parse().unwrap_or_default();
        if was == value {
            return Ok(UfPut::Same);
        }
        if source != CMF {
            return Ok(UfPut::Differs {
                other: was,
                source: source.to_string(),
            });
        }
        if let Some(b) = breaks(tx, day, value, true)? {
            return Ok(b);
        }
        let by = k.opt_text(1)?;
        record_correction(
            tx,
            &UfCorrection {
                day,
                source: source.to_string(),
                old_value: was,
                old_stored_by: by.clone(),
                new_value: value,
                by: who.to_string(),
                at: now.clone(),
            },
        )?;
        tx.exec(
            "UPDATE uf_values SET value = ?3, stored = ?4, stored_by = ?5
             WHERE day = ?1 AND source = ?2",
            &vals![iso(day), source, text, &now, who],
        )?;
        return Ok(UfPut::Corrected { was, by });
    }
    if let Some(b) = breaks(tx, day, value, false)? {
        return Ok(b);
    }
    tx.exec(
        "INSERT INTO uf_values (day, value, source, stored, stored_by) VALUES (?1, ?2, ?3, ?4, ?5)",
        &vals![iso(day), text, source, &now, who],
    )?;
    let other = tx.one(
        "SELECT value, source, stored_by FROM uf_values WHERE day = ?1 AND source <> ?2
         ORDER BY (source = 'CMF') DESC, stored LIMIT 1",
        &vals![iso(day), source],
    )?;
    if let Some(o) = other {
        let other: Decimal = o.text(0)?.parse().unwrap_or_default();
        if other != value {
            let other_source = o.text(1)?;
            if source == CMF {
                record_correction(
                    tx,
                    &UfCorrection {
                        day,
                        source: other_source.clone(),
                        old_value: other,
                        old_stored_by: o.opt_text(2)?,
                        new_value: value,
                        by: who.to_string(),
                        at: now.clone(),
                    },
                )?;
            }
            return Ok(UfPut::Differs {
                other,
                source: shown(&other_source),
            });
        }
    }
    Ok(UfPut::Added)
}

/// Keeps a value the CMF contradicts beside the CMF's, with who found it and when.
fn record_correction(tx: &dyn Db, c: &UfCorrection) -> Result<(), DbError> {
    tx.exec(
        "INSERT INTO uf_corrections (day, source, old_value, old_stored_by, new_value,
                                     corrected_by, corrected_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        &vals![
            iso(c.day),
            &c.source,
            c.old_value.to_string(),
            &c.old_stored_by,
            c.new_value.normalize().to_string(),
            &c.by,
            &c.at
        ],
    )?;
    Ok(())
}

/// Whether `value` on `day` breaks continuity with the nearest kept days before and
/// after it (the CMF's value of a day first). A new value must hold with both; a
/// correction (`either`) with one of them, as its neighbour may be wrong too.
fn breaks(
    tx: &dyn Db,
    day: NaiveDate,
    value: Decimal,
    either: bool,
) -> Result<Option<UfPut>, DbError> {
    let near = |sql: &str| -> Result<Option<(NaiveDate, Decimal)>, DbError> {
        let row = tx.one(sql, &vals![iso(day)])?;
        Ok(row.and_then(|r| {
            let d = NaiveDate::parse_from_str(&r.text(0).ok()?, "%Y-%m-%d").ok()?;
            Some((d, r.text(1).ok()?.parse().ok()?))
        }))
    };
    let before = near(
        "SELECT day, value FROM uf_values WHERE day < ?1
         ORDER BY day DESC, (source = 'CMF') DESC, stored LIMIT 1",
    )?;
    let after = near(
        "SELECT day, value FROM uf_values WHERE day > ?1
         ORDER BY day, (source = 'CMF') DESC, stored LIMIT 1",
    )?;
    let found: Vec<(NaiveDate, Decimal)> = before.into_iter().chain(after).collect();
    let broken: Vec<&(NaiveDate, Decimal)> = found
        .iter()
        .filter(|(d, v)| !continuous(value, *v, (*d - day).num_days().abs()))
        .collect();
    let refuse = if either {
        !found.is_empty() && broken.len() == found.len()
    } else {
        !broken.is_empty()
    };
    Ok(refuse.then(|| UfPut::Breaks {
        near: broken[0].0,
        value: broken[0].1,
    }))
}

/// A stored text as it may be shown: controls escaped, at most 100 characters.
fn shown(text: &str) -> String {
    crate::text::escape_controls(text)
        .chars()
        .take(100)
        .collect()
}

fn iso(d: NaiveDate) -> String {
    d.format("%Y-%m-%d").to_string()
}
