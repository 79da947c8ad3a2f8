//! Small HTTP helpers shared by the token source and the client: URL checks, capped body
//! reads, wait-time headers.

use super::error::{ApiError, CertError, ErrorKind, InputError, Setting};
use reqwest::header::HeaderMap;
use std::net::IpAddr;
use std::time::Duration;
use url::Url;

/// Parses a base or auth URL and refuses `http://` to anything but this computer.
pub fn check_url(text: &str, what: Setting) -> Result<Url, ApiError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(ApiError::invalid(InputError::Missing(what)));
    }
    let url = Url::parse(text).map_err(|e| {
        ApiError::invalid(InputError::BadAddress {
            what,
            text: text.to_string(),
        })
        .with_cause(e)
    })?;
    match url.scheme() {
        "https" => Ok(url),
        "http" if is_loopback(&url) => Ok(url),
        "http" => Err(ApiError::new(ErrorKind::InsecureUrl(text.to_string()))),
        other => Err(ApiError::invalid(InputError::WrongScheme {
            what,
            scheme: other.to_string(),
        })),
    }
}

fn is_loopback(url: &Url) -> bool {
    match url.host() {
        Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => IpAddr::V4(ip).is_loopback(),
        Some(url::Host::Ipv6(ip)) => IpAddr::V6(ip).is_loopback(),
        None => false,
    }
}

/// The base URL with these path segments appended (each percent-encoded as one
/// segment by the URL library: an id with `/`, `?` or `#` stays one segment), keeping
/// any path prefix the base has.
pub fn endpoint(base: &Url, segments: &[&str]) -> Url {
    let mut url = base.clone();
    url.set_query(None);
    url.set_fragment(None);
    // http(s) URLs always have a path; check_url admits no others.
    if let Ok(mut path) = url.path_segments_mut() {
        path.pop_if_empty().extend(segments);
    }
    url
}

/// Whether this computer's certificate store can be used for HTTPS (a minimal system may
/// have none): `Err` says why, for engineers.
pub fn check_certificate_store() -> Result<(), String> {
    reqwest::Client::builder()
        .build()
        .map(|_| ())
        .map_err(|e| without_url(&e))
}

/// reqwest's error text and its causes, without the URL (not secret, but noise, and a
/// URL can carry query parameters).
pub(crate) fn without_url(e: &reqwest::Error) -> String {
    let mut text = e.to_string();
    if let Some(url) = e.url() {
        text = text.replace(&format!(" for url ({url})"), "");
        text = text.replace(url.as_str(), "<url>");
    }
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    text
}

/// When a TLS handshake failed because the server's certificate is not trusted: the
/// reason, from rustls's own error (not its text).
pub(crate) fn certificate_problem(e: &reqwest::Error) -> Option<CertError> {
    match std::error::Error::source(e).and_then(tls_error) {
        Some(rustls::Error::InvalidCertificate(c)) => Some(CertError::from_certificate_error(c)),
        _ => None,
    }
}

/// The rustls error in a chain of causes. An `io::Error` hides the error it wraps from
/// `source()` (it gives that error's source instead), so each one is opened too, however
/// deep (hyper wraps the TLS error in two).
pub(crate) fn tls_error<'a>(e: &'a (dyn std::error::Error + 'static)) -> Option<&'a rustls::Error> {
    if let Some(tls) = e.downcast_ref::<rustls::Error>() {
        return Some(tls);
    }
    if let Some(inner) = e
        .downcast_ref::<std::io::Error>()
        .and_then(|io| io.get_ref())
        .and_then(|inner| tls_error(inner))
    {
        return Some(inner);
    }
    e.source().and_then(tls_error)
}

/// Why a body could not be read.
pub enum BodyError {
    /// Larger than the cap.
    TooLarge,
    /// The transport failed while reading.
    Transport(reqwest::Error),
}

/// Reads a response body, refusing more than `max` bytes.
pub async fn read_capped(mut resp: reqwest::Response, max: usize) -> Result<Vec<u8>, BodyError> {
    if resp.content_length().is_some_and(|n| n as usize > max) {
        return Err(BodyError::TooLarge);
    }
    let mut out = Vec::with_capacity(resp.content_length().map_or(8192, |n| n as usize));
    while let Some(chunk) = resp.chunk().await.map_err(BodyError::Transport)? {
        if out.len() + chunk.len() > max {
            return Err(BodyError::TooLarge);
        }
        out.extend_from_slice(&chunk);
    }
    Ok(out)
}

/// The longest wait a server can ask for that is believed (a day): larger values are
/// clamped, so adding them to an instant can never overflow.
pub const MAX_WAIT: Duration = Duration::from_secs(24 * 3600);

/// How long the server asks us to wait: `Retry-After` (seconds or HTTP date), else
/// `x-ratelimit-reset` (seconds, or a Unix time); at most [`MAX_WAIT`].
pub fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    asked_wait(headers).map(|d| d.min(MAX_WAIT))
}

fn asked_wait(headers: &HeaderMap) -> Option<Duration> {
    let text = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::trim)
    };
    if let Some(v) = text("retry-after") {
        if let Ok(secs) = v.parse::<u64>() {
            return Some(Duration::from_secs(secs));
        }
        if let Ok(when) = chrono::DateTime::parse_from_rfc2822(v) {
            let secs = when
                .timestamp()
                .saturating_sub(chrono::Utc::now().timestamp())
                .max(0);
            return Some(Duration::from_secs(secs as u64));
        }
    }
    if let Some(v) = text("x-ratelimit-reset")
        && let Ok(n) = v.parse::<f64>().map(|f| f.ceil() as i64)
    {
        // Large values are a Unix time; small ones are seconds from now.
        let secs = if n > 1_000_000_000 {
            n.saturating_sub(chrono::Utc::now().timestamp())
        } else {
            n
        };
        return Some(Duration::from_secs(secs.max(0) as u64));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls() {
        assert!(check_url("https://api.example.cl/v1", Setting::BaseUrl).is_ok());
        assert!(check_url("http://127.0.0.1:8080", Setting::BaseUrl).is_ok());
        assert!(check_url("http://localhost:8080", Setting::BaseUrl).is_ok());
        assert!(check_url("http://[::1]:8080", Setting::BaseUrl).is_ok());
        let e = check_url("http://api.example.cl", Setting::BaseUrl).unwrap_err();
        assert!(matches!(e.kind, ErrorKind::InsecureUrl(_)));
        assert!(check_url("ftp://x", Setting::BaseUrl).is_err());
        assert!(check_url("", Setting::BaseUrl).is_err());
        let base = Url::parse("https://h/v1/").unwrap();
        assert_eq!(
            endpoint(&base, &["invoice", "a/b"]).as_str(),
            "https://h/v1/invoice/a%2Fb"
        );
        assert_eq!(
            endpoint(&Url::parse("https://h").unwrap(), &["invoice", "in_1/ ?#é"]).as_str(),
            "https://h/invoice/in_1%2F%20%3F%23%C3%A9"
        );
    }

    #[test]
    fn wait_headers() {
        let mut h = HeaderMap::new();
        h.insert("retry-after", "7".parse().unwrap());
        assert_eq!(retry_after(&h), Some(Duration::from_secs(7)));
        let mut h = HeaderMap::new();
        h.insert("x-ratelimit-reset", "3".parse().unwrap());
        assert_eq!(retry_after(&h), Some(Duration::from_secs(3)));
        assert_eq!(retry_after(&HeaderMap::new()), None);
        for huge in [
            "18446744073709551615",
            "99999999999999999999999",
            "1e300",
            "-1e300",
            "NaN",
        ] {
            let mut h = HeaderMap::new();
            h.insert("x-ratelimit-reset", huge.parse().unwrap());
            h.insert("retry-after", huge.parse().unwrap());
            let d = retry_after(&h);
            assert!(d.is_none_or(|d| d <= MAX_WAIT), "{huge}: {d:?}");
        }
    }
}
