//! End-to-end: the API layer against the built-in sandbox on an ephemeral loopback port.

use invoice_desk::api::*;
use invoice_desk::sandbox::data::BIG_CUSTOMER;
use invoice_desk::sandbox::{Fault, Route, Sandbox, SandboxConfig};
use rust_decimal::Decimal;
use secrecy::SecretString;
use std::str::FromStr;
use std::time::{Duration, Instant};

async fn sandbox(big: usize) -> Sandbox {
    Sandbox::start(SandboxConfig {
        big_customer_invoices: big,
        ..Default::default()
    })
    .await
    .unwrap()
}

fn oauth_config(s: &Sandbox) -> ClientConfig {
    let mut cfg = ClientConfig::new(
        s.base_url.clone(),
        AuthSettings::OAuth(OAuthSettings {
            auth_url: s.auth_url.clone(),
            audience: s.audience.clone(),
            client_id: s.credentials.client_id.clone(),
            client_secret: SecretString::from(s.credentials.client_secret.clone()),
            body_style: TokenBodyStyle::Json,
        }),
    );
    cfg.account_key = Some(s.credentials.account_clp.clone());
    cfg.retry_base = Duration::from_millis(10);
    cfg
}

fn oauth(s: &Sandbox) -> Client {
    Client::new(oauth_config(s)).unwrap()
}

fn api_key(s: &Sandbox, key: &str) -> Client {
    let mut cfg = ClientConfig::new(
        s.base_url.clone(),
        AuthSettings::ApiKey(ApiKeySettings {
            header: "x-api-key".into(),
            key: SecretString::from(key.to_string()),
        }),
    );
    cfg.account_key = Some(s.credentials.key_account_clp.clone());
    Client::new(cfg).unwrap()
}

fn customer(s: &Sandbox) -> String {
    s.customers()[0].0.clone()
}

fn invoice(customer: &str, amount: &str, currency: CurrencyChoice) -> NewInvoice {
    NewInvoice {
        customer: customer.into(),
        amount: Decimal::from_str(amount).unwrap(),
        currency,
        product_id: Some("prod_asesoria".into()),
        due_date: Some("2026-12-31".into()),
        invoice_external_id: Some(uuid::Uuid::new_v4().to_string()),
        ..Default::default()
    }
}

#[tokio::test]
async fn currency_rules_on_clp_and_clf_accounts() {
    let s = sandbox(0).await;
    let c = oauth(&s);
    let cus = customer(&s);
    let (clp, clf) = (
        s.credentials.account_clp.clone(),
        s.credentials.account_clf.clone(),
    );
    // Absent currency_code: the account's currency.
    let a = c
        .create_invoice(
            &invoice(&cus, "15000", CurrencyChoice::AccountDefault),
            Some(&clp),
        )
        .await
        .unwrap();
    assert_eq!(a.currency(), Some(Currency::CLP));
    let b = c
        .create_invoice(
            &invoice(&cus, "12.3456", CurrencyChoice::AccountDefault),
            Some(&clf),
        )
        .await
        .unwrap();
    assert_eq!(b.currency(), Some(Currency::CLF));
    assert_eq!(b.amount, Some(Decimal::from_str("12.3456").unwrap()));
    // Explicit currency_code wins over the account's.
    let c1 = c
        .create_invoice(
            &invoice(&cus, "1.5", CurrencyChoice::Code(Currency::CLF)),
            Some(&clp),
        )
        .await
        .unwrap();
    assert_eq!(c1.currency(), Some(Currency::CLF));
    let c2 = c
        .create_invoice(
            &invoice(&cus, "990", CurrencyChoice::Code(Currency::CLP)),
            Some(&clf),
        )
        .await
        .unwrap();
    assert_eq!(c2.currency(), Some(Currency::CLP));
    // The account's precision rule: an account-currency CLP invoice with decimals is refused.
    let err = c
        .create_invoice(
            &invoice(&cus, "10.5", CurrencyChoice::AccountDefault),
            Some(&clp),
        )
        .await
        .unwrap_err();
    assert_eq!(err.field_errors()[0].field, "amount");
    assert!(!a.currency_missing());
}

#[tokio::test]
async fn lookup_void_and_the_409s() {
    let s = sandbox(0).await;
    let c = oauth(&s);
    let created = c
        .create_invoice(
            &invoice(&customer(&s), "5000", CurrencyChoice::AccountDefault),
            None,
        )
        .await
        .unwrap();
    let got = c.get_invoice(&created.id).await.unwrap();
    assert_eq!(got, created);
    assert_eq!(got.status(), InvoiceStatus::Open);
    let voided = c.void_invoice(&created.id).await.unwrap();
    assert_eq!(voided.status(), InvoiceStatus::Void);
    let again = c.void_invoice(&created.id).await.unwrap_err();
    assert_eq!(again.kind, ErrorKind::Conflict);
    assert!(invoice_desk::i18n::error_text(&again).contains("already void"));
    let paid = c
        .create_invoice(
            &invoice(&customer(&s), "5000", CurrencyChoice::AccountDefault),
            None,
        )
        .await
        .unwrap();
    assert!(s.mark_paid(&paid.id));
    let err = c.void_invoice(&paid.id).await.unwrap_err();
    assert_eq!(err.kind, ErrorKind::Conflict);
    let missing = c.get_invoice("in_does_not_exist").await.unwrap_err();
    assert_eq!(
        invoice_desk::i18n::error_text(&missing),
        "There is no invoice with id in_does_not_exist."
    );
    assert_eq!(
        missing.service_message.as_deref(),
        Some("invoice not found")
    );
}

#[tokio::test]
async fn listing_through_several_pages() {
    let s = sandbox(250).await;
    let mut cfg = oauth_config(&s);
    cfg.page_size = Some(100);
    let c = Client::new(cfg).unwrap();
    let mut pages = Vec::new();
    let done = c
        .list_customer_invoices(BIG_CUSTOMER, |items, p| {
            pages.push((items.len(), p.items));
            std::ops::ControlFlow::Continue(())
        })
        .await
        .unwrap();
    assert_eq!(done.items, 250);
    assert_eq!(pages, vec![(100, 100), (100, 200), (50, 250)]);
    assert_eq!(s.counters().api["list"], 3);
    let unknown = c.customer_invoices("cus_nobody").await.unwrap_err();
    assert!(matches!(unknown.kind, ErrorKind::NotFound { .. }));
    assert!(
        invoice_desk::i18n::error_text(&unknown)
            .starts_with("There is no customer with id cus_nobody.")
    );
}

#[tokio::test]
async fn token_expiry_during_a_long_listing_is_handled_by_refresh() {
    let s = Sandbox::start(SandboxConfig {
        big_customer_invoices: 120,
        token_lifetime: Duration::from_secs(2),
        ..Default::default()
    })
    .await
    .unwrap();
    s.set_latency(Duration::from_millis(250));
    let mut cfg = oauth_config(&s);
    cfg.page_size = Some(10);
    let c = Client::new(cfg).unwrap();
    let all = c.customer_invoices(BIG_CUSTOMER).await.unwrap();
    assert_eq!(all.len(), 120);
    let counters = s.counters();
    assert!(
        counters.tokens_issued >= 2,
        "refreshed during the listing: {counters:?}"
    );
    assert_eq!(
        counters.api["list"], 12,
        "no request was refused and retried"
    );
}

#[tokio::test]
async fn revoked_tokens_are_handled_by_the_401_retry() {
    let s = sandbox(0).await;
    let c = oauth(&s);
    let created = c
        .create_invoice(
            &invoice(&customer(&s), "7000", CurrencyChoice::AccountDefault),
            None,
        )
        .await
        .unwrap();
    s.revoke_tokens();
    c.get_invoice(&created.id).await.unwrap();
    let counters = s.counters();
    assert_eq!(counters.tokens_issued, 2);
    assert_eq!(counters.api["get"], 2);
}

#[tokio::test]
async fn api_key_organization_works_without_tokens() {
    let s = sandbox(0).await;
    let c = api_key(&s, &s.credentials.api_key);
    let cus = customer(&s);
    let created = c
        .create_invoice(&invoice(&cus, "1000", CurrencyChoice::AccountDefault), None)
        .await
        .unwrap();
    assert_eq!(created.currency(), Some(Currency::CLP));
    assert_eq!(c.get_invoice(&created.id).await.unwrap().id, created.id);
    assert!(
        c.customer_invoices(&cus)
            .await
            .unwrap()
            .iter()
            .any(|i| i.id == created.id)
    );
    c.check_connection().await.unwrap();
    assert_eq!(s.counters().token_requests, 0);
    // Organizations see only their own invoices.
    let other = oauth(&s).get_invoice(&created.id).await.unwrap_err();
    assert!(matches!(other.kind, ErrorKind::NotFound { .. }));
}

#[tokio::test]
async fn oauth_organization_refuses_its_old_api_key() {
    let s = sandbox(0).await;
    let err = api_key(&s, &s.credentials.oauth_org_old_api_key)
        .get_invoice("in_x")
        .await
        .unwrap_err();
    assert_eq!(err.kind, ErrorKind::Unauthorized);
    let said = err.service_message.clone().unwrap_or_default();
    assert!(said.contains("OAuth is enabled"), "{err}: {said}");
}

#[tokio::test]
async fn bad_credentials_and_audience_are_named() {
    let s = sandbox(0).await;
    let mut cfg = oauth_config(&s);
    if let AuthSettings::OAuth(o) = &mut cfg.auth {
        o.client_secret = SecretString::from("wrong");
    }
    let err = Client::new(cfg)
        .unwrap()
        .check_connection()
        .await
        .unwrap_err();
    assert!(matches!(err.kind, ErrorKind::CredentialsRejected { .. }));
    let mut cfg = oauth_config(&s);
    if let AuthSettings::OAuth(o) = &mut cfg.auth {
        o.audience = "https://elsewhere.example".into();
    }
    let err = Client::new(cfg)
        .unwrap()
        .check_connection()
        .await
        .unwrap_err();
    assert!(matches!(err.kind, ErrorKind::WrongAudience { .. }));
    let ok = oauth(&s).check_connection().await.unwrap();
    assert!(matches!(
        ok.token,
        TokenState::Valid {
            expires_at: Some(_)
        }
    ));
}

// ---- every fault knob ----

#[tokio::test]
async fn fault_status_500_is_not_retried_and_503_is() {
    let s = sandbox(0).await;
    let c = oauth(&s);
    let id = c
        .create_invoice(
            &invoice(&customer(&s), "1000", CurrencyChoice::AccountDefault),
            None,
        )
        .await
        .unwrap()
        .id;
    s.add_fault(Fault::status(Route::Get, 1, 500));
    assert_eq!(
        c.get_invoice(&id).await.unwrap_err().kind,
        ErrorKind::ServerError
    );
    assert_eq!(s.counters().api["get"], 1);
    s.add_fault(Fault::status(Route::Get, 2, 503));
    c.get_invoice(&id).await.unwrap();
    assert_eq!(s.counters().api["get"], 4);
}

#[tokio::test]
async fn fault_rate_limit_is_waited_out_on_reads_and_reported_on_writes() {
    let s = sandbox(0).await;
    let c = oauth(&s);
    let cus = customer(&s);
    s.add_fault(Fault::rate_limit(Route::List, 1, 1));
    let t = Instant::now();
    c.customer_invoices(&cus).await.unwrap();
    assert!(t.elapsed() >= Duration::from_secs(1));
    s.add_fault(Fault::rate_limit(Route::Create, 1, 1));
    let err = c
        .create_invoice(&invoice(&cus, "1000", CurrencyChoice::AccountDefault), None)
        .await
        .unwrap_err();
    assert_eq!(
        err.kind,
        ErrorKind::RateLimited {
            retry_after: Some(Duration::from_secs(1))
        }
    );
    assert_eq!(s.counters().api["create"], 1);
}

#[tokio::test]
async fn fault_reset_after_create_is_outcome_unknown_and_the_invoice_can_be_found() {
    let s = sandbox(0).await;
    let c = oauth(&s);
    let cus = customer(&s);
    let new = invoice(&cus, "4321", CurrencyChoice::AccountDefault);
    s.add_fault(Fault::reset(Route::Create, 1));
    let err = c.create_invoice(&new, None).await.unwrap_err();
    assert!(err.is_outcome_unknown(), "{err:?}");
    assert_eq!(s.counters().api["create"], 1, "never resent");
    let found = c.customer_invoices(&cus).await.unwrap();
    let ext = new.invoice_external_id.clone();
    assert_eq!(
        found
            .iter()
            .filter(|i| i.invoice_external_id == ext)
            .count(),
        1,
        "created exactly once"
    );
}

#[tokio::test]
async fn fault_hang_on_void_is_outcome_unknown_and_rechecked_by_reading() {
    let s = sandbox(0).await;
    let mut cfg = oauth_config(&s);
    cfg.timeout = Duration::from_millis(700);
    let c = Client::new(cfg).unwrap();
    let id = c
        .create_invoice(
            &invoice(&customer(&s), "1000", CurrencyChoice::AccountDefault),
            None,
        )
        .await
        .unwrap()
        .id;
    s.add_fault(Fault::hang(Route::Void, 1, 3));
    let err = c.void_invoice(&id).await.unwrap_err();
    assert!(err.is_outcome_unknown());
    assert_eq!(
        c.get_invoice(&id).await.unwrap().status(),
        InvoiceStatus::Void
    );
    assert_eq!(s.counters().api["void"], 1);
}

#[tokio::test]
async fn fault_reset_on_a_read_is_a_network_error() {
    let s = sandbox(0).await;
    let c = oauth(&s);
    s.add_fault(Fault::reset(Route::Get, 1));
    let err = c.get_invoice("in_x").await.unwrap_err();
    assert!(err.is_network(), "{err:?}");
}

#[tokio::test]
async fn fault_on_the_token_endpoint_and_latency() {
    let s = sandbox(0).await;
    let c = oauth(&s);
    s.add_fault(Fault::status(Route::Token, 1, 500));
    assert_eq!(
        c.check_connection().await.unwrap_err().kind,
        ErrorKind::TokenEndpointFailed
    );
    s.add_fault(Fault::rate_limit(Route::Token, 1, 2));
    let fresh = oauth(&s);
    assert!(matches!(
        fresh.check_connection().await.unwrap_err().kind,
        ErrorKind::TokenRateLimited { .. }
    ));
    s.set_latency(Duration::from_millis(300));
    let t = Instant::now();
    oauth(&s).check_connection().await.unwrap();
    assert!(
        t.elapsed() >= Duration::from_millis(600),
        "token + API request each delayed"
    );
}

#[tokio::test]
async fn data_file_survives_a_restart_and_is_written_atomically() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("sandbox.json");
    let cfg = SandboxConfig {
        data_file: Some(file.clone()),
        ..Default::default()
    };
    let s = Sandbox::start(cfg.clone()).await.unwrap();
    let c = oauth(&s);
    let id = c
        .create_invoice(
            &invoice(&customer(&s), "2500", CurrencyChoice::AccountDefault),
            None,
        )
        .await
        .unwrap()
        .id;
    c.void_invoice(&id).await.unwrap();
    drop(c);
    s.stop().await;
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 1, "no temporary file left: {names:?}");
    let s = Sandbox::start(cfg).await.unwrap();
    let again = oauth(&s).get_invoice(&id).await.unwrap();
    assert_eq!(again.status(), InvoiceStatus::Void);
}

#[tokio::test]
async fn separate_auth_port() {
    let s = Sandbox::start(SandboxConfig {
        auth_port: Some(0),
        ..Default::default()
    })
    .await
    .unwrap();
    assert_ne!(s.base_url, s.auth_url);
    oauth(&s).check_connection().await.unwrap();
}

#[tokio::test]
async fn big_customer_is_generated_not_stored_and_its_changes_survive_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("sandbox.json");
    let cfg = SandboxConfig {
        data_file: Some(file.clone()),
        big_customer_invoices: 50_000,
        ..Default::default()
    };
    let s = Sandbox::start(cfg.clone()).await.unwrap();
    let c = oauth(&s);
    let before = c.customer_invoices(BIG_CUSTOMER).await.unwrap();
    assert_eq!(before.len(), 50_000);
    let ids: std::collections::HashSet<_> = before.iter().map(|i| i.id.clone()).collect();
    assert_eq!(ids.len(), 50_000, "ids are unique");
    let open = before
        .iter()
        .find(|i| i.status() == InvoiceStatus::Open)
        .unwrap()
        .id
        .clone();
    assert_eq!(c.get_invoice(&open).await.unwrap().id, open);
    c.void_invoice(&open).await.unwrap();
    let paid = before
        .iter()
        .rev()
        .find(|i| i.status() == InvoiceStatus::Open)
        .unwrap()
        .id
        .clone();
    assert!(s.mark_paid(&paid));
    let mut inv = invoice(BIG_CUSTOMER, "7000", CurrencyChoice::AccountDefault);
    inv.invoice_external_id = Some("REF-NUEVA".into());
    let created = c.create_invoice(&inv, None).await.unwrap().id;
    drop(c);
    s.stop().await;
    // 50,000 invoices would take ~19 MB; the file holds the ~260 regular invoices
    // (~100 KB) and the big customer's changes only.
    let size = std::fs::metadata(&file).unwrap().len();
    assert!(size < 150_000, "sandbox file is {size} bytes");

    let s = Sandbox::start(cfg).await.unwrap();
    let c = oauth(&s);
    let after = c.customer_invoices(BIG_CUSTOMER).await.unwrap();
    assert_eq!(after.len(), 50_001);
    assert_eq!(after.last().unwrap().id, created, "created ones come last");
    for (a, b) in before.iter().zip(&after) {
        assert_eq!(a.id, b.id);
        assert_eq!(a.amount, b.amount);
        let expected = if a.id == open {
            InvoiceStatus::Void
        } else if a.id == paid {
            InvoiceStatus::Paid
        } else {
            a.status()
        };
        assert_eq!(b.status(), expected, "{}", a.id);
    }
    let err = c.void_invoice(&open).await.unwrap_err();
    assert!(
        invoice_desk::i18n::error_text(&err).contains("already void"),
        "{err}"
    );
    // Another organization sees none of them.
    let key = api_key(&s, &s.credentials.api_key.clone());
    assert!(
        key.customer_invoices(BIG_CUSTOMER)
            .await
            .unwrap()
            .is_empty()
    );
    assert!(key.get_invoice(&open).await.is_err());
}
