//! Which real components the tests use are missing here (PostgreSQL, the PDF readers,
//! libfaketime, postfix, a Vulkan driver): each missing one sets `tests_lack = "…"`, and a
//! test that needs it is `#[cfg_attr(tests_lack = "…", ignore = "needs … (apt-get install
//! …)")]`, so `cargo test` reports it as ignored with the package to install, never as
//! passed. Not when `INVOICE_DESK_TESTS_REQUIRE` names the component (CI names them all):
//! then the test runs, and fails if the component is missing. Only tests read the cfg.

#[path = "tests/skip/probe.rs"]
mod probe;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=tests/skip/probe.rs");
    println!("cargo::rerun-if-env-changed=INVOICE_DESK_TESTS_REQUIRE");
    println!("cargo::rerun-if-env-changed=PATH");
    println!("cargo::rerun-if-env-changed=VK_ICD_FILENAMES");
    // Debian's list of installed packages: `apt-get install` changes it, and the probes
    // are made again.
    if std::path::Path::new("/var/lib/dpkg/status").is_file() {
        println!("cargo::rerun-if-changed=/var/lib/dpkg/status");
    }
    let names: Vec<String> = probe::ALL
        .iter()
        .map(|(what, _)| format!("\"{what}\""))
        .collect();
    println!(
        "cargo::rustc-check-cfg=cfg(tests_lack, values({}))",
        names.join(", ")
    );
    for (what, here) in probe::ALL {
        if !probe::required(what) && !here() {
            println!("cargo::rustc-cfg=tests_lack=\"{what}\"");
        }
    }
}
