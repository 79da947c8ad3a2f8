//! One rule for a test whose real component is not on this computer (PostgreSQL, a
//! Vulkan driver, the PDF readers, libfaketime, postfix): it is skipped with one loud
//! line, written past the test harness's capture so it shows even when the test passes,
//! unless `INVOICE_DESK_TESTS_REQUIRE` names it (or `all`), as CI does: then it fails.
//! Included by each helper module that starts or finds such a component.
#![allow(dead_code)]

/// Whether `INVOICE_DESK_TESTS_REQUIRE` names `what`.
pub fn required(what: &str) -> bool {
    std::env::var("INVOICE_DESK_TESTS_REQUIRE")
        .unwrap_or_default()
        .split(',')
        .any(|t| t.trim() == what || t.trim() == "all")
}

/// `what` cannot be used here, for the reason `why` (which names the package that
/// installs it): fails when it is required, else says `SKIPPED: why` and gives false.
pub fn unavailable(what: &str, why: &str) -> bool {
    assert!(
        !required(what),
        "{what} is required (INVOICE_DESK_TESTS_REQUIRE) and cannot be used here: {why}"
    );
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED: {why}; a test that needs it did not run"
    );
    false
}
