//! The journal through the CLI binary against an in-process sandbox: every create, void
//! and export recorded; list, export, verify and resolve with their exit codes; a CLI
//! killed between intent and outcome; concurrent writers; a journal that cannot be
//! written stops the request before it is sent.

mod cli_env;

use invoice_desk::journal::{Action, Intent, Journal, Settled};
use invoice_desk::sandbox::{Fault, Route};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

struct Env(cli_env::Env);

fn env() -> Env {
    Env(cli_env::Env::new(0))
}

impl std::ops::Deref for Env {
    type Target = cli_env::Env;
    fn deref(&self) -> &cli_env::Env {
        &self.0
    }
}

impl Env {
    fn cli(&self) -> Command {
        self.0.oauth()
    }

    fn run(&self, args: &[&str]) -> Output {
        self.cli().args(args).output().unwrap()
    }

    fn journal_path(&self) -> PathBuf {
        self.dir.path().join("journal.sqlite3")
    }

    fn entries(&self, args: &[&str]) -> Vec<Value> {
        let mut all = vec!["journal", "list", "--json"];
        all.extend_from_slice(args);
        let out = self.run(&all);
        exits(&out, 0);
        text(&out.stdout)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }
}

/// Runs the CLI with `args` while the sandbox does the first create and holds its
/// answer back, and kills it then: a run cut off between intent and outcome.
fn killed_after_the_first_create(e: &Env, args: &[&str]) {
    killed_after_a_create_held(e, args, 60);
}

/// [`killed_after_the_first_create`], the service holding that create `hang` seconds
/// before it does it.
fn killed_after_a_create_held(e: &Env, args: &[&str], hang: u64) {
    e.s.add_fault(Fault::hang(Route::Create, 1, hang));
    let before = e.s.counters().api.get("create").copied().unwrap_or(0);
    let mut child = e
        .cli()
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while e.s.counters().api.get("create").copied().unwrap_or(0) == before {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "the create never arrived"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(200));
    child.kill().unwrap();
    child.wait().unwrap();
    e.s.clear_faults();
}

use cli_env::{exits, text};

fn create(e: &Env, amount: &str, reference: &str) -> Output {
    e.run(&[
        "create",
        "--customer",
        &e.customer(),
        "--amount",
        amount,
        "--external-id",
        reference,
    ])
}

#[test]
fn creates_voids_and_exports_are_listed_exported_and_verified() {
    let e = env();
    let out = create(&e, "15000", "ERP-J-1");
    exits(&out, 0);
    let out = e.run(&[
        "--json",
        "create",
        "--customer",
        &e.customer(),
        "--amount",
        "2,5",
        "--currency",
        "CLF",
        "--external-id",
        "ERP-J-2",
    ]);
    exits(&out, 0);
    let id: Value = serde_json::from_slice(&out.stdout).unwrap();
    let id = id["id"].as_str().unwrap().to_string();
    let out = e.run(&["void", &id, "--yes"]);
    exits(&out, 0);
    let out = e.run(&["void", &id, "--yes"]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "voiding twice is refused before sending"
    );
    assert!(text(&out.stderr).contains("already voided"));
    // ERP-J-1's invoice voided from another computer (another journal): this journal
    // sends its void, the service refuses it, and the refusal is recorded.
    let other = e.s.references()["ERP-J-1"][0].clone();
    let out = e
        .cli()
        .env("INVOICE_DESK_JOURNAL", e.dir.path().join("otro.sqlite3"))
        .args(["void", &other, "--yes"])
        .output()
        .unwrap();
    exits(&out, 0);
    let out = e.run(&["void", &other, "--yes"]);
    exits(&out, 4);
    let csv = e.dir.path().join("clientes.csv");
    let out = e.run(&["export", &e.customer(), "--out", csv.to_str().unwrap()]);
    exits(&out, 0);

    let all = e.entries(&[]);
    assert_eq!(all.len(), 5, "{all:#?}");
    let first = &all[0];
    for key in [
        "seq",
        "time",
        "user",
        "profile",
        "action",
        "customer",
        "amount",
        "external_id",
        "invoice_id",
        "outcome",
    ] {
        assert!(first.get(key).is_some(), "{key} in {first}");
    }
    assert_eq!(first["action"], "create");
    assert_eq!(first["amount"], "15000");
    assert!(
        first["currency_code"].is_null(),
        "account currency: none sent"
    );
    assert_eq!(first["outcome"], "done");
    assert_eq!(first["account_last4"], "_clp");
    assert!(chrono::DateTime::parse_from_rfc3339(first["time"].as_str().unwrap()).is_ok());
    assert_eq!(all[1]["amount"], "2.5");
    assert_eq!(all[1]["currency_code"], "CLF");
    assert_eq!(
        (all[2]["action"].as_str(), all[2]["outcome"].as_str()),
        (Some("void"), Some("done"))
    );
    assert_eq!(all[2]["invoice_id"], id.as_str());
    assert_eq!(
        (all[3]["outcome"].as_str(), all[3]["error_code"].as_str()),
        (Some("refused"), Some("TK10601"))
    );
    assert_eq!(
        (all[4]["action"].as_str(), all[4]["file_name"].as_str()),
        (Some("export"), Some("clientes.csv"))
    );
    assert!(all[4]["rows"].as_u64().unwrap() > 5);

    // Nothing secret in the file: no client secret, no token, no full account key.
    let raw = std::fs::read(e.journal_path()).unwrap();
    let raw = String::from_utf8_lossy(&raw);
    assert!(!raw.contains(&e.s.credentials.client_secret));
    assert!(!raw.contains(&e.s.credentials.account_clp));

    // Filters.
    assert_eq!(e.entries(&["--action", "void"]).len(), 2);
    assert_eq!(
        e.entries(&["--action", "void", "--outcome", "refused"])
            .len(),
        1
    );
    // A day after every entry (written today, whatever today is).
    assert!(e.entries(&["--since", "2999-01-01"]).is_empty());
    assert_eq!(
        e.run(&["journal", "--since", "22-11-2026"]).status.code(),
        Some(2)
    );
    let table = e.run(&["journal"]);
    assert!(
        text(&table.stdout).contains("ERP-J-1"),
        "{}",
        text(&table.stdout)
    );

    // Export.
    let out_csv = e.dir.path().join("journal.csv");
    let out = e.run(&["journal", "export", "--out", out_csv.to_str().unwrap()]);
    exits(&out, 0);
    let written = std::fs::read_to_string(&out_csv).unwrap();
    assert!(
        written.starts_with("seq,time,user,profile,base_url,action,customer,amount,currency_code")
    );
    assert_eq!(written.lines().count(), 6);

    // Verify, then tamper with one byte of one row.
    let out = e.run(&["journal", "verify"]);
    exits(&out, 0);
    let db = rusqlite::Connection::open(e.journal_path()).unwrap();
    db.execute("UPDATE entries SET amount = '150000' WHERE seq = 1", [])
        .unwrap();
    drop(db);
    let out = e.run(&["journal", "verify"]);
    exits(&out, 8);
    assert!(text(&out.stderr).contains("row 1"), "{}", text(&out.stderr));
}

#[test]
fn a_cli_killed_between_intent_and_outcome_leaves_an_unknown_that_resolve_settles() {
    let e = env();
    // The sandbox creates the invoice, then holds the answer back.
    let customer = e.customer();
    killed_after_the_first_create(
        &e,
        &[
            "create",
            "--customer",
            &customer,
            "--amount",
            "7000",
            "--external-id",
            "ERP-CRASH-1",
        ],
    );

    let unknown = e.entries(&["--outcome", "unknown"]);
    assert_eq!(unknown.len(), 1);
    assert_eq!(unknown[0]["external_id"], "ERP-CRASH-1");
    // The service did the work: found at once, however recent the entry.
    let out = e.run(&["journal", "resolve"]);
    exits(&out, 0);
    assert!(
        text(&out.stdout).contains("done: in_"),
        "{}",
        text(&out.stdout)
    );
    let all = e.entries(&[]);
    assert_eq!(all.len(), 1);
    assert_eq!(
        (all[0]["outcome"].as_str(), all[0]["checked"].as_bool()),
        (Some("done"), Some(true))
    );
    assert!(all[0]["invoice_id"].as_str().unwrap().starts_with("in_"));
    assert_eq!(e.run(&["journal", "verify"]).status.code(), Some(0));
    // Nothing left: resolve says so.
    let out = e.run(&["journal", "resolve"]);
    exits(&out, 0);
    assert!(text(&out.stdout).contains("Nothing to check"));
}

#[test]
fn a_journal_that_cannot_be_written_stops_the_request_before_it_is_sent() {
    let e = env();
    let folder = e.dir.path().join("a-folder");
    std::fs::create_dir(&folder).unwrap();
    let before = e.s.counters().api.get("create").copied().unwrap_or(0);
    let out = e
        .cli()
        .env("INVOICE_DESK_JOURNAL", &folder)
        .args(["create", "--customer", &e.customer(), "--amount", "1000"])
        .output()
        .unwrap();
    exits(&out, 1);
    assert!(
        text(&out.stderr).contains("Nothing was sent"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(
        e.s.counters().api.get("create").copied().unwrap_or(0),
        before
    );
    let out = e
        .cli()
        .env("INVOICE_DESK_JOURNAL", &folder)
        .args(["void", "in_whatever", "--yes"])
        .output()
        .unwrap();
    exits(&out, 1);
    assert_eq!(e.s.counters().api.get("void").copied().unwrap_or(0), 0);
}

fn writer_thread(path: &Path, n: usize) -> std::thread::JoinHandle<()> {
    let path = path.to_path_buf();
    std::thread::spawn(move || {
        let mut j = Journal::open(&path).unwrap();
        for i in 0..n {
            let seq = j
                .record_intent(
                    Action::Create,
                    &Intent {
                        profile: "app".into(),
                        customer: Some(format!("cus_app_{i}")),
                        ..Intent::default()
                    },
                )
                .unwrap();
            j.record_outcome(seq, &Settled::done(None)).unwrap();
        }
    })
}

#[test]
fn the_app_and_four_cli_processes_write_at_once_and_nothing_is_lost() {
    let e = env();
    let app = writer_thread(&e.journal_path(), 40);
    let children: Vec<_> = (0..4)
        .map(|k| {
            e.cli()
                .args([
                    "create",
                    "--customer",
                    &e.customer(),
                    "--amount",
                    &format!("{}", 1000 + k),
                    "--external-id",
                    &format!("ERP-PAR-{k}"),
                ])
                .stdout(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut c in children {
        assert!(c.wait().unwrap().success());
    }
    app.join().unwrap();
    let all = e.entries(&[]);
    assert_eq!(all.len(), 44);
    assert_eq!(all.iter().filter(|x| x["outcome"] == "done").count(), 44);
    let out = e.run(&["journal", "verify"]);
    exits(&out, 0);
    assert!(
        text(&out.stdout).contains("88 rows"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn the_customer_directory_is_imported_checked_found_and_named_in_exports() {
    let e = env();
    let customer = e.customer();
    let good = e.dir.path().join("clientes.csv");
    std::fs::write(
        &good,
        format!(
            "Cliente;Razón social;RUT\n{customer};Distribuidora Grande del Sur S.A.;76.123.456-0\n"
        ),
    )
    .unwrap();
    let out = e.run(&["customers", "import", good.to_str().unwrap()]);
    exits(&out, 0);
    assert!(text(&out.stdout).contains("1 customer imported"));
    // A file with a wrong check digit: every problem named, nothing imported.
    let bad = e.dir.path().join("malos.csv");
    std::fs::write(&bad, "id,nombre,rut\ncus_x,X,76.123.456-1\n,Y,\n").unwrap();
    let out = e.run(&["customers", "import", bad.to_str().unwrap()]);
    exits(&out, 2);
    let err = text(&out.stderr);
    assert!(
        err.contains("Row 2, column rut: the check digit of 76.123.456-1 should be 0"),
        "{err}"
    );
    assert!(err.contains("Row 3, column id: the id is empty"), "{err}");
    let out = e.run(&["customers", "find", "distri"]);
    assert_eq!(
        text(&out.stdout).trim(),
        format!("Distribuidora Grande del Sur S.A. · 76.123.456-0 · {customer}")
    );
    assert!(!text(&e.run(&["customers", "find"]).stdout).contains("cus_x"));
    // The export names the customer in a last column.
    let csv = e.dir.path().join("facturas.csv");
    let out = e.run(&["export", &customer, "--out", csv.to_str().unwrap()]);
    exits(&out, 0);
    let written = std::fs::read_to_string(&csv).unwrap();
    let mut lines = written.lines();
    assert!(lines.next().unwrap().ends_with(",customer_name"));
    assert!(lines.all(|l| l.ends_with(",Distribuidora Grande del Sur S.A.")));
}

fn bulk_file(e: &Env, name: &str, body: &str) -> String {
    let p = e.dir.path().join(name);
    std::fs::write(&p, body).unwrap();
    p.to_str().unwrap().to_string()
}

fn creates(e: &Env) -> u64 {
    e.s.counters().api.get("create").copied().unwrap_or(0)
}

#[test]
fn a_billing_run_checks_everything_first_sends_once_and_never_twice() {
    let e = env();
    let c = e.customer();
    let file = bulk_file(
        &e,
        "marzo.csv",
        &format!(
            "Cliente;Monto;Moneda;Vencimiento;metadata.centro\n{c};$1.234.567;;31-12-2026;Ñuñoa\n{c};12,3456;CLF;;\n{c};25000;;;\n"
        ),
    );
    // Without --yes and no terminal: refused, nothing sent.
    let out = e.run(&["bulk", &file]);
    exits(&out, 2);
    let out = e.run(&["bulk", &file, "--dry-run"]);
    exits(&out, 0);
    let said = text(&out.stdout);
    assert!(said.contains("3 invoices to 1 customer"), "{said}");
    assert!(said.contains("1 in CLF: UF 12,3456"), "{said}");
    assert!(said.contains("\"amount\":1234567"), "{said}");
    assert_eq!(creates(&e), 0);
    // A run refused or only shown asks the service nothing, not even a token (a run
    // with --yes fetches its token while it reads the file).
    assert_eq!(e.s.counters().token_requests, 0);

    let report = e.dir.path().join("informe.csv");
    let out = e.run(&["bulk", &file, "--yes", "--report", report.to_str().unwrap()]);
    exits(&out, 0);
    assert_eq!(creates(&e), 3);
    // The token fetched ahead is the one the run used.
    assert_eq!(e.s.counters().token_requests, 1);
    let written = std::fs::read_to_string(&report).unwrap();
    assert!(written.starts_with(
        "row,invoice_external_id,status,invoice_id,error,customer,customer_name,amount,currency_code"
    ));
    assert_eq!(written.matches(",created,in_").count(), 3, "{written}");
    // Each row names its customer and amount, so it can be matched back to the file.
    assert!(written.contains(&format!(",{c},,1234567,\n")), "{written}");
    assert!(
        written.contains(&format!(",{c},,12.3456,CLF\n")),
        "{written}"
    );
    // The same file again: everything is found in the journal, nothing is sent.
    let out = e.run(&["bulk", &file, "--yes", "--report", report.to_str().unwrap()]);
    exits(&out, 0);
    assert_eq!(creates(&e), 3, "nothing issued twice");
    assert_eq!(
        std::fs::read_to_string(&report)
            .unwrap()
            .matches(",skipped_existing,in_")
            .count(),
        3
    );
    assert_eq!(e.entries(&["--action", "create"]).len(), 3);
    // Found in this journal: not said to be missing from it (it said "3 found already
    // issued at the service (not in this journal)").
    let said = text(&out.stdout) + &text(&out.stderr);
    assert!(said.contains("3 already issued"), "{said}");
    assert!(!said.contains("not in this journal"), "{said}");
    // With a journal of its own (another computer's, a lost one), the service is what
    // finds them, and that is said.
    let elsewhere = e.dir.path().join("otro.sqlite3");
    let out = e
        .cli()
        .env("INVOICE_DESK_JOURNAL", &elsewhere)
        .args(["bulk", &file, "--yes"])
        .output()
        .unwrap();
    exits(&out, 0);
    assert_eq!(creates(&e), 3, "nothing issued twice");
    let said = text(&out.stdout) + &text(&out.stderr);
    assert!(
        said.contains("3 found already issued at the service (not in this journal)"),
        "{said}"
    );
}

#[test]
fn an_invalid_file_sends_nothing_unless_told_to_skip_the_bad_rows() {
    let e = env();
    let c = e.customer();
    let file = bulk_file(
        &e,
        "malo.csv",
        &format!("customer,amount,color\n{c},1000,rojo\n{c},-5,azul\n"),
    );
    let out = e.run(&["bulk", &file, "--yes"]);
    exits(&out, 2);
    assert!(
        text(&out.stderr).contains("row 1: columns not recognised: color (--ignore-columns"),
        "{}",
        text(&out.stderr)
    );
    let out = e.run(&["bulk", &file, "--yes", "--ignore-columns"]);
    exits(&out, 2);
    assert!(
        text(&out.stderr).contains("row 3, column amount"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(creates(&e), 0);
    let report = e.dir.path().join("r.csv");
    let out = e.run(&[
        "bulk",
        &file,
        "--yes",
        "--ignore-columns",
        "--skip-invalid",
        "--report",
        report.to_str().unwrap(),
    ]);
    exits(&out, 0);
    assert_eq!(creates(&e), 1);
    let written = std::fs::read_to_string(&report).unwrap();
    assert!(written.contains("\n3,,skipped_invalid,,"), "{written}");
}

#[test]
fn a_run_cut_off_mid_way_resumes_without_issuing_anything_twice_and_waits_out_429s() {
    let e = env();
    let c = e.customer();
    let mut body = String::from("cliente,monto,referencia\n");
    for i in 0..6 {
        body.push_str(&format!("{c},{},RUN-{i}\n", 1000 + i));
    }
    let file = bulk_file(&e, "corte.csv", &body);
    // The service does the first create 3 s late and keeps the answer: the run is
    // killed.
    killed_after_a_create_held(&e, &["bulk", &file, "--yes", "--concurrency", "1"], 3);
    // Two 429s on the way: every worker waits, then goes on. The resume waits out the
    // killed create's window — its 5 s limit and 5 s more — before it looks: the
    // service's late create is found, not sent again.
    e.s.add_fault(Fault::rate_limit(Route::Create, 2, 1));
    let out = e
        .cli()
        .env("INVOICE_DESK_TIMEOUT", "5")
        .env("INVOICE_DESK_IN_FLIGHT_MARGIN", "5")
        .args(["bulk", &file, "--yes", "--concurrency", "3"])
        .output()
        .unwrap();
    exits(&out, 0);
    assert!(
        text(&out.stdout).contains("5 created, 1 already issued"),
        "{}",
        text(&out.stdout)
    );
    // At the service: each reference exactly once.
    let listed = e.run(&["list", &c, "--format", "json"]);
    let all: Vec<Value> = serde_json::from_slice(&listed.stdout).unwrap();
    for i in 0..6 {
        let r = format!("RUN-{i}");
        assert_eq!(
            all.iter()
                .filter(|v| v["invoice_external_id"] == r.as_str())
                .count(),
            1,
            "{r}"
        );
    }
}

/// Spawns the CLI with `args`, output kept.
fn spawn(e: &Env, args: &[&str]) -> std::process::Child {
    e.cli()
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits until the sandbox has had `n` create requests in all.
fn until_creates(e: &Env, n: u64) {
    let start = Instant::now();
    while creates(e) < n {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "only {} creates arrived",
            creates(e)
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The customer's invoices at the service whose reference starts with `prefix`: how
/// many, and how many different references.
fn issued(e: &Env, prefix: &str) -> (usize, usize) {
    let listed = e.run(&["list", &e.customer(), "--format", "json"]);
    exits(&listed, 0);
    let all: Vec<Value> = serde_json::from_slice(&listed.stdout).unwrap();
    let mut refs: Vec<String> = all
        .iter()
        .filter_map(|v| v["invoice_external_id"].as_str())
        .filter(|r| r.starts_with(prefix))
        .map(str::to_string)
        .collect();
    let n = refs.len();
    refs.sort();
    refs.dedup();
    (n, refs.len())
}

#[test]
fn a_thousand_row_run_killed_at_several_moments_ends_with_exactly_a_thousand_invoices() {
    let e = env();
    let c = e.customer();
    // No reference column: every row's reference comes from the file and its row.
    let mut body = String::from("cliente;monto\n");
    for i in 0..1000 {
        body.push_str(&format!("{c};{}\n", 1000 + i));
    }
    let file = bulk_file(&e, "mil.csv", &body);
    let args = ["bulk", file.as_str(), "--yes", "--concurrency", "8"];
    for kill_at in [40, 350, 700] {
        let mut child = spawn(&e, &args);
        until_creates(&e, kill_at);
        // kill -9: no chance to record what was on its way.
        child.kill().unwrap();
        child.wait().unwrap();
    }
    // Rows whose request may still be at work wait out the in-flight window.
    cli_env::until_settled(|| {
        let mut c = e.cli();
        c.args(args);
        c
    });
    assert_eq!(
        issued(&e, "BULK-"),
        (1000, 1000),
        "exactly 1,000, none twice"
    );
    let again = e.run(&args);
    exits(&again, 0);
    assert!(
        text(&again.stdout).contains("0 created, 1,000 already issued"),
        "{}",
        text(&again.stdout)
    );
}

// Unix only: the test sends SIGINT with `kill`; Windows delivers Ctrl+C through the
// console, which a test cannot aim at one child process.
#[cfg(unix)]
#[test]
fn ctrl_c_stops_sending_records_what_was_on_its_way_and_reports_what_was_not_sent() {
    let e = env();
    let c = e.customer();
    let mut body = String::from("cliente,monto,referencia\n");
    for i in 0..60 {
        body.push_str(&format!("{c},{},INT-{i}\n", 1000 + i));
    }
    let file = bulk_file(&e, "int.csv", &body);
    let report = e.dir.path().join("int-report.csv");
    let report_arg = report.to_str().unwrap();
    e.s.set_latency(Duration::from_millis(150));
    let child = spawn(
        &e,
        &[
            "bulk",
            &file,
            "--yes",
            "--concurrency",
            "4",
            "--report",
            report_arg,
        ],
    );
    until_creates(&e, 8);
    assert!(cli_env::signal(&child, libc::SIGINT));
    let out = child.wait_with_output().unwrap();
    exits(&out, 130);
    assert!(
        text(&out.stderr).contains("Stopping"),
        "{}",
        text(&out.stderr)
    );
    // What was on its way finished and was recorded: nothing is left unknown.
    assert!(e.entries(&["--outcome", "unknown"]).is_empty());
    let lines = std::fs::read_to_string(&report).unwrap();
    let created = lines.lines().filter(|l| l.contains(",created,")).count();
    let not_sent = lines.lines().filter(|l| l.contains(",not_sent,")).count();
    assert_eq!(created + not_sent, 60, "{lines}");
    assert!(not_sent > 0, "{lines}");
    assert_eq!(issued(&e, "INT-"), (created, created));
    e.s.set_latency(Duration::ZERO);
    let out = e.run(&["bulk", &file, "--yes"]);
    exits(&out, 0);
    assert!(
        text(&out.stdout).contains(&format!("{not_sent} created, {created} already issued")),
        "{}",
        text(&out.stdout)
    );
    assert_eq!(issued(&e, "INT-"), (60, 60));
}

#[test]
fn broken_connections_are_looked_up_at_the_service_and_a_429_storm_is_waited_out() {
    let e = env();
    let c = e.customer();
    let rows = |n: usize| {
        let mut body = String::from("cliente,monto,referencia\n");
        for i in 0..n {
            body.push_str(&format!("{c},{},RST-{i}\n", 2000 + i));
        }
        body
    };
    let file = bulk_file(&e, "rst.csv", &rows(20));
    // Three creates are done and then their connections broken: no answer said what
    // became of them, so the run asks the service at once (#68: rows were left "to
    // review" that the service had) and finds them.
    e.s.add_fault(Fault::reset(Route::Create, 3));
    let out = e.run(&["bulk", &file, "--yes"]);
    exits(&out, 0);
    assert!(
        text(&out.stdout).contains("20 created, 0 already issued, 0 refused, 0 unknown"),
        "{}",
        text(&out.stdout)
    );
    e.s.clear_faults();
    // The file grows by ten rows; the service answers a storm of 429s meanwhile.
    let file = bulk_file(&e, "rst.csv", &rows(30));
    e.s.add_fault(Fault::rate_limit(Route::Create, 12, 1));
    let started = Instant::now();
    let out = e.run(&["bulk", &file, "--yes", "--concurrency", "4"]);
    exits(&out, 0);
    assert!(
        text(&out.stdout).contains("10 created, 20 already issued"),
        "none sent again: {}",
        text(&out.stdout)
    );
    assert!(
        started.elapsed() >= Duration::from_secs(1),
        "429s were waited out"
    );
    assert_eq!(issued(&e, "RST-"), (30, 30));
    assert!(e.entries(&["--outcome", "unknown"]).is_empty());
}

#[test]
fn a_429_asking_for_a_day_is_not_waited_for_and_a_short_one_is_said() {
    let e = env();
    let c = e.customer();
    let mut body = String::from("cliente,monto,referencia\n");
    for i in 0..3 {
        body.push_str(&format!("{c},{},W-{i}\n", 3000 + i));
    }
    let file = bulk_file(&e, "espera.csv", &body);
    e.s.add_fault(Fault::rate_limit(Route::Create, 1, 86_400));
    let started = Instant::now();
    let out = e.run(&["bulk", &file, "--yes", "--concurrency", "1"]);
    exits(&out, 4);
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "no day-long wait"
    );
    let said = text(&out.stderr);
    assert!(said.contains("asked to wait 1,440 minutes"), "{said}");
    assert!(
        text(&out.stdout).contains("2 created, 0 already issued, 0 refused, 0 unknown, 1 not sent"),
        "{}",
        text(&out.stdout)
    );
    // A short wait is waited, and said as it begins.
    e.s.add_fault(Fault::rate_limit(Route::Create, 1, 1));
    let out = e.run(&["bulk", &file, "--yes"]);
    exits(&out, 0);
    assert!(
        text(&out.stderr).contains("The service asked to wait (429); sending resumes at"),
        "{}",
        text(&out.stderr)
    );
}

// Unix only: SIGINT is sent with `kill`.
#[cfg(unix)]
#[test]
fn ctrl_c_ends_a_429_wait_at_once() {
    let e = env();
    let c = e.customer();
    let file = bulk_file(
        &e,
        "espera2.csv",
        &format!("cliente,monto\n{c},4100\n{c},4200\n"),
    );
    e.s.add_fault(Fault::rate_limit(Route::Create, 5, 200));
    let child = spawn(&e, &["bulk", &file, "--yes", "--concurrency", "1"]);
    until_creates(&e, 1);
    let sent_at = Instant::now();
    assert!(cli_env::signal(&child, libc::SIGINT));
    let out = child.wait_with_output().unwrap();
    exits(&out, 130);
    assert!(
        sent_at.elapsed() < Duration::from_secs(10),
        "the 200 s wait ended with Ctrl-C"
    );
}

/// A journal another program holds locked mid-run for longer than a writer waits: the
/// outcomes of the rows on their way are written once it is free again (none is left "to
/// check" for no reason), the run goes on, and nothing is sent twice.
#[test]
fn a_journal_locked_for_a_while_mid_run_loses_no_outcome() {
    let e = env();
    let c = e.customer();
    let mut body = String::from("cliente,monto,referencia\n");
    for i in 0..30 {
        body.push_str(&format!("{c},{},LOCK-{i}\n", 5000 + i));
    }
    let file = bulk_file(&e, "bloqueo.csv", &body);
    e.s.add_fault(Fault::slow(Route::Create, 1000, 300));
    let child = spawn(&e, &["bulk", &file, "--yes", "--concurrency", "2"]);
    until_creates(&e, 4);
    // Another program takes the journal's write lock for 12 s (a writer waits 10 s).
    let locker = rusqlite::Connection::open(e.journal_path()).unwrap();
    locker.execute_batch("BEGIN IMMEDIATE").unwrap();
    let held = Instant::now();
    while held.elapsed() < Duration::from_secs(12) {
        std::thread::sleep(Duration::from_millis(100));
    }
    locker.execute_batch("ROLLBACK").unwrap();
    drop(locker);
    let out = child.wait_with_output().unwrap();
    exits(&out, 0);
    assert_eq!(issued(&e, "LOCK-"), (30, 30));
    assert!(e.entries(&["--outcome", "unknown"]).is_empty());
    assert_eq!(e.entries(&["--outcome", "done"]).len(), 30);
}

/// A disk that fills up mid-run (here: the process may not write files past 160 KB,
/// as `ulimit -f` does): the run stops at once with the journal's own words and exit 1
/// (not "refused by the service"), sends nothing more, and says what became of each row.
#[cfg(unix)]
#[test]
fn a_full_disk_mid_run_stops_the_run_and_says_why() {
    use std::os::unix::process::CommandExt;
    let e = env();
    let c = e.customer();
    let mut body = String::from("cliente,monto,referencia\n");
    for i in 0..200 {
        body.push_str(&format!("{c},{},FULL-{i}\n", 6000 + i));
    }
    let file = bulk_file(&e, "lleno.csv", &body);
    let mut cmd = e.cli();
    cmd.args(["bulk", &file, "--yes", "--concurrency", "2"]);
    // SAFETY: only async-signal-safe calls between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            // A write past the limit fails (EFBIG) instead of killing the process.
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            let limit = libc::rlimit {
                rlim_cur: 160 * 1024,
                rlim_max: 160 * 1024,
            };
            libc::setrlimit(libc::RLIMIT_FSIZE, &limit);
            Ok(())
        });
    }
    let out = cmd.output().unwrap();
    exits(&out, 1);
    let said = text(&out.stderr);
    assert!(
        said.contains("Stopped:") && said.contains("journal"),
        "{said}"
    );
    assert!(!said.contains("refused"), "{said}");
    let created = creates(&e);
    assert!(created > 0 && created < 200, "{created} sent");
    assert!(
        text(&out.stdout).contains("not sent"),
        "{}",
        text(&out.stdout)
    );
    // What the service made is either in the journal or named as not recorded.
    let (n, distinct) = issued(&e, "FULL-");
    assert_eq!(n, distinct);
}

/// A void whose answer never came names the invoice, as a create names its reference,
/// and is not sent again before it is checked (exit 6).
#[test]
fn a_void_with_no_answer_names_the_invoice() {
    let e = env();
    let out = e.run(&[
        "--json",
        "create",
        "--customer",
        &e.customer(),
        "--amount",
        "4321",
        "--external-id",
        "ERP-J-VOID",
    ]);
    exits(&out, 0);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let id = v["id"].as_str().unwrap().to_string();
    e.s.add_fault(Fault::hang(Route::Void, 1, 3));
    let out = e
        .cli()
        .env("INVOICE_DESK_TIMEOUT", "1")
        .args(["void", &id, "--yes"])
        .output()
        .unwrap();
    exits(&out, 6);
    let said = text(&out.stderr);
    assert!(
        said.contains(&format!("The invoice is {id}; it is not voided again")),
        "{said}"
    );
}

/// A run cut short while its first request was on its way, resumed at once: that row
/// (and the next, claimed ahead of its turn) is waited for until its request can no
/// longer arrive, and the wait is said — how many rows, for how long at most — where a
/// frozen count said nothing; the service's listings are said to be read first. Each row
/// is then issued once.
#[test]
fn a_resume_says_what_it_waits_for_and_issues_each_row_once() {
    let e = env();
    let c = e.customer();
    let file = bulk_file(
        &e,
        "espera.csv",
        &format!("cliente,monto,referencia\n{c},1000,WAIT-1\n{c},2000,WAIT-2\n"),
    );
    // The first create waits 3 s before any work: the run is killed meanwhile, and the
    // service, its client gone, never does it.
    e.s.add_fault(Fault::slow(Route::Create, 1, 3000));
    let before = creates(&e);
    let mut child = spawn(&e, &["bulk", &file, "--yes", "--concurrency", "1"]);
    until_creates(&e, before + 1);
    child.kill().unwrap();
    child.wait().unwrap();
    // The row on its way, and the next one if it was claimed ahead of its turn (its
    // request may have left too, for all the journal can tell).
    let cut_short = e
        .entries(&[])
        .iter()
        .filter(|v| v["outcome"] == "unknown")
        .count();
    assert!((1..=2).contains(&cut_short), "{cut_short} rows to check");
    // The listing read before sending takes a while (as a big customer's does).
    e.s.add_fault(Fault::slow(Route::List, 1, 1500));
    let out = e
        .cli()
        .env("INVOICE_DESK_TIMEOUT", "2")
        .env("INVOICE_DESK_IN_FLIGHT_MARGIN", "1")
        .args(["bulk", &file, "--yes"])
        .output()
        .unwrap();
    exits(&out, 0);
    let said = text(&out.stdout) + &text(&out.stderr);
    assert!(
        said.contains("Reading what the service already has of 1 customer"),
        "{said}"
    );
    let rows = match cut_short {
        1 => "1 row".to_string(),
        n => format!("{n} rows"),
    };
    assert!(
        said.contains(&format!(
            "{rows} of a run cut short may still be on their way to the service"
        )),
        "{said}"
    );
    assert!(said.contains("Waiting "), "{said}");
    assert!(said.contains("2 created"), "{said}");
    let listed = e.run(&["list", &c, "--format", "json"]);
    let all: Vec<Value> = serde_json::from_slice(&listed.stdout).unwrap();
    for r in ["WAIT-1", "WAIT-2"] {
        let n = all.iter().filter(|v| v["invoice_external_id"] == r).count();
        assert_eq!(n, 1, "{r}");
    }
}

/// #50: `find` answers from the journal, the directory and the listings read, and asks
/// the service for an id nothing here knows (then keeps it); a void is said; nothing
/// found exits 1 with a sentence.
#[test]
fn any_invoice_is_found_by_id_reference_amount_name_or_rut() {
    let e = env();
    let customer = e.customer();
    let dir = e.dir.path().join("clientes.csv");
    std::fs::write(
        &dir,
        format!("Cliente;Razón social;RUT\n{customer};Comercial Ñuñoa Ltda.;76.123.456-0\n"),
    )
    .unwrap();
    exits(&e.run(&["customers", "import", dir.to_str().unwrap()]), 0);
    exits(&create(&e, "1341000", "FAC-BUSCAR-1"), 0);
    let id = e.entries(&["--action", "create"])[0]["invoice_id"]
        .as_str()
        .unwrap()
        .to_string();
    let find = |args: &[&str]| {
        let mut all = vec!["find"];
        all.extend_from_slice(args);
        e.run(&all)
    };
    for text in [
        "FAC-BUSCAR-1",
        "buscar",
        "1.341.000",
        "$1.341.000",
        "nunoa",
        "76123456-0",
        id.as_str(),
    ] {
        let out = find(&[text]);
        exits(&out, 0);
        let said = cli_env::text(&out.stdout);
        assert!(said.contains(&id), "{text}: {said}");
        // Created in the account's currency: the journal does not name it.
        assert!(
            said.contains(" · 1.341.000 · Issued here · per the journal, "),
            "{text}: {said}"
        );
        assert!(said.contains("Comercial Ñuñoa Ltda."), "{text}: {said}");
    }
    assert!(
        text(&find(&["nunoa"]).stdout).contains("Customer: Comercial Ñuñoa Ltda. · 76.123.456-0")
    );
    // Voided: said at once.
    exits(&e.run(&["void", &id, "--yes"]), 0);
    assert!(text(&find(&["FAC-BUSCAR-1"]).stdout).contains("· Void ·"));
    // An invoice this computer never saw: not here, then asked of the service and kept.
    let other =
        e.s.sample_invoice(invoice_desk::sandbox::data::ORG_OAUTH)
            .unwrap();
    let out = find(&[&other, "--local"]);
    exits(&out, 1);
    assert!(
        text(&out.stderr).contains("Nothing found for"),
        "{}",
        text(&out.stderr)
    );
    let gets = || e.s.counters().api.get("get").copied().unwrap_or(0);
    let before = gets();
    let out = find(&[&other]);
    exits(&out, 0);
    assert!(
        text(&out.stdout).contains("seen at the service"),
        "{}",
        text(&out.stdout)
    );
    assert_eq!(gets(), before + 1);
    exits(&find(&[&other, "--local"]), 0);
    // A listing read is kept: every invoice of it found without asking the service.
    exits(&e.run(&["list", &customer]), 0);
    let listed: Vec<Value> = serde_json::from_str::<Value>(&text(
        &find(&["--json", &customer]).stdout,
    ))
    .unwrap()["invoices"]
        .as_array()
        .unwrap()
        .clone();
    assert!(listed.len() > 1, "{listed:?}");
    assert!(listed.iter().any(|i| i["seen_in"] == "service"));
    // #68 (1): an open invoice past its due day is said as overdue, as the app says it.
    let said = text(&find(&[&customer]).stdout);
    assert!(said.contains(" · Overdue · "), "{said}");
    // An id the service does not know either: exit 1, said.
    let out = find(&["in_no_such_invoice_here"]);
    exits(&out, 1);
    assert!(
        text(&out.stderr).contains("Nothing found"),
        "{}",
        text(&out.stderr)
    );
}

/// #68 (4): `create --customer` reads a name or RUT the directory knows as the app does:
/// its customer's id is what is sent. A name no one has, or several have, is refused
/// before anything is sent or journaled (exit 2).
#[test]
fn create_names_its_customer_as_the_app_does() {
    let e = env();
    let customer = e.customer();
    let file = e.dir.path().join("clientes.csv");
    std::fs::write(
        &file,
        format!(
            "Cliente;Razón social;RUT\n{customer};Comercial Ñuñoa Ltda.;76.123.456-0\ncus_otro1;Ñuñoa Dos SpA;\ncus_otro2;Ñuñoa Dos SpA;\n"
        ),
    )
    .unwrap();
    exits(&e.run(&["customers", "import", file.to_str().unwrap()]), 0);
    let before = creates(&e);
    // (Different amounts: the same one again would be a look-alike, held back.)
    for (name, amount) in [
        ("Comercial Ñuñoa Ltda.", "1500"),
        ("comercial nunoa ltda.", "1501"),
        ("76.123.456-0", "1502"),
    ] {
        let out = e.run(&["create", "--customer", name, "--amount", amount, "--json"]);
        exits(&out, 0);
        let inv: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(inv["customer"], customer.as_str(), "{name}");
    }
    assert_eq!(creates(&e), before + 3);
    for (name, said) in [
        ("Comercial Nadie Ltda.", "Comercial Nadie Ltda."),
        ("Ñuñoa Dos SpA", "2"),
    ] {
        let out = e.run(&["create", "--customer", name, "--amount", "1500"]);
        exits(&out, 2);
        assert!(text(&out.stderr).contains(said), "{}", text(&out.stderr));
    }
    assert_eq!(creates(&e), before + 3, "nothing refused was sent");
    assert_eq!(e.entries(&["--action", "create"]).len(), 3, "nor journaled");
}

/// libfaketime, as Debian's `faketime` package installs it (its thread-safe build).
const LIBFAKETIME: &str = "/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1";

/// Each invoice of `customer` at the service whose reference starts with `prefix`:
/// reference → (amount, currency, due date).
fn invoices_of(
    e: &Env,
    customer: &str,
    prefix: &str,
) -> std::collections::BTreeMap<String, (String, String, String)> {
    let listed = e.run(&["list", customer, "--format", "json"]);
    exits(&listed, 0);
    let all: Vec<Value> = serde_json::from_slice(&listed.stdout).unwrap();
    let mut out = std::collections::BTreeMap::new();
    for v in all {
        let Some(r) = v["invoice_external_id"]
            .as_str()
            .filter(|r| r.starts_with(prefix))
        else {
            continue;
        };
        let amount = match &v["amount"] {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        let seen = (
            amount,
            v["currency_code"].as_str().unwrap_or("").to_string(),
            v["due_date"].as_str().unwrap_or("").to_string(),
        );
        assert!(
            out.insert(r.to_string(), seen).is_none(),
            "{r} issued twice"
        );
    }
    out
}

/// #69: contracts kept in the journal, a bad file changing nothing; a year run period by
/// period (a monthly rent in UF billed in pesos at the day's UF, a quarterly plan whose
/// amount changes from a period, a yearly licence) issues exactly the expected invoices
/// — two months skipped are caught up, each said — and running a period again issues
/// nothing. The CLI runs on 2027-01-02 (libfaketime), the UF of that day kept.
#[test]
#[cfg_attr(
    tests_lack = "faketime",
    ignore = "needs libfaketime (apt-get install faketime)"
)]
fn contracts_bill_each_period_once_catch_up_and_bill_uf_in_pesos_at_the_days_value() {
    if !cli_env::have_file("faketime", LIBFAKETIME, "faketime") {
        return;
    }
    let e = env();
    let on_jan_2 = |args: &[&str]| -> Output {
        e.cli()
            .env("LD_PRELOAD", LIBFAKETIME)
            .env("FAKETIME", "@2027-01-02 12:00:00")
            .env("FAKETIME_DONT_FAKE_MONOTONIC", "1")
            .args(args)
            .output()
            .unwrap()
    };
    let cs = e.s.customers();
    let (a, b, c) = (cs[0].0.clone(), cs[1].0.clone(), cs[2].0.clone());
    // A file with a wrong row keeps nothing, and names the row and why.
    let bad = bulk_file(
        &e,
        "malo.csv",
        &format!(
            "contrato;cliente;monto;moneda;cada;desde\nARR-1;{a};45;UF;mes;2027-01\nX-2;{b};100;CLP;semana;2027-13\n"
        ),
    );
    let out = e.run(&["contracts", "import", &bad]);
    exits(&out, 2);
    let said = text(&out.stderr);
    assert!(
        said.contains("row 3") && said.contains("\"semana\""),
        "{said}"
    );
    assert!(said.contains("\"2027-13\" is not a period"), "{said}");
    let out = e.run(&["contracts", "list", "--json"]);
    exits(&out, 0);
    assert!(text(&out.stdout).trim().is_empty(), "nothing kept");
    let file = bulk_file(
        &e,
        "contratos.csv",
        &format!(
            "contract,customer,amount,currency,bill_in,every,day,due_days,start,end,reference,description\n\
             ARR-1,{a},45,UF,CLP,month,31,10,2027-01,,,Oficina 301\n\
             MANT-2,{b},350000,CLP,,quarter,5,30,2027-02,,MANT-{{period}},Mantención\n\
             LIC-3,{c},1200000,CLP,,year,1,15,2027-03,,,Licencia\n"
        ),
    );
    let out = e.run(&["contracts", "import", &file]);
    exits(&out, 0);
    assert!(
        text(&out.stdout).contains("3 contracts added."),
        "{}",
        text(&out.stdout)
    );
    let out = e.run(&["contracts", "import", &file]);
    assert!(
        text(&out.stdout).contains("0 contracts added; 3 were kept already as they are."),
        "{}",
        text(&out.stdout)
    );
    // The amount changes from August; earlier periods keep theirs.
    exits(
        &e.run(&[
            "contracts",
            "change",
            "MANT-2",
            "--from",
            "2027-08",
            "--amount",
            "400000",
        ]),
        0,
    );
    // The UF of the day the invoices are issued: UF 45 × $40.123,30 = $1.805.548,50,
    // billed $1.805.549 (to the peso, half up).
    let uf = bulk_file(&e, "uf.csv", "Fecha;Valor\n02-01-2027;40.123,30\n");
    exits(&e.run(&["uf", "import", &uf]), 0);
    // January, then April (February and March caught up), then the rest, each twice.
    for m in [1, 4, 5, 6, 7, 8, 9, 10, 11, 12] {
        let period = format!("2027-{m:02}");
        let out = on_jan_2(&["contracts", "run", "--period", &period, "--yes"]);
        exits(&out, 0);
        if m == 4 {
            let said = text(&out.stdout);
            assert!(
                said.contains("ARR-1 · 2027-02") && said.contains("missed period"),
                "{said}"
            );
        }
        let again = on_jan_2(&["contracts", "run", "--period", &period, "--yes"]);
        exits(&again, 0);
        assert!(
            text(&again.stdout).contains(&format!("Period {period}: nothing to issue.")),
            "{}",
            text(&again.stdout)
        );
    }
    let rent = invoices_of(&e, &a, "ARR-1-");
    assert_eq!(rent.len(), 12, "{rent:?}");
    for m in 1..=12 {
        let (amount, currency, _) = &rent[&format!("ARR-1-2027-{m:02}")];
        assert_eq!((amount.as_str(), currency.as_str()), ("1805549", "CLP"));
    }
    // Day 31 in February is the 28th; due 10 days later.
    assert_eq!(rent["ARR-1-2027-02"].2, "2027-03-10");
    assert_eq!(rent["ARR-1-2027-04"].2, "2027-05-10");
    let plan = invoices_of(&e, &b, "MANT-");
    let got: Vec<(&str, &str, &str)> = plan
        .iter()
        .map(|(r, (amount, _, due))| (r.as_str(), amount.as_str(), due.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            ("MANT-2027-02", "350000", "2027-03-07"),
            ("MANT-2027-05", "350000", "2027-06-04"),
            ("MANT-2027-08", "400000", "2027-09-04"),
            ("MANT-2027-11", "400000", "2027-12-05"),
        ]
    );
    let licence = invoices_of(&e, &c, "LIC-3-");
    assert_eq!(licence.len(), 1, "{licence:?}");
    assert_eq!(licence["LIC-3-2027-03"].2, "2027-03-16");
    // Who changed what, and when, is shown.
    let out = e.run(&["contracts", "show", "MANT-2"]);
    exits(&out, 0);
    let said = text(&out.stdout);
    assert!(
        said.contains("terms changed from 2027-08: $400.000"),
        "{said}"
    );
}

/// #69: a contracts run killed (kill -9) at twenty moments, then run to its end: each
/// (contract, period) issued once; running the period again issues nothing.
#[test]
fn a_contracts_run_killed_twenty_times_issues_each_period_once() {
    let e = env();
    let c = e.customer();
    let mut body = String::from("contrato;cliente;monto;moneda;desde\n");
    for i in 0..400 {
        body.push_str(&format!("K-{i};{c};{};CLP;2030-01\n", 1000 + i));
    }
    let file = bulk_file(&e, "k.csv", &body);
    exits(&e.run(&["contracts", "import", &file]), 0);
    e.s.set_latency(Duration::from_millis(10));
    let args = [
        "contracts",
        "run",
        "--period",
        "2030-01",
        "--yes",
        "--concurrency",
        "8",
    ];
    let first = creates(&e);
    for k in 1..=20u64 {
        let mut child = spawn(&e, &args);
        until_creates(&e, first + k * 15);
        child.kill().unwrap();
        child.wait().unwrap();
    }
    cli_env::until_settled(|| {
        let mut c = e.cli();
        c.args(args);
        c
    });
    assert_eq!(issued(&e, "K-"), (400, 400), "exactly 400, none twice");
    let again = e.run(&args);
    exits(&again, 0);
    assert!(
        text(&again.stdout).contains("Period 2030-01: nothing to issue."),
        "{}",
        text(&again.stdout)
    );
}

/// A create syncs the disk once (#71): connections close without folding the journal's
/// write-ahead log into its file, so the file alone may lack the newest entries until
/// `journal verify` (or SQLite's own checkpoint) folds them in — after which a copy of
/// the file alone is the whole journal, every entry there and the chain intact.
#[test]
fn after_journal_verify_a_copy_of_the_file_alone_is_the_whole_journal() {
    let e = env();
    for (amount, reference) in [("1000", "WAL-1"), ("2000", "WAL-2")] {
        let out = create(&e, amount, reference);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let wal = PathBuf::from(format!("{}-wal", e.journal_path().display()));
    assert!(
        std::fs::metadata(&wal).is_ok_and(|m| m.len() > 0),
        "the log stays beside the file"
    );
    let out = e.run(&["journal", "verify"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let copy = e.dir.path().join("copia.sqlite3");
    std::fs::copy(e.journal_path(), &copy).unwrap();
    let j = Journal::open(&copy).unwrap();
    let all = j
        .list(&invoice_desk::journal::Filter::default(), false, 0, 10)
        .unwrap();
    let refs: Vec<_> = all.iter().filter_map(|x| x.external_id.clone()).collect();
    assert_eq!(refs, ["WAL-1", "WAL-2"], "{all:#?}");
    assert_eq!(j.verify().unwrap(), Ok(4));
}
