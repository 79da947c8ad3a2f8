//! Helpers shared by the UI tests: a runtime, the app in a kittest harness, an app already
//! connected to an in-process sandbox, and waiting for work to finish.
#![allow(dead_code)]

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use invoice_desk::api::Currency;
use invoice_desk::i18n::Lang;
use invoice_desk::profile::{Profiles, SecretKind, SecretStore};
use invoice_desk::sandbox::Sandbox;
use invoice_desk::ui::{AppDeps, InvoiceDeskApp};
use secrecy::SecretString;
use std::time::{Duration, Instant};

pub mod scenes;

/// The app in a harness.
pub type H = Harness<'static, InvoiceDeskApp>;

/// A small multi-thread runtime, as the app uses.
pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

/// The app, window of `size` points.
pub fn harness(mut deps: AppDeps, size: [f32; 2]) -> H {
    one_language(deps.language.unwrap_or(Lang::En));
    if deps.clock.fixed_day().is_none() {
        deps.clock = invoice_desk::ui::Clock::fixed(TODAY);
    }
    Harness::builder()
        .with_size(size)
        .build_eframe(move |cc| InvoiceDeskApp::new(cc, deps))
}

/// An app whose only profile ("Pruebas", OAuth) points at `s`, the secret in the mock
/// keyring, the profiles file in `dir`; returned once connected. English.
pub fn connected(
    rt: &tokio::runtime::Runtime,
    s: &Sandbox,
    dir: &std::path::Path,
    account_currency: Option<Currency>,
    size: [f32; 2],
) -> H {
    connected_in(rt, s, dir, account_currency, size, Lang::En)
}

/// As [`connected`], in the language `lang`.
pub fn connected_in(
    rt: &tokio::runtime::Runtime,
    s: &Sandbox,
    dir: &std::path::Path,
    account_currency: Option<Currency>,
    size: [f32; 2],
    lang: Lang,
) -> H {
    let mut profile = s.profile("Pruebas");
    profile.account_currency = account_currency;
    connected_to(rt, profile, &s.credentials.client_secret, dir, size, lang)
}

/// An app whose only profile is `profile` (OAuth), its client secret in the mock keyring,
/// the profiles file in `dir`; returned once connected.
pub fn connected_to(
    rt: &tokio::runtime::Runtime,
    profile: invoice_desk::profile::Profile,
    secret: &str,
    dir: &std::path::Path,
    size: [f32; 2],
    lang: Lang,
) -> H {
    connected_with_journal(rt, profile, secret, dir, size, lang, None)
}

/// As [`connected_to`], with the journal in the file `journal` (`None`: in memory).
pub fn connected_with_journal(
    rt: &tokio::runtime::Runtime,
    profile: invoice_desk::profile::Profile,
    secret: &str,
    dir: &std::path::Path,
    size: [f32; 2],
    lang: Lang,
    journal: Option<std::path::PathBuf>,
) -> H {
    restored(rt, profile, secret, dir, size, lang, journal, None)
}

/// What eframe keeps between runs, in memory: an app saves into it, the next one starts
/// from it (a restart).
#[derive(Clone, Default)]
pub struct Storage(pub std::collections::HashMap<String, String>);

impl eframe::Storage for Storage {
    fn get_string(&self, key: &str) -> Option<String> {
        self.0.get(key).cloned()
    }
    fn set_string(&mut self, key: &str, value: String) {
        self.0.insert(key.to_string(), value);
    }
    fn remove_string(&mut self, key: &str) {
        self.0.remove(key);
    }
    fn flush(&mut self) {}
}

/// What the app in `h` saves (as eframe does every few seconds and at exit).
pub fn saved(h: &mut H) -> Storage {
    let mut s = Storage::default();
    eframe::App::save(h.state_mut(), &mut s);
    s
}

/// As [`connected_with_journal`], started from `storage` (a restart), when given.
#[allow(clippy::too_many_arguments)]
pub fn restored(
    rt: &tokio::runtime::Runtime,
    profile: invoice_desk::profile::Profile,
    secret: &str,
    dir: &std::path::Path,
    size: [f32; 2],
    lang: Lang,
    journal: Option<std::path::PathBuf>,
    storage: Option<Storage>,
) -> H {
    customized(
        rt,
        profile,
        secret,
        dir,
        size,
        lang,
        journal,
        storage,
        |_| {},
    )
}

/// As [`restored`], with `change` applied to what the app is given.
#[allow(clippy::too_many_arguments)]
pub fn customized(
    rt: &tokio::runtime::Runtime,
    profile: invoice_desk::profile::Profile,
    secret: &str,
    dir: &std::path::Path,
    size: [f32; 2],
    lang: Lang,
    journal: Option<std::path::PathBuf>,
    storage: Option<Storage>,
    change: impl FnOnce(&mut AppDeps),
) -> H {
    let name = profile.name.clone();
    let mut ps = Profiles::default();
    ps.upsert(None, profile).unwrap();
    let path = dir.join("profiles.toml");
    ps.save(&path).unwrap();
    let store = SecretStore::with_store(keyring_core::mock::Store::new().unwrap());
    store.set(
        &name,
        SecretKind::ClientSecret,
        &SecretString::from(secret.to_string()),
    );
    let mut deps = AppDeps::for_tests(rt.handle().clone(), store);
    deps.profiles_path = Some(path);
    deps.language = Some(lang);
    deps.journal = journal;
    change(&mut deps);
    one_language(deps.language.unwrap_or(Lang::En));
    let mut h = match storage {
        None => harness(deps, size),
        Some(storage) => {
            // The harness lives for the test; so does what it was started from.
            let storage: &'static Storage = Box::leak(Box::new(storage));
            if deps.clock.fixed_day().is_none() {
                deps.clock = invoice_desk::ui::Clock::fixed(TODAY);
            }
            Harness::builder().with_size(size).build_eframe(move |cc| {
                cc.storage = Some(storage);
                InvoiceDeskApp::new(cc, deps)
            })
        }
    };
    step_until(&mut h, "connected", |h| h.state().session().is_some());
    h
}

/// Clicks the last button named `label` (a panel's own button after a tab of the same
/// name) and lets two frames pass.
pub fn click_last(h: &mut H, label: &str) {
    let n = h
        .query_all_by_role_and_label(egui::accesskit::Role::Button, label)
        .count();
    assert!(n > 0, "no button {label}");
    h.query_all_by_role_and_label(egui::accesskit::Role::Button, label)
        .nth(n - 1)
        .unwrap()
        .click();
    h.step();
    h.step();
}

/// True when the button named `label` (the last of that name) can be clicked.
pub fn enabled(h: &H, label: &str) -> bool {
    use egui_kittest::kittest::NodeT;
    h.query_all_by_role_and_label(egui::accesskit::Role::Button, label)
        .last()
        .is_some_and(|n| !n.accesskit_node().is_disabled())
}

/// The day every UI test counts overdue days on (the sandbox's seeded due dates run
/// from 2024-01-01 for 1,000 days), so snapshots and counts do not move with the calendar.
pub const TODAY: chrono::NaiveDate = match chrono::NaiveDate::from_ymd_opt(2026, 11, 23) {
    Some(d) => d,
    None => panic!("a real day"),
};

/// Steps the app until `done` holds (work happens on the runtime meanwhile), then lets
/// the layout settle for a few frames. Gives up after 20 s, or after
/// `INVOICE_DESK_TEST_PATIENCE` seconds (for slow runs: dist/windows-under-wine.sh).
pub fn step_until(h: &mut H, what: &str, done: impl Fn(&H) -> bool) {
    let patience = std::env::var("INVOICE_DESK_TEST_PATIENCE")
        .ok()
        .and_then(|s| s.parse().ok())
        .map_or(Duration::from_secs(20), Duration::from_secs);
    let start = Instant::now();
    loop {
        h.step();
        if done(h) {
            for _ in 0..4 {
                h.step();
            }
            return;
        }
        assert!(start.elapsed() < patience, "timed out waiting for: {what}");
        std::thread::sleep(Duration::from_millis(15));
    }
}

/// True when some widget's label contains `text`.
pub fn has_text(h: &H, text: &str) -> bool {
    h.query_all_by_label_contains(text).next().is_some()
}

/// The text of the first widget whose label contains `part` (its label, else its
/// value); panics when there is none.
pub fn text_containing(h: &H, part: &str) -> String {
    use egui_kittest::kittest::NodeT;
    let node = h
        .query_all_by_label_contains(part)
        .next()
        .unwrap_or_else(|| panic!("no widget says {part:?}"));
    let n = node.accesskit_node();
    n.label()
        .or_else(|| n.value())
        .unwrap_or_default()
        .to_string()
}

/// Clicks the button named `label` and lets two frames pass.
pub fn click(h: &mut H, label: &str) {
    h.get_by_role_and_label(egui::accesskit::Role::Button, label)
        .click();
    h.step();
    h.step();
}

/// Types `text` at the end of the field named `label`.
pub fn type_into(h: &mut H, label: &str, text: &str) {
    type_role(h, egui::accesskit::Role::TextInput, label, text);
}

/// Types `text` at the end of the field of `role` (a password field, say) named `label`.
pub fn type_role(h: &mut H, role: egui::accesskit::Role, label: &str, text: &str) {
    h.get_by_role_and_label(role, label).focus();
    h.step();
    h.get_by_role_and_label(role, label).type_text(text);
    h.step();
    h.step();
}

/// Replaces the text of the field named `label` (clicked, all selected, erased, typed).
pub fn set_text(h: &mut H, label: &str, text: &str) {
    set_role(h, egui::accesskit::Role::TextInput, label, text);
}

/// Replaces the text of the field of `role` (a password field, say) named `label`.
pub fn set_role(h: &mut H, role: egui::accesskit::Role, label: &str, text: &str) {
    h.get_by_role_and_label(role, label).click();
    h.step();
    h.step();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.step();
    h.key_press(egui::Key::Backspace);
    h.step();
    if !text.is_empty() {
        h.get_by_role_and_label(role, label).type_text(text);
    }
    h.step();
    h.step();
}

/// The text in the field named `label`.
pub fn field_text(h: &H, label: &str) -> String {
    use egui_kittest::kittest::NodeT;
    h.get_by_role_and_label(egui::accesskit::Role::TextInput, label)
        .accesskit_node()
        .value()
        .unwrap_or_default()
        .to_string()
}

/// Opens the combo box named `combo` and picks `option` in it.
pub fn pick(h: &mut H, combo: &str, option: &str) {
    h.get_by_role_and_label(egui::accesskit::Role::ComboBox, combo)
        .click();
    h.step();
    h.step();
    h.get_all_by_label(option).last().unwrap().click();
    h.step();
    h.step();
}

/// `n` with a thousands separator, as the app writes counts ("100,000" in English,
/// "100.000" in Spanish).
#[allow(dead_code)]
pub fn grouped(n: usize, sep: char) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(sep);
        }
        out.push(c);
    }
    out
}

/// The app's language is the process's (one app, one clerk): a test binary's apps all
/// speak the same one, or tests running side by side would read each other's words.
/// Asking for another in the same binary fails at once, loudly, instead of flaking.
pub fn one_language(lang: Lang) {
    static FIRST: std::sync::OnceLock<Lang> = std::sync::OnceLock::new();
    let first = *FIRST.get_or_init(|| lang);
    assert_eq!(
        first, lang,
        "this test binary's apps speak {first:?}; put a {lang:?} test in a binary of its own"
    );
}

/// The roles a screen reader lands on to act: each needs a name.
const INTERACTIVE: [egui::accesskit::Role; 12] = {
    use egui::accesskit::Role;
    [
        Role::Button,
        Role::CheckBox,
        Role::ComboBox,
        Role::TextInput,
        Role::MultilineTextInput,
        Role::PasswordInput,
        Role::SearchInput,
        Role::RadioButton,
        Role::Slider,
        Role::SpinButton,
        Role::Link,
        Role::Tab,
    ]
};

/// The interactive nodes on screen without a name (role and value, to say which).
pub fn unnamed_controls(h: &H) -> Vec<String> {
    use egui_kittest::kittest::NodeT;
    h.query_all(egui_kittest::kittest::by().predicate(|n| {
        INTERACTIVE.contains(&n.role()) && n.label().is_none_or(|l| l.trim().is_empty())
    }))
    .map(|n| {
        let n = n.accesskit_node();
        format!("{:?} {:?}", n.role(), n.value())
    })
    .collect()
}

/// #68 (7): an invoice created in `lang` (its status line a live region a screen reader
/// announces), then every panel — the customer's invoices and the receivables listed, the
/// activity with that invoice — with no control left without a name. `customer` has
/// invoices at the sandbox.
pub fn every_panel_named_and_a_creation_announced(h: &mut H, lang: Lang, customer: &str) {
    use egui::accesskit::{Live, Role};
    use egui_kittest::kittest::NodeT;
    let t = |key: &str| invoice_desk::i18n::text_in(lang, key);
    click(h, &t("tab-create"));
    set_text(h, &t("f-customer-id"), customer);
    set_text(h, &t("f-amount"), "12345");
    click(h, &t("cr-create"));
    let created = match lang {
        Lang::Es => "creada.",
        Lang::En => "created.",
    };
    step_until(h, "created", |h| has_text(h, created));
    let line = h.get_by_label_contains(created);
    assert_eq!(line.accesskit_node().live(), Live::Polite, "announced");
    let mut unnamed = Vec::new();
    let mut controls = 0;
    let mut look = |h: &mut H, panel: &str| {
        for _ in 0..3 {
            h.step();
        }
        controls += h
            .query_all(egui_kittest::kittest::by().predicate(|n| INTERACTIVE.contains(&n.role())))
            .count();
        unnamed.extend(
            unnamed_controls(h)
                .into_iter()
                .map(|u| format!("{panel}: {u}")),
        );
    };
    look(h, "create");
    let rows = |h: &H| h.query_all_by_role(Role::Row).count();
    for tab in [
        "tab-credentials",
        "tab-lookup",
        "tab-customers",
        "tab-receivables",
        "tab-activity",
        "tab-bulk",
    ] {
        click(h, &t(tab));
        match tab {
            "tab-customers" => {
                set_text(h, &t("f-customer-id"), customer);
                click(h, &t("cu-load"));
                step_until(h, "listed", |h| rows(h) > 1);
            }
            "tab-receivables" => {
                click(h, &t("rv-review"));
                step_until(h, "reviewed", |h| rows(h) > 1);
            }
            "tab-activity" => step_until(h, "the activity", |h| rows(h) > 1),
            _ => {}
        }
        look(h, tab);
    }
    assert!(unnamed.is_empty(), "controls without a name: {unnamed:#?}");
    // Seven panels of controls were looked at (the top bar's on each).
    assert!(controls > 150, "{controls} controls");
}
