//! How requests are authorized: an OAuth 2.0 client-credentials token source (lazy,
//! cached in memory, refreshed before expiry, single flight) or an API key.

use super::error::{ApiError, ErrorKind, InputError, Setting};
use super::http::{self, BodyError};
use base64::Engine;
use chrono::{DateTime, Utc};
use secrecy::{ExposeSecret, SecretString};
use serde_json::{Value, json};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
// tokio's clock (the system's but in tests, where it can be moved): a token's expiry is
// tested without waiting for it.
use tokio::time::Instant;
use url::Url;

/// How the token request body is encoded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TokenBodyStyle {
    /// JSON, as the service's interface documents.
    #[default]
    Json,
    /// `application/x-www-form-urlencoded` (RFC 6749 client_secret_post), for providers
    /// that require it.
    Form,
}

/// OAuth 2.0 client-credentials settings.
#[derive(Clone, Debug)]
pub struct OAuthSettings {
    /// The identity provider's address; the token endpoint is `{auth_url}/oauth/token`.
    pub auth_url: String,
    /// The audience assigned by the operator.
    pub audience: String,
    /// Client id.
    pub client_id: String,
    /// Client secret.
    pub client_secret: SecretString,
    /// Body encoding of the token request.
    pub body_style: TokenBodyStyle,
}

/// API-key settings.
#[derive(Clone, Debug)]
pub struct ApiKeySettings {
    /// Header name, `x-api-key` by default.
    pub header: String,
    /// The key.
    pub key: SecretString,
}

/// The header name used for API keys when a profile does not say.
pub const DEFAULT_API_KEY_HEADER: &str = "x-api-key";

/// How a profile authenticates.
#[derive(Clone, Debug)]
pub enum AuthSettings {
    /// Bearer tokens from the client-credentials flow.
    OAuth(OAuthSettings),
    /// A static key in a header; no token traffic.
    ApiKey(ApiKeySettings),
}

/// What the UI shows about the token, read without causing a fetch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TokenState {
    /// The profile uses an API key: there is no token.
    NotUsed,
    /// No token yet (none fetched, or the last one was dropped).
    None,
    /// A token is being fetched.
    Fetching,
    /// A token is held; `expires_at` when known.
    Valid {
        /// When it expires (wall clock).
        expires_at: Option<DateTime<Utc>>,
    },
    /// The last fetch failed.
    Failed {
        /// Why (the front end says it in the clerk's words).
        reason: ApiError,
    },
}

struct Cached {
    value: SecretString,
    /// Time to get a new one (before expiry, by the margin).
    refresh_at: Option<Instant>,
    /// When the service will stop accepting it.
    expires_at: Option<Instant>,
    expires_wall: Option<DateTime<Utc>>,
}

#[derive(Default)]
struct Slot {
    token: Option<Cached>,
    /// The last failed fetch: its completion number and error, shared with the callers
    /// that were waiting for it so that a failure is not repeated by each of them.
    last_failure: Option<(u64, ApiError)>,
    /// After a 429, no request before this instant.
    blocked_until: Option<Instant>,
}

/// The OAuth token source of one profile. Tokens live only in this memory.
pub struct TokenSource {
    settings: OAuthSettings,
    token_url: Url,
    http: reqwest::Client,
    max_body: usize,
    /// The client's time limit for one request (named when the provider is too slow).
    timeout: Duration,
    slot: tokio::sync::Mutex<Slot>,
    state: Mutex<TokenState>,
    completed: AtomicU64,
}

impl std::fmt::Debug for TokenSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TokenSource")
            .field("token_url", &self.token_url.as_str())
            .finish_non_exhaustive()
    }
}

/// The shortest and longest token lifetimes believed: whatever `expires_in` or `exp` a
/// provider sends (huge, negative, zero), the lifetime used is within these bounds.
pub const MIN_LIFETIME: Duration = Duration::from_secs(1);
/// See [`MIN_LIFETIME`].
pub const MAX_LIFETIME: Duration = Duration::from_secs(30 * 24 * 3600);

/// A lifetime in seconds from the provider, clamped to [`MIN_LIFETIME`]…[`MAX_LIFETIME`];
/// `None` for something that is not a number (NaN).
fn clamped_lifetime(secs: f64) -> Option<Duration> {
    if secs.is_nan() {
        return None;
    }
    let secs = secs.clamp(MIN_LIFETIME.as_secs_f64(), MAX_LIFETIME.as_secs_f64());
    Some(Duration::from_secs_f64(secs))
}

/// The refresh margin: max(60 s, 10 % of the lifetime), but never more than half of it,
/// so that short-lived tokens are still reused.
pub fn refresh_margin(lifetime: Duration) -> Duration {
    Duration::from_secs(60).max(lifetime / 10).min(lifetime / 2)
}

impl TokenSource {
    /// A token source for these settings; checks the auth URL.
    pub fn new(
        settings: OAuthSettings,
        http: reqwest::Client,
        max_body: usize,
        timeout: Duration,
    ) -> Result<Self, ApiError> {
        let base = http::check_url(&settings.auth_url, Setting::AuthUrl)?;
        let missing = |s| ApiError::invalid(InputError::Missing(s));
        if settings.client_id.trim().is_empty() {
            return Err(missing(Setting::ClientId));
        }
        if settings.client_secret.expose_secret().is_empty() {
            return Err(missing(Setting::ClientSecret));
        }
        if settings.audience.trim().is_empty() {
            return Err(missing(Setting::Audience));
        }
        let token_url = http::endpoint(&base, &["oauth", "token"]);
        Ok(TokenSource {
            settings,
            token_url,
            http,
            max_body,
            timeout,
            slot: tokio::sync::Mutex::new(Slot::default()),
            state: Mutex::new(TokenState::None),
            completed: AtomicU64::new(0),
        })
    }

    /// The token's state, without fetching.
    pub fn state(&self) -> TokenState {
        let state = self
            .state
            .lock()
            .map(|s| s.clone())
            .unwrap_or(TokenState::None);
        match state {
            TokenState::Valid {
                expires_at: Some(t),
            } if t <= Utc::now() => TokenState::None,
            s => s,
        }
    }

    fn set_state(&self, s: TokenState) {
        if let Ok(mut g) = self.state.lock() {
            *g = s;
        }
    }

    /// A token good for a request now: the cached one, or one fetched for all callers
    /// waiting at this moment (single flight).
    pub async fn bearer(&self) -> Result<SecretString, ApiError> {
        let seen = self.completed.load(Ordering::SeqCst);
        let mut slot = self.slot.lock().await;
        let now = Instant::now();
        if let Some(t) = &slot.token
            && t.refresh_at.is_none_or(|r| now < r)
        {
            return Ok(t.value.clone());
        }
        if let Some((n, err)) = &slot.last_failure
            && *n > seen
        {
            return Err(err.clone());
        }
        if let Some(until) = slot.blocked_until
            && now < until
        {
            return Err(ApiError::new(ErrorKind::TokenRateLimited {
                retry_after: Some(until - now),
            }));
        }
        self.set_state(TokenState::Fetching);
        let result = self.fetch().await;
        let n = self.completed.fetch_add(1, Ordering::SeqCst) + 1;
        match result {
            Ok(fresh) => {
                self.set_state(TokenState::Valid {
                    expires_at: fresh.expires_wall,
                });
                let value = fresh.value.clone();
                slot.token = Some(fresh);
                slot.last_failure = None;
                Ok(value)
            }
            Err(err) => {
                if let ErrorKind::TokenRateLimited { retry_after } = &err.kind {
                    slot.blocked_until =
                        Some(Instant::now() + retry_after.unwrap_or(Duration::from_secs(1)));
                }
                slot.last_failure = Some((n, err.clone()));
                // A refresh failed but the old token has not expired: keep using it.
                if let Some(old) = &slot.token
                    && old
                        .expires_at
                        .is_some_and(|e| Instant::now() + Duration::from_secs(1) < e)
                {
                    self.set_state(TokenState::Valid {
                        expires_at: old.expires_wall,
                    });
                    return Ok(old.value.clone());
                }
                slot.token = None;
                self.set_state(TokenState::Failed {
                    reason: err.clone(),
                });
                Err(err)
            }
        }
    }

    /// Drops `rejected` if it is still the cached token (the API answered 401 to it).
    pub async fn invalidate(&self, rejected: &SecretString) {
        let mut slot = self.slot.lock().await;
        if slot
            .token
            .as_ref()
            .is_some_and(|t| t.value.expose_secret() == rejected.expose_secret())
        {
            slot.token = None;
            self.set_state(TokenState::None);
        }
    }

    async fn fetch(&self) -> Result<Cached, ApiError> {
        let s = &self.settings;
        let req = self
            .http
            .post(self.token_url.clone())
            .header("accept", "application/json");
        let req = match s.body_style {
            TokenBodyStyle::Json => req.json(&json!({
                "client_id": s.client_id.trim(),
                "client_secret": s.client_secret.expose_secret(),
                "audience": s.audience.trim(),
                "grant_type": "client_credentials",
            })),
            TokenBodyStyle::Form => {
                let body = url::form_urlencoded::Serializer::new(String::new())
                    .append_pair("grant_type", "client_credentials")
                    .append_pair("client_id", s.client_id.trim())
                    .append_pair("client_secret", s.client_secret.expose_secret())
                    .append_pair("audience", s.audience.trim())
                    .finish();
                req.header("content-type", "application/x-www-form-urlencoded")
                    .body(body)
            }
        };
        let sent_at = Instant::now();
        let resp = req.send().await.map_err(|e| self.unreachable(e))?;
        let status = resp.status().as_u16();
        let headers = resp.headers().clone();
        let body = match http::read_capped(resp, self.max_body).await {
            Ok(b) => b,
            Err(BodyError::TooLarge) => {
                return Err(ApiError::new(ErrorKind::TokenEndpointFailed)
                    .with_status(status)
                    .with_cause("token answer too large"));
            }
            Err(BodyError::Transport(e)) => {
                return Err(self.unreachable(e).with_status(status));
            }
        };
        if !(200..300).contains(&status) {
            return Err(token_failure(status, &headers, &body));
        }
        parse_token(&body, sent_at).map_err(|why| {
            // The body may hold a token: never show it, only what was wrong.
            ApiError::new(ErrorKind::TokenEndpointFailed)
                .with_status(status)
                .with_cause(why)
        })
    }
}

impl TokenSource {
    /// The identity provider gave no (whole) answer: why, in the clerk's terms.
    fn unreachable(&self, e: reqwest::Error) -> ApiError {
        let kind = if let Some(reason) = http::certificate_problem(&e) {
            ErrorKind::CertificateUntrusted { reason }
        } else if e.is_timeout() {
            ErrorKind::TokenEndpointTimeout {
                secs: self.timeout.as_secs().max(1),
            }
        } else {
            ErrorKind::TokenEndpointUnreachable
        };
        ApiError::new(kind).with_source(http::without_url(&e), e)
    }
}

fn parse_token(body: &[u8], sent_at: Instant) -> Result<Cached, String> {
    let v: Value =
        serde_json::from_slice(body).map_err(|_| "the token answer is not JSON".to_string())?;
    let token = v
        .get("access_token")
        .and_then(Value::as_str)
        .filter(|t| !t.is_empty())
        .ok_or_else(|| "the token answer has no access_token".to_string())?;
    if let Some(tt) = v.get("token_type").and_then(Value::as_str)
        && !tt.eq_ignore_ascii_case("bearer")
    {
        return Err(format!(
            "the token type is {}, not Bearer",
            crate::text::escape_controls(tt)
        ));
    }
    // Any number is accepted and clamped (1e300, -5, 0, "3600", 2^64): never a panic,
    // never a token believed for centuries.
    let expires_in = match v.get("expires_in") {
        Some(Value::Number(n)) => n.as_f64().and_then(clamped_lifetime),
        Some(Value::String(s)) => s.trim().parse::<f64>().ok().and_then(clamped_lifetime),
        _ => None,
    };
    let lifetime = expires_in.or_else(|| {
        let exp = jwt_exp(token)?;
        clamped_lifetime(exp.saturating_sub(Utc::now().timestamp()) as f64)
    });
    let now_wall = Utc::now() - chrono::Duration::from_std(sent_at.elapsed()).unwrap_or_default();
    Ok(Cached {
        value: SecretString::from(token.to_string()),
        refresh_at: lifetime.map(|l| sent_at + l - refresh_margin(l)),
        expires_at: lifetime.map(|l| sent_at + l),
        expires_wall: lifetime
            .and_then(|l| chrono::Duration::from_std(l).ok())
            .map(|l| now_wall + l),
    })
}

/// The `exp` claim of a JWT, read without verifying (the service verifies).
pub fn jwt_exp(token: &str) -> Option<i64> {
    let payload = token.split('.').nth(1)?;
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(payload.trim_end_matches('='))
        .ok()?;
    let claims: Value = serde_json::from_slice(&bytes).ok()?;
    match claims.get("exp")? {
        Value::Number(n) => n.as_i64().or_else(|| n.as_f64().map(|f| f as i64)),
        _ => None,
    }
}

fn token_failure(status: u16, headers: &reqwest::header::HeaderMap, body: &[u8]) -> ApiError {
    let v: Value = serde_json::from_slice(body).unwrap_or(Value::Null);
    // The provider's words are escaped here: they reach terminals and labels.
    let esc = |s: &str| crate::text::escape_controls(s).into_owned();
    let code = v.get("error").and_then(Value::as_str).map(esc);
    let desc = v
        .get("error_description")
        .or_else(|| v.get("message"))
        .and_then(Value::as_str)
        .map(esc);
    let lower = desc.clone().unwrap_or_default().to_ascii_lowercase();
    let description = match (&code, &desc) {
        (Some(c), Some(d)) => Some(format!("{c}: {d}")),
        (Some(c), None) => Some(c.clone()),
        (None, d) => d.clone(),
    };
    let kind = match status {
        429 => ErrorKind::TokenRateLimited {
            retry_after: http::retry_after(headers),
        },
        500..=599 => ErrorKind::TokenEndpointFailed,
        400 | 401 | 403 => {
            if lower.contains("service not enabled")
                || lower.contains("audience")
                || matches!(code.as_deref(), Some("invalid_audience" | "invalid_target"))
            {
                ErrorKind::WrongAudience {
                    description: desc.clone(),
                }
            } else if status == 401
                || matches!(
                    code.as_deref(),
                    Some("access_denied" | "invalid_client" | "unauthorized_client")
                )
            {
                ErrorKind::CredentialsRejected {
                    description: desc.clone(),
                }
            } else {
                ErrorKind::TokenRequestRejected { description }
            }
        }
        _ => ErrorKind::TokenEndpointFailed,
    };
    ApiError::new(kind)
        .with_status(status)
        .with_body(body)
        .with_service(desc.as_deref(), code.as_deref())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn margins() {
        assert_eq!(
            refresh_margin(Duration::from_secs(86_400)),
            Duration::from_secs(8_640)
        );
        assert_eq!(
            refresh_margin(Duration::from_secs(300)),
            Duration::from_secs(60)
        );
        assert_eq!(
            refresh_margin(Duration::from_secs(10)),
            Duration::from_secs(5)
        );
    }

    #[test]
    fn reads_jwt_exp() {
        let b = |s: &str| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(s);
        let t = format!(
            "{}.{}.sig",
            b("{\"alg\":\"HS256\"}"),
            b("{\"exp\":1900000000}")
        );
        assert_eq!(jwt_exp(&t), Some(1_900_000_000));
        assert_eq!(jwt_exp("opaque-token"), None);
        for exp in [
            "-9223372036854775808",
            "9223372036854775807",
            "1e300",
            "-1e300",
            "0",
        ] {
            let t = format!(
                "{}.{}.sig",
                b("{\"alg\":\"HS256\"}"),
                b(&format!("{{\"exp\":{exp}}}"))
            );
            let c = parse_token(
                format!(r#"{{"access_token":"{t}"}}"#).as_bytes(),
                Instant::now(),
            )
            .unwrap();
            assert!(c.expires_at.is_some(), "{exp}");
        }
    }

    #[test]
    fn token_answers() {
        let c = parse_token(
            br#"{"access_token":"abc","token_type":"Bearer","expires_in":86400}"#,
            Instant::now(),
        )
        .unwrap();
        assert!(c.refresh_at.is_some());
        let c = parse_token(
            br#"{"access_token":"abc","token_type":"bearer"}"#,
            Instant::now(),
        )
        .unwrap();
        assert!(c.refresh_at.is_none());
        assert!(parse_token(br#"{"token_type":"Bearer"}"#, Instant::now()).is_err());
        // Whatever the provider says about the lifetime: no panic, a bounded lifetime.
        for weird in [
            "1e19",
            "1e20",
            "1e300",
            "9223372036854775807",
            "18446744073709551616",
            "-5",
            "0",
            "0.5",
            "\"3600\"",
            "\"1e400\"",
            "\"NaN\"",
            "\"inf\"",
            "null",
            "true",
            "[]",
        ] {
            let body = format!(r#"{{"access_token":"abc","expires_in":{weird}}}"#);
            let c = parse_token(body.as_bytes(), Instant::now()).unwrap();
            if let Some(e) = c.expires_at {
                assert!(e <= Instant::now() + MAX_LIFETIME, "{weird}");
            }
        }
        assert!(parse_token(b"<html>", Instant::now()).is_err());
        assert!(
            parse_token(
                br#"{"access_token":"abc","token_type":"MAC"}"#,
                Instant::now()
            )
            .is_err()
        );
    }

    #[test]
    fn token_failures_are_named() {
        let h = reqwest::header::HeaderMap::new();
        let e = token_failure(
            401,
            &h,
            br#"{"error":"access_denied","error_description":"Unauthorized"}"#,
        );
        assert!(matches!(e.kind, ErrorKind::CredentialsRejected { .. }));
        let e = token_failure(403, &h, br#"{"error":"access_denied","error_description":"Service not enabled within domain: https://x"}"#);
        assert!(matches!(e.kind, ErrorKind::WrongAudience { .. }));
        let e = token_failure(503, &h, b"");
        assert_eq!(e.kind, ErrorKind::TokenEndpointFailed);
    }
}
