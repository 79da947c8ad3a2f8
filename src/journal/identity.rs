//! One service, one identity: the base URL as WHATWG normalises it (scheme and host
//! case, default port, IPv4 shorthand) plus trailing dots and slashes taken off, without
//! user info, query or fragment; and the account, by a hash of its key. Other spellings
//! of one service are one service, so a reference claimed under one is claimed under all.

use sha2::{Digest, Sha256};

/// The base URL as the journal stores it and compares it: `http://127.0.0.1:8787`,
/// `https://api.example.cl/v1`. Never holds a user name, password, query or fragment
/// (they may carry secrets). Text that is not a URL is kept trimmed and lowercased.
pub fn canonical_url(raw: &str) -> String {
    let raw = raw.trim();
    let Ok(mut url) = url::Url::parse(raw) else {
        return raw.to_ascii_lowercase();
    };
    let _ = url.set_username("");
    let _ = url.set_password(None);
    url.set_query(None);
    url.set_fragment(None);
    let host = match url.host() {
        Some(url::Host::Domain(d)) => {
            let d = d.trim_end_matches('.');
            // localhost is this computer, like 127.0.0.1 (one loopback service).
            if d == "localhost" {
                "127.0.0.1".to_string()
            } else {
                d.to_string()
            }
        }
        Some(url::Host::Ipv4(ip)) => ip.to_string(),
        Some(url::Host::Ipv6(ip)) => format!("[{ip}]"),
        None => String::new(),
    };
    let port = url.port().map(|p| format!(":{p}")).unwrap_or_default();
    let path = url.path().trim_end_matches('/');
    format!("{}://{host}{port}{path}", url.scheme())
}

/// A short digest of an account key (never the key): the account in a service identity.
pub fn account_hash(key: Option<&str>) -> String {
    match key.map(str::trim).filter(|k| !k.is_empty()) {
        None => "-".into(),
        Some(k) => Sha256::digest(k.as_bytes())
            .iter()
            .take(12)
            .map(|b| format!("{b:02x}"))
            .collect(),
    }
}

/// Where a create's reference is claimed: the service and the account.
pub fn create_scope(base_url: &str, account_key: Option<&str>) -> String {
    format!(
        "create {} acct:{}",
        canonical_url(base_url),
        account_hash(account_key)
    )
}

/// Where a create's reference was claimed by journals written before account keys were
/// hashed (layout 5 and older): the account by its last 4 characters.
pub fn legacy_create_scope(base_url: &str, last4: Option<&str>) -> String {
    format!(
        "create {} last4:{}",
        canonical_url(base_url),
        last4.unwrap_or("-")
    )
}

/// Where a void's invoice id is claimed: an id names one invoice at the whole service,
/// whichever account asks.
pub fn void_scope(base_url: &str) -> String {
    format!("void {}", canonical_url(base_url))
}

/// Where an e-mail's key is claimed: the service whose customers and documents it is
/// about (the same e-mail through another mail server is still the same e-mail).
pub fn mail_scope(base_url: &str) -> String {
    format!("mail {}", canonical_url(base_url))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings_of_one_service_are_one_url() {
        let one = canonical_url("http://127.0.0.1:8787");
        assert_eq!(one, "http://127.0.0.1:8787");
        for other in [
            "HTTP://127.0.0.1:8787",
            "http://127.0.0.1:8787/",
            "http://127.1:8787/.",
            "http://localhost:8787//",
            "http://LOCALHOST.:8787",
            " http://clerk:pw@127.0.0.1:8787/?key=secret#x ",
            "http://2130706433:8787",
        ] {
            assert_eq!(canonical_url(other), one, "{other}");
        }
        assert_eq!(
            canonical_url("https://API.Example.cl:443/v1/"),
            "https://api.example.cl/v1"
        );
        assert_eq!(
            canonical_url("https://api.example.cl./v1"),
            "https://api.example.cl/v1"
        );
        assert_ne!(
            canonical_url("https://api.example.cl/v2"),
            canonical_url("https://api.example.cl/v1")
        );
        assert_ne!(
            canonical_url("http://127.0.0.1:8788"),
            canonical_url("http://127.0.0.1:8787")
        );
    }

    #[test]
    fn the_account_is_a_hash_never_the_key() {
        let h = account_hash(Some("acc_oauth_clp"));
        assert_eq!(h.len(), 24);
        assert!(!h.contains("clp"));
        assert_eq!(h, account_hash(Some(" acc_oauth_clp ")));
        assert_ne!(h, account_hash(Some("acc_oauth_clf")));
        assert_eq!(account_hash(None), account_hash(Some("  ")));
        assert_eq!(
            create_scope("http://localhost:1/", Some("k")),
            create_scope("http://127.0.0.1:1", Some("k"))
        );
    }
}
