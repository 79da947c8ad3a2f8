//! Image snapshots of each panel in English with the light theme, rendered with wgpu
//! (software Vulkan in CI: `mesa-vulkan-drivers`). Regenerate with
//! `UPDATE_SNAPSHOTS=1 cargo test --test ui_snapshots`.

mod common;

use common::scenes;
use invoice_desk::i18n::Lang;

const L: egui::Theme = egui::Theme::Light;

#[test]
fn snapshot_welcome() {
    scenes::welcome(Lang::En, L, "en_light_welcome");
}

#[test]
fn snapshot_credentials() {
    scenes::credentials(Lang::En, L, "en_light_credentials");
}

#[test]
fn snapshot_new_invoice() {
    scenes::new_invoice(Lang::En, L, "en_light_new_invoice");
}

#[test]
fn snapshot_lookup() {
    scenes::lookup(Lang::En, L, "en_light_lookup");
}

#[test]
fn snapshot_customers() {
    scenes::customers(Lang::En, L, "en_light_customers");
}

#[test]
fn snapshot_usd_invoice() {
    scenes::usd_invoice(Lang::En, L, "en_light_usd_invoice");
}

#[test]
fn snapshot_bulk() {
    scenes::bulk(Lang::En, L, "en_light_bulk");
}
