//! The sandbox's own rules, over plain HTTP: status codes and bodies for each bad input.

use invoice_desk::sandbox::{Sandbox, SandboxConfig};
use serde_json::{Value, json};

struct T {
    s: Sandbox,
    http: reqwest::Client,
    token: String,
}

async fn setup() -> T {
    let s = Sandbox::start(SandboxConfig::default()).await.unwrap();
    let token = setup_token(&s).await;
    T {
        s,
        http: reqwest::Client::new(),
        token,
    }
}

impl T {
    async fn token_req(&self, body: Value) -> (u16, Value) {
        let r = self
            .http
            .post(format!("{}/oauth/token", self.s.auth_url))
            .json(&body)
            .send()
            .await
            .unwrap();
        (r.status().as_u16(), r.json().await.unwrap_or(Value::Null))
    }

    async fn create(&self, account: Option<&str>, body: &str) -> (u16, Value) {
        let mut r = self
            .http
            .post(format!("{}/invoices", self.s.base_url))
            .bearer_auth(&self.token)
            .header("content-type", "application/json")
            .body(body.to_string());
        if let Some(a) = account {
            r = r.header("x-account-key", a);
        }
        let r = r.send().await.unwrap();
        (r.status().as_u16(), r.json().await.unwrap_or(Value::Null))
    }

    async fn get(&self, path: &str) -> (u16, Value) {
        let r = self
            .http
            .get(format!("{}{path}", self.s.base_url))
            .bearer_auth(&self.token)
            .send()
            .await
            .unwrap();
        (r.status().as_u16(), r.json().await.unwrap_or(Value::Null))
    }

    fn customer(&self) -> String {
        self.s.customers()[0].0.clone()
    }
}

fn loc(v: &Value) -> Vec<String> {
    v["error"]["details"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            d["loc"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p.as_str().unwrap())
                .collect::<Vec<_>>()
                .join(".")
        })
        .collect()
}

#[tokio::test]
async fn token_endpoint_rules() {
    let t = setup().await;
    let c = &t.s.credentials;
    let good = json!({"client_id": c.client_id, "client_secret": c.client_secret, "audience": t.s.audience, "grant_type": "client_credentials"});
    let mut bad = good.clone();
    bad["client_secret"] = json!("nope");
    assert_eq!(
        t.token_req(bad).await,
        (
            401,
            json!({"error": "access_denied", "error_description": "Unauthorized"})
        )
    );
    let mut bad = good.clone();
    bad["audience"] = json!("https://other");
    let (st, v) = t.token_req(bad).await;
    assert_eq!(
        (st, v["error_description"].as_str().unwrap()),
        (403, "Service not enabled within domain: https://other")
    );
    let mut bad = good.clone();
    bad["grant_type"] = json!("password");
    assert_eq!(t.token_req(bad).await.1["error"], "unsupported_grant_type");
    let r = t
        .http
        .post(format!("{}/oauth/token", t.s.auth_url))
        .body("{not json")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 400);
    // RFC 6749 form encoding works as well as JSON.
    let form = format!(
        "grant_type=client_credentials&client_id={}&client_secret={}&audience={}",
        c.client_id, c.client_secret, t.s.audience
    );
    let r = t
        .http
        .post(format!("{}/oauth/token", t.s.auth_url))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(form.replace(':', "%3A").replace('/', "%2F"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 200, "form encoding is accepted too");
    // The JWT carries the documented claims.
    let payload = t.token.split('.').nth(1).unwrap();
    use base64::Engine;
    let claims: Value = serde_json::from_slice(
        &base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(payload)
            .unwrap(),
    )
    .unwrap();
    for k in ["iss", "sub", "aud", "iat", "exp", "org"] {
        assert!(claims.get(k).is_some(), "claim {k}");
    }
    assert_eq!(claims["sub"], json!(c.client_id));
}

#[tokio::test]
async fn create_rules() {
    let t = setup().await;
    let cus = t.customer();
    let ok = format!(r#"{{"customer":"{cus}","amount":1000}}"#);
    let (st, v) = t.create(None, &ok).await;
    assert_eq!(
        (st, loc(&v)),
        (422, vec!["header.x-account-key".to_string()])
    );
    let (st, v) = t.create(Some("acc_nope"), &ok).await;
    assert_eq!((st, v["error"]["code"].as_str()), (404, Some("TK20100")));
    let (st, v) = t.create(Some("acc_key_clp"), &ok).await;
    assert_eq!(st, 404, "another organization's account: {v}");
    let (st, v) = t
        .create(
            Some("acc_oauth_clp"),
            &format!(r#"{{"customer":"{cus}","amount":1000,"currency_code":"USD"}}"#),
        )
        .await;
    assert_eq!((st, loc(&v)), (422, vec!["body.currency_code".to_string()]));
    let (st, v) = t
        .create(
            Some("acc_oauth_clp"),
            &format!(r#"{{"customer":"{cus}","amount":1000,"currency_code":null}}"#),
        )
        .await;
    assert_eq!(
        (st, loc(&v)),
        (422, vec!["body.currency_code".to_string()]),
        "null is not absent"
    );
    let (st, v) = t
        .create(Some("acc_oauth_clp"), &format!(r#"{{"customer":"{cus}"}}"#))
        .await;
    assert_eq!(
        (st, v["error"]["details"][0]["msg"].as_str()),
        (422, Some("field required"))
    );
    let (st, v) = t
        .create(
            Some("acc_oauth_clp"),
            &format!(r#"{{"customer":"{cus}","amount":"1000"}}"#),
        )
        .await;
    assert_eq!((st, loc(&v)), (422, vec!["body.amount".to_string()]));
    let (st, v) = t
        .create(
            Some("acc_oauth_clp"),
            &format!(r#"{{"customer":"{cus}","amount":-5}}"#),
        )
        .await;
    assert_eq!((st, loc(&v)), (422, vec!["body.amount".to_string()]));
    let (st, v) = t
        .create(
            Some("acc_oauth_clp"),
            &format!(r#"{{"customer":"{cus}","amount":10.5}}"#),
        )
        .await;
    assert_eq!(
        (st, v["error"]["details"][0]["msg"].as_str()),
        (422, Some("CLP amounts must be whole pesos"))
    );
    let (st, _) = t
        .create(
            Some("acc_oauth_clf"),
            &format!(r#"{{"customer":"{cus}","amount":1.23456}}"#),
        )
        .await;
    assert_eq!(st, 422);
    let (st, v) = t
        .create(
            Some("acc_oauth_clp"),
            r#"{"customer":"cus_nobody","amount":1000}"#,
        )
        .await;
    assert_eq!((st, v["error"]["code"].as_str()), (404, Some("TK20400")));
    let (st, v) = t
        .create(
            Some("acc_oauth_clp"),
            &format!(r#"{{"customer":"{cus}","amount":1000,"due_date":"31-12-2026"}}"#),
        )
        .await;
    assert_eq!((st, loc(&v)), (422, vec!["body.due_date".to_string()]));
    let (st, _) = t.create(Some("acc_oauth_clp"), "[1,2]").await;
    assert_eq!(st, 422);
    // Accepted: exact CLF amount, currency applied, extra fields echoed.
    let (st, v) = t
        .create(Some("acc_oauth_clp"), &format!(r#"{{"customer":"{cus}","amount":12.3456,"currency_code":"CLF","nota":"ñ","metadata":{{"a":"b"}}}}"#))
        .await;
    assert_eq!(st, 201);
    assert_eq!(v["currency_code"], "CLF");
    assert_eq!(v["amount"].to_string(), "12.3456");
    assert_eq!(v["nota"], "ñ");
    assert_eq!(v["is_void"], false);
    let (st, v) = t
        .create(
            Some("acc_oauth_clf"),
            &format!(r#"{{"customer":"{cus}","amount":2}}"#),
        )
        .await;
    assert_eq!((st, v["currency_code"].as_str()), (201, Some("CLF")));
}

#[tokio::test]
async fn auth_rules_on_the_api() {
    let t = setup().await;
    let r = t
        .http
        .get(format!("{}/invoice/in_x", t.s.base_url))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 401);
    let v: Value = r.json().await.unwrap();
    assert_eq!(v["error"]["message"], "API key missing or malformed");
    let r = t
        .http
        .get(format!("{}/invoice/in_x", t.s.base_url))
        .bearer_auth("garbage")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 401);
    // An expired token.
    t.s.set_token_lifetime(std::time::Duration::from_secs(1));
    let v: Value = t
        .http
        .post(format!("{}/oauth/token", t.s.auth_url))
        .json(&json!({"client_id": t.s.credentials.client_id, "client_secret": t.s.credentials.client_secret,
                      "audience": t.s.audience, "grant_type": "client_credentials"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let with_token = || {
        t.http
            .get(format!("{}/invoice/in_x", t.s.base_url))
            .bearer_auth(v["access_token"].as_str().unwrap())
            .send()
    };
    // Accepted while it is valid (no such invoice, but not refused)…
    assert_eq!(with_token().await.unwrap().status().as_u16(), 404);
    // …and expired two seconds later on the issuer's clock, waiting for nothing.
    t.s.advance_clock(std::time::Duration::from_secs(2));
    let r = with_token().await.unwrap();
    assert_eq!(r.status().as_u16(), 401);
    let v: Value = r.json().await.unwrap();
    assert_eq!(v["error"]["message"], "token expired");
}

#[tokio::test]
async fn listing_rules() {
    let t = Sandbox::start(SandboxConfig {
        big_customer_invoices: 1500,
        ..Default::default()
    })
    .await
    .unwrap();
    let t = T {
        token: setup_token(&t).await,
        http: reqwest::Client::new(),
        s: t,
    };
    let (st, v) = t.get("/invoices/customer/cus_big?page_size=5000").await;
    assert_eq!(
        (st, v["items"].as_array().unwrap().len()),
        (200, 1000),
        "clamped to the maximum"
    );
    let next = v["next_cursor"].as_str().unwrap().to_string();
    let (st, v) = t
        .get(&format!(
            "/invoices/customer/cus_big?page_size=5000&cursor={next}"
        ))
        .await;
    assert_eq!(
        (
            st,
            v["items"].as_array().unwrap().len(),
            v["next_cursor"].clone()
        ),
        (200, 500, Value::Null)
    );
    let (st, v) = t.get("/invoices/customer/cus_big").await;
    assert_eq!(
        (st, v["items"].as_array().unwrap().len()),
        (200, 100),
        "default page size"
    );
    assert_eq!(t.get("/invoices/customer/cus_big?page_size=0").await.0, 422);
    assert_eq!(t.get("/invoices/customer/cus_big?cursor=%%%").await.0, 422);
    let (st, v) = t.get("/invoices/customer/cus_nobody").await;
    assert_eq!((st, v["error"]["code"].as_str()), (404, Some("TK20400")));
    let (st, v) = t.get("/invoice/in_nothing").await;
    assert_eq!((st, v["error"]["code"].as_str()), (404, Some("TK20600")));
}

/// A token of the OAuth organization, checking the token answer's shape on the way.
async fn setup_token(s: &Sandbox) -> String {
    let v: Value = reqwest::Client::new()
        .post(format!("{}/oauth/token", s.auth_url))
        .json(&json!({"client_id": s.credentials.client_id, "client_secret": s.credentials.client_secret,
                      "audience": s.audience, "grant_type": "client_credentials"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(v["token_type"], "Bearer");
    assert_eq!(v["expires_in"].as_u64(), Some(3600));
    v["access_token"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn admin_routes() {
    let t = setup().await;
    let admin = |p: &str| format!("{}/admin/{p}", t.s.base_url);
    let r = t
        .http
        .post(admin("faults"))
        .json(&json!({"route": "get", "count": 1, "kind": "status", "status": 503}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 204);
    let r = t
        .http
        .post(admin("faults"))
        .json(&json!({"route": "nope", "count": 1, "kind": "reset"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 422);
    let st: Value = t
        .http
        .get(admin("state"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(st["faults"][0]["status"], 503);
    assert_eq!(st["counters"]["token_requests"], 1);
    assert_eq!(t.get("/invoice/in_x").await.0, 503);
    assert_eq!(t.get("/invoice/in_x").await.0, 404, "the fault was used up");
    let r = t
        .http
        .post(admin("knobs"))
        .json(&json!({"token_lifetime_secs": 60, "latency_ms": 0}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 204);
    t.http.post(admin("revoke-tokens")).send().await.unwrap();
    assert_eq!(t.get("/invoice/in_x").await.0, 401, "revoked");
    let st: Value = t
        .http
        .get(admin("state"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        (
            st["token_lifetime_secs"].as_u64(),
            st["counters"]["api"]["get"].as_u64()
        ),
        (Some(60), Some(3))
    );
    t.http.post(admin("counters/reset")).send().await.unwrap();
    t.http.delete(admin("faults")).send().await.unwrap();
    let st: Value = t
        .http
        .get(admin("state"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(st["counters"]["token_requests"], 0);
}
