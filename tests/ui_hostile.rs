//! The app against the hostile service: what it sends is shown escaped (a bidi override
//! cannot reorder a row, an escape sequence is visible as text), and absurd token
//! lifetimes do not break the session.

mod common;
#[path = "hostile_server/mod.rs"]
mod hostile_server;

use common::{H, click, has_text, runtime, step_until, type_into};
use egui_kittest::kittest::Queryable;
use hostile_server::{Api, Hostile, Token};
use invoice_desk::i18n::Lang;
use invoice_desk::profile::{Profile, ProfileAuth};

fn app(rt: &tokio::runtime::Runtime, h: &Hostile, dir: &std::path::Path) -> H {
    let profile = Profile {
        name: "Hostil".into(),
        base_url: h.url.clone(),
        auth: ProfileAuth::OAuth {
            auth_url: h.url.clone(),
            audience: "aud".into(),
            client_id: "id".into(),
            body_style: Default::default(),
        },
        account_key: String::new(),
        account_currency: None,
        currencies: invoice_desk::api::Currency::DEFAULT_OFFERED.to_vec(),
        sandbox: false,
        sender: Default::default(),
        mail: Default::default(),
    };
    common::connected_to(rt, profile, "secret", dir, [1100.0, 760.0], Lang::En)
}

fn raw_controls_shown(h: &H) -> Vec<String> {
    ["\u{1b}", "\u{202e}", "\u{9b}", "\r", "\u{7}"]
        .iter()
        .flat_map(|c| h.query_all_by_label_contains(c).map(|n| format!("{n:?}")))
        .collect()
}

#[test]
fn service_text_is_shown_escaped_in_the_table_lookup_and_errors() {
    let rt = runtime();
    let server = rt.block_on(Hostile::start(
        Token::ExpiresIn("1e300".into()),
        Api::Escapes,
    ));
    let dir = tempfile::tempdir().unwrap();
    let mut h = app(&rt, &server, dir.path());
    // A service error message with escapes.
    click(&mut h, "Lookup and void");
    type_into(&mut h, "Invoice id", "missing");
    click(&mut h, "Look up");
    step_until(&mut h, "error", |h| has_text(h, "There is no invoice"));
    // The service's words are under Details, escaped.
    h.get_by_label("Details").click();
    h.step();
    h.step();
    assert!(has_text(&h, "no such thing\\x1b]0;PWNED"), "shown, escaped");
    assert_eq!(raw_controls_shown(&h), Vec::<String>::new());
    // The listing, its totals, and a row opened in Lookup with every field.
    click(&mut h, "Customer invoices");
    type_into(&mut h, "Customer id", "cus_1");
    click(&mut h, "Load invoices");
    step_until(&mut h, "listing", |h| has_text(h, "1 invoice of customer"));
    assert!(has_text(&h, "in_\\x1b]0;PWNED"), "shown, escaped");
    assert_eq!(raw_controls_shown(&h), Vec::<String>::new());
    h.get_by_label_contains("in_\\x1b]0;PWNED").click();
    step_until(&mut h, "lookup", |h| {
        has_text(h, "invoice_external_id\\x1b")
    });
    assert_eq!(raw_controls_shown(&h), Vec::<String>::new());
}
