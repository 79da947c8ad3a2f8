//! E-mailing an invoice from Lookup, in Spanish, through a real mail server (postfix on
//! loopback, started by the tests): the e-mail is shown before it is sent (to whom,
//! subject, attachment, text), sent once, and a second time only when the clerk ticks
//! "send it again".
#![cfg(target_os = "linux")]

mod cli_env;
mod common;
mod pg_server;
mod smtp_server;

use common::{click, click_last, enabled, has_text, runtime, step_until};
use egui_kittest::kittest::{NodeT, Queryable};
use invoice_desk::i18n::{Lang, text};
use invoice_desk::sandbox::{Sandbox, SandboxConfig};

/// A sandbox on its own runtime, and a journal in `dir` whose directory gives every
/// sandbox customer an address of its own (`{prefix}{i}@ui.test`).
fn sandbox_with_contacts(
    rt: &tokio::runtime::Runtime,
    dir: &std::path::Path,
    prefix: &str,
) -> (Sandbox, std::path::PathBuf) {
    let s = rt
        .block_on(Sandbox::start(SandboxConfig::default()))
        .unwrap();
    let journal = dir.join("journal.sqlite3");
    let mut j = invoice_desk::journal::Journal::open(&journal).unwrap();
    let customers: Vec<invoice_desk::journal::Customer> = s
        .directory()
        .into_iter()
        .enumerate()
        .map(|(i, (id, name, _))| invoice_desk::journal::Customer {
            id,
            name: Some(name),
            emails: vec![format!("{prefix}{i}@ui.test")],
            ..Default::default()
        })
        .collect();
    j.import_customers(&customers).unwrap();
    (s, journal)
}

/// The app in Spanish, connected to a sandbox whose directory gives every customer an
/// address (`{prefix}{i}@ui.test`), its profile sending as "Servicios Ñandú SpA" through
/// `mail` (none: the test sets it in Credentials).
fn app(
    rt: &tokio::runtime::Runtime,
    dir: &std::path::Path,
    prefix: &str,
    mail: Option<invoice_desk::profile::mail::Settings>,
    height: f32,
) -> (Sandbox, common::H) {
    let (s, journal) = sandbox_with_contacts(rt, dir, prefix);
    let mut profile = s.profile("Pruebas");
    profile.sender = invoice_desk::profile::Sender {
        organization: "Servicios Ñandú SpA".into(),
        ..Default::default()
    };
    profile.mail = mail.unwrap_or_default();
    let h = common::customized(
        rt,
        profile,
        &s.credentials.client_secret,
        dir,
        [1280.0, height],
        Lang::Es,
        Some(journal),
        None,
        |_| {},
    );
    (s, h)
}

/// The tests' server over STARTTLS, its authority trusted.
fn starttls(smtp: &smtp_server::Smtp) -> invoice_desk::profile::mail::Settings {
    invoice_desk::profile::mail::Settings {
        server: "127.0.0.1".into(),
        port: Some(smtp.starttls_port),
        from: "Cobranzas Ñandú <cobranza@nandu.test>".into(),
        ca_file: Some(smtp.ca()),
        ..Default::default()
    }
}

#[test]
#[cfg_attr(
    tests_lack = "smtp",
    ignore = "needs postfix as root (apt-get install postfix)"
)]
fn an_invoice_is_emailed_from_lookup_once_after_the_clerk_sees_it() {
    let Some(smtp) = smtp_server::start() else {
        return;
    };
    let rt = runtime();
    let dir = tempfile::tempdir().unwrap();
    let (s, mut h) = app(&rt, dir.path(), "cliente", Some(starttls(&smtp)), 800.0);
    let id = s
        .sample_invoice(invoice_desk::sandbox::data::ORG_OAUTH)
        .unwrap();
    click(&mut h, &text("tab-lookup"));
    common::type_into(&mut h, &text("f-invoice-id"), &id);
    click(&mut h, &text("lk-look-up"));
    step_until(&mut h, "looked up", |h| has_text(h, &text("lk-mail")));
    click(&mut h, &text("lk-mail"));
    step_until(&mut h, "shown", |h| has_text(h, &text("lk-mail-title")));
    let subject = format!("Factura {id} · Servicios Ñandú SpA");
    assert!(has_text(&h, &subject));
    assert!(has_text(&h, &format!("factura-{id}.pdf")));
    // The text as the customer reads it: its lines, not escaped line breaks.
    assert!(has_text(&h, "Saludos cordiales,\nServicios Ñandú SpA"));
    assert!(!has_text(&h, "\\n"));
    assert!(
        smtp.delivered().is_empty(),
        "nothing is sent before the clerk says so"
    );
    // Where "Anular…" is before anything is said of the e-mail (#68: the line that
    // says it is kept, so nothing below it moves).
    let void_at = |h: &common::H| {
        h.get_by_label(&text("lk-void"))
            .accesskit_node()
            .raw_bounds()
            .map(|b| b.y0)
    };
    let before = void_at(&h);
    click_last(&mut h, &text("lk-mail-send"));
    step_until(&mut h, "sent", |h| has_text(h, "Enviado a"));
    assert_eq!(void_at(&h), before, "Anular… stays where it was");
    let got = smtp.delivered();
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].subject(), subject);
    assert!(got[0].to.ends_with("@ui.test"), "{}", got[0].to);
    let (name, _) = got[0].attachment().unwrap();
    assert_eq!(name, format!("factura-{id}.pdf"));
    // Again: the dialog says it was sent, and Send waits for the clerk's tick.
    click(&mut h, &text("lk-mail"));
    step_until(&mut h, "shown again", |h| {
        has_text(h, &text("lk-mail-title"))
    });
    assert!(has_text(&h, "Este correo ya se envió el"));
    assert!(!enabled(&h, &text("lk-mail-send")));
    h.get_by_label(&text("lk-mail-again")).click();
    h.step();
    h.step();
    assert!(enabled(&h, &text("lk-mail-send")));
    click_last(&mut h, &text("lk-mail-send"));
    step_until(&mut h, "sent again", |h| {
        has_text(h, "Enviado a") && !has_text(h, &text("lk-mail-title"))
    });
    assert_eq!(smtp.delivered().len(), 2);
    // #68 (3): another invoice looked up, the first one's e-mail is not said under it.
    let other = {
        let client = h.state().session().unwrap().client.clone();
        let (customer, _, _) = s.directory().into_iter().next().unwrap();
        let inv = invoice_desk::api::NewInvoice {
            customer,
            amount: 12000.into(),
            ..Default::default()
        };
        rt.block_on(client.create_invoice(&inv, None)).unwrap().id
    };
    common::set_text(&mut h, &text("f-invoice-id"), &other);
    click(&mut h, &text("lk-look-up"));
    step_until(&mut h, "the other looked up", |h| {
        h.state().looked_up().is_some_and(|i| i.id == other)
    });
    assert!(
        !has_text(&h, "Enviado a"),
        "the first invoice's e-mail is not said"
    );
}

/// Cartera in Spanish: "Enviar por correo a estos (N)…" asks first, then e-mails each
/// customer shown who owes something the month's statement once; a second run sends
/// nothing and says they were sent before.
#[test]
#[cfg_attr(
    tests_lack = "smtp",
    ignore = "needs postfix as root (apt-get install postfix)"
)]
fn the_months_statements_are_emailed_from_cartera_once() {
    let Some(smtp) = smtp_server::start() else {
        return;
    };
    let rt = runtime();
    let dir = tempfile::tempdir().unwrap();
    let (_sandbox, mut h) = app(
        &rt,
        dir.path(),
        "cartera",
        Some(invoice_desk::profile::mail::Settings {
            port: Some(smtp.tls_port),
            security: invoice_desk::profile::mail::Security::Tls,
            per_minute: invoice_desk::profile::mail::SERVER_PACE,
            ..starttls(&smtp)
        }),
        900.0,
    );
    click(&mut h, &text("tab-receivables"));
    click(&mut h, &text("rv-review"));
    step_until(&mut h, "reviewed", |h| {
        !h.state().receivables().is_running() && !h.state().receivables().rows().is_empty()
    });
    let button = h
        .query_all_by_role(egui::accesskit::Role::Button)
        .filter_map(|n| n.accesskit_node().label())
        .find(|l| l.starts_with("Enviar por correo a estos ("))
        .expect("the e-mail button");
    let owing: usize = button
        .trim_start_matches("Enviar por correo a estos (")
        .trim_end_matches(")…")
        .parse()
        .unwrap();
    assert!(owing > 0, "{button}");
    click(&mut h, &button);
    step_until(&mut h, "asked", |h| has_text(h, &text("rv-mail-title")));
    // The first customer's e-mail, read before it goes to everyone: made as the run
    // makes it, and not sent.
    click(&mut h, &text("rv-mail-sample"));
    step_until(&mut h, "sample shown", |h| {
        has_text(h, &text("rv-mail-sample-title"))
    });
    assert!(has_text(&h, "Estado de cuenta al "), "the subject");
    assert!(
        has_text(&h, "estado-de-cuenta-"),
        "the PDF attached is named"
    );
    assert!(
        smtp.delivered().is_empty(),
        "nothing before the clerk says so"
    );
    click_last(&mut h, &text("lk-mail-send"));
    step_until(&mut h, "sent", |h| has_text(h, "Enviados: "));
    let got = smtp.delivered();
    assert!(
        has_text(&h, &format!("Enviados: {}; enviados antes: 0", got.len())),
        "{} delivered",
        got.len()
    );
    assert!(!got.is_empty() && got.len() <= owing);
    let mut to: Vec<&str> = got.iter().map(|d| d.to.as_str()).collect();
    to.sort();
    to.dedup();
    assert_eq!(to.len(), got.len(), "each customer once");
    assert!(got[0].subject().starts_with("Estado de cuenta al "));
    // Again: nothing sent, and said so.
    click(&mut h, &button);
    step_until(&mut h, "asked again", |h| {
        has_text(h, &text("rv-mail-title"))
    });
    click_last(&mut h, &text("lk-mail-send"));
    step_until(&mut h, "second run", |h| {
        has_text(h, &format!("Enviados: 0; enviados antes: {}", got.len()))
    });
    assert_eq!(smtp.delivered().len(), got.len());
    // Reminders instead (#66): the dialog and its summary say reminders, not statements.
    click(&mut h, &button);
    step_until(&mut h, "asked for reminders", |h| {
        has_text(h, &text("rv-mail-title"))
    });
    h.get_by_label(&text("rv-mail-reminders")).click();
    step_until(&mut h, "titled as reminders", |h| {
        has_text(h, &text("rv-mail-title-reminders")) && !has_text(h, &text("rv-mail-title"))
    });
    click_last(&mut h, &text("lk-mail-send"));
    step_until(&mut h, "reminders sent", |h| {
        has_text(h, "Recordatorios enviados: ")
    });
    assert!(!has_text(&h, "Enviados: "), "the summary says reminders");
}

/// The mail server typed in Credentials (its password to the keyring, never to the
/// file), then an invoice e-mailed from Lookup through a server that wants that login.
#[test]
#[cfg_attr(
    tests_lack = "smtp",
    ignore = "needs postfix as root (apt-get install postfix)"
)]
fn the_mail_server_is_set_in_credentials_and_its_password_logs_in() {
    const USER: &str = "cobranza@nandu.test";
    const PASSWORD: &str = "clave-ñandú-9";
    let Some(smtp) = smtp_server::start_with_login(USER, PASSWORD) else {
        return;
    };
    let rt = runtime();
    let dir = tempfile::tempdir().unwrap();
    let (s, mut h) = app(&rt, dir.path(), "login", None, 1000.0);
    click(&mut h, &text("tab-credentials"));
    h.get_by_label(&text("mail-title")).click();
    h.step();
    h.step();
    common::set_text(&mut h, &text("mail-f-server"), "127.0.0.1");
    common::set_text(
        &mut h,
        &text("mail-f-port"),
        &smtp.starttls_port.to_string(),
    );
    common::set_text(&mut h, &text("mail-f-user"), USER);
    common::set_role(
        &mut h,
        egui::accesskit::Role::PasswordInput,
        &text("mail-f-password"),
        PASSWORD,
    );
    common::set_text(
        &mut h,
        &text("mail-f-from"),
        "Cobranzas <cobranza@nandu.test>",
    );
    common::set_text(&mut h, &text("mail-f-ca"), &smtp.ca().display().to_string());
    // A port that is not one is said, and nothing is kept.
    common::set_text(&mut h, &text("mail-f-port"), "puerto");
    click(&mut h, &text("save"));
    assert!(has_text(&h, "\"puerto\" no es un puerto"));
    let path = dir.path().join("profiles.toml");
    assert!(
        !std::fs::read_to_string(&path)
            .unwrap()
            .contains("127.0.0.1\"")
    );
    common::set_text(
        &mut h,
        &text("mail-f-port"),
        &smtp.starttls_port.to_string(),
    );
    click(&mut h, &text("save"));
    step_until(&mut h, "saved", |_| {
        std::fs::read_to_string(&path)
            .unwrap()
            .contains("[profile.mail]")
    });
    let kept = std::fs::read_to_string(&path).unwrap();
    assert!(kept.contains(USER), "{kept}");
    assert!(
        !kept.contains(PASSWORD),
        "the password never goes to the file"
    );
    step_until(&mut h, "reconnected", |h| {
        h.state()
            .session()
            .is_some_and(|s| !s.profile.mail.server.is_empty())
    });
    let id = s
        .sample_invoice(invoice_desk::sandbox::data::ORG_OAUTH)
        .unwrap();
    click(&mut h, &text("tab-lookup"));
    common::type_into(&mut h, &text("f-invoice-id"), &id);
    click(&mut h, &text("lk-look-up"));
    step_until(&mut h, "looked up", |h| has_text(h, &text("lk-mail")));
    click(&mut h, &text("lk-mail"));
    step_until(&mut h, "shown", |h| has_text(h, &text("lk-mail-title")));
    click_last(&mut h, &text("lk-mail-send"));
    step_until(&mut h, "sent", |h| has_text(h, "Enviado a"));
    assert_eq!(smtp.delivered().len(), 1);
}

/// Customer invoices in Spanish: the loaded customer's statement e-mailed, shown first
/// and sent once.
#[test]
#[cfg_attr(
    tests_lack = "smtp",
    ignore = "needs postfix as root (apt-get install postfix)"
)]
fn a_customers_statement_is_emailed_from_the_customer_invoices_panel() {
    let Some(smtp) = smtp_server::start() else {
        return;
    };
    let rt = runtime();
    let dir = tempfile::tempdir().unwrap();
    let (s, mut h) = app(&rt, dir.path(), "estado", Some(starttls(&smtp)), 900.0);
    let (customer, name, _) = s.directory().into_iter().next().unwrap();
    click(&mut h, &text("tab-customers"));
    common::set_text(&mut h, &text("f-customer-id"), &customer);
    click(&mut h, &text("cu-load"));
    step_until(&mut h, "listed", |h| {
        !h.state().customers_loading() && !h.state().customer_rows().0.is_empty()
    });
    click(&mut h, &text("cu-mail"));
    // (The dialog's title is the button's words without "…": wait for its addressee.)
    step_until(&mut h, "shown", |h| has_text(h, "estado0@ui.test"));
    assert!(has_text(&h, &format!("{name} · estado0@ui.test")));
    assert!(smtp.delivered().is_empty());
    click_last(&mut h, &text("lk-mail-send"));
    step_until(&mut h, "sent", |h| has_text(h, "Enviado a"));
    let got = smtp.delivered();
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].to, "estado0@ui.test");
    assert!(
        got[0].subject().starts_with("Estado de cuenta al "),
        "{}",
        got[0].subject()
    );
    let (file, _) = got[0].attachment().unwrap();
    assert!(file.starts_with("estado-de-cuenta-"), "{file}");
    // #68 (3): another customer loaded, nothing said of the first one's statement stays
    // under it.
    let (other, other_name, _) = s.directory().into_iter().nth(1).unwrap();
    common::set_text(&mut h, &text("f-customer-id"), &other);
    click(&mut h, &text("cu-load"));
    step_until(&mut h, "the next customer listed", |h| {
        !h.state().customers_loading() && has_text(h, &other_name)
    });
    assert!(
        !has_text(&h, "Enviado a"),
        "the first customer's e-mail is not said"
    );
    assert!(!has_text(&h, &name), "nothing names the first customer");
}

/// #66 (4): "Con los pesos de la UF" ticked in Cartera reaches the e-mailed statements:
/// each PDF of a customer owing UF says its pesos on the day's value, and where that
/// value came from.
#[test]
#[cfg_attr(
    any(tests_lack = "smtp", tests_lack = "pdf"),
    ignore = "needs postfix as root and poppler (apt-get install postfix poppler-utils)"
)]
fn cartera_emails_statements_with_the_uf_in_pesos_when_ticked() {
    let Some(smtp) = smtp_server::start() else {
        return;
    };
    let rt = runtime();
    let dir = tempfile::tempdir().unwrap();
    let (_sandbox, mut h) = app(
        &rt,
        dir.path(),
        "pesos",
        Some(invoice_desk::profile::mail::Settings {
            per_minute: invoice_desk::profile::mail::SERVER_PACE,
            ..starttls(&smtp)
        }),
        900.0,
    );
    // The UF's values as the CMF's, kept by another program: the open app reads them.
    let first = chrono::NaiveDate::from_ymd_opt(2026, 10, 1).unwrap();
    let days: Vec<_> = (0..120)
        .map(|d| {
            (
                first + chrono::Duration::days(d),
                rust_decimal::Decimal::new(3_950_000 + 400 * d, 2),
            )
        })
        .collect();
    invoice_desk::journal::Journal::open(&dir.path().join("journal.sqlite3"))
        .unwrap()
        .put_uf_values(&days, invoice_desk::uf::CMF, true)
        .unwrap();
    click(&mut h, &text("tab-receivables"));
    click(&mut h, &text("rv-review"));
    step_until(&mut h, "reviewed, the UF read", |h| {
        !h.state().receivables().is_running()
            && !h.state().receivables().rows().is_empty()
            && has_text(h, "En pesos, con la UF del")
    });
    h.get_by_label(&text("st-uf-pesos-choice")).click();
    h.step();
    let button = h
        .query_all_by_role(egui::accesskit::Role::Button)
        .filter_map(|n| n.accesskit_node().label())
        .find(|l| l.starts_with("Enviar por correo a estos ("))
        .expect("the e-mail button");
    click(&mut h, &button);
    step_until(&mut h, "asked", |h| has_text(h, &text("rv-mail-title")));
    click_last(&mut h, &text("lk-mail-send"));
    step_until(&mut h, "sent", |h| has_text(h, "Enviados: "));
    let got = smtp.delivered();
    assert!(!got.is_empty());
    let with_line = got
        .iter()
        .filter_map(|m| m.attachment())
        .map(|(_, pdf)| {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("adjunto.pdf");
            std::fs::write(&path, pdf).unwrap();
            let out = std::process::Command::new("pdftotext")
                .arg(&path)
                .arg("-")
                .output()
                .unwrap();
            String::from_utf8_lossy(&out.stdout)
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        })
        .filter(|t| t.contains("Referencia: UF") && t.contains("publicada por la CMF"))
        .count();
    assert!(with_line > 0, "no statement says the UF in pesos");
}
