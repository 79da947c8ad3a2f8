//! The real app driven through egui_kittest against an in-process sandbox. Widgets are
//! found by their accessible labels.

mod common;

use common::{H, has_text, runtime, step_until, type_role};
use egui::accesskit::Role;
use egui_kittest::kittest::{NodeT, Queryable};
use invoice_desk::profile::{SecretKind, SecretStore};
use invoice_desk::sandbox::{Fault, Route, Sandbox, SandboxConfig};
use invoice_desk::ui::{AppDeps, Tab};
use secrecy::{ExposeSecret, SecretString};
use std::sync::Arc;

struct Env {
    rt: tokio::runtime::Runtime,
    sandbox: Sandbox,
    dir: tempfile::TempDir,
}

fn env(big: usize) -> Env {
    let rt = runtime();
    let sandbox = rt
        .block_on(Sandbox::start(SandboxConfig {
            big_customer_invoices: big,
            ..Default::default()
        }))
        .unwrap();
    Env {
        rt,
        sandbox,
        dir: tempfile::tempdir().unwrap(),
    }
}

const SIZE: [f32; 2] = [1100.0, 760.0];

/// An app whose profile points at the sandbox, connected.
fn connected(e: &Env, account_currency: Option<invoice_desk::api::Currency>) -> H {
    common::connected(&e.rt, &e.sandbox, e.dir.path(), account_currency, SIZE)
}

fn wait_text(h: &mut H, text: &str) {
    let t = text.to_string();
    step_until(h, text, move |h| has_text(h, &t));
}

fn type_into(h: &mut H, label: &str, text: &str) {
    type_role(h, Role::TextInput, label, text);
}

fn click(h: &mut H, label: &str) {
    click_role(h, Role::Button, label);
}

fn click_role(h: &mut H, role: Role, label: &str) {
    h.get_by_role_and_label(role, label).click();
    h.step();
    h.step();
}

/// Opens Customer invoices and loads the big customer's `n` invoices.
fn load_big(h: &mut H, n: usize) {
    click(h, "Customer invoices");
    type_into(h, "Customer id", "cus_big");
    click(h, "Load invoices");
    wait_text(
        h,
        &format!("{} invoices of customer cus_big", common::grouped(n, ',')),
    );
}

fn button_enabled(h: &H, label: &str) -> bool {
    !h.get_by_role_and_label(Role::Button, label)
        .accesskit_node()
        .is_disabled()
}

fn pick(h: &mut H, combo: &str, option: &str) {
    h.get_by_role_and_label(Role::ComboBox, combo).click();
    h.step();
    h.step();
    h.get_all_by_label(option).last().unwrap().click();
    h.step();
    h.step();
}

#[test]
fn try_the_sandbox_and_issue_an_invoice() {
    let e = env(0);
    let store = SecretStore::with_store(keyring_core::mock::Store::new().unwrap());
    let mut h = common::harness(AppDeps::for_tests(e.rt.handle().clone(), store), SIZE);
    h.step();
    assert!(has_text(&h, "Welcome to invoice-desk"));
    click(&mut h, "Try the sandbox");
    step_until(&mut h, "sandbox connected", |h| {
        h.state().session().is_some()
    });
    assert_eq!(h.state().tab(), Tab::Create);
    assert!(
        h.state()
            .profiles()
            .get("Sandbox")
            .is_some_and(|p| p.sandbox)
    );
    // The built-in sandbox's profile says "built-in" for its address: the UF's value is
    // read from the sandbox's CMF routes all the same (Credentials says it).
    click(&mut h, "Credentials");
    step_until(&mut h, "the UF's value from the built-in sandbox", |h| {
        h.query_all_by_label_contains("UF on ").next().is_some()
    });
    assert!(
        h.query_by_label_contains("is not an https address")
            .is_none()
    );
    click(&mut h, "New invoice");
    type_into(&mut h, "Amount", "15.000");
    assert!(has_text(&h, "= $15.000 (the account's currency, CLP)"));
    click(&mut h, "Create invoice");
    wait_text(&mut h, "created.");
    assert!(
        !button_enabled(&h, "Create invoice"),
        "no second invoice by accident"
    );
}

/// A newcomer trying the sandbox finds its customers by name: the sandbox's customers
/// are in the directory with their names and RUTs, as if imported.
#[test]
fn the_sandboxs_customers_are_found_by_name_and_rut() {
    let e = env(0);
    let store = SecretStore::with_store(keyring_core::mock::Store::new().unwrap());
    let mut h = common::harness(AppDeps::for_tests(e.rt.handle().clone(), store), SIZE);
    h.step();
    click(&mut h, "Try the sandbox");
    step_until(&mut h, "sandbox connected", |h| {
        h.state().session().is_some()
    });
    common::set_text(&mut h, "Customer id", "nunoa");
    step_until(&mut h, "found by name, without its accents", |h| {
        has_text(h, "Comercial Ñuñoa Ltda.")
    });
    // By RUT too, as the suggestion shows it.
    let shown = h
        .query_all_by_label_contains("Comercial Ñuñoa Ltda. · ")
        .filter_map(|n| n.accesskit_node().label())
        .next()
        .unwrap_or_default();
    let rut = shown
        .split(" · ")
        .nth(1)
        .unwrap_or_else(|| panic!("a RUT in {shown}"))
        .to_string();
    common::set_text(&mut h, "Customer id", &rut);
    step_until(&mut h, "found by RUT", |h| {
        has_text(h, "Comercial Ñuñoa Ltda.")
    });
}

#[test]
fn add_a_profile_save_and_test_the_connection() {
    let e = env(0);
    let mock = keyring_core::mock::Store::new().unwrap();
    let store = SecretStore::with_store(mock.clone());
    let mut deps = AppDeps::for_tests(e.rt.handle().clone(), store);
    let path = e.dir.path().join("profiles.toml");
    deps.profiles_path = Some(path.clone());
    let mut h = common::harness(deps, SIZE);
    h.step();
    click(&mut h, "Add a profile");
    let s = &e.sandbox;
    type_into(&mut h, "Name", "Producción");
    type_into(&mut h, "Base URL", &s.base_url);
    type_into(&mut h, "Auth URL", &s.auth_url);
    type_into(&mut h, "Audience", &s.audience);
    type_into(&mut h, "Client id", &s.credentials.client_id);
    type_role(
        &mut h,
        Role::PasswordInput,
        "Client secret",
        &s.credentials.client_secret,
    );
    type_into(&mut h, "Account key", &s.credentials.account_clf);
    click(&mut h, "Save");
    wait_text(&mut h, "Saved. Secrets are in the system keyring");
    step_until(&mut h, "connected", |h| h.state().session().is_some());
    click(&mut h, "Test connection");
    wait_text(&mut h, "Connection works");
    let file = std::fs::read_to_string(&path).unwrap();
    assert!(
        file.contains("Producción") && !file.contains(&s.credentials.client_secret),
        "{file}"
    );
    let entry = keyring_core::api::CredentialStoreApi::build(
        &*mock,
        "invoice-desk",
        "Producción/client_secret",
        None,
    )
    .unwrap();
    assert_eq!(entry.get_password().unwrap(), s.credentials.client_secret);
}

#[test]
fn a_missing_keyring_keeps_the_secret_for_this_session_and_says_so() {
    let e = env(0);
    let mut deps = AppDeps::for_tests(
        e.rt.handle().clone(),
        SecretStore::with_store(Arc::new(FailingStore)),
    );
    let path = e.dir.path().join("profiles.toml");
    deps.profiles_path = Some(path.clone());
    let mut h = common::harness(deps, SIZE);
    h.step();
    click(&mut h, "Add a profile");
    let s = &e.sandbox;
    type_into(&mut h, "Name", "Sin llavero");
    type_into(&mut h, "Base URL", &s.base_url);
    click_role(&mut h, Role::RadioButton, "API key");
    type_role(
        &mut h,
        Role::PasswordInput,
        "API key",
        &s.credentials.api_key,
    );
    type_into(&mut h, "Account key", &s.credentials.key_account_clp);
    click(&mut h, "Save");
    wait_text(&mut h, "there is no system keyring");
    step_until(&mut h, "connected", |h| h.state().session().is_some());
    click(&mut h, "Test connection");
    wait_text(&mut h, "The API key was accepted");
    let file = std::fs::read_to_string(&path).unwrap();
    assert!(
        !file.contains(&s.credentials.api_key),
        "never a plain-text fallback: {file}"
    );
}

#[test]
fn create_in_account_currency_and_clf_then_look_up_and_void() {
    let e = env(0);
    let mut h = connected(&e, Some(invoice_desk::api::Currency::CLP));
    click(&mut h, "New invoice");
    let customer = e.sandbox.customers()[0].0.clone();
    type_into(&mut h, "Customer id", &customer);
    type_into(&mut h, "Amount", "1.234.567");
    click(&mut h, "Create invoice");
    wait_text(&mut h, "created.");
    assert!(has_text(&h, "Chilean pesos (CLP)"));
    click(&mut h, "Issue another invoice");
    pick(&mut h, "Currency", "UF (CLF)");
    type_into(&mut h, "Amount", "12,3456");
    assert!(has_text(&h, "= UF 12,3456 CLF"));
    click(&mut h, "Create invoice");
    wait_text(&mut h, "created.");
    // The currency by the name a clerk reads, not "currency CLF" (#49), nor "CLF" (#68).
    assert!(h.query_all_by_label("UF").next().is_some());
    assert!(!has_text(&h, "currency CLF"));
    click(&mut h, "Open in Lookup");
    step_until(&mut h, "lookup", |h| h.state().tab() == Tab::Lookup);
    wait_text(&mut h, "Created");
    click(&mut h, "Void…");
    wait_text(&mut h, "Void this invoice?");
    let title = h.get_by_label("Void this invoice?");
    assert_eq!(
        title.accesskit_node().live(),
        egui::accesskit::Live::Assertive,
        "the confirmation is announced"
    );
    assert!(has_text(&h, &customer));
    click(&mut h, "Void invoice");
    wait_text(&mut h, "was voided");
    assert!(!button_enabled(&h, "Void…"));
}

/// After a create the locked form shows the reference the invoice was made with, not the
/// fresh one it already holds for the next (read there, it passed for the created
/// invoice's); "Issue another invoice" shows that fresh one.
#[test]
fn the_locked_form_shows_the_reference_the_invoice_was_made_with() {
    let e = env(0);
    let mut h = connected(&e, Some(invoice_desk::api::Currency::CLP));
    click(&mut h, "New invoice");
    type_into(&mut h, "Customer id", &e.sandbox.customers()[1].0);
    type_into(&mut h, "Amount", "9.900");
    let used = common::field_text(&h, "External reference");
    assert!(!used.is_empty());
    click(&mut h, "Create invoice");
    wait_text(&mut h, "created.");
    assert_eq!(common::field_text(&h, "External reference"), used);
    assert!(!button_enabled(&h, "New reference"));
    click(&mut h, "Issue another invoice");
    let next = common::field_text(&h, "External reference");
    assert!(!next.is_empty() && next != used, "{next} after {used}");
}

#[test]
fn customer_list_arrives_in_pages_and_a_row_opens_in_lookup() {
    let e = env(2500);
    let mut h = connected(&e, None);
    load_big(&mut h, 2500);
    assert_eq!(e.sandbox.counters().api["list"], 3, "three pages");
    assert!(has_text(&h, "2,500 shown of 2,500"));
    click_role(&mut h, Role::CheckBox, "Hide voided");
    let (rows, view) = h.state().customer_rows();
    let voids = (0..rows.len() as u32)
        .filter(|&i| rows.get(i).status() == invoice_desk::api::InvoiceStatus::Void)
        .count();
    assert_eq!(view.order.len(), 2500 - voids);
    let first = rows.get(view.order[0]).id.clone();
    h.get_by_label(&first).click();
    step_until(&mut h, "opened in lookup", |h| {
        h.state().tab() == Tab::Lookup
    });
    wait_text(&mut h, "Created");
}

#[test]
fn a_large_list_is_sorted_on_a_worker_while_the_ui_stays_live() {
    let e = env(25_000);
    let mut h = connected(&e, None);
    load_big(&mut h, 25000);
    click(&mut h, "Amount");
    assert!(
        h.state().customer_view_pending(),
        "25,000 rows are sorted off the UI thread"
    );
    assert_eq!(
        h.state().customer_sort(),
        (invoice_desk::ui::customers::SortKey::Amount, true),
        "the header shows the new order at once"
    );
    step_until(&mut h, "sorted", |h| !h.state().customer_view_pending());
    let (rows, view) = h.state().customer_rows();
    assert_eq!(view.order.len(), 25_000);
    let amounts: Vec<_> = view.order.iter().map(|&i| rows.get(i).amount).collect();
    assert!(amounts.windows(2).all(|w| w[0] <= w[1]), "sorted by amount");
}

#[test]
fn bad_amounts_are_refused_before_sending() {
    let e = env(0);
    let mut h = connected(&e, Some(invoice_desk::api::Currency::CLP));
    click(&mut h, "New invoice");
    type_into(&mut h, "Customer id", "cus_x");
    type_into(&mut h, "Amount", "12,5");
    assert!(has_text(&h, "CLP amounts have no decimals"));
    assert!(!button_enabled(&h, "Create invoice"));
    pick(&mut h, "Currency", "UF (CLF)");
    h.get_by_role_and_label(Role::TextInput, "Amount").focus();
    h.step();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.step();
    h.get_by_role_and_label(Role::TextInput, "Amount")
        .type_text("1.234");
    h.step();
    h.step();
    assert!(
        has_text(&h, "ambiguous"),
        "1.234 in UF could be 1234 or 1,234"
    );
    assert!(!button_enabled(&h, "Create invoice"));
    assert_eq!(
        e.sandbox.counters().api.get("create"),
        None,
        "nothing was sent"
    );
}

#[test]
fn a_422_is_shown_beside_its_field() {
    let e = env(0);
    // The account currency is not known to the app, so 10,5 is sent; the CLP account refuses.
    let mut h = connected(&e, None);
    click(&mut h, "New invoice");
    type_into(&mut h, "Customer id", &e.sandbox.customers()[0].0);
    type_into(&mut h, "Amount", "10,5");
    click(&mut h, "Create invoice");
    wait_text(&mut h, "The service did not accept this value");
    assert!(has_text(
        &h,
        "The service did not accept the data. Check: Amount."
    ));
    // The service's own words are under Details.
    h.get_by_label("Details").click();
    h.step();
    h.step();
    assert!(has_text(&h, "CLP amounts must be whole pesos"));
    let node = h.get_by_label_contains("The service did not accept this value");
    assert_eq!(
        node.accesskit_node().live(),
        egui::accesskit::Live::Assertive,
        "errors are announced"
    );
}

#[test]
fn an_unknown_outcome_is_checked_never_resent() {
    let e = env(0);
    let mut h = connected(&e, Some(invoice_desk::api::Currency::CLP));
    click(&mut h, "New invoice");
    type_into(&mut h, "Customer id", &e.sandbox.customers()[0].0);
    type_into(&mut h, "Amount", "7.000");
    e.sandbox.add_fault(Fault::reset(Route::Create, 1));
    click(&mut h, "Create invoice");
    wait_text(&mut h, "no answer came back");
    assert!(
        !button_enabled(&h, "Create invoice"),
        "no resend until checked"
    );
    click(&mut h, "Check whether it was created");
    wait_text(&mut h, "It was created: invoice");
    assert_eq!(e.sandbox.counters().api["create"], 1);
}

/// A keyring that refuses every access, like a locked or absent one.
#[derive(Debug)]
struct FailingStore;

impl keyring_core::api::CredentialStoreApi for FailingStore {
    fn vendor(&self) -> String {
        "failing test store".into()
    }
    fn id(&self) -> String {
        "failing".into()
    }
    fn build(
        &self,
        _service: &str,
        _user: &str,
        _mods: Option<&std::collections::HashMap<&str, &str>>,
    ) -> keyring_core::Result<keyring_core::Entry> {
        Err(keyring_core::Error::NoStorageAccess(
            "the keyring is locked".into(),
        ))
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

#[test]
fn secrets_do_not_leak_into_debug_output() {
    let store = SecretStore::session_only("test");
    store.set(
        "p",
        SecretKind::ApiKey,
        &SecretString::from("very-secret-key"),
    );
    assert!(!format!("{store:?}").contains("very-secret-key"));
    assert_eq!(
        store
            .get("p", SecretKind::ApiKey)
            .unwrap()
            .unwrap()
            .expose_secret(),
        "very-secret-key"
    );
}

fn keys(h: &mut H, m: egui::Modifiers, k: egui::Key) {
    h.key_press_modifiers(m, k);
    h.step();
    h.step();
}

fn typed(h: &mut H, text: &str) {
    h.event(egui::Event::Text(text.to_string()));
    h.step();
    h.step();
}

#[test]
fn create_and_look_up_with_the_keyboard_only() {
    let e = env(0);
    let mut h = connected(&e, Some(invoice_desk::api::Currency::CLP));
    let none = egui::Modifiers::NONE;
    keys(&mut h, egui::Modifiers::COMMAND, egui::Key::N);
    assert_eq!(h.state().tab(), Tab::Create);
    typed(&mut h, &e.sandbox.customers()[0].0);
    keys(&mut h, none, egui::Key::Tab);
    typed(&mut h, "prod_asesoria");
    keys(&mut h, none, egui::Key::Tab);
    typed(&mut h, "2026-12-31");
    assert!(has_text(&h, "= Thursday 31 December 2026"));
    // Past the calendar and the three quick choices.
    for _ in 0..5 {
        keys(&mut h, none, egui::Key::Tab);
    }
    typed(&mut h, "25.000");
    assert!(has_text(&h, "= $25.000"));
    keys(&mut h, egui::Modifiers::COMMAND, egui::Key::Enter);
    wait_text(&mut h, "created.");
    let created = common::text_containing(&h, " created.");
    let invoice_id = created
        .trim_start_matches("Invoice ")
        .trim_end_matches(" created.")
        .to_string();
    keys(&mut h, egui::Modifiers::COMMAND, egui::Key::L);
    assert_eq!(h.state().tab(), Tab::Lookup);
    typed(&mut h, &invoice_id);
    keys(&mut h, egui::Modifiers::COMMAND, egui::Key::Enter);
    wait_text(&mut h, "Created");
    assert!(has_text(&h, &invoice_id));
}

/// Presses Tab until the button `label` has the keyboard focus.
fn tab_to(h: &mut H, label: &str) {
    tab_to_role(h, Role::Button, label);
}

/// Presses Tab until the widget `role`/`label` has the keyboard focus.
fn tab_to_role(h: &mut H, role: Role, label: &str) {
    for _ in 0..40 {
        if h.query_by_role_and_label(role, label)
            .is_some_and(|n| n.is_focused())
        {
            return;
        }
        keys(h, egui::Modifiers::NONE, egui::Key::Tab);
    }
    panic!("Tab never reached {label}");
}

#[test]
fn void_and_list_with_the_keyboard_only() {
    let e = env(0);
    let mut h = connected(&e, Some(invoice_desk::api::Currency::CLP));
    let id = e
        .sandbox
        .sample_invoice(invoice_desk::sandbox::data::ORG_OAUTH)
        .unwrap();
    keys(&mut h, egui::Modifiers::COMMAND, egui::Key::L);
    typed(&mut h, &id);
    keys(&mut h, egui::Modifiers::COMMAND, egui::Key::Enter);
    wait_text(&mut h, "Created");
    tab_to(&mut h, "Void…");
    keys(&mut h, egui::Modifiers::NONE, egui::Key::Enter);
    wait_text(&mut h, "Void this invoice?");
    tab_to(&mut h, "Void invoice");
    keys(&mut h, egui::Modifiers::NONE, egui::Key::Enter);
    wait_text(&mut h, "was voided");
    // Ctrl+E with nothing listed leads to the customer field.
    keys(&mut h, egui::Modifiers::COMMAND, egui::Key::E);
    assert_eq!(h.state().tab(), Tab::Customers);
    typed(&mut h, &e.sandbox.customers()[0].0);
    keys(&mut h, egui::Modifiers::COMMAND, egui::Key::Enter);
    step_until(&mut h, "listed", |h| {
        !h.state().customer_rows().0.is_empty() && !h.state().customers_loading()
    });
}

#[test]
fn add_a_profile_with_the_keyboard_only() {
    let e = env(0);
    let store = SecretStore::with_store(keyring_core::mock::Store::new().unwrap());
    let mut h = common::harness(AppDeps::for_tests(e.rt.handle().clone(), store), SIZE);
    h.step();
    tab_to(&mut h, "Add a profile");
    keys(&mut h, egui::Modifiers::NONE, egui::Key::Enter);
    let s = &e.sandbox;
    tab_to_role(&mut h, Role::TextInput, "Name");
    typed(&mut h, "Teclado");
    for (role, label, value) in [
        (Role::TextInput, "Base URL", s.base_url.as_str()),
        (Role::TextInput, "Auth URL", s.auth_url.as_str()),
        (Role::TextInput, "Audience", s.audience.as_str()),
        (
            Role::TextInput,
            "Client id",
            s.credentials.client_id.as_str(),
        ),
        (
            Role::PasswordInput,
            "Client secret",
            s.credentials.client_secret.as_str(),
        ),
        (
            Role::TextInput,
            "Account key",
            s.credentials.account_clp.as_str(),
        ),
    ] {
        tab_to_role(&mut h, role, label);
        typed(&mut h, value);
    }
    tab_to(&mut h, "Save");
    keys(&mut h, egui::Modifiers::NONE, egui::Key::Enter);
    wait_text(&mut h, "Saved. Secrets are in the system keyring");
    step_until(&mut h, "connected", |h| h.state().session().is_some());
}

#[test]
fn work_finishes_while_its_panel_is_hidden() {
    let e = env(2500);
    let mut h = connected(&e, None);
    click(&mut h, "Customer invoices");
    type_into(&mut h, "Customer id", "cus_big");
    click(&mut h, "Load invoices");
    // Away at once: the listing goes on, and its pages are taken by the app's logic.
    click(&mut h, "Credentials");
    step_until(&mut h, "listing done while hidden", |h| {
        !h.state().customers_loading()
    });
    assert_eq!(h.state().tab(), Tab::Credentials);
    assert_eq!(h.state().customer_rows().0.len(), 2500);
}

#[test]
fn create_says_what_is_missing_then_focus_goes_to_the_result_and_lookup_leads_back() {
    let e = env(5);
    let mut h = connected(&e, Some(invoice_desk::api::Currency::CLP));
    click(&mut h, "New invoice");
    assert!(!button_enabled(&h, "Create invoice"));
    assert!(has_text(
        &h,
        "To create the invoice, fill in: Customer id, Amount."
    ));
    type_into(&mut h, "Customer id", &e.sandbox.customers()[0].0);
    type_into(&mut h, "Amount", "1000");
    click(&mut h, "Create invoice");
    wait_text(&mut h, "created.");
    let open = h.get_by_role_and_label(Role::Button, "Open in Lookup");
    assert!(
        open.accesskit_node().is_focused(),
        "the keyboard goes on from the result"
    );
    // From the customer list, Lookup offers the way back.
    load_big(&mut h, 5);
    let (rows, view) = h.state().customer_rows();
    let first = rows.get(view.order[0]).id.clone();
    h.get_by_label(&first).click();
    step_until(&mut h, "lookup", |h| h.state().tab() == Tab::Lookup);
    click(&mut h, "Back to the list");
    assert_eq!(h.state().tab(), Tab::Customers);
}

#[test]
fn help_diagnostics_shows_the_self_check_with_copy() {
    let e = env(0);
    let mut h = connected(&e, None);
    click(&mut h, "Help");
    click(&mut h, "Diagnostics…");
    wait_text(&mut h, "a test secret was written, read back and deleted");
    assert!(has_text(&h, "Certificates"));
    click(&mut h, "Copy");
    click(&mut h, "Close");
    assert!(!has_text(&h, "a test secret was written"));
}

#[test]
fn choosing_the_active_profile_again_keeps_the_list_and_deleting_it_clears_the_panels() {
    let e = env(0);
    let mut h = connected(&e, None);
    click(&mut h, "Customer invoices");
    let customer = e.sandbox.customers()[0].0.clone();
    type_into(&mut h, "Customer id", &customer);
    click(&mut h, "Load invoices");
    wait_text(&mut h, &format!("invoices of customer {customer}"));
    let rows = h.state().customer_rows().0.len();
    assert!(rows > 0);
    // The same profile chosen again in the top bar: nothing is cleared.
    pick(&mut h, "Profile", "Pruebas");
    assert_eq!(h.state().customer_rows().0.len(), rows);
    assert!(h.state().session().is_some());
    // Deleting the active profile: what the panels showed came from its service.
    click(&mut h, "Credentials");
    click(&mut h, "Delete…");
    wait_text(&mut h, "Delete profile?");
    click(&mut h, "Delete profile");
    step_until(&mut h, "disconnected", |h| h.state().session().is_none());
    assert_eq!(h.state().customer_rows().0.len(), 0, "the list is cleared");
    assert!(h.state().profiles().active.is_none());
}

// ---- Bulk issue ----

/// `n` rows for `customer` in a file whose amount column is headed "Importe" (not a
/// name the app knows) and with a "Notes" column.
fn billing_file(dir: &std::path::Path, customer: &str, n: usize) -> std::path::PathBuf {
    let mut text = String::from("Customer,Importe,Notes,Reference\n");
    for i in 1..=n {
        text.push_str(&format!("{customer},{},note {i},JAN-{i}\n", 1000 + i));
    }
    let path = dir.join("january.csv");
    std::fs::write(&path, text).unwrap();
    path
}

/// Reads `file` (made by [`billing_file`]) in Bulk issue and maps its two columns the
/// app does not recognise: Importe as the amount, Notes as not used.
fn read_and_map(h: &mut H, file: &std::path::Path) {
    click(h, "Bulk issue");
    type_into(h, "File", &file.display().to_string());
    click(h, "Read and check");
    wait_text(h, "Columns not recognised: Importe, Notes.");
    pick(h, "Importe", "Amount");
    wait_text(h, "Columns not recognised: Notes.");
    pick(h, "Notes", "Not used");
}

/// Creates the sandbox has received.
fn creates(e: &Env) -> u64 {
    e.sandbox.counters().api.get("create").copied().unwrap_or(0)
}

fn bulk_counts(h: &H) -> invoice_desk::bulk::run::Counts {
    h.state().bulk().counts().unwrap_or_default()
}

#[test]
fn bulk_issue_maps_columns_pauses_stops_and_resumes_without_issuing_twice() {
    let e = env(0);
    let customer = e.sandbox.customers()[0].0.clone();
    let file = billing_file(e.dir.path(), &customer, 24);
    let mut h = connected(&e, Some(invoice_desk::api::Currency::CLP));
    click(&mut h, "Bulk issue");
    type_into(&mut h, "File", &file.display().to_string());
    click(&mut h, "Read and check");
    wait_text(&mut h, "Columns not recognised: Importe, Notes.");
    assert!(!has_text(&h, "Issue 24 invoices…"));
    // The columns' choices in one line whatever each says (#68: a column marked
    // "not recognised" pushed the ones after it down 3–5 points).
    let tops = |h: &H| -> Vec<f64> {
        use egui_kittest::kittest::NodeT;
        ["Customer", "Importe", "Notes", "Reference"]
            .iter()
            .map(|c| {
                h.get_by_role_and_label(egui::accesskit::Role::ComboBox, c)
                    .accesskit_node()
                    .raw_bounds()
                    .map_or(0.0, |b| b.y0)
            })
            .collect()
    };
    let line = tops(&h);
    assert!(line.iter().all(|y| *y == line[0]), "{line:?}");
    // The clerk says what the columns are.
    pick(&mut h, "Importe", "Amount");
    // Checked again with the new mapping before the next column is chosen.
    wait_text(&mut h, "Columns not recognised: Notes.");
    assert_eq!(tops(&h), line, "nothing moved");
    pick(&mut h, "Notes", "Not used");
    wait_text(&mut h, "24 invoices to 1 customer: $24.300");
    assert_eq!(tops(&h), line, "nothing moved");
    // Slow enough to pause half-way: 4 at a time, 300 ms each.
    e.sandbox.set_latency(std::time::Duration::from_millis(300));
    click(&mut h, "Issue 24 invoices…");
    wait_text(&mut h, "Issue 24 invoices: $24.300 to 1 customer?");
    click(&mut h, "Issue them");
    click(&mut h, "Pause");
    wait_text(&mut h, "Paused: requests already on their way finish");
    // What was on its way settles; then no row is on its way and none starts while
    // paused (a row counts as working before it looks at the pause again).
    step_until(&mut h, "nothing in flight", |h| {
        h.state().bulk().is_paused() && h.state().bulk().working() == 0
    });
    step_until(&mut h, "the settled rows shown", |h| {
        bulk_counts(h).done() as u64 == creates(&e)
    });
    let paused = bulk_counts(&h).done();
    assert!(paused <= 8, "{paused} rows settled while paused");
    h.step();
    assert_eq!(bulk_counts(&h).done(), paused, "nothing sent while paused");
    assert_eq!(creates(&e), paused as u64, "no request sent while paused");
    click(&mut h, "Resume");
    step_until(&mut h, "more sent", |h| bulk_counts(h).done() >= paused + 4);
    click(&mut h, "Stop sending");
    wait_text(&mut h, "Finished:");
    let first = bulk_counts(&h);
    assert!(first.not_sent > 0 && first.created > paused, "{first:?}");
    assert_eq!(first.created + first.not_sent, 24, "{first:?}");
    assert!(has_text(&h, "Not sent"));
    // Running the same file again issues only what was not sent: the journal says
    // which rows are issued, and only the others are counted and confirmed.
    e.sandbox.set_latency(std::time::Duration::ZERO);
    click(&mut h, "Read and check");
    // Read again, the file keeps the columns as the clerk mapped them.
    let again = match first.not_sent {
        1 => "Issue 1 invoice…".to_string(),
        n => format!("Issue {n} invoices…"),
    };
    wait_text(&mut h, &again);
    assert!(has_text(
        &h,
        &format!(
            "{} rows are already issued according to the journal",
            first.created
        )
    ));
    click(&mut h, &again);
    // The confirmation's totals are those of the rows this run issues, not the file's
    // (it asked "Issue 9 invoices: $24.300" after a resume).
    let client = invoice_desk::api::Client::new(e.sandbox.profile("x").client_config(
        SecretString::from(e.sandbox.credentials.client_secret.clone()),
    ))
    .unwrap();
    let issued: u64 =
        e.rt.block_on(client.customer_invoices(&customer))
            .unwrap()
            .into_iter()
            .filter(|i| {
                i.invoice_external_id
                    .as_deref()
                    .is_some_and(|r| r.starts_with("JAN-"))
            })
            .map(|i| u64::try_from(i.amount.unwrap().mantissa()).unwrap())
            .sum();
    let left = invoice_desk::api::money::format_amount((24_300 - issued).into(), Some("CLP"));
    let asked = match first.not_sent {
        1 => format!("Issue 1 invoice: {left} to 1 customer?"),
        n => format!("Issue {n} invoices: {left} to 1 customer?"),
    };
    wait_text(&mut h, &asked);
    click(&mut h, "Issue them");
    wait_text(&mut h, "Finished:");
    let second = bulk_counts(&h);
    assert_eq!(second.existing, first.created, "{second:?}");
    assert_eq!(second.created, first.not_sent, "{second:?}");
    let client = invoice_desk::api::Client::new(e.sandbox.profile("x").client_config(
        SecretString::from(e.sandbox.credentials.client_secret.clone()),
    ))
    .unwrap();
    let mut refs: Vec<String> =
        e.rt.block_on(client.customer_invoices(&customer))
            .unwrap()
            .into_iter()
            .filter_map(|i| i.invoice_external_id)
            .filter(|r| r.starts_with("JAN-"))
            .collect();
    refs.sort();
    let before = refs.len();
    refs.dedup();
    assert_eq!((before, refs.len()), (24, 24), "each row once");
}

/// A service whose answers grow slow during a run: the panel says the run sends fewer
/// at once, and why (#51).
#[test]
fn a_billing_run_says_when_it_sends_fewer_at_once_because_the_service_is_slow() {
    let e = env(0);
    let customer = e.sandbox.customers()[0].0.clone();
    let file = billing_file(e.dir.path(), &customer, 120);
    let mut h = connected(&e, Some(invoice_desk::api::Currency::CLP));
    read_and_map(&mut h, &file);
    wait_text(&mut h, "120 invoices to 1 customer");
    e.sandbox.set_latency(std::time::Duration::from_millis(10));
    click(&mut h, "Issue 120 invoices…");
    wait_text(&mut h, "Issue 120 invoices:");
    click(&mut h, "Issue them");
    assert!(!has_text(&h, "The service is answering slowly"));
    step_until(&mut h, "16 rows sent quickly", |_| creates(&e) >= 16);
    e.sandbox.set_latency(std::time::Duration::from_millis(150));
    wait_text(&mut h, "The service is answering slowly:");
    click(&mut h, "Stop sending");
    wait_text(&mut h, "Finished:");
}

/// A billing file read and its columns mapped, then the app closed before any run: the
/// next start has the file's path, and reading it again applies the columns as mapped.
#[test]
fn the_billing_file_and_its_columns_survive_a_restart_before_any_run() {
    let e = env(0);
    let customer = e.sandbox.customers()[0].0.clone();
    let file = billing_file(e.dir.path(), &customer, 24);
    let profile = {
        let mut p = e.sandbox.profile("Pruebas");
        p.account_currency = Some(invoice_desk::api::Currency::CLP);
        p
    };
    let start = |storage| {
        common::restored(
            &e.rt,
            profile.clone(),
            &e.sandbox.credentials.client_secret,
            e.dir.path(),
            SIZE,
            invoice_desk::i18n::Lang::En,
            None,
            storage,
        )
    };
    let mut h = start(None);
    read_and_map(&mut h, &file);
    wait_text(&mut h, "24 invoices to 1 customer: $24.300");
    let storage = common::saved(&mut h);
    drop(h);
    let mut h = start(Some(storage));
    click(&mut h, "Bulk issue");
    assert_eq!(
        common::field_text(&h, "File"),
        file.display().to_string(),
        "the path typed"
    );
    click(&mut h, "Read and check");
    wait_text(&mut h, "24 invoices to 1 customer: $24.300");
    assert!(!has_text(&h, "Columns not recognised"), "mapped as before");
    assert_eq!(creates(&e), 0, "nothing sent");
}

#[test]
fn an_interrupted_billing_run_is_offered_at_start_and_resumed() {
    let e = env(0);
    let customer = e.sandbox.customers()[0].0.clone();
    let mut text = String::from("customer,amount,reference\n");
    for i in 1..=3 {
        text.push_str(&format!("{customer},{i}000,FEB-{i}\n"));
    }
    let file = e.dir.path().join("february.csv");
    std::fs::write(&file, &text).unwrap();
    let journal = e.dir.path().join("journal.sqlite3");
    {
        // What a run cut short leaves behind.
        let mut j = invoice_desk::journal::Journal::open(&journal).unwrap();
        let id = invoice_desk::bulk::file_id(text.as_bytes());
        j.start_run(&file, &id, "Pruebas", &e.sandbox.base_url, 3, None)
            .unwrap();
    }
    let mut h = common::connected_with_journal(
        &e.rt,
        e.sandbox.profile("Pruebas"),
        &e.sandbox.credentials.client_secret,
        e.dir.path(),
        SIZE,
        invoice_desk::i18n::Lang::En,
        Some(journal.clone()),
    );
    wait_text(&mut h, "A billing run of february.csv");
    click(&mut h, "Open it to resume");
    wait_text(&mut h, "Issue 3 invoices…");
    assert_eq!(h.state().tab(), Tab::Bulk);
    click(&mut h, "Issue 3 invoices…");
    // The service's listing is read first, and that is said (a count stuck at 0 was).
    e.sandbox.add_fault(invoice_desk::sandbox::Fault::slow(
        invoice_desk::sandbox::Route::List,
        1,
        1500,
    ));
    click(&mut h, "Issue them");
    wait_text(
        &mut h,
        "Reading what the service already has of 1 customer (0 of 1)…",
    );
    wait_text(&mut h, "Finished: 3 issued");
    assert!(!has_text(&h, "A billing run of february.csv"));
    let j = invoice_desk::journal::Journal::open(&journal).unwrap();
    assert!(j.interrupted_runs().unwrap().is_empty());
}

/// The customer's statement: overdue in words, the aging per currency (a click shows one
/// bucket), the status filter, and the date and amount ranges (a bad one says why and
/// changes nothing).
#[test]
fn overdue_aging_buckets_and_filters() {
    use invoice_desk::receivables::aging::{Bucket, Standing, StatusKind};
    let e = env(2500);
    let mut h = connected(&e, None);
    load_big(&mut h, 2500);
    assert!(has_text(&h, "Owed, by days past due"));
    assert!(has_text(&h, "By month due, last 24 months"));
    let today = common::TODAY;
    let standing = |h: &H, i: u32| Standing::of(h.state().customer_rows().0.get(i), today);
    // The rows drawn say how late they are, in words.
    let (rows, view) = h.state().customer_rows();
    let late = view
        .order
        .iter()
        .take(10)
        .find_map(|&i| match Standing::of(rows.get(i), today) {
            Standing::Overdue(d) => Some(d),
            _ => None,
        })
        .expect("an overdue invoice among the first rows");
    assert!(has_text(&h, &format!("Overdue · {late} days")));
    // A bucket: the table shows exactly its invoices.
    let cell = view.aging.by_currency["CLP"][Bucket::Days31To60.index()];
    assert!(cell.count > 0, "the seed has CLP invoices 31–60 days late");
    h.get_by_label_contains("31–60 days CLP:").click();
    step_until(&mut h, "bucket shown", |h| {
        h.state().customer_rows().1.order.len() as u64 == cell.count
    });
    assert!(has_text(&h, "Only 31–60 days (CLP)"));
    let (rows, view) = h.state().customer_rows();
    assert!(view.order.iter().all(|&i| {
        let inv = rows.get(i);
        inv.currency_code.as_deref() == Some("CLP")
            && matches!(Standing::of(inv, today), Standing::Overdue(31..=60))
    }));
    assert_eq!(
        view.totals["CLP"].value(),
        cell.total.value(),
        "exact total"
    );
    click(&mut h, "Show all");
    step_until(&mut h, "all again", |h| {
        h.state().customer_rows().1.order.len() == 2500
    });
    // A bucket belongs to the list it was clicked on: loading again shows every row.
    h.get_by_label_contains("31–60 days CLP:").click();
    step_until(&mut h, "bucket again", |h| has_text(h, "Only 31–60 days"));
    click(&mut h, "Load invoices");
    step_until(&mut h, "reloaded", |h| {
        h.state().customer_rows().1.order.len() == 2500 && !h.state().customers_loading()
    });
    assert!(!has_text(&h, "Only 31–60 days"));
    // Status: only paid.
    pick_status(&mut h, "Paid");
    step_until(&mut h, "paid only", |h| {
        let v = &h.state().customer_rows().1;
        !v.order.is_empty() && v.order.len() < 2500
    });
    let view = h.state().customer_rows().1.clone();
    assert!(
        view.order
            .iter()
            .all(|&i| standing(&h, i).kind() == StatusKind::Paid)
    );
    let paid = view.order.len();
    // A range that does not read: said beside the filters, nothing changes.
    type_into(&mut h, "Due from", "2026-02-30");
    h.key_press(egui::Key::Enter);
    h.step();
    h.step();
    assert!(has_text(&h, "“2026-02-30” is not a date"));
    assert_eq!(h.state().customer_rows().1.order.len(), paid);
    // A good range: every row shown falls in it and is paid.
    h.get_by_role_and_label(Role::TextInput, "Due from").focus();
    h.step();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.get_by_role_and_label(Role::TextInput, "Due from")
        .type_text("2025-01-01");
    h.step();
    type_into(&mut h, "Due to", "2025-03-31");
    type_into(&mut h, "Amount from", "1.000.000");
    h.key_press(egui::Key::Enter);
    step_until(&mut h, "ranges applied", |h| {
        let v = &h.state().customer_rows().1;
        v.order.len() < paid && !has_text(h, "is not a date")
    });
    let (rows, view) = h.state().customer_rows();
    assert!(!view.order.is_empty());
    for &i in &view.order {
        let inv = rows.get(i);
        let due = inv.due_date.as_deref().unwrap();
        assert!(("2025-01-01"..="2025-03-31").contains(&due), "{due}");
        assert!(inv.amount.unwrap() >= rust_decimal::Decimal::from(1_000_000));
        assert_eq!(Standing::of(inv, today), Standing::Paid);
    }
    click(&mut h, "Clear filters");
    step_until(&mut h, "cleared", |h| {
        h.state().customer_rows().1.order.len() == 2500
    });
}

/// Chooses a status in the filter (the chart's legend has a "Paid" too: a checkbox).
fn pick_status(h: &mut H, option: &str) {
    h.get_by_role_and_label(Role::ComboBox, "Status").click();
    h.step();
    h.step();
    h.get_by_role_and_label(Role::Button, option).click();
    h.step();
    h.step();
}

#[test]
fn a_100k_list_is_filtered_on_a_worker() {
    use invoice_desk::receivables::aging::{Standing, StatusKind};
    let e = env(100_000);
    let mut h = connected(&e, None);
    load_big(&mut h, 100000);
    pick_status(&mut h, "Overdue");
    assert!(
        h.state().customer_view_pending(),
        "100,000 rows are filtered off the UI thread"
    );
    step_until(&mut h, "filtered", |h| !h.state().customer_view_pending());
    let (rows, view) = h.state().customer_rows();
    let want = (0..rows.len() as u32)
        .filter(|&i| Standing::of(rows.get(i), common::TODAY).kind() == StatusKind::Overdue)
        .count();
    assert!(want > 0);
    assert_eq!(view.order.len(), want);
}

#[test]
fn a_payment_link_is_copied_and_opened_in_the_browser() {
    use invoice_desk::ui::external::External;
    let e = env(3);
    let opened = Arc::new(std::sync::Mutex::new(Vec::<External>::new()));
    let recorded = opened.clone();
    let mut h = common::customized(
        &e.rt,
        e.sandbox.profile("Pruebas"),
        &e.sandbox.credentials.client_secret,
        e.dir.path(),
        SIZE,
        invoice_desk::i18n::Lang::En,
        None,
        None,
        move |deps| {
            deps.opener = Some(Arc::new(move |what: &External| {
                recorded.lock().unwrap().push(what.clone());
                Ok(())
            }));
        },
    );
    load_big(&mut h, 3);
    let (rows, view) = h.state().customer_rows();
    let inv = rows.get(view.order[0]).clone();
    let link = inv.link_payment.clone().unwrap();
    assert!(link.starts_with("https://"), "{link}");
    h.get_by_label(&inv.id).click();
    step_until(&mut h, "opened in lookup", |h| {
        h.state().tab() == Tab::Lookup
    });
    wait_text(&mut h, "Open payment link");
    h.get_by_role_and_label(Role::Button, "Open payment link")
        .click();
    let asked = opened.clone();
    step_until(&mut h, "the browser asked", move |_| {
        !asked.lock().unwrap().is_empty()
    });
    assert_eq!(*opened.lock().unwrap(), [External::Link(link.clone())]);
    // Where the invoice's buttons are before a message appears above them.
    let before = h
        .get_by_role_and_label(Role::Button, "Copy payment link")
        .rect();
    h.get_by_role_and_label(Role::Button, "Copy payment link")
        .click();
    h.step();
    let copied = h
        .output()
        .platform_output
        .commands
        .iter()
        .any(|c| matches!(c, egui::OutputCommand::CopyText(t) if *t == link));
    assert!(copied, "{:?}", h.output().platform_output.commands);
    wait_text(&mut h, "The payment link was copied.");
    // The message's line was kept for it: the invoice did not move.
    assert_eq!(
        h.get_by_role_and_label(Role::Button, "Copy payment link")
            .rect(),
        before
    );
}

/// The New invoice panel in English: a look-alike asks, showing the earlier invoice;
/// Cancel sends nothing.
#[test]
fn a_look_alike_asks_first_and_cancel_sends_nothing() {
    let e = env(0);
    let mut h = connected(&e, Some(invoice_desk::api::Currency::CLP));
    click(&mut h, "New invoice");
    type_into(&mut h, "Customer id", &e.sandbox.customers()[3].0);
    type_into(&mut h, "Amount", "8.800");
    click(&mut h, "Create invoice");
    wait_text(&mut h, "created.");
    click(&mut h, "Issue another invoice");
    type_into(&mut h, "Amount", "8.800");
    click(&mut h, "Create invoice");
    wait_text(&mut h, "Looks repeated: in_");
    assert!(has_text(&h, "Issue it anyway?"));
    // Who issued it, and where it stands at the service now.
    assert!(has_text(&h, "Issued by "));
    assert!(has_text(&h, "at the service it is now open."));
    click(&mut h, "Cancel");
    assert!(!has_text(&h, "Looks repeated"));
    assert_eq!(e.sandbox.counters().api["create"], 1);
    // Voided meanwhile (at the service): the question says so.
    let client = invoice_desk::api::Client::new(e.sandbox.profile("x").client_config(
        SecretString::from(e.sandbox.credentials.client_secret.clone()),
    ))
    .unwrap();
    let first =
        e.rt.block_on(client.customer_invoices(&e.sandbox.customers()[3].0))
            .unwrap()
            .into_iter()
            .max_by(|a, b| a.created_at().cmp(&b.created_at()))
            .unwrap();
    e.rt.block_on(client.void_invoice(&first.id)).unwrap();
    click(&mut h, "Create invoice");
    wait_text(&mut h, "at the service it is now void.");
    click(&mut h, "Cancel");
    assert_eq!(e.sandbox.counters().api["create"], 1);
    assert!(
        button_enabled(&h, "Create invoice"),
        "the form is the clerk's again"
    );
}

/// A create without a reference whose answer was lost: "I checked: send it again" is a
/// decision the journal records (the entry stops being "to check").
#[test]
fn sending_again_after_a_check_is_a_journaled_decision() {
    let e = env(0);
    let journal = e.dir.path().join("journal.sqlite3");
    let mut h = common::connected_with_journal(
        &e.rt,
        e.sandbox.profile("Pruebas"),
        &e.sandbox.credentials.client_secret,
        e.dir.path(),
        SIZE,
        invoice_desk::i18n::Lang::En,
        Some(journal.clone()),
    );
    click(&mut h, "New invoice");
    type_into(&mut h, "Customer id", &e.sandbox.customers()[0].0);
    type_into(&mut h, "Amount", "6.100");
    common::set_text(&mut h, "External reference", "");
    e.sandbox.add_fault(Fault::status(Route::Create, 1, 502));
    click(&mut h, "Create invoice");
    step_until(&mut h, "unknown", |h| {
        h.state().journal_to_check() == Some(1)
    });
    click(&mut h, "I checked: send it again");
    step_until(&mut h, "the decision recorded", |h| {
        h.state().journal_to_check() == Some(0)
    });
    let j = invoice_desk::journal::Journal::open(&journal).unwrap();
    let e0 = j.list(&Default::default(), true, 0, 1).unwrap().remove(0);
    assert_eq!(e0.outcome, invoice_desk::journal::Outcome::Refused);
    assert_eq!(e0.error_kind.as_deref(), Some("ClerkCheckedNotCreated"));
    assert!(button_enabled(&h, "Create invoice"));
}

/// A billing run resumed from the notice reads the file with the columns as the clerk
/// mapped them when it started.
#[test]
fn a_resumed_run_keeps_its_column_mapping() {
    use invoice_desk::bulk::{ColumnUse, Field};
    let e = env(0);
    let customer = e.sandbox.customers()[0].0.clone();
    let file = billing_file(e.dir.path(), &customer, 3);
    let journal = e.dir.path().join("journal.sqlite3");
    {
        let mut j = invoice_desk::journal::Journal::open(&journal).unwrap();
        let header: Vec<String> = ["Customer", "Importe", "Notes", "Reference"]
            .map(str::to_string)
            .to_vec();
        let mapping = invoice_desk::bulk::mapping_text(
            &header,
            &[
                ColumnUse::Field(Field::Customer),
                ColumnUse::Field(Field::Amount),
                ColumnUse::Ignore,
                ColumnUse::Field(Field::Reference),
            ],
        );
        j.start_run(
            &file,
            "x",
            "Pruebas",
            &e.sandbox.base_url,
            3,
            Some(&mapping),
        )
        .unwrap();
    }
    let mut h = common::connected_with_journal(
        &e.rt,
        e.sandbox.profile("Pruebas"),
        &e.sandbox.credentials.client_secret,
        e.dir.path(),
        SIZE,
        invoice_desk::i18n::Lang::En,
        Some(journal),
    );
    wait_text(&mut h, "A billing run of january.csv");
    click(&mut h, "Open it to resume");
    wait_text(&mut h, "Issue 3 invoices…");
    assert!(!has_text(&h, "Columns not recognised"));
}

/// Closing the window while a billing run sends asks first; "Stay in the app" keeps it.
#[test]
fn closing_while_a_run_sends_asks_first() {
    let e = env(0);
    let customer = e.sandbox.customers()[0].0.clone();
    let file = billing_file(e.dir.path(), &customer, 40);
    let mut h = connected(&e, Some(invoice_desk::api::Currency::CLP));
    read_and_map(&mut h, &file);
    wait_text(&mut h, "Issue 40 invoices…");
    e.sandbox.add_fault(Fault::slow(Route::Create, 1000, 200));
    click(&mut h, "Issue 40 invoices…");
    click(&mut h, "Issue them");
    step_until(&mut h, "sending", |h| h.state().in_flight());
    h.input_mut()
        .viewports
        .entry(egui::ViewportId::ROOT)
        .or_default()
        .events
        .push(egui::ViewportEvent::Close);
    h.step();
    h.step();
    wait_text(&mut h, "Close invoice-desk?");
    assert!(has_text(&h, "A billing run is sending invoices"));
    click(&mut h, "Stay in the app");
    assert!(!has_text(&h, "Close invoice-desk?"));
    assert!(h.state().in_flight(), "still sending");
    click(&mut h, "Stop sending");
    step_until(&mut h, "stopped", |h| !h.state().in_flight());
}

/// A reference the journal has as issued as an invoice the service does not have (a
/// journal restored from an old copy; on a desk, a row recorded by hand): New invoice
/// says so, with who recorded it, instead of "already issued" for good; the clerk issues
/// it with one deliberate click, and the decision is journaled.
#[test]
fn a_reference_recorded_as_an_invoice_the_service_lacks_can_be_issued_with_a_decision() {
    use invoice_desk::journal::{Action, Claimed, Guard, Intent, Journal, Settled};
    let e = env(0);
    let journal = e.dir.path().join("journal.sqlite3");
    let customer = e.sandbox.customers()[0].0.clone();
    let p = e.sandbox.profile("Pruebas");
    {
        let inv = invoice_desk::api::NewInvoice {
            customer: customer.clone(),
            amount: 7000.into(),
            currency: invoice_desk::api::CurrencyChoice::AccountDefault,
            product_id: None,
            due_date: None,
            invoice_external_id: Some("OLD-COPY-1".into()),
            metadata: None,
            extra: Default::default(),
        };
        let intent = Intent::for_create(&p.name, &p.base_url, Some(&p.account_key), &inv);
        let mut j = Journal::open(&journal).unwrap();
        let Claimed::Claimed(seq) = j.claim(Action::Create, &intent, &Guard::default()).unwrap()
        else {
            panic!("not claimed")
        };
        j.record_outcome(seq, &Settled::done(Some("in_restored000001".into())))
            .unwrap();
    }
    let mut h = common::connected_with_journal(
        &e.rt,
        p,
        &e.sandbox.credentials.client_secret,
        e.dir.path(),
        SIZE,
        invoice_desk::i18n::Lang::En,
        Some(journal.clone()),
    );
    click(&mut h, "New invoice");
    type_into(&mut h, "Customer id", &customer);
    type_into(&mut h, "Amount", "8.000");
    common::set_text(&mut h, "External reference", "OLD-COPY-1");
    click(&mut h, "Create invoice");
    step_until(&mut h, "the service lacks it, said", |h| {
        has_text(h, "was issued as invoice in_restored000001")
            && has_text(h, "the service has no such invoice")
    });
    assert_eq!(
        e.sandbox.counters().api.get("create").copied().unwrap_or(0),
        0
    );
    click(
        &mut h,
        "It was never issued: issue it now (your decision is written in the journal)",
    );
    step_until(&mut h, "issued", |h| has_text(h, "created"));
    assert_eq!(e.sandbox.references()["OLD-COPY-1"].len(), 1);
    let j = Journal::open(&journal).unwrap();
    let latest = j.list(&Default::default(), true, 0, 1).unwrap().remove(0);
    assert_eq!(
        latest.decision.as_deref(),
        Some("issued-although-missing:in_restored000001")
    );
    assert_eq!(j.verify().unwrap(), Ok(4));
}

/// Practice is apart from real money: what "Try the sandbox" makes — its invoices, its
/// customers in the directory, the sandbox's own UF values — goes to a practice journal
/// of its own (beside this computer's, with its own search index), and this computer's
/// journal, which every real profile and the command line read, holds none of it.
#[test]
fn the_sandboxs_practice_never_reaches_the_real_journal() {
    use invoice_desk::journal::Journal;
    let e = env(0);
    let store = SecretStore::with_store(keyring_core::mock::Store::new().unwrap());
    let mut deps = AppDeps::for_tests(e.rt.handle().clone(), store);
    let real = e.dir.path().join("journal.sqlite3");
    deps.journal = Some(real.clone());
    let mut h = common::harness(deps, SIZE);
    h.step();
    click(&mut h, "Try the sandbox");
    step_until(&mut h, "sandbox connected", |h| {
        h.state().session().is_some()
    });
    click(&mut h, "Credentials");
    step_until(&mut h, "the sandbox's UF read and kept", |h| {
        h.query_all_by_label_contains("UF on ").next().is_some()
    });
    click(&mut h, "New invoice");
    type_into(&mut h, "Amount", "15.000");
    click(&mut h, "Create invoice");
    wait_text(&mut h, "created.");
    let practice = invoice_desk::journal::practice_file(Some(&real)).unwrap();
    let days = (
        chrono::NaiveDate::from_ymd_opt(2000, 1, 1).unwrap(),
        chrono::NaiveDate::from_ymd_opt(2100, 1, 1).unwrap(),
    );
    let kept = |path: &std::path::Path| {
        let j = Journal::open(path).unwrap();
        (
            j.count(&Default::default()).unwrap(),
            j.uf_values(days.0, days.1).unwrap().len(),
            j.known_customers(1000).unwrap().len(),
        )
    };
    let (entries, ufs, customers) = kept(&practice);
    assert_eq!(
        entries, 1,
        "the practice invoice is in the practice journal"
    );
    assert!(ufs > 0 && customers > 0, "{ufs} {customers}");
    assert_eq!(kept(&real), (0, 0, 0), "practice reached the real journal");
    // The practice journal's search index is its own.
    assert_eq!(
        invoice_desk::search::index::place_for(Some(&practice)),
        Some(practice.with_file_name(invoice_desk::journal::INDEX_FILE))
    );
}

/// #68 (7): in English, every control of every panel has a name, and a created
/// invoice's status line is announced (a live region).
#[test]
fn every_control_has_a_name_and_a_created_invoice_is_announced() {
    let rt = runtime();
    let s = rt
        .block_on(Sandbox::start(SandboxConfig {
            big_customer_invoices: 3,
            ..Default::default()
        }))
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut h = common::connected(&rt, &s, dir.path(), None, [1100.0, 760.0]);
    common::every_panel_named_and_a_creation_announced(
        &mut h,
        invoice_desk::i18n::Lang::En,
        "cus_big",
    );
}
