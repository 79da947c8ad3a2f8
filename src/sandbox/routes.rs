//! The sandbox's HTTP routes: token issuer, invoice API, loopback-only admin.

use super::data::{Data, StoredInvoice};
use super::{Counters, Fault, FaultKind, Route, Shared};
use crate::api::money::{self, Currency};
use axum::body::{Body, Bytes};
use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use base64::Engine;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

type Shared_ = Arc<Shared>;

/// The invoice API (and the token issuer when `with_auth`) plus admin routes.
pub(crate) fn router(shared: Shared_, with_auth: bool) -> Router {
    let mut r = Router::new()
        .route("/invoices", post(create))
        .route("/invoice/{id}", get(get_invoice))
        .route("/invoices/{id}/void", post(void))
        .route("/invoices/customer/{id}", get(list))
        .route("/admin/state", get(admin_state))
        .route("/admin/knobs", post(admin_knobs))
        .route("/admin/faults", post(admin_add_fault))
        .route("/admin/faults", delete(admin_clear_faults))
        .route("/admin/revoke-tokens", post(admin_revoke))
        .route("/admin/counters/reset", post(admin_reset_counters));
    if with_auth {
        r = r.route("/oauth/token", post(token));
    }
    r.fallback(|| async { error(StatusCode::NOT_FOUND, "TK00000", "no such route") })
        .with_state(shared)
}

/// The token issuer alone, for a separate port.
pub(crate) fn auth_router(shared: Shared_) -> Router {
    Router::new()
        .route("/oauth/token", post(token))
        .with_state(shared)
}

fn now_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// The service's error body: `{"error": {"message", "code"}}`.
fn error(status: StatusCode, code: &str, message: &str) -> Response {
    (
        status,
        Json(json!({"error": {"message": message, "code": code}})),
    )
        .into_response()
}

/// A 422 with `details`, each pointing at its field through `loc`.
fn invalid(details: Vec<(&[&str], String, &str)>) -> Response {
    let details: Vec<Value> = details
        .into_iter()
        .map(|(loc, msg, kind)| json!({"loc": loc, "msg": msg, "type": kind}))
        .collect();
    (
        StatusCode::UNPROCESSABLE_ENTITY,
        Json(json!({"error": {"code": "TK30000", "message": "validation error", "details": details}})),
    )
        .into_response()
}

fn oauth_error(status: StatusCode, code: &str, description: &str) -> Response {
    (
        status,
        Json(json!({"error": code, "error_description": description})),
    )
        .into_response()
}

/// What a planned fault does after the work is done.
enum After {
    Nothing,
    Reset,
    Hang(Duration),
}

/// Counts the request, adds latency, and takes a planned fault. `Err` is an answer to
/// give before doing anything.
async fn gate(shared: &Shared, route: Route) -> Result<After, Response> {
    let name = match route {
        Route::Token => "token",
        Route::Create => "create",
        Route::Get => "get",
        Route::Void => "void",
        Route::List => "list",
    };
    if let Ok(mut c) = shared.counters.lock() {
        if route == Route::Token {
            c.token_requests += 1;
        } else {
            *c.api.entry(name.to_string()).or_default() += 1;
        }
    }
    let (latency, fault) = match shared.knobs.lock() {
        Ok(mut k) => {
            let fault = k
                .faults
                .iter_mut()
                .find(|f| f.route == route && f.count > 0)
                .map(|f| {
                    f.count -= 1;
                    f.clone()
                });
            k.faults.retain(|f| f.count > 0);
            (k.latency, fault)
        }
        Err(_) => (Duration::ZERO, None),
    };
    if !latency.is_zero() {
        tokio::time::sleep(latency).await;
    }
    match fault {
        None => Ok(After::Nothing),
        Some(f) => match f.kind {
            FaultKind::Status => {
                let status =
                    StatusCode::from_u16(f.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
                Err(error(status, "TK00000", "fault injected by the sandbox"))
            }
            FaultKind::RateLimit => {
                let mut r = error(
                    StatusCode::TOO_MANY_REQUESTS,
                    "TK00000",
                    "too many requests",
                );
                if let Ok(v) = f.secs.to_string().parse() {
                    r.headers_mut().insert(header::RETRY_AFTER, v);
                }
                Err(r)
            }
            FaultKind::Reset => Ok(After::Reset),
            FaultKind::Hang => Ok(After::Hang(Duration::from_secs(f.secs))),
        },
    }
}

/// Applies the after-work part of a fault to an answer.
async fn finish(after: After, response: Response) -> Response {
    match after {
        After::Nothing => response,
        After::Hang(d) => {
            tokio::time::sleep(d).await;
            response
        }
        After::Reset => {
            // Headers go out, then the body fails: the connection is cut mid-answer.
            let stream = futures_util::stream::once(async {
                Err::<Bytes, std::io::Error>(std::io::Error::new(
                    std::io::ErrorKind::ConnectionReset,
                    "sandbox fault: reset",
                ))
            });
            let mut r = Response::new(Body::from_stream(stream));
            *r.status_mut() = response.status();
            r
        }
    }
}

#[derive(Serialize, Deserialize)]
struct Claims {
    iss: String,
    sub: String,
    aud: String,
    iat: u64,
    exp: u64,
    org: String,
    generation: u64,
}

async fn token(State(shared): State<Shared_>, headers: HeaderMap, body: Bytes) -> Response {
    let after = match gate(&shared, Route::Token).await {
        Ok(a) => a,
        Err(r) => return r,
    };
    let form = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/x-www-form-urlencoded"));
    let fields: HashMap<String, String> = if form {
        url::form_urlencoded::parse(&body).into_owned().collect()
    } else {
        match serde_json::from_slice::<Map<String, Value>>(&body) {
            Ok(m) => m
                .into_iter()
                .filter_map(|(k, v)| v.as_str().map(|s| (k, s.to_string())))
                .collect(),
            Err(_) => {
                return oauth_error(
                    StatusCode::BAD_REQUEST,
                    "invalid_request",
                    "The body must be a JSON object.",
                );
            }
        }
    };
    let field = |k: &str| fields.get(k).map(String::as_str).unwrap_or("");
    match field("grant_type") {
        "client_credentials" => {}
        "" => {
            return oauth_error(
                StatusCode::BAD_REQUEST,
                "invalid_request",
                "Missing required parameter: grant_type",
            );
        }
        _ => {
            return oauth_error(
                StatusCode::BAD_REQUEST,
                "unsupported_grant_type",
                "Unsupported grant type",
            );
        }
    }
    if field("client_id").is_empty() || field("client_secret").is_empty() {
        return oauth_error(StatusCode::UNAUTHORIZED, "access_denied", "Unauthorized");
    }
    let org = {
        let Ok(d) = shared.data.lock() else {
            return oauth_error(
                StatusCode::INTERNAL_SERVER_ERROR,
                "server_error",
                "internal error",
            );
        };
        match d.org_by_client(field("client_id")) {
            Some(o) if o.oauth_enabled && o.client_secret == field("client_secret") => o.id.clone(),
            _ => return oauth_error(StatusCode::UNAUTHORIZED, "access_denied", "Unauthorized"),
        }
    };
    if field("audience") != shared.audience {
        return oauth_error(
            StatusCode::FORBIDDEN,
            "access_denied",
            &format!("Service not enabled within domain: {}", field("audience")),
        );
    }
    let (lifetime, generation) = shared
        .knobs
        .lock()
        .map(|k| (k.token_lifetime, k.token_generation))
        .unwrap_or_default();
    let iat = now_secs();
    let claims = Claims {
        iss: shared.issuer.clone(),
        sub: field("client_id").to_string(),
        aud: shared.audience.clone(),
        iat,
        exp: iat + lifetime.as_secs().max(1),
        org,
        generation,
    };
    let jwt = match jsonwebtoken::encode(
        &jsonwebtoken::Header::default(),
        &claims,
        &jsonwebtoken::EncodingKey::from_secret(&shared.jwt_key),
    ) {
        Ok(t) => t,
        Err(_) => {
            return oauth_error(
                StatusCode::INTERNAL_SERVER_ERROR,
                "server_error",
                "could not sign",
            );
        }
    };
    if let Ok(mut c) = shared.counters.lock() {
        c.tokens_issued += 1;
    }
    let body = json!({"access_token": jwt, "token_type": "Bearer", "expires_in": lifetime.as_secs().max(1)});
    finish(after, Json(body).into_response()).await
}

/// The start of every API route: counters, latency and planned faults, then who calls.
async fn admit(
    shared: &Shared,
    route: Route,
    headers: &HeaderMap,
) -> Result<(After, String), Response> {
    let after = gate(shared, route).await?;
    let org = authorize(shared, headers)?;
    Ok((after, org))
}

/// Who is calling: the organization from a valid token, or from an API key of an
/// organization without OAuth.
fn authorize(shared: &Shared, headers: &HeaderMap) -> Result<String, Response> {
    if let Some(auth) = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
    {
        let Some(token) = auth
            .strip_prefix("Bearer ")
            .or_else(|| auth.strip_prefix("bearer "))
        else {
            return Err(error(
                StatusCode::UNAUTHORIZED,
                "TK10001",
                "Authorization header must be a Bearer token",
            ));
        };
        let mut validation = jsonwebtoken::Validation::new(jsonwebtoken::Algorithm::HS256);
        validation.set_audience(&[&shared.audience]);
        validation.set_issuer(&[&shared.issuer]);
        validation.leeway = 0;
        let claims = jsonwebtoken::decode::<Claims>(
            token.trim(),
            &jsonwebtoken::DecodingKey::from_secret(&shared.jwt_key),
            &validation,
        )
        .map_err(|e| {
            let why = match e.kind() {
                jsonwebtoken::errors::ErrorKind::ExpiredSignature => "token expired",
                jsonwebtoken::errors::ErrorKind::InvalidAudience => "token audience not accepted",
                _ => "invalid token",
            };
            error(StatusCode::UNAUTHORIZED, "TK10001", why)
        })?
        .claims;
        let current = shared.knobs.lock().map(|k| k.token_generation).unwrap_or(0);
        if claims.generation < current {
            return Err(error(StatusCode::UNAUTHORIZED, "TK10001", "token revoked"));
        }
        return Ok(claims.org);
    }
    if let Some(key) = headers.get("x-api-key").and_then(|v| v.to_str().ok()) {
        let d = shared.data.lock().map_err(|_| {
            error(
                StatusCode::INTERNAL_SERVER_ERROR,
                "TK00000",
                "internal error",
            )
        })?;
        return match d.orgs.iter().find(|o| o.api_key == key.trim()) {
            Some(o) if o.oauth_enabled => Err(error(
                StatusCode::UNAUTHORIZED,
                "TK10002",
                "API-key authentication is disabled for this organization: OAuth is enabled",
            )),
            Some(o) => Ok(o.id.clone()),
            None => Err(error(
                StatusCode::UNAUTHORIZED,
                "TK10002",
                "API key missing or malformed",
            )),
        };
    }
    Err(error(
        StatusCode::UNAUTHORIZED,
        "TK10002",
        "API key missing or malformed",
    ))
}

/// Persists after a change; on failure undoes it with `undo` and answers 500.
fn persist(shared: &Shared, data: &mut Data, undo: impl FnOnce(&mut Data)) -> Result<(), Response> {
    let Some(path) = &shared.data_file else {
        return Ok(());
    };
    if let Err(e) = data.save(path) {
        undo(data);
        return Err(error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "TK20000",
            &format!("storage failed: {e}"),
        ));
    }
    Ok(())
}

async fn create(State(shared): State<Shared_>, headers: HeaderMap, body: Bytes) -> Response {
    let (after, org) = match admit(&shared, Route::Create, &headers).await {
        Ok(x) => x,
        Err(r) => return r,
    };
    let response = match create_invoice(&shared, &org, &headers, &body) {
        Ok(v) => (StatusCode::CREATED, Json(v)).into_response(),
        Err(r) => r,
    };
    finish(after, response).await
}

fn create_invoice(
    shared: &Shared,
    org: &str,
    headers: &HeaderMap,
    body: &[u8],
) -> Result<Value, Response> {
    let Ok(Value::Object(mut fields)) = serde_json::from_slice::<Value>(body) else {
        return Err(invalid(vec![(
            &["body"],
            "body must be a JSON object".into(),
            "type_error.dict",
        )]));
    };
    let account_key = headers
        .get("x-account-key")
        .and_then(|v| v.to_str().ok())
        .map(str::trim)
        .unwrap_or("");
    if account_key.is_empty() {
        return Err(invalid(vec![(
            &["header", "x-account-key"],
            "field required".into(),
            "value_error.missing",
        )]));
    }
    let mut data = shared.data.lock().map_err(|_| {
        error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "TK00000",
            "internal error",
        )
    })?;
    let account = match data.account(account_key) {
        Some(a) if a.org == org => a.clone(),
        _ => return Err(error(StatusCode::NOT_FOUND, "TK20100", "account not found")),
    };
    let mut problems: Vec<(&[&str], String, &str)> = Vec::new();
    // Rules 1–3 of the interface: explicit currency_code wins, absent means the account's.
    let currency = match fields.shift_remove("currency_code") {
        None => Some(account.currency),
        Some(Value::String(s)) if s == "CLP" || s == "CLF" => Currency::from_code(&s),
        Some(_) => {
            problems.push((
                &["body", "currency_code"],
                "currency_code must be CLP or CLF".into(),
                "value_error.const",
            ));
            None
        }
    };
    let amount = match fields.shift_remove("amount") {
        None | Some(Value::Null) => {
            problems.push((
                &["body", "amount"],
                "field required".into(),
                "value_error.missing",
            ));
            None
        }
        Some(v @ Value::Number(_)) => match money::from_json(&v) {
            Some(a) if a > rust_decimal::Decimal::ZERO => Some(a),
            _ => {
                problems.push((
                    &["body", "amount"],
                    "amount must be greater than zero".into(),
                    "value_error.number",
                ));
                None
            }
        },
        Some(_) => {
            problems.push((
                &["body", "amount"],
                "amount must be a number".into(),
                "type_error.number",
            ));
            None
        }
    };
    if let (Some(a), Some(c)) = (amount, currency)
        && a.normalize().scale() > c.minor_units()
    {
        let msg = match c {
            Currency::Clp => "CLP amounts must be whole pesos".to_string(),
            Currency::Clf => "CLF amounts can have at most 4 decimals".to_string(),
        };
        problems.push((&["body", "amount"], msg, "value_error.decimal"));
    }
    let customer = match fields.shift_remove("customer") {
        Some(Value::String(s)) if !s.trim().is_empty() => Some(s),
        None => {
            problems.push((
                &["body", "customer"],
                "field required".into(),
                "value_error.missing",
            ));
            None
        }
        Some(_) => {
            problems.push((
                &["body", "customer"],
                "customer must be a string".into(),
                "type_error.str",
            ));
            None
        }
    };
    let text = |fields: &mut Map<String, Value>,
                key: &'static str,
                problems: &mut Vec<(&[&str], String, &str)>|
     -> Option<String> {
        match fields.shift_remove(key) {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s),
            Some(_) => {
                let loc: &'static [&'static str] = match key {
                    "product_id" => &["body", "product_id"],
                    "due_date" => &["body", "due_date"],
                    _ => &["body", "invoice_external_id"],
                };
                problems.push((loc, format!("{key} must be a string"), "type_error.str"));
                None
            }
        }
    };
    let product_id = text(&mut fields, "product_id", &mut problems);
    let due_date = text(&mut fields, "due_date", &mut problems);
    if let Some(d) = &due_date
        && chrono::NaiveDate::parse_from_str(d, "%Y-%m-%d").is_err()
    {
        problems.push((
            &["body", "due_date"],
            "due_date must be a date YYYY-MM-DD".into(),
            "value_error.date",
        ));
    }
    let external = text(&mut fields, "invoice_external_id", &mut problems);
    let metadata = match fields.shift_remove("metadata") {
        None | Some(Value::Null) => None,
        Some(Value::Object(m)) => {
            if m.values()
                .any(|v| crate::api::model::value_text(v).chars().count() > 256)
            {
                problems.push((
                    &["body", "metadata"],
                    "metadata values are limited to 256 characters".into(),
                    "value_error.any_str.max_length",
                ));
            }
            Some(m)
        }
        Some(_) => {
            problems.push((
                &["body", "metadata"],
                "metadata must be an object".into(),
                "type_error.dict",
            ));
            None
        }
    };
    for reserved in ["id", "is_paid", "is_void", "link_payment", "created_at"] {
        fields.shift_remove(reserved);
    }
    if !problems.is_empty() {
        return Err(invalid(problems));
    }
    let (Some(amount), Some(currency), Some(customer)) = (amount, currency, customer) else {
        return Err(error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "TK00000",
            "internal error",
        ));
    };
    if data.customer(&customer).is_none() {
        return Err(error(
            StatusCode::NOT_FOUND,
            "TK20400",
            "customer not found",
        ));
    }
    let id = data.new_invoice_id();
    let inv = StoredInvoice {
        link_payment: format!("https://pay.sandbox.invalid/{id}"),
        id,
        org: org.to_string(),
        account: account.key.clone(),
        customer,
        product_id,
        due_date,
        amount,
        currency_code: currency,
        is_paid: false,
        is_void: false,
        invoice_external_id: external,
        metadata,
        created_at: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        extra: fields,
    };
    let json = inv.to_json();
    data.push(inv);
    persist(shared, &mut data, |d| {
        if let Some(inv) = d.invoices.pop() {
            d.by_id.remove(&inv.id);
            if let Some(list) = d.by_customer.get_mut(&inv.customer) {
                list.pop();
            }
        }
    })?;
    Ok(json)
}

async fn get_invoice(
    State(shared): State<Shared_>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Response {
    let (after, org) = match admit(&shared, Route::Get, &headers).await {
        Ok(x) => x,
        Err(r) => return r,
    };
    let response = {
        let Ok(d) = shared.data.lock() else {
            return error(
                StatusCode::INTERNAL_SERVER_ERROR,
                "TK00000",
                "internal error",
            );
        };
        match d.by_id.get(&id).map(|&i| &d.invoices[i]) {
            Some(inv) if inv.org == org => Json(inv.to_json()).into_response(),
            _ => error(StatusCode::NOT_FOUND, "TK20600", "invoice not found"),
        }
    };
    finish(after, response).await
}

async fn void(
    State(shared): State<Shared_>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Response {
    let (after, org) = match admit(&shared, Route::Void, &headers).await {
        Ok(x) => x,
        Err(r) => return r,
    };
    let response = (|| {
        let mut d = shared.data.lock().map_err(|_| {
            error(
                StatusCode::INTERNAL_SERVER_ERROR,
                "TK00000",
                "internal error",
            )
        })?;
        let i = match d.by_id.get(&id) {
            Some(&i) if d.invoices[i].org == org => i,
            _ => return Err(error(StatusCode::NOT_FOUND, "TK20600", "invoice not found")),
        };
        if d.invoices[i].is_void {
            return Err(error(
                StatusCode::CONFLICT,
                "TK10601",
                "invoice is already void",
            ));
        }
        if d.invoices[i].is_paid {
            return Err(error(
                StatusCode::CONFLICT,
                "TK10602",
                "a paid invoice cannot be voided",
            ));
        }
        d.invoices[i].is_void = true;
        persist(&shared, &mut d, |d| d.invoices[i].is_void = false)?;
        Ok(Json(d.invoices[i].to_json()).into_response())
    })()
    .unwrap_or_else(|r| r);
    finish(after, response).await
}

async fn list(
    State(shared): State<Shared_>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    let (after, org) = match admit(&shared, Route::List, &headers).await {
        Ok(x) => x,
        Err(r) => return r,
    };
    let page_size = match q.get("page_size").map(|s| s.parse::<usize>()) {
        None => 100,
        Some(Ok(n)) if n >= 1 => n.min(shared.max_page_size),
        Some(_) => {
            return invalid(vec![(
                &["query", "page_size"],
                "page_size must be a whole number from 1".into(),
                "value_error.number",
            )]);
        }
    };
    let start = match q.get("cursor").filter(|c| !c.is_empty()) {
        None => 0,
        Some(c) => match decode_cursor(c) {
            Some(n) => n,
            None => {
                return invalid(vec![(
                    &["query", "cursor"],
                    "cursor is not valid".into(),
                    "value_error",
                )]);
            }
        },
    };
    let response = (|| {
        let Ok(d) = shared.data.lock() else {
            return error(
                StatusCode::INTERNAL_SERVER_ERROR,
                "TK00000",
                "internal error",
            );
        };
        if d.customer(&id).is_none() {
            return error(StatusCode::NOT_FOUND, "TK20400", "customer not found");
        }
        let empty = Vec::new();
        let all = d.by_customer.get(&id).unwrap_or(&empty);
        // Positions are in creation order; the cursor is a position in that list, so
        // pages stay stable while new invoices are added at the end.
        let mine = all
            .iter()
            .enumerate()
            .skip(start)
            .filter(|(_, i)| d.invoices[**i].org == org);
        let mut items = Vec::with_capacity(page_size.min(1000));
        let mut next = None;
        for (pos, &i) in mine {
            if items.len() == page_size {
                next = Some(encode_cursor(pos));
                break;
            }
            items.push(d.invoices[i].to_json());
        }
        Json(json!({"items": items, "next_cursor": next})).into_response()
    })();
    finish(after, response).await
}

fn encode_cursor(pos: usize) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(format!("pos:{pos}"))
}

fn decode_cursor(c: &str) -> Option<usize> {
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(c)
        .ok()?;
    String::from_utf8(bytes)
        .ok()?
        .strip_prefix("pos:")?
        .parse()
        .ok()
}

// ---- admin: loopback only ----

fn loopback_only(addr: SocketAddr) -> Result<(), Response> {
    if addr.ip().is_loopback() {
        Ok(())
    } else {
        Err(error(
            StatusCode::FORBIDDEN,
            "TK00000",
            "the admin routes answer only on loopback",
        ))
    }
}

#[derive(Serialize)]
struct AdminState {
    token_lifetime_secs: u64,
    latency_ms: u64,
    faults: Vec<Fault>,
    token_generation: u64,
    counters: Counters,
}

async fn admin_state(
    State(shared): State<Shared_>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
) -> Response {
    if let Err(r) = loopback_only(addr) {
        return r;
    }
    let Ok(k) = shared.knobs.lock() else {
        return error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "TK00000",
            "internal error",
        );
    };
    let counters = shared
        .counters
        .lock()
        .map(|c| c.clone())
        .unwrap_or_default();
    Json(AdminState {
        token_lifetime_secs: k.token_lifetime.as_secs(),
        latency_ms: k.latency.as_millis() as u64,
        faults: k.faults.clone(),
        token_generation: k.token_generation,
        counters,
    })
    .into_response()
}

#[derive(Deserialize)]
struct KnobsIn {
    token_lifetime_secs: Option<u64>,
    latency_ms: Option<u64>,
}

/// An admin change: loopback only, then `change`, then 204 (or its error answer).
fn admin(addr: SocketAddr, change: impl FnOnce() -> Result<(), Response>) -> Response {
    match loopback_only(addr).and_then(|()| change()) {
        Ok(()) => StatusCode::NO_CONTENT.into_response(),
        Err(r) => r,
    }
}

async fn admin_knobs(
    State(shared): State<Shared_>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    body: Bytes,
) -> Response {
    admin(addr, || {
        let k_in = serde_json::from_slice::<KnobsIn>(&body).map_err(|_| {
            invalid(vec![(
                &["body"],
                "expected {\"token_lifetime_secs\"?, \"latency_ms\"?}".into(),
                "type_error",
            )])
        })?;
        shared.knobs(|k| {
            if let Some(s) = k_in.token_lifetime_secs {
                k.token_lifetime = Duration::from_secs(s.max(1));
            }
            if let Some(ms) = k_in.latency_ms {
                k.latency = Duration::from_millis(ms);
            }
        });
        Ok(())
    })
}

async fn admin_add_fault(
    State(shared): State<Shared_>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    body: Bytes,
) -> Response {
    admin(addr, || {
        let fault = serde_json::from_slice::<Fault>(&body)
            .map_err(|e| invalid(vec![(&["body"], format!("not a fault: {e}"), "type_error")]))?;
        if fault.kind == FaultKind::Status && StatusCode::from_u16(fault.status).is_err() {
            return Err(invalid(vec![(
                &["body", "status"],
                "status must be an HTTP status".into(),
                "value_error",
            )]));
        }
        shared.knobs(|k| k.faults.push(fault));
        Ok(())
    })
}

async fn admin_clear_faults(
    State(shared): State<Shared_>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
) -> Response {
    admin(addr, || {
        shared.knobs(|k| k.faults.clear());
        Ok(())
    })
}

async fn admin_revoke(
    State(shared): State<Shared_>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
) -> Response {
    admin(addr, || {
        shared.knobs(|k| k.token_generation += 1);
        Ok(())
    })
}

async fn admin_reset_counters(
    State(shared): State<Shared_>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
) -> Response {
    admin(addr, || {
        if let Ok(mut c) = shared.counters.lock() {
            *c = Counters::default();
        }
        Ok(())
    })
}
