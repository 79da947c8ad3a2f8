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

/// Two profiles on one sandbox: "Pruebas" (works, active) and "Roto" (a wrong secret).
fn two_profiles(rt: &tokio::runtime::Runtime, s: &Sandbox, dir: &std::path::Path) -> H {
    use invoice_desk::profile::{Profiles, SecretKind, SecretStore};
    use secrecy::SecretString;
    let mut ps = Profiles::default();
    ps.upsert(None, s.profile("Pruebas")).unwrap();
    ps.upsert(None, s.profile("Roto")).unwrap();
    ps.active = Some("Pruebas".into());
    let path = dir.join("profiles.toml");
    ps.save(&path).unwrap();
    let store = SecretStore::with_store(keyring_core::mock::Store::new().unwrap());
    let good = SecretString::from(s.credentials.client_secret.clone());
    store.set("Pruebas", SecretKind::ClientSecret, &good);
    store.set(
        "Roto",
        SecretKind::ClientSecret,
        &SecretString::from("wrong"),
    );
    let mut deps = invoice_desk::ui::AppDeps::for_tests(rt.handle().clone(), store);
    deps.profiles_path = Some(path);
    deps.language = Some(Lang::Es);
    let mut h = common::harness(deps, [1100.0, 760.0]);
    step_until(&mut h, "connected", |h| h.state().session().is_some());
    h
}

fn activate(h: &mut H, name: &str) {
    click(h, "Credenciales");
    h.get_all_by_label(name).last().unwrap().click();
    h.step();
    h.step();
    click(h, "Usar este perfil");
    step_until(h, "switched", |h| {
        !h.state().is_connecting() && h.state().session().is_some_and(|s| s.profile.name == name)
    });
}

#[test]
fn errors_stay_with_what_they_are_about_and_status_tells_the_truth() {
    let rt = runtime();
    let s = rt
        .block_on(Sandbox::start(SandboxConfig::default()))
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut h = two_profiles(&rt, &s, dir.path());
    assert!(
        has_text(&h, "en uso"),
        "the active profile is marked, in Spanish"
    );
    assert!(
        has_text(&h, "Conexión: aún no revisada."),
        "not checked yet"
    );
    // The broken profile: its failed test stays with it…
    activate(&mut h, "Roto");
    click(&mut h, "Probar conexión");
    let failed = |h: &H| {
        h.query_all_by_label_contains("La conexión falló a las")
            .count()
    };
    step_until(&mut h, "test failed", |h| failed(h) == 2);
    assert!(
        has_text(&h, "rechazó el id o el secreto del cliente"),
        "why, in Spanish"
    );
    assert!(!has_text(&h, "client secret"), "no English in the message");
    // …not under a new profile's form, nor under another profile (only the top bar,
    // about the active profile, still says it).
    click(&mut h, "Nuevo perfil");
    assert_eq!(failed(&h), 1, "not under the blank form");
    assert!(!has_text(&h, "rechazó el id o el secreto"));
    h.get_all_by_label("Pruebas").last().unwrap().click();
    h.step();
    h.step();
    assert_eq!(failed(&h), 1, "not under another profile");
    // Back to the broken one: the top bar remembers the failure.
    activate(&mut h, "Pruebas");
    activate(&mut h, "Roto");
    assert!(
        has_text(&h, "La conexión falló a las"),
        "remembered for the session"
    );
    // On New invoice, an unknown customer is named beside the field, in Spanish; the
    // message goes when the profile changes.
    activate(&mut h, "Pruebas");
    click(&mut h, "Nueva factura");
    set_text(&mut h, "Id de cliente", "cus_nobody");
    set_text(&mut h, "Monto", "1000");
    click(&mut h, "Crear factura");
    step_until(&mut h, "refused", |h| {
        has_text(h, "No existe el cliente cus_nobody.")
    });
    assert!(
        !has_text(&h, "customer not found"),
        "the service's English stays in Details"
    );
    // Changing the customer clears it.
    set_text(&mut h, "Id de cliente", "cus_otro");
    assert!(!has_text(&h, "No existe el cliente"));
    set_text(&mut h, "Id de cliente", "cus_nobody");
    click(&mut h, "Crear factura");
    step_until(&mut h, "refused again", |h| {
        has_text(h, "No existe el cliente cus_nobody.")
    });
    activate(&mut h, "Roto");
    assert!(
        !has_text(&h, "No existe el cliente"),
        "gone with the profile it was about"
    );
    // Lookup: clearing the id clears the error about the old id.
    activate(&mut h, "Pruebas");
    click(&mut h, "Consultar y anular");
    set_text(&mut h, "Id de factura", "in_nada");
    click(&mut h, "Consultar");
    step_until(&mut h, "not found", |h| {
        has_text(h, "No existe factura con id in_nada")
    });
    set_text(&mut h, "Id de factura", "");
    assert!(!has_text(&h, "No existe factura"));
}
