//! The app in Spanish (Chile) with the dark theme: a snapshot of each panel, and a flow
//! done with the keyboard only. (A separate test binary: the language is process-wide.)

mod common;

use common::{has_text, runtime, scenes, step_until};
use invoice_desk::sandbox::{Sandbox, SandboxConfig};
use invoice_desk::ui::Tab;
use invoice_desk::ui::i18n::{Lang, text};

const D: egui::Theme = egui::Theme::Dark;

#[test]
fn snapshot_welcome() {
    scenes::welcome(Lang::Es, D, "es_dark_welcome");
}

#[test]
fn snapshot_credentials() {
    scenes::credentials(Lang::Es, D, "es_dark_credentials");
}

#[test]
fn snapshot_new_invoice() {
    scenes::new_invoice(Lang::Es, D, "es_dark_new_invoice");
}

#[test]
fn snapshot_lookup() {
    scenes::lookup(Lang::Es, D, "es_dark_lookup");
}

#[test]
fn snapshot_customers() {
    scenes::customers(Lang::Es, D, "es_dark_customers");
}

#[test]
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
    key(&mut h, egui::Modifiers::COMMAND, egui::Key::F);
    h.event(egui::Event::Text(id.clone()));
    key(&mut h, egui::Modifiers::COMMAND, egui::Key::Enter);
    step_until(&mut h, "consultada", |h| has_text(h, "created_at"));
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

#[test]
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
