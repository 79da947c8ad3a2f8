//! The fault matrix: one test per failure, each asserting the error kind and how many
//! requests were made (nothing retried where it must not be).

use invoice_desk::api::*;
use rust_decimal::Decimal;
use secrecy::SecretString;
use serde_json::json;
use std::time::Duration;
use tokio::io::AsyncReadExt;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

fn config(base: &str, auth: &str) -> ClientConfig {
    let mut cfg = ClientConfig::new(
        base,
        AuthSettings::OAuth(OAuthSettings {
            auth_url: auth.to_string(),
            audience: "https://api.example.cl".into(),
            client_id: "client-1".into(),
            client_secret: SecretString::from("s3cret-value"),
            body_style: TokenBodyStyle::Json,
        }),
    );
    cfg.retry_base = Duration::from_millis(5);
    cfg.timeout = Duration::from_millis(800);
    cfg
}

async fn with_token(server: &MockServer) -> Client {
    Mock::given(method("POST"))
        .and(path("/oauth/token"))
        .respond_with(ResponseTemplate::new(200).set_body_json(
            json!({"access_token": "tok", "token_type": "Bearer", "expires_in": 3600}),
        ))
        .mount(server)
        .await;
    Client::new(config(&server.uri(), &server.uri())).unwrap()
}

fn new_invoice() -> NewInvoice {
    NewInvoice {
        customer: "cus_1".into(),
        amount: Decimal::from(1000),
        ..Default::default()
    }
}

async fn hits(server: &MockServer, p: &str) -> usize {
    server
        .received_requests()
        .await
        .unwrap()
        .iter()
        .filter(|r| r.url.path() == p)
        .count()
}

async fn token_failure(status: u16, body: &str) -> (ApiError, MockServer) {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/oauth/token"))
        .respond_with(
            ResponseTemplate::new(status)
                .set_body_string(body.to_string())
                .insert_header("x-ratelimit-reset", "30"),
        )
        .mount(&server)
        .await;
    let client = Client::new(config(&server.uri(), &server.uri())).unwrap();
    let err = client.get_invoice("in_1").await.unwrap_err();
    assert_eq!(
        hits(&server, "/invoice/in_1").await,
        0,
        "no API call without a token"
    );
    assert!(matches!(client.token_state(), TokenState::Failed { .. }));
    (err, server)
}

// ---- token endpoint ----

#[tokio::test]
async fn token_401_is_credentials_rejected_with_the_providers_words() {
    let (err, _) = token_failure(
        401,
        r#"{"error":"access_denied","error_description":"Unauthorized"}"#,
    )
    .await;
    assert_eq!(
        err.kind,
        ErrorKind::CredentialsRejected {
            description: Some("Unauthorized".into())
        }
    );
    assert!(invoice_desk::i18n::error_text(&err).contains("client id or client secret"));
    let details = invoice_desk::i18n::error_details_in(invoice_desk::i18n::Lang::En, &err);
    assert!(!format!("{err} {details}").contains("s3cret-value"));
}

#[tokio::test]
async fn token_403_wrong_audience() {
    let (err, _) = token_failure(403, r#"{"error":"access_denied","error_description":"Service not enabled within domain: https://api.example.cl"}"#).await;
    assert!(matches!(err.kind, ErrorKind::WrongAudience { .. }));
}

#[tokio::test]
async fn token_429_is_rate_limited_and_honoured() {
    let (err, server) = token_failure(429, r#"{"error":"too_many_requests"}"#).await;
    assert_eq!(
        err.kind,
        ErrorKind::TokenRateLimited {
            retry_after: Some(Duration::from_secs(30))
        }
    );
    // A second call within the wait does not ask the provider again.
    let client = Client::new(config(&server.uri(), &server.uri())).unwrap();
    let _ = client.get_invoice("in_1").await;
    let again = client.get_invoice("in_1").await.unwrap_err();
    assert!(matches!(again.kind, ErrorKind::TokenRateLimited { .. }));
    assert_eq!(
        hits(&server, "/oauth/token").await,
        2,
        "one per client, none for the retry"
    );
}

#[tokio::test]
async fn token_500_is_endpoint_failed() {
    let (err, server) = token_failure(500, "oops").await;
    assert_eq!(err.kind, ErrorKind::TokenEndpointFailed);
    assert_eq!(hits(&server, "/oauth/token").await, 1);
}

#[tokio::test]
async fn token_garbage_is_endpoint_failed() {
    let (err, _) = token_failure(200, "<html>hello</html>").await;
    assert_eq!(err.kind, ErrorKind::TokenEndpointFailed);
}

#[tokio::test]
async fn token_slow_is_named_as_a_timeout() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/oauth/token"))
        .respond_with(ResponseTemplate::new(200).set_delay(Duration::from_secs(3)))
        .mount(&server)
        .await;
    let client = Client::new(config(&server.uri(), &server.uri())).unwrap();
    let err = client.get_invoice("in_1").await.unwrap_err();
    assert!(
        matches!(err.kind, ErrorKind::TokenEndpointTimeout { .. }),
        "{err:?}"
    );
    assert!(
        invoice_desk::i18n::error_text(&err)
            .starts_with("The identity provider did not answer within"),
        "{err}"
    );
    let details = invoice_desk::i18n::error_details_in(invoice_desk::i18n::Lang::En, &err);
    assert!(
        !details.contains("127.0.0.1"),
        "no URL in the details: {details}"
    );
}

#[tokio::test]
async fn concurrent_callers_share_a_token_failure() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/oauth/token"))
        .respond_with(ResponseTemplate::new(500).set_delay(Duration::from_millis(200)))
        .mount(&server)
        .await;
    let client = Client::new(config(&server.uri(), &server.uri())).unwrap();
    let handles: Vec<_> = (0..10)
        .map(|_| {
            let c = client.clone();
            tokio::spawn(async move { c.get_invoice("in_1").await })
        })
        .collect();
    for h in handles {
        assert_eq!(
            h.await.unwrap().unwrap_err().kind,
            ErrorKind::TokenEndpointFailed
        );
    }
    assert_eq!(
        hits(&server, "/oauth/token").await,
        1,
        "no stampede on failure"
    );
}

// ---- API ----

async fn api_failure(m: &str, p: &str, template: ResponseTemplate) -> (ApiError, usize) {
    let server = MockServer::start().await;
    let client = with_token(&server).await;
    Mock::given(method(m))
        .and(path(p))
        .respond_with(template)
        .mount(&server)
        .await;
    let err = match (m, p) {
        ("POST", "/invoices") => client
            .create_invoice(&new_invoice(), Some("acc"))
            .await
            .unwrap_err(),
        ("POST", _) => client.void_invoice("in_1").await.unwrap_err(),
        _ => client.get_invoice("in_1").await.unwrap_err(),
    };
    (err, hits(&server, p).await)
}

#[tokio::test]
async fn api_403_forbidden_not_retried() {
    let (err, n) = api_failure("GET", "/invoice/in_1", ResponseTemplate::new(403)).await;
    assert_eq!((err.kind, n), (ErrorKind::Forbidden, 1));
}

#[tokio::test]
async fn api_404_names_the_invoice() {
    let body = json!({"error": {"message": "invoice not found", "code": "TK20600"}});
    let (err, n) = api_failure(
        "GET",
        "/invoice/in_1",
        ResponseTemplate::new(404).set_body_json(body),
    )
    .await;
    assert_eq!(n, 1);
    assert_eq!(
        err.kind,
        ErrorKind::NotFound(invoice_desk::api::Resource::Invoice("in_1".into()))
    );
    assert!(invoice_desk::i18n::error_text(&err).starts_with("There is no invoice with id in_1."));
    assert_eq!(err.service_code.as_deref(), Some("TK20600"));
}

#[tokio::test]
async fn api_409_conflict_on_void_not_retried() {
    let body = json!({"error": {"message": "invoice already void", "code": "TK10601"}});
    let (err, n) = api_failure(
        "POST",
        "/invoices/in_1/void",
        ResponseTemplate::new(409).set_body_json(body),
    )
    .await;
    assert_eq!((err.kind.clone(), n), (ErrorKind::Conflict, 1));
    assert_eq!(err.service_message.as_deref(), Some("invoice already void"));
}

#[tokio::test]
async fn api_422_maps_details_to_fields() {
    let body = json!({"error": {"code": "TK30000", "details": [
        {"loc": ["body", "amount"], "msg": "field required", "type": "value_error.missing"},
        {"loc": ["body", "currency_code"], "msg": "must be CLP or CLF", "type": "value_error"}]}});
    let (err, n) = api_failure(
        "POST",
        "/invoices",
        ResponseTemplate::new(422).set_body_json(body),
    )
    .await;
    assert_eq!(n, 1);
    let fields: Vec<_> = err
        .field_errors()
        .iter()
        .map(|f| (f.field.as_str(), f.message.as_str()))
        .collect();
    assert_eq!(
        fields,
        vec![
            ("amount", "field required"),
            ("currency_code", "must be CLP or CLF")
        ]
    );
}

#[tokio::test]
async fn api_429_on_get_waits_retry_after_then_succeeds() {
    let server = MockServer::start().await;
    let client = with_token(&server).await;
    Mock::given(method("GET"))
        .and(path("/invoice/in_1"))
        .respond_with(ResponseTemplate::new(429).insert_header("retry-after", "1"))
        .up_to_n_times(1)
        .with_priority(1)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/invoice/in_1"))
        .respond_with(
            ResponseTemplate::new(200).set_body_json(json!({"id": "in_1", "currency_code": "CLP"})),
        )
        .mount(&server)
        .await;
    let started = std::time::Instant::now();
    client.get_invoice("in_1").await.unwrap();
    assert!(
        started.elapsed() >= Duration::from_secs(1),
        "Retry-After honoured"
    );
    assert_eq!(hits(&server, "/invoice/in_1").await, 2);
}

#[tokio::test]
async fn api_429_with_a_long_wait_is_reported() {
    let (err, n) = api_failure(
        "GET",
        "/invoice/in_1",
        ResponseTemplate::new(429).insert_header("retry-after", "120"),
    )
    .await;
    assert_eq!(
        (err.kind, n),
        (
            ErrorKind::RateLimited {
                retry_after: Some(Duration::from_secs(120))
            },
            1
        )
    );
}

#[tokio::test]
async fn api_429_on_create_is_not_retried() {
    let (err, n) = api_failure(
        "POST",
        "/invoices",
        ResponseTemplate::new(429).insert_header("retry-after", "1"),
    )
    .await;
    assert_eq!(
        (err.kind, n),
        (
            ErrorKind::RateLimited {
                retry_after: Some(Duration::from_secs(1))
            },
            1
        )
    );
}

#[tokio::test]
async fn api_500_is_server_error_not_retried() {
    let (err, n) = api_failure("GET", "/invoice/in_1", ResponseTemplate::new(500)).await;
    assert_eq!((err.kind, n), (ErrorKind::ServerError, 1));
}

#[tokio::test]
async fn api_502_on_get_is_retried_three_times() {
    let (err, n) = api_failure("GET", "/invoice/in_1", ResponseTemplate::new(502)).await;
    assert_eq!((err.kind, n), (ErrorKind::ServerError, 4));
}

#[tokio::test]
async fn api_502_on_create_is_outcome_unknown_and_not_retried() {
    let (err, n) = api_failure("POST", "/invoices", ResponseTemplate::new(502)).await;
    assert!(err.is_outcome_unknown());
    assert_eq!(n, 1);
}

#[tokio::test]
async fn api_timeout_on_get_is_timeout() {
    let (err, n) = api_failure(
        "GET",
        "/invoice/in_1",
        ResponseTemplate::new(200).set_delay(Duration::from_secs(3)),
    )
    .await;
    assert_eq!((err.kind, n), (ErrorKind::Timeout, 1));
}

#[tokio::test]
async fn api_timeout_on_create_is_outcome_unknown_and_not_retried() {
    let (err, n) = api_failure(
        "POST",
        "/invoices",
        ResponseTemplate::new(201).set_delay(Duration::from_secs(3)),
    )
    .await;
    assert!(err.is_outcome_unknown(), "{err:?}");
    assert!(invoice_desk::i18n::error_text(&err).contains("create the invoice"));
    assert_eq!(n, 1);
}

#[tokio::test]
async fn api_timeout_on_void_is_outcome_unknown() {
    let (err, n) = api_failure(
        "POST",
        "/invoices/in_1/void",
        ResponseTemplate::new(200).set_delay(Duration::from_secs(3)),
    )
    .await;
    assert!(err.is_outcome_unknown());
    assert_eq!(n, 1);
}

#[tokio::test]
async fn api_malformed_json_is_decode() {
    let (err, n) = api_failure(
        "GET",
        "/invoice/in_1",
        ResponseTemplate::new(200).set_body_string("{\"id\": "),
    )
    .await;
    assert_eq!((err.kind, n), (ErrorKind::Decode, 1));
}

#[tokio::test]
async fn api_oversize_body_is_refused() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/oauth/token"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(json!({"access_token": "tok", "expires_in": 3600})),
        )
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/invoice/in_1"))
        .respond_with(ResponseTemplate::new(200).set_body_string(format!(
            "{{\"id\":\"in_1\",\"pad\":\"{}\"}}",
            "x".repeat(10_000)
        )))
        .mount(&server)
        .await;
    let mut cfg = config(&server.uri(), &server.uri());
    cfg.max_body_bytes = 4096;
    let err = Client::new(cfg)
        .unwrap()
        .get_invoice("in_1")
        .await
        .unwrap_err();
    assert_eq!(err.kind, ErrorKind::TooLarge);
}

/// A server that reads the request and then drops the connection without answering.
async fn resetting_server() -> (String, tokio::task::JoinHandle<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let handle = tokio::spawn(async move {
        while let Ok((mut sock, _)) = listener.accept().await {
            let mut buf = [0u8; 4096];
            let _ = tokio::time::timeout(Duration::from_millis(200), sock.read(&mut buf)).await;
            drop(sock);
        }
    });
    (format!("http://{addr}"), handle)
}

#[tokio::test]
async fn api_reset_on_get_is_connection_error_and_on_create_outcome_unknown() {
    let auth = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/oauth/token"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(json!({"access_token": "tok", "expires_in": 3600})),
        )
        .mount(&auth)
        .await;
    let (base, server) = resetting_server().await;
    let client = Client::new(config(&base, &auth.uri())).unwrap();
    let err = client.get_invoice("in_1").await.unwrap_err();
    assert!(err.is_network(), "{err:?}");
    let err = client
        .create_invoice(&new_invoice(), Some("acc"))
        .await
        .unwrap_err();
    assert!(err.is_outcome_unknown(), "{err:?}");
    server.abort();
}

#[tokio::test]
async fn nothing_listening_is_connection_error_even_for_create() {
    let auth = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/oauth/token"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(json!({"access_token": "tok", "expires_in": 3600})),
        )
        .mount(&auth)
        .await;
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let client = Client::new(config(&format!("http://127.0.0.1:{port}"), &auth.uri())).unwrap();
    let err = client
        .create_invoice(&new_invoice(), Some("acc"))
        .await
        .unwrap_err();
    assert_eq!(
        err.kind,
        ErrorKind::Connection,
        "nothing was sent, so the outcome is known"
    );
    assert!(invoice_desk::i18n::error_text(&err).contains("Nothing was sent"));
}

#[tokio::test]
async fn unreachable_identity_provider_is_named() {
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let url = format!("http://127.0.0.1:{port}");
    let err = Client::new(config(&url, &url))
        .unwrap()
        .get_invoice("in_1")
        .await
        .unwrap_err();
    assert_eq!(err.kind, ErrorKind::TokenEndpointUnreachable);
}
