//! A PostgreSQL address as a clerk gives it: a `postgres://` URL or libpq's keyword/value
//! form, told apart from a file's name, and shown without its password.

/// libpq's keywords, the first word of a keyword/value address ("host=… dbname=…").
const KEYWORDS: &[&str] = &[
    "host",
    "hostaddr",
    "port",
    "dbname",
    "user",
    "password",
    "passfile",
    "sslmode",
    "service",
    "application_name",
    "connect_timeout",
    "options",
    "target_session_attrs",
];

/// Whether `text` names a PostgreSQL database rather than a file: a `postgres://` or
/// `postgresql://` address, or libpq's keyword/value form (`host=… dbname=…`), which is
/// never taken for a file's name (it may hold a password).
pub fn is_database_url(text: &str) -> bool {
    let t = text.trim().to_ascii_lowercase();
    if t.starts_with("postgres://") || t.starts_with("postgresql://") {
        return true;
    }
    t.split_whitespace().next().is_some_and(|first| {
        first
            .split_once('=')
            .is_some_and(|(k, _)| KEYWORDS.contains(&k.trim()))
    }) || KEYWORDS
        .iter()
        .any(|k| t.starts_with(&format!("{k} =")) || t.starts_with(&format!("{k}=")))
}

/// The address as it may be shown and kept: any password in it taken out (the user
/// information's, a `password=` parameter's, or a keyword's value).
pub fn without_password(url: &str) -> String {
    let url = url.trim();
    let Some((scheme, rest)) = url.split_once("://") else {
        return keywords_without_password(url);
    };
    let (authority, tail) = match rest.find(['/', '?']) {
        Some(i) => rest.split_at(i),
        None => (rest, ""),
    };
    let authority = match authority.rsplit_once('@') {
        Some((user, host)) => {
            let user = user.split(':').next().unwrap_or("");
            format!("{user}@{host}")
        }
        None => authority.to_string(),
    };
    let tail = match tail.split_once('?') {
        Some((path, query)) => {
            let kept: Vec<&str> = query
                .split('&')
                .filter(|p| {
                    let key = p.split('=').next().unwrap_or("").to_ascii_lowercase();
                    key != "password" && key != "passfile"
                })
                .collect();
            if kept.is_empty() {
                path.to_string()
            } else {
                format!("{path}?{}", kept.join("&"))
            }
        }
        None => tail.to_string(),
    };
    format!("{scheme}://{authority}{tail}")
}

/// A keyword/value address without its password: every word after `password` (or
/// `passfile`) up to the next keyword is dropped, quoted or not.
fn keywords_without_password(text: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut rest = text.trim();
    while !rest.is_empty() {
        let Some(eq) = rest.find('=') else {
            out.push(rest.to_string());
            break;
        };
        let key = rest[..eq].trim().to_string();
        let mut value = rest[eq + 1..].trim_start();
        // The value: quoted (backslash escapes) or up to white space.
        let end = if let Some(inner) = value.strip_prefix('\'') {
            let mut escaped = false;
            let mut end = None;
            for (i, c) in inner.char_indices() {
                match c {
                    _ if escaped => escaped = false,
                    '\\' => escaped = true,
                    '\'' => {
                        end = Some(i + 2);
                        break;
                    }
                    _ => {}
                }
            }
            end.unwrap_or(value.len())
        } else {
            value.find(char::is_whitespace).unwrap_or(value.len())
        };
        let shown = &value[..end];
        value = &value[end..];
        let lower = key.to_ascii_lowercase();
        if lower != "password" && lower != "passfile" {
            out.push(format!("{key}={shown}"));
        }
        rest = value.trim_start();
    }
    out.join(" ")
}
