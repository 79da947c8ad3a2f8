//! The sandbox's HTTP routes: the router and what every route shares (faults, latency,
//! errors in the service's shape); the token issuer and authorization (`token.rs`), the
//! invoice API (`invoices.rs`), the loopback-only admin routes (`admin.rs`).

mod admin;
mod cmf;
mod invoices;
mod issuer;

use admin::*;
use cmf::*;
use invoices::*;
use issuer::*;

use super::data::{Data, Scratch, StoredInvoice};
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
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

type Shared_ = Arc<Shared>;

/// The invoice API (and the token issuer when `with_auth`) plus admin routes.
pub(crate) fn router(shared: Shared_, with_auth: bool) -> Router {
    let mut r = Router::new()
        .route("/invoices", post(create))
        .route("/invoice/{id}", get(get_invoice))
        .route("/invoices/{id}/void", post(void))
        .route("/invoices/customer/{id}", get(list))
        .route("/cmf/uf", get(cmf_today))
        .route("/cmf/uf/{y}", get(cmf_year))
        .route("/cmf/uf/{y}/{m}", get(cmf_month))
        .route("/cmf/uf/{y}/{m}/dias/{d}", get(cmf_day))
        .route("/cmf/uf/periodo/{y1}/{m1}/{y2}/{m2}", get(cmf_period))
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

/// The issuer's time in seconds: the wall clock, moved forward by what a test asked.
fn now_secs(shared: &Shared) -> u64 {
    let ahead = shared
        .knobs
        .lock()
        .map(|k| k.clock_ahead)
        .unwrap_or_default();
    (SystemTime::now() + ahead)
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
    let arrived = Instant::now();
    let name = match route {
        Route::Token => "token",
        Route::Create => "create",
        Route::Get => "get",
        Route::Void => "void",
        Route::List => "list",
        Route::Uf => "uf",
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
        held_until(arrived + latency).await;
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
            FaultKind::Slow => {
                let wait = match f.ms {
                    0 => Duration::from_secs(f.secs),
                    ms => Duration::from_millis(ms),
                };
                tokio::time::sleep(wait).await;
                Ok(After::Nothing)
            }
        },
    }
}

/// Waits until `deadline`, to a fraction of a millisecond. tokio's timer wakes on the
/// millisecond tick after a deadline: asked for 50 ms of latency, the sandbox held each
/// answer 51.2 ms on average, and a bench's ceiling of C requests a latency was not the
/// service's (benches/README.md, #51). The last 2 ms are slept on a blocking thread,
/// whose sleep the OS times finely.
async fn held_until(deadline: Instant) {
    const FINE: Duration = Duration::from_millis(2);
    if let Some(coarse) = deadline.checked_sub(FINE)
        && coarse > Instant::now()
    {
        tokio::time::sleep_until(coarse.into()).await;
    }
    let left = deadline.saturating_duration_since(Instant::now());
    if !left.is_zero() {
        // Only a runtime shutting down fails it: the answer is then never sent.
        let _ = tokio::task::spawn_blocking(move || std::thread::sleep(left)).await;
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

/// Runs a write to its end even when its client goes away, if the sandbox is told to
/// (`finish_abandoned`): a real service does not stop working on a request because the
/// program that sent it was killed. Otherwise the work is dropped with the connection.
async fn detached(
    shared: &Shared,
    work: impl std::future::Future<Output = Response> + Send + 'static,
) -> Response {
    let finish = shared
        .knobs
        .lock()
        .map(|k| k.finish_abandoned)
        .unwrap_or(false);
    if !finish {
        return work.await;
    }
    tokio::spawn(work).await.unwrap_or_else(|_| {
        error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "TK00000",
            "internal error",
        )
    })
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

/// A JSON body already written.
fn json_bytes(status: StatusCode, body: Vec<u8>) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        Body::from(body),
    )
        .into_response()
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
