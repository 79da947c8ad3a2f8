//! Currencies beyond CLP and CLF (ISO 4217): read and shown with their minor units,
//! offered when a profile (or the environment) says so, refused by a service that does not
//! accept them yet — through the API layer, the CLI and the app.

mod cli_env;
mod common;
mod hostile_server;

use assert_cmd::Command;
use common::{click, has_text, runtime, set_text, step_until};
use egui_kittest::kittest::Queryable;
use invoice_desk::api::{Currency, CurrencyChoice, ErrorKind, Invoice, NewInvoice};
use invoice_desk::export::{self, Dialect};
use invoice_desk::i18n::Lang;
use invoice_desk::sandbox::{Sandbox, SandboxConfig};
use rust_decimal::Decimal;
use serde_json::json;
use std::str::FromStr;

fn sandbox(rt: &tokio::runtime::Runtime, currencies: &[Currency]) -> Sandbox {
    rt.block_on(Sandbox::start(SandboxConfig {
        currencies: currencies.to_vec(),
        ..Default::default()
    }))
    .unwrap()
}

fn client(s: &Sandbox) -> invoice_desk::api::Client {
    invoice_desk::api::Client::new(s.profile("x").client_config(secrecy::SecretString::from(
        s.credentials.client_secret.clone(),
    )))
    .unwrap()
}

fn usd_invoice(s: &Sandbox, amount: &str) -> NewInvoice {
    NewInvoice {
        customer: s.customers()[0].0.clone(),
        amount: Decimal::from_str(amount).unwrap(),
        currency: CurrencyChoice::Code(Currency::USD),
        ..Default::default()
    }
}

#[test]
fn mixed_currencies_are_shown_totalled_and_exported_with_their_minor_units() {
    // A listing page as the service sends it, decoded by the API layer.
    let page = json!({"items": [
        {"id": "in_1", "amount": 1234567, "currency_code": "CLP"},
        {"id": "in_2", "amount": 12.3, "currency_code": "CLF"},
        {"id": "in_3", "amount": 1234.5, "currency_code": "USD"},
        {"id": "in_4", "amount": 1000, "currency_code": "JPY"},
        {"id": "in_5", "amount": 1.5, "currency_code": "BHD"},
        {"id": "in_6", "amount": 7, "currency_code": "XYZ"},
    ], "next_cursor": null});
    let rows: Vec<Invoice> = invoice_desk::api::Page::from_slice(page.to_string().as_bytes())
        .unwrap()
        .items;
    let shown: Vec<String> = rows.iter().map(Invoice::amount_display).collect();
    assert_eq!(
        shown,
        [
            "$1.234.567",
            "UF 12,3000",
            "US$ 1.234,50",
            "JPY 1.000",
            "BHD 1,500",
            "7 XYZ"
        ]
    );
    // Totals never mix currencies.
    let mut view = invoice_desk::ui::customers::View::default();
    let mut all = invoice_desk::ui::customers::Rows::default();
    all.push_page(rows.clone());
    view.rebuild(
        &all,
        invoice_desk::ui::customers::SortKey::Amount,
        true,
        &invoice_desk::ui::customers::Settings::default(),
    );
    let totals: Vec<(String, String)> = view
        .totals
        .iter()
        .map(|(c, t)| (c.clone(), t.sum.to_string()))
        .collect();
    assert_eq!(totals.len(), 6, "{totals:?}");
    let mut csv = Vec::new();
    export::write(
        &mut csv,
        rows.iter(),
        Dialect::Standard,
        &std::sync::atomic::AtomicBool::new(false),
    )
    .unwrap();
    let text = String::from_utf8(csv).unwrap();
    for cell in [",1234.50,USD,", ",1000,JPY,", ",1.500,BHD,", ",7,XYZ,"] {
        assert!(text.contains(cell), "{cell} in\n{text}");
    }
}

#[test]
fn a_configured_currency_goes_through_and_a_service_that_refuses_it_is_heard() {
    let rt = runtime();
    let with_usd = sandbox(&rt, &[Currency::CLP, Currency::CLF, Currency::USD]);
    let inv = rt
        .block_on(client(&with_usd).create_invoice(&usd_invoice(&with_usd, "1234.56"), None))
        .unwrap();
    assert_eq!(inv.currency_code.as_deref(), Some("USD"));
    assert_eq!(inv.amount_display(), "US$ 1.234,56");
    let without = sandbox(&rt, &Currency::DEFAULT_OFFERED);
    let e = rt
        .block_on(client(&without).create_invoice(&usd_invoice(&without, "10"), None))
        .unwrap_err();
    assert!(matches!(e.kind, ErrorKind::Validation { .. }), "{e:?}");
    assert_eq!(e.field_errors()[0].field, "currency_code");
}

fn cli(s: &Sandbox, dir: &std::path::Path) -> Command {
    Command::from_std(cli_env::oauth_cli(s, dir))
}

#[test]
fn the_cli_offers_a_currency_once_configured() {
    let rt = runtime();
    let s = sandbox(&rt, &[Currency::CLP, Currency::CLF, Currency::USD]);
    let dir = tempfile::tempdir().unwrap();
    let cus = s.customers()[0].0.clone();
    let create = [
        "create",
        "--customer",
        &cus,
        "--amount",
        "1.234,56",
        "--currency",
        "usd",
    ];
    let out = cli(&s, dir.path()).args(create).assert().code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        err.contains("USD is not among this profile's currencies (CLP, CLF)"),
        "{err}"
    );
    let out = cli(&s, dir.path())
        .env("INVOICE_DESK_CURRENCIES", "CLP,CLF,USD")
        .args(create)
        .arg("--json")
        .assert()
        .success();
    let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(v["currency_code"], "USD");
    assert_eq!(v["amount"].to_string(), "1234.56");
    let out = cli(&s, dir.path())
        .env("INVOICE_DESK_CURRENCIES", "CLP,DOLLARS")
        .args(create)
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(err.contains("\"DOLLARS\" is not an ISO 4217"), "{err}");
    cli(&s, dir.path())
        .args([
            "create",
            "--customer",
            &cus,
            "--amount",
            "1",
            "--currency",
            "XYZ",
        ])
        .assert()
        .code(2);
    // A service that does not accept USD yet has the last word: 422 on currency_code.
    let old = sandbox(&rt, &Currency::DEFAULT_OFFERED);
    let out = cli(&old, dir.path())
        .env("INVOICE_DESK_CURRENCIES", "CLP,CLF,USD")
        .args(create)
        .assert()
        .code(4);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(err.contains("currency_code"), "{err}");
}

fn pick_usd_and_create(
    s: &Sandbox,
    rt: &tokio::runtime::Runtime,
    dir: &std::path::Path,
) -> common::H {
    let mut profile = s.profile("Dólares");
    profile.currencies = vec![Currency::CLP, Currency::CLF, Currency::USD];
    let mut h = common::connected_to(
        rt,
        profile,
        &s.credentials.client_secret,
        dir,
        [1100.0, 760.0],
        Lang::En,
    );
    click(&mut h, "New invoice");
    set_text(&mut h, "Customer id", &s.customers()[0].0);
    h.get_by_role_and_label(egui::accesskit::Role::ComboBox, "Currency")
        .click();
    h.step();
    h.step();
    h.get_all_by_label("USD").last().unwrap().click();
    h.step();
    h.step();
    set_text(&mut h, "Amount", "1.234,56");
    assert!(has_text(&h, "= US$ 1.234,56 USD"), "read in dollars");
    click(&mut h, "Create invoice");
    h
}

#[test]
fn the_picker_offers_the_profiles_currencies() {
    let rt = runtime();
    let s = sandbox(&rt, &[Currency::CLP, Currency::CLF, Currency::USD]);
    let dir = tempfile::tempdir().unwrap();
    let mut h = pick_usd_and_create(&s, &rt, dir.path());
    step_until(&mut h, "created", |h| has_text(h, "created."));
    assert!(has_text(&h, "US$ 1.234,56"));
}

#[test]
fn a_service_that_does_not_accept_it_yet_is_heard_beside_the_currency() {
    let rt = runtime();
    let s = sandbox(&rt, &[Currency::CLP, Currency::CLF]);
    let dir = tempfile::tempdir().unwrap();
    let mut h = pick_usd_and_create(&s, &rt, dir.path());
    step_until(&mut h, "refused", |h| {
        has_text(h, "The service did not accept this value")
    });
    assert!(has_text(&h, "Check: Currency."));
}

/// #50: the UF's value from the CMF-shaped sandbox, in pesos exact to the peso, kept so
/// a day is fetched once; refused keys, unpublished days and no key said in plain words
/// (and nothing printed as a value); a file of values imported beside what is kept.
#[test]
fn the_ufs_value_is_fetched_once_kept_and_converted_to_the_peso() {
    let rt = runtime();
    let s = sandbox(&rt, &[]);
    let dir = tempfile::tempdir().unwrap();
    let uf = |key: Option<&str>, args: &[&str]| {
        let mut c = cli_env::cli(dir.path());
        c.env("LANG", "es_CL.UTF-8")
            .env("INVOICE_DESK_CMF_URL", format!("{}/cmf", s.base_url));
        if let Some(k) = key {
            c.env("INVOICE_DESK_CMF_KEY", k);
        }
        let out = c.arg("uf").args(args).output().unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let fetches = || s.counters().api.get("uf").copied().unwrap_or(0);
    let key = Some(invoice_desk::uf::SANDBOX_KEY);
    let (code, out, err) = uf(key, &["show", "--date", "2026-11-26", "--amount", "23,193"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("UF al 26-11-2026: $39.643,59 (CMF; guardado por "),
        "{out}"
    );
    // 23,193 × 39.643,59 = 919.453,78… → $919.454 (half up to the peso).
    assert!(out.contains("UF 23,1930 ≈ $919.454 al 26-11-2026"), "{out}");
    assert_eq!(fetches(), 1);
    // The month was kept: another day of it asks nobody.
    let (code, out, _) = uf(key, &["show", "--date", "2026-11-03"]);
    assert_eq!(code, Some(0));
    assert!(out.contains("UF al 03-11-2026: $"), "{out}");
    assert_eq!(fetches(), 1, "kept, not fetched again");
    // A refused key, a day not published, no key at all: said, no value printed.
    let (code, out, err) = uf(Some("otra"), &["show", "--date", "2025-03-15"]);
    assert_eq!(code, Some(3), "{err}");
    assert!(out.is_empty());
    assert!(err.contains("La CMF rechazó la llave"), "{err}");
    let (code, out, err) = uf(key, &["show", "--date", "2099-01-01"]);
    assert_eq!(code, Some(4), "{err}");
    assert!(out.is_empty());
    assert!(err.contains("01-01-2099 aún no está publicado"), "{err}");
    let (code, _, err) = uf(None, &["show", "--date", "2025-03-15"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("Sin llave de la CMF"), "{err}");
    // A file: one day new, one day the CMF has with another value (kept beside it under
    // the file's name; the CMF's is used, said).
    let file = dir.path().join("valores.csv");
    std::fs::write(
        &file,
        "Fecha;Valor\n15-03-2025;38.650,12\n26-11-2026;39.640,00\n",
    )
    .unwrap();
    let (code, out, err) = uf(None, &["import", file.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("Se guardaron 2 valores"), "{out}");
    assert!(out.contains("(2 nuevos)"), "{out}");
    assert!(
        err.contains(
            "26-11-2026: este valor ($39.640,00) no coincide con el que publica la CMF ($39.643,59); se usa el de la CMF."
        ),
        "{err}"
    );
    let (code, out, _) = uf(None, &["show", "--date", "2025-03-15"]);
    assert_eq!(code, Some(0));
    assert!(
        out.contains("$38.650,12 (archivo «valores.csv»; guardado por "),
        "{out}"
    );
    let (_, out, _) = uf(None, &["show", "--date", "2026-11-26"]);
    assert!(out.contains("$39.643,59 (CMF; "), "{out}");
    // A file that is not a table of values changes nothing.
    std::fs::write(&file, "Fecha;Valor\n16-03-2025;38.650\n").unwrap();
    let (code, _, err) = uf(None, &["import", file.to_str().unwrap()]);
    assert_eq!(code, Some(2), "{err}");
    // Why, in the clerk's words and row: no English reason inside a Spanish sentence.
    assert!(
        err.contains("fila 2: «38.650» no es un valor de la UF (como 39.643,59)"),
        "{err}"
    );
    let sii = dir.path().join("tabla-sii.csv");
    std::fs::write(
        &sii,
        "Día;Enero
1;38.416,69
",
    )
    .unwrap();
    let (code, _, err) = uf(None, &["import", sii.to_str().unwrap()]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("la tabla del SII no dice de qué año es"),
        "{err}"
    );
    let (code, _, _) = uf(None, &["show", "--date", "2025-03-16"]);
    assert_eq!(code, Some(2), "still not kept (and no key to fetch it)");
}

/// #66: a CMF answer is believed only for the month asked and where it holds
/// together: another month's day in it is left out, a day more than 0.5 % a day away
/// from the days around it is not used (said why), and a file of values with such a day
/// is refused whole, nothing kept.
#[test]
fn a_cmf_answer_is_believed_only_for_the_month_asked_and_where_it_holds_together() {
    let rt = runtime();
    // November as the CMF publishes it (up 0,01 % a day), but for the 15th, and a
    // December day that was never asked for.
    let mut ufs: Vec<serde_json::Value> = (1..=30)
        .map(|d| {
            let cents = 3_950_000 + 400 * d;
            let text = if d == 15 {
                "45.000,00".to_string()
            } else {
                format!(
                    "{}.{:03},{:02}",
                    cents / 100_000,
                    (cents / 100) % 1000,
                    cents % 100
                )
            };
            json!({"Valor": text, "Fecha": format!("2026-11-{d:02}")})
        })
        .collect();
    ufs.push(json!({"Valor": "1.000,00", "Fecha": "2026-12-24"}));
    let body = serde_json::to_vec(&json!({ "UFs": ufs })).unwrap();
    let cmf = rt.block_on(hostile_server::Hostile::start(
        hostile_server::Token::Normal,
        hostile_server::Api::Raw {
            status: 200,
            headers: vec![("Content-Type".into(), "application/json".into())],
            body,
        },
    ));
    let dir = tempfile::tempdir().unwrap();
    let uf = |args: &[&str]| {
        let out = cli_env::cli(dir.path())
            .env("LANG", "es_CL.UTF-8")
            .env("INVOICE_DESK_CMF_URL", &cmf.url)
            .env("INVOICE_DESK_CMF_KEY", "llave")
            .arg("uf")
            .args(args)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, out, err) = uf(&["show", "--date", "2026-11-20"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("UF al 20-11-2026: $39.580,00 (CMF; guardado por "),
        "{out}"
    );
    // The 15th breaks with the days around it: not used, said why, nothing printed.
    let (code, out, err) = uf(&["show", "--date", "2026-11-15"]);
    assert_eq!(code, Some(4), "{out}");
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("El valor de la UF del 15-11-2026 que se recibió ($45.000,00) no se usa: se aleja más de 0,5 %"),
        "{err}"
    );
    // Asked for December, the same answer's one December day is $1.000: 97 % away from
    // November's last, 24 days before. Not used.
    let (code, out, err) = uf(&["show", "--date", "2026-12-24", "--amount", "757,0817"]);
    assert_eq!(code, Some(4), "{out}");
    assert!(!out.contains("757.082"), "{out}");
    assert!(
        err.contains("24-12-2026 que se recibió ($1.000,00) no se usa"),
        "{err}"
    );
    // A file with one day out of line is refused whole: nothing of it kept.
    let file = dir.path().join("diciembre.csv");
    std::fs::write(
        &file,
        "Fecha;Valor\n01-12-2026;39.625,00\n02-12-2026;39.629,00\n03-12-2026;3.963,30\n",
    )
    .unwrap();
    let (code, _, err) = uf(&["import", file.to_str().unwrap()]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("No se guardó nada de diciembre.csv"), "{err}");
    assert!(
        err.contains("03-12-2026: $3.963,30 no se guardó: se aleja más de 0,5 %"),
        "{err}"
    );
    let journal = dir.path().join("journal.sqlite3");
    let j = invoice_desk::journal::Journal::open(&journal).unwrap();
    let day = |d: u32| chrono::NaiveDate::from_ymd_opt(2026, 12, d).unwrap();
    assert!(j.uf_values(day(1), day(31)).unwrap().is_empty());
    let nov = j
        .uf_values(
            chrono::NaiveDate::from_ymd_opt(2026, 11, 1).unwrap(),
            day(31),
        )
        .unwrap();
    assert_eq!(nov.len(), 29, "November but the 15th: {nov:?}");
}

/// No secret in an address: the CMF API's address given with a key in its query
/// (`?apikey=…`), or a user and password, is refused — never stored, never printed back
/// — by `uf key --address` and from `INVOICE_DESK_CMF_URL`.
#[test]
fn a_ufs_address_holding_a_secret_is_refused_and_never_repeated() {
    let dir = tempfile::tempdir().unwrap();
    for address in [
        "http://127.0.0.1:9/api?apikey=SECRETO123",
        "https://usuario:SECRETO123@api.cmfchile.cl/api-sbifv3/recursos_api",
        "https://api.cmfchile.cl/api-sbifv3/recursos_api#SECRETO123",
    ] {
        let out = Command::from_std(cli_env::cli(dir.path()))
            .env("LANG", "es_CL.UTF-8")
            .args(["uf", "key", "--address", address])
            .write_stdin("otra-llave\n")
            .output()
            .unwrap();
        let said = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(out.status.code(), Some(2), "{said}");
        assert!(!said.contains("SECRETO123"), "repeated: {said}");
        assert!(said.contains("no puede llevar"), "{said}");
        let kept = std::fs::read_to_string(dir.path().join("profiles.toml")).unwrap_or_default();
        assert!(!kept.contains("SECRETO123"), "stored: {kept}");
        let out = cli_env::cli(dir.path())
            .env("LANG", "es_CL.UTF-8")
            .env("INVOICE_DESK_CMF_URL", address)
            .env("INVOICE_DESK_CMF_KEY", "k")
            .args(["uf", "show", "--date", "2026-11-26"])
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{said}");
        assert!(!said.contains("SECRETO123"), "repeated: {said}");
    }
}
