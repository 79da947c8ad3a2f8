//! The journal in the app: every create and void recorded with its outcome, a journal
//! that cannot be written stops the send, and the badge of outcomes still to check with
//! "Check now" — in Spanish (the language is global to a test binary).

mod common;

use common::{H, click, connected_with_journal, has_text, runtime, step_until, type_into};
use egui_kittest::kittest::Queryable;
use invoice_desk::api::{Client, CurrencyChoice, NewInvoice};
use invoice_desk::i18n::Lang;
use invoice_desk::journal::{Action, Filter, Intent, Journal, Outcome};
use invoice_desk::sandbox::{Sandbox, SandboxConfig};
use std::path::PathBuf;

struct Env {
    rt: tokio::runtime::Runtime,
    sandbox: Sandbox,
    dir: tempfile::TempDir,
}

fn env() -> Env {
    let rt = runtime();
    let sandbox = rt
        .block_on(Sandbox::start(SandboxConfig::default()))
        .unwrap();
    Env {
        rt,
        sandbox,
        dir: tempfile::tempdir().unwrap(),
    }
}

fn app(e: &Env, lang: Lang, journal: PathBuf) -> H {
    connected_with_journal(
        &e.rt,
        e.sandbox.profile("Pruebas"),
        &e.sandbox.credentials.client_secret,
        e.dir.path(),
        [1100.0, 720.0],
        lang,
        Some(journal),
    )
}

fn wait_text(h: &mut H, text: &str) {
    let t = text.to_string();
    step_until(h, text, move |h| has_text(h, &t));
}

#[test]
fn creates_and_voids_are_recorded_with_their_outcome() {
    let e = env();
    let path = e.dir.path().join("journal.sqlite3");
    let mut h = app(&e, Lang::Es, path.clone());
    let customer = e.sandbox.customers()[0].0.clone();
    click(&mut h, "Nueva factura");
    type_into(&mut h, "Id de cliente", &customer);
    type_into(&mut h, "Monto", "12.345");
    click(&mut h, "Crear factura");
    wait_text(&mut h, "creada.");
    click(&mut h, "Abrir en Consultar");
    step_until(&mut h, "lookup", |h| {
        h.state().tab() == invoice_desk::ui::app::Tab::Lookup
    });
    wait_text(&mut h, "Creada");
    click(&mut h, "Anular…");
    wait_text(&mut h, "¿Anular esta factura?");
    click(&mut h, "Anular factura");
    wait_text(&mut h, "fue anulada");

    let j = Journal::open(&path).unwrap();
    let all = j.list(&Filter::default(), false, 0, 10).unwrap();
    assert_eq!(all.len(), 2, "{all:#?}");
    assert_eq!(
        (all[0].action, all[0].outcome),
        (Action::Create, Outcome::Done)
    );
    assert_eq!(all[0].amount.as_deref(), Some("12345"));
    assert_eq!(all[0].profile, "Pruebas");
    assert!(
        all[0].external_id.is_some(),
        "the form's reference is recorded"
    );
    let created = all[0].invoice_id.clone().unwrap();
    assert_eq!(
        (all[1].action, all[1].outcome),
        (Action::Void, Outcome::Done)
    );
    assert_eq!(all[1].invoice_id.as_deref(), Some(created.as_str()));
    assert_eq!(all[1].customer.as_deref(), Some(customer.as_str()));
    assert_eq!(j.verify().unwrap(), Ok(4));
    assert!(!has_text(&h, "por revisar"));
}

#[test]
fn a_journal_that_cannot_be_written_sends_nothing_and_says_so() {
    let e = env();
    let folder = e.dir.path().join("a-folder");
    std::fs::create_dir(&folder).unwrap();
    let mut h = app(&e, Lang::Es, folder);
    click(&mut h, "Nueva factura");
    type_into(&mut h, "Id de cliente", &e.sandbox.customers()[0].0);
    type_into(&mut h, "Monto", "5000");
    click(&mut h, "Crear factura");
    wait_text(&mut h, "No se envió nada");
    assert_eq!(
        e.sandbox.counters().api.get("create").copied().unwrap_or(0),
        0
    );
}

#[test]
fn unknown_outcomes_show_a_badge_on_every_panel_and_check_now_settles_them() {
    let e = env();
    let path = e.dir.path().join("journal.sqlite3");
    let customer = e.sandbox.customers()[0].0.clone();
    // A create that went through while the app that sent it was closing: the invoice
    // exists, the journal has only its intent (an hour ago).
    let client = Client::new(e.sandbox.profile("Pruebas").client_config(
        secrecy::SecretString::from(e.sandbox.credentials.client_secret.clone()),
    ))
    .unwrap();
    let inv = NewInvoice {
        customer: customer.clone(),
        amount: "9900".parse().unwrap(),
        currency: CurrencyChoice::AccountDefault,
        invoice_external_id: Some("ERP-PERDIDA-1".into()),
        ..NewInvoice::default()
    };
    let created = e.rt.block_on(client.create_invoice(&inv, None)).unwrap();
    let mut j = Journal::open(&path).unwrap();
    j.record_intent(
        Action::Create,
        &Intent {
            profile: "Pruebas".into(),
            base_url: e.sandbox.base_url.clone(),
            customer: Some(customer),
            amount: Some("9900".into()),
            external_id: Some("ERP-PERDIDA-1".into()),
            ..Intent::default()
        },
    )
    .unwrap();
    // Long before now (whatever now is): its request can no longer be on its way.
    let long_ago = "2000-01-01T00:00:00.000Z";
    rusqlite::Connection::open(&path)
        .unwrap()
        .execute("UPDATE entries SET time = ?1", [long_ago])
        .unwrap();
    drop(j);

    let mut h = app(&e, Lang::Es, path.clone());
    wait_text(&mut h, "1 por revisar");
    click(&mut h, "Facturas del cliente");
    assert!(has_text(&h, "1 por revisar"), "on every panel");
    click(&mut h, "Revisar ahora");
    wait_text(&mut h, "Revisado: 1 resuelta, 0 aún por revisar.");
    assert!(!has_text(&h, "por revisar "), "the badge is gone");
    let j = Journal::open(&path).unwrap();
    let all = j.list(&Filter::default(), false, 0, 10).unwrap();
    assert_eq!(all[0].outcome, Outcome::Done);
    assert!(all[0].checked);
    assert_eq!(all[0].invoice_id.as_deref(), Some(created.id.as_str()));
}

/// 100,000 settled creates (written straight into the file: their hashes are not what
/// this test is about), then `extra` real entries on top.
fn big_journal(path: &std::path::Path) {
    let mut j = Journal::open(path).unwrap();
    j.record_intent(Action::Create, &Intent::default()).unwrap();
    drop(j);
    let db = rusqlite::Connection::open(path).unwrap();
    db.execute_batch(
        "DELETE FROM entries;
         WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100000)
         INSERT INTO entries (seq, kind, time, user, profile, base_url, action, customer, amount,
                              external_id, checked, prev_hash, hash)
         SELECT x, 'intent', printf('2026-01-01T10:%02d:00.000Z', x % 60), 'ana', 'Pruebas',
                'http://127.0.0.1', 'create', 'cus_' || x, '1000', 'REF-' || x, 0, '', '' FROM c;
         WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100000)
         INSERT INTO entries (seq, kind, intent_seq, time, user, profile, base_url, action,
                              invoice_id, outcome, checked, prev_hash, hash)
         SELECT 100000 + x, 'outcome', x, '2026-01-01T10:00:01.000Z', 'ana', 'Pruebas',
                'http://127.0.0.1', 'create', 'in_' || x, 'done', 0, '', '' FROM c;",
    )
    .unwrap();
}

#[test]
fn activity_with_100000_entries_filters_and_opens_an_invoice_in_lookup() {
    let e = env();
    let path = e.dir.path().join("journal.sqlite3");
    big_journal(&path);
    let mut h = app(&e, Lang::Es, path.clone());
    // Today's work on top of the old entries: a create through the app.
    let customer = e.sandbox.customers()[0].0.clone();
    click(&mut h, "Nueva factura");
    type_into(&mut h, "Id de cliente", &customer);
    type_into(&mut h, "Monto", "4.321");
    click(&mut h, "Crear factura");
    wait_text(&mut h, "creada.");
    click(&mut h, "Actividad");
    wait_text(&mut h, "100.001 registros");
    // Newest first: today's create is the first row, its amount the Chilean way.
    wait_text(&mut h, "$4.321");
    assert!(has_text(&h, &customer));
    assert!(!has_text(&h, "por revisar"));

    // Search.
    type_into(&mut h, "Buscar", "cus_99999");
    wait_text(&mut h, "1 registro");
    wait_text(&mut h, "REF-99999 · in_99999");
    // A row with an invoice opens it in Lookup.
    h.get_by_label("REF-99999 · in_99999").click();
    step_until(&mut h, "lookup", |h| {
        h.state().tab() == invoice_desk::ui::app::Tab::Lookup
    });
    assert_eq!(common::field_text(&h, "Id de factura"), "in_99999");

    // Back: filters by outcome and by day; a date that does not exist is said so.
    click(&mut h, "Actividad");
    common::set_text(&mut h, "Buscar", "");
    h.get_by_role_and_label(egui::accesskit::Role::ComboBox, "Resultado")
        .click();
    h.step();
    h.step();
    h.get_all_by_label("Rechazada").last().unwrap().click();
    h.step();
    wait_text(&mut h, "0 registros");
    h.get_by_role_and_label(egui::accesskit::Role::ComboBox, "Resultado")
        .click();
    h.step();
    h.step();
    h.get_all_by_label("Cualquiera").last().unwrap().click();
    h.step();
    click(&mut h, "Hoy");
    wait_text(&mut h, "1 registro");
    common::set_text(&mut h, "Del", "31-02-2026");
    wait_text(&mut h, "«31-02-2026» no es una fecha");
}

#[test]
fn customer_fields_complete_by_name_rut_or_id_from_the_directory() {
    let e = env();
    let path = e.dir.path().join("journal.sqlite3");
    let customer = e.sandbox.customers()[0].0.clone();
    Journal::open(&path)
        .unwrap()
        .import_customers(&[invoice_desk::journal::Customer {
            id: customer.clone(),
            name: Some("Distribuidora Grande del Sur S.A.".into()),
            rut: Some("76.123.456-0".into()),
            notes: None,
            emails: Vec::new(),
        }])
        .unwrap();
    let mut h = app(&e, Lang::Es, path);
    click(&mut h, "Nueva factura");
    type_into(&mut h, "Id de cliente", "distri");
    let line = format!("Distribuidora Grande del Sur S.A. · 76.123.456-0 · {customer}");
    wait_text(&mut h, &line);
    click(&mut h, &line);
    assert_eq!(common::field_text(&h, "Id de cliente"), customer);
    wait_text(&mut h, "= Distribuidora Grande del Sur S.A.");
    // By RUT digits, in the customer list; the list names the customer it loaded.
    click(&mut h, "Facturas del cliente");
    type_into(&mut h, "Id de cliente", "76123");
    wait_text(&mut h, &line);
    click(&mut h, &line);
    click(&mut h, "Cargar facturas");
    wait_text(
        &mut h,
        &format!("Distribuidora Grande del Sur S.A. ({customer})"),
    );
}

/// #68 (6): Activity's "Quién" is as wide as what it says (who, and through which
/// profile), up to a limit: a long profile's name is not cut in a column of 180 points.
#[test]
fn activitys_who_column_is_as_wide_as_what_it_says() {
    use egui_kittest::kittest::NodeT;
    let e = env();
    let path = e.dir.path().join("journal.sqlite3");
    let profile = "Servicios Contables del Sur Oriente Limitada";
    let mut j = invoice_desk::journal::Journal::open(&path).unwrap();
    j.record_intent(
        invoice_desk::journal::Action::Create,
        &invoice_desk::journal::Intent {
            profile: profile.into(),
            customer: Some("cus_1".into()),
            amount: Some("1000".into()),
            external_id: Some("ANCHO-1".into()),
            ..invoice_desk::journal::Intent::default()
        },
    )
    .unwrap();
    drop(j);
    let mut h = app(&e, Lang::Es, path);
    click(&mut h, "Actividad");
    wait_text(&mut h, "ANCHO-1");
    // The cell's whole text, laid out on one line in the body's font.
    let text = common::text_containing(&h, profile);
    let font = egui::TextStyle::Body.resolve(&h.ctx.global_style());
    let who = h.ctx.fonts_mut(|f| {
        f.layout_no_wrap(text.clone(), font, egui::Color32::WHITE)
            .size()
            .x
    });
    assert!(
        who > 180.0,
        "a text longer than the old column: {who} ({text:?})"
    );
    // The header's cell is the column: its title at its left, the next title after it.
    let header = h.query_all_by_label("Quién").next().unwrap();
    let at = header.accesskit_node().raw_bounds().unwrap();
    let next_x = h
        .query_all_by_label("Acción")
        .filter_map(|n| n.accesskit_node().raw_bounds())
        .find(|b| (b.y0 - at.y0).abs() < 2.0)
        .unwrap()
        .x0;
    let header_x = at.x0;
    assert!(
        next_x - header_x >= f64::from(who),
        "the column ({} points) holds its text ({who} points)",
        next_x - header_x
    );
}
