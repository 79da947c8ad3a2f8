//! Contract tests: the exact requests the API layer sends, against wiremock.

use invoice_desk::api::*;
use rust_decimal::Decimal;
use secrecy::SecretString;
use serde_json::{Value, json};
use std::str::FromStr;
use std::time::Duration;
use wiremock::matchers::{
    body_json, body_string, header, header_exists, method, path, query_param,
    query_param_is_missing,
};
use wiremock::{Mock, MockServer, Request, ResponseTemplate};

fn oauth(server: &MockServer) -> ClientConfig {
    let mut cfg = ClientConfig::new(
        server.uri(),
        AuthSettings::OAuth(OAuthSettings {
            auth_url: server.uri(),
            audience: "https://api.example.cl".into(),
            client_id: "client-1".into(),
            client_secret: SecretString::from("s3cret-value"),
            body_style: TokenBodyStyle::Json,
        }),
    );
    cfg.account_key = Some("acc_clp".into());
    cfg.retry_base = Duration::from_millis(5);
    cfg
}

fn token_body(token: &str, expires_in: u64) -> Value {
    json!({"access_token": token, "token_type": "Bearer", "expires_in": expires_in})
}

async fn mount_token(server: &MockServer, token: &str, expires_in: u64) {
    Mock::given(method("POST"))
        .and(path("/oauth/token"))
        .and(header("content-type", "application/json"))
        .and(body_json(json!({
            "client_id": "client-1",
            "client_secret": "s3cret-value",
            "audience": "https://api.example.cl",
            "grant_type": "client_credentials"
        })))
        .respond_with(ResponseTemplate::new(200).set_body_json(token_body(token, expires_in)))
        .named("token")
        .mount(server)
        .await;
}

fn invoice_json(id: &str, currency: &str) -> Value {
    json!({"id": id, "customer": "cus_1", "amount": 1000, "currency_code": currency,
           "is_paid": false, "is_void": false, "brand_new_field": "kept"})
}

fn count(requests: &[Request], p: &str) -> usize {
    requests.iter().filter(|r| r.url.path() == p).count()
}

#[tokio::test]
async fn create_with_account_currency_omits_currency_code() {
    let server = MockServer::start().await;
    mount_token(&server, "tok-1", 86_400).await;
    Mock::given(method("POST"))
        .and(path("/invoices"))
        .and(header("authorization", "Bearer tok-1"))
        .and(header("x-account-key", "acc_clp"))
        .and(header("content-type", "application/json"))
        .and(body_string(r#"{"customer":"cus_1","amount":1000}"#))
        .respond_with(ResponseTemplate::new(201).set_body_json(invoice_json("in_1", "CLP")))
        .expect(1)
        .mount(&server)
        .await;
    let client = Client::new(oauth(&server)).unwrap();
    let inv = NewInvoice {
        customer: "cus_1".into(),
        amount: Decimal::from(1000),
        ..Default::default()
    };
    let created = client.create_invoice(&inv, None).await.unwrap();
    assert_eq!(created.id, "in_1");
    assert_eq!(created.currency_code.as_deref(), Some("CLP"));
    assert_eq!(created.extra.get("brand_new_field"), Some(&json!("kept")));
}

#[tokio::test]
async fn create_with_clf_sends_exact_amount_and_all_fields() {
    let server = MockServer::start().await;
    mount_token(&server, "tok-1", 86_400).await;
    Mock::given(method("POST"))
        .and(path("/invoices"))
        .and(header("x-account-key", "acc_other"))
        .and(body_string(concat!(
            r#"{"customer":"cus_1","amount":12.3456,"currency_code":"CLF","product_id":"prod_9","#,
            r#""due_date":"2026-12-31","invoice_external_id":"ext-77","metadata":{"order":"A-1"},"#,
            r#""notes":"ñandú"}"#
        )))
        .respond_with(ResponseTemplate::new(201).set_body_json(json!({
            "id": "in_2", "customer": "cus_1", "amount": 12.3456, "currency_code": "CLF"})))
        .expect(1)
        .mount(&server)
        .await;
    let client = Client::new(oauth(&server)).unwrap();
    let mut metadata = serde_json::Map::new();
    metadata.insert("order".into(), json!("A-1"));
    let mut extra = serde_json::Map::new();
    extra.insert("notes".into(), json!("ñandú"));
    let inv = NewInvoice {
        customer: "cus_1".into(),
        amount: Decimal::from_str("12.3456").unwrap(),
        currency: CurrencyChoice::Code(Currency::CLF),
        product_id: Some("prod_9".into()),
        due_date: Some("2026-12-31".into()),
        invoice_external_id: Some("ext-77".into()),
        metadata: Some(metadata),
        extra,
    };
    let created = client
        .create_invoice(&inv, Some("acc_other"))
        .await
        .unwrap();
    assert_eq!(created.amount, Some(Decimal::from_str("12.3456").unwrap()));
    assert_eq!(created.currency(), Some(Currency::CLF));
}

#[tokio::test]
async fn lookup_and_void_use_the_interface_paths_with_encoded_ids() {
    let server = MockServer::start().await;
    mount_token(&server, "tok-1", 86_400).await;
    Mock::given(method("GET"))
        .and(path("/invoice/in_a%2Fb%20c"))
        .and(header("authorization", "Bearer tok-1"))
        .respond_with(ResponseTemplate::new(200).set_body_json(invoice_json("in_a/b c", "CLP")))
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/invoices/in_1/void"))
        .and(header("authorization", "Bearer tok-1"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "id": "in_1", "amount": "1000", "currency_code": "CLP", "is_void": true})))
        .expect(1)
        .mount(&server)
        .await;
    let client = Client::new(oauth(&server)).unwrap();
    let inv = client.get_invoice(" in_a/b c ").await.unwrap();
    assert_eq!(inv.id, "in_a/b c");
    let voided = client.void_invoice("in_1").await.unwrap();
    assert_eq!(voided.status(), InvoiceStatus::Void);
    assert!(
        client.get_invoice("  ").await.is_err(),
        "an empty id is refused before sending"
    );
}

#[tokio::test]
async fn listing_follows_cursors_and_reports_progress() {
    let server = MockServer::start().await;
    mount_token(&server, "tok-1", 86_400).await;
    let items = |from: usize, n: usize| -> Vec<Value> {
        (from..from + n)
            .map(|i| invoice_json(&format!("in_{i}"), "CLP"))
            .collect()
    };
    Mock::given(method("GET"))
        .and(path("/invoices/customer/cus_1"))
        .and(query_param("page_size", "1000"))
        .and(query_param_is_missing("cursor"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(json!({"items": items(0, 3), "next_cursor": "c2"})),
        )
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/invoices/customer/cus_1"))
        .and(query_param("cursor", "c2"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(json!({"items": items(3, 3), "next_cursor": "c3"})),
        )
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/invoices/customer/cus_1"))
        .and(query_param("cursor", "c3"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(json!({"items": items(6, 1), "next_cursor": null})),
        )
        .expect(1)
        .mount(&server)
        .await;
    let client = Client::new(oauth(&server)).unwrap();
    let mut seen = Vec::new();
    let mut ids = Vec::new();
    let done = client
        .list_customer_invoices("cus_1", |page, p| {
            ids.extend(page.drain(..).map(|i| i.id));
            seen.push(*p);
            std::ops::ControlFlow::Continue(())
        })
        .await
        .unwrap();
    assert_eq!(done.items, 7);
    assert_eq!(done.pages, 3);
    assert_eq!(
        seen.iter().map(|p| p.items).collect::<Vec<_>>(),
        vec![3, 6, 7]
    );
    assert_eq!(ids.first().map(String::as_str), Some("in_0"));
    assert_eq!(ids.last().map(String::as_str), Some("in_6"));
}

#[tokio::test]
async fn listing_accepts_a_bare_array_and_page_numbers() {
    let server = MockServer::start().await;
    mount_token(&server, "tok-1", 86_400).await;
    Mock::given(method("GET"))
        .and(path("/invoices/customer/cus_bare"))
        .respond_with(
            ResponseTemplate::new(200).set_body_json(json!([invoice_json("in_1", "CLP")])),
        )
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/invoices/customer/cus_num"))
        .and(query_param_is_missing("page"))
        .respond_with(ResponseTemplate::new(200).set_body_json(
            json!({"data": [invoice_json("in_1", "CLP")], "page": 1, "total_pages": 2}),
        ))
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/invoices/customer/cus_num"))
        .and(query_param("page", "2"))
        .respond_with(ResponseTemplate::new(200).set_body_json(
            json!({"data": [invoice_json("in_2", "CLF")], "page": 2, "total_pages": 2}),
        ))
        .mount(&server)
        .await;
    let client = Client::new(oauth(&server)).unwrap();
    assert_eq!(client.customer_invoices("cus_bare").await.unwrap().len(), 1);
    let all = client.customer_invoices("cus_num").await.unwrap();
    assert_eq!(
        all.iter().map(|i| i.id.as_str()).collect::<Vec<_>>(),
        vec!["in_1", "in_2"]
    );
}

#[tokio::test]
async fn a_listing_that_repeats_its_cursor_is_stopped() {
    let server = MockServer::start().await;
    mount_token(&server, "tok-1", 86_400).await;
    Mock::given(method("GET"))
        .and(path("/invoices/customer/cus_loop"))
        .respond_with(
            ResponseTemplate::new(200).set_body_json(
                json!({"items": [invoice_json("in_1", "CLP")], "next_cursor": "same"}),
            ),
        )
        .mount(&server)
        .await;
    let client = Client::new(oauth(&server)).unwrap();
    let err = client.customer_invoices("cus_loop").await.unwrap_err();
    assert_eq!(err.kind, ErrorKind::ListingRunaway { pages: 2 });
    let requests = server.received_requests().await.unwrap();
    assert_eq!(count(&requests, "/invoices/customer/cus_loop"), 2);
}

/// Mounts page `cursor` (none: the first) of `cus_1` with `body` as its answer.
async fn mount_page(server: &MockServer, cursor: Option<&str>, answer: ResponseTemplate) {
    let m = Mock::given(method("GET")).and(path("/invoices/customer/cus_1"));
    let m = match cursor {
        Some(c) => m.and(query_param("cursor", c)),
        None => m.and(query_param_is_missing("cursor")),
    };
    m.respond_with(answer).mount(server).await;
}

/// Lists `cus_1`, returning the ids handed over and how the listing ended. Listed both
/// ways (pages decoded one after another, and two at once for the app): both must hand
/// over the same invoices in the same order and end the same way.
async fn list_ids(server: &MockServer) -> (Vec<String>, Result<ListProgress, ApiError>) {
    let client = Client::new(oauth(server)).unwrap();
    let mut ids = Vec::new();
    let end = client
        .list_customer_invoices("cus_1", |page, _| {
            ids.extend(page.drain(..).map(|i| i.id));
            std::ops::ControlFlow::Continue(())
        })
        .await;
    let mut sooner = Vec::new();
    let sooner_end = client
        .list_customer_invoices_with(
            "cus_1",
            invoice_desk::api::client::Decoding::TwoAtOnce,
            |page, _| {
                sooner.extend(page.drain(..).map(|i| i.id));
                std::ops::ControlFlow::Continue(())
            },
        )
        .await;
    assert_eq!(sooner, ids, "two decoders handed over other invoices");
    assert_eq!(
        sooner_end.as_ref().map_err(|e| &e.kind),
        end.as_ref().map_err(|e| &e.kind),
        "two decoders ended otherwise"
    );
    (ids, end)
}

/// The next page is fetched ahead on a guess from the text around the list. An answer
/// that leads the guess astray (paging on both sides of the list, with another list
/// after it) still lists exactly the pages its paging points to: the page fetched on
/// the wrong guess is dropped, and so is a guess that the listing ends.
#[tokio::test]
async fn a_page_fetched_ahead_on_a_wrong_guess_is_not_listed() {
    let server = MockServer::start().await;
    mount_token(&server, "tok-1", 86_400).await;
    let first = format!(
        r#"{{"next_cursor":"astray","items":[{}],"next_cursor":"p2","links":[]}}"#,
        invoice_json("in_1", "CLP")
    );
    let second = format!(
        r#"{{"items":[{}],"next_cursor":"p3","links":["]"],"more":1}}"#,
        invoice_json("in_2", "CLP")
    );
    let astray = json!({"items": [invoice_json("in_astray", "CLP")]});
    let raw = |body: String| ResponseTemplate::new(200).set_body_raw(body, "application/json");
    mount_page(&server, None, raw(first)).await;
    mount_page(
        &server,
        Some("astray"),
        ResponseTemplate::new(200).set_body_json(astray),
    )
    .await;
    mount_page(&server, Some("p2"), raw(second)).await;
    mount_page(
        &server,
        Some("p3"),
        ResponseTemplate::new(200).set_body_json(json!({"items": [invoice_json("in_3", "CLP")]})),
    )
    .await;
    let (ids, end) = list_ids(&server).await;
    assert_eq!(ids, ["in_1", "in_2", "in_3"]);
    assert_eq!(end.unwrap().pages, 3);
}

/// Lists a customer of three pages whose second answers `second`.
async fn with_second_page(
    second: ResponseTemplate,
) -> (MockServer, Vec<String>, Result<ListProgress, ApiError>) {
    let server = MockServer::start().await;
    mount_token(&server, "tok-1", 86_400).await;
    let page = |id: &str, next: &str| {
        ResponseTemplate::new(200)
            .set_body_json(json!({"items": [invoice_json(id, "CLP")], "next_cursor": next}))
    };
    mount_page(&server, None, page("in_1", "c2")).await;
    mount_page(&server, Some("c2"), second).await;
    mount_page(&server, Some("c3"), page("in_3", "c4")).await;
    let (ids, end) = list_ids(&server).await;
    (server, ids, end)
}

#[tokio::test]
async fn a_broken_later_page_is_reported_after_the_pages_before_it() {
    // Valid paging, but an entry that is no invoice: only the full decode sees it.
    let second =
        ResponseTemplate::new(200).set_body_string(r#"{"next_cursor": "c3", "items": [7]}"#);
    let (_, ids, end) = with_second_page(second).await;
    assert_eq!(ids, ["in_1"]);
    let e = end.unwrap_err();
    assert_eq!(e.kind, ErrorKind::Decode, "{e:?}");
    assert!(
        e.body.as_deref().unwrap_or("").contains("\"items\": [7]"),
        "{e:?}"
    );

    // Broken JSON: the page after it is never asked for. Its cursor is named nowhere
    // else: wiremock hands out pooled servers again, and a page fetched ahead by an
    // earlier listing (c3 above) may still be on its way to this one.
    let second = ResponseTemplate::new(200)
        .set_body_string(r#"{"next_cursor": "after-broken", "items": [{"#);
    let (server, ids, end) = with_second_page(second).await;
    assert_eq!(ids, ["in_1"]);
    assert_eq!(end.unwrap_err().kind, ErrorKind::Decode);
    let requests = server.received_requests().await.unwrap();
    assert!(
        !requests
            .iter()
            .any(|r| r.url.query().unwrap_or("").contains("cursor=after-broken")),
        "a page after a broken one was fetched"
    );
}

#[tokio::test]
async fn a_failing_later_page_is_reported_after_the_pages_before_it() {
    let (_, ids, end) = with_second_page(ResponseTemplate::new(500)).await;
    assert_eq!(ids, ["in_1"]);
    assert_eq!(end.unwrap_err().kind, ErrorKind::ServerError);
}

#[tokio::test]
async fn a_next_page_on_another_host_is_never_fetched() {
    let server = MockServer::start().await;
    mount_token(&server, "tok-1", 86_400).await;
    mount_page(
        &server,
        None,
        ResponseTemplate::new(200).set_body_json(json!({
            "items": [invoice_json("in_1", "CLP")],
            "next": "https://elsewhere.example/invoices/customer/cus_1?cursor=c2"
        })),
    )
    .await;
    let (ids, end) = list_ids(&server).await;
    // The page that pointed away is handed over; the listing then fails, not ends.
    assert_eq!(ids, ["in_1"]);
    let e = end.unwrap_err();
    assert_eq!(e.kind, ErrorKind::Decode);
    assert!(format!("{e:?}").contains("another host"), "{e:?}");
}

#[tokio::test]
async fn concurrent_calls_share_one_token_request() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/oauth/token"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(token_body("tok-1", 86_400))
                .set_delay(Duration::from_millis(200)),
        )
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/invoice/in_1"))
        .and(header("authorization", "Bearer tok-1"))
        .respond_with(ResponseTemplate::new(200).set_body_json(invoice_json("in_1", "CLP")))
        .expect(20)
        .mount(&server)
        .await;
    let client = Client::new(oauth(&server)).unwrap();
    assert_eq!(client.token_state(), TokenState::None);
    let calls = (0..20).map(|_| {
        let c = client.clone();
        tokio::spawn(async move { c.get_invoice("in_1").await })
    });
    for r in futures_join(calls).await {
        r.unwrap();
    }
    assert!(matches!(
        client.token_state(),
        TokenState::Valid {
            expires_at: Some(_)
        }
    ));
}

async fn futures_join<T: Send + 'static>(
    handles: impl Iterator<Item = tokio::task::JoinHandle<T>>,
) -> Vec<T> {
    let mut out = Vec::new();
    for h in handles.collect::<Vec<_>>() {
        out.push(h.await.unwrap());
    }
    out
}

#[tokio::test]
async fn a_token_about_to_expire_is_refreshed_before_use() {
    let server = MockServer::start().await;
    // Lifetime 2 s: the margin is 1 s, so after 1.2 s the token must not be used again.
    Mock::given(method("POST"))
        .and(path("/oauth/token"))
        .respond_with(ResponseTemplate::new(200).set_body_json(token_body("tok-short", 2)))
        .expect(2)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/invoice/in_1"))
        .respond_with(ResponseTemplate::new(200).set_body_json(invoice_json("in_1", "CLP")))
        .expect(3)
        .mount(&server)
        .await;
    let client = Client::new(oauth(&server)).unwrap();
    client.get_invoice("in_1").await.unwrap();
    client.get_invoice("in_1").await.unwrap();
    // 1.2 s later on the client's clock (tokio's, moved: no real wait; nothing is in
    // flight while it is paused).
    tokio::time::pause();
    tokio::time::advance(Duration::from_millis(1200)).await;
    tokio::time::resume();
    client.get_invoice("in_1").await.unwrap();
}

#[tokio::test]
async fn a_401_gets_exactly_one_new_token_and_one_retry() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/oauth/token"))
        .respond_with(ResponseTemplate::new(200).set_body_json(token_body("tok-old", 86_400)))
        .up_to_n_times(1)
        .with_priority(1)
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/oauth/token"))
        .respond_with(ResponseTemplate::new(200).set_body_json(token_body("tok-new", 86_400)))
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/invoices/in_1/void"))
        .and(header("authorization", "Bearer tok-old"))
        .respond_with(
            ResponseTemplate::new(401)
                .set_body_json(json!({"error": {"message": "token revoked"}})),
        )
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/invoices/in_1/void"))
        .and(header("authorization", "Bearer tok-new"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(json!({"id": "in_1", "is_void": true, "currency_code": "CLP"})),
        )
        .expect(1)
        .mount(&server)
        .await;
    let client = Client::new(oauth(&server)).unwrap();
    assert!(client.void_invoice("in_1").await.unwrap().is_void.unwrap());
}

#[tokio::test]
async fn a_second_401_is_reported_not_retried_again() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/oauth/token"))
        .respond_with(ResponseTemplate::new(200).set_body_json(token_body("tok", 86_400)))
        .expect(2)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/invoice/in_1"))
        .respond_with(ResponseTemplate::new(401))
        .expect(2)
        .mount(&server)
        .await;
    let client = Client::new(oauth(&server)).unwrap();
    let err = client.get_invoice("in_1").await.unwrap_err();
    assert_eq!(err.kind, ErrorKind::Unauthorized);
    assert!(err.is_auth());
}

#[tokio::test]
async fn api_key_profiles_never_call_the_token_endpoint() {
    let server = MockServer::start().await;
    Mock::given(path("/oauth/token"))
        .respond_with(ResponseTemplate::new(500))
        .expect(0)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/invoices"))
        .and(header("x-api-key", "key-abc"))
        .and(header("x-account-key", "acc_clf"))
        .and(body_string(
            r#"{"customer":"cus_1","amount":5,"currency_code":"CLP"}"#,
        ))
        .respond_with(ResponseTemplate::new(201).set_body_json(invoice_json("in_1", "CLP")))
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/invoice/in_1"))
        .and(header("authorization-key", "key-abc"))
        .respond_with(ResponseTemplate::new(200).set_body_json(invoice_json("in_1", "CLP")))
        .expect(1)
        .mount(&server)
        .await;
    let mut cfg = ClientConfig::new(
        server.uri(),
        AuthSettings::ApiKey(ApiKeySettings {
            header: String::new(),
            key: SecretString::from("key-abc"),
        }),
    );
    cfg.account_key = Some("acc_clf".into());
    let client = Client::new(cfg.clone()).unwrap();
    assert_eq!(client.token_state(), TokenState::NotUsed);
    let inv = NewInvoice {
        customer: "cus_1".into(),
        amount: Decimal::from(5),
        currency: CurrencyChoice::Code(Currency::CLP),
        ..Default::default()
    };
    client.create_invoice(&inv, None).await.unwrap();
    // A configurable header name.
    cfg.auth = AuthSettings::ApiKey(ApiKeySettings {
        header: "Authorization-Key".into(),
        key: SecretString::from("key-abc"),
    });
    Client::new(cfg).unwrap().get_invoice("in_1").await.unwrap();
    let requests = server.received_requests().await.unwrap();
    assert!(
        requests
            .iter()
            .all(|r| !r.headers.contains_key("authorization"))
    );
}

#[tokio::test]
async fn form_encoded_token_requests_are_available() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/oauth/token"))
        .and(header("content-type", "application/x-www-form-urlencoded"))
        .and(body_string("grant_type=client_credentials&client_id=client-1&client_secret=s3cret-value&audience=https%3A%2F%2Fapi.example.cl"))
        .respond_with(ResponseTemplate::new(200).set_body_json(token_body("tok-f", 3600)))
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/invoice/in_1"))
        .and(header("authorization", "Bearer tok-f"))
        .respond_with(ResponseTemplate::new(200).set_body_json(invoice_json("in_1", "CLP")))
        .mount(&server)
        .await;
    let mut cfg = oauth(&server);
    if let AuthSettings::OAuth(o) = &mut cfg.auth {
        o.body_style = TokenBodyStyle::Form;
    }
    Client::new(cfg).unwrap().get_invoice("in_1").await.unwrap();
}

#[tokio::test]
async fn connection_check_counts_not_found_as_success() {
    let server = MockServer::start().await;
    mount_token(&server, "tok-1", 600).await;
    Mock::given(method("GET"))
        .and(path("/invoice/invoice-desk-connection-check"))
        .and(header_exists("authorization"))
        .respond_with(
            ResponseTemplate::new(404).set_body_json(
                json!({"error": {"message": "invoice not found", "code": "TK20600"}}),
            ),
        )
        .expect(1)
        .mount(&server)
        .await;
    let client = Client::new(oauth(&server)).unwrap();
    let report = client.check_connection().await.unwrap();
    assert!(report.service_ok);
    assert!(matches!(report.token, TokenState::Valid { .. }));
}

#[tokio::test]
async fn responses_without_currency_code_still_decode_and_are_marked() {
    let server = MockServer::start().await;
    mount_token(&server, "tok-1", 600).await;
    Mock::given(method("GET"))
        .and(path("/invoice/in_1"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_string(r#"{"id":"in_1","amount":1234.5678,"status":"PAID","x":[1,2]}"#),
        )
        .mount(&server)
        .await;
    let inv = Client::new(oauth(&server))
        .unwrap()
        .get_invoice("in_1")
        .await
        .unwrap();
    assert!(inv.currency_missing());
    assert_eq!(inv.amount, Some(Decimal::from_str("1234.5678").unwrap()));
    assert_eq!(inv.status(), InvoiceStatus::Paid);
    assert_eq!(inv.extra.get("x"), Some(&json!([1, 2])));
}

#[test]
fn insecure_addresses_are_refused() {
    let cfg = ClientConfig::new(
        "http://api.example.cl",
        AuthSettings::ApiKey(ApiKeySettings {
            header: "x-api-key".into(),
            key: SecretString::from("k"),
        }),
    );
    let err = Client::new(cfg).unwrap_err();
    assert!(matches!(err.kind, ErrorKind::InsecureUrl(_)));
    let cfg = ClientConfig::new(
        "https://api.example.cl",
        AuthSettings::OAuth(OAuthSettings {
            auth_url: "http://idp.example.cl".into(),
            audience: "a".into(),
            client_id: "c".into(),
            client_secret: SecretString::from("s"),
            body_style: TokenBodyStyle::Json,
        }),
    );
    assert!(matches!(
        Client::new(cfg).unwrap_err().kind,
        ErrorKind::InsecureUrl(_)
    ));
}

#[test]
fn secrets_never_show_in_debug_output() {
    let cfg = ClientConfig::new(
        "https://api.example.cl",
        AuthSettings::OAuth(OAuthSettings {
            auth_url: "https://idp.example.cl".into(),
            audience: "a".into(),
            client_id: "c".into(),
            client_secret: SecretString::from("top-secret-value"),
            body_style: TokenBodyStyle::Json,
        }),
    );
    let text = format!("{cfg:?} {:?}", Client::new(cfg.clone()).unwrap());
    assert!(!text.contains("top-secret-value"), "{text}");
}
