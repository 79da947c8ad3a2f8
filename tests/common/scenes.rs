//! The panel snapshots, in a language and a theme. Each test binary uses one language
//! (it is process-wide): `ui_snapshots` English/light, `ui_spanish` Spanish/dark.
//! What changes from run to run (the token's expiry time, the fresh external reference)
//! is masked.

// Each helper module is used alone by some test crates and beside the others by more:
// each carries its own copy of the one skipping rule.
#[allow(clippy::duplicate_mod)]
#[path = "../skip/mod.rs"]
mod skip;

use super::{H, has_text, runtime, step_until};
use egui::accesskit::Role;
use egui_kittest::kittest::Queryable;
use invoice_desk::api::Currency;
use invoice_desk::i18n::{Lang, text};
use invoice_desk::profile::{Profile, ProfileAuth, Profiles, SecretStore};
use invoice_desk::sandbox::{Sandbox, SandboxConfig, data::ORG_OAUTH};
use invoice_desk::ui::AppDeps;

const SIZE: [f32; 2] = [1000.0, 640.0];

fn themed(mut h: H, theme: egui::Theme) -> H {
    h.ctx.set_theme(theme);
    h.step();
    h
}

fn click(h: &mut H, role: Role, label: &str) {
    h.get_by_role_and_label(role, label).click();
    h.step();
    h.step();
}

fn type_into(h: &mut H, label: &str, value: &str) {
    h.get_by_role_and_label(Role::TextInput, label).focus();
    h.step();
    h.get_by_role_and_label(Role::TextInput, label)
        .type_text(value);
    h.step();
}

/// Snapshots are made on Linux with llvmpipe. Windows (WARP) and macOS (Metal) runners
/// anti-alias a little differently: there, up to 1 % of the pixels (6,400 of 1000×640)
/// may differ — layout and texts are still compared.
fn snap(h: &mut H, name: &str) {
    use egui_kittest::{OsThreshold, SnapshotOptions};
    if !can_render() {
        return;
    }
    let options =
        SnapshotOptions::new().max_failed_pixels(OsThreshold::new(0).windows(6400).macos(6400));
    h.snapshot_options(name, &options);
}

/// Masks the token's expiry. A fixed width from the label's left edge: the text is longer
/// when the token expires on another day (a snapshot taken after 23:00), and a mask of
/// the text's own width would then differ.
fn mask_token(h: &mut H) {
    // "Token valid until …" in English, "Acceso vigente hasta …" in Spanish.
    let rect = ["Token", "Acceso"]
        .iter()
        .find_map(|word| h.query_all_by_label_contains(word).next().map(|n| n.rect()));
    if let Some(rect) = rect {
        h.mask(egui::Rect::from_min_size(
            rect.min,
            egui::vec2(360.0, rect.height()),
        ));
    }
}

/// The creation time's row: shown in the machine's time zone, so not the same on every
/// machine.
fn mask_created(h: &mut H) {
    let rect = h
        .query_all_by_label(&text("field-created-at"))
        .next()
        .map(|n| n.rect());
    if let Some(rect) = rect {
        h.mask(egui::Rect::from_min_size(
            rect.min,
            egui::vec2(420.0, rect.height()),
        ));
    }
}

fn deps(rt: &tokio::runtime::Runtime, store: SecretStore, lang: Lang) -> AppDeps {
    let mut d = AppDeps::for_tests(rt.handle().clone(), store);
    d.language = Some(lang);
    d
}

fn connected(rt: &tokio::runtime::Runtime, s: &Sandbox, lang: Lang, theme: egui::Theme) -> H {
    let h = super::connected_in(
        rt,
        s,
        &tempfile::tempdir().unwrap().keep(),
        Some(Currency::CLP),
        SIZE,
        lang,
    );
    themed(h, theme)
}

/// The first screen, with no profile.
pub fn welcome(lang: Lang, theme: egui::Theme, name: &str) {
    let rt = runtime();
    let mut h = themed(
        super::harness(deps(&rt, SecretStore::session_only("snapshot"), lang), SIZE),
        theme,
    );
    step_until(&mut h, "welcome", |h| has_text(h, &text("welcome-title")));
    snap(&mut h, name);
}

/// The credentials panel with a profile whose secret is not stored (no network needed).
pub fn credentials(lang: Lang, theme: egui::Theme, name: &str) {
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
    p.account_currency = Some(Currency::CLF);
    ps.upsert(None, p).unwrap();
    let path = tempfile::tempdir().unwrap().keep().join("profiles.toml");
    ps.save(&path).unwrap();
    let mut d = deps(
        &rt,
        SecretStore::with_store(keyring_core::mock::Store::new().unwrap()),
        lang,
    );
    d.profiles_path = Some(path);
    let mut h = themed(super::harness(d, SIZE), theme);
    step_until(&mut h, "connection attempt over", |h| {
        !h.state().is_connecting()
    });
    // The time of the failed check changes from run to run.
    let failed = invoice_desk::tr!("check-failed", time = "§", why = "§");
    let prefix = failed.split('§').next().unwrap_or_default().to_string();
    let rects: Vec<_> = h
        .query_all_by_label_contains(&prefix)
        .map(|n| n.rect())
        .collect();
    for r in rects {
        h.mask(r);
    }
    snap(&mut h, name);
}

/// The new-invoice form, filled in, with the amount read back.
pub fn new_invoice(lang: Lang, theme: egui::Theme, name: &str) {
    let rt = runtime();
    let s = rt
        .block_on(Sandbox::start(SandboxConfig::default()))
        .unwrap();
    let mut h = connected(&rt, &s, lang, theme);
    click(&mut h, Role::Button, &text("tab-create"));
    type_into(&mut h, &text("f-customer-id"), "cus_jsmvia3zdp");
    type_into(&mut h, &text("f-product-id"), "prod_asesoria");
    type_into(&mut h, &text("f-due-date"), "2026-12-31");
    type_into(&mut h, &text("f-amount"), "1.234.567");
    step_until(&mut h, "amount read", |h| has_text(h, "= $1.234.567"));
    mask_token(&mut h);
    let reference = h
        .get_by_role_and_label(Role::TextInput, &text("f-external-ref"))
        .rect();
    h.mask(reference);
    snap(&mut h, name);
}

/// An invoice of the sandbox, looked up.
pub fn lookup(lang: Lang, theme: egui::Theme, name: &str) {
    let rt = runtime();
    let s = rt
        .block_on(Sandbox::start(SandboxConfig::default()))
        .unwrap();
    let id = s.sample_invoice(ORG_OAUTH).unwrap();
    let mut h = connected(&rt, &s, lang, theme);
    click(&mut h, Role::Button, &text("tab-lookup"));
    type_into(&mut h, &text("f-invoice-id"), &id);
    click(&mut h, Role::Button, &text("lk-look-up"));
    step_until(&mut h, "invoice shown", |h| {
        has_text(h, &text("field-created-at"))
    });
    mask_token(&mut h);
    mask_created(&mut h);
    snap(&mut h, name);
}

/// A customer's invoices, listed.
pub fn customers(lang: Lang, theme: egui::Theme, name: &str) {
    let rt = runtime();
    let s = rt
        .block_on(Sandbox::start(SandboxConfig::default()))
        .unwrap();
    let customer = s.customers()[0].0.clone();
    let mut h = connected(&rt, &s, lang, theme);
    click(&mut h, Role::Button, &text("tab-customers"));
    type_into(&mut h, &text("f-customer-id"), &customer);
    click(&mut h, Role::Button, &text("cu-load"));
    step_until(&mut h, "listed", |h| {
        !h.state().customer_rows().0.is_empty() && !h.state().customers_loading()
    });
    mask_token(&mut h);
    snap(&mut h, name);
}

/// An invoice in US dollars (a sandbox that accepts USD), looked up. Its id and creation
/// time change from run to run and are masked.
pub fn usd_invoice(lang: Lang, theme: egui::Theme, name: &str) {
    let rt = runtime();
    let s = rt
        .block_on(Sandbox::start(SandboxConfig {
            currencies: vec![Currency::CLP, Currency::CLF, Currency::USD],
            ..Default::default()
        }))
        .unwrap();
    let client = invoice_desk::api::Client::new(s.profile("x").client_config(
        secrecy::SecretString::from(s.credentials.client_secret.clone()),
    ))
    .unwrap();
    let inv = rt
        .block_on(client.create_invoice(
            &invoice_desk::api::NewInvoice {
                customer: s.customers()[0].0.clone(),
                amount: "1234.5".parse().unwrap(),
                currency: invoice_desk::api::CurrencyChoice::Code(Currency::USD),
                due_date: Some("2027-01-05".into()),
                invoice_external_id: Some("ERP-USD-1".into()),
                ..Default::default()
            },
            None,
        ))
        .unwrap();
    let mut h = connected(&rt, &s, lang, theme);
    click(&mut h, Role::Button, &text("tab-lookup"));
    type_into(&mut h, &text("f-invoice-id"), &inv.id);
    click(&mut h, Role::Button, &text("lk-look-up"));
    step_until(&mut h, "invoice shown", |h| {
        has_text(h, &text("field-created-at"))
    });
    mask_token(&mut h);
    mask_created(&mut h);
    let created = inv
        .extra
        .get("created_at")
        .and_then(|v| v.as_str())
        .unwrap_or("-")
        .to_string();
    let field = h
        .get_by_role_and_label(Role::TextInput, &text("f-invoice-id"))
        .rect();
    h.mask(field);
    for changing in [inv.id.as_str(), created.as_str()] {
        let rects: Vec<_> = h
            .query_all_by_label_contains(changing)
            .map(|n| n.rect())
            .collect();
        for r in rects {
            h.mask(r);
        }
    }
    snap(&mut h, name);
}

/// A billing file read and checked in the Bulk issue panel: the mapping, the totals, the
/// rows with problems in red. The file is a fixture named by a relative path (tests run
/// in the package folder), so the path on screen is the same on every machine.
pub fn bulk(lang: Lang, theme: egui::Theme, name: &str) {
    let rt = runtime();
    let s = rt
        .block_on(Sandbox::start(SandboxConfig::default()))
        .unwrap();
    let mut h = connected(&rt, &s, lang, theme);
    click(&mut h, Role::Button, &text("tab-bulk"));
    type_into(&mut h, &text("bulk-file"), "tests/fixtures/enero.csv");
    click(&mut h, Role::Button, &text("bulk-read"));
    step_until(&mut h, "checked", |h| {
        h.state().bulk().loaded_plan().is_some()
    });
    mask_token(&mut h);
    snap(&mut h, name);
}

/// Whether wgpu finds an adapter here to render snapshots with (on Linux a Vulkan
/// driver: `mesa-vulkan-drivers`); asked once per process. Without one the snapshot is
/// skipped with one loud line (the scene itself still ran), unless
/// `INVOICE_DESK_TESTS_REQUIRE` names `vulkan` (CI sets it), when it fails.
fn can_render() -> bool {
    static HERE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    let here = *HERE.get_or_init(|| {
        std::panic::catch_unwind(|| {
            egui_kittest::wgpu::create_render_state(
                egui_kittest::wgpu::default_wgpu_setup(),
                Default::default(),
            );
        })
        .is_ok()
    });
    if !here {
        skip::unavailable(
            "vulkan",
            "wgpu finds no adapter here to render a snapshot (apt-get install mesa-vulkan-drivers)",
        );
    }
    here
}
