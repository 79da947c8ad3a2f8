//! The CLI binary against an in-process sandbox: every command, every exit code,
//! environment-only configuration.

mod cli_env;

use assert_cmd::Command;
use invoice_desk::sandbox::{Fault, Route};
use serde_json::Value;

struct Env(cli_env::Env);

fn env() -> Env {
    Env(cli_env::Env::new(1200))
}

impl std::ops::Deref for Env {
    type Target = cli_env::Env;
    fn deref(&self) -> &cli_env::Env {
        &self.0
    }
}

impl Env {
    fn bare(&self) -> Command {
        Command::from_std(self.0.bare())
    }

    fn oauth(&self) -> Command {
        Command::from_std(self.0.oauth())
    }
}

fn json_of(out: &[u8]) -> Value {
    serde_json::from_slice(out).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(out)))
}

#[test]
fn token_with_environment_only() {
    let e = env();
    let out = e
        .oauth()
        .arg("token")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert!(String::from_utf8_lossy(&out).contains("Token valid until"));
}

#[test]
fn create_get_void_in_json() {
    let e = env();
    let cus = e.customer();
    let out = e
        .oauth()
        .args([
            "--json",
            "create",
            "--customer",
            &cus,
            "--amount",
            "1.234.567",
            "--product",
            "prod_asesoria",
            "--due",
            "31-12-2026",
            "--field",
            "nota=ñandú",
            "--field",
            "metadata.centro=Ñuñoa",
        ])
        .assert()
        .success();
    let inv = json_of(&out.get_output().stdout);
    assert_eq!(inv["currency_code"], "CLP", "account currency applied");
    assert_eq!(inv["amount"].to_string(), "1234567");
    assert_eq!(inv["nota"], "ñandú");
    assert_eq!(
        inv["due_date"], "2026-12-31",
        "a Chilean date is sent as ISO"
    );
    assert_eq!(inv["metadata"]["centro"], "Ñuñoa");
    assert!(
        inv["invoice_external_id"]
            .as_str()
            .unwrap()
            .starts_with("ID-"),
        "a reference is always sent"
    );
    let id = inv["id"].as_str().unwrap().to_string();
    let out = e
        .oauth()
        .args([
            "create",
            "--customer",
            &cus,
            "--amount",
            "12,3456",
            "--currency",
            "CLF",
            "--json",
        ])
        .assert()
        .success();
    let clf = json_of(&out.get_output().stdout);
    assert_eq!(
        (
            clf["currency_code"].as_str(),
            clf["amount"].to_string().as_str()
        ),
        (Some("CLF"), "12.3456")
    );
    let text = e
        .oauth()
        .args(["get", &id])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8_lossy(&text);
    assert!(
        text.contains("$1.234.567") && text.contains("[Open]"),
        "{text}"
    );
    // Not a terminal and no --yes: refused, nothing voided.
    e.oauth()
        .args(["void", &id])
        .write_stdin("y\n")
        .assert()
        .code(2);
    let out = e
        .oauth()
        .args(["void", &id, "--yes", "--json"])
        .assert()
        .success();
    assert_eq!(json_of(&out.get_output().stdout)["is_void"], true);
    // Voided already (the journal says so): not sent again.
    let err = e
        .oauth()
        .args(["void", &id, "--yes"])
        .assert()
        .code(2)
        .get_output()
        .stderr
        .clone();
    assert!(String::from_utf8_lossy(&err).contains("already voided"));
    e.oauth().args(["get", "in_nothing"]).assert().code(4);
}

#[test]
fn list_in_every_format_and_export() {
    let e = env();
    let out = e
        .oauth()
        .args(["list", "cus_big", "--format", "json"])
        .assert()
        .success();
    assert_eq!(
        json_of(&out.get_output().stdout).as_array().unwrap().len(),
        1200
    );
    let out = e
        .oauth()
        .args(["list", "cus_big", "--format", "csv"])
        .assert()
        .success();
    let csv = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(csv.starts_with(
        "id,customer,due_date,amount,currency_code,status,is_paid,is_void,invoice_external_id"
    ));
    assert_eq!(csv.lines().count(), 1201);
    let out = e.oauth().args(["list", "cus_big"]).assert().success();
    assert!(String::from_utf8_lossy(&out.get_output().stdout).starts_with("ID "));
    let file = e.dir.path().join("out.csv");
    e.oauth()
        .args(["export", "cus_big", "--out"])
        .arg(&file)
        .args(["--dialect", "excel-es"])
        .assert()
        .success();
    let bytes = std::fs::read(&file).unwrap();
    assert!(bytes.starts_with("\u{feff}Id;Cliente;Vencimiento;".as_bytes()));
    assert_eq!(
        String::from_utf8_lossy(&bytes).matches("\r\n").count(),
        1201
    );
}

#[test]
fn api_key_mode_from_the_environment() {
    let e = env();
    let mut c = e.bare();
    c.env("INVOICE_DESK_BASE_URL", &e.s.base_url)
        .env("INVOICE_DESK_API_KEY", &e.s.credentials.api_key)
        .env("INVOICE_DESK_ACCOUNT_KEY", &e.s.credentials.key_account_clf);
    let out = c
        .args([
            "--json",
            "create",
            "--customer",
            &e.customer(),
            "--amount",
            "2",
        ])
        .assert()
        .success();
    assert_eq!(json_of(&out.get_output().stdout)["currency_code"], "CLF");
    assert_eq!(e.s.counters().token_requests, 0);
}

#[test]
fn exit_codes_for_each_failure() {
    let e = env();
    // 2: refused before sending.
    e.oauth()
        .args([
            "create",
            "--customer",
            "cus_x",
            "--amount",
            "1,23456",
            "--currency",
            "CLF",
        ])
        .assert()
        .code(2);
    e.oauth()
        .args(["create", "--customer", "cus_x", "--amount", "abc"])
        .assert()
        .code(2);
    e.bare().arg("token").assert().code(2);
    assert_eq!(e.s.counters().api.get("create"), None);
    // 3: authentication.
    e.oauth()
        .env("INVOICE_DESK_CLIENT_SECRET", "wrong")
        .arg("token")
        .assert()
        .code(3);
    let mut c = e.bare();
    c.env("INVOICE_DESK_BASE_URL", &e.s.base_url).env(
        "INVOICE_DESK_API_KEY",
        &e.s.credentials.oauth_org_old_api_key,
    );
    c.args(["get", "in_x"]).assert().code(3);
    // 4: the service answered with an error.
    e.oauth()
        .args(["create", "--customer", "cus_nobody", "--amount", "1000"])
        .assert()
        .code(4);
    // 5: network.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    e.oauth()
        .env("INVOICE_DESK_BASE_URL", format!("http://127.0.0.1:{port}"))
        .args(["get", "in_x"])
        .assert()
        .code(5);
    // 6: outcome unknown, with how to check.
    e.s.add_fault(Fault::reset(Route::Create, 1));
    let out = e
        .oauth()
        .args([
            "create",
            "--customer",
            &e.customer(),
            "--amount",
            "5000",
            "--external-id",
            "ERP-CHECK-1",
        ])
        .assert()
        .code(6);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        err.contains("To check") && err.contains("ERP-CHECK-1"),
        "{err}"
    );
    let out = e
        .oauth()
        .args(["list", &e.customer(), "--format", "json"])
        .assert()
        .success();
    let found = json_of(&out.get_output().stdout)
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["invoice_external_id"] == "ERP-CHECK-1")
        .count();
    assert_eq!(found, 1, "created once, never resent");
}

#[test]
fn profiles_add_list_show_remove_without_secrets_on_disk() {
    let e = env();
    e.bare()
        .args([
            "profile",
            "add",
            "Produccion",
            "--base-url",
            &e.s.base_url,
            "--auth-url",
            &e.s.auth_url,
            "--audience",
            &e.s.audience,
        ])
        .args([
            "--client-id",
            &e.s.credentials.client_id,
            "--account-key",
            "acc_oauth_clp",
            "--account-currency",
            "CLP",
        ])
        .write_stdin(format!("{}\n", e.s.credentials.client_secret))
        .assert()
        .success()
        .stderr(predicates::str::contains("could NOT be stored"));
    let file = std::fs::read_to_string(e.dir.path().join("profiles.toml")).unwrap();
    assert!(file.contains("Produccion") && !file.contains(&e.s.credentials.client_secret));
    let out = e.bare().args(["profile", "list"]).assert().success();
    assert!(String::from_utf8_lossy(&out.get_output().stdout).contains("* Produccion"));
    let out = e.bare().args(["profile", "show"]).assert().success();
    assert!(
        !String::from_utf8_lossy(&out.get_output().stdout).contains(&e.s.credentials.client_secret)
    );
    // The profile plus the secret from the environment (as a scheduled job would).
    e.bare()
        .env("INVOICE_DESK_CLIENT_SECRET", &e.s.credentials.client_secret)
        .arg("token")
        .assert()
        .success();
    e.bare()
        .args([
            "profile",
            "add",
            "Vacio",
            "--base-url",
            &e.s.base_url,
            "--mode",
            "api-key",
        ])
        .write_stdin("")
        .assert()
        .code(2);
    e.bare()
        .args(["profile", "remove", "Produccion"])
        .assert()
        .success();
    e.bare()
        .args(["profile", "show", "Produccion"])
        .assert()
        .code(2);
}

#[test]
fn help_documents_the_exit_codes() {
    let out = Command::cargo_bin("invoice-desk")
        .unwrap()
        .arg("--help")
        .assert()
        .success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(
        text.contains("6 outcome unknown") && text.contains("INVOICE_DESK_API_KEY"),
        "{text}"
    );
}

#[test]
fn a_due_date_that_does_not_exist_is_refused_before_sending() {
    let e = env();
    let out = e
        .oauth()
        .args([
            "create",
            "--customer",
            "cus_x",
            "--amount",
            "1000",
            "--due",
            "2026-02-31",
        ])
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(err.contains("February 2026 has no day 31"), "{err}");
    assert_eq!(e.s.counters().api.get("create").copied().unwrap_or(0), 0);
}

#[test]
fn doctor_says_when_there_is_no_keyring_and_exits_non_zero() {
    let e = env();
    let out = e
        .bare()
        .arg("doctor")
        .env("LANG", "en_US.UTF-8")
        .assert()
        .code(1);
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(
        text.contains("Keyring: no system keyring can be used"),
        "{text}"
    );
    assert!(text.contains("Profiles:"), "{text}");
    assert!(text.contains("Something needs attention"), "{text}");
}

/// With a real, unlocked Secret Service (see README: dbus-run-session and
/// gnome-keyring-daemon), doctor is all well.
#[test]
#[ignore]
fn doctor_with_a_real_secret_service_is_all_well() {
    let e = env();
    let out = e
        .bare()
        .env_remove("INVOICE_DESK_KEYRING")
        .arg("doctor")
        .assert()
        .code(0);
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(
        text.contains("a test secret was written, read back and deleted"),
        "{text}"
    );
}

#[test]
fn export_to_a_workbook_reads_back_exactly() {
    use calamine::{Data, Reader, Xlsx, open_workbook};
    use rust_decimal::Decimal;
    use std::str::FromStr;
    let e = env();
    let out = e
        .oauth()
        .args(["list", "cus_big", "--format", "json"])
        .assert()
        .success();
    let listed = json_of(&out.get_output().stdout);
    let listed = listed.as_array().unwrap();
    let file = e.dir.path().join("estado.xlsx");
    let done = e
        .oauth()
        .args(["export", "cus_big", "--as-of", "2026-11-23", "--out"])
        .arg(&file)
        .assert()
        .success();
    assert!(String::from_utf8_lossy(&done.get_output().stderr).contains("Exported 1,200 invoices"));
    let mut book: Xlsx<_> = open_workbook(&file).unwrap();
    assert_eq!(book.sheet_names(), ["Invoices", "Summary"]);
    let range = book.worksheet_range("Invoices").unwrap();
    let mut rows = range.rows();
    let header: Vec<String> = rows.next().unwrap().iter().map(|c| c.to_string()).collect();
    let col = |n: &str| header.iter().position(|h| h == n).unwrap();
    let (id, amount, due, status) = (col("Id"), col("Amount"), col("Due date"), col("Status"));
    let mut n = 0;
    for (row, want) in rows.zip(listed) {
        assert_eq!(row[id], Data::String(want["id"].as_str().unwrap().into()));
        let Data::Float(x) = row[amount] else {
            panic!("{:?}", row[amount])
        };
        let exact = Decimal::from_str(&want["amount"].to_string().replace('"', "")).unwrap();
        assert_eq!(
            Decimal::from_str(&x.to_string()).unwrap(),
            exact.normalize()
        );
        assert!(matches!(row[due], Data::DateTime(_)), "{:?}", row[due]);
        assert!(!row[status].to_string().is_empty());
        n += 1;
    }
    assert_eq!(n, 1200);
    assert!(book.worksheet_formula("Invoices").unwrap().is_empty());
    // --format wins over the name; CSV is the default for any other name.
    let csv = e.dir.path().join("plain.xlsx");
    e.oauth()
        .args(["export", "cus_big", "--format", "csv", "--out"])
        .arg(&csv)
        .assert()
        .success();
    assert!(std::fs::read(&csv).unwrap().starts_with(b"id,customer,"));
    e.oauth()
        .args(["export", "cus_big", "--as-of", "23-11-2026", "--out"])
        .arg(&file)
        .assert()
        .code(2);
}

/// The support log (`logs` in the program's folder): each command starts it, a write and
/// a failure are there by method, path, status and kind — and no secret is: not the
/// client secret, the account key, a token, nor what the service said. Only this user can
/// open its folder.
#[test]
fn the_support_log_names_requests_and_failures_and_never_a_secret() {
    let e = env();
    let cus = e.customer();
    e.oauth()
        .args(["create", "--customer", &cus, "--amount", "1000"])
        .assert()
        .success();
    e.oauth().args(["get", "in_not_there"]).assert().failure();
    let dir = e.dir.path().join("logs");
    let mut log = String::new();
    for f in std::fs::read_dir(&dir).unwrap() {
        log.push_str(&std::fs::read_to_string(f.unwrap().path()).unwrap());
    }
    for said in [
        "started",
        "what=\"create\"",
        "what=\"get\"",
        "POST",
        "/invoices",
        "done",
    ] {
        assert!(log.contains(said), "{said} in {log}");
    }
    assert!(
        log.lines()
            .any(|l| l.contains("failed") && l.contains("GET") && l.contains("NotFound")),
        "{log}"
    );
    assert!(log.contains("stopped"), "{log}");
    let c = &e.s.credentials;
    for secret in [
        c.client_secret.as_str(),
        c.account_clp.as_str(),
        "Bearer",
        "access_token",
        // What the service said (the details of the message, not in the log).
        "TK20600",
    ] {
        assert!(!log.contains(secret), "{secret} in {log}");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&dir).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o700);
    }
}
