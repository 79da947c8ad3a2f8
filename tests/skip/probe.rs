//! Whether each real component the tests use is on this computer. Read by build.rs, which
//! marks the tests that need a missing one ignored (so `cargo test` reports them as
//! ignored, naming the package, not as passed), and by the tests' own checks, which skip
//! loudly where the two disagree (a component removed since the build).
#![allow(dead_code)]

use std::path::Path;

/// A component's name, as `INVOICE_DESK_TESTS_REQUIRE` and the `tests_lack` cfg say it,
/// and its probe.
pub type Component = (&'static str, fn() -> bool);

/// Every component.
pub const ALL: [Component; 5] = [
    ("postgres", postgres),
    ("pdf", pdf),
    ("faketime", faketime),
    ("smtp", smtp),
    ("vulkan", vulkan),
];

/// libfaketime, as Debian's `faketime` package installs it (its thread-safe build).
pub const LIBFAKETIME: &str = "/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1";

/// postfix's master, as Debian installs it.
pub const POSTFIX_MASTER: &str = "/usr/lib/postfix/sbin/master";

/// The programs that read back what we write as PDF (poppler-utils, qpdf, zbar-tools).
pub const PDF_READERS: [&str; 6] = [
    "pdftotext",
    "pdftoppm",
    "pdfinfo",
    "pdffonts",
    "qpdf",
    "zbarimg",
];

/// Whether `INVOICE_DESK_TESTS_REQUIRE` names `what` (or `all`).
pub fn required(what: &str) -> bool {
    std::env::var("INVOICE_DESK_TESTS_REQUIRE")
        .unwrap_or_default()
        .split(',')
        .any(|t| t.trim() == what || t.trim() == "all")
}

/// Whether the program `tool` is on the PATH.
pub fn on_path(tool: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join(tool).is_file()))
}

/// PostgreSQL's `initdb`, in Debian's versioned folders or on the PATH.
pub fn postgres() -> bool {
    let versioned = std::fs::read_dir("/usr/lib/postgresql").is_ok_and(|d| {
        d.flatten()
            .any(|e| e.path().join("bin").join("initdb").is_file())
    });
    versioned || on_path("initdb")
}

pub fn pdf() -> bool {
    PDF_READERS.iter().all(|t| on_path(t))
}

pub fn faketime() -> bool {
    Path::new(LIBFAKETIME).is_file()
}

/// postfix, whose master runs as root: the tests start it only when they are root.
pub fn smtp() -> bool {
    Path::new(POSTFIX_MASTER).is_file() && is_root()
}

/// A Vulkan driver (an ICD file, as mesa-vulkan-drivers installs) on Linux; elsewhere the
/// system's own graphics (Metal, Direct3D) serve.
pub fn vulkan() -> bool {
    if !cfg!(target_os = "linux") {
        return true;
    }
    std::env::var_os("VK_ICD_FILENAMES").is_some()
        || ["/usr/share/vulkan/icd.d", "/etc/vulkan/icd.d"]
            .iter()
            .any(|d| std::fs::read_dir(d).is_ok_and(|mut e| e.next().is_some()))
}

/// Whether this process runs as root (read from /proc: build.rs has no libc).
pub fn is_root() -> bool {
    std::fs::read_to_string("/proc/self/status").is_ok_and(|s| {
        s.lines()
            .find_map(|l| l.strip_prefix("Uid:"))
            .and_then(|ids| ids.split_whitespace().next())
            == Some("0")
    })
}
