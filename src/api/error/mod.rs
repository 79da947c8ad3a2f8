//! One error type for everything the API layer can fail at: a kind the code can match on
//! and the details an engineer needs. A clerk reads it in the Fluent files' words
//! (`i18n::error_text`, `i18n::error_details`); `Display` is for engineers.

mod input;

pub use input::{CertError, InputError, Setting};

use crate::text::escape_controls;
use std::fmt;
use std::time::Duration;

/// What a lookup was about, for "there is no …" messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resource {
    /// An invoice, by id.
    Invoice(String),
    /// A customer, by id.
    Customer(String),
    /// The account the request was made for (its key is not shown: it may be secret).
    Account,
    /// Something the service did not name.
    Other,
}

/// A request that changes something: what was asked of the service.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// `POST /invoices`.
    Create,
    /// `POST /invoices/{id}/void`.
    Void,
}

/// A problem with one field of a request, as the service's 422 `details` report it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldError {
    /// The field it is about (`amount`, `currency_code`), taken from the end of `loc`.
    pub field: String,
    /// The service's message for it.
    pub message: String,
}

/// What went wrong, for code to decide on (`i18n::error_text` says it in words).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// Refused before anything was sent (empty id, bad URL, invalid field).
    InvalidInput(InputError),
    /// An `http://` address that is not this computer.
    InsecureUrl(String),
    /// The identity provider rejected the client id or secret.
    CredentialsRejected {
        /// The provider's `error_description`, if it gave one.
        description: Option<String>,
    },
    /// The identity provider does not know the audience.
    WrongAudience {
        /// The provider's `error_description`, if it gave one.
        description: Option<String>,
    },
    /// The identity provider refused the token request for another reason.
    TokenRequestRejected {
        /// The provider's `error` and `error_description`.
        description: Option<String>,
    },
    /// The identity provider asks us to slow down.
    TokenRateLimited {
        /// How long to wait, when the provider said.
        retry_after: Option<Duration>,
    },
    /// The identity provider failed (5xx) or sent something that is not a token.
    TokenEndpointFailed,
    /// The identity provider could not be reached.
    TokenEndpointUnreachable,
    /// The identity provider did not answer within the client's time limit.
    TokenEndpointTimeout {
        /// The limit, in seconds.
        secs: u64,
    },
    /// The server's TLS certificate is not trusted by this computer (corporate proxy,
    /// self-signed certificate).
    CertificateUntrusted {
        /// Why.
        reason: CertError,
    },
    /// The service answered 401 (even with a fresh token, or with the API key).
    Unauthorized,
    /// The service answered 403.
    Forbidden,
    /// The service answered 404.
    NotFound(Resource),
    /// The service answered 409: the action does not fit the invoice's state.
    Conflict,
    /// The service answered 422 (or 400) with problems per field.
    Validation {
        /// Each problem, mapped to its field.
        fields: Vec<FieldError>,
    },
    /// The service answered 429.
    RateLimited {
        /// How long to wait, when the service said.
        retry_after: Option<Duration>,
    },
    /// The service failed (5xx).
    ServerError,
    /// Another status the client does not expect.
    UnexpectedStatus,
    /// No answer in time for a request that changes nothing.
    Timeout,
    /// The service could not be reached; the request was not sent.
    Connection,
    /// A read was sent but the connection broke before its answer arrived.
    ConnectionLost,
    /// A create or void was sent and no answer came back: it may or may not have happened.
    OutcomeUnknown(Action),
    /// A create or void was answered with success (2xx), but the answer could not be
    /// read: it was done, and what came of it must be checked, not resent.
    DoneUnreadable(Action),
    /// The answer could not be understood.
    Decode,
    /// The answer was larger than the client accepts.
    TooLarge,
    /// A listing did not end: it repeated a page, or went past the page cap.
    ListingRunaway {
        /// Pages received before stopping.
        pages: u32,
    },
    /// A listing had more invoices than the configured cap.
    ListingTooLong {
        /// The cap.
        cap: u64,
    },
    /// The caller stopped the work.
    Cancelled,
}

/// One of an error's details (see [`ApiError::detail_parts`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Detail {
    /// The HTTP status.
    Status,
    /// The service's own error code.
    ServiceCode,
    /// The service's own message.
    ServiceMessage,
    /// What failed underneath (the network, the decoder).
    Cause,
    /// The start of the answer's body.
    Body,
}

/// An error from the API layer. Its parts ([`ApiError::detail_parts`], labelled in the
/// clerk's language by `i18n::error_details`) are for the "Details" expander (they never
/// hold a secret); the underlying error, when there is one, stays typed behind
/// `std::error::Error::source`.
#[derive(Clone, Debug)]
pub struct ApiError {
    /// What went wrong.
    pub kind: ErrorKind,
    /// The HTTP status, when there was an answer.
    pub status: Option<u16>,
    /// The service's own message (`error.message` or `error_description`).
    pub service_message: Option<String>,
    /// The service's error code (`TK20400`), when given.
    pub service_code: Option<String>,
    /// The start of the answer's body, for engineers.
    pub body: Option<String>,
    /// What the HTTP library said, for engineers.
    pub cause: Option<String>,
    /// The answer was a JSON error in the service's shape (`{"error": …}`), not, say, a
    /// web server's HTML page.
    pub service_shaped: bool,
    /// The error underneath (the HTTP library's), typed.
    source: Option<std::sync::Arc<dyn std::error::Error + Send + Sync>>,
}

impl PartialEq for ApiError {
    /// Equal in everything a caller can read (the typed source is not comparable).
    fn eq(&self, other: &Self) -> bool {
        self.kind == other.kind
            && self.status == other.status
            && self.service_message == other.service_message
            && self.service_code == other.service_code
            && self.body == other.body
            && self.cause == other.cause
            && self.service_shaped == other.service_shaped
    }
}

impl Eq for ApiError {}

impl ApiError {
    /// An error of this kind with no further details.
    pub fn new(kind: ErrorKind) -> Self {
        ApiError {
            kind,
            status: None,
            service_message: None,
            service_code: None,
            body: None,
            cause: None,
            service_shaped: false,
            source: None,
        }
    }

    /// Refused before sending.
    pub fn invalid(problem: InputError) -> Self {
        Self::new(ErrorKind::InvalidInput(problem))
    }

    /// Adds the HTTP status.
    pub fn with_status(mut self, status: u16) -> Self {
        self.status = Some(status);
        self
    }

    /// Adds (the start of) the answer's body.
    pub fn with_body(mut self, body: &[u8]) -> Self {
        const SHOWN: usize = 2000;
        let text = String::from_utf8_lossy(&body[..body.len().min(SHOWN)]);
        // Escaped: the body is the service's text and may hold terminal sequences.
        self.body = if text.is_empty() {
            None
        } else {
            Some(escape_controls(&text).into_owned())
        };
        self
    }

    /// Adds what the HTTP library said.
    pub fn with_cause(mut self, cause: impl fmt::Display) -> Self {
        self.cause = Some(escape_controls(&cause.to_string()).into_owned());
        self
    }

    /// Keeps `source` as this error's typed source, and `cause` (its text, without
    /// anything secret or noisy such as the URL) for the details.
    pub fn with_source(
        mut self,
        cause: impl fmt::Display,
        source: impl std::error::Error + Send + Sync + 'static,
    ) -> Self {
        self = self.with_cause(cause);
        self.source = Some(std::sync::Arc::new(source));
        self
    }

    /// Adds the service's own message and code (escaped: they are the service's text).
    pub fn with_service(mut self, message: Option<&str>, code: Option<&str>) -> Self {
        self.service_message = message.map(|m| escape_controls(m).into_owned());
        self.service_code = code.map(|c| escape_controls(c).into_owned());
        self
    }

    /// True when the request may have taken effect and must be checked, not resent:
    /// no answer came back, or a success answer could not be read.
    pub fn is_outcome_unknown(&self) -> bool {
        matches!(
            self.kind,
            ErrorKind::OutcomeUnknown(_) | ErrorKind::DoneUnreadable(_)
        )
    }

    /// True for failures to authenticate (token endpoint, 401, 403).
    pub fn is_auth(&self) -> bool {
        matches!(
            self.kind,
            ErrorKind::CredentialsRejected { .. }
                | ErrorKind::WrongAudience { .. }
                | ErrorKind::TokenRequestRejected { .. }
                | ErrorKind::TokenRateLimited { .. }
                | ErrorKind::TokenEndpointFailed
                | ErrorKind::TokenEndpointUnreachable
                | ErrorKind::TokenEndpointTimeout { .. }
                | ErrorKind::Unauthorized
                | ErrorKind::Forbidden
        )
    }

    /// True for network failures and timeouts.
    pub fn is_network(&self) -> bool {
        matches!(
            self.kind,
            ErrorKind::Timeout
                | ErrorKind::Connection
                | ErrorKind::ConnectionLost
                | ErrorKind::CertificateUntrusted { .. }
        )
    }

    /// The per-field problems of a validation error (empty otherwise).
    pub fn field_errors(&self) -> &[FieldError] {
        match &self.kind {
            ErrorKind::Validation { fields } => fields,
            _ => &[],
        }
    }

    /// The details that are known, in order: status, service code and message, cause,
    /// body (the service's text as kept: escaped).
    pub fn detail_parts(&self) -> Vec<(Detail, String)> {
        [
            (Detail::Status, self.status.map(|s| s.to_string())),
            (Detail::ServiceCode, self.service_code.clone()),
            (Detail::ServiceMessage, self.service_message.clone()),
            (Detail::Cause, self.cause.clone()),
            (Detail::Body, self.body.clone()),
        ]
        .into_iter()
        .filter_map(|(d, v)| v.map(|v| (d, v)))
        .collect()
    }
}

/// For engineers (a test's failure, a panic): the kind and the status. People read
/// `i18n::error_text`, and `i18n::error_details` under Details: one text per error.
impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&escape_controls(&format!("{:?}", self.kind)))?;
        match self.status {
            Some(s) => write!(f, " (HTTP {s})"),
            None => Ok(()),
        }
    }
}

impl std::error::Error for ApiError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source
            .as_deref()
            .map(|e| e as &(dyn std::error::Error + 'static))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a clerk reads comes from the Fluent files (English: no test sets the language);
    /// `Display` is the engineers' kind and status.
    #[test]
    fn people_read_fluent_words_engineers_the_kind() {
        let words = crate::i18n::error_text;
        let e =
            ApiError::new(ErrorKind::NotFound(Resource::Invoice("in_1".into()))).with_status(404);
        assert_eq!(e.to_string(), "NotFound(Invoice(\"in_1\")) (HTTP 404)");
        assert!(words(&e).contains("in_1"), "{}", words(&e));
        let e = ApiError::new(ErrorKind::Validation {
            fields: vec![FieldError {
                field: "amount".into(),
                message: "field required".into(),
            }],
        });
        assert!(words(&e).contains("Check: Amount"), "{}", words(&e));
        for (secs, said) in [
            (5, "5 seconds"),
            (1, "in 1 second."),
            (130, "about 3 minutes"),
        ] {
            let e = ApiError::new(ErrorKind::RateLimited {
                retry_after: Some(Duration::from_secs(secs)),
            });
            assert!(words(&e).contains(said), "{}", words(&e));
        }
        let e = ApiError::new(ErrorKind::ListingRunaway { pages: 1 });
        assert!(words(&e).contains("after 1 page."), "{}", words(&e));
    }

    #[test]
    fn service_text_is_escaped() {
        let e = ApiError::new(ErrorKind::ServerError)
            .with_service(Some("\x1b]0;PWNED\x07\r\nFAKE"), Some("TK\x1b[2J"))
            .with_body(b"\x1b[2Jbody\nline")
            .with_cause("cause\u{202e}");
        let details = crate::i18n::error_details_in(crate::i18n::Lang::En, &e);
        let all = format!("{e}\n{details}");
        assert!(!all.contains('\x1b') && !all.contains('\r') && !all.contains('\u{202e}'));
        assert!(all.contains("\\x1b]0;PWNED"), "{all}");
    }
}
