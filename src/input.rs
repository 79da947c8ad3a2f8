//! Input helpers shared by the app and the CLI: what a clerk types becomes the values the
//! API layer takes. No egui, no HTTP.

use serde_json::{Map, Value};

/// A new unique external reference: date and a random part. Sent with every new invoice
/// so that an unknown outcome can be checked.
pub fn fresh_reference() -> String {
    let id = uuid::Uuid::new_v4().simple().to_string();
    format!(
        "ID-{}-{}",
        chrono::Local::now().format("%Y%m%d"),
        &id[..8].to_ascii_uppercase()
    )
}

/// Extra fields and metadata for a new invoice.
pub type ExtraFields = (Map<String, Value>, Option<Map<String, Value>>);

/// Why an extra-field assignment was refused; each names the assignment as typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AssignmentError {
    /// No `=` in it.
    NoEquals(String),
    /// Nothing before the `=`.
    NoName(String),
    /// A metadata value over 256 characters (the service's limit).
    MetadataTooLong(String),
}

crate::engineers_text!(AssignmentError);

/// Reads `name=value` assignments (blank ones skipped); `metadata.name=value` (or, as a
/// Spanish clerk writes it, `metadatos.name=value`) goes into metadata. Values are text.
pub fn parse_assignments<'a>(
    items: impl IntoIterator<Item = &'a str>,
) -> Result<ExtraFields, AssignmentError> {
    let mut extra = Map::new();
    let mut metadata = Map::new();
    for item in items {
        let item = item.trim();
        if item.is_empty() {
            continue;
        }
        let Some((k, v)) = item.split_once('=') else {
            return Err(AssignmentError::NoEquals(item.to_string()));
        };
        let (k, v) = (k.trim(), v.trim());
        if k.is_empty() {
            return Err(AssignmentError::NoName(item.to_string()));
        }
        match k
            .strip_prefix("metadata.")
            .or_else(|| k.strip_prefix("metadatos."))
        {
            Some(mk) if !mk.is_empty() => {
                if v.chars().count() > 256 {
                    return Err(AssignmentError::MetadataTooLong(k.to_string()));
                }
                metadata.insert(mk.to_string(), Value::String(v.to_string()));
            }
            _ => {
                extra.insert(k.to_string(), Value::String(v.to_string()));
            }
        }
    }
    Ok((extra, (!metadata.is_empty()).then_some(metadata)))
}

/// Which written forms of a date are read, besides ISO `YYYY-MM-DD` (always read).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DateOrder {
    /// ISO only (English).
    IsoOnly,
    /// Also day first, as Chile writes dates: `31-12-2026`, `5-1-2027`, `05/01/2027`.
    DayFirst,
}

/// Why a typed date was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DateError {
    /// Not a date in a form that is read.
    Format(String),
    /// The form is right but there is no such day ("31 February").
    NoSuchDay {
        /// Day as typed.
        day: u32,
        /// Month as typed.
        month: u32,
        /// Year as typed.
        year: i32,
    },
    /// A year outside 1900–2199 (a typo, most likely).
    Year(i32),
}

crate::engineers_text!(DateError);

/// Reads a date as a clerk writes it: ISO `YYYY-MM-DD` (also `2026-1-5`) and, with
/// [`DateOrder::DayFirst`], `DD-MM-YYYY`, `D-M-YYYY`, `DD/MM/YYYY` or `DD.MM.YYYY`. The
/// day must exist. What is sent is always ISO (`NaiveDate`'s `%Y-%m-%d`).
pub fn parse_date(text: &str, order: DateOrder) -> Result<chrono::NaiveDate, DateError> {
    let t = text.trim();
    let bad = || DateError::Format(t.to_string());
    let parts: Vec<&str> = t.split(['-', '/', '.']).collect();
    if parts.len() != 3
        || parts
            .iter()
            .any(|p| p.is_empty() || p.len() > 4 || !p.bytes().all(|b| b.is_ascii_digit()))
    {
        return Err(bad());
    }
    let n = |p: &str| p.parse::<u32>().map_err(|_| bad());
    let (year, month, day) = if parts[0].len() == 4 {
        (n(parts[0])?, n(parts[1])?, n(parts[2])?)
    } else if parts[2].len() == 4 && order == DateOrder::DayFirst {
        (n(parts[2])?, n(parts[1])?, n(parts[0])?)
    } else {
        return Err(bad());
    };
    if parts[1].len() > 2 || (parts[0].len() != 4 && parts[0].len() > 2) {
        return Err(bad());
    }
    let year = year as i32;
    if !(1900..=2199).contains(&year) {
        return Err(DateError::Year(year));
    }
    chrono::NaiveDate::from_ymd_opt(year, month, day).ok_or(DateError::NoSuchDay {
        day,
        month,
        year,
    })
}

/// The last day of the month of `d`.
pub fn end_of_month(d: chrono::NaiveDate) -> chrono::NaiveDate {
    use chrono::Datelike;
    let (y, m) = if d.month() == 12 {
        (d.year() + 1, 1)
    } else {
        (d.year(), d.month() + 1)
    };
    chrono::NaiveDate::from_ymd_opt(y, m, 1)
        .and_then(|first| first.pred_opt())
        .unwrap_or(d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::NaiveDate;

    #[test]
    fn dates_as_clerks_write_them() {
        let d = |y, m, dd| NaiveDate::from_ymd_opt(y, m, dd).unwrap();
        let es = DateOrder::DayFirst;
        for (text, want) in [
            ("2026-12-31", d(2026, 12, 31)),
            ("2026-1-5", d(2026, 1, 5)),
            ("31-12-2026", d(2026, 12, 31)),
            ("5-1-2027", d(2027, 1, 5)),
            ("05/01/2027", d(2027, 1, 5)),
            (" 5.1.2027 ", d(2027, 1, 5)),
        ] {
            assert_eq!(parse_date(text, es), Ok(want), "{text}");
        }
        assert_eq!(
            parse_date("2026-1-5", DateOrder::IsoOnly)
                .unwrap()
                .format("%Y-%m-%d")
                .to_string(),
            "2026-01-05",
            "always sent as ISO"
        );
        assert!(matches!(
            parse_date("31-12-2026", DateOrder::IsoOnly),
            Err(DateError::Format(_))
        ));
        assert_eq!(
            parse_date("2026-02-31", es),
            Err(DateError::NoSuchDay {
                day: 31,
                month: 2,
                year: 2026
            })
        );
        assert!(matches!(
            parse_date("31-13-2026", es),
            Err(DateError::NoSuchDay { .. })
        ));
        assert_eq!(parse_date("1-1-0202", es), Err(DateError::Year(202)));
        for bad in [
            "",
            "mañana",
            "2026-12",
            "12-31-26",
            "2026/12/31/1",
            "123-1-2026",
        ] {
            assert!(
                matches!(parse_date(bad, es), Err(DateError::Format(_))),
                "{bad}"
            );
        }
        assert_eq!(end_of_month(d(2028, 2, 10)), d(2028, 2, 29));
        assert_eq!(end_of_month(d(2026, 12, 1)), d(2026, 12, 31));
    }

    #[test]
    fn assignments() {
        let (e, m) = parse_assignments("nota = hola\nmetadata.centro=Ñuñoa\n\n".lines()).unwrap();
        assert_eq!(e["nota"], "hola");
        assert_eq!(m.unwrap()["centro"], "Ñuñoa");
        // As the Spanish hint writes it.
        let (e, m) = parse_assignments(["metadatos.centro=Maipú"]).unwrap();
        assert!(e.is_empty());
        assert_eq!(m.unwrap()["centro"], "Maipú");
        assert!(matches!(
            parse_assignments(["sin igual"]),
            Err(AssignmentError::NoEquals(_))
        ));
        assert!(matches!(
            parse_assignments(["=x"]),
            Err(AssignmentError::NoName(_))
        ));
        let long = format!("metadata.a={}", "x".repeat(257));
        assert!(matches!(
            parse_assignments([long.as_str()]),
            Err(AssignmentError::MetadataTooLong(_))
        ));
    }

    #[test]
    fn references_are_unique() {
        assert_ne!(fresh_reference(), fresh_reference());
        assert!(fresh_reference().starts_with("ID-"));
    }
}
