//! The manual page (`man 1 invoice-desk`), written from the command line's own definition
//! so that it says what `--help` says: `cargo run --example manpage > invoice-desk.1`.
//! dist/build-linux.sh and dist/check-packages.sh make it before packaging.
use clap::CommandFactory;

fn main() -> std::io::Result<()> {
    clap_mangen::Man::new(invoice_desk::cli::Cli::command()).render(&mut std::io::stdout().lock())
}
