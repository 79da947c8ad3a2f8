//! One error type for everything the API layer can fail at: a sentence a clerk can read
//! (`Display`), a kind the code can match on, and the details an engineer needs.

mod input;

pub use input::{CertProblem, InputProblem, Setting};

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

impl Action {
    /// The action in English words, for the CLI and logs.
    pub fn words(self) -> &'static str {
        match self {
            Action::Create => "create the invoice",
            Action::Void => "void the invoice",
        }
    }
}

/// A problem with one field of a request, as the service's 422 `details` report it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldError {
    /// The field it is about (`amount`, `currency_code`), taken from the end of `loc`.
    pub field: String,
    /// The service's message for it.
    pub message: String,
}

/// What went wrong, for code to decide on; [`ApiError`]'s `Display` says it in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// Refused before anything was sent (empty id, bad URL, invalid field).
    InvalidInput(InputProblem),
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
        reason: CertProblem,
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

/// An error from the API layer. `Display` is the clerk's sentence; [`ApiError::details`]
/// (its labels in the clerk's language: `i18n::error_details`) is for the "Details"
/// expander and logs (never holds a secret); the underlying error,
/// when there is one, stays typed behind `std::error::Error::source`.
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
    pub fn invalid(problem: InputProblem) -> Self {
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

    /// Status, service code and message, cause and body, one per line, labelled in
    /// English for engineers (the clerk's labels: `i18n::error_details`); the kind when
    /// none is known.
    pub fn details(&self) -> String {
        let parts = self.detail_parts();
        if parts.is_empty() {
            return format!("{:?}", self.kind);
        }
        parts
            .iter()
            .map(|(d, v)| {
                let label = match d {
                    Detail::Status => "HTTP status",
                    Detail::ServiceCode => "Service code",
                    Detail::ServiceMessage => "Service message",
                    Detail::Cause => "Cause",
                    Detail::Body => "Body",
                };
                format!("{label}: {v}")
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn service_suffix(&self) -> String {
        match &self.service_message {
            Some(m) if !m.trim().is_empty() => format!(" The service said: \"{}\".", m.trim()),
            _ => String::new(),
        }
    }
}

fn plural(n: u64, one: &str, many: &str) -> String {
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {many}")
    }
}

fn wait_words(d: &Option<Duration>) -> String {
    match d {
        Some(d) if d.as_secs() >= 120 => {
            format!(
                " Try again in about {}.",
                plural(d.as_secs().div_ceil(60), "minute", "minutes")
            )
        }
        Some(d) => format!(
            " Try again in {}.",
            plural(d.as_secs().max(1), "second", "seconds")
        ),
        None => " Try again in a moment.".to_string(),
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let said = self.service_suffix();
        match &self.kind {
            ErrorKind::InvalidInput(p) => write!(f, "{p}"),
            ErrorKind::InsecureUrl(u) => write!(
                f,
                "The address {u} is not secure. Use an https:// address (http:// is only allowed for this computer)."
            ),
            ErrorKind::CredentialsRejected { description } => {
                write!(
                    f,
                    "The identity provider rejected the client id or client secret. Check them in the profile."
                )?;
                if let Some(d) = description {
                    write!(f, " It said: \"{d}\".")?;
                }
                Ok(())
            }
            ErrorKind::WrongAudience { description } => {
                write!(
                    f,
                    "The identity provider does not accept the audience set in the profile. Check the audience with the service operator."
                )?;
                if let Some(d) = description {
                    write!(f, " It said: \"{d}\".")?;
                }
                Ok(())
            }
            ErrorKind::TokenRequestRejected { description } => {
                write!(f, "The identity provider refused to issue a token.")?;
                if let Some(d) = description {
                    write!(f, " It said: \"{d}\".")?;
                }
                Ok(())
            }
            ErrorKind::TokenRateLimited { retry_after } => write!(
                f,
                "The identity provider is limiting how often we sign in.{}",
                wait_words(retry_after)
            ),
            ErrorKind::TokenEndpointFailed => {
                write!(
                    f,
                    "The identity provider failed to issue a token. Try again later."
                )
            }
            ErrorKind::TokenEndpointUnreachable => write!(
                f,
                "The identity provider could not be reached. Check the network connection and the auth URL."
            ),
            ErrorKind::TokenEndpointTimeout { secs } => write!(
                f,
                "The identity provider did not answer within {secs} s. Try again later; if it keeps happening, tell the service operator."
            ),
            ErrorKind::CertificateUntrusted { reason } => write!(
                f,
                "The server's certificate is not trusted by this computer ({reason}). If your organisation inspects secure traffic, ask IT to install its certificate on this computer."
            ),
            ErrorKind::Unauthorized => write!(
                f,
                "The service did not accept our credentials. Check the profile's credentials.{said}"
            ),
            ErrorKind::Forbidden => write!(
                f,
                "These credentials are not allowed to do this. Ask the service operator for access.{said}"
            ),
            ErrorKind::NotFound(Resource::Invoice(id)) => {
                write!(f, "There is no invoice with id {id}.{said}")
            }
            ErrorKind::NotFound(Resource::Customer(id)) => {
                write!(f, "There is no customer with id {id}.{said}")
            }
            ErrorKind::NotFound(Resource::Account) => {
                write!(f, "The service does not know this account key.{said}")
            }
            ErrorKind::NotFound(Resource::Other) => write!(f, "There is no such resource.{said}"),
            ErrorKind::Conflict => write!(
                f,
                "The service refused: this does not fit the invoice's current state.{said}"
            ),
            ErrorKind::Validation { fields } => {
                write!(f, "The service did not accept the data.")?;
                for fe in fields {
                    write!(f, " {}: {}.", fe.field, fe.message.trim_end_matches('.'))?;
                }
                if fields.is_empty() {
                    write!(f, "{said}")?;
                }
                Ok(())
            }
            ErrorKind::RateLimited { retry_after } => {
                write!(
                    f,
                    "The service is busy and asks us to slow down.{}",
                    wait_words(retry_after)
                )
            }
            ErrorKind::ServerError => write!(
                f,
                "The service had an internal problem. Try again later.{said}"
            ),
            ErrorKind::UnexpectedStatus => write!(
                f,
                "The service answered in an unexpected way (status {}).{said}",
                self.status
                    .map_or_else(|| "unknown".to_string(), |s| s.to_string())
            ),
            ErrorKind::Timeout => write!(f, "The service did not answer in time. Try again."),
            ErrorKind::Connection => write!(
                f,
                "The service could not be reached. Check the network connection and the base URL. Nothing was sent."
            ),
            ErrorKind::ConnectionLost => write!(
                f,
                "The connection to the service broke before its answer arrived. Try again."
            ),
            ErrorKind::OutcomeUnknown(action) => write!(
                f,
                "The request to {} was sent but no answer came back, so we do not know whether it happened. Check before trying again.",
                action.words()
            ),
            ErrorKind::DoneUnreadable(action) => write!(
                f,
                "The service accepted the request to {} (it answered with success), but its answer could not be read. It was most likely done: check the result before trying again.",
                action.words()
            ),
            ErrorKind::Decode => write!(f, "The service's answer could not be understood."),
            ErrorKind::TooLarge => write!(f, "The service's answer was too large to accept."),
            ErrorKind::ListingRunaway { pages } => write!(
                f,
                "The list of invoices did not end: the service kept sending more pages, so we stopped after {}.",
                plural(u64::from(*pages), "page", "pages")
            ),
            ErrorKind::ListingTooLong { cap } => write!(
                f,
                "The list has more than {cap} invoices, the most read at once; we stopped there."
            ),
            ErrorKind::Cancelled => write!(f, "Cancelled."),
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

    #[test]
    fn messages_are_sentences() {
        let e =
            ApiError::new(ErrorKind::NotFound(Resource::Invoice("in_1".into()))).with_status(404);
        assert_eq!(e.to_string(), "There is no invoice with id in_1.");
        let e = ApiError::new(ErrorKind::Validation {
            fields: vec![FieldError {
                field: "amount".into(),
                message: "field required".into(),
            }],
        });
        assert_eq!(
            e.to_string(),
            "The service did not accept the data. amount: field required."
        );
        let e = ApiError::new(ErrorKind::RateLimited {
            retry_after: Some(Duration::from_secs(5)),
        });
        assert!(e.to_string().contains("5 seconds"));
        assert!(e.details().contains("RateLimited"));
        let e = ApiError::new(ErrorKind::RateLimited {
            retry_after: Some(Duration::from_secs(1)),
        });
        assert!(e.to_string().contains("in 1 second."), "{e}");
        let e = ApiError::new(ErrorKind::RateLimited {
            retry_after: Some(Duration::from_secs(130)),
        });
        assert!(e.to_string().contains("about 3 minutes"), "{e}");
        let e = ApiError::new(ErrorKind::ListingRunaway { pages: 1 });
        assert!(e.to_string().contains("after 1 page."), "{e}");
    }

    #[test]
    fn service_text_is_escaped() {
        let e = ApiError::new(ErrorKind::ServerError)
            .with_service(Some("\x1b]0;PWNED\x07\r\nFAKE"), Some("TK\x1b[2J"))
            .with_body(b"\x1b[2Jbody\nline")
            .with_cause("cause\u{202e}");
        let all = format!("{e}\n{}", e.details());
        assert!(!all.contains('\x1b') && !all.contains('\r') && !all.contains('\u{202e}'));
        assert!(all.contains("\\x1b]0;PWNED"), "{all}");
    }
}
