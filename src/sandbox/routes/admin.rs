//! The loopback-only admin routes: state, knobs, faults, revoking tokens.

use super::*;

pub(super) fn loopback_only(addr: SocketAddr) -> Result<(), Response> {
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
pub(super) struct AdminState {
    token_lifetime_secs: u64,
    latency_ms: u64,
    faults: Vec<Fault>,
    token_generation: u64,
    finish_abandoned: bool,
    counters: Counters,
}

pub(super) async fn admin_state(
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
        finish_abandoned: k.finish_abandoned,
        counters,
    })
    .into_response()
}

#[derive(Deserialize)]
pub(super) struct KnobsIn {
    token_lifetime_secs: Option<u64>,
    latency_ms: Option<u64>,
    finish_abandoned: Option<bool>,
}

/// An admin change: loopback only, then `change`, then 204 (or its error answer).
pub(super) fn admin(addr: SocketAddr, change: impl FnOnce() -> Result<(), Response>) -> Response {
    match loopback_only(addr).and_then(|()| change()) {
        Ok(()) => StatusCode::NO_CONTENT.into_response(),
        Err(r) => r,
    }
}

pub(super) async fn admin_knobs(
    State(shared): State<Shared_>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    body: Bytes,
) -> Response {
    admin(addr, || {
        let k_in = serde_json::from_slice::<KnobsIn>(&body).map_err(|_| {
            invalid(vec![(
                &["body"],
                "expected {\"token_lifetime_secs\"?, \"latency_ms\"?, \"finish_abandoned\"?}"
                    .into(),
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
            if let Some(f) = k_in.finish_abandoned {
                k.finish_abandoned = f;
            }
        });
        Ok(())
    })
}

pub(super) async fn admin_add_fault(
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

pub(super) async fn admin_clear_faults(
    State(shared): State<Shared_>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
) -> Response {
    admin(addr, || {
        shared.knobs(|k| k.faults.clear());
        Ok(())
    })
}

pub(super) async fn admin_revoke(
    State(shared): State<Shared_>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
) -> Response {
    admin(addr, || {
        shared.knobs(|k| k.token_generation += 1);
        Ok(())
    })
}

pub(super) async fn admin_reset_counters(
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
