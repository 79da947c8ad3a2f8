//! The token issuer (HS256 JWTs) and the authorization of API requests.

use super::*;

#[derive(Serialize, Deserialize)]
pub(super) struct Claims {
    iss: String,
    sub: String,
    aud: String,
    iat: u64,
    exp: u64,
    org: String,
    generation: u64,
}

pub(super) async fn token(
    State(shared): State<Shared_>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
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
    let iat = now_secs(&shared);
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

/// Who is calling: the organization from a valid token, or from an API key of an
/// organization without OAuth.
pub(super) fn authorize(shared: &Shared, headers: &HeaderMap) -> Result<String, Response> {
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
        // Expiry is checked below on the issuer's clock (which a test can move).
        validation.validate_exp = false;
        validation.required_spec_claims.clear();
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
        if claims.exp < now_secs(shared) {
            return Err(error(StatusCode::UNAUTHORIZED, "TK10001", "token expired"));
        }
        let current = shared.knobs.lock().map(|k| k.token_generation).unwrap_or(0);
        if claims.generation < current {
            return Err(error(StatusCode::UNAUTHORIZED, "TK10001", "token revoked"));
        }
        return Ok(claims.org);
    }
    if let Some(key) = headers
        .get(crate::api::auth::DEFAULT_API_KEY_HEADER)
        .and_then(|v| v.to_str().ok())
    {
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
