//! Reading the service's answers: an invoice (possibly in an envelope), a write's
//! success that cannot be read, and a non-2xx answer mapped to an [`ApiError`].

use crate::api::error::{Action, ApiError, ErrorKind, FieldError, Resource};
use crate::api::http;
use crate::api::model::Invoice;
use serde_json::Value;

pub(super) fn not_found_as(mut e: ApiError, what: Resource) -> ApiError {
    if let ErrorKind::NotFound(r) = &mut e.kind {
        *r = what;
    }
    e
}

/// What a create's "not found" is about: the customer (`TK20400`) or the account
/// (`TK20100`) by the service's code, else by what its message names. Here, so the app,
/// the CLI and billing runs all say "there is no customer cus_…".
pub(super) fn create_not_found(mut e: ApiError, customer: &str) -> ApiError {
    if !matches!(e.kind, ErrorKind::NotFound(_)) {
        return e;
    }
    let message = e
        .service_message
        .as_deref()
        .unwrap_or("")
        .to_ascii_lowercase();
    let what = match e.service_code.as_deref() {
        Some("TK20400") => Resource::Customer(customer.to_string()),
        Some("TK20100") => Resource::Account,
        _ if message.contains("customer") || message.contains("cliente") => {
            Resource::Customer(customer.to_string())
        }
        _ if message.contains("account") || message.contains("cuenta") => Resource::Account,
        _ => return e,
    };
    e.kind = ErrorKind::NotFound(what);
    e
}

/// The invoice in a success answer to a create or void. The service did what was asked,
/// so an answer that cannot be read is "done, check the result", never a plain failure
/// that a clerk would retry.
pub(super) fn decode_written(body: &[u8], action: Action) -> Result<Invoice, ApiError> {
    decode_invoice(body).map_err(|e| {
        let mut done = ApiError::new(ErrorKind::DoneUnreadable(action));
        done.body = e.body;
        done.cause = e.cause;
        done
    })
}

/// One invoice from an answer's body (possibly wrapped in an envelope).
pub(super) fn decode_invoice(body: &[u8]) -> Result<Invoice, ApiError> {
    let parsed = match serde_json::from_slice(body) {
        // A bad byte in one field is read lossily (shown as "�"), as in listings.
        Err(_) if std::str::from_utf8(body).is_err() => {
            serde_json::from_str(&String::from_utf8_lossy(body))
        }
        other => other,
    };
    let v: Value = parsed.map_err(|e| {
        ApiError::new(ErrorKind::Decode)
            .with_body(body)
            .with_cause(e)
    })?;
    Invoice::from_value(unwrap_envelope(v)).map_err(|e| e.with_body(body))
}

/// Some services wrap the object: `{"data": {...}}` or `{"invoice": {...}}`.
fn unwrap_envelope(v: Value) -> Value {
    match v {
        Value::Object(mut o) if !o.contains_key("id") => {
            for key in ["invoice", "data"] {
                if matches!(o.get(key), Some(Value::Object(inner)) if inner.contains_key("id")) {
                    return o.shift_remove(key).unwrap_or_default();
                }
            }
            Value::Object(o)
        }
        other => other,
    }
}

/// Maps a non-2xx answer of the service to an error.
pub(crate) fn api_error(
    status: u16,
    headers: &reqwest::header::HeaderMap,
    body: &[u8],
) -> ApiError {
    let v: Value = serde_json::from_slice(body).unwrap_or(Value::Null);
    let err = v.get("error");
    // The service's errors are JSON objects with `error` (or `message`/`detail`); a web
    // server's HTML page is not.
    let service_shaped =
        v.is_object() && (err.is_some() || v.get("message").is_some() || v.get("detail").is_some());
    let message = err
        .and_then(|e| e.get("message"))
        .or_else(|| err.filter(|e| e.is_string()))
        .or_else(|| v.get("message"))
        .and_then(Value::as_str)
        .map(str::to_string);
    let code = err
        .and_then(|e| e.get("code"))
        .and_then(Value::as_str)
        .map(str::to_string);
    let details = err
        .and_then(|e| e.get("details"))
        .or_else(|| v.get("detail"))
        .or_else(|| v.get("details"))
        .and_then(Value::as_array);
    let fields: Vec<FieldError> = details
        .map(|d| {
            d.iter()
                .map(|item| {
                    let field = item
                        .get("loc")
                        .and_then(Value::as_array)
                        .and_then(|loc| {
                            loc.iter()
                                .rev()
                                .find_map(|p| p.as_str().filter(|s| *s != "body"))
                        })
                        .or_else(|| item.get("field").and_then(Value::as_str))
                        .unwrap_or("request")
                        .to_string();
                    let message = item
                        .get("msg")
                        .or_else(|| item.get("message"))
                        .and_then(Value::as_str)
                        .unwrap_or("not accepted")
                        .to_string();
                    FieldError {
                        field: crate::text::escape_controls(&field).into_owned(),
                        message: crate::text::escape_controls(&message).into_owned(),
                    }
                })
                .collect()
        })
        .unwrap_or_default();
    let kind = match status {
        401 => ErrorKind::Unauthorized,
        403 => ErrorKind::Forbidden,
        404 => ErrorKind::NotFound(Resource::Other),
        409 => ErrorKind::Conflict,
        400 | 422 => ErrorKind::Validation { fields },
        429 => ErrorKind::RateLimited {
            retry_after: http::retry_after(headers),
        },
        500..=599 => ErrorKind::ServerError,
        _ => ErrorKind::UnexpectedStatus,
    };
    let mut e = ApiError::new(kind)
        .with_status(status)
        .with_body(body)
        .with_service(message.as_deref(), code.as_deref());
    e.service_shaped = service_shaped;
    e
}
