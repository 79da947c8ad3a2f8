//! The app in Spanish (Chile) with the dark theme: a snapshot of each panel, and a flow
//! done with the keyboard only. (A separate test binary: the language is process-wide.)

#[cfg(target_os = "linux")]
mod cli_env;
mod common;
#[cfg(target_os = "linux")]
mod pg_server;

use common::{has_text, runtime, scenes, step_until};
use invoice_desk::i18n::{Lang, text};
use invoice_desk::sandbox::{Sandbox, SandboxConfig};
use invoice_desk::ui::Tab;

const D: egui::Theme = egui::Theme::Dark;

#[test]
#[cfg_attr(
    tests_lack = "vulkan",
    ignore = "needs a Vulkan driver (apt-get install mesa-vulkan-drivers)"
)]
fn snapshot_welcome() {
    scenes::welcome(Lang::Es, D, "es_dark_welcome");
}

#[test]
#[cfg_attr(
    tests_lack = "vulkan",
    ignore = "needs a Vulkan driver (apt-get install mesa-vulkan-drivers)"
)]
fn snapshot_credentials() {
    scenes::credentials(Lang::Es, D, "es_dark_credentials");
}

#[test]
#[cfg_attr(
    tests_lack = "vulkan",
    ignore = "needs a Vulkan driver (apt-get install mesa-vulkan-drivers)"
)]
fn snapshot_new_invoice() {
    scenes::new_invoice(Lang::Es, D, "es_dark_new_invoice");
}

#[test]
#[cfg_attr(
    tests_lack = "vulkan",
    ignore = "needs a Vulkan driver (apt-get install mesa-vulkan-drivers)"
)]
fn snapshot_lookup() {
    scenes::lookup(Lang::Es, D, "es_dark_lookup");
}

#[test]
#[cfg_attr(
    tests_lack = "vulkan",
    ignore = "needs a Vulkan driver (apt-get install mesa-vulkan-drivers)"
)]
fn snapshot_customers() {
    scenes::customers(Lang::Es, D, "es_dark_customers");
}

#[test]
#[cfg_attr(
    tests_lack = "vulkan",
    ignore = "needs a Vulkan driver (apt-get install mesa-vulkan-drivers)"
)]
fn snapshot_bulk() {
    scenes::bulk(Lang::Es, D, "es_dark_bulk");
}

#[test]
fn create_by_keyboard_only_in_spanish() {
    let rt = runtime();
    let s = rt
        .block_on(Sandbox::start(SandboxConfig::default()))
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut h = common::connected_in(
        &rt,
        &s,
        dir.path(),
        Some(invoice_desk::api::Currency::CLP),
        [1100.0, 760.0],
        Lang::Es,
    );
    assert!(has_text(&h, "Nueva factura"), "the tabs are in Spanish");
    let key = |h: &mut common::H, m: egui::Modifiers, k: egui::Key| {
        h.key_press_modifiers(m, k);
        h.step();
        h.step();
    };
    let typed = |h: &mut common::H, t: &str| {
        h.event(egui::Event::Text(t.to_string()));
        h.step();
        h.step();
    };
    key(&mut h, egui::Modifiers::COMMAND, egui::Key::N);
    assert_eq!(h.state().tab(), Tab::Create);
    typed(&mut h, &s.customers()[0].0);
    // Product, due date, the calendar and its three quick choices, amount.
    for _ in 0..7 {
        key(&mut h, egui::Modifiers::NONE, egui::Key::Tab);
    }
    typed(&mut h, "1,5");
    assert!(
        has_text(&h, "Los montos en CLP no llevan decimales"),
        "amount errors are in Spanish"
    );
    key(&mut h, egui::Modifiers::COMMAND, egui::Key::A);
    typed(&mut h, "25.000");
    assert!(has_text(&h, "= $25.000 (la moneda de la cuenta, CLP)"));
    key(&mut h, egui::Modifiers::COMMAND, egui::Key::Enter);
    step_until(&mut h, "creada", |h| has_text(h, "creada."));
    assert!(has_text(&h, &text("cr-another")));
    // #68: an invoice issued proves the connection: Credentials does not say it was
    // never checked.
    common::click(&mut h, &text("tab-credentials"));
    assert!(!has_text(&h, "Conexión: aún no revisada"));
    assert!(has_text(&h, "Conexión: funciona"));
}

#[test]
fn look_up_void_and_list_by_keyboard_only_in_spanish() {
    let rt = runtime();
    let s = rt
        .block_on(Sandbox::start(SandboxConfig::default()))
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut h = common::connected_in(&rt, &s, dir.path(), None, [1100.0, 760.0], Lang::Es);
    let key = |h: &mut common::H, m: egui::Modifiers, k: egui::Key| {
        h.key_press_modifiers(m, k);
        h.step();
        h.step();
    };
    let tab_to = |h: &mut common::H, label: &str| {
        use egui_kittest::kittest::Queryable;
        for _ in 0..40 {
            if h.query_by_role_and_label(egui::accesskit::Role::Button, label)
                .is_some_and(|n| n.is_focused())
            {
                return;
            }
            h.key_press(egui::Key::Tab);
            h.step();
            h.step();
        }
        panic!("Tab never reached {label}");
    };
    let id = s
        .sample_invoice(invoice_desk::sandbox::data::ORG_OAUTH)
        .unwrap();
    key(&mut h, egui::Modifiers::COMMAND, egui::Key::L);
    h.event(egui::Event::Text(id.clone()));
    key(&mut h, egui::Modifiers::COMMAND, egui::Key::Enter);
    step_until(&mut h, "consultada", |h| has_text(h, "Creada"));
    tab_to(&mut h, "Anular…");
    key(&mut h, egui::Modifiers::NONE, egui::Key::Enter);
    step_until(&mut h, "confirmación", |h| {
        has_text(h, "¿Anular esta factura?")
    });
    tab_to(&mut h, "Anular factura");
    key(&mut h, egui::Modifiers::NONE, egui::Key::Enter);
    step_until(&mut h, "anulada", |h| has_text(h, "fue anulada"));
    key(&mut h, egui::Modifiers::COMMAND, egui::Key::E);
    h.event(egui::Event::Text(s.customers()[0].0.clone()));
    key(&mut h, egui::Modifiers::COMMAND, egui::Key::Enter);
    step_until(&mut h, "listadas", |h| has_text(h, "facturas del cliente"));
    assert!(has_text(&h, "Anulada"), "statuses are in Spanish");
}

/// A void whose answer was lost: the message names the invoice (as a create's names its
/// reference), and checking it settles it.
#[test]
fn a_void_with_no_answer_names_its_invoice_in_spanish() {
    use common::click;
    let rt = runtime();
    let s = rt
        .block_on(Sandbox::start(SandboxConfig::default()))
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut h = common::connected_in(&rt, &s, dir.path(), None, [1100.0, 760.0], Lang::Es);
    let id = s
        .sample_invoice(invoice_desk::sandbox::data::ORG_OAUTH)
        .unwrap();
    // The service voids it, then the connection breaks before the answer.
    s.add_fault(invoice_desk::sandbox::Fault::reset(
        invoice_desk::sandbox::Route::Void,
        1,
    ));
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::L);
    h.step();
    h.event(egui::Event::Text(id.clone()));
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Enter);
    h.step();
    step_until(&mut h, "consultada", |h| has_text(h, "Creada"));
    click(&mut h, "Anular…");
    step_until(&mut h, "confirmación", |h| {
        has_text(h, "¿Anular esta factura?")
    });
    click(&mut h, "Anular factura");
    step_until(&mut h, "sin respuesta", |h| has_text(h, &text("lk-check")));
    assert!(
        has_text(
            &h,
            &format!("No se sabe si la anulación de la factura {id} se realizó")
        ),
        "the invoice is named"
    );
    click(&mut h, &text("lk-check"));
    step_until(&mut h, "verificada", |h| !has_text(h, &text("lk-check")));
}

#[test]
#[cfg_attr(
    tests_lack = "vulkan",
    ignore = "needs a Vulkan driver (apt-get install mesa-vulkan-drivers)"
)]
fn snapshot_usd_invoice() {
    scenes::usd_invoice(Lang::Es, D, "es_dark_usd_invoice");
}

/// A run the CLI started with credentials from environment variables (no profile) is
/// offered in the clerk's language, not with the journal's "(environment)".
#[test]
fn an_interrupted_run_without_a_profile_is_offered_in_spanish() {
    let rt = runtime();
    let s = rt
        .block_on(Sandbox::start(SandboxConfig::default()))
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("marzo.csv");
    std::fs::write(&file, "cliente,monto\n").unwrap();
    let journal = dir.path().join("journal.sqlite3");
    {
        let mut j = invoice_desk::journal::Journal::open(&journal).unwrap();
        j.start_run(
            &file,
            "abc",
            invoice_desk::journal::ENVIRONMENT_PROFILE,
            &s.base_url,
            1,
            None,
        )
        .unwrap();
    }
    let mut h = common::connected_with_journal(
        &rt,
        s.profile("Pruebas"),
        &s.credentials.client_secret,
        dir.path(),
        [1100.0, 760.0],
        Lang::Es,
        Some(journal),
    );
    step_until(&mut h, "the offer", |h| {
        has_text(h, "con el perfil (variables de entorno)")
    });
    assert!(!has_text(&h, "environment"));
}

/// The journal's latest create entry for `reference`.
fn entry_for(journal: &std::path::Path, reference: &str) -> invoice_desk::journal::Entry {
    let j = invoice_desk::journal::Journal::open(journal).unwrap();
    let filter = invoice_desk::journal::Filter {
        reference: Some(reference.into()),
        ..Default::default()
    };
    j.list(&filter, true, 0, 1).unwrap().remove(0)
}

/// Never twice across a restart: an unknown create confirmed by the panel's check is
/// done in the journal (the badge drops to 0), the form gets a fresh reference at once,
/// and after a restart nothing is sent again — a restored form that still holds the used
/// reference opens locked ("Ya emitida"), one with the same amount asks first.
#[test]
fn a_confirmed_unknown_and_a_restart_never_send_twice_in_spanish() {
    use common::{click, click_last, enabled, field_text, restored, saved, type_into};
    use invoice_desk::sandbox::{Fault, Route};
    let rt = runtime();
    let s = rt
        .block_on(Sandbox::start(SandboxConfig::default()))
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("journal.sqlite3");
    let profile = {
        let mut p = s.profile("Pruebas");
        p.account_currency = Some(invoice_desk::api::Currency::CLP);
        p
    };
    let start = |storage| {
        restored(
            &rt,
            profile.clone(),
            &s.credentials.client_secret,
            dir.path(),
            [1100.0, 760.0],
            Lang::Es,
            Some(journal.clone()),
            storage,
        )
    };
    let creates = || s.counters().api.get("create").copied().unwrap_or(0);
    let mut h = start(None);
    click(&mut h, &text("tab-create"));
    type_into(&mut h, &text("f-customer-id"), &s.customers()[0].0);
    type_into(&mut h, &text("f-amount"), "45.000");
    let used = field_text(&h, &text("f-external-ref"));
    // The service creates it, and the answer is lost.
    s.add_fault(Fault::reset(Route::Create, 1));
    click(&mut h, &text("cr-create"));
    step_until(&mut h, "the unknown outcome", |h| {
        has_text(h, &text("cr-check"))
    });
    step_until(&mut h, "the badge", |h| {
        h.state().journal_to_check() == Some(1)
    });
    assert!(!enabled(&h, &text("cr-create")), "no resend until checked");
    click(&mut h, &text("cr-check"));
    step_until(&mut h, "the check", |h| has_text(h, "Sí se creó"));
    // Checked from the panel: recorded, the badge drops at once.
    step_until(&mut h, "the badge at 0", |h| {
        h.state().journal_to_check() == Some(0)
    });
    let e = entry_for(&journal, &used);
    assert_eq!(e.outcome, invoice_desk::journal::Outcome::Done);
    assert!(e.checked);
    // Locked on the invoice it made, the form shows that invoice's reference; it holds
    // a fresh one for the next, and what is saved never holds the used one.
    assert_eq!(field_text(&h, &text("f-external-ref")), used);
    let storage = saved(&mut h);
    assert!(!storage.0.values().any(|v| v.contains(&used)));
    drop(h);
    assert_eq!(creates(), 1);

    // Restart (on the panel it was left on): same customer and amount, a fresh
    // reference. Create asks first.
    let mut h = start(Some(storage.clone()));
    assert_eq!(h.state().tab(), Tab::Create);
    let fresh = field_text(&h, &text("f-external-ref"));
    assert!(!fresh.is_empty() && fresh != used, "{fresh}");
    assert!(storage.0.values().any(|v| v.contains(&fresh)));
    click(&mut h, &text("cr-create"));
    step_until(&mut h, "the look-alike question", |h| {
        has_text(h, "Parece repetida")
    });
    assert!(has_text(&h, &text("cr-similar-question")));
    click(&mut h, &text("cancel"));
    assert_eq!(creates(), 1, "nothing sent without the clerk's yes");
    drop(h);

    // A saved form that still holds the used reference (as older versions saved it):
    // it opens locked, "Ya emitida", and "Nueva factura" gives a fresh one.
    let mut old = storage.clone();
    for v in old.0.values_mut() {
        *v = v.replace(&fresh, &used);
    }
    let mut h = start(Some(old));
    step_until(&mut h, "the lock", |h| has_text(h, "Ya emitida por "));
    assert!(!enabled(&h, &text("cr-create")));
    click_last(&mut h, &text("cr-new-invoice"));
    assert_ne!(field_text(&h, &text("f-external-ref")), used);
    assert_eq!(creates(), 1);
}

/// A look-alike in the New invoice panel: the dialog shows the earlier invoice; "Emitir
/// de todos modos" sends it, and the decision is in the journal.
#[test]
fn a_look_alike_asks_before_it_is_issued_in_spanish() {
    use common::{click, type_into};
    let rt = runtime();
    let s = rt
        .block_on(Sandbox::start(SandboxConfig::default()))
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("journal.sqlite3");
    let mut h = common::connected_with_journal(
        &rt,
        s.profile("Pruebas"),
        &s.credentials.client_secret,
        dir.path(),
        [1100.0, 760.0],
        Lang::Es,
        Some(journal.clone()),
    );
    click(&mut h, &text("tab-create"));
    type_into(&mut h, &text("f-customer-id"), &s.customers()[1].0);
    type_into(&mut h, &text("f-amount"), "12.500");
    let reference = common::field_text(&h, &text("f-external-ref"));
    click(&mut h, &text("cr-create"));
    step_until(&mut h, "created", |h| has_text(h, "creada."));
    let first_id = s.references()[&reference][0].clone();
    // Another invoice of the same amount to the same customer.
    click(&mut h, &text("cr-another"));
    type_into(&mut h, &text("f-amount"), "12.500");
    click(&mut h, &text("cr-create"));
    step_until(&mut h, "the question", |h| has_text(h, "Parece repetida"));
    assert!(has_text(&h, &first_id), "the earlier invoice is shown");
    assert!(has_text(&h, "La emitió "), "who issued it");
    assert!(has_text(&h, "hoy en el servicio está abierta."));
    assert_eq!(s.counters().api["create"], 1);
    click(&mut h, &text("cr-issue-anyway"));
    step_until(&mut h, "created again", |h| {
        s.counters().api["create"] == 2 && has_text(h, "creada.")
    });
    let j = invoice_desk::journal::Journal::open(&journal).unwrap();
    let latest = j.list(&Default::default(), true, 0, 1).unwrap().remove(0);
    assert!(
        latest
            .decision
            .as_deref()
            .is_some_and(|d| d.contains(&first_id)),
        "{latest:?}"
    );
}

/// A billing run's row that looks like an invoice already issued is marked "Posible
/// duplicado" and skipped; ticked, it is issued by the next run (which counts only it).
#[test]
fn a_billing_row_like_an_earlier_invoice_waits_for_the_clerks_tick_in_spanish() {
    use common::{click, set_text};
    use egui_kittest::kittest::Queryable;
    let rt = runtime();
    let s = rt
        .block_on(Sandbox::start(SandboxConfig::default()))
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("journal.sqlite3");
    let c = s.customers()[2].0.clone();
    let file = dir.path().join("abril.csv");
    std::fs::write(
        &file,
        format!("cliente,monto,vencimiento\n{c},30000,31-12-2026\n{c},31000,31-12-2026\n"),
    )
    .unwrap();
    let mut h = common::connected_with_journal(
        &rt,
        s.profile("Pruebas"),
        &s.credentials.client_secret,
        dir.path(),
        [1280.0, 800.0],
        Lang::Es,
        Some(journal.clone()),
    );
    // Issued before, by hand, with its own reference: the first row looks like it.
    {
        let client = h.state().session().unwrap().client.clone();
        let inv = invoice_desk::api::NewInvoice {
            customer: c.clone(),
            amount: 30000.into(),
            due_date: Some("2026-12-31".into()),
            invoice_external_id: Some("A-MANO-1".into()),
            ..Default::default()
        };
        rt.block_on(client.create_invoice(&inv, None)).unwrap();
    }
    click(&mut h, &text("tab-bulk"));
    set_text(&mut h, &text("bulk-file"), file.to_str().unwrap());
    click(&mut h, &text("bulk-read"));
    step_until(&mut h, "read", |h| h.state().bulk().loaded_plan().is_some());
    click(&mut h, "Emitir 2 facturas…");
    click(&mut h, &text("bulk-confirm-yes"));
    step_until(&mut h, "the run", |h| {
        has_text(h, "1 fila parece repetida y no se envió")
    });
    assert!(has_text(&h, "Posible duplicado"));
    assert!(has_text(&h, "encontrada en el servicio"));
    assert_eq!(s.counters().api["create"], 2, "one by hand, one by the run");
    // The clerk ticks it: the next run counts and sends only it.
    h.get_by_role_and_label(egui::accesskit::Role::CheckBox, &text("bulk-allow-similar"))
        .click();
    h.step();
    h.step();
    click(&mut h, "Emitir 1 factura…");
    click(&mut h, &text("bulk-confirm-yes"));
    step_until(&mut h, "the second run", |h| {
        s.counters().api["create"] == 3 && !h.state().bulk().is_running()
    });
    assert_eq!(h.state().bulk().counts().unwrap().created, 1);
    let _ = h.query_by_label_contains("Emitida");
}

/// A journal another program holds: nothing is sent, and the clerk is told it is in
/// use and to try again (not a bare "cannot be written"); released, Create issues.
#[test]
fn a_journal_held_by_another_program_is_said_in_plain_spanish() {
    use common::{click, type_into};
    let rt = runtime();
    let s = rt
        .block_on(Sandbox::start(SandboxConfig::default()))
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("journal.sqlite3");
    let mut h = common::connected_with_journal(
        &rt,
        s.profile("Pruebas"),
        &s.credentials.client_secret,
        dir.path(),
        [1100.0, 760.0],
        Lang::Es,
        Some(journal.clone()),
    );
    click(&mut h, &text("tab-create"));
    type_into(&mut h, &text("f-customer-id"), &s.customers()[1].0);
    type_into(&mut h, &text("f-amount"), "7.000");
    // Another program takes the journal's write lock and keeps it.
    let other = rusqlite::Connection::open(&journal).unwrap();
    other.execute_batch("BEGIN EXCLUSIVE").unwrap();
    click(&mut h, &text("cr-create"));
    step_until(&mut h, "the busy journal said", |h| {
        has_text(h, "Otro programa lo está usando")
    });
    assert!(has_text(&h, &text("journal-not-sent")));
    assert_eq!(s.counters().api.get("create").copied().unwrap_or(0), 0);
    other.execute_batch("COMMIT").unwrap();
    drop(other);
    click(&mut h, &text("cr-create"));
    step_until(&mut h, "created", |h| has_text(h, "creada."));
    assert_eq!(s.counters().api["create"], 1);
}

/// On the desk's shared journal, a reference a colleague issued from another computer
/// is refused here and the clerk is told who issued it, in Spanish; nothing is sent.
#[cfg(target_os = "linux")]
#[test]
#[cfg_attr(
    tests_lack = "postgres",
    ignore = "needs PostgreSQL (apt-get install postgresql)"
)]
fn a_reference_a_colleague_issued_on_the_shared_journal_says_who_in_spanish() {
    use common::{click, set_text, type_into};
    let Some(server) = pg_server::server() else {
        return;
    };
    let url = server.database();
    let shared = server.trusted_url(url.rsplit('/').next().unwrap());
    let rt = runtime();
    let s = rt
        .block_on(Sandbox::start(SandboxConfig::default()))
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let customer = s.customers()[1].0.clone();
    // Ana, at another computer, issues COMP-1.
    let out = cli_env::oauth_cli(&s, dir.path())
        .env("INVOICE_DESK_JOURNAL", &shared)
        .env("USER", "ana")
        .args(["create", "--customer", &customer, "--amount", "9000"])
        .args(["--external-id", "COMP-1"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(s.counters().api["create"], 1);
    // Here, the same reference.
    let mut h = common::connected_with_journal(
        &rt,
        s.profile("Pruebas"),
        &s.credentials.client_secret,
        dir.path(),
        [1100.0, 760.0],
        Lang::Es,
        Some(std::path::PathBuf::from(&shared)),
    );
    click(&mut h, &text("tab-create"));
    type_into(&mut h, &text("f-customer-id"), &customer);
    type_into(&mut h, &text("f-amount"), "9.000");
    set_text(&mut h, &text("f-external-ref"), "COMP-1");
    click(&mut h, &text("cr-create"));
    let host = invoice_desk::journal::host_name();
    // Who: the database role the server stamped first, the computer's word beside it.
    step_until(&mut h, "who issued it", |h| {
        has_text(h, &format!("Ya emitida por rol trusted · ana en {host}"))
    });
    assert_eq!(s.counters().api["create"], 1, "nothing was sent");
    // Activity is the desk's, and says who wrote each entry.
    click(&mut h, &text("tab-activity"));
    step_until(&mut h, "the desk's activity", |h| {
        has_text(h, &format!("ana en {host}"))
    });
    assert!(has_text(&h, &text("act-title-shared")));
}

/// The desk's server restarts under an open app, in Spanish: while it is away a create
/// sends nothing and says so, every panel says since when the shared journal has not
/// answered and that it tries again; once it is back the app finds it by itself (no
/// restart) and the next invoice is issued and recorded.
#[cfg(target_os = "linux")]
#[test]
#[cfg_attr(
    tests_lack = "postgres",
    ignore = "needs PostgreSQL (apt-get install postgresql)"
)]
fn an_open_app_goes_on_by_itself_after_the_desks_server_restarts_in_spanish() {
    use common::{click, set_text, type_into};
    let Some(server) = pg_server::Server::own() else {
        return;
    };
    let url = server.database();
    let shared = server.trusted_url(url.rsplit('/').next().unwrap());
    let rt = runtime();
    let s = rt
        .block_on(Sandbox::start(SandboxConfig::default()))
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let customer = s.customers()[1].0.clone();
    let mut h = common::connected_with_journal(
        &rt,
        s.profile("Pruebas"),
        &s.credentials.client_secret,
        dir.path(),
        [1100.0, 760.0],
        Lang::Es,
        Some(std::path::PathBuf::from(&shared)),
    );
    // Two amounts: the second is no look-alike of the first.
    let issue = |h: &mut common::H, amount: &str, reference: &str| {
        click(h, &text("tab-create"));
        set_text(h, &text("f-customer-id"), "");
        type_into(h, &text("f-customer-id"), &customer);
        set_text(h, &text("f-amount"), "");
        type_into(h, &text("f-amount"), amount);
        set_text(h, &text("f-external-ref"), reference);
        click(h, &text("cr-create"));
    };
    issue(&mut h, "9.000", "REINICIO-1");
    step_until(&mut h, "the first invoice", |h| has_text(h, "creada"));
    assert_eq!(s.counters().api["create"], 1);
    click(&mut h, &text("cr-another"));
    // The server goes away (as a crash would).
    server.stop();
    issue(&mut h, "9.500", "REINICIO-2");
    step_until(&mut h, "nothing sent, said", |h| {
        has_text(h, "No se envió nada")
            && has_text(h, "El registro compartido no responde desde las")
    });
    assert_eq!(s.counters().api["create"], 1, "nothing was sent meanwhile");
    assert!(has_text(&h, "se reintenta"));
    // Back: the app finds it by itself, and the word goes.
    server.restart();
    let back = std::time::Instant::now();
    step_until(&mut h, "the journal answers again", |h| {
        !has_text(h, "El registro compartido no responde")
    });
    // Said, not asserted (a busy machine may take longer): docs/journal.md's figures.
    eprintln!(
        "the app found the server {:?} after it was back",
        back.elapsed()
    );
    click(&mut h, &text("cr-create"));
    step_until(&mut h, "the invoice, after the restart", |h| {
        has_text(h, "creada")
    });
    assert_eq!(s.counters().api["create"], 2);
    assert_eq!(s.references()["REINICIO-2"].len(), 1);
}

/// The shared journal chosen in the Credentials panel, in Spanish: a wrong address and
/// a password in the address are refused in words and change nothing; a wrong password
/// is said; "Probar" with the right one works; "Guardar" keeps the password in the
/// keyring (never in profiles.toml) and switches at once; an invoice is then recorded in
/// the shared journal under the clerk's name, Activity filters by clerk, and the next
/// start (and the CLI) use it.
#[cfg(target_os = "linux")]
#[test]
#[cfg_attr(
    tests_lack = "postgres",
    ignore = "needs PostgreSQL (apt-get install postgresql)"
)]
fn the_shared_journal_is_chosen_tested_and_used_from_the_credentials_panel_in_spanish() {
    use common::{click, set_role, set_text, type_into};
    use egui::accesskit::Role;
    use invoice_desk::profile::{Profiles, SecretKind};
    use secrecy::ExposeSecret;
    let Some(server) = pg_server::server() else {
        return;
    };
    let url = server.database();
    let rt = runtime();
    let s = rt
        .block_on(Sandbox::start(SandboxConfig::default()))
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut secrets = None;
    let (mut h, local) =
        on_this_computers_journal(&rt, &s, dir.path(), |d| secrets = Some(d.secrets.clone()));
    let secrets = secrets.unwrap();
    let keyring = secrets.get().unwrap().clone();
    click(&mut h, &text("tab-credentials"));
    step_until(&mut h, "this computer's journal is said", |h| {
        has_text(
            h,
            "Este computador registra cada emisión y anulación en su propio registro",
        )
    });
    // An invoice issued on this computer's own journal before the desk's.
    click(&mut h, &text("tab-create"));
    type_into(&mut h, &text("f-customer-id"), &s.customers()[1].0);
    type_into(&mut h, &text("f-amount"), "6.500");
    set_text(&mut h, &text("f-external-ref"), "LOCAL-1");
    click(&mut h, &text("cr-create"));
    step_until(&mut h, "issued on this computer", |h| {
        h.state().journal_to_check() == Some(0) && s.counters().api.get("create") == Some(&1)
    });
    click(&mut h, &text("tab-credentials"));
    // This computer's directory knows a customer by name.
    let named = s.customers()[2].0.clone();
    invoice_desk::journal::Journal::open(&local)
        .unwrap()
        .import_customers(&[invoice_desk::journal::Customer {
            id: named.clone(),
            name: Some("Ferretería Ñuñoa Ltda.".into()),
            ..Default::default()
        }])
        .unwrap();
    // Not an address: refused in words, nothing saved.
    set_text(&mut h, &text("sj-address"), "mysql://db/registro");
    click(&mut h, &text("sj-test"));
    step_until(&mut h, "a wrong address is said", |h| {
        has_text(h, &text("sj-not-an-address"))
    });
    // A password inside the address is never kept.
    set_text(
        &mut h,
        &text("sj-address"),
        &url.replace("@127.0.0.1", ":secreto@127.0.0.1"),
    );
    click(&mut h, &text("sj-save"));
    step_until(&mut h, "a password in the address is refused", |h| {
        has_text(h, &text("sj-password-in-address"))
    });
    let saved = std::fs::read_to_string(dir.path().join("profiles.toml")).unwrap();
    assert!(
        !saved.contains("secreto") && !saved.contains("shared_journal"),
        "{saved}"
    );
    // No password at all (none typed, none kept): a refusal, not "out of reach".
    set_text(&mut h, &text("sj-address"), &url);
    click(&mut h, &text("sj-test"));
    step_until(&mut h, "a missing password is said", |h| {
        has_text(
            h,
            "El servidor del registro compartido no aceptó el usuario o la contraseña",
        )
    });
    assert!(!has_text(&h, "No se puede llegar al servidor"));
    // A wrong password: the journal cannot be opened, said in Spanish.
    set_role(
        &mut h,
        Role::PasswordInput,
        &text("sj-password"),
        "equivocada",
    );
    click(&mut h, &text("sj-test"));
    step_until(&mut h, "a wrong password is said", |h| {
        has_text(
            h,
            "No se puede abrir el registro. El servidor del registro compartido no aceptó el usuario o la contraseña",
        )
    });
    // The right one works.
    set_role(
        &mut h,
        Role::PasswordInput,
        &text("sj-password"),
        pg_server::PASSWORD,
    );
    click(&mut h, &text("sj-test"));
    step_until(&mut h, "the test works", |h| {
        has_text(
            h,
            "Funciona: el registro compartido responde y tiene 0 entradas.",
        )
    });
    assert!(
        matches!(keyring.get(&url, SecretKind::JournalPassword), Ok(None)),
        "a test keeps nothing"
    );
    // Saved with the clerk's name: used at once, the password in the keyring only.
    save_desk_journal(&mut h);
    assert!(has_text(
        &h,
        &format!(
            "Este computador registra cada emisión y anulación en el registro compartido del equipo: {url}"
        )
    ));
    // The directory stayed behind: offered (once its customers are seen), and brought on
    // a click.
    step_until(&mut h, "the directory offered", |h| {
        has_text(h, &text("sj-bring-directory-hint"))
    });
    click(&mut h, &text("sj-bring-directory"));
    step_until(&mut h, "the directory brought", |h| {
        has_text(h, "Se trajo 1 cliente al directorio del equipo")
    });
    let desk = invoice_desk::journal::Journal::open_with(
        std::path::Path::new(&url),
        Some(pg_server::PASSWORD),
    )
    .unwrap();
    let local_ref = invoice_desk::journal::Filter {
        reference: Some("LOCAL-1".into()),
        ..Default::default()
    };
    assert_eq!(
        desk.customer(&named)
            .unwrap()
            .and_then(|c| c.name)
            .as_deref(),
        Some("Ferretería Ñuñoa Ltda.")
    );
    // The entries this computer recorded before: offered, and brought on a click (#68),
    // with the reference they claimed.
    step_until(&mut h, "this computer's entries offered", |h| {
        has_text(
            h,
            "Este computador tiene 1 registro de antes (una emisión, anulación, exportación o correo) que el registro compartido aún no tiene.",
        )
    });
    assert!(
        !has_text(&h, "invoice-desk journal push"),
        "no command to type"
    );
    assert!(desk.list(&local_ref, true, 0, 10).unwrap().is_empty());
    click(&mut h, &text("sj-push"));
    step_until(&mut h, "the entries brought", |h| {
        has_text(h, "Se llevó 1 registro al registro compartido.")
    });
    let brought = desk.list(&local_ref, true, 0, 10).unwrap();
    assert_eq!(brought.len(), 1, "{brought:?}");
    assert_eq!(brought[0].outcome, invoice_desk::journal::Outcome::Done);
    // Once brought, nothing is offered again, and the count is none.
    assert!(!has_text(&h, &text("sj-push")));
    let alone = invoice_desk::journal::Journal::open(&local).unwrap();
    assert_eq!(alone.unpushed(&desk).unwrap(), 0);
    drop(alone);
    drop(desk);
    let kept = keyring
        .get(&url, SecretKind::JournalPassword)
        .unwrap()
        .unwrap();
    assert_eq!(kept.expose_secret(), pg_server::PASSWORD);
    let saved = std::fs::read_to_string(dir.path().join("profiles.toml")).unwrap();
    assert!(!saved.contains(pg_server::PASSWORD), "{saved}");
    let ps = Profiles::load(&dir.path().join("profiles.toml")).unwrap();
    assert_eq!(ps.shared_journal.as_deref(), Some(url.as_str()));
    assert_eq!(ps.clerk_name.as_deref(), Some("Ana Pérez"));
    // An invoice now goes to the shared journal, under the clerk's name.
    let customer = s.customers()[1].0.clone();
    click(&mut h, &text("tab-create"));
    click(&mut h, &text("cr-another"));
    // (The form keeps what the last invoice had: typed over.)
    set_text(&mut h, &text("f-customer-id"), &customer);
    set_text(&mut h, &text("f-amount"), "9.000");
    set_text(&mut h, &text("f-external-ref"), "SJ-1");
    click(&mut h, &text("cr-create"));
    step_until(&mut h, "issued", |h| {
        h.state().journal_to_check() == Some(0) && s.counters().api.get("create") == Some(&2)
    });
    let shared = invoice_desk::journal::Journal::open_with(
        std::path::Path::new(&url),
        Some(pg_server::PASSWORD),
    )
    .unwrap();
    let filter = invoice_desk::journal::Filter {
        reference: Some("SJ-1".into()),
        ..Default::default()
    };
    let entries = shared.list(&filter, true, 0, 10).unwrap();
    assert!(!entries.is_empty(), "the create is in the shared journal");
    assert!(
        entries.iter().all(|e| e.user.starts_with("Ana Pérez (")),
        "{:?}",
        entries.iter().map(|e| &e.user).collect::<Vec<_>>()
    );
    assert!(
        !local.exists()
            || invoice_desk::journal::Journal::open(&local)
                .unwrap()
                .count(&filter)
                .unwrap()
                == 0,
        "nothing went to this computer's file"
    );
    // A colleague, Beto, issues from another computer (its own settings) into the
    // same journal.
    let betos = tempfile::tempdir().unwrap();
    let out = cli_env::oauth_cli(&s, betos.path())
        .env("INVOICE_DESK_JOURNAL", &url)
        .env("INVOICE_DESK_JOURNAL_PASSWORD", pg_server::PASSWORD)
        .env("USER", "beto")
        .args(["create", "--customer", &customer, "--amount", "7000"])
        .args(["--external-id", "SJ-BETO"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    click(&mut h, &text("tab-activity"));
    step_until(&mut h, "the clerk's name in Activity", |h| {
        has_text(h, "Ana Pérez (") && has_text(h, "SJ-BETO")
    });
    // The clerk filter shows one clerk's work.
    let host = invoice_desk::journal::host_name();
    common::pick(&mut h, &text("act-clerk"), &format!("beto en {host}"));
    step_until(&mut h, "only Beto's entries", |h| {
        has_text(h, "SJ-BETO") && !has_text(h, "SJ-1")
    });
    // The next start uses the shared journal, its password from the keyring.
    let mut deps = invoice_desk::ui::AppDeps::for_tests(
        rt.handle().clone(),
        invoice_desk::profile::SecretStore::session_only("replaced below"),
    );
    deps.secrets = secrets.clone();
    deps.profiles_path = Some(dir.path().join("profiles.toml"));
    deps.language = Some(Lang::Es);
    deps.journal = Some(local.clone());
    let mut again = common::harness(deps, [1100.0, 900.0]);
    click(&mut again, &text("tab-activity"));
    step_until(&mut again, "the shared journal after a restart", |h| {
        has_text(h, "SJ-BETO") && has_text(h, &text("act-title-shared"))
    });
    // The CLI on this computer reads the same setting: it lists the shared journal.
    let out = cli_env::oauth_cli(&s, dir.path())
        .env_remove("INVOICE_DESK_JOURNAL")
        .env("INVOICE_DESK_CONFIG_DIR", dir.path())
        .env("INVOICE_DESK_JOURNAL_PASSWORD", pg_server::PASSWORD)
        .args(["journal", "list"])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && said.contains("SJ-1"),
        "{said}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A billing file a colleague already ran on the shared journal: the Bulk panel offers
/// nothing to send, marks each row "Emitida por ana en …" and says the colleagues
/// issued them.
#[cfg(target_os = "linux")]
#[test]
#[cfg_attr(
    tests_lack = "postgres",
    ignore = "needs PostgreSQL (apt-get install postgresql)"
)]
fn rows_a_colleague_issued_are_marked_with_who_in_the_bulk_panel_in_spanish() {
    use common::{click, set_text};
    use egui_kittest::kittest::Queryable;
    let Some(server) = pg_server::server() else {
        return;
    };
    let url = server.database();
    let shared = server.trusted_url(url.rsplit('/').next().unwrap());
    let rt = runtime();
    let s = rt
        .block_on(Sandbox::start(SandboxConfig::default()))
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let c = s.customers()[2].0.clone();
    let file = dir.path().join("mayo.csv");
    std::fs::write(
        &file,
        format!("cliente,monto,referencia\n{c},1000,MAY-1\n{c},2000,MAY-2\n{c},3000,MAY-3\n"),
    )
    .unwrap();
    let anas = tempfile::tempdir().unwrap();
    let out = cli_env::oauth_cli(&s, anas.path())
        .env("INVOICE_DESK_JOURNAL", &shared)
        .env("USER", "ana")
        .args(["bulk", file.to_str().unwrap(), "--yes"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(s.counters().api["create"], 3);
    let mut h = common::connected_with_journal(
        &rt,
        s.profile("Pruebas"),
        &s.credentials.client_secret,
        dir.path(),
        [1280.0, 800.0],
        Lang::Es,
        Some(std::path::PathBuf::from(&shared)),
    );
    click(&mut h, &text("tab-bulk"));
    set_text(&mut h, &text("bulk-file"), file.to_str().unwrap());
    click(&mut h, &text("bulk-read"));
    step_until(&mut h, "read", |h| h.state().bulk().loaded_plan().is_some());
    step_until(&mut h, "the plan", |h| {
        has_text(h, "3 de ellas las emitieron colegas.")
    });
    let host = invoice_desk::journal::host_name();
    let marked = h
        .query_all_by_label_contains(&format!("Emitida por rol trusted · ana en {host} · in_"))
        .count();
    assert_eq!(marked, 3, "each row says who issued it");
    assert!(
        h.query_by_label_contains("Emitir ").is_none(),
        "nothing is offered to issue"
    );
    assert_eq!(s.counters().api["create"], 3, "nothing sent again");
}

/// "Estado de cuenta (PDF)" in the Customers panel, in Spanish: the statement of the
/// customer on screen is made from the listed invoices with the profile's sender, and
/// opened in the system's viewer (to print it); with no viewer, the clerk is told where
/// the file is.
#[cfg(target_os = "linux")]
#[test]
#[cfg_attr(
    tests_lack = "pdf",
    ignore = "needs the PDF readers (apt-get install poppler-utils qpdf zbar-tools)"
)]
fn the_statement_pdf_is_made_and_opened_from_the_customers_panel_in_spanish() {
    if !cli_env::have_pdf_readers() {
        return;
    }
    use common::{click, set_text};
    use invoice_desk::ui::external::External;
    use std::sync::{Arc, Mutex};
    let rt = runtime();
    let s = rt
        .block_on(Sandbox::start(SandboxConfig::default()))
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut profile = s.profile("Pruebas");
    profile.sender = invoice_desk::profile::Sender {
        organization: "Servicios Ñandú SpA".into(),
        rut: "76.123.456-0".into(),
        payment_text: "Banco Estado, cuenta corriente 123-456-7.".into(),
        ..Default::default()
    };
    let asked: Arc<Mutex<Vec<External>>> = Arc::default();
    let seen = asked.clone();
    let documents = dir.path().join("Documentos").join("invoice-desk");
    let folder = documents.clone();
    let mut h = common::customized(
        &rt,
        profile,
        &s.credentials.client_secret,
        dir.path(),
        [1280.0, 800.0],
        Lang::Es,
        None,
        None,
        move |d| {
            d.documents = Some(folder);
            d.opener = Some(Arc::new(move |what: &External| {
                let mut all = seen.lock().unwrap();
                all.push(what.clone());
                // The first opens; later ones find no viewer.
                if all.len() == 1 {
                    Ok(())
                } else {
                    Err("no viewer".into())
                }
            }))
        },
    );
    let customer = s.customers()[0].0.clone();
    click(&mut h, &text("tab-customers"));
    // A listing that failed is no statement: the button waits for a whole one.
    set_text(&mut h, &text("f-customer-id"), "cus_noexiste");
    click(&mut h, &text("cu-load"));
    step_until(&mut h, "not found", |h| {
        !h.state().customers_loading() && has_text(h, "No existe el cliente")
    });
    assert!(!common::enabled(&h, &text("cu-statement-pdf")));
    set_text(&mut h, &text("f-customer-id"), &customer);
    click(&mut h, &text("cu-load"));
    step_until(&mut h, "listed", |h| {
        !h.state().customers_loading() && !h.state().customer_rows().0.is_empty()
    });
    assert!(common::enabled(&h, &text("cu-statement-pdf")));
    click(&mut h, &text("cu-statement-pdf"));
    step_until(&mut h, "made and opened", |h| {
        has_text(h, "Estado de cuenta abierto en el visor del sistema")
    });
    let file = match &asked.lock().unwrap()[0] {
        External::File(p) => p.clone(),
        other => panic!("{other:?}"),
    };
    // Kept where the clerk finds it again (the Documents folder), not a temporary one.
    assert_eq!(file.parent(), Some(documents.as_path()));
    assert!(
        file.file_name()
            .unwrap()
            .to_string_lossy()
            .starts_with("estado-de-cuenta-")
    );
    let out = std::process::Command::new("pdftotext")
        .arg(&file)
        .arg("-")
        .output()
        .unwrap();
    let words = String::from_utf8_lossy(&out.stdout);
    assert!(
        words.contains("Servicios Ñandú SpA") && words.contains("Estado de cuenta"),
        "{words}"
    );
    assert!(
        words.contains("Banco Estado, cuenta corriente 123-456-7."),
        "{words}"
    );
    // No viewer: the file is made and the clerk is told where it is.
    click(&mut h, &text("cu-statement-pdf"));
    step_until(&mut h, "said where", |h| {
        has_text(h, "ningún visor pudo abrirlo")
    });
    // A statement made is a success with a note, never drawn (or announced) as an error.
    use egui_kittest::kittest::{NodeT, Queryable};
    assert_eq!(
        h.get_by_label_contains("ningún visor pudo abrirlo")
            .accesskit_node()
            .live(),
        egui::accesskit::Live::Polite
    );
    let second = match &asked.lock().unwrap()[1] {
        External::File(p) => p.clone(),
        other => panic!("{other:?}"),
    };
    assert!(
        second.exists() && second != file,
        "a new file, never over the first"
    );
    let _ = std::fs::remove_file(file);
    let _ = std::fs::remove_file(second);
    // Lookup's "Imprimir…": the invoice's own PDF, and where it is when no viewer opens.
    let id = s
        .sample_invoice(invoice_desk::sandbox::data::ORG_OAUTH)
        .unwrap();
    click(&mut h, &text("tab-lookup"));
    common::type_into(&mut h, &text("f-invoice-id"), &id);
    click(&mut h, &text("lk-look-up"));
    step_until(&mut h, "looked up", |h| has_text(h, &text("lk-print")));
    click(&mut h, &text("lk-print"));
    step_until(&mut h, "printed", |h| {
        has_text(
            h,
            "El PDF de la factura está hecho, pero ningún visor pudo abrirlo",
        )
    });
    let printed = match &asked.lock().unwrap()[2] {
        External::File(p) => p.clone(),
        other => panic!("{other:?}"),
    };
    let out = std::process::Command::new("pdftotext")
        .arg(&printed)
        .arg("-")
        .output()
        .unwrap();
    let words = String::from_utf8_lossy(&out.stdout);
    assert!(words.contains(&format!("Factura {id}")), "{words}");
    let _ = std::fs::remove_file(printed);
}

/// The Cartera panel in Spanish: every customer of the directory reviewed with what it
/// owes per currency, the book's totals; one that cannot be listed said as such; the
/// filter "más de 60 días"; a click opens that customer's invoices.
#[cfg(target_os = "linux")]
#[test]
fn the_cartera_panel_reviews_every_customer_in_spanish() {
    use common::{click, pick};
    use egui_kittest::kittest::Queryable;
    let rt = runtime();
    let s = rt
        .block_on(Sandbox::start(SandboxConfig::default()))
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("journal.sqlite3");
    let customers: Vec<(String, String)> = s
        .customers()
        .into_iter()
        .filter(|c| c.2 > 0)
        .map(|c| (c.0, c.1))
        .collect();
    let file = dir.path().join("directorio.csv");
    let mut body = String::from("id,nombre\ncus_no_existe,Cliente Fantasma\n");
    for (id, name) in &customers {
        body.push_str(&format!("{id},\"{name}\"\n"));
    }
    std::fs::write(&file, body).unwrap();
    let out = cli_env::oauth_cli(&s, dir.path())
        .args(["customers", "import"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // A customer who owes pesos not yet due: left out by "más de 60 días".
    let (young_id, _) = customers.last().unwrap().clone();
    let out = cli_env::oauth_cli(&s, dir.path())
        .env("INVOICE_DESK_JOURNAL", &journal)
        .args(["create", "--customer", &young_id, "--amount", "123456"])
        .args(["--external-id", "AL-DIA-1", "--due", "31-12-2099"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut h = common::connected_with_journal(
        &rt,
        s.profile("Pruebas"),
        &s.credentials.client_secret,
        dir.path(),
        [1280.0, 900.0],
        Lang::Es,
        Some(journal),
    );
    click(&mut h, &text("tab-receivables"));
    click(&mut h, &text("rv-review"));
    step_until(&mut h, "reviewed", |h| {
        !h.state().receivables().is_running()
            && h.state().receivables().rows().len() == customers.len() + 1
    });
    assert!(has_text(
        &h,
        &format!("{} clientes revisados.", customers.len() + 1)
    ));
    assert!(has_text(&h, "1 cliente no se pudo consultar"));
    assert!(h.query_by_label_contains("No se pudo consultar").is_some());
    // The totals name each currency as a clerk reads it, and add up the customers shown.
    let total_line = |h: &common::H, rows: &[invoice_desk::receivables::Row]| {
        let t = invoice_desk::receivables::totals(rows.iter());
        let clp = t["CLP"][5].value().unwrap();
        let words = format!(
            "Total Pesos (CLP): {} adeudado",
            invoice_desk::api::money::format_amount(clp, Some("CLP"))
        );
        h.query_by_label_contains(&words).is_some()
    };
    // "UF", as a clerk says it (#68).
    assert!(h.query_by_label_contains("Total UF: UF ").is_some());
    assert!(h.query_by_label_contains("Total CLF").is_none());
    // Each customer's aging buckets, per currency.
    assert!(
        h.query_all_by_label_contains("Más de 90 días: ")
            .next()
            .is_some()
    );
    // #49: at 1024x640 every column's name is whole: a long one wraps inside its
    // column ("Vencida más antigua" was cut by the next column).
    h.set_size(egui::vec2(1024.0, 640.0));
    h.step();
    h.step();
    let names = [
        "rv-col-customer",
        "rv-col-rut",
        "rv-col-clp",
        "rv-col-clf",
        "rv-col-oldest",
        "rv-col-last",
        "rv-col-buckets",
    ]
    .map(|k| h.get_by_label(&text(k)).rect());
    let body = egui::TextStyle::Body.resolve(&h.ctx.global_style());
    let line = h.ctx.fonts_mut(|f| f.row_height(&body));
    for (k, rect) in ["rv-col-oldest", "rv-col-buckets"]
        .iter()
        .zip([names[4], names[6]])
    {
        let whole = h.ctx.fonts_mut(|f| {
            f.layout_no_wrap(text(k), body.clone(), egui::Color32::WHITE)
                .size()
                .x
        });
        assert!(
            rect.width() + 0.5 >= whole || rect.height() > 1.5 * line,
            "{k} is cut: {rect:?}, {whole} wide whole"
        );
    }
    for pair in names.windows(2) {
        assert!(
            pair[0].right() <= pair[1].left(),
            "a column's name runs under the next: {pair:?}"
        );
    }
    h.set_size(egui::vec2(1280.0, 900.0));
    h.step();
    h.step();
    // Each customer's pesos owed, as the app writes them.
    let rows = h.state().receivables().rows().to_vec();
    let first = rows
        .iter()
        .find(|r| r.summary.as_ref().is_ok_and(|s| s.owed.contains_key("CLP")))
        .unwrap();
    let clp = first.summary.as_ref().unwrap().owed["CLP"].value().unwrap();
    assert!(has_text(
        &h,
        &invoice_desk::api::money::format_amount(clp, Some("CLP"))
    ));
    // More than 60 days: a customer with nothing that old goes (a failed one stays).
    pick(&mut h, &text("rv-show"), &text("rv-show-60"));
    let young = rows.iter().find(|r| {
        r.summary
            .as_ref()
            .is_ok_and(|s| s.oldest_overdue.is_none_or(|d| d <= 60))
    });
    if let Some(young) = young {
        let name = young.name.clone().unwrap();
        assert!(
            h.query_by_label_contains(&name).is_none(),
            "{name} is not shown"
        );
    }
    assert!(h.query_by_label_contains("Cliente Fantasma").is_some());
    let all: Vec<_> = rows.to_vec();
    let kept: Vec<_> = rows
        .iter()
        .filter(|r| {
            r.summary
                .as_ref()
                .map_or(true, |s| s.oldest_overdue.is_some_and(|d| d > 60))
        })
        .cloned()
        .collect();
    assert!(total_line(&h, &kept), "the totals of those shown");
    // A customer left out who owes pesos makes the book's total another number.
    let hidden_owes = rows.iter().any(|r| {
        r.summary.as_ref().is_ok_and(|s| {
            s.oldest_overdue.is_none_or(|d| d <= 60)
                && s.owed
                    .get("CLP")
                    .and_then(|t| t.value())
                    .is_some_and(|v| !v.is_zero())
        })
    });
    assert!(
        hidden_owes,
        "the sandbox has a customer under 60 days who owes pesos"
    );
    assert!(!total_line(&h, &all), "not of the whole book");
    // Statements for those shown who owe: one PDF each in the folder, and a summary.
    let owing = rows
        .iter()
        .filter(|r| {
            r.summary
                .as_ref()
                .is_ok_and(|s| s.oldest_overdue.is_some_and(|d| d > 60))
        })
        .count();
    // Offered in the documents folder, as every document the app writes (#68), named
    // for the month.
    use egui_kittest::kittest::NodeT;
    let offered = h
        .get_by_role_and_label(egui::accesskit::Role::TextInput, &text("rv-folder"))
        .accesskit_node()
        .value()
        .unwrap_or_default();
    assert!(offered.ends_with("estado-de-cuenta-2026-11"), "{offered}");
    let documents = std::env::temp_dir().join("invoice-desk-tests");
    assert!(
        offered.starts_with(documents.to_str().unwrap()),
        "{offered}"
    );
    let folder = dir.path().join("estados");
    common::set_text(&mut h, &text("rv-folder"), folder.to_str().unwrap());
    click(&mut h, &format!("Estados de cuenta de estos ({owing})"));
    step_until(&mut h, "statements made", |h| {
        has_text(h, &format!("{owing} estados de cuenta guardados"))
    });
    let pdfs = std::fs::read_dir(&folder)
        .unwrap()
        .filter(|f| {
            f.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .ends_with(".pdf")
        })
        .count();
    assert_eq!(pdfs, owing);
    assert!(folder.join("resumen-2026-11-23.csv").exists());
    // The book shown as a workbook, into the same folder, never over a file: the
    // customers shown, in order, and every invoice they owe (as the CLI writes it).
    for name in ["cartera-2026-11-23.xlsx", "cartera-2026-11-23-2.xlsx"] {
        click(&mut h, &text("rv-book"));
        step_until(&mut h, "workbook written", |h| {
            h.query_by_label_contains(&format!("Libro escrito: {}", folder.join(name).display()))
                .is_some()
        });
    }
    {
        use calamine::{Data, Reader, Xlsx};
        let mut wb: Xlsx<_> =
            calamine::open_workbook(folder.join("cartera-2026-11-23.xlsx")).unwrap();
        let sheets = wb.sheet_names();
        assert_eq!(sheets.len(), 2, "{sheets:?}");
        let book = wb.worksheet_range(&sheets[0]).unwrap();
        let listed: std::collections::BTreeSet<String> = book
            .rows()
            .skip(1)
            .filter_map(|r| match &r[0] {
                Data::String(id) if id.starts_with("cus_") => Some(id.clone()),
                _ => None,
            })
            .collect();
        let want: std::collections::BTreeSet<String> =
            kept.iter().map(|r| r.customer.clone()).collect();
        assert_eq!(listed, want, "the customers shown, no others");
        assert!(
            book.rows()
                .any(|r| r.get(3) == Some(&Data::String("UF".into()))),
            "UF, as a clerk reads it"
        );
        let invoices = wb.worksheet_range(&sheets[1]).unwrap();
        assert!(
            invoices.rows().skip(1).any(|r| r
                .iter()
                .any(|c| matches!(c, Data::String(t) if t.starts_with("in_")))),
            "every invoice owed"
        );
    }
    // A click opens the customer's invoices.
    let old = rows
        .iter()
        .find(|r| {
            r.summary
                .as_ref()
                .is_ok_and(|s| s.oldest_overdue.is_some_and(|d| d > 60))
        })
        .unwrap();
    let label = format!("{} · {}", old.name.clone().unwrap(), old.customer);
    h.get_by_label(&label).click();
    h.step();
    h.step();
    step_until(&mut h, "the customer's invoices", |h| {
        h.state().tab() == Tab::Customers
            && !h.state().customers_loading()
            && !h.state().customer_rows().0.is_empty()
    });
    assert_eq!(common::field_text(&h, &text("f-customer-id")), old.customer);
    assert!(h.query_by_label_contains(" del cliente ").is_some());
}

/// A token the identity provider refused: the top bar's badge says so, and its tooltip
/// says why in Spanish (it said the English sentence: the error's `Display`).
#[test]
fn why_access_failed_is_said_in_spanish_on_the_badge() {
    use egui_kittest::kittest::Queryable;
    let rt = runtime();
    let s = rt
        .block_on(Sandbox::start(SandboxConfig::default()))
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut h = common::connected_to(
        &rt,
        s.profile("Pruebas"),
        "no-es-el-secreto",
        dir.path(),
        [1100.0, 760.0],
        Lang::Es,
    );
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::L);
    h.step();
    h.event(egui::Event::Text("in_1".into()));
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Enter);
    step_until(&mut h, "access refused", |h| has_text(h, "Acceso: falló"));
    // Lookup says it too: the tooltip is the second widget to say it.
    let why = "El proveedor de identidad rechazó el id o el secreto del cliente.";
    let saying = |h: &common::H| h.query_all_by_label_contains(why).count();
    let before = saying(&h);
    h.get_by_label("Acceso: falló").hover();
    step_until(&mut h, "the tooltip", |h| saying(h) > before);
}

/// #68 (6): switching to the desk's journal offers to bring this computer's directory
/// only when it has something to bring.
#[cfg(target_os = "linux")]
#[test]
#[cfg_attr(
    tests_lack = "postgres",
    ignore = "needs PostgreSQL (apt-get install postgresql)"
)]
fn an_empty_directory_is_not_offered_to_the_desk() {
    use common::{click, set_text};
    let Some(server) = pg_server::server() else {
        return;
    };
    let url = server.database();
    let rt = runtime();
    let s = rt
        .block_on(Sandbox::start(SandboxConfig::default()))
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let (mut h, _) = on_this_computers_journal(&rt, &s, dir.path(), |_| {});
    click(&mut h, &text("tab-credentials"));
    set_text(&mut h, &text("sj-address"), &url);
    save_desk_journal(&mut h);
    // Once this computer's (empty) directory was looked at: nothing is offered.
    step_until(&mut h, "the directory looked at", |h| {
        !h.state().directory_checking()
    });
    h.step();
    assert!(
        !has_text(&h, &text("sj-bring-directory")),
        "nothing to bring"
    );
}

/// The app in Spanish on the sandbox's profile "Pruebas", recording in a journal file of
/// its own in `dir` (returned with it); `change` alters what it starts with.
#[cfg(target_os = "linux")]
fn on_this_computers_journal(
    rt: &tokio::runtime::Runtime,
    s: &Sandbox,
    dir: &std::path::Path,
    change: impl FnOnce(&mut invoice_desk::ui::AppDeps),
) -> (common::H, std::path::PathBuf) {
    let local = dir.join("journal.sqlite3");
    let h = common::customized(
        rt,
        s.profile("Pruebas"),
        &s.credentials.client_secret,
        dir,
        [1100.0, 900.0],
        Lang::Es,
        Some(local.clone()),
        None,
        change,
    );
    (h, local)
}

/// Saves the desk's journal whose address is typed in Credenciales, with its password
/// and the clerk Ana Pérez, and waits until it is in use.
#[cfg(target_os = "linux")]
fn save_desk_journal(h: &mut common::H) {
    common::set_role(
        h,
        egui::accesskit::Role::PasswordInput,
        &text("sj-password"),
        pg_server::PASSWORD,
    );
    common::set_text(h, &text("sj-clerk"), "Ana Pérez");
    common::click(h, &text("sj-save"));
    step_until(h, "saved and in use", |h| {
        has_text(
            h,
            "Guardado: desde ahora cada emisión y anulación se registra en el registro compartido",
        )
    });
}

/// Four eyes on the desk, in the app and in Spanish (#70): with the owner's policy on,
/// the app's Anular asks first and sends nothing; approved by another clerk's role (the
/// CLI), the same Anular voids it, once. A colleague's request waits in Activity
/// ("1 por aprobar"), is approved there with a note, and the colleague's command then
/// carries it out; a billing run over the limit asks the same way and, approved, issues
/// each row once.
#[cfg(target_os = "linux")]
#[test]
#[cfg_attr(
    tests_lack = "postgres",
    ignore = "needs PostgreSQL (apt-get install postgresql)"
)]
fn a_void_and_a_run_wait_for_a_colleagues_approval_in_the_app_in_spanish() {
    use common::{click, set_text, type_into};
    let Some(server) = pg_server::server() else {
        return;
    };
    let owner = server.database();
    let db = owner.rsplit('/').next().unwrap().to_string();
    let (group, beto) = (format!("desk_{db}"), format!("beto_{db}"));
    server.psql("postgres", &format!("CREATE ROLE {group} NOLOGIN"));
    server.psql(
        "postgres",
        &format!(
            "CREATE ROLE {beto} LOGIN PASSWORD '{}' IN ROLE {group}",
            pg_server::PASSWORD
        ),
    );
    server.psql(&db, &format!("GRANT CONNECT ON DATABASE {db} TO {group}"));
    let rt = runtime();
    let s = rt
        .block_on(Sandbox::start(SandboxConfig::default()))
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let cli = |url: &str, args: &[&str]| {
        cli_env::oauth_cli(&s, dir.path())
            .env("INVOICE_DESK_JOURNAL", url)
            .env("INVOICE_DESK_JOURNAL_PASSWORD", pg_server::PASSWORD)
            .env("USER", "beto")
            .args(["--lang", "es"])
            .args(args)
            .output()
            .unwrap()
    };
    let ok = |out: std::process::Output| {
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        out
    };
    ok(cli(
        &owner,
        &["journal", "init", &owner, "--clerks", &group],
    ));
    ok(cli(
        &owner,
        &[
            "journal",
            "policy",
            &owner,
            "--approve-voids",
            "--approve-runs-over",
            "2",
        ],
    ));
    // The app's clerk: a role of its own (no password: the tests' trusted role).
    let shared = server.trusted_url(&db);
    server.psql("postgres", &format!("GRANT {group} TO trusted"));
    let as_beto = server.url_as(&beto, &db);
    let voids = || s.counters().api.get("void").copied().unwrap_or(0);
    let mut h = common::connected_with_journal(
        &rt,
        s.profile("Pruebas"),
        &s.credentials.client_secret,
        dir.path(),
        [1100.0, 760.0],
        Lang::Es,
        Some(std::path::PathBuf::from(&shared)),
    );
    let org = invoice_desk::sandbox::data::ORG_OAUTH;
    let id = s.sample_invoice(org).unwrap();
    let void = |h: &mut common::H| {
        click(h, &text("tab-lookup"));
        set_text(h, &text("f-invoice-id"), "");
        type_into(h, &text("f-invoice-id"), &id);
        click(h, &text("lk-look-up"));
        step_until(h, "looked up", |h| has_text(h, &text("lk-void")));
        click(h, &text("lk-void"));
        step_until(h, "asked", |h| has_text(h, &text("lk-confirm-title")));
        click(h, &text("lk-void-invoice"));
    };
    void(&mut h);
    step_until(&mut h, "a request", |h| has_text(h, "Pedido de aprobación"));
    // Whose invoice and for how much, as the colleague asked to approve it sees it.
    let shown = common::text_containing(&h, "Pedido de aprobación");
    assert!(
        shown.contains(&format!("anular {id} de cus_"))
            && shown.contains(" por ")
            && shown.contains("(falta la aprobación de otro miembro del equipo)"),
        "{shown}"
    );
    assert_eq!(voids(), 0, "nothing sent");
    let n: i64 = server
        .psql(
            &db,
            "SELECT max(id) FROM approval_events WHERE kind = 'request'",
        )
        .parse()
        .unwrap();
    ok(cli(&as_beto, &["approvals", "approve", &n.to_string()]));
    void(&mut h);
    step_until(&mut h, "voided", |h| has_text(h, "fue anulada"));
    assert_eq!(voids(), 1);

    // Beto asks to void another invoice: it waits in the app's Activity for this clerk.
    let other = s.sample_invoice(org).unwrap();
    let out = cli(&as_beto, &["void", &other, "--yes"]);
    assert_eq!(
        out.status.code(),
        Some(7),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    click(&mut h, &text("tab-activity"));
    step_until(&mut h, "the badge", |h| has_text(h, "1 por aprobar"));
    assert!(has_text(&h, &format!("anular {other}")));
    assert!(has_text(&h, &format!("rol {beto}")));
    // Each request's note and buttons name it (a screen reader hears which).
    let asked: i64 = server
        .psql(
            &db,
            "SELECT max(id) FROM approval_events WHERE kind = 'request'",
        )
        .parse()
        .unwrap();
    type_into(&mut h, &format!("Nota del pedido {asked}"), "conforme");
    click(&mut h, &format!("Aprobar el pedido {asked}"));
    step_until(&mut h, "approved", |h| has_text(h, "Aprobó el pedido"));
    step_until(&mut h, "the badge gone", |h| !has_text(h, "1 por aprobar"));
    ok(cli(&as_beto, &["void", &other, "--yes"]));
    assert_eq!(voids(), 2, "carried out once, by who asked");
    // Activity's rows say who approved what they carried out.
    click(&mut h, &text("tab-create"));
    click(&mut h, &text("tab-activity"));
    step_until(&mut h, "who approved", |h| {
        has_text(h, &format!("aprobado por rol {beto} · beto"))
    });

    // A billing run of 3 rows (the limit is 2): asked, approved by Beto, issued once.
    let customer = s.customers()[1].0.clone();
    let file = dir.path().join("marzo.csv");
    std::fs::write(
        &file,
        format!("cliente,monto,referencia\n{customer},1100,M-1\n{customer},1200,M-2\n{customer},1300,M-3\n"),
    )
    .unwrap();
    let creates = || s.counters().api.get("create").copied().unwrap_or(0);
    let run = |h: &mut common::H| {
        click(h, &text("tab-bulk"));
        set_text(h, &text("bulk-file"), file.to_str().unwrap());
        click(h, &text("bulk-read"));
        step_until(h, "read", |h| h.state().bulk().loaded_plan().is_some());
        click(h, "Emitir 3 facturas…");
        click(h, &text("bulk-confirm-yes"));
    };
    run(&mut h);
    step_until(&mut h, "a run's request", |h| {
        has_text(h, "emitir 3 facturas de marzo.csv")
    });
    assert_eq!(creates(), 0);
    let m: i64 = server
        .psql(
            &db,
            "SELECT max(id) FROM approval_events WHERE kind = 'request'",
        )
        .parse()
        .unwrap();
    ok(cli(&as_beto, &["approvals", "approve", &m.to_string()]));
    run(&mut h);
    step_until(&mut h, "issued", |h| has_text(h, "Terminado: 3 emitidas"));
    assert_eq!(creates(), 3);
    let used = server.psql(
        &db,
        &format!("SELECT count(*) FROM approval_events WHERE request = {m} AND kind = 'use'"),
    );
    assert_eq!(used, "3");
    // Activity says what was carried out, and asks nobody to do it again.
    click(&mut h, &text("tab-create"));
    click(&mut h, &text("tab-activity"));
    step_until(&mut h, "the requests", |h| {
        has_text(h, "Pedidos de aprobación (3)")
    });
    if !has_text(&h, "llevado a cabo: 3 de 3") {
        click(&mut h, "Pedidos de aprobación (3)");
    }
    step_until(&mut h, "the run carried out", |h| {
        has_text(h, "llevado a cabo: 3 de 3")
    });
    assert!(has_text(&h, &format!("Pedido {n}: anular {id}")));
    assert!(!has_text(&h, &text("ap-ui-mine-approved")));
}
