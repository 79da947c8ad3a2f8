//! One rule for a test whose real component is not on this computer (PostgreSQL, a
//! Vulkan driver, the PDF readers, libfaketime, postfix): it is skipped with one loud
//! line, written past the test harness's capture so it shows even when the test passes,
//! and again in a summary when the test program ends (after its "test result" line) —
//! unless `INVOICE_DESK_TESTS_REQUIRE` names it (or `all`), as CI does: then it fails.
//! A test that needs a component build.rs found missing is already marked ignored (see
//! `probe.rs`); this is the net for one that went missing since the build.
//! Included by each helper module that starts or finds such a component.
#![allow(dead_code)]

#[path = "probe.rs"]
pub mod probe;

use std::collections::BTreeMap;
use std::sync::Mutex;

/// What was skipped in this test program: each reason, and how many times.
static SKIPPED: Mutex<BTreeMap<String, usize>> = Mutex::new(BTreeMap::new());

pub use probe::required;

/// `what` cannot be used here, for the reason `why` (which names the package that
/// installs it): fails when it is required, else says `SKIPPED: why`, counts it for the
/// summary at the end, and gives false.
pub fn unavailable(what: &str, why: &str) -> bool {
    assert!(
        !required(what),
        "{what} is required (INVOICE_DESK_TESTS_REQUIRE) and cannot be used here: {why}"
    );
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED: {why}; a test, or the part of it that needs it, did not run"
    );
    let first = match SKIPPED.lock() {
        Ok(mut s) => {
            let first = s.is_empty();
            *s.entry(why.to_string()).or_default() += 1;
            first
        }
        Err(_) => false,
    };
    if first {
        summary_at_exit();
    }
    false
}

/// Has the summary said when the test program exits (the harness calls `exit` after its
/// last line).
#[cfg(unix)]
fn summary_at_exit() {
    extern "C" fn summary() {
        use std::io::Write;
        let Ok(s) = SKIPPED.lock() else { return };
        let mut err = std::io::stderr().lock();
        for (why, n) in s.iter() {
            let _ = writeln!(
                err,
                "SKIPPED in this test program: {n} test(s), or their parts that need it, did not run: {why}"
            );
        }
    }
    // SAFETY: atexit takes a plain function pointer that lives for the whole program;
    // the function only reads a static and writes to stderr.
    unsafe {
        libc::atexit(summary);
    }
}

#[cfg(not(unix))]
fn summary_at_exit() {}
