//! The CLI binary as the tests run it: none of the caller's INVOICE_DESK_* settings,
//! profiles and journal in the test's own folder, no OS keyring.

use std::path::Path;

/// `invoice-desk` with a clean environment kept in `dir`.
pub fn cli(dir: &Path) -> std::process::Command {
    let mut c = std::process::Command::new(assert_cmd::cargo::cargo_bin("invoice-desk"));
    for (k, _) in std::env::vars() {
        if k.starts_with("INVOICE_DESK_") {
            c.env_remove(k);
        }
    }
    c.env("INVOICE_DESK_CONFIG_DIR", dir)
        .env("INVOICE_DESK_JOURNAL", dir.join("journal.sqlite3"))
        .env("INVOICE_DESK_KEYRING", "none");
    c
}
