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

impl std::fmt::Display for AssignmentError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AssignmentError::NoEquals(i) => write!(f, "\"{i}\": write name=value."),
            AssignmentError::NoName(i) => write!(f, "\"{i}\": the field has no name."),
            AssignmentError::MetadataTooLong(k) => {
                write!(f, "\"{k}\": metadata values are limited to 256 characters.")
            }
        }
    }
}

/// Reads `name=value` assignments (blank ones skipped); `metadata.name=value` goes into
/// metadata. Values are text.
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
        match k.strip_prefix("metadata.") {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn assignments() {
        let (e, m) = parse_assignments("nota = hola\nmetadata.centro=Ñuñoa\n\n".lines()).unwrap();
        assert_eq!(e["nota"], "hola");
        assert_eq!(m.unwrap()["centro"], "Ñuñoa");
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
