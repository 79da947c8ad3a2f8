//! E-mail addresses as a clerk or a spreadsheet writes them, checked before anything
//! keeps or sends them (lettre's parser, and a few rules a customer's card needs).

/// The most recipients one customer's e-mail goes to (a directory's contacts).
pub const MAX_RECIPIENTS: usize = 10;

/// An e-mail address as a person types it, checked: `name@domain.tld`, no spaces or
/// control characters, a domain with a dot (lettre's own parser decides the rest).
pub fn parse_address(text: &str) -> Option<lettre::Address> {
    let t = text.trim();
    if t.is_empty() || t.len() > 254 || t.chars().any(|c| c.is_control() || c.is_whitespace()) {
        return None;
    }
    let address: lettre::Address = t.parse().ok()?;
    let domain = address.domain();
    // "cliente@localhost" is a mistake in a customer's card, not an address.
    (domain.contains('.') && !domain.starts_with('.') && !domain.ends_with('.')).then_some(address)
}

/// A list of addresses as typed in a cell or a field (comma, semicolon or spaces
/// between them): the good ones, or the first one that is not an address.
pub fn parse_addresses(text: &str) -> Result<Vec<String>, String> {
    let mut out: Vec<String> = Vec::new();
    for part in text
        .split([',', ';', ' ', '\n', '\t'])
        .map(str::trim)
        .filter(|p| !p.is_empty())
    {
        let Some(a) = parse_address(part) else {
            return Err(part.to_string());
        };
        let a = a.to_string();
        if !out.iter().any(|o| o.eq_ignore_ascii_case(&a)) {
            out.push(a);
        }
    }
    if out.len() > MAX_RECIPIENTS {
        return Err(out[MAX_RECIPIENTS].clone());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_checked_before_anything_is_sent() {
        assert!(parse_address("pagos@empresa.cl").is_some());
        assert!(parse_address("  Pagos@Empresa.CL ").is_some());
        for bad in [
            "",
            "pagos",
            "pagos@",
            "@empresa.cl",
            "pagos@empresa",
            "pa gos@empresa.cl",
            "pagos@empresa.cl\r\nBcc: x@y.cl",
            "pagos@.cl",
        ] {
            assert!(parse_address(bad).is_none(), "{bad:?}");
        }
        assert_eq!(
            parse_addresses("a@b.cl; c@d.cl, A@B.cl").unwrap(),
            vec!["a@b.cl".to_string(), "c@d.cl".to_string()]
        );
        assert_eq!(parse_addresses("a@b.cl, nada").unwrap_err(), "nada");
        assert_eq!(parse_addresses(" ").unwrap(), Vec::<String>::new());
    }
}
