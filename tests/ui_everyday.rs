//! A clerk's everyday path in Spanish (Chile): dates as Chile writes them, errors beside
//! what they are about, status that tells the truth, and no English on any panel. (A
//! separate test binary: the language is process-wide.)

mod common;

use common::{H, has_text, runtime, step_until};
use egui::accesskit::Role;
use egui_kittest::kittest::{NodeT, Queryable};
use invoice_desk::sandbox::{Sandbox, SandboxConfig};
use invoice_desk::ui::i18n::Lang;

fn spanish(rt: &tokio::runtime::Runtime, s: &Sandbox, dir: &std::path::Path) -> H {
    common::connected_in(
        rt,
        s,
        dir,
        Some(invoice_desk::api::Currency::Clp),
        [1100.0, 760.0],
        Lang::Es,
    )
}

fn click(h: &mut H, label: &str) {
    h.get_by_role_and_label(Role::Button, label).click();
    h.step();
    h.step();
}

/// Replaces the text of the field named `label`.
fn set_text(h: &mut H, label: &str, text: &str) {
    h.get_by_role_and_label(Role::TextInput, label).focus();
    h.step();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.step();
    h.key_press(egui::Key::Backspace);
    h.step();
    if !text.is_empty() {
        h.get_by_role_and_label(Role::TextInput, label)
            .type_text(text);
    }
    h.step();
    h.step();
}

fn field_text(h: &H, label: &str) -> String {
    h.get_by_role_and_label(Role::TextInput, label)
        .accesskit_node()
        .value()
        .unwrap_or_default()
        .to_string()
}

fn enabled(h: &H, label: &str) -> bool {
    !h.get_by_role_and_label(Role::Button, label)
        .accesskit_node()
        .is_disabled()
}

#[test]
fn dates_are_read_as_chile_writes_them_and_sent_as_iso() {
    let rt = runtime();
    let s = rt
        .block_on(Sandbox::start(SandboxConfig::default()))
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut h = spanish(&rt, &s, dir.path());
    click(&mut h, "Nueva factura");
    let customer = s.customers()[0].0.clone();
    set_text(&mut h, "Id de cliente", &customer);
    set_text(&mut h, "Monto", "1000");
    set_text(&mut h, "Vencimiento", "31-02-2026");
    assert!(has_text(&h, "febrero de 2026 no tiene día 31."));
    assert!(
        !enabled(&h, "Crear factura"),
        "a day that does not exist is refused"
    );
    set_text(&mut h, "Vencimiento", "5-1-2027");
    assert!(has_text(&h, "= martes 5 de enero de 2027"), "read live");
    click(&mut h, "+30 días");
    let in_30 = chrono::Local::now().date_naive() + chrono::Days::new(30);
    assert_eq!(
        field_text(&h, "Vencimiento"),
        in_30.format("%d-%m-%Y").to_string()
    );
    click(&mut h, "Calendario");
    h.get_all_by_label("15").last().unwrap().click();
    h.step();
    h.step();
    let mid = in_30.with_day(15).unwrap();
    assert_eq!(
        field_text(&h, "Vencimiento"),
        mid.format("%d-%m-%Y").to_string()
    );
    set_text(&mut h, "Vencimiento", "05/01/2027");
    click(&mut h, "Crear factura");
    step_until(&mut h, "created", |h| has_text(h, "creada."));
    let client = invoice_desk::api::Client::new(s.profile("x").client_config(
        secrecy::SecretString::from(s.credentials.client_secret.clone()),
    ))
    .unwrap();
    let all = rt.block_on(client.customer_invoices(&customer)).unwrap();
    assert!(
        all.iter()
            .any(|i| i.due_date.as_deref() == Some("2027-01-05")),
        "sent as ISO"
    );
}

use chrono::Datelike;
