//! Image snapshots of each panel in English with the light theme, rendered with wgpu
//! (software Vulkan in CI: `mesa-vulkan-drivers`). Regenerate with
//! `UPDATE_SNAPSHOTS=1 cargo test --test ui_snapshots`.

mod common;

use common::scenes;
use invoice_desk::i18n::Lang;

const L: egui::Theme = egui::Theme::Light;

#[test]
#[cfg_attr(
    tests_lack = "vulkan",
    ignore = "needs a Vulkan driver (apt-get install mesa-vulkan-drivers)"
)]
fn snapshot_welcome() {
    scenes::welcome(Lang::En, L, "en_light_welcome");
}

#[test]
#[cfg_attr(
    tests_lack = "vulkan",
    ignore = "needs a Vulkan driver (apt-get install mesa-vulkan-drivers)"
)]
fn snapshot_credentials() {
    scenes::credentials(Lang::En, L, "en_light_credentials");
}

#[test]
#[cfg_attr(
    tests_lack = "vulkan",
    ignore = "needs a Vulkan driver (apt-get install mesa-vulkan-drivers)"
)]
fn snapshot_new_invoice() {
    scenes::new_invoice(Lang::En, L, "en_light_new_invoice");
}

#[test]
#[cfg_attr(
    tests_lack = "vulkan",
    ignore = "needs a Vulkan driver (apt-get install mesa-vulkan-drivers)"
)]
fn snapshot_lookup() {
    scenes::lookup(Lang::En, L, "en_light_lookup");
}

#[test]
#[cfg_attr(
    tests_lack = "vulkan",
    ignore = "needs a Vulkan driver (apt-get install mesa-vulkan-drivers)"
)]
fn snapshot_customers() {
    scenes::customers(Lang::En, L, "en_light_customers");
}

#[test]
#[cfg_attr(
    tests_lack = "vulkan",
    ignore = "needs a Vulkan driver (apt-get install mesa-vulkan-drivers)"
)]
fn snapshot_usd_invoice() {
    scenes::usd_invoice(Lang::En, L, "en_light_usd_invoice");
}

#[test]
#[cfg_attr(
    tests_lack = "vulkan",
    ignore = "needs a Vulkan driver (apt-get install mesa-vulkan-drivers)"
)]
fn snapshot_bulk() {
    scenes::bulk(Lang::En, L, "en_light_bulk");
}
