//! A file of UF values, for a computer without the CMF's API: the CMF's answer saved
//! (JSON); a two-column table, Fecha and Valor (CSV or Excel: the Banco Central's
//! download, or a clerk's copy); or the SII's table of a year, a "Día" column and one
//! column per month (the year in the file's name, "uf2026.xlsx", or given).

use super::{Bad, MAX_ANSWER, MAX_VALUES, UfDay, UfError, UfFrom, Why, one_per_day, parse_valor};
use crate::journal::fold_text;
use chrono::NaiveDate;
use rust_decimal::Decimal;
use std::io::Read;
use std::path::Path;

/// The months as the SII's table heads them.
const MONTHS: [&str; 12] = [
    "enero",
    "febrero",
    "marzo",
    "abril",
    "mayo",
    "junio",
    "julio",
    "agosto",
    "septiembre",
    "octubre",
    "noviembre",
    "diciembre",
];

/// A file of values imported (`uf import`, Credentials): what it held, and what became
/// of it.
#[derive(Clone, Debug)]
pub struct Imported {
    /// The file's name (its values' source).
    pub name: String,
    /// Its values, by day.
    pub values: Vec<(NaiveDate, Decimal)>,
    /// Its days that break continuity with the others (the file is then refused, not
    /// offered).
    pub refused: Vec<super::Breaks>,
    /// What the journal made of them (`None` when refused before).
    pub offered: Option<crate::journal::UfOffered>,
}

impl Imported {
    /// Whether its values were kept.
    pub fn kept(&self) -> bool {
        self.refused.is_empty() && self.offered.as_ref().is_some_and(|o| o.kept)
    }
}

/// Reads the file at `path` and offers its values to `journal` under the file's name,
/// all or nothing: a day that breaks continuity with the file's others or with the
/// days kept refuses the file.
pub fn import(
    journal: &mut crate::journal::Journal,
    path: &Path,
    year: Option<i32>,
) -> Result<Imported, UfError> {
    let days = read(path, year)?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let (held, refused) = super::sift(days);
    let values: Vec<_> = held.iter().map(|d| (d.date, d.value)).collect();
    let offered = if refused.is_empty() {
        Some(
            journal
                .put_uf_values(&values, &name, true)
                .map_err(UfError::Journal)?,
        )
    } else {
        None
    };
    Ok(Imported {
        name,
        values,
        refused,
        offered,
    })
}

/// Every value in the file at `path`, by day; `year` for the SII's table when its name
/// does not say it.
pub fn read(path: &Path, year: Option<i32>) -> Result<Vec<UfDay>, UfError> {
    let json = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"));
    if json {
        let mut bytes = Vec::new();
        std::fs::File::open(path)
            .and_then(|f| f.take(MAX_ANSWER as u64 * 16 + 1).read_to_end(&mut bytes))
            .map_err(|e| Why::Unreadable(e.kind()).bad())?;
        // A saved answer may be several years: sixteen times what one answer may be.
        if bytes.len() > MAX_ANSWER * 16 {
            return Err(Why::TooLarge(MAX_ANSWER * 16 / 1024).bad().into());
        }
        return some(super::read_cmf(&bytes).map_err(Why::bad));
    }
    let sheet = crate::sheet::read_rows(path, None).map_err(|e| Why::Sheet(e).bad())?;
    let name_year = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .and_then(|s| year_in(&s));
    some(from_rows(&sheet.rows, year.or(name_year)))
}

/// A file's values, at least one (a file of none is no table of values, whatever its
/// format).
fn some(days: Result<Vec<UfDay>, Bad>) -> Result<Vec<UfDay>, UfError> {
    match days {
        Ok(d) if d.is_empty() => Err(Why::NoValues.bad().into()),
        Ok(d) => Ok(d),
        Err(bad) => Err(bad.into()),
    }
}

/// A year of four digits, 1990 to 2099, standing alone in a file's name.
fn year_in(name: &str) -> Option<i32> {
    let b = name.as_bytes();
    (0..b.len().saturating_sub(3)).find_map(|i| {
        let four = &b[i..i + 4];
        let alone = (i == 0 || !b[i - 1].is_ascii_digit())
            && b.get(i + 4).is_none_or(|c| !c.is_ascii_digit());
        if !alone || !four.iter().all(u8::is_ascii_digit) {
            return None;
        }
        let y: i32 = std::str::from_utf8(four).ok()?.parse().ok()?;
        (1990..=2099).contains(&y).then_some(y)
    })
}

/// A value in a cell: a number cell as it is (two decimals at most), else es-CL text.
fn value_of(text: &str, number: bool) -> Result<Decimal, Why> {
    if number {
        let v = Decimal::from_str_exact(text.trim())
            .map_err(|_| Why::NotAValue(text.to_string()))?
            .normalize();
        if !super::is_plausible(v) {
            return Err(Why::NotAValue(text.to_string()));
        }
        Ok(v)
    } else {
        parse_valor(text)
    }
}

/// The values in rows read from a sheet: a Fecha/Valor table or the SII's year.
pub fn from_rows(rows: &crate::sheet::Rows, year: Option<i32>) -> Result<Vec<UfDay>, Bad> {
    let header: Vec<String> = rows.header().iter().map(|h| fold_text(h.trim())).collect();
    let find = |names: &[&str]| header.iter().position(|h| names.contains(&h.as_str()));
    let date_col = find(&["fecha", "date", "dia", "day"]);
    let value_col = find(&["valor", "value", "uf", "valor uf"]);
    let months: Vec<Option<usize>> = MONTHS.iter().map(|m| find(&[m])).collect();
    let mut days = Vec::new();
    if let (Some(dc), Some(vc)) = (date_col, value_col) {
        for (i, row) in rows.iter().enumerate().skip(1) {
            if row.is_blank() {
                continue;
            }
            let at = |why: Why| why.at(i + 1);
            let date_text = row.get(dc).unwrap_or("");
            let date = crate::input::parse_date(date_text, crate::input::DateOrder::DayFirst)
                .map_err(|_| at(Why::NotADate(date_text.to_string())))?;
            let value = value_of(row.get(vc).unwrap_or(""), row.is_number(vc)).map_err(at)?;
            days.push(UfDay {
                date,
                value,
                from: UfFrom::Table,
            });
        }
    } else if let (Some(dc), true) = (date_col, months.iter().any(Option::is_some)) {
        let year = year.ok_or(Why::NoYear.bad())?;
        for (i, row) in rows.iter().enumerate().skip(1) {
            let at = |why: Why| why.at(i + 1);
            let day_text = row.get(dc).unwrap_or("").trim();
            if day_text.is_empty() {
                continue;
            }
            let day: u32 = day_text
                .parse()
                .ok()
                .filter(|d| (1..=31).contains(d))
                .ok_or_else(|| at(Why::NotADay(day_text.to_string())))?;
            for (m, col) in months.iter().enumerate() {
                let Some(c) = *col else { continue };
                let text = row.get(c).unwrap_or("").trim();
                if text.is_empty() {
                    continue;
                }
                let month = m as u32 + 1;
                let date = NaiveDate::from_ymd_opt(year, month, day)
                    .ok_or_else(|| at(Why::NoSuchDay { month, day, year }))?;
                let value = value_of(text, row.is_number(c)).map_err(at)?;
                days.push(UfDay {
                    date,
                    value,
                    from: UfFrom::Table,
                });
            }
        }
    } else {
        return Err(Why::NoColumns.bad());
    }
    if days.len() > MAX_VALUES {
        return Err(Why::TooMany(MAX_VALUES).bad());
    }
    one_per_day(days).map_err(Why::bad)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sheet::{Row, Rows};

    fn rows(lines: &[&[&str]]) -> Rows {
        Rows::from_iter(lines.iter().map(|l| l.to_vec()))
    }

    #[test]
    fn a_two_column_table_is_read() {
        let r = rows(&[
            &["Fecha", "Valor"],
            &["26-11-2026", "39.643,59"],
            &["2026-11-27", "39.650,12"],
        ]);
        let days = from_rows(&r, None).unwrap();
        assert_eq!(days.len(), 2);
        assert_eq!(days[1].value.to_string(), "39650.12");
        let bad = rows(&[&["Fecha", "Valor"], &["26-11-2026", "39643,5"]]);
        assert_eq!(
            from_rows(&bad, None).unwrap_err(),
            Why::NotAValue("39643,5".into()).at(2)
        );
        let twice = rows(&[
            &["Fecha", "Valor"],
            &["26-11-2026", "39.643,59"],
            &["26-11-2026", "39.643,60"],
        ]);
        assert!(from_rows(&twice, None).is_err());
    }

    /// A file with no values, in any format, is refused (the CLI said the first and
    /// last day of what it read, and a saved answer of none panicked there).
    #[test]
    fn a_file_of_no_values_is_refused_in_every_format() {
        let dir = tempfile::tempdir().unwrap();
        for (name, text) in [
            ("vacio.json", r#"{"UFs": []}"#),
            ("vacio.csv", "Fecha;Valor\n"),
        ] {
            let path = dir.path().join(name);
            std::fs::write(&path, text).unwrap();
            assert!(matches!(read(&path, None), Err(UfError::Bad(_))), "{name}");
        }
    }

    #[test]
    fn the_sii_year_table_is_read_with_its_year() {
        let mut r = rows(&[&["Día", "Enero", "Febrero"]]);
        r.push(Row::of(["1", "38.416,69", "38.647,13"]));
        r.push(Row::of(["29", "38.600,00", ""]));
        r.push(Row::with_numbers(["30", "38600.5", ""], vec![1]));
        assert!(from_rows(&r, None).is_err(), "no year");
        let days = from_rows(&r, Some(2026)).unwrap();
        assert_eq!(days.len(), 4);
        assert_eq!(days[0].date, NaiveDate::from_ymd_opt(2026, 1, 1).unwrap());
        assert_eq!(days[1].date, NaiveDate::from_ymd_opt(2026, 1, 29).unwrap());
        assert_eq!(days[2].value.to_string(), "38600.5");
        // 30 February with a value is no day.
        r.push(Row::of(["30", "", "38.700,00"]));
        assert!(from_rows(&r, Some(2026)).is_err());
        assert_eq!(year_in("uf2026"), Some(2026));
        assert_eq!(year_in("valores-uf-2025-sii"), Some(2025));
        assert_eq!(year_in("uf20261"), None);
    }
}
