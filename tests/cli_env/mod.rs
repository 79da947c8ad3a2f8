//! The CLI binary as the tests run it: none of the caller's INVOICE_DESK_* settings,
//! profiles and journal in the test's own folder, no OS keyring.
#![allow(dead_code)]

// Each helper module is used alone by some test crates and beside the others by more:
// each carries its own copy of the one skipping rule.
#[allow(clippy::duplicate_mod)]
#[path = "../skip/mod.rs"]
mod skip;

use std::path::Path;

/// `invoice-desk` with a clean environment kept in `dir`.
pub fn cli(dir: &Path) -> std::process::Command {
    // INVOICE_DESK_TEST_BINARY runs the tests against another build (an older one, to
    // show that a test fails there).
    let bin = std::env::var_os("INVOICE_DESK_TEST_BINARY")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| assert_cmd::cargo::cargo_bin("invoice-desk"));
    let mut c = std::process::Command::new(bin);
    for (k, _) in std::env::vars() {
        if k.starts_with("INVOICE_DESK_") {
            c.env_remove(k);
        }
    }
    // English unless a test asks for Spanish (the messages follow the system's language).
    c.env("LANG", "en_US.UTF-8")
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env_remove("LANGUAGE");
    c.env("INVOICE_DESK_CONFIG_DIR", dir)
        .env("INVOICE_DESK_JOURNAL", dir.join("journal.sqlite3"))
        .env("INVOICE_DESK_KEYRING", "none");
    c
}

/// [`cli`] configured by the environment only for `s`'s OAuth organization (CLP account).
pub fn oauth_cli(s: &invoice_desk::sandbox::Sandbox, dir: &Path) -> std::process::Command {
    let mut c = cli(dir);
    c.env("INVOICE_DESK_BASE_URL", &s.base_url)
        .env("INVOICE_DESK_AUTH_URL", &s.auth_url)
        .env("INVOICE_DESK_AUDIENCE", &s.audience)
        .env("INVOICE_DESK_CLIENT_ID", &s.credentials.client_id)
        .env("INVOICE_DESK_CLIENT_SECRET", &s.credentials.client_secret)
        .env("INVOICE_DESK_ACCOUNT_KEY", &s.credentials.account_clp);
    c
}

/// A sandbox on its own runtime, and a folder for the CLI's settings and journal.
pub struct Env {
    _rt: tokio::runtime::Runtime,
    /// The sandbox.
    pub s: invoice_desk::sandbox::Sandbox,
    /// The folder.
    pub dir: tempfile::TempDir,
}

impl Env {
    /// A sandbox whose big customer has `big` invoices.
    pub fn new(big: usize) -> Env {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        let s = rt
            .block_on(invoice_desk::sandbox::Sandbox::start(
                invoice_desk::sandbox::SandboxConfig {
                    big_customer_invoices: big,
                    ..Default::default()
                },
            ))
            .unwrap();
        Env {
            _rt: rt,
            s,
            dir: tempfile::tempdir().unwrap(),
        }
    }

    /// The binary with a private folder, no keyring, and no INVOICE_DESK_* set.
    pub fn bare(&self) -> std::process::Command {
        cli(self.dir.path())
    }

    /// Configured by the environment only (OAuth organization).
    pub fn oauth(&self) -> std::process::Command {
        oauth_cli(&self.s, self.dir.path())
    }

    /// A regular customer's id.
    pub fn customer(&self) -> String {
        self.s.customers()[0].0.clone()
    }
}

/// Asserts the process's exit code, showing what it printed when it is another.
pub fn exits(out: &std::process::Output, code: i32) {
    assert_eq!(
        out.status.code(),
        Some(code),
        "stdout:\n{}\nstderr:\n{}",
        text(&out.stdout),
        text(&out.stderr)
    );
}

/// Output as text.
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Runs the command `make` builds, with a short in-flight window (a 2 s request limit
/// and a 1 s margin), again and again until it exits 0; in between only "still waiting
/// for an outcome" (exit 6) is allowed. Gives up after 120 s.
pub fn until_settled(make: impl Fn() -> std::process::Command) {
    let started = std::time::Instant::now();
    loop {
        let out = make()
            .env("INVOICE_DESK_TIMEOUT", "2")
            .env("INVOICE_DESK_IN_FLIGHT_MARGIN", "1")
            .output()
            .unwrap();
        if out.status.code() == Some(0) {
            return;
        }
        exits(&out, 6);
        assert!(
            started.elapsed() < std::time::Duration::from_secs(120),
            "{}",
            text(&out.stdout)
        );
        std::thread::sleep(std::time::Duration::from_millis(250));
    }
}

/// Sends signal `sig` (`libc::SIGINT`, `libc::SIGSTOP`, …) to a child process: without a
/// `kill` program, which a minimal system does not have (procps). Whether it was sent.
#[cfg(unix)]
#[allow(dead_code)]
pub fn signal(child: &std::process::Child, sig: i32) -> bool {
    let Ok(pid) = i32::try_from(child.id()) else {
        return false;
    };
    // SAFETY: kill takes two integers and touches no memory of ours; the pid is our
    // own child's, not yet waited for.
    unsafe { libc::kill(pid, sig) == 0 }
}

/// Whether the programs that read back what we write as PDF are here (poppler-utils,
/// qpdf, zbar-tools): else the test is skipped with one loud line, unless
/// `INVOICE_DESK_TESTS_REQUIRE` names `pdf` (CI sets it), when it fails.
#[allow(dead_code)]
pub fn have_pdf_readers() -> bool {
    skip::probe::pdf()
        || skip::unavailable(
            "pdf",
            "the PDF readers are not installed (apt-get install poppler-utils qpdf zbar-tools)",
        )
}

/// Whether the program `tool` (Debian package `package`) is here for the tests that need
/// it. Missing: the test is skipped with one loud line naming the package, unless
/// `INVOICE_DESK_TESTS_REQUIRE` names the tool (CI sets it), when it fails.
#[allow(dead_code)]
pub fn have_tool(tool: &str, package: &str) -> bool {
    skip::probe::on_path(tool) || skipped(tool, package)
}

/// Whether the file `path` of the component `what` (Debian package `package`) is here;
/// as [`have_tool`] when it is not.
#[allow(dead_code)]
pub fn have_file(what: &str, path: &str, package: &str) -> bool {
    std::path::Path::new(path).is_file() || skipped(what, package)
}

/// Says loudly that `what` is missing and the test did not run (written past the test
/// harness's capture, so it shows), or fails when it is required. Always false.
fn skipped(what: &str, package: &str) -> bool {
    skip::unavailable(
        what,
        &format!("{what} is not installed (apt-get install {package})"),
    )
}
