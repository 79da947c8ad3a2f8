//! Image snapshots of each panel, rendered with wgpu (software Vulkan in CI:
//! `mesa-vulkan-drivers`). Regenerate with `UPDATE_SNAPSHOTS=1 cargo test --test ui_snapshots`.
//! What changes from run to run (the token's expiry time, the fresh external reference)
//! is masked.

mod common;

use common::{H, has_text, runtime, step_until};
use egui::accesskit::Role;
use egui_kittest::kittest::Queryable;
use invoice_desk::api::Currency;
use invoice_desk::profile::{Profile, ProfileAuth, Profiles, SecretStore};
use invoice_desk::sandbox::{Sandbox, SandboxConfig, data::ORG_OAUTH};
use invoice_desk::ui::AppDeps;

const SIZE: [f32; 2] = [1000.0, 640.0];

fn harness(deps: AppDeps) -> H {
    common::harness(deps, SIZE)
}

fn has(h: &H, text: &str) -> bool {
    has_text(h, text)
}

fn click(h: &mut H, role: Role, label: &str) {
    h.get_by_role_and_label(role, label).click();
    h.step();
    h.step();
}

fn mask_token(h: &mut H) {
    let rect = h
        .query_all_by_label_contains("Token")
        .next()
        .map(|n| n.rect());
    if let Some(rect) = rect {
        h.mask(rect);
    }
}

/// An app connected to a sandbox (fixed seed, so the data is the same every run).
fn connected(rt: &tokio::runtime::Runtime, s: &Sandbox) -> H {
    common::connected(
        rt,
        s,
        &tempfile::tempdir().unwrap().keep(),
        Some(Currency::Clp),
        SIZE,
    )
}

#[test]
fn snapshot_welcome() {
    let rt = runtime();
    let mut h = harness(AppDeps::for_tests(
        rt.handle().clone(),
        SecretStore::session_only("snapshot"),
    ));
    step_until(&mut h, "welcome", |h| has(h, "Welcome to invoice-desk"));
    h.snapshot("welcome");
}

#[test]
fn snapshot_credentials() {
    let rt = runtime();
    let mut ps = Profiles::default();
    let mut p = Profile::empty("Producción");
    p.base_url = "https://api.example.cl".into();
    p.auth = ProfileAuth::OAuth {
        auth_url: "https://idp.example.cl".into(),
        audience: "https://api.example.cl".into(),
        client_id: "cliente-123".into(),
        body_style: Default::default(),
    };
    p.account_key = "acc_123".into();
    p.account_currency = Some(Currency::Clf);
    ps.upsert(None, p).unwrap();
    let path = tempfile::tempdir().unwrap().keep().join("profiles.toml");
    ps.save(&path).unwrap();
    let mut deps = AppDeps::for_tests(
        rt.handle().clone(),
        SecretStore::with_store(keyring_core::mock::Store::new().unwrap()),
    );
    deps.profiles_path = Some(path);
    let mut h = harness(deps);
    // No secret is stored: the top bar says so, without any network.
    step_until(&mut h, "no secret", |h| {
        has(h, "No client secret is stored")
    });
    h.snapshot("credentials");
}

#[test]
fn snapshot_new_invoice() {
    let rt = runtime();
    let s = rt
        .block_on(Sandbox::start(SandboxConfig::default()))
        .unwrap();
    let mut h = connected(&rt, &s);
    click(&mut h, Role::Button, "New invoice");
    for (label, text) in [
        ("Customer id", "cus_jsmvia3zdp"),
        ("Product id", "prod_asesoria"),
        ("Due date", "2026-12-31"),
        ("Amount", "1.234.567"),
    ] {
        h.get_by_role_and_label(Role::TextInput, label).focus();
        h.step();
        h.get_by_role_and_label(Role::TextInput, label)
            .type_text(text);
        h.step();
    }
    step_until(&mut h, "amount read", |h| has(h, "= $1.234.567"));
    mask_token(&mut h);
    let reference = h
        .get_by_role_and_label(Role::TextInput, "External reference")
        .rect();
    h.mask(reference);
    h.snapshot("new_invoice");
}

#[test]
fn snapshot_lookup() {
    let rt = runtime();
    let s = rt
        .block_on(Sandbox::start(SandboxConfig::default()))
        .unwrap();
    let id = s.sample_invoice(ORG_OAUTH).unwrap();
    let mut h = connected(&rt, &s);
    click(&mut h, Role::Button, "Lookup and void");
    h.get_by_role_and_label(Role::TextInput, "Invoice id")
        .focus();
    h.step();
    h.get_by_role_and_label(Role::TextInput, "Invoice id")
        .type_text(&id);
    h.step();
    click(&mut h, Role::Button, "Look up");
    step_until(&mut h, "invoice shown", |h| has(h, "created_at"));
    mask_token(&mut h);
    h.snapshot("lookup");
}

#[test]
fn snapshot_customers() {
    let rt = runtime();
    let s = rt
        .block_on(Sandbox::start(SandboxConfig::default()))
        .unwrap();
    let customer = s.customers()[0].0.clone();
    let mut h = connected(&rt, &s);
    click(&mut h, Role::Button, "Customer invoices");
    h.get_by_role_and_label(Role::TextInput, "Customer id")
        .focus();
    h.step();
    h.get_by_role_and_label(Role::TextInput, "Customer id")
        .type_text(&customer);
    h.step();
    click(&mut h, Role::Button, "Load invoices");
    step_until(&mut h, "listed", |h| has(h, "invoices of customer"));
    mask_token(&mut h);
    h.snapshot("customers");
}
