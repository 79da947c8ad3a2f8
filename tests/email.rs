//! E-mail to customers through a real mail server (postfix on loopback, TLS with a
//! throwaway authority, delivering to a Maildir): what arrives is read back (headers,
//! Spanish subject, the PDF with pdftotext), each e-mail arrives once — a second run,
//! a run killed with SIGKILL and resumed, refusals for good and for now — and bad
//! settings or addresses change nothing and send nothing. Linux only: the mail server
//! is Debian's postfix, started as root.
#![cfg(target_os = "linux")]

mod cli_env;
mod pg_server;
mod smtp_server;

use cli_env::{Env, exits, text};
use invoice_desk::profile::mail::SERVER_PACE;
use smtp_server::{LATER, REFUSED, Smtp};
use std::path::{Path, PathBuf};
use std::process::Command;

const AS_OF: &str = "2026-11-24";
const DESK: &str = "mesa@nandu.test";

fn sender() -> invoice_desk::profile::Sender {
    invoice_desk::profile::Sender {
        organization: "Servicios Ñandú SpA".into(),
        rut: "76.123.456-0".into(),
        address: "Av. Apoquindo 1234, Las Condes".into(),
        email: "cobranza@nandu.test".into(),
        phone: "+56 2 2345 6789".into(),
        logo: None,
        payment_text: "Transferencia a Banco Estado, cuenta corriente 123-456-7.".into(),
    }
}

/// The sandbox's profile with the test sender and this mail server (STARTTLS, its
/// authority trusted, the desk's copy), `per_minute` e-mails a minute.
fn profile(e: &Env, smtp: &Smtp, per_minute: u32, trust: bool) {
    let mut p = e.s.profile("Pruebas");
    p.sender = sender();
    p.mail = invoice_desk::profile::mail::Settings {
        server: "127.0.0.1".into(),
        port: Some(smtp.starttls_port),
        from: "Cobranzas Ñandú <cobranza@nandu.test>".into(),
        reply_to: Some("respuestas@nandu.test".into()),
        copy_to: Some(DESK.into()),
        per_minute,
        ca_file: trust.then(|| smtp.ca()),
        ..Default::default()
    };
    let mut ps = invoice_desk::profile::Profiles::default();
    ps.upsert(None, p).unwrap();
    ps.save(&e.dir.path().join("profiles.toml")).unwrap();
}

/// A desk's database with a clerks' group role and the clerks ana_DB and beto_DB in it:
/// (the owner's address, the database, the group).
fn desk_db(pg: &pg_server::Server) -> (String, String, String) {
    let url = pg.database();
    let db = url.rsplit('/').next().unwrap().to_string();
    let group = format!("clerks_{db}");
    pg.psql("postgres", &format!("CREATE ROLE {group} NOLOGIN"));
    for who in ["ana", "beto"] {
        pg.psql(
            "postgres",
            &format!(
                "CREATE ROLE {who}_{db} LOGIN PASSWORD '{}' IN ROLE {group}",
                pg_server::PASSWORD
            ),
        );
    }
    pg.psql(&db, &format!("GRANT CONNECT ON DATABASE {db} TO {group}"));
    (url, db, group)
}

/// The CLI as clerk `who` on the shared journal at `url`.
fn on_desk(e: &Env, who: &str, url: &str) -> Command {
    let mut c = cli(e);
    c.env("INVOICE_DESK_JOURNAL", url)
        .env("INVOICE_DESK_JOURNAL_PASSWORD", pg_server::PASSWORD)
        .env("USER", who)
        .stdin(std::process::Stdio::null());
    c
}

/// The CLI for the saved profile (the client secret from the environment), shorter
/// waits between attempts.
fn cli(e: &Env) -> Command {
    let mut c = cli_env::cli(e.dir.path());
    c.env("INVOICE_DESK_CLIENT_SECRET", &e.s.credentials.client_secret)
        .env("INVOICE_DESK_MAIL_BACKOFF", "0.2")
        .env("INVOICE_DESK_MAIL_TIMEOUT", "20");
    c
}

/// The directory imported from a file with an e-mail column: each customer of `rows`
/// (index into the sandbox's directory, addresses).
fn import(e: &Env, rows: &[(usize, &str)]) -> Vec<(String, String)> {
    let dir = e.s.directory();
    let mut csv = String::from("cliente;razón social;rut;correo\n");
    let mut out = Vec::new();
    for (i, emails) in rows {
        let (id, name, rut) = &dir[*i];
        csv.push_str(&format!("{id};{name};{rut};{emails}\n"));
        out.push((id.clone(), name.clone()));
    }
    let file = e.dir.path().join("directorio.csv");
    std::fs::write(&file, csv).unwrap();
    let o = cli(e)
        .args(["customers", "import"])
        .arg(&file)
        .output()
        .unwrap();
    exits(&o, 0);
    out
}

fn ids_file(e: &Env, ids: &[String]) -> PathBuf {
    let file = e.dir.path().join("clientes.txt");
    std::fs::write(&file, ids.join("\n")).unwrap();
    file
}

fn email_statements(e: &Env, list: &Path, extra: &[&str]) -> std::process::Output {
    cli(e)
        .args(["--lang", "es", "email", "statements", "--customers"])
        .arg(list)
        .args(["--as-of", AS_OF])
        .args(extra)
        .output()
        .unwrap()
}

fn pdftotext(pdf: &[u8]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("adjunto.pdf");
    std::fs::write(&path, pdf).unwrap();
    let out = Command::new("pdftotext")
        .args(["-layout".as_ref(), path.as_os_str(), "-".as_ref()])
        .output()
        .expect("pdftotext (apt-get install poppler-utils)");
    assert!(out.status.success(), "{}", text(&out.stderr));
    text(&out.stdout)
}

/// Customers of the sandbox who owe something on AS_OF (what a preview would send).
fn owing(e: &Env, smtp: &Smtp, n: usize) -> Vec<usize> {
    owing_with(e, smtp, n, None)
}

/// [`owing`] on a server that wants `password` for the profile's login.
fn owing_with(e: &Env, smtp: &Smtp, n: usize, password: Option<&str>) -> Vec<usize> {
    let dir = e.s.directory();
    let rows: Vec<(usize, String)> = (0..dir.len())
        .map(|i| (i, format!("p{i}@probe.test")))
        .collect();
    let refs: Vec<(usize, &str)> = rows.iter().map(|(i, a)| (*i, a.as_str())).collect();
    let customers = import(e, &refs);
    profile(e, smtp, 600, true);
    let list = ids_file(
        e,
        &customers.iter().map(|c| c.0.clone()).collect::<Vec<_>>(),
    );
    let out = cli(e)
        .env("INVOICE_DESK_SMTP_PASSWORD", password.unwrap_or(""))
        .args(["--lang", "es", "email", "statements", "--customers"])
        .arg(&list)
        .args(["--as-of", AS_OF, "--preview"])
        .output()
        .unwrap();
    exits(&out, 0);
    let shown = text(&out.stdout);
    let found: Vec<usize> = rows
        .iter()
        .filter(|(_, a)| shown.contains(&format!(": {a}")))
        .map(|(i, _)| *i)
        .take(n)
        .collect();
    assert!(smtp.delivered().is_empty(), "a preview sends nothing");
    // The probe's addresses go: each test says whom it writes to.
    let mut j =
        invoice_desk::journal::Journal::open(&e.dir.path().join("journal.sqlite3")).unwrap();
    for (id, _) in &customers {
        j.set_customer_emails(id, &[]).unwrap();
    }
    found
}

#[test]
#[cfg_attr(
    any(tests_lack = "smtp", tests_lack = "pdf"),
    ignore = "needs postfix as root and the PDF readers (apt-get install postfix poppler-utils qpdf zbar-tools)"
)]
fn a_months_statements_reach_each_customer_once_and_read_back() {
    if !cli_env::have_pdf_readers() {
        return;
    }
    let Some(smtp) = smtp_server::start() else {
        return;
    };
    let e = Env::new(0);
    let owe = owing(&e, &smtp, 3);
    assert!(owe.len() >= 3, "the sandbox has customers who owe: {owe:?}");
    let customers = import(
        &e,
        &[
            (owe[0], "pagos@uno.test, Contabilidad@uno.test"),
            (owe[1], "cobranza@dos.test"),
            (owe[2], ""),
        ],
    );
    let ids: Vec<String> = customers.iter().map(|c| c.0.clone()).collect();
    let list = ids_file(&e, &ids);
    let out = email_statements(&e, &list, &[]);
    exits(&out, 0);
    let said = text(&out.stdout);
    assert!(
        said.contains("Enviados: 2"),
        "{said}\n{}",
        text(&out.stderr)
    );
    assert!(
        text(&out.stderr).contains("sin dirección de correo"),
        "{}",
        text(&out.stderr)
    );
    // Each address once; the customer's two addresses share one message; the desk's
    // copy of each.
    let uno = smtp.to("pagos@uno.test");
    assert_eq!(uno.len(), 1);
    assert_eq!(smtp.to("contabilidad@uno.test").len(), 1);
    assert_eq!(smtp.to("cobranza@dos.test").len(), 1);
    assert_eq!(smtp.to(DESK).len(), 2);
    assert_eq!(smtp.delivered().len(), 5);
    assert_eq!(
        uno[0].header("message-id"),
        smtp.to("contabilidad@uno.test")[0].header("message-id")
    );
    // What the customer reads.
    let m = &uno[0];
    assert_eq!(
        m.subject(),
        "Estado de cuenta al 24-11-2026 · Servicios Ñandú SpA"
    );
    assert!(m.header("from").unwrap().contains("cobranza@nandu.test"));
    assert!(
        m.header("reply-to")
            .unwrap()
            .contains("respuestas@nandu.test")
    );
    assert!(m.header("bcc").is_none(), "the desk's copy is blind");
    let body = m.text();
    // A person (by the RUT) is written to as one, a company as its people.
    let greeting = |i: usize| {
        let person =
            e.s.directory()
                .iter()
                .find(|c| c.0 == customers[i].0)
                .map(|c| invoice_desk::rut::Rut::parse(&c.2).unwrap().is_person())
                .unwrap();
        if person {
            format!(
                "Estimado o estimada {}:\n\nJunto con saludarle,",
                customers[i].1
            )
        } else {
            format!("Estimados {}:\n\nJunto con saludarles,", customers[i].1)
        }
    };
    assert!(body.starts_with(&greeting(0)), "{body}");
    let dos = smtp.to("cobranza@dos.test")[0].text();
    assert!(dos.starts_with(&greeting(1)), "{dos}");
    assert!(body.contains("el saldo pendiente es de $"), "{body}");
    assert!(
        body.contains("Saludos cordiales,\nServicios Ñandú SpA"),
        "{body}"
    );
    let (name, pdf) = m.attachment().expect("the statement is attached");
    assert!(
        name.starts_with("estado-de-cuenta-") && name.ends_with("-2026-11-24.pdf"),
        "{name}"
    );
    let printed = pdftotext(&pdf);
    assert!(printed.contains(&customers[0].1), "{printed}");
    assert!(printed.contains("Servicios Ñandú SpA"));
    // A second run sends nothing and says when each was sent.
    let again = email_statements(&e, &list, &[]);
    exits(&again, 0);
    assert!(
        text(&again.stdout).contains("ya se envió"),
        "{}",
        text(&again.stdout)
    );
    assert!(text(&again.stdout).contains("Enviados: 0 · enviados antes: 2"));
    assert_eq!(smtp.delivered().len(), 5);
    // The journal has each e-mail, done, with the server's answer.
    let j = cli(&e)
        .args(["journal", "--action", "email", "--json"])
        .output()
        .unwrap();
    exits(&j, 0);
    let entries: Vec<serde_json::Value> = text(&j.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(entries.len(), 2, "{}", text(&j.stdout));
    for en in &entries {
        assert_eq!(en["outcome"], "done");
        assert!(
            en["error_code"].as_str().unwrap().starts_with("250"),
            "{en}"
        );
        assert!(
            en["external_id"]
                .as_str()
                .unwrap()
                .starts_with("statement:")
        );
        assert!(en["external_id"].as_str().unwrap().ends_with(":2026-11"));
    }
    // `--again` sends again only what is in doubt: this one the server took.
    let one = ids_file(&e, &ids[1..2]);
    let forced = email_statements(&e, &one, &["--again"]);
    exits(&forced, 0);
    assert_eq!(smtp.to("cobranza@dos.test").len(), 1);
    // Asked explicitly for every one, it is sent again (once more), journaled as such.
    let forced = email_statements(&e, &one, &["--again", "--again-all"]);
    exits(&forced, 0);
    assert_eq!(smtp.to("cobranza@dos.test").len(), 2);
    let forced = email_statements(&e, &one, &[]);
    exits(&forced, 0);
    assert_eq!(smtp.to("cobranza@dos.test").len(), 2);
}

#[test]
#[cfg_attr(
    tests_lack = "smtp",
    ignore = "needs postfix as root (apt-get install postfix)"
)]
fn a_run_killed_mid_way_and_resumed_sends_each_once() {
    let Some(smtp) = smtp_server::start() else {
        return;
    };
    let e = Env::new(0);
    let owe = owing(&e, &smtp, 12);
    assert!(owe.len() >= 6, "enough customers owe: {owe:?}");
    let rows: Vec<(usize, String)> = owe
        .iter()
        .map(|i| (*i, format!("cliente{i}@k.test")))
        .collect();
    let refs: Vec<(usize, &str)> = rows.iter().map(|(i, a)| (*i, a.as_str())).collect();
    let customers = import(&e, &refs);
    // 120 a minute: one every half second, so the kill lands mid-run.
    profile(&e, &smtp, 120, true);
    let list = ids_file(
        &e,
        &customers.iter().map(|c| c.0.clone()).collect::<Vec<_>>(),
    );
    let mut child = cli(&e)
        .args(["--lang", "es", "email", "statements", "--customers"])
        .arg(&list)
        .args(["--as-of", AS_OF])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Killed once the server holds a few of them.
    let started = std::time::Instant::now();
    loop {
        let n = count_new(&smtp);
        if n >= 3 {
            break;
        }
        assert!(
            started.elapsed().as_secs() < 120,
            "no e-mail arrived: {}",
            smtp.log()
        );
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before the kill"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let resumed = email_statements(&e, &list, &[]);
    let code = resumed.status.code();
    assert!(
        code == Some(0) || code == Some(6),
        "{}",
        text(&resumed.stderr)
    );
    // Only an e-mail whose content was on its way at the kill: said as not known
    // (within the in-flight window too: never "being sent right now"), not resent.
    let unknown = usize::from(code == Some(6));
    if code == Some(6) {
        let err = text(&resumed.stderr);
        assert!(
            err.contains("puede haber llegado") || err.contains("no se sabe si se envió"),
            "{err}"
        );
    }
    assert!(!text(&resumed.stdout).contains("lo está enviando"));
    assert!(unknown <= 1, "{}", text(&resumed.stdout));
    for (_, address) in &rows {
        let n = smtp.to(address).len();
        assert!(n <= 1, "{address} got {n}");
    }
    let got = rows.iter().filter(|(_, a)| smtp.to(a).len() == 1).count();
    assert!(
        got + unknown >= rows.len() && got <= rows.len(),
        "{got} of {}",
        rows.len()
    );
    // A third run sends nothing.
    let third = email_statements(&e, &list, &[]);
    assert!(
        matches!(third.status.code(), Some(0 | 6)),
        "{}",
        text(&third.stderr)
    );
    for (_, address) in &rows {
        assert!(smtp.to(address).len() <= 1);
    }
    let v = cli(&e).args(["journal", "verify"]).output().unwrap();
    exits(&v, 0);
}

fn count_new(smtp: &Smtp) -> usize {
    smtp.delivered_so_far()
}

#[test]
#[cfg_attr(
    tests_lack = "smtp",
    ignore = "needs postfix as root (apt-get install postfix)"
)]
fn refusals_are_said_per_address_and_nothing_is_sent_twice() {
    let Some(smtp) = smtp_server::start() else {
        return;
    };
    let e = Env::new(0);
    let owe = owing(&e, &smtp, 3);
    let good_and_bad = format!("bien@tres.test, {REFUSED}");
    let customers = import(
        &e,
        &[
            (owe[0], good_and_bad.as_str()),
            (owe[1], REFUSED),
            (owe[2], LATER),
        ],
    );
    let list = ids_file(
        &e,
        &customers.iter().map(|c| c.0.clone()).collect::<Vec<_>>(),
    );
    let out = email_statements(&e, &list, &[]);
    exits(&out, 4);
    let err = text(&out.stderr);
    assert!(
        err.contains(&format!("el servidor rechazó {REFUSED}: «550 5.1.1")),
        "{err}"
    );
    assert!(err.contains("el servidor de correo lo rechazó"), "{err}");
    assert!(err.contains("pidió intentar más tarde"), "{err}");
    assert_eq!(smtp.to("bien@tres.test").len(), 1);
    assert_eq!(smtp.to(REFUSED).len(), 0);
    assert_eq!(smtp.to(LATER).len(), 0);
    // Run again: the one sent is not sent again; the refused ones are tried (and
    // refused) again, never delivered.
    let again = email_statements(&e, &list, &[]);
    exits(&again, 4);
    assert!(text(&again.stdout).contains("ya se envió"));
    assert_eq!(smtp.to("bien@tres.test").len(), 1);
    let j = cli(&e)
        .args([
            "journal",
            "--action",
            "email",
            "--outcome",
            "refused",
            "--json",
        ])
        .output()
        .unwrap();
    exits(&j, 0);
    assert!(text(&j.stdout).contains("550"), "{}", text(&j.stdout));
}

#[test]
#[cfg_attr(
    tests_lack = "smtp",
    ignore = "needs postfix as root (apt-get install postfix)"
)]
fn a_server_not_trusted_or_settings_not_usable_send_nothing() {
    let Some(smtp) = smtp_server::start() else {
        return;
    };
    let e = Env::new(0);
    let owe = owing(&e, &smtp, 1);
    let customers = import(&e, &[(owe[0], "pagos@cuatro.test")]);
    let list = ids_file(&e, &[customers[0].0.clone()]);
    // Its certificate's authority is not trusted: stopped, nothing sent or journaled.
    profile(&e, &smtp, SERVER_PACE, false);
    let out = email_statements(&e, &list, &[]);
    exits(&out, 5);
    assert!(
        text(&out.stderr).contains("Detenido"),
        "{}",
        text(&out.stderr)
    );
    assert!(smtp.delivered().is_empty());
    // Bad settings are refused by `profile mail` and change nothing.
    profile(&e, &smtp, SERVER_PACE, true);
    let before = std::fs::read_to_string(e.dir.path().join("profiles.toml")).unwrap();
    for args in [
        &["profile", "mail", "--from", "cobranza"][..],
        &["profile", "mail", "--reply-to", "x@y"],
        &[
            "profile",
            "mail",
            "--server",
            "smtp.nandu.test",
            "--security",
            "none",
        ],
        &["profile", "mail", "--per-minute", "0"],
        &["profile", "mail", "--per-minute", "100001"],
        &["profile", "mail", "--per-minute", "rápido"],
    ] {
        let o = cli(&e).args(["--lang", "es"]).args(args).output().unwrap();
        exits(&o, 2);
        assert!(!text(&o.stderr).is_empty());
    }
    assert_eq!(
        std::fs::read_to_string(e.dir.path().join("profiles.toml")).unwrap(),
        before
    );
    // A desk's own relay: as fast as the server takes them, said as such (#71).
    for (rate, shown, kept) in [
        ("server", "servidor", "per_minute = 0"),
        ("100000", "100000", "per_minute = 100000"),
    ] {
        let o = cli(&e)
            .args(["--lang", "es", "profile", "mail", "--per-minute", rate])
            .output()
            .unwrap();
        exits(&o, 0);
        assert!(
            text(&o.stdout).contains(&format!("por minuto: {shown}")),
            "{}",
            text(&o.stdout)
        );
        let o = cli(&e).args(["profile", "show"]).output().unwrap();
        assert!(text(&o.stdout).contains(kept), "{}", text(&o.stdout));
    }
    // A bad address is refused and the contacts kept as they were.
    let o = cli(&e)
        .args([
            "--lang",
            "es",
            "customers",
            "contacts",
            &customers[0].0,
            "ok@cinco.test",
            "no-es-correo",
        ])
        .output()
        .unwrap();
    exits(&o, 2);
    assert!(text(&o.stderr).contains("\"no-es-correo\" no es una dirección de correo"));
    let o = cli(&e)
        .args(["customers", "contacts", &customers[0].0])
        .output()
        .unwrap();
    exits(&o, 0);
    assert_eq!(text(&o.stdout).trim(), "pagos@cuatro.test");
    // A directory file with a bad address imports nothing.
    let file = e.dir.path().join("malo.csv");
    std::fs::write(
        &file,
        format!("id;correo\n{};pagos@@x.test\n", customers[0].0),
    )
    .unwrap();
    let o = cli(&e)
        .args(["customers", "import"])
        .arg(&file)
        .output()
        .unwrap();
    exits(&o, 2);
    // Still one message: none of this sent anything.
    let sent = email_statements(&e, &list, &[]);
    exits(&sent, 0);
    assert_eq!(
        smtp.delivered().len(),
        2,
        "the customer and the desk's copy"
    );
}

#[test]
#[cfg_attr(
    any(tests_lack = "smtp", tests_lack = "pdf"),
    ignore = "needs postfix as root and the PDF readers (apt-get install postfix poppler-utils qpdf zbar-tools)"
)]
fn an_invoice_is_emailed_once_with_its_pdf_over_implicit_tls() {
    if !cli_env::have_pdf_readers() {
        return;
    }
    let Some(smtp) = smtp_server::start() else {
        return;
    };
    let e = Env::new(0);
    let dir = e.s.directory();
    let customers = import(&e, &[(0, "facturas@seis.test")]);
    profile(&e, &smtp, SERVER_PACE, true);
    // Implicit TLS this time.
    let path = e.dir.path().join("profiles.toml");
    let o = cli(&e)
        .args([
            "profile",
            "mail",
            "--security",
            "tls",
            "--port",
            &smtp.tls_port.to_string(),
        ])
        .output()
        .unwrap();
    exits(&o, 0);
    assert!(
        std::fs::read_to_string(&path)
            .unwrap()
            .contains("security = \"tls\"")
    );
    let created = cli(&e)
        .args([
            "create",
            "--customer",
            &customers[0].0,
            "--amount",
            "125000",
            "--due",
            "2026-12-15",
            "--external-id",
            "ERP-2026-115542",
            "--json",
        ])
        .output()
        .unwrap();
    exits(&created, 0);
    let inv: serde_json::Value = serde_json::from_slice(&created.stdout).unwrap();
    let id = inv["id"].as_str().unwrap().to_string();
    let send = || {
        cli(&e)
            .args(["--lang", "es", "email", "invoice", &id])
            .output()
            .unwrap()
    };
    exits(&send(), 0);
    let got = smtp.to("facturas@seis.test");
    assert_eq!(got.len(), 1);
    // The customer knows the invoice by its reference, not the service's id.
    assert_eq!(
        got[0].subject(),
        "Factura ERP-2026-115542 · Servicios Ñandú SpA"
    );
    let body = got[0].text();
    assert!(
        body.contains(
            "Adjuntamos la factura ERP-2026-115542 por $125.000, con vencimiento el 15-12-2026"
        ),
        "{body}"
    );
    // Where to write is where a reply goes (the Reply-To), not the sender's other box.
    assert!(body.contains("respuestas@nandu.test"), "{body}");
    assert!(
        !body.contains("escribirnos a cobranza@nandu.test"),
        "{body}"
    );
    let (name, pdf) = got[0].attachment().unwrap();
    assert_eq!(name, format!("factura-{id}.pdf"));
    let printed = pdftotext(&pdf);
    assert!(printed.contains(&dir[0].1), "{printed}");
    let second = send();
    exits(&second, 0);
    assert!(text(&second.stdout).contains("ya se envió"));
    assert_eq!(smtp.to("facturas@seis.test").len(), 1);
}

#[test]
#[cfg_attr(
    tests_lack = "smtp",
    ignore = "needs postfix as root (apt-get install postfix)"
)]
fn templates_are_shown_written_and_used() {
    let Some(smtp) = smtp_server::start() else {
        return;
    };
    let e = Env::new(0);
    let owe = owing(&e, &smtp, 1);
    let customers = import(&e, &[(owe[0], "pagos@siete.test")]);
    let o = cli(&e)
        .args(["--lang", "es", "email", "template", "statement"])
        .output()
        .unwrap();
    exits(&o, 0);
    assert!(text(&o.stdout).starts_with("Asunto: Estado de cuenta al {date} · {organization}\n\n"));
    let o = cli(&e)
        .args(["--lang", "es", "email", "template", "statement", "--write"])
        .output()
        .unwrap();
    exits(&o, 0);
    let file = e.dir.path().join("templates/statement.es-CL.txt");
    std::fs::write(
        &file,
        "Asunto: Su cuenta con {organization}\n\nHola {customer}: debe {owed}.\n",
    )
    .unwrap();
    let list = ids_file(&e, &[customers[0].0.clone()]);
    exits(&email_statements(&e, &list, &[]), 0);
    let got = smtp.to("pagos@siete.test");
    assert_eq!(got[0].subject(), "Su cuenta con Servicios Ñandú SpA");
    assert!(
        got[0]
            .text()
            .starts_with(&format!("Hola {}: debe $", customers[0].1))
    );
    // A typo in a placeholder stops the run before anything is sent.
    std::fs::write(&file, "Asunto: Hola {cliente}\n\nx\n").unwrap();
    let o = email_statements(&e, &list, &["--again"]);
    exits(&o, 2);
    assert!(text(&o.stderr).contains("{cliente}"), "{}", text(&o.stderr));
    assert_eq!(smtp.to("pagos@siete.test").len(), 1);
}

/// A desk: two clerks, each with a role of the clerks' group, on the shared journal,
/// send the same month's statements at the same moment. The directory's contacts are
/// set by a clerk; each customer gets one e-mail; the server knows who sent each.
/// An owner's upgrade from layout 2 gives the clerks' group the contacts function too.
#[test]
#[cfg_attr(
    any(tests_lack = "postgres", tests_lack = "smtp"),
    ignore = "needs PostgreSQL and postfix as root (apt-get install postgresql postfix)"
)]
fn two_clerks_on_a_shared_journal_send_each_statement_once() {
    let Some(smtp) = smtp_server::start() else {
        return;
    };
    let Some(pg) = pg_server::server() else {
        return;
    };
    let e = Env::new(0);
    let owe = owing(&e, &smtp, 8);
    assert!(owe.len() >= 4, "{owe:?}");
    profile(&e, &smtp, SERVER_PACE, true);
    let (url, db, group) = desk_db(pg);
    let on = |who: &str, u: &str| on_desk(&e, who, u);
    exits(
        &on("owner", &url)
            .args(["journal", "init", &url, "--clerks", &group])
            .output()
            .unwrap(),
        0,
    );
    // As if the desk had been made by the version before e-mail (layout 2): the owner's
    // next start brings it up and the clerks may set contacts.
    pg.psql(
        &db,
        &format!("REVOKE EXECUTE ON FUNCTION journal_customer_emails(text, text) FROM {group}"),
    );
    pg.psql(&db, "UPDATE journal_layout SET version = 2");
    exits(
        &on("owner", &url)
            .args(["journal", "verify"])
            .output()
            .unwrap(),
        0,
    );
    let ana = pg.url_as(&format!("ana_{db}"), &db);
    let beto = pg.url_as(&format!("beto_{db}"), &db);
    let dir = e.s.directory();
    let mut ids = Vec::new();
    for i in &owe {
        let id = &dir[*i].0;
        let o = on("ana", &ana)
            .args(["customers", "contacts", id, &format!("c{i}@desk.test")])
            .output()
            .unwrap();
        exits(&o, 0);
        ids.push(id.clone());
    }
    let list = ids_file(&e, &ids);
    let run = |who: &str, u: &str| {
        on(who, u)
            .args(["--lang", "es", "email", "statements", "--customers"])
            .arg(&list)
            .args(["--as-of", AS_OF])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    let (a, b) = (run("ana", &ana), run("beto", &beto));
    let (a, b) = (a.wait_with_output().unwrap(), b.wait_with_output().unwrap());
    exits(&a, 0);
    exits(&b, 0);
    for i in &owe {
        assert_eq!(smtp.to(&format!("c{i}@desk.test")).len(), 1, "customer {i}");
    }
    assert_eq!(smtp.to(DESK).len(), owe.len());
    let rows = pg.psql(
        &db,
        "SELECT count(*), count(DISTINCT db_user) FROM entries e WHERE kind = 'intent' AND action = 'email' \
         AND (SELECT o.outcome FROM entries o WHERE o.intent_seq = e.seq ORDER BY o.seq DESC LIMIT 1) = 'done'",
    );
    let (done, _) = rows.split_once('|').unwrap();
    assert_eq!(done.parse::<usize>().unwrap(), owe.len(), "{rows}");
    exits(
        &on("ana", &ana)
            .args(["journal", "verify"])
            .output()
            .unwrap(),
        0,
    );
}

/// A colleague's transaction holding the journal's claims (a laptop stopped mid-send,
/// until the server ends its session) is waited out at the moment of the claim: the run
/// goes on once it ends, and each customer gets the e-mail once.
#[test]
#[cfg_attr(
    any(tests_lack = "postgres", tests_lack = "smtp"),
    ignore = "needs PostgreSQL and postfix as root (apt-get install postgresql postfix)"
)]
fn a_colleagues_open_claim_is_waited_out_and_each_is_sent_once() {
    let Some(smtp) = smtp_server::start() else {
        return;
    };
    let Some(pg) = pg_server::server() else {
        return;
    };
    let e = Env::new(0);
    let owe = owing(&e, &smtp, 4);
    profile(&e, &smtp, SERVER_PACE, true);
    let url = pg.database();
    let db = url.rsplit('/').next().unwrap().to_string();
    let on = || {
        let mut c = cli(&e);
        c.env("INVOICE_DESK_JOURNAL", &url)
            .env("INVOICE_DESK_JOURNAL_PASSWORD", pg_server::PASSWORD)
            .stdin(std::process::Stdio::null());
        c
    };
    let dir = e.s.directory();
    let mut ids = Vec::new();
    for i in &owe {
        let id = &dir[*i].0;
        let o = on()
            .args(["customers", "contacts", id, &format!("c{i}@desk.test")])
            .output()
            .unwrap();
        exits(&o, 0);
        ids.push(id.clone());
    }
    let list = ids_file(&e, &ids);
    let mut holder = pg.hold_claims(&db, 5);
    let out = on()
        .args(["--lang", "es", "email", "statements", "--customers"])
        .arg(&list)
        .args(["--as-of", AS_OF])
        .output()
        .unwrap();
    assert!(holder.wait().unwrap().success());
    exits(&out, 0);
    for i in &owe {
        assert_eq!(smtp.to(&format!("c{i}@desk.test")).len(), 1, "customer {i}");
    }
}

/// A big customer's statement e-mailed: the PDF with the invoices due longest ago, and
/// the workbook of every invoice owed beside it (read back with calamine from the
/// message as delivered).
#[test]
#[cfg_attr(
    any(tests_lack = "smtp", tests_lack = "pdf"),
    ignore = "needs postfix as root and the PDF readers (apt-get install postfix poppler-utils qpdf zbar-tools)"
)]
fn a_big_customers_statement_goes_with_its_workbook() {
    if !cli_env::have_pdf_readers() {
        return;
    }
    use calamine::{Reader, Xlsx};
    let Some(smtp) = smtp_server::start() else {
        return;
    };
    let e = Env::new(3_000);
    let (big, _, count) = e.s.customers().into_iter().max_by_key(|c| c.2).unwrap();
    assert!(count > invoice_desk::pdf::PDF_LINES, "{count}");
    let i = e.s.directory().iter().position(|c| c.0 == big).unwrap();
    import(&e, &[(i, "grande@desk.test")]);
    profile(&e, &smtp, SERVER_PACE, true);
    let list = ids_file(&e, std::slice::from_ref(&big));
    let out = email_statements(&e, &list, &[]);
    exits(&out, 0);
    let got = smtp.to("grande@desk.test");
    assert_eq!(got.len(), 1);
    let parts = got[0].attachments();
    let names: Vec<&str> = parts.iter().map(|p| p.0.as_str()).collect();
    assert_eq!(parts.len(), 2, "{names:?}");
    assert!(
        names[0].ends_with(".pdf") && parts[0].1 == "application/pdf",
        "{names:?}"
    );
    assert_eq!(names[1], names[0].replace(".pdf", ".xlsx"));
    assert_eq!(
        parts[1].1,
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    );
    let words = pdftotext(&parts[0].2);
    assert!(words.contains("aquí están las 500"), "{words}");
    let mut wb = Xlsx::new(std::io::Cursor::new(parts[1].2.clone())).unwrap();
    let sheet = wb.worksheet_range("Estado de cuenta").unwrap();
    let listed = sheet.rows().count() - 3;
    assert!(
        listed > invoice_desk::pdf::PDF_LINES && listed <= count,
        "{listed}"
    );
}

/// A server that asks for a login (postfix with SASL through a Dovecot of its own, only
/// over TLS, relaying only for the authenticated): the password given to `profile mail`
/// (from stdin here: no keyring in the tests' CLI, so it comes back through
/// INVOICE_DESK_SMTP_PASSWORD) logs in and the e-mail arrives; a wrong one is refused
/// at login and nothing is sent or journaled as sent; none at all is said before any
/// connection.
#[test]
#[cfg_attr(
    tests_lack = "smtp",
    ignore = "needs postfix as root (apt-get install postfix)"
)]
fn a_server_that_asks_for_a_login_gets_the_password_and_a_wrong_one_sends_nothing() {
    const USER: &str = "cobranza@nandu.test";
    const PASSWORD: &str = "clave de prueba ñ 123";
    let Some(smtp) = smtp_server::start_with_login(USER, PASSWORD) else {
        return;
    };
    let e = Env::new(0);
    let owe = owing_with(&e, &smtp, 1, Some(PASSWORD));
    let customers = import(&e, &[(owe[0], "pagos@ocho.test")]);
    let list = ids_file(&e, &[customers[0].0.clone()]);
    profile(&e, &smtp, SERVER_PACE, true);
    // The login is set with `profile mail` (its password read from stdin).
    let mut c = cli(&e);
    c.args(["profile", "mail", "--user", USER])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let mut child = c.spawn().unwrap();
    use std::io::Write;
    writeln!(child.stdin.take().unwrap(), "{PASSWORD}").unwrap();
    let o = child.wait_with_output().unwrap();
    exits(&o, 0);
    let kept = std::fs::read_to_string(e.dir.path().join("profiles.toml")).unwrap();
    assert!(kept.contains(USER) && !kept.contains(PASSWORD), "{kept}");
    // No password kept anywhere this process can read: said before connecting.
    let o = email_statements(&e, &list, &[]);
    exits(&o, 2);
    assert!(
        text(&o.stderr).contains("contraseña"),
        "{}",
        text(&o.stderr)
    );
    // A wrong password: refused at login, the run stops, nothing sent.
    let o = cli(&e)
        .env("INVOICE_DESK_SMTP_PASSWORD", "otra")
        .args(["--lang", "es", "email", "statements", "--customers"])
        .arg(&list)
        .args(["--as-of", AS_OF])
        .output()
        .unwrap();
    exits(&o, 5);
    assert!(text(&o.stderr).contains("535"), "{}", text(&o.stderr));
    assert!(smtp.delivered().is_empty());
    // The right one: sent.
    let o = cli(&e)
        .env("INVOICE_DESK_SMTP_PASSWORD", PASSWORD)
        .args(["--lang", "es", "email", "statements", "--customers"])
        .arg(&list)
        .args(["--as-of", AS_OF])
        .output()
        .unwrap();
    exits(&o, 0);
    assert_eq!(smtp.to("pagos@ocho.test").len(), 1);
}

/// libfaketime, as Debian's `faketime` package installs it (its thread-safe build).
const LIBFAKETIME: &str = "/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1";

/// Seconds from now to 02:30 UTC on the first of next month: 23:30 (or 22:30) of the
/// month's last day in Chile, already the next month in UTC.
fn to_next_months_first_night() -> i64 {
    use chrono::Datelike;
    let now = chrono::Utc::now();
    let (y, m) = if now.month() == 12 {
        (now.year() + 1, 1)
    } else {
        (now.year(), now.month() + 1)
    };
    let first = chrono::NaiveDate::from_ymd_opt(y, m, 1)
        .unwrap()
        .and_hms_opt(2, 30, 0)
        .unwrap()
        .and_utc();
    (first - now).num_seconds()
}

/// Two computers of the desk, one on Chile's time and one on UTC, both with clocks at
/// 02:30 UTC on the first of a month (Chile's last evening of the month before), each
/// run the month's statements: the customer gets one, on a journal file (the desk's
/// zone, America/Santiago, decides) and on the shared journal (the server's clock).
#[test]
#[cfg_attr(
    any(tests_lack = "postgres", tests_lack = "smtp", tests_lack = "faketime"),
    ignore = "needs PostgreSQL, postfix as root and libfaketime (apt-get install postgresql postfix faketime)"
)]
fn a_months_statement_is_sent_once_whatever_each_computers_clock_and_time_zone() {
    let Some(smtp) = smtp_server::start() else {
        return;
    };
    let Some(pg) = pg_server::server() else {
        return;
    };
    if !cli_env::have_file("faketime", LIBFAKETIME, "faketime") {
        return;
    }
    let e = Env::new(0);
    let owe = owing(&e, &smtp, 2);
    assert!(owe.len() >= 2, "{owe:?}");
    profile(&e, &smtp, SERVER_PACE, true);
    let dir = e.s.directory();
    let ahead = format!("+{}", to_next_months_first_night());
    let desk = pg.database();
    for (i, journal) in [(owe[0], None), (owe[1], Some(desk.as_str()))] {
        let id = dir[i].0.clone();
        let address = format!("mes{i}@desk.test");
        let on = |c: &mut Command| {
            if let Some(url) = journal {
                c.env("INVOICE_DESK_JOURNAL", url)
                    .env("INVOICE_DESK_JOURNAL_PASSWORD", pg_server::PASSWORD);
            }
        };
        let mut contacts = cli(&e);
        on(&mut contacts);
        exits(
            &contacts
                .args(["customers", "contacts", &id, &address])
                .output()
                .unwrap(),
            0,
        );
        let list = ids_file(&e, std::slice::from_ref(&id));
        for zone in ["America/Santiago", "UTC"] {
            let mut c = cli(&e);
            on(&mut c);
            let out = c
                .env("TZ", zone)
                .env("LD_PRELOAD", LIBFAKETIME)
                .env("FAKETIME", &ahead)
                .env("FAKETIME_DONT_FAKE_MONOTONIC", "1")
                .args(["--lang", "es", "email", "statements", "--customers"])
                .arg(&list)
                .output()
                .unwrap();
            exits(&out, 0);
        }
        assert_eq!(
            smtp.to(&address).len(),
            1,
            "one statement for {id} ({})",
            if journal.is_some() {
                "shared journal"
            } else {
                "journal file"
            }
        );
    }
}

/// One of a customer's two addresses refuses the statement (550) while the other takes
/// it: the run says where it went and where it did not, counts the refused address (exit
/// 4), journals that address refused under a key of its own, and the next run sends it
/// to that address alone — never a second copy to the address that took it.
#[test]
#[cfg_attr(
    tests_lack = "smtp",
    ignore = "needs postfix as root (apt-get install postfix)"
)]
fn an_address_refused_while_the_other_took_it_is_counted_and_tried_again_alone() {
    let Some(smtp) = smtp_server::start() else {
        return;
    };
    let e = Env::new(0);
    let owe = owing(&e, &smtp, 1);
    let both = format!("bien@dos.test, {REFUSED}");
    let customers = import(&e, &[(owe[0], both.as_str())]);
    let list = ids_file(&e, &[customers[0].0.clone()]);
    let out = email_statements(&e, &list, &[]);
    exits(&out, 4);
    let (said, err) = (text(&out.stdout), text(&out.stderr));
    let sent_line = said
        .lines()
        .find(|l| l.contains("enviado a"))
        .unwrap_or_else(|| panic!("{said}"));
    assert!(
        sent_line.contains("bien@dos.test") && !sent_line.contains(REFUSED),
        "{sent_line}"
    );
    assert!(
        err.contains(&format!("el servidor rechazó {REFUSED}: «550 5.1.1")),
        "{err}"
    );
    assert!(said.contains("no enviados: 1"), "{said}");
    assert!(said.contains("1 dirección rechazó el correo"), "{said}");
    assert_eq!(smtp.to("bien@dos.test").len(), 1);
    let refused_for = |e: &Env| -> usize {
        let j = cli(e)
            .args([
                "--json",
                "journal",
                "--action",
                "email",
                "--outcome",
                "refused",
            ])
            .output()
            .unwrap();
        exits(&j, 0);
        text(&j.stdout)
            .lines()
            .filter(|l| l.contains(&format!("#to:{REFUSED}")))
            .count()
    };
    assert_eq!(
        refused_for(&e),
        1,
        "the refused address is journaled as refused"
    );
    // The next run tries that address again, alone: still refused here, and the address
    // that took it gets no second copy.
    let again = email_statements(&e, &list, &[]);
    exits(&again, 4);
    assert!(
        text(&again.stderr).contains(&format!("el servidor rechazó {REFUSED}: «550")),
        "{}",
        text(&again.stderr)
    );
    assert!(text(&again.stdout).contains("ya se envió"));
    assert_eq!(smtp.to("bien@dos.test").len(), 1, "a second copy");
    assert_eq!(refused_for(&e), 2, "tried again");
    // A resend asked for that the address refuses again is kept under the e-mail's own
    // key for that address, where the next run looks (not under the resend's).
    exits(&email_statements(&e, &list, &["--again", "--again-all"]), 4);
    assert_eq!(smtp.to("bien@dos.test").len(), 2, "the resend asked for");
    let j = cli(&e)
        .args([
            "--json",
            "journal",
            "--action",
            "email",
            "--outcome",
            "refused",
        ])
        .output()
        .unwrap();
    assert!(
        text(&j.stdout)
            .lines()
            .filter(|l| l.contains(&format!("#to:{REFUSED}")))
            .all(|l| !l.contains("#again-")),
        "{}",
        text(&j.stdout)
    );
}

/// A statement claimed moments ago whose outcome is not recorded (its sender killed
/// while handing it over, or still at it) is "not known whether it was sent" — exit 6,
/// counted as such, never "sent before" nor "being sent right now" — and the preview
/// says "perhaps sent"; `--again` sends only the e-mails in doubt, never one the server
/// took for sure (`--again-all` sends those too).
#[test]
#[cfg_attr(
    tests_lack = "smtp",
    ignore = "needs postfix as root (apt-get install postfix)"
)]
fn an_email_in_doubt_is_said_so_and_again_sends_only_those() {
    use invoice_desk::journal::{Action, Claimed, Guard, Intent, Journal, identity};
    let Some(smtp) = smtp_server::start() else {
        return;
    };
    let e = Env::new(0);
    let owe = owing(&e, &smtp, 2);
    assert!(owe.len() >= 2, "{owe:?}");
    let customers = import(
        &e,
        &[(owe[0], "duda@tres.test"), (owe[1], "seguro@tres.test")],
    );
    let (doubt, sure) = (customers[0].0.clone(), customers[1].0.clone());
    // The second customer's statement is sent, for sure.
    exits(
        &email_statements(&e, &ids_file(&e, std::slice::from_ref(&sure)), &[]),
        0,
    );
    assert_eq!(smtp.to("seguro@tres.test").len(), 1);
    // The first one's was claimed by a program that never wrote what came of it.
    {
        let mut j = Journal::open(&e.dir.path().join("journal.sqlite3")).unwrap();
        let p = e.s.profile("Pruebas");
        let intent = Intent {
            profile: p.name.clone(),
            base_url: identity::canonical_url(&p.base_url),
            customer: Some(doubt.clone()),
            external_id: Some(format!("statement:{doubt}:2026-11")),
            service: identity::mail_scope(&p.base_url),
            ..Intent::default()
        };
        assert!(matches!(
            j.claim(Action::Email, &intent, &Guard::default()).unwrap(),
            Claimed::Claimed(_)
        ));
    }
    let both = ids_file(&e, &[doubt.clone(), sure.clone()]);
    let out = email_statements(&e, &both, &[]);
    exits(&out, 6);
    let (said, err) = (text(&out.stdout), text(&out.stderr));
    assert!(err.contains("no se sabe si se envió"), "{err}");
    assert!(!said.contains("lo está enviando") && !err.contains("lo está enviando"));
    assert!(said.contains("enviados antes: 1 · sin saber: 1"), "{said}");
    assert_eq!(smtp.to("duda@tres.test").len(), 0);
    let preview = email_statements(&e, &both, &["--preview"]);
    exits(&preview, 0);
    assert!(
        text(&preview.stdout).contains("Quizás se envió"),
        "{}",
        text(&preview.stdout)
    );
    // Asked again: only the one in doubt goes.
    let again = email_statements(&e, &both, &["--again"]);
    exits(&again, 0);
    assert_eq!(smtp.to("duda@tres.test").len(), 1);
    assert_eq!(
        smtp.to("seguro@tres.test").len(),
        1,
        "sent for sure, not again"
    );
    // Every one again, when the clerk says so.
    let all = email_statements(&e, &both, &["--again", "--again-all"]);
    exits(&all, 0);
    assert_eq!(smtp.to("duda@tres.test").len(), 2);
    assert_eq!(smtp.to("seguro@tres.test").len(), 2);
}

/// Implicit TLS asked of a server that greets in plain text (its STARTTLS port): the
/// whole run stops at the first customer (exit 5), saying that the server does not speak
/// TLS there — never "try later" three times for every customer.
#[test]
#[cfg_attr(
    tests_lack = "smtp",
    ignore = "needs postfix as root (apt-get install postfix)"
)]
fn tls_asked_of_a_server_that_does_not_speak_it_stops_the_run_at_once() {
    let Some(smtp) = smtp_server::start() else {
        return;
    };
    let e = Env::new(0);
    let owe = owing(&e, &smtp, 3);
    assert!(owe.len() >= 3, "{owe:?}");
    let customers = import(
        &e,
        &[
            (owe[0], "a@tls.test"),
            (owe[1], "b@tls.test"),
            (owe[2], "c@tls.test"),
        ],
    );
    profile(&e, &smtp, SERVER_PACE, true);
    let o = cli(&e)
        .args([
            "profile",
            "mail",
            "--security",
            "tls",
            "--port",
            &smtp.starttls_port.to_string(),
        ])
        .output()
        .unwrap();
    exits(&o, 0);
    let list = ids_file(
        &e,
        &customers.iter().map(|c| c.0.clone()).collect::<Vec<_>>(),
    );
    let out = email_statements(&e, &list, &[]);
    exits(&out, 5);
    let err = text(&out.stderr);
    assert!(!err.contains("más tarde"), "tried later: {err}");
    assert!(err.contains("TLS"), "{err}");
    for a in ["a@tls.test", "b@tls.test", "c@tls.test"] {
        assert_eq!(smtp.to(a).len(), 0);
    }
    let said = text(&out.stdout);
    assert!(
        !said.contains("no enviados: 3"),
        "one try per customer: {said}"
    );
}

/// What a customer reads has no raw control text, whatever the directory or a template
/// hold: a name with line breaks and ESC/BEL (from a directory made before names were
/// checked) stays one line in the subject and the text — no forged "Bcc:" line — and a
/// template's ESC and BEL go; a 20,000-character name is cut, so a template that repeats
/// it cannot build a huge message. The import itself refuses such names, each said.
#[test]
#[cfg_attr(
    tests_lack = "smtp",
    ignore = "needs postfix as root (apt-get install postfix)"
)]
fn control_text_and_long_names_never_reach_what_a_customer_reads() {
    let Some(smtp) = smtp_server::start() else {
        return;
    };
    let e = Env::new(0);
    let owe = owing(&e, &smtp, 2);
    assert!(owe.len() >= 2, "{owe:?}");
    let dir = e.s.directory();
    // The import refuses a name that is not one line, or too long, naming row and column.
    let file = e.dir.path().join("malos.csv");
    std::fs::write(
        &file,
        format!(
            "cliente;razón social\n{};\"Malo SpA\nBcc: robo@evil.test\"\n{};{}\n",
            dir[owe[0]].0,
            dir[owe[1]].0,
            "N".repeat(20_000)
        ),
    )
    .unwrap();
    let o = cli(&e)
        .args(["--lang", "es", "customers", "import"])
        .arg(&file)
        .output()
        .unwrap();
    exits(&o, 2);
    let err = text(&o.stderr);
    assert!(err.contains("no es una sola línea"), "{err}");
    assert!(err.contains("20.000 caracteres"), "{err}");
    // A directory written before names were checked holds them all the same.
    let hostile = "Malo SpA\nBcc: robo@evil.test\nX-Evil: 1\u{1b}[31m\u{7}";
    {
        let mut j =
            invoice_desk::journal::Journal::open(&e.dir.path().join("journal.sqlite3")).unwrap();
        j.import_customers(&[
            invoice_desk::journal::Customer {
                id: dir[owe[0]].0.clone(),
                name: Some(hostile.into()),
                emails: vec!["malo@ocho.test".into()],
                ..Default::default()
            },
            invoice_desk::journal::Customer {
                id: dir[owe[1]].0.clone(),
                name: Some("N".repeat(20_000)),
                emails: vec!["largo@ocho.test".into()],
                ..Default::default()
            },
        ])
        .unwrap();
    }
    // And a template with ESC and BEL in it, repeating the name.
    let templates = e.dir.path().join("templates");
    std::fs::create_dir_all(&templates).unwrap();
    std::fs::write(
        templates.join("statement.es-CL.txt"),
        format!(
            "Asunto: Su cuenta, {{customer}}\u{7}\n\nEstimados {{customer}}:\u{1b}[2J\n{}\nDeben {{owed}}.\n",
            "{customer} ".repeat(3000)
        ),
    )
    .unwrap();
    let list = ids_file(&e, &[dir[owe[0]].0.clone(), dir[owe[1]].0.clone()]);
    exits(&email_statements(&e, &list, &[]), 0);
    let got = smtp.to("malo@ocho.test");
    assert_eq!(got.len(), 1);
    let (subject, body) = (got[0].subject(), got[0].text());
    for t in [&subject, &body] {
        assert!(
            !t.contains('\u{1b}') && !t.contains('\u{7}'),
            "a control character reached the customer: {t:?}"
        );
    }
    assert!(!subject.contains('\n'), "{subject:?}");
    assert!(
        !body
            .lines()
            .any(|l| l.starts_with("Bcc:") || l.starts_with("X-Evil:")),
        "a forged line: {body}"
    );
    assert!(
        body.contains("Estimados Malo SpA Bcc: robo@evil.test X-Evil: 1 [31m:"),
        "{body}"
    );
    assert_eq!(got[0].header("Bcc"), None);
    let long = smtp.to("largo@ocho.test");
    assert_eq!(long.len(), 1);
    assert!(
        long[0].raw.len() < 5 * 1024 * 1024,
        "{} bytes",
        long[0].raw.len()
    );
    assert!(!long[0].text().contains(&"N".repeat(201)));
}

/// "Con los pesos de la UF" reaches the e-mailed statements: `email statements
/// --uf-pesos` puts under the UF owed its pesos on the day's value, as `statement
/// --uf-pesos` does; without it the statement says UF alone.
#[test]
#[cfg_attr(
    tests_lack = "smtp",
    ignore = "needs postfix as root (apt-get install postfix)"
)]
fn emailed_statements_say_the_uf_owed_in_pesos_when_asked() {
    if !cli_env::have_pdf_readers() {
        return;
    }
    let Some(smtp) = smtp_server::start() else {
        return;
    };
    let e = Env::new(0);
    let owe = owing(&e, &smtp, 8);
    let rows: Vec<(usize, String)> = owe
        .iter()
        .map(|i| (*i, format!("uf{i}@nueve.test")))
        .collect();
    let refs: Vec<(usize, &str)> = rows.iter().map(|(i, a)| (*i, a.as_str())).collect();
    let customers = import(&e, &refs);
    let list = ids_file(
        &e,
        &customers.iter().map(|c| c.0.clone()).collect::<Vec<_>>(),
    );
    let out = cli(&e)
        .env("INVOICE_DESK_CMF_URL", format!("{}/cmf", e.s.base_url))
        .env("INVOICE_DESK_CMF_KEY", invoice_desk::uf::SANDBOX_KEY)
        .args(["--lang", "es", "email", "statements", "--customers"])
        .arg(&list)
        .args(["--as-of", AS_OF, "--uf-pesos"])
        .output()
        .unwrap();
    exits(&out, 0);
    let said: Vec<String> = rows
        .iter()
        .filter_map(|(_, a)| smtp.to(a).pop())
        .map(|m| pdftotext(&m.attachment().unwrap().1))
        .collect();
    assert_eq!(said.len(), rows.len());
    let with_line = said
        .iter()
        .filter(|t| {
            t.split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .contains("con la UF del 24-11-2026")
        })
        .count();
    assert!(with_line > 0, "no statement said the UF in pesos");
    // The same month once more, without it: UF alone.
    let out = cli(&e)
        .args(["--lang", "es", "email", "statements", "--customers"])
        .arg(&list)
        .args(["--as-of", AS_OF, "--again", "--again-all"])
        .output()
        .unwrap();
    exits(&out, 0);
    let mut lines = 0;
    for (_, a) in &rows {
        let both = smtp.to(a);
        assert_eq!(both.len(), 2, "{a}");
        lines += both
            .iter()
            .filter(|m| pdftotext(&m.attachment().unwrap().1).contains("Referencia:"))
            .count();
    }
    assert_eq!(lines, with_line, "only the first run's statements say it");
}

/// A mail server of its own (plain text, on loopback) that refuses `malo@` with the
/// server's words, takes the rest, then answers the message's end with half a line and
/// hangs up.
fn half_answering_server() -> u16 {
    use std::io::{BufRead, BufReader, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for conn in listener.incoming() {
            let Ok(conn) = conn else { return };
            std::thread::spawn(move || {
                let mut out = conn.try_clone().unwrap();
                let mut lines = BufReader::new(conn);
                let _ = out.write_all(b"220 mudo.test ESMTP\r\n");
                let mut line = String::new();
                while lines.read_line(&mut line).is_ok_and(|n| n > 0) {
                    let upper = line.to_ascii_uppercase();
                    let answer: &[u8] = if upper.starts_with("EHLO") {
                        b"250-mudo.test\r\n250 8BITMIME\r\n"
                    } else if upper.starts_with("RCPT") && line.contains("malo@") {
                        b"550 5.1.1 <malo@cuatro.test>: Recipient address rejected: User unknown\r\n"
                    } else if upper.starts_with("DATA") {
                        let _ = out.write_all(b"354 End data with <CR><LF>.<CR><LF>\r\n");
                        let mut body = String::new();
                        while lines.read_line(&mut body).is_ok_and(|n| n > 0) {
                            if body == ".\r\n" {
                                break;
                            }
                            body.clear();
                        }
                        // Half an answer, then nothing: the server may have it.
                        let _ = out.write_all(b"250 2.0");
                        return;
                    } else if upper.starts_with("QUIT") {
                        let _ = out.write_all(b"221 Bye\r\n");
                        return;
                    } else {
                        b"250 2.1.0 Ok\r\n"
                    };
                    let _ = out.write_all(answer);
                    line.clear();
                }
            });
        }
    });
    port
}

/// #66 (6): what a mail server answers is said in the clerk's language, its own words
/// quoted («550 5.1.1 …»); what went wrong on the way (half an answer) is said in words,
/// never lettre's English ("response error: incomplete response").
#[test]
#[cfg_attr(
    tests_lack = "smtp",
    ignore = "needs postfix as root (apt-get install postfix)"
)]
fn a_mail_servers_answers_are_said_in_the_clerks_words_its_own_quoted() {
    let Some(smtp) = smtp_server::start() else {
        return;
    };
    let e = Env::new(0);
    let owe = owing(&e, &smtp, 2);
    assert!(owe.len() >= 2, "{owe:?}");
    let customers = import(
        &e,
        &[(owe[0], "bien@cuatro.test"), (owe[1], "malo@cuatro.test")],
    );
    let mut ps =
        invoice_desk::profile::Profiles::load(&e.dir.path().join("profiles.toml")).unwrap();
    let p = ps
        .profiles
        .iter_mut()
        .find(|p| p.name == "Pruebas")
        .unwrap();
    p.mail.port = Some(half_answering_server());
    p.mail.security = invoice_desk::profile::mail::Security::None;
    p.mail.ca_file = None;
    ps.save(&e.dir.path().join("profiles.toml")).unwrap();
    let both = [customers[0].0.clone(), customers[1].0.clone()];
    let out = email_statements(&e, &ids_file(&e, &both), &[]);
    exits(&out, 6);
    let said = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert!(
        said.contains(
            "el servidor de correo lo rechazó («550 5.1.1 <malo@cuatro.test>: Recipient address rejected: User unknown»)"
        ),
        "{said}"
    );
    assert!(
        said.contains("la respuesta del servidor llegó incompleta"),
        "{said}"
    );
    for english in [
        "response error",
        "incomplete response",
        "network error",
        "no answer in",
    ] {
        assert!(!said.contains(english), "{english}: {said}");
    }
}

/// A desk whose owner's policy asks approval of runs over two, with the customers `owe`
/// (indexes into the sandbox's directory) given the addresses `{prefix}{i}@desk.test` by
/// Ana: (Ana's address, Beto's, the database, the file of their ids).
fn approvals_desk(
    e: &Env,
    pg: &pg_server::Server,
    owe: &[usize],
    prefix: &str,
) -> (String, String, String, PathBuf) {
    let (url, db, group) = desk_db(pg);
    let ok = |mut c: Command| exits(&c.args(["--lang", "es"]).output().unwrap(), 0);
    let mut init = on_desk(e, "owner", &url);
    init.args(["journal", "init", &url, "--clerks", &group]);
    ok(init);
    let mut policy = on_desk(e, "owner", &url);
    policy.args(["journal", "policy", &url, "--approve-runs-over", "2"]);
    ok(policy);
    let (ana, beto) = (
        pg.url_as(&format!("ana_{db}"), &db),
        pg.url_as(&format!("beto_{db}"), &db),
    );
    let dir = e.s.directory();
    let mut ids = Vec::new();
    for i in owe {
        let id = &dir[*i].0;
        let mut contact = on_desk(e, "ana", &ana);
        contact.args([
            "customers",
            "contacts",
            id,
            &format!("{prefix}{i}@desk.test"),
        ]);
        ok(contact);
        ids.push(id.clone());
    }
    let list = ids_file(e, &ids);
    (ana, beto, db, list)
}

/// Four eyes on the desk for an e-mail run (#70): over the owner's limit of customers a
/// statements run asks first (exit 7, nothing sent); approved by a colleague's role, the
/// same command sends each once; an e-mail of such a run claimed by hand without the
/// approval is refused by the server.
#[test]
#[cfg_attr(
    any(tests_lack = "postgres", tests_lack = "smtp"),
    ignore = "needs PostgreSQL and postfix as root (apt-get install postgresql postfix)"
)]
fn an_email_run_over_the_limit_waits_for_a_colleagues_approval() {
    let Some(smtp) = smtp_server::start() else {
        return;
    };
    let Some(pg) = pg_server::server() else {
        return;
    };
    let e = Env::new(0);
    let owe = owing(&e, &smtp, 8);
    assert!(owe.len() >= 3, "{owe:?}");
    profile(&e, &smtp, SERVER_PACE, true);
    let (ana, beto, db, list) = approvals_desk(&e, pg, &owe, "c");
    let on = |who: &str, u: &str| {
        let mut c = on_desk(&e, who, u);
        c.args(["--lang", "es"]);
        c
    };
    let ok = |o: std::process::Output| {
        exits(&o, 0);
        o
    };
    let run = || {
        on("ana", &ana)
            .args(["email", "statements", "--customers"])
            .arg(&list)
            .args(["--as-of", AS_OF])
            .output()
            .unwrap()
    };
    let out = run();
    exits(&out, 7);
    let said = text(&out.stderr);
    assert!(
        said.contains(&format!("enviar por correo a {} clientes", owe.len()))
            && said.contains("falta la aprobación de otro miembro del equipo"),
        "{said}"
    );
    assert!(smtp.to(DESK).is_empty(), "nothing sent");
    let n = said
        .split("Pedido de aprobación ")
        .nth(1)
        .and_then(|r| r.split(':').next())
        .unwrap()
        .to_string();
    // An e-mail of a run of 3 claimed by hand, without the approval: refused.
    let (refused, why) = pg.psql_as(
        &format!("ana_{db}"),
        pg_server::PASSWORD,
        &db,
        "SELECT journal_append('intent', NULL, 'Ana', 'p', 'u', 'email', 'cus_x', NULL, NULL, NULL, \
         'statement:cus_x:2026-11', NULL, NULL, NULL, NULL, NULL, 3, false, 'm', NULL, NULL, NULL); \
         SELECT journal_claim('m', 'statement:cus_x:2026-11', \
           (SELECT max(seq) FROM entries WHERE db_user = session_user), NULL, true)",
    );
    assert!(!refused && why.contains("needs the approval"), "{why}");
    ok(on("beto", &beto)
        .args(["approvals", "approve", &n])
        .output()
        .unwrap());
    ok(run());
    for i in &owe {
        assert_eq!(smtp.to(&format!("c{i}@desk.test")).len(), 1, "customer {i}");
    }
    ok(run());
    for i in &owe {
        assert_eq!(
            smtp.to(&format!("c{i}@desk.test")).len(),
            1,
            "once: customer {i}"
        );
    }
    let used = pg.psql(
        &db,
        &format!("SELECT count(*) FROM approval_events WHERE request = {n} AND kind = 'use'"),
    );
    assert_eq!(used.parse::<usize>().unwrap(), owe.len());
    ok(on("beto", &beto)
        .args(["journal", "verify"])
        .output()
        .unwrap());
}

/// An approved e-mail run killed mid-way (SIGKILL) and run again: each customer's
/// statement is sent at most once (one whose content was on its way at the kill is said
/// as not known, not sent again), the rest once, and the approval carries each of them
/// out once.
#[test]
#[cfg_attr(
    any(tests_lack = "smtp", tests_lack = "postgres"),
    ignore = "needs postfix and PostgreSQL"
)]
fn an_approved_email_run_killed_mid_way_sends_each_once() {
    let Some(smtp) = smtp_server::start() else {
        return;
    };
    let Some(pg) = pg_server::server() else {
        return;
    };
    let e = Env::new(0);
    let owe = owing(&e, &smtp, 12);
    assert!(owe.len() >= 6, "enough customers owe: {owe:?}");
    let (ana, beto, db, list) = approvals_desk(&e, pg, &owe, "k");
    let on = |who: &str, u: &str| {
        let mut c = on_desk(&e, who, u);
        c.args(["--lang", "es"]);
        c
    };
    let ok = |o: std::process::Output| {
        exits(&o, 0);
        o
    };
    let run = || {
        let mut c = on("ana", &ana);
        c.args(["email", "statements", "--customers"])
            .arg(&list)
            .args(["--as-of", AS_OF]);
        c
    };
    // 120 a minute: one every half second, so the kill lands mid-run.
    profile(&e, &smtp, 120, true);
    let out = run().output().unwrap();
    exits(&out, 7);
    let said = text(&out.stderr);
    let n = said
        .split("Pedido de aprobación ")
        .nth(1)
        .and_then(|r| r.split(':').next())
        .unwrap()
        .to_string();
    ok(on("beto", &beto)
        .args(["approvals", "approve", &n])
        .output()
        .unwrap());
    let mut child = run()
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while count_new(&smtp) < 2 {
        assert!(started.elapsed().as_secs() < 120, "no e-mail arrived");
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before the kill"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    profile(&e, &smtp, SERVER_PACE, true);
    let resumed = run().output().unwrap();
    let code = resumed.status.code();
    assert!(
        code == Some(0) || code == Some(6),
        "{}",
        text(&resumed.stderr)
    );
    let unknown = usize::from(code == Some(6));
    let mut got = 0;
    for i in &owe {
        let k = smtp.to(&format!("k{i}@desk.test")).len();
        assert!(k <= 1, "customer {i} got {k}");
        got += k;
    }
    assert!(
        got + unknown >= owe.len(),
        "{got} sent, {unknown} unknown, of {}",
        owe.len()
    );
    // Each customer's e-mail carried the approval out once (again only after one was
    // concluded not sent).
    let twice = pg.psql(
        &db,
        &format!(
            "SELECT count(*) FROM (SELECT u.item FROM approval_events u \
             LEFT JOIN LATERAL (SELECT outcome FROM entries e WHERE e.intent_seq = u.intent_seq \
             ORDER BY e.seq DESC LIMIT 1) o ON true WHERE u.request = {n} AND u.kind = 'use' \
             AND coalesce(o.outcome, 'unknown') <> 'refused' GROUP BY u.item HAVING count(*) > 1) x"
        ),
    );
    assert_eq!(twice, "0", "an item's approval used twice");
    ok(on("beto", &beto)
        .args(["journal", "verify"])
        .output()
        .unwrap());
}
